"""Leave: time-off requests, manager approval and balances.

No time-off server is in ``compoworld_gym/data/mcp_servers.jsonl``; the interface
is designed the way BambooHR's time-off API looks (time-off types, balances
in days, requests ``requested -> approved/denied/canceled``, a "who's out"
calendar, manual balance adjustments with a note). Rules: a request counts
working days (weekends and company holidays excluded); it may not overlap the
employee's other open requests (409); balances never go negative (409); only
the employee's manager approves or denies. People come from the shared
roster in ``_workforce`` (same ids as ``hr_directory`` and ``payroll``).
"""

from __future__ import annotations

import datetime as dt
import random
from typing import Literal, Optional

from faker import Faker
from pydantic import Field

from compoworld_gym.entities import Date, Email, Id
from compoworld_gym.envs.services._leave_models import (
    Adjustment, Balance, Holiday, LeaveEmployee, LeaveRequest, LeaveState, LeaveType, RequestStatus)
from compoworld_gym.envs.services._leave_rules import (
    ALLOWANCE, SICK_BACKDATE_DAYS, TYPE_NOTES, pending_days, working_days)
from compoworld_gym.envs.services._leave_seed import seed_leave
from compoworld_gym.envs.services._workforce import roster
from compoworld_gym.errors import Conflict, InvalidArgument, NotFound, Unprocessable
from compoworld_gym.service import Service, tool


class Leave(Service):
    """Time-off requests with manager approval, overlap checks and balances that cannot go negative."""

    name = "leave"
    description = "Employee leave: time-off balances, leave requests, manager approvals and who is out."
    domain = "hr"
    spec_source = None
    State = LeaveState

    # ---------------------------------------------------------------- helpers
    def _employee(self, employee_id: str) -> LeaveEmployee:
        return self.lookup(self.state.employees, employee_id, "employee")

    def _working_days(self, start: dt.date, end: dt.date) -> float:
        return working_days(start, end, self.state.holidays)

    def _check_window(self, start_date: dt.date, end_date: dt.date, max_days: int, what: str) -> None:
        """422 unless start_date <= end_date, the span is at most max_days and the
        holiday calendar covers end_date (beyond it working days cannot be counted)."""
        if end_date < start_date:
            raise Unprocessable(f"end_date {end_date} is before start_date {start_date}.")
        if (end_date - start_date).days > max_days:
            raise Unprocessable(what)
        last = max(self.state.holidays, default=None)
        if last is not None and end_date.year > int(last[:4]):
            raise Unprocessable(f"end_date {end_date} is beyond the company holiday calendar, which ends in "
                                f"{last[:4]}; leave can be counted and booked through {last[:4]}-12-31.")

    def _pending_days(self, employee_id: str, leave_type: str, exclude: str = "") -> float:
        return pending_days(self.state.requests, employee_id, leave_type, exclude)

    def _decidable(self, request_id: str, approver_email: str) -> LeaveRequest:
        r = self.lookup(self.state.requests, request_id, "leave_request")
        if r.status != "pending":
            raise Conflict(f"leave request {request_id} is {r.status}; only pending requests can be decided.")
        manager = self.state.employees[r.employee_id].manager_email if r.employee_id in self.state.employees else None
        if manager is None or manager.lower() != approver_email.lower():
            raise Conflict(f"only the employee's manager ({manager or 'none on file'}) can decide request "
                           f"{request_id}; {approver_email} is not.")
        return r

    # ------------------------------------------------------------------ reads
    @tool(read_only=True)
    def list_leave_types(self) -> list[dict]:
        """List leave types with their yearly allowance in days (None = no balance) and booking rules."""
        return [{"leave_type": t, "yearly_allowance_days": ALLOWANCE.get(t), "rules": TYPE_NOTES[t]}
                for t in ("vacation", "sick", "personal", "unpaid")]

    @tool(read_only=True, returns=list[Balance])
    def get_leave_balance(self, employee_id: Id("employee")) -> dict:
        """Get an employee's balances per leave type: available, used and pending days.

        Args:
            employee_id: the employee, e.g. EMP-0007.
        """
        e = self._employee(employee_id)
        out = []
        for t in ALLOWANCE:
            b = self.state.balances.get(f"{employee_id}:{t}")
            if b is not None:
                out.append({**b.model_dump(exclude={"adjustments"}), "pending": self._pending_days(employee_id, t)})
        return {"employee_id": e.id, "name": e.name, "email": e.email, "balances": out}

    @tool(read_only=True, returns=list[LeaveRequest])
    def list_leave_requests(
        self,
        employee_id: Optional[Id("employee")] = None,
        status: Optional[RequestStatus] = None,
        leave_type: Optional[LeaveType] = None,
        from_date: Optional[Date] = None,
        to_date: Optional[Date] = None,
        limit: int = Field(default=50, ge=1, le=200),
    ) -> list[dict]:
        """List leave requests, optionally by employee, status, type or date window.

        Args:
            employee_id: only this employee's requests.
            status: only requests with this status.
            leave_type: only this leave type.
            from_date: only requests ending on or after this date.
            to_date: only requests starting on or before this date.
            limit: maximum number of requests (1-200).
        """
        out = []
        for r in self.state.requests.values():
            if (employee_id and r.employee_id != employee_id) or (status and r.status != status):
                continue
            if (leave_type and r.leave_type != leave_type) or (from_date and r.end_date < from_date):
                continue
            if to_date and r.start_date > to_date:
                continue
            out.append(r.model_dump())
        return out[:limit]

    @tool(read_only=True, returns=LeaveRequest)
    def get_leave_request(self, request_id: Id("leave_request")) -> dict:
        """Get one leave request.

        Args:
            request_id: the request id, e.g. LR-0003.
        """
        return self.lookup(self.state.requests, request_id, "leave_request").model_dump()

    @tool(read_only=True, returns=list[LeaveRequest])
    def list_pending_approvals(self, approver_email: Email) -> list[dict]:
        """List pending requests waiting for this manager's decision.

        Args:
            approver_email: the manager's work email.
        """
        low = approver_email.lower()
        team = {e.id for e in self.state.employees.values() if (e.manager_email or "").lower() == low}
        return [r.model_dump() for r in self.state.requests.values() if r.status == "pending" and r.employee_id in team]

    @tool(read_only=True)
    def calculate_leave_days(self, start_date: Date, end_date: Date) -> dict:
        """Count the working days a leave from start_date to end_date (inclusive) would charge.

        Args:
            start_date: first day off (YYYY-MM-DD).
            end_date: last day off (YYYY-MM-DD).
        """
        self._check_window(start_date, end_date, 366, "a leave may span at most one year.")
        hol = [h.model_dump() for k, h in sorted(self.state.holidays.items())
               if start_date.isoformat() <= k <= end_date.isoformat()]
        return {"start_date": start_date, "end_date": end_date,
                "working_days": self._working_days(start_date, end_date), "holidays": hol}

    @tool(read_only=True, returns=list[Holiday])
    def list_holidays(self, year: int = Field(ge=2000, le=2100)) -> list[dict]:
        """List company holidays of a year (these days are never charged as leave).

        Args:
            year: calendar year, e.g. 2026.
        """
        return [h.model_dump() for k, h in sorted(self.state.holidays.items()) if h.date.year == year]

    @tool(read_only=True, returns=list[LeaveRequest])
    def who_is_out(self, start_date: Date, end_date: Date, department: Optional[str] = None) -> list[dict]:
        """List approved leave overlapping a date window, optionally for one department.

        Args:
            start_date: window start (YYYY-MM-DD).
            end_date: window end, inclusive (YYYY-MM-DD).
            department: only employees of this department, e.g. 'Support'.
        """
        if end_date < start_date:
            raise Unprocessable(f"end_date {end_date} is before start_date {start_date}.")
        out = []
        for r in self.state.requests.values():
            if r.status != "approved" or r.end_date < start_date or r.start_date > end_date:
                continue
            e = self.state.employees.get(r.employee_id)
            if department and (e is None or e.department.lower() != department.lower()):
                continue
            out.append({"request_id": r.id, "employee_id": r.employee_id, "name": e.name if e else "",
                        "email": r.employee_email, "leave_type": r.leave_type,
                        "start_date": r.start_date, "end_date": r.end_date})
        return out

    # ----------------------------------------------------------------- writes
    @tool(read_only=False, returns=LeaveRequest)
    def request_leave(
        self,
        employee_id: Id("employee"),
        leave_type: LeaveType,
        start_date: Date,
        end_date: Date,
        reason: str = Field(default="", max_length=500),
    ) -> dict:
        """Submit a leave request (status 'pending') for the employee's manager to decide.

        Args:
            employee_id: who takes leave.
            leave_type: vacation, sick, personal or unpaid.
            start_date: first day off (YYYY-MM-DD).
            end_date: last day off, inclusive (YYYY-MM-DD).
            reason: optional note for the manager.
        """
        e = self._employee(employee_id)
        self._check_window(start_date, end_date, 90, "one request may span at most 90 days; split longer leave.")
        earliest = self.today - dt.timedelta(days=SICK_BACKDATE_DAYS) if leave_type == "sick" else self.today
        if start_date < earliest:
            raise Unprocessable(f"{leave_type} leave cannot start before {earliest}.")
        days = self._working_days(start_date, end_date)
        if days == 0:
            raise Unprocessable(f"{start_date}..{end_date} holds no working days (weekends/holidays only).")
        for r in self.state.requests.values():
            if (r.employee_id == employee_id and r.status in ("pending", "approved")
                    and r.start_date <= end_date and start_date <= r.end_date):
                raise Conflict(f"overlaps {r.status} request {r.id} ({r.start_date}..{r.end_date}); "
                               "cancel it or choose other dates.")
        self._check_balance(employee_id, leave_type, days)
        r = LeaveRequest(
            id=self.new_id("LR"), employee_id=e.id, employee_email=e.email, leave_type=leave_type,
            start_date=start_date, end_date=end_date, days=days, status="pending", reason=reason,
            requested_on=self.today,
        )
        self.state.requests[r.id] = r
        return r.model_dump()

    def _check_balance(self, employee_id: str, leave_type: str, days: float, exclude: str = "") -> None:
        if leave_type not in ALLOWANCE:
            return
        b = self.state.balances.get(f"{employee_id}:{leave_type}")
        free = (b.available if b else 0.0) - self._pending_days(employee_id, leave_type, exclude)
        if days > free:
            raise Conflict(f"{leave_type} balance too low: {days:g} days needed, {free:g} free after pending "
                           "requests; use unpaid leave or fewer days.")

    @tool(read_only=False, returns=LeaveRequest)
    def approve_leave_request(
        self, request_id: Id("leave_request"), approver_email: Email, note: str = Field(default="", max_length=500)
    ) -> dict:
        """Approve a pending request; the days are deducted from the balance.

        Args:
            request_id: the request to approve.
            approver_email: the employee's manager's email (others get 409).
            note: optional note for the employee.
        """
        r = self._decidable(request_id, approver_email)
        self._check_balance(r.employee_id, r.leave_type, r.days, exclude=r.id)
        b = self.state.balances.get(f"{r.employee_id}:{r.leave_type}")
        if b is not None:
            b.available = round(b.available - r.days, 2)
            b.used = round(b.used + r.days, 2)
        r.status, r.approver_email, r.decision_note = "approved", approver_email, note
        return r.model_dump()

    @tool(read_only=False, returns=LeaveRequest)
    def deny_leave_request(
        self, request_id: Id("leave_request"), approver_email: Email, note: str = Field(min_length=1, max_length=500)
    ) -> dict:
        """Deny a pending request; a reason is required.

        Args:
            request_id: the request to deny.
            approver_email: the employee's manager's email (others get 409).
            note: why the request is denied.
        """
        r = self._decidable(request_id, approver_email)
        r.status, r.approver_email, r.decision_note = "denied", approver_email, note
        return r.model_dump()

    @tool(read_only=False, returns=LeaveRequest)
    def cancel_leave_request(self, request_id: Id("leave_request")) -> dict:
        """Cancel a pending request, or an approved one that has not started (days are refunded).

        Args:
            request_id: the request to cancel.
        """
        r = self.lookup(self.state.requests, request_id, "leave_request")
        if r.status not in ("pending", "approved"):
            raise Conflict(f"leave request {request_id} is already {r.status}.")
        if r.status == "approved":
            if r.start_date <= self.today:
                raise Conflict(f"leave {request_id} started on {r.start_date}; taken leave cannot be cancelled.")
            b = self.state.balances.get(f"{r.employee_id}:{r.leave_type}")
            if b is not None:
                b.available = round(b.available + r.days, 2)
                b.used = round(b.used - r.days, 2)
        r.status = "cancelled"
        return r.model_dump()

    @tool(read_only=False, returns=Balance)
    def adjust_leave_balance(
        self,
        employee_id: Id("employee"),
        leave_type: Literal["vacation", "sick", "personal"],
        days: float = Field(ge=-50, le=50),
        note: str = Field(min_length=5, max_length=500),
    ) -> dict:
        """Add or remove balance days by hand (e.g. carry-over); the result may not go negative.

        Args:
            employee_id: whose balance.
            leave_type: vacation, sick or personal.
            days: days to add (positive) or remove (negative), non-zero.
            note: audit note saying why.
        """
        self._employee(employee_id)
        if days == 0:
            raise InvalidArgument("days must be non-zero.")
        b = self.state.balances.get(f"{employee_id}:{leave_type}")
        if b is None:
            raise NotFound(f"{employee_id} has no {leave_type} balance.")
        if b.available + days < 0:
            raise Conflict(f"removing {-days:g} days would make the {leave_type} balance negative "
                           f"(available {b.available:g}).")
        b.available = round(b.available + days, 2)
        b.adjustments.append(Adjustment(days=days, note=note, on=self.today))
        return b.model_dump()

    # ------------------------------------------------------------------ seeds
    @classmethod
    def seed_state(cls, seed: int, today: dt.date) -> LeaveState:
        """Seeded state built on the shared roster (same people as hr_directory and payroll)."""
        return seed_leave(roster(seed, today), random.Random(f"{cls.name}:{seed}"), today)

    @classmethod
    def build_seed_state(cls, fake: Faker, rng: random.Random, today: dt.date) -> LeaveState:
        return seed_leave(roster(rng.randrange(2**31), today), rng, today)
