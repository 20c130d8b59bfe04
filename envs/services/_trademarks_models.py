"""Records of the trademarks service (USPTO TSDR case status and Trademark Center filings).

Field names follow TSDR's case-status JSON, snake_cased: ``serialNumber``
(the record id), ``registrationNumber``, ``markLiteralElements``
(``mark_literal``), ``ownerName``, ``classes`` (Nice international classes
with their goods and services), ``statusCode``/``statusDescription``,
``filingDate``, ``publicationDate``, ``registrationDate`` and the
prosecution history; office actions carry their issue date, response
deadline and examining attorney. Filings are the Trademark Center
submissions (responses, extension requests, Section 8 and 15
declarations, petitions to revive); the docket is the company's own.
"""

from __future__ import annotations

from typing import Literal, Optional

from pydantic import Field

from compoworld_gym.entities import Address, CompanyName, Date, DateTime, Email, Id, Money, PersonName, Sku
from compoworld_gym.service import Record, ServiceState

#: TSDR status codes used here (a subset of the USPTO list) and their descriptions.
STATUS_CODES: dict[str, str] = {
    "630": "New application - record initialized, not assigned to examiner",
    "641": "Non-final action - mailed",
    "644": "Final refusal - mailed",
    "661": "Response after non-final action - entered",
    "686": "Published for opposition",
    "700": "Registered",
    "701": "Registered - Sec. 8 (6-yr) accepted",
    "702": "Registered - Sec. 8 (6-yr) accepted & Sec. 15 ack.",
    "602": "Abandoned - failure to respond or late response",
    "777": "Revived - awaiting further action",
}
StatusCode = Literal["630", "641", "644", "661", "686", "700", "701", "702", "602", "777"]
#: Statuses of a registered mark (no office-action response can be filed for them).
REGISTERED = ("700", "701", "702")
FilingBasis = Literal["1(a)", "1(b)"]
ActionType = Literal["non_final", "final"]
ActionStatus = Literal["open", "responded", "abandoned"]
FilingType = Literal["application", "response", "extension_request", "section_8", "section_15", "petition_to_revive"]


class GoodsServices(Record):
    """One Nice class of an application with its identification of goods or services."""

    nice_class: int = Field(ge=1, le=45, description="Nice international class, 1-45 (e.g. 9, 20, 35).")
    description: str = Field(description="Identification of goods or services in the class.")


class HistoryEntry(Record):
    """One line of the prosecution history (TSDR ``prosecutionHistory``)."""

    entry_number: int = Field(ge=1, description="Running entry number, oldest first.")
    date: Date = Field(description="Entry date.")
    code: str = Field(description="Short event code, e.g. NWAP, GNRN, TEME, EXT3.")
    description: str = Field(description="What happened.")


class TrademarkApplication(Record):
    """A trademark application or registration (TSDR case status), keyed by serial number."""

    id: Id("trademark_application") = Field(description="USPTO serial number (8 digits), e.g. 97412236.")
    registration_number: Optional[str] = Field(default=None, description="Registration number once registered.")
    mark_literal: str = Field(description="The mark's literal elements (standard characters), e.g. KEYFORGE.")
    mark_type: Literal["standard_characters", "special_form"] = Field(description="Drawing type.")
    owner_name: CompanyName = Field(description="Applicant / registrant (the company).")
    owner_address: Address = Field(description="Owner's address of record.")
    attorney_name: PersonName = Field(description="Attorney of record (outside counsel).")
    attorney_email: Email = Field(description="Attorney of record's email (correspondence).")
    docket_contact_email: Email = Field(description="In-house legal contact who keeps the docket.")
    firm_matter_id: Optional[Id("matter")] = Field(default=None, description="Outside counsel's matter for the mark.")
    product_sku: Optional[Sku] = Field(default=None, description="The company product the mark is used on.")
    goods_services: list[GoodsServices] = Field(description="Classes and goods/services, by Nice class.")
    filing_basis: FilingBasis = Field(description="1(a) use in commerce or 1(b) intent to use.")
    filing_date: Date = Field(description="Filing date.")
    publication_date: Optional[Date] = Field(default=None, description="Published for opposition on.")
    registration_date: Optional[Date] = Field(default=None, description="Registration date.")
    status_code: StatusCode = Field(description="TSDR status code, see STATUS_CODES.")
    status_date: Date = Field(description="Date of the current status.")
    abandoned_on: Optional[Date] = Field(default=None, description="Notice of abandonment date.")
    section_8_filed_on: Optional[Date] = Field(default=None, description="Section 8 declaration filed on.")
    section_15_filed_on: Optional[Date] = Field(default=None, description="Section 15 declaration filed on.")
    history: list[HistoryEntry] = Field(default_factory=list, description="Prosecution history, oldest first.")


class OfficeAction(Record):
    """An examining attorney's office action on an application, with its response deadline."""

    id: Id("office_action") = Field(description="Office action id, e.g. OA-0003.")
    serial_number: Id("trademark_application") = Field(description="The application's serial number.")
    action_type: ActionType = Field(description="non_final or final (refusal).")
    issued_on: Date = Field(description="Issue (e-mail) date.")
    response_deadline: Date = Field(description="Due date: 3 months after issue, 6 once extended.")
    extended: bool = Field(default=False, description="True once the one 3-month extension was granted.")
    examining_attorney: PersonName = Field(description="USPTO examining attorney.")
    law_office: str = Field(description="USPTO law office, e.g. Law Office 118.")
    issues: list[str] = Field(description="Refusals and requirements raised.")
    status: ActionStatus = Field(description="open, responded, or abandoned (no timely response).")
    responded_on: Optional[Date] = Field(default=None, description="When the response was filed.")
    response_filing_id: Optional[str] = Field(default=None, description="The response filing's id.")


class Filing(Record):
    """A Trademark Center submission with its fee."""

    id: str = Field(description="Filing id, e.g. TC-0004.")
    serial_number: Id("trademark_application") = Field(description="The application or registration.")
    filing_type: FilingType = Field(description="What was filed.")
    office_action_id: Optional[Id("office_action")] = Field(default=None, description="The action answered.")
    filed_at: DateTime = Field(description="Submitted at (logical clock).")
    text: str = Field(default="", description="Arguments, statement or specimen description.")
    signatory_email: Email = Field(description="Who signed (the attorney of record).")
    classes: list[int] = Field(default_factory=list, description="Nice classes covered (maintenance filings).")
    fee: Money = Field(ge=0, description="USPTO fee paid, USD.")


class DocketEntry(Record):
    """A note on the company's trademark docket."""

    id: str = Field(description="Docket entry id, e.g. DKT-0002.")
    serial_number: Id("trademark_application") = Field(description="The application or registration.")
    office_action_id: Optional[Id("office_action")] = Field(default=None, description="Office action it is about.")
    note: str = Field(description="The note.")
    due_date: Optional[Date] = Field(default=None, description="Date docketed, if any.")
    author_email: Email = Field(description="Who docketed it.")
    created_at: DateTime = Field(description="When docketed (logical clock).")


class TrademarksState(ServiceState):
    """Applications and registrations, office actions, filings and the docket."""

    applications: dict[str, TrademarkApplication] = Field(default_factory=dict, description="By serial number.")
    office_actions: dict[str, OfficeAction] = Field(default_factory=dict, description="Office actions by id.")
    filings: dict[str, Filing] = Field(default_factory=dict, description="Trademark Center filings by id.")
    docket: dict[str, DocketEntry] = Field(default_factory=dict, description="Docket entries by id.")
