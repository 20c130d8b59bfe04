"""Visitors: a front desk's invites, sign-ins, visitor types and blocklist at the company's offices.

No visitor-management server is in ``compoworld_gym/data/mcp_servers.jsonl``
(``spec_source = None``); the interface follows the Envoy Visitors API:
``/v1/locations`` (name, address, time zone; the desk's daily visitor
capacity), ``/v1/flows`` (a location's visitor types: Interview candidate,
Vendor, Customer visit, Contractor, and whether the sign-in asks for the
NDA), ``/v1/invites`` (``invitee_name``, ``invitee_email``,
``expected_arrival_time``, ``host`` employee, ``notes``; create, update,
delete is a cancel here, and check-in), ``/v1/entries`` (sign-ins:
``signed_in_at``, ``signed_out_at``, ``nda_signed``; walk-ins and sign-out),
``/v1/blocklist`` (``full_name``, ``email``, ``reason``) and the employee
directory of hosts. Hosts are the staff roster of ``_company.py``.

Rules of the real product: a blocklisted person (email or full name) can
be neither invited nor signed in; an invite's expected arrival must lie
ahead when it is created or moved; an invite is checked in on its day only,
and only while expected; a flow that asks for the NDA signs in only with it
signed; sign-out only after sign-in, and once; a location's day holds at
most its daily capacity (live invites plus walk-ins); an inactive location
takes no visitors; a host must be an employee. Left out: deliveries,
badges and printers, screenings, custom sign-in fields and webhooks.
"""

from __future__ import annotations

import datetime as dt
import random
from typing import Optional

from faker import Faker
from pydantic import Field

from compoworld_gym.entities import CompanyName, Date, DateTime, Email, Id, PersonName
from compoworld_gym.envs.services._blocks import eq, ieq, select
from compoworld_gym.envs.services._visitors_models import (
    BlocklistEntry, Entry, Flow, FlowName, Host, Invite, InviteStatus, Location, Visitor, VisitorsState,
)
from compoworld_gym.envs.services._visitors_rules import (
    active_location, check_capacity, day_load, flow_named, host_by_email, refuse_blocked,
)
from compoworld_gym.envs.services._visitors_seed import build_state, sign_in
from compoworld_gym.errors import Conflict, InvalidArgument, Unprocessable
from compoworld_gym.service import DAY_START, Service, tool

Limit = Field(default=50, ge=1, le=200)


class Visitors(Service):
    """Envoy-style visitor management: invites, sign-ins, visitor types and the blocklist."""

    name = "visitors"
    description = ("Visitor management (Envoy): office locations and their daily capacity, visitor types with NDA "
                   "requirements, invites for expected guests hosted by employees, sign-in/sign-out entries and "
                   "the security blocklist.")
    domain = "workplace"
    spec_source = None
    State = VisitorsState

    # ---------------------------------------------------------------- helpers
    def _invite(self, invite_id: str) -> Invite:
        return self.lookup(self.state.invites, invite_id, "invite")

    def _entry(self, entry_id: str) -> Entry:
        return self.lookup(self.state.entries, entry_id, "entry")

    def _ahead(self, when: dt.datetime) -> None:
        now = dt.datetime.combine(self.today, DAY_START) + dt.timedelta(minutes=self.state.clock)
        if when <= now:
            raise Unprocessable(f"expected_arrival_time {when.isoformat()} is not in the future (now "
                                f"{now.isoformat()}); invite visitors for a later time.")

    def _visitor_for(self, name: str, email: str, company: str) -> Visitor:
        for v in self.state.visitors.values():
            if v.email.lower() == email.lower():
                return v
        v = Visitor(id=self.new_id("VIS"), full_name=name, email=email, company=company, visit_count=0)
        self.state.visitors[v.id] = v
        return v

    # ------------------------------------------------------------------ reads
    @tool(read_only=True, returns=list[Location])
    def list_locations(self, active: Optional[bool] = None) -> list[dict]:
        """List the company's office locations.

        Args:
            active: only active (true) or inactive (false) locations.
        """
        return [x.model_dump() for x in select(self.state.locations.values(), eq("active", active))]

    @tool(read_only=True)
    def get_location_capacity(self, location_id: str, date: Date) -> dict:
        """How many visitor places a location has left on a day (live invites and walk-ins count).

        Args:
            location_id: the location, e.g. LOC-0001.
            date: the day, YYYY-MM-DD.
        """
        loc = self.lookup(self.state.locations, location_id, "location")
        booked = day_load(self.state, loc.id, date)
        return {"location_id": loc.id, "name": loc.name, "date": date, "daily_capacity": loc.daily_capacity,
                "booked": booked, "remaining": max(loc.daily_capacity - booked, 0)}

    @tool(read_only=True, returns=list[Flow])
    def list_flows(self, location_id: Optional[str] = None) -> list[dict]:
        """List visitor types (flows), with whether each asks for the NDA.

        Args:
            location_id: only this location's visitor types.
        """
        return [f.model_dump() for f in select(self.state.flows.values(), eq("location_id", location_id))]

    @tool(read_only=True, returns=list[Host])
    def list_hosts(self, location_id: Optional[str] = None, email: Optional[Email] = None) -> list[dict]:
        """List employees who can host visitors.

        Args:
            location_id: only employees based at this location.
            email: the employee's work email (case-insensitive).
        """
        return [h.model_dump() for h in select(self.state.hosts.values(), eq("location_id", location_id),
                                                ieq("email", email))]

    @tool(read_only=True, returns=list[Invite])
    def list_invites(self, location_id: Optional[str] = None, host_email: Optional[Email] = None,
                     invitee_email: Optional[Email] = None, company: Optional[CompanyName] = None,
                     status: Optional[InviteStatus] = None, date: Optional[Date] = None,
                     query: Optional[str] = Field(default=None, max_length=100), limit: int = Limit) -> list[dict]:
        """List invites by expected arrival time, filtered by location, host, visitor, company, status or day.

        Args:
            location_id: only invites to this location.
            host_email: the host employee's email (case-insensitive).
            invitee_email: the visitor's email (case-insensitive).
            company: the visitor's company (case-insensitive).
            status: expected, arrived, signed_out or cancelled.
            date: only invites expected on this day.
            query: text the visitor's name or the invite's notes contain (case-insensitive).
            limit: maximum number of invites (1-200).
        """
        day = (lambda i: i.expected_arrival_time.date() == date) if date else None
        q = (lambda i: query.lower() in f"{i.invitee_name} {i.notes}".lower()) if query else None
        rows = sorted(self.state.invites.values(), key=lambda i: (i.expected_arrival_time, i.id))
        return [i.model_dump() for i in select(rows, eq("location_id", location_id), ieq("host_email", host_email),
                                               ieq("invitee_email", invitee_email), ieq("company", company),
                                               eq("status", status), day, q, limit=limit)]

    @tool(read_only=True, returns=Invite)
    def get_invite(self, invite_id: Id("visitor_invite")) -> dict:
        """Get one invite.

        Args:
            invite_id: the invite id, e.g. VIN-0003.
        """
        return self._invite(invite_id).model_dump()

    @tool(read_only=True, returns=list[Entry])
    def list_entries(self, location_id: Optional[str] = None, email: Optional[Email] = None,
                     host_email: Optional[Email] = None, on_site: Optional[bool] = None,
                     date: Optional[Date] = None, limit: int = Limit) -> list[dict]:
        """List sign-in entries, newest first.

        Args:
            location_id: only sign-ins at this location.
            email: the visitor's email (case-insensitive).
            host_email: the host's email (case-insensitive).
            on_site: true for visitors not signed out yet, false for signed-out ones.
            date: only sign-ins on this day.
            limit: maximum number of entries (1-200).
        """
        site = None if on_site is None else (lambda e: (e.signed_out_at is None) == on_site)
        day = (lambda e: e.signed_in_at.date() == date) if date else None
        rows = sorted(self.state.entries.values(), key=lambda e: (e.signed_in_at, e.id), reverse=True)
        return [e.model_dump() for e in select(rows, eq("location_id", location_id), ieq("email", email),
                                               ieq("host_email", host_email), site, day, limit=limit)]

    @tool(read_only=True, returns=Entry)
    def get_entry(self, entry_id: str) -> dict:
        """Get one sign-in entry.

        Args:
            entry_id: the entry id, e.g. ENT-0002.
        """
        return self._entry(entry_id).model_dump()

    @tool(read_only=True, returns=list[Visitor])
    def list_visitors(self, email: Optional[Email] = None, company: Optional[CompanyName] = None,
                      limit: int = Limit) -> list[dict]:
        """List people who have signed in before, with their visit counts.

        Args:
            email: the visitor's email (case-insensitive).
            company: the visitor's company (case-insensitive).
            limit: maximum number of visitors (1-200).
        """
        return [v.model_dump() for v in select(self.state.visitors.values(), ieq("email", email),
                                               ieq("company", company), limit=limit)]

    @tool(read_only=True, returns=list[BlocklistEntry])
    def list_blocklist(self, email: Optional[Email] = None, include_removed: bool = False) -> list[dict]:
        """List the blocklist (active entries unless include_removed).

        Args:
            email: the person's email (case-insensitive).
            include_removed: also list entries security removed.
        """
        act = None if include_removed else eq("active", True)
        return [b.model_dump() for b in select(self.state.blocklist.values(), ieq("email", email), act)]

    # ----------------------------------------------------------------- writes
    @tool(read_only=False, returns=Invite)
    def create_invite(self, invitee_email: Email = Field(max_length=200), host_email: Email = Field(max_length=200),
                      location_id: str = "LOC-0001", flow_name: FlowName = "Customer visit",
                      expected_arrival_time: DateTime = Field(),
                      invitee_name: Optional[PersonName] = Field(default=None, min_length=2, max_length=120),
                      company: CompanyName = Field(default="", max_length=120),
                      notes: str = Field(default="", max_length=1000)) -> dict:
        """Invite an expected visitor; the host is notified and the desk expects them.

        Args:
            invitee_email: the visitor's email.
            host_email: the hosting employee's work email.
            location_id: the office, e.g. LOC-0001.
            flow_name: the visitor type: Interview candidate, Vendor, Customer visit or Contractor.
            expected_arrival_time: when the visitor arrives (local time, in the future).
            invitee_name: the visitor's full name (when not given, the desk shows the email).
            company: the visitor's company.
            notes: notes for the front desk.
        """
        loc = active_location(self.state, location_id)
        flow = flow_named(self.state, loc.id, flow_name)
        host = host_by_email(self.state, host_email)
        self._ahead(expected_arrival_time)
        refuse_blocked(self.state, invitee_email, invitee_name, "inviting them")
        check_capacity(self.state, loc, expected_arrival_time.date())
        inv = Invite(id=self.new_id("VIN"), invitee_name=invitee_name or invitee_email, invitee_email=invitee_email,
                     company=company, host_email=host.email, host_name=host.name, location_id=loc.id,
                     flow_id=flow.id, flow_name=flow.name, expected_arrival_time=expected_arrival_time,
                     notes=notes, status="expected", created_at=self.now())
        self.state.invites[inv.id] = inv
        return inv.model_dump()

    @tool(read_only=False, returns=Invite)
    def update_invite(self, invite_id: Id("visitor_invite"), expected_arrival_time: Optional[DateTime] = None,
                      host_email: Optional[Email] = None,
                      notes: Optional[str] = Field(default=None, max_length=1000)) -> dict:
        """Change an expected invite's arrival time, host or notes.

        Args:
            invite_id: an invite still expected.
            expected_arrival_time: the new arrival time (in the future; the new day must have room).
            host_email: the new host employee's work email.
            notes: replacement notes for the front desk.
        """
        inv = self._invite(invite_id)
        if inv.status != "expected":
            raise Conflict(f"invite {inv.id} is {inv.status}; only an expected invite can be changed.")
        if expected_arrival_time is None and host_email is None and notes is None:
            raise InvalidArgument("give expected_arrival_time, host_email or notes to change.")
        host = host_by_email(self.state, host_email) if host_email else None
        if expected_arrival_time is not None:
            self._ahead(expected_arrival_time)
            check_capacity(self.state, self.state.locations[inv.location_id], expected_arrival_time.date(),
                           skip_invite=inv.id)
            inv.expected_arrival_time = expected_arrival_time
        if host is not None:
            inv.host_email, inv.host_name = host.email, host.name
        if notes is not None:
            inv.notes = notes
        return inv.model_dump()

    @tool(read_only=False, destructive=True, returns=Invite)
    def cancel_invite(self, invite_id: Id("visitor_invite")) -> dict:
        """Cancel an expected invite (Envoy's invite delete); its place on the day is freed.

        Args:
            invite_id: an invite still expected.
        """
        inv = self._invite(invite_id)
        if inv.status != "expected":
            raise Conflict(f"invite {inv.id} is {inv.status}; only an expected invite can be cancelled.")
        inv.status, inv.cancelled_at = "cancelled", self.now()
        return inv.model_dump()

    @tool(read_only=False, returns=Entry)
    def check_in_invite(self, invite_id: Id("visitor_invite"), nda_signed: bool = False) -> dict:
        """Sign an invited visitor in on the day of the invite.

        Args:
            invite_id: an expected invite for today.
            nda_signed: whether the visitor signed the NDA (required by some visitor types).
        """
        inv = self._invite(invite_id)
        if inv.status != "expected":
            raise Conflict(f"invite {inv.id} is {inv.status}; only an expected invite can be checked in.")
        if inv.expected_arrival_time.date() != self.today:
            raise Unprocessable(f"invite {inv.id} is for {inv.expected_arrival_time.date().isoformat()}; a visitor "
                                "is checked in on the day of the invite only.")
        flow = self.state.flows[inv.flow_id]
        active_location(self.state, inv.location_id)
        refuse_blocked(self.state, inv.invitee_email, inv.invitee_name, "signing them in")
        if flow.nda_required and not nda_signed:
            raise Unprocessable(f"the {flow.name} visitor type requires the NDA; sign in with nda_signed true.")
        v = self._visitor_for(inv.invitee_name, inv.invitee_email, inv.company)
        e = sign_in(self.state, self.new_id("ENT"), v.id, self.now(), name=inv.invitee_name,
                    email=inv.invitee_email, company=inv.company, location_id=inv.location_id, flow=flow,
                    host_email=inv.host_email, invite=inv)
        e.nda_signed = nda_signed
        return e.model_dump()

    @tool(read_only=False, returns=Entry)
    def create_entry(self, full_name: PersonName = Field(min_length=2, max_length=120),
                     email: Email = Field(max_length=200), host_email: Email = Field(max_length=200),
                     location_id: str = "LOC-0001", flow_name: FlowName = "Vendor",
                     company: CompanyName = Field(default="", max_length=120), nda_signed: bool = False) -> dict:
        """Sign a walk-in visitor in now (no invite); the walk-in takes one of the day's places.

        Args:
            full_name: the visitor's full name.
            email: the visitor's email.
            host_email: the employee they visit.
            location_id: the office, e.g. LOC-0001.
            flow_name: the visitor type.
            company: the visitor's company.
            nda_signed: whether the visitor signed the NDA.
        """
        loc = active_location(self.state, location_id)
        flow = flow_named(self.state, loc.id, flow_name)
        host = host_by_email(self.state, host_email)
        refuse_blocked(self.state, email, full_name, "signing them in")
        if flow.nda_required and not nda_signed:
            raise Unprocessable(f"the {flow.name} visitor type requires the NDA; sign in with nda_signed true.")
        check_capacity(self.state, loc, self.today)
        v = self._visitor_for(full_name, email, company)
        e = sign_in(self.state, self.new_id("ENT"), v.id, self.now(), name=full_name, email=email, company=company,
                    location_id=loc.id, flow=flow, host_email=host.email)
        e.nda_signed = nda_signed
        return e.model_dump()

    @tool(read_only=False, returns=Entry)
    def sign_out_entry(self, entry_id: str) -> dict:
        """Sign a visitor out (their invite, if any, becomes signed_out).

        Args:
            entry_id: the sign-in entry of a visitor still on site.
        """
        e = self._entry(entry_id)
        if e.signed_out_at is not None:
            raise Conflict(f"entry {e.id} was already signed out at {e.signed_out_at.isoformat()}.")
        e.signed_out_at = self.now()
        if e.invite_id and e.invite_id in self.state.invites:
            self.state.invites[e.invite_id].status = "signed_out"
        return e.model_dump()

    @tool(read_only=False, returns=BlocklistEntry)
    def add_blocklist_entry(self, email: Email = Field(max_length=200),
                            reason: str = Field(min_length=3, max_length=500),
                            full_name: PersonName = Field(default="", max_length=120),
                            added_by: Email = "ops@company.example") -> dict:
        """Block a person from visiting any location; later invites and sign-ins are refused.

        Args:
            email: the person's email.
            reason: why (seen by security only).
            full_name: the person's full name (also matched at sign-in).
            added_by: the employee adding the entry.
        """
        host_by_email(self.state, added_by)
        dup = next((b for b in self.state.blocklist.values() if b.active and b.email.lower() == email.lower()), None)
        if dup is not None:
            raise Conflict(f"{email} is already on the blocklist ({dup.id}).")
        b = BlocklistEntry(id=self.new_id("BLK"), full_name=full_name, email=email, reason=reason,
                           added_by=added_by, added_at=self.now())
        self.state.blocklist[b.id] = b
        return b.model_dump()

    @tool(read_only=False, destructive=True, returns=BlocklistEntry)
    def remove_blocklist_entry(self, blocklist_id: str) -> dict:
        """Lift a blocklist entry (it stays on file, inactive).

        Args:
            blocklist_id: the entry, e.g. BLK-0001.
        """
        b = self.lookup(self.state.blocklist, blocklist_id, "blocklist entry")
        if not b.active:
            raise Conflict(f"blocklist entry {b.id} was already removed.")
        b.active = False
        return b.model_dump()

    # ------------------------------------------------------------------ seeds
    @classmethod
    def build_seed_state(cls, fake: Faker, rng: random.Random, today: dt.date) -> VisitorsState:
        return build_state(fake, rng, today)


__all__ = ["Visitors"]
