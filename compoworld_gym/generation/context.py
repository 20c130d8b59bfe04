"""The design context: seeded values, planted state and the pieces of a task.

A :class:`Ctx` holds the working copy of every needed service's initial
state (JSON dicts) while the design stage plants records into it, plus the
seeded random sources. :class:`Fact` is a value the agent must discover in
one service; :class:`SinkStep` is the write that uses it in another.
"""

from __future__ import annotations

import datetime as dt
import random
import string
from dataclasses import dataclass, field, replace
from typing import Any, Callable, Optional

from faker import Faker

from compoworld_gym.tasks import MetaCall

#: How a reference value of each entity type is referred to once found.
REF_WORDS: dict[str, str] = {
    "email": "that email address", "date": "that date", "money": "that amount",
    "person_name": "that person's name", "company": "that company", "phone": "that phone number",
    "sku": "that SKU", "city": "that city", "url": "that link", "datetime": "that time",
}


def ref_word(etype: str) -> str:
    """The phrase that refers back to a found value of type ``etype``."""
    if etype in REF_WORDS:
        return REF_WORDS[etype]
    if etype.endswith("_id"):
        return f"that {etype[:-3].replace('_', ' ')} id"
    return f"that {etype.replace('_', ' ')}"


def call(tool_name: str, **arguments: Any) -> MetaCall:
    """A reference ``call_tool`` step (``None`` arguments are dropped)."""
    args = {k: v for k, v in arguments.items() if v is not None}
    return MetaCall(name="call_tool", arguments={"tool_name": tool_name, "arguments": args})


@dataclass
class Fact:
    """A value the agent must find in ``service`` and carry on.

    Attributes:
        type: entity type, e.g. ``"email"``.
        value: the JSON value (str or float).
        service: where it is found.
        noun: what it is, e.g. "the requester's email address".
        locate: where to find it, e.g. "on the helpdesk ticket about 'X'".
        ref: how later sentences refer to it ("that email address").
        reads: reference calls that discover it.
        rules: house rules this fact's variant needs.
        negatives: deliberate negative checks (pass at reset and after).
        wrong: tempting wrong values (decoys, stale values) never to be used.
        capabilities: capability labels the variant adds.
        decoys: the wrong values exactly as planted (kept through transforms:
            a dump of everything seen lists them as they were stored).
        found: the value as found, when a transform derived ``value`` from it.
        origin: ``(collection, record id)`` of the record holding the fact
            (for a sum, one of the parts), or None when unknown.
    """

    type: str
    value: Any
    service: str
    noun: str
    locate: str
    ref: str = ""
    reads: list[MetaCall] = field(default_factory=list)
    rules: list[str] = field(default_factory=list)
    negatives: list[dict[str, Any]] = field(default_factory=list)
    wrong: list[Any] = field(default_factory=list)
    capabilities: set[str] = field(default_factory=set)
    decoys: list[Any] = field(default_factory=list)
    found: Any = None
    origin: Optional[tuple[str, str]] = None

    def __post_init__(self) -> None:
        if not self.ref:
            self.ref = ref_word(self.type)

    def derived(self, value: Any, ref: str, wrong: list[Any], capability: str) -> "Fact":
        """A transformed copy (e.g. the date three days later)."""
        return replace(self, value=value, ref=ref, wrong=wrong, capabilities=self.capabilities | {capability},
                       found=self.value if self.found is None else self.found)

    @property
    def display(self) -> str:
        """The value as written in a report."""
        return f"{self.value:.2f}" if self.type == "money" else str(self.value)


@dataclass
class SinkStep:
    """The write that uses a fact in a service.

    Attributes:
        service: the service written to.
        tool: the write tool.
        value_arg: the tool parameter that receives the fact.
        calls: reference calls (lookups of the target, then the write).
        phrase: imperative sentence; ``{ref}`` is replaced by the fact's ref.
        label: short noun phrase for ordering rules ("the ticket update").
        checks: ``checks(value) -> [check dict without id]`` verifying the
            write with ``value``; ``record_exists`` items are negated for
            wrong values.
        where: extra call-log argument pattern identifying this write.
        list_arg: True when ``value_arg`` is a list (e.g. recipients), so
            call-log patterns use ``$contains``.
        scope: what the write may change, per collection of ``service``:
            ``{collection: {"allow_ids": [...], "allow_new": where | None}}``
            (see the ``only_changed`` check). Collections not named here are
            derived from ``checks``: ``record_matches`` ids may change and a
            ``record_exists`` where-clause is what a new record must match.
            Mail and chat sinks name their collections, to forbid extra
            recipients and channels.
    """

    service: str
    tool: str
    value_arg: str
    calls: list[MetaCall]
    phrase: str
    label: str
    checks: Callable[[Any], list[dict[str, Any]]]
    where: dict[str, Any] = field(default_factory=dict)
    list_arg: bool = False
    scope: dict[str, dict[str, Any]] = field(default_factory=dict)


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
        self._titles: set[str] = set()
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

    def unique(self, title: str) -> str:
        """``title``, or ``title`` with a part number when the task already
        used it (a revisit writing the same kind of record twice)."""
        out, n = title, 1
        while out in self._titles:
            n += 1
            out = f"{title} (part {n})"
        self._titles.add(out)
        return out

    @property
    def case_label(self) -> str | None:
        """The case reference if some write used it, else None."""
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
        raise ValueError(f"no fresh-value generator for entity type {etype!r}")

    def matcher(self, etype: str, value: Any) -> Any:
        """A where-clause matcher for ``value``: tolerant for money, case-blind for text."""
        if etype == "money":
            return {"$gte": round(value - 0.01, 2), "$lte": round(value + 0.01, 2)}
        if etype in ("email", "person_name", "company", "city") and isinstance(value, str):
            return {"$ieq": value}
        return value


def fresh_ctx(seed_key: str, today: dt.date, states: dict[str, dict[str, Any]], fake: Faker) -> Ctx:
    """A :class:`Ctx` whose random streams depend only on ``seed_key``."""
    rng = random.Random(seed_key)
    fake.seed_instance(rng.getrandbits(32))
    return Ctx(rng, fake, today, states)

