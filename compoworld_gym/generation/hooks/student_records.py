"""The school's SIS in chained tasks: a student record names a guardian's
email, the student's name and the day of their latest unexcused absence; a
guardian's enrolled child is found by the guardian's email (guardians are
the school's customers), with the homeroom teacher and that absence day,
and so is the child's failing semester grade with the teacher who stored
it; a section synced to an LMS course is found by the LMS course id, with
its teacher. Writes: excuse the latest unexcused absence, log a parent
contact, or comment on the failing grade (each quoting a discovered value)."""

from __future__ import annotations

import datetime as dt
from typing import Any, Optional

from compoworld_gym.checks import OnlyChanged, RecordMatches
from compoworld_gym.envs.services._common import email_for
from compoworld_gym.envs.services._company import DOMAIN
from compoworld_gym.envs.services._student_records_models import (
    Attendance, CcEnrollment, Section, StoredGrade, Student,
)
from compoworld_gym.envs.services._student_records_rules import letter_grade, school_days_before
from compoworld_gym.envs.services._student_records_seed import TEACHERS
from compoworld_gym.generation.context import Ctx, call
from compoworld_gym.generation.hooks.hr_directory import name_from_email
from compoworld_gym.generation.links import (
    Action, Found, Give, Need, Reader, Relay, ServiceLinks, SolveError, Write, next_id, pick,
)

SERVICE = "student_records"
#: The core-subject teachers (homerooms, and every student has a class with each) and their rooms.
_CORE = tuple(email_for(name, DOMAIN) for name, _ in TEACHERS[:4])
_ROOMS = dict(zip(_CORE, ("Room 201", "Room 114", "Lab 310", "Room 220")))
#: Core schedule by grade level (as the seed's), by teacher: section ids.
_SCHEDULE = {9: ("SEC-0001", "SEC-0003", "SEC-0005", "SEC-0007"), 10: ("SEC-0002", "SEC-0004", "SEC-0005", "SEC-0007"),
             11: ("SEC-0002", "SEC-0004", "SEC-0006", "SEC-0008"), 12: ("SEC-0002", "SEC-0004", "SEC-0006", "SEC-0008")}


def core_teacher(ctx: Ctx) -> str:
    """A core-subject teacher's work email (English, mathematics, science or history)."""
    return ctx.rng.choice(_CORE)


def absence_day(ctx: Ctx) -> str:
    """One of the last eight school days (ISO date)."""
    return ctx.rng.choice(school_days_before(ctx.today, 8)).isoformat()


def _lms_course_id(ctx: Ctx) -> str:
    """The next LMS course id (the LMS course is planted by its own hop); a local one without the LMS."""
    if "learning_management" in ctx.states:
        return next_id(ctx.state("learning_management"), "CRS")
    return ctx.new_id(SERVICE, "CRS")


def plant_student(ctx: Ctx, student_id: str, *, guardian: str, name: Optional[str] = None,
                  homeroom: Optional[str] = None, absence: Optional[str] = None, failing: Optional[str] = None,
                  graduated: bool = False) -> str:
    """Add a :class:`Student` (validated) with ``guardian`` as first contact.

    An enrolled student gets the core schedule of their grade, an unexcused
    absence on ``absence`` if given, and an S1 F stored by ``failing`` (a
    core teacher) if given; a ``graduated`` one left last June. Returns the id.
    """
    state = ctx.state(SERVICE)
    g_name = name_from_email(guardian)
    first, last = (name.split(" ", 1) if name and " " in name else (ctx.first_name(), g_name.split()[-1]))
    grade = ctx.rng.randint(9, 12) if not graduated else 12
    y1 = state["terms"]["Y1"]
    year0 = int(y1["first_day"][:4])
    homeroom = homeroom or core_teacher(ctx)
    st = Student.model_validate({
        "id": student_id, "student_number": f"{(year0 + 13 - grade) % 100:02d}{int(student_id[4:]):04d}",
        "first_name": first, "last_name": last, "grade_level": grade, "gender": ctx.rng.choice(("F", "M")),
        "dob": f"{year0 - grade - 5}-{ctx.rng.randint(1, 12):02d}-{ctx.rng.randint(1, 28):02d}",
        "enroll_status": "G" if graduated else "A", "entry_date": f"{year0 - (grade - 9) - graduated}-08-20",
        "exit_date": f"{year0}-06-06" if graduated else None, "home_room": _ROOMS[homeroom],
        "homeroom_teacher_email": homeroom,
        "contacts": [{"full_name": g_name, "relationship": ctx.rng.choice(("Mother", "Father", "Guardian")),
                      "email": guardian, "phone": ctx.fresh("phone")}]})
    state["students"][student_id] = st.model_dump(mode="json")
    sections = [] if graduated else list(_SCHEDULE[grade])
    for sec in sections:
        eid = next_id(state, "CC")
        state["enrollments"][eid] = CcEnrollment(id=eid, student_id=student_id, section_id=sec,
                                                 date_enrolled=y1["first_day"], date_left=y1["last_day"],
                                                 status="enrolled").model_dump(mode="json")
    if absence:
        aid = next_id(state, "ATT")
        state["attendance"][aid] = Attendance(id=aid, student_id=student_id, att_date=absence,
                                              attendance_code="A").model_dump(mode="json")
    if failing:
        taught = [s for s in (sections or _SCHEDULE[grade]) if state["sections"][s]["teacher_email"] == failing]
        _plant_grade(ctx, student_id, taught[0] if taught else _SCHEDULE[grade][1], 54.0 + ctx.rng.randint(0, 9))
    return student_id


def _plant_grade(ctx: Ctx, student_id: str, section_id: str, percent: float) -> str:
    state = ctx.state(SERVICE)
    sec = Section.model_validate(state["sections"][section_id])
    course = state["courses"][sec.course_number]
    letter, pts = letter_grade(percent)
    gid = next_id(state, "GRD")
    day = dt.date.fromisoformat(state["terms"]["S1"]["last_day"]) + dt.timedelta(days=1)
    state["stored_grades"][gid] = StoredGrade(
        id=gid, student_id=student_id, section_id=sec.id, course_number=sec.course_number,
        course_name=course["course_name"], storecode="S1", percent=percent, grade=letter, gpa_points=pts,
        potential_crhrs=course["credit_hours"] / 2, earned_crhrs=0.0 if pts == 0 else course["credit_hours"] / 2,
        teacher_email=sec.teacher_email, datestored=day, comment_value="").model_dump(mode="json")
    return gid


def _plant(ctx: Ctx, key: Any, outs: dict[str, Any], stale: bool, by: str) -> str:
    state = ctx.state(SERVICE)
    sid = key if by == "id" else next_id(state, "STU")
    guardian = (outs.get("email") or ctx.person()[1]) if by == "id" else str(key)
    teacher = outs.get("email") if by != "id" and outs.get("email") in _CORE else None
    plant_student(ctx, sid, guardian=guardian, name=outs.get("person_name"),
                  homeroom=teacher if by == "guardian" else None,
                  absence=None if stale else outs.get("date") or absence_day(ctx),
                  failing=(teacher or core_teacher(ctx)) if by == "grade" else None, graduated=stale)
    if by == "grade":  # the record the relay finds is the failing grade
        return max(g for g in state["stored_grades"] if state["stored_grades"][g]["student_id"] == sid)
    return sid


def _plant_section(ctx: Ctx, key: Any, outs: dict[str, Any], stale: bool) -> str:
    state = ctx.state(SERVICE)
    teacher = outs.get("email") or core_teacher(ctx)
    dept = {email_for(n, DOMAIN): d for n, d in TEACHERS}.get(teacher)
    course = next((c for c, rec in state["courses"].items() if rec["department"] == dept), "CSC2400")
    sid = next_id(state, "SEC")
    number = 1 + sum(s["course_number"] == course for s in state["sections"].values())
    state["sections"][sid] = Section(id=sid, course_number=course, section_number=str(number), term_id="S2", period=8,
                                     expression="8(A)", teacher_email=teacher, room="Online", max_enrollment=30,
                                     lms_course_id=str(key)).model_dump(mode="json")
    return sid


def _enrolled_child(reader: Reader, key: Any) -> dict[str, Any]:
    kid = pick(reader.read(SERVICE, "search_students", guardian_email=key, enroll_status="A"))
    return reader.read(SERVICE, "get_student", student_id=kid["id"])


def _failing_grade(reader: Reader, key: Any) -> dict[str, Any]:
    kid = pick(reader.read(SERVICE, "search_students", guardian_email=key, enroll_status="A"))
    return pick(reader.read(SERVICE, "list_stored_grades", student_id=kid["id"]), grade="F")


_ABSENCE = Give("date", "attendance_summary.last_unexcused_absence", "the day of the student's latest unexcused absence",
                "the absence day", draw=absence_day)
_GONE = "graduated or transferred out"

STUDENT = Relay(
    service=SERVICE, name="student record", key="student_id",
    gives=(Give("email", "contacts.0.email", "the guardian's email address", "the customer"),
           Give("person_name", "full_name", "the student's name", "the student"), _ABSENCE),
    plant=lambda ctx, key, outs, stale: _plant(ctx, key, outs, stale, "id"),
    find=lambda reader, key: reader.read(SERVICE, "get_student", student_id=key),
    where="Each student record in the SIS lists the guardians' emails and the student's attendance.",
    alloc=lambda ctx: next_id(ctx.state(SERVICE), "STU"), entry=lambda key: f"student record {key}")

GUARDIAN_STUDENT = Relay(
    service=SERVICE, name="guardian's enrolled student", key="email",
    gives=(Give("student_id", "id", "the guardian's enrolled child"),
           Give("email", "homeroom_teacher_email", "the homeroom teacher's email address", "the homeroom teacher",
                draw=core_teacher), _ABSENCE),
    plant=lambda ctx, key, outs, stale: _plant(ctx, key, outs, stale, "guardian"), find=_enrolled_child,
    where="The SIS finds students by their guardians' email addresses.",
    truth=f"A student who {_GONE} is no longer enrolled; only the guardian's enrolled child counts.")

GUARDIAN_GRADE = Relay(
    service=SERVICE, name="enrolled child's failing grade", key="email",
    gives=(Give("grade_id", "id", "the child's failing stored grade"),
           Give("email", "teacher_email", "the email address of the teacher who stored the grade", "the course teacher",
                draw=core_teacher)),
    plant=lambda ctx, key, outs, stale: _plant(ctx, key, outs, stale, "grade"), find=_failing_grade,
    where="The SIS finds students, and their stored semester grades, by their guardians' email addresses.",
    truth=f"Grades of a student who {_GONE} are history; only the enrolled child's grades count.")

LMS_SECTION = Relay(
    service=SERVICE, name="section synced to the LMS course", key="course_id",
    gives=(Give("course_section_id", "id", "the school section synced to the LMS course"),
           Give("email", "teacher_email", "the section teacher's email address", "the section teacher",
                draw=core_teacher)),
    plant=_plant_section,
    find=lambda reader, key: reader.read(SERVICE, "get_section", section_id=pick(
        reader.read(SERVICE, "list_sections", lms_course_id=key))["id"]),
    where="Each school section in the SIS names the LMS course it syncs to and its teacher.", alloc=_lms_course_id)


def _scope(collection: str, rid: str, noun: str) -> list[OnlyChanged]:
    return [OnlyChanged(id="_", service=SERVICE, collection=collection, allow_ids=[rid],
                        description=f"No other {noun} was changed or created.")]


def _quote(args: dict[str, Found]) -> tuple[str, dict[str, Any]]:
    mention, case = args["mention"], args["case"].value
    return f"{case}: {mention.noun} is {mention.display}.", {"$all": [{"$contains": case},
                                                                     {"$contains": mention.display}]}


def _prepare_excuse(ctx: Ctx, values: dict[str, Any]) -> None:
    """The student missed a recent school day without an excuse (recorded A)."""
    state, sid = ctx.state(SERVICE), values["student"]
    if sid in state["students"] and not any(a["student_id"] == sid and a["attendance_code"] == "A"
                                            for a in state["attendance"].values()):
        aid = next_id(state, "ATT")
        state["attendance"][aid] = Attendance(id=aid, student_id=sid, att_date=absence_day(ctx),
                                              attendance_code="A").model_dump(mode="json")


def _excuse(reader: Reader, args: dict[str, Found]) -> Write:
    sid = args["student"].value
    rows = reader.read(SERVICE, "list_attendance", student_id=sid, attendance_code="A")
    if not rows:
        raise SolveError(f"student {sid} has no unexcused absence")
    last = rows[-1]
    text, quoted = _quote(args)
    return Write(
        calls=[call("record_attendance", student_id=sid, att_date=last["att_date"], attendance_code="E",
                    att_comment=text)],
        checks=[RecordMatches(id="_", service=SERVICE, collection="attendance", record_id=last["id"],
                              where={"attendance_code": "E", "att_comment": quoted},
                              description="The student's latest unexcused absence is excused, the comment quoting "
                                          "the case and the value.")],
        scope=_scope("attendance", last["id"], "attendance record"), tool="record_attendance",
        where={"student_id": sid}, label="the excused absence")


def _log(reader: Reader, args: dict[str, Found]) -> Write:
    sid = args["student"].value
    teacher = reader.read(SERVICE, "get_student", student_id=sid)["homeroom_teacher_email"]
    text, quoted = _quote(args)
    return Write(
        calls=[call("add_log_entry", student_id=sid, author_email=teacher, subject=args["case"].value, entry=text,
                    logtype="Parent Contact")],
        checks=[RecordMatches(id="_", service=SERVICE, collection="students", record_id=sid,
                              where={"log_entries": {"$any": {"logtype": "Parent Contact", "entry": quoted}}},
                              description="A parent-contact log entry on the student quotes the case and the value.")],
        scope=_scope("students", sid, "student record"), tool="add_log_entry", where={"student_id": sid},
        label="the parent-contact log entry")


def _comment(reader: Reader, args: dict[str, Found]) -> Write:
    gid = args["grade"].value
    reader.read(SERVICE, "get_stored_grade", grade_id=gid)
    text, quoted = _quote(args)
    return Write(
        calls=[call("set_grade_comment", grade_id=gid, comment_value=text)],
        checks=[RecordMatches(id="_", service=SERVICE, collection="stored_grades", record_id=gid,
                              where={"comment_value": quoted},
                              description="The stored grade's comment quotes the case and the value.")],
        scope=_scope("stored_grades", gid, "stored grade"), tool="set_grade_comment", where={"grade_id": gid},
        label="the comment on the grade")


LINKS = ServiceLinks(
    service=SERVICE, label="the school's student information system",
    relays=(STUDENT, GUARDIAN_STUDENT, GUARDIAN_GRADE, LMS_SECTION),
    actions=(
        Action(service=SERVICE, name="excuse", needs=(Need("student", "student_id"),), build=_excuse,
               prepare=_prepare_excuse,
               goal="excuse the student's latest unexcused absence, the attendance comment quoting {mention}"),
        Action(service=SERVICE, name="log", needs=(Need("student", "student_id"),), build=_log,
               goal="log a parent contact on the student's record, written by the homeroom teacher, quoting {mention}"),
        Action(service=SERVICE, name="grade_comment", needs=(Need("grade", "grade_id"),), build=_comment,
               goal="put a teacher comment on the student's failing grade quoting {mention}"),
    ),
)

__all__ = ["LINKS", "absence_day", "core_teacher", "plant_student"]
