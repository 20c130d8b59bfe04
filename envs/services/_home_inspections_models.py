"""Records of the home_inspections service (Spectora style).

An inspection keeps Spectora's inspection fields, snake_cased: the property
(``address``, ``city``, ``state``, ``zip``, ``square_feet``, ``year_built``),
``datetime`` and ``duration``, the inspector, the people (``clients`` is one
buyer here, plus the buyer's and the listing agent), the ``services`` with
their fees, the ``paid`` and ``agreed`` flags, the report's ``published``
state and the company's ``internal_notes``. Report items are Spectora's
defect comments: a section of the residential template, a summary category
(maintenance item, recommendation, safety hazard) and a repair-cost range.
"""

from __future__ import annotations

from typing import Literal, Optional

from pydantic import Field

from compoworld_gym.entities import Address, City, DateTime, Email, Id, Money, PersonName, Phone
from compoworld_gym.envs.services._blocks import OutboxMessage
from compoworld_gym.service import Record, ServiceState

InspectionStatus = Literal["unconfirmed", "confirmed", "completed", "cancelled"]
PropertyType = Literal["Single Family", "Townhouse", "Condominium"]
#: Sections of Spectora's residential template a defect is written in.
Section = Literal["Roof", "Exterior", "Structure", "Electrical", "Plumbing", "Heating", "Cooling", "Interior",
                  "Insulation & Ventilation", "Built-in Appliances", "Garage"]
#: Spectora's default summary categories, least to most serious.
Severity = Literal["maintenance_item", "recommendation", "safety_hazard"]
SEVERITIES: tuple[str, ...] = ("maintenance_item", "recommendation", "safety_hazard")
AgreementStatus = Literal["unsigned", "signed", "void"]
PaymentMethod = Literal["card", "ach", "check", "cash"]


class Inspector(Record):
    """An inspector of the company account."""

    id: Id("user") = Field(description="Inspector user id, e.g. USR-0001.")
    name: PersonName = Field(description="Inspector's full name.")
    email: Email = Field(description="Inspector's work email.")
    phone: Phone = Field(description="Inspector's phone.")
    license_number: str = Field(description="State home-inspector license number.")
    active: bool = Field(default=True, description="Inactive inspectors take no new inspections.")


class ServiceOffering(Record):
    """A service of the company's price list (Spectora Services and fees)."""

    id: str = Field(description="Service id, e.g. SVC-0001.")
    name: str = Field(description="Service name, e.g. Residential Home Inspection.")
    base_fee: Money = Field(ge=0, description="Fee up to the included square footage (USD).")
    sqft_included: int = Field(ge=0, description="Square feet the base fee covers (0: flat fee).")
    fee_per_500_sqft: Money = Field(ge=0, description="Added for each started 500 sq ft beyond what is included.")
    pre_1950_fee: Money = Field(ge=0, description="Added for a home built before 1950.")
    duration: int = Field(ge=0, description="Minutes the service adds on site.")
    add_on: bool = Field(description="An add-on sold only with a main inspection.")


class InspectionServiceLine(Record):
    """One service booked on an inspection, priced for the home when added."""

    service_id: str = Field(description="The service of the price list.")
    name: str = Field(description="Service name.")
    fee: Money = Field(ge=0, description="Fee charged for this home (USD).")


class Inspection(Record):
    """An inspection (Spectora ``/inspections``): a property, a time, the people and the report's state."""

    id: Id("home_inspection") = Field(description="Inspection id, e.g. INSP-0001.")
    address: Address = Field(description="Street address of the inspected home.")
    city: City = Field(description="City.")
    state: str = Field(description="US state code.")
    zip: str = Field(description="ZIP code.")
    property_type: PropertyType = Field(description="Kind of home.")
    square_feet: int = Field(ge=100, description="Finished floor area (sq ft), which prices the inspection.")
    year_built: int = Field(ge=1800, description="Year built.")
    datetime: DateTime = Field(description="Start of the inspection.")
    duration: int = Field(ge=30, description="Minutes on site.")
    inspector_id: Id("user") = Field(description="The inspector.")
    inspector_name: PersonName = Field(description="The inspector's name.")
    inspector_email: Email = Field(description="The inspector's email.")
    client_name: PersonName = Field(description="The client: the buyer who ordered the inspection.")
    client_email: Email = Field(description="The client's email.")
    client_phone: Optional[Phone] = Field(default=None, description="The client's phone.")
    buyer_agent_name: Optional[PersonName] = Field(default=None, description="The client's (buyer's) agent.")
    buyer_agent_email: Optional[Email] = Field(default=None, description="The buyer's agent's email.")
    listing_agent_name: Optional[PersonName] = Field(default=None, description="The seller's listing agent.")
    listing_agent_email: Optional[Email] = Field(default=None, description="The listing agent's email.")
    services: list[InspectionServiceLine] = Field(min_length=1, description="Services booked, with their fees.")
    fee_total: Money = Field(ge=0, description="Sum of the services' fees (USD).")
    amount_paid: Money = Field(ge=0, description="Payments received, net of refunds (USD).")
    paid: bool = Field(description="The fee is paid in full.")
    agreed: bool = Field(description="The current inspection agreement is signed.")
    status: InspectionStatus = Field(description="unconfirmed -> confirmed -> completed, or cancelled.")
    report_published: bool = Field(default=False, description="The report was published to the client and agents.")
    report_published_at: Optional[DateTime] = Field(default=None, description="When the report was published.")
    internal_notes: list[str] = Field(default_factory=list, description="Company-only notes, oldest first.")
    created_at: DateTime = Field(description="When the inspection was booked.")
    confirmed_at: Optional[DateTime] = Field(default=None, description="When it was confirmed.")
    completed_at: Optional[DateTime] = Field(default=None, description="When the inspector finished on site.")
    cancelled_at: Optional[DateTime] = Field(default=None, description="When it was cancelled.")
    cancel_reason: Optional[str] = Field(default=None, description="Why it was cancelled.")


class Agreement(Record):
    """An inspection agreement the client signs; its fee placeholder is the inspection's fee total."""

    id: str = Field(description="Agreement id, e.g. AGR-0001.")
    inspection_id: Id("home_inspection") = Field(description="The inspection.")
    name: str = Field(description="Template name, e.g. Pre-Inspection Agreement.")
    fee_total: Money = Field(ge=0, description="The fees the agreement states (its {{FEES}} placeholder).")
    status: AgreementStatus = Field(description="unsigned, signed, or void (replaced after the fees changed).")
    signed_by: Optional[PersonName] = Field(default=None, description="Who signed.")
    signed_at: Optional[DateTime] = Field(default=None, description="When signed.")
    created_at: DateTime = Field(description="When issued.")


class Payment(Record):
    """A payment towards an inspection's fee."""

    id: Id("payment") = Field(description="Payment id, e.g. PAY-0001.")
    inspection_id: Id("home_inspection") = Field(description="The inspection paid for.")
    amount: Money = Field(gt=0, description="Amount received (USD).")
    method: PaymentMethod = Field(description="card, ach, check or cash.")
    paid_at: DateTime = Field(description="When received.")
    refunded: bool = Field(default=False, description="Refunded when the inspection was cancelled.")


class Defect(Record):
    """A defect comment of an inspection report, with Spectora's repair estimate range."""

    id: Id("inspection_defect") = Field(description="Defect id, e.g. DEF-0001.")
    inspection_id: Id("home_inspection") = Field(description="The inspection whose report holds it.")
    section: Section = Field(description="Report section (template category).")
    severity: Severity = Field(description="maintenance_item, recommendation or safety_hazard.")
    title: str = Field(description="Short title, e.g. Missing GFCI protection.")
    location: str = Field(default="", description="Where in the home.")
    comment: str = Field(default="", description="The inspector's narrative.")
    contractor: str = Field(description="Who should repair it, e.g. Qualified electrician.")
    estimate_low: Money = Field(ge=0, description="Low end of the repair estimate (USD).")
    estimate_high: Money = Field(ge=0, description="High end of the repair estimate (USD).")
    created_at: DateTime = Field(description="When written.")


class HomeInspectionsState(ServiceState):
    """Inspectors, the price list, inspections, agreements, payments, report defects and sent notices."""

    inspectors: dict[str, Inspector] = Field(default_factory=dict, description="Inspectors by id.")
    services: dict[str, ServiceOffering] = Field(default_factory=dict, description="Price list by id.")
    inspections: dict[str, Inspection] = Field(default_factory=dict, description="Inspections by id.")
    agreements: dict[str, Agreement] = Field(default_factory=dict, description="Agreements by id.")
    payments: dict[str, Payment] = Field(default_factory=dict, description="Payments by id.")
    defects: dict[str, Defect] = Field(default_factory=dict, description="Report defects by id.")
    outbox: dict[str, OutboxMessage] = Field(default_factory=dict, description="Report-ready notices sent.")
