"""Customs in chained tasks: an import entry names the shipment's tracking
number, the purchase order it imports, the importer of record and the duties
and fees due; a shipment's entry is found by its tracking number, a purchase
order's (or an importer's) open entry by the PO number (or company), so a
purchase order leads to its shipment, its customs entry and the duty to pay.
Writes: pay the entry's duties and fees, or note the entry."""

from __future__ import annotations

import datetime as dt
from typing import Any, Optional

from compoworld_gym.checks import OnlyChanged, RecordMatches
from compoworld_gym.envs.services._customs_models import HTS, PORTS, DutyPayment, Entry, Importer
from compoworld_gym.envs.services._customs_rules import entry_number, make_line, recompute
from compoworld_gym.generation.context import Ctx, call
from compoworld_gym.generation.hooks.procurement import next_po_id
from compoworld_gym.generation.links import (
    Action, Found, Give, Need, Reader, Relay, ServiceLinks, SolveError, Write, latest, next_id,
)

SERVICE = "customs"
_DUTIABLE, _FREE = HTS["4202.92.3131"], HTS["8471.60.2000"]  # laptop backpacks 17.6%, keyboards free
#: (rate region, entry type, value floor): the MPF is flat (informal), at its minimum, or at its maximum.
_PLANS = (("11", 0.0), ("01", 0.0), ("01", 183_300.0))


def next_entry_id(state: dict[str, Any]) -> str:
    """Take the next free entry id from the customs counters."""
    return next_id(state, "ENT")


def po_ref(ctx: Ctx) -> str:
    """A fresh purchase order id for a customs entry or an inbound shipment: procurement's next one
    when it is mounted, else one past procurement's seeded purchase orders, counted in both the
    customs and the warehouse state (the larger counter wins), so the two agree on new POs."""
    if "procurement" in ctx.states:
        return next_po_id(ctx.state("procurement"))
    present = [ctx.state(s) for s in (SERVICE, "warehouse") if s in ctx.states]
    counted = [s["counters"]["PO"] for s in present if "PO" in s["counters"]]
    n = max(counted) if counted else 11 + ctx.rng.randrange(25)
    for s in present:
        s["counters"]["PO"] = n + 1
    return f"PO-{n:04d}"


def _importer(state: dict[str, Any], ctx: Ctx, name: str) -> Importer:
    for raw in state["importers"].values():
        if raw["name"].lower() == name.lower():
            return Importer.model_validate(raw)
    imp = Importer(id=next_id(state, "IMP"), name=name, bond_number=f"9{ctx.rng.randint(10**7, 10**8 - 1)}",
                   ior_number=f"{ctx.rng.randint(10, 99)}-{ctx.rng.randint(10**6, 10**7 - 1)}-00")
    state["importers"][imp.id] = imp.model_dump(mode="json")
    return imp


def _lines(entry: Entry, due: float) -> None:
    """Give ``entry`` (by air: no HMF) lines whose duty plus MPF is exactly ``due`` USD: a dutiable
    line and, where the MPF must be at its maximum, a duty-free line making up the value."""
    for etype, floor in _PLANS:
        entry.entry_type = etype
        mpf = 2.62 if etype == "11" else (634.62 if floor else 32.71)
        duty = round(due - mpf, 2)
        if duty <= 0:
            continue
        value = round(duty / _DUTIABLE.rate, 2)
        entry.lines = [make_line(1, _DUTIABLE, f"{_DUTIABLE.description} (BP-LAP-10)", "VN",
                                 max(1, round(value / 22.4)), value)]
        if floor > value:
            entry.lines.append(make_line(2, _FREE, f"{_FREE.description} (KB-MECH-01)", "CN",
                                         max(1, round((floor - value) / 38.5)), floor - value))
        recompute(entry)
        if entry.total_due == round(due, 2) and (etype != "11" or entry.entered_value <= 2500):
            return
    raise SolveError(f"no entry lines total {due:.2f} USD of duties and fees")


def plant_entry(ctx: Ctx, entry_id: str, *, importer: str, tracking: str, po: Optional[str], due: float,
                closed: bool = False) -> str:
    """Add an air entry of ``importer`` (created if new) for purchase order ``po`` under the carrier's
    ``tracking`` number, filed and under review with ``due`` USD of duties and fees unpaid (a
    ``closed`` one was released and paid). Returns the id."""
    state = ctx.state(SERVICE)
    imp = _importer(state, ctx, importer)
    arrived = ctx.today - dt.timedelta(days=30 if closed else ctx.rng.randint(1, 4))
    port = ctx.rng.choice(("2720", "4701", "3901"))
    entry = Entry(id=entry_id, entry_number=entry_number(int(entry_id[4:])), entry_type="01", importer_id=imp.id,
                  importer_name=imp.name, ior_number=imp.ior_number, mode="air", port_code=port,
                  port_name=PORTS[port].name, bill_of_lading=f"176-{ctx.rng.randint(10**7, 10**8 - 1)}",
                  tracking_number=tracking, purchase_order_id=po,
                  supplier=f"{ctx.last_name()} {ctx.rng.choice(('Manufacturing', 'Trading Co', 'Industrial'))}",
                  country_of_export="VN", arrival_date=arrived, entered_value=0, duty=0, mpf=0, hmf=0, total_due=0,
                  status="released" if closed else "under_review", created_on=arrived, filed_on=arrived,
                  released_on=arrived if closed else None)
    _lines(entry, due)
    for doc in entry.documents:
        doc.status, doc.file_name = "received", f"{entry_id.lower()}_{doc.document_type}.pdf"
    if closed:
        entry.payment = DutyPayment(amount=entry.total_due, method="daily_statement", reference="Monthly statement",
                                    paid_on=arrived)
    state["entries"][entry_id] = Entry.model_validate(entry.model_dump()).model_dump(mode="json")
    return entry_id


def _plant(ctx: Ctx, key: Any, outs: dict[str, Any], stale: bool, by: str) -> str:
    state = ctx.state(SERVICE)
    eid = key if by == "id" else next_entry_id(state)
    return plant_entry(
        ctx, eid, importer=key if by == "company" else outs.get("company") or ctx.fresh("company"),
        tracking=key if by == "tracking" else outs.get("tracking_number") or ctx.fresh("tracking_number"),
        po=key if by == "po" else outs.get("purchase_order_id") or (po_ref(ctx) if by != "tracking" else None),
        due=outs.get("money") or round(ctx.rng.randint(12000, 480000) / 100, 2), closed=stale)


def _by_id(reader: Reader, key: Any) -> dict[str, Any]:
    return reader.read(SERVICE, "get_entry", entry_id=key)


def _open_of(reader: Reader, **where: Any) -> dict[str, Any]:
    rows = reader.read(SERVICE, "list_entries", limit=200, **where)
    live = [r for r in rows if not (r["status"] == "released" and r["duty_paid"])]
    return _by_id(reader, latest(live, "arrival_date")["id"])


_DUE = Give("money", "total_due", "the duties and fees due on the customs entry")
_TRACKING = Give("tracking_number", "tracking_number", "the imported shipment's tracking number")
_IMPORTER = Give("company", "importer_name", "the importer of record")
_TRUTH = "A customs entry released with its duties paid is closed; only the open entry counts."

ENTRY = Relay(
    service=SERVICE, name="customs entry", key="customs_entry_id",
    gives=(_TRACKING, Give("purchase_order_id", "purchase_order_id", "the purchase order the entry imports"),
           _IMPORTER, _DUE),
    plant=lambda ctx, key, outs, stale: _plant(ctx, key, outs, stale, "id"), find=_by_id,
    where="Each customs entry names the shipment's tracking number, the purchase order it imports, the importer "
          "of record and the duties and fees due.",
    alloc=lambda ctx: next_entry_id(ctx.state(SERVICE)), entry=lambda key: f"customs entry {key}")

SHIPMENT_ENTRY = Relay(
    service=SERVICE, name="shipment's customs entry", key="tracking_number",
    gives=(Give("customs_entry_id", "id", "the shipment's customs entry"), _IMPORTER, _DUE),
    plant=lambda ctx, key, outs, stale: _plant(ctx, key, outs, stale, "tracking"),
    find=lambda reader, key: _open_of(reader, tracking_number=key),
    where="The customs broker files each import entry under the carrier's tracking number of the shipment.",
    entry=lambda key: f"the customs entry of the shipment with tracking number {key}")

PO_ENTRY = Relay(
    service=SERVICE, name="purchase order's customs entry", key="purchase_order_id",
    gives=(Give("customs_entry_id", "id", "the purchase order's open customs entry"), _TRACKING, _DUE),
    plant=lambda ctx, key, outs, stale: _plant(ctx, key, outs, stale, "po"),
    find=lambda reader, key: _open_of(reader, purchase_order_id=key), alloc=po_ref,
    where="Customs entries name the purchase order whose goods they import.",
    entry=lambda key: f"the customs entry of purchase order {key}", truth=_TRUTH)

IMPORTER_ENTRY = Relay(
    service=SERVICE, name="importer's open customs entry", key="company",
    gives=(Give("customs_entry_id", "id", "the importer's open customs entry"), _TRACKING, _DUE),
    plant=lambda ctx, key, outs, stale: _plant(ctx, key, outs, stale, "company"),
    find=lambda reader, key: _open_of(reader, importer_name=key),
    where="Customs entries are filed under the importer of record's company name.", truth=_TRUTH)


def _scope(eid: str) -> list[OnlyChanged]:
    return [OnlyChanged(id="_", service=SERVICE, collection="entries", allow_ids=[eid],
                        description="No other customs entry was changed or created.")]


def _pay(reader: Reader, args: dict[str, Found]) -> Write:
    eid, case = args["entry"].value, args["case"].value
    entry = _by_id(reader, eid)
    if entry["duty_paid"] or entry["status"] == "draft":
        raise SolveError(f"customs entry {eid} has no duties to pay")
    due = entry["total_due"]
    return Write(
        calls=[call("pay_duty", entry_id=eid, amount=due, method="ach_debit", reference=f"Duties {case}")],
        checks=[RecordMatches(id="_", service=SERVICE, collection="entries", record_id=eid,
                              where={"payment.amount": due, "payment.reference": {"$contains": case}},
                              description="The entry's duties and fees are paid in full, quoting the case.")],
        scope=_scope(eid), tool="pay_duty", where={"entry_id": eid}, label="the duty payment", moves_money=True)


def _note(reader: Reader, args: dict[str, Found]) -> Write:
    eid, mention, case = args["entry"].value, args["mention"], args["case"].value
    _by_id(reader, eid)
    return Write(
        calls=[call("add_entry_note", entry_id=eid, note=f"{case}: {mention.noun} is {mention.display}.")],
        checks=[RecordMatches(id="_", service=SERVICE, collection="entries", record_id=eid,
                              where={"notes": {"$any": {"text": {"$all": [{"$contains": case},
                                                                          {"$contains": mention.display}]}}}},
                              description="A note on the customs entry quotes the case and the right value.")],
        scope=_scope(eid), tool="add_entry_note", where={"entry_id": eid}, label="the note on the customs entry")


LINKS = ServiceLinks(
    service=SERVICE, label="the customs broker's system",
    relays=(ENTRY, SHIPMENT_ENTRY, PO_ENTRY, IMPORTER_ENTRY),
    actions=(
        Action(service=SERVICE, name="pay", needs=(Need("entry", "customs_entry_id"),), build=_pay,
               goal="pay the customs entry's duties and fees in full by ACH debit, quoting the case in the reference"),
        Action(service=SERVICE, name="note", needs=(Need("entry", "customs_entry_id"),), build=_note,
               goal="add a note to the customs entry quoting {mention}"),
    ),
)

__all__ = ["LINKS", "next_entry_id", "plant_entry", "po_ref"]
