"""Seed data of the student_records service: one high school's SIS.

Seven teachers (school employees at the company domain), ten courses,
fourteen sections (full-year and semester), fourteen students with their
guardians (two guardians are shared store customers, one with two
children), class schedules without period clashes, semester-1 stored
grades, recent daily attendance and a few log entries. Dates follow the
school calendar of ``_student_records_rules``.
"""

from __future__ import annotations

import datetime as dt
import random

from faker import Faker

from compoworld_gym.envs.services._commerce import CUSTOMERS_BY_EMAIL
from compoworld_gym.envs.services._common import email_for
from compoworld_gym.envs.services._company import DOMAIN
from compoworld_gym.envs.services._student_records_models import (
    Attendance, CcEnrollment, Contact, Course, LogEntry, Section, StoredGrade, Student, StudentRecordsState, Teacher,
)
from compoworld_gym.envs.services._student_records_rules import letter_grade, school_calendar, school_days_before

SCHOOL = "Riverside High School"
#: (name, department).
TEACHERS = (("Laura Bennett", "English"), ("Kevin Huang", "Mathematics"), ("Samantha Reyes", "Science"),
            ("Michael O'Brien", "Social Studies"), ("Natalie Brooks", "Fine Arts"),
            ("Omar Haddad", "Physical Education"), ("Grace Liu", "Computer Science"))
COURSES = (("ENG1010", "English 9", 1.0, "English"), ("ENG2010", "English 10", 1.0, "English"),
           ("MAT1200", "Algebra I", 1.0, "Mathematics"), ("MAT2200", "Geometry", 1.0, "Mathematics"),
           ("SCI1100", "Biology", 1.0, "Science"), ("SCI2100", "Chemistry", 1.0, "Science"),
           ("SOC1300", "World History", 1.0, "Social Studies"), ("ART1500", "Studio Art", 0.5, "Fine Arts"),
           ("PED1000", "Physical Education", 0.5, "Physical Education"),
           ("CSC2400", "Intro to Computer Science", 0.5, "Computer Science"))
#: Sections: (course, number, term, period, teacher index, room, seats).
SECTIONS = (("ENG1010", "1", "Y1", 1, 0, "Room 201", 28), ("ENG2010", "1", "Y1", 2, 0, "Room 201", 28),
            ("MAT1200", "1", "Y1", 2, 1, "Room 114", 28), ("MAT2200", "1", "Y1", 1, 1, "Room 114", 28),
            ("SCI1100", "1", "Y1", 3, 2, "Lab 310", 26), ("SCI2100", "1", "Y1", 4, 2, "Lab 310", 24),
            ("SOC1300", "1", "Y1", 4, 3, "Room 220", 30), ("SOC1300", "2", "Y1", 3, 3, "Room 220", 30),
            ("ART1500", "1", "S1", 5, 4, "Art Studio", 18), ("ART1500", "2", "S2", 5, 4, "Art Studio", 4),
            ("PED1000", "1", "S1", 6, 5, "Gym", 35), ("PED1000", "2", "S2", 6, 5, "Gym", 35),
            ("CSC2400", "1", "S2", 7, 6, "Lab 105", 20), ("CSC2400", "2", "S1", 7, 6, "Lab 105", 20))
#: Core schedule by grade band: section ids (English, math, science, history).
_CORE = {9: ("SEC-0001", "SEC-0003", "SEC-0005", "SEC-0007"), 10: ("SEC-0002", "SEC-0004", "SEC-0005", "SEC-0007"),
         11: ("SEC-0002", "SEC-0004", "SEC-0006", "SEC-0008"), 12: ("SEC-0002", "SEC-0004", "SEC-0006", "SEC-0008")}
#: Students: (grade, status, guardian (shared customer email or None), S1 elective, S2 elective).
_STUDENTS = ((9, "A", "noah.thompson@outlook.com", "SEC-0009", "SEC-0010"), (10, "A", "emma.wilson@yahoo.com",
                                                                             "SEC-0011", "SEC-0010"),
             (12, "G", "emma.wilson@yahoo.com", None, None), (9, "A", None, "SEC-0014", "SEC-0013"),
             (10, "A", None, "SEC-0009", "SEC-0012"), (11, "A", None, "SEC-0011", "SEC-0010"),
             (11, "A", None, "SEC-0014", "SEC-0013"), (12, "A", None, "SEC-0009", "SEC-0010"),
             (9, "A", None, "SEC-0011", "SEC-0012"), (10, "T", None, "SEC-0014", None),
             (12, "A", None, "SEC-0011", "SEC-0013"), (11, "A", None, "SEC-0009", "SEC-0012"),
             (9, "A", None, "SEC-0014", "SEC-0012"), (10, "A", None, "SEC-0011", "SEC-0013"))
#: Attendance: (student n, school days ago, code, comment).
_ATTENDANCE = ((1, 1, "A", ""), (1, 6, "T", "Bus late"), (2, 2, "E", "Dentist appointment, note from mother"),
               (4, 1, "T", ""), (4, 3, "A", ""), (4, 8, "A", ""), (5, 4, "E", "Family emergency"),
               (6, 2, "ISS", "Referral 1187"), (7, 5, "FT", "Science Olympiad"), (8, 1, "A", ""),
               (9, 3, "TE", "Doctor's note"), (11, 7, "E", "College visit"), (12, 2, "A", ""), (13, 1, "T", ""),
               (14, 9, "A", ""), (2, 9, "A", ""))


#: Homeroom of each of the first four teachers (their classrooms).
_HOMEROOMS = ("Room 201", "Room 114", "Lab 310", "Room 220")


def _teacher_email(name: str) -> str:
    return email_for(name, DOMAIN)


def _student(n: int, row: tuple, fake: Faker, rng: random.Random, today: dt.date, year0: int) -> Student:
    grade, status, shared, _, _ = row
    guardian = CUSTOMERS_BY_EMAIL.get(shared) if shared else None
    last = guardian.name.split()[-1] if guardian else fake.last_name()
    g_name = guardian.name if guardian else f"{fake.first_name()} {last}"
    g_email = guardian.email if guardian else email_for(g_name, fake.free_email_domain())
    contacts = [Contact(full_name=g_name, relationship=rng.choice(("Mother", "Father", "Guardian")), email=g_email,
                        phone=f"+1-{rng.randint(201, 989)}-555-{rng.randint(1000, 9999)}")]
    if n % 3 == 0:
        other = f"{fake.first_name()} {last}"
        contacts.append(Contact(full_name=other, relationship="Stepparent" if n % 2 else "Father",
                                email=email_for(other, fake.free_email_domain()),
                                phone=f"+1-{rng.randint(201, 989)}-555-{rng.randint(1000, 9999)}",
                                has_data_access=n % 2 == 0))
    grad_year = year0 + 13 - grade
    homeroom = TEACHERS[n % 4]
    entry = dt.date(year0 - (grade - 9), 8, 20)
    return Student(id=f"STU-{n:04d}", student_number=f"{grad_year % 100:02d}{n:04d}", first_name=fake.first_name(),
                   last_name=last, grade_level=grade, gender=rng.choice(("F", "M")),
                   dob=dt.date(year0 - grade - 5, rng.randint(1, 12), rng.randint(1, 28)), enroll_status=status,
                   entry_date=entry, exit_date={"G": dt.date(year0, 6, 6), "T": today - dt.timedelta(days=52)}.get(status),
                   home_room=_HOMEROOMS[n % 4], homeroom_teacher_email=_teacher_email(homeroom[0]), contacts=contacts)


def _grade(state: StudentRecordsState, st: Student, sec: Section, pct: float, day: dt.date) -> None:
    course = state.courses[sec.course_number]
    credit = course.credit_hours / 2 if sec.term_id == "Y1" else course.credit_hours
    letter, pts = letter_grade(pct)
    gid = f"GRD-{len(state.stored_grades) + 1:04d}"
    state.stored_grades[gid] = StoredGrade(
        id=gid, student_id=st.id, section_id=sec.id, course_number=course.course_number,
        course_name=course.course_name, storecode="S1", percent=pct, grade=letter, gpa_points=pts,
        potential_crhrs=credit, earned_crhrs=credit if pts > 0 else 0.0, teacher_email=sec.teacher_email,
        datestored=day, comment_value="Missing major assignments." if pts == 0 else "")


def build_state(fake: Faker, rng: random.Random, today: dt.date) -> StudentRecordsState:
    """The seeded school: calendar, staff, catalog, sections, students, schedules, grades, attendance, logs."""
    terms, closed = school_calendar(today)
    state = StudentRecordsState(school_name=SCHOOL, terms={t.id: t for t in terms}, non_school_days=closed)
    year0 = terms[0].first_day.year
    for k, (name, dept) in enumerate(TEACHERS, start=1):
        first, last = name.split(" ", 1)
        state.teachers[_teacher_email(name)] = Teacher(email=_teacher_email(name), first_name=first, last_name=last,
                                                       teacher_number=f"T{100 + k}", department=dept)
    for number, cname, credits, dept in COURSES:
        state.courses[number] = Course(course_number=number, course_name=cname, credit_hours=credits, department=dept)
    for k, (course, num, term, period, teacher, room, seats) in enumerate(SECTIONS, start=1):
        sid = f"SEC-{k:04d}"
        state.sections[sid] = Section(id=sid, course_number=course, section_number=num, term_id=term, period=period,
                                      expression=f"{period}(A)", teacher_email=_teacher_email(TEACHERS[teacher][0]),
                                      room=room, max_enrollment=seats)
    stored = state.terms["S1"].last_day + dt.timedelta(days=1)
    for n, row in enumerate(_STUDENTS, start=1):
        st = _student(n, row, fake, rng, today, year0)
        state.students[st.id] = st
        if st.enroll_status == "G":
            continue
        plan = [*_CORE[st.grade_level], *(s for s in row[3:] if s)]
        for sec_id in plan:
            sec, term = state.sections[sec_id], state.terms[state.sections[sec_id].term_id]
            left = st.exit_date if st.enroll_status == "T" else term.last_day
            if left < term.first_day:
                continue
            eid = f"CC-{len(state.enrollments) + 1:04d}"
            state.enrollments[eid] = CcEnrollment(id=eid, student_id=st.id, section_id=sec_id,
                                                  date_enrolled=term.first_day, date_left=min(left, term.last_day),
                                                  status="dropped" if st.enroll_status == "T" else "enrolled")
            if sec.term_id in ("Y1", "S1") and stored <= today and st.enroll_status == "A":
                pct = 58.0 if (n, sec_id) == (4, "SEC-0003") else float(rng.randint(68, 99))
                _grade(state, st, sec, pct, stored)
    days = school_days_before(today, 12)
    for n, ago, code, comment in _ATTENDANCE:
        aid = f"ATT-{len(state.attendance) + 1:04d}"
        state.attendance[aid] = Attendance(id=aid, student_id=f"STU-{n:04d}", att_date=days[ago - 1],
                                           attendance_code=code, att_comment=comment)
    counselor = _teacher_email(TEACHERS[3][0])
    for n, subject, text in ((4, "Algebra I failing", "Called mother about the S1 F in Algebra I; tutoring offered."),
                             (6, "In-school suspension", "Phone use during a test; one day ISS.")):
        st = state.students[f"STU-{n:04d}"]
        st.log_entries.append(LogEntry(id=f"LOG-{n:04d}", logtype="Parent Contact" if n == 4 else "Discipline",
                                       entry_date=days[3], author_email=counselor, subject=subject, entry=text))
    state.counters.update(STU=len(state.students) + 1, SEC=len(state.sections) + 1, CC=len(state.enrollments) + 1,
                          ATT=len(state.attendance) + 1, GRD=len(state.stored_grades) + 1, LOG=len(state.students) + 1)
    return state
