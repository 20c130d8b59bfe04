"""HR directory: the company's employees and its org chart.

No HR directory server is in ``compoworld_gym/data/mcp_servers.jsonl``; the
interface is designed the way BambooHR's employee directory API looks
(employees with work email, phone, job title, department, supervisor,
location, hire date and status; reporting lines queried as an org chart).
People come from the shared roster in ``_workforce``, so the same seed gives
the same employees as the ``leave`` and ``payroll`` services.
"""

from __future__ import annotations

import datetime as dt
import random
from typing import Iterator, Literal, Optional

from faker import Faker
from pydantic import Field

from compoworld_gym.entities import City, Date, Email, Id, PersonName, Phone
from compoworld_gym.envs.services._hr_directory_models import (
    Department, Employee, EmployeeStatus, EmploymentType, HrDirectoryState)
from compoworld_gym.envs.services._hr_directory_seed import seed_directory
from compoworld_gym.envs.services._workforce import roster
from compoworld_gym.errors import Conflict, InvalidArgument, NotFound, Unprocessable
from compoworld_gym.service import Service, tool


class HrDirectory(Service):
    """Employee directory and org chart: look people up, follow reporting lines, hire and update."""

    name = "hr_directory"
    description = "Company employee directory: people, titles, departments, managers, locations and the org chart."
    domain = "hr"
    spec_source = None
    State = HrDirectoryState

    # ---------------------------------------------------------------- helpers
    def _by_email(self, email: str) -> Optional[Employee]:
        low = email.lower()
        for e in self.state.employees.values():
            if e.email.lower() == low:
                return e
        return None

    def _manager_of(self, e: Employee) -> Optional[Employee]:
        return self._by_email(e.manager_email) if e.manager_email else None

    def _managers_above(self, e: Employee) -> Iterator[Employee]:
        """``e``'s managers from the direct one up to the top, each once.

        The tools never make a reporting cycle, but a task's initial state is
        data and may hold one; a walk that met it would never end.

        Raises:
            Conflict: the chain above ``e`` loops back on itself.
        """
        seen = {e.id}
        m = self._manager_of(e)
        while m is not None:
            if m.id in seen:
                raise Conflict(f"the reporting chain above {e.name} ({e.id}) loops back to {m.name} ({m.id}); "
                               "give one of the people in the loop another manager with update_employee.")
            seen.add(m.id)
            yield m
            m = self._manager_of(m)

    def _is_under(self, e: Employee, boss: Employee) -> bool:
        """Whether ``boss`` is ``e`` or one of ``e``'s managers, at any level (raises Conflict on a loop)."""
        return e.id == boss.id or any(m.id == boss.id for m in self._managers_above(e))

    def _reports(self, e: Employee) -> list[Employee]:
        low = e.email.lower()
        return [r for r in self.state.employees.values()
                if r.status != "terminated" and (r.manager_email or "").lower() == low]

    def _active_manager(self, email: str) -> Employee:
        m = self._by_email(email)
        if m is None:
            raise NotFound(f"no employee has email {email!r}; use search_employees to find the manager.")
        if m.status == "terminated":
            raise Conflict(f"{m.name} ({email}) is terminated and cannot manage anyone.")
        return m

    # ------------------------------------------------------------------ reads
    @tool(read_only=True, returns=list[Employee])
    def search_employees(
        self,
        query: Optional[str] = None,
        department: Optional[str] = None,
        location: Optional[City] = None,
        title: Optional[str] = None,
        status: Optional[EmployeeStatus] = None,
        limit: int = Field(default=50, ge=1, le=200),
    ) -> list[dict]:
        """Search employees by name/email text, department, office, title or status.

        Args:
            query: case-insensitive text found in the name or email.
            department: exact department name, e.g. 'Sales'.
            location: office city, e.g. 'Austin'.
            title: case-insensitive text found in the job title.
            status: only employees with this status.
            limit: maximum number of employees to return (1-200).
        """
        q = query.lower() if query else None
        t = title.lower() if title else None
        out = []
        for e in self.state.employees.values():
            if q and q not in e.name.lower() and q not in e.email.lower():
                continue
            if department and e.department.lower() != department.lower():
                continue
            if location and e.location.lower() != location.lower():
                continue
            if t and t not in e.title.lower():
                continue
            if status and e.status != status:
                continue
            out.append(e.model_dump())
        return out[:limit]

    @tool(read_only=True, returns=Employee)
    def get_employee(self, employee_id: Id("employee")) -> dict:
        """Get one employee's full directory record.

        Args:
            employee_id: the employee id, e.g. EMP-0004.
        """
        return self.lookup(self.state.employees, employee_id, "employee").model_dump()

    @tool(read_only=True, returns=Employee)
    def get_employee_by_email(self, email: Email) -> dict:
        """Find the employee who has this work email.

        Args:
            email: work email address (case-insensitive).
        """
        e = self._by_email(email)
        if e is None:
            raise NotFound(f"no employee has email {email!r}; use search_employees with a name instead.")
        return e.model_dump()

    @tool(read_only=True, returns=list[Department])
    def list_departments(self) -> list[dict]:
        """List departments with their head, cost center and active headcount."""
        counts: dict[str, int] = {}
        for e in self.state.employees.values():
            if e.status != "terminated":
                counts[e.department] = counts.get(e.department, 0) + 1
        return [{**d.model_dump(), "headcount": counts.get(d.name, 0)} for d in self.state.departments.values()]

    @tool(read_only=True, returns=Employee)
    def get_manager(self, employee_id: Id("employee")) -> dict:
        """Get the direct manager of an employee.

        Args:
            employee_id: whose manager to return.
        """
        e = self.lookup(self.state.employees, employee_id, "employee")
        m = self._manager_of(e)
        if m is None:
            raise NotFound(f"{e.name} ({employee_id}) has no manager: they are at the top of the org chart.")
        return m.model_dump()

    @tool(read_only=True, returns=list[Employee])
    def list_direct_reports(self, employee_id: Id("employee")) -> list[dict]:
        """List the people who report directly to an employee (terminated staff excluded).

        Args:
            employee_id: the manager's employee id.
        """
        e = self.lookup(self.state.employees, employee_id, "employee")
        return [r.model_dump() for r in self._reports(e)]

    @tool(read_only=True, returns=list[Employee])
    def get_reporting_chain(self, employee_id: Id("employee")) -> list[dict]:
        """List an employee's managers from the direct manager up to the top of the company.

        Args:
            employee_id: whose chain of command to return.
        """
        e = self.lookup(self.state.employees, employee_id, "employee")
        return [{"id": m.id, "name": m.name, "email": m.email, "title": m.title} for m in self._managers_above(e)]

    @tool(read_only=True, returns=Employee)
    def get_org_chart(
        self,
        root_employee_id: Optional[Id("employee")] = None,
        depth: int = Field(default=3, ge=1, le=10),
    ) -> dict:
        """Get the org chart below an employee as a nested tree of reports.

        Args:
            root_employee_id: top of the tree; defaults to the person with no manager.
            depth: how many levels of reports to include below the root (1-10).
        """
        if root_employee_id is None:
            tops = [e for e in self.state.employees.values() if e.manager_email is None and e.status != "terminated"]
            if not tops:
                raise NotFound("no active employee is without a manager, so the chart has no top; "
                               "pass root_employee_id.")
            root = tops[0]
        else:
            root = self.lookup(self.state.employees, root_employee_id, "employee")

        def node(e: Employee, level: int) -> dict:
            out = {"id": e.id, "name": e.name, "email": e.email, "title": e.title, "department": e.department}
            if level < depth:
                out["reports"] = [node(r, level + 1) for r in self._reports(e)]
            return out

        return node(root, 0)

    @tool(read_only=True, returns=Employee)
    def find_common_manager(self, employee_id_a: Id("employee"), employee_id_b: Id("employee")) -> dict:
        """Find the lowest manager both employees report up to (e.g. who must approve a cross-team move).

        Args:
            employee_id_a: first employee.
            employee_id_b: second employee.
        """
        a = self.lookup(self.state.employees, employee_id_a, "employee")
        b = self.lookup(self.state.employees, employee_id_b, "employee")
        above_a = {m.id for m in self._managers_above(a)}
        for m in self._managers_above(b):
            if m.id in above_a:
                return m.model_dump()
        raise NotFound(f"{a.name} and {b.name} share no manager (one of them is at the top of the chart).")

    # ----------------------------------------------------------------- writes
    @tool(read_only=False, returns=Employee)
    def create_employee(
        self,
        name: PersonName = Field(min_length=1, max_length=100),
        email: Email = Field(min_length=3),
        title: str = Field(min_length=1, max_length=100),
        department: str = Field(min_length=1),
        manager_email: Email = Field(min_length=3),
        location: City = Field(min_length=1),
        start_date: Date = Field(),
        phone: Optional[Phone] = None,
        employment_type: EmploymentType = "full_time",
    ) -> dict:
        """Add a new hire to the directory.

        Args:
            name: full name.
            email: work email; must not be used by anyone else (409).
            title: job title.
            department: an existing department (see list_departments).
            manager_email: email of the new hire's manager (an active employee).
            location: office city.
            start_date: first working day (YYYY-MM-DD).
            phone: work phone in E.164 form, e.g. +15125550150.
            employment_type: full_time, part_time or contractor.
        """
        if self._by_email(email) is not None:
            raise Conflict(f"email {email!r} already belongs to an employee; choose another address.")
        dept = self._department(department)
        self._active_manager(manager_email)
        e = Employee(
            id=self.new_id("EMP"), name=name, email=email, phone=phone, title=title, department=dept,
            manager_email=manager_email, location=location, start_date=start_date, employment_type=employment_type,
        )
        self.state.employees[e.id] = e
        return e.model_dump()

    def _department(self, name: str) -> str:
        for d in self.state.departments:
            if d.lower() == name.lower():
                return d
        raise InvalidArgument(f"department {name!r} does not exist; valid: {', '.join(self.state.departments)}.")

    @tool(read_only=False, returns=Employee)
    def update_employee(
        self,
        employee_id: Id("employee"),
        title: Optional[str] = Field(default=None, min_length=1, max_length=100),
        department: Optional[str] = None,
        manager_email: Optional[Email] = None,
        location: Optional[City] = None,
        phone: Optional[Phone] = None,
        status: Optional[Literal["active", "on_leave"]] = None,
    ) -> dict:
        """Change an employee's title, department, manager, office, phone or leave status.

        A manager change that would make someone manage themselves, directly
        or through a chain, is refused (409).

        Args:
            employee_id: the employee to change.
            title: new job title.
            department: new department (must exist).
            manager_email: new manager's email (an active employee).
            location: new office city.
            phone: new work phone, E.164.
            status: 'active' or 'on_leave' (use terminate_employee to end employment).
        """
        e = self.lookup(self.state.employees, employee_id, "employee")
        if e.status == "terminated":
            raise Conflict(f"{e.name} ({employee_id}) is terminated; their record is read-only.")
        if all(v is None for v in (title, department, manager_email, location, phone, status)):
            raise InvalidArgument("nothing to update: give at least one of title, department, "
                                  "manager_email, location, phone, status.")
        dept = self._department(department) if department is not None else None
        if manager_email is not None:
            m = self._active_manager(manager_email)
            if self._is_under(m, e):
                who = "themselves" if m.id == e.id else f"{m.name}, who reports (directly or indirectly) to them"
                raise Conflict(f"{e.name} ({employee_id}) cannot be managed by {who}: that manager change "
                               "would create a reporting cycle.")
            e.manager_email = m.email
        for attr, value in (("title", title), ("department", dept), ("location", location),
                            ("phone", phone), ("status", status)):
            if value is not None:
                setattr(e, attr, value)
        return e.model_dump()

    @tool(read_only=False, destructive=True, returns=Employee)
    def terminate_employee(
        self,
        employee_id: Id("employee"),
        end_date: Date,
        reassign_reports_to: Optional[Email] = None,
    ) -> dict:
        """End an employee's employment; their direct reports must be moved first or at once.

        The new manager may be one of the leaver's direct reports: they are
        promoted into the leaver's place (they report to the leaver's manager,
        or become the top of the org chart) and the other reports move under
        them. Anyone further down the leaver's team is refused (409): their
        own manager would end up reporting to them, a reporting cycle.

        Args:
            employee_id: the employee leaving.
            end_date: last working day (YYYY-MM-DD), not before their start date.
            reassign_reports_to: email of the manager who takes over the direct
                reports (an active employee other than the leaver); required
                when the employee has any (409 otherwise).

        Returns:
            The terminated record plus ``reassigned_reports`` (ids whose manager
            changed) and ``promoted_report`` (the id of the report who took the
            leaver's place, or None).
        """
        e = self.lookup(self.state.employees, employee_id, "employee")
        if e.status == "terminated":
            raise Conflict(f"{e.name} ({employee_id}) is already terminated (end date {e.end_date}).")
        if end_date < e.start_date:
            raise Unprocessable(f"end_date {end_date} is before the start date {e.start_date}.")
        reports = self._reports(e)
        promoted = self._reassign_reports(e, reports, reassign_reports_to) if reports else None
        e.status, e.end_date = "terminated", end_date
        return {**e.model_dump(), "reassigned_reports": [r.id for r in reports],
                "promoted_report": promoted.id if promoted else None}

    def _reassign_reports(self, e: Employee, reports: list[Employee], email: Optional[str]) -> Optional[Employee]:
        """Move ``e``'s direct ``reports`` to the active employee with ``email``; the promoted report or None.

        Raises:
            Conflict: no ``email`` given, or the new manager sits below one of
                the reports (a cycle), or their chain already loops.
            InvalidArgument: ``email`` is the leaver's own.
            NotFound: no employee has ``email``.
        """
        if email is None:
            names = ", ".join(r.email for r in reports)
            raise Conflict(f"{e.name} still has direct reports ({names}); pass reassign_reports_to "
                           "with the email of their new manager.")
        new = self._active_manager(email)
        if new.id == e.id:
            raise InvalidArgument("reassign_reports_to must be someone other than the leaving employee.")
        promoted = next((r for r in reports if r.id == new.id), None)
        if promoted is None and self._is_under(new, e):
            emails = ", ".join(r.email for r in reports)
            raise Conflict(f"{new.name} ({new.email}) is in {e.name}'s team, below one of the direct reports; "
                           "moving the reports under them would create a reporting cycle. Choose a manager "
                           f"outside the team or one of the direct reports ({emails}).")
        for r in reports:
            r.manager_email = new.email
        if promoted is not None:
            promoted.manager_email = e.manager_email  # takes the leaver's place in the chart
        return promoted

    # ------------------------------------------------------------------ seeds
    @classmethod
    def seed_state(cls, seed: int, today: dt.date) -> HrDirectoryState:
        """Seeded state built on the shared roster (same people as leave and payroll)."""
        return seed_directory(roster(seed, today), random.Random(f"{cls.name}:{seed}"))

    @classmethod
    def build_seed_state(cls, fake: Faker, rng: random.Random, today: dt.date) -> HrDirectoryState:
        return seed_directory(roster(rng.randrange(2**31), today), rng)
