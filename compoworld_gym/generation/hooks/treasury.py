"""Treasury in chained tasks: a Wise transfer names the vendor paid, the
amount delivered in the vendor's currency and (in its reference) the vendor
bill it pays; a bill, or a vendor, leads to its transfer drafted on a quote
and waiting for funds. Writes: fund the case's transfer from the USD
balance, or cancel it."""

from __future__ import annotations

import datetime as dt
from typing import Any

from compoworld_gym.checks import OnlyChanged, RecordMatches
from compoworld_gym.envs.services._treasury_models import Recipient, TreasuryState
from compoworld_gym.envs.services._treasury_rules import random_iban
from compoworld_gym.envs.services._treasury_seed import make_quote, transfer_from
from compoworld_gym.generation.context import Ctx, call
from compoworld_gym.generation.links import (
    Action, Found, Give, Need, Reader, Relay, ServiceLinks, SolveError, Write, latest, next_id,
)

SERVICE = "treasury"
BILL_RX = r"BIL-\d{4,}"
_LIVE = ("incoming_payment_waiting", "processing", "outgoing_payment_sent")


def next_transfer_id(state: dict[str, Any]) -> str:
    """Take the next free transfer id from the treasury counters (as ``new_id("TRF")``)."""
    return next_id(state, "TRF")


def bill_key(ctx: Ctx) -> str:
    """A vendor bill id: accounts payable's next one when it is mounted, else one from treasury's
    own ``BIL`` counter (past the seeded bills)."""
    if "accounts_payable" in ctx.states:
        return next_id(ctx.state("accounts_payable"), "BIL")
    return next_id(ctx.state(SERVICE), "BIL", start=40)


def _recipient(ctx: Ctx, state: TreasuryState, vendor: str) -> Recipient:
    """The vendor's active EUR account, added (a valid German IBAN) if it has none."""
    for r in state.recipients.values():
        if r.active and r.currency == "EUR" and r.account_holder_name.lower() == vendor.lower():
            return r
    r = Recipient(id=next_id(ctx.state(SERVICE), "RCP"), account_holder_name=vendor, currency="EUR", type="iban",
                  country="DE", iban=random_iban("DE", ctx.rng), bic="DEUTDEFF")
    state.recipients[r.id] = r
    return r


def plant_transfer(ctx: Ctx, tid: str, *, vendor: str, amount: float, bill: str, cancelled: bool = False) -> str:
    """Add a transfer of ``amount`` EUR to ``vendor``'s account (created if new) for ``bill``, on a
    USD quote made this morning and guaranteed until tomorrow, waiting for funds (or ``cancelled``
    two days ago); returns its id."""
    raw = ctx.state(SERVICE)
    state = TreasuryState.model_validate(raw)
    r = _recipient(ctx, state, vendor)
    made = dt.datetime.combine(ctx.today, dt.time(8, 0)) - dt.timedelta(days=2 if cancelled else 0)
    q = make_quote(state, next_id(raw, "FXQ"), "USD", "EUR", amount, made)
    t = transfer_from(q, tid, r, f"{bill} {vendor}"[:100], made)
    if cancelled:
        t.status, t.cancelled_at = "cancelled", made + dt.timedelta(hours=1)
    state.transfers[tid] = t
    dumped = state.model_dump(mode="json")
    for coll in ("recipients", "quotes", "transfers"):
        raw[coll] = dumped[coll]
    return tid


def _plant(ctx: Ctx, key: Any, outs: dict[str, Any], stale: bool, by: str) -> str:
    state = ctx.state(SERVICE)
    tid = key if by == "id" else next_transfer_id(state)
    return plant_transfer(ctx, tid, vendor=key if by == "company" else outs.get("company") or ctx.fresh("company"),
                          amount=outs.get("money") or ctx.fresh("money"),
                          bill=key if by == "bill" else outs.get("bill_id") or bill_key(ctx), cancelled=stale)


def _live(reader: Reader, **where: Any) -> dict[str, Any]:
    rows = reader.read(SERVICE, "list_transfers", limit=200, **where)
    live = [r for r in rows if r["status"] in _LIVE]
    return reader.read(SERVICE, "get_transfer", transfer_id=latest(live, "created")["id"])


_VENDOR = Give("company", "target_account_name", "the vendor the transfer pays", party="vendor")
_AMOUNT = Give("money", "target_value", "the amount the transfer delivers (EUR)")
_BILL = Give("bill_id", "reference", "the vendor bill the transfer pays", pattern=BILL_RX)
_TRUTH = "A cancelled transfer pays nothing; only the live transfer counts."

TRANSFER = Relay(
    service=SERVICE, name="Wise transfer", key="transfer_id",
    gives=(_VENDOR, _AMOUNT, _BILL),
    plant=lambda ctx, key, outs, stale: _plant(ctx, key, outs, stale, "id"),
    find=lambda reader, key: reader.read(SERVICE, "get_transfer", transfer_id=key),
    where="Each Wise transfer names the vendor it pays and the amount in the vendor's currency; its reference "
          "quotes the vendor bill.",
    alloc=lambda ctx: next_transfer_id(ctx.state(SERVICE)), entry=lambda key: f"Wise transfer {key}")

BILL_TRANSFER = Relay(
    service=SERVICE, name="bill's Wise transfer", key="bill_id",
    gives=(Give("transfer_id", "id", "the transfer paying the bill"), _AMOUNT, _VENDOR),
    plant=lambda ctx, key, outs, stale: _plant(ctx, key, outs, stale, "bill"),
    find=lambda reader, key: _live(reader, reference=key), alloc=bill_key,
    where="A European vendor's bill is paid by a Wise transfer in the vendor's currency whose reference quotes "
          "the bill id.", truth=_TRUTH)

VENDOR_TRANSFER = Relay(
    service=SERVICE, name="vendor's Wise transfer", key="company", key_party="vendor",
    gives=(Give("transfer_id", "id", "the vendor's live transfer"), _AMOUNT, _BILL),
    plant=lambda ctx, key, outs, stale: _plant(ctx, key, outs, stale, "company"),
    find=lambda reader, key: _live(reader, account_holder_name=key),
    where="Wise transfers are made to the vendor's recipient account, under the vendor's company name.",
    truth=_TRUTH)


def _waiting(reader: Reader, tid: str) -> dict[str, Any]:
    t = reader.read(SERVICE, "get_transfer", transfer_id=tid)
    if t["status"] != "incoming_payment_waiting" or t["quote_expired"]:
        raise SolveError(f"transfer {tid} is not waiting for funds on a live quote")
    return t


def _fund(reader: Reader, args: dict[str, Found]) -> Write:
    tid = args["transfer"].value
    t = _waiting(reader, tid)
    return Write(
        calls=[call("fund_transfer", transfer_id=tid)],
        checks=[RecordMatches(id="_", service=SERVICE, collection="transfers", record_id=tid,
                              where={"status": "processing"}, description="The transfer is funded from the balance.")],
        scope=[OnlyChanged(id="_", service=SERVICE, collection="transfers", allow_ids=[tid],
                           description="No other transfer was funded, created or changed."),
               OnlyChanged(id="_", service=SERVICE, collection="balances", allow_ids=[t["source_currency"]],
                           description="Only the transfer's source balance moved.")],
        tool="fund_transfer", where={"transfer_id": tid}, label="the transfer funding", moves_money=True)


def _cancel(reader: Reader, args: dict[str, Found]) -> Write:
    tid = args["transfer"].value
    _waiting(reader, tid)
    return Write(
        calls=[call("cancel_transfer", transfer_id=tid)],
        checks=[RecordMatches(id="_", service=SERVICE, collection="transfers", record_id=tid,
                              where={"status": "cancelled"}, description="The transfer is cancelled.")],
        scope=[OnlyChanged(id="_", service=SERVICE, collection="transfers", allow_ids=[tid],
                           description="No other transfer was cancelled or changed."),
               OnlyChanged(id="_", service=SERVICE, collection="balances",
                           description="No balance moved.")],
        tool="cancel_transfer", where={"transfer_id": tid}, label="the cancelled transfer")


LINKS = ServiceLinks(
    service=SERVICE, label="the Wise treasury account",
    relays=(TRANSFER, BILL_TRANSFER, VENDOR_TRANSFER),
    actions=(
        Action(service=SERVICE, name="fund", needs=(Need("transfer", "transfer_id"),), build=_fund,
               goal="fund the vendor's Wise transfer from the USD balance so the payment goes out"),
        Action(service=SERVICE, name="cancel", needs=(Need("transfer", "transfer_id"),), build=_cancel,
               goal="cancel the vendor's Wise transfer before any money leaves"),
    ),
)

__all__ = ["LINKS", "bill_key", "next_transfer_id", "plant_transfer"]
