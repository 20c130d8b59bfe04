"""Podcasts (Transistor-style) in chained tasks: an episode names its
sponsor company, the sponsorship fee, its guest's email and the date it goes
live; a sponsor company (or a guest's email) leads to its upcoming
scheduled episode and so to the publish date. The case's episode is
published now, pulled back to a draft, or gets a line in its show notes."""

from __future__ import annotations

import datetime as dt
from typing import Any

from compoworld_gym.checks import OnlyChanged, RecordMatches
from compoworld_gym.envs.services._podcasts_models import Episode
from compoworld_gym.envs.services._podcasts_seed import audio_url, share_url
from compoworld_gym.generation.context import Ctx, call
from compoworld_gym.generation.hooks.hr_directory import name_from_email
from compoworld_gym.generation.links import (
    Action, Found, Give, Need, Reader, Relay, ServiceLinks, Write, next_id, pick,
)

SERVICE = "podcasts"
SHOW = "PSH-0001"
DATE_RX = r"\d{4}-\d{2}-\d{2}"
_TITLES = ("Scaling customer operations", "Inside a modern warehouse", "Service desks that delight",
           "Budgeting for growth", "Lessons from a rough quarter", "Building resilient teams")
_HOSTS = ("jamal.wright@company.example", "hannah.kovacs@company.example")


def next_episode_id(state: dict[str, Any]) -> str:
    """Take the next free episode id (as ``new_id("PEP")``)."""
    return next_id(state, "PEP")


def sponsor_fee(ctx: Ctx) -> float:
    """A plausible sponsorship fee for one episode (USD)."""
    return float(ctx.rng.randrange(800, 4200, 50))


def plant_episode(ctx: Ctx, episode_id: str, *, day: str, sponsor: str, fee: float, guest_email: str,
                  live: bool = False) -> str:
    """Add an :class:`Episode` of The Operations Hour (season 2, next free number) with its audio, sponsored by
    ``sponsor`` for ``fee`` USD, with the guest of ``guest_email``: scheduled for 06:00 on ``day`` (ISO date),
    or, ``live``, published weeks ago (a past sponsorship). Returns the id."""
    state = ctx.state(SERVICE)
    taken = [e["number"] or 0 for e in state["episodes"].values() if e["show_id"] == SHOW and e["season"] == 2]
    title = ctx.rng.choice(_TITLES)
    when = (dt.datetime.fromisoformat(f"{ctx.day(-ctx.rng.randint(20, 60))}T06:00:00") if live
            else dt.datetime.fromisoformat(f"{day}T06:00:00"))
    guest = name_from_email(guest_email)
    created = dt.datetime.fromisoformat(f"{ctx.day(-70 if live else -8)}T11:00:00")
    ep = Episode(id=episode_id, show_id=SHOW, title=title, summary=f"{title}, with {guest}.",
                 description=f"{title}. With {guest}. Sponsored by {sponsor}.", status="published" if live else
                 "scheduled", season=2, number=max(taken, default=0) + 1, audio_url=audio_url("operations-hour",
                                                                                             episode_id),
                 duration=ctx.rng.randint(1500, 3600), published_at=when, host_email=ctx.rng.choice(_HOSTS),
                 guest_name=guest, guest_email=guest_email, sponsor=sponsor, sponsor_fee=fee,
                 share_url=share_url(episode_id), created_at=created, updated_at=created)
    state["episodes"][episode_id] = ep.model_dump(mode="json")
    return episode_id


def _plant(ctx: Ctx, key: Any, outs: dict[str, Any], stale: bool, by: str) -> str:
    eid = key if by == "id" else next_episode_id(ctx.state(SERVICE))
    values = {"company": outs.get("company") or ctx.fresh("company"), "email": outs.get("email") or ctx.person()[1]}
    if by != "id":
        values[by] = key
    return plant_episode(ctx, eid, day=outs.get("date") or ctx.day(ctx.rng.randint(3, 30)), sponsor=values["company"],
                         fee=outs.get("money") or sponsor_fee(ctx), guest_email=values["email"], live=stale)


def _upcoming(reader: Reader, **where: Any) -> dict[str, Any]:
    rows = reader.read(SERVICE, "list_episodes", status="scheduled", **where)
    return reader.read(SERVICE, "get_episode", episode_id=pick(rows)["id"])


_DATE = Give("date", "published_at", "the date the episode goes live", pattern=DATE_RX)
_FEE = Give("money", "sponsor_fee", "the episode's sponsorship fee", draw=sponsor_fee)
_TRUTH = "An episode already published is a past sponsorship; only the upcoming scheduled episode counts."

EPISODE = Relay(
    service=SERVICE, name="podcast episode", key="podcast_episode_id",
    gives=(Give("company", "sponsor", "the episode's sponsor", party="customer"), _FEE, _DATE,
           Give("email", "guest_email", "the episode guest's email address", "the customer")),
    plant=lambda ctx, key, outs, stale: _plant(ctx, key, outs, stale, "id"),
    find=lambda reader, key: reader.read(SERVICE, "get_episode", episode_id=key),
    where="Each podcast episode names its sponsor, the sponsorship fee, its guest and when it goes live.",
    alloc=lambda ctx: next_episode_id(ctx.state(SERVICE)), entry=lambda key: f"podcast episode {key}")

SPONSOR_EPISODE = Relay(
    service=SERVICE, name="sponsor's upcoming episode", key="company", key_party="customer",
    gives=(Give("podcast_episode_id", "id", "the sponsor's upcoming podcast episode"), _FEE, _DATE),
    plant=lambda ctx, key, outs, stale: _plant(ctx, key, outs, stale, "company"),
    find=lambda reader, key: _upcoming(reader, sponsor=key),
    where="The podcast host lists every episode under the company that sponsors it.", truth=_TRUTH)

GUEST_EPISODE = Relay(
    service=SERVICE, name="guest's upcoming episode", key="email",
    gives=(Give("podcast_episode_id", "id", "the guest's upcoming podcast episode"),
           Give("company", "sponsor", "the episode's sponsor", party="customer"), _DATE),
    plant=lambda ctx, key, outs, stale: _plant(ctx, key, outs, stale, "email"),
    find=lambda reader, key: _upcoming(reader, guest_email=key),
    where="Podcast episodes record the guest's email address.", truth=_TRUTH)


def _scope(eid: str) -> list[OnlyChanged]:
    return [OnlyChanged(id="_", service=SERVICE, collection="episodes", allow_ids=[eid],
                        description="No other podcast episode was changed or created.")]


def _status_write(reader: Reader, eid: str, status: str, label: str, description: str) -> Write:
    reader.read(SERVICE, "get_episode", episode_id=eid)
    where = {"status": status} if status == "published" else {"status": status, "published_at": None}
    return Write(calls=[call("publish_episode", episode_id=eid, status=status)],
                 checks=[RecordMatches(id="_", service=SERVICE, collection="episodes", record_id=eid, where=where,
                                       description=description)],
                 scope=_scope(eid), tool="publish_episode", where={"episode_id": eid, "status": status}, label=label)


def _publish(reader: Reader, args: dict[str, Found]) -> Write:
    return _status_write(reader, args["episode"].value, "published", "the episode going live",
                         "The case's podcast episode is published.")


def _unpublish(reader: Reader, args: dict[str, Found]) -> Write:
    return _status_write(reader, args["episode"].value, "draft", "the episode pulled back to draft",
                         "The case's podcast episode is back to a draft with no publish time.")


def _note(reader: Reader, args: dict[str, Found]) -> Write:
    eid, mention, case = args["episode"].value, args["mention"], args["case"].value
    notes = reader.read(SERVICE, "get_episode", episode_id=eid)["description"]
    line = f"{case}: {mention.noun} is {mention.display}."
    return Write(
        calls=[call("update_episode", episode_id=eid, description=f"{notes}\n{line}" if notes else line)],
        checks=[RecordMatches(id="_", service=SERVICE, collection="episodes", record_id=eid,
                              # The notes keep what they said: the line is added, nothing rewritten.
                              where={"description": {"$all": [*([{"$contains": notes}] if notes else []),
                                                              {"$contains": case}, {"$contains": mention.display}]}},
                              description="The episode's show notes keep what they said and carry a line "
                                          "quoting the right value.")],
        scope=_scope(eid), tool="update_episode", where={"episode_id": eid}, label="the line in the show notes")


_EPISODE_NEED = (Need("episode", "podcast_episode_id"),)

LINKS = ServiceLinks(
    service=SERVICE, label="the podcast host",
    relays=(EPISODE, SPONSOR_EPISODE, GUEST_EPISODE),
    actions=(
        Action(service=SERVICE, name="publish", needs=_EPISODE_NEED, build=_publish,
               goal="publish the podcast episode now"),
        Action(service=SERVICE, name="unpublish", needs=_EPISODE_NEED, build=_unpublish,
               goal="pull the podcast episode back to a draft"),
        Action(service=SERVICE, name="note", needs=_EPISODE_NEED, build=_note,
               goal="add a line to the podcast episode's show notes quoting {mention}"),
    ),
)

__all__ = ["LINKS", "next_episode_id", "plant_episode", "sponsor_fee"]
