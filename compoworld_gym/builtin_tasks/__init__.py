"""The built-in task set: hand-designed tasks that run before the generator.

Each task is built from the services' seeded states plus planted records,
so it is reproducible and self-contained. Every reference solution passes
all its checks and every initial state fails at least one (tested in
``tests/test_tasks.py``). The opening example of the paper — process a batch
of overdue tickets: find them, look up the handling rule in the operations
manual, then notify the responsible owner and the customer — is
``builtin-overdue-billing-escalation``.
"""

from __future__ import annotations

import functools

from compoworld_gym.builtin_tasks import office, support
from compoworld_gym.builtin_tasks.common import BUILDERS
from compoworld_gym.footprint import fit_task
from compoworld_gym.tasks import Task

_ = (office, support)  # importing the modules registers their builders


@functools.lru_cache(maxsize=1)
def _cached() -> tuple[Task, ...]:
    # Guards are fitted to what each reference writes (compoworld_gym.footprint):
    # nothing done twice, nothing written outside the task's work.
    return tuple(fit_task(build()) for build in BUILDERS)


def builtin_tasks() -> list[Task]:
    """The built-in tasks, in a fixed order (built once; treat them as read-only)."""
    return list(_cached())


__all__ = ["builtin_tasks"]
