"""Records of the background_checks service (Checkr API v1 shapes).

Checkr's resources: a *candidate* (the person screened; ``custom_id`` holds
the applicant-tracking id, here the recruiting application), an
*invitation* to the hosted apply flow where the candidate consents, a
*report* of a *package* made of *screenings* with ``status`` pending ->
complete, ``result`` clear or consider and ``adjudication`` engaged,
pre_adverse_action or post_adverse_action, and *adverse actions* (the
pre-adverse notice, the waiting period, the post-adverse notice).
"""

from __future__ import annotations

from typing import Literal, NamedTuple, Optional

from pydantic import Field

from compoworld_gym.entities import Date, DateTime, Email, Id, Phone, Url
from compoworld_gym.service import Record, ServiceState

PackageSlug = Literal["basic", "pro"]
ScreeningType = Literal["ssn_trace", "sex_offender_search", "national_criminal_search", "county_criminal_search",
                        "motor_vehicle_report"]
InvitationStatus = Literal["pending", "completed", "expired", "canceled"]
ReportStatus = Literal["pending", "complete", "canceled"]
ReportResult = Literal["clear", "consider"]
Adjudication = Literal["engaged", "pre_adverse_action", "post_adverse_action"]
AdverseStatus = Literal["pending", "complete", "canceled"]


class Package(NamedTuple):
    """A Checkr package: slug, name, price (USD) and the screenings it runs."""

    slug: str
    name: str
    price: float
    screenings: tuple[str, ...]


PACKAGES: dict[str, Package] = {p.slug: p for p in (
    Package("basic", "Basic Criminal", 29.99, ("ssn_trace", "sex_offender_search", "national_criminal_search")),
    Package("pro", "Pro with MVR", 79.99, ("ssn_trace", "sex_offender_search", "national_criminal_search",
                                           "county_criminal_search", "motor_vehicle_report")),
)}
#: Days an invitation link stays valid; days of the FCRA waiting period after a pre-adverse notice.
INVITATION_DAYS = 7
WAITING_DAYS = 7


class Candidate(Record):
    """A person to be screened."""

    id: str = Field(description="Checkr candidate id, e.g. CND-0001.")
    first_name: str = Field(description="First name.")
    last_name: str = Field(description="Last name.")
    email: Email = Field(description="Candidate's email (as the recruiting system has it).")
    phone: Optional[Phone] = Field(default=None, description="Phone.")
    zipcode: Optional[str] = Field(default=None, description="Home ZIP code.")
    dob: Optional[Date] = Field(default=None, description="Date of birth.")
    driver_license_number: Optional[str] = Field(default=None, description="Driver license number (an MVR needs it).")
    driver_license_state: Optional[str] = Field(default=None, description="Issuing state, e.g. CA.")
    custom_id: Optional[Id("job_application")] = Field(default=None,
                                                       description="Applicant-tracking id: the recruiting application.")
    created_at: DateTime = Field(description="When the candidate was created.")
    consent_given_at: Optional[DateTime] = Field(default=None,
                                                 description="When the candidate consented (completed an invitation).")


class Invitation(Record):
    """An invitation to the hosted apply flow for one package."""

    id: str = Field(description="Invitation id, e.g. IVT-0001.")
    candidate_id: str = Field(description="The candidate.")
    package: PackageSlug = Field(description="Package slug.")
    status: InvitationStatus = Field(description="pending, completed, expired or canceled.")
    invitation_url: Url = Field(description="Link the candidate opens.")
    created_at: DateTime = Field(description="When sent.")
    expires_at: Date = Field(description="Last day the link works.")
    completed_at: Optional[DateTime] = Field(default=None, description="When the candidate completed it.")
    report_id: Optional[Id("background_check")] = Field(default=None, description="The report it started.")


class Screening(Record):
    """One search of a report."""

    type: ScreeningType = Field(description="The search.")
    status: Literal["pending", "complete"] = Field(description="pending or complete.")
    result: Optional[ReportResult] = Field(default=None, description="clear or consider once complete.")
    records: list[str] = Field(default_factory=list, description="Records found (what a consider result is about).")


class Report(Record):
    """A background check report."""

    id: Id("background_check") = Field(description="Report id, e.g. RPT-0001.")
    candidate_id: str = Field(description="The candidate.")
    package: PackageSlug = Field(description="Package slug.")
    status: ReportStatus = Field(description="pending, complete or canceled.")
    result: Optional[ReportResult] = Field(default=None, description="clear or consider once complete.")
    adjudication: Optional[Adjudication] = Field(default=None,
                                                 description="engaged, pre_adverse_action or post_adverse_action.")
    screenings: list[Screening] = Field(default_factory=list, description="The package's searches.")
    created_at: DateTime = Field(description="When ordered.")
    completed_at: Optional[DateTime] = Field(default=None, description="When complete.")
    estimated_completion_date: Optional[Date] = Field(default=None, description="ETA while pending.")
    invitation_id: Optional[str] = Field(default=None, description="The invitation that started it, if any.")
    tags: list[str] = Field(default_factory=list, description="Report tags.")


class AdverseAction(Record):
    """The adverse action process of a consider report."""

    id: str = Field(description="Adverse action id, e.g. AA-0001.")
    report_id: Id("background_check") = Field(description="The report.")
    status: AdverseStatus = Field(description="pending (waiting period), complete (post-adverse sent) or canceled.")
    adverse_items: list[str] = Field(description="Records of the report the decision rests on.")
    pre_notice_sent_at: DateTime = Field(description="When the pre-adverse action notice went out.")
    post_notice_ready_at: Date = Field(description="First day the post-adverse action notice may be sent.")
    post_notice_sent_at: Optional[DateTime] = Field(default=None, description="When the post-adverse notice went out.")
    canceled_at: Optional[DateTime] = Field(default=None, description="When canceled.")


class BackgroundChecksState(ServiceState):
    """Candidates, invitations, reports and adverse actions."""

    candidates: dict[str, Candidate] = Field(default_factory=dict, description="Candidates by id.")
    invitations: dict[str, Invitation] = Field(default_factory=dict, description="Invitations by id.")
    reports: dict[str, Report] = Field(default_factory=dict, description="Reports by id.")
    adverse_actions: dict[str, AdverseAction] = Field(default_factory=dict, description="Adverse actions by id.")


def screenings_for(package: str, consider: Optional[str] = None, pending: bool = False) -> list[Screening]:
    """The package's screenings, complete and clear, except ``consider`` (``"type: record"``) or all pending."""
    kind, _, record = (consider or "").partition(": ")
    out = []
    for t in PACKAGES[package].screenings:
        if pending:
            out.append(Screening(type=t, status="complete" if t == "ssn_trace" else "pending",
                                 result="clear" if t == "ssn_trace" else None))
        else:
            hit = t == kind
            out.append(Screening(type=t, status="complete", result="consider" if hit else "clear",
                                 records=[record] if hit else []))
    return out
