"""Records of the vehicle_registration service (a state DMV business-partner API).

The shapes follow the California DMV Business Partner Automation program as
partner platforms such as Vitu expose it: a ``vehicle`` keyed by VIN with its
title (title number, legal owner / lienholder and lien status), a
``registration`` with the plate, the registered owner and the expiration
date, ``holds`` (the DMV "stops" that parking and toll agencies place on a
registration), smog certificates transmitted by STAR stations, renewal
transactions with their fee lines, and title transfers from seller to buyer.
"""

from __future__ import annotations

from typing import Annotated, Literal, Optional

from pydantic import Field

from compoworld_gym.entities import Address, City, CompanyName, Date, Email, Id, Money, PersonName
from compoworld_gym.service import Record, ServiceState

#: A 17-character VIN: digits and capitals without I, O and Q (ISO 3779).
VIN_PATTERN = r"^[A-HJ-NPR-Z0-9]{17}$"
Vin = Annotated[str, Field(pattern=VIN_PATTERN, description="17-character VIN (no I, O or Q).")]
Plate = Annotated[str, Field(pattern=r"^[A-Z0-9]{2,8}$", description="Licence plate, 2-8 capitals or digits.")]
VehicleClass = Literal["passenger", "commercial", "motorcycle", "trailer"]
FuelType = Literal["gasoline", "diesel", "hybrid", "electric"]
RegistrationStatus = Literal["active", "cancelled"]
HoldKind = Literal["parking", "toll"]
PaymentMethod = Literal["credit_card", "ach", "check", "cash"]


class SmogCertificate(Record):
    """A smog inspection a STAR station transmitted for the vehicle."""

    certificate_number: str = Field(description="Certificate number, e.g. SC4821937.")
    station: str = Field(description="Smog check station.")
    tested_on: Date = Field(description="Day of the inspection.")
    result: Literal["passed", "failed"] = Field(description="passed or failed.")
    odometer: int = Field(ge=0, description="Odometer reading at the inspection (miles).")


class Vehicle(Record):
    """A vehicle record with its title, keyed by VIN."""

    vin: Vin
    make: str = Field(description="Manufacturer.")
    model: str = Field(description="Model.")
    year: int = Field(ge=1950, le=2100, description="Model year.")
    body_type: str = Field(description="Body type: SD sedan, VN van, PK pickup, TK truck, MC motorcycle, TL trailer.")
    vehicle_class: VehicleClass = Field(description="Fee class.")
    fuel: FuelType = Field(description="Fuel type.")
    unladen_weight_lbs: int = Field(ge=0, le=80000, description="Unladen weight (lbs); sets a commercial weight fee.")
    market_value: Money = Field(ge=0, description="Market value (USD); the vehicle license fee is a share of it.")
    odometer: int = Field(ge=0, description="Last reported odometer reading (miles).")
    title_number: str = Field(description="Certificate of title number.")
    title_issued_on: Date = Field(description="Date the current title was issued.")
    lienholder: Optional[CompanyName] = Field(default=None, description="Legal owner (lender) on the title, if any.")
    lien_status: Literal["none", "active", "released"] = Field(
        description="Whether the lienholder still has an interest.")
    lien_released_on: Optional[Date] = Field(default=None, description="Date the lienholder released its interest.")
    smog_certificates: list[SmogCertificate] = Field(default_factory=list,
                                                     description="Smog inspections, oldest first.")


class FeeLine(Record):
    """One fee of a registration transaction."""

    code: str = Field(description="Fee code: REG, CHP, VLF, WGT, SMOG, RIF or LATE.")
    description: str = Field(description="What the fee is.")
    amount: Money = Field(ge=0, description="Amount (USD).")


class RegistrationRenewal(Record):
    """One renewal transaction of a registration."""

    id: str = Field(description="Transaction id, e.g. RNW-0001.")
    renewed_on: Date = Field(description="Date renewed.")
    previous_expiration: Date = Field(description="Expiration date before the renewal.")
    new_expiration: Date = Field(description="Expiration date after the renewal.")
    fees: list[FeeLine] = Field(description="Fee lines paid.")
    total: Money = Field(ge=0, description="Amount paid (USD).")
    method: PaymentMethod = Field(description="How it was paid.")
    reference: str = Field(default="", description="Payer's reference.")


class Registration(Record):
    """A vehicle registration: plate, registered owner and expiration date."""

    id: Id("vehicle_registration") = Field(description="Registration id, e.g. REG-0001.")
    vin: Vin
    plate: Plate
    registered_owner: str = Field(description="Registered owner: a person or a company.")
    owner_email: Email = Field(description="Email of the registered owner (a fleet's registration contact).")
    owner_company: Optional[CompanyName] = Field(default=None, description="Owning company, for fleet registrations.")
    unit_number: Optional[Id("vehicle")] = Field(default=None,
                                                 description="The fleet's own unit number, e.g. VEH-0003.")
    mailing_address: Address = Field(description="Mailing address for the registration card and notices.")
    city: City = Field(description="City of the mailing address.")
    status: RegistrationStatus = Field(description="active or cancelled (sold, junked, moved out of state).")
    issued_on: Date = Field(description="Date first registered to this owner.")
    expires_on: Date = Field(description="Expiration date of the registration (tags).")
    cancel_reason: Optional[str] = Field(default=None, description="Why it was cancelled.")
    renewals: list[RegistrationRenewal] = Field(default_factory=list, description="Renewals, oldest first.")
    notes: list[str] = Field(default_factory=list, description="Notes, oldest first.")


class Hold(Record):
    """A parking or toll hold (DMV stop) placed on a registration by an agency."""

    id: str = Field(description="Hold id, e.g. HLD-0001.")
    registration_id: Id("vehicle_registration") = Field(description="The registration held.")
    kind: HoldKind = Field(description="parking or toll.")
    agency: str = Field(description="The agency that placed it.")
    citation_number: str = Field(description="The agency's citation or violation number.")
    amount: Money = Field(ge=0.01, description="Amount owed to clear it (USD).")
    status: Literal["open", "cleared"] = Field(description="open (blocks renewal) or cleared.")
    placed_on: Date = Field(description="Date placed.")
    cleared_on: Optional[Date] = Field(default=None, description="Date cleared.")
    reference: str = Field(default="", description="Payment reference when cleared.")


class TitleTransfer(Record):
    """A change of ownership: the title passes from seller to buyer."""

    id: str = Field(description="Transfer id, e.g. TRF-0001.")
    vin: Vin
    registration_id: Id("vehicle_registration") = Field(description="The registration transferred.")
    seller: str = Field(description="Previous registered owner.")
    buyer_name: PersonName = Field(description="New owner.")
    buyer_email: Email = Field(description="New owner's email.")
    sale_price: Money = Field(ge=0, description="Purchase price (USD); use tax is charged on it.")
    sale_date: Date = Field(description="Date of sale.")
    odometer: int = Field(ge=0, description="Odometer disclosure at the sale (miles).")
    transfer_fee: Money = Field(description="Transfer fee (USD).")
    use_tax: Money = Field(description="Use tax on the sale price (USD).")
    total: Money = Field(description="Amount paid (USD).")
    new_title_number: str = Field(description="Title number issued to the buyer.")


class VehicleRegistrationState(ServiceState):
    """Vehicles, registrations, holds and title transfers."""

    vehicles: dict[str, Vehicle] = Field(default_factory=dict, description="Vehicles by VIN.")
    registrations: dict[str, Registration] = Field(default_factory=dict, description="Registrations by id.")
    holds: dict[str, Hold] = Field(default_factory=dict, description="Holds by id.")
    transfers: dict[str, TitleTransfer] = Field(default_factory=dict, description="Title transfers by id.")
