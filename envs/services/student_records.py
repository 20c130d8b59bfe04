"""Student records: a high school's SIS with schedules, attendance, stored grades and transcripts.

No SIS server is in ``compoworld_gym/data/mcp_servers.jsonl``
(``spec_source = None``); the interface follows the PowerSchool SIS API and
data model: ``students`` (``student_number``, ``grade_level``,
``enroll_status``, ``home_room``, contacts with emails), ``sections``
(course number, section number, term, ``expression`` period, teacher, room,
``max_enrollment``), ``cc`` enrollments, daily ``attendance`` with
attendance codes, ``storedgrades`` per store code (S1, S2) with ``percent``,
``grade`` and ``gpa_points`` on the 4.0 scale, transcripts with GPA, terms
and the school calendar, and student ``log`` entries. Field names are
PowerSchool's (snake_case where the API spells them so).

Rules: no enrollment past a section's ``max_enrollment``, in a period the
student already has in an overlapping term, twice in one course, or in a
term that ended; no stored grade for a student not enrolled in the section,
for a store code outside the section's term, or twice for one store code
(change it, with a reason); attendance only on school days (a weekday in a
semester, not a holiday), not ahead of today except excused absences and
field trips up to 14 days ahead; only active students get enrollments and
attendance. Left out: scheduling engines, fees, health and special
programs, which have no deterministic counterpart here.
"""

from __future__ import annotations

import datetime as dt
import random
from typing import Optional

from faker import Faker
from pydantic import Field

from compoworld_gym.entities import Date, Email, Id, PersonName
from compoworld_gym.envs.services._blocks import eq, ieq, select
from compoworld_gym.envs.services._student_records_grades import GradesMixin
from compoworld_gym.envs.services._student_records_models import (
    ATTENDANCE_CODES, Attendance, AttendanceCode, CcEnrollment, EnrollStatus, LogEntry, LogType, Section,
    StoredGrade, Student, StudentRecordsState, TermId,
)
from compoworld_gym.envs.services._student_records_rules import (
    ADVANCE_CODES, ADVANCE_DAYS, SCALE, school_day_problem, terms_overlap,
)
from compoworld_gym.envs.services._student_records_seed import build_state
from compoworld_gym.errors import Conflict, NotFound, Unprocessable
from compoworld_gym.service import Service, tool

_ACTIVE = ("A", "P")


class StudentRecords(GradesMixin, Service):
    """PowerSchool-style SIS: students, sections, enrollments, attendance, stored grades."""

    name = "student_records"
    description = ("School student information system: students and guardians, class sections and schedules, "
                   "daily attendance, stored term grades, GPA and transcripts.")
    domain = "education"
    spec_source = None
    State = StudentRecordsState

    # ---------------------------------------------------------------- helpers
    def _student(self, student_id: str) -> Student:
        return self.lookup(self.state.students, student_id, "student")

    def _section(self, section_id: str) -> Section:
        return self.lookup(self.state.sections, section_id, "section")

    def _grade(self, grade_id: str) -> StoredGrade:
        return self.lookup(self.state.stored_grades, grade_id, "stored grade")

    def _require_active(self, st: Student, action: str) -> None:
        if st.enroll_status not in _ACTIVE:
            raise Conflict(f"student {st.id} has enroll_status {st.enroll_status} (not active); no {action}.")

    def _enrolled(self, section_id: str, from_day: dt.date) -> list[CcEnrollment]:
        return [e for e in self.state.enrollments.values() if e.section_id == section_id and e.status == "enrolled"
                and e.date_left >= from_day]

    def _student_view(self, st: Student) -> dict:
        recs = sorted((a for a in self.state.attendance.values() if a.student_id == st.id), key=lambda a: a.att_date)
        unexcused = [a.att_date for a in recs if a.attendance_code == "A"]
        summary = {"unexcused_absences": len(unexcused),
                   "excused_absences": sum(a.attendance_code == "E" for a in recs),
                   "tardies": sum(a.attendance_code in ("T", "TE") for a in recs),
                   "last_unexcused_absence": unexcused[-1] if unexcused else None}
        return {**st.model_dump(), "lastfirst": f"{st.last_name}, {st.first_name}",
                "full_name": f"{st.first_name} {st.last_name}", "attendance_summary": summary}

    def _section_view(self, sec: Section) -> dict:
        course = self.state.courses[sec.course_number]
        n = len(self._enrolled(sec.id, max(self.today, self.state.terms[sec.term_id].first_day)))
        return {**sec.model_dump(), "course_name": course.course_name, "credit_hours": course.credit_hours,
                "enrolled": n, "seats_open": max(0, sec.max_enrollment - n)}

    # ------------------------------------------------------------------ reads
    @tool(read_only=True, returns=list[Student])
    def search_students(self, name: Optional[PersonName] = None, student_number: Optional[str] = None,
                        grade_level: Optional[int] = Field(default=None, ge=9, le=12),
                        guardian_email: Optional[Email] = None, enroll_status: Optional[EnrollStatus] = None,
                        limit: int = Field(default=50, ge=1, le=200)) -> list[dict]:
        """Find students by name, student number, grade level, a guardian's email or enroll status.

        Args:
            name: part of the first or last name (case-insensitive).
            student_number: the local student number.
            grade_level: 9-12.
            guardian_email: the email of one of the student's contacts (case-insensitive).
            enroll_status: A active, P pre-registered, I inactive, T transferred out, G graduated.
            limit: maximum number of students (1-200).
        """
        q, mail = (name or "").lower(), (guardian_email or "").lower()
        rows = select(self.state.students.values(), eq("student_number", student_number), eq("grade_level", grade_level),
                      eq("enroll_status", enroll_status),
                      None if name is None else (lambda s: q in f"{s.first_name} {s.last_name}".lower()),
                      None if guardian_email is None else (lambda s: any(c.email.lower() == mail for c in s.contacts)),
                      limit=limit)
        return [{"id": s.id, "student_number": s.student_number, "lastfirst": f"{s.last_name}, {s.first_name}",
                 "grade_level": s.grade_level, "enroll_status": s.enroll_status, "home_room": s.home_room}
                for s in rows]

    @tool(read_only=True, returns=Student)
    def get_student(self, student_id: Id("student")) -> dict:
        """Get a student with contacts (guardians), homeroom teacher, log entries and an attendance summary.

        Args:
            student_id: the student id, e.g. STU-0004.
        """
        return self._student_view(self._student(student_id))

    @tool(read_only=True, returns=list[CcEnrollment])
    def get_student_schedule(self, student_id: Id("student"), term_id: Optional[TermId] = None) -> list[dict]:
        """A student's enrollments with section, course, period, teacher and room, by period.

        Without ``term_id``: the classes the student is enrolled in today (or next, between terms).

        Args:
            student_id: the student.
            term_id: Y1, S1 or S2: every enrollment in sections of that term (dropped ones too).
        """
        st = self._student(student_id)
        mine = [e for e in self.state.enrollments.values() if e.student_id == st.id]
        if term_id is None:
            mine = [e for e in mine if e.status == "enrolled" and e.date_left >= self.today]
        else:
            mine = [e for e in mine if self.state.sections[e.section_id].term_id == term_id]
        rows = [{**e.model_dump(), **{k: v for k, v in self._section_view(self.state.sections[e.section_id]).items()
                                      if k in ("course_number", "course_name", "term_id", "period", "teacher_email",
                                               "room")}} for e in mine]
        return sorted(rows, key=lambda r: (r["period"], r["id"]))

    @tool(read_only=True, returns=list[Section])
    def list_sections(self, course_number: Optional[str] = None, term_id: Optional[TermId] = None,
                      teacher_email: Optional[Email] = None, period: Optional[int] = Field(default=None, ge=1, le=8),
                      lms_course_id: Optional[Id("course")] = None) -> list[dict]:
        """Sections with course name, enrolled count and open seats.

        Args:
            course_number: e.g. MAT1200.
            term_id: Y1, S1 or S2.
            teacher_email: the teacher's email.
            period: class period 1-8.
            lms_course_id: the LMS course a section syncs to.
        """
        rows = select(self.state.sections.values(), eq("course_number", course_number), eq("term_id", term_id),
                      ieq("teacher_email", teacher_email), eq("period", period), eq("lms_course_id", lms_course_id))
        return [self._section_view(s) for s in rows]

    @tool(read_only=True, returns=Section)
    def get_section(self, section_id: Id("course_section")) -> dict:
        """Get a section with its current roster (students enrolled now or from the term's start).

        Args:
            section_id: the section id, e.g. SEC-0003.
        """
        sec = self._section(section_id)
        view = self._section_view(sec)
        day = max(self.today, self.state.terms[sec.term_id].first_day)
        view["roster"] = [{"enrollment_id": e.id, "student_id": e.student_id,
                           "lastfirst": "{0.last_name}, {0.first_name}".format(self.state.students[e.student_id])}
                          for e in self._enrolled(sec.id, day)]
        return view

    @tool(read_only=True, returns=list[Attendance])
    def list_attendance(self, student_id: Id("student"), start_date: Optional[Date] = None,
                        end_date: Optional[Date] = None, attendance_code: Optional[AttendanceCode] = None) -> list[dict]:
        """A student's daily attendance records (no record means present), oldest first.

        Args:
            student_id: the student.
            start_date: first day (inclusive).
            end_date: last day (inclusive).
            attendance_code: only this code, e.g. A (absent unexcused).
        """
        st = self._student(student_id)
        rows = select(self.state.attendance.values(), eq("student_id", st.id), eq("attendance_code", attendance_code),
                      None if start_date is None else (lambda a: a.att_date >= start_date),
                      None if end_date is None else (lambda a: a.att_date <= end_date))
        return [{**a.model_dump(), "description": ATTENDANCE_CODES[a.attendance_code][0]}
                for a in sorted(rows, key=lambda a: (a.att_date, a.id))]

    @tool(read_only=True)
    def get_school_calendar(self) -> dict:
        """The school, its terms, the closed weekdays, the attendance codes and the grading scale."""
        return {"school_name": self.state.school_name, "terms": [t.model_dump() for t in self.state.terms.values()],
                "non_school_days": [d.model_dump() for d in self.state.non_school_days],
                "attendance_codes": [{"code": c, "description": d, "presence_status": p}
                                     for c, (d, p) in ATTENDANCE_CODES.items()],
                "grade_scale": [{"min_percent": low, "grade": g, "gpa_points": p} for low, g, p in SCALE]}

    # ---------------------------------------------------------------- writes
    @tool(read_only=False, returns=CcEnrollment)
    def enroll_student(self, student_id: Id("student"), section_id: Id("course_section")) -> dict:
        """Enroll an active student in a section from today (or its term's first day) to the term's end.

        Refused (409) when the term ended, the section is full, the student is
        already in the course, or has another class that period in an
        overlapping term.

        Args:
            student_id: the student.
            section_id: the section.
        """
        st, sec = self._student(student_id), self._section(section_id)
        self._require_active(st, "enrollment")
        term = self.state.terms[sec.term_id]
        if term.last_day < self.today:
            raise Conflict(f"term {term.id} ended on {term.last_day}; enroll in a current section.")
        start = max(self.today, term.first_day)
        current = [self.state.sections[e.section_id] for e in self.state.enrollments.values()
                   if e.student_id == st.id and e.status == "enrolled" and e.date_left >= start]
        same = next((o for o in current if o.course_number == sec.course_number), None)
        if same is not None:
            raise Conflict(f"student {st.id} is already in {same.course_number} (section {same.id}).")
        clash = next((o for o in current if o.period == sec.period
                      and terms_overlap(self.state.terms[o.term_id], term)), None)
        if clash is not None:
            raise Conflict(f"student {st.id} already has period {sec.period} ({clash.course_number}, section "
                           f"{clash.id}); pick a section in a free period.")
        taken = len(self._enrolled(sec.id, start))
        if taken >= sec.max_enrollment:
            raise Conflict(f"section {sec.id} is full ({taken} of {sec.max_enrollment} seats).")
        e = CcEnrollment(id=self.new_id("CC"), student_id=st.id, section_id=sec.id, date_enrolled=start,
                         date_left=term.last_day, status="enrolled")
        self.state.enrollments[e.id] = e
        return e.model_dump()

    @tool(read_only=False, returns=CcEnrollment)
    def drop_enrollment(self, enrollment_id: Id("enrollment")) -> dict:
        """Drop a student from a section today (the enrollment ends; its seat frees up).

        Args:
            enrollment_id: an enrollment still running, e.g. CC-0012.
        """
        e = self.lookup(self.state.enrollments, enrollment_id, "enrollment")
        if e.status != "enrolled" or e.date_left < self.today:
            raise Conflict(f"enrollment {e.id} already ended on {e.date_left}.")
        e.status, e.date_left = "dropped", max(self.today, e.date_enrolled)
        return e.model_dump()

    @tool(read_only=False, returns=Attendance)
    def record_attendance(self, student_id: Id("student"), att_date: Date, attendance_code: AttendanceCode,
                          att_comment: str = Field(default="", max_length=300)) -> dict:
        """Record (or replace) an active student's daily attendance code for a school day.

        Past school days and today take any code; excused absences (E) and
        field trips (FT) may also be entered up to 14 days ahead.

        Args:
            student_id: the student.
            att_date: the school day (YYYY-MM-DD).
            attendance_code: A, E, T, TE, FT or ISS (see get_school_calendar).
            att_comment: comment, e.g. the parent's note.
        """
        st = self._student(student_id)
        self._require_active(st, "attendance")
        problem = school_day_problem(att_date, self.state.terms.values(), self.state.non_school_days)
        if problem:
            raise Unprocessable(f"{att_date} {problem}; attendance is taken on school days only.")
        ahead = (att_date - self.today).days
        if ahead > 0 and (attendance_code not in ADVANCE_CODES or ahead > ADVANCE_DAYS):
            raise Unprocessable(f"{att_date} is ahead of today; only E or FT may be entered up to "
                                f"{ADVANCE_DAYS} days ahead.")
        rec = next((a for a in self.state.attendance.values() if a.student_id == st.id and a.att_date == att_date), None)
        previous = rec.attendance_code if rec else None
        if rec is None:
            rec = Attendance(id=self.new_id("ATT"), student_id=st.id, att_date=att_date, attendance_code=attendance_code)
            self.state.attendance[rec.id] = rec
        rec.attendance_code, rec.att_comment = attendance_code, att_comment
        return {**rec.model_dump(), "previous_code": previous}

    @tool(read_only=False, returns=LogEntry)
    def add_log_entry(self, student_id: Id("student"), author_email: Email, subject: str = Field(min_length=2,
                                                                                                max_length=120),
                      entry: str = Field(min_length=2, max_length=1000), logtype: LogType = "General") -> dict:
        """Add a log entry on a student, written by one of the school's teachers.

        Args:
            student_id: the student.
            author_email: the teacher writing it.
            subject: subject line.
            entry: the text.
            logtype: Parent Contact, Discipline, Counseling or General.
        """
        st = self._student(student_id)
        if author_email.lower() not in self.state.teachers:
            raise NotFound(f"{author_email} is not on the school staff; authors are "
                           f"{', '.join(sorted(self.state.teachers))}.")
        log = LogEntry(id=self.new_id("LOG"), logtype=logtype, entry_date=self.today, author_email=author_email.lower(),
                       subject=subject, entry=entry)
        st.log_entries.append(log)
        return {**log.model_dump(), "student_id": st.id}

    # ------------------------------------------------------------------ seeds
    @classmethod
    def build_seed_state(cls, fake: Faker, rng: random.Random, today: dt.date) -> StudentRecordsState:
        return build_state(fake, rng, today)
