"""Business licenses in chained tasks: a license names the licensed business,
its owner's email, the renewal amount due and the expiration date; a business's
license in force is found by the business name (a permit's contractor, a CRM
account); an owner's open application, with its fees due, by the owner's
email. Writes: renew the case's license (paying the quote), pay an
application's fees, or note the license record."""

from __future__ import annotations

import datetime as dt
from typing import Any

from compoworld_gym.checks import OnlyChanged, RecordMatches
from compoworld_gym.envs.services._business_licenses_models import (
    LICENSE_TYPES, BusinessLicense, LicenseApplication,
)
from compoworld_gym.envs.services._business_licenses_rules import TERM_DAYS
from compoworld_gym.envs.services._business_licenses_seed import TRADES
from compoworld_gym.envs.services._permits_seed import CITY
from compoworld_gym.generation.context import Ctx, call
from compoworld_gym.generation.hooks.hr_directory import name_from_email
from compoworld_gym.generation.links import (
    Action, Found, Give, Need, Reader, Relay, ServiceLinks, SolveError, Write, next_id, pick,
)

SERVICE = "business_licenses"
#: Who the expiration date is, so it is drawn in the renewal window (not shared with other dates).
EXPIRY = "the license expiry date"


def license_type_for(company: str) -> str:
    """The license type a business of that name holds: a contractor's trade by its name, else a
    food establishment or a general commercial license."""
    for suffix, ltype in TRADES.items():
        if company.endswith(suffix):
            return ltype
    return "Licenses/Business/Food/Establishment" if company.endswith("Foods") \
        else "Licenses/Business/General/Commercial"


def expiry_day(ctx: Ctx) -> str:
    """A license expiration date inside the renewal window (10-55 days ahead)."""
    return ctx.day(ctx.rng.randint(10, 55))


def plant_license(state: dict[str, Any], license_id: str, *, fee: float, expires: str, **fields: Any) -> str:
    """Add an active :class:`BusinessLicense` (validated) under ``license_id`` whose annual fee is
    ``fee`` USD and that expires on ``expires`` (ISO); ``fields`` override any field; returns the id."""
    ltype = fields.pop("license_type", None) or license_type_for(fields.get("business_name", ""))
    issued = dt.date.fromisoformat(expires) - dt.timedelta(days=TERM_DAYS)
    base = {"license_type": ltype, "city": CITY, "annual_fee": fee, "status": "active", "expires_on": expires,
            "issued_on": issued.isoformat(), "history": [],
            "renewals": [], "notes": []}
    state["licenses"][license_id] = BusinessLicense.model_validate(
        {**base, **fields, "id": license_id}).model_dump(mode="json")
    return license_id


def plant_application(state: dict[str, Any], app_id: str, *, due: float, **fields: Any) -> str:
    """Add an under-review :class:`LicenseApplication` (validated) under ``app_id`` whose application fee
    is paid and whose first-year license fee of ``due`` USD is still invoiced; returns the id."""
    ltype = fields.pop("license_type", None) or license_type_for(fields.get("business_name", ""))
    t = LICENSE_TYPES[ltype]
    day = fields.get("submitted_on")
    fees = [{"id": next_id(state, "LFE"), "code": "APP", "description": "Application / review fee",
             "amount": t.application_fee, "status": "paid", "paid_on": day},
            {"id": next_id(state, "LFE"), "code": "LIC", "description": "First-year license fee",
             "amount": due, "status": "invoiced"}]
    base = {"license_type": ltype, "city": CITY, "status": "under_review", "fees": fees,
            "gross_receipts": float(max(0, round((due - t.base_fee) / t.receipts_rate, -2))),
            "payments": [{"receipt_number": next_id(state, "LRC"), "amount": t.application_fee,
                          "method": "credit_card", "paid_on": day}], "comments": []}
    state["applications"][app_id] = LicenseApplication.model_validate(
        {**base, **fields, "id": app_id}).model_dump(mode="json")
    return app_id


def _owner(ctx: Ctx, email: Any) -> dict[str, Any]:
    email = email or ctx.person()[1]
    return {"owner_email": email, "owner_name": name_from_email(email), "owner_phone": ctx.fresh("phone"),
            "address": ctx.fresh("address")}


def _plant_license(ctx: Ctx, key: Any, outs: dict[str, Any], stale: bool, by: str) -> str:
    state = ctx.state(SERVICE)
    lid = key if by == "id" else next_id(state, "BL")
    company = key if by == "company" else outs.get("company") or ctx.fresh("company")
    extra: dict[str, Any] = {}
    if stale:  # an older license of the business, revoked by code enforcement
        reason = "Revoked: operating without required insurance (code enforcement)."
        extra = {"status": "revoked", "status_reason": reason,
                 "history": [{"action": "revoked", "on": ctx.day(-40), "reason": reason}]}
    return plant_license(state, lid, fee=outs.get("money") or ctx.fresh("money"),
                         expires=outs.get("date") or expiry_day(ctx), business_name=company,
                         **_owner(ctx, outs.get("email")), **extra)


def _plant_application(ctx: Ctx, key: Any, outs: dict[str, Any], stale: bool) -> str:
    state = ctx.state(SERVICE)
    aid = next_id(state, "LAP")
    extra = {"status": "denied", "decided_on": ctx.day(-30), "decision_reason": "Zoning: use not permitted.",
             "submitted_on": ctx.day(-45)} if stale else {"submitted_on": ctx.day(-ctx.rng.randint(2, 9))}
    return plant_application(state, aid, due=outs.get("money") or ctx.fresh("money"),
                             business_name=outs.get("company") or ctx.fresh("company"), **_owner(ctx, key), **extra)


def _in_force(reader: Reader, key: Any) -> dict[str, Any]:
    rows = reader.read(SERVICE, "search_licenses", business_name=key, limit=200)
    lid = pick([r for r in rows if r["status"] != "revoked" and r["expiration_status"] != "lapsed"],
               business_name=key)["id"]
    return reader.read(SERVICE, "get_license", license_id=lid)


def _open_application(reader: Reader, key: Any) -> dict[str, Any]:
    rows = reader.read(SERVICE, "search_applications", owner_email=key, limit=200)
    aid = pick([r for r in rows if r["status"] in ("submitted", "under_review", "approved")], owner_email=key)["id"]
    return reader.read(SERVICE, "get_application", application_id=aid)


_EMAIL = Give("email", "owner_email", "the business owner's email address", "the customer")
_RENEWAL = Give("money", "renewal_due", "the license renewal amount due")
_EXPIRES = Give("date", "expires_on", "the license expiration date", EXPIRY, draw=expiry_day)

LICENSE = Relay(
    service=SERVICE, name="business license", key="business_license_id",
    gives=(Give("company", "business_name", "the licensed business"), _EMAIL, _RENEWAL, _EXPIRES),
    plant=lambda ctx, key, outs, stale: _plant_license(ctx, key, outs, stale, "id"),
    find=lambda reader, key: reader.read(SERVICE, "get_license", license_id=key),
    where="Each business license names the licensed business, the owner's email, the renewal amount due and "
          "the expiration date.",
    alloc=lambda ctx: next_id(ctx.state(SERVICE), "BL"), entry=lambda key: f"business license {key}")

BUSINESS_LICENSE = Relay(
    service=SERVICE, name="business's license in force", key="company",
    gives=(Give("business_license_id", "id", "the business's license in force"), _EMAIL, _RENEWAL, _EXPIRES),
    plant=lambda ctx, key, outs, stale: _plant_license(ctx, key, outs, stale, "company"), find=_in_force,
    where="The city's licensing office files business licenses under the business's legal name.",
    truth="A revoked business license is void; only the business's license in force counts.")

OWNER_APPLICATION = Relay(
    service=SERVICE, name="owner's open license application", key="email",
    gives=(Give("license_application_id", "id", "the owner's open license application"),
           Give("company", "business_name", "the business applying"), Give("money", "balance_due",
                                                                            "the license application fees due")),
    plant=_plant_application, find=_open_application,
    where="License applications are filed under the business owner's email, with the fees still due.",
    truth="A denied or withdrawn license application is closed; only the owner's open application counts.")


def _scope(collection: str, rid: str) -> list[OnlyChanged]:
    return [OnlyChanged(id="_", service=SERVICE, collection=collection, allow_ids=[rid],
                        description=f"No other {collection[:-1]} was changed or created.")]


def _prepare_renew(ctx: Ctx, values: dict[str, Any]) -> None:
    """The case's license is active and inside its renewal window."""
    lic = ctx.state(SERVICE)["licenses"].get(values["license"])
    if lic is not None and lic["status"] != "active":
        lic.update(status="active", status_reason=None)


def _renew(reader: Reader, args: dict[str, Found]) -> Write:
    lid, mention, case = args["license"].value, args["mention"], args["case"].value
    q = reader.read(SERVICE, "get_renewal_quote", license_id=lid)
    if not q["renewable"]:
        raise SolveError(f"license {lid} cannot be renewed today ({q['blocked_by']})")
    ref = f"{case}: {mention.display}"[:120]
    return Write(
        calls=[call("renew_license", license_id=lid, amount=q["total_due"], payment_method="credit_card",
                    reference=ref)],
        checks=[RecordMatches(id="_", service=SERVICE, collection="licenses", record_id=lid,
                              where={"expires_on": q["new_expiration"],
                                     "renewals": {"$any": {"total": q["total_due"],
                                                           "reference": {"$contains": mention.display}}}},
                              description="The license is renewed for a term, paying the quoted total and quoting "
                                          "the value.")],
        scope=_scope("licenses", lid), tool="renew_license", where={"license_id": lid},
        label="the license renewal", moves_money=True)


def _pay(reader: Reader, args: dict[str, Found]) -> Write:
    aid, mention, case = args["application"].value, args["mention"], args["case"].value
    due = reader.read(SERVICE, "get_application", application_id=aid)["balance_due"]
    if not due:
        raise SolveError(f"application {aid} has no fees due")
    ref = f"{case}: {mention.display}"[:120]
    return Write(
        calls=[call("pay_application_fees", application_id=aid, amount=due, payment_method="credit_card",
                    reference=ref)],
        checks=[RecordMatches(id="_", service=SERVICE, collection="applications", record_id=aid,
                              where={"fees": {"$each": {"status": "paid"}},
                                     "payments": {"$any": {"amount": due,
                                                           "reference": {"$contains": mention.display}}}},
                              description="The application's fees are paid in full, the payment quoting the value.")],
        scope=_scope("applications", aid), tool="pay_application_fees", where={"application_id": aid},
        label="the license application fee payment", moves_money=True)


def _note(reader: Reader, args: dict[str, Found]) -> Write:
    lid, mention, case = args["license"].value, args["mention"], args["case"].value
    reader.read(SERVICE, "get_license", license_id=lid)
    return Write(
        calls=[call("add_license_note", license_id=lid, note=f"{case}: {mention.noun} is {mention.display}.")],
        checks=[RecordMatches(id="_", service=SERVICE, collection="licenses", record_id=lid,
                              where={"notes": {"$some": {"$all": [{"$contains": case},
                                                                  {"$contains": mention.display}]}}},
                              description="The license record carries a note quoting the right value.")],
        scope=_scope("licenses", lid), tool="add_license_note", where={"license_id": lid},
        label="the note on the business license")


LINKS = ServiceLinks(
    service=SERVICE, label="the city business licensing portal",
    relays=(LICENSE, BUSINESS_LICENSE, OWNER_APPLICATION),
    actions=(
        Action(service=SERVICE, name="renew", needs=(Need("license", "business_license_id"),), build=_renew,
               prepare=_prepare_renew,
               goal="renew the business license for another term, paying the quoted amount and quoting {mention} "
                    "in the payment reference"),
        Action(service=SERVICE, name="pay", needs=(Need("application", "license_application_id"),), build=_pay,
               goal="pay the license application's outstanding fees, quoting {mention} in the payment reference"),
        Action(service=SERVICE, name="note", needs=(Need("license", "business_license_id"),), build=_note,
               goal="add a note to the business license record, quoting {mention}"),
    ),
)

__all__ = ["LINKS", "expiry_day", "license_type_for", "plant_application", "plant_license"]
