"""Permits: municipal permit records by address, fees, inspections and the approval workflow.

No permitting server is in ``compoworld_gym/data/mcp_servers.jsonl``
(``spec_source = None``); the interface follows the Accela Civic Platform
API v4 (records with a type, address and applicant contact; fee items
invoiced and paid; inspections scheduled and resulted; record status
workflow). Rules of the real product: submitted -> in_review -> approved ->
issued -> finaled, with denied (from review) and withdrawn (before approval);
a permit is not issued while fees are unpaid or its final inspection's latest
result is a fail, and is finaled only once every required inspection passed;
fees are paid in full; inspections are scheduled on a future weekday for an
approved or issued record, and resulted on or after their day.
"""

from __future__ import annotations

import datetime as dt
import random
from typing import Literal, Optional

from faker import Faker
from pydantic import Field

from compoworld_gym.entities import Address, CompanyName, Date, Email, Id, Money, PersonName, Phone
from compoworld_gym.envs.services._commerce import MONEY_MAX, money
from compoworld_gym.envs.services._permits_seed import (
    CITY, INSPECTORS, RECORD_TYPES, Fee, Inspection, Payment, PermitRecord, PermitsState, RecordStatus,
    assessed_fees, build_state,
)
from compoworld_gym.errors import Conflict, NotFound, Unprocessable
from compoworld_gym.service import Service, tool

RecordTypeName = Literal["Building/Residential/Alteration", "Building/Residential/New",
                         "Electrical/Residential/Service Upgrade", "Plumbing/Residential/Water Heater",
                         "Planning/Sign/Permanent"]
#: Allowed status changes by ``update_record_status``.
TRANSITIONS: dict[str, tuple[str, ...]] = {"submitted": ("in_review", "withdrawn"),
                                           "in_review": ("approved", "denied", "withdrawn"),
                                           "approved": ("issued",), "issued": ("finaled",)}
#: Days an issued permit stays valid.
PERMIT_VALID_DAYS = 180
_CLOSED = ("denied", "withdrawn", "finaled")


class Permits(Service):
    """Accela-style civic permitting: records, fees, inspections, workflow."""

    name = "permits"
    description = ("Municipal permitting: permit records by address and applicant, fees, inspections "
                   "(pass/fail) and the review/approve/issue workflow.")
    domain = "government"
    spec_source = None
    State = PermitsState

    # ---------------------------------------------------------------- helpers
    def _record(self, record_id: str) -> PermitRecord:
        return self.lookup(self.state.records, record_id, "permit record")

    def _inspection(self, inspection_id: str) -> Inspection:
        return self.lookup(self.state.inspections, inspection_id, "inspection")

    def _inspections_of(self, rid: str) -> list[Inspection]:
        return [i for i in self.state.inspections.values() if i.record_id == rid]

    @staticmethod
    def _balance(r: PermitRecord) -> float:
        return money(sum(f.amount for f in r.fees if f.status == "invoiced"))

    def _latest_result(self, rid: str, itype: str) -> Optional[str]:
        done = [i for i in self._inspections_of(rid) if i.inspection_type == itype and i.status in ("passed", "failed")]
        return max(done, key=lambda i: (i.resulted_on, i.id)).status if done else None

    def _view(self, r: PermitRecord) -> dict:
        return {**r.model_dump(), "balance_due": self._balance(r),
                "required_inspections": list(RECORD_TYPES[r.type].inspections)}

    def _check_issue(self, r: PermitRecord) -> None:
        if self._balance(r) > 0:
            raise Unprocessable(f"record {r.id} has {self._balance(r):.2f} in unpaid fees; pay them before issuing.")
        final = RECORD_TYPES[r.type].inspections[-1]
        if self._latest_result(r.id, final) == "failed":
            raise Unprocessable(f"the {final} inspection of {r.id} failed; it must pass on re-inspection first.")

    def _check_final(self, r: PermitRecord) -> None:
        missing = [t for t in RECORD_TYPES[r.type].inspections if self._latest_result(r.id, t) != "passed"]
        if missing:
            raise Unprocessable(f"record {r.id} still needs passed inspections: {', '.join(missing)}.")

    # ------------------------------------------------------------------ reads
    @tool(read_only=True)
    def list_record_types(self) -> list[dict]:
        """The permit types with their fee schedule and the inspections each needs (the last is the final)."""
        return [{"type": t.name, "base_fee": t.base_fee, "valuation_rate": t.valuation_rate,
                 "technology_surcharge": 12.5, "inspections": list(t.inspections)} for t in RECORD_TYPES.values()]

    @tool(read_only=True, returns=list[PermitRecord])
    def search_records(self, address: Optional[Address] = None, applicant_email: Optional[Email] = None,
                       contractor: Optional[CompanyName] = None, status: Optional[RecordStatus] = None,
                       type: Optional[RecordTypeName] = None, limit: int = Field(default=50, ge=1, le=200)) -> list[dict]:
        """Search permit records (without fees) by address (substring), applicant email, contractor, status or type.

        Args:
            address: part of the street address (case-insensitive).
            applicant_email: the applicant's email.
            contractor: the contractor company (case-insensitive).
            status: submitted, in_review, approved, issued, finaled, denied or withdrawn.
            type: the record type.
            limit: maximum number of records (1-200).
        """
        out = []
        for r in self.state.records.values():
            if ((address is None or address.lower() in r.address.lower())
                    and (applicant_email is None or r.applicant_email.lower() == applicant_email.lower())
                    and (contractor is None or (r.contractor or "").lower() == contractor.lower())
                    and (status is None or r.status == status) and (type is None or r.type == type)):
                out.append({**r.model_dump(exclude={"fees", "payments"}), "balance_due": self._balance(r)})
        return out[:limit]

    @tool(read_only=True, returns=PermitRecord)
    def get_record(self, record_id: Id("permit")) -> dict:
        """Get one record with its fees, payments, balance due, comments and required inspections.

        Args:
            record_id: the record id, e.g. PRM-0003.
        """
        return self._view(self._record(record_id))

    @tool(read_only=True, returns=list[Fee])
    def list_record_fees(self, record_id: Id("permit")) -> dict:
        """The fee items of a record and the balance due (USD).

        Args:
            record_id: the record.
        """
        r = self._record(record_id)
        return {"record_id": r.id, "fees": [f.model_dump() for f in r.fees], "balance_due": self._balance(r)}

    @tool(read_only=True, returns=list[Inspection])
    def list_record_inspections(self, record_id: Id("permit")) -> list[dict]:
        """The inspections of a record, in the order they were scheduled.

        Args:
            record_id: the record.
        """
        return [i.model_dump() for i in self._inspections_of(self._record(record_id).id)]

    @tool(read_only=True, returns=Inspection)
    def get_inspection(self, inspection_id: Id("inspection")) -> dict:
        """Get one inspection.

        Args:
            inspection_id: the inspection id, e.g. INSP-0002.
        """
        return self._inspection(inspection_id).model_dump()

    @tool(read_only=True)
    def check_inspection_availability(self, record_id: Id("permit"), inspection_type: str) -> dict:
        """The next five days (weekdays after today) an inspection of a record can be booked, earliest first.

        Args:
            record_id: the record.
            inspection_type: one of the record type's inspections.
        """
        r = self._record(record_id)
        if inspection_type not in RECORD_TYPES[r.type].inspections:
            raise Unprocessable(f"a {r.type} record takes these inspections: "
                                f"{', '.join(RECORD_TYPES[r.type].inspections)}.")
        days, day = [], self.today
        while len(days) < 5:
            day += dt.timedelta(days=1)
            if day.weekday() < 5:
                days.append(day)
        return {"record_id": r.id, "inspection_type": inspection_type, "available_dates": days}

    # ----------------------------------------------------------------- writes
    @tool(read_only=False, returns=PermitRecord)
    def create_record(self, type: RecordTypeName, applicant_email: Email,
                      address: Address = Field(min_length=5, max_length=120),
                      applicant_name: PersonName = Field(min_length=2),
                      applicant_phone: Phone = Field(min_length=7), description: str = Field(min_length=3, max_length=300),
                      valuation: Money = Field(default=0.0, ge=0, le=MONEY_MAX),
                      contractor: Optional[CompanyName] = None) -> dict:
        """Submit a permit application; its fees are invoiced from the fee schedule.

        Args:
            type: the record type (see list_record_types).
            applicant_email: applicant's email.
            address: street address of the work.
            applicant_name: applicant's name.
            applicant_phone: applicant's phone.
            description: scope of work.
            valuation: declared job value (USD).
            contractor: licensed contractor company.
        """
        open_same = [r.id for r in self.state.records.values() if r.type == type and r.status not in _CLOSED
                     and r.address.lower() == address.lower()]
        if open_same:
            raise Conflict(f"{address} already has an open {type} record: {open_same[0]}.")
        r = PermitRecord(id=self.new_id("PRM"), type=type, address=address, city=CITY, description=description,
                         valuation=money(valuation), applicant_name=applicant_name, applicant_email=applicant_email,
                         applicant_phone=applicant_phone, contractor=contractor, status="submitted",
                         opened_on=self.today)
        for code, desc, amount in assessed_fees(RECORD_TYPES[type], r.valuation):
            r.fees.append(Fee(id=self.new_id("FEE"), code=code, description=desc, amount=amount, status="invoiced"))
        self.state.records[r.id] = r
        return self._view(r)

    @tool(read_only=False, returns=PermitRecord)
    def update_record_status(self, record_id: Id("permit"),
                             status: Literal["in_review", "approved", "denied", "withdrawn", "issued", "finaled"],
                             comment: Optional[str] = Field(default=None, max_length=500)) -> dict:
        """Move a record along its workflow (submitted -> in_review -> approved -> issued -> finaled;
        denied from review, withdrawn before approval).

        Issuing needs every fee paid and no failed final inspection (422); finaling needs
        every required inspection passed (422); denying needs a comment (422).

        Args:
            record_id: the record.
            status: the new status.
            comment: reason or remark, added to the record's comments.
        """
        r = self._record(record_id)
        if status not in TRANSITIONS.get(r.status, ()):
            raise Conflict(f"record {r.id} is {r.status}; it can go to "
                           f"{', '.join(TRANSITIONS.get(r.status, ())) or 'no other status'}.")
        if status == "denied" and not comment:
            raise Unprocessable("give the reason for the denial in comment.")
        if status == "issued":
            self._check_issue(r)
            r.issued_on, r.expires_on = self.today, self.today + dt.timedelta(days=PERMIT_VALID_DAYS)
        if status == "finaled":
            self._check_final(r)
        r.status = status
        if comment:
            r.comments.append(f"{status}: {comment}")
        return self._view(r)

    @tool(read_only=False, returns=Fee)
    def assess_fee(self, record_id: Id("permit"), code: str = Field(min_length=2, max_length=12),
                   description: str = Field(min_length=3, max_length=120),
                   amount: Money = Field(ge=0.01, le=MONEY_MAX)) -> dict:
        """Invoice an extra fee on an open record (e.g. re-inspection fee).

        Args:
            record_id: the record (not finaled, denied or withdrawn).
            code: fee code, e.g. REINSP.
            description: what the fee is for.
            amount: amount (USD).
        """
        r = self._record(record_id)
        if r.status in _CLOSED:
            raise Conflict(f"record {r.id} is {r.status}; no fees can be added.")
        fee = Fee(id=self.new_id("FEE"), code=code.upper(), description=description, amount=money(amount),
                  status="invoiced")
        r.fees.append(fee)
        return {**fee.model_dump(), "record_id": r.id, "balance_due": self._balance(r)}

    @tool(read_only=False, returns=Payment)
    def pay_record_fees(self, record_id: Id("permit"), amount: Money = Field(ge=0.01, le=MONEY_MAX),
                        payment_method: Literal["credit_card", "check", "cash", "ach"] = "credit_card",
                        reference: str = Field(default="", max_length=120)) -> dict:
        """Pay every invoiced fee of a record; ``amount`` must equal the balance due (422 otherwise).

        Args:
            record_id: the record (not denied or withdrawn).
            amount: the balance due (USD).
            payment_method: credit_card, check, cash or ach.
            reference: the payer's reference (check number, case).
        """
        r = self._record(record_id)
        if r.status in ("denied", "withdrawn"):
            raise Conflict(f"record {r.id} is {r.status}; its fees are void.")
        due = self._balance(r)
        if due == 0:
            raise Conflict(f"record {r.id} has no fees due.")
        if money(amount) != due:
            raise Unprocessable(f"amount {money(amount):.2f} does not match the balance due {due:.2f}.")
        for f in r.fees:
            if f.status == "invoiced":
                f.status, f.paid_on = "paid", self.today
        p = Payment(receipt_number=self.new_id("RCPT"), amount=due, method=payment_method, reference=reference,
                    paid_on=self.today)
        r.payments.append(p)
        return {**p.model_dump(), "record_id": r.id, "balance_due": 0.0}

    @tool(read_only=False, returns=Inspection)
    def schedule_inspection(self, record_id: Id("permit"), inspection_type: str, scheduled_date: Date,
                            inspector: Optional[str] = None) -> dict:
        """Schedule an inspection the record's type requires, on a future weekday.

        Args:
            record_id: an approved or issued record.
            inspection_type: one of the record type's inspections, e.g. 'Final Building'.
            scheduled_date: the day (YYYY-MM-DD): after today, Monday to Friday.
            inspector: an inspector of the department; default assigned in rotation.
        """
        r = self._record(record_id)
        if r.status not in ("approved", "issued"):
            raise Conflict(f"record {r.id} is {r.status}; inspections need an approved or issued record.")
        wanted = RECORD_TYPES[r.type].inspections
        if inspection_type not in wanted:
            raise Unprocessable(f"a {r.type} record takes these inspections: {', '.join(wanted)}.")
        if scheduled_date <= self.today or scheduled_date.weekday() >= 5:
            raise Unprocessable(f"{scheduled_date} is not a future weekday.")
        if inspector is not None and inspector not in INSPECTORS:
            raise NotFound(f"no inspector {inspector!r}; inspectors are {', '.join(INSPECTORS)}.")
        if any(i.inspection_type == inspection_type and i.status == "scheduled" for i in self._inspections_of(r.id)):
            raise Conflict(f"a {inspection_type} inspection of {r.id} is already scheduled.")
        iid = self.new_id("INSP")
        insp = Inspection(id=iid, record_id=r.id, inspection_type=inspection_type, scheduled_date=scheduled_date,
                          inspector=inspector or INSPECTORS[int(iid.split("-")[1]) % len(INSPECTORS)],
                          status="scheduled")
        self.state.inspections[iid] = insp
        return insp.model_dump()

    @tool(read_only=False, returns=Inspection)
    def result_inspection(self, inspection_id: Id("inspection"), result: Literal["passed", "failed"],
                          comment: Optional[str] = Field(default=None, max_length=500)) -> dict:
        """Record the result of a scheduled inspection on or after its day (a fail needs a comment).

        Args:
            inspection_id: the inspection.
            result: passed or failed.
            comment: the inspector's notes (required for a fail).
        """
        insp = self._inspection(inspection_id)
        if insp.status != "scheduled":
            raise Conflict(f"inspection {insp.id} is {insp.status}.")
        if insp.scheduled_date > self.today:
            raise Unprocessable(f"inspection {insp.id} is on {insp.scheduled_date}; it cannot be resulted before.")
        if result == "failed" and not comment:
            raise Unprocessable("a failed inspection needs a comment saying what to correct.")
        insp.status, insp.result_comment, insp.resulted_on = result, comment, self.today
        return insp.model_dump()

    @tool(read_only=False, returns=Inspection)
    def cancel_inspection(self, inspection_id: Id("inspection"), reason: str = Field(min_length=3, max_length=300)
                          ) -> dict:
        """Cancel a scheduled inspection.

        Args:
            inspection_id: the inspection.
            reason: why.
        """
        insp = self._inspection(inspection_id)
        if insp.status != "scheduled":
            raise Conflict(f"inspection {insp.id} is {insp.status}.")
        insp.status, insp.result_comment = "cancelled", reason
        return insp.model_dump()

    @tool(read_only=False, returns=PermitRecord)
    def add_record_comment(self, record_id: Id("permit"), comment: str = Field(min_length=1, max_length=500)) -> dict:
        """Add a comment to a record.

        Args:
            record_id: the record.
            comment: the comment.
        """
        r = self._record(record_id)
        r.comments.append(comment)
        return self._view(r)

    # ------------------------------------------------------------------ seeds
    @classmethod
    def build_seed_state(cls, fake: Faker, rng: random.Random, today: dt.date) -> PermitsState:
        return build_state(fake, rng, today)
