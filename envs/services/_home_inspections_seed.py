"""Seed data of the home_inspections service: buyers' inspections of the MLS homes and the lender's homes.

The state is built on the listings and mortgage_loans seeded states for the
same seed (:func:`seed_for`): the four fixed sales (``_listings_deals``)
were inspected for their buyers after the offer was accepted (two reports
published, one held for the balance due, the closed sale's long ago), the
buyers of offers still in negotiation have upcoming inspections (one
unconfirmed, one confirmed and unpaid), a withdrawn offer's inspection was
cancelled and refunded, and two borrowers of the lender's other purchase
loans have inspections of their subject property (one upcoming and prepaid,
one done whose agreement is still unsigned). Inspectors are the company's.
"""

from __future__ import annotations

import datetime as dt
import random
from typing import NamedTuple, Optional

from compoworld_gym.envs.services._blocks import day_start, seed_id
from compoworld_gym.envs.services._company import DOMAIN
from compoworld_gym.envs.services._home_inspections_models import (
    Agreement, Defect, HomeInspectionsState, Inspection, InspectionServiceLine, Inspector, Payment, ServiceOffering,
)
from compoworld_gym.envs.services._home_inspections_rules import service_fee
from compoworld_gym.envs.services._listings_models import ListingsState
from compoworld_gym.envs.services._mortgage_loans_models import MortgageLoansState

#: The company's inspectors: (name, license number, active).
INSPECTORS = (("Nora Castillo", "HI-20417", True), ("Ben Whitaker", "HI-18832", True),
              ("Hana Suzuki", "HI-22105", True), ("Victor Hale", "HI-11960", False))
#: The price list: (name, base fee, sq ft included, per 500 sq ft, pre-1950 fee, minutes, add-on).
PRICE_LIST = (("Residential Home Inspection", 425.0, 2000, 50.0, 75.0, 180, False),
              ("Condominium Inspection", 325.0, 1500, 40.0, 0.0, 120, False),
              ("Radon Testing", 175.0, 0, 0.0, 0.0, 15, True), ("Sewer Scope", 225.0, 0, 0.0, 0.0, 45, True),
              ("Wood Destroying Insect (WDO)", 95.0, 0, 0.0, 0.0, 30, True),
              ("Mold Air Sampling", 250.0, 0, 0.0, 0.0, 30, True), ("Re-Inspection", 175.0, 0, 0.0, 0.0, 60, False))
AGREEMENT_NAME = "Pre-Inspection Agreement"
#: Defect library: (section, severity, title, location, contractor, low, high).
DEFECTS = (
    ("Roof", "recommendation", "Damaged and lifted shingles", "South slope", "Qualified roofing contractor", 450.0, 900.0),
    ("Electrical", "safety_hazard", "Missing GFCI protection", "Kitchen and bathrooms", "Licensed electrician",
     250.0, 500.0),
    ("Plumbing", "maintenance_item", "Slow drain at bathroom sink", "Hall bathroom", "Qualified plumber", 75.0, 150.0),
    ("Structure", "recommendation", "Foundation crack wider than 1/4 inch", "Northeast corner", "Structural engineer",
     800.0, 2500.0),
    ("Heating", "safety_hazard", "Furnace flue disconnected", "Basement", "Licensed HVAC contractor", 150.0, 400.0),
    ("Exterior", "maintenance_item", "Peeling paint on trim", "Front elevation", "Painting contractor", 300.0, 800.0),
    ("Insulation & Ventilation", "recommendation", "Bathroom fan vents into attic", "Attic", "Qualified contractor",
     200.0, 450.0),
    ("Cooling", "maintenance_item", "Condenser fins bent", "Side yard", "Licensed HVAC contractor", 100.0, 250.0),
    ("Garage", "safety_hazard", "Auto-reverse of garage door fails", "Garage", "Garage door technician", 90.0, 200.0),
    ("Interior", "maintenance_item", "Window seal failed (fogged glass)", "Primary bedroom", "Window contractor",
     250.0, 600.0),
)


class Plan(NamedTuple):
    """How one seeded or planted inspection stands: when, what was booked, signed, paid and reported."""

    day: int  # days from today of the inspection
    hour: int
    status: str
    services: tuple[int, ...]  # indexes into PRICE_LIST
    signed: bool
    paid: str  # "full", "part", "none", "refunded"
    published: Optional[int]  # days from today it was published
    defects: tuple[int, ...]  # indexes into DEFECTS


#: Plans of the deal homes (in DEALS order), the negotiating buyers' and the lender's homes.
_DEAL_PLANS = (Plan(-7, 9, "completed", (0, 3), True, "full", -6, (0, 1, 2, 3, 4)),
               Plan(-4, 10, "completed", (0, 2, 4), True, "part", None, (6, 7, 8, 1)),
               Plan(-26, 13, "completed", (1,), True, "full", -25, (9, 2)),
               Plan(-42, 9, "completed", (0,), True, "full", -41, (5, 0, 7)))


def seed_for(seed: int, today: dt.date) -> HomeInspectionsState:
    """The seeded state for ``seed``, on the listings and mortgage_loans seeds for the same seed."""
    from compoworld_gym.envs.services.listings import Listings
    from compoworld_gym.envs.services.mortgage_loans import MortgageLoans

    rng = random.Random(f"home_inspections:{seed}")
    return build_state(rng, today, Listings.seed_state(seed, today), MortgageLoans.seed_state(seed, today))


def _people(state: HomeInspectionsState) -> list[Inspector]:
    out = []
    for name, lic, active in INSPECTORS:
        i = Inspector(id=seed_id(state, "USR"), name=name, email=f"{name.lower().replace(' ', '.')}@{DOMAIN}",
                      phone=f"+1-503-555-{140 + len(state.inspectors) * 7:04d}", license_number=lic, active=active)
        state.inspectors[i.id] = i
        out.append(i)
    return out


def add_inspection(state: HomeInspectionsState, today: dt.date, inspector: Inspector, plan: Plan, *, home: dict,
                   client: tuple[str, str], agents: dict, iid: Optional[str] = None) -> Inspection:
    """Add an inspection of ``home`` for ``client`` (name, email) following ``plan``, with its agreement,
    payments and report defects; returns it.

    Args:
        state: the state written.
        today: the task's date.
        inspector: who inspects.
        plan: when, which services, agreement, payment, publication and defects.
        home: ``address``, ``city``, ``state``, ``zip``, ``property_type``, ``square_feet``, ``year_built``.
        client: the buyer's (name, email).
        agents: ``buyer_agent_name`` / ``buyer_agent_email`` / ``listing_agent_*`` (any may be missing).
        iid: the inspection id (default: the next INSP id).
    """
    start = dt.datetime.combine(today + dt.timedelta(days=plan.day), dt.time(plan.hour, 0))
    booked = min(start - dt.timedelta(days=5), day_start(today) - dt.timedelta(hours=2))
    offers = [state.services[f"SVC-{n + 1:04d}"] for n in plan.services]
    lines = [InspectionServiceLine(service_id=s.id, name=s.name, fee=service_fee(s, home["square_feet"],
                                                                                home["year_built"])) for s in offers]
    total = round(sum(x.fee for x in lines), 2)
    paid = {"full": total, "part": 200.0, "none": 0.0, "refunded": 0.0}[plan.paid]
    i = Inspection(id=iid or seed_id(state, "INSP"), **home, datetime=start,
                   duration=sum(s.duration for s in offers), inspector_id=inspector.id, inspector_name=inspector.name,
                   inspector_email=inspector.email, client_name=client[0], client_email=client[1], **agents,
                   services=lines, fee_total=total, amount_paid=paid, paid=paid >= total > 0, agreed=plan.signed,
                   status=plan.status, created_at=booked)
    if plan.status in ("confirmed", "completed"):
        i.confirmed_at = booked + dt.timedelta(hours=3)
    if plan.status == "completed":
        i.completed_at = start + dt.timedelta(minutes=i.duration)
    if plan.status == "cancelled":
        i.cancelled_at, i.cancel_reason = booked + dt.timedelta(days=1), "Buyer withdrew the offer."
    if plan.published is not None:
        i.report_published = True
        i.report_published_at = dt.datetime.combine(today + dt.timedelta(days=plan.published), dt.time(16, 30))
    state.inspections[i.id] = i
    agr = Agreement(id=seed_id(state, "AGR"), inspection_id=i.id, name=AGREEMENT_NAME, fee_total=total,
                    status="signed" if plan.signed else ("void" if plan.status == "cancelled" else "unsigned"),
                    created_at=booked + dt.timedelta(minutes=1))
    if plan.signed:
        agr.signed_by, agr.signed_at = client[0], booked + dt.timedelta(hours=5)
    state.agreements[agr.id] = agr
    if plan.paid != "none":
        amount = total if plan.paid in ("full", "refunded") else paid
        pay = Payment(id=seed_id(state, "PAY"), inspection_id=i.id, amount=amount, method="card",
                      paid_at=booked + dt.timedelta(hours=6), refunded=plan.paid == "refunded")
        state.payments[pay.id] = pay
    for k in plan.defects:
        section, severity, title, location, contractor, low, high = DEFECTS[k]
        d = Defect(id=seed_id(state, "DEF"), inspection_id=i.id, section=section, severity=severity, title=title,
                   location=location, comment=f"{title} observed at the {location.lower()}; further evaluation "
                                          f"and repair by a {contractor.lower()} recommended.",
                   contractor=contractor, estimate_low=low, estimate_high=high,
                   created_at=start + dt.timedelta(minutes=30 + 10 * len(state.defects)))
        state.defects[d.id] = d
    return i


def _listing_home(lst) -> dict:
    kind = {"Condominium": "Condominium", "Townhouse": "Townhouse"}.get(lst.property_sub_type, "Single Family")
    return {"address": lst.unparsed_address, "city": lst.city, "state": lst.state_or_province, "zip": lst.postal_code,
            "property_type": kind, "square_feet": lst.living_area, "year_built": lst.year_built}


def build_state(rng: random.Random, today: dt.date, mls: ListingsState,
                lender: MortgageLoansState) -> HomeInspectionsState:
    """Inspectors, the price list and nine inspections on ``mls``'s and ``lender``'s homes.

    Args:
        rng: seeded random stream (loan homes' size and age, inspector turns).
        today: the task's date.
        mls: listings' seeded state for the same seed.
        lender: mortgage_loans' seeded state for the same seed.
    """
    state = HomeInspectionsState()
    staff = _people(state)
    for name, fee, sqft, per, old, minutes, add_on in PRICE_LIST:
        s = ServiceOffering(id=seed_id(state, "SVC"), name=name, base_fee=fee, sqft_included=sqft,
                            fee_per_500_sqft=per, pre_1950_fee=old, duration=minutes, add_on=add_on)
        state.services[s.id] = s
    for n, plan in enumerate(_DEAL_PLANS):
        offer = mls.offers[f"OFR-{n + 1:04d}"]
        lst = mls.listings[offer.listing_id]
        add_inspection(state, today, staff[n % 3], plan, home=_listing_home(lst),
                       client=(offer.buyer_name, offer.buyer_email),
                       agents={"buyer_agent_name": offer.buyer_agent_full_name,
                               "buyer_agent_email": offer.buyer_agent_email,
                               "listing_agent_name": lst.list_agent_full_name,
                               "listing_agent_email": lst.list_agent_email})
    talks = ((lambda o: o.status == "Countered", Plan(2, 13, "confirmed", (0,), False, "none", None, ())),
             (lambda o: o.status == "Submitted", Plan(1, 9, "unconfirmed", (0, 2), False, "none", None, ())),
             (lambda o: o.status == "Withdrawn", Plan(3, 10, "cancelled", (0,), False, "refunded", None, ())))
    for k, (want, plan) in enumerate(talks):
        offer = next(o for o in mls.offers.values() if want(o))
        lst = mls.listings[offer.listing_id]
        home = _listing_home(lst)
        if home["property_type"] == "Condominium":
            plan = plan._replace(services=(1,) + plan.services[1:])
        add_inspection(state, today, staff[k % 3], plan, home=home, client=(offer.buyer_name, offer.buyer_email),
                       agents={"buyer_agent_name": offer.buyer_agent_full_name,
                               "buyer_agent_email": offer.buyer_agent_email,
                               "listing_agent_name": lst.list_agent_full_name,
                               "listing_agent_email": lst.list_agent_email})
    deal_homes = {lst.unparsed_address for lst in mls.listings.values()}
    loans = [ln for ln in lender.loans.values() if ln.status == "active" and ln.loan_purpose == "Purchase"
             and ln.subject_property.street_address not in deal_homes]
    for k, plan in enumerate((Plan(5, 11, "confirmed", (0, 4), True, "full", None, ()),
                              Plan(-1, 9, "completed", (0,), False, "full", None, (3, 5)))):
        if k >= len(loans):
            break
        home, who = loans[k].subject_property, loans[k].borrower
        kind = {"Condominium": "Condominium", "Townhouse": "Townhouse"}.get(home.property_type, "Single Family")
        add_inspection(state, today, staff[(k + 1) % 3], plan,
                       home={"address": home.street_address, "city": home.city, "state": home.state,
                             "zip": home.postal_code, "property_type": kind,
                             "square_feet": rng.randrange(1400, 3200, 10), "year_built": rng.randint(1940, 2015)},
                       client=(who.full_name, who.email_address_text), agents={})
    return state


__all__ = ["AGREEMENT_NAME", "DEFECTS", "INSPECTORS", "PRICE_LIST", "Plan", "add_inspection", "build_state", "seed_for"]
