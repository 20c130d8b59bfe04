"""The plan of a fuzz campaign: its targets (what is fuzzed) and its batches (in which order, on
which seeds). Deterministic for a seed, so a log's plan can be checked when it is resumed."""

from __future__ import annotations

import functools
import itertools
import random
from dataclasses import dataclass
from typing import Any, Callable, Iterator, Optional, Sequence

import gymnasium as gym

from compoworld_gym.testing.runner import probe_task, tasks_env_factory

#: Target kinds, in the order they are listed.
KINDS = ("service", "composition", "generated", "builtin")

#: Runs per target per round of a ``minutes`` campaign (about a second or two of work each).
BATCH_RUNS = 10
#: Most runs in one batch of an ``examples`` campaign (a larger share is cut into rounds).
MAX_BATCH_RUNS = 50

@dataclass(frozen=True)
class Target:
    """One thing to fuzz (picklable, so workers can rebuild it).

    Attributes:
        kind: ``"service"``, ``"composition"``, ``"generated"`` or ``"builtin"``.
        services: the services mounted (service and composition targets).
        distractors: distractor services (composition targets).
        seed: seed of the generated tasks (generated targets).
    """

    kind: str
    services: tuple[str, ...] = ()
    distractors: tuple[str, ...] = ()
    seed: int = 0

    @property
    def label(self) -> str:
        """A short name, e.g. ``service:helpdesk`` or ``composition:crm+gmail``."""
        if self.kind in ("service", "composition"):
            return f"{self.kind}:{'+'.join(self.services)}"
        return f"{self.kind}:{self.seed}" if self.kind == "generated" else self.kind

    def factory(self) -> Callable[[], gym.Env]:
        """The env factory of this target (its task pool is built once per process)."""
        return tasks_env_factory(_task_pool(self))


@functools.lru_cache(maxsize=64)  # a campaign has ~51 targets: its batches share their pools, bounded
def _task_pool(target: Target) -> tuple[Any, ...]:
    from compoworld_gym.catalog import get_service

    if target.kind in ("service", "composition"):
        classes = [get_service(n) for n in target.services]
        return tuple(probe_task(classes, seed=s, distractors=target.distractors) for s in (0, 1))
    if target.kind == "generated":
        from compoworld_gym.generation import generate_tasks

        return tuple(generate_tasks(3, seed=target.seed))
    if target.kind == "builtin":
        from compoworld_gym.builtin_tasks import builtin_tasks

        return tuple(builtin_tasks())
    raise ValueError(f"unknown target kind {target.kind!r}; use one of {', '.join(KINDS)}")


def random_compositions(n: int, rng: random.Random, names: Sequence[str]) -> list[Target]:
    """``n`` compositions of 2-4 of ``names`` by random walk on their dependency graph,
    each with 2 distractors from ``names`` (random subsets where the walk gets stuck)."""
    from compoworld_gym.catalog import get_service
    from compoworld_gym.composition import WalkError, random_walk
    from compoworld_gym.graph import build_graph

    graph = build_graph([get_service(name) for name in names])
    out = []
    for _ in range(n):
        k = rng.randint(2, min(4, len(names)))
        try:
            services = list(random_walk(graph, rng, k).services)
        except WalkError:
            services = rng.sample(sorted(names), k)
        rest = sorted(set(names) - set(services))
        out.append(Target("composition", tuple(services), tuple(rng.sample(rest, min(2, len(rest))))))
    return out


def plan_targets(seed: int, include: Sequence[str] = KINDS, services: Optional[Sequence[str]] = None,
                 compositions: int = 8, generated: int = 2) -> list[Target]:
    """The targets of one fuzz campaign (deterministic for a seed).

    Args:
        seed: campaign seed (compositions and generated-task seeds).
        include: target kinds to include.
        services: restrict service targets and compositions to these names
            (default: all built-ins).
        compositions: number of random compositions.
        generated: number of generated-task pools (3 tasks each).

    Raises:
        ValueError: an unknown service name, or none given.
    """
    from compoworld_gym.catalog import service_names

    known = service_names()
    names = list(services) if services is not None else known
    unknown = sorted(set(names) - set(known))
    if unknown or not names:
        raise ValueError(f"unknown service(s) {', '.join(map(repr, unknown)) or '(none given)'}; "
                         "`compoworld services` lists the built-in ones")
    rng = random.Random(f"fuzz:{seed}")
    targets: list[Target] = []
    if "service" in include:
        targets += [Target("service", (n,)) for n in names]
    if "composition" in include and len(names) >= 2:
        targets += random_compositions(compositions, rng, names)
    if "generated" in include:
        targets += [Target("generated", seed=rng.randrange(2**31)) for _ in range(generated)]
    if "builtin" in include:
        targets.append(Target("builtin"))
    return targets


@dataclass(frozen=True)
class Batch:
    """One unit of a campaign: ``runs`` runs of target ``index`` in ``round``, on ``seed``."""

    index: int
    round: int
    runs: int
    seed: int


def plan_batches(n_targets: int, seed: int, examples: Optional[int], batch: int) -> Iterator[Batch]:
    """The batches of a campaign, in order.

    With ``examples``: the runs split over the targets (each gets >= 1),
    a target's share cut into rounds of at most :data:`MAX_BATCH_RUNS` (so
    no batch holds Hypothesis's record of hundreds of runs at once).
    Without (a ``minutes`` campaign): endless rounds of ``batch`` runs
    per target (a campaign shorter than one round reports how many
    targets it reached). Every round is a full one, the first included:
    a campaign's memory reaches its high-water mark once every target has
    run one full batch (each tool's strategies built, the heaviest batch's
    working set allocated), so the first round is its warm-up, and later
    rounds stay flat. Round ``r`` of target ``i`` runs on seed
    ``seed + i + r * 1000003``.
    """
    def seed_of(i: int, rnd: int) -> int:
        return (seed + i + rnd * 1_000_003) % 2**32

    if examples is not None:
        base, extra = divmod(examples, n_targets) if n_targets else (0, 0)
        shares = [max(1, base + (i < extra)) for i in range(n_targets)]
        for rnd in range(-(-max(shares, default=0) // MAX_BATCH_RUNS)):
            yield from (Batch(i, rnd, min(MAX_BATCH_RUNS, share - rnd * MAX_BATCH_RUNS), seed_of(i, rnd))
                        for i, share in enumerate(shares) if share > rnd * MAX_BATCH_RUNS)
        return
    for rnd in itertools.count():
        yield from (Batch(i, rnd, batch, seed_of(i, rnd)) for i in range(n_targets))


__all__ = ["BATCH_RUNS", "KINDS", "MAX_BATCH_RUNS", "Batch", "Target", "plan_batches", "plan_targets",
           "random_compositions"]
