"""Seed data of the crm service: customer companies with account owners from
the company roster, their contacts, open and closed deals, and call notes."""

from __future__ import annotations

import datetime as dt
import random

from faker import Faker

from compoworld_gym.envs.services import _crm_models as m
from compoworld_gym.envs.services._company import STAFF

_OWNERS = [s.email for s in STAFF if s.team in ("customer_success", "billing")]
_INDUSTRIES = ("Retail", "Logistics", "Healthcare", "Software", "Manufacturing", "Hospitality", "Education")
_KINDS = ("Annual renewal", "Expansion", "Pilot", "Support plan", "Add-on seats", "Multi-year renewal")
_TITLES = ("Head of Operations", "Procurement Manager", "CFO", "IT Director", "Office Manager", "COO")


def _link(state: m.CrmState, ft: str, fid: str, tt: str, tid: str, type_id: int, inverse: int) -> None:
    for a_t, a_id, b_t, b_id, t in ((ft, fid, tt, tid, type_id), (tt, tid, ft, fid, inverse)):
        key = f"{a_t}:{a_id}->{b_t}:{b_id}"
        state.associations[key] = m.Association(from_type=a_t, from_id=a_id, to_type=b_t, to_id=b_id, type_ids=[t])


def _companies(state: m.CrmState, fake: Faker, rng: random.Random, stamp) -> None:
    # Large accounts straddle both VIP revenue thresholds the manual may set ($1M or $5M).
    revenues = [rng.choice((250_000, 600_000, 900_000)) for _ in range(5)] + [
        rng.choice((1_200_000, 2_500_000)), rng.choice((1_500_000, 3_000_000)), rng.choice((6_000_000, 12_000_000))]
    rng.shuffle(revenues)
    for i, revenue in enumerate(revenues, start=1):
        name = fake.unique.company()
        slug = "".join(ch for ch in name.split()[0].lower() if ch.isalnum())
        cid = f"COMP-{i:04d}"
        state.companies[cid] = m.Company(
            id=cid, name=name, domain=f"{slug}{i}.example", industry=rng.choice(_INDUSTRIES), city=fake.city(),
            country="United States", phone=fake.numerify("+1-###-###-####"), annualrevenue=float(revenue),
            numberofemployees=max(5, revenue // rng.randint(80_000, 200_000)),
            lifecyclestage="customer" if i <= 6 else rng.choice(("lead", "opportunity")),
            owner_email=rng.choice(_OWNERS), createdate=stamp(300), lastmodifieddate=stamp(20))


def _contacts(state: m.CrmState, fake: Faker, rng: random.Random, stamp) -> None:
    comps = list(state.companies.values())
    for i in range(1, 15):
        comp = comps[(i - 1) % len(comps)]
        first, last = fake.first_name(), fake.last_name()
        cid = f"CON-{i:04d}"
        state.contacts[cid] = m.Contact(
            id=cid, email=f"{first}.{last}".lower().replace("'", "") + f"@{comp.domain}", firstname=first,
            lastname=last, phone=fake.numerify("+1-###-###-####"), company=comp.name, jobtitle=rng.choice(_TITLES),
            lifecyclestage="customer" if comp.lifecyclestage == "customer" else "salesqualifiedlead",
            city=comp.city, country=comp.country, owner_email=comp.owner_email,
            createdate=stamp(200), lastmodifieddate=stamp(10))
        _link(state, "contacts", cid, "companies", comp.id, 1, 2)


def _deals(state: m.CrmState, rng: random.Random, today: dt.date, stamp) -> None:
    stages = ("qualifiedtobuy", "presentationscheduled", "contractsent", "decisionmakerboughtin", "closedwon",
              "closedlost")
    comps = list(state.companies.values())
    for i, stage in enumerate(stages, start=1):
        comp = comps[rng.randrange(len(comps))]
        contact = next(c for c in state.contacts.values() if c.company == comp.name)
        did = f"DEAL-{i:04d}"
        closed = stage.startswith("closed")
        state.deals[did] = m.Deal(
            id=did, dealname=f"{comp.name} - {_KINDS[i - 1]}",
            amount=float(rng.choice((4_800, 12_000, 25_000, 60_000))), dealstage=stage,
            closedate=today + dt.timedelta(days=-rng.randint(5, 40) if closed else rng.randint(10, 90)),
            owner_email=comp.owner_email, createdate=stamp(120), lastmodifieddate=stamp(5))
        _link(state, "deals", did, "companies", comp.id, 5, 6)
        _link(state, "deals", did, "contacts", contact.id, 3, 4)


def _notes(state: m.CrmState, rng: random.Random, stamp) -> None:
    texts = ("Customer asked about invoice timing; promised a follow-up email.",
             "Escalation call held; customer unhappy with shipping delays.",
             "Renewal discussed; decision expected next month.",
             "Updated billing contact after reorganisation.")
    contacts = rng.sample(list(state.contacts.values()), len(texts))
    for i, (text, contact) in enumerate(zip(texts, contacts), start=1):
        nid = f"NOTE-{i:04d}"
        when = stamp(rng.randint(2, 30))
        state.notes[nid] = m.Note(id=nid, hs_note_body=text, hs_timestamp=when, hubspot_owner_id=contact.owner_email,
                                  createdate=when, lastmodifieddate=when)
        _link(state, "notes", nid, "contacts", contact.id, 202, 201)


def seed_crm(fake: Faker, rng: random.Random, today: dt.date) -> m.CrmState:
    """The seeded CRM: 8 companies (3 with revenue >= $1.2M, one >= $6M), 14 contacts,
    6 deals, 4 notes, all linked; id counters set past the seeded ids."""
    def stamp(days_ago: int) -> dt.datetime:
        return dt.datetime.combine(today - dt.timedelta(days=days_ago), dt.time(rng.randint(8, 17), 0))

    state = m.CrmState()
    fake.unique.clear()
    _companies(state, fake, rng, stamp)
    _contacts(state, fake, rng, stamp)
    _deals(state, rng, today, stamp)
    _notes(state, rng, stamp)
    state.counters.update({"COMP": 9, "CON": 15, "DEAL": 7, "NOTE": 5})
    return state
