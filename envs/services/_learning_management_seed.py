"""Seed data of the learning management service (records in ``_learning_management_models``).

The seed is a customer academy whose instructors come from the shared
company roster or are adjunct faculty, and whose students are Faker customers.
"""

from __future__ import annotations

import datetime as dt
import random
from typing import Optional

from faker import Faker

from compoworld_gym.envs.services._learning_management_models import (
    Assignment, Course, CourseState, Enrollment, LatePolicy, LearningManagementState, Submission,
)
from compoworld_gym.envs.services._learning_management_rules import late_deduction

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
