"""Business rules of the prior authorization service: what needs authorization, reasons, windows, lifecycle.

Rules (Da Vinci PAS / CoverMyMeds practice): a request is filed on the
patient's active policy (422), for a code on the payer's prior-authorization
list within its quantity limit (422), for a service period of at most 365
days starting no earlier than 30 days ago (422); it is submitted only with
supporting clinical notes (422); statuses move draft -> submitted -> approved
/ denied / pended, pended -> submitted again, denied -> appealed (once,
within 30 days of the denial, 422 after) -> approved / denied, and draft,
submitted or pended requests can be cancelled (409 otherwise); an approval
grants at most the units requested (fewer is a partial, A2) for a validity
window of at most 365 days that has not already ended (422); a denial and a
pend need a reason code (422).
"""

from __future__ import annotations

import datetime as dt
import re
from typing import NamedTuple, Optional

from compoworld_gym.envs.services._blocks import Lifecycle
from compoworld_gym.envs.services._pharmacy_rules import FORMULARY
from compoworld_gym.envs.services._prior_auth_models import Decision, PriorAuthRequest
from compoworld_gym.errors import Unprocessable


class PaCode(NamedTuple):
    """A code on the payer's prior-authorization list: system, text, kind, unit cost (USD), units limit."""

    code: str
    system: str
    display: str
    kind: str
    unit_cost: float
    max_units: int


#: Specialty drugs (a year of pens) and imaging, sleep, therapy and surgical services that need authorization.
CODES: dict[str, PaCode] = {c.code: c for c in (
    *(PaCode(m.code, "RxNorm", m.display, "medication", m.unit_price, 26) for m in FORMULARY.values() if m.specialty),
    PaCode("70553", "CPT", "MRI brain without and with contrast", "service", 1250.0, 1),
    PaCode("72148", "CPT", "MRI lumbar spine without contrast", "service", 640.0, 1),
    PaCode("73721", "CPT", "MRI lower extremity joint without contrast", "service", 580.0, 1),
    PaCode("75557", "CPT", "Cardiac MRI for morphology and function", "service", 1480.0, 1),
    PaCode("95810", "CPT", "Polysomnography, attended, 4 or more parameters", "service", 1100.0, 1),
    PaCode("97110", "CPT", "Therapeutic exercise, each 15 minutes", "service", 42.0, 36),
    PaCode("27447", "CPT", "Total knee arthroplasty", "service", 21500.0, 1),
)}
#: An ICD-10-CM code, e.g. E11.9 or M54.50.
ICD10 = re.compile(r"^[A-Z][0-9][0-9A-Z](\.[0-9A-Z]{1,4})?$")
#: Denial reason codes.
DENIAL_REASONS: dict[str, str] = {
    "MN": "Not medically necessary under the payer's criteria",
    "ST": "Step therapy required: a preferred alternative must be tried first",
    "DOC": "Insufficient clinical documentation",
    "QL": "Requested quantity exceeds the plan's limit",
    "ELIG": "Member not eligible for the requested period",
    "OON": "Provider is out of network",
}
#: Pend reason codes (the payer asks for more before deciding).
PEND_REASONS: dict[str, str] = {
    "INFO": "Additional clinical information requested",
    "MR": "Medical records requested",
    "P2P": "Peer-to-peer review with the medical director requested",
}
#: Days after a denial within which it may be appealed.
APPEAL_DAYS = 30
#: Longest requested period or approval window (days, both ends counted as one span).
MAX_PERIOD_DAYS = 365
#: How far back a requested period may start (retro-authorization limit, days).
RETRO_DAYS = 30
#: Statuses each request action starts from (409 otherwise).
REQUEST = Lifecycle("prior authorization", {
    "submission": ("draft", "pended"), "a payer decision": ("submitted", "appealed"), "an appeal": ("denied",),
    "cancellation": ("draft", "submitted", "pended"),
    "adding clinical notes": ("draft", "submitted", "pended", "denied", "appealed"),
})
#: Statuses of a request still in play (a second one for the same patient and code is a duplicate).
OPEN = ("draft", "submitted", "pended", "appealed")


def check_period(start: dt.date, end: dt.date, today: dt.date, what: str = "requested period") -> None:
    """A period may start at most :data:`RETRO_DAYS` ago and a year ahead, end on or after its
    start and span at most :data:`MAX_PERIOD_DAYS` days.

    Raises:
        Unprocessable: 422 naming the broken rule.
    """
    if start < today - dt.timedelta(days=RETRO_DAYS) or start > today + dt.timedelta(days=MAX_PERIOD_DAYS):
        raise Unprocessable(f"the {what} must start between {today - dt.timedelta(days=RETRO_DAYS)} and "
                            f"{today + dt.timedelta(days=MAX_PERIOD_DAYS)}; {start} was given.")
    if end < start:
        raise Unprocessable(f"the {what} ends ({end}) before it starts ({start}).")
    if (end - start).days >= MAX_PERIOD_DAYS:
        raise Unprocessable(f"the {what} spans more than {MAX_PERIOD_DAYS} days ({start} to {end}).")


def appeal_deadline(req: PriorAuthRequest) -> Optional[dt.date]:
    """The last day a denied request may be appealed, or None when it is not denied."""
    if req.status != "denied" or not req.decisions:
        return None
    return req.decisions[-1].decided_on + dt.timedelta(days=APPEAL_DAYS)


def approval(req: PriorAuthRequest) -> Optional[Decision]:
    """The request's approval decision in force (the latest decision when it approved), or None."""
    if req.status == "approved" and req.decisions and req.decisions[-1].outcome == "approved":
        return req.decisions[-1]
    return None
