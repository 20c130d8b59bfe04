"""The design context: seeded values and the planted state of a task.

A :class:`Ctx` holds the working copy of every needed service's initial
state (JSON dicts) while the design stage plants records into it, plus the
seeded random sources that planters draw names, codes and values from.
"""

from __future__ import annotations

import datetime as dt
import random
import string
from typing import Any, Callable, Optional

from faker import Faker

from compoworld_gym.tasks import MetaCall

def call(tool_name: str, **arguments: Any) -> MetaCall:
    """A reference ``call_tool`` step (``None`` arguments are dropped)."""
    args = {k: v for k, v in arguments.items() if v is not None}
    return MetaCall(name="call_tool", arguments={"tool_name": tool_name, "arguments": args})


def _pool() -> dict[str, list[str]]:
    """Name pools drawn once from a fixed-seed Faker: Faker per value is slow."""
    fake = Faker("en_US")
    fake.seed_instance(20260115)
    return {"first": sorted({fake.first_name() for _ in range(400)}),
            "last": sorted({fake.last_name() for _ in range(400)}),
            "domain": sorted({fake.domain_name() for _ in range(200)}),
            "city": sorted({fake.city() for _ in range(200)})}


_POOL = _pool()


class Ctx:
    """Seeded values and the working initial states of one task's design.

    Args:
        rng: the task's random source.
        fake: a Faker seeded for this task.
        today: the task's date.
        states: ``{service: state JSON}``, mutated in place by planting.
    """

    def __init__(self, rng: random.Random, fake: Faker, today: dt.date,
                 states: dict[str, dict[str, Any]]) -> None:
        self.rng = rng
        self.fake = fake
        self.today = today
        self.states = states
        self._codes: set[str] = set()
        self._case: str | None = None
        self._client: str | None = None

    def state(self, service: str) -> dict[str, Any]:
        """The working initial state of ``service`` (a JSON dict)."""
        return self.states[service]

    def new_id(self, service: str, prefix: str, width: int = 4) -> str:
        """Next id for ``prefix`` in ``service``'s counters (as ``Service.new_id``)."""
        counters = self.states[service].setdefault("counters", {})
        n = counters.get(prefix, 1)
        counters[prefix] = n + 1
        return f"{prefix}-{n:0{width}d}"

    def code(self) -> str:
        """A short unique reference code, e.g. ``"KQ-4821"`` (distinct per task)."""
        while True:
            c = "".join(self.rng.choices(string.ascii_uppercase, k=2)) + f"-{self.rng.randint(1000, 9999)}"
            if c not in self._codes:
                self._codes.add(c)
                return c

    def case(self) -> str:
        """The task's one case reference, e.g. ``"case KQ-4821"``: every write
        of the task names it, so the steps read as one piece of work."""
        if self._case is None:
            self._case = f"case {self.code()}"
        return self._case

    def client(self) -> str:
        """The task's one customer name (drawn once), for writes that need a name."""
        if self._client is None:
            self._client = f"{self.first_name()} {self.last_name()}"
        return self._client

    def day(self, offset: int) -> str:
        """``today + offset`` days as an ISO date."""
        return (self.today + dt.timedelta(days=offset)).isoformat()

    def at(self, offset_days: int, hour: int = 10) -> str:
        """An ISO datetime ``offset_days`` from today at ``hour``:00."""
        day = self.today + dt.timedelta(days=offset_days)
        return dt.datetime.combine(day, dt.time(hour, 0)).isoformat()

    def first_name(self) -> str:
        """A realistic first name (from a fixed Faker-built pool: fast and seeded)."""
        return self.rng.choice(_POOL["first"])

    def last_name(self) -> str:
        """A realistic last name (from the fixed pool)."""
        return self.rng.choice(_POOL["last"])

    def person(self) -> tuple[str, str]:
        """A fresh customer: ``(full name, email)`` at a per-task unique address."""
        first, last = self.first_name(), self.last_name()
        domain = self.rng.choice(_POOL["domain"])
        tag = self.rng.randint(10, 99)
        return f"{first} {last}", f"{first}.{last}{tag}@{domain}".lower().replace("'", "")

    def fresh(self, etype: str) -> Any:
        """A fresh value of entity type ``etype`` (never equal to another fresh one)."""
        if etype == "email":
            return self.person()[1]
        if etype == "person_name":
            return f"{self.first_name()} {self.last_name()}"
        if etype == "company":
            return f"{self.last_name()} {self.rng.choice(('Logistics', 'Labs', 'Foods', 'Systems', 'Partners'))}"
        if etype == "date":
            return self.day(self.rng.randint(3, 45))
        if etype == "money":
            return round(self.rng.randint(12000, 480000) / 100, 2)
        if etype == "phone":
            return f"+1-{self.rng.randint(200, 989)}-555-{self.rng.randint(1000, 9999)}"
        if etype == "sku":
            return f"SKU-{self.rng.randint(10000, 99999)}"
        if etype == "city":
            return self.rng.choice(_POOL["city"])
        if etype == "url":
            return f"https://{self.rng.choice(_POOL['domain'])}/{self.code().lower()}"
        if etype == "tracking_number":
            return f"1Z{self.rng.randint(10**9, 10**10 - 1)}{self.rng.randint(10, 99)}"
        if etype == "country":
            return self.rng.choice(("US", "CA", "GB", "DE", "FR", "NL", "ES", "IT", "AU", "IE"))
        if etype == "address":
            return f"{self.rng.randint(2, 980)} {self.last_name()} {self.rng.choice(('Street', 'Avenue', 'Road'))}"
        if etype == "username":
            return f"{self.first_name()}.{self.last_name()}{self.rng.randint(10, 99)}".lower().replace("'", "")
        if etype == "channel_name":
            return f"{self.rng.choice(('cases', 'escalations', 'ops', 'accounts'))}-{self.code().lower()}"
        if etype == "repo_name":
            return f"acme/{self.rng.choice(('billing', 'storefront', 'checkout', 'search'))}-{self.code().lower()}"
        if etype == "file_path":
            return f"docs/{self.code().lower()}.md"
        if etype == "ip_address":
            while True:
                ip = f"198.51.{self.rng.randint(0, 255)}.{self.rng.randint(2, 254)}"
                if ip not in self._codes:
                    self._codes.add(ip)
                    return ip
        raise ValueError(f"no fresh-value generator for entity type {etype!r}")

    def matcher(self, etype: str, value: Any) -> Any:
        """A where-clause matcher for ``value``: tolerant for money, case-blind for text."""
        if etype == "money":
            return {"$gte": round(value - 0.01, 2), "$lte": round(value + 0.01, 2)}
        if etype in ("email", "person_name", "company", "city") and isinstance(value, str):
            return {"$ieq": value}
        return value
