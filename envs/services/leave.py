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

from compoworld_gym.entities import Date, Email, Id, PersonName
from compoworld_gym.envs.services._workforce import Person, roster
from compoworld_gym.errors import Conflict, InvalidArgument, NotFound, Unprocessable
from compoworld_gym.service import Record, Service, ServiceState, tool

LeaveType = Literal["vacation", "sick", "personal", "unpaid"]
RequestStatus = Literal["pending", "approved", "denied", "cancelled"]
#: Yearly allowance in days; ``unpaid`` has no balance.
ALLOWANCE: dict[str, float] = {"vacation": 20.0, "sick": 10.0, "personal": 3.0}
TYPE_NOTES = {
    "vacation": "Paid vacation; book on or after today.",
    "sick": "Paid sick leave; may be backdated up to 30 days.",
    "personal": "Paid personal days; book on or after today.",
    "unpaid": "Unpaid leave; no balance, still needs approval.",
}
SICK_BACKDATE_DAYS = 30


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


def _nth_weekday(year: int, month: int, weekday: int, n: int) -> dt.date:
    first = dt.date(year, month, 1)
    if n > 0:
        return first + dt.timedelta(days=(weekday - first.weekday()) % 7 + 7 * (n - 1))
    nxt = dt.date(year + month // 12, month % 12 + 1, 1)
    last = nxt - dt.timedelta(days=1)
    return last - dt.timedelta(days=(last.weekday() - weekday) % 7)


def company_holidays(year: int) -> list[Holiday]:
    """The US company holidays of ``year`` (fixed dates are not shifted off weekends)."""
    thanks = _nth_weekday(year, 11, 3, 4)
    days = [
        (dt.date(year, 1, 1), "New Year's Day"), (_nth_weekday(year, 1, 0, 3), "Martin Luther King Jr. Day"),
        (_nth_weekday(year, 5, 0, -1), "Memorial Day"), (dt.date(year, 7, 4), "Independence Day"),
        (_nth_weekday(year, 9, 0, 1), "Labor Day"), (thanks, "Thanksgiving"),
        (thanks + dt.timedelta(days=1), "Day after Thanksgiving"), (dt.date(year, 12, 25), "Christmas Day"),
    ]
    return [Holiday(date=d, name=n) for d, n in days]


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
        # Offsets, not "d += 1 day while d <= end": that steps past date.max when end is 9999-12-31.
        return float(sum(1 for k in range((end - start).days + 1)
                         if (d := start + dt.timedelta(days=k)).weekday() < 5
                         and d.isoformat() not in self.state.holidays))

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
        return sum((r.days for r in self.state.requests.values() if r.employee_id == employee_id
                    and r.leave_type == leave_type and r.status == "pending" and r.id != exclude), 0.0)

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
        return cls._from_roster(roster(seed, today), random.Random(f"{cls.name}:{seed}"), today)

    @classmethod
    def build_seed_state(cls, fake: Faker, rng: random.Random, today: dt.date) -> LeaveState:
        return cls._from_roster(roster(rng.randrange(2**31), today), rng, today)

    @classmethod
    def _from_roster(cls, people: tuple[Person, ...], rng: random.Random, today: dt.date) -> LeaveState:
        svc = cls(LeaveState(), today=today)
        st = svc.state
        emails = {p.employee_id: p.email for p in people}
        for p in people:
            st.employees[p.employee_id] = LeaveEmployee(
                id=p.employee_id, name=p.name, email=p.email, department=p.department,
                manager_email=emails.get(p.manager_id or ""))
            for t, allowance in ALLOWANCE.items():
                st.balances[f"{p.employee_id}:{t}"] = Balance(
                    employee_id=p.employee_id, leave_type=t, available=allowance, used=0.0)
        for y in (today.year, today.year + 1):
            for h in company_holidays(y):
                st.holidays[h.date.isoformat()] = h
        # Requests: past approved, upcoming approved, pending, denied; balances follow.
        plan = [("approved", -20, "vacation"), ("approved", -6, "sick"), ("approved", 12, "vacation"),
                ("approved", 26, "personal"), ("pending", 8, "vacation"), ("pending", 15, "personal"),
                ("pending", 33, "vacation"), ("denied", 19, "vacation"), ("pending", 40, "unpaid")]
        staff = [p for p in people if p.manager_id]
        for n, (status, offset, ltype) in enumerate(plan, start=1):
            p = staff[rng.randrange(len(staff))] if n > 3 else staff[n * 4 % len(staff)]
            start = today + dt.timedelta(days=offset)
            while start.weekday() >= 5:
                start += dt.timedelta(days=1)
            end = start + dt.timedelta(days=rng.choice((0, 1, 2, 4)) if ltype != "sick" else 1)
            if any(r.employee_id == p.employee_id and r.start_date <= end and start <= r.end_date
                   for r in st.requests.values()):
                continue
            rid = f"LR-{n:04d}"
            days = svc._working_days(start, end)
            b = st.balances.get(f"{p.employee_id}:{ltype}")
            if b is not None and days > b.available - svc._pending_days(p.employee_id, ltype):
                end, days = start, svc._working_days(start, start)  # keep seeded balances non-negative
            if days == 0:
                continue  # a holiday-only span is no request at all
            st.requests[rid] = LeaveRequest(
                id=rid, employee_id=p.employee_id, employee_email=p.email, leave_type=ltype, start_date=start,
                end_date=end, days=days, status=status, requested_on=min(today, start) - dt.timedelta(days=7),
                reason={"vacation": "Family trip", "sick": "Flu", "personal": "Moving house",
                        "unpaid": "Extended travel"}[ltype],
                approver_email=emails.get(p.manager_id or "") if status in ("approved", "denied") else None,
                decision_note="Team coverage is too thin that week." if status == "denied" else "",
            )
            if status == "approved" and b is not None:
                b.available -= days
                b.used += days
        st.counters["LR"] = len(plan) + 1
        return st
