"""Records and state of the ``on_call`` service (PagerDuty REST API v2 shapes).

Users, escalation policies with ordered levels, schedules made of rotation
layers plus overrides, technical services keyed like the deploy projects, and
incidents with their notes and log entries.
"""

from __future__ import annotations

from typing import Literal, Optional

from pydantic import Field

from compoworld_gym.entities import DateTime, Email, Id, PersonName
from compoworld_gym.service import Record, ServiceState

IncidentStatus = Literal["triggered", "acknowledged", "resolved"]
Urgency = Literal["high", "low"]
UserRole = Literal["admin", "manager", "responder", "observer"]


class OnCallUser(Record):
    """A PagerDuty user (an account member who can be paged)."""

    id: Id("user") = Field(description="User id, e.g. PU-0001.")
    name: PersonName = Field(description="Full name.")
    email: Email = Field(description="Login email (work email).")
    role: UserRole = Field(description="Account role; observers cannot be paged.")
    team: str = Field(description="Team key, e.g. 'payments'.")


class ScheduleLayer(Record):
    """One rotation layer: users take turns of ``rotation_turn_length_seconds``."""

    name: str = Field(description="Layer name, e.g. 'Primary weekly'.")
    users: list[Email] = Field(min_length=1, description="Rotation order (emails); the first starts at the virtual start.")
    rotation_virtual_start: DateTime = Field(description="When the first user's first turn began.")
    rotation_turn_length_seconds: int = Field(ge=3600, description="Length of one turn in seconds (604800 = weekly).")


class ScheduleOverride(Record):
    """A temporary replacement: ``user`` is on call from ``start`` until ``end`` (exclusive)."""

    id: str = Field(description="Override id, e.g. PO-0001.")
    user: Email = Field(description="Who covers.")
    start: DateTime = Field(description="Start of the cover.")
    end: DateTime = Field(description="End of the cover (exclusive).")


class Schedule(Record):
    """An on-call schedule: layers (the last listed layer wins) and overrides (win over layers)."""

    id: Id("oncall_schedule") = Field(description="Schedule id, e.g. PS-0001.")
    name: str = Field(description="Schedule name.")
    time_zone: str = Field(default="UTC", description="IANA time zone the schedule is shown in.")
    layers: list[ScheduleLayer] = Field(min_length=1, description="Rotation layers, lowest priority first.")
    overrides: list[ScheduleOverride] = Field(default_factory=list, description="Overrides, in creation order.")


class EscalationTarget(Record):
    """Who a level pages: a schedule (its current on-call) or a user directly."""

    type: Literal["schedule_reference", "user_reference"] = Field(description="Target kind.")
    id: str = Field(description="Schedule id or user email.")


class EscalationRule(Record):
    """One escalation level."""

    escalation_delay_in_minutes: int = Field(ge=1, description="Minutes before escalating to the next level.")
    targets: list[EscalationTarget] = Field(min_length=1, description="Who this level pages.")


class EscalationPolicy(Record):
    """Ordered escalation levels (level 1 is paged first)."""

    id: Id("escalation_policy") = Field(description="Policy id, e.g. PE-0001.")
    name: str = Field(description="Policy name.")
    escalation_rules: list[EscalationRule] = Field(min_length=1, description="Levels, level 1 first.")
    num_loops: int = Field(default=0, ge=0, le=9, description="How many times the policy repeats after the last level.")


class TechnicalService(Record):
    """A technical service: incidents on it page its escalation policy."""

    id: Id("project") = Field(description="Service key (same as the deploy project id), e.g. 'checkout-api'.")
    name: str = Field(description="Display name.")
    team: str = Field(description="Owning team key.")
    escalation_policy_id: Id("escalation_policy") = Field(description="Policy paged for its incidents.")
    status: Literal["active", "disabled", "maintenance"] = Field(default="active", description="Service status.")


class IncidentNote(Record):
    """A note on an incident's timeline."""

    id: str = Field(description="Note id, e.g. PN-0001.")
    user_email: Email = Field(description="Who wrote it.")
    content: str = Field(description="Note text.")
    created_at: DateTime = Field(description="When (logical clock).")


class LogEntry(Record):
    """One line of an incident's log (what happened, by whom)."""

    type: str = Field(description="e.g. trigger_log_entry, acknowledge_log_entry, assign_log_entry.")
    summary: str = Field(description="Human-readable line.")
    agent_email: Email = Field(description="Who did it.")
    created_at: DateTime = Field(description="When (logical clock).")


class OnCallIncident(Record):
    """An incident on a technical service."""

    id: Id("incident") = Field(description="Incident id, e.g. PI-0001.")
    incident_number: int = Field(ge=1, description="Account-wide incident number.")
    title: str = Field(description="Summary.")
    service_id: Id("project") = Field(description="Affected technical service.")
    escalation_policy_id: Id("escalation_policy") = Field(description="Policy paging for it.")
    status: IncidentStatus = Field(description="triggered, acknowledged or resolved.")
    urgency: Urgency = Field(description="high pages at once; low during work hours.")
    assignee_email: Email = Field(description="Responder currently assigned.")
    escalation_level: int = Field(ge=1, description="Current escalation level.")
    created_at: DateTime = Field(description="When it was triggered.")
    acknowledged_at: Optional[DateTime] = Field(default=None, description="Last acknowledgement.")
    resolved_at: Optional[DateTime] = Field(default=None, description="When it was resolved.")
    resolution: str = Field(default="", description="Resolution summary.")
    notes: list[IncidentNote] = Field(default_factory=list, description="Notes, oldest first.")
    log_entries: list[LogEntry] = Field(default_factory=list, description="Log, oldest first.")

    def summary(self) -> dict:
        """The incident as list endpoints show it: without notes and log entries."""
        return self.model_dump(exclude={"notes", "log_entries"})


class OnCallState(ServiceState):
    """Users, schedules, escalation policies, technical services and incidents."""

    users: dict[str, OnCallUser] = Field(default_factory=dict, description="Users by id.")
    schedules: dict[str, Schedule] = Field(default_factory=dict, description="Schedules by id.")
    policies: dict[str, EscalationPolicy] = Field(default_factory=dict, description="Escalation policies by id.")
    services: dict[str, TechnicalService] = Field(default_factory=dict, description="Technical services by key.")
    incidents: dict[str, OnCallIncident] = Field(default_factory=dict, description="Incidents by id.")
