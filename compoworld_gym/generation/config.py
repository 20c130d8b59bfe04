"""The generation options, as one typed config (TRL style: help in metadata)."""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, field
from typing import Optional

#: The tasks' date, as in the paper's sample ("Today's date is 2026-01-15.").
TODAY = dt.date(2026, 1, 15)


#: The 40 services of the first library. Results and tests measured on generated tasks pin it
#: (``GenerationConfig(library=LIBRARY_V1)``): a seed then gives the same tasks as the library grows.
LIBRARY_V1: tuple[str, ...] = (
    "calendar", "contracts", "crm", "customer_feedback", "database", "deployments", "drive", "expenses",
    "feature_flags", "field_service", "flights", "forms", "github", "gmail", "helpdesk", "hotels", "hr_directory",
    "inventory", "invoicing", "knowledge_base", "leave", "ledger", "maps", "marketing", "meeting_rooms",
    "memory_graph", "messaging", "monitoring", "orders", "payments", "payroll", "procurement", "product_catalog",
    "shipping", "slack", "social", "spreadsheets", "status_page", "task_board", "wiki")

#: Named libraries (``compoworld generate --library v1``).
LIBRARIES: dict[str, tuple[str, ...]] = {"v1": LIBRARY_V1}


class ConfigError(ValueError):
    """A generation option is out of range; the message says how to fix it."""


@dataclass
class GenerationConfig:
    """Options of :func:`compoworld_gym.generation.generate_tasks`.

    Example:
        >>> GenerationConfig(services=(3, 5)).services
        (3, 5)
    """

    services: Optional[tuple[int, int]] = field(
        default=(3, 7), metadata={"help": "Distinct services per task (lo, hi); None takes any the chain needs."})
    chain_lengths: dict[int, float] = field(
        default_factory=lambda: {2: 0.05, 3: 0.25, 4: 0.4, 5: 0.3},
        metadata={"help": "Weights of the number of records the chain passes through (each on its own service)."})
    p_rule: float = field(default=0.75, metadata={"help": "Chance of a policy when the chain finds an amount."})
    p_stale: float = field(default=0.5, metadata={"help": "Chance of a stale look-alike where a relay has one."})
    max_actions: int = field(default=2, metadata={"help": "Most writes besides the one a policy routes."})
    listed: int = field(default=15, metadata={"help": "Services list_services shows (needed + distractors)."})
    state_seeds: int = field(default=8, metadata={"help": "Distinct seeded base states per service."})
    today: dt.date = field(default=TODAY, metadata={"help": "The tasks' date."})
    max_attempts_per_task: int = field(default=60, metadata={"help": "Give up on an index after this many rejections."})
    library: Optional[tuple[str, ...]] = field(
        default=None, metadata={"help": "Only these services, in chains and as distractors (None: the whole "
                                        "catalog). Pins a generated set to a library as it grows."})

    def __post_init__(self) -> None:
        if isinstance(self.services, int):
            self.services = (self.services, self.services)
        if self.services is not None:
            lo, hi = self.services
            if lo < 2 or hi < lo:
                raise ConfigError(f"services must be >= 2 with lo <= hi, got {self.services!r}")
        if not self.chain_lengths or min(self.chain_lengths) < 2 or min(self.chain_lengths.values()) < 0:
            raise ConfigError(f"chain_lengths needs lengths >= 2 with weights >= 0, got {self.chain_lengths!r}")
        for name in ("p_rule", "p_stale"):
            if not 0.0 <= getattr(self, name) <= 1.0:
                raise ConfigError(f"{name} must be in [0, 1], got {getattr(self, name)!r}")
        if self.library is not None:
            self.library = tuple(sorted(set(self.library)))
            if len(self.library) < 2:
                raise ConfigError(f"library needs 2 or more services, got {list(self.library)!r}")
            from compoworld_gym.catalog import service_names  # the catalog loads the services: only when asked

            unknown = sorted(set(self.library) - set(service_names()))
            if unknown:
                raise ConfigError(f"library names unknown services: {', '.join(unknown)} "
                                  "(`compoworld services` lists them)")
        if self.max_actions < 1 or self.listed < 1 or self.state_seeds < 1 or self.max_attempts_per_task < 1:
            raise ConfigError("max_actions, listed, state_seeds and max_attempts_per_task must be >= 1")


__all__ = ["LIBRARIES", "LIBRARY_V1", "ConfigError", "GenerationConfig", "TODAY"]
