"""Underwriting arithmetic and milestone gates of the mortgage_loans service.

LTV is the loan amount over the lesser of the purchase price and the
appraised value; DTI (back-end ratio) is the proposed housing payment
(principal and interest plus taxes and insurance) plus the monthly debts over
the gross monthly income. Both are percents with two decimals.

Example:
    >>> round(monthly_principal_interest(300000, 6.5, 360), 2)
    1896.2
    >>> ltv_percent(291000, 300000, 305000)
    97.0
"""

from __future__ import annotations

import datetime as dt
from typing import Optional

from compoworld_gym.envs.services._commerce import money
from compoworld_gym.envs.services._mortgage_loans_models import MILESTONES, OPEN_CONDITION, Condition, Loan
from compoworld_gym.errors import Conflict, Unprocessable

#: The highest LTV the lender funds (percent), e.g. 3% down on a conventional loan.
MAX_LTV = 97.0
#: The highest DTI underwriting approves (percent).
MAX_DTI = 50.0
#: Lock periods the secondary desk offers (days).
LOCK_PERIODS = (15, 30, 45, 60)
#: Condition stage -> the milestone it must be cleared before.
STAGE_GATE: dict[str, str] = {"Approval": "Approval", "Docs": "Docs Out", "Funding": "Funding"}


def monthly_principal_interest(amount: float, rate_percent: float, months: int) -> float:
    """The level monthly payment of ``amount`` USD at ``rate_percent`` a year over ``months`` (USD, unrounded)."""
    r = rate_percent / 1200
    return amount * r / (1 - (1 + r) ** -months)


def ltv_percent(amount: float, price: Optional[float], appraised: float) -> float:
    """Loan-to-value in percent (two decimals) on the lesser of the price and the appraised value."""
    value = min(appraised, price) if price else appraised
    return round(amount / value * 100, 2)


def housing_payment(loan: Loan) -> float:
    """The proposed monthly housing payment: principal and interest plus taxes and insurance (USD)."""
    pi = monthly_principal_interest(loan.loan_amount, loan.note_rate_percent, loan.loan_term_months)
    return money(pi + loan.monthly_taxes_insurance_amount)


def dti_percent(loan: Loan) -> float:
    """Back-end debt-to-income in percent (two decimals)."""
    debts = sum(d.monthly_payment_amount for d in loan.liabilities)
    return round((housing_payment(loan) + debts) / loan.borrower.total_monthly_income_amount * 100, 2)


def check_ltv(amount: float, price: Optional[float], appraised: float) -> None:
    """Refuse a loan amount above :data:`MAX_LTV` of the property value.

    Raises:
        Unprocessable: 422 naming the LTV and the largest amount allowed.
    """
    ltv = ltv_percent(amount, price, appraised)
    if ltv > MAX_LTV:
        value = min(appraised, price) if price else appraised
        raise Unprocessable(f"LTV would be {ltv:.2f}% (over the {MAX_LTV:.0f}% maximum); the loan amount can be at "
                            f"most {money(value * MAX_LTV / 100):.2f} on a value of {value:.2f}.")


def lock_state(loan: Loan, today: dt.date) -> str:
    """``"None"``, ``"Locked"``, ``"Expired"`` (expiration day passed) or ``"Cancelled"``."""
    lock = loan.rate_lock
    if lock is None:
        return "None"
    if lock.requested_status == "Cancelled":
        return "Cancelled"
    return "Expired" if lock.lock_expiration_date < today else "Locked"


def open_conditions(conditions: list[Condition], stages: tuple[str, ...]) -> list[Condition]:
    """The conditions of ``stages`` still open (Added, Requested or Received)."""
    return [c for c in conditions if c.prior_to in stages and c.status in OPEN_CONDITION]


def check_enter(loan: Loan, target: str, conditions: list[Condition], today: dt.date) -> None:
    """Refuse moving ``loan`` into milestone ``target`` while its gate is not met.

    Approval needs every prior-to-approval condition cleared or waived and DTI
    within :data:`MAX_DTI`; Docs Out also the prior-to-docs ones; Funding also
    the prior-to-funding ones and a rate lock that has not expired.

    Raises:
        Unprocessable: 422 naming the open conditions or the lock problem.
    """
    gated = tuple(stage for stage, gate in STAGE_GATE.items() if MILESTONES.index(gate) <= MILESTONES.index(target))
    still = open_conditions(conditions, gated)
    if still:
        names = ", ".join(f"{c.id} ({c.title}, prior to {c.prior_to}, {c.status})" for c in still)
        raise Unprocessable(f"loan {loan.id} cannot move to {target} with open conditions: {names}; "
                            "clear or waive them first.")
    if target == "Approval" and dti_percent(loan) > MAX_DTI:
        raise Unprocessable(f"DTI of loan {loan.id} is {dti_percent(loan):.2f}%, over the {MAX_DTI:.0f}% "
                            "maximum; it cannot be approved.")
    if target == "Funding":
        state = lock_state(loan, today)
        if state == "Expired":
            raise Unprocessable(f"the rate lock of loan {loan.id} expired on "
                                f"{loan.rate_lock.lock_expiration_date}; relock the rate before funding.")
        if state != "Locked":
            raise Unprocessable(f"loan {loan.id} has no rate lock; lock the rate before funding.")


def check_stage_open(loan: Loan, prior_to: str) -> None:
    """Refuse a condition for a stage the loan has already passed.

    Raises:
        Conflict: 409 naming the later stages still open.
    """
    gate = STAGE_GATE[prior_to]
    if MILESTONES.index(loan.current_milestone) >= MILESTONES.index(gate):
        later = [s for s, g in STAGE_GATE.items() if MILESTONES.index(g) > MILESTONES.index(loan.current_milestone)]
        raise Conflict(f"loan {loan.id} is already at {loan.current_milestone}; a prior-to-{prior_to} condition "
                       f"cannot be added now (open stages: {', '.join(later) or 'none'}).")


#: Condition status changes a user may make: from -> allowed targets.
CONDITION_MOVES: dict[str, tuple[str, ...]] = {
    "Added": ("Requested", "Received", "Waived"),
    "Requested": ("Received", "Waived"),
    "Received": ("Cleared", "Requested", "Waived"),
}
