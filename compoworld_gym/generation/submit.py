"""Stage 4, *submit*: turn a verified design into a :class:`Task` and write JSONL.

Each task records the schema version (``Task.schema_version``), its seed,
the generator version, the composition (id, slug, steps, distractors), the
chain it follows, its policy, the counterfactual verdicts and deterministic
stage statistics in ``Task.meta``. Wall-clock timings are kept out of task
files (they would break byte-identical output for a seed) and reported by
:class:`~compoworld_gym.generation.pipeline.GenerationStats`.
"""

from __future__ import annotations

import datetime as dt
from pathlib import Path
from typing import Any, Iterable

from compoworld_gym.generation.design import Design
from compoworld_gym.tasks import Task, save_tasks

GENERATOR_VERSION = "2.1"


def build_task(design: Design, *, task_id: str, seed: int, today: dt.date,
               stage_stats: dict[str, Any]) -> Task:
    """The :class:`Task` for a design.

    Args:
        design: the design stage's output.
        task_id: the task id.
        seed: seed of the services' seeded states (distractors use it too).
        today: the task date.
        stage_stats: deterministic per-task statistics stored in ``meta``.
    """
    comp = design.composition
    return Task(
        id=task_id, services=list(comp.services), distractors=list(comp.distractors), today=today,
        seed=seed, initial_state=design.initial_state, instruction=design.instruction,
        checks=design.checks, reference=design.reference, reference_answer=design.reference_answer,
        domain=design.domain, capabilities=design.capabilities, composition=comp.record(), decoys=design.decoys,
        meta={"generator": "compoworld_gym.generation", "generator_version": GENERATOR_VERSION,
              "composition_id": comp.id, "guards": list(design.guards), "entry": design.entry, "case": design.case, "chain": design.chain,
              "policy": design.policy, "counterfactual": design.counterfactual, "stages": dict(stage_stats)},
    )


def submit(tasks: Iterable[Task], path: str | Path) -> int:
    """Write verified tasks to a JSONL file; returns how many were written."""
    return save_tasks(tasks, path)
