"""Business rules of the learning management service (Canvas's; see ``learning_management.py``).

Rules Canvas enforces: nothing is submitted to an unpublished or locked
assignment or by someone not actively enrolled as a student (422); the late
policy deducts a percentage of the points possible per day or hour late,
never below its floor; a grade above the points possible is refused (422);
an assignment with submissions cannot be unpublished (409).

Who counts as enrolled, which due date applies to a student (their latest
override, else the assignment's), how dates must relate to the course, and
how the late policy deducts points. Pure functions of the records in
``_learning_management_models``; a broken rule raises the tool's error.
"""

from __future__ import annotations

import datetime as dt
import math
from typing import Optional

from compoworld_gym.envs.services._learning_management_models import (
    Assignment, Course, Enrollment, LatePolicy, LearningManagementState, Submission,
)
from compoworld_gym.errors import Conflict, NotFound, Unprocessable
from compoworld_gym.service import Service

GRADER_TYPES = ("TeacherEnrollment", "TaEnrollment")


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



def enrollment_of(state: LearningManagementState, course_id: str, email: str,
                  types: tuple[str, ...]) -> Optional[Enrollment]:
    """The active enrollment of ``email`` (any case) in the course with one of ``types``, or None."""
    return next((e for e in state.enrollments.values() if e.course_id == course_id
                 and e.user_email.lower() == email.lower() and e.type in types
                 and e.enrollment_state == "active"), None)


def student(state: LearningManagementState, course: Course, email: str) -> Enrollment:
    """The active student enrollment of ``email`` in ``course``.

    Raises:
        Unprocessable: 422 when ``email`` is not an active student there.
    """
    enr = enrollment_of(state, course.id, email, ("StudentEnrollment",))
    if enr is None:
        raise Unprocessable(f"{email} is not an active student of course {course.id}; "
                            "call list_enrollments to see who is enrolled.")
    return enr


def submission_of(state: LearningManagementState, assignment_id: str, email: str) -> Optional[Submission]:
    """The submission of ``email`` (any case) to the assignment, or None."""
    return next((s for s in state.submissions.values()
                 if s.assignment_id == assignment_id and s.user_email.lower() == email.lower()), None)


def dates_for(a: Assignment, email: str) -> tuple[Optional[dt.datetime], Optional[dt.datetime]]:
    """(due_at, lock_at) that apply to ``email``: the latest override naming them wins."""
    for o in reversed(a.overrides):
        if email.lower() in (e.lower() for e in o.student_emails):
            return o.due_at, o.lock_at
    return a.due_at, a.lock_at


def check_dates(c: Course, due_at: Optional[dt.datetime], lock_at: Optional[dt.datetime]) -> None:
    """A due date falls before the course ends and a lock date is not before the due date.

    Raises:
        Unprocessable: 422.
    """
    if due_at is not None and due_at > c.end_at:
        raise Unprocessable(f"due_at {due_at} is after course {c.id} ends ({c.end_at}).")
    if due_at is not None and lock_at is not None and lock_at < due_at:
        raise Unprocessable("lock_at must not be before due_at.")


def refresh_due(state: LearningManagementState, a: Assignment) -> None:
    """Submissions cache the due date that applies to their student (Canvas ``cached_due_date``)."""
    for s in state.submissions.values():
        if s.assignment_id == a.id:
            s.cached_due_date = dates_for(a, s.user_email)[0]


def check_submittable(a: Assignment, submission_type: str, body: Optional[str], url: Optional[str]) -> None:
    """The assignment is published and accepts ``submission_type``, and the work has its text or link.

    Raises:
        Unprocessable: 422.
    """
    if not a.published:
        raise Unprocessable(f"assignment {a.id} is not published; students cannot submit to it.")
    if submission_type not in a.submission_types:
        raise Unprocessable(f"assignment {a.id} accepts {', '.join(a.submission_types)}, not {submission_type}.")
    if (body if submission_type == "online_text_entry" else url) is None:
        raise Unprocessable("online_text_entry needs body; online_url and online_upload need url.")


def check_attempt(a: Assignment, email: str, lock: Optional[dt.datetime], now: dt.datetime,
                  sub: Optional[Submission]) -> None:
    """``email`` may submit at ``now``: not after their ``lock`` date, and attempts are left.

    Raises:
        Unprocessable: 422.
    """
    if lock is not None and now > lock:
        raise Unprocessable(f"assignment {a.id} locked at {lock.isoformat()} for {email}.")
    if sub is not None and a.allowed_attempts is not None and sub.attempt >= a.allowed_attempts:
        raise Unprocessable(f"{email} has used all {a.allowed_attempts} attempts on {a.id}.")


def check_gradable(state: LearningManagementState, a: Assignment, c: Course, sub: Submission, email: str,
                   posted_grade: float, grader_email: str) -> None:
    """``sub`` (``email``'s, as the caller spelled it) holds work, ``posted_grade`` is within the points
    possible, and ``grader_email`` teaches course ``c``.

    Raises:
        Conflict: 409 for an excused submission with nothing submitted.
        Unprocessable: 422 for a grade above the points possible or a grader who is no teacher or TA.
    """
    if sub.submitted_at is None:
        raise Conflict(f"{email} submitted nothing to {a.id} (it is excused).")
    if posted_grade > a.points_possible:
        raise Unprocessable(f"posted_grade {posted_grade} is above the {a.points_possible} points possible.")
    if enrollment_of(state, c.id, grader_email, GRADER_TYPES) is None:
        raise Unprocessable(f"{grader_email} is not an active teacher or TA of course {c.id}.")


def check_assignment_change(state: LearningManagementState, a: Assignment, published: Optional[bool],
                            points_possible: Optional[float]) -> None:
    """An assignment with submissions stays published, and its points stay at or above every score given.

    Raises:
        Conflict: 409 for unpublishing one with submissions.
        Unprocessable: 422 for points below a score already entered.
    """
    subs = [s for s in state.submissions.values() if s.assignment_id == a.id]
    if published is False and a.published and subs:
        raise Conflict(f"assignment {a.id} has {len(subs)} submissions and cannot be unpublished.")
    if points_possible is not None and any((s.entered_score or 0) > points_possible for s in subs):
        raise Unprocessable(f"a submission to {a.id} already scores above {points_possible}.")


def check_commenter(state: LearningManagementState, sub: Submission, author_email: str) -> None:
    """A submission's comments come from its student or a teacher or TA of its course.

    Raises:
        Unprocessable: 422.
    """
    if (author_email.lower() != sub.user_email.lower()
            and enrollment_of(state, sub.course_id, author_email, GRADER_TYPES) is None):
        raise Unprocessable(f"{author_email} is neither the student nor a teacher or TA of course {sub.course_id}.")


def require_submission(state: LearningManagementState, assignment_id: str, email: str) -> Submission:
    """The submission of ``email`` to an existing assignment.

    Raises:
        NotFound: 404 for an unknown assignment or no submission of ``email`` to it.
    """
    Service.lookup(state.assignments, assignment_id, "assignment")
    sub = submission_of(state, assignment_id, email)
    if sub is None:
        raise NotFound(f"{email} has no submission for assignment {assignment_id}; "
                       "call list_submissions to see who submitted.")
    return sub


def check_enrollable(state: LearningManagementState, c: Course, email: str, type: str) -> None:
    """Course ``c`` takes a new ``type`` enrollment of ``email``: it is not completed and they hold none active.

    Raises:
        Conflict: 409.
    """
    if c.workflow_state == "completed":
        raise Conflict(f"course {c.id} is completed; it takes no new enrollments.")
    if enrollment_of(state, c.id, email, (type,)) is not None:
        raise Conflict(f"{email} already has an active {type} in course {c.id}.")


def record_attempt(sub: Submission, submission_type: str, body: Optional[str], url: Optional[str],
                   now: dt.datetime, due: Optional[dt.datetime]) -> None:
    """Record a (re)submission at ``now`` on ``sub``: one more attempt, late by the seconds past ``due``."""
    late = max(0, int((now - due).total_seconds())) if due is not None else 0
    sub.workflow_state, sub.submission_type, sub.body, sub.url = "submitted", submission_type, body, url
    sub.attempt, sub.submitted_at, sub.seconds_late, sub.late = sub.attempt + 1, now, late, late > 0
    sub.cached_due_date, sub.excused = due, False


def record_grade(sub: Submission, policy: LatePolicy, points_possible: float, posted_grade: float,
                 grader_email: str, now: dt.datetime) -> None:
    """Grade ``sub`` with ``posted_grade`` points at ``now``; the late policy's deduction gives the score."""
    lost = late_deduction(policy, points_possible, posted_grade, sub.seconds_late)
    sub.workflow_state, sub.entered_score, sub.points_deducted = "graded", posted_grade, lost
    sub.score, sub.grader_email, sub.graded_at = round(posted_grade - lost, 2), grader_email.lower(), now
    sub.excused = False  # grading an excused student's work counts it again, as Canvas does
