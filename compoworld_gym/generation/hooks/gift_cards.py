"""Gift cards in chained tasks: a store customer's email (from an order, a
return, a ticket) leads to their active Square gift card, which gives its
balance; a store order refunded onto a gift card leads to that card; a card
gives its holder's email and balance. Writes: load an amount found elsewhere
(a return's refund, an order total) onto the customer's card, or block the
card."""

from __future__ import annotations

import datetime as dt
from typing import Any, Optional

from compoworld_gym.checks import OnlyChanged, RecordExists, RecordMatches
from compoworld_gym.envs.services._gift_cards_models import MAX_BALANCE, GiftCard, GiftCardsState, SquareCustomer
from compoworld_gym.envs.services._gift_cards_rules import gan_for
from compoworld_gym.envs.services._gift_cards_seed import record_activity
from compoworld_gym.generation.context import Ctx, call
from compoworld_gym.generation.hooks.invoicing import order_ref
from compoworld_gym.generation.links import (
    Action, Found, Give, Need, Reader, Relay, ServiceLinks, SolveError, Write, latest, next_id, pick,
)

SERVICE = "gift_cards"
_COLLS = ("customers", "gift_cards", "activities")


def next_gift_card_id(state: dict[str, Any]) -> str:
    """Take the next free gift card id (as ``new_id("GC")``)."""
    return next_id(state, "GC")


def _customer(raw: dict[str, Any], state: GiftCardsState, email: str, name: str, made: dt.datetime) -> SquareCustomer:
    found = next((c for c in state.customers.values() if c.email_address.lower() == email.lower()), None)
    if found is not None:
        return found
    first, _, last = name.partition(" ")
    c = SquareCustomer(id=next_id(raw, "CUS"), given_name=first, family_name=last or first, name=name,
                       email_address=email, created_at=made - dt.timedelta(days=30))
    state.customers[c.id] = c
    return c


def plant_gift_card(ctx: Ctx, *, email: str, name: str, balance: float, order_id: Optional[str] = None,
                    deactivated: bool = False, gift_card_id: Optional[str] = None) -> str:
    """Add a digital card linked to the customer under ``email`` (a profile is added if new), activated
    with ``balance`` (as a refund of ``order_id`` when given) 20 days ago, or used up and DEACTIVATED
    (``deactivated``); returns its id."""
    raw = ctx.state(SERVICE)
    state = GiftCardsState.model_validate(raw)
    made = dt.datetime.combine(ctx.today - dt.timedelta(days=60 if deactivated else 20), dt.time(10, 30))
    c = _customer(raw, state, email, name, made)
    gid = gift_card_id or next_gift_card_id(raw)
    card = GiftCard(id=gid, type="DIGITAL", gan_source="SQUARE", gan=gan_for(int(gid.split("-")[1])),
                    state="PENDING", balance_money=0.0, created_at=made, customer_ids=[c.id],
                    customer_emails=[c.email_address])
    state.gift_cards[gid] = card
    ref = f"Refund of order {order_id}" if order_id else None
    record_activity(state, next_id(raw, "GCA"), card, "ACTIVATE", made, balance, order_id=order_id, reference_id=ref)
    if deactivated:
        later = made + dt.timedelta(days=10)
        record_activity(state, next_id(raw, "GCA"), card, "REDEEM", later, balance)
        record_activity(state, next_id(raw, "GCA"), card, "DEACTIVATE", later + dt.timedelta(days=1),
                        reason="UNKNOWN_REASON")
    dumped = state.model_dump(mode="json")
    for coll in _COLLS:
        raw[coll] = dumped[coll]
    return gid


def _balance(ctx: Ctx, outs: dict[str, Any]) -> float:
    value = outs.get("money")
    if value is None or not 0 < value <= MAX_BALANCE / 2:
        value = card_balance(ctx)
    return value


def _plant(ctx: Ctx, key: Any, outs: dict[str, Any], stale: bool, by: str) -> str:
    email = key if by == "email" else outs.get("email") or ctx.person()[1]
    name = outs.get("person_name") or ctx.client()
    return plant_gift_card(ctx, email=email, name=name, balance=_balance(ctx, outs), deactivated=stale,
                           order_id=key if by == "order" else None, gift_card_id=key if by == "id" else None)


def _card(reader: Reader, gid: str) -> dict[str, Any]:
    return reader.read(SERVICE, "retrieve_gift_card", gift_card_id=gid)


def _by_email(reader: Reader, key: Any) -> dict[str, Any]:
    cust = pick(reader.read(SERVICE, "search_customers", email_address=key), email_address=key)
    rows = reader.read(SERVICE, "list_gift_cards", customer_id=cust["id"], state="ACTIVE", limit=200)
    return _card(reader, latest(rows, "created_at")["id"])


def _by_order(reader: Reader, key: Any) -> dict[str, Any]:
    rows = reader.read(SERVICE, "list_gift_card_activities", order_id=key, type="ACTIVATE", limit=200)
    return _card(reader, latest(rows, "created_at")["gift_card_id"])


def _email_of(reader: Reader, key: Any) -> dict[str, Any]:
    card = _card(reader, key)
    if not card["customer_emails"]:
        raise SolveError(f"gift card {key} is linked to no customer")
    return {**card, "holder_email": card["customer_emails"][0]}


def card_balance(ctx: Ctx) -> float:
    """A gift card balance: $25.00 to $400.00."""
    return round(ctx.rng.randint(2500, 40000) / 100, 2)


_BAL = Give("money", "balance_money", "the gift card's balance", draw=card_balance)
_ID = Give("gift_card_id", "id", "the customer's gift card")

CUSTOMER_CARD = Relay(
    service=SERVICE, name="customer's gift card", key="email",
    gives=(_ID, _BAL),
    plant=lambda ctx, key, outs, stale: _plant(ctx, key, outs, stale, "email"), find=_by_email,
    where="Square gift cards are linked to the customer profile under the store customer's email address.",
    truth="A deactivated gift card is dead for good; only the customer's active card counts.", key_role="customer")

ORDER_CARD = Relay(
    service=SERVICE, name="order's refund gift card", key="order_id",
    gives=(Give("gift_card_id", "id", "the gift card the order was refunded onto"), _BAL,
           Give("email", "customer_emails.0", "the card holder's email address", "the customer")),
    plant=lambda ctx, key, outs, stale: _plant(ctx, key, outs, False, "order"), find=_by_order,
    where="A store order refunded as store credit has a Square gift card whose activation names the order id.",
    alloc=lambda ctx: order_ref(ctx, SERVICE))

GIFT_CARD = Relay(
    service=SERVICE, name="gift card", key="gift_card_id",
    gives=(Give("email", "holder_email", "the card holder's email address", "the customer"), _BAL),
    plant=lambda ctx, key, outs, stale: _plant(ctx, key, outs, False, "id"), find=_email_of,
    where="Each Square gift card shows its balance and the customer linked to it.",
    alloc=lambda ctx: next_gift_card_id(ctx.state(SERVICE)), entry=lambda key: f"gift card {key}")


def _active(reader: Reader, gid: str) -> dict[str, Any]:
    card = _card(reader, gid)
    if card["state"] != "ACTIVE":
        raise SolveError(f"gift card {gid} is {card['state']}")
    return card


def _scope(gid: str, kind: str) -> list[OnlyChanged]:
    return [OnlyChanged(id="_", service=SERVICE, collection="gift_cards", allow_ids=[gid],
                        description="No other gift card was changed or created."),
            OnlyChanged(id="_", service=SERVICE, collection="activities", allow_new={"gift_card_id": gid, "type": kind},
                        max_new=1, description=f"No other gift card activity than the one {kind} was recorded.")]


def _load(reader: Reader, args: dict[str, Found]) -> Write:
    gid, amount = args["card"].value, args["amount"].value
    card = _active(reader, gid)
    if not isinstance(amount, (int, float)) or amount <= 0 or card["balance_money"] + amount > MAX_BALANCE:
        raise SolveError(f"{amount} cannot be loaded onto gift card {gid}")
    case = str(args["case"].value)[:120]
    near = {"$gte": round(amount - 0.01, 2), "$lte": round(amount + 0.01, 2)}
    return Write(
        calls=[call("load_gift_card", gift_card_id=gid, amount_money=amount, reference_id=case)],
        checks=[RecordExists(id="_", service=SERVICE, collection="activities",
                             where={"gift_card_id": gid, "type": "LOAD", "amount_money": near},
                             description="The amount is loaded onto the customer's gift card.")],
        scope=_scope(gid, "LOAD"), tool="load_gift_card", where={"gift_card_id": gid},
        label="the gift card load", moves_money=True)


def _block(reader: Reader, args: dict[str, Found]) -> Write:
    gid = args["card"].value
    _active(reader, gid)
    return Write(
        calls=[call("block_gift_card", gift_card_id=gid, reference_id=str(args["case"].value)[:120])],
        checks=[RecordMatches(id="_", service=SERVICE, collection="gift_cards", record_id=gid,
                              where={"state": "BLOCKED"}, description="The gift card is blocked.")],
        scope=_scope(gid, "BLOCK"), tool="block_gift_card", where={"gift_card_id": gid}, label="the blocked gift card")


_CARD = Need("card", "gift_card_id")

LINKS = ServiceLinks(
    service=SERVICE, label="Square gift cards",
    relays=(CUSTOMER_CARD, ORDER_CARD, GIFT_CARD),
    actions=(
        Action(service=SERVICE, name="block", needs=(_CARD,), build=_block,
               goal="block the customer's Square gift card so nothing more is spent from it"),
        Action(service=SERVICE, name="load", needs=(_CARD, Need("amount", "money")), build=_load,
               goal="load {amount} onto the customer's Square gift card as store credit"),
    ),
)

__all__ = ["LINKS", "next_gift_card_id", "plant_gift_card"]
