"""Seed data of the conference_program service: the company's Pretalx instance.

Two events of the company's calendar, lined up with event_ticketing and
venue_booking: Customer Summit 2026 (ticketed event TEV-0001, booked at the
Riverside Convention Center as venue event VEV-0007, 09:00-18:00 in 34 days;
its rooms are the centre's spaces) with its call for papers closed, talks in
every state, reviews by the program committee, a released schedule 1.0 and
two talks scheduled since; and the Data and Reporting Workshop (TEV-0004,
VEV-0008, in 20 days) whose lightning-talk CFP is still open. Speakers are
staff of the company roster, store customers and B2B account contacts.
"""

from __future__ import annotations

import datetime as dt
import random
from faker import Faker

from compoworld_gym.envs.services._accounts import ACCOUNTS
from compoworld_gym.envs.services._blocks import day_start, seed_id
from compoworld_gym.envs.services._commerce import CUSTOMERS
from compoworld_gym.envs.services._company import STAFF
from compoworld_gym.envs.services._conference_program_models import (
    ConferenceEvent, ConferenceProgramState, Review, Room, ScheduleRelease, Slot, Speaker, Submission,
    SubmissionType,
)
from compoworld_gym.envs.services._conference_program_rules import scheduled, talk_view

SUMMIT, WORKSHOP = "customer-summit-2026", "data-workshop-2026"
_STAFF = {s.name: s for s in STAFF}
_CUST = {c.name: c for c in CUSTOMERS}
_ACC = {a.contact_name: a for a in ACCOUNTS}
#: Speakers: (name, kind) with kind staff, customer or account.
SPEAKERS = (("Jamal Wright", "staff"), ("Hank Scorpio", "account"), ("Priya Raman", "staff"), ("Ben Foster", "staff"),
            ("Ethan Brooks", "customer"), ("Aisha Khan", "staff"), ("Olivia Martinez", "customer"),
            ("Miles Dyson", "account"), ("Lucas Fernandez", "customer"), ("Hannah Kovacs", "staff"),
            ("Mia Schneider", "customer"), ("Pepper Potts", "account"), ("Rachael Rosen", "account"),
            ("Sol Roth", "account"), ("Liam Patel", "customer"))
TYPES = {"Keynote": 45, "Talk": 30, "Workshop": 90, "Lightning Talk": 10}
#: Submissions: (event, title, speaker numbers, type, track, state, slot (room number, "HH:MM") or None,
#: reviews ((reviewer number, score), ...)).
_SUBMISSIONS = (
    (SUMMIT, "The Road Ahead: Acme Platform 2026", (1,), "Keynote", "Product", "confirmed", (1, "09:15"), ()),
    (SUMMIT, "How Globex Cut Support Costs by 40%", (2,), "Talk", "Customer Stories", "confirmed", (1, "10:15"),
     ((0, 3), (1, 2))),
    (SUMMIT, "Automating Billing Reconciliation", (3,), "Talk", "Product", "accepted", (2, "10:15"), ((0, 2),)),
    (SUMMIT, "Hands-on: Building Dashboards That Get Used", (4,), "Workshop", "Engineering", "confirmed",
     (3, "11:00"), ((2, 3),)),
    (SUMMIT, "Scaling Fulfilment for the Holidays", (5,), "Talk", "Customer Stories", "confirmed", (2, "11:00"),
     ((0, 2), (2, 3))),
    (SUMMIT, "Privacy by Design in Practice", (6,), "Talk", "Product", "accepted", None, ((1, 2),)),
    (SUMMIT, "Our Migration Story: Three Systems to One", (7,), "Talk", "Customer Stories", "submitted", None,
     ((0, 2), (2, 1))),
    (SUMMIT, "Robots on the Warehouse Floor", (8,), "Talk", "Engineering", "rejected", None, ((0, 0), (1, 1))),
    (SUMMIT, "Five Integrations We Can't Live Without", (9,), "Lightning Talk", "Product", "withdrawn", None, ()),
    (SUMMIT, "Customer Success Playbooks That Work", (10,), "Talk", "Customer Stories", "canceled", None, ()),
    (SUMMIT, "From Spreadsheets to a Data Warehouse", (11,), "Talk", "Customer Stories", "accepted", (2, "13:30"),
     ((1, 3),)),
    (SUMMIT, "Partner Integrations Panel", (12, 1), "Keynote", "Product", "confirmed", (1, "14:00"), ()),
    (WORKSHOP, "SQL Window Functions in Ten Minutes", (13,), "Lightning Talk", "Data", "submitted", None, ()),
    (WORKSHOP, "Dashboards Your CFO Will Actually Read", (14,), "Lightning Talk", "Data", "submitted", None, ()),
    (WORKSHOP, "Reporting at Scale with dbt", (4,), "Talk", "Data", "confirmed", (1, "10:15"), ()),
    (WORKSHOP, "Excel Macros Forever", (15,), "Lightning Talk", "Data", "rejected", None, ((1, 0),)),
)
_ABSTRACTS = ("A practical look at what changed, what worked and what we would do differently.",
              "Real numbers, real mistakes and the playbook we now reuse on every rollout.",
              "Step by step, with the checklists and templates attendees can take home.")
#: Submissions scheduled after schedule 1.0 was released.
_AFTER_RELEASE = ("From Spreadsheets to a Data Warehouse", "Partner Integrations Panel")


def _speaker(name: str, kind: str) -> tuple[str, str]:
    if kind == "staff":
        return _STAFF[name].email, "Acme Inc."
    if kind == "customer":
        return _CUST[name].email, ""
    return _ACC[name].contact_email, _ACC[name].company


def events_for(today: dt.date) -> list[ConferenceEvent]:
    """The two seeded events (their days follow venue_booking's and event_ticketing's seeds)."""
    close = lambda days: dt.datetime.combine(today + dt.timedelta(days=days), dt.time(23, 59))  # noqa: E731
    summit_day, workshop_day = today + dt.timedelta(days=34), today + dt.timedelta(days=20)
    types = lambda *names: [SubmissionType(name=n, default_duration=TYPES[n]) for n in names]  # noqa: E731
    return [
        ConferenceEvent(slug=SUMMIT, name="Customer Summit 2026", date_from=summit_day, date_to=summit_day,
                        cfp_deadline=close(-40), day_start=9, day_end=18,
                        submission_types=types("Keynote", "Talk", "Workshop", "Lightning Talk"),
                        tracks=["Product", "Customer Stories", "Engineering"],
                        organizer_email=_STAFF["Jamal Wright"].email,
                        reviewers=[_STAFF[n].email for n in ("Luis Ortega", "Hannah Kovacs", "Grace Okafor")],
                        ticketed_event_id="TEV-0001", venue_event_id="VEV-0007"),
        ConferenceEvent(slug=WORKSHOP, name="Data and Reporting Workshop", date_from=workshop_day,
                        date_to=workshop_day, cfp_deadline=close(5), day_start=10,
                        day_end=14, submission_types=types("Talk", "Lightning Talk"), tracks=["Data"],
                        organizer_email=_STAFF["Ben Foster"].email,
                        reviewers=[_STAFF[n].email for n in ("Elena Petrova", "Tomas Lindqvist")],
                        ticketed_event_id="TEV-0004", venue_event_id="VEV-0008")]


def build_state(fake: Faker, rng: random.Random, today: dt.date) -> ConferenceProgramState:
    """Events, rooms, speakers and submissions, a released schedule on the summit.

    Args:
        fake: seeded Faker (the factory's signature; people come from the shared rosters).
        rng: seeded random stream (submission times, biographies).
        today: the task's date.
    """
    state = ConferenceProgramState()
    for ev in events_for(today):
        state.events[ev.slug] = ev
    rooms = {SUMMIT: (("Hall A", 1200, "SPC-0001"), ("Riverside Terrace", 150, "SPC-0002"),
                      ("Boardroom 3", 20, "SPC-0003")), WORKSHOP: (("Main Loft", 80, "SPC-0007"),)}
    room_ids: dict[tuple[str, int], str] = {}
    for slug, spec in rooms.items():
        for k, (name, cap, space) in enumerate(spec, start=1):
            r = Room(id=seed_id(state, "ROOM"), event=slug, name=name, capacity=cap, position=k - 1,
                     venue_space=space)
            state.rooms[r.id] = r
            room_ids[slug, k] = r.id
    for name, kind in SPEAKERS:
        email, company = _speaker(name, kind)
        sp = Speaker(code=seed_id(state, "SPK"), name=name, email=email, company=company,
                     biography=f"{name} {'works at ' + company if company else 'runs an online store'}; "
                               f"{rng.choice(('ten', 'twelve', 'fifteen'))} years in the field.")
        state.speakers[sp.code] = sp
    codes = list(state.speakers)
    for k, (slug, title, who, kind, track, st, slot, reviews) in enumerate(_SUBMISSIONS):
        ev = state.events[slug]
        made = ev.cfp_deadline - dt.timedelta(days=rng.randint(3, 30), hours=rng.randint(0, 9))
        sub = Submission(code=seed_id(state, "SES"), event=slug, title=title, speakers=[codes[n - 1] for n in who],
                         submission_type=kind, track=track, state=st, abstract=_ABSTRACTS[k % 3],
                         duration=TYPES[kind], created=min(made, day_start(today) - dt.timedelta(days=1)))
        if st != "submitted":
            sub.state_changed = max(sub.created, day_start(today) - dt.timedelta(days=rng.randint(5, 20)))
        if slot is not None:
            room, hhmm = slot
            begin = dt.datetime.combine(ev.date_from, dt.time(*map(int, hhmm.split(":"))))
            sub.slot = Slot(room=room_ids[slug, room], start=begin, end=begin + dt.timedelta(minutes=sub.duration))
        for j, (reviewer, score) in enumerate(reviews):
            sub.reviews.append(Review(id=seed_id(state, "RVW"), user=ev.reviewers[reviewer], score=score,
                                      text=("Not a fit this year.", "Solid but familiar.", "Strong, practical.",
                                            "Must have: our attendees asked for this.")[score],
                                      created=ev.cfp_deadline + dt.timedelta(days=2 + j)))
        state.submissions[sub.code] = sub
    summit = state.events[SUMMIT]
    released = [s for s in scheduled(state.submissions.values(), SUMMIT) if s.title not in _AFTER_RELEASE]
    summit.schedules.append(ScheduleRelease(version="1.0", published=day_start(today) - dt.timedelta(days=3),
                                            talks=[talk_view(s, state.rooms, state.speakers) for s in released]))
    return state


__all__ = ["SPEAKERS", "SUMMIT", "TYPES", "WORKSHOP", "build_state", "events_for"]
