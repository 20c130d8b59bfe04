"""Records of the student_records service (PowerSchool SIS tables and API resources).

Field names follow PowerSchool: ``student_number``, ``grade_level``,
``enroll_status`` (A active, P pre-registered, I inactive, T transferred
out, G graduated), ``home_room``; the ``cc`` table's enrollments
(``dateenrolled``/``dateleft`` as ``date_enrolled``/``date_left``); daily
``attendance`` with ``att_date``, ``attendance_code`` and ``att_comment``;
``storedgrades`` with ``storecode``, ``grade``, ``percent``, ``gpa_points``,
``potential_crhrs``, ``earned_crhrs`` and ``comment_value``; sections with
``section_number``, ``expression`` (period) and ``max_enrollment``; terms by
abbreviation (Y1, S1, S2); ``log`` entries by ``logtype``.
"""

from __future__ import annotations

from typing import Literal, Optional

from pydantic import Field

from compoworld_gym.entities import Date, Email, Id, PersonName, Phone
from compoworld_gym.service import Record, ServiceState

EnrollStatus = Literal["A", "P", "I", "T", "G"]
AttendanceCode = Literal["A", "E", "T", "TE", "FT", "ISS"]
#: Attendance code -> (description, presence status).
ATTENDANCE_CODES: dict[str, tuple[str, str]] = {
    "A": ("Absent Unexcused", "Absent"), "E": ("Absent Excused", "Absent"), "T": ("Tardy", "Present"),
    "TE": ("Tardy Excused", "Present"), "FT": ("Field Trip", "Present"), "ISS": ("In-School Suspension", "Present")}
TermId = Literal["Y1", "S1", "S2"]
StoreCode = Literal["S1", "S2"]
LogType = Literal["Parent Contact", "Discipline", "Counseling", "General"]
Relationship = Literal["Mother", "Father", "Guardian", "Grandparent", "Stepparent"]


class Contact(Record):
    """A guardian or other contact of a student (PowerSchool contacts)."""

    full_name: PersonName = Field(description="Contact's name.")
    relationship: Relationship = Field(description="Relationship to the student.")
    email: Email = Field(description="Contact's email (also their parent-portal login).")
    phone: Phone = Field(description="Contact's phone.")
    has_data_access: bool = Field(default=True, description="May see the student's records in the portal.")
    receives_mail: bool = Field(default=True, description="Receives school mail.")


class LogEntry(Record):
    """A log entry on a student (PowerSchool ``log``)."""

    id: str = Field(description="Log entry id, e.g. LOG-0001.")
    logtype: LogType = Field(description="Parent Contact, Discipline, Counseling or General.")
    entry_date: Date = Field(description="Day written.")
    author_email: Email = Field(description="Staff member who wrote it.")
    subject: str = Field(description="Subject line.")
    entry: str = Field(description="Text.")


class Student(Record):
    """A student (PowerSchool ``students``)."""

    id: Id("student") = Field(description="Student id (DCID), e.g. STU-0001.")
    student_number: str = Field(description="Local student number, e.g. 290004.")
    first_name: PersonName = Field(description="First name.")
    last_name: PersonName = Field(description="Last name.")
    grade_level: int = Field(ge=9, le=12, description="Grade level (9-12).")
    gender: Literal["F", "M", "X"] = Field(description="Gender.")
    dob: Date = Field(description="Date of birth.")
    enroll_status: EnrollStatus = Field(description="A active, P pre-registered, I inactive, T transferred out, "
                                                    "G graduated.")
    entry_date: Date = Field(description="Day the current school enrollment began.")
    exit_date: Optional[Date] = Field(default=None, description="Day the student left (T or G).")
    home_room: str = Field(description="Homeroom, e.g. Room 201.")
    homeroom_teacher_email: Email = Field(description="Homeroom teacher's work email.")
    contacts: list[Contact] = Field(min_length=1, description="Guardians and contacts, priority order.")
    log_entries: list[LogEntry] = Field(default_factory=list, description="Log entries, oldest first.")


class Teacher(Record):
    """A teacher (PowerSchool ``teachers``/``users``): a school employee."""

    email: Email = Field(description="Work email.")
    first_name: PersonName = Field(description="First name.")
    last_name: PersonName = Field(description="Last name.")
    teacher_number: str = Field(description="Staff number.")
    department: str = Field(description="Department.")


class Course(Record):
    """A course of the catalog (PowerSchool ``courses``)."""

    course_number: str = Field(description="Course number, e.g. MAT1200.")
    course_name: str = Field(description="Course name.")
    credit_hours: float = Field(gt=0, description="Credits for the full course.")
    department: str = Field(description="Department.")


class Term(Record):
    """A term of the school year (PowerSchool ``terms``)."""

    id: TermId = Field(description="Term abbreviation: Y1 (full year), S1 or S2.")
    name: str = Field(description="Term name, e.g. Semester 1.")
    year_id: str = Field(description="School year, e.g. 2025-2026.")
    first_day: Date = Field(description="First day.")
    last_day: Date = Field(description="Last day.")


class NonSchoolDay(Record):
    """A weekday the school is closed (PowerSchool ``calendar_day`` with insession 0)."""

    date: Date = Field(description="The day.")
    description: str = Field(description="Why, e.g. Martin Luther King Jr. Day.")


class Section(Record):
    """A class section (PowerSchool ``sections``)."""

    id: Id("course_section") = Field(description="Section id, e.g. SEC-0001.")
    course_number: str = Field(description="The course.")
    section_number: str = Field(description="Section number within the course.")
    term_id: TermId = Field(description="Y1, S1 or S2.")
    period: int = Field(ge=1, le=8, description="Class period.")
    expression: str = Field(description="Period expression, e.g. 3(A).")
    teacher_email: Email = Field(description="The teacher.")
    room: str = Field(description="Room.")
    max_enrollment: int = Field(ge=1, description="Seats.")
    lms_course_id: Optional[Id("course")] = Field(default=None, description="The LMS course it syncs to.")


class CcEnrollment(Record):
    """A student's enrollment in a section (PowerSchool ``cc``)."""

    id: Id("enrollment") = Field(description="Enrollment id, e.g. CC-0001.")
    student_id: Id("student") = Field(description="The student.")
    section_id: Id("course_section") = Field(description="The section.")
    date_enrolled: Date = Field(description="First day in the section.")
    date_left: Date = Field(description="Last day: the term's last day, or the drop day.")
    status: Literal["enrolled", "dropped"] = Field(description="enrolled, or dropped before the term ended.")


class Attendance(Record):
    """A daily attendance record (PowerSchool ``attendance``, daily mode); no record means present."""

    id: str = Field(description="Record id, e.g. ATT-0001.")
    student_id: Id("student") = Field(description="The student.")
    att_date: Date = Field(description="The school day.")
    attendance_code: AttendanceCode = Field(description="A, E, T, TE, FT or ISS (see get_school_calendar).")
    att_comment: str = Field(default="", description="Comment, e.g. the parent's note.")


class StoredGrade(Record):
    """A final grade stored for a term (PowerSchool ``storedgrades``)."""

    id: Id("grade") = Field(description="Stored grade id, e.g. GRD-0001.")
    student_id: Id("student") = Field(description="The student.")
    section_id: Id("course_section") = Field(description="The section.")
    course_number: str = Field(description="The course.")
    course_name: str = Field(description="Course name.")
    storecode: StoreCode = Field(description="S1 or S2.")
    percent: float = Field(ge=0, le=100, description="Percent score.")
    grade: str = Field(description="Letter grade.")
    gpa_points: float = Field(ge=0, le=4, description="Points on the 4.0 scale.")
    potential_crhrs: float = Field(gt=0, description="Credits attempted.")
    earned_crhrs: float = Field(ge=0, description="Credits earned (0 for an F).")
    teacher_email: Email = Field(description="Teacher who stored it.")
    datestored: Date = Field(description="Day stored.")
    comment_value: str = Field(default="", description="Teacher comment.")
    change_log: list[str] = Field(default_factory=list, description="Historical grade changes, oldest first.")


class StudentRecordsState(ServiceState):
    """The school's SIS."""

    school_name: str = Field(default="Riverside High School", description="The school.")
    terms: dict[str, Term] = Field(default_factory=dict, description="Terms by abbreviation.")
    non_school_days: list[NonSchoolDay] = Field(default_factory=list, description="Closed weekdays, in order.")
    teachers: dict[str, Teacher] = Field(default_factory=dict, description="Teachers by email.")
    courses: dict[str, Course] = Field(default_factory=dict, description="Courses by number.")
    students: dict[str, Student] = Field(default_factory=dict, description="Students by id.")
    sections: dict[str, Section] = Field(default_factory=dict, description="Sections by id.")
    enrollments: dict[str, CcEnrollment] = Field(default_factory=dict, description="Enrollments (cc) by id.")
    attendance: dict[str, Attendance] = Field(default_factory=dict, description="Attendance records by id.")
    stored_grades: dict[str, StoredGrade] = Field(default_factory=dict, description="Stored grades by id.")
