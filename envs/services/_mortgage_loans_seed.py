"""Seed data of the mortgage_loans service: a lender's pipeline.

Four loans finance the fixed home sales of ``_listings_deals`` (the buyers
are shared store customers, on the listings' street addresses, for the
contract prices); seven more are Faker borrowers at every milestone, one
withdrawn and one denied. Each carries underwriting conditions fitting its
milestone and, from Submittal on, a rate lock (one has expired).
"""

from __future__ import annotations

import datetime as dt
import random
from typing import Optional

from faker import Faker

from compoworld_gym.envs.services._blocks import fake_person
from compoworld_gym.envs.services._commerce import money
from compoworld_gym.envs.services._company import DOMAIN
from compoworld_gym.envs.services._listings_deals import DEALS
from compoworld_gym.envs.services._mortgage_loans_models import (
    MILESTONES, Borrower, Condition, Liability, Loan, MilestoneLog, MortgageLoansState, RateLock, SubjectProperty,
)
from compoworld_gym.envs.services._mortgage_loans_rules import housing_payment

#: The lender's loan officers (name, work email).
LOAN_OFFICERS: tuple[tuple[str, str], ...] = tuple(
    (n, f"{n.lower().replace(' ', '.')}@{DOMAIN}") for n in ("Rebecca Stanton", "Victor Ames", "Nadia Farouk"))
_CREDITORS = (("Toyota Financial Services", "Installment", 412.0, 14800.0),
              ("Capital One", "Revolving", 95.0, 3100.0), ("Nelnet", "StudentLoan", 268.0, 22400.0),
              ("Ally Auto", "Installment", 538.0, 21950.0), ("Discover", "Revolving", 60.0, 1450.0))
#: Seeded conditions: loan number -> (title, category, prior_to, status).
_CONDITIONS: dict[str, tuple[tuple[str, str, str, str], ...]] = {
    "LN-0001": (("Two most recent bank statements", "Assets", "Approval", "Received"),
                ("Letter of explanation for recent credit inquiries", "Credit", "Approval", "Requested"),
                ("Homeowners insurance declarations page", "Property", "Docs", "Added")),
    "LN-0002": (("Signed IRS Form 4506-C", "Income", "Approval", "Cleared"),
                ("Final title commitment", "Legal", "Docs", "Requested"),
                ("Verbal verification of employment", "Income", "Funding", "Added")),
    "LN-0003": (("FHA appraisal review", "Property", "Approval", "Cleared"),
                ("Closing disclosure signed 3 days before closing", "Legal", "Docs", "Cleared"),
                ("Verified wire instructions for cash to close", "Assets", "Funding", "Received")),
    "LN-0004": (("Gift letter with donor bank statement", "Assets", "Approval", "Cleared"),),
    "LN-0007": (("Fully executed purchase contract", "Legal", "Approval", "Requested"),),
    "LN-0008": (("Pay stubs covering the last 30 days", "Income", "Approval", "Received"),
                ("Explanation of large deposit", "Assets", "Approval", "Cleared")),
    "LN-0009": (("Hazard insurance paid receipt", "Property", "Funding", "Cleared"),),
    "LN-0011": (("Twelve months of rental history", "Credit", "Approval", "Requested"),),
}
#: The Faker loans: (milestone, status, purpose, lock (days, locked days ago) or None, DTI target).
_OTHERS = (("Started", "active", "Purchase", None, 38.0), ("Processing", "active", "NoCash-Out Refinance", None, 33.0),
           ("Submittal", "active", "Purchase", (45, 3), 41.0), ("Resubmittal", "active", "Purchase", (60, 10), 36.0),
           ("Docs Out", "active", "Purchase", (45, 20), 29.0), ("Processing", "withdrawn", "Purchase", (30, 8), 35.0),
           ("Submittal", "denied", "Cash-Out Refinance", None, 56.0))
#: Deal loans' locks by milestone: (days, locked days ago).
_DEAL_LOCKS = {"Cond. Approval": (45, 7), "Approval": (30, 24), "Docs Out": (30, 32), "Completion": (45, 50)}


def milestone_log(current: str, applied: dt.date, today: dt.date) -> list[MilestoneLog]:
    """The milestone template up to ``current`` (three days apart from ``applied``, never after today)."""
    k, out = MILESTONES.index(current), []
    for i, name in enumerate(MILESTONES):
        start = min(applied + dt.timedelta(days=3 * i), today) if i <= k else None
        done = i < k or name == "Completion" and k == i
        out.append(MilestoneLog(milestone_name=name, start_date=start, done_indicator=done,
                                completed_date=min(applied + dt.timedelta(days=3 * i + 3), today) if done else None))
    return out


def _lock(n: int, rate: float, lock: Optional[tuple[int, int]], today: dt.date, cancelled: bool) -> Optional[RateLock]:
    if lock is None:
        return None
    days, ago = lock
    start = today - dt.timedelta(days=ago)
    return RateLock(id=f"LCK-{n:04d}", lock_date=start, lock_number_of_days=days,
                    lock_expiration_date=start + dt.timedelta(days=days), rate=rate,
                    requested_status="Cancelled" if cancelled else "Locked")


def _loan(n: int, rng: random.Random, today: dt.date, *, name: str, email: str, prop: SubjectProperty,
          purpose: str, loan_type: str, price: Optional[float], appraised: float, amount: float, milestone: str,
          status: str, closing: dt.date, dti: float, lock: Optional[tuple[int, int]]) -> Loan:
    rate = rng.choice((5.875, 6.0, 6.125, 6.25, 6.375, 6.5, 6.75, 6.99))
    debts = [Liability(holder_name=h, liability_type=t, monthly_payment_amount=p, unpaid_balance_amount=b)
             for h, t, p, b in rng.sample(_CREDITORS, rng.randint(0, 2))]
    officer = LOAN_OFFICERS[n % len(LOAN_OFFICERS)]
    applied = today - dt.timedelta(days=3 * MILESTONES.index(milestone) + rng.randint(2, 5))
    loan = Loan(id=f"LN-{n:04d}", borrower=Borrower(full_name=name, email_address_text=email,
                                                    home_phone_number=f"+1-{rng.randint(201, 989)}-555-"
                                                                      f"{rng.randint(1000, 9999)}",
                                                    total_monthly_income_amount=1.0),
                subject_property=prop, loan_purpose=purpose, loan_type=loan_type, loan_amount=money(amount),
                purchase_price_amount=price, property_appraised_value_amount=appraised, note_rate_percent=rate,
                loan_term_months=360, monthly_taxes_insurance_amount=money(appraised * 0.0145 / 12), liabilities=debts,
                loan_officer_name=officer[0], loan_officer_email=officer[1], application_date=applied,
                estimated_closing_date=closing, current_milestone=milestone,
                milestones=milestone_log(milestone, applied, today), status=status,
                rate_lock=_lock(n, rate, lock, today, status == "withdrawn"))
    need = housing_payment(loan) + sum(d.monthly_payment_amount for d in debts)
    loan.borrower.total_monthly_income_amount = money(need / (dti / 100))
    if status in ("withdrawn", "denied"):
        loan.adverse_action_reason = {"withdrawn": "Borrower chose another lender.",
                                      "denied": "Debt-to-income ratio exceeds program limits."}[status]
    return loan


def build_state(fake: Faker, rng: random.Random, today: dt.date) -> MortgageLoansState:
    """Eleven loans (four financing the fixed sales), fifteen conditions, their rate locks."""
    state = MortgageLoansState()
    for n, deal in enumerate(DEALS, start=1):
        prop = SubjectProperty(street_address=deal.address, city=deal.city, state=deal.state,
                               postal_code=deal.postal_code, occupancy="PrimaryResidence",
                               property_type="Condominium" if deal.sub_type == "Condominium" else "Detached")
        appraised = deal.price if deal.close_offset > 0 else money(deal.price - 10000)
        status = "completed" if deal.milestone == "Completion" else "active"
        state.loans[f"LN-{n:04d}"] = _loan(
            n, rng, today, name=deal.buyer.name, email=deal.buyer.email, prop=prop, purpose="Purchase",
            loan_type=deal.financing, price=deal.price, appraised=appraised, amount=deal.price * deal.loan_ltv / 100,
            milestone=deal.milestone, status=status, closing=today + dt.timedelta(days=deal.close_offset),
            dti=rng.uniform(31, 42), lock=_DEAL_LOCKS[deal.milestone])
    for n, (milestone, status, purpose, lock, dti) in enumerate(_OTHERS, start=len(DEALS) + 1):
        person = fake_person(fake)
        value = float(rng.randrange(240000, 860000, 5000))
        prop = SubjectProperty(street_address=f"{rng.randint(12, 9899)} {fake.street_name()}", city=fake.city(),
                               state=fake.state_abbr(), postal_code=fake.zipcode(),
                               property_type=rng.choice(("Detached", "Detached", "Townhouse")),
                               occupancy="PrimaryResidence")
        ltv = rng.choice((75.0, 80.0, 85.0, 90.0)) if purpose == "Purchase" else rng.choice((60.0, 70.0))
        state.loans[f"LN-{n:04d}"] = _loan(
            n, rng, today, name=person.name, email=person.email, prop=prop, purpose=purpose,
            loan_type="Conventional", price=value if purpose == "Purchase" else None, appraised=value,
            amount=value * ltv / 100, milestone=milestone, status=status,
            closing=today + dt.timedelta(days=rng.randint(18, 50)), dti=dti, lock=lock)
    for lid, rows in _CONDITIONS.items():
        loan = state.loans[lid]
        for title, category, prior_to, status in rows:
            cid = f"COND-{len(state.conditions) + 1:04d}"
            added = loan.application_date + dt.timedelta(days=rng.randint(3, 6))
            state.conditions[cid] = Condition(
                id=cid, loan_id=lid, title=title, category=category, prior_to=prior_to, status=status,
                added_date=min(added, today), status_date=min(added + dt.timedelta(days=2), today),
                comments=["Reviewed and satisfied."] if status == "Cleared" else [])
    state.loans["LN-0001"].notes.append("Buyer's agent asked for a closing-date update before the inspection ends.")
    state.loans["LN-0003"].notes.append("Borrower is relocating; closing must not slip past the estimated day.")
    state.counters.update(LN=len(state.loans) + 1, COND=len(state.conditions) + 1, LCK=len(state.loans) + 1)
    return state
