"""State records of the leave service: employees, balances, requests, holidays.

Kept apart from the tools so that hooks and tests can build records without
importing the service, and so ``leave.py`` holds only the tool surface.
"""

from __future__ import annotations

from typing import Literal, Optional

from pydantic import Field

from compoworld_gym.entities import Date, Email, Id, PersonName
from compoworld_gym.service import Record, ServiceState

LeaveType = Literal["vacation", "sick", "personal", "unpaid"]
RequestStatus = Literal["pending", "approved", "denied", "cancelled"]


class LeaveEmployee(Record):
    """An employee as the leave system knows them."""

    id: Id("employee") = Field(description="Employee id, e.g. EMP-0007.")
    name: PersonName = Field(description="Full name.")
    email: Email = Field(description="Work email.")
    department: str = Field(description="Department name.")
    manager_email: Optional[Email] = Field(default=None, description="Who approves their leave; None at the top.")


class Adjustment(Record):
    """A manual balance change, kept for audit."""

    days: float = Field(description="Days added (positive) or removed (negative).")
    note: str = Field(description="Why the balance was changed.")
    on: Date = Field(description="Date of the adjustment.")


class Balance(Record):
    """An employee's balance for one leave type, in working days."""

    employee_id: Id("employee") = Field(description="Whose balance.")
    leave_type: LeaveType = Field(description="Leave type.")
    available: float = Field(ge=0, description="Days left to book (approved leave already deducted).")
    used: float = Field(ge=0, description="Days taken or approved this year.")
    adjustments: list[Adjustment] = Field(default_factory=list, description="Manual changes, oldest first.")


class LeaveRequest(Record):
    """A request for time off."""

    id: Id("leave_request") = Field(description="Request id, e.g. LR-0001.")
    employee_id: Id("employee") = Field(description="Who asks for leave.")
    employee_email: Email = Field(description="Their work email.")
    leave_type: LeaveType = Field(description="Leave type.")
    start_date: Date = Field(description="First day off.")
    end_date: Date = Field(description="Last day off (inclusive).")
    days: float = Field(ge=0, description="Working days charged (weekends and holidays excluded).")
    status: RequestStatus = Field(description="Workflow status.")
    reason: str = Field(default="", description="Employee's note.")
    approver_email: Optional[Email] = Field(default=None, description="Manager who decided, once decided.")
    decision_note: str = Field(default="", description="Manager's note on approval or denial.")
    requested_on: Date = Field(description="Date the request was made.")


class Holiday(Record):
    """A company holiday (not charged as leave)."""

    date: Date = Field(description="The holiday.")
    name: str = Field(description="Holiday name.")


class LeaveState(ServiceState):
    """Employees, balances (key ``<employee_id>:<leave_type>``), requests and holidays."""

    employees: dict[str, LeaveEmployee] = Field(default_factory=dict, description="Employees by id.")
    balances: dict[str, Balance] = Field(default_factory=dict, description="Balances by '<employee_id>:<type>'.")
    requests: dict[str, LeaveRequest] = Field(default_factory=dict, description="Leave requests by id.")
    holidays: dict[str, Holiday] = Field(default_factory=dict, description="Company holidays by ISO date.")
