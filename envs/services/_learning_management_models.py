"""Records and state of the learning management service (Canvas LMS shapes; see ``learning_management.py``).

The records mirror Canvas resources: course (with its late policy),
enrollment, assignment with overrides, and submission with comments.
"""

from __future__ import annotations

from typing import Literal, Optional

from pydantic import Field

from compoworld_gym.entities import DateTime, Email, Id, PersonName, Url
from compoworld_gym.service import Record, ServiceState

CourseState = Literal["unpublished", "available", "completed"]
EnrollmentType = Literal["StudentEnrollment", "TeacherEnrollment", "TaEnrollment"]
EnrollmentState = Literal["active", "invited", "completed"]
SubmissionState = Literal["submitted", "graded"]
SubmissionType = Literal["online_text_entry", "online_url", "online_upload"]


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

