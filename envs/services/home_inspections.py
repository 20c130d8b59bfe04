"""Home inspections: buyers' inspections of homes, their agreements, fees and defect reports.

No home-inspection server is in ``compoworld_gym/data/mcp_servers.jsonl``
(``spec_source = None``); the interface follows Spectora, the inspection
business platform: inspections (``address``, ``city``, ``state``, ``zip``,
``square_feet``, ``year_built``, ``datetime``, ``duration``, the inspector,
``clients``, buyer's and seller's ``agents``, ``services`` with ``fees``,
``paid``, ``agreed``, ``confirmed``, ``cancelled``, ``internal_notes``), the
company's Services & Fees list with its square-footage and age modifiers,
agreements with the ``{{FEES}}`` placeholder, payments, the report's
defect comments in template sections with the summary categories
(maintenance item, recommendation, safety hazard) and the Repair Estimate
ranges, and Publish, which sends the Report Ready notice to the client and
agents.

Rules of the real product: an inspection cannot be booked or moved into
the past, and an inspector takes one inspection at a time (07:00-17:00
starts); a service is priced for the home when added, and adding one after
the agreement was signed voids it and issues a new agreement with the new
fees (the old one stated old pricing); only the client signs, once; a
payment cannot exceed the balance due; an inspection is completed only once
its start time has passed; a report is written while the inspection is
confirmed or completed and is final once published; a report is published
only for a completed inspection whose agreement is signed and whose fee is
paid in full (Spectora keeps such reports locked); cancelling refunds the
payments and voids the agreement, and a completed inspection cannot be
cancelled. Left out: multiple clients per inspection, discounts and
coupons, the scheduler's availability rules, automations and templates.
"""

from __future__ import annotations

import datetime as dt
import random
from typing import Optional

from faker import Faker
from pydantic import Field

from compoworld_gym.entities import Address, Date, DateTime, Email, Id, Money, PersonName, Phone
from compoworld_gym.envs.services._blocks import eq, ieq, select
from compoworld_gym.envs.services._commerce import MONEY_MAX, money
from compoworld_gym.envs.services._home_inspections_models import (
    Agreement, Defect, HomeInspectionsState, Inspection, InspectionServiceLine, InspectionStatus, Inspector, Payment,
    PaymentMethod, PropertyType, ServiceOffering,
)
from compoworld_gym.envs.services._home_inspections_rules import (
    FIRST_START, INSPECTION, LAST_START, balance_due, busy_with, service_fee, summary,
)
from compoworld_gym.envs.services._home_inspections_report import ReportMixin
from compoworld_gym.envs.services._home_inspections_seed import AGREEMENT_NAME, build_state, seed_for
from compoworld_gym.errors import Conflict, InvalidArgument, NotFound, Unprocessable
from compoworld_gym.service import DAY_START, Service, tool


class HomeInspections(ReportMixin, Service):
    """Spectora-style home inspection company: inspections, agreements, payments and reports."""

    name = "home_inspections"
    description = ("Home inspections (Spectora): buyers' inspections of homes with the inspector, agreement, fees "
                   "and payments, and the defect report with repair estimates, published to client and agents.")
    domain = "real_estate"
    spec_source = None
    State = HomeInspectionsState

    # ---------------------------------------------------------------- helpers
    def _clock(self) -> dt.datetime:
        return dt.datetime.combine(self.today, DAY_START) + dt.timedelta(minutes=self.state.clock)

    def _inspection(self, inspection_id: str) -> Inspection:
        return self.lookup(self.state.inspections, inspection_id, "inspection")

    def _defects(self, iid: str) -> list[Defect]:
        return [d for d in self.state.defects.values() if d.inspection_id == iid]

    def _current_agreement(self, iid: str) -> Optional[Agreement]:
        return next((a for a in reversed(self.state.agreements.values())
                     if a.inspection_id == iid and a.status != "void"), None)

    def _view(self, i: Inspection) -> dict:
        s = summary(self._defects(i.id))
        return {**i.model_dump(), "balance_due": balance_due(i),
                "report": {"published": i.report_published, "locked": not (i.paid and i.agreed),
                           "defect_count": s["defect_count"], "safety_hazards": s["counts"]["safety_hazard"],
                           "repair_estimate_low": s["repair_estimate_low"],
                           "repair_estimate_high": s["repair_estimate_high"]}}

    def _inspector(self, email: str) -> Inspector:
        hit = next((x for x in self.state.inspectors.values() if x.email.lower() == email.lower()), None)
        if hit is None:
            raise NotFound(f"no inspector has email {email!r}; call list_inspectors.")
        if not hit.active:
            raise Conflict(f"inspector {hit.name} is inactive and takes no inspections.")
        return hit

    def _check_slot(self, start: dt.datetime, minutes: int, inspector: Inspector, skip: str = "") -> None:
        if start <= self._clock():
            raise Unprocessable(f"{start.isoformat()} is in the past; an inspection is scheduled for a later time "
                                f"(now is {self._clock().isoformat()}).")
        if not FIRST_START <= start.time() <= LAST_START:
            raise InvalidArgument("an inspection starts between 07:00 and 17:00.")
        clash = busy_with(self.state.inspections.values(), inspector.id, start, minutes, skip)
        if clash:
            raise Conflict(f"{inspector.name} is booked then ({', '.join(clash)}); pick another time or inspector.")

    def _issue_agreement(self, i: Inspection) -> Agreement:
        a = Agreement(id=self.new_id("AGR"), inspection_id=i.id, name=AGREEMENT_NAME, fee_total=i.fee_total,
                      status="unsigned", created_at=self.now())
        self.state.agreements[a.id] = a
        return a

    # ------------------------------------------------------------------ reads
    @tool(read_only=True, returns=list[Inspection])
    def list_inspections(self, status: Optional[InspectionStatus] = None,
                         address: Optional[Address] = Field(default=None, max_length=120),
                         client_email: Optional[Email] = None, inspector_email: Optional[Email] = None,
                         date_from: Optional[Date] = None, date_to: Optional[Date] = None,
                         paid: Optional[bool] = None, limit: int = Field(default=50, ge=1, le=200)) -> list[dict]:
        """List inspections in date order, by status, address, client, inspector, day range or paid flag.

        Args:
            status: unconfirmed, confirmed, completed or cancelled.
            address: text the street address contains (case-insensitive), e.g. 2714 SE Clinton.
            client_email: the client's (buyer's) email.
            inspector_email: the inspector's email.
            date_from: only inspections on or after this day.
            date_to: only inspections on or before this day.
            paid: only paid (true) or unpaid (false) inspections.
            limit: maximum number of inspections (1-200).
        """
        if date_from and date_to and date_from > date_to:
            raise InvalidArgument("date_from is after date_to.")
        near = (lambda i: address.lower() in i.address.lower()) if address else None
        after = (lambda i: i.datetime.date() >= date_from) if date_from else None
        before = (lambda i: i.datetime.date() <= date_to) if date_to else None
        rows = select(sorted(self.state.inspections.values(), key=lambda i: (i.datetime, i.id)), eq("status", status),
                      near, ieq("client_email", client_email), ieq("inspector_email", inspector_email), after, before,
                      eq("paid", paid), limit=limit)
        return [self._view(i) for i in rows]

    @tool(read_only=True, returns=Inspection)
    def get_inspection(self, inspection_id: Id("home_inspection")) -> dict:
        """Get one inspection with its balance due and its report's state and repair estimate.

        Args:
            inspection_id: the inspection id, e.g. INSP-0001.
        """
        return self._view(self._inspection(inspection_id))

    @tool(read_only=True, returns=list[Inspector])
    def list_inspectors(self, active: Optional[bool] = None) -> list[dict]:
        """List the company's inspectors.

        Args:
            active: only active (true) or inactive (false) inspectors.
        """
        return [x.model_dump() for x in select(self.state.inspectors.values(), eq("active", active))]

    @tool(read_only=True, returns=list[ServiceOffering])
    def list_services(self) -> list[dict]:
        """The company's services and fees, with their square-footage and age modifiers."""
        return [s.model_dump() for s in self.state.services.values()]

    @tool(read_only=True, returns=list[Agreement])
    def list_agreements(self, inspection_id: Id("home_inspection")) -> list[dict]:
        """List an inspection's agreements (void ones were replaced after the fees changed).

        Args:
            inspection_id: the inspection.
        """
        self._inspection(inspection_id)
        return [a.model_dump() for a in self.state.agreements.values() if a.inspection_id == inspection_id]

    @tool(read_only=True, returns=list[Payment])
    def list_payments(self, inspection_id: Id("home_inspection")) -> list[dict]:
        """List the payments towards an inspection's fee.

        Args:
            inspection_id: the inspection.
        """
        self._inspection(inspection_id)
        return [p.model_dump() for p in self.state.payments.values() if p.inspection_id == inspection_id]

    # ----------------------------------------------------------------- writes
    @tool(read_only=False, returns=Inspection)
    def create_inspection(self, address: Address = Field(min_length=3, max_length=120),
                          city: str = Field(min_length=1, max_length=80),
                          state: str = Field(pattern=r"^[A-Za-z]{2}$"),
                          zip: str = Field(pattern=r"^\d{5}$"),
                          datetime: DateTime = Field(), inspector_email: Email = Field(),
                          client_name: PersonName = Field(min_length=2, max_length=120),
                          client_email: Email = Field(),
                          square_feet: int = Field(ge=100, le=20000), year_built: int = Field(ge=1800, le=2030),
                          property_type: PropertyType = "Single Family",
                          service_ids: list[str] = Field(default_factory=lambda: ["SVC-0001"], min_length=1,
                                                         max_length=8),
                          client_phone: Optional[Phone] = None, buyer_agent_name: Optional[PersonName] = None,
                          buyer_agent_email: Optional[Email] = None, listing_agent_name: Optional[PersonName] = None,
                          listing_agent_email: Optional[Email] = None) -> dict:
        """Book an inspection (unconfirmed) with its services priced for the home and an unsigned agreement.

        Args:
            address: street address of the home, e.g. 2714 SE Clinton Street.
            city: city.
            state: two-letter state code.
            zip: 5-digit ZIP code.
            datetime: start, in the future, between 07:00 and 17:00.
            inspector_email: an active inspector (list_inspectors); they must be free then.
            client_name: the buyer ordering the inspection (who signs the agreement).
            client_email: the buyer's email.
            square_feet: finished floor area (prices the inspection).
            year_built: year built (homes before 1950 cost more).
            property_type: Single Family, Townhouse or Condominium.
            service_ids: services from list_services; exactly one main inspection, the rest add-ons.
            client_phone: the buyer's phone.
            buyer_agent_name: the buyer's agent.
            buyer_agent_email: the buyer's agent's email.
            listing_agent_name: the seller's listing agent.
            listing_agent_email: the listing agent's email.
        """
        offers = [self.lookup(self.state.services, sid, "service") for sid in dict.fromkeys(service_ids)]
        main = [s for s in offers if not s.add_on]
        if len(main) != 1:
            raise Unprocessable(f"book exactly one main inspection service (not an add-on); got {len(main)}.")
        who = self._inspector(inspector_email)
        minutes = sum(s.duration for s in offers)
        self._check_slot(datetime, minutes, who)
        lines = [InspectionServiceLine(service_id=s.id, name=s.name, fee=service_fee(s, square_feet, year_built))
                 for s in offers]
        total = money(sum(x.fee for x in lines))
        i = Inspection(id=self.new_id("INSP"), address=address.strip(), city=city, state=state.upper(), zip=zip,
                       property_type=property_type, square_feet=square_feet, year_built=year_built, datetime=datetime,
                       duration=minutes, inspector_id=who.id, inspector_name=who.name, inspector_email=who.email,
                       client_name=client_name, client_email=client_email, client_phone=client_phone,
                       buyer_agent_name=buyer_agent_name, buyer_agent_email=buyer_agent_email,
                       listing_agent_name=listing_agent_name, listing_agent_email=listing_agent_email, services=lines,
                       fee_total=total, amount_paid=0.0, paid=False, agreed=False, status="unconfirmed",
                       created_at=self.now())
        self.state.inspections[i.id] = i
        self._issue_agreement(i)
        return self._view(i)

    @tool(read_only=False, returns=Inspection)
    def confirm_inspection(self, inspection_id: Id("home_inspection")) -> dict:
        """Confirm an unconfirmed inspection with the client.

        Args:
            inspection_id: the inspection.
        """
        i = self._inspection(inspection_id)
        INSPECTION.check(i.id, i.status, "confirm")
        i.status, i.confirmed_at = "confirmed", self.now()
        return self._view(i)

    @tool(read_only=False, returns=Inspection)
    def reschedule_inspection(self, inspection_id: Id("home_inspection"), datetime: DateTime,
                              inspector_email: Optional[Email] = None) -> dict:
        """Move an inspection to a later time, optionally to another inspector (who must be free).

        Args:
            inspection_id: an unconfirmed or confirmed inspection.
            datetime: new start, in the future, between 07:00 and 17:00.
            inspector_email: a different active inspector (default: the same one).
        """
        i = self._inspection(inspection_id)
        INSPECTION.check(i.id, i.status, "reschedule")
        who = self._inspector(inspector_email) if inspector_email else self.state.inspectors[i.inspector_id]
        self._check_slot(datetime, i.duration, who, skip=i.id)
        i.datetime, i.inspector_id, i.inspector_name, i.inspector_email = datetime, who.id, who.name, who.email
        return self._view(i)

    @tool(read_only=False, destructive=True, returns=Inspection)
    def cancel_inspection(self, inspection_id: Id("home_inspection"),
                          reason: str = Field(min_length=3, max_length=300)) -> dict:
        """Cancel an inspection that has not taken place: its payments are refunded and its agreement voided.

        Args:
            inspection_id: an unconfirmed or confirmed inspection.
            reason: why, e.g. Buyer withdrew the offer.
        """
        i = self._inspection(inspection_id)
        INSPECTION.check(i.id, i.status, "cancel")
        for p in self.state.payments.values():
            if p.inspection_id == i.id:
                p.refunded = True
        for a in self.state.agreements.values():
            if a.inspection_id == i.id:
                a.status = "void"
        i.status, i.cancel_reason, i.cancelled_at = "cancelled", reason, self.now()
        i.amount_paid, i.paid, i.agreed = 0.0, False, False
        return self._view(i)

    @tool(read_only=False, returns=Inspection)
    def add_service(self, inspection_id: Id("home_inspection"), service_id: str) -> dict:
        """Add an add-on service priced for the home; a signed agreement is voided and a new one issued.

        Args:
            inspection_id: an unconfirmed or confirmed inspection.
            service_id: an add-on from list_services, e.g. SVC-0003 (Radon Testing).
        """
        i = self._inspection(inspection_id)
        s = self.lookup(self.state.services, service_id, "service")
        INSPECTION.check(i.id, i.status, "add a service")
        if not s.add_on:
            raise Unprocessable(f"{s.name} is a main inspection; an inspection has one (book a new inspection).")
        if any(x.service_id == s.id for x in i.services):
            raise Conflict(f"inspection {i.id} already includes {s.name}.")
        self._check_slot(i.datetime, i.duration + s.duration, self.state.inspectors[i.inspector_id], skip=i.id)
        i.services.append(InspectionServiceLine(service_id=s.id, name=s.name,
                                                fee=service_fee(s, i.square_feet, i.year_built)))
        i.fee_total, i.duration = money(i.fee_total + i.services[-1].fee), i.duration + s.duration
        i.paid = i.amount_paid >= i.fee_total
        current = self._current_agreement(i.id)
        if current is not None and current.status == "signed":
            current.status, i.agreed = "void", False
            self._issue_agreement(i)
        elif current is not None:
            current.fee_total = i.fee_total
        return self._view(i)

    @tool(read_only=False, returns=Agreement)
    def sign_agreement(self, agreement_id: str, signer_name: PersonName = Field(min_length=2, max_length=120)) -> dict:
        """Record the client's signature on an unsigned agreement.

        Args:
            agreement_id: the agreement, e.g. AGR-0005 (list_agreements).
            signer_name: who signs: the inspection's client.
        """
        a = self.lookup(self.state.agreements, agreement_id, "agreement")
        i = self.state.inspections[a.inspection_id]
        if a.status != "unsigned":
            raise Conflict(f"agreement {a.id} is {a.status}; only an unsigned agreement can be signed.")
        if i.status == "cancelled":
            raise Conflict(f"inspection {i.id} is cancelled.")
        if signer_name.strip().lower() != i.client_name.lower():
            raise Unprocessable(f"only the client, {i.client_name}, signs the agreement of inspection {i.id}.")
        a.status, a.signed_by, a.signed_at = "signed", i.client_name, self.now()
        i.agreed = True
        return a.model_dump()

    @tool(read_only=False, returns=Payment)
    def record_payment(self, inspection_id: Id("home_inspection"),
                       amount: Money = Field(ge=0.01, le=MONEY_MAX), method: PaymentMethod = "card") -> dict:
        """Record a payment towards an inspection's fee (at most the balance due).

        Args:
            inspection_id: an inspection that is not cancelled.
            amount: amount received (USD).
            method: card, ach, check or cash.
        """
        i = self._inspection(inspection_id)
        if i.status == "cancelled":
            raise Conflict(f"inspection {i.id} is cancelled; it takes no payment.")
        due = balance_due(i)
        if due == 0:
            raise Conflict(f"inspection {i.id} is already paid in full.")
        if money(amount) > due:
            raise Unprocessable(f"the balance due on {i.id} is {due:,.2f}; a payment of {amount:,.2f} is more.")
        p = Payment(id=self.new_id("PAY"), inspection_id=i.id, amount=money(amount), method=method, paid_at=self.now())
        self.state.payments[p.id] = p
        i.amount_paid = money(i.amount_paid + p.amount)
        i.paid = i.amount_paid >= i.fee_total
        return {**p.model_dump(), "balance_due": balance_due(i)}

    @tool(read_only=False, returns=Inspection)
    def complete_inspection(self, inspection_id: Id("home_inspection")) -> dict:
        """Mark a confirmed inspection done on site (its start time must have passed).

        Args:
            inspection_id: a confirmed inspection.
        """
        i = self._inspection(inspection_id)
        INSPECTION.check(i.id, i.status, "complete")
        if i.datetime > self._clock():
            raise Unprocessable(f"inspection {i.id} starts {i.datetime.isoformat()}; it cannot be completed before.")
        i.status, i.completed_at = "completed", self.now()
        return self._view(i)

    # ------------------------------------------------------------------ seeds
    @classmethod
    def seed_state(cls, seed: int, today: dt.date) -> HomeInspectionsState:
        """Seeded state on the listings and mortgage_loans seeds for the same seed."""
        return seed_for(seed, today)

    @classmethod
    def build_seed_state(cls, fake: Faker, rng: random.Random, today: dt.date) -> HomeInspectionsState:
        from compoworld_gym.envs.services.listings import Listings
        from compoworld_gym.envs.services.mortgage_loans import MortgageLoans

        return build_state(rng, today, Listings.build_seed_state(fake, rng, today),
                           MortgageLoans.build_seed_state(fake, rng, today))


__all__ = ["HomeInspections"]
