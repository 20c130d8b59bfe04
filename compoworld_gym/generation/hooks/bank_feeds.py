"""Bank feeds in chained tasks: a bank transaction, found by its id, by the
payee (a vendor's unreconciled payment), by the bill number its description
quotes or by the invoice a deposit quotes, names the amount, the payee, the
posting date and the bill it pays; the case's payment is reconciled to the
accounts-payable bill it pays, or flagged for review."""

from __future__ import annotations

from typing import Any, Optional

from compoworld_gym.checks import OnlyChanged, RecordMatches
from compoworld_gym.envs.services._bank_feeds_models import BankTransaction, Match, category
from compoworld_gym.envs.services._bank_feeds_seed import RECONCILER
from compoworld_gym.generation.context import Ctx, call
from compoworld_gym.generation.hooks.accounts_payable import next_bill_id
from compoworld_gym.generation.hooks.invoicing import next_invoice_id
from compoworld_gym.generation.links import (
    Action, Found, Give, Need, Reader, Relay, ServiceLinks, SolveError, Write, next_id,
)

SERVICE = "bank_feeds"
BILL_RX = r"BIL-\d{4,}"
_CHECKING = "BA-0001"


def next_transaction_id(state: dict[str, Any]) -> str:
    """Take the next free transaction id from the service's counters (as ``new_id("BTX")``)."""
    return next_id(state, "BTX")


def _ref(ctx: Ctx, service: str, prefix: str, nxt: Any, start: int) -> str:
    """A fresh record id of ``service`` for a transaction to quote: its next id when it is mounted,
    else one counted in this service's counters past anything seeded (as ``invoicing.order_ref``)."""
    if service in ctx.states:
        return nxt(ctx.state(service))
    ctx.state(SERVICE)["counters"].setdefault(prefix, start + ctx.rng.randrange(25))
    return ctx.new_id(SERVICE, prefix)


def bill_ref(ctx: Ctx) -> str:
    """A bill id for a bank payment to quote (accounts payable's next one when it is mounted)."""
    return _ref(ctx, "accounts_payable", "BIL", next_bill_id, 40)


def invoice_ref(ctx: Ctx) -> str:
    """An invoice id for a deposit to quote (invoicing's next one when it is mounted)."""
    return _ref(ctx, "invoicing", "INV", next_invoice_id, 30)


def posting_day(ctx: Ctx) -> str:
    """A recent posting date (ISO): the last few days."""
    return ctx.day(-ctx.rng.randint(1, 6))


def plant_transaction(state: dict[str, Any], tid: str, *, amount: float, name: str, day: str,
                      merchant: Optional[str] = None, detailed: str = "GENERAL_SERVICES_OTHER_GENERAL_SERVICES",
                      match: Optional[Match] = None) -> str:
    """Add a posted checking-account :class:`BankTransaction` (validated; Plaid sign: positive is money
    out) under ``tid``, reconciled when ``match`` is given; returns the id."""
    t = BankTransaction(transaction_id=tid, account_id=_CHECKING, amount=amount, date=day, authorized_date=day,
                        name=name, merchant_name=merchant, payment_channel="online", pending=False,
                        personal_finance_category=category(detailed), match=match)
    state["transactions"][tid] = t.model_dump(mode="json")
    return tid


def _plant(ctx: Ctx, key: Any, outs: dict[str, Any], stale: bool, by: str) -> str:
    state = ctx.state(SERVICE)
    tid = key if by == "id" else next_transaction_id(state)
    amount = outs.get("money") or round(ctx.rng.randint(20000, 900000) / 100, 2)
    day = ctx.day(-25) if stale else outs.get("date") or posting_day(ctx)
    if by == "invoice":
        return plant_transaction(state, tid, amount=-amount, name=f"ACH CREDIT REMITTANCE {key}", day=day,
                                 detailed="TRANSFER_IN_DEPOSIT")
    company = key if by == "company" else outs.get("company") or ctx.fresh("company")
    bill = key if by == "bill" else outs.get("bill_id")
    name = (f"BILL.COM PAYABLES {company.upper()} {bill}" if bill
            else f"ACH DEBIT {company.upper()} REF {ctx.rng.randint(100000, 999999)}")
    match = None
    if stale:  # an earlier payment to the same payee, reconciled to the bill it paid
        match = Match(record_type="bill", record_id=bill or bill_ref(ctx), amount=amount, reconciled_on=ctx.day(-24),
                      reconciled_by=RECONCILER)
    return plant_transaction(state, tid, amount=amount, name=name, day=day, merchant=company, match=match)


def _get(reader: Reader, tid: str) -> dict[str, Any]:
    return reader.read(SERVICE, "get_transaction", transaction_id=tid)


def _search(reader: Reader, **where: Any) -> dict[str, Any]:
    rows = reader.read(SERVICE, "search_transactions", reconciled=False, pending=False, limit=200, **where)
    if len(rows) != 1:
        raise SolveError(f"{len(rows)} unreconciled transactions match {where}")
    return _get(reader, rows[0]["id"])


_AMOUNT = Give("money", "absolute_amount", "the amount of the bank transaction")
_DAY = Give("date", "date", "the day the bank transaction posted", "the posting date", draw=posting_day)
_BILL = Give("bill_id", "name", "the bill the bank payment quotes", pattern=BILL_RX)
_PAYEE = Give("company", "merchant_name", "the payee of the bank transaction", party="vendor")

BANK_TRANSACTION = Relay(
    service=SERVICE, name="bank transaction", key="bank_transaction_id", gives=(_BILL, _AMOUNT, _PAYEE, _DAY),
    plant=lambda ctx, key, outs, stale: _plant(ctx, key, outs, stale, "id"), find=_get,
    where="Each bank transaction in the bank feed shows the payee, the amount, the posting date and, for a bill "
          "payment, the bill number in its description.",
    alloc=lambda ctx: next_transaction_id(ctx.state(SERVICE)), entry=lambda key: f"bank transaction {key}")

VENDOR_PAYMENT = Relay(
    service=SERVICE, name="vendor's unreconciled bank payment", key="company", key_party="vendor",
    gives=(Give("bank_transaction_id", "id", "the vendor's unreconciled bank payment"), _BILL, _AMOUNT, _DAY),
    plant=lambda ctx, key, outs, stale: _plant(ctx, key, outs, stale, "company"),
    find=lambda reader, key: _search(reader, merchant_name=key, direction="out"),
    where="The bank feed names the payee of each payment; the ledger marks each one reconciled or not.",
    truth="A bank transaction already reconciled is settled; only the vendor's unreconciled payment counts.")

BILL_PAYMENT = Relay(
    service=SERVICE, name="bank payment of the bill", key="bill_id",
    gives=(Give("bank_transaction_id", "id", "the bank payment of the bill"), _AMOUNT, _PAYEE, _DAY),
    plant=lambda ctx, key, outs, stale: _plant(ctx, key, outs, stale, "bill"),
    find=lambda reader, key: _search(reader, name_contains=key, direction="out"),
    where="Bill payments show in the bank feed with the bill number in the transaction description.", alloc=bill_ref)

INVOICE_DEPOSIT = Relay(
    service=SERVICE, name="deposit for the invoice", key="invoice_id",
    gives=(Give("bank_transaction_id", "id", "the deposit that paid the invoice"),
           Give("money", "absolute_amount", "the amount deposited"), _DAY),
    plant=lambda ctx, key, outs, stale: _plant(ctx, key, outs, stale, "invoice"),
    find=lambda reader, key: _search(reader, name_contains=key, direction="in"),
    where="Customer remittances show in the bank feed as deposits quoting the invoice number.", alloc=invoice_ref)


def _scope(tid: str) -> list[OnlyChanged]:
    return [OnlyChanged(id="_", service=SERVICE, collection="transactions", allow_ids=[tid],
                        description="No other bank transaction was changed.")]


def _reconcile(reader: Reader, args: dict[str, Found]) -> Write:
    tid, bill, case = args["txn"].value, args["bill"].value, args["case"].value
    t = _get(reader, tid)
    if t["pending"] or t["reconciled"] or t["direction"] != "out":
        raise SolveError(f"transaction {tid} cannot be reconciled to a bill")
    amount = t["absolute_amount"]
    return Write(
        calls=[call("reconcile_transaction", transaction_id=tid, bill_id=bill, matched_amount=amount, note=case)],
        checks=[RecordMatches(id="_", service=SERVICE, collection="transactions", record_id=tid,
                              where={"match.record_type": "bill", "match.record_id": bill, "match.amount": amount},
                              description="The bank transaction is reconciled to the bill it pays, for its amount.")],
        scope=_scope(tid), tool="reconcile_transaction", where={"transaction_id": tid},
        label="the bank reconciliation")


def _flag(reader: Reader, args: dict[str, Found]) -> Write:
    tid, mention, case = args["txn"].value, args["mention"], args["case"].value
    if _get(reader, tid)["flagged"]:
        raise SolveError(f"transaction {tid} is already flagged")
    return Write(
        calls=[call("flag_transaction", transaction_id=tid, reason=f"{case}: {mention.noun} is {mention.display}.")],
        checks=[RecordMatches(id="_", service=SERVICE, collection="transactions", record_id=tid,
                              where={"flagged": True, "flag_reason": {"$all": [{"$contains": case},
                                                                               {"$contains": mention.display}]}},
                              description="The bank transaction is flagged for review, the reason quoting the "
                                          "case and the value.")],
        scope=_scope(tid), tool="flag_transaction", where={"transaction_id": tid}, label="the review flag")


LINKS = ServiceLinks(
    service=SERVICE, label="the bank feed",
    relays=(BANK_TRANSACTION, VENDOR_PAYMENT, BILL_PAYMENT, INVOICE_DEPOSIT),
    actions=(
        Action(service=SERVICE, name="reconcile",
               needs=(Need("txn", "bank_transaction_id"), Need("bill", "bill_id")), build=_reconcile,
               goal="reconcile the bank transaction to the vendor bill it pays"),
        Action(service=SERVICE, name="flag", needs=(Need("txn", "bank_transaction_id"),), build=_flag,
               goal="flag the bank transaction for review, quoting {mention} in the reason"),
    ),
)

__all__ = ["LINKS", "bill_ref", "invoice_ref", "next_transaction_id", "plant_transaction", "posting_day"]
