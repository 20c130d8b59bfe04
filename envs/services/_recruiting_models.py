"""Records, state and pure rules of the recruiting service (Greenhouse Harvest API shapes).

A job (requisition) has openings and a hiring manager; a candidate applies to
a job; the application moves through the job's interview plan (stages in
order), collects scheduled interviews with scorecards and offers, and ends
hired or rejected. A hired application is final.
"""

from __future__ import annotations

from typing import Literal, Optional

from pydantic import Field

from compoworld_gym.entities import CompanyName, Date, DateTime, Email, Id, Money, PersonName, Phone
from compoworld_gym.errors import Conflict, Unprocessable
from compoworld_gym.service import Record, ServiceState

#: The interview plan every job uses, in order (Greenhouse job stages).
STAGES: tuple[str, ...] = ("Application Review", "Phone Screen", "Technical Interview", "Onsite", "Offer")
JobStatus = Literal["draft", "open", "closed"]
ApplicationStatus = Literal["active", "rejected", "hired"]
InterviewStatus = Literal["scheduled", "completed", "cancelled"]
Recommendation = Literal["definitely_not", "no", "yes", "strong_yes"]
OfferStatus = Literal["unresolved", "accepted", "rejected", "deprecated"]
#: Greenhouse's default rejection reasons.
RejectionReason = Literal["Lacking skill(s)/qualification(s)", "Hired another candidate", "Withdrew",
                          "Compensation expectations", "Did not respond", "Other"]


class Opening(Record):
    """One head-count slot of a job."""

    opening_id: str = Field(description="Opening id, e.g. OPN-0001.")
    status: Literal["open", "filled", "closed"] = Field(description="open, filled or closed.")
    application_id: Optional[Id("job_application")] = Field(default=None, description="Hire that filled it.")


class Job(Record):
    """A job (requisition)."""

    id: Id("job_posting") = Field(description="Job id, e.g. REQ-0001.")
    name: str = Field(description="Job title.")
    department: str = Field(description="Team name.")
    office: str = Field(description="Office or 'Remote'.")
    status: JobStatus = Field(description="draft, open or closed.")
    hiring_manager_email: Email = Field(description="Hiring manager (company roster).")
    recruiter_email: Email = Field(description="Recruiter (company roster).")
    openings: list[Opening] = Field(default_factory=list, description="Openings.")
    opened_on: Date = Field(description="Date the job opened.")


class Note(Record):
    """An activity-feed note on a candidate."""

    user_email: Email = Field(description="Who wrote it.")
    body: str = Field(description="Text.")
    created_at: DateTime = Field(description="When.")


class Candidate(Record):
    """A candidate (a person; may apply to several jobs)."""

    id: Id("candidate") = Field(description="Candidate id, e.g. CAN-0001.")
    first_name: str = Field(description="First name.")
    last_name: str = Field(description="Last name.")
    email: Email = Field(description="Personal email.")
    phone: Optional[Phone] = Field(default=None, description="Phone.")
    company: Optional[CompanyName] = Field(default=None, description="Current employer.")
    created_at: DateTime = Field(description="When added.")
    notes: list[Note] = Field(default_factory=list, description="Activity feed notes, oldest first.")


class StageMove(Record):
    """One entry of an application's stage history."""

    stage: str = Field(description="Stage entered.")
    at: DateTime = Field(description="When.")


class Application(Record):
    """A candidate's application to one job."""

    id: Id("job_application") = Field(description="Application id, e.g. APP-0001.")
    candidate_id: Id("candidate") = Field(description="The candidate.")
    candidate_name: PersonName = Field(description="The candidate's full name.")
    candidate_email: Email = Field(description="The candidate's email.")
    job_id: Id("job_posting") = Field(description="The job.")
    hiring_manager_email: Email = Field(description="The job's hiring manager (copied when applying).")
    status: ApplicationStatus = Field(description="active, rejected or hired.")
    current_stage: str = Field(description="Current stage of the interview plan.")
    source: str = Field(default="Careers page", description="Where the candidate came from.")
    applied_at: DateTime = Field(description="When they applied.")
    history: list[StageMove] = Field(default_factory=list, description="Stages entered, oldest first.")
    rejected_at: Optional[DateTime] = Field(default=None, description="When rejected.")
    rejection_reason: Optional[RejectionReason] = Field(default=None, description="Why rejected.")
    rejection_notes: Optional[str] = Field(default=None, description="Rejection notes.")
    hired_at: Optional[DateTime] = Field(default=None, description="When hired.")
    start_date: Optional[Date] = Field(default=None, description="Start date once hired.")


class Scorecard(Record):
    """One interviewer's feedback."""

    interviewer_email: Email = Field(description="Who submitted it.")
    overall_recommendation: Recommendation = Field(description="definitely_not, no, yes or strong_yes.")
    notes: str = Field(default="", description="Notes.")
    submitted_at: DateTime = Field(description="When.")


class Interview(Record):
    """A scheduled interview of an application."""

    id: Id("interview") = Field(description="Interview id, e.g. INT-0001.")
    application_id: Id("job_application") = Field(description="The application.")
    stage: str = Field(description="Stage it belongs to.")
    interviewers: list[Email] = Field(min_length=1, description="Interviewers (company roster).")
    start: DateTime = Field(description="Start time.")
    end: DateTime = Field(description="End time.")
    status: InterviewStatus = Field(description="scheduled, completed or cancelled.")
    scorecards: list[Scorecard] = Field(default_factory=list, description="Submitted scorecards.")


class Offer(Record):
    """An offer made on an application."""

    id: str = Field(description="Offer id, e.g. OFR-0001.")
    application_id: Id("job_application") = Field(description="The application.")
    salary: Money = Field(description="Annual base salary (USD).")
    start_date: Date = Field(description="Proposed start date.")
    status: OfferStatus = Field(description="unresolved, accepted, rejected or deprecated.")
    created_at: DateTime = Field(description="When made.")
    resolved_at: Optional[DateTime] = Field(default=None, description="When accepted or rejected.")


class RecruitingState(ServiceState):
    """Jobs, candidates, applications, interviews and offers by id."""

    jobs: dict[str, Job] = Field(default_factory=dict, description="Jobs by id.")
    candidates: dict[str, Candidate] = Field(default_factory=dict, description="Candidates by id.")
    applications: dict[str, Application] = Field(default_factory=dict, description="Applications by id.")
    interviews: dict[str, Interview] = Field(default_factory=dict, description="Interviews by id.")
    offers: dict[str, Offer] = Field(default_factory=dict, description="Offers by id.")


def require_active(app: Application, action: str) -> None:
    """Refuse ``action`` on a hired or rejected application.

    Raises:
        Conflict: 409; a hired application is final, a rejected one must be unrejected first.
    """
    if app.status == "hired":
        raise Conflict(f"application {app.id} is hired; {action} is not possible on a hired application.")
    if app.status == "rejected":
        raise Conflict(f"application {app.id} is rejected; unreject_application first to {action}.")


def stage_index(stage: str) -> int:
    """Position of ``stage`` in :data:`STAGES`.

    Raises:
        Unprocessable: 422 naming the valid stages.
    """
    try:
        return STAGES.index(stage)
    except ValueError:
        raise Unprocessable(f"{stage!r} is not a stage of the interview plan: {', '.join(STAGES)}.") from None


def has_completed_interview(interviews: list[Interview]) -> bool:
    """Whether any of ``interviews`` is completed with at least one scorecard."""
    return any(i.status == "completed" and i.scorecards for i in interviews)
