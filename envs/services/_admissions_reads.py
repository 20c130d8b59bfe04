"""Read tools of the admissions service (Slate rounds, readers, person records and applications).

A mixin of :class:`compoworld_gym.envs.services.admissions.Admissions`; its
methods become tools, and its lookups (``_app``, ``_round``, ``_reader``) and
the application view are shared by the write tools.
"""

from __future__ import annotations

from typing import Optional

from pydantic import Field

from compoworld_gym.entities import Email, Id
from compoworld_gym.envs.services._admissions_models import (
    Applicant, Application, ApplicationStatus, DecisionCode, Reader, ReaderRole, Round,
)
from compoworld_gym.envs.services._admissions_rules import current, outstanding
from compoworld_gym.envs.services._blocks import eq, select, text
from compoworld_gym.errors import NotFound, Unprocessable
from compoworld_gym.service import tool


class AdmissionsReads:
    """Lookups, the application view and the read tools."""

    def _app(self, application_id: str) -> Application:
        return self.lookup(self.state.applications, application_id, "application")

    def _round(self, round_id: str) -> Round:
        return self.lookup(self.state.rounds, round_id, "round")

    def _reader(self, email: str) -> Reader:
        r = self.state.readers.get(email.lower())
        if r is None:
            raise NotFound(f"{email} is not a Slate reader; call list_readers.")
        if not r.active:
            raise Unprocessable(f"reader {email} is inactive.")
        return r

    def _view(self, app: Application) -> dict:
        person, rnd, dec = self.state.applicants[app.applicant_id], self.state.rounds[app.round_id], current(app)
        offer = dec is not None and dec.code == "admit" and dec.released
        return {**app.model_dump(), "applicant_name": f"{person.first_name} {person.last_name}",
                "guardian_name": person.guardian_name, "guardian_email": person.guardian_email,
                "round_name": rnd.name, "entry_term": rnd.entry_term, "outstanding": outstanding(app),
                "decision": dec.model_dump() if dec else None,
                "deposit_due": dec.deposit_due if offer and app.deposit is None and dec.response != "decline" else None,
                "reply_by": dec.reply_by if offer else None}

    # ------------------------------------------------------------------ reads
    @tool(read_only=True, returns=list[Round])
    def list_rounds(self, active: Optional[bool] = None) -> list[dict]:
        """List application rounds with their deadlines, release and reply-by dates, tuition and fee.

        Args:
            active: only open (true) or closed (false) rounds.
        """
        return [r.model_dump() for r in select(self.state.rounds.values(), eq("active", active))]

    @tool(read_only=True, returns=list[Reader])
    def list_readers(self, role: Optional[ReaderRole] = None, active: Optional[bool] = None) -> list[dict]:
        """List Slate readers: the admission office (who decide) and faculty readers (who review).

        Args:
            role: Director of Admission, Associate Director or Faculty Reader.
            active: only active (true) or inactive (false) readers.
        """
        return [r.model_dump() for r in select(self.state.readers.values(), eq("role", role), eq("active", active))]

    @tool(read_only=True, returns=list[Applicant])
    def search_applicants(self, name: Optional[str] = Field(default=None, max_length=100),
                          email: Optional[Email] = None, current_school: Optional[str] = Field(default=None,
                                                                                             max_length=100),
                          limit: int = Field(default=50, ge=1, le=200)) -> list[dict]:
        """Search applicant person records by name, email (the applicant's or the parent's) or current school.

        Args:
            name: text in the applicant's first and last name (case-insensitive).
            email: the applicant's or the parent's email (case-insensitive).
            current_school: text in the school the applicant attends now.
            limit: maximum number of applicants (1-200).
        """
        by_mail = None
        if email is not None:
            e = email.lower()
            by_mail = lambda a: a.guardian_email.lower() == e or (a.email or "").lower() == e  # noqa: E731
        return [a.model_dump() for a in select(self.state.applicants.values(), text(name, "first_name", "last_name"),
                                               by_mail, text(current_school, "current_school"), limit=limit)]

    @tool(read_only=True, returns=Applicant)
    def get_applicant(self, applicant_id: Id("applicant")) -> dict:
        """Get an applicant with a summary of their applications.

        Args:
            applicant_id: the person id, e.g. APC-0003.
        """
        a = self.lookup(self.state.applicants, applicant_id, "applicant")
        apps = [{"id": x.id, "round_id": x.round_id, "status": x.status}
                for x in self.state.applications.values() if x.applicant_id == a.id]
        return {**a.model_dump(), "applications": apps}

    @tool(read_only=True, returns=list[Application])
    def list_applications(self, round_id: Optional[str] = None, status: Optional[ApplicationStatus] = None,
                          guardian_email: Optional[Email] = None, reader_email: Optional[Email] = None,
                          decision: Optional[DecisionCode] = None, student_id: Optional[Id("student")] = None,
                          limit: int = Field(default=50, ge=1, le=200)) -> list[dict]:
        """List applications by round, status, parent email, assigned reader, current decision or SIS student.

        Args:
            round_id: the round, e.g. RND-0003.
            status: awaiting_submission, awaiting_materials, ready_for_review, decided, enrolled, declined or withdrawn.
            guardian_email: the parent's email (case-insensitive).
            reader_email: the assigned reader (case-insensitive).
            decision: the current decision's code: admit, deny or waitlist.
            student_id: the SIS student record of an enrolled applicant, e.g. STU-0004.
            limit: maximum number of applications (1-200).
        """
        fam = None
        if guardian_email is not None:
            g = guardian_email.lower()
            fam = lambda x: self.state.applicants[x.applicant_id].guardian_email.lower() == g  # noqa: E731
        code = (lambda x: (current(x) is not None and current(x).code == decision)) if decision else None
        rows = select(self.state.applications.values(), eq("round_id", round_id), eq("status", status), fam,
                      (lambda x: (x.reader_email or "") == reader_email.lower()) if reader_email else None, code,
                      eq("student_id", student_id), limit=limit)
        return [self._view(x) for x in rows]

    @tool(read_only=True, returns=Application)
    def get_application(self, application_id: Id("admission_application")) -> dict:
        """Get an application: checklist, outstanding items, reviews, the current decision, deposit due and reply-by.

        Args:
            application_id: the application id, e.g. ADM-0007.
        """
        return self._view(self._app(application_id))
