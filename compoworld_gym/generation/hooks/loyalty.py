"""Loyalty in chained tasks: a store customer's email (from an order, a
ticket, a survey response) leads to their loyalty member record, which
names the member and their email; the customer's unused reward code names
its value and the day it expires. Writes: a goodwill points credit whose
reason quotes a discovered value, a staff-issued goodwill coupon, or a
note on the member."""

from __future__ import annotations

import datetime as dt
from typing import Any

from compoworld_gym.checks import OnlyChanged, RecordExists, RecordMatches
from compoworld_gym.envs.services._loyalty_models import LoyaltyMember, LoyaltyState, PointsTransaction
from compoworld_gym.envs.services._loyalty_rules import expires_on, fulfillment, refresh
from compoworld_gym.generation.context import Ctx, call
from compoworld_gym.generation.links import (
    Action, Found, Give, Need, Reader, Relay, ServiceLinks, SolveError, Write, latest, next_id, pick,
)

SERVICE = "loyalty"
#: Points of the house goodwill credit, and the staff-only goodwill coupon of the seeded catalog.
GOODWILL_POINTS = 250
GOODWILL_REWARD = "RWD-0006"
_COLLS = ("customers", "points_transactions", "reward_fulfillments")


def _load(ctx: Ctx) -> tuple[dict[str, Any], LoyaltyState]:
    raw = ctx.state(SERVICE)
    return raw, LoyaltyState.model_validate(raw)


def _save(raw: dict[str, Any], state: LoyaltyState) -> None:
    dumped = state.model_dump(mode="json")
    for coll in _COLLS:
        raw[coll] = dumped[coll]


def plant_member(ctx: Ctx, email: str, *, name: str, member_id: str | None = None) -> str:
    """The member under ``email`` (case-blind), or a new one who joined 40 days ago with the signup
    bonus and one order's points; returns its id. With ``member_id`` the member ``member_id`` is
    added whatever the email (an allocated id)."""
    raw, state = _load(ctx)
    found = next((m for m in state.customers.values() if m.email.lower() == email.lower()), None)
    if found is not None and member_id is None:
        if found.state != "member":
            found.state = "member"
            _save(raw, state)
        return found.id
    first, _, last = name.partition(" ")
    joined = dt.datetime.combine(ctx.today - dt.timedelta(days=40), dt.time(11, 0))
    mid = member_id or next_id(raw, "LM")
    m = LoyaltyMember(id=mid, first_name=first, last_name=last or first, name=name, email=email, state="member",
                      points_balance=0, referral_url=f"https://deskforge.shop/r/{first.lower()}{mid[-4:]}",
                      created_at=joined, updated_at=joined)
    state.customers[mid] = m
    for days, pts, what in ((40, 200, "Sign up"), (12, ctx.rng.randint(8, 60) * 10, "Placed an order")):
        when = dt.datetime.combine(ctx.today - dt.timedelta(days=days), dt.time(11, 5))
        t = PointsTransaction(id=next_id(raw, "PTX"), customer_id=mid, points_change=pts, description=what,
                              source="activity", created_at=when, expires_on=expires_on(when.date()))
        state.points_transactions[t.id] = t
    refresh(state, m, ctx.today)
    _save(raw, state)
    return mid


def plant_reward(ctx: Ctx, member_id: str, *, value: float, expires: str, used: bool = False) -> str:
    """Add a staff-issued reward code worth ``value`` dollars, unused until ``expires`` (ISO date), or
    already ``used`` on an order last month; returns its id."""
    raw, state = _load(ctx)
    reward = state.rewards[GOODWILL_REWARD].model_copy(update={"value": value})
    made = dt.datetime.combine(ctx.today - dt.timedelta(days=45 if used else 1), dt.time(14, 0))
    rf = fulfillment(next_id(raw, "RF"), state.customers[member_id], reward, value, 0, made,
                     reason="Apology for a delayed delivery.")
    rf.name, rf.expires_at = f"${value:,.2f} goodwill coupon", dt.date.fromisoformat(expires)
    if used:
        rf.usage_status, rf.used_on_order_id, rf.used_at = "used", "ORD-0003", made + dt.timedelta(days=3)
    state.reward_fulfillments[rf.id] = rf
    _save(raw, state)
    return rf.id


def _member_by_email(reader: Reader, key: Any) -> dict[str, Any]:
    rows = reader.read(SERVICE, "list_customers", email=key)
    return reader.read(SERVICE, "get_customer", customer_id=pick(rows, email=key)["id"])


def _plant_member(ctx: Ctx, key: Any, outs: dict[str, Any], stale: bool, by_id: bool) -> str:
    if by_id:
        email = outs.get("email") or ctx.person()[1]
        return plant_member(ctx, email, name=outs.get("person_name") or ctx.client(), member_id=key)
    return plant_member(ctx, key, name=outs.get("person_name") or ctx.client())


def _plant_reward(ctx: Ctx, key: Any, outs: dict[str, Any], stale: bool) -> str:
    mid = plant_member(ctx, key, name=ctx.client())
    value = outs.get("money") or float(ctx.rng.choice((10, 15, 20, 25)))
    return plant_reward(ctx, mid, value=value, used=stale,
                        expires=ctx.day(-10) if stale else outs.get("date") or ctx.day(ctx.rng.randint(20, 80)))


def _find_reward(reader: Reader, key: Any) -> dict[str, Any]:
    member = _member_by_email(reader, key)
    rows = reader.read(SERVICE, "list_reward_fulfillments", customer_id=member["id"], usage_status="unused",
                       limit=200)
    return latest(rows, "created_at")


_NAME = Give("person_name", "name", "the member's name", "the customer")
_WHERE = "The loyalty program keeps each member under the store customer's email address, with their points " \
         "balance and VIP tier."

MEMBER = Relay(
    service=SERVICE, name="loyalty member", key="email",
    gives=(Give("loyalty_member_id", "id", "the customer's loyalty member id"), _NAME),
    plant=lambda ctx, key, outs, stale: _plant_member(ctx, key, outs, stale, False), find=_member_by_email,
    where=_WHERE)

MEMBER_BY_ID = Relay(
    service=SERVICE, name="loyalty member record", key="loyalty_member_id",
    gives=(Give("email", "email", "the member's email address", "the customer"), _NAME),
    plant=lambda ctx, key, outs, stale: _plant_member(ctx, key, outs, stale, True),
    find=lambda reader, key: reader.read(SERVICE, "get_customer", customer_id=key),
    where="Each loyalty member record gives the customer's name and email address.",
    alloc=lambda ctx: next_id(ctx.state(SERVICE), "LM"), entry=lambda key: f"loyalty member {key}")

REWARD = Relay(
    service=SERVICE, name="customer's reward code", key="email",
    gives=(Give("reward_id", "id", "the customer's unused reward"), Give("money", "value", "the reward's value"),
           Give("date", "expires_at", "the day the customer's reward code expires")),
    plant=_plant_reward, find=_find_reward,
    where="Reward codes a loyalty member holds are on their member record, found by the customer's email address.",
    truth="A reward code is single-use: a used code is spent, only the member's unused code counts.")


def _active(reader: Reader, mid: str) -> dict[str, Any]:
    m = reader.read(SERVICE, "get_customer", customer_id=mid)
    if m["state"] != "member":
        raise SolveError(f"loyalty customer {mid} is {m['state']}")
    return m


def _text(args: dict[str, Found], what: str, limit: int) -> str:
    mention = args["mention"]
    text = f"{args['case'].value}: {what}, {mention.noun} is {mention.display}"
    if len(text) > limit:
        raise SolveError(f"{mention.noun} does not fit in the {what}")
    return text


def _members_scope(mid: str) -> OnlyChanged:
    return OnlyChanged(id="_", service=SERVICE, collection="customers", allow_ids=[mid],
                       description="No other loyalty member was changed or created.")


def _credit(reader: Reader, args: dict[str, Found]) -> Write:
    mid = args["member"].value
    _active(reader, mid)
    reason = _text(args, "goodwill credit", 200)
    display = args["mention"].display
    return Write(
        calls=[call("create_points_transaction", customer_id=mid, points_change=GOODWILL_POINTS, description=reason)],
        checks=[RecordExists(id="_", service=SERVICE, collection="points_transactions",
                             where={"customer_id": mid, "points_change": GOODWILL_POINTS, "source": "adjustment",
                                    "description": {"$contains": display}},
                             description=f"The member is credited {GOODWILL_POINTS} goodwill points, the reason "
                                         "quoting the value.")],
        scope=[_members_scope(mid),
               OnlyChanged(id="_", service=SERVICE, collection="points_transactions", allow_new={"customer_id": mid},
                           max_new=1, description="No other points were credited or deducted."),
               OnlyChanged(id="_", service=SERVICE, collection="reward_fulfillments",
                           description="No reward was issued or used.")],
        tool="create_points_transaction", where={"customer_id": mid}, label="the goodwill points credit")


def _issue(reader: Reader, args: dict[str, Found]) -> Write:
    mid = args["member"].value
    _active(reader, mid)
    reason = _text(args, "goodwill coupon", 300)
    display = args["mention"].display
    return Write(
        calls=[call("issue_reward", customer_id=mid, reward_id=GOODWILL_REWARD, reason=reason)],
        checks=[RecordExists(id="_", service=SERVICE, collection="reward_fulfillments",
                             where={"customer_id": mid, "reward_id": GOODWILL_REWARD, "source": "issued",
                                    "reason": {"$contains": display}},
                             description="The member is issued the goodwill coupon, its reason quoting the value.")],
        scope=[_members_scope(mid),
               OnlyChanged(id="_", service=SERVICE, collection="reward_fulfillments", allow_new={"customer_id": mid},
                           max_new=1, description="No other reward was issued, bought or used."),
               OnlyChanged(id="_", service=SERVICE, collection="points_transactions",
                           description="No points were credited or spent.")],
        tool="issue_reward", where={"customer_id": mid}, label="the goodwill coupon")


def _note(reader: Reader, args: dict[str, Found]) -> Write:
    mid, display = args["member"].value, args["mention"].display
    reader.read(SERVICE, "get_customer", customer_id=mid)
    note = f"{args['case'].value}: {args['mention'].noun} is {display}."
    return Write(
        calls=[call("add_customer_note", customer_id=mid, note=note)],
        checks=[RecordMatches(id="_", service=SERVICE, collection="customers", record_id=mid,
                              where={"notes": {"$some": {"$contains": display}}},
                              description="A note on the loyalty member quotes the right value.")],
        scope=[_members_scope(mid),
               OnlyChanged(id="_", service=SERVICE, collection="points_transactions",
                           description="No points were credited or spent.")],
        tool="add_customer_note", where={"customer_id": mid}, label="the note on the loyalty member")


_MEMBER = (Need("member", "loyalty_member_id"),)

LINKS = ServiceLinks(
    service=SERVICE, label="the loyalty program",
    relays=(MEMBER, MEMBER_BY_ID, REWARD),
    actions=(
        Action(service=SERVICE, name="goodwill_points", needs=_MEMBER, build=_credit,
               goal=f"credit the customer {GOODWILL_POINTS} goodwill loyalty points, the reason quoting {{mention}}"),
        Action(service=SERVICE, name="goodwill_coupon", needs=_MEMBER, build=_issue,
               goal="issue the customer the $20 goodwill coupon in the loyalty program, the reason quoting "
                    "{mention}"),
        Action(service=SERVICE, name="note", needs=_MEMBER, build=_note,
               goal="note {mention} on the customer's loyalty member record"),
    ),
)

__all__ = ["GOODWILL_POINTS", "GOODWILL_REWARD", "LINKS", "plant_member", "plant_reward"]
