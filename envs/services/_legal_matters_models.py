"""Records and state of the legal matters service (Clio API v4 shapes; see ``legal_matters.py``).

Firm users, contacts, matters with notes, activities (time and expense
entries), documents and bills.
"""

from __future__ import annotations

from typing import Literal, Optional

from pydantic import Field

from compoworld_gym.entities import CompanyName, Date, DateTime, Email, Id, Money, PersonName, Phone
from compoworld_gym.service import Record, ServiceState

MatterStatus = Literal["open", "pending", "closed"]
PracticeArea = Literal["Corporate", "Litigation", "Employment", "Intellectual Property", "Real Estate", "Privacy"]
BillState = Literal["draft", "awaiting_payment", "paid", "void"]
DocumentCategory = Literal["pleading", "correspondence", "contract", "evidence", "memo", "invoice"]


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
