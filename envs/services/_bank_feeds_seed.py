"""Seed data of bank_feeds: the company's three linked accounts and six weeks of transactions.

The feed lines up with the other finance services of the same seed: each
vendor payment accounts payable has processed leaves the checking account
as ``BILL.COM PAYABLES <vendor> <bill id>`` for the payment's amount; the
expense report expenses has reimbursed leaves as a Gusto reimbursement; the
card sales of the shared order book come in as Stripe transfers quoting the
invoice (invoicing's ids and totals). Some of them are already reconciled
to their record; the rest are the reconciliation work. Payroll, rent,
transfers, card spend, a duplicate-looking charge and pending items fill
in the rest.
"""

from __future__ import annotations

import datetime as dt
import random
from typing import NamedTuple, Optional

from compoworld_gym.envs.services._accounts_payable_models import AccountsPayableState
from compoworld_gym.envs.services._bank_feeds_models import (
    BankAccount, BankFeedsState, BankTransaction, Match, category,
)
from compoworld_gym.envs.services._commerce import money, order_book
from compoworld_gym.envs.services._company import STAFF
from compoworld_gym.envs.services.expenses import ExpensesState

#: Days of history in the feed; the opening balances are as of that many days ago.
HISTORY_DAYS = 45
#: The controller who reconciled the seeded matches.
RECONCILER = next(s.email for s in STAFF if s.title == "Finance Controller")


class _Spec(NamedTuple):
    account: str
    days_ago: int
    amount: float
    name: str
    merchant: Optional[str]
    detailed: str
    channel: str = "other"
    pending: bool = False
    match: Optional[tuple[str, str]] = None
    flag: Optional[str] = None


def _accounts(rng: random.Random, today: dt.date) -> dict[str, BankAccount]:
    day = today - dt.timedelta(days=HISTORY_DAYS)
    masks = [f"{rng.randint(1000, 9999)}" for _ in range(3)]
    return {a.account_id: a for a in (
        BankAccount(account_id="BA-0001", name="Business Checking", official_name="Chase Total Business Checking",
                    institution="Chase", mask=masks[0], type="depository", subtype="checking",
                    opening_balance=money(rng.randint(14_000_000, 18_000_000) / 100), opening_date=day),
        BankAccount(account_id="BA-0002", name="Business Savings", official_name="Chase Business Premier Savings",
                    institution="Chase", mask=masks[1], type="depository", subtype="savings",
                    opening_balance=120000.0, opening_date=day),
        BankAccount(account_id="BA-0003", name="Corporate Card", official_name="Chase Ink Business Preferred",
                    institution="Chase", mask=masks[2], type="credit", subtype="credit card",
                    opening_balance=4218.4, opening_date=day, limit=25000.0),
    )}


def _specs(rng: random.Random, today: dt.date, ap: AccountsPayableState, ex: ExpensesState,
           savings_mask: str) -> list[_Spec]:
    """Every seeded transaction, in no particular order."""
    payroll = [money(rng.randint(3_600_000, 4_200_000) / 100) for _ in range(2)]
    out = [
        _Spec("BA-0001", 44, payroll[0], "GUSTO PAYROLL NET PAY", "Gusto", "TRANSFER_OUT_ACCOUNT_TRANSFER"),
        _Spec("BA-0001", 14, payroll[1], "GUSTO PAYROLL NET PAY", "Gusto", "TRANSFER_OUT_ACCOUNT_TRANSFER"),
        _Spec("BA-0001", 40, 12500.0, "BROOKFIELD PROPERTIES RENT", "Brookfield Properties", "RENT_AND_UTILITIES_RENT"),
        _Spec("BA-0001", 31, 15.0, "MONTHLY SERVICE FEE", None, "BANK_FEES_OTHER_BANK_FEES"),
        _Spec("BA-0001", 30, 10000.0, f"ONLINE TRANSFER TO SAV ...{savings_mask}", None,
              "TRANSFER_OUT_ACCOUNT_TRANSFER", "online"),
        _Spec("BA-0002", 30, -10000.0, "ONLINE TRANSFER FROM CHK", None, "TRANSFER_IN_ACCOUNT_TRANSFER", "online"),
        _Spec("BA-0002", 15, -money(rng.randint(1500, 4000) / 100), "INTEREST PAYMENT", None, "INCOME_INTEREST_EARNED"),
        _Spec("BA-0001", 20, 5000.0, "PAYMENT TO CHASE CARD", None, "LOAN_PAYMENTS_CREDIT_CARD_PAYMENT", "online"),
        _Spec("BA-0003", 19, -5000.0, "PAYMENT RECEIVED - THANK YOU", None, "LOAN_PAYMENTS_CREDIT_CARD_PAYMENT"),
        _Spec("BA-0003", 12, money(rng.randint(90000, 160000) / 100), "AMAZON WEB SERVICES", "Amazon Web Services",
              "GENERAL_SERVICES_OTHER_GENERAL_SERVICES", "online"),
        _Spec("BA-0003", 10, 432.0, "GOOGLE *WORKSPACE", "Google Workspace", "GENERAL_SERVICES_OTHER_GENERAL_SERVICES",
              "online"),
        _Spec("BA-0003", 9, 287.5, "SLACK T0123ABCD", "Slack", "GENERAL_SERVICES_OTHER_GENERAL_SERVICES", "online"),
        _Spec("BA-0003", 8, 287.5, "SLACK T0123ABCD", "Slack", "GENERAL_SERVICES_OTHER_GENERAL_SERVICES", "online",
              flag="Possible duplicate of the Slack charge the day before."),
        _Spec("BA-0003", 6, 612.4, "DELTA AIR LINES", "Delta Air Lines", "TRAVEL_FLIGHTS", "online"),
        _Spec("BA-0003", 3, 143.22, "STAPLES 00124", "Staples", "GENERAL_MERCHANDISE_OFFICE_SUPPLIES", "in store"),
        _Spec("BA-0003", 1, 86.75, "OLIVE GARDEN 1187", "Olive Garden", "FOOD_AND_DRINK_RESTAURANT", "in store",
              pending=True),
        _Spec("BA-0001", 1, 342.18, "RIVERTON WATER & POWER", "Riverton Water & Power",
              "GENERAL_SERVICES_OTHER_GENERAL_SERVICES", pending=True),
    ]
    done = [p for p in ap.payments.values() if p.status == "processed" and p.processed_on]
    for k, p in enumerate(sorted(done, key=lambda p: p.id)):
        bill = ap.bills[p.bill_id]
        out.append(_Spec("BA-0001", (today - p.processed_on).days, p.amount,
                         f"BILL.COM PAYABLES {bill.vendor_name.upper()} {bill.id}", bill.vendor_name,
                         "GENERAL_SERVICES_OTHER_GENERAL_SERVICES", "online",
                         match=("bill", bill.id) if k == 0 else None))
    for r in ex.reports.values():
        if r.status == "reimbursed" and r.reimbursed_on:
            out.append(_Spec("BA-0001", (today - r.reimbursed_on).days, r.total,
                             f"GUSTO REIMB {r.payment_reference} {r.id}", "Gusto", "TRANSFER_OUT_ACCOUNT_TRANSFER",
                             match=("expense", r.id)))
    paid = [(f"INV-{i:04d}", b) for i, b in enumerate(order_book(today), start=1)
            if b.status not in ("pending", "cancelled", "refunded")][-4:]
    for k, (iid, b) in enumerate(paid):
        out.append(_Spec("BA-0001", max(0, (today - b.placed_on).days - 2), -b.total, f"STRIPE TRANSFER {iid}",
                         "Stripe", "TRANSFER_IN_DEPOSIT", match=("invoice", iid) if k < 2 else None))
    return out


def build_state(rng: random.Random, today: dt.date, ap: AccountsPayableState, ex: ExpensesState) -> BankFeedsState:
    """The seeded feed on accounts payable's and expenses' seeded states of the same seed."""
    state = BankFeedsState(accounts=_accounts(rng, today))
    specs = sorted(_specs(rng, today, ap, ex, state.accounts["BA-0002"].mask),
                   key=lambda s: (-s.days_ago, s.account, s.name, s.amount))
    for n, s in enumerate(specs, start=1):
        day = today - dt.timedelta(days=s.days_ago)
        tid = f"BTX-{n:04d}"
        match = None
        if s.match is not None:
            match = Match(record_type=s.match[0], record_id=s.match[1], amount=abs(s.amount),
                          reconciled_on=min(today, day + dt.timedelta(days=1)), reconciled_by=RECONCILER)
        state.transactions[tid] = BankTransaction(
            transaction_id=tid, account_id=s.account, amount=s.amount, date=day,
            authorized_date=day - dt.timedelta(days=1) if s.channel == "in store" else day, name=s.name,
            merchant_name=s.merchant, payment_channel=s.channel, pending=s.pending,
            personal_finance_category=category(s.detailed), match=match, flagged=s.flag is not None,
            flag_reason=s.flag)
    state.counters.update(BTX=len(specs) + 1, BA=len(state.accounts) + 1)
    return state
