"""The general ledger in chained tasks: a journal entry, found by its id or by
the order it books, names the amount booked and the order; the refund of
the case's order (or of the case's sale entry) is booked against cash."""

from __future__ import annotations

from typing import Any

from compoworld_gym.checks import OnlyChanged, RecordExists
from compoworld_gym.envs.services._commerce import money
from compoworld_gym.envs.services.ledger import JournalEntry
from compoworld_gym.generation.config import TODAY
from compoworld_gym.generation.context import Ctx, call
from compoworld_gym.generation.hooks.invoicing import order_ref
from compoworld_gym.generation.links import Action, Found, Give, Need, Reader, Relay, ServiceLinks, Write, pick, next_id

ORDER_RX = r"ORD-\d{4,}"
#: Accounts a refund is booked to: debit sales refunds, credit cash.
REFUNDS, CASH = "4900", "1000"
_DEBIT_NORMAL = ("asset", "expense")


def next_entry_id(state: dict[str, Any]) -> str:
    """Take the next free journal entry id from the ledger counters (as the service does)."""
    return next_id(state, "JE")


def plant_entry(state: dict[str, Any], entry_id: str, *, legs: list[tuple[str, float]], **fields: Any) -> str:
    """Add a balanced :class:`JournalEntry` (validated) under ``entry_id``;
    ``legs`` are ``(account, signed amount)``, debits positive. A posted entry
    moves the account balances as the ledger would. Returns the id."""
    lines = [{"account_id": a, "debit": money(v) if v > 0 else 0.0, "credit": money(-v) if v < 0 else 0.0,
              "description": ""} for a, v in legs]
    total = money(sum(ln["debit"] for ln in lines))
    entry = JournalEntry.model_validate({"status": "posted", "void_reason": None, "reference": "", **fields,
                                         "id": entry_id, "lines": lines, "total": total})
    state["entries"][entry_id] = entry.model_dump(mode="json")
    if entry.status == "posted":
        for a, v in legs:
            acc = state["accounts"][a]
            acc["balance"] = money(acc["balance"] + (v if acc["type"] in _DEBIT_NORMAL else -v))
    return entry_id


def _plant(ctx: Ctx, key: Any, outs: dict[str, Any], stale: bool, by_id: bool) -> str:
    state = ctx.state("ledger")
    eid = key if by_id else next_entry_id(state)
    order = (outs.get("order_id") or order_ref(ctx, "ledger")) if by_id else key
    amount = outs.get("money") or round(ctx.rng.randint(6000, 90000) / 100, 2)
    return plant_entry(
        state, eid, legs=[("1100", amount), ("4000", -amount)], entry_date=ctx.day(-9 if stale else -4),
        memo=f"Sale {order}", reference=order, status="voided" if stale else "posted",
        void_reason="Posted with the wrong amount; re-booked." if stale else None)


def _by_id(reader: Reader, key: Any) -> dict[str, Any]:
    return reader.read("ledger", "get_journal_entry", entry_id=key)


def _by_order(reader: Reader, key: Any) -> dict[str, Any]:
    rows = reader.read("ledger", "list_journal_entries", reference=key, status="posted", limit=200)
    return pick([r for r in rows if r["memo"].startswith("Sale ")], reference=key)


_BOOKED = Give("money", "total", "the amount booked for the sale")

ENTRY = Relay(
    service="ledger", name="journal entry", key="transaction_id",
    gives=(_BOOKED, Give("order_id", "reference", "the order the entry books", pattern=ORDER_RX)),
    plant=lambda ctx, key, outs, stale: _plant(ctx, key, outs, stale, True), find=_by_id,
    where="Each journal entry in the ledger carries the amount booked and, as its reference, the order it books.",
    alloc=lambda ctx: next_entry_id(ctx.state("ledger")), entry=lambda key: f"journal entry {key}")

SALE_ENTRY = Relay(
    service="ledger", name="sale entry", key="order_id",
    gives=(_BOOKED, Give("transaction_id", "id", "the sale's journal entry number")),
    plant=lambda ctx, key, outs, stale: _plant(ctx, key, outs, stale, False), find=_by_order,
    where="The ledger books each sale as a journal entry whose reference is the order.",
    alloc=lambda ctx: order_ref(ctx, "ledger"), entry=lambda key: f"the ledger's sale entry for order {key}",
    truth="A voided journal entry was reversed out of the books; only the posted entry counts.")


def _today(reader: Reader) -> str:
    """The books' date: the mounted ledger's today (the date the agent is told)."""
    svc = getattr(reader, "services", {}).get("ledger")
    return (svc.today if svc is not None else TODAY).isoformat()


def _refund(reader: Reader, args: dict[str, Found]) -> Write:
    if "entry" in args:  # the refund of a booked sale: its amount and order
        sale = _by_id(reader, args["entry"].value)
        order, amount = sale["reference"], sale["total"]
    else:
        order, amount = args["order"].value, args["amount"].value
    mention = args["mention"]
    memo = f"{args['case'].value}: refund for {order}; {mention.noun} is {mention.display}."
    near = {"$gte": round(amount - 0.01, 2), "$lte": round(amount + 0.01, 2)}
    lines = [{"account_id": REFUNDS, "debit": amount, "credit": 0.0, "description": "Customer refund"},
             {"account_id": CASH, "debit": 0.0, "credit": amount, "description": "Customer refund"}]
    return Write(
        calls=[call("create_journal_entry", entry_date=_today(reader), memo=memo, lines=lines, reference=order)],
        checks=[RecordExists(id="_", service="ledger", collection="entries",
                             where={"reference": order, "status": "posted", "memo": {"$contains": mention.display},
                                    "lines": {"$any": {"account_id": REFUNDS, "debit": near}}},
                             description="The refund is booked for the right order and amount.")],
        scope=[OnlyChanged(id="_", service="ledger", collection="entries", allow_new={"reference": order},
                           description="No other journal entry was posted or changed."),
               OnlyChanged(id="_", service="ledger", collection="accounts", allow_ids=[CASH, REFUNDS],
                           description="No other account moved.")],
        tool="create_journal_entry", where={"reference": order}, label="the refund booking")


LINKS = ServiceLinks(
    service="ledger", label="the ledger",
    relays=(ENTRY, SALE_ENTRY),
    actions=(Action(service="ledger", name="book_refund", needs=(Need("order", "order_id"), Need("amount", "money")),
                    build=_refund, goal="book a refund of {amount} for the order in the ledger, quoting {mention}"),
             Action(service="ledger", name="refund_sale", needs=(Need("entry", "transaction_id"),), build=_refund,
                    goal="book the refund of the sale in the ledger, quoting {mention}")),
)

__all__ = ["LINKS", "next_entry_id", "plant_entry"]
