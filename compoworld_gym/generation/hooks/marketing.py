"""Marketing (Mailchimp-like) in chained tasks: the store newsletter's
subscriber record, found by email, names the subscriber; the case's customer
is unsubscribed from the newsletter."""

from __future__ import annotations

from typing import Any

from compoworld_gym.checks import OnlyChanged, RecordMatches
from compoworld_gym.envs.services.marketing import Member
from compoworld_gym.generation.context import Ctx, call
from compoworld_gym.generation.links import Action, Found, Give, Need, Reader, Relay, ServiceLinks, Write, pick

#: The audience list customers subscribe to (seeded by the marketing service).
NEWSLETTER = "Acme Store Newsletter"


def member_key(list_id: str, email: str) -> str:
    """The state key of a list member (as the marketing service files it)."""
    return f"{list_id}:{email.lower()}"


def newsletter_id(state: dict[str, Any]) -> str:
    """The id of the store newsletter list."""
    return pick(state["lists"], name=NEWSLETTER)["id"]


def plant_member(state: dict[str, Any], list_id: str, email: str, **fields: Any) -> str:
    """Add (or replace) a :class:`Member` (validated) of ``list_id``; returns its key.

    Raises:
        pydantic.ValidationError: the fields do not make a valid member.
    """
    base = {"status": "subscribed", "tags": [], "unsubscribed_on": None}
    record = Member.model_validate({**base, **fields, "list_id": list_id, "email": email})
    key = member_key(list_id, email)
    state["members"][key] = record.model_dump(mode="json")
    return key


def _subscribe(ctx: Ctx, email: str, name: str) -> str:
    state = ctx.state("marketing")
    lid = newsletter_id(state)
    old = state["members"].get(member_key(lid, email))
    tags = old["tags"] if old else sorted(ctx.rng.sample(["furniture", "electronics", "vip"], ctx.rng.randint(0, 2)))
    joined = old["opted_in_on"] if old else ctx.day(-ctx.rng.randint(30, 400))
    return plant_member(state, lid, email, full_name=name, tags=tags, opted_in_on=joined)


def _find(reader: Reader, key: Any) -> dict[str, Any]:
    lid = pick(reader.read("marketing", "list_audiences"), name=NEWSLETTER)["id"]
    return reader.read("marketing", "get_member", list_id=lid, email=key)


SUBSCRIBER = Relay(
    service="marketing", name="newsletter subscriber", key="email",
    gives=(Give("person_name", "full_name", "the subscriber's name", "the customer"),),
    plant=lambda ctx, key, outs, stale: _subscribe(ctx, key, outs.get("person_name") or ctx.client()),
    find=_find,
    where="The store newsletter's subscriber list in the marketing tool names each subscriber by email.")


def _prepare(ctx: Ctx, values: dict[str, Any]) -> None:
    state = ctx.state("marketing")
    email = values["member"]
    old = state["members"].get(member_key(newsletter_id(state), email))
    _subscribe(ctx, email, old["full_name"] if old else ctx.client())


def _unsubscribe(reader: Reader, args: dict[str, Found]) -> Write:
    email = args["member"].value
    member = _find(reader, email)
    key = member_key(member["list_id"], email)
    return Write(
        calls=[call("unsubscribe_member", list_id=member["list_id"], email=email)],
        checks=[RecordMatches(id="_", service="marketing", collection="members", record_id=key,
                              where={"status": "unsubscribed"},
                              description="The case's customer is unsubscribed from the store newsletter.")],
        scope=[OnlyChanged(id="_", service="marketing", collection="members", allow_ids=[key],
                           description="No other subscriber was changed or added.")],
        tool="unsubscribe_member", where={"email": {"$ieq": email}}, label="the newsletter unsubscription")


LINKS = ServiceLinks(
    service="marketing", label="the marketing tool",
    relays=(SUBSCRIBER,),
    actions=(Action(service="marketing", name="unsubscribe", needs=(Need("member", "email", ("the customer",)),),
                    build=_unsubscribe, prepare=_prepare, goal="unsubscribe {member} from the store newsletter"),),
)

__all__ = ["LINKS", "NEWSLETTER", "member_key", "newsletter_id", "plant_member"]
