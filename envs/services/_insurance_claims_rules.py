"""Business rules of the insurance claims service: the payer's fee schedule, coverage, filing and adjudication.

Rules: a claim is submitted only with lines, for a past date of service
covered by an active policy and within timely filing (422); statuses move
draft → submitted → adjudicated → paid, or submitted → denied → (appeal)
submitted, and a draft or submitted claim can be voided (409 otherwise);
adjudication allows at most the fee-schedule amount per line, applies the
remaining deductible, then coinsurance; no payment exceeds what the plan
owes on the allowed amount (422).
"""

from __future__ import annotations

import datetime as dt
from typing import NamedTuple

from compoworld_gym.envs.services._blocks import Lifecycle
from compoworld_gym.envs.services._commerce import money
from compoworld_gym.envs.services._insurance_claims_models import Claim, Policy
from compoworld_gym.errors import Unprocessable


class Fee(NamedTuple):
    """A billing code of the payer's fee schedule: description and allowed amount per unit (USD)."""

    description: str
    allowed: float


#: CPT-like procedure codes with the payer's allowed amount per unit.
FEE_SCHEDULE: dict[str, Fee] = {
    "99203": Fee("New patient office visit, low complexity", 130.0),
    "99213": Fee("Established patient office visit, low complexity", 105.0),
    "99214": Fee("Established patient office visit, moderate complexity", 150.0),
    "99395": Fee("Preventive visit, age 18-39", 180.0),
    "93000": Fee("Electrocardiogram with interpretation", 45.0),
    "80053": Fee("Comprehensive metabolic panel", 30.0),
    "11102": Fee("Tangential skin biopsy", 120.0),
    "20610": Fee("Major joint injection", 95.0),
    "90471": Fee("Immunization administration", 25.0),
}

#: Claim adjustment reason codes (CARC, X12 835) a payer denies with.
DENIAL_REASONS: dict[str, str] = {
    "CO-16": "Claim lacks information needed for adjudication",
    "CO-27": "Expenses incurred after coverage terminated",
    "CO-29": "The time limit for filing has expired",
    "CO-50": "Not deemed a medical necessity by the payer",
    "CO-97": "Benefit included in another service already adjudicated",
    "CO-197": "Precertification / authorization absent",
}

#: Days after the date of service within which a claim must be filed (timely filing).
TIMELY_FILING_DAYS = 365

#: The statuses each claim action starts from (409 otherwise).
CLAIM = Lifecycle("claim", {
    "adding lines": ("draft",), "removing lines": ("draft",), "submission": ("draft",),
    "adjudication": ("submitted",), "denial": ("submitted",), "an appeal": ("denied",), "payment": ("adjudicated",),
    "voiding": ("draft", "submitted"), "assignment": ("draft", "submitted", "adjudicated", "denied"),
})


def covers(p: Policy, day: dt.date) -> bool:
    """Whether policy ``p`` covers date of service ``day`` (a terminated policy covers up to its end)."""
    return p.coverage_start <= day and (p.coverage_end is None or day <= p.coverage_end)


def adjudicate(c: Claim, p: Policy, day: dt.date) -> None:
    """Price claim ``c`` under policy ``p`` on ``day``: allowed = min(charge, fee x units) per line;
    the patient pays the remaining deductible first, then coinsurance on the rest; the policy's
    deductible_met grows by the deductible applied."""
    for line in c.lines:
        line.allowed = money(min(line.charge, FEE_SCHEDULE[line.cpt_code].allowed * line.units))
    allowed = money(sum(x.allowed or 0.0 for x in c.lines))
    toward = money(min(allowed, max(p.deductible - p.deductible_met, 0.0)))
    share = money(toward + (allowed - toward) * p.coinsurance_pct / 100)
    p.deductible_met = money(p.deductible_met + toward)
    c.status, c.adjudicated_on, c.allowed_total = "adjudicated", day, allowed
    c.patient_responsibility, c.payable = share, money(allowed - share)



def deductible_remaining(p: Policy) -> float:
    """The part of the annual deductible still to meet (USD, >= 0)."""
    return money(max(p.deductible - p.deductible_met, 0.0))


def check_submittable(c: Claim, p: Policy, today: dt.date) -> None:
    """Claim ``c`` on policy ``p`` may go to the payer ``today``: it has lines, a past date of service the
    policy covers, within timely filing.

    Raises:
        Unprocessable: 422 naming the broken rule.
    """
    if not c.lines:
        raise Unprocessable(f"claim {c.id} has no service lines.")
    if c.service_date > today:
        raise Unprocessable(f"date of service {c.service_date} is in the future.")
    if not covers(p, c.service_date):
        raise Unprocessable(f"policy {p.id} ({p.status}) does not cover {c.service_date}; "
                            "call search_policies for the patient's active policy.")
    if (today - c.service_date).days > TIMELY_FILING_DAYS:
        raise Unprocessable(f"date of service {c.service_date} is past the {TIMELY_FILING_DAYS}-day filing limit.")
