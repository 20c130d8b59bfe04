"""Recruiting: jobs, candidates, applications through interview stages, interviews, offers and hires.

No applicant-tracking server is in ``compoworld_gym/data/mcp_servers.jsonl``;
the interface follows the Greenhouse Harvest API: jobs with openings and a
hiring manager, candidates by email (with activity-feed notes), applications
that move through the job's stages (``/applications/{id}/advance``,
``/move``, ``/reject``, ``/unreject``, ``/hire``), scheduled interviews with
scorecards, and offers. Rules: interviewers and hiring managers come from the
company roster (422); an offer needs the Offer stage and a completed
interview with a scorecard (422); a hired application is final and a
rejected one must be unrejected before it moves (409); a hire needs an
accepted offer and an open opening (422); an interviewer cannot be booked
twice at once (409).
"""

from __future__ import annotations

import datetime as dt
import random
from typing import Optional

from faker import Faker
from pydantic import Field

from compoworld_gym.entities import CompanyName, DateTime, Email, Id, Phone
from compoworld_gym.envs.services._blocks import eq, ieq, select, text
from compoworld_gym.envs.services._company import STAFF
from compoworld_gym.envs.services._recruiting_models import (
    STAGES, Application, ApplicationStatus, Candidate, Interview, InterviewStatus, Job, JobStatus, Note, Offer,
    Recommendation, RecruitingState, RejectionReason, Scorecard, StageMove, has_completed_interview,
    require_active, stage_index,
)
from compoworld_gym.envs.services._recruiting_offers import OffersMixin
from compoworld_gym.envs.services._recruiting_seed import build_seed
from compoworld_gym.errors import Conflict, Unprocessable
from compoworld_gym.service import Service, tool

_ROSTER = frozenset(s.email for s in STAFF)
#: Stages that hold interviews (not the review or offer step).
_INTERVIEW_STAGES = STAGES[1:4]


class Recruiting(OffersMixin, Service):
    """Greenhouse-style applicant tracking: jobs, candidates, stages, interviews, scorecards, offers, hires."""

    name = "recruiting"
    description = ("Applicant tracking (Greenhouse style): jobs with openings and hiring managers, candidates, "
                   "applications through interview stages, scheduled interviews with scorecards, offers, hires.")
    domain = "hr"
    spec_source = None
    State = RecruitingState

    def _app(self, application_id: str) -> Application:
        return self.lookup(self.state.applications, application_id, "application")

    def _interviews_of(self, app_id: str) -> list[Interview]:
        return [i for i in self.state.interviews.values() if i.application_id == app_id]

    def _offers_of(self, app_id: str) -> list[Offer]:
        return [o for o in self.state.offers.values() if o.application_id == app_id]

    def _enter(self, app: Application, stage: str) -> None:
        app.current_stage = stage
        app.history.append(StageMove(stage=stage, at=self.now()))

    def _require_interviewed(self, app: Application, action: str) -> None:
        if not has_completed_interview(self._interviews_of(app.id)):
            raise Unprocessable(f"application {app.id} has no completed interview with a scorecard; {action} "
                                "needs one.")

    def _full(self, app: Application) -> dict:
        return {**app.model_dump(), "interviews": [i.model_dump() for i in self._interviews_of(app.id)],
                "offers": [o.model_dump() for o in self._offers_of(app.id)]}

    # ------------------------------------------------------------------ reads
    @tool(read_only=True, returns=list[Job])
    def list_jobs(self, status: Optional[JobStatus] = None, department: Optional[str] = None,
                  hiring_manager_email: Optional[Email] = None) -> list[dict]:
        """List jobs with their openings and hiring manager.

        Args:
            status: only jobs in this status.
            department: only this department, e.g. 'Billing Operations'.
            hiring_manager_email: only jobs this manager hires for.
        """
        return [j.model_dump() for j in select(self.state.jobs.values(), eq("status", status),
                                                ieq("department", department),
                                                ieq("hiring_manager_email", hiring_manager_email))]

    @tool(read_only=True, returns=Job)
    def get_job(self, job_id: Id("job_posting")) -> dict:
        """Get a job with its openings and the stages of its interview plan.

        Args:
            job_id: the job id, e.g. REQ-0001.
        """
        return {**self.lookup(self.state.jobs, job_id, "job").model_dump(), "stages": list(STAGES)}

    @tool(read_only=True, returns=list[Candidate])
    def list_candidates(self, email: Optional[Email] = None, query: Optional[str] = None,
                        limit: int = Field(default=50, ge=1, le=200)) -> list[dict]:
        """List candidates by email or by text in their name or employer.

        Args:
            email: only the candidate with this email.
            query: text in the first name, last name or company.
            limit: maximum number of candidates (1-200).
        """
        rows = select(self.state.candidates.values(), ieq("email", email),
                      text(query, "first_name", "last_name", "company"), limit=limit)
        return [c.model_dump(exclude={"notes"}) for c in rows]

    @tool(read_only=True, returns=Candidate)
    def get_candidate(self, candidate_id: Id("candidate")) -> dict:
        """Get a candidate with notes and the ids of their applications.

        Args:
            candidate_id: the candidate id, e.g. CAN-0001.
        """
        c = self.lookup(self.state.candidates, candidate_id, "candidate")
        return {**c.model_dump(), "application_ids": [a.id for a in self.state.applications.values()
                                                       if a.candidate_id == c.id]}

    @tool(read_only=True, returns=list[Application])
    def list_applications(self, job_id: Optional[Id("job_posting")] = None,
                          status: Optional[ApplicationStatus] = None, candidate_email: Optional[Email] = None,
                          current_stage: Optional[str] = None, hiring_manager_email: Optional[Email] = None,
                          limit: int = Field(default=50, ge=1, le=200)) -> list[dict]:
        """List applications (without stage history) by job, status, candidate email, stage or hiring manager.

        Args:
            job_id: only applications to this job.
            status: active, rejected or hired.
            candidate_email: only this candidate's applications.
            current_stage: only applications in this stage, e.g. 'Onsite'.
            hiring_manager_email: only applications to jobs this manager hires for.
            limit: maximum number of applications (1-200).
        """
        rows = select(self.state.applications.values(), eq("job_id", job_id), eq("status", status),
                      ieq("candidate_email", candidate_email), ieq("current_stage", current_stage),
                      ieq("hiring_manager_email", hiring_manager_email), limit=limit)
        return [a.model_dump(exclude={"history"}) for a in rows]

    @tool(read_only=True, returns=Application)
    def get_application(self, application_id: Id("job_application")) -> dict:
        """Get an application with its stage history, interviews (with scorecards) and offers.

        Args:
            application_id: the application id, e.g. APP-0001.
        """
        return self._full(self._app(application_id))

    @tool(read_only=True, returns=list[Interview])
    def list_scheduled_interviews(self, application_id: Optional[Id("job_application")] = None,
                                  interviewer_email: Optional[Email] = None,
                                  status: Optional[InterviewStatus] = None) -> list[dict]:
        """List interviews by application, interviewer or status, earliest first.

        Args:
            application_id: only this application's interviews.
            interviewer_email: only interviews on this person's panel.
            status: scheduled, completed or cancelled.
        """
        who = interviewer_email.lower() if interviewer_email else None
        rows = select(sorted(self.state.interviews.values(), key=lambda i: (i.start, i.id)),
                      eq("application_id", application_id), eq("status", status),
                      (lambda i: who in i.interviewers) if who else None)
        return [i.model_dump() for i in rows]

    # ------------------------------------------------------ candidate writes
    @tool(read_only=False, returns=Candidate)
    def create_candidate(self, first_name: str = Field(min_length=1, max_length=60),
                         last_name: str = Field(min_length=1, max_length=60), email: Email = ...,
                         phone: Optional[Phone] = None, company: Optional[CompanyName] = None) -> dict:
        """Add a candidate; one candidate per email (409).

        Args:
            first_name: first name.
            last_name: last name.
            email: personal email.
            phone: phone number.
            company: current employer.
        """
        if select(self.state.candidates.values(), ieq("email", email)):
            raise Conflict(f"a candidate with email {email} exists; list_candidates finds them.")
        c = Candidate(id=self.new_id("CAN"), first_name=first_name, last_name=last_name, email=email.lower(),
                      phone=phone, company=company, created_at=self.now())
        self.state.candidates[c.id] = c
        return c.model_dump()

    @tool(read_only=False, returns=Note)
    def add_candidate_note(self, candidate_id: Id("candidate"), user_email: Email,
                           body: str = Field(min_length=1, max_length=2000)) -> dict:
        """Add a note to a candidate's activity feed.

        Args:
            candidate_id: the candidate.
            user_email: the writing staff member's email.
            body: the note.
        """
        c = self.lookup(self.state.candidates, candidate_id, "candidate")
        note = Note(user_email=user_email.lower(), body=body, created_at=self.now())
        c.notes.append(note)
        return {**note.model_dump(), "candidate_id": c.id}

    @tool(read_only=False, returns=Application)
    def create_application(self, candidate_id: Id("candidate"), job_id: Id("job_posting"),
                           source: str = Field(default="Careers page", max_length=60)) -> dict:
        """Apply a candidate to an open job; it starts in 'Application Review'.

        Args:
            candidate_id: the candidate.
            job_id: an open job.
            source: where the candidate came from.
        """
        c = self.lookup(self.state.candidates, candidate_id, "candidate")
        job = self.lookup(self.state.jobs, job_id, "job")
        if job.status != "open":
            raise Conflict(f"job {job.id} is {job.status}; applications need an open job.")
        if any(a.candidate_id == c.id and a.job_id == job.id and a.status != "rejected"
               for a in self.state.applications.values()):
            raise Conflict(f"candidate {c.id} already has a live application to job {job.id}.")
        app = Application(id=self.new_id("APP"), candidate_id=c.id, candidate_name=f"{c.first_name} {c.last_name}",
                          candidate_email=c.email, job_id=job.id, hiring_manager_email=job.hiring_manager_email,
                          status="active", current_stage=STAGES[0], source=source, applied_at=self.now())
        app.history.append(StageMove(stage=STAGES[0], at=app.applied_at))
        self.state.applications[app.id] = app
        return app.model_dump()

    # ---------------------------------------------------------------- stages
    @tool(read_only=False, returns=Application)
    def advance_application(self, application_id: Id("job_application")) -> dict:
        """Move an active application to the next stage; entering 'Offer' needs a completed interview.

        Args:
            application_id: the application.
        """
        app = self._app(application_id)
        require_active(app, "advancing")
        k = stage_index(app.current_stage)
        if k == len(STAGES) - 1:
            raise Unprocessable(f"application {app.id} is at the last stage; make an offer and hire instead.")
        return self._move(app, STAGES[k + 1])

    @tool(read_only=False, returns=Application)
    def move_application(self, application_id: Id("job_application"), to_stage: str) -> dict:
        """Move an active application to any stage of the interview plan (forward or back).

        Args:
            application_id: the application.
            to_stage: the stage name, e.g. 'Onsite'.
        """
        app = self._app(application_id)
        require_active(app, "moving")
        stage_index(to_stage)
        if to_stage == app.current_stage:
            raise Conflict(f"application {app.id} is already in stage {to_stage}.")
        return self._move(app, to_stage)

    def _move(self, app: Application, stage: str) -> dict:
        if stage == "Offer":
            self._require_interviewed(app, "the Offer stage")
        self._enter(app, stage)
        return app.model_dump()

    @tool(read_only=False, returns=Application)
    def reject_application(self, application_id: Id("job_application"), rejection_reason: RejectionReason,
                           notes: str = Field(default="", max_length=1000)) -> dict:
        """Reject an active application with a reason; its scheduled interviews are cancelled and open
        offers deprecated.

        Args:
            application_id: the application.
            rejection_reason: one of Greenhouse's rejection reasons.
            notes: free-text rejection notes.
        """
        app = self._app(application_id)
        require_active(app, "rejecting")
        app.status, app.rejected_at, app.rejection_reason = "rejected", self.now(), rejection_reason
        app.rejection_notes = notes or None
        for i in self._interviews_of(app.id):
            if i.status == "scheduled":
                i.status = "cancelled"
        for o in self._offers_of(app.id):
            if o.status == "unresolved":
                o.status = "deprecated"
        return app.model_dump()

    @tool(read_only=False, returns=Application)
    def unreject_application(self, application_id: Id("job_application")) -> dict:
        """Reopen a rejected application in the stage it was rejected from.

        Args:
            application_id: a rejected application.
        """
        app = self._app(application_id)
        if app.status != "rejected":
            raise Conflict(f"application {app.id} is {app.status}; only a rejected application can be unrejected.")
        app.status, app.rejected_at, app.rejection_reason, app.rejection_notes = "active", None, None, None
        return app.model_dump()

    # ------------------------------------------------------------- interviews
    @tool(read_only=False, returns=Interview)
    def schedule_interview(self, application_id: Id("job_application"), interviewers: list[Email] = Field(
            min_length=1, max_length=6), start: DateTime = ..., duration_minutes: int = Field(default=45, ge=15,
                                                                                               le=480)) -> dict:
        """Schedule an interview for the application's current stage with roster interviewers.

        Args:
            application_id: an active application in Phone Screen, Technical Interview or Onsite.
            interviewers: interviewer emails (company roster).
            start: start time (ISO), after now.
            duration_minutes: length (15-480).
        """
        app = self._app(application_id)
        require_active(app, "scheduling interviews")
        if app.current_stage not in _INTERVIEW_STAGES:
            raise Unprocessable(f"stage {app.current_stage} has no interviews; interviews belong to "
                                f"{', '.join(_INTERVIEW_STAGES)}.")
        panel = list(dict.fromkeys(e.lower() for e in interviewers))
        outside = [e for e in panel if e not in _ROSTER]
        if outside:
            raise Unprocessable(f"interviewers must be on the company roster; unknown: {outside}.")
        if start <= self.now():
            raise Unprocessable(f"start {start.isoformat()} is not in the future.")
        end = start + dt.timedelta(minutes=duration_minutes)
        for other in self.state.interviews.values():
            busy = set(panel) & set(other.interviewers)
            if other.status == "scheduled" and busy and other.start < end and start < other.end:
                raise Conflict(f"{sorted(busy)} already interview at {other.start.isoformat()} ({other.id}).")
        i = Interview(id=self.new_id("INT"), application_id=app.id, stage=app.current_stage, interviewers=panel,
                      start=start, end=end, status="scheduled")
        self.state.interviews[i.id] = i
        return i.model_dump()

    @tool(read_only=False, destructive=True, returns=Interview)
    def cancel_interview(self, interview_id: Id("interview")) -> dict:
        """Cancel a scheduled interview.

        Args:
            interview_id: the interview id, e.g. INT-0003.
        """
        i = self.lookup(self.state.interviews, interview_id, "interview")
        if i.status != "scheduled":
            raise Conflict(f"interview {i.id} is {i.status}; only a scheduled interview can be cancelled.")
        i.status = "cancelled"
        return i.model_dump()

    @tool(read_only=False, returns=Interview)
    def submit_scorecard(self, interview_id: Id("interview"), interviewer_email: Email,
                         overall_recommendation: Recommendation,
                         notes: str = Field(default="", max_length=4000)) -> dict:
        """Submit an interviewer's scorecard for an interview that has taken place; the interview is completed.

        Args:
            interview_id: the interview.
            interviewer_email: a member of its panel.
            overall_recommendation: definitely_not, no, yes or strong_yes.
            notes: feedback.
        """
        i = self.lookup(self.state.interviews, interview_id, "interview")
        who = interviewer_email.lower()
        if i.status == "cancelled":
            raise Conflict(f"interview {i.id} is cancelled.")
        if who not in i.interviewers:
            raise Unprocessable(f"{who} is not on the panel of interview {i.id}: {', '.join(i.interviewers)}.")
        if any(s.interviewer_email == who for s in i.scorecards):
            raise Conflict(f"{who} already submitted a scorecard for interview {i.id}.")
        now = self.now()
        if i.start > now:
            raise Unprocessable(f"interview {i.id} starts {i.start.isoformat()}; score it after it took place.")
        i.scorecards.append(Scorecard(interviewer_email=who, overall_recommendation=overall_recommendation,
                                      notes=notes, submitted_at=now))
        i.status = "completed"
        return i.model_dump()

    # ------------------------------------------------------------------ seeds
    @classmethod
    def build_seed_state(cls, fake: Faker, rng: random.Random, today: dt.date) -> RecruitingState:
        return build_seed(fake, rng, today)
