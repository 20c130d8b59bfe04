"""Seed data of the venue booking service (records in ``_venue_booking_models``).

Acme Inc.'s event venues carry the names of the ticketing system's venues
(``_event_ticketing_seed``): Riverside Convention Center, The Grand Ballroom
and Downtown Loft, with their rooms. Clients are the shared B2B accounts
(``_accounts.ACCOUNTS``: the company and its main contact); Acme's own
ticketed events (Customer Summit 2026, the Data and Reporting Workshop, the
Spring Product Launch Party, the Holiday Customer Gala) are booked here too,
on the same days, with their ticketed event id and their organizer as the
contact. Each booked event has a BEO and the deposits its status needs.
"""

from __future__ import annotations

import datetime as dt
import random
from typing import Optional

from faker import Faker

from compoworld_gym.envs.services._accounts import ACCOUNTS
from compoworld_gym.envs.services._blocks import day_start
from compoworld_gym.envs.services._commerce import money
from compoworld_gym.envs.services._venue_booking_models import (
    MENU, SERVICE_CHARGE, TAX_RATE, BanquetOrder, Lead, Location, MenuItem, Payment, Room, VenueBookingState,
    VenueEvent, priced,
)

_LOCATIONS = (("Riverside Convention Center", (("Hall A", 1200), ("Riverside Terrace", 150), ("Boardroom 3", 20))),
              ("The Grand Ballroom", (("Grand Ballroom", 400), ("Crystal Room", 120), ("Library Lounge", 40))),
              ("Downtown Loft", (("Main Loft", 80), ("Rooftop Deck", 60))))
SALES_MANAGERS = ("jamal.wright@company.example", "hannah.kovacs@company.example")
#: (name, status, account index or organizer email, rooms, day offset, start hour, hours, guests, style,
#:  menu items (None quantity: one per guest), deposit share, paid in full, ticketed event id)
_EVENTS = (
    ("Globex Leadership Offsite", "definite", 0, ("SPC-0005",), 12, 9, 8, 90, "Conference",
     (("Continental breakfast", None), ("Plated lunch", None), ("AV package", 1)), 0.30, False, None),
    ("Initech Holiday Party", "closed", 1, ("SPC-0004",), -30, 18, 5, 300, "Reception",
     (("Hors d'oeuvres reception", None), ("Hosted bar - beer and wine", None), ("Dance floor", 1)), 0.25, True, None),
    ("Umbrella Health Awards Dinner", "tentative", 2, ("SPC-0004",), 25, 18, 4, 250, "Plated Dinner",
     (("Plated dinner - salmon", None), ("Premium open bar", None), ("Stage and lectern", 1)), 0.10, False, None),
    ("Stark Logistics Kickoff", "prospect", 3, ("SPC-0002",), 40, 10, 6, 120, "Conference",
     (("Plated lunch", None), ("Coffee and tea service", None)), 0.0, False, None),
    ("Wayne Partner Reception", "lost", 4, ("SPC-0007",), 18, 18, 3, 70, "Reception", (), 0.0, False, None),
    ("Soylent Product Tasting", "definite", 5, ("SPC-0008",), 5, 17, 3, 50, "Reception",
     (("Hors d'oeuvres reception", None), ("Hosted bar - beer and wine", None)), 0.50, False, None),
    ("Customer Summit 2026", "definite", "jamal.wright@company.example", ("SPC-0001",), 34, 9, 9, 1000,
     "Conference", (("Continental breakfast", None), ("Plated lunch", None), ("AV package", 1)), 0.25, False,
     "TEV-0001"),
    ("Data and Reporting Workshop", "tentative", "ben.foster@company.example", ("SPC-0007",), 20, 10, 4, 60,
     "Classroom", (("Coffee and tea service", None),), 0.0, False, "TEV-0004"),
    ("Spring Product Launch Party", "prospect", "jamal.wright@company.example", ("SPC-0004",), 52, 18, 4, 380,
     "Reception", (), 0.0, False, "TEV-0005"),
    ("Holiday Customer Gala", "closed", "hannah.kovacs@company.example", ("SPC-0004",), -28, 18, 5, 350,
     "Plated Dinner", (("Plated dinner - chicken", None), ("Premium open bar", None)), 0.25, True, "TEV-0006"),
)
#: Leads not (yet) booked: (account index, description, day offset, guests, status, lost reason)
_OPEN_LEADS = ((6, "Tyrell Data Summit, keynote and breakouts", 60, 150, "new", None),
               (8, "Crew appreciation dinner", 45, 200, "contacted", None),
               (9, "Import/export trade mixer", 30, 90, "lost", "Budget cut for the quarter"),
               (7, "Robotics demo day", 28, 80, "new", None))


def _name_of(email: str) -> str:
    return " ".join(p.capitalize() for p in email.split("@")[0].split("."))


def _phone(rng: random.Random) -> str:
    return f"+1-{rng.randint(200, 989)}-555-{rng.randint(1000, 9999)}"


def beo_lines(menu: tuple, guests: int) -> list[MenuItem]:
    """BEO lines for ``(menu item name, quantity or None for one per guest)`` pairs from :data:`MENU`."""
    out = []
    for name, qty in menu:
        m = MENU[name.lower()]
        q = qty or guests
        out.append(MenuItem(name=m.name, category=m.category, quantity=q, unit_price=m.unit_price,
                            amount=money(q * m.unit_price)))
    return out


def _book(st: VenueBookingState, n: int, spec: tuple, rng: random.Random, today: dt.date,
          lead_id: Optional[str]) -> VenueEvent:
    name, status, who, rooms, offset, hour, hours, guests, style, menu, share, full, tev = spec
    start = dt.datetime.combine(today + dt.timedelta(days=offset), dt.time(hour, 0))
    if isinstance(who, int):
        a = ACCOUNTS[who]
        company, contact, email = a.company, a.contact_name, a.contact_email
    else:
        company, contact, email = "Acme Inc.", _name_of(who), who
    room = st.rooms[rooms[0]]
    ev = VenueEvent(id=f"VEV-{n:04d}", name=name, status=status, lead_id=lead_id, company=company,
                    contact_name=contact, contact_email=email, contact_phone=_phone(rng),
                    location_id=room.location_id, room_ids=list(rooms), event_start=start,
                    event_end=start + dt.timedelta(hours=hours), guest_count=guests, event_style=style,
                    owner_email=SALES_MANAGERS[n % 2], ticketed_event_id=tev,
                    lost_reason="Chose another venue" if status == "lost" else None,
                    created_at=day_start(today) - dt.timedelta(days=max(20, 20 - offset) + rng.randint(0, 15)))
    st.events[ev.id] = ev
    if menu:
        bid = f"BEO-{len(st.banquet_orders) + 1:04d}"
        beo = priced(BanquetOrder(id=bid, event_id=ev.id, title=f"{style} BEO", items=beo_lines(menu, guests),
                                  service_charge_rate=SERVICE_CHARGE, tax_rate=TAX_RATE, subtotal=0, service_charge=0,
                                  tax=0, grand_total=0, updated_at=ev.created_at + dt.timedelta(days=2)))
        st.banquet_orders[bid] = beo
        paid_on = ev.created_at.date() + dt.timedelta(days=3)
        parts = [("deposit", money(beo.grand_total * share))] if share else []
        if full:
            parts.append(("payment", money(beo.grand_total - (parts[0][1] if parts else 0))))
        for kind, amount in parts:
            pid = f"VPY-{len(st.payments) + 1:04d}"
            st.payments[pid] = Payment(id=pid, event_id=ev.id, kind=kind, amount=amount,
                                       method=rng.choice(("credit_card", "ach", "wire")),
                                       reference=f"{company} {kind}", paid_on=paid_on)
    return ev


def build_state(fake: Faker, rng: random.Random, today: dt.date) -> VenueBookingState:
    """Three locations (8 rooms), ten events in every status (8 BEOs, their deposits), nine leads."""
    st = VenueBookingState()
    for i, (name, rooms) in enumerate(_LOCATIONS, start=1):
        lid = f"LOC-{i:04d}"
        st.locations[lid] = Location(id=lid, name=name, address=fake.street_address(), city=fake.city())
        for rname, cap in rooms:
            rid = f"SPC-{len(st.rooms) + 1:04d}"
            st.rooms[rid] = Room(id=rid, location_id=lid, name=rname, capacity=cap)
    leads = 0
    for n, spec in enumerate(_EVENTS, start=1):
        lead_id = f"VLD-{leads + 1:04d}" if isinstance(spec[2], int) else None
        ev = _book(st, n, spec, rng, today, lead_id)
        if lead_id is not None:
            leads += 1
            first, _, last = ev.contact_name.partition(" ")
            st.leads[lead_id] = Lead(id=lead_id, first_name=first, last_name=last, email_address=ev.contact_email,
                                     phone_number=ev.contact_phone, company=ev.company,
                                     event_description=ev.name, event_start=ev.event_start, event_end=ev.event_end,
                                     guest_count=ev.guest_count, location_id=ev.location_id, status="converted",
                                     event_id=ev.id, created_at=ev.created_at - dt.timedelta(days=4))
    for idx, desc, offset, guests, status, reason in _OPEN_LEADS:
        leads += 1
        a, lid = ACCOUNTS[idx], f"VLD-{leads:04d}"
        first, _, last = a.contact_name.partition(" ")
        start = dt.datetime.combine(today + dt.timedelta(days=offset), dt.time(rng.choice((10, 17, 18)), 0))
        st.leads[lid] = Lead(id=lid, first_name=first, last_name=last, email_address=a.contact_email,
                             phone_number=_phone(rng), company=a.company, event_description=desc, event_start=start,
                             event_end=start + dt.timedelta(hours=4), guest_count=guests,
                             location_id=rng.choice(sorted(st.locations)), status=status, lost_reason=reason,
                             created_at=day_start(today) - dt.timedelta(days=rng.randint(1, 12)))
    st.counters.update(LOC=len(st.locations) + 1, SPC=len(st.rooms) + 1, VEV=len(st.events) + 1,
                       VLD=len(st.leads) + 1, BEO=len(st.banquet_orders) + 1, VPY=len(st.payments) + 1)
    return st
