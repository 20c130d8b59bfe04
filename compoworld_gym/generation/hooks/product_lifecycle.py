"""Product lifecycle in chained tasks: a part's SKU (from a nonconformance, a
manufacturing order, a purchase order) leads to its PLM item, which gives
its preferred supplier; a nonconformance leads to the change order that
answers it, which gives the SKU it revises. Writes: open a change order on
the item quoting a discovered value, or submit the open change for
approval."""

from __future__ import annotations

import datetime as dt
from typing import Any, Optional

from compoworld_gym.checks import OnlyChanged, RecordExists, RecordMatches
from compoworld_gym.envs.services._product_lifecycle_models import (
    AffectedItem, Approval, ChangeOrder, PlmItem, ProductLifecycleState, Sourcing,
)
from compoworld_gym.generation.context import Ctx, call
from compoworld_gym.generation.links import (
    Action, Found, Give, Need, Reader, Relay, ServiceLinks, SolveError, Write, latest, next_id, pick,
)

SERVICE = "product_lifecycle"
_LIVE = ("OPEN", "SUBMITTED", "APPROVED")


def _load(ctx: Ctx) -> tuple[dict[str, Any], ProductLifecycleState]:
    raw = ctx.state(SERVICE)
    return raw, ProductLifecycleState.model_validate(raw)


def _save(raw: dict[str, Any], state: ProductLifecycleState) -> None:
    dumped = state.model_dump(mode="json")
    for coll in ("items", "changes"):
        raw[coll] = dumped[coll]


def _item(raw: dict[str, Any], state: ProductLifecycleState, ctx: Ctx, number: str, supplier: Optional[str],
          item_id: Optional[str] = None) -> PlmItem:
    it = None if item_id else next((i for i in state.items.values() if i.number.lower() == number.lower()), None)
    if it is None:
        it = PlmItem(id=item_id or next_id(raw, "ITM"), number=number, name=f"Part {number}",
                     category="Purchased Part", revision="A", lifecycle_phase="Production", uom="pcs",
                     owner_email=next(iter(state.users)),
                     modified_at=dt.datetime.combine(ctx.today - dt.timedelta(days=90), dt.time(10, 0)))
        state.items[it.id] = it
    if supplier and not any(s.preferred and s.supplier_name == supplier for s in it.sourcing):
        for s in it.sourcing:
            s.preferred = False
        it.sourcing.append(Sourcing(supplier_name=supplier, supplier_part_number=f"SP-{ctx.rng.randint(1000, 9999)}",
                                    preferred=True))
    return it


def plant_item(ctx: Ctx, number: str, *, supplier: Optional[str] = None, item_id: Optional[str] = None) -> str:
    """The Production item numbered ``number`` (added if new, or as ``item_id``), with ``supplier`` as its
    preferred approved source; returns its id."""
    raw, state = _load(ctx)
    it = _item(raw, state, ctx, number, supplier, item_id)
    _save(raw, state)
    return it.id


def plant_change(ctx: Ctx, *, ncr: str, number: str, canceled: bool = False, change_id: Optional[str] = None) -> str:
    """Add an OPEN (or ``canceled``) change on item ``number`` answering nonconformance ``ncr``, routed to the
    first two approvers, opened three days ago; returns its id."""
    raw, state = _load(ctx)
    it = _item(raw, state, ctx, number, None)
    cid = change_id or next_id(raw, "ECO")
    users = list(state.users.values())[:2]
    c = ChangeOrder(id=cid, title=f"Corrective change for {ncr}", reference=ncr,
                    description=f"Revise {it.number} to correct nonconformance {ncr}.",
                    status="CANCELED" if canceled else "OPEN", creator_email=it.owner_email,
                    created_at=dt.datetime.combine(ctx.today - dt.timedelta(days=3), dt.time(14, 0)),
                    affected_items=[AffectedItem(item_id=it.id, item_number=it.number, old_revision=it.revision,
                                                 new_revision=_next(it.revision))],
                    approvers=[Approval(email=u.email, name=u.name) for u in users])
    state.changes[cid] = c
    _save(raw, state)
    return cid


def _next(rev: str) -> str:
    from compoworld_gym.envs.services._product_lifecycle_rules import next_revision
    return next_revision(rev)


def ncr_key(ctx: Ctx) -> str:
    """A nonconformance id: the QMS's next one when it is mounted, else one past its seeded NCRs."""
    if "quality_management" in ctx.states:
        return next_id(ctx.state("quality_management"), "NCR")
    return next_id(ctx.state(SERVICE), "NCR", start=20 + ctx.rng.randrange(20))


def _sku(ctx: Ctx, outs: dict[str, Any]) -> str:
    return outs.get("sku") or f"MAT-{ctx.code()}"


def _by_sku(reader: Reader, key: Any) -> dict[str, Any]:
    rows = reader.read(SERVICE, "search_items", number=key)
    return reader.read(SERVICE, "get_item", item_id=pick(rows, number=key)["id"])


def _change_of(reader: Reader, key: Any) -> dict[str, Any]:
    rows = [c for c in reader.read(SERVICE, "search_changes", reference=key, limit=200) if c["status"] in _LIVE
            and c["reference"] == key]
    return reader.read(SERVICE, "get_change", change_id=latest(rows, "created_at")["id"])


_SUPPLIER = Give("company", "preferred_supplier", "the part's preferred approved supplier", party="vendor")

ITEM = Relay(
    service=SERVICE, name="PLM item", key="plm_item_id",
    gives=(Give("sku", "number", "the item number (SKU)"), _SUPPLIER),
    plant=lambda ctx, key, outs, stale: plant_item(ctx, _sku(ctx, outs), supplier=outs.get("company")
                                                   or ctx.fresh("company"), item_id=key),
    find=lambda reader, key: reader.read(SERVICE, "get_item", item_id=key),
    where="Each PLM item gives its item number and its preferred approved supplier.",
    alloc=lambda ctx: next_id(ctx.state(SERVICE), "ITM"), entry=lambda key: f"PLM item {key}")

SKU_ITEM = Relay(
    service=SERVICE, name="part's PLM item", key="sku",
    gives=(Give("plm_item_id", "id", "the part's PLM item"), _SUPPLIER),
    plant=lambda ctx, key, outs, stale: plant_item(ctx, key, supplier=outs.get("company") or ctx.fresh("company")),
    find=_by_sku,
    where="Arena PLM keeps every part and product under its SKU as item number, with its approved suppliers.")

NCR_CHANGE = Relay(
    service=SERVICE, name="nonconformance's change order", key="nonconformance_id",
    gives=(Give("change_order_id", "id", "the change order answering the nonconformance"),
           Give("sku", "affected_items.0.item_number", "the item the change order revises")),
    plant=lambda ctx, key, outs, stale: plant_change(ctx, ncr=key, number=_sku(ctx, outs), canceled=stale),
    find=_change_of, alloc=ncr_key,
    where="A change order that answers a nonconformance quotes the NCR number as its reference.",
    truth="A canceled change order changes nothing; only the live one counts.")

CHANGE = Relay(
    service=SERVICE, name="change order", key="change_order_id",
    gives=(Give("sku", "affected_items.0.item_number", "the item the change order revises"),),
    plant=lambda ctx, key, outs, stale: plant_change(ctx, ncr=ncr_key(ctx), number=_sku(ctx, outs), change_id=key),
    find=lambda reader, key: reader.read(SERVICE, "get_change", change_id=key),
    where="Each change order lists the items it revises.",
    alloc=lambda ctx: next_id(ctx.state(SERVICE), "ECO"), entry=lambda key: f"change order {key}")


def _open(reader: Reader, args: dict[str, Found]) -> Write:
    iid, mention = args["item"].value, args["mention"]
    item = reader.read(SERVICE, "get_item", item_id=iid)
    if item["live_change_ids"] or item["lifecycle_phase"] == "Obsolete":
        raise SolveError(f"item {iid} is already on a change or obsolete")
    case = str(args["case"].value)[:60]
    desc = f"{case}: {mention.noun} is {mention.display}."
    return Write(
        calls=[call("create_change", title=f"Change to {item['number']} for {case}"[:160], description=desc,
                    affected_item_ids=[iid], reference=case)],
        checks=[RecordExists(id="_", service=SERVICE, collection="changes",
                             where={"affected_items": {"$any": {"item_id": iid}},
                                    "description": {"$contains": mention.display}},
                             description="A change order on the item quotes the value.")],
        scope=[OnlyChanged(id="_", service=SERVICE, collection="changes", max_new=1,
                           allow_new={"affected_items": {"$any": {"item_id": iid}}},
                           description="No other change order was opened or changed."),
               OnlyChanged(id="_", service=SERVICE, collection="items",
                           description="No item was edited or released.")],
        tool="create_change", where={}, label="the change order")


def _submit(reader: Reader, args: dict[str, Found]) -> Write:
    cid = args["change"].value
    c = reader.read(SERVICE, "get_change", change_id=cid)
    if c["status"] != "OPEN" or not c["approvers"] or not c["affected_items"]:
        raise SolveError(f"change {cid} cannot be submitted")
    return Write(
        calls=[call("submit_change", change_id=cid)],
        checks=[RecordMatches(id="_", service=SERVICE, collection="changes", record_id=cid,
                              where={"status": "SUBMITTED"}, description="The change order is submitted.")],
        scope=[OnlyChanged(id="_", service=SERVICE, collection="changes", allow_ids=[cid],
                           description="No other change order was opened or changed."),
               OnlyChanged(id="_", service=SERVICE, collection="items", description="No item was edited.")],
        tool="submit_change", where={"change_id": cid}, label="the submitted change order")


LINKS = ServiceLinks(
    service=SERVICE, label="Arena PLM",
    relays=(ITEM, CHANGE, SKU_ITEM, NCR_CHANGE),
    actions=(
        Action(service=SERVICE, name="open_change", needs=(Need("item", "plm_item_id"),), build=_open,
               effect="neither",
               goal="open a change order in Arena PLM on the part, its description quoting {mention}"),
        Action(service=SERVICE, name="submit", needs=(Need("change", "change_order_id"),), build=_submit,
               effect="advances", goal="submit the change order in Arena PLM for approval"),
    ),
)

__all__ = ["LINKS", "ncr_key", "plant_change", "plant_item"]
