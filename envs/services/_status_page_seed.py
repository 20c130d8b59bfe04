"""Seed data of the ``status_page`` service: one public component per
internal app (:mod:`._engineering`), three resolved incidents and one still
open, a scheduled database upgrade, and customers and account admins
(:mod:`._commerce`, :mod:`._accounts`) as subscribers."""

from __future__ import annotations

import datetime as dt
import random

from compoworld_gym.envs.services._accounts import ACCOUNTS
from compoworld_gym.envs.services._blocks import day_start, seed_id
from compoworld_gym.envs.services._commerce import CUSTOMERS
from compoworld_gym.envs.services._engineering import APPS, ENGINEERS
from compoworld_gym.envs.services._status_page_models import (
    Component, IncidentUpdate, Maintenance, StatusIncident, StatusPageState, Subscriber,
)

_INCIDENTS = ("Elevated error rates on {c}", "{c} is slow to respond", "Intermittent failures in {c}",
              "{c} unavailable for some users")


def _updates(last: bool, when: dt.datetime, author: str) -> list[IncidentUpdate]:
    """The public updates of a seeded incident: resolved after 70 minutes, or (the last one) still identified."""
    ups = [IncidentUpdate(status="investigating", body="We are investigating reports of errors.",
                          author_email=author, created_at=when)]
    if last:
        return ups + [IncidentUpdate(status="identified", body="A recent deploy caused elevated errors.",
                                     author_email=author, created_at=when + dt.timedelta(minutes=20))]
    return ups + [IncidentUpdate(status="identified", body="The cause was identified; a fix is rolling out.",
                                 author_email=author, created_at=when + dt.timedelta(minutes=25)),
                  IncidentUpdate(status="resolved", body="The issue is resolved.", author_email=author,
                                 created_at=when + dt.timedelta(minutes=70))]


def _incidents(state: StatusPageState, rng: random.Random, start: dt.datetime, author: str) -> None:
    """SPI-0001..0003 resolved in the last month; SPI-0004 opened today, its component in partial outage."""
    comps = list(state.components)
    for n in range(1, 5):
        last = n == 4
        cid = rng.choice(comps)
        when = start - dt.timedelta(days=0 if last else rng.randint(1, 30), hours=rng.randint(1, 8))
        name = rng.choice(_INCIDENTS).format(c=state.components[cid].name)
        ups = _updates(last, when, author)
        if last:
            state.components[cid].status = "partial_outage"
        iid = seed_id(state, "SPI")
        state.incidents[iid] = StatusIncident(
            id=iid, name=name, status=ups[-1].status, impact="major" if last else rng.choice(("minor", "major")),
            component_ids=[cid], created_at=when, updates=ups,
            resolved_at=None if last else ups[-1].created_at)


def build_state(rng: random.Random, today: dt.date) -> StatusPageState:
    """The seeded state (components, incidents, one maintenance, subscribers)."""
    state = StatusPageState()
    for n, app in enumerate(APPS, start=1):
        cid = f"CPT-{n:04d}"  # components are never created by tools: no counter
        state.components[cid] = Component(id=cid, name=app.component, service=app.key, status="operational")
    comps = list(state.components)
    start = day_start(today)
    author = ENGINEERS[0].email
    _incidents(state, rng, start, author)
    mstart = start + dt.timedelta(days=rng.randint(2, 9), hours=13)
    mid = seed_id(state, "MNT")
    state.maintenances[mid] = Maintenance(
        id=mid, name="Database upgrade", status="scheduled", component_ids=rng.sample(comps, 2),
        scheduled_for=mstart, scheduled_until=mstart + dt.timedelta(hours=2),
        body="We will upgrade our primary database; brief interruptions are expected.", author_email=author)
    emails = [c.email for c in CUSTOMERS[:5]] + [a.contact_email for a in ACCOUNTS[:5]]
    for e in emails:
        follow = rng.sample(comps, rng.randint(0, 2))
        state.subscribers[e.lower()] = Subscriber(email=e, component_ids=follow,
                                                  created_on=today - dt.timedelta(days=rng.randint(5, 300)))
    return state
