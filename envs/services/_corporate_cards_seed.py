"""Seed data of the corporate cards service: the company's staff as Ramp users with their cards.

Users are the shared workforce roster (:func:`_workforce.roster` for the
same seed: the fixed staff of ``_company`` plus the CEO and COO), so a
cardholder's email is the same person in the HR directory, expenses and
Slack. Cards come from four spend programs (software, travel, office
supplies, events) with monthly, quarterly or yearly limits; one card is
locked, one replaced (the old one terminated). Transactions this month and
last, at real merchants, are cleared, pending (the last two days) or
declined (over the limit, or on the locked card); some carry memos and
receipts, one is flagged for review.
"""

from __future__ import annotations

import datetime as dt
import random
from typing import Optional

from compoworld_gym.envs.services._blocks import seed_id, stamp
from compoworld_gym.envs.services._company import STAFF
from compoworld_gym.envs.services._corporate_cards_models import (
    Card, CardTransaction, CorporateCardsState, Receipt, SpendingRestrictions, SpendProgram, User,
)
from compoworld_gym.envs.services._corporate_cards_rules import decline_reason, spent
from compoworld_gym.envs.services._workforce import Person

#: Spend programs: (name, description, amount, interval, per-transaction limit, categories it pays).
PROGRAMS = (
    ("Software subscriptions", "SaaS tools and cloud services.", 3000.0, "MONTHLY", 1500.0, ("SOFTWARE",)),
    ("Travel", "Flights, trains, hotels, ground transport and meals on the road.", 6000.0, "MONTHLY", 2500.0,
     ("TRAVEL", "LODGING", "MEALS")),
    ("Office supplies", "Supplies, small equipment and shipping.", 800.0, "MONTHLY", 400.0,
     ("OFFICE_SUPPLIES", "SHIPPING")),
    ("Events and marketing", "Customer events, sponsorships and ads.", 12000.0, "QUARTERLY", 5000.0,
     ("EVENTS", "ADVERTISING", "MEALS")),
)
ALL_CATEGORIES = ("SOFTWARE", "TRAVEL", "MEALS", "LODGING", "OFFICE_SUPPLIES", "SHIPPING", "ADVERTISING", "EVENTS")
#: Merchants by category (as they appear on statements).
MERCHANTS = {
    "SOFTWARE": ("Amazon Web Services", "Atlassian", "GitHub", "Figma", "Zoom Video Communications"),
    "TRAVEL": ("Delta Air Lines", "United Airlines", "Amtrak", "Uber"),
    "LODGING": ("Marriott", "Hilton"),
    "MEALS": ("Pret A Manger", "Sweetgreen"),
    "OFFICE_SUPPLIES": ("Staples", "Amazon Business"),
    "SHIPPING": ("FedEx Office",),
    "EVENTS": ("Eventbrite",),
    "ADVERTISING": ("LinkedIn Ads",),
}
#: Cards: (staff email or "ceo", spend program index, physical, state).
_CARDS = (
    ("elena.petrova", 0, False, "ACTIVE"), ("grace.okafor", 1, True, "ACTIVE"), ("daniel.cho", 2, False, "ACTIVE"),
    ("jamal.wright", 1, True, "ACTIVE"), ("hannah.kovacs", 3, False, "SUSPENDED"), ("ben.foster", 0, False, "ACTIVE"),
    ("luis.ortega", 2, False, "ACTIVE"), ("marcus.bell", 1, True, "TERMINATED"), ("marcus.bell", 1, True, "ACTIVE"),
    ("ceo", 1, True, "ACTIVE"),
)
#: Transactions: (card index, category, days ago, state, share of what the card may still spend;
#: 0 draws 8-40%). The office card spends most of its month, so its next charge is declined.
_TXNS = (
    (0, "SOFTWARE", 40, "CLEARED", 0), (7, "TRAVEL", 35, "CLEARED", 0), (1, "LODGING", 33, "CLEARED", 0),
    (0, "SOFTWARE", 13, "CLEARED", 0), (5, "SOFTWARE", 12, "CLEARED", 0), (1, "TRAVEL", 11, "CLEARED", 0),
    (3, "TRAVEL", 10, "CLEARED", 0), (2, "OFFICE_SUPPLIES", 9, "CLEARED", 0.95), (1, "LODGING", 8, "CLEARED", 0),
    (6, "SHIPPING", 7, "CLEARED", 0), (9, "TRAVEL", 6, "CLEARED", 0), (2, "SHIPPING", 5, "CLEARED", 0.9),
    (3, "MEALS", 4, "CLEARED", 0), (8, "TRAVEL", 3, "CLEARED", 0), (2, "OFFICE_SUPPLIES", 2, "DECLINED", 0),
    (4, "EVENTS", 2, "DECLINED", 0), (1, "MEALS", 1, "PENDING", 0), (5, "SOFTWARE", 1, "PENDING", 0),
)
#: A memo for each category, and the most one seeded charge of it is (USD).
_MEMOS = {"SOFTWARE": "Monthly team licenses", "TRAVEL": "Client visit - travel", "LODGING": "Hotel for the client visit",
          "MEALS": "Team lunch with the customer", "OFFICE_SUPPLIES": "Supplies for the Austin office",
          "SHIPPING": "Courier for returned equipment", "EVENTS": "Booth deposit", "ADVERTISING": "Campaign spend"}
_CATEGORY_MAX = {"MEALS": 240.0, "SHIPPING": 400.0, "OFFICE_SUPPLIES": 400.0, "LODGING": 900.0}


def _first_last(name: str) -> tuple[str, str]:
    first, _, last = name.partition(" ")
    return first, last


def _users(state: CorporateCardsState, people: tuple[Person, ...]) -> dict[str, User]:
    """The staff of ``_company`` and the two executives, as Ramp users; by email."""
    staff = {s.email for s in STAFF}
    finance = {s.email for s in STAFF if s.team == "finance"}
    out: dict[str, User] = {}
    for n, p in enumerate(people):
        if p.email not in staff and n > 1:
            continue
        first, last = _first_last(p.name)
        role = ("BUSINESS_OWNER" if n == 0 else "BUSINESS_ADMIN" if p.email in finance or n == 1
                else "BUSINESS_USER")
        u = User(id=seed_id(state, "USR"), employee_id=p.employee_id, first_name=first, last_name=last, name=p.name,
                 email=p.email, department_name=p.department, location_name=p.location, role=role)
        state.users[u.id] = out[u.email] = u
    return out


def _program(state: CorporateCardsState, spec: tuple) -> SpendProgram:
    name, desc, amount, interval, per_txn, cats = spec
    blocked = [c for c in ALL_CATEGORIES if c not in cats]
    sp = SpendProgram(id=seed_id(state, "SPR"), display_name=name, description=desc,
                      restrictions=SpendingRestrictions(amount=amount, interval=interval,
                                                        transaction_amount_limit=per_txn,
                                                        blocked_categories=blocked))
    state.spend_programs[sp.id] = sp
    return sp


def issue_card(cid: str, user: User, sp: SpendProgram, display_name: Optional[str], amount: Optional[float],
               interval: Optional[str], n: int, today: dt.date, now: dt.datetime) -> Card:
    """A new ACTIVE virtual card for ``user`` from program ``sp`` (its limit unless ``amount``/``interval``);
    the per-transaction limit is capped at the limit; ``n`` draws the last four digits."""
    r = sp.restrictions.model_copy(deep=True)
    r.amount, r.interval = amount or r.amount, interval or r.interval
    if r.transaction_amount_limit is not None and r.transaction_amount_limit > r.amount:
        r.transaction_amount_limit = r.amount
    return Card(id=cid, display_name=display_name or f"{sp.display_name} - {user.name}",
                last_four=f"{(7919 * n + 4001) % 10000:04d}", cardholder_id=user.id, cardholder_name=user.name,
                cardholder_email=user.email, spend_program_id=sp.id, is_physical=False, state="ACTIVE",
                spending_restrictions=SpendingRestrictions.model_validate(r.model_dump()),
                expiration=f"{today.month:02d}/{(today.year + 3) % 100:02d}", created_at=now)


def build_cards(people: tuple[Person, ...], rng: random.Random, today: dt.date) -> CorporateCardsState:
    """Users, spend programs, cards, transactions and receipts for the roster ``people``."""
    state = CorporateCardsState()
    users = _users(state, people)
    programs = [_program(state, spec) for spec in PROGRAMS]
    cards: list[Card] = []
    for handle, prog, physical, status in _CARDS:
        user = users[people[0].email] if handle == "ceo" else next(u for e, u in users.items()
                                                                    if e.startswith(handle + "@"))
        sp = programs[prog]
        limits = sp.restrictions.model_copy(deep=True)
        if handle == "ceo":
            limits.amount, limits.interval, limits.transaction_amount_limit = 50000.0, "YEARLY", 10000.0
        created = stamp(today, 400 if status == "TERMINATED" else rng.randint(60, 300), rng)
        c = Card(id=seed_id(state, "CARD"), display_name=f"{sp.display_name} - {user.name}",
                 last_four=f"{rng.randrange(10000):04d}", cardholder_id=user.id, cardholder_name=user.name,
                 cardholder_email=user.email, spend_program_id=sp.id, is_physical=physical, state=status,
                 spending_restrictions=limits, expiration=f"{rng.randint(1, 12):02d}/{(today.year + 3) % 100:02d}",
                 created_at=created)
        if status == "SUSPENDED":
            c.suspended_at = stamp(today, 3, rng)
        if status == "TERMINATED":
            c.terminated_at = stamp(today, 30, rng)
        state.cards[c.id] = c
        cards.append(c)
    for n, (ci, cat, days, status, share) in enumerate(_TXNS):
        card = cards[ci]
        used = spent(card, state.transactions.values(), today)
        r = card.spending_restrictions
        cap = min(r.transaction_amount_limit or r.amount, r.amount - used, _CATEGORY_MAX.get(cat, r.amount))
        amount = round((share or rng.uniform(0.08, 0.4)) * cap, 2)
        reason = None
        if status == "DECLINED":
            if card.state == "ACTIVE":
                amount = round(r.amount - used + rng.randint(20, 80), 2)
            reason = decline_reason(card, amount, cat, used)
        when = stamp(today, days, rng)
        t = CardTransaction(id=seed_id(state, "CTX"), card_id=card.id, cardholder_id=card.cardholder_id,
                            cardholder_name=card.cardholder_name, cardholder_email=card.cardholder_email,
                            merchant_name=rng.choice(MERCHANTS[cat]), merchant_category=cat, amount=amount,
                            state=status, decline_reason=reason, user_transaction_time=when,
                            settlement_date=(when.date() + dt.timedelta(days=1)) if status == "CLEARED" else None)
        if status == "CLEARED" and n % 3 != 2:
            t.memo = _MEMOS[cat]
        if status == "CLEARED" and n % 4 != 3:
            rc = Receipt(id=seed_id(state, "RCT"), transaction_id=t.id, user_id=card.cardholder_id,
                         filename=f"{t.merchant_name.lower().replace(' ', '-')}-{when:%m%d}.pdf",
                         created_at=when + dt.timedelta(hours=2))
            state.receipts[rc.id] = rc
            t.receipts.append(rc.id)
        state.transactions[t.id] = t
    flagged = state.transactions["CTX-0013"]
    flagged.flagged, flagged.flag_reason = True, "Meal over the per-person policy; needs the attendee list."
    return state
