"""Seed factory of the hr_directory service: the shared roster as a directory.

The people are the ``_workforce`` roster, so the same seed gives the same
employees (ids, emails, managers) as the ``leave`` and ``payroll`` services.
"""

from __future__ import annotations

import random

from compoworld_gym.envs.services._hr_directory_models import Department, Employee, HrDirectoryState
from compoworld_gym.envs.services._workforce import Person


def seed_directory(people: tuple[Person, ...], rng: random.Random) -> HrDirectoryState:
    """The roster as directory entries, one department per head, and one member on leave.

    Args:
        people: the shared roster (see :func:`._workforce.roster`).
        rng: the seeded generator that picks who is on leave.
    """
    state = HrDirectoryState()
    emails = {p.employee_id: p.email for p in people}
    for p in people:
        state.employees[p.employee_id] = Employee(
            id=p.employee_id, name=p.name, email=p.email, phone=p.phone, title=p.title,
            department=p.department, manager_email=emails.get(p.manager_id or ""), location=p.location,
            start_date=p.start_date, employment_type="full_time",
        )
    dept_of = {p.employee_id: p.department for p in people}
    # A department's head is its member whose manager sits in another department.
    heads = [p for p in people if p.manager_id is None or dept_of[p.manager_id] != p.department]
    for i, p in enumerate(heads):
        state.departments[p.department] = Department(
            name=p.department, head_email=p.email, cost_center=f"CC-{100 + 10 * i}")
    # One member on leave so status filters and tasks have something to find.
    member = rng.choice([p for p in people if p not in heads and p.department != "Executive"])
    state.employees[member.employee_id].status = "on_leave"
    state.counters["EMP"] = len(people) + 1
    return state
