"""Learning management: courses, enrollments, assignments, submissions and grading.

No LMS server is in ``compoworld_gym/data/mcp_servers.jsonl``; the interface
follows the Canvas LMS REST API (``/api/v1/courses``, ``.../enrollments``,
``.../assignments``, ``.../submissions``, ``.../late_policy``,
``.../assignments/:id/overrides``): the same resource names, workflow states
(course ``unpublished``/``available``/``completed``; enrollment ``active``/
``invited``/``completed``; submission ``submitted``/``graded``) and grading
fields (``entered_score``, ``score``, ``points_deducted``, ``seconds_late``).
Users are addressed by email, as Canvas SIS imports do. The instance is the
company's customer academy: instructors are staff from the shared roster (or
adjunct faculty), students are customers. Rules Canvas enforces: nothing is
submitted to an unpublished or locked assignment or by someone not actively
enrolled as a student (422); the late policy deducts a percentage of the
points possible per day or hour late, never below its floor; a grade above
the points possible is refused (422); an assignment with submissions cannot
be unpublished (409).
"""

from __future__ import annotations

import datetime as dt
import random
from typing import Literal, Optional

from faker import Faker
from pydantic import Field

from compoworld_gym.entities import DateTime, Email, Id, PersonName, Url
from compoworld_gym.envs.services._learning_management_seed import (
    GRADER_TYPES, Assignment, AssignmentOverride, Course, CourseState, Enrollment, EnrollmentState, EnrollmentType,
    LatePolicy, LearningManagementState, Submission, SubmissionComment, SubmissionState, SubmissionType, build_seed,
    late_deduction,
)
from compoworld_gym.errors import Conflict, InvalidArgument, NotFound, Unprocessable
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

    def _enrollment_of(self, course_id: str, email: str, types: tuple[str, ...]) -> Optional[Enrollment]:
        return next((e for e in self.state.enrollments.values() if e.course_id == course_id
                     and e.user_email.lower() == email.lower() and e.type in types
                     and e.enrollment_state == "active"), None)

    def _submission_of(self, assignment_id: str, email: str) -> Optional[Submission]:
        return next((s for s in self.state.submissions.values()
                     if s.assignment_id == assignment_id and s.user_email.lower() == email.lower()), None)

    def _require_submission(self, assignment_id: str, email: str) -> Submission:
        self._assignment(assignment_id)
        sub = self._submission_of(assignment_id, email)
        if sub is None:
            raise NotFound(f"{email} has no submission for assignment {assignment_id}; "
                           "call list_submissions to see who submitted.")
        return sub

    def _dates_for(self, a: Assignment, email: str) -> tuple[Optional[dt.datetime], Optional[dt.datetime]]:
        """(due_at, lock_at) that apply to ``email``: the latest override naming them wins."""
        for o in reversed(a.overrides):
            if email.lower() in (e.lower() for e in o.student_emails):
                return o.due_at, o.lock_at
        return a.due_at, a.lock_at

    def _student(self, course: Course, email: str) -> Enrollment:
        enr = self._enrollment_of(course.id, email, ("StudentEnrollment",))
        if enr is None:
            raise Unprocessable(f"{email} is not an active student of course {course.id}; "
                                "call list_enrollments to see who is enrolled.")
        return enr

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
        term = (search_term or "").lower()
        return [c.model_dump(exclude={"late_policy"}) for c in self.state.courses.values()
                if (workflow_state is None or c.workflow_state == workflow_state)
                and (instructor_email is None or c.instructor_email.lower() == instructor_email.lower())
                and (term in c.name.lower() or term in c.course_code.lower())]

    @tool(read_only=True, returns=Course)
    def get_course(self, course_id: Id("course")) -> dict:
        """Get a course with its late policy and counts of students and assignments.

        Args:
            course_id: the course id, e.g. CRS-0001.
        """
        c = self._course(course_id)
        students = sum(1 for e in self.state.enrollments.values() if e.course_id == course_id
                       and e.type == "StudentEnrollment" and e.enrollment_state == "active")
        n = sum(1 for a in self.state.assignments.values() if a.course_id == course_id)
        return {**c.model_dump(), "active_students": students, "assignments": n}

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
        return [e.model_dump() for e in self.state.enrollments.values()
                if (course_id is None or e.course_id == course_id)
                and (user_email is None or e.user_email.lower() == user_email.lower())
                and (type is None or e.type == type) and (state is None or e.enrollment_state == state)]

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
        rows = [a for a in self.state.assignments.values() if a.course_id == course_id
                and (published is None or a.published == published)]
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
        return [s.model_dump() for s in self.state.submissions.values() if s.assignment_id == assignment_id
                and (workflow_state is None or s.workflow_state == workflow_state)]

    @tool(read_only=True, returns=Submission)
    def get_submission(self, assignment_id: Id("assignment"), user_email: Email) -> dict:
        """Get one student's submission to an assignment.

        Args:
            assignment_id: the assignment.
            user_email: the student's email.
        """
        return self._require_submission(assignment_id, user_email).model_dump()

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
        rows = [s for s in self.state.submissions.values() if s.user_email.lower() == user_email.lower()
                and (course_id is None or s.course_id == course_id)
                and (workflow_state is None or s.workflow_state == workflow_state)]
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
        if c.workflow_state == "completed":
            raise Conflict(f"course {c.id} is completed; it takes no new enrollments.")
        if self._enrollment_of(c.id, user_email, (type,)) is not None:
            raise Conflict(f"{user_email} already has an active {type} in course {c.id}.")
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
        self._check_dates(c, due_at, lock_at)
        a = Assignment(id=self.new_id("ASG"), course_id=c.id, name=name, points_possible=points_possible,
                       due_at=due_at, lock_at=lock_at, published=published, submission_types=submission_types,
                       allowed_attempts=allowed_attempts)
        self.state.assignments[a.id] = a
        return a.model_dump()

    @staticmethod
    def _check_dates(c: Course, due_at: Optional[dt.datetime], lock_at: Optional[dt.datetime]) -> None:
        if due_at is not None and due_at > c.end_at:
            raise Unprocessable(f"due_at {due_at} is after course {c.id} ends ({c.end_at}).")
        if due_at is not None and lock_at is not None and lock_at < due_at:
            raise Unprocessable("lock_at must not be before due_at.")

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
        subs = [s for s in self.state.submissions.values() if s.assignment_id == a.id]
        if published is False and a.published and subs:
            raise Conflict(f"assignment {a.id} has {len(subs)} submissions and cannot be unpublished.")
        if points_possible is not None and any((s.entered_score or 0) > points_possible for s in subs):
            raise Unprocessable(f"a submission to {a.id} already scores above {points_possible}.")
        due, lock = due_at or a.due_at, lock_at or a.lock_at
        self._check_dates(self._course(a.course_id), due, lock)
        a.due_at, a.lock_at = due, lock
        self._refresh_due(a)
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
            self._student(c, email)
        self._check_dates(c, due_at, lock_at)
        a.overrides.append(AssignmentOverride(id=self.new_id("OVR"), student_emails=[e.lower() for e in student_emails],
                                              due_at=due_at, lock_at=lock_at))
        self._refresh_due(a)
        return a.model_dump()

    def _refresh_due(self, a: Assignment) -> None:
        """Submissions cache the due date that applies to their student (Canvas ``cached_due_date``)."""
        for s in self.state.submissions.values():
            if s.assignment_id == a.id:
                s.cached_due_date = self._dates_for(a, s.user_email)[0]

    @tool(read_only=False, returns=Submission)
    def submit_assignment(self, assignment_id: Id("assignment"), user_email: Email, submission_type: SubmissionType,
                          body: Optional[str] = Field(default=None,
                                                      max_length=20000), url: Optional[Url] = None) -> dict:
        """Submit (or resubmit) a student's work; lateness is measured against their due date.

        Args:
            assignment_id: a published, unlocked assignment.
            user_email: the student (actively enrolled as a student).
            submission_type: one the assignment accepts.
            body: the text, for online_text_entry.
            url: the link, for online_url or online_upload.
        """
        a = self._assignment(assignment_id)
        enr = self._student(self._course(a.course_id), user_email)
        if not a.published:
            raise Unprocessable(f"assignment {a.id} is not published; students cannot submit to it.")
        if submission_type not in a.submission_types:
            raise Unprocessable(f"assignment {a.id} accepts {', '.join(a.submission_types)}, not {submission_type}.")
        if (body if submission_type == "online_text_entry" else url) is None:
            raise Unprocessable("online_text_entry needs body; online_url and online_upload need url.")
        due, lock = self._dates_for(a, user_email)
        now = self.now()
        if lock is not None and now > lock:
            raise Unprocessable(f"assignment {a.id} locked at {lock.isoformat()} for {user_email}.")
        sub = self._submission_of(a.id, user_email)
        if sub is not None and a.allowed_attempts is not None and sub.attempt >= a.allowed_attempts:
            raise Unprocessable(f"{user_email} has used all {a.allowed_attempts} attempts on {a.id}.")
        if sub is None:
            sub = Submission(id=self.new_id("SUB"), assignment_id=a.id, course_id=a.course_id,
                             user_email=enr.user_email, user_name=enr.user_name, workflow_state="submitted")
            self.state.submissions[sub.id] = sub
        late = max(0, int((now - due).total_seconds())) if due is not None else 0
        sub.workflow_state, sub.submission_type, sub.body, sub.url = "submitted", submission_type, body, url
        sub.attempt, sub.submitted_at, sub.seconds_late, sub.late = sub.attempt + 1, now, late, late > 0
        sub.cached_due_date, sub.excused = due, False
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
        sub = self._require_submission(assignment_id, user_email)
        if sub.submitted_at is None:
            raise Conflict(f"{user_email} submitted nothing to {a.id} (it is excused).")
        if posted_grade > a.points_possible:
            raise Unprocessable(f"posted_grade {posted_grade} is above the {a.points_possible} points possible.")
        if self._enrollment_of(c.id, grader_email, GRADER_TYPES) is None:
            raise Unprocessable(f"{grader_email} is not an active teacher or TA of course {c.id}.")
        lost = late_deduction(c.late_policy, a.points_possible, posted_grade, sub.seconds_late)
        now = self.now()
        sub.workflow_state, sub.entered_score, sub.points_deducted = "graded", posted_grade, lost
        sub.score, sub.grader_email, sub.graded_at = round(posted_grade - lost, 2), grader_email.lower(), now
        sub.excused = False  # grading an excused student's work counts it again, as Canvas does
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
        enr = self._student(self._course(a.course_id), user_email)
        sub = self._submission_of(a.id, user_email)
        if sub is not None and sub.excused:
            raise Conflict(f"{user_email} is already excused from {a.id}.")
        if sub is None:
            sub = Submission(id=self.new_id("SUB"), assignment_id=a.id, course_id=a.course_id,
                             user_email=enr.user_email,
                             user_name=enr.user_name, workflow_state="graded",
                             cached_due_date=self._dates_for(a, user_email)[0])
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
        sub = self._require_submission(assignment_id, user_email)
        if (author_email.lower() != sub.user_email.lower()
                and self._enrollment_of(sub.course_id, author_email, GRADER_TYPES) is None):
            raise Unprocessable(f"{author_email} is neither the student nor a teacher or TA of course {sub.course_id}.")
        sub.comments.append(SubmissionComment(author_email=author_email.lower(), comment=text_comment,
                                              created_at=self.now()))
        return sub.model_dump()

    @tool(read_only=False, idempotent=True, returns=Course)
    def update_late_policy(self, course_id: Id("course"), late_submission_deduction_enabled: Optional[bool] = None,
                           late_submission_deduction: Optional[float] = Field(default=None, ge=0, le=100),
                           late_submission_interval: Optional[Literal["day", "hour"]] = None,
                           late_submission_minimum_percent: Optional[float] = Field(
                               default=None, ge=0, le=100)) -> dict:
        """Change a course's late policy (omitted fields stay); grades already given are not recomputed.

        Args:
            course_id: the course.
            late_submission_deduction_enabled: whether late work loses points.
            late_submission_deduction: percent of points possible lost per interval.
            late_submission_interval: day or hour.
            late_submission_minimum_percent: floor, in percent of points possible.
        """
        c = self._course(course_id)
        changes = {k: v for k, v in {"late_submission_deduction_enabled": late_submission_deduction_enabled,
                                     "late_submission_deduction": late_submission_deduction,
                                     "late_submission_interval": late_submission_interval,
                                     "late_submission_minimum_percent": late_submission_minimum_percent}.items()
                   if v is not None}
        c.late_policy = c.late_policy.model_copy(update=changes)
        return c.model_dump()

    # ------------------------------------------------------------------ seeds
    @classmethod
    def build_seed_state(cls, fake: Faker, rng: random.Random, today: dt.date) -> LearningManagementState:
        return build_seed(fake, rng, today)


__all__ = ["Assignment", "AssignmentOverride", "Course", "Enrollment", "LatePolicy", "LearningManagement",
           "LearningManagementState", "Submission", "SubmissionComment", "late_deduction"]
