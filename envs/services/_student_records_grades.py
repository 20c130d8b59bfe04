"""Stored-grade tools of the student_records service (PowerSchool ``storedgrades`` and transcripts).

A mixin of :class:`compoworld_gym.envs.services.student_records.StudentRecords`:
it uses the service's ``_student``, ``_section`` and ``_grade`` lookups.
"""

from __future__ import annotations

from typing import Optional

from pydantic import Field

from compoworld_gym.entities import Id
from compoworld_gym.envs.services._blocks import eq, select
from compoworld_gym.envs.services._student_records_models import StoreCode, StoredGrade
from compoworld_gym.envs.services._student_records_rules import gpa, letter_grade, storecodes_of
from compoworld_gym.errors import Conflict, Unprocessable
from compoworld_gym.service import tool


class GradesMixin:
    """Stored grades (list, store, change, comment) and transcripts with GPA; its methods become tools."""

    @tool(read_only=True, returns=list[StoredGrade])
    def list_stored_grades(self, student_id: Id("student"), storecode: Optional[StoreCode] = None) -> list[dict]:
        """A student's stored grades (percent, letter, GPA points, credits, teacher, comment).

        Args:
            student_id: the student.
            storecode: S1 or S2.
        """
        st = self._student(student_id)
        return [g.model_dump() for g in select(self.state.stored_grades.values(), eq("student_id", st.id),
                                               eq("storecode", storecode))]

    @tool(read_only=True, returns=StoredGrade)
    def get_stored_grade(self, grade_id: Id("grade")) -> dict:
        """Get one stored grade.

        Args:
            grade_id: the stored grade id, e.g. GRD-0012.
        """
        return self._grade(grade_id).model_dump()

    @tool(read_only=True)
    def get_transcript(self, student_id: Id("student")) -> dict:
        """The student's transcript: grades by store code with term GPA, cumulative GPA (4.0 scale) and credits.

        Args:
            student_id: the student.
        """
        st = self._student(student_id)
        grades = [g for g in self.state.stored_grades.values() if g.student_id == st.id]
        terms = [{"storecode": code, "gpa": gpa(g for g in grades if g.storecode == code),
                  "grades": [{k: getattr(g, k) for k in ("course_number", "course_name", "grade", "percent",
                                                         "gpa_points", "earned_crhrs")}
                             for g in grades if g.storecode == code]}
                 for code in ("S1", "S2") if any(g.storecode == code for g in grades)]
        return {"student_id": st.id, "student_number": st.student_number, "name": f"{st.first_name} {st.last_name}",
                "grade_level": st.grade_level, "terms": terms, "cumulative_gpa": gpa(grades),
                "credits_attempted": sum(g.potential_crhrs for g in grades),
                "credits_earned": sum(g.earned_crhrs for g in grades)}

    @tool(read_only=False, returns=StoredGrade)
    def store_grade(self, student_id: Id("student"), section_id: Id("course_section"), storecode: StoreCode,
                    percent: float = Field(ge=0, le=100), comment_value: str = Field(default="", max_length=300)) -> dict:
        """Store a student's term grade for a section they are enrolled in; the letter and GPA points follow
        the grading scale (credits: half the course's for a full-year section's semester).

        Args:
            student_id: the student.
            section_id: a section the student is enrolled in.
            storecode: S1 or S2, within the section's term and already started.
            percent: the percent score (0-100).
            comment_value: teacher comment.
        """
        st, sec = self._student(student_id), self._section(section_id)
        if not any(e.student_id == st.id and e.section_id == sec.id and e.status == "enrolled"
                   for e in self.state.enrollments.values()):
            raise Unprocessable(f"student {st.id} is not enrolled in section {sec.id}; no grade can be stored.")
        if storecode not in storecodes_of(sec.term_id):
            raise Unprocessable(f"section {sec.id} is a {sec.term_id} section; it takes {', '.join(storecodes_of(sec.term_id))}.")
        if self.state.terms[storecode].first_day > self.today:
            raise Unprocessable(f"{storecode} starts on {self.state.terms[storecode].first_day}.")
        dup = next((g for g in self.state.stored_grades.values() if g.student_id == st.id and g.section_id == sec.id
                    and g.storecode == storecode), None)
        if dup is not None:
            raise Conflict(f"{storecode} grade {dup.id} is already stored; change it with change_stored_grade.")
        course = self.state.courses[sec.course_number]
        credit = course.credit_hours / 2 if sec.term_id == "Y1" else course.credit_hours
        letter, pts = letter_grade(percent)
        g = StoredGrade(id=self.new_id("GRD"), student_id=st.id, section_id=sec.id, course_number=course.course_number,
                        course_name=course.course_name, storecode=storecode, percent=percent, grade=letter,
                        gpa_points=pts, potential_crhrs=credit, earned_crhrs=credit if pts > 0 else 0.0,
                        teacher_email=sec.teacher_email, datestored=self.today, comment_value=comment_value)
        self.state.stored_grades[g.id] = g
        return g.model_dump()

    @tool(read_only=False, returns=StoredGrade)
    def change_stored_grade(self, grade_id: Id("grade"), percent: float = Field(ge=0, le=100),
                            reason: str = Field(min_length=3, max_length=300)) -> dict:
        """Change a stored grade's percent (historical grade change): letter, points and credits follow; logged.

        Args:
            grade_id: the stored grade.
            percent: the corrected percent (0-100), different from the stored one.
            reason: why, kept in its change log.
        """
        g = self._grade(grade_id)
        if percent == g.percent:
            raise Conflict(f"grade {g.id} is already {percent}%.")
        letter, pts = letter_grade(percent)
        g.change_log.append(f"{self.today}: {g.percent}% {g.grade} -> {percent}% {letter} ({reason})")
        g.percent, g.grade, g.gpa_points = percent, letter, pts
        g.earned_crhrs = g.potential_crhrs if pts > 0 else 0.0
        return g.model_dump()

    @tool(read_only=False, returns=StoredGrade)
    def set_grade_comment(self, grade_id: Id("grade"), comment_value: str = Field(min_length=1, max_length=300)) -> dict:
        """Replace the teacher comment on a stored grade.

        Args:
            grade_id: the stored grade.
            comment_value: the comment.
        """
        g = self._grade(grade_id)
        g.comment_value = comment_value
        return g.model_dump()
