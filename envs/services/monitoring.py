"""Monitoring: alerts, incidents, on-call and escalation.

No PagerDuty or Datadog server is in ``compoworld_gym/data/mcp_servers.jsonl``; the
interface is designed the way PagerDuty's REST API (and its official MCP
server's tool names: ``list_incidents``, ``add_note_to_incident``,
``list_oncalls``, ``list_escalation_policies``) look, with Datadog-style
alerts from monitors: alerts fire on a service, are grouped into
incidents, incidents are assigned to the on-call engineer of the service's
escalation policy, and can be acknowledged, escalated level by level,
reassigned, annotated and resolved.
"""

from __future__ import annotations

import datetime as dt
import random
from typing import Literal, Optional

from faker import Faker
from pydantic import Field

from compoworld_gym.entities import DateTime, Email, Id
from compoworld_gym.envs.services._engineering import APPS, ENG_MANAGER, ENGINEERS, team_engineers
from compoworld_gym.errors import Conflict, InvalidArgument
from compoworld_gym.service import DAY_START, Record, Service, ServiceState, tool

Severity = Literal["critical", "high", "warning", "info"]
Status = Literal["triggered", "acknowledged", "resolved"]
Priority = Literal["P1", "P2", "P3", "P4"]


class EscalationPolicy(Record):
    """Who is paged, level by level."""

    id: str = Field(description="Policy id, e.g. EP-PAYMENTS.")
    name: str = Field(description="Policy name.")
    team: str = Field(description="Team the policy belongs to.")
    levels: list[Email] = Field(min_length=1, description="On-call email per level; level 1 first.")


class MonitoredService(Record):
    """A service whose alerts route through an escalation policy."""

    id: Id("project") = Field(description="Service key (same as the deploy project id), e.g. 'checkout-api'.")
    name: str = Field(description="Display name.")
    team: str = Field(description="Owning team.")
    escalation_policy_id: str = Field(description="Escalation policy used for its incidents.")


class Alert(Record):
    """An alert raised by a monitor."""

    id: Id("alert") = Field(description="Alert id, e.g. ALR-0001.")
    title: str = Field(description="What fired.")
    service: Id("project") = Field(description="Service the alert is about.")
    monitor: str = Field(description="Monitor query that fired.")
    severity: Severity = Field(description="Severity.")
    status: Status = Field(description="triggered, acknowledged or resolved.")
    triggered_at: DateTime = Field(description="When it fired.")
    acknowledged_by: Optional[Email] = Field(default=None, description="Who acknowledged it.")
    resolved_by: Optional[Email] = Field(default=None, description="Who resolved it.")
    resolved_at: Optional[DateTime] = Field(default=None, description="When it was resolved.")
    incident_id: Optional[Id("incident")] = Field(default=None, description="Incident grouping it, if any.")


class Note(Record):
    """A timeline note on an incident."""

    author_email: Email = Field(description="Who wrote it.")
    content: str = Field(description="Note text.")
    created_at: DateTime = Field(description="When (logical clock).")


class Incident(Record):
    """An incident: one problem, one owner at a time."""

    id: Id("incident") = Field(description="Incident id, e.g. INC-0001.")
    title: str = Field(description="Summary.")
    service: Id("project") = Field(description="Affected service.")
    priority: Priority = Field(description="P1 (highest) to P4.")
    urgency: Literal["high", "low"] = Field(description="high pages immediately, low during work hours.")
    status: Status = Field(description="triggered, acknowledged or resolved.")
    assignee_email: Email = Field(description="Engineer currently responsible.")
    escalation_level: int = Field(ge=1, description="Current level in the escalation policy.")
    created_at: DateTime = Field(description="When it was opened.")
    resolved_at: Optional[DateTime] = Field(default=None, description="When it was resolved.")
    alert_ids: list[Id("alert")] = Field(default_factory=list, description="Alerts grouped into it.")
    notes: list[Note] = Field(default_factory=list, description="Timeline notes, oldest first.")
    resolution: str = Field(default="", description="How it was resolved.")


class MonitoringState(ServiceState):
    """Services, escalation policies, alerts and incidents."""

    services: dict[str, MonitoredService] = Field(default_factory=dict, description="Monitored services by id.")
    policies: dict[str, EscalationPolicy] = Field(default_factory=dict, description="Escalation policies by id.")
    alerts: dict[str, Alert] = Field(default_factory=dict, description="Alerts by id.")
    incidents: dict[str, Incident] = Field(default_factory=dict, description="Incidents by id.")


def _summary(i: Incident) -> dict:
    return i.model_dump(exclude={"notes"})


class Monitoring(Service):
    """PagerDuty/Datadog-style alerting and incident response."""

    name = "monitoring"
    description = ("Monitoring and on-call: alerts from monitors, incidents with owners, acknowledge, "
                   "escalate, resolve, and who is on call for each service.")
    domain = "engineering"
    spec_source = None
    State = MonitoringState

    # ---------------------------------------------------------------- helpers
    def _responder(self, email: str, what: str) -> None:
        known = {e.lower() for p in self.state.policies.values() for e in p.levels}
        if email.lower() not in known:
            raise InvalidArgument(f"{what} {email!r} is not an on-call responder; call list_oncalls "
                                  "for valid emails.")

    def _open_incident(self, incident_id: str) -> Incident:
        inc = self.lookup(self.state.incidents, incident_id, "incident")
        if inc.status == "resolved":
            raise Conflict(f"incident {incident_id} is already resolved.")
        return inc

    def _note(self, inc: Incident, author: str, content: str) -> None:
        inc.notes.append(Note(author_email=author, content=content, created_at=self.now()))

    # ------------------------------------------------------------------ reads
    @tool(read_only=True, returns=list[Alert])
    def list_alerts(self, status: Optional[Status] = None, severity: Optional[Severity] = None,
                    service: Optional[Id("project")] = None,
                    limit: int = Field(default=50, ge=1, le=200)) -> list[dict]:
        """List alerts, newest first.

        Args:
            status: only alerts with this status.
            severity: only alerts with this severity.
            service: only alerts on this service, e.g. 'checkout-api'.
            limit: maximum number of alerts (1-200).
        """
        out = [a.model_dump() for a in sorted(self.state.alerts.values(), key=lambda a: (a.triggered_at, a.id),
                                              reverse=True)
               if (status is None or a.status == status) and (severity is None or a.severity == severity)
               and (service is None or a.service == service)]
        return out[:limit]

    @tool(read_only=True, returns=Alert)
    def get_alert(self, alert_id: Id("alert")) -> dict:
        """Get one alert.

        Args:
            alert_id: the alert id, e.g. ALR-0001.
        """
        return self.lookup(self.state.alerts, alert_id, "alert").model_dump()

    @tool(read_only=True, returns=list[Incident])
    def list_incidents(self, status: Optional[Status] = None, service: Optional[Id("project")] = None,
                       assignee_email: Optional[Email] = None, priority: Optional[Priority] = None,
                       limit: int = Field(default=50, ge=1, le=200)) -> list[dict]:
        """List incidents (without notes), newest first.

        Args:
            status: only incidents with this status.
            service: only incidents on this service.
            assignee_email: only incidents assigned to this engineer.
            priority: only incidents with this priority.
            limit: maximum number of incidents (1-200).
        """
        out = [_summary(i) for i in sorted(self.state.incidents.values(), key=lambda i: (i.created_at, i.id),
                                           reverse=True)
               if (status is None or i.status == status) and (service is None or i.service == service)
               and (priority is None or i.priority == priority)
               and (assignee_email is None or i.assignee_email.lower() == assignee_email.lower())]
        return out[:limit]

    @tool(read_only=True, returns=Incident)
    def get_incident(self, incident_id: Id("incident")) -> dict:
        """Get one incident with its notes.

        Args:
            incident_id: the incident id, e.g. INC-0001.
        """
        return self.lookup(self.state.incidents, incident_id, "incident").model_dump()

    @tool(read_only=True)
    def list_oncalls(self, service: Optional[Id("project")] = None) -> list[dict]:
        """Who is on call for each service, level by level.

        Returns ``[{service, team, escalation_policy_id, oncalls: [{level, email}]}]``.

        Args:
            service: only this service.
        """
        if service is not None:
            self.lookup(self.state.services, service, "service")
        out = []
        for s in self.state.services.values():
            if service is None or s.id == service:
                levels = self.state.policies[s.escalation_policy_id].levels
                out.append({"service": s.id, "team": s.team, "escalation_policy_id": s.escalation_policy_id,
                            "oncalls": [{"level": n, "email": e} for n, e in enumerate(levels, start=1)]})
        return out

    @tool(read_only=True, returns=list[EscalationPolicy])
    def list_escalation_policies(self) -> list[dict]:
        """List escalation policies with their levels."""
        return [p.model_dump() for p in self.state.policies.values()]

    # ----------------------------------------------------------------- writes
    @tool(read_only=False, returns=Alert)
    def acknowledge_alert(self, alert_id: Id("alert"), user_email: Email) -> dict:
        """Acknowledge a triggered alert (409 unless it is triggered).

        Args:
            alert_id: the alert to acknowledge.
            user_email: the responder acknowledging it.
        """
        a = self.lookup(self.state.alerts, alert_id, "alert")
        self._responder(user_email, "user_email")
        if a.status != "triggered":
            raise Conflict(f"alert {alert_id} is {a.status}; only triggered alerts can be acknowledged.")
        a.status, a.acknowledged_by = "acknowledged", user_email
        return a.model_dump()

    @tool(read_only=False, returns=Alert)
    def resolve_alert(self, alert_id: Id("alert"), user_email: Email) -> dict:
        """Resolve an alert (409 if already resolved).

        Args:
            alert_id: the alert to resolve.
            user_email: the responder resolving it.
        """
        a = self.lookup(self.state.alerts, alert_id, "alert")
        self._responder(user_email, "user_email")
        if a.status == "resolved":
            raise Conflict(f"alert {alert_id} is already resolved.")
        a.status, a.resolved_by, a.resolved_at = "resolved", user_email, self.now()
        return a.model_dump()

    @tool(read_only=False, returns=Incident)
    def create_incident(self, title: str = Field(min_length=1, max_length=200),
                        service: Id("project") = Field(min_length=1), priority: Priority = "P3",
                        urgency: Literal["high", "low"] = "high",
                        alert_ids: list[Id("alert")] = Field(default_factory=list),
                        user_email: Email = Field(min_length=3)) -> dict:
        """Open an incident; it is assigned to level 1 of the service's escalation policy.

        Alerts given are grouped into it (409 if one is resolved or already in an incident).

        Args:
            title: summary of the problem.
            service: affected service, e.g. 'checkout-api'.
            priority: P1 (highest) to P4.
            urgency: high or low.
            alert_ids: alerts to group into the incident (same service).
            user_email: who opens the incident.
        """
        svc = self.lookup(self.state.services, service, "service")
        alerts = [self.lookup(self.state.alerts, a, "alert") for a in alert_ids]
        for a in alerts:
            if a.service != service:
                raise InvalidArgument(f"alert {a.id} is on {a.service}, not {service}.")
            if a.status == "resolved" or a.incident_id:
                where = "resolved" if a.status == "resolved" else f"already in incident {a.incident_id}"
                raise Conflict(f"alert {a.id} is {where}; group only open, ungrouped alerts.")
        now = self.now()
        inc = Incident(id=self.new_id("INC"), title=title, service=service, priority=priority, urgency=urgency,
                       status="triggered", assignee_email=self.state.policies[svc.escalation_policy_id].levels[0],
                       escalation_level=1, created_at=now, alert_ids=list(dict.fromkeys(alert_ids)),
                       notes=[Note(author_email=user_email, content=f"Incident opened: {title}", created_at=now)])
        for a in alerts:
            a.incident_id = inc.id
        self.state.incidents[inc.id] = inc
        return _summary(inc)

    @tool(read_only=False, returns=Incident)
    def acknowledge_incident(self, incident_id: Id("incident"), user_email: Email) -> dict:
        """Acknowledge a triggered incident: the responder is working on it (409 otherwise).

        Args:
            incident_id: the incident to acknowledge.
            user_email: the responder acknowledging it.
        """
        inc = self._open_incident(incident_id)
        self._responder(user_email, "user_email")
        if inc.status != "triggered":
            raise Conflict(f"incident {incident_id} is already acknowledged.")
        inc.status = "acknowledged"
        self._note(inc, user_email, "Acknowledged.")
        return _summary(inc)

    @tool(read_only=False, returns=Incident)
    def resolve_incident(self, incident_id: Id("incident"), user_email: Email,
                         resolution: str = Field(min_length=1, max_length=2000)) -> dict:
        """Resolve an incident and every open alert grouped into it.

        Args:
            incident_id: the incident to resolve.
            user_email: the responder resolving it.
            resolution: what fixed it.
        """
        inc = self._open_incident(incident_id)
        self._responder(user_email, "user_email")
        now = self.now()
        inc.status, inc.resolved_at, inc.resolution = "resolved", now, resolution
        inc.notes.append(Note(author_email=user_email, content=f"Resolved: {resolution}", created_at=now))
        for aid in inc.alert_ids:
            a = self.state.alerts[aid]
            if a.status != "resolved":
                a.status, a.resolved_by, a.resolved_at = "resolved", user_email, now
        return _summary(inc)

    @tool(read_only=False, returns=Incident)
    def escalate_incident(self, incident_id: Id("incident"), user_email: Email,
                          reason: str = Field(min_length=1, max_length=500)) -> dict:
        """Escalate to the next level of the escalation policy; the incident is re-triggered.

        409 if resolved or already at the last level.

        Args:
            incident_id: the incident to escalate.
            user_email: who escalates.
            reason: why it is escalated.
        """
        inc = self._open_incident(incident_id)
        levels = self.state.policies[self.state.services[inc.service].escalation_policy_id].levels
        if inc.escalation_level >= len(levels):
            raise Conflict(f"incident {incident_id} is already at the last escalation level "
                           f"({inc.escalation_level}, {inc.assignee_email}).")
        inc.escalation_level += 1
        inc.assignee_email, inc.status = levels[inc.escalation_level - 1], "triggered"
        self._note(inc, user_email, f"Escalated to level {inc.escalation_level} ({inc.assignee_email}): {reason}")
        return _summary(inc)

    @tool(read_only=False, returns=Incident)
    def reassign_incident(self, incident_id: Id("incident"), assignee_email: Email, user_email: Email) -> dict:
        """Hand an open incident to another responder.

        Args:
            incident_id: the incident to reassign.
            assignee_email: the responder who takes it over.
            user_email: who reassigns it.
        """
        inc = self._open_incident(incident_id)
        self._responder(assignee_email, "assignee_email")
        if inc.assignee_email.lower() == assignee_email.lower():
            raise Conflict(f"incident {incident_id} is already assigned to {assignee_email}.")
        inc.assignee_email = assignee_email
        self._note(inc, user_email, f"Reassigned to {assignee_email}.")
        return _summary(inc)

    @tool(read_only=False, returns=Note)
    def add_note_to_incident(self, incident_id: Id("incident"), user_email: Email,
                             content: str = Field(min_length=1, max_length=5000)) -> dict:
        """Add a timeline note to an incident (also allowed after it is resolved).

        Args:
            incident_id: the incident to annotate.
            user_email: who writes the note.
            content: the note text.
        """
        inc = self.lookup(self.state.incidents, incident_id, "incident")
        self._note(inc, user_email, content)
        return {"incident_id": incident_id, **inc.notes[-1].model_dump()}

    # ------------------------------------------------------------------ seeds
    @classmethod
    def build_seed_state(cls, fake: Faker, rng: random.Random, today: dt.date) -> MonitoringState:
        state = MonitoringState()
        for team in dict.fromkeys(e.team for e in ENGINEERS):
            crew = team_engineers(team)
            pid = f"EP-{team.upper()}"
            state.policies[pid] = EscalationPolicy(id=pid, name=f"{team.title()} on-call", team=team,
                                                   levels=[crew[0].email, crew[1].email, ENG_MANAGER.email])
        for app in APPS:
            state.services[app.key] = MonitoredService(id=app.key, name=app.name, team=app.team,
                                                       escalation_policy_id=f"EP-{app.team.upper()}")
        start = dt.datetime.combine(today, DAY_START)
        urgent = [m for m in _MONITORS if m[2] in ("critical", "high")]
        # every third alert is urgent so that each seed has incidents to work on
        picks = sorted((start - dt.timedelta(minutes=rng.randint(20, 2880)), rng.choice(APPS).key,
                        rng.choice(urgent if k % 3 == 0 else _MONITORS)) for k in range(12))
        for n, (when, svc, (title, monitor, sev)) in enumerate(picks, start=1):
            aid = f"ALR-{n:04d}"
            state.alerts[aid] = Alert(id=aid, title=f"{title} on {svc}", service=svc, monitor=monitor, severity=sev,
                                      status="triggered", triggered_at=when)
        statuses = ("resolved", "acknowledged", "triggered", "triggered")
        crit = [a for a in state.alerts.values() if a.severity in ("critical", "high")][:4]
        for n, (a, status) in enumerate(zip(crit, statuses), start=1):
            iid = f"INC-{n:04d}"
            lead = state.policies[state.services[a.service].escalation_policy_id].levels[0]
            inc = Incident(id=iid, title=a.title, service=a.service,
                           priority="P1" if a.severity == "critical" else "P2",
                           urgency="high", status=status, assignee_email=lead, escalation_level=1,
                           created_at=a.triggered_at + dt.timedelta(minutes=2), alert_ids=[a.id],
                           notes=[Note(author_email=lead, content=f"Incident opened: {a.title}",
                                       created_at=a.triggered_at + dt.timedelta(minutes=2))])
            a.incident_id = iid
            if status != "triggered":
                a.status, a.acknowledged_by = "acknowledged", lead
            if status == "resolved":
                inc.resolved_at = a.triggered_at + dt.timedelta(minutes=45)
                inc.resolution = "Rolled back the latest deploy; error rate back to baseline."
                a.status, a.resolved_by, a.resolved_at = "resolved", lead, inc.resolved_at
            state.incidents[iid] = inc
        for a in list(state.alerts.values())[:3]:
            if a.incident_id is None and a.severity in ("warning", "info"):
                a.status, a.resolved_at = "resolved", a.triggered_at + dt.timedelta(minutes=15)
        state.counters.update(ALR=len(state.alerts) + 1, INC=len(state.incidents) + 1)
        return state


_MONITORS: tuple[tuple[str, str, Severity], ...] = (
    ("High 5xx error rate", "sum:http.errors.5xx / sum:http.requests > 2% over 5m", "critical"),
    ("p95 latency above 800 ms", "p95:http.request.duration > 800ms over 10m", "high"),
    ("CPU saturation", "avg:system.cpu.user > 90% over 10m", "warning"),
    ("Queue backlog", "max:queue.depth > 10000 over 15m", "high"),
    ("Disk almost full", "max:system.disk.used_pct > 85%", "warning"),
    ("Error budget burn", "slo.burn_rate(1h) > 10x", "critical"),
    ("TLS certificate expiring", "tls.cert.days_left < 14", "info"),
    ("Pod restarts", "sum:kubernetes.containers.restarts > 5 over 30m", "warning"),
)
