"""Seed data of the library_circulation service: the Riverside school and
community library.

Patrons line up with the other services: students carry their SIS student
id (``STU-0001``...) and their guardian's email as in ``student_records``
(two guardians are shared store customers), staff are the school's teachers
at the company domain, community members are shared store customers. The
seeded loans cover the rules: an overdue loan with an accruing fine, a
student at the loan limit, a loan at its renewal limit, an item with a hold
queue, an item on the hold shelf, a lost item and a community member
blocked by fines over $10.
"""

from __future__ import annotations

import datetime as dt
import random

from faker import Faker

from compoworld_gym.envs.services._commerce import CUSTOMERS, money
from compoworld_gym.envs.services._common import email_for
from compoworld_gym.envs.services._company import DOMAIN
from compoworld_gym.envs.services._library_circulation_models import (
    LOCATIONS, PICKUP_POINTS, POLICIES, Fee, FeePayment, Hold, Item, LibraryState, Loan, Patron, isbn13_check_digit,
)
from compoworld_gym.envs.services._student_records_seed import TEACHERS

#: Domain of the students' school email addresses.
STUDENT_DOMAIN = "students.riverside.example"
#: (title, author, ISBN-13 stem of 12 digits, material type, replacement cost).
TITLES = (
    ("The Night Circus", "Erin Morgenstern", "978038553463", "book", 27.95),
    ("Educated", "Tara Westover", "978039959050", "book", 28.00),
    ("The Hate U Give", "Angie Thomas", "978006249853", "book", 18.99),
    ("A Brief History of Time", "Stephen Hawking", "978055338016", "book", 18.00),
    ("The Martian", "Andy Weir", "978055341802", "book", 16.00),
    ("Station Eleven", "Emily St. John Mandel", "978038535330", "book", 16.95),
    ("Born a Crime", "Trevor Noah", "978039958817", "book", 28.00),
    ("The Giver", "Lois Lowry", "978054434068", "book", 10.99),
    ("Salt to the Sea", "Ruta Sepetys", "978014242436", "book", 12.99),
    ("Hidden Figures", "Margot Lee Shetterly", "978006236359", "book", 27.99),
    ("The Book Thief", "Markus Zusak", "978037584220", "book", 13.99),
    ("Code: The Hidden Language of Computer Hardware", "Charles Petzold", "978013790910", "book", 39.99),
    ("Cosmos", "Carl Sagan", "978034553943", "book", 18.00),
    ("The Poet X", "Elizabeth Acevedo", "978006266280", "book", 17.99),
    ("Apollo 13 (DVD)", "Ron Howard", "978078322926", "dvd", 14.98),
    ("Planet Earth II (DVD)", "BBC Earth", "978149157612", "dvd", 29.98),
    ("Becoming (audiobook)", "Michelle Obama", "978052563359", "audiobook", 45.00),
    ("Dune", "Frank Herbert", "978044117271", "book", 18.00),
    ("The Hobbit", "J. R. R. Tolkien", "978054792822", "book", 14.99),
    ("Sapiens", "Yuval Noah Harari", "978006231609", "book", 24.99),
)
#: Patrons: (group, SIS student number or None, guardian customer email or "fake"/None, staff/customer index, active).
_PATRONS = (
    ("student", 1, "noah.thompson@outlook.com", None, True), ("student", 2, "emma.wilson@yahoo.com", None, True),
    ("student", 3, "emma.wilson@yahoo.com", None, False), ("student", 4, "fake", None, True),
    ("student", 5, "fake", None, True), ("student", 6, "fake", None, True),
    ("staff", None, None, 0, True), ("staff", None, None, 1, True), ("staff", None, None, 6, True),
    ("community", None, None, 0, True), ("community", None, None, 3, True), ("community", None, None, 4, True),
)
#: Open loans: (patron n, item n, days until due (negative: overdue), renewals).
_OPEN = ((1, 1, -12, 0), (1, 2, 9, 0), (2, 3, 6, 1), (4, 4, 11, 0), (4, 5, 11, 0), (4, 6, 4, 0), (4, 7, 15, 0),
         (4, 8, 2, 1), (6, 9, 5, 2), (7, 10, 30, 0), (7, 11, -5, 0), (11, 12, -20, 0))
#: Closed loans: (patron n, item n, days ago due, days ago returned, action).
_CLOSED = ((3, 13, 240, 236, "checked_in"), (10, 14, 40, 15, "checked_in"), (9, 15, 70, 30, "declared_lost"),
           (12, 19, 20, 22, "checked_in"))


def _item(n: int) -> Item:
    title, author, stem, kind, cost = TITLES[n - 1]
    call = {"book": f"{author.split()[-1][:3].upper()} {800 + n}.{n:02d}", "dvd": f"DVD {n:03d}",
            "audiobook": f"CD {author.split()[-1][:3].upper()}"}[kind]
    location = LOCATIONS[2] if kind != "book" else LOCATIONS[n % 2 * 3]
    return Item(id=f"ITM-{n:04d}", barcode=f"31000{n:09d}", title=title, author=author,
                isbn=f"{stem}{isbn13_check_digit(stem)}", call_number=call, location=location, material_type=kind,
                status="available", replacement_cost=cost)


def _patron(n: int, row: tuple, fake: Faker, rng: random.Random, today: dt.date) -> Patron:
    group, student, guardian, who, active = row
    student_id = guardian_email = None
    if group == "student":
        last = guardian.split("@")[0].split(".")[-1].capitalize() if guardian != "fake" else fake.last_name()
        first = fake.first_name()
        email = email_for(f"{first} {last}", STUDENT_DOMAIN)
        student_id = f"STU-{student:04d}"
        guardian_email = guardian if guardian != "fake" else email_for(f"{fake.first_name()} {last}",
                                                                      fake.free_email_domain())
    elif group == "staff":
        first, last = TEACHERS[who][0].split(" ", 1)
        email = email_for(TEACHERS[who][0], DOMAIN)
    else:
        first, last = CUSTOMERS[who].name.split(" ", 1)
        email = CUSTOMERS[who].email
    enrolled = today - dt.timedelta(days=rng.randint(200, 900))
    expires = today - dt.timedelta(days=190) if not active else dt.date(today.year + 1 + n % 2, 6, 30)
    return Patron(id=f"PAT-{n:04d}", barcode=f"21000{n:09d}", first_name=first, last_name=last, email=email,
                  phone=f"+1-{rng.randint(201, 989)}-555-{rng.randint(1000, 9999)}", patron_group=group, active=active,
                  expiration_date=expires, enrollment_date=enrolled, student_id=student_id,
                  guardian_email=guardian_email)


def _fee(state: LibraryState, loan: Loan, kind: str, amount: float, day: dt.date, *, accruing: bool = False,
         paid: float = 0.0) -> None:
    fid = f"FEE-{len(state.fees) + 1:04d}"
    remaining = money(amount - paid)
    status = "paid_fully" if remaining == 0 else "paid_partially" if paid else "outstanding"
    payments = [FeePayment(amount=paid, method="cash", transaction_info="Paid at circulation desk",
                           at=dt.datetime.combine(day + dt.timedelta(days=1), dt.time(15, 20)))] if paid else []
    state.fees[fid] = Fee(id=fid, patron_id=loan.patron_id, loan_id=loan.id, item_id=loan.item_id, fee_type=kind,
                          amount=money(amount), remaining=remaining, status="closed" if remaining == 0 else "open",
                          payment_status=status, accruing=accruing, created_on=day, payments=payments)


def build_state(fake: Faker, rng: random.Random, today: dt.date) -> LibraryState:
    """Twelve patrons, twenty items, sixteen loans, four holds and their fees."""
    state = LibraryState()
    for n in range(1, len(TITLES) + 1):
        state.items[f"ITM-{n:04d}"] = _item(n)
    for n, row in enumerate(_PATRONS, start=1):
        state.patrons[f"PAT-{n:04d}"] = _patron(n, row, fake, rng, today)
    for p, i, due_in, renewals in _OPEN:
        patron, lid = state.patrons[f"PAT-{p:04d}"], f"LN-{len(state.loans) + 1:04d}"
        policy = POLICIES[patron.patron_group]
        due = today + dt.timedelta(days=due_in)
        loan = Loan(id=lid, patron_id=patron.id, item_id=f"ITM-{i:04d}", loan_policy=policy.policy_name,
                    loan_date=due - dt.timedelta(days=policy.loan_period_days * (renewals + 1)), due_date=due,
                    status="open", action="renewed" if renewals else "checked_out", renewal_count=renewals)
        state.loans[lid] = loan
        state.items[loan.item_id].status = "checked_out"
        if due_in < 0:  # the nightly fines job has accrued the overdue fine so far
            _fee(state, loan, "overdue_fine", min(-due_in * policy.fine_per_day, policy.max_fine), due, accruing=True)
    for p, i, due_ago, back_ago, action in _CLOSED:
        patron, lid = state.patrons[f"PAT-{p:04d}"], f"LN-{len(state.loans) + 1:04d}"
        policy = POLICIES[patron.patron_group]
        due, back = today - dt.timedelta(days=due_ago), today - dt.timedelta(days=back_ago)
        loan = Loan(id=lid, patron_id=patron.id, item_id=f"ITM-{i:04d}", loan_policy=policy.policy_name,
                    loan_date=due - dt.timedelta(days=policy.loan_period_days), due_date=due, return_date=back,
                    status="closed", action=action)
        state.loans[lid] = loan
        late = (back - due).days
        if action == "declared_lost":
            state.items[loan.item_id].status = "lost"
            _fee(state, loan, "lost_item_fee", state.items[loan.item_id].replacement_cost, back, paid=10.0)
            _fee(state, loan, "lost_item_processing_fee", 10.0, back)
        elif late > 0:
            fine = min(late * policy.fine_per_day, policy.max_fine)
            _fee(state, loan, "overdue_fine", fine, back, paid=fine if not patron.active else 0.0)
    _holds(state, today)
    state.counters.update(PAT=len(state.patrons) + 1, ITM=len(state.items) + 1, LN=len(state.loans) + 1,
                          HLD=len(state.holds) + 1, FEE=len(state.fees) + 1, OUT=1, STU=15)
    return state


def _holds(state: LibraryState, today: dt.date) -> None:
    """A two-patron queue on PAT-0002's loan, a hold on the shelf, one filled long ago."""
    rows = (("ITM-0003", "PAT-0008", 6, 1, "open_not_yet_filled"),
            ("ITM-0003", "PAT-0012", 3, 2, "open_not_yet_filled"),
            ("ITM-0016", "PAT-0005", 9, None, "open_awaiting_pickup"), ("ITM-0013", "PAT-0003", 270, None,
                                                                         "closed_filled"))
    for item, patron, ago, position, status in rows:
        hid = f"HLD-{len(state.holds) + 1:04d}"
        state.holds[hid] = Hold(id=hid, item_id=item, patron_id=patron, request_date=today - dt.timedelta(days=ago),
                                position=position, status=status, pickup_location=PICKUP_POINTS[0],
                                hold_shelf_expiration=today + dt.timedelta(days=4)
                                if status == "open_awaiting_pickup" else None)
    state.items["ITM-0016"].status = "on_hold_shelf"
