"""One seeded company roster shared by the HR services.

``hr_directory``, ``leave`` and ``payroll`` all seed their people from
:func:`roster`, so for the same seed employee ``EMP-0004`` is the same
person (name, email, manager, department) in all three. The roster contains
the fixed staff of ``_company`` (same names and emails as the mailbox, chat
and knowledge base use), so a composed task can carry a fact from any office
service into an HR one.

Example:
    >>> import datetime as dt
    >>> people = roster(0, dt.date(2026, 1, 15))
    >>> people[0].employee_id, people[0].manager_id
    ('EMP-0001', None)
    >>> all(p.email.endswith("@" + COMPANY_DOMAIN) for p in people)
    True
"""

from __future__ import annotations

import datetime as dt
import random
from dataclasses import dataclass
from functools import lru_cache
from typing import Optional

from faker import Faker

from compoworld_gym.envs.services._common import email_for
from compoworld_gym.envs.services._company import DOMAIN, STAFF, staff_of

COMPANY_DOMAIN = DOMAIN

#: Office city -> (area code, US state) used for phones and payroll tax.
OFFICES: dict[str, tuple[str, str]] = {
    "San Francisco": ("415", "CA"),
    "New York": ("212", "NY"),
    "Austin": ("512", "TX"),
    "Chicago": ("312", "IL"),
}

#: Team key -> (department name, office, title of the seeded extra member).
DEPARTMENTS: dict[str, tuple[str, str, str]] = {
    "billing": ("Billing Operations", "Austin", "Billing Specialist"),
    "finance": ("Finance", "New York", "Payroll Specialist"),
    "logistics": ("Logistics", "Chicago", "Dispatch Coordinator"),
    "security": ("Account Security", "San Francisco", "Security Engineer"),
    "customer_success": ("Customer Success", "New York", "Customer Success Manager"),
    "support": ("Customer Support", "Austin", "Support Specialist"),
    "privacy": ("Privacy & Legal", "New York", "Privacy Analyst"),
    "engineering": ("Engineering", "San Francisco", "Software Engineer"),
}
#: Teams whose head reports to the COO rather than the CEO (a 4-level chart).
OPERATIONS = ("billing", "logistics", "customer_success", "support")
HOURLY_TITLES = ("Billing Specialist", "Support Specialist", "Dispatch Coordinator")
_HEAD_WORDS = ("Lead", "Manager", "Controller", "Counsel")


@dataclass(frozen=True)
class Person:
    """One employee of the seeded company.

    Attributes:
        employee_id: ``EMP-0001`` style id (EMP-0001 is the CEO).
        name: full name.
        email: work email at :data:`COMPANY_DOMAIN`.
        phone: E.164 phone number, e.g. ``+14155550123``.
        title: job title.
        department: department name (the CEO's is ``Executive``).
        manager_id: the manager's employee id, None for the CEO.
        location: office city (a key of :data:`OFFICES`).
        start_date: first working day.
        hourly: True for hourly (non-exempt) staff, False for salaried.
        annual_salary: yearly salary in USD (hourly staff: rate * 2080).
    """

    employee_id: str
    name: str
    email: str
    phone: str
    title: str
    department: str
    manager_id: Optional[str]
    location: str
    start_date: dt.date
    hourly: bool
    annual_salary: float


_FAKER = Faker("en_US")


def _unique_name(seen: set[str]) -> str:
    while True:
        name = f"{_FAKER.first_name()} {_FAKER.last_name()}"
        if name not in seen:
            seen.add(name)
            return name


def _head(team: str) -> str:
    members = staff_of(team)
    for m in members:
        if any(w in m.title for w in _HEAD_WORDS):
            return m.name
    return members[0].name


@lru_cache(maxsize=64)
def roster(seed: int, today: dt.date) -> tuple[Person, ...]:
    """The company's people for ``seed``, ordered by employee id.

    The fixed staff of ``_company.STAFF`` (the people the mailbox, chat and
    knowledge base name) are always there, in their teams; the seed adds a
    CEO, a COO and one more member per team, and draws start dates and pay.
    Heads of operations teams report to the COO, the others to the CEO, so
    the org chart is four levels deep. 22 people in all.

    Args:
        seed: the episode seed; the same seed gives the same people.
        today: the task's date; start dates lie 1 month to 9 years before it.

    Returns:
        A tuple of :class:`Person`; index ``i`` has id ``EMP-{i+1:04d}``.
    """
    rng = random.Random(f"workforce:{seed}")
    _FAKER.seed_instance(rng.getrandbits(32))
    seen: set[str] = {s.name for s in STAFF}
    people: list[Person] = []

    def add(name: str, email: str, title: str, dept: str, manager: Optional[str], city: str) -> str:
        eid = f"EMP-{len(people) + 1:04d}"
        hourly = title in HOURLY_TITLES
        # Pay bands by level: executives > heads > members; hourly = rate * 2080 h.
        level = 0 if manager is None else 1 if manager == people[0].employee_id and dept == "Executive" else (
            2 if people[manager_index(manager)].department != dept else 3)
        low, high = ((240000, 300000), (200000, 240000), (130000, 190000), (72000, 128000))[level]
        salary = rng.randrange(24, 36) * 2080 if hourly else rng.randrange(low, high, 1000)
        people.append(Person(
            employee_id=eid, name=name, email=email,
            phone=f"+1{OFFICES[city][0]}55501{len(people) + 1:02d}",  # 555-01xx: the fictional range
            title=title, department=dept, manager_id=manager, location=city,
            start_date=today - dt.timedelta(days=rng.randint(30, 3300)), hourly=hourly, annual_salary=float(salary),
        ))
        return eid

    def manager_index(manager_id: str) -> int:
        return int(manager_id.split("-")[1]) - 1

    def seeded(title: str, dept: str, manager: Optional[str], city: str) -> str:
        name = _unique_name(seen)
        return add(name, email_for(name, DOMAIN), title, dept, manager, city)

    ceo = seeded("Chief Executive Officer", "Executive", None, "San Francisco")
    coo = seeded("Chief Operating Officer", "Executive", ceo, "Austin")
    for key, (dept, city, extra_title) in DEPARTMENTS.items():
        head_name = _head(key)
        staff = sorted(staff_of(key), key=lambda m: m.name != head_name)  # head first
        head = add(staff[0].name, staff[0].email, staff[0].title, dept, coo if key in OPERATIONS else ceo, city)
        for m in staff[1:]:
            add(m.name, m.email, m.title, dept, head, city)
        seeded(extra_title, dept, head, city)
    return tuple(people)
