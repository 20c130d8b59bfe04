"""State model and seed data of the learning management service (Canvas LMS shapes).

The records mirror Canvas resources (course, enrollment, assignment with
overrides, submission with comments, late policy); the seed is a customer
academy whose instructors come from the shared company roster or are
adjunct faculty, and whose students are Faker customers.
"""

from __future__ import annotations

import datetime as dt
import math
import random
from typing import Literal, Optional

from faker import Faker
from pydantic import Field

from compoworld_gym.entities import DateTime, Email, Id, PersonName, Url
from compoworld_gym.service import Record, ServiceState

CourseState = Literal["unpublished", "available", "completed"]
EnrollmentType = Literal["StudentEnrollment", "TeacherEnrollment", "TaEnrollment"]
EnrollmentState = Literal["active", "invited", "completed"]
SubmissionState = Literal["submitted", "graded"]
SubmissionType = Literal["online_text_entry", "online_url", "online_upload"]
GRADER_TYPES = ("TeacherEnrollment", "TaEnrollment")


class LatePolicy(Record):
    """A course's late policy (Canvas ``late_policy``)."""

    late_submission_deduction_enabled: bool = Field(default=True, description="Whether late work loses points.")
    late_submission_deduction: float = Field(default=10.0, ge=0, le=100,
                                             description="Percent of points possible lost per interval late.")
    late_submission_interval: Literal["day", "hour"] = Field(default="day",
                                                             description="Interval the deduction counts.")
    late_submission_minimum_percent: float = Field(default=50.0, ge=0, le=100,
                                                   description="Floor: late grades never drop below this percent of points.")


class Course(Record):
    """A course (Canvas course)."""

    id: Id("course") = Field(description="Course id, e.g. CRS-0001.")
    name: str = Field(description="Course name.")
    course_code: str = Field(description="Short code, e.g. ADM-201.")
    instructor_email: Email = Field(description="The teacher of record.")
    instructor_name: PersonName = Field(description="Their name.")
    workflow_state: CourseState = Field(description="unpublished, available or completed.")
    start_at: DateTime = Field(description="Course start.")
    end_at: DateTime = Field(description="Course end; assignments are due before it.")
    late_policy: LatePolicy = Field(default_factory=LatePolicy, description="The course's late policy.")


class Enrollment(Record):
    """A user's enrollment in a course."""

    id: Id("enrollment") = Field(description="Enrollment id, e.g. ENR-0001.")
    course_id: Id("course") = Field(description="The course.")
    user_email: Email = Field(description="The enrolled user's email.")
    user_name: PersonName = Field(description="Their name.")
    type: EnrollmentType = Field(description="Role in the course.")
    enrollment_state: EnrollmentState = Field(description="active, invited or completed (concluded).")
    created_at: DateTime = Field(description="When enrolled.")
    completed_at: Optional[DateTime] = Field(default=None, description="When concluded.")


class AssignmentOverride(Record):
    """Different dates for some students (an extension)."""

    id: str = Field(description="Override id, e.g. OVR-0001.")
    student_emails: list[Email] = Field(description="Students it applies to.")
    due_at: DateTime = Field(description="Their due date.")
    lock_at: Optional[DateTime] = Field(default=None, description="Their lock date.")


class Assignment(Record):
    """An assignment of a course."""

    id: Id("assignment") = Field(description="Assignment id, e.g. ASG-0001.")
    course_id: Id("course") = Field(description="The course.")
    name: str = Field(description="Assignment name.")
    points_possible: float = Field(ge=0, le=1000, description="Maximum points.")
    due_at: Optional[DateTime] = Field(default=None, description="Due date; later submissions are late.")
    lock_at: Optional[DateTime] = Field(default=None, description="No submissions after this.")
    published: bool = Field(description="Students see and submit only published assignments.")
    submission_types: list[SubmissionType] = Field(description="Accepted submission types.")
    allowed_attempts: Optional[int] = Field(default=None, ge=1, description="Attempt limit; None is unlimited.")
    overrides: list[AssignmentOverride] = Field(default_factory=list, description="Per-student date overrides.")


class SubmissionComment(Record):
    """A comment on a submission."""

    author_email: Email = Field(description="Who wrote it.")
    comment: str = Field(description="The text.")
    created_at: DateTime = Field(description="When.")


class Submission(Record):
    """A student's submission to an assignment (latest attempt)."""

    id: Id("submission") = Field(description="Submission id, e.g. SUB-0001.")
    assignment_id: Id("assignment") = Field(description="The assignment.")
    course_id: Id("course") = Field(description="Its course.")
    user_email: Email = Field(description="The student's email.")
    user_name: PersonName = Field(description="The student's name.")
    workflow_state: SubmissionState = Field(description="submitted (awaiting grading) or graded.")
    submission_type: Optional[SubmissionType] = Field(default=None,
                                                      description="How it was submitted (None if only excused).")
    body: Optional[str] = Field(default=None, description="Text entry.")
    url: Optional[Url] = Field(default=None, description="Submitted link or upload.")
    attempt: int = Field(default=0, ge=0, description="Attempts made.")
    submitted_at: Optional[DateTime] = Field(default=None, description="Time of the latest attempt.")
    cached_due_date: Optional[DateTime] = Field(default=None, description="The due date that applies to this student.")
    late: bool = Field(default=False, description="Submitted after the due date.")
    seconds_late: int = Field(default=0, ge=0, description="How late, in seconds.")
    entered_score: Optional[float] = Field(default=None, description="Score the grader entered (points).")
    score: Optional[float] = Field(default=None, description="Score after the late deduction (points).")
    points_deducted: Optional[float] = Field(default=None, description="Points the late policy took.")
    excused: bool = Field(default=False, description="Excused: no grade counts.")
    grader_email: Optional[Email] = Field(default=None, description="Who graded it.")
    graded_at: Optional[DateTime] = Field(default=None, description="When graded.")
    comments: list[SubmissionComment] = Field(default_factory=list, description="Comments, oldest first.")


class LearningManagementState(ServiceState):
    """Courses, enrollments, assignments and submissions."""

    courses: dict[str, Course] = Field(default_factory=dict, description="Courses by id.")
    enrollments: dict[str, Enrollment] = Field(default_factory=dict, description="Enrollments by id.")
    assignments: dict[str, Assignment] = Field(default_factory=dict, description="Assignments by id.")
    submissions: dict[str, Submission] = Field(default_factory=dict, description="Submissions by id.")


def late_deduction(policy: LatePolicy, points_possible: float, entered: float, seconds_late: int) -> float:
    """Points the late policy takes from ``entered`` for work ``seconds_late`` late.

    Canvas's rule: ``deduction% x intervals late x points possible``, but the
    result never goes below ``minimum% x points possible`` (and a grade
    already below that floor keeps its points). Returns points, >= 0.
    """
    if seconds_late <= 0 or not policy.late_submission_deduction_enabled:
        return 0.0
    interval = 86400 if policy.late_submission_interval == "day" else 3600
    lost = policy.late_submission_deduction / 100 * math.ceil(seconds_late / interval) * points_possible
    floor = policy.late_submission_minimum_percent / 100 * points_possible
    return round(max(0.0, min(lost, entered - floor)), 2)


# ---------------------------------------------------------------------- seed
#: (name, code, roster email of the instructor or None for adjunct faculty).
COURSES: tuple[tuple[str, str, Optional[str]], ...] = (
    ("Platform Administration Fundamentals", "ADM-101", None),
    ("Billing Operations Certification", "BIL-150", "priya.raman@company.example"),
    ("Data Privacy Essentials", "PRV-105", "aisha.khan@company.example"),
    ("Account Security Best Practices", "SEC-130", "sofia.marin@company.example"),
    ("API Integration Workshop", "API-220", "ben.foster@company.example"),
    ("Advanced Reporting and Dashboards", "RPT-210", None),
    ("Shipping and Fulfilment Masterclass", "LOG-240", "daniel.cho@company.example"),
    ("Customer Success Playbooks", "CSM-120", "jamal.wright@company.example"),
)
#: Course states in COURSES order: most run now, one starts soon, two are over.
_STATES: tuple[CourseState, ...] = ("available", "available", "available", "completed", "available",
                                    "unpublished", "completed", "available")
_TASKS = ("Knowledge check", "Case study", "Hands-on lab", "Capstone project")
_ROSTER_NAMES = {"priya.raman@company.example": "Priya Raman", "aisha.khan@company.example": "Aisha Khan",
                 "sofia.marin@company.example": "Sofia Marin", "ben.foster@company.example": "Ben Foster",
                 "daniel.cho@company.example": "Daniel Cho", "jamal.wright@company.example": "Jamal Wright"}
TA = ("hannah.kovacs@company.example", "Hannah Kovacs")
ADJUNCT_DOMAIN = "faculty.academy.example"


def _at(day: dt.date, hour: int = 23, minute: int = 59) -> dt.datetime:
    return dt.datetime.combine(day, dt.time(hour, minute))


def _course(i: int, fake: Faker, rng: random.Random, today: dt.date) -> Course:
    name, code, email = COURSES[i]
    if email is None:
        first, last = fake.first_name(), fake.last_name()
        teacher, email = f"{first} {last}", f"{first}.{last}@{ADJUNCT_DOMAIN}".lower().replace("'", "")
    else:
        teacher = _ROSTER_NAMES[email]
    state = _STATES[i]
    start = today + dt.timedelta(days={"available": -rng.randint(20, 40), "completed": -120, "unpublished": 14}[state])
    end = start + dt.timedelta(days=90 if state != "completed" else 80)
    policy = LatePolicy(late_submission_deduction=rng.choice((5.0, 10.0, 10.0, 20.0)),
                        late_submission_minimum_percent=rng.choice((40.0, 50.0, 60.0)))
    return Course(id=f"CRS-{i + 1:04d}", name=name, course_code=code, instructor_email=email, instructor_name=teacher,
                  workflow_state=state, start_at=_at(start, 9, 0), end_at=_at(end), late_policy=policy)


def _assignments(c: Course, rng: random.Random, today: dt.date, state: LearningManagementState) -> None:
    start = c.start_at.date()
    for k, title in enumerate(_TASKS):
        due = start + dt.timedelta(days=10 + 14 * k)
        soon = due <= today + dt.timedelta(days=14)
        published = c.workflow_state == "completed" or (c.workflow_state == "available" and soon)
        aid = f"ASG-{len(state.assignments) + 1:04d}"
        state.assignments[aid] = Assignment(
            id=aid, course_id=c.id, name=f"{c.course_code} {title}", 
            points_possible=float(rng.choice((10, 20, 50, 100))),
            due_at=_at(due), lock_at=_at(due + dt.timedelta(days=7)), published=published,
            submission_types=["online_url"] if title == "Hands-on lab" else ["online_text_entry", "online_upload"],
            allowed_attempts=rng.choice((None, 2, 3)))


def _submit(state: LearningManagementState, a: Assignment, e: Enrollment, rng: random.Random, today: dt.date) -> None:
    late_s = rng.choice((0, 0, 0, 0, 0, 3 * 3600, 26 * 3600, 50 * 3600))
    when = a.due_at - dt.timedelta(hours=rng.randint(1, 48)) if not late_s else a.due_at + dt.timedelta(seconds=late_s)
    if when.date() >= today:
        return
    kind = a.submission_types[0]
    sid = f"SUB-{len(state.submissions) + 1:04d}"
    sub = Submission(id=sid, assignment_id=a.id, course_id=a.course_id, user_email=e.user_email, user_name=e.user_name,
                     workflow_state="submitted", submission_type=kind, attempt=1, submitted_at=when, late=late_s > 0,
                     cached_due_date=a.due_at,
                     seconds_late=late_s, body="See my answers attached." if kind == "online_text_entry" else None,
                     url=None if kind == "online_text_entry" else f"https://files.academy.example/{sid.lower()}.pdf")
    course = state.courses[a.course_id]
    if when.date() < today - dt.timedelta(days=3) and rng.random() < 0.7:
        entered = float(round(a.points_possible * rng.uniform(0.55, 1.0)))
        lost = late_deduction(course.late_policy, a.points_possible, entered, late_s)
        sub.workflow_state, sub.entered_score, sub.points_deducted = "graded", entered, lost
        sub.score = round(entered - lost, 2)
        sub.grader_email, sub.graded_at = course.instructor_email, when + dt.timedelta(days=2)
    state.submissions[sid] = sub


def build_seed(fake: Faker, rng: random.Random, today: dt.date) -> LearningManagementState:
    """The seeded academy: 8 courses, teachers and a TA, ~24 students with
    enrollments, 4 assignments per course and the submissions made so far."""
    state = LearningManagementState()
    for i in range(len(COURSES)):
        c = _course(i, fake, rng, today)
        state.courses[c.id] = c
        _assignments(c, rng, today, state)
        staff = [(c.instructor_email, c.instructor_name, "TeacherEnrollment")]
        if i % 3 == 0:
            staff.append((*TA, "TaEnrollment"))
        for email, name, kind in staff:
            eid = f"ENR-{len(state.enrollments) + 1:04d}"
            state.enrollments[eid] = Enrollment(id=eid, course_id=c.id, user_email=email, user_name=name, type=kind,
                                                enrollment_state="completed" if c.workflow_state == "completed"
                                                else "active",
                                                created_at=c.start_at - dt.timedelta(days=14))
    students = []
    for _ in range(24):
        first, last = fake.first_name(), fake.last_name()
        students.append((f"{first} {last}", f"{first}.{last}@{fake.free_email_domain()}".lower().replace("'", "")))
    for n, (name, email) in enumerate(students):
        open_courses = [c for c in state.courses.values() if c.workflow_state != "unpublished"]
        for c in rng.sample(open_courses, rng.randint(1, 2)):
            eid = f"ENR-{len(state.enrollments) + 1:04d}"
            dropped = c.workflow_state == "completed" or n % 11 == 5
            e = Enrollment(id=eid, course_id=c.id, user_email=email, user_name=name, type="StudentEnrollment",
                           enrollment_state="completed" if dropped else "active",
                           created_at=c.start_at - dt.timedelta(days=rng.randint(1, 10)),
                           completed_at=(min(c.end_at, _at(today - dt.timedelta(days=2), 10, 0)) if dropped else None))
            state.enrollments[eid] = e
            for a in state.assignments.values():
                if a.course_id == c.id and a.published and not (n % 11 == 5 and c.workflow_state != "completed"):
                    _submit(state, a, e, rng, today)
    state.counters = {"CRS": len(state.courses) + 1, "ASG": len(state.assignments) + 1,
                      "ENR": len(state.enrollments) + 1, "SUB": len(state.submissions) + 1, "OVR": 1}
    return state
