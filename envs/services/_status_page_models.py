"""Typed state of the ``status_page`` service: public components, incidents
with their timestamped updates, maintenance windows and email subscribers."""

from __future__ import annotations

from typing import Literal, Optional

from pydantic import Field

from compoworld_gym.entities import Date, DateTime, Email, Id
from compoworld_gym.service import Record, ServiceState

ComponentStatus = Literal["operational", "degraded_performance", "partial_outage", "major_outage",
                          "under_maintenance"]
IncidentStatus = Literal["investigating", "identified", "monitoring", "resolved"]
Impact = Literal["none", "minor", "major", "critical"]
MaintenanceStatus = Literal["scheduled", "in_progress", "completed", "canceled"]


class Component(Record):
    """A public component of the product."""

    id: str = Field(description="Component id, e.g. CPT-0001.")
    name: str = Field(description="Public name, e.g. 'Checkout'.")
    service: Optional[Id("project")] = Field(default=None, description="Internal service behind it.")
    status: ComponentStatus = Field(description="Current public status.")


class IncidentUpdate(Record):
    """A public update posted on an incident."""

    status: IncidentStatus = Field(description="Incident status set by this update.")
    body: str = Field(description="Public message.")
    author_email: Email = Field(description="Who posted it.")
    created_at: DateTime = Field(description="When (logical clock).")


class StatusIncident(Record):
    """A public incident."""

    id: Id("incident") = Field(description="Public incident id, e.g. SPI-0001.")
    name: str = Field(description="Public title.")
    status: IncidentStatus = Field(description="Current status.")
    impact: Impact = Field(description="Impact level.")
    component_ids: list[str] = Field(description="Affected components.")
    linked_incident_id: Optional[Id("incident")] = Field(default=None,
                                                         description="Internal (monitoring) incident it reports on.")
    created_at: DateTime = Field(description="When it was opened.")
    resolved_at: Optional[DateTime] = Field(default=None, description="When it was resolved.")
    updates: list[IncidentUpdate] = Field(description="Updates, oldest first.")


class Maintenance(Record):
    """A scheduled maintenance window."""

    id: str = Field(description="Maintenance id, e.g. MNT-0001.")
    name: str = Field(description="Public title.")
    status: MaintenanceStatus = Field(description="scheduled, in_progress, completed or canceled.")
    component_ids: list[str] = Field(description="Components under maintenance.")
    scheduled_for: DateTime = Field(description="Start.")
    scheduled_until: DateTime = Field(description="End.")
    body: str = Field(description="Public description.")
    author_email: Email = Field(description="Who scheduled it.")


class Subscriber(Record):
    """An email subscriber."""

    email: Email = Field(description="Subscriber email.")
    component_ids: list[str] = Field(default_factory=list, description="Components followed; empty = all.")
    created_on: Date = Field(description="Subscription date.")


class StatusPageState(ServiceState):
    """Components, incidents, maintenances and subscribers of the page."""

    components: dict[str, Component] = Field(default_factory=dict, description="Components by id.")
    incidents: dict[str, StatusIncident] = Field(default_factory=dict, description="Incidents by id.")
    maintenances: dict[str, Maintenance] = Field(default_factory=dict, description="Maintenances by id.")
    subscribers: dict[str, Subscriber] = Field(default_factory=dict, description="Subscribers by lowercase email.")
