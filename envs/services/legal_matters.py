"""Legal matters: a law firm's practice-management system, after the Clio API v4.

No practice-management server is in ``compoworld_gym/data/mcp_servers.jsonl``;
the interface follows Clio Manage's API v4 resources: ``contacts`` (people and
companies), ``matters`` (client, practice area, responsible and originating
attorney, status Open / Pending / Closed), ``activities`` (``TimeEntry`` with
quantity in hours at a rate, ``ExpenseEntry``), ``notes``, ``documents`` and
``bills`` generated from a matter's unbilled activities. The rules are Clio's
(``_legal_matters_rules``); users are the firm's fixed roster (``_legal_matters_seed``).
"""

from __future__ import annotations

import datetime as dt
import random
from typing import Literal, Optional

from faker import Faker
from pydantic import Field

from compoworld_gym.entities import CompanyName, Date, Email, Id, Money, Phone
from compoworld_gym.envs.services._commerce import MONEY_MAX, money
from compoworld_gym.envs.services import _legal_matters_rules as rules
from compoworld_gym.envs.services._blocks import eq, ieq, select
from compoworld_gym.envs.services._legal_matters_models import (
    Activity, Bill, BillState, Contact, Document, DocumentCategory, LegalMattersState, Matter, MatterNote,
    MatterStatus, PracticeArea, User,
)
from compoworld_gym.envs.services._legal_matters_rules import matter_view, unbilled
from compoworld_gym.envs.services._legal_matters_seed import USERS, seed_matters
from compoworld_gym.errors import Conflict, Unprocessable
from compoworld_gym.service import Service, tool


class LegalMatters(Service):
    """Law-firm practice management: contacts, matters, time and expenses, notes, documents, bills."""

    name = "legal_matters"
    description = ("Law-firm practice management (Clio-style): client matters, responsible attorneys, "
                   "time and expense entries, notes, documents, bills and payments.")
    domain = "legal"
    spec_source = None
    State = LegalMattersState

    # ---------------------------------------------------------------- helpers
    def _matter(self, matter_id: str) -> Matter:
        return self.lookup(self.state.matters, matter_id, "matter")

    def _open_matter(self, matter_id: str, action: str) -> Matter:
        m = self._matter(matter_id)
        if m.status == "closed":
            raise Conflict(f"matter {m.id} is closed; reopen it (update_matter_status to 'open') before {action}.")
        return m

    def _bill(self, bill_id: str) -> Bill:
        return self.lookup(self.state.bills, bill_id, "bill")

    # ------------------------------------------------------------------ reads
    @tool(read_only=True, returns=list[User])
    def list_users(self, role: Optional[Literal["attorney", "paralegal"]] = None) -> list[dict]:
        """List the firm's users with role, hourly rate and practice area.

        Args:
            role: only attorneys or only paralegals.
        """
        return [u.model_dump() for u in select(self.state.users.values(), eq("role", role))]

    @tool(read_only=True, returns=list[Contact])
    def list_contacts(self, query: Optional[str] = None, type: Optional[Literal["Person", "Company"]] = None,
                      limit: int = Field(default=50, ge=1, le=200)) -> list[dict]:
        """Search contacts by name, company or email (case-insensitive substring).

        Args:
            query: text found in the name, company or email.
            type: only people or only companies.
            limit: maximum number of contacts (1-200).
        """
        q = (query or "").lower()
        return [c.model_dump() for c in self.state.contacts.values()
                if (type is None or c.type == type)
                and q in " ".join(filter(None, (c.name, c.company, c.email))).lower()][:limit]

    @tool(read_only=True, returns=Contact)
    def get_contact(self, contact_id: Id("contact")) -> dict:
        """Get one contact.

        Args:
            contact_id: the contact id, e.g. CON-0001.
        """
        return self.lookup(self.state.contacts, contact_id, "contact").model_dump()

    @tool(read_only=True, returns=list[Matter])
    def list_matters(self, status: Optional[MatterStatus] = None, client_id: Optional[Id("contact")] = None,
                     client_email: Optional[Email] = None, client_company: Optional[CompanyName] = None,
                     responsible_attorney_email: Optional[Email] = None, practice_area: Optional[PracticeArea] = None,
                     limit: int = Field(default=50, ge=1, le=200)) -> list[dict]:
        """List matters (without notes) with their billing summary, filtered by any of the fields.

        Args:
            status: open, pending or closed.
            client_id: only this client's matters.
            client_email: only matters whose client has this email.
            client_company: only matters of clients of this company (case-insensitive).
            responsible_attorney_email: only this attorney's matters.
            practice_area: only this practice area.
            limit: maximum number of matters (1-200).
        """
        rows = select(self.state.matters.values(), eq("status", status), eq("client_id", client_id),
                      rules.ieq_blank("client_email", client_email), rules.ieq_blank("client_company", client_company),
                      ieq("responsible_attorney_email", responsible_attorney_email),
                      eq("practice_area", practice_area), limit=limit)
        return [{k: v for k, v in matter_view(self.state, m).items() if k != "notes"} for m in rows]

    @tool(read_only=True, returns=Matter)
    def get_matter(self, matter_id: Id("matter")) -> dict:
        """Get one matter with its notes, unbilled hours and amount, and outstanding balance.

        Args:
            matter_id: the matter id, e.g. MAT-0001.
        """
        return matter_view(self.state, self._matter(matter_id))

    @tool(read_only=True, returns=list[Activity])
    def list_activities(self, matter_id: Id("matter"), billed: Optional[bool] = None) -> list[dict]:
        """List a matter's time and expense entries.

        Args:
            matter_id: the matter.
            billed: True only billed entries, False only unbilled ones.
        """
        self._matter(matter_id)
        return [a.model_dump() for a in self.state.activities.values() if a.matter_id == matter_id
                and (billed is None or (a.bill_id is not None) == billed)]

    @tool(read_only=True, returns=list[Document])
    def list_documents(self, matter_id: Id("matter")) -> list[dict]:
        """List the documents filed on a matter.

        Args:
            matter_id: the matter.
        """
        self._matter(matter_id)
        return [d.model_dump() for d in select(self.state.documents.values(), eq("matter_id", matter_id))]

    @tool(read_only=True, returns=list[Bill])
    def list_bills(self, matter_id: Optional[Id("matter")] = None, state: Optional[BillState] = None) -> list[dict]:
        """List bills, optionally of one matter or in one state.

        Args:
            matter_id: only this matter's bills.
            state: draft, awaiting_payment, paid or void.
        """
        rows = select(self.state.bills.values(), eq("matter_id", matter_id), eq("state", state))
        return [b.model_dump() for b in rows]

    @tool(read_only=True, returns=Bill)
    def get_bill(self, bill_id: str) -> dict:
        """Get one bill with its activities.

        Args:
            bill_id: the bill id, e.g. BIL-0001.
        """
        b = self._bill(bill_id)
        return {**b.model_dump(), "activities": [self.state.activities[a].model_dump() for a in b.activity_ids]}

    # ----------------------------------------------------------------- writes
    @tool(read_only=False, returns=Contact)
    def create_contact(self, type: Literal["Person", "Company"], name: str = Field(min_length=2, max_length=120),
                       email: Optional[Email] = None, phone: Optional[Phone] = None,
                       company: Optional[CompanyName] = None) -> dict:
        """Create a person or company contact; an email already on a contact is refused (409).

        Args:
            type: Person or Company.
            name: full name or company name.
            email: primary email address.
            phone: primary phone number.
            company: the person's company (a Company's own name if omitted).
        """
        if email and any((c.email or "").lower() == email.lower() for c in self.state.contacts.values()):
            raise Conflict(f"a contact with email {email} exists; call list_contacts to find it.")
        c = Contact(id=self.new_id("CON"), type=type, name=name, email=email, phone=phone,
                    company=company or (name if type == "Company" else None))
        self.state.contacts[c.id] = c
        return c.model_dump()

    @tool(read_only=False, returns=Matter)
    def create_matter(self, client_id: Id("contact"), description: str = Field(min_length=3, max_length=200),
                      practice_area: PracticeArea = Field(), responsible_attorney_email: Email = Field(),
                      originating_attorney_email: Optional[Email] = None) -> dict:
        """Open a matter for a client.

        Args:
            client_id: the client contact.
            description: what the matter is about.
            practice_area: Corporate, Litigation, Employment, Intellectual Property, Real Estate or Privacy.
            responsible_attorney_email: the responsible attorney (must be an attorney).
            originating_attorney_email: who brought it in (default: the responsible attorney).
        """
        client = self.lookup(self.state.contacts, client_id, "contact")
        lead = rules.find_user(self.state, responsible_attorney_email, attorney=True)
        origin = (rules.find_user(self.state, originating_attorney_email, attorney=True)
                  if originating_attorney_email else lead)
        mid = self.new_id("MAT")
        last = client.name.split()[-1]
        m = Matter(id=mid, display_number=f"{int(mid[4:]):05d}-{last}", description=description, client_id=client.id,
                   client_name=client.name, client_email=client.email, client_company=client.company,
                   practice_area=practice_area, responsible_attorney_email=lead.email,
                   originating_attorney_email=origin.email, status="open", open_date=self.today)
        self.state.matters[m.id] = m
        return matter_view(self.state, m)

    @tool(read_only=False, returns=Matter)
    def update_matter(self, matter_id: Id("matter"), description: Optional[str] = Field(default=None, min_length=3,
                                                                                         max_length=200),
                      responsible_attorney_email: Optional[Email] = None,
                      practice_area: Optional[PracticeArea] = None) -> dict:
        """Change a matter's description, responsible attorney or practice area (not of a closed matter).

        Args:
            matter_id: the matter.
            description: new description.
            responsible_attorney_email: new responsible attorney (must be an attorney).
            practice_area: new practice area.
        """
        m = self._open_matter(matter_id, "editing it")
        if responsible_attorney_email is not None:
            m.responsible_attorney_email = rules.find_user(self.state, responsible_attorney_email, attorney=True).email
        for key, value in (("description", description), ("practice_area", practice_area)):
            if value is not None:
                setattr(m, key, value)
        return matter_view(self.state, m)

    @tool(read_only=False, returns=Matter)
    def update_matter_status(self, matter_id: Id("matter"), status: MatterStatus) -> dict:
        """Set a matter open, pending or closed (closed only with nothing left unbilled; closed reopens to open).

        Args:
            matter_id: the matter.
            status: the new status.
        """
        m = self._matter(matter_id)
        rules.change_status(self.state, m, status, self.today)
        return matter_view(self.state, m)

    @tool(read_only=False, returns=Activity)
    def create_time_entry(self, matter_id: Id("matter"), user_email: Email, date: Date,
                          hours: float = Field(ge=0.1, le=24), note: str = Field(min_length=3, max_length=500),
                          rate: Optional[Money] = Field(default=None, ge=0, le=10000), billable: bool = True) -> dict:
        """Record time on a matter, in 0.1-hour increments, at the user's rate unless one is given.

        Args:
            matter_id: the matter (not closed).
            user_email: who did the work.
            date: date worked (YYYY-MM-DD), not in the future.
            hours: hours worked, a multiple of 0.1 (at least 0.1).
            note: narrative for the bill.
            rate: hourly rate in USD (default: the user's rate).
            billable: whether it goes on a bill.
        """
        m = self._open_matter(matter_id, "recording time")
        u = rules.find_user(self.state, user_email)
        rules.check_increment(hours)
        price = money(u.rate if rate is None else rate)
        a = Activity(id=self.new_id("ACT"), type="TimeEntry", matter_id=m.id, user_email=u.email,
                     date=rules.dated(date, self.today), quantity=round(hours, 1), price=price,
                     total=money(round(hours, 1) * price), note=note, billable=billable)
        self.state.activities[a.id] = a
        return a.model_dump()

    @tool(read_only=False, returns=Activity)
    def create_expense_entry(self, matter_id: Id("matter"), user_email: Email, date: Date,
                             amount: Money = Field(ge=0.01, le=MONEY_MAX),
                             note: str = Field(min_length=3, max_length=500)) -> dict:
        """Record a billable expense (filing fee, courier, ...) on a matter.

        Args:
            matter_id: the matter (not closed).
            user_email: who spent the money.
            date: date spent (YYYY-MM-DD), not in the future.
            amount: amount in USD.
            note: what it was for.
        """
        m = self._open_matter(matter_id, "recording expenses")
        u = rules.find_user(self.state, user_email)
        a = Activity(id=self.new_id("ACT"), type="ExpenseEntry", matter_id=m.id, user_email=u.email,
                     date=rules.dated(date, self.today), quantity=1, price=money(amount), total=money(amount),
                     note=note)
        self.state.activities[a.id] = a
        return a.model_dump()

    @tool(read_only=False, destructive=True)
    def delete_activity(self, activity_id: Id("time_entry")) -> dict:
        """Delete an unbilled time or expense entry.

        Args:
            activity_id: the activity id, e.g. ACT-0001.
        """
        a = self.lookup(self.state.activities, activity_id, "activity")
        if a.bill_id is not None:
            raise Conflict(f"activity {a.id} is on bill {a.bill_id}; void the bill first.")
        del self.state.activities[a.id]
        return {"deleted": a.id}

    @tool(read_only=False, returns=Matter)
    def create_note(self, matter_id: Id("matter"), subject: str = Field(min_length=1, max_length=120),
                    detail: str = Field(min_length=1, max_length=2000)) -> dict:
        """Add a note to a matter (closed matters too: notes are the file's history).

        Args:
            matter_id: the matter.
            subject: subject line.
            detail: note text.
        """
        m = self._matter(matter_id)
        m.notes.append(MatterNote(subject=subject, detail=detail, created_at=self.now()))
        return matter_view(self.state, m)

    @tool(read_only=False, returns=Document)
    def upload_document(self, matter_id: Id("matter"), name: str = Field(min_length=3, max_length=160),
                        category: DocumentCategory = "memo") -> dict:
        """File a document on a matter; a name already on the matter is refused (409).

        Args:
            matter_id: the matter (not closed).
            name: file name, e.g. 'Engagement letter.pdf'.
            category: pleading, correspondence, contract, evidence, memo or invoice.
        """
        m = self._open_matter(matter_id, "filing documents")
        if any(d.matter_id == m.id and d.name.lower() == name.lower() for d in self.state.documents.values()):
            raise Conflict(f"matter {m.id} already has a document named {name!r}.")
        d = Document(id=self.new_id("DOC"), matter_id=m.id, name=name, category=category, uploaded_on=self.today)
        self.state.documents[d.id] = d
        return d.model_dump()

    @tool(read_only=False, returns=Bill)
    def generate_bill(self, matter_id: Id("matter")) -> dict:
        """Generate a draft bill of all of a matter's unbilled billable activity (422 if there is none).

        Args:
            matter_id: the matter (not closed).
        """
        m = self._open_matter(matter_id, "billing it")
        work = unbilled(self.state, m.id)
        if not work:
            raise Unprocessable(f"matter {m.id} has no unbilled billable activity to bill.")
        total = money(sum(a.total for a in work))
        b = Bill(id=self.new_id("BIL"), matter_id=m.id, client_id=m.client_id, state="draft",
                 activity_ids=[a.id for a in work], total=total, balance=total, created_on=self.today)
        for a in work:
            a.bill_id = b.id
        self.state.bills[b.id] = b
        return b.model_dump()

    @tool(read_only=False, returns=Bill)
    def issue_bill(self, bill_id: str, due_at: Optional[Date] = None) -> dict:
        """Send a draft bill to the client (state awaiting_payment).

        Args:
            bill_id: the draft bill.
            due_at: payment due date (default: 30 days from today); not before today.
        """
        b = self._bill(bill_id)
        b.state, b.issued_at, b.due_at = "awaiting_payment", self.today, rules.issue_due(b, due_at, self.today)
        return b.model_dump()

    @tool(read_only=False, returns=Bill)
    def record_payment(self, bill_id: str, amount: Money = Field(ge=0.01, le=MONEY_MAX)) -> dict:
        """Record a client payment on an issued bill; never more than its balance (422).

        Args:
            bill_id: the bill awaiting payment.
            amount: amount received in USD.
        """
        b = self._bill(bill_id)
        rules.apply_payment(b, amount)
        return b.model_dump()

    @tool(read_only=False, destructive=True, returns=Bill)
    def void_bill(self, bill_id: str) -> dict:
        """Void a draft or unpaid bill; its activities become unbilled again.

        Args:
            bill_id: the bill (no payment recorded on it).
        """
        b = self._bill(bill_id)
        rules.void(self.state, b)
        return b.model_dump()

    # ------------------------------------------------------------------ seeds
    @classmethod
    def build_seed_state(cls, fake: Faker, rng: random.Random, today: dt.date) -> LegalMattersState:
        state = LegalMattersState()
        for i, u in enumerate(USERS, start=1):
            state.users[f"USR-{i:04d}"] = User(id=f"USR-{i:04d}", name=u.name, email=u.email, role=u.role,
                                               rate=u.rate, practice_area=u.practice_area)
        seed_matters(state, fake, rng, today)
        return state

