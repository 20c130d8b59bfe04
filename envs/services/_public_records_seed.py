"""Seed data of the public_records service.

The city is the permits' city. Requesters are residents (Faker) and the
contacts of the shared customer companies (``_accounts.ACCOUNTS``); several
requests ask about a permit record of the ``permits`` service (its seeded ids
PRM-0001... are the same in every seed). Every workflow status is present,
with one request whose acknowledgement is overdue, one past its response due
date, one already extended and one with a pending fee estimate.
"""

from __future__ import annotations

import datetime as dt
import random
from typing import Optional

from faker import Faker

from compoworld_gym.envs.services._accounts import ACCOUNTS_BY_ID
from compoworld_gym.envs.services._blocks import seed_id
from compoworld_gym.envs.services._common import email_for
from compoworld_gym.envs.services._public_records_models import (
    RECORDS_OFFICERS, Document, PublicRecordsState, RecordsRequest,
)
from compoworld_gym.envs.services._public_records_rules import (
    ACK_DAYS, EXTENSION_DAYS, RESPONSE_DAYS, add_business_days, estimate,
)

#: Seeded requests: (status, business days ago received, department, account id or None, permit, text).
_SEED: tuple[tuple[str, int, str, Optional[str], Optional[str], str], ...] = (
    ("received", 0, "Building & Permits", None, "PRM-0003",
     "Plans, plan-review comments and inspection results for permit PRM-0003."),
    ("received", 5, "Public Works", None, None, "Sewer lateral repair records for my block since 2019."),
    ("acknowledged", 2, "Police", None, None, "Incident report and 911 call log for a collision on Main Street."),
    ("in_progress", 4, "Building & Permits", "CUS-0004", "PRM-0005",
     "All inspection reports and correction notices for permit PRM-0005."),
    ("in_progress", 12, "City Clerk", "CUS-0001", None, "Council minutes and staff reports on the harbor rezoning."),
    ("fulfilled", 15, "Building & Permits", None, "PRM-0007", "Final inspection card for permit PRM-0007."),
    ("denied", 9, "Police", None, None, "Body-camera footage of an arrest under active investigation."),
    ("partially_fulfilled", 13, "Finance", "CUS-0002", None, "Bids and scoring sheets for the 2025 IT services RFP."),
    ("in_progress", 14, "Business Licensing", "CUS-0010", None, "Business license files of the importers on Pier 9."),
    ("received", 1, "Business Licensing", "CUS-0005", None, "Our business license file and its renewal history."),
)


def _requester(fake: Faker, account: Optional[str]) -> dict:
    if account is not None:
        a = ACCOUNTS_BY_ID[account]
        return {"requester_name": a.contact_name, "requester_email": a.contact_email, "requester_company": a.company}
    name = f"{fake.first_name()} {fake.last_name()}"
    return {"requester_name": name, "requester_email": email_for(name, fake.free_email_domain())}


def _close(state: PublicRecordsState, r: RecordsRequest, today: dt.date, rng: random.Random) -> None:
    closed = today - dt.timedelta(days=3)
    r.acknowledged_on, r.acknowledgement = r.received_on, "Your request was received and is being reviewed."
    if r.status != "denied":
        exempt = ["GC 7922.000"] if r.status == "partially_fulfilled" else []
        r.documents.append(Document(id=seed_id(state, "DOC"), title=r.description.split(" for ")[0].split(" of ")[0],
                                    pages=rng.randint(2, 40), redacted=bool(exempt), exemptions=exempt,
                                    released_on=closed))
    if r.status == "denied":
        r.exemptions_cited = ["GC 7923.600"]
    r.closed_on = closed
    r.closure_reason = {"fulfilled": "All responsive records released.",
                        "denied": "Withheld: records of an active investigation.",
                        "partially_fulfilled": "Released with bidders' pricing redacted."}[r.status]


def build_state(fake: Faker, rng: random.Random, today: dt.date) -> PublicRecordsState:
    """Ten requests PRR-0001..PRR-0010 in every status."""
    state = PublicRecordsState()
    for status, ago, dept, account, permit, text in _SEED:
        received = add_business_days(today, -ago)
        r = RecordsRequest(id=seed_id(state, "PRR"), description=text, department=dept, related_permit_id=permit,
                           point_of_contact=RECORDS_OFFICERS[dept], status=status, received_on=received,
                           ack_due_on=add_business_days(received, ACK_DAYS),
                           due_on=add_business_days(received, RESPONSE_DAYS), **_requester(fake, account))
        if status in ("acknowledged", "in_progress"):
            r.acknowledged_on = add_business_days(received, 1)
            r.acknowledgement = f"Request {r.id} received; we will respond by {r.due_on}."
        if r.id == "PRR-0004":
            r.fee_estimate = estimate(240, 96.0, False, today - dt.timedelta(days=1))
        if r.id == "PRR-0005":
            r.extended, r.due_on = True, add_business_days(r.due_on, EXTENSION_DAYS)
            r.extension_reason = "Records must be retrieved from the off-site archive."
            fee = estimate(180, 0.0, True, today - dt.timedelta(days=6))
            r.fee_estimate = fee.model_copy(update={"status": "paid", "settled_on": today - dt.timedelta(days=4),
                                                    "receipt_number": seed_id(state, "PRC"), "method": "credit_card"})
            for title, pages in (("Council minutes, March 2025", 14), ("Staff report: harbor rezoning", 38)):
                r.documents.append(Document(id=seed_id(state, "DOC"), title=title, pages=pages, redacted=False,
                                            released_on=today - dt.timedelta(days=2)))
        if status in ("fulfilled", "denied", "partially_fulfilled"):
            _close(state, r, today, rng)
        state.requests[r.id] = r
    return state
