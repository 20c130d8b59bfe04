"""Seed data of the quotes service: one quote per CRM deal, plus revisions.

The deals, companies and contact emails are the crm service's seeded ones
for the same seed, so a quote's ``deal_id``, ``company`` and
``contact_email`` are found in the CRM of the same composition; SKUs and
list prices are the product catalog's.
"""

from __future__ import annotations

import datetime as dt
import random

from compoworld_gym.envs.services._commerce import PRODUCTS
from compoworld_gym.envs.services._crm_models import CrmState
from compoworld_gym.envs.services._quotes_models import (
    LineInput, Quote, QuotesState, approvers, price_line, reprice,
)

#: (status, deepest discount %, expiration offset in days) per seeded deal stage.
_BY_STAGE = {"qualifiedtobuy": ("draft", 5.0, 30), "presentationscheduled": ("pending_approval", 15.0, 30),
             "contractsent": ("sent", 8.0, 14), "decisionmakerboughtin": ("approved", 30.0, 21),
             "closedwon": ("accepted", 12.0, -3), "closedlost": ("expired", 0.0, -6)}


def _contact_of(crm: CrmState, deal_id: str) -> str:
    """The email of the contact the CRM associates with the deal."""
    cid = next(a.to_id for a in crm.associations.values()
               if a.from_type == "deals" and a.from_id == deal_id and a.to_type == "contacts")
    return crm.contacts[cid].email


def _quote(state: QuotesState, rng: random.Random, today: dt.date, *, title: str, deal_id: str, company: str,
           contact: str, owner: str, status: str, discount: float, expires: int) -> Quote:
    picks = rng.sample(PRODUCTS, 2)
    lines = [price_line(LineInput(sku=p.sku, quantity=rng.choice((5, 10, 20, 50)),
                                  discount_percent=discount if k == 0 else min(discount, 5.0)), p.name, p.price)
             for k, p in enumerate(picks)]
    created = today - dt.timedelta(days=rng.randint(8, 20))
    q = Quote(id=f"QUO-{len(state.quotes) + 1:04d}", title=title, deal_id=deal_id, company=company,
              contact_email=contact, owner_email=owner, status=status, lines=lines, created_on=created,
              expiration_date=today + dt.timedelta(days=expires))
    reprice(q)
    if status in ("approved", "sent", "accepted", "expired", "rejected") and q.approval_level != "none":
        q.approver_email = next(a for a in approvers(q.approval_level) if a != owner)
        q.decided_on = created + dt.timedelta(days=1)
    if status in ("sent", "accepted", "expired"):
        q.sent_on, q.cover_message = created + dt.timedelta(days=2), "Please find our proposal attached."
    if status == "accepted":
        q.accepted_on, q.signer_name = created + dt.timedelta(days=5), contact.split("@")[0].replace(".", " ").title()
    if status == "rejected":
        q.rejection_reason = "Discount too deep for a first-year deal; offer 10% at most."
    state.quotes[q.id] = q
    return q


def build_state(rng: random.Random, today: dt.date, crm: CrmState) -> QuotesState:
    """A seeded state on the CRM's deals (``crm``: its seeded state for the same seed).

    Args:
        rng: seeded random stream.
        today: the task's date.
        crm: the crm service's seeded state.
    """
    state = QuotesState()
    for deal in crm.deals.values():
        company = next(a.to_id for a in crm.associations.values()
                       if a.from_type == "deals" and a.from_id == deal.id and a.to_type == "companies")
        status, discount, expires = _BY_STAGE[deal.dealstage]
        _quote(state, rng, today, title=deal.dealname, deal_id=deal.id, company=crm.companies[company].name,
               contact=_contact_of(crm, deal.id), owner=deal.owner_email or "hannah.kovacs@company.example",
               status=status, discount=discount, expires=expires)
    first = state.quotes["QUO-0001"]
    # A rejected earlier attempt and a sent quote whose expiry passed (expire_quotes sweeps it).
    _quote(state, rng, today, title=f"{first.title} (v0)", deal_id=first.deal_id or "", company=first.company,
           contact=first.contact_email, owner=first.owner_email, status="rejected", discount=20.0, expires=20)
    second = state.quotes["QUO-0002"]
    _quote(state, rng, today, title=f"{second.title} (early offer)", deal_id=second.deal_id or "",
           company=second.company, contact=second.contact_email, owner=second.owner_email, status="sent",
           discount=0.0, expires=-1)
    state.counters["QUO"] = len(state.quotes) + 1
    return state
