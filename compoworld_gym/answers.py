"""What a final answer may name, fitted to a task's state and reference.

A report item (:class:`~compoworld_gym.checks.AnswerContains`) passes when
the answer names the requested value(s), none of its ``candidates`` (the
values it could be confused with) and at most ``max_others`` of its
``others`` (the other values of the records the work reads). So an answer
that dumps every value it saw fails, while an honest one passes: it reports
the value and may recount what the task itself said and wrote.

:func:`fit_answers` fills both lists:

* ``candidates`` (kept when the item already has them, as generated tasks
  do): every other value of the requested value's entity type in the
  mounted states (task services and distractors), and the task's decoys of
  the requested value;
* ``others``: every typed value (an id, an email, a name, an amount, a date)
  that the reference's tool results returned, besides those.

Values the task itself states or writes (its instruction, the reference's
call arguments and answer) are never listed: repeating them is honest.
"""

from __future__ import annotations

import re
from typing import Any, Iterable, Optional

from compoworld_gym.checks import AnswerContains, Check
from compoworld_gym.entity_values import typed_values
from compoworld_gym.tasks import Decoy

#: Shorter values ("US", "12.5") would match inside honest text.
MIN_CHARS = 5


def forms(value: Any) -> list[str]:
    """How a value is written in text: amounts with two decimals, with and without thousands commas."""
    if isinstance(value, float):
        return list(dict.fromkeys([f"{value:.2f}", f"{value:,.2f}"]))
    return [str(value)]


def leaves(node: Any) -> list[Any]:
    """The scalar values (text, amounts) of a JSON tree, in order.

    Walked with an explicit stack (children pushed in reverse, so they pop in
    order): a task's tool results hold thousands of values, and one list per
    subtree would be built and copied at every level.
    """
    out: list[Any] = []
    stack = [node]
    while stack:
        node = stack.pop()
        if isinstance(node, dict):
            stack.extend(reversed(node.values()))
        elif isinstance(node, list):
            stack.extend(reversed(node))
        elif isinstance(node, (str, float)) and node != "":
            out.append(node)
    return out


_VALUE_LIKE = re.compile(r"[\d@]")


def value_like(seen: Any) -> dict[Any, set[str]]:
    """A cheap stand-in for :func:`~compoworld_gym.entity_values.typed_values`
    over what was seen: every amount, and every text with a digit or an ``@``
    (ids, addresses, dates, phone numbers), as ``{value: {"value"}}``. The
    generator uses it, since indexing every planted state per task costs
    more than the rest of the report."""
    return {v: {"value"} for v in leaves(seen) if isinstance(v, float) or _VALUE_LIKE.search(v)}


def _listable(value: Any, requested: set[str], said: str) -> list[str]:
    return [f for f in forms(value) if len(f) >= MIN_CHARS and f.casefold() not in requested
            and f.casefold() not in said]


def fit_answers(checks: Iterable[Check], *, states: dict[str, Any], said: str, seen: Any,
                decoys: Iterable[Decoy] = (), index: Optional[dict[Any, set[str]]] = None) -> list[Check]:
    """The checks with every answer item's ``candidates`` and ``others`` filled.

    Args:
        checks: the task's rubric items.
        states: the mounted initial states (``{service: state JSON}``: task
            services and distractors).
        said: the text the task itself gives or writes (instruction,
            reference call arguments, reference answer): nothing in it is listed.
        seen: the reference's tool results (any JSON).
        decoys: the task's decoys (:attr:`compoworld_gym.tasks.Task.decoys`).
        index: ``typed_values(states)`` when the caller has it already.

    Returns:
        The items in order, answer items updated.
    """
    index = typed_values(states) if index is None else index
    said = said.casefold()
    seen_typed = [v for v in dict.fromkeys(leaves(seen)) if v in index]
    out: list[Check] = []
    for c in checks:
        if isinstance(c, AnswerContains):
            c = _fit(c, index, said, seen_typed, list(decoys))
        out.append(c)
    return out


def _fit(item: AnswerContains, index: dict[Any, set[str]], said: str, seen: list[Any],
         decoys: list[Decoy]) -> AnswerContains:
    requested = {v.casefold() for v in item.values}
    # Given candidates too: what the task itself says or writes is never one.
    candidates = [c for c in item.candidates if c.casefold() not in said]
    if not item.candidates:
        types = {t for v, ts in index.items() if any(f.casefold() in requested for f in forms(v)) for t in ts}
        wrong = [v for v, ts in index.items() if ts & types]
        wrong += [d.decoy for d in decoys if any(f.casefold() in requested for f in forms(d.truth))]
        candidates = [f for v in dict.fromkeys(wrong) for f in _listable(v, requested, said)]
    listed = {f.casefold() for f in candidates}
    others = [f for v in seen for f in _listable(v, requested, said) if f.casefold() not in listed]
    return item.model_copy(update={"candidates": list(dict.fromkeys(candidates)),
                                   "others": list(dict.fromkeys(others))})


def said_text(instruction: str, reference: Iterable[Any], answer: str | None) -> str:
    """The text a task gives or writes itself: instruction, call arguments, answer (``\\x00``-joined).

    Arguments are taken value by value, as written (a multi-line email body
    stays multi-line), amounts in every form of :func:`forms`."""
    args = [f for mc in reference for v in leaves(mc.arguments) for f in forms(v)]
    return "\x00".join([instruction, *args, answer or ""])


__all__ = ["MIN_CHARS", "fit_answers", "forms", "leaves", "said_text", "value_like"]
