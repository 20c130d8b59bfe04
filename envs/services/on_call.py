"""On-call: PagerDuty-style schedules, escalation policies and incidents.

No PagerDuty server is in ``compoworld_gym/data/mcp_servers.jsonl``; the interface
follows the PagerDuty REST API v2 (``/users``, ``/schedules`` with rotation
layers and ``/overrides``, ``/escalation_policies`` with ordered
``escalation_rules``, ``/oncalls``, ``/services``, ``/incidents`` with
``/notes``), with the ``From`` header as a ``from_email`` argument. Technical
services are keyed by the same service keys as deployments, monitoring and
status_page. ``/services`` becomes ``list_technical_services`` so as not to
shadow the ``list_services`` meta-tool.

Rules as in PagerDuty: an incident is assigned to the level-1 on-call of its
service's policy when triggered; triggered → acknowledged → resolved, and an
acknowledged or resolved incident cannot go back to triggered (409); only the
current on-call or a member of the incident's escalation policy may be
assigned (422); observers (read-only seats) cannot act (422).
"""

from __future__ import annotations

import datetime as dt
import random
from typing import Optional

from faker import Faker
from pydantic import Field

from compoworld_gym.entities import DateTime, Email, Id
from compoworld_gym.envs.services._blocks import already, ieq, eq, next_number, require_status, select, text
from compoworld_gym.envs.services._on_call_models import (
    EscalationPolicy, IncidentNote, IncidentStatus, LogEntry, OnCallIncident, OnCallState, OnCallUser, Schedule,
    ScheduleOverride, TechnicalService, Urgency,
)
from compoworld_gym.envs.services._on_call_rules import level_emails, oncall_rows, policy_members, schedule_oncall
from compoworld_gym.envs.services._on_call_seed import build_on_call_seed
from compoworld_gym.errors import Conflict, InvalidArgument, NotFound, Unprocessable
from compoworld_gym.service import Service, tool


class OnCall(Service):
    """PagerDuty REST API v2 style on-call management and incident response."""

    name = "on_call"
    description = ("On-call management: schedules with rotations and overrides, escalation policies, who is on "
                   "call, and incidents triggered, acknowledged, reassigned, escalated and resolved.")
    domain = "devops"
    spec_source = None
    State = OnCallState

    # ---------------------------------------------------------------- helpers
    def _user(self, email: str, acting: bool = True) -> OnCallUser:
        for u in self.state.users.values():
            if u.email.lower() == email.lower():
                if acting and u.role == "observer":
                    raise Unprocessable(f"{u.email} has an observer (read-only) seat and cannot change incidents "
                                        "or schedules.")
                return u
        raise NotFound(f"no user with email {email!r}; call list_users for valid emails.")

    def _incident(self, incident_id: str) -> OnCallIncident:
        return self.lookup(self.state.incidents, incident_id, "incident")

    def _open(self, incident_id: str, action: str) -> OnCallIncident:
        inc = self._incident(incident_id)
        require_status("incident", inc.id, inc.status, ("triggered", "acknowledged"), action)
        return inc

    def _log(self, inc: OnCallIncident, kind: str, summary: str, agent: str) -> None:
        inc.log_entries.append(LogEntry(type=kind, summary=summary, agent_email=agent, created_at=self.now()))

    def _clock(self) -> dt.datetime:
        """The current logical instant, without advancing the clock (reads must not change state)."""
        return dt.datetime.combine(self.today, dt.time(9, 0)) + dt.timedelta(minutes=self.state.clock)

    def _oncall_rows(self, policy: EscalationPolicy) -> list[dict]:
        return oncall_rows(policy, self.state.schedules, self._clock())

    # ------------------------------------------------------------------ reads
    @tool(read_only=True, returns=list[OnCallUser])
    def list_users(self, team: Optional[str] = None, query: Optional[str] = None) -> list[dict]:
        """List account users (GET /users), optionally of one team or matching a name/email.

        Args:
            team: team key, e.g. 'payments'.
            query: text in the name or email.
        """
        return [u.model_dump() for u in select(self.state.users.values(), ieq("team", team),
                                               text(query, "name", "email"))]

    @tool(read_only=True, returns=list[Schedule])
    def list_schedules(self, query: Optional[str] = None) -> list[dict]:
        """List on-call schedules (GET /schedules) without their layers.

        Args:
            query: text in the schedule name.
        """
        return [s.model_dump(exclude={"layers", "overrides"})
                for s in select(self.state.schedules.values(), text(query, "name"))]

    @tool(read_only=True, returns=Schedule)
    def get_schedule(self, schedule_id: Id("oncall_schedule")) -> dict:
        """Get a schedule with its rotation layers, overrides and who is on call now (final schedule).

        Args:
            schedule_id: the schedule id, e.g. PS-0001.
        """
        s = self.lookup(self.state.schedules, schedule_id, "schedule")
        hit = schedule_oncall(s, self._clock())
        now = {"user_email": hit[0], "start": hit[1], "end": hit[2]} if hit else None
        return {**s.model_dump(), "oncall_now": now}

    @tool(read_only=True, returns=list[EscalationPolicy])
    def list_escalation_policies(self, query: Optional[str] = None) -> list[dict]:
        """List escalation policies (GET /escalation_policies) with their levels.

        Args:
            query: text in the policy name.
        """
        return [p.model_dump() for p in select(self.state.policies.values(), text(query, "name"))]

    @tool(read_only=True, returns=EscalationPolicy)
    def get_escalation_policy(self, escalation_policy_id: Id("escalation_policy")) -> dict:
        """Get one escalation policy: levels in order, each with delay and targets.

        Args:
            escalation_policy_id: the policy id, e.g. PE-0001.
        """
        return self.lookup(self.state.policies, escalation_policy_id, "escalation policy").model_dump()

    @tool(read_only=True)
    def list_oncalls(self, escalation_policy_id: Optional[Id("escalation_policy")] = None,
                     user_email: Optional[Email] = None) -> list[dict]:
        """Who is on call right now, per policy and level (GET /oncalls).

        Returns ``[{escalation_policy_id, escalation_level, user_email, schedule_id}]``.

        Args:
            escalation_policy_id: only this policy.
            user_email: only entries of this user.
        """
        pols = ([self.lookup(self.state.policies, escalation_policy_id, "escalation policy")]
                if escalation_policy_id else list(self.state.policies.values()))
        rows = [r for p in pols for r in self._oncall_rows(p)]
        return [r for r in rows if user_email is None or r["user_email"].lower() == user_email.lower()]

    @tool(read_only=True, returns=list[TechnicalService])
    def list_technical_services(self, team: Optional[str] = None, query: Optional[str] = None) -> list[dict]:
        """List technical services (GET /services) with their escalation policy.

        Args:
            team: owning team key.
            query: text in the service key or name.
        """
        return [s.model_dump() for s in select(self.state.services.values(), ieq("team", team),
                                               text(query, "id", "name"))]

    @tool(read_only=True, returns=TechnicalService)
    def get_technical_service(self, service_id: Id("project")) -> dict:
        """Get one technical service by its service key, e.g. 'checkout-api'.

        Args:
            service_id: the service key.
        """
        return self.lookup(self.state.services, service_id, "technical service").model_dump()

    @tool(read_only=True, returns=list[OnCallIncident])
    def list_incidents(self, status: Optional[IncidentStatus] = None, service_id: Optional[Id("project")] = None,
                       assignee_email: Optional[Email] = None, urgency: Optional[Urgency] = None,
                       limit: int = Field(default=25, ge=1, le=100)) -> list[dict]:
        """List incidents, newest first, without notes and log (GET /incidents).

        Args:
            status: only this status.
            service_id: only this service key.
            assignee_email: only incidents assigned to this user.
            urgency: high or low.
            limit: maximum number of incidents (1-100).
        """
        hits = select(reversed(self.state.incidents.values()), eq("status", status), eq("service_id", service_id),
                      ieq("assignee_email", assignee_email), eq("urgency", urgency), limit=limit)
        return [i.summary() for i in hits]

    @tool(read_only=True, returns=OnCallIncident)
    def get_incident(self, incident_id: Id("incident")) -> dict:
        """Get one incident with its notes and log entries.

        Args:
            incident_id: the incident id, e.g. PI-0001.
        """
        return self._incident(incident_id).model_dump()

    @tool(read_only=True, returns=list[IncidentNote])
    def list_incident_notes(self, incident_id: Id("incident")) -> list[dict]:
        """List an incident's notes, oldest first (GET /incidents/{id}/notes).

        Args:
            incident_id: the incident id, e.g. PI-0001.
        """
        return [n.model_dump() for n in self._incident(incident_id).notes]

    # ----------------------------------------------------------------- writes
    @tool(read_only=False, returns=OnCallIncident)
    def create_incident(self, service_id: Id("project"), title: str = Field(min_length=1, max_length=255),
                        from_email: Email = Field(description="Requester (PagerDuty From header)."),
                        urgency: Urgency = "high") -> dict:
        """Trigger an incident on a service; it is assigned to the policy's level-1 on-call (POST /incidents).

        Refused (422) when the service is disabled or in maintenance, or nobody is on call at level 1.

        Args:
            service_id: the service key, e.g. 'checkout-api'.
            title: what is wrong.
            from_email: the requester's user email (PagerDuty From header).
            urgency: high (page now) or low.
        """
        actor = self._user(from_email)
        svc = self.lookup(self.state.services, service_id, "technical service")
        if svc.status != "active":
            raise Unprocessable(f"service {svc.id} is {svc.status}; incidents cannot be triggered on it.")
        policy = self.state.policies[svc.escalation_policy_id]
        first = level_emails(policy, 1, self.state.schedules, self._clock())
        if not first:
            raise Unprocessable(f"nobody is on call at level 1 of {policy.id}; add a schedule override first.")
        inc = OnCallIncident(id=self.new_id("PI"), incident_number=next_number(self.state.counters, "incident_number"),
                             title=title, service_id=svc.id, escalation_policy_id=policy.id, status="triggered",
                             urgency=urgency, assignee_email=first[0], escalation_level=1, created_at=self._clock())
        self._log(inc, "trigger_log_entry", f"Triggered by {actor.email}; assigned to {first[0]}.", actor.email)
        self.state.incidents[inc.id] = inc
        return inc.summary()

    @tool(read_only=False, returns=OnCallIncident)
    def acknowledge_incident(self, incident_id: Id("incident"), from_email: Email) -> dict:
        """Acknowledge a triggered incident (stops escalation); 409 unless it is triggered.

        Args:
            incident_id: the incident.
            from_email: the acknowledging user's email.
        """
        actor = self._user(from_email)
        inc = self._incident(incident_id)
        require_status("incident", inc.id, inc.status, ("triggered",), "acknowledge")
        inc.status, inc.acknowledged_at = "acknowledged", self._clock()
        self._log(inc, "acknowledge_log_entry", f"Acknowledged by {actor.email}.", actor.email)
        return inc.summary()

    @tool(read_only=False, returns=OnCallIncident)
    def resolve_incident(self, incident_id: Id("incident"), from_email: Email,
                         resolution: str = Field(default="", max_length=2000)) -> dict:
        """Resolve a triggered or acknowledged incident, with an optional resolution summary.

        Args:
            incident_id: the incident.
            from_email: the resolving user's email.
            resolution: how it was fixed.
        """
        actor = self._user(from_email)
        inc = self._open(incident_id, "resolve")
        inc.status, inc.resolved_at, inc.resolution = "resolved", self._clock(), resolution
        self._log(inc, "resolve_log_entry", f"Resolved by {actor.email}.", actor.email)
        return inc.summary()

    @tool(read_only=False, returns=OnCallIncident)
    def update_incident(self, incident_id: Id("incident"), from_email: Email,
                        status: Optional[IncidentStatus] = None, urgency: Optional[Urgency] = None,
                        title: Optional[str] = Field(default=None, min_length=1, max_length=255)) -> dict:
        """Change an open incident's status, urgency or title (PUT /incidents/{id}).

        Status only moves forward: an acknowledged incident cannot be re-triggered (409).

        Args:
            incident_id: the incident.
            from_email: the acting user's email.
            status: acknowledged or resolved (triggered only while it still is).
            urgency: high or low.
            title: new summary.
        """
        if status is None and urgency is None and title is None:
            raise InvalidArgument("nothing to update; pass status, urgency or title.")
        actor = self._user(from_email)
        inc = self._open(incident_id, "update")
        order = ("triggered", "acknowledged", "resolved")
        if status is not None and order.index(status) < order.index(inc.status):
            raise Conflict(f"incident {inc.id} is {inc.status}; it cannot be re-triggered.")
        if status == "acknowledged" and inc.status == "triggered":
            inc.acknowledged_at = self._clock()
        if status == "resolved":
            inc.resolved_at = self._clock()
        inc.status, inc.urgency, inc.title = status or inc.status, urgency or inc.urgency, title or inc.title
        self._log(inc, "update_log_entry", f"Updated by {actor.email}.", actor.email)
        return inc.summary()

    @tool(read_only=False, returns=OnCallIncident)
    def reassign_incident(self, incident_id: Id("incident"), assignee_email: Email, from_email: Email) -> dict:
        """Hand an open incident to another responder (the current on-call or a member of its escalation policy).

        Args:
            incident_id: the incident.
            assignee_email: the new assignee.
            from_email: the acting user's email.
        """
        actor = self._user(from_email)
        inc = self._open(incident_id, "reassign")
        new = self._user(assignee_email)
        policy = self.state.policies[inc.escalation_policy_id]
        oncall = {r["user_email"].lower() for r in self._oncall_rows(policy)}
        if new.email.lower() not in oncall | policy_members(policy, self.state.schedules):
            raise Unprocessable(f"{new.email} is neither on call nor a member of escalation policy {policy.id}; "
                                "call get_escalation_policy or list_oncalls for who may be assigned.")
        if inc.assignee_email.lower() == new.email.lower():
            raise already("incident", inc.id, f"assigned to {new.email}")
        inc.assignee_email = new.email
        self._log(inc, "assign_log_entry", f"Reassigned to {new.email} by {actor.email}.", actor.email)
        return inc.summary()

    @tool(read_only=False, returns=OnCallIncident)
    def escalate_incident(self, incident_id: Id("incident"), escalation_level: int = Field(ge=1, le=10),
                          from_email: Email = Field(description="The acting user's email.")) -> dict:
        """Escalate an open incident to a level of its policy; it is assigned to that level's first responder.

        Args:
            incident_id: the incident.
            escalation_level: the target level (1-based, must exist in the policy).
            from_email: the acting user's email.
        """
        actor = self._user(from_email)
        inc = self._open(incident_id, "escalate")
        policy = self.state.policies[inc.escalation_policy_id]
        if escalation_level > len(policy.escalation_rules):
            raise InvalidArgument(f"policy {policy.id} has {len(policy.escalation_rules)} levels; "
                                  f"escalation_level must be 1-{len(policy.escalation_rules)}.")
        if escalation_level == inc.escalation_level:
            raise already("incident", inc.id, f"at escalation level {escalation_level}")
        who = level_emails(policy, escalation_level, self.state.schedules, self._clock())
        if not who:
            raise Unprocessable(f"nobody is on call at level {escalation_level} of {policy.id}.")
        inc.escalation_level, inc.assignee_email = escalation_level, who[0]
        self._log(inc, "escalate_log_entry", f"Escalated to level {escalation_level} ({who[0]}).", actor.email)
        return inc.summary()

    @tool(read_only=False, returns=IncidentNote)
    def add_note_to_incident(self, incident_id: Id("incident"), user_email: Email,
                             content: str = Field(min_length=1, max_length=5000)) -> dict:
        """Add a note to an incident's timeline (also allowed once resolved).

        Args:
            incident_id: the incident.
            user_email: who writes the note.
            content: the note text.
        """
        actor = self._user(user_email)
        inc = self._incident(incident_id)
        note = IncidentNote(id=self.new_id("PN"), user_email=actor.email, content=content, created_at=self.now())
        inc.notes.append(note)
        return {"incident_id": inc.id, **note.model_dump()}

    @tool(read_only=False, returns=ScheduleOverride)
    def create_schedule_override(self, schedule_id: Id("oncall_schedule"), user_email: Email, start: DateTime,
                                 end: DateTime) -> dict:
        """Put a user on call in a schedule from ``start`` until ``end`` (POST /schedules/{id}/overrides).

        Args:
            schedule_id: the schedule.
            user_email: who covers (a responder, not an observer).
            start: start of the cover (ISO datetime).
            end: end of the cover (ISO datetime, after start, at most 30 days later).
        """
        s = self.lookup(self.state.schedules, schedule_id, "schedule")
        u = self._user(user_email)
        start, end = start.replace(tzinfo=None), end.replace(tzinfo=None)
        if not start < end <= start + dt.timedelta(days=30):
            raise InvalidArgument("end must be after start and at most 30 days later.")
        if end <= self._clock():
            raise Unprocessable("the override would be entirely in the past.")
        o = ScheduleOverride(id=self.new_id("PO"), user=u.email, start=start, end=end)
        s.overrides.append(o)
        return o.model_dump()

    @tool(read_only=False, destructive=True)
    def delete_schedule_override(self, schedule_id: Id("oncall_schedule"), override_id: str) -> dict:
        """Remove a schedule override that has not ended yet (ended ones are history: 409).

        Args:
            schedule_id: the schedule.
            override_id: the override id, e.g. PO-0001.
        """
        s = self.lookup(self.state.schedules, schedule_id, "schedule")
        o = next((x for x in s.overrides if x.id == override_id), None)
        if o is None:
            raise NotFound(f"override {override_id!r} not found in {s.id}; call get_schedule for its overrides.")
        if o.end <= self._clock():
            raise Conflict(f"override {o.id} has already ended and cannot be deleted.")
        s.overrides.remove(o)
        return {"deleted": o.id, "schedule_id": s.id}

    # ------------------------------------------------------------------ seeds
    @classmethod
    def build_seed_state(cls, fake: Faker, rng: random.Random, today: dt.date) -> OnCallState:
        """Seeded roster, schedules, policies, services and incidents (see ``_on_call_seed``)."""
        return build_on_call_seed(rng, today)
