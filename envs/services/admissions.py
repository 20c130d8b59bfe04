"""Admissions: applicants, applications with checklists, reader reviews, decisions and enrollment deposits.

No admissions/CRM server is in ``compoworld_gym/data/mcp_servers.jsonl``
(``spec_source = None``); the data model and operations follow Slate by
Technolutions (K-12 edition), whose integration surface is its database
tables and the Upload Dataset / Query web services rather than REST
resources: ``person`` records (applicant, birthdate, current school, the
parent relation), ``lookup.round`` rounds (deadline, decision release date,
reply-by date), ``application`` rows (round, entry term, status Awaiting
Submission / Awaiting Materials / Ready for Review / Decided, the assigned
reader), ``checklist`` items (Awaiting, Received, Waived), reader
``form.response`` reviews (rating, recommendation), ``decision`` rows
(``code`` Admit, Deny, Waitlist, ``released``, the family's ``confirmed``
reply) and ``payment`` rows (the enrollment deposit), plus interactions
(comments). Admitted and enrolled applicants become student_records
(PowerSchool) students: an enrolled application names its SIS student.

Rules of the product as schools configure it: a round takes applications
until its deadline (a rolling round always); an applicant has one live
application per entry term and applies for the grade after their current one
(or repeats it); submitting receives the Application Form and the
application is Ready for Review once every checklist item is received or
waived (only waivable items: the fee, test scores, the interview); readers
review only complete applications, once each; only the admission office
(not faculty readers) records decisions, after at least one review; an
unreleased decision may be replaced, a released one is final except that a
waitlisted applicant may later be admitted or denied; decisions release on
the round's release date (rolling rounds at once); an admit carries the
aid award and a deposit of 10% of net tuition, due by the round's reply-by
date (14 days after release in a rolling round); the deposit must be the
exact amount, before the reply-by date, and enrolls the applicant.
Left out: portals, communications flows, fee payment processing,
recommender uploads and the Slate query builder.
"""

from __future__ import annotations

import datetime as dt
import random
from typing import Literal, Optional

from faker import Faker
from pydantic import Field

from compoworld_gym.entities import Date, Email, Id, Money, PersonName, Phone
from compoworld_gym.envs.services._admissions_models import (
    LIVE, AdmissionsState, Applicant, Application, ChecklistItem, Comment, Decision, DecisionCode, Deposit,
    PaymentMethod, Response, Review,
)
from compoworld_gym.envs.services._admissions_rules import (
    APPLICATION, DECIDERS, FORM, checklist_for, checklist_size, complete, current, offer_terms, outstanding,
    release_problem, reply_by, submit_problem,
)
from compoworld_gym.envs.services._admissions_reads import AdmissionsReads
from compoworld_gym.envs.services._admissions_seed import build_state, seed_for
from compoworld_gym.envs.services.student_records import StudentRecords
from compoworld_gym.errors import Conflict, InvalidArgument, NotFound, Unprocessable
from compoworld_gym.service import Service, tool


class Admissions(AdmissionsReads, Service):
    """Slate-style admissions office: rounds, applicants, applications, reviews, decisions, deposits."""

    name = "admissions"
    description = ("School admissions (Slate): application rounds, applicants and their parents, applications with "
                   "checklists, reader reviews, admit/deny/waitlist decisions released to families, and enrollment "
                   "deposits.")
    domain = "education"
    spec_source = None
    State = AdmissionsState

    # ---------------------------------------------------------------- helpers
    def _released_admit(self, app: Application, action: str) -> Decision:
        dec = current(app)
        if dec is None or dec.code != "admit" or not dec.released:
            what = "no decision" if dec is None else f"a {'released' if dec.released else 'staged'} {dec.code}"
            raise Conflict(f"application {app.id} has {what}; {action} needs a released admit.")
        if dec.response == "decline":
            raise Conflict(f"application {app.id}'s admit was declined on {dec.response_at:%Y-%m-%d}.")
        return dec

    # ----------------------------------------------------------------- writes
    @tool(read_only=False, returns=Applicant)
    def create_applicant(self, first_name: PersonName = Field(min_length=1, max_length=60),
                         last_name: PersonName = Field(min_length=1, max_length=60), birthdate: Date = ...,
                         current_school: str = Field(min_length=2, max_length=120),
                         current_grade: int = Field(ge=7, le=11),
                         guardian_name: PersonName = Field(min_length=2, max_length=120), guardian_email: Email = ...,
                         guardian_phone: Phone = Field(min_length=7, max_length=20),
                         email: Optional[Email] = None) -> dict:
        """Create an applicant's person record with the parent relation (deduplicated on name and birthdate).

        Args:
            first_name: applicant's first name.
            last_name: applicant's last name.
            birthdate: date of birth (ISO date).
            current_school: school attended now.
            current_grade: grade level now (7-11).
            guardian_name: parent or guardian.
            guardian_email: the parent's email (the family's portal login).
            guardian_phone: the parent's phone.
            email: the applicant's own email, if any.
        """
        if birthdate >= self.today:
            raise InvalidArgument("birthdate must be in the past.")
        key = (first_name.strip().lower(), last_name.strip().lower(), birthdate)
        dup = next((a for a in self.state.applicants.values()
                    if (a.first_name.lower(), a.last_name.lower(), a.birthdate) == key), None)
        if dup is not None:
            raise Conflict(f"{first_name} {last_name} born {birthdate} is already person {dup.id}.")
        a = Applicant(id=self.new_id("APC"), first_name=first_name.strip(), last_name=last_name.strip(),
                      birthdate=birthdate, email=email, current_school=current_school, current_grade=current_grade,
                      guardian_name=guardian_name, guardian_email=guardian_email, guardian_phone=guardian_phone,
                      created=self.now())
        self.state.applicants[a.id] = a
        return a.model_dump()

    @tool(read_only=False, returns=Application)
    def create_application(self, applicant_id: Id("applicant"), round_id: str,
                           grade_applying: int = Field(ge=9, le=12)) -> dict:
        """Start an application in an open round; its checklist comes from the round and grade.

        Args:
            applicant_id: the applicant.
            round_id: an open round whose deadline has not passed, e.g. RND-0004.
            grade_applying: the grade applied for (the grade after the current one, or the same).
        """
        a = self.lookup(self.state.applicants, applicant_id, "applicant")
        rnd = self._round(round_id)
        problem = submit_problem(rnd, self.today)
        if problem:
            raise Unprocessable(problem)
        if grade_applying not in rnd.grades:
            raise Unprocessable(f"round {rnd.id} admits grade(s) {rnd.grades}, not {grade_applying}.")
        if grade_applying not in (a.current_grade, a.current_grade + 1):
            raise Unprocessable(f"{a.first_name} {a.last_name} is in grade {a.current_grade}; apply for grade "
                                f"{a.current_grade + 1} (or {a.current_grade} to repeat it).")
        live = next((x for x in self.state.applications.values() if x.applicant_id == a.id and x.status in LIVE
                     and self.state.rounds[x.round_id].entry_term == rnd.entry_term), None)
        if live is not None:
            raise Conflict(f"{a.id} already has application {live.id} ({live.status}) for {rnd.entry_term}.")
        items = checklist_for(rnd, grade_applying, [self.new_id("CHK") for _ in range(checklist_size(grade_applying,
                                                                                                    rnd))])
        app = Application(id=self.new_id("ADM"), applicant_id=a.id, round_id=rnd.id, grade_applying=grade_applying,
                          status="awaiting_submission", created=self.now(), checklist=items)
        self.state.applications[app.id] = app
        return self._view(app)

    @tool(read_only=False, returns=Application)
    def submit_application(self, application_id: Id("admission_application")) -> dict:
        """Submit a started application before the round's deadline: the Application Form is received.

        Args:
            application_id: an application awaiting submission.
        """
        app = self._app(application_id)
        APPLICATION.check(app.id, app.status, "submit")
        problem = submit_problem(self.state.rounds[app.round_id], self.today)
        if problem:
            raise Unprocessable(problem)
        for item in app.checklist:
            if item.name == FORM:
                item.status, item.received_on = "received", self.today
        app.submitted_at = self.now()
        app.status = "ready_for_review" if complete(app) else "awaiting_materials"
        return self._view(app)

    @tool(read_only=False, returns=ChecklistItem)
    def update_checklist_item(self, application_id: Id("admission_application"),
                              item: str = Field(min_length=3, max_length=80),
                              status: Literal["received", "waived"] = "received",
                              note: str = Field(default="", max_length=300)) -> dict:
        """Mark an awaited checklist item received or waived; a submitted application whose checklist is then
        complete moves to ready_for_review.

        Args:
            item: the item's id (CHK-0012) or name (Math Teacher Recommendation), case-insensitive.
            application_id: the application.
            status: received, or waived (waivable items only, with a note saying why).
            note: the waiver reason, or a note on the material.
        """
        app = self._app(application_id)
        APPLICATION.check(app.id, app.status, "checklist")
        it = next((c for c in app.checklist if item.strip().lower() in (c.id.lower(), c.name.lower())), None)
        if it is None:
            raise NotFound(f"application {app.id} has no checklist item {item!r}; its items are "
                           f"{[c.name for c in app.checklist]}.")
        if it.name == FORM:
            raise Unprocessable("the Application Form is received by submitting the application (submit_application).")
        if it.status != "awaiting":
            raise Conflict(f"checklist item {it.name!r} of {app.id} is already {it.status}.")
        if status == "waived" and not it.waivable:
            raise Unprocessable(f"{it.name!r} cannot be waived; it must be received.")
        if status == "waived" and not note.strip():
            raise InvalidArgument("a waiver needs a note saying why.")
        it.status, it.received_on, it.note = status, self.today, note
        if app.status == "awaiting_materials" and complete(app):
            app.status = "ready_for_review"
        return {**it.model_dump(), "application_status": app.status, "outstanding": outstanding(app)}

    @tool(read_only=False, returns=Application)
    def assign_reader(self, application_id: Id("admission_application"), reader_email: Email) -> dict:
        """Assign a submitted application to a reader's queue.

        Args:
            application_id: an application awaiting materials or ready for review.
            reader_email: an active reader.
        """
        app = self._app(application_id)
        APPLICATION.check(app.id, app.status, "assign")
        r = self._reader(reader_email)
        if app.reader_email == r.email:
            raise Conflict(f"application {app.id} is already assigned to {r.email}.")
        app.reader_email = r.email
        return self._view(app)

    @tool(read_only=False, returns=Review)
    def add_review(self, application_id: Id("admission_application"), reader_email: Email,
                   rating: int = Field(ge=1, le=5), recommendation: DecisionCode = ...,
                   comments: str = Field(min_length=5, max_length=2000)) -> dict:
        """Submit a reader's review of a complete application (one per reader).

        Args:
            application_id: an application ready for review.
            reader_email: the active reader writing it.
            rating: 1 (weak) to 5 (outstanding).
            recommendation: admit, deny or waitlist.
            comments: the reader's comments.
        """
        app = self._app(application_id)
        APPLICATION.check(app.id, app.status, "review")
        r = self._reader(reader_email)
        if any(v.reader_email == r.email for v in app.reviews):
            raise Conflict(f"{r.email} already reviewed application {app.id}.")
        rev = Review(id=self.new_id("REV"), reader_email=r.email, rating=rating, recommendation=recommendation,
                     comments=comments, submitted_at=self.now())
        app.reviews.append(rev)
        return rev.model_dump()

    @tool(read_only=False, returns=Decision)
    def create_decision(self, application_id: Id("admission_application"), code: DecisionCode, decided_by: Email,
                        financial_aid: Money = Field(default=0.0, ge=0, le=100000)) -> dict:
        """Record (stage) a decision; it reaches the family when released. An unreleased decision is replaced;
        a waitlisted applicant may later be admitted or denied.

        Args:
            application_id: a reviewed application ready for review, or decided with an unreleased decision or a
                released waitlist.
            code: admit, deny or waitlist.
            decided_by: the Director of Admission or an Associate Director.
            financial_aid: admit only: the annual aid award (deposit is 10% of tuition less aid).
        """
        app = self._app(application_id)
        APPLICATION.check(app.id, app.status, "decide")
        officer = self._reader(decided_by)
        if officer.role not in DECIDERS:
            raise Unprocessable(f"{officer.email} is a {officer.role}; only {' or '.join(DECIDERS)} record decisions.")
        rnd, dec = self.state.rounds[app.round_id], current(app)
        if dec is not None and dec.released and dec.code != "waitlist":
            raise Conflict(f"application {app.id}'s {dec.code} was released on {dec.released_at:%Y-%m-%d}; "
                           "a released decision is final.")
        if dec is not None and dec.released and code == "waitlist":
            raise Conflict(f"application {app.id} is already on the waitlist.")
        if not app.reviews:
            raise Unprocessable(f"application {app.id} has no reader review yet; decide after at least one.")
        if code != "admit" and financial_aid:
            raise InvalidArgument("financial_aid goes with an admit only.")
        if financial_aid > rnd.tuition:
            raise Unprocessable(f"the aid award exceeds the tuition of {rnd.tuition:,.2f}.")
        new = Decision(id=self.new_id("DEC"), code=code, created_by=officer.email, created_at=self.now())
        if code == "admit":
            new.financial_aid = financial_aid
            new.net_tuition, new.deposit_due = offer_terms(rnd.tuition, financial_aid)
        if dec is not None and not dec.released:
            app.decisions.pop()
        app.decisions.append(new)
        app.status = "decided"
        return new.model_dump()

    @tool(read_only=False, returns=Decision)
    def release_decision(self, application_id: Id("admission_application")) -> dict:
        """Release the staged decision to the family's portal (on or after the round's release date); an admit
        gets its reply-by date.

        Args:
            application_id: an application with an unreleased decision.
        """
        app = self._app(application_id)
        dec = current(app)
        if dec is None or dec.released or app.status != "decided":
            raise Conflict(f"application {app.id} has no staged decision to release.")
        rnd = self.state.rounds[app.round_id]
        problem = release_problem(rnd, self.today)
        if problem:
            raise Unprocessable(problem)
        dec.released, dec.released_at = True, self.now()
        if dec.code == "admit":
            dec.reply_by = reply_by(rnd, self.today)
        return dec.model_dump()

    @tool(read_only=False, returns=Decision)
    def record_decision_response(self, application_id: Id("admission_application"), response: Response) -> dict:
        """Record the family's reply to a released admit: accept (by the reply-by date) or decline.

        Args:
            application_id: an application with a released admit and no reply yet.
            response: accept or decline.
        """
        app = self._app(application_id)
        dec = self._released_admit(app, "a reply")
        if dec.response is not None:
            raise Conflict(f"application {app.id}'s admit was already answered: {dec.response}.")
        if response == "accept" and self.today > dec.reply_by:
            raise Unprocessable(f"the admit's reply-by date {dec.reply_by} has passed; the offer lapsed.")
        dec.response, dec.response_at = response, self.now()
        if response == "decline":
            app.status = "declined"
        return dec.model_dump()

    @tool(read_only=False, returns=Deposit)
    def record_deposit(self, application_id: Id("admission_application"), amount: Money = Field(gt=0, le=100000),
                       method: PaymentMethod = "ach", reference: str = Field(default="", max_length=80)) -> dict:
        """Record the enrollment deposit of an admitted applicant (the exact amount, by the reply-by date); the
        admit counts as accepted and the applicant is enrolled.

        Args:
            application_id: an application with a released admit.
            amount: the deposit paid; must equal the admit's deposit_due.
            method: credit_card, ach or check.
            reference: check number or processor reference.
        """
        app = self._app(application_id)
        dec = self._released_admit(app, "a deposit")
        if app.deposit is not None:
            raise Conflict(f"application {app.id}'s deposit {app.deposit.id} was paid on {app.deposit.paid_on}.")
        if self.today > dec.reply_by:
            raise Unprocessable(f"the admit's reply-by date {dec.reply_by} has passed; the offer lapsed.")
        if round(amount, 2) != dec.deposit_due:
            raise Unprocessable(f"the enrollment deposit of {app.id} is {dec.deposit_due:,.2f}, not {amount:,.2f}.")
        app.deposit = Deposit(id=self.new_id("DEP"), amount=dec.deposit_due, method=method, reference=reference,
                              paid_on=self.today)
        if dec.response is None:
            dec.response, dec.response_at = "accept", self.now()
        app.status = "enrolled"
        return app.deposit.model_dump()

    @tool(read_only=False, destructive=True, returns=Application)
    def withdraw_application(self, application_id: Id("admission_application"),
                             reason: str = Field(min_length=3, max_length=300)) -> dict:
        """Withdraw an application at the family's request (an enrolled applicant forfeits the deposit).

        Args:
            application_id: a live application.
            reason: why.
        """
        app = self._app(application_id)
        APPLICATION.check(app.id, app.status, "withdraw")
        app.status, app.withdrawn_at, app.withdraw_reason = "withdrawn", self.now(), reason
        return self._view(app)

    @tool(read_only=False, returns=Comment)
    def add_comment(self, application_id: Id("admission_application"), author_email: Email,
                    body: str = Field(min_length=2, max_length=2000)) -> dict:
        """Add a comment (interaction) to an application.

        Args:
            application_id: the application.
            author_email: who writes it.
            body: the text.
        """
        app = self._app(application_id)
        c = Comment(id=self.new_id("CMT"), author_email=author_email, body=body, created_at=self.now())
        app.comments.append(c)
        return c.model_dump()

    # ------------------------------------------------------------------ seeds
    @classmethod
    def seed_state(cls, seed: int, today: dt.date) -> AdmissionsState:
        """Seeded state on student_records' students for the same seed."""
        return seed_for(seed, today)

    @classmethod
    def build_seed_state(cls, fake: Faker, rng: random.Random, today: dt.date) -> AdmissionsState:
        return build_state(fake, rng, today, StudentRecords.build_seed_state(fake, rng, today))


__all__ = ["Admissions"]
