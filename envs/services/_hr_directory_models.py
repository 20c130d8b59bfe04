"""State records of the hr_directory service: employees and departments.

Kept apart from the tools so that hooks and tests can build records without
importing the service, and so ``hr_directory.py`` holds only the tool surface.
"""

from __future__ import annotations

from typing import Literal, Optional

from pydantic import Field

from compoworld_gym.entities import City, Date, Email, Id, PersonName, Phone
from compoworld_gym.service import Record, ServiceState

EmployeeStatus = Literal["active", "on_leave", "terminated"]
EmploymentType = Literal["full_time", "part_time", "contractor"]


class Employee(Record):
    """One person in the directory."""

    id: Id("employee") = Field(description="Employee id, e.g. EMP-0001.")
    name: PersonName = Field(description="Full name.")
    email: Email = Field(description="Work email (unique).")
    phone: Optional[Phone] = Field(default=None, description="Work phone in E.164 form, e.g. +14155550101.")
    title: str = Field(description="Job title.")
    department: str = Field(description="Department name, e.g. 'Engineering'.")
    manager_email: Optional[Email] = Field(default=None, description="Direct manager's email; None at the top.")
    location: City = Field(description="Office city.")
    start_date: Date = Field(description="First working day.")
    employment_type: EmploymentType = Field(default="full_time", description="Contract kind.")
    status: EmployeeStatus = Field(default="active", description="Employment status.")
    end_date: Optional[Date] = Field(default=None, description="Last working day once terminated.")


class Department(Record):
    """A department and its head."""

    name: str = Field(description="Department name (the key).")
    head_email: Email = Field(description="Email of the department head.")
    cost_center: str = Field(description="Finance cost center code, e.g. CC-100.")


class HrDirectoryState(ServiceState):
    """Employees by id and departments by name."""

    employees: dict[str, Employee] = Field(default_factory=dict, description="Employees by id.")
    departments: dict[str, Department] = Field(default_factory=dict, description="Departments by name.")
