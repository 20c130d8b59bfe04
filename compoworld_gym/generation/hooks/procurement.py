"""Procurement in chained tasks: a purchase order, found by its number or by
the SKU it orders, names its requester, SKU and total; the case's purchase
order is approved by the approver a policy names."""

from __future__ import annotations

from typing import Any

from compoworld_gym.checks import OnlyChanged, RecordMatches
from compoworld_gym.envs.services._company import STAFF
from compoworld_gym.envs.services._commerce import money
from compoworld_gym.envs.services.procurement import APPROVERS, WAREHOUSES, PurchaseOrder
from compoworld_gym.generation.context import Ctx, call
from compoworld_gym.generation.links import Action, Found, Give, Need, Reader, Relay, ServiceLinks, Write, pick, next_id

#: Staff who ask for goods but approve none (so any approver may decide their POs).
REQUESTERS = tuple(s.email for s in STAFF if s.email not in APPROVERS)
_CLOSED = ("cancelled", "rejected", "received")


def requester_email(ctx: Ctx) -> str:
    """A staff member who may request purchase orders (never an approver)."""
    return ctx.rng.choice(REQUESTERS)


def next_po_id(state: dict[str, Any]) -> str:
    """Take the next free purchase order id from the procurement counters (as the service does)."""
    return next_id(state, "PO")


def plant_purchase_order(state: dict[str, Any], po_id: str, *, sku: str, total: float, **fields: Any) -> str:
    """Add a :class:`PurchaseOrder` (validated) of one ``sku`` line whose total
    is exactly ``total`` under ``po_id``; returns the id. ``fields`` need
    ``vendor_id``, ``requester_email`` and ``created_on``; status defaults to
    pending approval."""
    cents = round(total * 100)
    qty = next(q for q in (50, 40, 25, 20, 10, 8, 5, 4, 2, 1) if cents % q == 0 and cents // q >= 1)
    cost = money(cents / qty / 100)
    line = {"sku": sku.upper(), "quantity": qty, "unit_cost": cost, "amount": money(qty * cost),
            "received_quantity": 0}
    base = {"lines": [line], "total": money(qty * cost), "status": "pending_approval", "ship_to": WAREHOUSES[0],
            "expected_date": None, "approver_email": None, "decision_note": None}
    po = PurchaseOrder.model_validate({**base, **fields, "id": po_id})
    state["purchase_orders"][po_id] = po.model_dump(mode="json")
    return po_id


def _plant(ctx: Ctx, key: Any, outs: dict[str, Any], stale: bool, by_id: bool) -> str:
    state = ctx.state("procurement")
    vendor = ctx.rng.choice(sorted(v for v, rec in state["vendors"].items() if rec["active"]))
    created = -20 if stale else -ctx.rng.randint(2, 6)
    sku = (outs.get("sku") or ctx.fresh("sku")) if by_id else key
    po = key if by_id else next_po_id(state)
    total = outs.get("money") or round(ctx.rng.randint(120000, 480000) / 100, 2)
    return plant_purchase_order(
        state, po, sku=sku, total=total, vendor_id=vendor, requester_email=outs.get("email") or requester_email(ctx),
        created_on=ctx.day(created), expected_date=ctx.day(created + 21), ship_to=ctx.rng.choice(WAREHOUSES),
        status="cancelled" if stale else "pending_approval",
        decision_note="Duplicate of a later purchase order." if stale else None)


def _by_id(reader: Reader, key: Any) -> dict[str, Any]:
    return reader.read("procurement", "get_purchase_order", po_id=key)


def _by_sku(reader: Reader, key: Any) -> dict[str, Any]:
    rows = reader.read("procurement", "list_purchase_orders", sku=key, limit=200)
    return pick([r for r in rows if r["status"] not in _CLOSED])


_REQUESTER = Give("email", "requester_email", "the requester's email address", "the requester", draw=requester_email)
_TOTAL = Give("money", "total", "the purchase order total")

PURCHASE_ORDER = Relay(
    service="procurement", name="purchase order", key="purchase_order_id",
    gives=(_REQUESTER, _TOTAL, Give("sku", "lines.0.sku", "the SKU on order")),
    plant=lambda ctx, key, outs, stale: _plant(ctx, key, outs, stale, True), find=_by_id,
    where="Each purchase order in procurement names who requested it, the SKU on order and its total.",
    alloc=lambda ctx: next_po_id(ctx.state("procurement")), entry=lambda key: f"purchase order {key}")

SKU_ORDER = Relay(
    service="procurement", name="open purchase order", key="sku",
    gives=(Give("purchase_order_id", "id", "the open purchase order's number"), _TOTAL, _REQUESTER),
    plant=lambda ctx, key, outs, stale: _plant(ctx, key, outs, stale, False), find=_by_sku,
    where="Procurement lists purchase orders by the SKU they order, with their total and requester.",
    entry=lambda key: f"the open purchase order for SKU {key}",
    truth="A cancelled, rejected or fully received purchase order is closed; only the SKU's open one counts.")


def _approve(reader: Reader, args: dict[str, Found]) -> Write:
    po, approver = args["po"].value, str(args["approver"].value).lower()
    _by_id(reader, po)
    return Write(
        calls=[call("approve_purchase_order", po_id=po, approver_email=approver)],
        checks=[RecordMatches(id="_", service="procurement", collection="purchase_orders", record_id=po,
                              where={"status": "approved", "approver_email": {"$ieq": approver}},
                              description="The purchase order is approved by the right approver.")],
        scope=[OnlyChanged(id="_", service="procurement", collection="purchase_orders", allow_ids=[po],
                           description="No other purchase order was changed or created.")],
        tool="approve_purchase_order", where={"po_id": po}, label="the purchase order approval")


def _approvers(ctx: Ctx) -> tuple[str, str]:
    """(larger amounts, smaller amounts): a senior approver, then the one with the lowest limit."""
    ranked = sorted(APPROVERS, key=APPROVERS.get)
    return ctx.rng.choice(ranked[1:]), ranked[0]


LINKS = ServiceLinks(
    service="procurement", label="procurement",
    relays=(PURCHASE_ORDER, SKU_ORDER),
    actions=(Action(service="procurement", name="approve",
                    needs=(Need("approver", "email", ("the approver",), "approver"), Need("po", "purchase_order_id")),
                    build=_approve, goal="approve the purchase order as {approver}", routable=True),),
    route_values={"email": _approvers},
)

__all__ = ["LINKS", "REQUESTERS", "next_po_id", "plant_purchase_order", "requester_email"]
