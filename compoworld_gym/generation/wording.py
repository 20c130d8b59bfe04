"""The instruction of a chained task: a goal and house rules, never the steps.

A :class:`Brief` is what any designer (these templates, or a language model
through :mod:`.designer`) may use: the case, the record it starts from, the
goal of each write, where facts live, which record wins, where the policy is
and what to report. It holds no value the agent must discover; the values it
must never state are in ``forbidden``, and :func:`leaks` checks a written
instruction against them.
"""

from __future__ import annotations

import random
import re
from dataclasses import dataclass, field

OPENERS = (
    "{Case} starts from {entry}. Please work it end to end: {goals}.",
    "I need {case} closed out today. It begins with {entry}; {goals}.",
    "Please handle {case} ({entry}): {goals}.",
    "Work {case} from {entry} through to the end: {goals}.",
    "{entry_cap} is the starting point of {case}. Take it from there: {goals}.",
)
RULE_HEADS = ("House rules:", "Rules of the house:", "How we work:")
#: Always stated: every generated task guards it (``only_changed`` items).
KEEP_RULE = "Change nothing else and message nobody else; look every value up, never guess it."
REPORTS = (
    "When you are done, report {report} in your final answer, and only that value.",
    "Finish by stating {report}; name just that value.",
    "Your final answer should give {report} and nothing else.",
)


@dataclass
class Brief:
    """What an instruction may say (see the module docstring).

    Attributes:
        case: the case reference, e.g. ``"case KQ-4821"``.
        entry: the record the case starts from, e.g. ``"ticket TCK-0042"``.
        goals: one goal phrase per write ("refund the order total on the customer's order").
        facts: where each fact lives ("The ticket names the customer and the order it is about.").
        truths: which record wins ("A cancelled order does not count.").
        policy: where the policy lives and which version counts, or None.
        ordering: ordering rules ("No money moves before ...").
        report: what the final answer reports ("the order total").
        forbidden: values the instruction must not contain (discovered values).
        tools: tool names the instruction must not contain.
    """

    case: str
    entry: str
    goals: list[str]
    facts: list[str]
    truths: list[str] = field(default_factory=list)
    policy: str | None = None
    ordering: list[str] = field(default_factory=list)
    report: str = ""
    forbidden: list[str] = field(default_factory=list)
    tools: list[str] = field(default_factory=list)


def _cap(text: str) -> str:
    return text[:1].upper() + text[1:]


def _join(items: list[str]) -> str:
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " and " + items[-1]


def render(brief: Brief, rng: random.Random) -> str:
    """The offline designer: the instruction from templates chosen by ``rng``."""
    opener = rng.choice(OPENERS).format(case=brief.case, Case=_cap(brief.case), entry=brief.entry,
                                        entry_cap=_cap(brief.entry), goals=_join(brief.goals))
    facts = list(brief.facts)
    rng.shuffle(facts)  # where facts live, in no particular order: the agent plans the path
    rules = [*facts, *brief.truths, *([brief.policy] if brief.policy else []), *brief.ordering, KEEP_RULE]
    lines = [opener, "", rng.choice(RULE_HEADS), *[f"- {_cap(r)}" for r in rules], "",
             rng.choice(REPORTS).format(report=brief.report)]
    return "\n".join(lines)


def leaks(text: str, brief: Brief) -> list[str]:
    """Forbidden values and tool names that ``text`` states (case-blind).

    Tool names are matched as whole words, so a tool called ``query`` does
    not forbid the word in prose; names with an underscore always count.
    """
    low = text.casefold()
    out = [v for v in brief.forbidden if len(v) >= 3 and v.casefold() in low]
    for tool in brief.tools:
        name = tool.casefold()
        # The substring test first: the word-boundary regex only runs on a hit.
        if ("_" in tool or len(tool) > 12) and name in low and re.search(rf"\b{re.escape(name)}\b", low):
            out.append(tool)
    return out


__all__ = ["Brief", "KEEP_RULE", "leaks", "render"]
