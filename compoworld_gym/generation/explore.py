"""Stage 1, *explore*: mount the composition on a seeded state and really call
its read tools to learn which records and facts exist.

Seed states are built once per ``(service, seed, today)`` and kept as JSON
bytes; each task gets a fresh copy through ``orjson`` (far cheaper than
running Faker again). The read-tool survey is cached the same way.
"""

from __future__ import annotations

import datetime as dt
import functools
from dataclasses import dataclass, field
from typing import Any

import orjson

from compoworld_gym.catalog import get_service
from compoworld_gym.composition import Composition


@functools.lru_cache(maxsize=4096)
def seed_state_bytes(service: str, seed: int, today: dt.date) -> bytes:
    """The seeded initial state of ``service`` as JSON bytes (cached)."""
    return orjson.dumps(get_service(service).seed_state(seed, today).model_dump(mode="json"))


@functools.lru_cache(maxsize=4096)
def survey(service: str, seed: int, today: dt.date) -> tuple[tuple[str, int, tuple[str, ...]], ...]:
    """Call every read tool of ``service`` that needs no argument.

    Returns:
        ``((tool, number of records returned, entity types produced), ...)``
        sorted by tool name; failed calls report -1 records.
    """
    cls = get_service(service)
    svc = cls(orjson.loads(seed_state_bytes(service, seed, today)), today=today)
    out = []
    for name, spec in sorted(cls.tools.items()):
        if not spec.read_only or spec.input_schema.get("required"):
            continue
        result = svc.call(name, {})
        data = result.get("data") if result["success"] else None
        size = len(data) if isinstance(data, (list, dict)) else (-1 if data is None else 1)
        out.append((name, size, tuple(sorted(spec.produces))))
    return tuple(out)


@dataclass
class Exploration:
    """What the explore stage learned.

    Attributes:
        composition: the composition explored.
        seed: the seed of the initial states.
        today: the task date.
        states: ``{service: state JSON}`` (fresh copies, ready for planting).
        reads: ``{service: [(tool, records returned, types produced)]}``.
    """

    composition: Composition
    seed: int
    today: dt.date
    states: dict[str, dict[str, Any]]
    reads: dict[str, list[tuple[str, int, tuple[str, ...]]]] = field(default_factory=dict)

    @property
    def n_reads(self) -> int:
        """How many read calls the survey made."""
        return sum(len(v) for v in self.reads.values())


def explore(comp: Composition, seed: int, today: dt.date) -> Exploration:
    """Mount ``comp``'s services on their seeded states and survey them.

    Raises:
        compoworld_gym.catalog.UnknownService: a service is not in the catalog.
    """
    states = {s: orjson.loads(seed_state_bytes(s, seed, today)) for s in comp.services}
    reads = {s: list(survey(s, seed, today)) for s in comp.services}
    return Exploration(composition=comp, seed=seed, today=today, states=states, reads=reads)


def explore_states(services: list[str], seed: int, today: dt.date) -> dict[str, dict[str, Any]]:
    """Fresh copies of the seeded states of ``services`` (planting starts from them)."""
    return {s: orjson.loads(seed_state_bytes(s, seed, today)) for s in services}
