"""Records, fixed firm roster and seed data of the ``legal_matters`` service.

The firm's users (attorneys and a paralegal) are fixed and seed-independent,
like the company roster in ``_company``: a policy that routes a matter to
``r.okafor@harlowreed.example`` names a user the practice-management system
has in every composition. The company's own Privacy Counsel (from the shared
roster) is a user too: privacy matters are run with in-house counsel.
"""

from __future__ import annotations

import datetime as dt
from typing import Literal, NamedTuple, Optional

from pydantic import Field

from compoworld_gym.entities import CompanyName, Date, DateTime, Email, Id, Money, PersonName, Phone
from compoworld_gym.envs.services._commerce import money
from compoworld_gym.envs.services._company import STAFF
from compoworld_gym.service import Record, ServiceState

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


MatterStatus = Literal["open", "pending", "closed"]
PracticeArea = Literal["Corporate", "Litigation", "Employment", "Intellectual Property", "Real Estate", "Privacy"]
BillState = Literal["draft", "awaiting_payment", "paid", "void"]
DocumentCategory = Literal["pleading", "correspondence", "contract", "evidence", "memo", "invoice"]
#: Days from issue to due date of a bill unless one is given.
BILL_TERMS_DAYS = 30


class User(Record):
    """A firm user (attorney or paralegal)."""

    id: Id("user") = Field(description="User id, e.g. USR-0001.")
    name: PersonName = Field(description="Full name.")
    email: Email = Field(description="Work email.")
    role: Literal["attorney", "paralegal"] = Field(description="Role; only attorneys may be responsible.")
    rate: Money = Field(description="Default hourly rate (USD).")
    practice_area: PracticeArea = Field(description="Main practice area.")


class Contact(Record):
    """A client or other party: a person or a company (Clio ``Contact``)."""

    id: Id("contact") = Field(description="Contact id, e.g. CON-0001.")
    type: Literal["Person", "Company"] = Field(description="Person or Company.")
    name: str = Field(description="Person's full name or company name.")
    company: Optional[CompanyName] = Field(default=None, description="The person's company, or the company itself.")
    email: Optional[Email] = Field(default=None, description="Primary email address.")
    phone: Optional[Phone] = Field(default=None, description="Primary phone number.")


class MatterNote(Record):
    """A note on a matter."""

    subject: str = Field(description="Subject line.")
    detail: str = Field(description="Note text.")
    created_at: DateTime = Field(description="When written (logical clock).")


class Matter(Record):
    """A client matter (Clio ``Matter``)."""

    id: Id("matter") = Field(description="Matter id, e.g. MAT-0001.")
    display_number: str = Field(description="Human matter number, e.g. 00012-Lowe.")
    description: str = Field(description="What the matter is about.")
    client_id: Id("contact") = Field(description="The client contact.")
    client_name: str = Field(description="Client's name.")
    client_email: Optional[Email] = Field(default=None, description="Client's primary email.")
    client_company: Optional[CompanyName] = Field(default=None, description="Client's company.")
    practice_area: PracticeArea = Field(description="Practice area.")
    responsible_attorney_email: Email = Field(description="Attorney responsible for the matter.")
    originating_attorney_email: Email = Field(description="Attorney who brought the matter in.")
    status: MatterStatus = Field(description="open, pending or closed.")
    open_date: Date = Field(description="Date opened.")
    pending_date: Optional[Date] = Field(default=None, description="Date last set pending.")
    close_date: Optional[Date] = Field(default=None, description="Date closed.")
    notes: list[MatterNote] = Field(default_factory=list, description="Notes, oldest first.")


class Activity(Record):
    """A time or expense entry on a matter (Clio ``Activity``)."""

    id: Id("time_entry") = Field(description="Activity id, e.g. ACT-0001.")
    type: Literal["TimeEntry", "ExpenseEntry"] = Field(description="TimeEntry or ExpenseEntry.")
    matter_id: Id("matter") = Field(description="The matter.")
    user_email: Email = Field(description="Who did the work or spent the money.")
    date: Date = Field(description="Date of the work or expense.")
    quantity: float = Field(gt=0, description="Hours for a TimeEntry; 1 for an ExpenseEntry.")
    price: Money = Field(description="Hourly rate, or the expense amount (USD).")
    total: Money = Field(description="quantity x price (USD).")
    note: str = Field(description="Narrative shown on the bill.")
    billable: bool = Field(default=True, description="Whether it goes on a bill.")
    bill_id: Optional[str] = Field(default=None, description="Bill it is on; None while unbilled.")


class Document(Record):
    """A document filed on a matter."""

    id: str = Field(description="Document id, e.g. DOC-0001.")
    matter_id: Id("matter") = Field(description="The matter.")
    name: str = Field(description="File name.")
    category: DocumentCategory = Field(description="Document category.")
    uploaded_on: Date = Field(description="Upload date.")


class Bill(Record):
    """A bill of a matter's activities (Clio ``Bill``)."""

    id: str = Field(description="Bill id, e.g. BIL-0001.")
    matter_id: Id("matter") = Field(description="The matter billed.")
    client_id: Id("contact") = Field(description="The client billed.")
    state: BillState = Field(description="draft, awaiting_payment, paid or void.")
    activity_ids: list[str] = Field(description="Activities on the bill.")
    total: Money = Field(description="Sum of the activities (USD).")
    paid: Money = Field(default=0.0, description="Payments received (USD).")
    balance: Money = Field(description="total - paid (USD).")
    created_on: Date = Field(description="Date generated.")
    issued_at: Optional[Date] = Field(default=None, description="Date sent to the client.")
    due_at: Optional[Date] = Field(default=None, description="Payment due date.")


class LegalMattersState(ServiceState):
    """Users, contacts, matters, activities, documents and bills."""

    users: dict[str, User] = Field(default_factory=dict, description="Users by id.")
    contacts: dict[str, Contact] = Field(default_factory=dict, description="Contacts by id.")
    matters: dict[str, Matter] = Field(default_factory=dict, description="Matters by id.")
    activities: dict[str, Activity] = Field(default_factory=dict, description="Activities by id.")
    documents: dict[str, Document] = Field(default_factory=dict, description="Documents by id.")
    bills: dict[str, Bill] = Field(default_factory=dict, description="Bills by id.")


def unbilled(state: LegalMattersState, matter_id: str) -> list[Activity]:
    """The billable activities of a matter not on any bill, in id order."""
    return [a for a in state.activities.values() if a.matter_id == matter_id and a.billable and a.bill_id is None]


def matter_view(state: LegalMattersState, m: Matter) -> dict:
    """A matter with its billing summary: unbilled hours and amount, outstanding balance (USD)."""
    work = unbilled(state, m.id)
    owed = [b.balance for b in state.bills.values() if b.matter_id == m.id and b.state == "awaiting_payment"]
    return {**m.model_dump(), "unbilled_hours": round(sum(a.quantity for a in work if a.type == "TimeEntry"), 1),
            "unbilled_amount": money(sum(a.total for a in work)), "outstanding_balance": money(sum(owed))}


def seed_matters(state, fake, rng, today) -> None:
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
