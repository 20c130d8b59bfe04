"""Ledger: a double-entry general ledger with a chart of accounts and period close.

No accounting server is in ``compoworld_gym/data/mcp_servers.jsonl``; the interface
is designed the way QuickBooks Online's Account and JournalEntry APIs look:
a chart of accounts (asset, liability, equity, revenue, expense), journal
entries whose debits must equal their credits (422 otherwise), running
account balances, a trial balance, and monthly periods that can be closed
so nothing more is posted into them (409).
"""

from __future__ import annotations

import datetime as dt
import random
from typing import Literal, Optional

from faker import Faker
from pydantic import Field

from compoworld_gym.entities import Date, Id, Money
from compoworld_gym.envs.services._commerce import MONEY_MAX, money, order_book
from compoworld_gym.errors import Conflict, InvalidArgument, Unprocessable
from compoworld_gym.service import Record, Service, ServiceState, tool

AccountType = Literal["asset", "liability", "equity", "revenue", "expense"]
_DEBIT_NORMAL = ("asset", "expense")
_PERIOD = r"^\d{4}-(0[1-9]|1[0-2])$"
CHART: tuple[tuple[str, str, str], ...] = (
    ("1000", "Cash", "asset"), ("1100", "Accounts Receivable", "asset"), ("1200", "Inventory", "asset"),
    ("2000", "Accounts Payable", "liability"), ("2100", "Sales Tax Payable", "liability"),
    ("2200", "Employee Reimbursements Payable", "liability"), ("3000", "Owner's Equity", "equity"),
    ("4000", "Sales Revenue", "revenue"), ("4100", "Shipping Revenue", "revenue"),
    ("4900", "Sales Refunds", "revenue"), ("5000", "Cost of Goods Sold", "expense"), ("6000", "Rent", "expense"),
    ("6100", "Salaries", "expense"), ("6200", "Travel", "expense"), ("6300", "Software", "expense"),
    ("6400", "Office Supplies", "expense"), ("6500", "Shipping Expense", "expense"),
)


class Account(Record):
    """An account of the chart of accounts."""

    id: Id("account") = Field(description="Account number, e.g. 1000.")
    name: str = Field(description="Account name.")
    type: AccountType = Field(description="Account type; asset/expense are debit-normal, the rest credit-normal.")
    balance: Money = Field(default=0.0, description="Balance in the account's normal direction (USD).")
    active: bool = Field(default=True, description="Inactive accounts accept no postings.")


class JournalLine(Record):
    """One debit or credit of a journal entry (exactly one of them is non-zero)."""

    account_id: Id("account") = Field(description="Account posted to.")
    debit: Money = Field(default=0.0, ge=0, le=MONEY_MAX, description="Debit amount (USD).")
    credit: Money = Field(default=0.0, ge=0, le=MONEY_MAX, description="Credit amount (USD).")
    description: str = Field(default="", description="Line memo.")


class JournalEntry(Record):
    """A balanced journal entry."""

    id: Id("transaction") = Field(description="Entry id, e.g. JE-0001.")
    entry_date: Date = Field(description="Accounting date.")
    memo: str = Field(description="What the entry records.")
    reference: str = Field(default="", description="Source document id, e.g. INV-0003, ORD-0002 or EXP-0004.")
    lines: list[JournalLine] = Field(description="Debit and credit lines.")
    total: Money = Field(description="Sum of debits (= sum of credits).")
    status: Literal["posted", "voided"] = Field(description="posted, or voided (reversed out of balances).")
    void_reason: Optional[str] = Field(default=None, description="Why it was voided.")


class LedgerState(ServiceState):
    """Chart of accounts, journal and closed periods."""

    accounts: dict[str, Account] = Field(default_factory=dict, description="Accounts by number.")
    entries: dict[str, JournalEntry] = Field(default_factory=dict, description="Journal entries by id.")
    closed_periods: list[str] = Field(default_factory=list, description="Closed months, 'YYYY-MM', sorted.")


def _signed(acc_type: str, line: JournalLine) -> float:
    delta = line.debit - line.credit
    return delta if acc_type in _DEBIT_NORMAL else -delta


class Ledger(Service):
    """Double-entry general ledger: accounts, balanced journal entries, balances, period close."""

    name = "ledger"
    description = ("General ledger: chart of accounts, balanced journal entries, account balances, "
                   "trial balance, period close.")
    domain = "finance"
    spec_source = None
    State = LedgerState

    def _post(self, entry: JournalEntry, sign: int) -> None:
        for ln in entry.lines:
            acc = self.state.accounts[ln.account_id]
            acc.balance = money(acc.balance + sign * _signed(acc.type, ln))

    def _require_open(self, day: dt.date) -> None:
        period = day.strftime("%Y-%m")
        if period in self.state.closed_periods:
            raise Conflict(f"period {period} is closed; post with a date in an open period or reopen_period first.")

    # ------------------------------------------------------------------ reads
    @tool(read_only=True, returns=list[Account])
    def list_accounts(self, type: Optional[AccountType] = None, active: Optional[bool] = None) -> list[dict]:
        """List the chart of accounts with current balances.

        Args:
            type: only accounts of this type.
            active: only active (true) or inactive (false) accounts.
        """
        return [a.model_dump() for a in self.state.accounts.values()
                if (type is None or a.type == type) and (active is None or a.active == active)]

    @tool(read_only=True)
    def get_account_balance(self, account_id: Id("account"), as_of: Optional[Date] = None) -> dict:
        """Balance of one account now, or as of the end of a date (posted entries only).

        Args:
            account_id: the account number, e.g. 1100.
            as_of: compute the balance from entries dated on or before this day (YYYY-MM-DD).
        """
        acc = self.lookup(self.state.accounts, account_id, "account")
        if as_of is None:
            return {"account_id": acc.id, "name": acc.name, "type": acc.type, "balance": acc.balance}
        total = sum(_signed(acc.type, ln) for e in self.state.entries.values()
                    if e.status == "posted" and e.entry_date <= as_of for ln in e.lines if ln.account_id == acc.id)
        return {"account_id": acc.id, "name": acc.name, "type": acc.type, "balance": money(total), "as_of": as_of}

    @tool(read_only=True, returns=JournalEntry)
    def get_journal_entry(self, entry_id: Id("transaction")) -> dict:
        """Get one journal entry with its lines.

        Args:
            entry_id: the entry id, e.g. JE-0001.
        """
        return self.lookup(self.state.entries, entry_id, "journal entry").model_dump()

    @tool(read_only=True, returns=list[JournalEntry])
    def list_journal_entries(self, account_id: Optional[Id("account")] = None, date_from: Optional[Date] = None,
                             date_to: Optional[Date] = None, reference: Optional[str] = None,
                             status: Optional[Literal["posted", "voided"]] = None,
                             limit: int = Field(default=50, ge=1, le=200)) -> list[dict]:
        """List journal entries, newest first, by account, date range, reference or status.

        Args:
            account_id: only entries touching this account.
            date_from: only entries dated on or after this day.
            date_to: only entries dated on or before this day.
            reference: only entries with this source reference, e.g. INV-0003.
            status: posted or voided.
            limit: maximum number of entries (1-200).
        """
        out = [e.model_dump() for e in reversed(self.state.entries.values())
               if (account_id is None or any(ln.account_id == account_id for ln in e.lines))
               and (date_from is None or e.entry_date >= date_from) and (date_to is None or e.entry_date <= date_to)
               and (reference is None or e.reference == reference) and (status is None or e.status == status)]
        return out[:limit]

    @tool(read_only=True)
    def get_trial_balance(self) -> dict:
        """Debit and credit totals over all accounts; they are equal when the books balance."""
        rows, debits, credits = [], 0.0, 0.0
        for a in self.state.accounts.values():
            debit_side = (a.balance >= 0) == (a.type in _DEBIT_NORMAL)
            dr, cr = (abs(a.balance), 0.0) if debit_side else (0.0, abs(a.balance))
            debits += dr
            credits += cr
            rows.append({"account_id": a.id, "name": a.name, "debit": dr, "credit": cr})
        return {"accounts": rows, "total_debits": money(debits), "total_credits": money(credits),
                "balanced": money(debits) == money(credits)}

    @tool(read_only=True)
    def get_income_statement(self, date_from: Date, date_to: Date) -> dict:
        """Revenue, expenses and net income of posted entries dated in [date_from, date_to].

        Args:
            date_from: first day (YYYY-MM-DD).
            date_to: last day (YYYY-MM-DD), not before date_from.
        """
        if date_to < date_from:
            raise Unprocessable("date_to is before date_from.")
        revenue = expenses = 0.0
        for e in self.state.entries.values():
            if e.status != "posted" or not date_from <= e.entry_date <= date_to:
                continue
            for ln in e.lines:
                t = self.state.accounts[ln.account_id].type
                if t == "revenue":
                    revenue += ln.credit - ln.debit
                elif t == "expense":
                    expenses += ln.debit - ln.credit
        return {"date_from": date_from, "date_to": date_to, "revenue": money(revenue), "expenses": money(expenses),
                "net_income": money(revenue - expenses)}

    # ----------------------------------------------------------------- writes
    @tool(read_only=False, returns=Account)
    def create_account(self, account_id: Id("account") = Field(pattern=r"^\d{4}$"),
                       name: str = Field(min_length=1, max_length=100), type: AccountType = Field()) -> dict:
        """Add an account to the chart (409 if the number is taken).

        Args:
            account_id: four-digit account number, e.g. 6600.
            name: account name.
            type: asset, liability, equity, revenue or expense.
        """
        if account_id in self.state.accounts:
            raise Conflict(f"account {account_id} exists ({self.state.accounts[account_id].name}).")
        acc = Account(id=account_id, name=name, type=type)
        self.state.accounts[acc.id] = acc
        return acc.model_dump()

    @tool(read_only=False, returns=JournalEntry)
    def create_journal_entry(self, entry_date: Date, memo: str = Field(min_length=1, max_length=300),
                             lines: list[JournalLine] = Field(min_length=2, max_length=50),
                             reference: str = Field(default="", max_length=40)) -> dict:
        """Post a journal entry. Debits must equal credits (422); the date's period must be open (409).

        Each line has exactly one of debit or credit above zero; amounts are rounded to cents.

        Args:
            entry_date: accounting date (YYYY-MM-DD), not after today.
            memo: what the entry records.
            lines: at least two lines, each {account_id, debit, credit, description}.
            reference: source document id, e.g. INV-0003.
        """
        if entry_date > self.today:
            raise Unprocessable(f"entry_date {entry_date} is in the future (today is {self.today}).")
        self._require_open(entry_date)
        clean = []
        for i, ln in enumerate(lines, start=1):
            acc = self.lookup(self.state.accounts, ln.account_id, "account")
            if not acc.active:
                raise Conflict(f"account {acc.id} is inactive and accepts no postings.")
            dr, cr = money(ln.debit), money(ln.credit)
            if (dr > 0) == (cr > 0):
                raise InvalidArgument(f"line {i}: give exactly one of debit or credit above zero.")
            clean.append(JournalLine(account_id=acc.id, debit=dr, credit=cr, description=ln.description))
        debits, credits = money(sum(x.debit for x in clean)), money(sum(x.credit for x in clean))
        if debits != credits:
            raise Unprocessable(f"entry does not balance: debits {debits:.2f} != credits {credits:.2f}.")
        entry = JournalEntry(id=self.new_id("JE"), entry_date=entry_date, memo=memo, reference=reference,
                             lines=clean, total=debits, status="posted")
        self.state.entries[entry.id] = entry
        self._post(entry, +1)
        return entry.model_dump()

    @tool(read_only=False, destructive=True, returns=JournalEntry)
    def void_journal_entry(self, entry_id: Id("transaction"),
                           reason: str = Field(min_length=1, max_length=300)) -> dict:
        """Void a posted entry, reversing it out of the balances (409 if voided or its period is closed).

        Args:
            entry_id: the entry to void.
            reason: why it is voided.
        """
        e = self.lookup(self.state.entries, entry_id, "journal entry")
        if e.status == "voided":
            raise Conflict(f"journal entry {e.id} is already voided.")
        self._require_open(e.entry_date)
        self._post(e, -1)
        e.status, e.void_reason = "voided", reason
        return e.model_dump()

    @tool(read_only=False)
    def close_period(self, period: str = Field(pattern=_PERIOD)) -> dict:
        """Close a month so no entry can be posted into or voided from it.

        Only months that have ended can be closed (422); closing twice is a 409.

        Args:
            period: the month, 'YYYY-MM'.
        """
        if period in self.state.closed_periods:
            raise Conflict(f"period {period} is already closed.")
        if period >= self.today.strftime("%Y-%m"):
            raise Unprocessable(f"period {period} has not ended yet (today is {self.today}).")
        self.state.closed_periods = sorted([*self.state.closed_periods, period])
        return {"closed_periods": list(self.state.closed_periods)}

    @tool(read_only=False)
    def reopen_period(self, period: str = Field(pattern=_PERIOD)) -> dict:
        """Reopen a closed month.

        Args:
            period: the month, 'YYYY-MM'.
        """
        if period not in self.state.closed_periods:
            raise Conflict(f"period {period} is not closed; closed: {', '.join(self.state.closed_periods) or 'none'}.")
        self.state.closed_periods = [p for p in self.state.closed_periods if p != period]
        return {"closed_periods": list(self.state.closed_periods)}

    # ------------------------------------------------------------------ seeds
    @classmethod
    def build_seed_state(cls, fake: Faker, rng: random.Random, today: dt.date) -> LedgerState:
        state = LedgerState()
        for num, nm, typ in CHART:
            state.accounts[num] = Account(id=num, name=nm, type=typ)
        svc = cls(state, today=today)
        first = today.replace(day=1)
        opening = first - dt.timedelta(days=75)
        svc._seed_entry(opening, "Owner capital contribution", "", [("1000", 50000.0), ("3000", -50000.0)])
        for b in order_book(today):  # the store's sales, invoiced on placement
            if b.status == "cancelled":
                continue
            svc._seed_entry(b.placed_on, f"Sale {b.id}", b.id, [
                ("1100", b.total), ("4000", -b.subtotal), ("4100", -b.shipping_fee)])
            if b.status != "pending":
                svc._seed_entry(b.placed_on, f"Card payment for {b.id}", b.id, [("1000", b.total), ("1100", -b.total)])
            if b.status == "refunded":
                svc._seed_entry(b.placed_on + dt.timedelta(days=2), f"Refund of {b.id}", b.id,
                                [("4900", b.total), ("1000", -b.total)])
        prev = first - dt.timedelta(days=1)
        for month_end in (prev.replace(day=1) - dt.timedelta(days=1), prev):
            rent = float(rng.choice((4200, 4500, 4800)))
            svc._seed_entry(month_end.replace(day=1), "Office rent", "", [("6000", rent), ("1000", -rent)])
            payroll = money(rng.uniform(18000, 22000))
            svc._seed_entry(month_end, "Monthly payroll", "", [("6100", payroll), ("1000", -payroll)])
        svc.state.closed_periods = [(first - dt.timedelta(days=45)).strftime("%Y-%m")]
        return svc.state

    def _seed_entry(self, day: dt.date, memo: str, ref: str, legs: list[tuple[str, float]]) -> None:
        lines = [JournalLine(account_id=a, debit=money(v) if v > 0 else 0.0, credit=money(-v) if v < 0 else 0.0)
                 for a, v in legs]
        e = JournalEntry(id=self.new_id("JE"), entry_date=day, memo=memo, reference=ref, lines=lines,
                         total=money(sum(ln.debit for ln in lines)), status="posted")
        self.state.entries[e.id] = e
        self._post(e, +1)
