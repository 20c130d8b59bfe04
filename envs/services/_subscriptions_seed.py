"""Seed data of the subscriptions service: the shared B2B accounts, subscribed.

The customers are the fixed accounts of :mod:`._accounts` (same ``CUS-`` ids,
companies and contact emails as contracts, customer feedback and marketing);
each holds one live subscription, in every Chargebee status, and one account
also a cancelled one it replaced. Negotiated discounts vary with the seed.
"""

from __future__ import annotations

import datetime as dt
import random
from typing import Optional

from compoworld_gym.envs.services._accounts import ACCOUNTS
from compoworld_gym.envs.services._blocks import seed_id
from compoworld_gym.envs.services._commerce import money
from compoworld_gym.envs.services._subscriptions_models import (
    Comment, CreditNote, CreditNoteLine, Customer, ItemPrice, Subscription, SubscriptionItem, SubscriptionsState,
    UnbilledCharge,
)
from compoworld_gym.envs.services._subscriptions_rules import catalog, mrr, term_end

#: Per account (in ACCOUNTS order): status, item price, days since the term (or trial, pause) began.
_SEED: tuple[tuple[str, str, int], ...] = (
    ("active", "business-USD-yearly", 200),
    ("active", "growth-USD-monthly", 12),
    ("non_renewing", "enterprise-USD-monthly", 20),
    ("active", "enterprise-USD-yearly", 90),
    ("in_trial", "growth-USD-monthly", 5),
    ("paused", "starter-USD-monthly", 8),
    ("active", "growth-legacy-USD-monthly", 3),
    ("future", "business-USD-monthly", -6),
    ("active", "business-USD-monthly", 25),
    ("active", "starter-USD-monthly", 17),
)


def split_name(name: str) -> tuple[str, str]:
    """``(first_name, last_name)`` of a full name: the last word is the last name."""
    head, _, last = name.rpartition(" ")
    return (head or last), (last if head else "")


def build_subscription(sid: str, customer_id: str, ip: ItemPrice, status: str, since: dt.date, today: dt.date,
                       unit_price: Optional[float] = None, created: Optional[dt.date] = None) -> Subscription:
    """A subscription of ``customer_id`` to ``ip`` in ``status``, its term (trial, pause) begun on ``since``.

    ``unit_price`` overrides the list price (a negotiated price). Dates follow
    the status: a future subscription starts on ``since``; a trial ends after
    the plan's trial period; a paused one resumes 30 days after ``since``.
    """
    price = money(ip.price if unit_price is None else unit_price)
    sub = Subscription(id=sid, customer_id=customer_id, status=status, billing_period_unit=ip.period_unit,
                       subscription_items=[SubscriptionItem(item_price_id=ip.id, quantity=1, unit_price=price,
                                                            amount=price)],
                       start_date=since, created_at=since)
    if status == "in_trial":
        sub.trial_end = since + dt.timedelta(days=ip.trial_period or 14)
        sub.next_billing_at = sub.trial_end
    elif status == "future":
        sub.next_billing_at = since
    elif status == "paused":
        sub.start_date = since - dt.timedelta(days=75)
        sub.pause_date, sub.resume_date = since, since + dt.timedelta(days=30)
    else:
        sub.current_term_start, sub.current_term_end = since, term_end(since, ip.period_unit, ip.period)
        sub.next_billing_at = sub.current_term_end if status == "active" else None
    sub.created_at = created or min(sub.start_date, today)
    sub.mrr = mrr(sub)
    return sub


def build_state(rng: random.Random, today: dt.date) -> SubscriptionsState:
    """The seeded state: the catalog, the ten accounts and their subscriptions, credit notes,
    unbilled charges and comments."""
    state = SubscriptionsState(item_prices=catalog())
    for n, acct in enumerate(ACCOUNTS):
        first, last = split_name(acct.contact_name)
        state.customers[acct.id] = Customer(id=acct.id, first_name=first, last_name=last, email=acct.contact_email,
                                            company=acct.company, auto_collection="off" if n % 4 == 3 else "on",
                                            net_term_days=30 if n % 4 == 3 else 0,
                                            created_at=today - dt.timedelta(days=420 - 25 * n))
    # Oceanic Airlines moved off an annual Starter plan last month; the cancelled one is history.
    old = build_subscription(seed_id(state, "SUB"), ACCOUNTS[8].id, state.item_prices["starter-USD-yearly"],
                             "cancelled", today - dt.timedelta(days=300), today)
    old.cancelled_at, old.cancel_reason_code = today - dt.timedelta(days=26), "missing_features"
    old.current_term_end, old.next_billing_at = old.cancelled_at, None
    state.subscriptions[old.id] = old
    for acct, (status, ip_id, days) in zip(ACCOUNTS, _SEED):
        ip = state.item_prices[ip_id]
        discount = rng.choice((0, 0, 10, 15)) if ip.tier >= 3 else 0
        sub = build_subscription(seed_id(state, "SUB"), acct.id, ip, status, today - dt.timedelta(days=days), today,
                                 unit_price=ip.price * (100 - discount) / 100)
        if status == "non_renewing":
            sub.cancelled_at, sub.cancel_reason_code = sub.current_term_end, "too_expensive"
        state.subscriptions[sub.id] = sub
    subs = list(state.subscriptions.values())
    for sub, reason, status, amount in ((subs[0], "subscription_cancellation", "refunded", 0.0),
                                        (subs[2], "service_unsatisfactory", "refund_due", 49.0),
                                        (subs[1], "other", "voided", 150.0)):
        total, cid = money(amount or rng.choice((41.1, 82.19, 123.29))), seed_id(state, "CN")
        state.credit_notes[cid] = CreditNote(
            id=cid, customer_id=sub.customer_id, subscription_id=sub.id,
            type="refundable", reason_code=reason, status=status, date=today - dt.timedelta(days=20),
            total=total, amount_available=total if status == "refund_due" else 0.0,
            line_items=[CreditNoteLine(description={"refunded": "Unused days of the Starter annual term",
                                                    "refund_due": "Outage credit (service level)",
                                                    "voided": "Goodwill credit, issued in error"}[status],
                                       amount=total)],
            voided_at=today - dt.timedelta(days=19) if status == "voided" else None)
    for sub, desc, amount, days in ((subs[4], "Onboarding package (10 hours)", 1500.0, 30),
                                    (subs[9], "Prorated charge for the move to Business", 412.9, 25)):
        ubc = UnbilledCharge(id=seed_id(state, "UBC"), customer_id=sub.customer_id, subscription_id=sub.id,
                             description=desc, date_from=today - dt.timedelta(days=days),
                             date_to=today - dt.timedelta(days=days) + dt.timedelta(days=30), amount=amount)
        state.unbilled_charges[ubc.id] = ubc
    for sub, note, who in ((subs[3], "Customer asked for a quote on annual billing before the term ends.",
                            "jamal.wright@company.example"),
                           (subs[6], "Paused for the winter season; resumes automatically.",
                            "hannah.kovacs@company.example"),
                           (subs[7], "Grandfathered on the 2024 Growth price until they change plan.",
                            "jamal.wright@company.example")):
        cid = seed_id(state, "CMT")
        state.comments[cid] = Comment(id=cid, entity_type="subscription", entity_id=sub.id, notes=note, added_by=who,
                                      created_at=dt.datetime.combine(today - dt.timedelta(days=4), dt.time(11, 0)))
    state.counters.setdefault("CUS", len(ACCOUNTS) + 1)
    return state
