"""Records and seed data of the permits service (Accela-style civic records).

Record types carry the city's fee schedule and the inspections they need;
the seeded records are applications at Faker addresses in one city, by
residents with contractors, in every workflow status.
"""

from __future__ import annotations

import datetime as dt
import random
from typing import Literal, NamedTuple, Optional

from faker import Faker
from pydantic import Field

from compoworld_gym.entities import Address, City, CompanyName, Date, Email, Id, Money, PersonName, Phone
from compoworld_gym.envs.services._commerce import money
from compoworld_gym.envs.services._common import email_for
from compoworld_gym.service import Record, ServiceState

#: The municipality whose permits these are.
CITY = "Riverton"
RecordStatus = Literal["submitted", "in_review", "approved", "issued", "finaled", "denied", "withdrawn"]
InspectionStatus = Literal["scheduled", "passed", "failed", "cancelled"]


class RecordType(NamedTuple):
    """A permit type: Accela module/type/subtype, fee schedule and inspections (the last is the final)."""

    name: str
    base_fee: float
    valuation_rate: float
    inspections: tuple[str, ...]


RECORD_TYPES: dict[str, RecordType] = {t.name: t for t in (
    RecordType("Building/Residential/Alteration", 185.0, 0.006, ("Framing", "Final Building")),
    RecordType("Building/Residential/New", 450.0, 0.008, ("Foundation", "Framing", "Final Building")),
    RecordType("Electrical/Residential/Service Upgrade", 95.0, 0.0, ("Final Electrical",)),
    RecordType("Plumbing/Residential/Water Heater", 75.0, 0.0, ("Final Plumbing",)),
    RecordType("Planning/Sign/Permanent", 120.0, 0.0, ("Final Sign",)),
)}
#: Inspectors of the building department.
INSPECTORS = ("Dana Whitfield", "Rafael Ortiz", "Mei Tanaka", "Gordon Pruitt")


def assessed_fees(rtype: RecordType, valuation: float) -> list[tuple[str, str, float]]:
    """``(code, description, amount)`` of the fees a new record of ``rtype`` is invoiced."""
    fees = [("APP", "Application / plan review fee", rtype.base_fee)]
    if rtype.valuation_rate:
        fees.append(("VAL", f"Permit fee ({rtype.valuation_rate:.1%} of valuation)",
                     money(valuation * rtype.valuation_rate)))
    fees.append(("TECH", "Technology surcharge", 12.5))
    return fees


class Fee(Record):
    """One invoiced fee item of a record."""

    id: str = Field(description="Fee id, e.g. FEE-0001.")
    code: str = Field(description="Fee code from the fee schedule.")
    description: str = Field(description="What the fee is for.")
    amount: Money = Field(ge=0, description="Amount (USD).")
    status: Literal["invoiced", "paid"] = Field(description="invoiced (due) or paid.")
    paid_on: Optional[Date] = Field(default=None, description="Date paid.")


class Payment(Record):
    """A payment against a record's fees."""

    receipt_number: str = Field(description="Cashier receipt number, e.g. RCPT-0001.")
    amount: Money = Field(description="Amount paid (USD).")
    method: Literal["credit_card", "check", "cash", "ach"] = Field(description="How it was paid.")
    reference: str = Field(default="", description="Payer's reference.")
    paid_on: Date = Field(description="Date paid.")


class PermitRecord(Record):
    """A permit application / record."""

    id: Id("permit") = Field(description="Record id, e.g. PRM-0001.")
    type: str = Field(description="Record type, e.g. Building/Residential/Alteration.")
    address: Address = Field(description="Street address of the work.")
    city: City = Field(description="City.")
    description: str = Field(description="Scope of work.")
    valuation: Money = Field(ge=0, description="Declared job value (USD).")
    applicant_name: PersonName = Field(description="Applicant's name.")
    applicant_email: Email = Field(description="Applicant's email.")
    applicant_phone: Phone = Field(description="Applicant's phone.")
    contractor: Optional[CompanyName] = Field(default=None, description="Licensed contractor doing the work.")
    status: RecordStatus = Field(description="Workflow status.")
    opened_on: Date = Field(description="Date the application was submitted.")
    issued_on: Optional[Date] = Field(default=None, description="Date the permit was issued.")
    expires_on: Optional[Date] = Field(default=None, description="Date the issued permit expires.")
    fees: list[Fee] = Field(default_factory=list, description="Fee items.")
    payments: list[Payment] = Field(default_factory=list, description="Payments, oldest first.")
    comments: list[str] = Field(default_factory=list, description="Record comments, oldest first.")


class Inspection(Record):
    """An inspection of a record."""

    id: Id("inspection") = Field(description="Inspection id, e.g. INSP-0001.")
    record_id: Id("permit") = Field(description="The record inspected.")
    inspection_type: str = Field(description="e.g. Framing, Final Building.")
    scheduled_date: Date = Field(description="Day of the inspection.")
    inspector: str = Field(description="Assigned inspector.")
    status: InspectionStatus = Field(description="scheduled, passed, failed or cancelled.")
    result_comment: Optional[str] = Field(default=None, description="Inspector's comment on the result.")
    resulted_on: Optional[Date] = Field(default=None, description="Date resulted.")


class PermitsState(ServiceState):
    """Permit records and inspections."""

    records: dict[str, PermitRecord] = Field(default_factory=dict, description="Records by id.")
    inspections: dict[str, Inspection] = Field(default_factory=dict, description="Inspections by id.")


#: Seeded records: (type, status, paid, inspections as (type, status, day offset)).
_SEED = (
    ("Building/Residential/Alteration", "submitted", False, ()),
    ("Electrical/Residential/Service Upgrade", "in_review", False, ()),
    ("Building/Residential/Alteration", "approved", False, (("Framing", "passed", -3),)),
    ("Plumbing/Residential/Water Heater", "approved", True, (("Final Plumbing", "failed", -2),)),
    ("Building/Residential/New", "issued", True, (("Foundation", "passed", -9), ("Framing", "scheduled", 0))),
    ("Planning/Sign/Permanent", "approved", True, (("Final Sign", "passed", -1),)),
    ("Electrical/Residential/Service Upgrade", "finaled", True, (("Final Electrical", "passed", -12),)),
    ("Building/Residential/Alteration", "denied", False, ()),
    ("Plumbing/Residential/Water Heater", "in_review", True, ()),
)
_TRADES = {"Building": "Builders", "Electrical": "Electric", "Plumbing": "Plumbing Co", "Planning": "Sign Co"}
_SCOPES = {"Building": ("Kitchen remodel, remove non-bearing wall", "Two-storey rear addition", "Deck replacement"),
           "Electrical": ("Upgrade service panel to 200 A",), "Plumbing": ("Replace 50 gal gas water heater",),
           "Planning": ("Illuminated storefront sign, 24 sq ft",)}


def build_state(fake: Faker, rng: random.Random, today: dt.date) -> PermitsState:
    """Nine records from submitted to finaled, with fees, payments and inspections."""
    state, fee_n, insp_n = PermitsState(), 0, 0
    for n, (tname, status, paid, insps) in enumerate(_SEED, start=1):
        rtype, name = RECORD_TYPES[tname], f"{fake.first_name()} {fake.last_name()}"
        valuation = float(rng.randrange(8000, 160000, 500)) if rtype.valuation_rate else 0.0
        opened = today - dt.timedelta(days=40 - 4 * n)
        rec = PermitRecord(id=f"PRM-{n:04d}", type=tname, address=fake.street_address(), city=CITY,
                           description=rng.choice(_SCOPES[tname.split("/")[0]]), valuation=valuation,
                           applicant_name=name, applicant_email=email_for(name, fake.free_email_domain()),
                           applicant_phone=f"+1-{rng.randint(200, 989)}-555-{rng.randint(1000, 9999)}",
                           contractor=f"{fake.last_name()} {_TRADES[tname.split('/')[0]]}",
                           status=status, opened_on=opened)
        for code, desc, amount in assessed_fees(rtype, valuation):
            fee_n += 1
            rec.fees.append(Fee(id=f"FEE-{fee_n:04d}", code=code, description=desc, amount=amount,
                                status="paid" if paid else "invoiced", paid_on=opened if paid else None))
        if paid:
            rec.payments.append(Payment(receipt_number=f"RCPT-{n:04d}", amount=money(sum(f.amount for f in rec.fees)),
                                        method="credit_card", paid_on=opened))
        if status in ("issued", "finaled"):
            rec.issued_on = opened + dt.timedelta(days=6)
            rec.expires_on = rec.issued_on + dt.timedelta(days=180)
        if status == "denied":
            rec.comments.append("Denied: setback variance required before a permit can be issued.")
        for itype, istatus, offset in insps:
            insp_n += 1
            day = today + dt.timedelta(days=offset)
            state.inspections[f"INSP-{insp_n:04d}"] = Inspection(
                id=f"INSP-{insp_n:04d}", record_id=rec.id, inspection_type=itype, scheduled_date=day,
                inspector=INSPECTORS[insp_n % len(INSPECTORS)], status=istatus,
                result_comment={"passed": "Approved as built.", "failed": "No seismic strapping; T&P discharge "
                                "line missing."}.get(istatus), resulted_on=day if istatus != "scheduled" else None)
        state.records[rec.id] = rec
    state.counters.update(PRM=len(_SEED) + 1, FEE=fee_n + 1, INSP=insp_n + 1, RCPT=len(_SEED) + 1)
    return state
