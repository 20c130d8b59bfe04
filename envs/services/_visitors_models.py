"""Records of the visitors service (Envoy Visitors API style).

Envoy's resources keep their names and fields, snake_cased: locations
(``/v1/locations``: name, address, time zone, and the daily visitor capacity
the front desk sets), flows (``/v1/flows``: a location's visitor types and
whether their sign-in asks for an NDA), invites (``/v1/invites``:
``invitee_name``, ``invitee_email``, ``expected_arrival_time``, ``host``),
entries (``/v1/entries``: a sign-in, ``signed_in_at``, ``signed_out_at``)
and the blocklist (``/v1/blocklist``: ``full_name``, ``email``, ``reason``).
Hosts are the company's employees (Envoy's employee directory).
"""

from __future__ import annotations

from typing import Literal, Optional

from pydantic import Field

from compoworld_gym.entities import Address, City, CompanyName, DateTime, Email, Id, PersonName
from compoworld_gym.service import Record, ServiceState

FlowName = Literal["Interview candidate", "Vendor", "Customer visit", "Contractor"]
InviteStatus = Literal["expected", "arrived", "signed_out", "cancelled"]
FLOW_NAMES: tuple[str, ...] = ("Interview candidate", "Vendor", "Customer visit", "Contractor")


class Location(Record):
    """An office location (Envoy ``/v1/locations``)."""

    id: str = Field(description="Location id, e.g. LOC-0001.")
    name: str = Field(description="Location name, e.g. 'San Francisco HQ'.")
    address: Address = Field(description="Street address of the office.")
    city: City = Field(description="City of the office.")
    time_zone: str = Field(description="IANA time zone of the office.")
    daily_capacity: int = Field(ge=1, description="Most visitors (invites plus walk-ins) the desk takes per day.")
    active: bool = Field(default=True, description="Inactive locations take no new invites or sign-ins.")


class Flow(Record):
    """A visitor type of a location (Envoy ``/v1/flows``), with its sign-in requirements."""

    id: str = Field(description="Flow id, e.g. FLW-0001.")
    location_id: str = Field(description="The location whose sign-in uses this flow.")
    name: FlowName = Field(description="Interview candidate, Vendor, Customer visit or Contractor.")
    nda_required: bool = Field(description="Whether the visitor must sign the NDA to sign in.")
    photo_required: bool = Field(default=False, description="Whether the iPad takes the visitor's photo.")


class Host(Record):
    """An employee who can host visitors (Envoy's employee directory)."""

    id: str = Field(description="Host id, e.g. HST-0001.")
    name: PersonName = Field(description="Employee's full name.")
    email: Email = Field(description="Employee's work email.")
    title: str = Field(default="", description="Job title.")
    location_id: str = Field(description="The employee's home office.")


class Invite(Record):
    """An expected visitor (Envoy ``/v1/invites``)."""

    id: Id("visitor_invite") = Field(description="Invite id, e.g. VIN-0001.")
    invitee_name: PersonName = Field(description="Visitor's full name.")
    invitee_email: Email = Field(description="Visitor's email.")
    company: CompanyName = Field(default="", description="The visitor's company.")
    host_email: Email = Field(description="Host employee's work email.")
    host_name: PersonName = Field(description="Host employee's name.")
    location_id: str = Field(description="Location expecting the visitor.")
    flow_id: str = Field(description="The visitor type (flow) of the visit.")
    flow_name: FlowName = Field(description="Name of the visitor type.")
    expected_arrival_time: DateTime = Field(description="When the visitor is expected (local time).")
    notes: str = Field(default="", description="Notes for the front desk.")
    status: InviteStatus = Field(description="expected -> arrived (signed in) -> signed_out, or cancelled.")
    entry_id: Optional[str] = Field(default=None, description="The sign-in entry, once the visitor arrived.")
    created_at: DateTime = Field(description="When the invite was created.")
    cancelled_at: Optional[DateTime] = Field(default=None, description="When it was cancelled.")


class Visitor(Record):
    """A person who has signed in at least once (the visitor log's people)."""

    id: Id("visitor") = Field(description="Visitor id, e.g. VIS-0001.")
    full_name: PersonName = Field(description="Visitor's full name.")
    email: Email = Field(description="Visitor's email.")
    company: CompanyName = Field(default="", description="The visitor's company.")
    visit_count: int = Field(ge=0, description="Number of sign-ins.")


class Entry(Record):
    """A sign-in at a location (Envoy ``/v1/entries``)."""

    id: str = Field(description="Entry id, e.g. ENT-0001.")
    visitor_id: Id("visitor") = Field(description="The visitor who signed in.")
    full_name: PersonName = Field(description="Visitor's full name.")
    email: Email = Field(description="Visitor's email.")
    company: CompanyName = Field(default="", description="The visitor's company.")
    location_id: str = Field(description="Where the visitor signed in.")
    flow_id: str = Field(description="The visitor type signed in under.")
    flow_name: FlowName = Field(description="Name of the visitor type.")
    host_email: Email = Field(description="Host employee's work email.")
    invite_id: Optional[Id("visitor_invite")] = Field(default=None, description="The invite, if not a walk-in.")
    nda_signed: bool = Field(default=False, description="Whether the visitor signed the NDA.")
    signed_in_at: DateTime = Field(description="Sign-in time.")
    signed_out_at: Optional[DateTime] = Field(default=None, description="Sign-out time; empty while on site.")


class BlocklistEntry(Record):
    """A person who may not visit (Envoy ``/v1/blocklist``)."""

    id: str = Field(description="Blocklist entry id, e.g. BLK-0001.")
    full_name: PersonName = Field(default="", description="The person's full name.")
    email: Email = Field(description="The person's email (matched case-insensitively).")
    reason: str = Field(description="Why the person is blocked (shown to security only).")
    added_by: Email = Field(description="Employee who added the entry.")
    added_at: DateTime = Field(description="When the entry was added.")
    active: bool = Field(default=True, description="Removed entries stay on file, inactive.")


class VisitorsState(ServiceState):
    """Locations, flows, hosts, invites, visitors, entries and the blocklist."""

    locations: dict[str, Location] = Field(default_factory=dict, description="Locations by id.")
    flows: dict[str, Flow] = Field(default_factory=dict, description="Visitor types by id.")
    hosts: dict[str, Host] = Field(default_factory=dict, description="Host employees by id.")
    invites: dict[str, Invite] = Field(default_factory=dict, description="Invites by id.")
    visitors: dict[str, Visitor] = Field(default_factory=dict, description="Visitors by id.")
    entries: dict[str, Entry] = Field(default_factory=dict, description="Sign-in entries by id.")
    blocklist: dict[str, BlocklistEntry] = Field(default_factory=dict, description="Blocklist entries by id.")
