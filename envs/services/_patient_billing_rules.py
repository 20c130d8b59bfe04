"""Rules of the patient billing service: statement statuses, applying payments and splitting balances.

A charge is on at most one open statement (draft, sent or in collections) and
a statement in collections can no longer be edited, sent again or voided: the
agency holds it. A statement goes to collections only once it is sent and at
least :data:`COLLECTIONS_DAYS` days past due. A payment never exceeds what it
pays (the statement's, the plan's, the charges' or the account's balance) and
is applied to the oldest open charges first; a statement or plan whose
balance reaches zero is paid / completed. A payment plan covers the account's
open balance outside collections and other plans, in 2 to 24 monthly
installments of at least $25 that add up to that balance exactly (the last
one takes the cents left over). Only a payment posted today can be voided
(later ones are refunded through the card processor).
"""

from __future__ import annotations

import calendar
import datetime as dt
import math
from typing import Iterable, Optional

from compoworld_gym.envs.services._blocks import Lifecycle
from compoworld_gym.envs.services._commerce import money
from compoworld_gym.envs.services._patient_billing_models import (
    Application, Charge, Installment, PatientBillingState, Statement,
)
from compoworld_gym.errors import InvalidArgument, Unprocessable

#: Days from a statement's date to its due date.
TERMS_DAYS = 30
#: Days past due before a sent statement may be placed with a collections agency.
COLLECTIONS_DAYS = 60
#: Payment plan limits: installments and the smallest installment (USD).
MIN_INSTALLMENTS, MAX_INSTALLMENTS, MIN_INSTALLMENT = 2, 24, 25.0
#: Collections agencies the practice places debt with.
AGENCIES = ("Transworld Systems", "Credit Control Services", "Medical Revenue Recovery")
#: Statuses a statement is open in (its charges are on it).
OPEN = ("draft", "sent", "in_collections")

STATEMENT = Lifecycle("statement", {"editing": ("draft", "sent"), "sending": ("draft",), "voiding": ("draft", "sent"),
                                    "placing in collections": ("sent",)})


def holder(state: PatientBillingState, charge_id: str) -> Optional[Statement]:
    """The open statement that carries the charge, if any."""
    return next((s for s in state.statements.values() if s.status in OPEN and charge_id in s.charge_ids), None)


def planned(state: PatientBillingState) -> set[str]:
    """Ids of the charges active payment plans cover."""
    return {c for p in state.plans.values() if p.status == "active" for c in p.charge_ids}


def collected(state: PatientBillingState) -> set[str]:
    """Ids of the charges on statements in collections."""
    return {c for s in state.statements.values() if s.status == "in_collections" for c in s.charge_ids}


def open_charges(state: PatientBillingState, patient_id: str, ids: Optional[Iterable[str]] = None) -> list[Charge]:
    """The patient's charges with a balance (only ``ids`` when given), oldest service first."""
    want = set(ids) if ids is not None else None
    rows = [c for c in state.charges.values() if c.patient_id == patient_id and c.balance > 0
            and (want is None or c.id in want)]
    return sorted(rows, key=lambda c: (c.service_date, c.id))


def apply(charges: list[Charge], amount: float) -> list[Application]:
    """Apply ``amount`` to ``charges`` in order (their balances cover it); the applications."""
    out, left = [], money(amount)
    for c in charges:
        if left <= 0:
            break
        part = money(min(left, c.balance))
        c.paid, left = money(c.paid + part), money(left - part)
        c.balance = money(c.amount - c.paid - c.adjusted)
        out.append(Application(charge_id=c.id, amount=part))
    return out


def unapply(state: PatientBillingState, applied: list[Application]) -> None:
    """Take a voided payment's applications back off its charges."""
    for a in applied:
        c = state.charges[a.charge_id]
        c.paid = money(c.paid - a.amount)
        c.balance = money(c.amount - c.paid - c.adjusted)


def refresh(state: PatientBillingState) -> None:
    """Statements' and plans' balances from their charges; a statement with nothing owed is paid, a plan with
    nothing left completed (a voided payment reopens them)."""
    for s in state.statements.values():
        if s.status in ("void", "draft"):
            if s.status == "draft":
                s.balance = money(sum(state.charges[c].balance for c in s.charge_ids))
            continue
        s.balance = money(sum(state.charges[c].balance for c in s.charge_ids))
        if s.status == "paid" and s.balance > 0:
            s.status = "in_collections" if s.collections_on else "sent"
        elif s.balance <= 0:
            s.status = "paid"
    for p in state.plans.values():
        if p.status == "cancelled":
            continue
        p.remaining = money(sum(i.amount - i.paid for i in p.installments))
        p.status = "completed" if p.remaining <= 0 else "active"


def pay_installments(installments: list[Installment], amount: float) -> None:
    """Credit ``amount`` to a plan's installments in order."""
    left = money(amount)
    for i in installments:
        part = money(min(left, i.amount - i.paid))
        if part <= 0:
            continue
        i.paid, left = money(i.paid + part), money(left - part)
        i.status = "paid" if i.paid >= i.amount else "scheduled"


def unpay_installments(installments: list[Installment], amount: float) -> None:
    """Take ``amount`` back off a plan's installments, latest first (a voided plan payment)."""
    left = money(amount)
    for i in reversed(installments):
        part = money(min(left, i.paid))
        i.paid, left = money(i.paid - part), money(left - part)
        i.status = "paid" if i.paid >= i.amount else "scheduled"


def add_months(day: dt.date, months: int) -> dt.date:
    """``day`` ``months`` months later (the last day of a shorter month)."""
    y, m = divmod(day.month - 1 + months, 12)
    year, month = day.year + y, m + 1
    return dt.date(year, month, min(day.day, calendar.monthrange(year, month)[1]))


def split(total: float, count: Optional[int], installment: Optional[float]) -> list[float]:
    """Installment amounts covering ``total`` exactly: ``count`` equal ones, or as many of ``installment`` as
    needed; the last takes what is left.

    Raises:
        InvalidArgument: 400, not exactly one of count and installment.
        Unprocessable: 422, fewer than 2 or more than 24 installments, or one under $25.
    """
    if (count is None) == (installment is None):
        raise InvalidArgument("give exactly one of number_of_installments or installment_amount.")
    if count is None:
        count = math.ceil(round(total / installment, 6))
        each = installment
    else:
        each = math.ceil(total * 100 / count) / 100
    if not MIN_INSTALLMENTS <= count <= MAX_INSTALLMENTS:
        raise Unprocessable(f"a plan for ${total:,.2f} would take {count} installments; plans run "
                            f"{MIN_INSTALLMENTS} to {MAX_INSTALLMENTS} months.")
    amounts = [money(each)] * (count - 1) + [money(total - each * (count - 1))]
    if each < MIN_INSTALLMENT:
        raise Unprocessable(f"installments must be at least ${MIN_INSTALLMENT:.2f}; ${total:,.2f} over {count} "
                            f"months is ${each:,.2f}.")
    if amounts[-1] <= 0:
        raise Unprocessable(f"${total:,.2f} is covered by fewer than {count} installments of ${each:,.2f}.")
    return amounts


def check_method(method: str, check_number: Optional[str], card_last4: Optional[str]) -> None:
    """A check payment names its check number, a card payment the card's last four digits.

    Raises:
        InvalidArgument: 400 for a missing or stray detail.
    """
    if method == "check" and not check_number:
        raise InvalidArgument("a check payment needs its check_number.")
    if method in ("credit_card", "hsa_card") and not card_last4:
        raise InvalidArgument(f"a {method} payment needs card_last4.")
    if method in ("cash", "check") and card_last4:
        raise InvalidArgument(f"a {method} payment has no card.")
