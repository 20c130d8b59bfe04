"""Seed data of the treasury service: accounts payable's vendors as Wise recipients, paying their bills.

The state is built on accounts payable's seeded state for the same seed
(:func:`seed_for`): every active vendor has a recipient account (euro-area
IBANs for EUR, a GB IBAN for GBP, an ABA account for USD), and transfers pay
real bills (their reference quotes the bill id and the vendor's invoice
number) in every status: sent, funded and processing, waiting for funds on
a live quote, waiting on a quote that has expired, and cancelled.
"""

from __future__ import annotations

import datetime as dt
import random
from typing import Optional

from faker import Faker

from compoworld_gym.envs.services._accounts_payable_models import AccountsPayableState, Bill
from compoworld_gym.envs.services._blocks import day_start, seed_id
from compoworld_gym.envs.services._treasury_models import Balance, FxQuote, Recipient, Transfer, TreasuryState
from compoworld_gym.envs.services._treasury_rules import price, random_aba, random_iban, seeded_rates
from compoworld_gym.envs.services.accounts_payable import AccountsPayable

#: Hours a quote's rate is guaranteed.
QUOTE_VALID_HOURS = 24
#: (currency, bank country) of the recipient of each active vendor, in vendor order.
_ACCOUNTS = (("EUR", "DE"), ("EUR", "NL"), ("GBP", "GB"), ("EUR", "FR"), ("USD", "US"))
_BICS = {"DE": "DEUTDEFF", "NL": "INGBNL2A", "GB": "BARCGB22", "FR": "BNPAFRPP", "IT": "UNCRITMM", "ES": "CAIXESBB"}
#: Seeded transfers: (status, bill filter, hours from 09:00 today the quote was made).
_TRANSFERS = (("outgoing_payment_sent", "paid", -140), ("processing", "scheduled", -22),
              ("incoming_payment_waiting", "approved", -1), ("incoming_payment_waiting", "approved", -74),
              ("cancelled", "pending", -98))
_FAKER = Faker("en_US")


def seed_for(seed: int, today: dt.date) -> TreasuryState:
    """The seeded state for ``seed``, on accounts payable's seeded state for the same seed."""
    source = AccountsPayable.seed_state(seed, today)
    rng = random.Random(f"treasury:{seed}")
    _FAKER.seed_instance(rng.getrandbits(32))
    return build_state(_FAKER, rng, today, source)


def make_quote(state: TreasuryState, qid: str, source: str, target: str, target_amount: float,
               created: dt.datetime) -> FxQuote:
    """A pending quote (added to ``state``) delivering ``target_amount`` at the state's rates."""
    src, tgt, rate, fee = price(state.rates, source, target, target_amount=target_amount)
    q = FxQuote(id=qid, source_currency=source, target_currency=target, source_amount=src, target_amount=tgt,
                rate=rate, fee=fee, created_time=created,
                expiration_time=created + dt.timedelta(hours=QUOTE_VALID_HOURS), status="pending")
    state.quotes[qid] = q
    return q


def transfer_from(q: FxQuote, tid: str, r: Recipient, reference: str, created: dt.datetime) -> Transfer:
    """A transfer waiting for funds, created from quote ``q`` to recipient ``r`` (``q`` becomes accepted)."""
    q.status = "accepted"
    return Transfer(id=tid, target_account=r.id, target_account_name=r.account_holder_name, quote_id=q.id,
                    status="incoming_payment_waiting", reference=reference,
                    customer_transaction_id=f"ap-{tid.lower()}", source_currency=q.source_currency,
                    source_value=q.source_amount, target_currency=q.target_currency, target_value=q.target_amount,
                    rate=q.rate, fee=q.fee, created=created)


def _recipients(state: TreasuryState, source: AccountsPayableState, rng: random.Random) -> dict[str, Recipient]:
    """One account per active vendor, plus the first vendor's old (deactivated) IBAN account."""
    by_vendor: dict[str, Recipient] = {}
    active = [v for v in source.vendors.values() if v.active]
    for n, v in enumerate(active):
        currency, country = _ACCOUNTS[n % len(_ACCOUNTS)]
        r = Recipient(id=seed_id(state, "RCP"), account_holder_name=v.name, currency=currency,
                      type="aba" if currency == "USD" else "iban", country=country, email=v.email, vendor_id=v.id)
        if currency == "USD":
            r.abartn, r.account_number = random_aba(rng), str(rng.randrange(10**9, 10**11))
        else:
            r.iban, r.bic = random_iban(country, rng), _BICS[country]
        state.recipients[r.id] = by_vendor[v.id] = r
    if active:
        v = active[0]
        old = Recipient(id=seed_id(state, "RCP"), account_holder_name=v.name, currency="EUR", type="iban",
                        country="IT", iban=random_iban("IT", rng), bic=_BICS["IT"], email=v.email, vendor_id=v.id,
                        active=False)
        state.recipients[old.id] = old
    return by_vendor


def _pick_bill(bills: list[Bill], want: str, used: set[str], payees: dict[str, Recipient]) -> Optional[Bill]:
    for b in bills:
        if b.id in used or b.voided or b.vendor_id not in payees:
            continue
        if (want == "paid" and b.payment_status == "paid") or (
                want == "scheduled" and b.payment_status in ("scheduled", "partially_paid")) or (
                want == "approved" and b.approval_status in ("approved", "not_required")
                and b.payment_status == "unpaid") or (want == "pending" and b.approval_status == "pending"):
            return b
    return None


def build_state(fake: Faker, rng: random.Random, today: dt.date, source: AccountsPayableState) -> TreasuryState:
    """Balances, the day's rates, recipients for ``source``'s vendors and transfers paying its bills.

    Args:
        fake: seeded Faker (the factory's signature; every value here comes from ``rng`` and ``source``).
        rng: seeded random stream (rates, balances, bank details).
        today: the task's date.
        source: accounts payable's seeded state for the same seed.
    """
    state = TreasuryState(rates=seeded_rates(rng))
    for cur, (lo, hi) in (("USD", (180000, 260000)), ("EUR", (8000, 20000)), ("GBP", (3000, 7000))):
        b = Balance(id=seed_id(state, "BAL"), currency=cur, amount=float(rng.randrange(lo * 100, hi * 100)) / 100)
        state.balances[cur] = b
    payees = _recipients(state, source, rng)
    start, used = day_start(today), set()
    for status, want, hours in _TRANSFERS:
        bill = _pick_bill(list(source.bills.values()), want, used, payees)
        if bill is None:
            continue
        used.add(bill.id)
        r = payees[bill.vendor_id]
        made = start + dt.timedelta(hours=hours)
        q = make_quote(state, seed_id(state, "FXQ"), "USD", r.currency, bill.open_balance or bill.total, made)
        t = transfer_from(q, seed_id(state, "TRF"), r, f"{bill.id} {bill.invoice_number}", made)
        if status in ("processing", "outgoing_payment_sent"):
            t.status, t.funded_at = status, made + dt.timedelta(minutes=5)
        if status == "outgoing_payment_sent":
            t.sent_at = made + dt.timedelta(hours=20)
        if status == "cancelled":
            t.status, t.cancelled_at = "cancelled", made + dt.timedelta(hours=2)
        state.transfers[t.id] = t
    make_quote(state, seed_id(state, "FXQ"), "USD", "EUR", 5000.0, start - dt.timedelta(hours=1))
    make_quote(state, seed_id(state, "FXQ"), "USD", "GBP", 2500.0, start - dt.timedelta(hours=50))
    return state
