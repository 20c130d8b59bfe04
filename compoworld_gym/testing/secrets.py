"""What a task hides from the agent: the texts the fuzz's rubric-leak invariant searches observations for."""

from __future__ import annotations

from typing import Any, Optional

import orjson

from compoworld_gym.testing.actions import dumps
from compoworld_gym.world import World


def _strings_in(value: Any) -> list[str]:
    out, stack = [], [value]
    while stack:
        node = stack.pop()
        if isinstance(node, str):
            out.append(node)
        elif isinstance(node, dict):
            stack.extend(node.values())
        elif isinstance(node, (list, tuple)):
            stack.extend(node)
    return out


#: Check fields that hold what tools show the agent (:class:`~compoworld_gym.checks.AnswerContains`).
_OBSERVED_FIELDS = {"candidates", "others"}


def hidden_texts(task: Any, world: Optional[World]) -> list[str]:
    """Rubric and reference text the agent must never see in an observation.

    Check ids and descriptions, the reference answer, and free-text strings
    (12+ characters with a space) of check values and reference arguments,
    minus anything public: the instruction, the initial states and every
    discovery result (service list, tool lists, tool schemas). A report
    item's ``candidates`` and ``others`` are not searched: they list values
    the agent sees by design (the states' look-alikes and what the
    reference's tool results returned, such as a message's snippet).
    """
    candidates = {c.id for c in task.checks} | {c.description for c in task.checks}
    candidates.add(task.reference_answer or "")
    free = _strings_in([c.model_dump(exclude=_OBSERVED_FIELDS) for c in task.checks]) + _strings_in(
        [m.arguments for m in getattr(task, "reference", [])])
    candidates.update(s for s in free if len(s) >= 12 and " " in s.strip())
    public = [task.instruction]
    if world is not None:
        public.append(dumps(world.states()))
        public.append(dumps(world.list_services()))
        for svc in world.services.values():
            public.append(dumps(world.list_tools(svc.name)))
            public.extend(dumps(world.describe_tool(world.exposed_name(svc.name, t))) for t in svc.tools)
    corpus = "\n".join(public)
    out = []
    for text in candidates:
        escaped = orjson.dumps(text).decode()[1:-1]
        if len(text) >= 6 and text not in corpus and escaped not in corpus:
            out.append(escaped)
    return sorted(out)


__all__ = ["hidden_texts"]
