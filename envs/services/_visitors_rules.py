"""Rules of the visitors service: the blocklist, a location's daily capacity and sign-in requirements.

* A person on the active blocklist (matched on email, case-insensitively, or on
  the exact full name) can be neither invited nor signed in.
* A location's day holds at most ``daily_capacity`` visitors: its invites for
  the day that are not cancelled, plus the walk-in entries of the day.
* A flow that requires the NDA signs a visitor in only with ``nda_signed``.
"""

from __future__ import annotations

import datetime as dt
from typing import Optional

from compoworld_gym.envs.services._visitors_models import BlocklistEntry, Flow, Host, Location, VisitorsState
from compoworld_gym.errors import Conflict, NotFound, Unprocessable


def blocked(state: VisitorsState, email: str, name: Optional[str] = None) -> Optional[BlocklistEntry]:
    """The active blocklist entry matching ``email`` (or ``name``), or None."""
    e, n = email.strip().lower(), (name or "").strip().lower()
    for b in state.blocklist.values():
        if b.active and (b.email.lower() == e or (n and b.full_name and b.full_name.lower() == n)):
            return b
    return None


def refuse_blocked(state: VisitorsState, email: str, name: Optional[str], action: str) -> None:
    """Raise 422 when the person is blocklisted.

    Raises:
        Unprocessable: the person matches an active blocklist entry.
    """
    b = blocked(state, email, name)
    if b is not None:
        raise Unprocessable(f"{email} is on the blocklist ({b.id}); {action} is refused. Security must remove "
                            "the entry first.")


def day_load(state: VisitorsState, location_id: str, day: dt.date, skip_invite: Optional[str] = None) -> int:
    """Visitors booked at ``location_id`` on ``day``: live invites plus walk-in entries."""
    invites = sum(1 for i in state.invites.values() if i.location_id == location_id and i.status != "cancelled"
                  and i.expected_arrival_time.date() == day and i.id != skip_invite)
    walk_ins = sum(1 for e in state.entries.values() if e.location_id == location_id and e.invite_id is None
                   and e.signed_in_at.date() == day)
    return invites + walk_ins


def check_capacity(state: VisitorsState, loc: Location, day: dt.date, skip_invite: Optional[str] = None) -> None:
    """Raise 409 when ``loc`` is full on ``day``.

    Raises:
        Conflict: the day already holds ``daily_capacity`` visitors.
    """
    load = day_load(state, loc.id, day, skip_invite)
    if load >= loc.daily_capacity:
        raise Conflict(f"{loc.name} is full on {day.isoformat()}: {load} of {loc.daily_capacity} visitor places "
                       "are taken; pick another day or location.")


def active_location(state: VisitorsState, location_id: str) -> Location:
    """The location, if it takes visitors.

    Raises:
        NotFound: unknown location.
        Unprocessable: the location is inactive.
    """
    loc = state.locations.get(location_id)
    if loc is None:
        raise NotFound(f"location {location_id!r} not found; call list_locations.")
    if not loc.active:
        raise Unprocessable(f"location {loc.id} ({loc.name}) is inactive and takes no visitors.")
    return loc


def host_by_email(state: VisitorsState, email: str) -> Host:
    """The host employee with work email ``email``.

    Raises:
        NotFound: no employee has that email.
    """
    e = email.strip().lower()
    for h in state.hosts.values():
        if h.email.lower() == e:
            return h
    raise NotFound(f"no employee {email!r} in the directory; a host must be an employee (list_hosts).")


def flow_named(state: VisitorsState, location_id: str, name: str) -> Flow:
    """The location's flow (visitor type) called ``name``.

    Raises:
        NotFound: the location has no such visitor type.
    """
    for f in state.flows.values():
        if f.location_id == location_id and f.name == name:
            return f
    raise NotFound(f"location {location_id} has no visitor type {name!r}; call list_flows.")
