"""Records of the admissions service (Slate by Technolutions, K-12 edition).

Slate's tables, snake_cased: ``person`` (the applicant, with the parent
relation), ``lookup.round`` (an application round with its deadline,
decision release date and reply-by date), ``application`` (one person's
application in a round, its status and entry term), ``checklist`` items
(``status`` Awaiting / Received / Waived, ``received`` date), reader
``form.response`` reviews (rating and recommendation), ``decision`` rows
(``code`` Admit / Deny / Waitlist, ``released`` and the applicant's
``confirmed`` response) and ``payment`` rows (the enrollment deposit).
"""

from __future__ import annotations

from typing import Literal, Optional

from pydantic import Field

from compoworld_gym.entities import Date, DateTime, Email, Id, Money, PersonName, Phone
from compoworld_gym.service import Record, ServiceState

ApplicationStatus = Literal["awaiting_submission", "awaiting_materials", "ready_for_review", "decided", "enrolled",
                            "declined", "withdrawn"]
ChecklistStatus = Literal["awaiting", "received", "waived"]
DecisionCode = Literal["admit", "deny", "waitlist"]
Response = Literal["accept", "decline"]
ReaderRole = Literal["Director of Admission", "Associate Director", "Faculty Reader"]
PaymentMethod = Literal["credit_card", "ach", "check"]
#: Statuses of an application still being worked on or holding a live offer.
LIVE = ("awaiting_submission", "awaiting_materials", "ready_for_review", "decided", "enrolled")


class Reader(Record):
    """A Slate Reader user: admission staff (who decide) or faculty (who only review)."""

    email: Email = Field(description="Work email (the reader's login).")
    name: PersonName = Field(description="Full name.")
    role: ReaderRole = Field(description="Director of Admission, Associate Director or Faculty Reader.")
    active: bool = Field(default=True, description="Inactive readers get no new assignments or reviews.")


class Round(Record):
    """An application round (Slate ``lookup.round``)."""

    id: str = Field(description="Round id, e.g. RND-0002.")
    name: str = Field(description="Round name, e.g. Fall 2026 Grade 9 Regular Decision.")
    entry_term: str = Field(description="Term the admitted class enters, e.g. Fall 2026.")
    grades: list[int] = Field(min_length=1, description="Grade levels applicants may apply for.")
    rolling: bool = Field(default=False, description="Rolling round: decisions release as they are made.")
    deadline: Optional[Date] = Field(default=None, description="Last day to submit (none for a rolling round).")
    release_date: Optional[Date] = Field(default=None, description="Day decisions release (none for rolling).")
    reply_by: Optional[Date] = Field(default=None, description="Reply and deposit deadline (rolling: 14 days after "
                                                              "each release).")
    tuition: Money = Field(gt=0, description="Annual tuition of the entering year.")
    application_fee: Money = Field(ge=0, description="Application fee.")
    active: bool = Field(default=True, description="False once the round is closed.")


class Applicant(Record):
    """A person record of an applicant (Slate ``person``) with the parent relation."""

    id: Id("applicant") = Field(description="Person id, e.g. APC-0001.")
    first_name: PersonName = Field(description="First name.")
    last_name: PersonName = Field(description="Last name.")
    birthdate: Date = Field(description="Date of birth.")
    email: Optional[Email] = Field(default=None, description="The applicant's own email, if any.")
    current_school: str = Field(description="School attended now.")
    current_grade: int = Field(ge=7, le=11, description="Grade level now.")
    guardian_name: PersonName = Field(description="Parent or guardian (primary relation).")
    guardian_email: Email = Field(description="Parent's email: the family's portal login and contact.")
    guardian_phone: Phone = Field(description="Parent's phone.")
    created: DateTime = Field(description="When the person record was made.")


class ChecklistItem(Record):
    """A checklist item of an application (Slate ``checklist``)."""

    id: str = Field(description="Checklist item id, e.g. CHK-0001.")
    name: str = Field(description="What is needed, e.g. Math Teacher Recommendation.")
    status: ChecklistStatus = Field(description="awaiting, received or waived.")
    waivable: bool = Field(description="Whether the office may waive it.")
    received_on: Optional[Date] = Field(default=None, description="Day received or waived.")
    note: str = Field(default="", description="Waiver reason, or a note on the material.")


class Review(Record):
    """A reader's review form (Slate ``form.response`` of the reader form)."""

    id: str = Field(description="Review id, e.g. REV-0001.")
    reader_email: Email = Field(description="The reader.")
    rating: int = Field(ge=1, le=5, description="Overall rating, 1 (weak) to 5 (outstanding).")
    recommendation: DecisionCode = Field(description="admit, deny or waitlist.")
    comments: str = Field(description="The reader's comments.")
    submitted_at: DateTime = Field(description="When submitted.")


class Decision(Record):
    """A decision row (Slate ``decision``): staged, then released to the applicant's portal."""

    id: str = Field(description="Decision id, e.g. DEC-0001.")
    code: DecisionCode = Field(description="admit, deny or waitlist.")
    created_by: Email = Field(description="Admission officer who recorded it.")
    created_at: DateTime = Field(description="When recorded.")
    released: bool = Field(default=False, description="Visible to the family in the portal.")
    released_at: Optional[DateTime] = Field(default=None, description="When released.")
    reply_by: Optional[Date] = Field(default=None, description="Admit: reply and deposit deadline.")
    financial_aid: Money = Field(default=0.0, ge=0, description="Admit: annual aid award.")
    net_tuition: Optional[Money] = Field(default=None, description="Admit: tuition less the aid award.")
    deposit_due: Optional[Money] = Field(default=None, description="Admit: enrollment deposit (10% of net tuition).")
    response: Optional[Response] = Field(default=None, description="The family's reply: accept or decline.")
    response_at: Optional[DateTime] = Field(default=None, description="When the reply was recorded.")


class Deposit(Record):
    """The enrollment deposit payment (Slate ``payment``, fund Enrollment Deposit)."""

    id: str = Field(description="Payment id, e.g. DEP-0001.")
    amount: Money = Field(gt=0, description="Amount paid.")
    method: PaymentMethod = Field(description="credit_card, ach or check.")
    reference: str = Field(default="", description="Check number or processor reference.")
    paid_on: Date = Field(description="Day paid.")


class Comment(Record):
    """A comment (Slate interaction) on an application."""

    id: str = Field(description="Comment id, e.g. CMT-0001.")
    author_email: Email = Field(description="Who wrote it.")
    body: str = Field(description="Text.")
    created_at: DateTime = Field(description="When written.")


class Application(Record):
    """An application (Slate ``application``) of one applicant in one round."""

    id: Id("admission_application") = Field(description="Application id, e.g. ADM-0001.")
    applicant_id: Id("applicant") = Field(description="The applicant.")
    round_id: str = Field(description="The round.")
    grade_applying: int = Field(ge=9, le=12, description="Grade level applied for.")
    status: ApplicationStatus = Field(description="awaiting_submission, awaiting_materials, ready_for_review, "
                                                  "decided, enrolled, declined or withdrawn.")
    created: DateTime = Field(description="When started.")
    submitted_at: Optional[DateTime] = Field(default=None, description="When submitted.")
    reader_email: Optional[Email] = Field(default=None, description="Assigned reader.")
    checklist: list[ChecklistItem] = Field(default_factory=list, description="Checklist items.")
    reviews: list[Review] = Field(default_factory=list, description="Reader reviews, oldest first.")
    decisions: list[Decision] = Field(default_factory=list, description="Decisions, oldest first; the last counts.")
    deposit: Optional[Deposit] = Field(default=None, description="The enrollment deposit, once paid.")
    student_id: Optional[Id("student")] = Field(default=None, description="SIS student record of an enrolled "
                                                                         "applicant, once pushed to the SIS.")
    withdrawn_at: Optional[DateTime] = Field(default=None, description="When withdrawn.")
    withdraw_reason: str = Field(default="", description="Why withdrawn.")
    comments: list[Comment] = Field(default_factory=list, description="Comments, oldest first.")


class AdmissionsState(ServiceState):
    """The school's Slate database."""

    school_name: str = Field(default="Riverside High School", description="The school.")
    readers: dict[str, Reader] = Field(default_factory=dict, description="Readers by email.")
    rounds: dict[str, Round] = Field(default_factory=dict, description="Rounds by id.")
    applicants: dict[str, Applicant] = Field(default_factory=dict, description="Applicants by id.")
    applications: dict[str, Application] = Field(default_factory=dict, description="Applications by id.")
