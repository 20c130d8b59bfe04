"""Instruction wording: several templates per part, chosen by the task's seed.

An instruction has a goal (one sentence pair per step of the chain), house
rules and the report wanted at the end. Values the agent must discover
never appear; only cues (reference codes, subjects) and fixed parameters do.
"""

from __future__ import annotations

import random
from typing import Any

OPENERS = (
    "I need some cross-team cleanup done today.",
    "Please take care of the following for me.",
    "Here is a small piece of operations work.",
    "A customer case needs follow-up across our tools.",
    "Can you handle this request end to end?",
)
FIND = (
    "In {svc}, find {noun} {locate}.",
    "Look up {noun} {locate} in {svc}.",
    "Check {svc} for {noun} {locate}.",
    "Use {svc} to find out {noun} {locate}.",
    "Start from {svc}: get {noun} {locate}.",
    "Pull up {noun} {locate} ({svc}).",
)
#: Openers that name the task's one case, so the steps read as one piece of work.
CASE_OPENERS = (
    "Everything below is for {case}; please work it end to end.",
    "I'm closing out {case} and need a few things done across our tools.",
    "Follow-up work for {case}, in this order.",
    "{Case} needs attention today.",
    "We owe the customer on {case} some updates; here is what to do.",
)
THEN = ("Then {act}.", "Next, {act}.", "With that, {act}.", "Once you have it, {act}.", "Use it to {act}.",
        "After that, {act}.")
REVISIT = ("Afterwards, go back and {act}.", "Finally return to it and {act}.")
RULE_HEADS = ("House rules:", "Rules to follow:", "Please respect these rules:")
#: Always stated: every generated task guards it (``only_changed`` checks).
KEEP_RULE = "Do not change or create records this request does not mention, and message nobody else."
GENERIC_RULES = (
    "Keep everything else as it is.",
    "Look values up; never guess ids or addresses.",
)
REPORT = (
    "In your final answer, report {noun} you found.",
    "When you are done, tell me {noun} you used.",
    "Finish with a short summary that states {noun}.",
)
#: Always stated: a report must not list every candidate (``answer_excludes``).
REPORT_ONLY = "Name just that value, not the other candidates you looked at."


def _cap(text: str) -> str:
    return text[:1].upper() + text[1:]


def _svc(hooks: dict[str, Any], name: str) -> str:
    hook = hooks.get(name)
    return hook.label if hook is not None else name.replace("_", " ")


def instruction(rng: random.Random, hops: list[Any], hooks: dict[str, Any], rules: list[str],
                reported: Any, case: str | None = None) -> str:
    """The user message of a task.

    Args:
        rng: the task's random source (template choices).
        hops: the design's hops (fact + sink per step).
        hooks: ``{service: ServiceHook}`` (service labels).
        rules: house rules gathered by the design.
        reported: the fact whose value the final answer must state.
        case: the task's case reference, when its writes share one.
    """
    if case:
        parts = [rng.choice(CASE_OPENERS).format(case=case, Case=_cap(case))]
    else:
        parts = [rng.choice(OPENERS)]
    for hop in hops:
        fact = hop.fact
        parts.append(rng.choice(FIND).format(svc=_svc(hooks, fact.service), noun=fact.noun, locate=fact.locate))
        act = hop.sink.phrase.format(ref=fact.ref)
        template = rng.choice(REVISIT) if hop.step.revisit else rng.choice(THEN)
        parts.append(template.format(act=act))
    lines = [" ".join(parts), "", rng.choice(RULE_HEADS)]
    extra = rng.choice(GENERIC_RULES)
    lines += [f"- {_cap(r)}" for r in [*rules, KEEP_RULE, *([extra] if extra != GENERIC_RULES[0] else [])]]
    lines += ["", f"{rng.choice(REPORT).format(noun=reported.noun)} {REPORT_ONLY}"]
    return "\n".join(lines)
