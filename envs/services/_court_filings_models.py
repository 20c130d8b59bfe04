"""Records, code lists and court calendar rules of the court e-filing service (see ``court_filings.py``).

The shapes follow Tyler Technologies' Odyssey eFileAndServe and the OASIS
ECF 4.01 messages it implements: a case (``CaseTrackingID``, case number,
court location, case category and type, participants and their attorneys),
a filing envelope (``ReviewFiling``: documents, each with a filing code and
its fee, the payment account, the service recipients, comments to the clerk)
with its review status (``NotifyFilingReviewComplete``: accepted or rejected
with the clerk's reason), EFM service contacts, and hearings reserved on the
court's calendar (``ReserveCourtDate`` / ``GetCourtSchedule``).
"""

from __future__ import annotations

import datetime as dt
from typing import Literal, NamedTuple, Optional

from pydantic import Field

from compoworld_gym.entities import City, CompanyName, Date, Email, Id, Money, PersonName
from compoworld_gym.service import Record, ServiceState

CaseStatus = Literal["open", "closed"]
FilingStatus = Literal["submitted", "accepted", "rejected", "cancelled"]
PaymentStatus = Literal["authorized", "captured", "voided", "waived"]
HearingStatus = Literal["scheduled", "vacated", "held"]
HearingType = Literal["Case Management Conference", "Motion Hearing", "Status Conference",
                      "Trial Setting Conference", "Ex Parte Hearing"]
PartyType = Literal["Plaintiff", "Defendant", "Petitioner", "Respondent", "Cross-Defendant"]
#: The times a courtroom calls its calendar (one hearing per courtroom and time).
HearingTime = Literal["08:30", "10:00", "13:30", "15:00"]
HEARING_TIMES: tuple[str, ...] = ("08:30", "10:00", "13:30", "15:00")
#: The e-filing service provider's fee per envelope (USD), on top of the court's filing fees.
EFSP_FEE = 4.95


class Court(NamedTuple):
    """A court location: EFM location code, name, city, courtrooms (department -> judge) and case types."""

    code: str
    name: str
    city: str
    courtrooms: dict[str, str]
    case_types: tuple[str, ...]
    case_prefix: str


COURTS: dict[str, Court] = {c.code: c for c in (
    Court("riverton:cv", "Riverton County Superior Court - Civil Unlimited", "Riverton",
          {"Dept. 3": "Hon. Alicia Moreno", "Dept. 7": "Hon. Gerald Finch", "Dept. 12": "Hon. Priscilla Tan"},
          ("Breach of Contract/Warranty", "Wrongful Termination", "Intellectual Property", "Business Tort"),
          "CV"),
    Court("riverton:lc", "Riverton County Superior Court - Limited Civil", "Riverton",
          {"Dept. 21": "Hon. Marcus Hale", "Dept. 22": "Hon. Ruth Calder"},
          ("Collections", "Unlawful Detainer - Commercial", "Breach of Contract/Warranty"), "LC"),
    Court("marlow:cir", "Marlow County Circuit Court", "Marlow",
          {"Courtroom 4A": "Hon. Dennis Oyelaran", "Courtroom 5B": "Hon. Helen Varga"},
          ("Breach of Contract/Warranty", "Business Tort", "Employment Discrimination"), "CI"),
)}


class FilingCode(NamedTuple):
    """A filing code of the courts' code list and the court's fee for it (USD)."""

    name: str
    fee: float
    category: str


FILING_CODES: dict[str, FilingCode] = {f.name: f for f in (
    FilingCode("Answer", 435.0, "responsive pleading"),
    FilingCode("Amended Complaint", 0.0, "pleading"),
    FilingCode("Notice of Motion and Motion", 60.0, "motion"),
    FilingCode("Ex Parte Application", 60.0, "motion"),
    FilingCode("Opposition", 0.0, "motion"),
    FilingCode("Stipulation and Proposed Order", 20.0, "order"),
    FilingCode("Case Management Statement", 0.0, "case management"),
    FilingCode("Status Report", 0.0, "case management"),
    FilingCode("Notice of Appearance", 0.0, "notice"),
    FilingCode("Proof of Service", 0.0, "notice"),
    FilingCode("Declaration", 0.0, "evidence"),
    FilingCode("Request for Dismissal", 0.0, "disposition"),
)}
FilingCodeName = Literal["Answer", "Amended Complaint", "Notice of Motion and Motion", "Ex Parte Application",
                         "Opposition", "Stipulation and Proposed Order", "Case Management Statement",
                         "Status Report", "Notice of Appearance", "Proof of Service", "Declaration",
                         "Request for Dismissal"]


def court_holidays(year: int) -> dict[dt.date, str]:
    """The judicial holidays of ``year`` on which the courts are closed (fixed-date and floating ones)."""

    def nth(month: int, weekday: int, n: int) -> dt.date:
        first = dt.date(year, month, 1)
        return first + dt.timedelta(days=(weekday - first.weekday()) % 7 + 7 * (n - 1))

    last_may = dt.date(year, 5, 31)
    return {dt.date(year, 1, 1): "New Year's Day", nth(1, 0, 3): "Martin Luther King Jr. Day",
            nth(2, 0, 3): "Presidents' Day", last_may - dt.timedelta(days=last_may.weekday()): "Memorial Day",
            dt.date(year, 7, 4): "Independence Day", nth(9, 0, 1): "Labor Day",
            dt.date(year, 11, 11): "Veterans Day", nth(11, 3, 4): "Thanksgiving Day",
            dt.date(year, 12, 25): "Christmas Day"}


def court_day_problem(day: dt.date) -> Optional[str]:
    """Why ``day`` is not a court day (a weekend or a judicial holiday), or None when it is one."""
    if day.weekday() >= 5:
        return f"{day} is a {day.strftime('%A')}"
    holiday = court_holidays(day.year).get(day)
    return f"{day} is a court holiday ({holiday})" if holiday else None


class Party(Record):
    """A case participant (ECF ``CaseParticipant``)."""

    name: str = Field(description="Person's or organisation's name.")
    party_type: PartyType = Field(description="Role in the case.")
    is_organization: bool = Field(default=False, description="Whether the party is a company.")
    attorney_email: Optional[Email] = Field(default=None, description="Email of the party's attorney of record.")


class Attorney(Record):
    """An attorney of record on a case."""

    name: PersonName = Field(description="Attorney's name.")
    email: Email = Field(description="Attorney's email.")
    bar_number: str = Field(description="State bar number.")
    firm: CompanyName = Field(description="Law firm.")
    represents: str = Field(description="Name of the party represented.")


class CourtCase(Record):
    """A court case the firm appears in (ECF ``Case``)."""

    id: Id("court_case") = Field(description="Case tracking id, e.g. CASE-0001.")
    case_number: str = Field(description="The court's docket number, e.g. 25CV004182.")
    court: str = Field(description="Court location code, e.g. riverton:cv.")
    court_name: str = Field(description="Court name.")
    city: City = Field(description="City of the courthouse.")
    case_type: str = Field(description="Case type from the court's code list.")
    title: str = Field(description="Case title, e.g. 'Lowe Outfitters v. Northwind Supply'.")
    status: CaseStatus = Field(description="open, or closed once disposed.")
    filed_on: Date = Field(description="Date the case was opened.")
    closed_on: Optional[Date] = Field(default=None, description="Date of disposition.")
    disposition: Optional[str] = Field(default=None, description="How the case was disposed, once closed.")
    courtroom: str = Field(description="Assigned department / courtroom.")
    judge: str = Field(description="Assigned judicial officer.")
    matter_id: Optional[Id("matter")] = Field(default=None, description="The firm's client matter (Clio matter id).")
    client_name: str = Field(description="The firm's client among the parties.")
    client_company: Optional[CompanyName] = Field(default=None, description="The client's company, if a company.")
    amount_in_controversy: Money = Field(ge=0, description="Amount claimed (USD).")
    fee_waiver: bool = Field(default=False, description="Whether the court granted the client a fee waiver.")
    parties: list[Party] = Field(default_factory=list, description="Case participants.")
    attorneys: list[Attorney] = Field(default_factory=list, description="Attorneys of record.")
    lead_attorney_email: Email = Field(description="The firm's attorney of record on the case.")
    service_contact_ids: list[str] = Field(default_factory=list, description="Service contacts attached.")


class FilingDocument(Record):
    """One document of a filing envelope."""

    filing_code: str = Field(description="Filing code, e.g. 'Notice of Motion and Motion'.")
    title: str = Field(description="Document title.")
    file_name: str = Field(description="PDF file name.")
    fee: Money = Field(ge=0, description="The court's fee for the filing code (USD).")


class DocumentInput(Record):
    """A document to file: filing code, title and PDF file name."""

    filing_code: FilingCodeName = Field(description="Filing code from list_filing_codes.")
    title: str = Field(min_length=3, max_length=200, description="Document title.")
    file_name: str = Field(min_length=5, max_length=120, pattern=r"(?i)^[^/\\]+\.pdf$",
                           description="PDF file name, e.g. motion.pdf.")


class FeeItem(Record):
    """One line of an envelope's fee calculation."""

    description: str = Field(description="What the fee is for.")
    amount: Money = Field(ge=0, description="Amount (USD).")


class Filing(Record):
    """A filing envelope submitted to the court (ECF ``ReviewFiling``)."""

    id: Id("court_filing") = Field(description="Filing id, e.g. FIL-0001.")
    envelope_number: str = Field(description="EFM envelope number.")
    case_id: Id("court_case") = Field(description="The case filed into.")
    case_number: str = Field(description="The case's docket number.")
    filer_email: Email = Field(description="Filing attorney's email.")
    documents: list[FilingDocument] = Field(min_length=1, description="Documents in the envelope.")
    fees: list[FeeItem] = Field(default_factory=list, description="Fee calculation lines.")
    total_fees: Money = Field(ge=0, description="Sum of the fee lines (USD).")
    payment_account_id: str = Field(description="Payment account the fees are charged to.")
    payment_status: PaymentStatus = Field(description="authorized at submission, captured on acceptance, "
                                                      "voided on rejection or cancellation, waived under a fee waiver.")
    status: FilingStatus = Field(description="submitted, accepted, rejected or cancelled.")
    submitted_on: Date = Field(description="Date submitted.")
    reviewed_on: Optional[Date] = Field(default=None, description="Date the clerk accepted or rejected it.")
    rejection_reason: Optional[str] = Field(default=None, description="The clerk's reason, when rejected.")
    comments_to_clerk: str = Field(default="", description="Filer's comments to the clerk.")
    client_reference: str = Field(default="", description="Filer's client/matter reference.")
    served_contact_ids: list[str] = Field(default_factory=list, description="Service contacts served.")
    resubmission_of: Optional[Id("court_filing")] = Field(default=None, description="The rejected filing it corrects.")
    resubmitted_as: Optional[Id("court_filing")] = Field(default=None, description="Its corrected resubmission.")
    correction_note: Optional[str] = Field(default=None, description="What was corrected, on a resubmission.")


class ServiceContact(Record):
    """An EFM service contact (who is served electronically)."""

    id: str = Field(description="Service contact id, e.g. SC-0001.")
    name: PersonName = Field(description="Contact's name.")
    email: Email = Field(description="Service email address.")
    firm: CompanyName = Field(description="Firm or organisation.")


class PaymentAccount(Record):
    """A firm payment account fees are charged to."""

    id: str = Field(description="Payment account id, e.g. PAY-0001.")
    name: str = Field(description="Account nickname.")
    type: Literal["credit_card", "bank_account", "fee_waiver"] = Field(description="Kind of account.")
    last4: Optional[str] = Field(default=None, description="Last four digits, for cards and bank accounts.")
    expires_on: Optional[Date] = Field(default=None, description="Card expiry (last valid day).")
    active: bool = Field(default=True, description="Inactive accounts cannot pay.")


class Hearing(Record):
    """A hearing reserved on a courtroom's calendar."""

    id: Id("hearing") = Field(description="Hearing id, e.g. HRG-0001.")
    case_id: Id("court_case") = Field(description="The case heard.")
    case_number: str = Field(description="The case's docket number.")
    court: str = Field(description="Court location code.")
    courtroom: str = Field(description="Courtroom / department.")
    judge: str = Field(description="Judicial officer.")
    hearing_type: HearingType = Field(description="Kind of hearing.")
    date: Date = Field(description="Day of the hearing (a court day).")
    time: HearingTime = Field(description="Calendar call time (HH:MM).")
    status: HearingStatus = Field(description="scheduled, vacated or held.")
    note: str = Field(default="", description="Reason for a vacatur, or other remarks.")


class CourtFilingsState(ServiceState):
    """Cases, filings, service contacts, payment accounts and hearings."""

    cases: dict[str, CourtCase] = Field(default_factory=dict, description="Cases by id.")
    filings: dict[str, Filing] = Field(default_factory=dict, description="Filing envelopes by id.")
    service_contacts: dict[str, ServiceContact] = Field(default_factory=dict, description="Service contacts by id.")
    payment_accounts: dict[str, PaymentAccount] = Field(default_factory=dict, description="Payment accounts by id.")
    hearings: dict[str, Hearing] = Field(default_factory=dict, description="Hearings by id.")
