"""Bank feeds: the company's linked bank accounts, their transactions, and reconciliation to the books.

No bank-feed server is in ``compoworld_gym/data/mcp_servers.jsonl``
(``spec_source = None``); the interface follows the Plaid API:
``/accounts/get`` and ``/accounts/balance/get`` (accounts with ``mask``,
``type`` / ``subtype`` and ``balances``), ``/transactions/sync`` (cursor,
``added`` / ``modified`` / ``removed``, ``next_cursor``, ``has_more``) and
``/transactions/get`` (date range, ``count`` / ``offset``,
``total_transactions``), with Plaid's transaction fields (``amount`` positive
for money out, ``merchant_name``, ``pending``,
``personal_finance_category``). On top sits a reconciliation ledger as
accounting products keep one over a bank feed: a transaction is matched to
a bill (accounts payable), an invoice (invoicing) or an expense report
(expenses), re-categorised, or flagged for review. Rules: a pending
transaction cannot be reconciled; a transaction reconciles once; the
matched record's amount must equal the transaction's, and its direction fit
(a bill or expense payout is money out, an invoice payment money in);
balances are computed from the transactions, never stored. Left out:
Plaid Link and items, auth/identity, webhooks, investments and liabilities.
"""

from __future__ import annotations

import datetime as dt
import random
from typing import Literal, Optional

from faker import Faker
from pydantic import Field

from compoworld_gym.entities import CompanyName, Date, Email, Id, Money
from compoworld_gym.envs.services._bank_feeds_models import (
    MONEY_OUT, RECORD_PREFIX, BankAccount, BankFeedsState, BankTransaction, DetailedCategory, Match, balances,
    category,
)
from compoworld_gym.envs.services._bank_feeds_seed import build_state
from compoworld_gym.envs.services._blocks import select
from compoworld_gym.envs.services._commerce import MONEY_MAX, money
from compoworld_gym.envs.services._company import OPS_EMAIL
from compoworld_gym.envs.services.accounts_payable import AccountsPayable
from compoworld_gym.envs.services.expenses import Expenses
from compoworld_gym.errors import Conflict, InvalidArgument, Unprocessable
from compoworld_gym.service import Service, tool

_CURSOR = "cursor-"


class BankFeeds(Service):
    """Plaid-style bank feed with a reconciliation ledger: accounts, balances, transactions, matches, flags."""

    name = "bank_feeds"
    description = ("Bank feeds (Plaid-style): linked bank accounts and balances, transactions (sync, by date, "
                   "search), reconciliation to bills, invoices and expenses, categories and review flags.")
    domain = "finance"
    spec_source = None
    State = BankFeedsState

    # ---------------------------------------------------------------- helpers
    def _txn(self, transaction_id: str) -> BankTransaction:
        return self.lookup(self.state.transactions, transaction_id, "transaction")

    def _account(self, account_id: str) -> BankAccount:
        return self.lookup(self.state.accounts, account_id, "account")

    def _account_view(self, a: BankAccount) -> dict:
        return {**a.model_dump(), "balances": balances(a, list(self.state.transactions.values()))}

    def _view(self, t: BankTransaction) -> dict:
        return {"id": t.transaction_id, **t.model_dump(), "direction": "out" if t.amount > 0 else "in",
                "absolute_amount": abs(t.amount),
                "reconciled": t.match is not None, "account_mask": self.state.accounts[t.account_id].mask}

    def _accounts_of(self, account_ids: Optional[list[str]]) -> list[BankAccount]:
        if account_ids is None:
            return list(self.state.accounts.values())
        return [self._account(a) for a in dict.fromkeys(account_ids)]

    # ------------------------------------------------------------------ reads
    @tool(read_only=True, returns=list[BankAccount])
    def get_accounts(self) -> dict:
        """Plaid /accounts/get: every linked account with its name, mask, type, subtype and balances (USD)."""
        return {"accounts": [self._account_view(a) for a in self.state.accounts.values()],
                "item": {"institution": "Chase", "products": ["transactions"]}}

    @tool(read_only=True, returns=list[BankAccount])
    def get_account_balances(self, account_ids: Optional[list[Id("bank_account")]] = None) -> dict:
        """Plaid /accounts/balance/get: current and available balances, computed from the transactions.

        Checking and savings: current = opening balance less posted amounts;
        available also less pending debits. Card: current = amount owed;
        available = limit less owed and pending.

        Args:
            account_ids: only these accounts (default all).
        """
        return {"accounts": [{"account_id": a.account_id, "name": a.name, "mask": a.mask, "subtype": a.subtype,
                              "balances": balances(a, list(self.state.transactions.values()))}
                             for a in self._accounts_of(account_ids)]}

    @tool(read_only=True, returns=list[BankTransaction])
    def sync_transactions(self, cursor: Optional[str] = None, count: int = Field(default=100, ge=1, le=500),
                          account_id: Optional[Id("bank_account")] = None) -> dict:
        """Plaid /transactions/sync: transactions added since ``cursor``, in feed order, with the next cursor.

        Start without a cursor; pass next_cursor back until has_more is false.

        Args:
            cursor: next_cursor of the previous call; none for the whole history.
            count: most transactions per call (1-500).
            account_id: only this account's transactions.
        """
        if account_id is not None:
            self._account(account_id)
        if cursor and not (cursor.startswith(_CURSOR) and cursor[len(_CURSOR):].isdigit()):
            raise InvalidArgument(f"cursor {cursor!r} is invalid; pass the next_cursor of the previous call.")
        start = int(cursor[len(_CURSOR):]) if cursor else 0
        rows = [t for t in self.state.transactions.values() if account_id is None or t.account_id == account_id]
        page = rows[start:start + count]
        return {"added": [self._view(t) for t in page], "modified": [], "removed": [],
                "next_cursor": f"{_CURSOR}{start + len(page)}", "has_more": start + len(page) < len(rows)}

    @tool(read_only=True, returns=list[BankTransaction])
    def get_transactions(self, start_date: Date, end_date: Date,
                         account_ids: Optional[list[Id("bank_account")]] = None,
                         count: int = Field(default=100, ge=1, le=500), offset: int = Field(default=0, ge=0)) -> dict:
        """Plaid /transactions/get: transactions dated in [start_date, end_date], newest first, paged.

        Args:
            start_date: first day (YYYY-MM-DD).
            end_date: last day (YYYY-MM-DD), not before start_date.
            account_ids: only these accounts (default all).
            count: page size (1-500).
            offset: how many to skip.
        """
        if end_date < start_date:
            raise InvalidArgument(f"end_date {end_date} is before start_date {start_date}.")
        ids = {a.account_id for a in self._accounts_of(account_ids)}
        rows = [t for t in reversed(self.state.transactions.values())
                if t.account_id in ids and start_date <= t.date <= end_date]
        rows.sort(key=lambda t: t.date, reverse=True)
        return {"accounts": [self._account_view(self.state.accounts[a]) for a in sorted(ids)],
                "transactions": [self._view(t) for t in rows[offset:offset + count]], "total_transactions": len(rows)}

    @tool(read_only=True, returns=list[BankTransaction])
    def search_transactions(self, account_id: Optional[Id("bank_account")] = None,
                            merchant_name: Optional[CompanyName] = None, name_contains: Optional[str] = None,
                            amount: Optional[Money] = Field(default=None, ge=0, le=MONEY_MAX),
                            direction: Optional[Literal["out", "in"]] = None, pending: Optional[bool] = None,
                            reconciled: Optional[bool] = None, flagged: Optional[bool] = None,
                            limit: int = Field(default=50, ge=1, le=200)) -> list[dict]:
        """Search the feed (oldest first) by account, merchant, description text, amount, direction and ledger state.

        Args:
            account_id: only this account.
            merchant_name: the counterparty (case-insensitive, exact).
            name_contains: text in the bank's description (case-insensitive), e.g. a bill or invoice number.
            amount: the amount in USD, either direction (Plaid sign ignored).
            direction: out (money out, positive amount) or in (money in, negative amount).
            pending: only pending (true) or posted (false) transactions.
            reconciled: only reconciled (true) or unreconciled (false) transactions.
            flagged: only flagged (true) or unflagged (false) transactions.
            limit: maximum number of transactions (1-200).
        """
        m, q = (merchant_name or "").lower(), (name_contains or "").lower()
        rows = select(self.state.transactions.values(),
                      None if account_id is None else (lambda t: t.account_id == account_id),
                      None if merchant_name is None else (lambda t: (t.merchant_name or "").lower() == m),
                      None if name_contains is None else (lambda t: q in t.name.lower()),
                      None if amount is None else (lambda t: abs(t.amount) == money(amount)),
                      None if direction is None else (lambda t: (t.amount > 0) == (direction == "out")),
                      None if pending is None else (lambda t: t.pending == pending),
                      None if reconciled is None else (lambda t: (t.match is not None) == reconciled),
                      None if flagged is None else (lambda t: t.flagged == flagged), limit=limit)
        return [self._view(t) for t in rows]

    @tool(read_only=True, returns=BankTransaction)
    def get_transaction(self, transaction_id: Id("bank_transaction")) -> dict:
        """Get one transaction with its category, reconciliation and flag.

        Args:
            transaction_id: e.g. BTX-0012.
        """
        return self._view(self._txn(transaction_id))

    @tool(read_only=True)
    def get_reconciliation_summary(self, account_id: Id("bank_account")) -> dict:
        """Reconciliation status of one account: reconciled and unreconciled posted transactions, pending, flagged.

        Args:
            account_id: the account.
        """
        a = self._account(account_id)
        mine = [t for t in self.state.transactions.values() if t.account_id == a.account_id]
        posted = [t for t in mine if not t.pending]
        open_ = [t for t in posted if t.match is None]
        return {"account_id": a.account_id, "balances": balances(a, mine),
                "reconciled_count": len(posted) - len(open_),
                "unreconciled_count": len(open_),
                "unreconciled_out": money(sum(t.amount for t in open_ if t.amount > 0)),
                "unreconciled_in": money(-sum(t.amount for t in open_ if t.amount < 0)),
                "unreconciled_ids": [t.transaction_id for t in open_],
                "pending_count": len(mine) - len(posted), "flagged_count": sum(t.flagged for t in mine)}

    # ----------------------------------------------------------------- writes
    @tool(read_only=False, returns=BankTransaction)
    def reconcile_transaction(self, transaction_id: Id("bank_transaction"),
                              matched_amount: Money = Field(ge=0.01, le=MONEY_MAX),
                              bill_id: Optional[Id("bill")] = None, invoice_id: Optional[Id("invoice")] = None,
                              expense_id: Optional[Id("expense")] = None,
                              note: str = Field(default="", max_length=300),
                              reconciled_by: Email = OPS_EMAIL) -> dict:
        """Reconcile a posted transaction to exactly one record: a bill, an invoice or an expense report.

        The matched record's amount must equal the transaction's amount (422),
        a bill or expense payout must be money out and an invoice payment money
        in (422); a pending transaction cannot be reconciled (422) and a
        reconciled one is not reconciled again (409: unreconcile it first).

        Args:
            transaction_id: the transaction.
            matched_amount: the matched record's amount (USD): the bill payment, invoice payment or report total.
            bill_id: the accounts-payable bill it pays, e.g. BIL-0012.
            invoice_id: the customer invoice it pays, e.g. INV-0007.
            expense_id: the expense report it reimburses, e.g. EXP-0004.
            note: reconciliation note.
            reconciled_by: who reconciles it (default the ops mailbox).
        """
        given = [(k, v) for k, v in (("bill", bill_id), ("invoice", invoice_id), ("expense", expense_id)) if v]
        if len(given) != 1:
            raise InvalidArgument("give exactly one of bill_id, invoice_id or expense_id.")
        kind, rid = given[0]
        if not (rid.startswith(RECORD_PREFIX[kind]) and rid[len(RECORD_PREFIX[kind]):].isdigit()):
            raise Unprocessable(f"{rid!r} is not a {kind} id (they look like {RECORD_PREFIX[kind]}0001).")
        t = self._txn(transaction_id)
        if t.pending:
            raise Unprocessable(f"transaction {t.transaction_id} is still pending; reconcile it once it posts.")
        if t.match is not None:
            raise Conflict(f"transaction {t.transaction_id} is already reconciled to {t.match.record_type} "
                           f"{t.match.record_id}; unreconcile_transaction first to match it again.")
        if (t.amount > 0) != MONEY_OUT[kind]:
            raise Unprocessable(f"transaction {t.transaction_id} is money {'out' if t.amount > 0 else 'in'}; "
                                f"a {kind} is paid by money {'out' if MONEY_OUT[kind] else 'in'}.")
        if money(matched_amount) != abs(t.amount):
            raise Unprocessable(f"the {kind}'s amount {money(matched_amount):.2f} does not equal the transaction's "
                                f"{abs(t.amount):.2f}; only a record of exactly that amount can be matched.")
        t.match = Match(record_type=kind, record_id=rid, amount=abs(t.amount), reconciled_on=self.today,
                        reconciled_by=reconciled_by, note=note)
        return self._view(t)

    @tool(read_only=False, destructive=True, returns=BankTransaction)
    def unreconcile_transaction(self, transaction_id: Id("bank_transaction")) -> dict:
        """Undo a transaction's reconciliation (409 if it is not reconciled).

        Args:
            transaction_id: a reconciled transaction.
        """
        t = self._txn(transaction_id)
        if t.match is None:
            raise Conflict(f"transaction {t.transaction_id} is not reconciled.")
        t.match = None
        return self._view(t)

    @tool(read_only=False, returns=BankTransaction)
    def categorize_transaction(self, transaction_id: Id("bank_transaction"), detailed: DetailedCategory) -> dict:
        """Set a transaction's personal finance category (the primary follows from the detailed one).

        Args:
            transaction_id: the transaction.
            detailed: the Plaid detailed category, e.g. RENT_AND_UTILITIES_RENT.
        """
        t = self._txn(transaction_id)
        t.personal_finance_category, t.category_source = category(detailed), "user"
        return self._view(t)

    @tool(read_only=False, returns=BankTransaction)
    def flag_transaction(self, transaction_id: Id("bank_transaction"),
                         reason: str = Field(min_length=3, max_length=300)) -> dict:
        """Flag a transaction for review with a reason (409 if already flagged).

        Args:
            transaction_id: the transaction.
            reason: why it needs review.
        """
        t = self._txn(transaction_id)
        if t.flagged:
            raise Conflict(f"transaction {t.transaction_id} is already flagged: {t.flag_reason}")
        t.flagged, t.flag_reason = True, reason
        return self._view(t)

    @tool(read_only=False, returns=BankTransaction)
    def clear_flag(self, transaction_id: Id("bank_transaction")) -> dict:
        """Clear a transaction's review flag (409 if it is not flagged).

        Args:
            transaction_id: a flagged transaction.
        """
        t = self._txn(transaction_id)
        if not t.flagged:
            raise Conflict(f"transaction {t.transaction_id} is not flagged.")
        t.flagged, t.flag_reason = False, None
        return self._view(t)

    # ------------------------------------------------------------------ seeds
    @classmethod
    def seed_state(cls, seed: int, today: dt.date) -> BankFeedsState:
        """The feed on accounts payable's and expenses' seeded states for the same seed (ids and amounts match)."""
        rng = random.Random(f"{cls.name}:{seed}")
        return build_state(rng, today, AccountsPayable.seed_state(seed, today), Expenses.seed_state(seed, today))

    @classmethod
    def build_seed_state(cls, fake: Faker, rng: random.Random, today: dt.date) -> BankFeedsState:
        """A feed on accounts payable and expenses states drawn from the same stream (used without a seed number)."""
        return build_state(rng, today, AccountsPayable.build_seed_state(fake, rng, today),
                           Expenses.build_seed_state(fake, rng, today))


__all__ = ["BankFeeds"]
