"""Returns in chained tasks: an order id or a customer's email leads to the
order's open return in Loop; a return names the order, the refund it owes,
the return parcel's tracking number (a parcel in the shipping account) and
the customer's email. Writes: process the case's return (refund issued),
close it without processing, cancel it, or note a value on it."""

from __future__ import annotations

import datetime as dt
from typing import Any, Optional

from compoworld_gym.checks import OnlyChanged, RecordMatches
from compoworld_gym.envs.services._commerce import PRODUCTS
from compoworld_gym.envs.services._returns_models import ReturnLineItem, ReturnRequest, ShopOrder, ShopOrderLine
from compoworld_gym.envs.services._returns_seed import label_for
from compoworld_gym.generation.context import Ctx, call
from compoworld_gym.generation.hooks.invoicing import order_ref
from compoworld_gym.generation.links import (
    Action, Found, Give, Need, Reader, Relay, ServiceLinks, SolveError, Write, latest, next_id,
)

SERVICE = "returns"


def next_return_id(state: dict[str, Any]) -> str:
    """Take the next free return id from the service's counters (as ``new_id("RET")``)."""
    return next_id(state, "RET")


def _order_line(ctx: Ctx, order_id: str) -> tuple[str, str, float, Optional[str], Optional[str]]:
    """``(sku, title, unit price, customer email, customer name)`` of the order system's order, when mounted."""
    o = ctx.states.get("orders", {}).get("orders", {}).get(order_id)
    if o and o.get("items"):
        it = o["items"][0]
        return it["sku"], it["name"], it["unit_price"], o.get("customer_email"), o.get("customer_name")
    p = ctx.rng.choice(PRODUCTS)
    return p.sku, p.name, p.price, None, None


def plant_return(ctx: Ctx, rid: str, order_id: str, *, email: str, name: str, refund: Optional[float],
                 tracking: Optional[str], cancelled: bool = False) -> str:
    """Add an open return (or, with ``cancelled``, an older cancelled one) of one refund line of
    ``order_id`` under ``rid``, with its label in transit; the shop order is added if new. Returns the id."""
    state = ctx.state(SERVICE)
    sku, title, price, _, _ = _order_line(ctx, order_id)
    price = refund or price
    delivered = ctx.today - dt.timedelta(days=ctx.rng.randint(6, 12))
    if order_id not in state["orders"]:
        o = ShopOrder(id=order_id, customer_email=email, customer_name=name, delivered_on=delivered,
                      lines=[ShopOrderLine(sku=sku, title=title, quantity=2, price=price)])
        state["orders"][order_id] = o.model_dump(mode="json")
    else:
        delivered = dt.date.fromisoformat(state["orders"][order_id]["delivered_on"] or delivered.isoformat())
    made = dt.datetime.combine(ctx.today - dt.timedelta(days=4 if cancelled else 1), dt.time(8, 10))
    line = ReturnLineItem(line_item_id=f"{rid}-1", sku=sku, title=title, quantity=1, price=price,
                          reason="defective", outcome="refund", refund=price)
    r = ReturnRequest(id=rid, order_id=order_id, customer_email=email, customer_name=name,
                      state="cancelled" if cancelled else "open", delivered_on=delivered, created_at=made,
                      expires_on=made.date() + dt.timedelta(days=14), line_items=[line], refund_total=price,
                      label=label_for(rid, 1, "voided" if cancelled else "in_transit", made))
    if tracking and not cancelled:
        r.label.tracking_number = tracking
    if cancelled:
        r.cancelled_at = made + dt.timedelta(hours=3)
    state["returns"][rid] = r.model_dump(mode="json")
    return rid


def _plant(ctx: Ctx, key: Any, outs: dict[str, Any], stale: bool, by: str) -> str:
    state = ctx.state(SERVICE)
    rid = key if by == "id" else next_return_id(state)
    order = key if by == "order" else outs.get("order_id") or order_ref(ctx, SERVICE)
    _, _, _, o_email, o_name = _order_line(ctx, order)
    known = state["orders"].get(order)
    if by == "email":
        email = key
    else:
        email = outs.get("email") or (known or {}).get("customer_email") or o_email or ctx.person()[1]
    name = (known or {}).get("customer_name") or o_name or ctx.client()
    return plant_return(ctx, rid, order, email=email, name=name, refund=None if stale else outs.get("money"),
                        tracking=outs.get("tracking_number"), cancelled=stale)


def _get(reader: Reader, rid: str) -> dict[str, Any]:
    return reader.read(SERVICE, "get_return", return_id=rid)


def _open(reader: Reader, **where: Any) -> dict[str, Any]:
    rows = reader.read(SERVICE, "list_returns", state="open", limit=200, **where)
    return _get(reader, latest(rows, "created_at")["id"])


_REFUND = Give("money", "refund_total", "the refund the return owes")
_TRACKING = Give("tracking_number", "label.tracking_number", "the return parcel's tracking number")
_TRUTH = "A cancelled return is void; only the open return counts."

RETURN = Relay(
    service=SERVICE, name="return", key="return_request_id",
    gives=(Give("order_id", "order_id", "the order being returned"), _REFUND, _TRACKING,
           Give("email", "customer_email", "the customer's email address", "the customer")),
    plant=lambda ctx, key, outs, stale: _plant(ctx, key, outs, stale, "id"), find=_get,
    where="Each return in Loop names the order returned, the customer's email, the refund owed and the return "
          "label's tracking number.",
    alloc=lambda ctx: next_return_id(ctx.state(SERVICE)), entry=lambda key: f"return {key}")

ORDER_RETURN = Relay(
    service=SERVICE, name="order's open return", key="order_id",
    gives=(Give("return_request_id", "id", "the order's open return"), _REFUND, _TRACKING),
    plant=lambda ctx, key, outs, stale: _plant(ctx, key, outs, stale, "order"),
    find=lambda reader, key: _open(reader, order_id=key),
    where="Loop files returns under the store order id; the latest open one is the order's return.",
    alloc=lambda ctx: order_ref(ctx, SERVICE), truth=_TRUTH)

CUSTOMER_RETURN = Relay(
    service=SERVICE, name="customer's open return", key="email",
    gives=(Give("return_request_id", "id", "the customer's open return"),
           Give("order_id", "order_id", "the order the customer is returning"), _REFUND, _TRACKING),
    plant=lambda ctx, key, outs, stale: _plant(ctx, key, outs, stale, "email"),
    find=lambda reader, key: _open(reader, customer_email=key),
    where="Returns in Loop are filed under the customer's email address; the latest open one is theirs.",
    truth=_TRUTH, key_role="customer")


def _scope(rid: str) -> list[OnlyChanged]:
    return [OnlyChanged(id="_", service=SERVICE, collection="returns", allow_ids=[rid],
                        description="No other return was changed or started."),
            OnlyChanged(id="_", service=SERVICE, collection="variants", description="No exchange stock moved.")]


def _live(reader: Reader, rid: str) -> dict[str, Any]:
    r = _get(reader, rid)
    if r["state"] != "open":
        raise SolveError(f"return {rid} is {r['state']}")
    return r


def _state_write(tool: str, state: str, extra: dict[str, Any], label: str, desc: str, money: bool = False):
    def build(reader: Reader, args: dict[str, Found]) -> Write:
        rid = args["ret"].value
        _live(reader, rid)
        return Write(calls=[call(tool, return_id=rid)],
                     checks=[RecordMatches(id="_", service=SERVICE, collection="returns", record_id=rid,
                                           where={"state": state, **extra}, description=desc)],
                     scope=_scope(rid), tool=tool, where={"return_id": rid}, label=label, moves_money=money)
    return build


def _note(reader: Reader, args: dict[str, Found]) -> Write:
    rid, mention, case = args["ret"].value, args["mention"], args["case"].value
    _get(reader, rid)
    return Write(
        calls=[call("add_note", return_id=rid, body=f"{case}: {mention.noun} is {mention.display}.")],
        checks=[RecordMatches(id="_", service=SERVICE, collection="returns", record_id=rid,
                              where={"notes": {"$any": {"body": {"$all": [{"$contains": case},
                                                                          {"$contains": mention.display}]}}}},
                              description="A note on the return quotes the case and the value.")],
        scope=_scope(rid), tool="add_note", where={"return_id": rid}, label="the note on the return")


_RET = (Need("ret", "return_request_id"),)

LINKS = ServiceLinks(
    service=SERVICE, label="Loop (returns)",
    relays=(RETURN, ORDER_RETURN, CUSTOMER_RETURN),
    actions=(
        Action(service=SERVICE, name="process", needs=_RET,
               build=_state_write("process_return", "closed", {"processed": True}, "the processed return",
                                  "The return is processed: its refund issued and the return closed.", True),
               goal="process the return so the customer's refund is issued"),
        Action(service=SERVICE, name="close", needs=_RET,
               build=_state_write("close_return", "closed", {"processed": False}, "the closed return",
                                  "The return is closed without a refund."),
               goal="close the return without issuing a refund"),
        Action(service=SERVICE, name="cancel", needs=_RET,
               build=_state_write("cancel_return", "cancelled", {}, "the cancelled return",
                                  "The return is cancelled."),
               goal="cancel the customer's return"),
        Action(service=SERVICE, name="note", needs=_RET, build=_note,
               goal="add a note to the return stating {mention}"),
    ),
)

__all__ = ["LINKS", "next_return_id", "plant_return"]
