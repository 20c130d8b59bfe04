"""Fixed firm roster and seed data of the ``legal_matters`` service (records in ``_legal_matters_models``).

The firm's users (attorneys and a paralegal) are fixed and seed-independent,
like the company roster in ``_company``: a policy that routes a matter to
``r.okafor@harlowreed.example`` names a user the practice-management system
has in every composition. The company's own Privacy Counsel (from the shared
roster) is a user too: privacy matters are run with in-house counsel.
"""

from __future__ import annotations

import datetime as dt
import random
from typing import NamedTuple

from faker import Faker

from compoworld_gym.envs.services._commerce import money
from compoworld_gym.envs.services._company import STAFF
from compoworld_gym.envs.services._legal_matters_models import (
    Activity, Bill, Contact, Document, LegalMattersState, Matter,
)

#: The firm's mail domain.
FIRM_DOMAIN = "harlowreed.example"


class FirmUser(NamedTuple):
    """One user of the system: name, email, role, hourly rate (USD) and main practice area."""

    name: str
    email: str
    role: str
    rate: float
    practice_area: str


def _user(name: str, role: str, rate: float, area: str) -> FirmUser:
    first, last = name.lower().split(" ", 1)
    return FirmUser(name, f"{first[0]}.{last.replace(' ', '')}@{FIRM_DOMAIN}", role, rate, area)


_COUNSEL = next(s for s in STAFF if s.title == "Privacy Counsel")

USERS: tuple[FirmUser, ...] = (
    _user("Margaret Harlow", "attorney", 650.0, "Corporate"),
    _user("Victor Reed", "attorney", 600.0, "Litigation"),
    _user("Rosa Okafor", "attorney", 425.0, "Employment"),
    _user("Nathan Brooks", "attorney", 395.0, "Intellectual Property"),
    _user("Yuki Tanaka", "attorney", 375.0, "Real Estate"),
    FirmUser(_COUNSEL.name, _COUNSEL.email, "attorney", 325.0, "Privacy"),
    _user("Leah Summers", "paralegal", 165.0, "Litigation"),
)

#: Practice areas with their usual matter descriptions (``{client}`` is the client's name).
PRACTICE_AREAS: dict[str, tuple[str, ...]] = {
    "Corporate": ("Series B financing for {client}", "Shareholder agreement review for {client}",
                  "Asset purchase by {client}"),
    "Litigation": ("{client} v. Northwind Supply (breach of contract)", "Defense of {client} in warranty claim",
                   "Collection action for {client}"),
    "Employment": ("Wrongful termination claim against {client}", "Handbook and policy update for {client}",
                   "Non-compete dispute for {client}"),
    "Intellectual Property": ("Trademark filing for {client}", "Patent licensing for {client}",
                              "Copyright takedown dispute for {client}"),
    "Real Estate": ("Office lease negotiation for {client}", "Warehouse purchase for {client}",
                    "Zoning variance for {client}"),
    "Privacy": ("Data processing agreement for {client}", "Breach notification review for {client}",
                "GDPR subject access request for {client}"),
}

#: Typical narrative of a time entry, per practice area.
TIME_NOTES: dict[str, tuple[str, ...]] = {
    "Corporate": ("Draft term sheet", "Review disclosure schedules", "Call with client re: closing"),
    "Litigation": ("Draft motion to dismiss", "Prepare deposition outline", "Review opposing discovery"),
    "Employment": ("Review personnel file", "Draft position statement", "Call with HR re: timeline"),
    "Intellectual Property": ("Clearance search review", "Draft license terms", "Prepare USPTO response"),
    "Real Estate": ("Mark up lease draft", "Review title commitment", "Call with broker"),
    "Privacy": ("Review data map", "Draft DPA clauses", "Assess notification duties"),
}

#: Expense entries a matter may carry: (description, amount USD).
EXPENSES: tuple[tuple[str, float], ...] = (
    ("Court filing fee", 402.0), ("Courier", 38.5), ("USPTO filing fee", 350.0),
    ("Deposition transcript", 612.75), ("Title search", 225.0),
)

#: Document categories.
DOCUMENT_CATEGORIES = ("pleading", "correspondence", "contract", "evidence", "memo", "invoice")


def seed_matters(state: LegalMattersState, fake: Faker, rng: random.Random, today: dt.date) -> None:
    """Fill a ``LegalMattersState`` with clients, matters, activities, documents and bills.

    Ten matters: open ones with unbilled time and an issued bill, pending ones,
    and closed ones fully billed and paid, so every rule has a live example.
    """
    users = list(state.users.values())
    attorneys = [u for u in users if u.role == "attorney"]
    for i in range(1, 11):
        company = fake.company()
        person = i % 4 != 0  # every fourth client is a company contact
        first, last = fake.first_name(), fake.last_name()
        name = f"{first} {last}" if person else company
        email = (f"{first}.{last}@{fake.domain_name()}".lower().replace("'", "")
                 if person else f"legal@{fake.domain_name()}")
        c = Contact(id=f"CON-{i:04d}", type="Person" if person else "Company", name=name, company=company,
                    email=email, phone=fake.numerify("+1-###-555-####"))
        state.contacts[c.id] = c
    flow = ("open", "open", "pending", "open", "closed", "open", "pending", "closed", "open", "open")
    act = bill_n = doc = 0
    for i, status in enumerate(flow, start=1):
        client = state.contacts[f"CON-{(i - 1) % 10 + 1:04d}"]
        lead = attorneys[(i * 5) % len(attorneys)]
        area = lead.practice_area
        opened = today - dt.timedelta(days=20 + 9 * i)
        m = Matter(id=f"MAT-{i:04d}", display_number=f"{i:05d}-{client.name.split()[-1]}",
                   description=rng.choice(PRACTICE_AREAS[area]).format(client=client.name), client_id=client.id,
                   client_name=client.name, client_email=client.email, client_company=client.company,
                   practice_area=area, responsible_attorney_email=lead.email,
                   originating_attorney_email=rng.choice(attorneys).email, status=status, open_date=opened,
                   pending_date=opened + dt.timedelta(days=10) if status == "pending" else None,
                   close_date=today - dt.timedelta(days=5) if status == "closed" else None)
        state.matters[m.id] = m
        entries = []
        for k in range(rng.randint(2, 4)):
            act += 1
            worker = lead if k % 2 == 0 else users[-1]
            hours = rng.randint(3, 40) / 10
            day = opened + dt.timedelta(days=2 + 3 * k)
            entries.append(Activity(id=f"ACT-{act:04d}", type="TimeEntry", matter_id=m.id, user_email=worker.email,
                                    date=day, quantity=hours, price=worker.rate, total=money(hours * worker.rate),
                                    note=rng.choice(TIME_NOTES[area])))
        if i % 3 == 0:
            act += 1
            what, amount = rng.choice(EXPENSES)
            entries.append(Activity(id=f"ACT-{act:04d}", type="ExpenseEntry", matter_id=m.id, user_email=lead.email,
                                    date=opened + dt.timedelta(days=4), quantity=1, price=amount, total=amount,
                                    note=what))
        # Closed matters are billed and paid in full; open ones have one issued bill and newer unbilled time.
        billed = entries if status == "closed" else entries[:-1] if status == "open" and i % 2 else []
        if billed:
            bill_n += 1
            total = money(sum(a.total for a in billed))
            paid = total if status == "closed" else 0.0
            b = Bill(id=f"BIL-{bill_n:04d}", matter_id=m.id, client_id=client.id,
                     state="paid" if status == "closed" else "awaiting_payment",
                     activity_ids=[a.id for a in billed], total=total, paid=paid, balance=money(total - paid),
                     created_on=opened + dt.timedelta(days=15), issued_at=opened + dt.timedelta(days=15),
                     due_at=opened + dt.timedelta(days=45))
            state.bills[b.id] = b
            for a in billed:
                a.bill_id = b.id
        for a in entries:
            state.activities[a.id] = a
        doc += 1
        state.documents[f"DOC-{doc:04d}"] = Document(id=f"DOC-{doc:04d}", matter_id=m.id,
                                                     name=f"Engagement letter - {client.name}.pdf",
                                                     category=DOCUMENT_CATEGORIES[2], uploaded_on=opened)
    state.counters.update({"CON": 11, "MAT": len(flow) + 1, "ACT": act + 1, "BIL": bill_n + 1, "DOC": doc + 1})
