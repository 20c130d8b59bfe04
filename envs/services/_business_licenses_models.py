"""Records of the business_licenses service (Accela Civic Platform Licensing).

Accela keeps a license application and the license it leads to as two
records of the Licenses module (``Licenses/Business/<group>/<type>``): the
application carries the contacts, the address, the invoiced fees and the
workflow status; the issued license carries ``renewalInfo.expirationDate``
and its renewals. The fee schedule of each license type is here: a one-time
application fee, and an annual license fee of a base amount plus a rate on
the business's declared gross receipts (the usual municipal business-tax
shape).
"""

from __future__ import annotations

from typing import Literal, NamedTuple, Optional

from pydantic import Field

from compoworld_gym.entities import Address, City, CompanyName, Date, Email, Id, Money, PersonName, Phone
from compoworld_gym.envs.services._commerce import money
from compoworld_gym.service import Record, ServiceState

LicenseTypeName = Literal[
    "Licenses/Business/Contractor/General", "Licenses/Business/Contractor/Electrical",
    "Licenses/Business/Contractor/Plumbing", "Licenses/Business/Contractor/Sign",
    "Licenses/Business/Food/Establishment", "Licenses/Business/General/Commercial"]
ApplicationStatus = Literal["submitted", "under_review", "approved", "denied", "issued", "withdrawn"]
LicenseStatus = Literal["active", "suspended", "revoked"]
#: Where an issued license stands against its expiration date (Accela ``renewalInfo.expirationStatus``).
ExpirationStatus = Literal["current", "about_to_expire", "expired", "lapsed"]
PaymentMethod = Literal["credit_card", "check", "cash", "ach"]


class LicenseType(NamedTuple):
    """A license type of the city's fee schedule (USD).

    Attributes:
        name: the Accela record type path.
        application_fee: one-time fee invoiced with the application.
        base_fee: the annual license fee before the gross-receipts part.
        receipts_rate: share of declared gross receipts added to the annual fee.
    """

    name: str
    application_fee: float
    base_fee: float
    receipts_rate: float

    def annual_fee(self, gross_receipts: float) -> float:
        """The annual license (and renewal) fee for ``gross_receipts`` USD of yearly receipts."""
        return money(self.base_fee + gross_receipts * self.receipts_rate)


LICENSE_TYPES: dict[str, LicenseType] = {t.name: t for t in (
    LicenseType("Licenses/Business/Contractor/General", 125.0, 250.0, 0.001),
    LicenseType("Licenses/Business/Contractor/Electrical", 110.0, 200.0, 0.001),
    LicenseType("Licenses/Business/Contractor/Plumbing", 110.0, 200.0, 0.001),
    LicenseType("Licenses/Business/Contractor/Sign", 90.0, 150.0, 0.0008),
    LicenseType("Licenses/Business/Food/Establishment", 150.0, 325.0, 0.0005),
    LicenseType("Licenses/Business/General/Commercial", 75.0, 95.0, 0.0006),
)}


class Fee(Record):
    """One invoiced fee item of an application."""

    id: str = Field(description="Fee id, e.g. LFE-0001.")
    code: str = Field(description="Fee code: APP (application) or LIC (first-year license fee).")
    description: str = Field(description="What the fee is for.")
    amount: Money = Field(ge=0, description="Amount (USD).")
    status: Literal["invoiced", "paid"] = Field(description="invoiced (due) or paid.")
    paid_on: Optional[Date] = Field(default=None, description="Date paid.")


class Payment(Record):
    """A cashier payment against an application's fees."""

    receipt_number: str = Field(description="Receipt number, e.g. LRC-0001.")
    amount: Money = Field(description="Amount paid (USD).")
    method: PaymentMethod = Field(description="How it was paid.")
    reference: str = Field(default="", description="Payer's reference (check number, case).")
    paid_on: Date = Field(description="Date paid.")


class LicenseApplication(Record):
    """A business license application (Accela ``Licenses/.../Application`` record)."""

    id: Id("license_application") = Field(description="Application id, e.g. LAP-0001.")
    license_type: LicenseTypeName = Field(description="The license type applied for.")
    business_name: CompanyName = Field(description="Legal name of the business.")
    owner_name: PersonName = Field(description="Owner / applicant contact.")
    owner_email: Email = Field(description="Owner's email.")
    owner_phone: Phone = Field(description="Owner's phone.")
    address: Address = Field(description="Street address of the business location.")
    city: City = Field(description="City.")
    gross_receipts: Money = Field(ge=0, description="Declared annual gross receipts (USD); sets the license fee.")
    status: ApplicationStatus = Field(description="Workflow status.")
    submitted_on: Date = Field(description="Date submitted.")
    decided_on: Optional[Date] = Field(default=None, description="Date approved or denied.")
    decision_reason: Optional[str] = Field(default=None, description="Reason given for a denial or withdrawal.")
    fees: list[Fee] = Field(default_factory=list, description="Invoiced fee items.")
    payments: list[Payment] = Field(default_factory=list, description="Payments, oldest first.")
    comments: list[str] = Field(default_factory=list, description="Reviewer comments, oldest first.")
    license_id: Optional[Id("business_license")] = Field(default=None, description="The license issued from it.")


class Renewal(Record):
    """One renewal of a license (fees paid at renewal)."""

    id: str = Field(description="Renewal id, e.g. REN-0001.")
    renewed_on: Date = Field(description="Date renewed.")
    previous_expiration: Date = Field(description="Expiration date before the renewal.")
    new_expiration: Date = Field(description="Expiration date after the renewal.")
    license_fee: Money = Field(ge=0, description="Annual license fee (USD).")
    late_fee: Money = Field(ge=0, description="Late fee for renewing after the expiration date (USD).")
    total: Money = Field(ge=0, description="Amount paid (USD).")
    receipt_number: str = Field(description="Receipt number.")
    method: PaymentMethod = Field(description="How it was paid.")
    reference: str = Field(default="", description="Payer's reference.")


class StatusAction(Record):
    """A suspension, reinstatement or revocation of a license."""

    action: Literal["suspended", "reinstated", "revoked"] = Field(description="What was done.")
    on: Date = Field(description="When.")
    reason: str = Field(description="Why (the code-enforcement finding).")


class BusinessLicense(Record):
    """An issued business license (Accela ``Licenses/.../License`` record with ``renewalInfo``)."""

    id: Id("business_license") = Field(description="License id, e.g. BL-0001.")
    application_id: Optional[Id("license_application")] = Field(default=None,
                                                                 description="The application it was issued from.")
    license_type: LicenseTypeName = Field(description="The license type.")
    business_name: CompanyName = Field(description="Legal name of the licensed business.")
    owner_name: PersonName = Field(description="Owner contact.")
    owner_email: Email = Field(description="Owner's email.")
    owner_phone: Phone = Field(description="Owner's phone.")
    address: Address = Field(description="Street address of the business location.")
    city: City = Field(description="City.")
    annual_fee: Money = Field(ge=0, description="Annual license fee charged at each renewal (USD).")
    status: LicenseStatus = Field(description="active, suspended or revoked (revoked is final).")
    issued_on: Date = Field(description="Date first issued.")
    expires_on: Date = Field(description="Expiration date (renewalInfo.expirationDate).")
    status_reason: Optional[str] = Field(default=None, description="Reason of the current suspension or revocation.")
    history: list[StatusAction] = Field(default_factory=list, description="Suspensions, reinstatements, revocation.")
    renewals: list[Renewal] = Field(default_factory=list, description="Renewals, oldest first.")
    notes: list[str] = Field(default_factory=list, description="Record notes, oldest first.")


class BusinessLicensesState(ServiceState):
    """License applications and issued licenses."""

    applications: dict[str, LicenseApplication] = Field(default_factory=dict, description="Applications by id.")
    licenses: dict[str, BusinessLicense] = Field(default_factory=dict, description="Licenses by id.")
