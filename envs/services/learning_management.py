"""Learning management: courses, enrollments, assignments, submissions and grading.

No LMS server is in ``compoworld_gym/data/mcp_servers.jsonl``; the interface
follows the Canvas LMS REST API (``/api/v1/courses``, ``.../enrollments``,
``.../assignments``, ``.../submissions``, ``.../late_policy``,
``.../assignments/:id/overrides``): the same resource names, workflow states
(course ``unpublished``/``available``/``completed``; enrollment ``active``/
``invited``/``completed``; submission ``submitted``/``graded``) and grading
fields (``entered_score``, ``score``, ``points_deducted``, ``seconds_late``).
Users are addressed by email, as Canvas SIS imports do. The instance is the
company's customer academy (staff or adjunct instructors, customer students);
the rules are Canvas's (``_learning_management_rules``).
"""

from __future__ import annotations

import datetime as dt
import random
from typing import Literal, Optional

from faker import Faker
from pydantic import Field

from compoworld_gym.entities import DateTime, Email, Id, PersonName, Url
from compoworld_gym.envs.services import _learning_management_rules as rules
from compoworld_gym.envs.services._blocks import eq, ieq, select, text_in_any
from compoworld_gym.envs.services._learning_management_models import (
    Assignment, AssignmentOverride, Course, CourseState, Enrollment, EnrollmentState, EnrollmentType,
    LearningManagementState, Submission, SubmissionComment, SubmissionState, SubmissionType,
)
from compoworld_gym.envs.services._learning_management_seed import build_seed
from compoworld_gym.errors import Conflict, InvalidArgument
from compoworld_gym.service import Service, tool


class LearningManagement(Service):
    """Canvas-style LMS: courses, enrollments, assignments, submissions, late policies and grading."""

    name = "learning_management"
    description = ("Canvas-style LMS of the customer academy: courses, enrollments by email, assignments with due "
                   "dates and points, submissions, extensions, late-penalty grading and comments.")
    domain = "education"
    spec_source = None
    State = LearningManagementState

    # ---------------------------------------------------------------- helpers
    def _course(self, course_id: str) -> Course:
        return self.lookup(self.state.courses, course_id, "course")

    def _assignment(self, assignment_id: str) -> Assignment:
        return self.lookup(self.state.assignments, assignment_id, "assignment")

    # ------------------------------------------------------------------ reads
    @tool(read_only=True, returns=list[Course])
    def list_courses(self, workflow_state: Optional[CourseState] = None, instructor_email: Optional[Email] = None,
                     search_term: Optional[str] = None) -> list[dict]:
        """List courses, optionally by state, instructor or a name/code search.

        Args:
            workflow_state: unpublished, available or completed.
            instructor_email: only courses this person teaches.
            search_term: case-blind part of the course name or code.
        """
        rows = select(self.state.courses.values(), eq("workflow_state", workflow_state),
                      ieq("instructor_email", instructor_email), text_in_any(search_term, "name", "course_code"))
        return [c.model_dump(exclude={"late_policy"}) for c in rows]

    @tool(read_only=True, returns=Course)
    def get_course(self, course_id: Id("course")) -> dict:
        """Get a course with its late policy and counts of students and assignments.

        Args:
            course_id: the course id, e.g. CRS-0001.
        """
        c = self._course(course_id)
        students = select(self.state.enrollments.values(), eq("course_id", course_id), eq("type", "StudentEnrollment"),
                          eq("enrollment_state", "active"))
        n = len(select(self.state.assignments.values(), eq("course_id", course_id)))
        return {**c.model_dump(), "active_students": len(students), "assignments": n}

    @tool(read_only=True, returns=list[Enrollment])
    def list_enrollments(self, course_id: Optional[Id("course")] = None, user_email: Optional[Email] = None,
                         type: Optional[EnrollmentType] = None, state: Optional[EnrollmentState] = None) -> list[dict]:
        """List enrollments of a course or of a user (give at least one of course_id, user_email).

        Args:
            course_id: the course's enrollments.
            user_email: the user's enrollments in every course.
            type: StudentEnrollment, TeacherEnrollment or TaEnrollment.
            state: active, invited or completed.
        """
        if course_id is None and user_email is None:
            raise InvalidArgument("give course_id or user_email (or both).")
        if course_id is not None:
            self._course(course_id)
        return [e.model_dump() for e in select(self.state.enrollments.values(), eq("course_id", course_id),
                                               ieq("user_email", user_email), eq("type", type),
                                               eq("enrollment_state", state))]

    @tool(read_only=True, returns=Enrollment)
    def get_enrollment(self, enrollment_id: Id("enrollment")) -> dict:
        """Get an enrollment by its id.

        Args:
            enrollment_id: the enrollment id, e.g. ENR-0001.
        """
        return self.lookup(self.state.enrollments, enrollment_id, "enrollment").model_dump()

    @tool(read_only=True, returns=list[Assignment])
    def list_assignments(self, course_id: Id("course"), published: Optional[bool] = None) -> list[dict]:
        """List a course's assignments by due date.

        Args:
            course_id: the course.
            published: only published (true) or unpublished (false) ones.
        """
        self._course(course_id)
        rows = select(self.state.assignments.values(), eq("course_id", course_id), eq("published", published))
        return [a.model_dump() for a in sorted(rows, key=lambda a: (a.due_at is None, a.due_at or a.id, a.id))]

    @tool(read_only=True, returns=Assignment)
    def get_assignment(self, assignment_id: Id("assignment")) -> dict:
        """Get an assignment with its overrides.

        Args:
            assignment_id: the assignment id, e.g. ASG-0001.
        """
        return self._assignment(assignment_id).model_dump()

    @tool(read_only=True, returns=list[Submission])
    def list_submissions(self, assignment_id: Id("assignment"),
                         workflow_state: Optional[SubmissionState] = None) -> list[dict]:
        """List the submissions to an assignment.

        Args:
            assignment_id: the assignment.
            workflow_state: submitted (awaiting grading) or graded.
        """
        self._assignment(assignment_id)
        rows = select(self.state.submissions.values(), eq("assignment_id", assignment_id),
                      eq("workflow_state", workflow_state))
        return [s.model_dump() for s in rows]

    @tool(read_only=True, returns=Submission)
    def get_submission(self, assignment_id: Id("assignment"), user_email: Email) -> dict:
        """Get one student's submission to an assignment.

        Args:
            assignment_id: the assignment.
            user_email: the student's email.
        """
        return rules.require_submission(self.state, assignment_id, user_email).model_dump()

    @tool(read_only=True, returns=Submission)
    def get_submission_by_id(self, submission_id: Id("submission")) -> dict:
        """Get a submission by its id (as list results give it).

        Args:
            submission_id: the submission id, e.g. SUB-0001.
        """
        return self.lookup(self.state.submissions, submission_id, "submission").model_dump()

    @tool(read_only=True, returns=list[Submission])
    def list_student_submissions(self, user_email: Email, course_id: Optional[Id("course")] = None,
                                 workflow_state: Optional[SubmissionState] = None) -> list[dict]:
        """List a student's submissions across courses, newest first.

        Args:
            user_email: the student's email.
            course_id: only this course.
            workflow_state: submitted (awaiting grading) or graded.
        """
        rows = select(self.state.submissions.values(), ieq("user_email", user_email), eq("course_id", course_id),
                      eq("workflow_state", workflow_state))
        return [s.model_dump() for s in sorted(rows, key=lambda s: (str(s.submitted_at), s.id), reverse=True)]

    # ----------------------------------------------------------------- writes
    @tool(read_only=False, returns=Enrollment)
    def enroll_user(self, course_id: Id("course"), user_email: Email,
                    user_name: PersonName = Field(min_length=1, max_length=120),
                    type: EnrollmentType = "StudentEnrollment") -> dict:
        """Enroll a user in a course by email (active at once).

        Args:
            course_id: the course; a completed course takes no enrollments (409).
            user_email: the user's email.
            user_name: their full name.
            type: StudentEnrollment (default), TeacherEnrollment or TaEnrollment.
        """
        c = self._course(course_id)
        rules.check_enrollable(self.state, c, user_email, type)
        e = Enrollment(id=self.new_id("ENR"), course_id=c.id, user_email=user_email.lower(), user_name=user_name,
                       type=type, enrollment_state="active", created_at=self.now())
        self.state.enrollments[e.id] = e
        return e.model_dump()

    @tool(read_only=False, returns=Enrollment)
    def conclude_enrollment(self, enrollment_id: Id("enrollment")) -> dict:
        """Conclude an active or invited enrollment (the student leaves the course; grades are kept).

        Args:
            enrollment_id: the enrollment id, e.g. ENR-0001.
        """
        e = self.lookup(self.state.enrollments, enrollment_id, "enrollment")
        if e.enrollment_state == "completed":
            raise Conflict(f"enrollment {e.id} is already concluded.")
        e.enrollment_state, e.completed_at = "completed", self.now()
        return e.model_dump()

    @tool(read_only=False, returns=Assignment)
    def create_assignment(self, course_id: Id("course"), name: str = Field(min_length=1, max_length=200),
                          points_possible: float = Field(ge=0, le=1000), due_at: Optional[DateTime] = None,
                          lock_at: Optional[DateTime] = None,
                          submission_types: list[SubmissionType] = Field(default=["online_text_entry"], min_length=1),
                          allowed_attempts: Optional[int] = Field(default=None, ge=1), published: bool = False) -> dict:
        """Create an assignment in a course (unpublished unless published=true).

        Args:
            course_id: the course.
            name: assignment name.
            points_possible: maximum points (0-1000).
            due_at: due date-time (ISO 8601), before the course ends.
            lock_at: no submissions after this (not before due_at).
            submission_types: accepted types (online_text_entry, online_url, online_upload).
            allowed_attempts: attempt limit; omit for unlimited.
            published: publish at once.
        """
        c = self._course(course_id)
        rules.check_dates(c, due_at, lock_at)
        a = Assignment(id=self.new_id("ASG"), course_id=c.id, name=name, points_possible=points_possible,
                       due_at=due_at, lock_at=lock_at, published=published, submission_types=submission_types,
                       allowed_attempts=allowed_attempts)
        self.state.assignments[a.id] = a
        return a.model_dump()

    @tool(read_only=False, returns=Assignment)
    def update_assignment(self, assignment_id: Id("assignment"), published: Optional[bool] = None,
                          due_at: Optional[DateTime] = None, lock_at: Optional[DateTime] = None,
                          points_possible: Optional[float] = Field(default=None, ge=0, le=1000)) -> dict:
        """Publish/unpublish an assignment or change its dates or points (omitted fields stay).

        Args:
            assignment_id: the assignment.
            published: publish (true) or unpublish (false); one with submissions cannot be unpublished (409).
            due_at: new due date-time.
            lock_at: new lock date-time.
            points_possible: new maximum; not below a score already given (422).
        """
        a = self._assignment(assignment_id)
        rules.check_assignment_change(self.state, a, published, points_possible)
        due, lock = due_at or a.due_at, lock_at or a.lock_at
        rules.check_dates(self._course(a.course_id), due, lock)
        a.due_at, a.lock_at = due, lock
        rules.refresh_due(self.state, a)
        a.published = a.published if published is None else published
        a.points_possible = a.points_possible if points_possible is None else points_possible
        return a.model_dump()

    @tool(read_only=False, returns=Assignment)
    def create_assignment_override(self, assignment_id: Id("assignment"),
                                   student_emails: list[Email] = Field(min_length=1),
                                   due_at: DateTime = Field(), lock_at: Optional[DateTime] = None) -> dict:
        """Give some students their own due date (an extension); their latest override wins.

        Args:
            assignment_id: the assignment.
            student_emails: the students (each actively enrolled as a student).
            due_at: their due date-time, before the course ends.
            lock_at: their lock date-time (not before due_at).
        """
        a = self._assignment(assignment_id)
        c = self._course(a.course_id)
        for email in student_emails:
            rules.student(self.state, c, email)
        rules.check_dates(c, due_at, lock_at)
        a.overrides.append(AssignmentOverride(id=self.new_id("OVR"), student_emails=[e.lower() for e in student_emails],
                                              due_at=due_at, lock_at=lock_at))
        rules.refresh_due(self.state, a)
        return a.model_dump()

    @tool(read_only=False, returns=Submission)
    def submit_assignment(self, assignment_id: Id("assignment"), user_email: Email, submission_type: SubmissionType,
                          body: Optional[str] = Field(default=None, max_length=20000),
                          url: Optional[Url] = None) -> dict:
        """Submit (or resubmit) a student's work; lateness is measured against their due date.

        Args:
            assignment_id: a published, unlocked assignment.
            user_email: the student (actively enrolled as a student).
            submission_type: one the assignment accepts.
            body: the text, for online_text_entry.
            url: the link, for online_url or online_upload.
        """
        a = self._assignment(assignment_id)
        enr = rules.student(self.state, self._course(a.course_id), user_email)
        rules.check_submittable(a, submission_type, body, url)
        due, lock = rules.dates_for(a, user_email)
        now = self.now()
        sub = rules.submission_of(self.state, a.id, user_email)
        rules.check_attempt(a, user_email, lock, now, sub)
        if sub is None:
            sub = Submission(id=self.new_id("SUB"), assignment_id=a.id, course_id=a.course_id,
                             user_email=enr.user_email, user_name=enr.user_name, workflow_state="submitted")
            self.state.submissions[sub.id] = sub
        rules.record_attempt(sub, submission_type, body, url, now, due)
        return sub.model_dump()

    @tool(read_only=False, returns=Submission)
    def grade_submission(self, assignment_id: Id("assignment"), user_email: Email, posted_grade: float = Field(ge=0),
                         grader_email: Email = Field(),
                         text_comment: Optional[str] = Field(default=None, max_length=2000)) -> dict:
        """Grade a submission in points; the course's late policy then deducts for lateness.

        Args:
            assignment_id: the assignment.
            user_email: the student.
            posted_grade: points earned, at most the points possible (422).
            grader_email: a teacher or TA of the course (422 otherwise).
            text_comment: optional comment to the student.
        """
        a = self._assignment(assignment_id)
        c = self._course(a.course_id)
        sub = rules.require_submission(self.state, assignment_id, user_email)
        rules.check_gradable(self.state, a, c, sub, user_email, posted_grade, grader_email)
        now = self.now()
        rules.record_grade(sub, c.late_policy, a.points_possible, posted_grade, grader_email, now)
        if text_comment:
            sub.comments.append(SubmissionComment(author_email=grader_email.lower(), comment=text_comment,
                                                  created_at=now))
        return sub.model_dump()

    @tool(read_only=False, returns=Submission)
    def excuse_submission(self, assignment_id: Id("assignment"), user_email: Email) -> dict:
        """Excuse a student from an assignment (no grade counts; any score is cleared).

        Args:
            assignment_id: the assignment.
            user_email: the student (actively enrolled as a student).
        """
        a = self._assignment(assignment_id)
        enr = rules.student(self.state, self._course(a.course_id), user_email)
        sub = rules.submission_of(self.state, a.id, user_email)
        if sub is not None and sub.excused:
            raise Conflict(f"{user_email} is already excused from {a.id}.")
        if sub is None:
            sub = Submission(id=self.new_id("SUB"), assignment_id=a.id, course_id=a.course_id,
                             user_email=enr.user_email, user_name=enr.user_name, workflow_state="graded",
                             cached_due_date=rules.dates_for(a, user_email)[0])
            self.state.submissions[sub.id] = sub
        sub.workflow_state, sub.excused, sub.graded_at = "graded", True, self.now()
        sub.entered_score = sub.score = sub.points_deducted = None
        return sub.model_dump()

    @tool(read_only=False, returns=Submission)
    def add_submission_comment(self, assignment_id: Id("assignment"), user_email: Email,
                               text_comment: str = Field(min_length=1, max_length=2000),
                               author_email: Email = Field()) -> dict:
        """Comment on a student's submission.

        Args:
            assignment_id: the assignment.
            user_email: the student whose submission it is.
            text_comment: the comment.
            author_email: who writes it (the student, or a teacher or TA of the course).
        """
        sub = rules.require_submission(self.state, assignment_id, user_email)
        rules.check_commenter(self.state, sub, author_email)
        sub.comments.append(SubmissionComment(author_email=author_email.lower(), comment=text_comment,
                                              created_at=self.now()))
        return sub.model_dump()

    @tool(read_only=False, idempotent=True, returns=Course)
    def update_late_policy(self, course_id: Id("course"), late_submission_deduction_enabled: Optional[bool] = None,
                           late_submission_deduction: Optional[float] = Field(default=None, ge=0, le=100),
                           late_submission_interval: Optional[Literal["day", "hour"]] = None,
                           late_submission_minimum_percent: Optional[float] = Field(default=None, ge=0, le=100)
                           ) -> dict:
        """Change a course's late policy (omitted fields stay); grades already given are not recomputed.

        Args:
            course_id: the course.
            late_submission_deduction_enabled: whether late work loses points.
            late_submission_deduction: percent of points possible lost per interval.
            late_submission_interval: day or hour.
            late_submission_minimum_percent: floor, in percent of points possible.
        """
        c = self._course(course_id)
        changes = dict(late_submission_deduction_enabled=late_submission_deduction_enabled,
                       late_submission_deduction=late_submission_deduction,
                       late_submission_interval=late_submission_interval,
                       late_submission_minimum_percent=late_submission_minimum_percent)
        c.late_policy = c.late_policy.model_copy(update={k: v for k, v in changes.items() if v is not None})
        return c.model_dump()

    # ------------------------------------------------------------------ seeds
    @classmethod
    def build_seed_state(cls, fake: Faker, rng: random.Random, today: dt.date) -> LearningManagementState:
        return build_seed(fake, rng, today)

