"""Accounts payable in chained tasks: a vendor bill, found by its number or
by the purchase order it bills, names the vendor, its open balance and its
due date; the Finance approver a policy names approves the case's bill, a
payment of its open balance is scheduled, or it is voided with a reason."""

from __future__ import annotations

from typing import Any, Optional

from compoworld_gym.checks import OnlyChanged, RecordExists, RecordMatches
from compoworld_gym.envs.services._accounts_payable_models import ApprovalPolicy, Bill, BillLineInput
from compoworld_gym.envs.services._accounts_payable_rules import (
    CONTROLLER_ABOVE, FINANCE, build_lines, default_policies, route,
)
from compoworld_gym.envs.services._accounts_payable_seed import CLERKS
from compoworld_gym.envs.services._commerce import money
from compoworld_gym.generation.context import Ctx, call
from compoworld_gym.generation.links import (
    Action, Found, Give, Need, Reader, Relay, ServiceLinks, SolveError, Write, next_id,
)

SERVICE = "accounts_payable"
_LINES = ("Freight and handling", "Installation services", "Maintenance contract", "Packaging materials")


def bill_total(ctx: Ctx) -> float:
    """A bill total that needs Finance review (above 1,000 and up to 18,000 USD)."""
    return round(ctx.rng.randint(150000, 1800000) / 100, 2)


def next_bill_id(state: dict[str, Any]) -> str:
    """Take the next free bill id from the service's counters (as the service does)."""
    return next_id(state, "BIL")


def _po_key(ctx: Ctx) -> str:
    """A purchase order number: procurement's next one when it is mounted, else a fresh one."""
    proc = ctx.states.get("procurement")
    return next_id(proc, "PO") if proc is not None else f"PO-{ctx.rng.randint(5000, 9999):04d}"


def _vendor(ctx: Ctx, state: dict[str, Any], company: Optional[str], po_id: Optional[str]) -> dict[str, Any]:
    """The bill's vendor: the PO's vendor, the vendor named ``company`` (added if new), or a seeded one."""
    po = ((ctx.states.get("procurement") or {}).get("purchase_orders") or {}).get(po_id or "")
    if po is not None and po["vendor_id"] in state["vendors"] and not company:
        return state["vendors"][po["vendor_id"]]
    if company:
        for v in state["vendors"].values():
            if v["name"].lower() == company.lower():
                return v
        vid = next_id(state, "VEN")
        slug = "".join(c for c in company.lower() if c.isalnum())[:18]
        state["vendors"][vid] = {"id": vid, "name": company, "email": f"ar@{slug}.example", "phone": "",
                                 "payment_terms": "net30", "category": "services", "active": True}
        return state["vendors"][vid]
    return state["vendors"][ctx.rng.choice(sorted(k for k, v in state["vendors"].items() if v["active"]))]


def plant_bill(ctx: Ctx, bill_id: str, *, total: float, vendor: dict[str, Any], due: str,
               po_id: Optional[str] = None, voided: bool = False) -> str:
    """Add a validated :class:`Bill` of one line summing to ``total``, pending the approval its
    total needs (or void); returns its id."""
    state = ctx.state(SERVICE)
    lines, _ = build_lines([BillLineInput(description=ctx.rng.choice(_LINES), quantity=1, unit_price=money(total))])
    bill = Bill(id=bill_id, vendor_id=vendor["id"], vendor_name=vendor["name"],
                invoice_number=f"INV-{ctx.rng.randint(10000, 99999)}", invoice_date=ctx.day(-8), due_date=due,
                po_id=po_id, lines=lines, total=lines[0].amount, open_balance=lines[0].amount,
                approval_status="not_required", created_by=ctx.rng.choice(CLERKS), created_on=ctx.day(-7))
    policies = {k: ApprovalPolicy.model_validate(v) for k, v in state["policies"].items()} or default_policies()
    route(bill, policies)
    if voided:
        bill = bill.model_copy(update={"voided": True, "void_reason": "Duplicate invoice entered twice."})
        bill.voided_on = bill.created_on  # voided the day it was entered twice
    state["bills"][bill_id] = bill.model_dump(mode="json")
    return bill_id


def _plant(ctx: Ctx, key: Any, outs: dict[str, Any], stale: bool, by_id: bool) -> str:
    state = ctx.state(SERVICE)
    po_id = None if by_id else key
    vendor = _vendor(ctx, state, outs.get("company"), po_id)
    return plant_bill(ctx, key if by_id else next_bill_id(state), total=outs.get("money") or bill_total(ctx),
                      vendor=vendor, due=outs.get("date") or ctx.day(ctx.rng.randint(5, 30)), po_id=po_id,
                      voided=stale)


def _by_id(reader: Reader, key: Any) -> dict[str, Any]:
    return reader.read(SERVICE, "get_bill", bill_id=key)


def _by_po(reader: Reader, key: Any) -> dict[str, Any]:
    rows = reader.read(SERVICE, "list_bills", po_id=key, limit=200)  # voided bills are not listed
    if len(rows) != 1:
        raise SolveError(f"{len(rows)} live bills against purchase order {key}")
    return _by_id(reader, rows[0]["id"])


_VENDOR = Give("company", "vendor_name", "the vendor on the bill", party="vendor")
_BALANCE = Give("money", "open_balance", "the bill's open balance", draw=bill_total)
_DUE = Give("date", "due_date", "the bill's due date")

BILL = Relay(
    service=SERVICE, name="vendor bill", key="bill_id",
    gives=(_VENDOR, _BALANCE, _DUE),
    plant=lambda ctx, key, outs, stale: _plant(ctx, key, outs, stale, True), find=_by_id,
    where="Each vendor bill in accounts payable names the vendor, its open balance and its due date.",
    alloc=lambda ctx: next_bill_id(ctx.state(SERVICE)), entry=lambda key: f"vendor bill {key}")

BILL_OF_PO = Relay(
    service=SERVICE, name="bill against the purchase order", key="purchase_order_id",
    # No vendor give: the bill's vendor is the purchase order's own (a three-way match).
    gives=(Give("bill_id", "id", "the vendor bill against the purchase order"), _BALANCE, _DUE),
    plant=lambda ctx, key, outs, stale: _plant(ctx, key, outs, stale, False), find=_by_po,
    where="Vendor bills in accounts payable are entered against the purchase order they bill; a voided bill "
          "does not count.",
    truth="A voided bill against the purchase order is a mistake that was undone; only the live bill counts.",
    alloc=_po_key)


def _scope(rid: str, new_payments: int = 0) -> list[OnlyChanged]:
    return [OnlyChanged(id="_", service=SERVICE, collection="bills", allow_ids=[rid],
                        description="No other bill was changed or entered."),
            OnlyChanged(id="_", service=SERVICE, collection="payments", allow_new={"bill_id": rid},
                        max_new=new_payments, description="No other payment was scheduled or changed.")]


def _approve(reader: Reader, args: dict[str, Found]) -> Write:
    rid, approver = args["bill"].value, args["approver"].value
    bill = _by_id(reader, rid)
    if bill["approval_status"] != "pending" or bill["total"] > CONTROLLER_ABOVE or bill["voided"]:
        raise SolveError(f"bill {rid} is not pending Finance review")
    return Write(
        calls=[call("approve_bill", bill_id=rid, approver_email=approver)],
        checks=[RecordMatches(id="_", service=SERVICE, collection="bills", record_id=rid,
                              where={"approval_status": "approved", "approver_email": {"$ieq": approver}},
                              description="The case's vendor bill is approved by the right approver.")],
        scope=_scope(rid), tool="approve_bill", where={"bill_id": rid}, label="the vendor bill approval")


def _prepare_paid(ctx: Ctx, values: dict[str, Any]) -> None:
    bill = ctx.state(SERVICE)["bills"].get(values["bill"])
    if bill is not None and bill["approval_status"] == "pending":  # Finance approved it yesterday
        bill.update(approval_status="approved", approver_email=FINANCE[0], decided_on=ctx.day(-1))


def _pay(reader: Reader, args: dict[str, Found]) -> Write:
    rid, mention, case = args["bill"].value, args["mention"], args["case"].value
    bill = _by_id(reader, rid)
    if bill["voided"] or bill["payable_amount"] <= 0:
        raise SolveError(f"bill {rid} has nothing payable")
    memo = f"{case}: {mention.display}"
    if len(memo) > 200:
        raise SolveError(f"{mention.noun} does not fit in a remittance memo")
    amount = bill["payable_amount"]
    return Write(
        calls=[call("schedule_payment", bill_id=rid, amount=amount, memo=memo)],  # process date: today
        checks=[RecordExists(id="_", service=SERVICE, collection="payments",
                             where={"bill_id": rid, "status": "scheduled",
                                    "amount": {"$gte": round(amount - 0.01, 2), "$lte": round(amount + 0.01, 2)},
                                    "memo": {"$contains": mention.display}},
                             description="A payment of the bill's open balance is scheduled, its memo quoting "
                                         "the value.")],
        scope=_scope(rid, 1), tool="schedule_payment", where={"bill_id": rid},
        label="the vendor payment", moves_money=True)


def _void(reader: Reader, args: dict[str, Found]) -> Write:
    rid, mention, case = args["bill"].value, args["mention"], args["case"].value
    bill = _by_id(reader, rid)
    if bill["voided"] or bill["paid_amount"] > 0 or bill["scheduled_amount"] > 0:
        raise SolveError(f"bill {rid} cannot be voided")
    reason = f"{case}: {mention.display}"
    if len(reason) > 500:
        raise SolveError(f"{mention.noun} does not fit in a void reason")
    return Write(
        calls=[call("void_bill", bill_id=rid, reason=reason)],
        checks=[RecordMatches(id="_", service=SERVICE, collection="bills", record_id=rid,
                              where={"voided": True, "void_reason": {"$contains": mention.display}},
                              description="The case's vendor bill is void, its reason quoting the value.")],
        scope=_scope(rid), tool="void_bill", where={"bill_id": rid}, label="the voided vendor bill")


def _approvers(ctx: Ctx) -> tuple[str, str]:
    a, b = ctx.rng.sample(FINANCE, 2)
    return a, b


LINKS = ServiceLinks(
    service=SERVICE, label="accounts payable",
    relays=(BILL, BILL_OF_PO),
    actions=(Action(service=SERVICE, name="approve",
                    needs=(Need("approver", "email", ("the finance approver",), "approver"), Need("bill", "bill_id")),
                    build=_approve, goal="have {approver} approve the vendor bill", routable=True),
             Action(service=SERVICE, name="pay", needs=(Need("bill", "bill_id"),), build=_pay, prepare=_prepare_paid,
                    goal="schedule a payment of the vendor bill's open balance for today, quoting {mention} in "
                         "its memo"),
             Action(service=SERVICE, name="void", needs=(Need("bill", "bill_id"),), build=_void,
                    goal="void the vendor bill, quoting {mention} in the void reason")),
    route_values={"email": _approvers},
)

__all__ = ["LINKS", "bill_total", "next_bill_id", "plant_bill"]
