"""Corporate cards in chained tasks: a staff member's work email (from the
HR directory, an expense report, a Slack message) leads to their active Ramp
card; a card names its cardholder and leads to its latest charge still
waiting for a receipt; a card charge names the merchant, the amount and the
cardholder's work email. Writes: lock the case's card, lower its limit to
what it has already spent this month, set a memo on the charge quoting a
value, or flag the charge for review."""

from __future__ import annotations

import datetime as dt
from typing import Any, Optional

from compoworld_gym.checks import OnlyChanged, RecordMatches
from compoworld_gym.envs.services._corporate_cards_models import (
    Card, CardTransaction, Receipt, SpendingRestrictions, User,
)
from compoworld_gym.envs.services._corporate_cards_seed import MERCHANTS
from compoworld_gym.generation.context import Ctx, call
from compoworld_gym.generation.hooks.hr_directory import employee_email, name_from_email, person_of
from compoworld_gym.generation.links import (
    Action, Found, Give, Need, Reader, Relay, ServiceLinks, SolveError, Write, latest, next_id,
)

SERVICE = "corporate_cards"
_CATEGORY = {m: cat for cat, names in MERCHANTS.items() for m in names}


def next_card_id(state: dict[str, Any]) -> str:
    """Take the next free card id from the service's counters (as ``new_id("CARD")``)."""
    return next_id(state, "CARD")


def next_card_transaction_id(state: dict[str, Any]) -> str:
    """Take the next free card transaction id (as ``new_id("CTX")``)."""
    return next_id(state, "CTX")


def plant_user(ctx: Ctx, email: str) -> dict[str, Any]:
    """The Ramp user of ``email``, added (validated; named as the task's HR records name them) if new."""
    state = ctx.state(SERVICE)
    for u in state["users"].values():
        if u["email"].lower() == email.lower():
            return u
    known = person_of(ctx, email=email)
    name = known["name"] if known else name_from_email(email)
    first, _, last = name.partition(" ")
    u = User(id=next_id(state, "USR"), first_name=first, last_name=last or first, name=name, email=email,
             department_name=known.get("department", "Operations") if known else "Operations",
             location_name="New York", role="BUSINESS_USER")
    state["users"][u.id] = u.model_dump(mode="json")
    return state["users"][u.id]


def plant_card(ctx: Ctx, card_id: str, email: str, *, terminated: bool = False) -> str:
    """Add a physical travel card (10,000 USD a month) under ``card_id`` for ``email``'s user,
    ACTIVE or, with ``terminated``, closed a month ago; returns the id."""
    state, user = ctx.state(SERVICE), plant_user(ctx, email)
    issued = dt.datetime.combine(ctx.today - dt.timedelta(days=200 if terminated else 90), dt.time(10, 0))
    c = Card(id=card_id, display_name=f"Travel - {user['name']}", last_four=f"{ctx.rng.randrange(10000):04d}",
             cardholder_id=user["id"], cardholder_name=user["name"], cardholder_email=user["email"],
             spend_program_id="SPR-0002", is_physical=True, state="TERMINATED" if terminated else "ACTIVE",
             spending_restrictions=SpendingRestrictions(amount=10000.0, interval="MONTHLY"),
             expiration=f"{ctx.today.month:02d}/{(ctx.today.year + 3) % 100:02d}", created_at=issued,
             terminated_at=issued + dt.timedelta(days=170) if terminated else None)
    state["cards"][card_id] = c.model_dump(mode="json")
    if not terminated:  # this month's taxi ride, receipt attached: the card has spent something
        days = min(2, ctx.today.day - 1)
        tid = plant_charge(ctx, next_card_transaction_id(state), card_id, merchant="Uber",
                           amount=round(ctx.rng.randint(1800, 9500) / 100, 2), days_ago=days)
        when = dt.datetime.combine(ctx.today - dt.timedelta(days=days), dt.time(8, 45))
        rc = Receipt(id=next_id(state, "RCT"), transaction_id=tid, user_id=user["id"],
                     filename=f"uber-{when:%m%d}.pdf", created_at=when)
        state["receipts"][rc.id] = rc.model_dump(mode="json")
        state["transactions"][tid]["receipts"] = [rc.id]
    return card_id


def _live_card(ctx: Ctx, email: str) -> Optional[str]:
    cards = ctx.state(SERVICE)["cards"].values()
    return next((c["id"] for c in cards if c["cardholder_email"].lower() == email.lower()
                 and c["state"] != "TERMINATED"), None)


def plant_charge(ctx: Ctx, tid: str, card_id: str, *, merchant: str, amount: float, declined: bool = False,
                 days_ago: int = 0) -> str:
    """Add a CLEARED card charge (or a DECLINED one) without receipt or memo under ``tid``; returns the id."""
    state = ctx.state(SERVICE)
    card = state["cards"][card_id]
    when = dt.datetime.combine(ctx.today - dt.timedelta(days=days_ago), dt.time(8, 30 - min(days_ago, 20)))
    t = CardTransaction(id=tid, card_id=card_id, cardholder_id=card["cardholder_id"],
                        cardholder_name=card["cardholder_name"], cardholder_email=card["cardholder_email"],
                        merchant_name=merchant, merchant_category=_CATEGORY.get(merchant, "SOFTWARE"), amount=amount,
                        state="DECLINED" if declined else "CLEARED",
                        decline_reason="INSUFFICIENT_LIMIT" if declined else None, user_transaction_time=when,
                        settlement_date=None if declined else when.date())
    state["transactions"][tid] = t.model_dump(mode="json")
    return tid


def _plant_card(ctx: Ctx, key: Any, outs: dict[str, Any], stale: bool, by_id: bool) -> str:
    state = ctx.state(SERVICE)
    if by_id:
        return plant_card(ctx, key, outs.get("email") or employee_email(ctx))
    if stale:
        return plant_card(ctx, next_card_id(state), key, terminated=True)
    return _live_card(ctx, key) or plant_card(ctx, next_card_id(state), key)


def _plant_charge(ctx: Ctx, key: Any, outs: dict[str, Any], stale: bool, by: str) -> str:
    state = ctx.state(SERVICE)
    tid = key if by == "id" else next_card_transaction_id(state)
    if by == "card":
        card = key if key in state["cards"] else plant_card(ctx, key, outs.get("email") or employee_email(ctx))
    else:
        email = outs.get("email") or employee_email(ctx)
        card = outs.get("card_id") or _live_card(ctx, email) or plant_card(ctx, next_card_id(state), email)
        if card not in state["cards"]:
            plant_card(ctx, card, email)
    merchant = outs.get("company") or ctx.rng.choice(("Delta Air Lines", "Marriott", "Amazon Web Services", "Staples"))
    amount = outs.get("money") or round(ctx.rng.randint(2000, 250000) / 100, 2)
    return plant_charge(ctx, tid, card, merchant=merchant, amount=amount, declined=stale, days_ago=0 if not stale
                        else 1)


def _card(reader: Reader, cid: str) -> dict[str, Any]:
    return reader.read(SERVICE, "get_card", card_id=cid)


def _staff_card(reader: Reader, email: str) -> dict[str, Any]:
    rows = [c for c in reader.read(SERVICE, "list_cards", cardholder_email=email, limit=200)
            if c["state"] != "TERMINATED"]
    if len(rows) != 1:
        raise SolveError(f"{len(rows)} live cards for {email}")
    return _card(reader, rows[0]["id"])


def _charge(reader: Reader, tid: str) -> dict[str, Any]:
    return reader.read(SERVICE, "get_transaction", transaction_id=tid)


def _awaiting_receipt(reader: Reader, cid: str) -> dict[str, Any]:
    rows = reader.read(SERVICE, "list_transactions", card_id=cid, has_no_receipts=True, limit=200)
    return _charge(reader, latest([r for r in rows if r["state"] != "DECLINED"], "user_transaction_time")["id"])


_HOLDER = Give("email", "cardholder_email", "the cardholder's work email", "the cardholder")
_TRUTH_CARD = "A terminated card is closed for good; only the employee's active card counts."
_TRUTH_CHARGE = "A declined charge moved no money; only the card's charge that went through counts."

CARD = Relay(
    service=SERVICE, name="corporate card", key="card_id",
    gives=(_HOLDER,),
    plant=lambda ctx, key, outs, stale: _plant_card(ctx, key, outs, stale, True), find=_card,
    where="Each corporate card in Ramp names its cardholder, a member of staff, with their work email.",
    alloc=lambda ctx: next_card_id(ctx.state(SERVICE)), entry=lambda key: f"corporate card {key}")

STAFF_CARD = Relay(
    service=SERVICE, name="employee's corporate card", key="email",
    gives=(Give("card_id", "id", "the employee's active corporate card"),),
    plant=lambda ctx, key, outs, stale: _plant_card(ctx, key, outs, stale, False), find=_staff_card,
    where="Corporate cards are issued in Ramp under the employee's work email.", truth=_TRUTH_CARD,
    key_role="staff")

_MERCHANT = Give("company", "merchant_name", "the merchant the card charge was made at", party="vendor")
_AMOUNT = Give("money", "amount", "the card charge amount")

CHARGE = Relay(
    service=SERVICE, name="card charge", key="card_transaction_id",
    gives=(_MERCHANT, _AMOUNT, _HOLDER, Give("card_id", "card_id", "the card charged")),
    plant=lambda ctx, key, outs, stale: _plant_charge(ctx, key, outs, stale, "id"), find=_charge,
    where="Each card transaction in Ramp shows the merchant, the amount and the cardholder's work email.",
    alloc=lambda ctx: next_card_transaction_id(ctx.state(SERVICE)), entry=lambda key: f"card transaction {key}")

CARD_CHARGE = Relay(
    service=SERVICE, name="card's charge awaiting a receipt", key="card_id",
    gives=(Give("card_transaction_id", "id", "the card's latest charge without a receipt"), _MERCHANT, _AMOUNT),
    plant=lambda ctx, key, outs, stale: _plant_charge(ctx, key, outs, stale, "card"), find=_awaiting_receipt,
    where="Ramp lists each card's transactions; the latest one with no receipt attached is the one awaiting it.",
    alloc=lambda ctx: next_card_id(ctx.state(SERVICE)), truth=_TRUTH_CHARGE)


def _card_scope(cid: str) -> list[OnlyChanged]:
    return [OnlyChanged(id="_", service=SERVICE, collection="cards", allow_ids=[cid],
                        description="No other card was changed or issued.")]


def _txn_scope(tid: str) -> list[OnlyChanged]:
    return [OnlyChanged(id="_", service=SERVICE, collection="transactions", allow_ids=[tid],
                        description="No other card transaction was changed or created.")]


def _active(reader: Reader, cid: str) -> dict[str, Any]:
    c = _card(reader, cid)
    if c["state"] != "ACTIVE":
        raise SolveError(f"card {cid} is {c['state']}")
    return c


def _lock(reader: Reader, args: dict[str, Found]) -> Write:
    cid = args["card"].value
    _active(reader, cid)
    return Write(
        calls=[call("lock_card", card_id=cid)],
        checks=[RecordMatches(id="_", service=SERVICE, collection="cards", record_id=cid,
                              where={"state": "SUSPENDED"}, description="The case's card is locked.")],
        scope=_card_scope(cid), tool="lock_card", where={"card_id": cid}, label="the card lock")


def _lower(reader: Reader, args: dict[str, Found]) -> Write:
    cid = args["card"].value
    c = _active(reader, cid)
    used, limit = c["limit"]["spent"], c["limit"]["amount"]
    if not 0 < used < limit:
        raise SolveError(f"card {cid} has spent {used} of {limit}")
    return Write(
        calls=[call("update_card", card_id=cid, amount=used)],
        checks=[RecordMatches(id="_", service=SERVICE, collection="cards", record_id=cid,
                              where={"state": "ACTIVE", "spending_restrictions.amount": used},
                              description="The card's limit is lowered to what it has already spent.")],
        scope=_card_scope(cid), tool="update_card", where={"card_id": cid}, label="the lowered card limit")


def _settled(reader: Reader, tid: str) -> dict[str, Any]:
    t = _charge(reader, tid)
    if t["state"] == "DECLINED":
        raise SolveError(f"transaction {tid} was declined")
    return t


def _memo(reader: Reader, args: dict[str, Found]) -> Write:
    tid, mention, case = args["charge"].value, args["mention"], args["case"].value
    _settled(reader, tid)
    return Write(
        calls=[call("update_memo", transaction_id=tid, memo=f"{case}: {mention.noun} is {mention.display}.")],
        checks=[RecordMatches(id="_", service=SERVICE, collection="transactions", record_id=tid,
                              where={"memo": {"$all": [{"$contains": case}, {"$contains": mention.display}]}},
                              description="The card charge's memo quotes the case and the value.")],
        scope=_txn_scope(tid), tool="update_memo", where={"transaction_id": tid}, label="the memo on the charge")


def _flag(reader: Reader, args: dict[str, Found]) -> Write:
    tid, mention, case = args["charge"].value, args["mention"], args["case"].value
    if _settled(reader, tid)["flagged"]:
        raise SolveError(f"transaction {tid} is already flagged")
    return Write(
        calls=[call("flag_transaction", transaction_id=tid, reason=f"{case}: {mention.noun} is {mention.display}.")],
        checks=[RecordMatches(id="_", service=SERVICE, collection="transactions", record_id=tid,
                              where={"flagged": True, "flag_reason": {"$all": [{"$contains": case},
                                                                               {"$contains": mention.display}]}},
                              description="The card charge is flagged for review, the reason quoting the case and "
                                          "the value.")],
        scope=_txn_scope(tid), tool="flag_transaction", where={"transaction_id": tid}, label="the review flag")


LINKS = ServiceLinks(
    service=SERVICE, label="Ramp (corporate cards)",
    relays=(CARD, STAFF_CARD, CHARGE, CARD_CHARGE),
    actions=(
        Action(service=SERVICE, name="lock", needs=(Need("card", "card_id"),), build=_lock,
               goal="lock the corporate card so no further charge goes through"),
        Action(service=SERVICE, name="lower_limit", needs=(Need("card", "card_id"),), build=_lower,
               goal="lower the corporate card's limit to what it has already spent this month"),
        Action(service=SERVICE, name="memo", needs=(Need("charge", "card_transaction_id"),), build=_memo,
               goal="set the card charge's memo, quoting {mention}"),
        Action(service=SERVICE, name="flag", needs=(Need("charge", "card_transaction_id"),), build=_flag,
               goal="flag the card charge for finance review, quoting {mention} in the reason"),
    ),
)

__all__ = ["LINKS", "next_card_id", "next_card_transaction_id", "plant_card", "plant_charge", "plant_user"]
