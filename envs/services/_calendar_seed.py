"""Seed events of the calendar service: recurring team meetings, customer
calls and reviews around "today", with roster staff and Faker customers."""

from __future__ import annotations

import datetime as dt
import random
from typing import Any

from faker import Faker

from compoworld_gym.envs.services._common import email_for
from compoworld_gym.envs.services._company import STAFF

_BY_NAME = {s.name: s.email for s in STAFF}
ROOMS = ("Room Atlas", "Room Borealis", "Room Cirrus")


def _workday(today: dt.date, offset: int) -> dt.date:
    """The ``offset``-th working day from today (0 = today, even on a weekend)."""
    day, step = today, 1 if offset >= 0 else -1
    for _ in range(abs(offset)):
        day += dt.timedelta(days=step)
        while day.weekday() >= 5:
            day += dt.timedelta(days=step)
    return day


def seed_events(fake: Faker, rng: random.Random, today: dt.date, owner: str) -> list[dict[str, Any]]:
    """Event field dicts (ids EVT-0001...), in id order; rooms never double-booked."""
    customer = fake.name()
    cust_email = email_for(customer, fake.free_email_domain())
    company = fake.company()
    priya, marcus, elena = _BY_NAME["Priya Raman"], _BY_NAME["Marcus Bell"], _BY_NAME["Elena Petrova"]
    jamal, grace, daniel = _BY_NAME["Jamal Wright"], _BY_NAME["Grace Okafor"], _BY_NAME["Daniel Cho"]
    luis, ben, sofia = _BY_NAME["Luis Ortega"], _BY_NAME["Ben Foster"], _BY_NAME["Sofia Marin"]
    room = rng.sample(ROOMS, 3)
    plan = [
        # (day offset, hour, minutes, summary, location, attendees, description)
        (0, 9, 15, "Ops daily standup", "", [luis, priya, grace], "Queue review."),
        (0, 11, 60, "Weekly billing review", room[0], [priya, marcus], "Overdue invoices and escalations."),
        (0, 14, 30, f"Call with {customer}", "Zoom", [cust_email, jamal], f"Escalation follow-up ({company})."),
        (1, 9, 15, "Ops daily standup", "", [luis, priya, grace], "Queue review."),
        (1, 10, 60, "Carrier contract review", room[1], [grace, daniel], "Q1 carrier rates."),
        (1, 13, 45, "Refund approvals sync", room[0], [elena, priya], "Pending refunds over the threshold."),
        (2, 15, 60, f"VIP QBR: {company}", room[2], [jamal, cust_email], "Quarterly business review."),
        (3, 10, 60, "Incident post-mortem: checkout latency", room[1], [ben, luis], "Timeline and actions."),
        (4, 16, 30, "Security access review", "", [sofia], "Quarterly access audit."),
        (-1, 10, 60, "Month-end close prep", room[2], [elena], "Finance close checklist."),
        (-2, 15, 30, "1:1 Luis / ops", "", [luis], "Weekly 1:1."),
    ]
    events = []
    for i, (off, hour, minutes, summary, loc, people, desc) in enumerate(plan, start=1):
        start = dt.datetime.combine(_workday(today, off), dt.time(hour, 0))
        events.append({
            "id": f"EVT-{i:04d}", "summary": summary, "description": desc, "location": loc, "start": start,
            "end": start + dt.timedelta(minutes=minutes), "organizer": owner,
            "attendees": [{"email": p, "responseStatus": rng.choice(("accepted", "accepted", "tentative",
                                                                      "needsAction"))} for p in people],
            "updated": dt.datetime.combine(today - dt.timedelta(days=rng.randint(3, 20)), dt.time(8, 0)),
        })
    return events
