"""Mortgage loans in chained tasks: a loan file names the borrower (email and
name), the loan amount, the subject property's street address and the
estimated closing day; a borrower's active loan is found by their email (a
home buyer's, from the MLS offer), and a property's active loan by its street
address. The case's loan gets a received condition cleared, a note, or its
rate lock extended through a day the chain found."""

from __future__ import annotations

import datetime as dt
from typing import Any, Optional

from compoworld_gym.checks import OnlyChanged, RecordMatches
from compoworld_gym.envs.services._commerce import money
from compoworld_gym.envs.services._mortgage_loans_models import Condition, Loan, RateLock
from compoworld_gym.envs.services._mortgage_loans_rules import housing_payment
from compoworld_gym.envs.services._mortgage_loans_seed import LOAN_OFFICERS, milestone_log
from compoworld_gym.generation.context import Ctx, call
from compoworld_gym.generation.hooks.hr_directory import name_from_email
from compoworld_gym.generation.links import (
    Action, Found, Give, Need, Reader, Relay, ServiceLinks, SolveError, Write, next_id, pick,
)

SERVICE = "mortgage_loans"
_OFFICERS = dict((e, n) for n, e in LOAN_OFFICERS)
_CONDITIONS = (("Updated bank statement for earnest money", "Assets"), ("Signed gift letter", "Assets"),
               ("Written verification of employment", "Income"), ("Homeowners insurance binder", "Property"))


def next_loan_id(state: dict[str, Any]) -> str:
    """Take the next free loan number from the lender's counters (as ``new_id("LN")``)."""
    return next_id(state, "LN")


def loan_amount(ctx: Ctx) -> float:
    """A plausible purchase-mortgage amount (USD, in steps of 500)."""
    return float(ctx.rng.randrange(180000, 760000, 500))


def officer_email(ctx: Ctx) -> str:
    """One of the lender's loan officers."""
    return ctx.rng.choice(sorted(_OFFICERS))


def _deal(ctx: Ctx, email: str, address: Optional[str]) -> Optional[dict[str, Any]]:
    """The accepted offer in the task's MLS on the home at ``address`` (or, with no
    address, by the buyer ``email``): the home and the agreed price."""
    mls = ctx.states.get("listings")
    if mls is None:
        return None
    for o in mls["offers"].values():
        home = mls["listings"][o["listing_id"]]
        mine = home["unparsed_address"].lower() == address.lower() if address else \
            o["buyer_email"].lower() == email.lower()
        if mine and o["status"] == "Accepted":
            return {"home": home, "price": o["offer_price"]}
    return None


def plant_loan(ctx: Ctx, loan_id: str, *, email: str, name: str, amount: Optional[float] = None,
               closing: Optional[str] = None, address: Optional[str] = None, officer: Optional[str] = None,
               milestone: str = "Processing", withdrawn: bool = False) -> str:
    """Add a purchase :class:`Loan` of borrower ``email`` (validated) under ``loan_id``.

    The home and price come from the accepted offer in the task's MLS on
    ``address`` (or, with no address, the buyer's) when there is one (else
    ``address`` or a fresh one, priced so the LTV is 80%); ``amount``
    defaults to 80% of the price; the income is set for
    a 36% DTI. ``withdrawn`` plants an older application the borrower
    withdrew. Returns the id.
    """
    state = ctx.state(SERVICE)
    deal = _deal(ctx, email, address)
    home = deal["home"] if deal else {}
    price = deal["price"] if deal else money((amount or loan_amount(ctx)) / 0.8)
    amount = money(amount if amount is not None else price * 0.8)
    if amount > price * 0.97:  # never plant a loan the lender would refuse
        price = money(amount / 0.8)
    officer = officer or officer_email(ctx)
    applied = dt.date.fromisoformat(ctx.day(-60 if withdrawn else -9))
    loan = Loan.model_validate({
        "id": loan_id, "borrower": {"full_name": name, "email_address_text": email,
                                    "home_phone_number": ctx.fresh("phone"), "total_monthly_income_amount": 1.0},
        "subject_property": {"street_address": address or home.get("unparsed_address") or ctx.fresh("address"),
                             "city": home.get("city") or ctx.fresh("city"), "state": home.get("state_or_province", "OR"),
                             "postal_code": home.get("postal_code", f"97{ctx.rng.randint(100, 999)}"),
                             "property_type": "Detached", "occupancy": "PrimaryResidence"},
        "loan_purpose": "Purchase", "loan_type": "Conventional", "loan_amount": amount,
        "purchase_price_amount": price, "property_appraised_value_amount": price, "note_rate_percent": 6.375,
        "loan_term_months": 360, "monthly_taxes_insurance_amount": money(price * 0.0145 / 12),
        "loan_officer_name": _OFFICERS.get(officer, name_from_email(officer)), "loan_officer_email": officer,
        "application_date": applied.isoformat(), "estimated_closing_date": closing or ctx.day(ctx.rng.randint(20, 45)),
        "current_milestone": milestone, "status": "withdrawn" if withdrawn else "active",
        "adverse_action_reason": "Borrower chose another lender." if withdrawn else None,
        "milestones": [m.model_dump(mode="json") for m in milestone_log(milestone, applied, ctx.today)]})
    loan.borrower.total_monthly_income_amount = money(housing_payment(loan) / 0.36)
    state["loans"][loan_id] = loan.model_dump(mode="json")
    return loan_id


def _plant(ctx: Ctx, key: Any, outs: dict[str, Any], stale: bool, by: str) -> str:
    state = ctx.state(SERVICE)
    lid = key if by == "id" else next_loan_id(state)
    # BORROWER_LOAN's email give is the loan officer's; the others give the borrower's.
    email = str(key) if by == "email" else outs.get("email") or ctx.person()[1]
    if by == "address" and stale:
        email = ctx.person()[1]  # an earlier buyer's application on the same home
    return plant_loan(ctx, lid, email=email, name=outs.get("person_name") or name_from_email(email),
                      amount=outs.get("money"), closing=outs.get("date"),
                      address=str(key) if by == "address" else outs.get("address"),
                      officer=outs.get("email") if by == "email" else None, withdrawn=stale)


def _get(reader: Reader, key: Any) -> dict[str, Any]:
    return reader.read(SERVICE, "get_loan", loan_id=key)


def _borrower_loan(reader: Reader, key: Any) -> dict[str, Any]:
    return _get(reader, pick(reader.read(SERVICE, "search_loans", borrower_email=key, status="active"))["id"])


def _property_loan(reader: Reader, key: Any) -> dict[str, Any]:
    rows = reader.read(SERVICE, "search_loans", property_address=key, status="active")
    return _get(reader, pick(rows, street_address=key)["id"])


_BORROWER = Give("email", "borrower.email_address_text", "the borrower's email address", "the customer")
_CLOSING = Give("date", "estimated_closing_date", "the loan's estimated closing date")
_LOAN_ID = Give("loan_application_id", "id", "the active loan application")
_TRUTH = "A withdrawn or denied loan application is closed; only the borrower's active loan counts."

LOAN = Relay(
    service=SERVICE, name="loan application", key="loan_application_id",
    gives=(_BORROWER, Give("person_name", "borrower.full_name", "the borrower's name", "the customer"),
           Give("money", "loan_amount", "the loan amount", "the loan amount", draw=loan_amount),
           Give("address", "subject_property.street_address", "the subject property's street address"), _CLOSING),
    plant=lambda ctx, key, outs, stale: _plant(ctx, key, outs, stale, "id"), find=_get,
    where="Each loan file names the borrower, the loan amount, the subject property and the estimated closing date.",
    alloc=lambda ctx: next_loan_id(ctx.state(SERVICE)), entry=lambda key: f"loan {key}")

BORROWER_LOAN = Relay(
    service=SERVICE, name="borrower's active loan", key="email",
    gives=(_LOAN_ID, _CLOSING,
           Give("email", "loan_officer_email", "the loan officer's email address", "the loan officer",
                draw=officer_email)),
    plant=lambda ctx, key, outs, stale: _plant(ctx, key, outs, stale, "email"), find=_borrower_loan,
    where="The lender's loan pipeline files loan applications under the borrower's email address.", truth=_TRUTH)

PROPERTY_LOAN = Relay(
    service=SERVICE, name="property's active loan", key="address", gives=(_LOAN_ID, _BORROWER, _CLOSING),
    plant=lambda ctx, key, outs, stale: _plant(ctx, key, outs, stale, "address"), find=_property_loan,
    where="The lender's loan pipeline lists each loan under the subject property's street address.",
    truth="A withdrawn or denied loan application is closed; only the property's active loan counts.")


def _scope(collection: str, ids: list[str], noun: str, **new: Any) -> list[OnlyChanged]:
    return [OnlyChanged(id="_", service=SERVICE, collection=collection, allow_ids=ids, allow_new=new or None,
                        description=f"No other {noun} was changed or created.")]


def _prepare_clear(ctx: Ctx, values: dict[str, Any]) -> None:
    """The borrower sent the documents of one prior-to-approval condition: it is Received, awaiting review."""
    state = ctx.state(SERVICE)
    lid = values["loan"]
    if lid not in state["loans"] or any(c["loan_id"] == lid and c["status"] == "Received"
                                        for c in state["conditions"].values()):
        return
    title, category = ctx.rng.choice(_CONDITIONS)
    cid = next_id(state, "COND")
    state["conditions"][cid] = Condition.model_validate({
        "id": cid, "loan_id": lid, "title": title, "category": category, "prior_to": "Approval",
        "status": "Received", "added_date": ctx.day(-6), "status_date": ctx.day(-1)}).model_dump(mode="json")


def _clear(reader: Reader, args: dict[str, Found]) -> Write:
    lid, mention, case = args["loan"].value, args["mention"], args["case"].value
    waiting = reader.read(SERVICE, "list_conditions", loan_id=lid, status="Received")
    if len(waiting) != 1:
        raise SolveError(f"loan {lid} has {len(waiting)} received conditions, not one")
    cid = waiting[0]["id"]
    return Write(
        calls=[call("update_condition_status", condition_id=cid, status="Cleared",
                    comment=f"{case}: {mention.noun} is {mention.display}.")],
        checks=[RecordMatches(id="_", service=SERVICE, collection="conditions", record_id=cid,
                              where={"status": "Cleared", "comments": {"$some": {"$all": [
                                  {"$contains": case}, {"$contains": mention.display}]}}},
                              description="The loan's received condition is cleared, its comment quoting the case "
                                          "and the value.")],
        scope=_scope("conditions", [cid], "condition"), tool="update_condition_status",
        where={"condition_id": cid}, label="the cleared loan condition")


def _note(reader: Reader, args: dict[str, Found]) -> Write:
    lid, mention, case = args["loan"].value, args["mention"], args["case"].value
    _get(reader, lid)
    return Write(
        calls=[call("add_loan_note", loan_id=lid, note=f"{case}: {mention.noun} is {mention.display}.")],
        checks=[RecordMatches(id="_", service=SERVICE, collection="loans", record_id=lid,
                              where={"notes": {"$some": {"$all": [{"$contains": case},
                                                                  {"$contains": mention.display}]}}},
                              description="A note on the loan quotes the case and the right value.")],
        scope=_scope("loans", [lid], "loan"), tool="add_loan_note", where={"loan_id": lid}, label="the loan note")


def _prepare_lock(ctx: Ctx, values: dict[str, Any]) -> None:
    """The loan's rate is locked, expiring a few days (at most 15) before the chain's day, not yet expired."""
    loan = ctx.state(SERVICE)["loans"].get(values["loan"])
    day = dt.date.fromisoformat(str(values["day"]))
    if loan is None or day <= ctx.today:
        return
    expires = max(ctx.today, day - dt.timedelta(days=ctx.rng.randint(3, 15)))
    if expires >= day:
        expires = ctx.today
    locked = expires - dt.timedelta(days=30)
    loan["rate_lock"] = RateLock(id=next_id(ctx.state(SERVICE), "LCK"), lock_date=locked, lock_number_of_days=30,
                                 lock_expiration_date=expires, rate=loan["note_rate_percent"],
                                 requested_status="Locked").model_dump(mode="json")


def _extend(reader: Reader, args: dict[str, Found]) -> Write:
    lid, day, case = args["loan"].value, str(args["day"].value), args["case"].value
    lock = _get(reader, lid)["rate_lock"]
    if lock is None or lock["requested_status"] != "Locked":
        raise SolveError(f"loan {lid} has no current rate lock")
    days = (dt.date.fromisoformat(day) - dt.date.fromisoformat(lock["lock_expiration_date"])).days
    if not 1 <= days <= 30:
        raise SolveError(f"the lock of loan {lid} cannot be extended {days} days")
    return Write(
        calls=[call("extend_rate_lock", loan_id=lid, extension_days=days, comment=f"{case}: runs through {day}.")],
        checks=[RecordMatches(id="_", service=SERVICE, collection="loans", record_id=lid,
                              where={"rate_lock.lock_expiration_date": day, "rate_lock.requested_status": "Locked"},
                              description="The loan's rate lock now runs exactly through the day the case needs.")],
        scope=_scope("loans", [lid], "loan"), tool="extend_rate_lock", where={"loan_id": lid},
        label="the rate lock extension")


LINKS = ServiceLinks(
    service=SERVICE, label="the lender's loan origination system",
    relays=(LOAN, BORROWER_LOAN, PROPERTY_LOAN),
    actions=(
        Action(service=SERVICE, name="clear", needs=(Need("loan", "loan_application_id"),), build=_clear,
               prepare=_prepare_clear,
               goal="clear the loan's condition whose documents were received, the comment quoting {mention}"),
        Action(service=SERVICE, name="note", needs=(Need("loan", "loan_application_id"),), build=_note,
               goal="add a note to the loan file stating {mention}"),
        Action(service=SERVICE, name="extend_lock", needs=(Need("loan", "loan_application_id"), Need("day", "date", ("",))),
               build=_extend, prepare=_prepare_lock,
               goal="extend the loan's rate lock so that it runs exactly through {day}"),
    ),
)

__all__ = ["LINKS", "loan_amount", "next_loan_id", "officer_email", "plant_loan"]
