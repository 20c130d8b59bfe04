"""Reward integrity: what each reward-gaming attack earns.

For every attack of :mod:`compoworld_gym.testing.attacks` (doing nothing,
repeated writes, answer dumps, the other branch of a rule, a stale value,
a write to a distractor, an extra recipient), the mean reward and the share
of episodes at 1.0 over every built-in task and a generated set (seed 7),
plus the reference's own score. An honest rubric keeps every attack below
1.0 on every task while the reference scores 1.0.

Run: ``python -m compoworld_gym.benchmarks.attacks [--json] [--quick] [--n N]``
(default 200 generated tasks; ``--quick`` uses 10).
"""

from __future__ import annotations

from typing import Any

from compoworld_gym.benchmarks._common import cli_with_n

#: Generated tasks attacked by a full run (seed 7), as in the issue.
N_TASKS = 200


def run(quick: bool = False, n_tasks: int = 0) -> dict[str, Any]:
    """The attack table: ``{"builtin": {attack: row}, "generated": {attack:
    row}, "reference": {...}}`` where a row is ``{"episodes", "mean",
    "at_one", "max", "top"}`` (see :func:`~compoworld_gym.testing.attacks.attack_table`)."""
    from compoworld_gym.builtin_tasks import builtin_tasks
    from compoworld_gym.generation import generate_tasks
    from compoworld_gym.testing.attacks import attack_table, judge, replay

    sets = {"builtin": builtin_tasks(), "generated": generate_tasks(n_tasks or (10 if quick else N_TASKS), seed=7)}
    out: dict[str, Any] = {name: attack_table(tasks) for name, tasks in sets.items()}
    out["reference"] = {name: min(judge(t, replay(t), t.reference_answer) for t in tasks)
                        for name, tasks in sets.items()}
    return out


def main(argv: list[str] | None = None) -> dict[str, Any]:
    """Command-line entry point (``--n N`` sets the number of tasks)."""
    return cli_with_n("reward-gaming attacks", run, argv)


if __name__ == "__main__":
    main()
