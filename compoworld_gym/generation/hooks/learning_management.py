"""The academy LMS in chained tasks: a submission names the student (email
and name) and the due date that applies to them; a student's submission
awaiting grading and their active enrollment are found by their email; a
course names its instructor and its start date. The case's submission gets a
comment from the instructor or is excused, or the student is withdrawn."""

from __future__ import annotations

import datetime as dt
from typing import Any, Optional

from compoworld_gym.checks import OnlyChanged, RecordMatches
from compoworld_gym.envs.services._learning_management_models import Assignment, Course, Enrollment, Submission
from compoworld_gym.generation.context import Ctx, call
from compoworld_gym.generation.hooks.hr_directory import employee_email, name_from_email
from compoworld_gym.generation.links import (
    Action, Found, Give, Need, Reader, Relay, ServiceLinks, Write, next_id, pick,
)

DATE_RX = r"\d{4}-\d{2}-\d{2}"
SERVICE = "learning_management"
_TASKS = ("Capstone project", "Certification exam", "Practical assessment", "Final case study")


def next_submission_id(state: dict[str, Any]) -> str:
    """Take the next free submission id from the LMS counters (as ``new_id("SUB")``)."""
    return next_id(state, "SUB")


def next_course_id(state: dict[str, Any]) -> str:
    """Take the next free course id from the LMS counters (as ``new_id("CRS")``)."""
    return next_id(state, "CRS")


def plant_course(state: dict[str, Any], course_id: str, *, instructor_email: str, start: str,
                 name: str = "Platform Certification Bootcamp") -> str:
    """Add (or re-plant) an available :class:`Course` starting on ``start``
    (ISO date, 90 days long) taught by ``instructor_email``, with its teacher
    enrollment; returns the id.

    Raises:
        pydantic.ValidationError: the fields do not make a valid course.
    """
    first = dt.date.fromisoformat(start)
    n = int(course_id.split("-")[1])
    course = Course.model_validate({
        "id": course_id, "name": name, "course_code": f"CRT-{300 + n}", "instructor_email": instructor_email,
        "instructor_name": name_from_email(instructor_email), "workflow_state": "available",
        "start_at": f"{start}T09:00:00", "end_at": f"{(first + dt.timedelta(days=90)).isoformat()}T23:59:00"})
    state["courses"][course_id] = course.model_dump(mode="json")
    for e in list(state["enrollments"].values()):  # one teacher of record: a re-planted course replaces it
        if e["course_id"] == course_id and e["type"] == "TeacherEnrollment":
            del state["enrollments"][e["id"]]
    plant_enrollment(state, course_id, instructor_email, course.instructor_name, kind="TeacherEnrollment",
                     created_at=f"{(first - dt.timedelta(days=14)).isoformat()}T09:00:00")
    return course_id


def plant_enrollment(state: dict[str, Any], course_id: str, email: str, name: str, *, kind: str = "StudentEnrollment",
                     created_at: str, completed_at: Optional[str] = None) -> str:
    """Add an :class:`Enrollment` (active, or concluded at ``completed_at``); returns its id."""
    eid = next_id(state, "ENR")
    record = Enrollment.model_validate({
        "id": eid, "course_id": course_id, "user_email": email, "user_name": name, "type": kind,
        "enrollment_state": "completed" if completed_at else "active", "created_at": created_at,
        "completed_at": completed_at})
    state["enrollments"][eid] = record.model_dump(mode="json")
    return eid


def _course_for(ctx: Ctx, email: str) -> str:
    """A running seeded course, preferring one the student is not in yet."""
    state = ctx.state(SERVICE)
    running = sorted(c for c, rec in state["courses"].items() if rec["workflow_state"] == "available"
                     and rec["end_at"] > ctx.day(50))
    taken = {e["course_id"] for e in state["enrollments"].values() if e["user_email"].lower() == email.lower()}
    return ctx.rng.choice([c for c in running if c not in taken] or running)


def _ensure_student(ctx: Ctx, course_id: str, email: str, name: str) -> None:
    state = ctx.state(SERVICE)
    if not any(e["course_id"] == course_id and e["user_email"].lower() == email.lower()
               and e["type"] == "StudentEnrollment" and e["enrollment_state"] == "active"
               for e in state["enrollments"].values()):
        plant_enrollment(state, course_id, email, name, created_at=f"{ctx.day(-30)}T10:00:00")


def plant_submission(ctx: Ctx, sid: str, *, email: str, name: str, due: str, graded: bool) -> str:
    """Add a new published assignment due on ``due`` (ISO date) in a running
    course the student is enrolled in (enrolling them if need be), and their
    :class:`Submission` to it, awaiting grading or ``graded``; returns ``sid``."""
    state = ctx.state(SERVICE)
    course = _course_for(ctx, email)
    _ensure_student(ctx, course, email, name)
    aid = next_id(state, "ASG")
    code = state["courses"][course]["course_code"]
    assignment = Assignment.model_validate({
        "id": aid, "course_id": course, "name": f"{code} {ctx.rng.choice(_TASKS)}", "points_possible": 100.0,
        "due_at": f"{due}T23:59:00", "lock_at": None, "published": True, "submission_types": ["online_upload"]})
    state["assignments"][aid] = assignment.model_dump(mode="json")
    when = f"{ctx.day(-2 if graded else -1)}T{ctx.rng.randint(10, 20)}:15:00"
    fields: dict[str, Any] = {"workflow_state": "submitted"}
    if graded:
        teacher = state["courses"][course]["instructor_email"]
        fields = {"workflow_state": "graded", "entered_score": 88.0, "score": 88.0, "points_deducted": 0.0,
                  "grader_email": teacher, "graded_at": f"{ctx.day(-1)}T09:30:00"}
    sub = Submission.model_validate({
        "id": sid, "assignment_id": aid, "course_id": course, "user_email": email, "user_name": name,
        "submission_type": "online_upload", "url": f"https://files.academy.example/{sid.lower()}.pdf", "attempt": 1,
        "submitted_at": when, "cached_due_date": f"{due}T23:59:00", **fields})
    state["submissions"][sid] = sub.model_dump(mode="json")
    return sid


def _plant_sub(ctx: Ctx, key: Any, outs: dict[str, Any], stale: bool, by_id: bool) -> str:
    state = ctx.state(SERVICE)
    sid = key if by_id else next_submission_id(state)
    email = (outs.get("email") or ctx.person()[1]) if by_id else str(key)
    name = outs.get("person_name") or name_from_email(email)
    return plant_submission(ctx, sid, email=email, name=name, due=outs.get("date") or ctx.day(ctx.rng.randint(4, 30)),
                            graded=stale)


def _plant_enrollment(ctx: Ctx, key: Any, outs: dict[str, Any], stale: bool) -> str:
    state = ctx.state(SERVICE)
    course = outs.get("course_id")
    if course is not None and course not in state["courses"]:  # the next hop re-plants it with its own values
        plant_course(state, course, instructor_email=employee_email(ctx), start=ctx.day(-20))
    course = course or _course_for(ctx, str(key))
    name = outs.get("person_name") or name_from_email(str(key))
    if stale:
        return plant_enrollment(state, course, str(key), name, created_at=f"{ctx.day(-200)}T10:00:00",
                                completed_at=f"{ctx.day(-110)}T17:00:00")
    return plant_enrollment(state, course, str(key), name, created_at=f"{ctx.day(-ctx.rng.randint(5, 25))}T10:00:00")


def _plant_course(ctx: Ctx, key: Any, outs: dict[str, Any], stale: bool) -> str:
    return plant_course(ctx.state(SERVICE), key, instructor_email=outs.get("email") or employee_email(ctx),
                        start=outs.get("date") or ctx.day(ctx.rng.randint(3, 30)))


def _by_id(reader: Reader, key: Any) -> dict[str, Any]:
    return reader.read(SERVICE, "get_submission_by_id", submission_id=key)


def _pending(reader: Reader, key: Any) -> dict[str, Any]:
    return pick(reader.read(SERVICE, "list_student_submissions", user_email=key, workflow_state="submitted"))


def _enrollment(reader: Reader, key: Any) -> dict[str, Any]:
    return pick(reader.read(SERVICE, "list_enrollments", user_email=key, type="StudentEnrollment", state="active"))


_DUE = Give("date", "cached_due_date", "the assignment due date", pattern=DATE_RX)
_STUDENT = Give("email", "user_email", "the student's email address", "the customer")

SUBMISSION = Relay(
    service=SERVICE, name="assignment submission", key="submission_id",
    gives=(_STUDENT, Give("person_name", "user_name", "the student's name", "the customer"), _DUE,
           Give("submission_id", "id", "the assignment submission")),
    plant=lambda ctx, key, outs, stale: _plant_sub(ctx, key, outs, stale, True), find=_by_id,
    where="Each submission in the academy LMS names the student and the due date that applies to them.",
    alloc=lambda ctx: next_submission_id(ctx.state(SERVICE)), entry=lambda key: f"academy submission {key}")

PENDING_SUBMISSION = Relay(
    service=SERVICE, name="submission awaiting grading", key="email",
    gives=(Give("submission_id", "id", "the student's submission awaiting grading"), _DUE),
    plant=lambda ctx, key, outs, stale: _plant_sub(ctx, key, outs, stale, False), find=_pending,
    where="The academy LMS lists each student's submissions under their email address.",
    truth="A graded submission is finished; only the student's submission still awaiting grading counts.")

ENROLLMENT = Relay(
    service=SERVICE, name="course enrollment", key="email",
    gives=(Give("enrollment_id", "id", "the student's active enrollment"), Give("course_id", "course_id", "the course"),
           Give("person_name", "user_name", "the student's name", "the customer")),
    plant=_plant_enrollment, find=_enrollment,
    where="The academy LMS lists each student's course enrollments under their email address.",
    truth="A concluded enrollment is history; only the student's active enrollment counts.")

COURSE = Relay(
    service=SERVICE, name="academy course", key="course_id",
    gives=(Give("email", "instructor_email", "the instructor's work email", "the instructor", draw=employee_email),
           Give("date", "start_at", "the course start date", pattern=DATE_RX)),
    plant=_plant_course, find=lambda reader, key: reader.read(SERVICE, "get_course", course_id=key),
    where="Each academy course names its instructor and its start date.",
    alloc=lambda ctx: next_course_id(ctx.state(SERVICE)), entry=lambda key: f"academy course {key}")


def _scope(collection: str, rid: str, noun: str) -> list[OnlyChanged]:
    return [OnlyChanged(id="_", service=SERVICE, collection=collection, allow_ids=[rid],
                        description=f"No other {noun} was changed or created.")]


def _comment(reader: Reader, args: dict[str, Found]) -> Write:
    sid, mention, case = args["submission"].value, args["mention"], args["case"].value
    sub = _by_id(reader, sid)
    teacher = reader.read(SERVICE, "get_course", course_id=sub["course_id"])["instructor_email"]
    text = f"{case}: {mention.noun} is {mention.display}."
    return Write(
        calls=[call("add_submission_comment", assignment_id=sub["assignment_id"], user_email=sub["user_email"],
                    text_comment=text, author_email=teacher)],
        checks=[RecordMatches(id="_", service=SERVICE, collection="submissions", record_id=sid,
                              where={"comments": {"$any": {"author_email": {"$ieq": teacher}, "comment": {
                                  "$all": [{"$contains": case}, {"$contains": mention.display}]}}}},
                              description="The instructor's comment on the submission quotes the case and the value.")],
        scope=_scope("submissions", sid, "submission"), tool="add_submission_comment",
        where={"assignment_id": sub["assignment_id"], "user_email": sub["user_email"]},
        label="the instructor's comment on the submission")


def _excuse(reader: Reader, args: dict[str, Found]) -> Write:
    sid = args["submission"].value
    sub = _by_id(reader, sid)
    return Write(
        calls=[call("excuse_submission", assignment_id=sub["assignment_id"], user_email=sub["user_email"])],
        checks=[RecordMatches(id="_", service=SERVICE, collection="submissions", record_id=sid,
                              where={"excused": True, "score": None},
                              description="The student is excused from the case's assignment.")],
        scope=_scope("submissions", sid, "submission"), tool="excuse_submission",
        where={"assignment_id": sub["assignment_id"], "user_email": sub["user_email"]},
        label="the excused assignment")


def _withdraw(reader: Reader, args: dict[str, Found]) -> Write:
    eid = args["enrollment"].value
    reader.read(SERVICE, "get_enrollment", enrollment_id=eid)
    return Write(
        calls=[call("conclude_enrollment", enrollment_id=eid)],
        checks=[RecordMatches(id="_", service=SERVICE, collection="enrollments", record_id=eid,
                              where={"enrollment_state": "completed"},
                              description="The student's enrollment in the course is concluded.")],
        scope=_scope("enrollments", eid, "enrollment"), tool="conclude_enrollment", where={"enrollment_id": eid},
        label="the course withdrawal")


LINKS = ServiceLinks(
    service=SERVICE, label="the academy LMS",
    relays=(SUBMISSION, PENDING_SUBMISSION, ENROLLMENT, COURSE),
    actions=(
        Action(service=SERVICE, name="comment", needs=(Need("submission", "submission_id"),), build=_comment,
               goal="have the course instructor comment on the student's submission, quoting {mention}"),
        Action(service=SERVICE, name="excuse", needs=(Need("submission", "submission_id"),), build=_excuse,
               goal="excuse the student from the assignment of that submission"),
        Action(service=SERVICE, name="withdraw", needs=(Need("enrollment", "enrollment_id"),), build=_withdraw,
               goal="withdraw the student from the course by concluding their enrollment"),
    ),
)

__all__ = ["LINKS", "next_course_id", "next_submission_id", "plant_course", "plant_enrollment", "plant_submission"]
