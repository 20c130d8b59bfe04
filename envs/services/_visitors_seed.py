"""Seed data of the visitors service: the company's offices, their visitor types, and a week of visits.

Hosts are the fixed staff roster (:mod:`._company`) plus the operations desk.
Visitors are seeded people from outside the company: today's expected guests,
two on site since this morning, yesterday's signed-out visits, upcoming
invites (the Austin office is full on one day), a cancelled invite, walk-ins,
and a blocklist with one removed entry.
"""

from __future__ import annotations

import datetime as dt
import random
from typing import Optional

from faker import Faker

from compoworld_gym.envs.services._blocks import fake_person, seed_id
from compoworld_gym.envs.services._company import OPS_EMAIL, STAFF
from compoworld_gym.envs.services._visitors_models import (
    FLOW_NAMES, BlocklistEntry, Entry, Flow, Host, Invite, Location, Visitor, VisitorsState,
)
from compoworld_gym.envs.services._visitors_rules import flow_named

#: (name, address, city, time zone, daily capacity, active)
_LOCATIONS = (("San Francisco HQ", "500 Howard Street", "San Francisco", "America/Los_Angeles", 12, True),
              ("Austin Office", "301 Congress Avenue", "Austin", "America/Chicago", 3, True),
              ("Denver Studio", "1600 Wynkoop Street", "Denver", "America/Denver", 6, False))
#: Which visitor types ask for the NDA.
NDA = {"Interview candidate": True, "Vendor": False, "Customer visit": False, "Contractor": True}
#: Seeded invites: (location index, flow, days from today, hour, minute, status, host index).
_INVITES = ((0, "Customer visit", 0, 10, 0, "expected", 7), (0, "Vendor", 0, 11, 30, "expected", 4),
            (0, "Interview candidate", 0, 14, 0, "expected", 11), (0, "Contractor", 0, 8, 30, "arrived", 5),
            (0, "Customer visit", 0, 8, 45, "arrived", 8), (0, "Vendor", -1, 10, 0, "signed_out", 3),
            (0, "Customer visit", -1, 15, 0, "signed_out", 7), (0, "Customer visit", 1, 10, 0, "expected", 8),
            (0, "Interview candidate", 3, 13, 0, "expected", 0), (1, "Vendor", 2, 9, 30, "expected", 5),
            (1, "Customer visit", 2, 11, 0, "expected", 9), (1, "Contractor", 2, 14, 0, "expected", 10),
            (0, "Vendor", 2, 16, 0, "cancelled", 2), (0, "Customer visit", 5, 10, 30, "expected", 9))
_NOTES = {"Customer visit": "Quarterly business review; badge for floor 4.",
          "Vendor": "Delivering samples at reception.",
          "Interview candidate": "Onsite interview loop; escort to room Juniper.",
          "Contractor": "HVAC maintenance, needs roof access."}


def host_roster() -> list[tuple[str, str, str]]:
    """(name, email, title) of every host: the staff roster, then the operations desk."""
    return [(s.name, s.email, s.title) for s in STAFF] + [("Office Operations", OPS_EMAIL, "Workplace Operations")]


def _visitor(state: VisitorsState, name: str, email: str, company: str) -> Visitor:
    for v in state.visitors.values():
        if v.email.lower() == email.lower():
            return v
    v = Visitor(id=seed_id(state, "VIS"), full_name=name, email=email, company=company, visit_count=0)
    state.visitors[v.id] = v
    return v


def sign_in(state: VisitorsState, entry_id: str, visitor_id: str, at: dt.datetime, *, name: str, email: str,
            company: str, location_id: str, flow: Flow, host_email: str, invite: Optional[Invite] = None) -> Entry:
    """Add a sign-in entry (and count the visit); the invite, if any, becomes arrived."""
    e = Entry(id=entry_id, visitor_id=visitor_id, full_name=name, email=email, company=company,
              location_id=location_id, flow_id=flow.id, flow_name=flow.name, host_email=host_email,
              invite_id=invite.id if invite else None, nda_signed=flow.nda_required, signed_in_at=at)
    state.entries[e.id] = e
    state.visitors[visitor_id].visit_count += 1
    if invite is not None:
        invite.status, invite.entry_id = "arrived", e.id
    return e


def build_state(fake: Faker, rng: random.Random, today: dt.date) -> VisitorsState:
    """Offices, visitor types, hosts, invites, entries and the blocklist."""
    state = VisitorsState()
    for name, addr, city, tz, cap, active in _LOCATIONS:
        loc = Location(id=seed_id(state, "LOC"), name=name, address=addr, city=city, time_zone=tz,
                       daily_capacity=cap, active=active)
        state.locations[loc.id] = loc
    locs = list(state.locations)
    for loc_id in locs[:2]:
        for fname in FLOW_NAMES:
            f = Flow(id=seed_id(state, "FLW"), location_id=loc_id, name=fname, nda_required=NDA[fname],
                     photo_required=fname == "Contractor")
            state.flows[f.id] = f
    roster = host_roster()
    for n, (name, email, title) in enumerate(roster):
        h = Host(id=seed_id(state, "HST"), name=name, email=email, title=title,
                 location_id=locs[1] if n in (5, 9, 10) else locs[0])
        state.hosts[h.id] = h
    hosts = list(state.hosts.values())
    for li, fname, days, hour, minute, status, hi in _INVITES:
        person, company = fake_person(fake), fake.company()
        flow = flow_named(state, locs[li], fname)
        at = dt.datetime.combine(today + dt.timedelta(days=days), dt.time(hour, minute))
        host = hosts[hi]
        inv = Invite(id=seed_id(state, "VIN"), invitee_name=person.name, invitee_email=person.email,
                     company=company, host_email=host.email, host_name=host.name, location_id=locs[li],
                     flow_id=flow.id, flow_name=fname, expected_arrival_time=at, notes=_NOTES[fname],
                     status="expected", created_at=dt.datetime.combine(
                         min(at.date(), today) - dt.timedelta(days=rng.randint(1, 8)), dt.time(rng.randint(9, 17), 0)))
        state.invites[inv.id] = inv
        if status == "cancelled":
            inv.status, inv.cancelled_at = "cancelled", inv.created_at + dt.timedelta(days=1)
        if status in ("arrived", "signed_out"):
            v = _visitor(state, person.name, person.email, company)
            e = sign_in(state, seed_id(state, "ENT"), v.id, at + dt.timedelta(minutes=rng.randint(-10, 5)),
                        name=person.name, email=person.email, company=company, location_id=locs[li], flow=flow,
                        host_email=host.email, invite=inv)
            if status == "signed_out":
                inv.status, e.signed_out_at = "signed_out", e.signed_in_at + dt.timedelta(hours=rng.randint(1, 3))
    for days, li, fname in ((-1, 0, "Vendor"), (-2, 1, "Contractor")):
        person, company = fake_person(fake), fake.company()
        v = _visitor(state, person.name, person.email, company)
        at = dt.datetime.combine(today + dt.timedelta(days=days), dt.time(13, rng.randint(0, 59)))
        e = sign_in(state, seed_id(state, "ENT"), v.id, at, name=person.name, email=person.email, company=company,
                    location_id=locs[li], flow=flow_named(state, locs[li], fname), host_email=OPS_EMAIL)
        e.signed_out_at = at + dt.timedelta(minutes=50)
    for n, reason in enumerate(("Tailgated through the badge gate twice in November.",
                                "Former contractor; access revoked by Security.",
                                "Harassed reception staff; removed by Security (lifted after review).")):
        person = fake_person(fake)
        b = BlocklistEntry(id=seed_id(state, "BLK"), full_name=person.name, email=person.email, reason=reason,
                           added_by=STAFF[6].email, added_at=dt.datetime.combine(
                               today - dt.timedelta(days=40 + 20 * n), dt.time(11, 0)), active=n != 2)
        state.blocklist[b.id] = b
    return state
