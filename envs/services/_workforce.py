"""One seeded company roster shared by the HR services.

``hr_directory``, ``leave`` and ``payroll`` all seed their people from
:func:`roster`, so for the same seed employee ``EMP-0004`` is the same
person (name, email, manager, department) in all three. That is what lets a
composed task carry a fact from one HR service into another.

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

COMPANY_DOMAIN = "brightline.example"

#: Office city -> (area code, US state) used for phones and payroll tax.
OFFICES: dict[str, tuple[str, str]] = {
    "San Francisco": ("415", "CA"),
    "New York": ("212", "NY"),
    "Austin": ("512", "TX"),
    "Chicago": ("312", "IL"),
}

#: Department -> (head title, member titles); order fixes the ids.
DEPARTMENTS: dict[str, tuple[str, tuple[str, ...]]] = {
    "Engineering": ("VP of Engineering", ("Engineering Manager", "Software Engineer", "Site Reliability Engineer")),
    "Sales": ("VP of Sales", ("Account Executive", "Sales Development Representative")),
    "Finance": ("Head of Finance", ("Senior Accountant", "Payroll Specialist")),
    "People": ("Head of People", ("HR Business Partner", "Recruiter")),
    "Support": ("Head of Support", ("Support Engineer", "Support Specialist")),
}
MEMBERS_PER_DEPARTMENT = 3


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


@lru_cache(maxsize=64)
def roster(seed: int, today: dt.date) -> tuple[Person, ...]:
    """The company's people for ``seed``: a CEO, five department heads and
    three members per department (21 people; engineers report to an
    engineering manager, so the chart is four levels deep), ordered by employee id.

    Args:
        seed: the episode seed; the same seed gives the same people.
        today: the task's date; start dates lie 1 month to 9 years before it.

    Returns:
        A tuple of :class:`Person`; index ``i`` has id ``EMP-{i+1:04d}``.
    """
    rng = random.Random(f"workforce:{seed}")
    _FAKER.seed_instance(rng.getrandbits(32))
    seen: set[str] = set()
    cities = list(OFFICES)
    people: list[Person] = []

    def add(title: str, department: str, manager: Optional[str], city: str, salary: float, hourly: bool) -> str:
        name = _unique_name(seen)
        eid = f"EMP-{len(people) + 1:04d}"
        area = OFFICES[city][0]
        people.append(Person(
            employee_id=eid, name=name, email=email_for(name, COMPANY_DOMAIN),
            phone=f"+1{area}55501{len(people) + 1:02d}",  # 555-01xx: the fictional range
            title=title, department=department, manager_id=manager, location=city,
            start_date=today - dt.timedelta(days=rng.randint(30, 3300)), hourly=hourly,
            annual_salary=float(salary),
        ))
        return eid

    ceo = add("Chief Executive Officer", "Executive", None, "San Francisco", 260000, False)
    heads = {d: add(head, d, ceo, cities[i % 2], rng.randrange(170000, 215000, 1000), False)
             for i, (d, (head, _)) in enumerate(DEPARTMENTS.items())}
    for d, (_, titles) in DEPARTMENTS.items():
        first = None
        for j in range(MEMBERS_PER_DEPARTMENT):
            title = titles[j % len(titles)]
            hourly = title in ("Support Specialist", "Sales Development Representative")
            salary = rng.randrange(22, 34) * 2080 if hourly else rng.randrange(85000, 165000, 1000)
            # Engineers report to their engineering manager: a 4-level org chart.
            manager = first if (d == "Engineering" and first) else heads[d]
            eid = add(title, d, manager, rng.choice(cities), salary, hourly)
            first = first or eid
    return tuple(people)
