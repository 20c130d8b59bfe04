"""Status page: public component status, incidents with updates, maintenance windows, subscribers.

No status-page server is in ``compoworld_gym/data/mcp_servers.jsonl``; the
interface is designed the way Atlassian Statuspage's REST API looks:
components with a status (``operational`` … ``major_outage``,
``under_maintenance``), incidents that move ``investigating → identified →
monitoring → resolved`` through timestamped updates while setting the
status of affected components, scheduled maintenances, and email
subscribers notified per component. Components name the internal service
behind them (the ``monitoring``/``deployments`` key), and a public
incident can point at the internal incident it reports on.
"""

from __future__ import annotations

import datetime as dt
import random
from typing import Literal, Optional

from faker import Faker
from pydantic import Field

from compoworld_gym.entities import DateTime, Email, Id
from compoworld_gym.envs.services import _status_page_seed as seed
from compoworld_gym.envs.services._blocks import already, eq, pick, select
from compoworld_gym.envs.services._status_page_models import (
    Component, ComponentStatus, Impact, IncidentStatus, IncidentUpdate, Maintenance, MaintenanceStatus,
    StatusIncident, StatusPageState, Subscriber,
)
from compoworld_gym.errors import Conflict, InvalidArgument, NotFound, Unprocessable
from compoworld_gym.service import Service, tool

_INDICATOR = {"major_outage": "critical", "partial_outage": "major", "degraded_performance": "minor"}


class StatusPage(Service):
    """Statuspage-style public status: components, incidents, maintenance, subscribers."""

    name = "status_page"
    description = ("Public status page: component status, incidents with public updates, scheduled "
                   "maintenance and email subscribers.")
    domain = "engineering"
    spec_source = None
    State = StatusPageState

    # ---------------------------------------------------------------- helpers
    def _components(self, ids: list[str]) -> list[Component]:
        return pick(self.state.components, ids, "component", "call list_components.")

    def _notified(self, component_ids: list[str]) -> int:
        wanted = set(component_ids)
        return sum(1 for s in self.state.subscribers.values() if not s.component_ids or wanted & set(s.component_ids))

    def _open_incident(self, incident_id: str) -> StatusIncident:
        inc = self.lookup(self.state.incidents, incident_id, "incident")
        if inc.status == "resolved":
            raise Conflict(f"incident {incident_id} is resolved; open a new incident instead.")
        return inc

    def _busy(self, skip: str) -> set[str]:
        return {c for i in self.state.incidents.values() if i.status != "resolved" and i.id != skip
                for c in i.component_ids}

    def _restore_components(self, ids: list[str], skip: str) -> None:
        busy = self._busy(skip)
        for cid in ids:
            comp = self.state.components[cid]
            if cid not in busy and comp.status != "under_maintenance":
                comp.status = "operational"

    # ------------------------------------------------------------------ reads
    @tool(read_only=True)
    def get_page_summary(self) -> dict:
        """Overall status indicator (none, minor, major, critical, maintenance), components,
        unresolved incidents and upcoming maintenance."""
        comps = list(self.state.components.values())
        order = ("none", "minor", "major", "critical")
        worst = max((_INDICATOR.get(c.status, "none") for c in comps), key=order.index, default="none")
        if worst == "none" and any(c.status == "under_maintenance" for c in comps):
            worst = "maintenance"
        return {"indicator": worst,
                "components": [c.model_dump() for c in comps],
                "unresolved_incidents": [i.model_dump(exclude={"updates"}) for i in self.state.incidents.values()
                                         if i.status != "resolved"],
                "upcoming_maintenances": [m.model_dump() for m in self.state.maintenances.values()
                                          if m.status in ("scheduled", "in_progress")]}

    @tool(read_only=True, returns=list[Component])
    def list_components(self, status: Optional[ComponentStatus] = None) -> list[dict]:
        """List components, optionally only those in one status.

        Args:
            status: only components with this status.
        """
        return [c.model_dump() for c in select(self.state.components.values(), eq("status", status))]

    @tool(read_only=True, returns=list[StatusIncident])
    def list_status_incidents(self, status: Optional[IncidentStatus] = None, unresolved_only: bool = False,
                              limit: int = Field(default=25, ge=1, le=100)) -> list[dict]:
        """List public incidents (without updates), newest first.

        Args:
            status: only incidents with this status.
            unresolved_only: only incidents not yet resolved.
            limit: maximum number of incidents (1-100).
        """
        newest = sorted(self.state.incidents.values(), key=lambda i: (i.created_at, i.id), reverse=True)
        hits = select(newest, eq("status", status),
                      (lambda i: i.status != "resolved") if unresolved_only else None, limit=limit)
        return [i.model_dump(exclude={"updates"}) for i in hits]

    @tool(read_only=True, returns=StatusIncident)
    def get_status_incident(self, incident_id: Id("incident")) -> dict:
        """Get a public incident with all its updates.

        Args:
            incident_id: the public incident id, e.g. SPI-0001.
        """
        return self.lookup(self.state.incidents, incident_id, "incident").model_dump()

    @tool(read_only=True, returns=list[Maintenance])
    def list_maintenances(self, status: Optional[MaintenanceStatus] = None) -> list[dict]:
        """List maintenance windows.

        Args:
            status: only windows with this status.
        """
        return [m.model_dump() for m in select(self.state.maintenances.values(), eq("status", status))]

    @tool(read_only=True, returns=list[Subscriber])
    def list_subscribers(self, component_id: Optional[str] = None) -> list[dict]:
        """List email subscribers, optionally those notified about one component.

        Args:
            component_id: only subscribers following this component (or all components).
        """
        return [s.model_dump() for s in self.state.subscribers.values()
                if component_id is None or not s.component_ids or component_id in s.component_ids]

    # ----------------------------------------------------------------- writes
    @tool(read_only=False, returns=Component)
    def update_component_status(self, component_id: str, status: ComponentStatus) -> dict:
        """Set a component's public status directly.

        Args:
            component_id: the component, e.g. CPT-0001.
            status: the new status.
        """
        comp = self.lookup(self.state.components, component_id, "component")
        if comp.status == status:
            raise already("component", component_id, status)
        comp.status = status
        return comp.model_dump()

    @tool(read_only=False, returns=StatusIncident)
    def create_status_incident(self, name: str = Field(min_length=1, max_length=200),
                               body: str = Field(min_length=1, max_length=5000),
                               author_email: Email = Field(min_length=3),
                               impact: Impact = "minor", component_ids: list[str] = Field(default_factory=list),
                               component_status: ComponentStatus = "degraded_performance",
                               status: Literal["investigating", "identified", "monitoring"] = "investigating",
                               linked_incident_id: Optional[Id("incident")] = None) -> dict:
        """Open a public incident, set its components' status and notify subscribers.

        Returns the incident plus ``notified_subscribers`` (count).

        Args:
            name: public title.
            body: first public update.
            author_email: who posts it.
            impact: none, minor, major or critical.
            component_ids: affected components.
            component_status: status given to those components.
            status: investigating, identified or monitoring.
            linked_incident_id: internal monitoring incident it reports on (one public incident per internal one).
        """
        comps = self._components(component_ids)
        if component_status == "under_maintenance":
            raise InvalidArgument("incidents cannot put components under maintenance; schedule a maintenance.")
        if linked_incident_id and any(i.linked_incident_id == linked_incident_id and i.status != "resolved"
                                      for i in self.state.incidents.values()):
            raise Conflict(f"an unresolved public incident already reports on {linked_incident_id}; post an update.")
        now = self.now()
        inc = StatusIncident(id=self.new_id("SPI"), name=name, status=status, impact=impact,
                             component_ids=[c.id for c in comps], linked_incident_id=linked_incident_id,
                             created_at=now, updates=[IncidentUpdate(status=status, body=body,
                                                                     author_email=author_email, created_at=now)])
        for c in comps:
            c.status = component_status
        self.state.incidents[inc.id] = inc
        return {**inc.model_dump(), "notified_subscribers": self._notified(inc.component_ids)}

    @tool(read_only=False, returns=IncidentUpdate)
    def post_incident_update(self, incident_id: Id("incident"), status: IncidentStatus,
                             body: str = Field(min_length=1, max_length=5000),
                             author_email: Email = Field(min_length=3),
                             component_status: Optional[ComponentStatus] = None) -> dict:
        """Post a public update; 'resolved' closes the incident and restores its components.

        Args:
            incident_id: the public incident.
            status: new status (investigating, identified, monitoring, resolved).
            body: public message.
            author_email: who posts it.
            component_status: new status for the affected components (ignored when resolving).
        """
        inc = self._open_incident(incident_id)
        if component_status == "under_maintenance":
            raise InvalidArgument("incidents cannot put components under maintenance.")
        now = self.now()
        inc.updates.append(IncidentUpdate(status=status, body=body, author_email=author_email, created_at=now))
        inc.status = status
        if status == "resolved":
            inc.resolved_at = now
            self._restore_components(inc.component_ids, skip=inc.id)
        elif component_status is not None:
            for cid in inc.component_ids:
                self.state.components[cid].status = component_status
        return {"incident_id": inc.id, **inc.updates[-1].model_dump(),
                "notified_subscribers": self._notified(inc.component_ids)}

    @tool(read_only=False, returns=Maintenance)
    def schedule_maintenance(self, name: str = Field(min_length=1, max_length=200),
                             component_ids: list[str] = Field(min_length=1), scheduled_for: DateTime = Field(),
                             scheduled_until: DateTime = Field(), body: str = Field(min_length=1, max_length=5000),
                             author_email: Email = Field(min_length=3)) -> dict:
        """Announce a maintenance window (start in the future, end after start).

        Args:
            name: public title.
            component_ids: components affected.
            scheduled_for: start (YYYY-MM-DDTHH:MM:SS).
            scheduled_until: end (YYYY-MM-DDTHH:MM:SS).
            body: public description.
            author_email: who schedules it.
        """
        comps = self._components(component_ids)
        start, end = scheduled_for.replace(tzinfo=None), scheduled_until.replace(tzinfo=None)
        now = self.now()
        if start <= now:
            raise Unprocessable(f"scheduled_for {start} is not in the future (now is {now}).")
        if end <= start:
            raise Unprocessable(f"scheduled_until {end} must be after scheduled_for {start}.")
        m = Maintenance(id=self.new_id("MNT"), name=name, status="scheduled", component_ids=[c.id for c in comps],
                        scheduled_for=start, scheduled_until=end, body=body, author_email=author_email)
        self.state.maintenances[m.id] = m
        return {**m.model_dump(), "notified_subscribers": self._notified(m.component_ids)}

    @tool(read_only=False, returns=Maintenance)
    def update_maintenance(self, maintenance_id: str, status: Literal["in_progress", "completed"]) -> dict:
        """Start (in_progress) or finish (completed) a maintenance; components follow.

        scheduled → in_progress → completed; anything else is 409. Starting puts
        the components under maintenance; completing returns them to operational
        (degraded_performance if an unresolved incident still affects them).

        Args:
            maintenance_id: the maintenance, e.g. MNT-0001.
            status: in_progress or completed.
        """
        m = self.lookup(self.state.maintenances, maintenance_id, "maintenance")
        expected = {"in_progress": "scheduled", "completed": "in_progress"}[status]
        if m.status != expected:
            raise Conflict(f"maintenance {maintenance_id} is {m.status}; it must be {expected} to become {status}.")
        m.status = status
        busy = self._busy(skip="")
        for cid in m.component_ids:
            comp = self.state.components[cid]
            if status == "in_progress":
                comp.status = "under_maintenance"
            else:
                comp.status = "degraded_performance" if cid in busy else "operational"
        return m.model_dump()

    @tool(read_only=False, returns=Maintenance)
    def cancel_maintenance(self, maintenance_id: str) -> dict:
        """Cancel a maintenance that has not started.

        Args:
            maintenance_id: the maintenance.
        """
        m = self.lookup(self.state.maintenances, maintenance_id, "maintenance")
        if m.status != "scheduled":
            raise Conflict(f"maintenance {maintenance_id} is {m.status}; only scheduled ones can be canceled.")
        m.status = "canceled"
        return m.model_dump()

    @tool(read_only=False, returns=Subscriber)
    def add_subscriber(self, email: Email, component_ids: list[str] = Field(default_factory=list)) -> dict:
        """Subscribe an email to updates (all components, or only the ones given).

        Args:
            email: subscriber email.
            component_ids: components to follow; empty for all.
        """
        self._components(component_ids)
        if email.lower() in self.state.subscribers:
            raise Conflict(f"{email} is already subscribed.")
        s = Subscriber(email=email, component_ids=list(dict.fromkeys(component_ids)), created_on=self.today)
        self.state.subscribers[email.lower()] = s
        return s.model_dump()

    @tool(read_only=False, destructive=True, returns=Subscriber)
    def remove_subscriber(self, email: Email) -> dict:
        """Unsubscribe an email from all updates.

        Args:
            email: subscriber email.
        """
        if email.lower() not in self.state.subscribers:
            raise NotFound(f"{email} is not subscribed; call list_subscribers.")
        return self.state.subscribers.pop(email.lower()).model_dump()

    # ------------------------------------------------------------------ seeds
    @classmethod
    def build_seed_state(cls, fake: Faker, rng: random.Random, today: dt.date) -> StatusPageState:
        return seed.build_state(rng, today)
