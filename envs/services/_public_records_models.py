"""Records of the public_records service (NextRequest / GovQA public records requests).

NextRequest keeps a ``request`` with the requester, the request text, the
departments and point of contact, the ``request_state`` and the due date, a
timeline of acknowledgement, extension and closure events, ``invoices`` (fee
estimates the requester pays before release) and released ``documents``,
each with the exemptions cited for redactions or withholding. The statute
here is the California Public Records Act as recodified in 2023 (Gov. Code
§ 7920.000 ff.).
"""

from __future__ import annotations

from typing import Literal, Optional

from pydantic import Field

from compoworld_gym.entities import CompanyName, Date, Email, Id, Money, PersonName
from compoworld_gym.service import Record, ServiceState

Department = Literal["Building & Permits", "Business Licensing", "City Clerk", "Police", "Public Works", "Finance"]
RequestStatus = Literal["received", "acknowledged", "in_progress", "fulfilled", "denied", "partially_fulfilled",
                        "withdrawn"]
CLOSED: tuple[str, ...] = ("fulfilled", "denied", "partially_fulfilled", "withdrawn")
PaymentMethod = Literal["credit_card", "check", "cash", "ach"]

#: Exemptions a response may cite: statute section -> what it covers.
EXEMPTIONS: dict[str, str] = {
    "GC 7927.700": "Personnel, medical or similar files (personal privacy)",
    "GC 7923.600": "Records of a law-enforcement investigation",
    "GC 7927.705": "Records exempt under other law (e.g. attorney-client privilege)",
    "GC 7927.300": "Records pertaining to pending litigation",
    "GC 7929.210": "Critical infrastructure information (security)",
    "GC 7927.500": "Preliminary drafts and notes not retained in the ordinary course",
    "GC 7922.000": "Public interest in withholding clearly outweighs disclosure",
}
#: The records officer who answers each department's requests.
RECORDS_OFFICERS: dict[str, str] = {
    "Building & Permits": "Janet Pruitt", "Business Licensing": "Omar Haddad", "City Clerk": "Linda Chavez",
    "Police": "Sgt. Kevin Rourke", "Public Works": "Tessa Morgan", "Finance": "Victor Lam"}


class FeeLine(Record):
    """One line of a fee estimate."""

    code: Literal["COPY", "EXTRACT", "MEDIA"] = Field(description="COPY pages, EXTRACT data extraction, MEDIA.")
    description: str = Field(description="What it is for.")
    quantity: float = Field(ge=0, description="Pages, or 1 for a cost item.")
    unit_price: Money = Field(ge=0, description="Price per unit (USD).")
    amount: Money = Field(ge=0, description="Line amount (USD).")


class FeeEstimate(Record):
    """A fee estimate (NextRequest invoice) the requester pays before records are released."""

    lines: list[FeeLine] = Field(description="Fee lines.")
    total: Money = Field(ge=0.01, description="Total (USD).")
    status: Literal["pending", "paid", "waived"] = Field(description="pending (blocks release), paid or waived.")
    estimated_on: Date = Field(description="Date issued.")
    settled_on: Optional[Date] = Field(default=None, description="Date paid or waived.")
    receipt_number: Optional[str] = Field(default=None, description="Receipt of the payment.")
    method: Optional[PaymentMethod] = Field(default=None, description="How it was paid.")
    reference: str = Field(default="", description="Payment reference, or the reason for a waiver.")


class Document(Record):
    """A document released to the requester."""

    id: str = Field(description="Document id, e.g. DOC-0001.")
    title: str = Field(description="Title.")
    pages: int = Field(ge=1, le=100000, description="Page count.")
    redacted: bool = Field(description="Whether parts were redacted.")
    exemptions: list[str] = Field(default_factory=list, description="Exemptions cited for the redactions.")
    released_on: Date = Field(description="Date released.")


class RecordsRequest(Record):
    """A public records request."""

    id: Id("records_request") = Field(description="Request id, e.g. PRR-0001.")
    requester_name: PersonName = Field(description="Requester.")
    requester_email: Email = Field(description="Requester's email.")
    requester_company: Optional[CompanyName] = Field(default=None, description="Organisation the requester is with.")
    description: str = Field(description="The records asked for.")
    department: Department = Field(description="Department holding the records.")
    related_permit_id: Optional[Id("permit")] = Field(default=None,
                                                      description="The permit record the request is about.")
    point_of_contact: str = Field(description="Records officer handling it.")
    status: RequestStatus = Field(description="Workflow status.")
    received_on: Date = Field(description="Date received.")
    ack_due_on: Date = Field(description="Acknowledgement deadline (3 business days after receipt).")
    acknowledged_on: Optional[Date] = Field(default=None, description="Date acknowledged.")
    acknowledgement: Optional[str] = Field(default=None, description="The acknowledgement sent to the requester.")
    late_ack_reason: Optional[str] = Field(default=None, description="Why it was acknowledged after the deadline.")
    due_on: Date = Field(description="Response due date (10 business days, or the extended date).")
    extended: bool = Field(default=False, description="Whether the one allowed extension was taken.")
    extension_reason: Optional[str] = Field(default=None, description="The reason given for the extension.")
    fee_estimate: Optional[FeeEstimate] = Field(default=None, description="The fee estimate, if any.")
    documents: list[Document] = Field(default_factory=list, description="Released documents.")
    exemptions_cited: list[str] = Field(default_factory=list, description="Exemptions cited for withheld records.")
    closed_on: Optional[Date] = Field(default=None, description="Date closed.")
    closure_reason: Optional[str] = Field(default=None, description="Closure message to the requester.")
    notes: list[str] = Field(default_factory=list, description="Internal notes, oldest first.")


class PublicRecordsState(ServiceState):
    """Public records requests."""

    requests: dict[str, RecordsRequest] = Field(default_factory=dict, description="Requests by id.")
