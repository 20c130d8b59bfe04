"""Seed data of the business_licenses service.

The licensed businesses are the shared book of customer companies
(``_accounts.ACCOUNTS``: Globex, Soylent Foods, Initech...), whose main
contact is the license owner, and trade contractors named the way the
``permits`` service names the contractors on its permits ("Barron Builders",
"Ortiz Electric"), all in the permits' city. Licenses cover every
expiration status (current, in the renewal window, in the grace period,
lapsed) and every license status; applications cover every workflow step.
"""

from __future__ import annotations

import datetime as dt
import random

from faker import Faker

from compoworld_gym.envs.services._accounts import ACCOUNTS
from compoworld_gym.envs.services._blocks import seed_id
from compoworld_gym.envs.services._business_licenses_models import (
    LICENSE_TYPES, BusinessLicense, BusinessLicensesState, Fee, LicenseApplication, Payment, Renewal, StatusAction,
)
from compoworld_gym.envs.services._business_licenses_rules import TERM_DAYS, fee_items
from compoworld_gym.envs.services._commerce import money
from compoworld_gym.envs.services._common import email_for
from compoworld_gym.envs.services._permits_seed import CITY

_ACCOUNT = {a.company: a for a in ACCOUNTS}
#: Contractor trade: (name suffix as on permits, license type).
TRADES = {"Builders": "Licenses/Business/Contractor/General", "Electric": "Licenses/Business/Contractor/Electrical",
          "Plumbing Co": "Licenses/Business/Contractor/Plumbing", "Sign Co": "Licenses/Business/Contractor/Sign"}
_GENERAL, _FOOD = "Licenses/Business/General/Commercial", "Licenses/Business/Food/Establishment"

#: Seeded licenses: (business or contractor suffix, type, status, days to expiry, renewed before).
_LICENSES = (
    ("Globex Corporation", _GENERAL, "active", 200, False),
    ("Soylent Foods", _FOOD, "active", 20, False),
    ("Builders", TRADES["Builders"], "active", -10, False),
    ("Electric", TRADES["Electric"], "active", 45, False),
    ("Plumbing Co", TRADES["Plumbing Co"], "suspended", 30, False),
    ("Sign Co", TRADES["Sign Co"], "revoked", 100, False),
    ("Wayne Hospitality", _FOOD, "active", 300, True),
    ("Initech", _GENERAL, "active", -45, False),
    ("Vandelay Industries", _GENERAL, "active", 90, False),
    ("Builders", TRADES["Builders"], "active", 150, True),
)
#: Seeded applications: (business or suffix, type, status, days ago submitted, paid).
_APPLICATIONS = (
    ("Stark Logistics", _GENERAL, "submitted", 2, False),
    ("Builders", TRADES["Builders"], "under_review", 9, True),
    ("Tyrell Analytics", _GENERAL, "approved", 15, False),
    ("Cyberdyne Robotics", _GENERAL, "approved", 12, True),
    ("Umbrella Health", _GENERAL, "denied", 30, False),
    ("Globex Corporation", _GENERAL, "issued", 175, True),
    ("Oceanic Airlines", _FOOD, "withdrawn", 40, False),
    ("Electric", TRADES["Electric"], "under_review", 5, False),
)
_REASONS = {"suspended": "Workers' compensation insurance certificate lapsed.",
            "revoked": "Repeated sign installations without permits (code enforcement case CE-2291)."}


def _who(fake: Faker, rng: random.Random, name: str) -> dict:
    """Business name, owner and contact details: a shared account's contact, or a made-up contractor."""
    acct = _ACCOUNT.get(name)
    if acct is not None:
        owner, email, business = acct.contact_name, acct.contact_email, acct.company
    else:
        owner = f"{fake.first_name()} {fake.last_name()}"
        email, business = email_for(owner, fake.free_email_domain()), f"{fake.last_name()} {name}"
    return {"business_name": business, "owner_name": owner, "owner_email": email,
            "owner_phone": f"+1-{rng.randint(200, 989)}-555-{rng.randint(1000, 9999)}",
            "address": fake.street_address(), "city": CITY}


def _receipts(rng: random.Random) -> float:
    return float(rng.randrange(60_000, 1_800_000, 5_000))


def _application(state: BusinessLicensesState, fake: Faker, rng: random.Random, today: dt.date,
                 row: tuple) -> LicenseApplication:
    name, ltype, status, ago, paid = row
    submitted = today - dt.timedelta(days=ago)
    app = LicenseApplication(id=seed_id(state, "LAP"), license_type=ltype, gross_receipts=_receipts(rng),
                             status=status, submitted_on=submitted, **_who(fake, rng, name))
    for code, desc, amount in fee_items(ltype, app.gross_receipts):
        app.fees.append(Fee(id=seed_id(state, "LFE"), code=code, description=desc, amount=amount,
                            status="paid" if paid else "invoiced", paid_on=submitted if paid else None))
    if paid:
        app.payments.append(Payment(receipt_number=seed_id(state, "LRC"), amount=money(sum(f.amount for f in app.fees)),
                                    method="credit_card", paid_on=submitted))
    if status in ("approved", "denied", "issued"):
        app.decided_on = submitted + dt.timedelta(days=min(ago - 1, 7))
    if status == "denied":
        app.decision_reason = "Zoning: a medical office is not a permitted use at this address."
    if status == "withdrawn":
        app.decision_reason = "Applicant withdrew: kiosk lease not signed."
    if status == "under_review":
        app.comments.append("Routed to zoning and fire review.")
    return app


def build_state(fake: Faker, rng: random.Random, today: dt.date) -> BusinessLicensesState:
    """Eight applications and ten licenses (ids LAP-0001..., BL-0001...)."""
    state = BusinessLicensesState()
    for row in _APPLICATIONS:
        app = _application(state, fake, rng, today, row)
        state.applications[app.id] = app
    issued = next(a for a in state.applications.values() if a.status == "issued")
    for n, (name, ltype, status, days, renewed) in enumerate(_LICENSES):
        who = _who(fake, rng, name)
        expires = today + dt.timedelta(days=days)
        fee = LICENSE_TYPES[ltype].annual_fee(_receipts(rng))
        lic = BusinessLicense(id=seed_id(state, "BL"), license_type=ltype, annual_fee=fee, status=status,
                              issued_on=expires - dt.timedelta(days=TERM_DAYS * (2 if renewed else 1)),
                              expires_on=expires, **who)
        if n == 0:  # Globex's license came from the issued application
            lic = lic.model_copy(update={k: getattr(issued, k) for k in who} | {
                "application_id": issued.id, "issued_on": issued.decided_on,
                "annual_fee": next(f.amount for f in issued.fees if f.code == "LIC"),
                "expires_on": issued.decided_on + dt.timedelta(days=TERM_DAYS)})
            issued.license_id = lic.id
        if renewed:
            prev = lic.expires_on - dt.timedelta(days=TERM_DAYS)
            lic.renewals.append(Renewal(id=seed_id(state, "REN"), renewed_on=prev - dt.timedelta(days=12),
                                        previous_expiration=prev, new_expiration=lic.expires_on, license_fee=fee,
                                        late_fee=0.0, total=fee, receipt_number=seed_id(state, "LRC"),
                                        method="ach"))
        if status != "active":
            lic.status_reason = _REASONS[status]
            lic.history.append(StatusAction(action=status, on=today - dt.timedelta(days=6), reason=_REASONS[status]))
        state.licenses[lic.id] = lic
    return state
