"""Licensing rules of the business_licenses service: workflow, fees, renewal window.

Pure functions over records and dates, shared by the tools, the seed factory
and the generation hook, so a planted license quotes the renewal the tool
would charge.
"""

from __future__ import annotations

import datetime as dt
from typing import Literal

from pydantic import Field

from compoworld_gym.entities import Date, Id, Money
from compoworld_gym.envs.services._blocks import Lifecycle
from compoworld_gym.envs.services._business_licenses_models import (
    LICENSE_TYPES, BusinessLicense, ExpirationStatus, LicenseApplication,
)
from compoworld_gym.envs.services._commerce import money
from compoworld_gym.errors import Conflict, Unprocessable
from compoworld_gym.service import Record

#: Days a license runs from issue or from its previous expiration.
TERM_DAYS = 365
#: The renewal window: from this many days before the expiration date ...
WINDOW_BEFORE_DAYS = 60
#: ... to this many days after it (the grace period, with a late fee).
GRACE_DAYS = 30
#: Late fee: this share of the annual fee, at least LATE_FEE_MIN (USD).
LATE_FEE_RATE = 0.10
LATE_FEE_MIN = 25.0
#: Application statuses that are still open (count against "one license per business per type").
OPEN_APPLICATION = ("submitted", "under_review", "approved")
#: Allowed application status changes (issue is its own tool).
APPLICATION = Lifecycle("application", {"under_review": ("submitted",), "approved": ("under_review",),
                                        "denied": ("under_review",), "withdrawn": ("submitted", "under_review"),
                                        "issue": ("approved",), "pay": OPEN_APPLICATION})


class RenewalQuote(Record):
    """What renewing a license costs today, and whether it can be renewed."""

    license_id: Id("business_license") = Field(description="The license.")
    expires_on: Date = Field(description="Current expiration date.")
    window_opens: Date = Field(description="First day a renewal is accepted.")
    window_closes: Date = Field(description="Last day a renewal is accepted (end of the grace period).")
    expiration_status: ExpirationStatus = Field(description="current, about_to_expire, expired or lapsed.")
    license_fee: Money = Field(description="Annual license fee (USD).")
    late_fee: Money = Field(description="Late fee, charged after the expiration date (USD).")
    total_due: Money = Field(description="Amount renew_license must be paid (USD).")
    new_expiration: Date = Field(description="Expiration date after a renewal today.")
    renewable: bool = Field(description="Whether renew_license would accept it today.")
    blocked_by: Literal["", "revoked", "suspended", "too_early", "lapsed"] = Field(
        description="Why it cannot be renewed today ('' when it can).")


def fee_items(license_type: str, gross_receipts: float) -> list[tuple[str, str, float]]:
    """``(code, description, amount)`` of the fees a new application of ``license_type`` is invoiced."""
    t = LICENSE_TYPES[license_type]
    return [("APP", "Application / review fee", t.application_fee),
            ("LIC", f"First-year license fee ({t.base_fee:.2f} + {t.receipts_rate:.2%} of gross receipts)",
             t.annual_fee(gross_receipts))]


def balance(app: LicenseApplication) -> float:
    """USD of the application's fees still invoiced (unpaid)."""
    return money(sum(f.amount for f in app.fees if f.status == "invoiced"))


def expiration_status(expires_on: dt.date, today: dt.date) -> str:
    """``current`` (before the window), ``about_to_expire`` (in the window), ``expired``
    (in the grace period) or ``lapsed`` (past it: a new application is needed)."""
    days = (expires_on - today).days
    if days > WINDOW_BEFORE_DAYS:
        return "current"
    if days >= 0:
        return "about_to_expire"
    return "expired" if -days <= GRACE_DAYS else "lapsed"


def in_force(lic: BusinessLicense, today: dt.date) -> bool:
    """Whether the license still holds the business's place for its type (not revoked, not lapsed)."""
    return lic.status != "revoked" and expiration_status(lic.expires_on, today) != "lapsed"


def late_fee(lic: BusinessLicense, today: dt.date) -> float:
    """The late fee of renewing ``lic`` today (0 on or before its expiration date)."""
    if today <= lic.expires_on:
        return 0.0
    return money(max(LATE_FEE_MIN, lic.annual_fee * LATE_FEE_RATE))


def quote(lic: BusinessLicense, today: dt.date) -> RenewalQuote:
    """The renewal quote of ``lic`` on ``today``."""
    status = expiration_status(lic.expires_on, today)
    blocked = ("revoked" if lic.status == "revoked" else "suspended" if lic.status == "suspended"
               else "too_early" if status == "current" else "lapsed" if status == "lapsed" else "")
    late = late_fee(lic, today)
    return RenewalQuote(
        license_id=lic.id, expires_on=lic.expires_on,
        window_opens=lic.expires_on - dt.timedelta(days=WINDOW_BEFORE_DAYS),
        window_closes=lic.expires_on + dt.timedelta(days=GRACE_DAYS), expiration_status=status,
        license_fee=lic.annual_fee, late_fee=late, total_due=money(lic.annual_fee + late),
        new_expiration=lic.expires_on + dt.timedelta(days=TERM_DAYS), renewable=not blocked, blocked_by=blocked)


def check_renewable(q: RenewalQuote) -> None:
    """Refuse a renewal the quote blocks.

    Raises:
        Conflict: 409 for a revoked or suspended license.
        Unprocessable: 422 before the window opens or after the grace period.
    """
    if q.blocked_by == "revoked":
        raise Conflict(f"license {q.license_id} is revoked; a revoked license cannot be renewed. The business "
                       "must submit a new application.")
    if q.blocked_by == "suspended":
        raise Conflict(f"license {q.license_id} is suspended; reinstate it (reinstate_license) before renewing.")
    if q.blocked_by == "too_early":
        raise Unprocessable(f"license {q.license_id} expires on {q.expires_on}; the renewal window opens on "
                            f"{q.window_opens}.")
    if q.blocked_by == "lapsed":
        raise Unprocessable(f"license {q.license_id} lapsed: the grace period ended on {q.window_closes}. "
                            "Submit a new application instead of a renewal.")


def check_one_per_type(business: str, license_type: str, licenses: list[BusinessLicense],
                       applications: list[LicenseApplication], today: dt.date, skip: str = "") -> None:
    """One license in force (or open application) per business per license type.

    Raises:
        Conflict: 409 naming the license or application that holds the place.
    """
    name = business.casefold()
    for lic in licenses:
        if lic.business_name.casefold() == name and lic.license_type == license_type and in_force(lic, today):
            raise Conflict(f"{lic.business_name} already holds {license_type} license {lic.id} ({lic.status}, "
                           f"expires {lic.expires_on}); renew that license instead.")
    for app in applications:
        if (app.id != skip and app.business_name.casefold() == name and app.license_type == license_type
                and app.status in OPEN_APPLICATION):
            raise Conflict(f"{app.business_name} already has an open {license_type} application {app.id} "
                           f"({app.status}).")
