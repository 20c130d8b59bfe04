"""Business licenses: applications, review, fees, issued licenses, renewals, suspension and revocation.

No licensing server is in ``compoworld_gym/data/mcp_servers.jsonl``
(``spec_source = None``); the interface follows the Accela Civic Platform
Licensing API (Construct API v4 ``records`` of the Licenses module, as
OpenGov Permitting & Licensing models the same flow): an application record
of type ``Licenses/Business/<group>/<type>`` with the business, the owner
contact, the address and invoiced ``fees``; the review workflow submitted ->
under_review -> approved / denied -> issued (withdrawn before a decision);
the issued license record with ``renewalInfo.expirationDate`` and
``expirationStatus``; renewals; suspension, reinstatement and revocation with
a reason. Rules of the real product (``_business_licenses_rules``): fees are
paid in full before a license is issued; one license in force (or open
application) per business per license type; a license renews from 60 days
before its expiration to 30 days after it, with a late fee after the
expiration date; a suspended license is reinstated before renewing, and a
revoked one is never renewed. Businesses are the shared customer companies
and the permits' contractors, in the permits' city. Left out: inspections
(the permits service has them), document uploads and parcel data.
"""

from __future__ import annotations

import datetime as dt
import random
from typing import Literal, Optional

from faker import Faker
from pydantic import Field

from compoworld_gym.entities import Address, CompanyName, Email, Id, Money, PersonName, Phone
from compoworld_gym.envs.services import _business_licenses_rules as rules
from compoworld_gym.envs.services._blocks import eq, ieq, select, text
from compoworld_gym.envs.services._business_licenses_models import (
    LICENSE_TYPES, ApplicationStatus, BusinessLicense, BusinessLicensesState, ExpirationStatus, Fee,
    LicenseApplication, LicenseStatus, LicenseTypeName, Payment, PaymentMethod, Renewal, StatusAction,
)
from compoworld_gym.envs.services._business_licenses_seed import build_state
from compoworld_gym.envs.services._commerce import MONEY_MAX, money
from compoworld_gym.envs.services._permits_seed import CITY
from compoworld_gym.errors import Conflict, Unprocessable
from compoworld_gym.service import Service, tool

_Reason = Field(min_length=3, max_length=300)


class BusinessLicenses(Service):
    """Accela-style business licensing: applications, fees, licenses, renewals, enforcement."""

    name = "business_licenses"
    description = ("City business licensing: license applications with fees and review, issued licenses with "
                   "expiration dates, renewals (with late fees), suspensions and revocations.")
    domain = "government"
    spec_source = None
    State = BusinessLicensesState

    # ---------------------------------------------------------------- helpers
    def _app(self, application_id: str, action: Optional[str] = None) -> LicenseApplication:
        app = self.lookup(self.state.applications, application_id, "license application")
        if action is not None:
            rules.APPLICATION.check(app.id, app.status, action)
        return app

    def _license(self, license_id: str) -> BusinessLicense:
        return self.lookup(self.state.licenses, license_id, "business license")

    def _app_view(self, app: LicenseApplication) -> dict:
        return {**app.model_dump(), "balance_due": rules.balance(app)}

    def _license_view(self, lic: BusinessLicense) -> dict:
        q = rules.quote(lic, self.today)
        return {**lic.model_dump(), "expiration_status": q.expiration_status, "renewal_due": q.total_due,
                "renewable": q.renewable}

    def _check_one_per_type(self, business: str, license_type: str, skip: str = "") -> None:
        rules.check_one_per_type(business, license_type, list(self.state.licenses.values()),
                                 list(self.state.applications.values()), self.today, skip)

    # ------------------------------------------------------------------ reads
    @tool(read_only=True)
    def list_license_types(self) -> list[dict]:
        """The license types with their fee schedule (USD): application fee, and the annual fee as a base
        plus a rate on declared gross receipts; also the renewal window and late-fee terms."""
        return [{"license_type": t.name, "application_fee": t.application_fee, "annual_base_fee": t.base_fee,
                 "gross_receipts_rate": t.receipts_rate, "term_days": rules.TERM_DAYS,
                 "renewal_opens_days_before": rules.WINDOW_BEFORE_DAYS, "grace_days_after": rules.GRACE_DAYS,
                 "late_fee": f"{rules.LATE_FEE_RATE:.0%} of the annual fee, at least {rules.LATE_FEE_MIN:.2f}"}
                for t in LICENSE_TYPES.values()]

    @tool(read_only=True, returns=list[LicenseApplication])
    def search_applications(self, business_name: Optional[CompanyName] = None, owner_email: Optional[Email] = None,
                            status: Optional[ApplicationStatus] = None,
                            license_type: Optional[LicenseTypeName] = None,
                            limit: int = Field(default=50, ge=1, le=200)) -> list[dict]:
        """Search license applications by business name (substring), owner email, status or type.

        Args:
            business_name: part of the business name (case-insensitive).
            owner_email: the owner's email.
            status: submitted, under_review, approved, denied, issued or withdrawn.
            license_type: the license type.
            limit: maximum number of applications (1-200).
        """
        hits = select(self.state.applications.values(), text(business_name, "business_name"),
                      ieq("owner_email", owner_email), eq("status", status), eq("license_type", license_type),
                      limit=limit)
        return [self._app_view(a) for a in hits]

    @tool(read_only=True, returns=LicenseApplication)
    def get_application(self, application_id: Id("license_application")) -> dict:
        """Get one application with its fees, payments, balance due and comments.

        Args:
            application_id: the application id, e.g. LAP-0003.
        """
        return self._app_view(self._app(application_id))

    @tool(read_only=True, returns=list[BusinessLicense])
    def search_licenses(self, business_name: Optional[CompanyName] = None, owner_email: Optional[Email] = None,
                        status: Optional[LicenseStatus] = None, license_type: Optional[LicenseTypeName] = None,
                        expiration_status: Optional[ExpirationStatus] = None,
                        limit: int = Field(default=50, ge=1, le=200)) -> list[dict]:
        """Search issued licenses by business name (substring), owner email, status, type or expiration status.

        Args:
            business_name: part of the business name (case-insensitive).
            owner_email: the owner's email.
            status: active, suspended or revoked.
            license_type: the license type.
            expiration_status: current, about_to_expire (in the renewal window), expired (grace period) or lapsed.
            limit: maximum number of licenses (1-200).
        """
        hits = select(self.state.licenses.values(), text(business_name, "business_name"),
                      ieq("owner_email", owner_email), eq("status", status), eq("license_type", license_type))
        views = [self._license_view(lic) for lic in hits]
        return [v for v in views if expiration_status is None or v["expiration_status"] == expiration_status][:limit]

    @tool(read_only=True, returns=BusinessLicense)
    def get_license(self, license_id: Id("business_license")) -> dict:
        """Get one license with its expiration status, renewal amount due, history, renewals and notes.

        Args:
            license_id: the license id, e.g. BL-0004.
        """
        return self._license_view(self._license(license_id))

    @tool(read_only=True, returns=rules.RenewalQuote)
    def get_renewal_quote(self, license_id: Id("business_license")) -> dict:
        """What renewing a license costs today (annual fee plus any late fee), its window, and whether it can
        be renewed now.

        Args:
            license_id: the license.
        """
        return rules.quote(self._license(license_id), self.today).model_dump()

    # ----------------------------------------------------------------- writes
    @tool(read_only=False, returns=LicenseApplication)
    def create_application(self, license_type: LicenseTypeName, business_name: CompanyName = Field(min_length=2),
                           owner_name: PersonName = Field(min_length=2), owner_email: Email = Field(),
                           owner_phone: Phone = Field(min_length=7),
                           address: Address = Field(min_length=5, max_length=120),
                           gross_receipts: Money = Field(ge=0, le=MONEY_MAX)) -> dict:
        """Submit a license application; the application fee and first-year license fee are invoiced.

        One license in force or open application per business per type (409).

        Args:
            license_type: the license type (see list_license_types).
            business_name: legal name of the business.
            owner_name: owner / applicant.
            owner_email: owner's email.
            owner_phone: owner's phone.
            address: street address of the business location.
            gross_receipts: declared annual gross receipts (USD).
        """
        self._check_one_per_type(business_name, license_type)
        app = LicenseApplication(id=self.new_id("LAP"), license_type=license_type, business_name=business_name,
                                 owner_name=owner_name, owner_email=owner_email, owner_phone=owner_phone,
                                 address=address, city=CITY, gross_receipts=money(gross_receipts),
                                 status="submitted", submitted_on=self.today)
        for code, desc, amount in rules.fee_items(license_type, app.gross_receipts):
            app.fees.append(Fee(id=self.new_id("LFE"), code=code, description=desc, amount=amount, status="invoiced"))
        self.state.applications[app.id] = app
        return self._app_view(app)

    @tool(read_only=False, returns=LicenseApplication)
    def update_application_status(self, application_id: Id("license_application"),
                                  status: Literal["under_review", "approved", "denied", "withdrawn"],
                                  comment: Optional[str] = Field(default=None, max_length=500)) -> dict:
        """Move an application along its review workflow (submitted -> under_review -> approved or denied;
        withdrawn before a decision). Denying or withdrawing needs a comment giving the reason (422).

        Args:
            application_id: the application.
            status: the new status.
            comment: reviewer comment; the reason for a denial or withdrawal.
        """
        app = self._app(application_id, status)
        if status in ("denied", "withdrawn") and not comment:
            raise Unprocessable(f"give the reason for the {'denial' if status == 'denied' else 'withdrawal'} "
                                "in comment.")
        if status in ("approved", "denied"):
            app.decided_on = self.today
        if status in ("denied", "withdrawn"):
            app.decision_reason = comment
        app.status = status
        if comment:
            app.comments.append(f"{status}: {comment}")
        return self._app_view(app)

    @tool(read_only=False, returns=Payment)
    def pay_application_fees(self, application_id: Id("license_application"),
                             amount: Money = Field(ge=0.01, le=MONEY_MAX),
                             payment_method: PaymentMethod = "credit_card",
                             reference: str = Field(default="", max_length=120)) -> dict:
        """Pay every invoiced fee of an open application; ``amount`` must equal the balance due (422).

        Args:
            application_id: the application (submitted, under_review or approved).
            amount: the balance due (USD).
            payment_method: credit_card, check, cash or ach.
            reference: the payer's reference (check number, case).
        """
        app = self._app(application_id, "pay")
        due = rules.balance(app)
        if due == 0:
            raise Conflict(f"application {app.id} has no fees due.")
        if money(amount) != due:
            raise Unprocessable(f"amount {money(amount):.2f} does not match the balance due {due:.2f}.")
        for f in app.fees:
            if f.status == "invoiced":
                f.status, f.paid_on = "paid", self.today
        p = Payment(receipt_number=self.new_id("LRC"), amount=due, method=payment_method, reference=reference,
                    paid_on=self.today)
        app.payments.append(p)
        return {**p.model_dump(), "application_id": app.id, "balance_due": 0.0}

    @tool(read_only=False, returns=BusinessLicense)
    def issue_license(self, application_id: Id("license_application")) -> dict:
        """Issue the license of an approved application whose fees are paid in full (422 otherwise).

        The license runs one term (365 days) from today; its annual fee is the application's license fee.

        Args:
            application_id: the approved application.
        """
        app = self._app(application_id, "issue")
        if rules.balance(app) > 0:
            raise Unprocessable(f"application {app.id} has {rules.balance(app):.2f} in unpaid fees; pay them "
                                "(pay_application_fees) before issuing.")
        self._check_one_per_type(app.business_name, app.license_type, skip=app.id)
        lic = BusinessLicense(id=self.new_id("BL"), application_id=app.id, license_type=app.license_type,
                              business_name=app.business_name, owner_name=app.owner_name,
                              owner_email=app.owner_email, owner_phone=app.owner_phone, address=app.address,
                              city=app.city, annual_fee=next(f.amount for f in app.fees if f.code == "LIC"),
                              status="active", issued_on=self.today,
                              expires_on=self.today + dt.timedelta(days=rules.TERM_DAYS))
        self.state.licenses[lic.id] = lic
        app.status, app.license_id = "issued", lic.id
        return self._license_view(lic)

    @tool(read_only=False, returns=Renewal)
    def renew_license(self, license_id: Id("business_license"), amount: Money = Field(ge=0.01, le=MONEY_MAX),
                      payment_method: PaymentMethod = "credit_card",
                      reference: str = Field(default="", max_length=120)) -> dict:
        """Renew a license for another term, paying the quote's total (annual fee plus any late fee).

        Accepted from 60 days before the expiration date to 30 days after it (422 otherwise); a revoked
        license is never renewed and a suspended one must be reinstated first (409); ``amount`` must equal
        get_renewal_quote's total_due (422).

        Args:
            license_id: the license.
            amount: the total due (USD).
            payment_method: credit_card, check, cash or ach.
            reference: the payer's reference (check number, case).
        """
        lic = self._license(license_id)
        q = rules.quote(lic, self.today)
        rules.check_renewable(q)
        if money(amount) != q.total_due:
            raise Unprocessable(f"amount {money(amount):.2f} does not match the renewal total {q.total_due:.2f} "
                                f"(license fee {q.license_fee:.2f} + late fee {q.late_fee:.2f}).")
        ren = Renewal(id=self.new_id("REN"), renewed_on=self.today, previous_expiration=lic.expires_on,
                      new_expiration=q.new_expiration, license_fee=q.license_fee, late_fee=q.late_fee,
                      total=q.total_due, receipt_number=self.new_id("LRC"), method=payment_method, reference=reference)
        lic.renewals.append(ren)
        lic.expires_on = q.new_expiration
        return {**ren.model_dump(), "license_id": lic.id}

    @tool(read_only=False, returns=BusinessLicense)
    def suspend_license(self, license_id: Id("business_license"), reason: str = _Reason) -> dict:
        """Suspend an active license (code enforcement), with the reason.

        Args:
            license_id: the active license.
            reason: the finding, e.g. 'insurance certificate lapsed'.
        """
        lic = self._license(license_id)
        if lic.status != "active":
            raise Conflict(f"license {lic.id} is {lic.status}; only an active license can be suspended.")
        return self._set_status(lic, "suspended", "suspended", reason)

    @tool(read_only=False, returns=BusinessLicense)
    def reinstate_license(self, license_id: Id("business_license"), reason: str = _Reason) -> dict:
        """Reinstate a suspended license once the finding is cured.

        Args:
            license_id: the suspended license.
            reason: how the finding was cured.
        """
        lic = self._license(license_id)
        if lic.status != "suspended":
            raise Conflict(f"license {lic.id} is {lic.status}; only a suspended license can be reinstated.")
        return self._set_status(lic, "active", "reinstated", reason)

    @tool(read_only=False, destructive=True, returns=BusinessLicense)
    def revoke_license(self, license_id: Id("business_license"), reason: str = _Reason) -> dict:
        """Revoke an active or suspended license (final: it can never be renewed or reinstated).

        Args:
            license_id: the license.
            reason: the finding.
        """
        lic = self._license(license_id)
        if lic.status == "revoked":
            raise Conflict(f"license {lic.id} is already revoked.")
        return self._set_status(lic, "revoked", "revoked", reason)

    def _set_status(self, lic: BusinessLicense, status: LicenseStatus, action: str, reason: str) -> dict:
        lic.status = status
        lic.status_reason = None if status == "active" else reason
        lic.history.append(StatusAction(action=action, on=self.today, reason=reason))
        return self._license_view(lic)

    @tool(read_only=False, returns=BusinessLicense)
    def add_license_note(self, license_id: Id("business_license"), note: str = Field(min_length=1, max_length=500)
                         ) -> dict:
        """Add a note to a license record.

        Args:
            license_id: the license.
            note: the note.
        """
        lic = self._license(license_id)
        lic.notes.append(note)
        return self._license_view(lic)

    # ------------------------------------------------------------------ seeds
    @classmethod
    def build_seed_state(cls, fake: Faker, rng: random.Random, today: dt.date) -> BusinessLicensesState:
        return build_state(fake, rng, today)
