"""Rubric checks: declarative, serialisable acceptance predicates.

Each check is one *rubric item* (paper §2.5). Checks read only the final
state of each service, the final answer and the ordered log of real tool
calls — never the agent's claims, so a reward cannot be talked into.
They are pydantic models discriminated by ``kind``, so a task file holds
them as plain JSON (no pickled lambdas). Field paths and where-clauses are
those of :mod:`compoworld_gym.matching`.
"""

from __future__ import annotations

import functools
from typing import Annotated, Any, Literal, Optional, Union

from pydantic import BaseModel, ConfigDict, Field

from compoworld_gym.matching import get_path, matches, records
from compoworld_gym.state_diff import only_changed


#: Kinds that are guards by default: they hold in the initial state and can
#: only be broken (nothing else touched, no wrong answer, no forbidden call).
GUARD_KINDS = frozenset({"record_unchanged", "record_absent", "tool_not_called", "only_changed",
                            "answer_excludes", "writes_confined"})

#: Bookkeeping every service state carries (id counters, the logical clock):
#: any write moves it, so it is not part of what a write may change.
BOOKKEEPING = frozenset({"counters", "clock"})


class _Check(BaseModel):
    model_config = ConfigDict(extra="forbid")

    id: str = Field(description="Rubric item id, unique within a task.")
    description: str = Field(default="", description="What the item checks, for people (never shown to agents).")
    guard: Optional[bool] = Field(
        default=None, description="A guard (something that must stay true) rather than work to do; "
                                   "defaults by kind (GUARD_KINDS). Guards scale the reward "
                                   "instead of earning it (see compoworld_gym.rewards.score). "
                                   "Called 'negative' in task schema_version 1.")

    @property
    def is_guard(self) -> bool:
        """Whether this item is a guard (explicit flag, else by kind)."""
        return self.guard if self.guard is not None else self.kind in GUARD_KINDS  # type: ignore[attr-defined]

    def evaluate(self, final_states: dict[str, Any], answer: Optional[str],
                 call_log: list[dict[str, Any]], initial_states: dict[str, Any]) -> bool:
        """Whether the item passes. Never raises on odd states: a missing
        service, collection or record simply fails the item.

        Args:
            final_states: ``{service: state JSON dict}`` at the end of the episode.
            answer: the agent's final answer, or None if it never answered.
            call_log: the world's ordered log of real tool calls (dicts with
                ``index``, ``service``, ``tool``, ``arguments``, ``success``).
            initial_states: ``{service: state JSON dict}`` at reset.
        """
        raise NotImplementedError(f"{type(self).__name__} does not define evaluate()")

    def reads(self) -> tuple[frozenset[str], frozenset[str]]:
        """``(services whose final state it reads, services whose initial state it reads)``."""
        return frozenset(), frozenset()


class _StateCheck(_Check):
    service: str = Field(description="Service whose final state is read.")
    collection: str = Field(description="Top-level state field holding the records (dict or list).")

    def reads(self) -> tuple[frozenset[str], frozenset[str]]:
        """The final state of :attr:`service` (and its initial state for checks that compare)."""
        compares = self.kind in ("record_unchanged", "only_changed")  # type: ignore[attr-defined]
        return frozenset({self.service}), frozenset({self.service}) if compares else frozenset()


class RecordExists(_StateCheck):
    """Passes when at least one record of the collection matches ``where``."""

    kind: Literal["record_exists"] = "record_exists"
    where: dict[str, Any]

    def evaluate(self, final_states: dict[str, Any], answer: Optional[str],
                 call_log: list[dict[str, Any]], initial_states: dict[str, Any]) -> bool:
        """At least one record of the final collection matches ``where``."""
        return any(matches(r, self.where) for r in records(_collection(final_states, self)))


class RecordAbsent(_StateCheck):
    """Passes when no record matches ``where`` (e.g. nobody else notified)."""

    kind: Literal["record_absent"] = "record_absent"
    where: dict[str, Any]

    def evaluate(self, final_states: dict[str, Any], answer: Optional[str],
                 call_log: list[dict[str, Any]], initial_states: dict[str, Any]) -> bool:
        """No record of the final collection matches ``where``."""
        return _n_matching(final_states, self) == 0


class RecordCount(_StateCheck):
    """Passes when the number of records matching ``where`` satisfies ``op value``."""

    kind: Literal["record_count"] = "record_count"
    where: dict[str, Any] = Field(default_factory=dict)
    op: Literal["eq", "ge", "le"] = "eq"
    value: int

    def evaluate(self, final_states: dict[str, Any], answer: Optional[str],
                 call_log: list[dict[str, Any]], initial_states: dict[str, Any]) -> bool:
        """The number of final records matching ``where`` satisfies ``op value``."""
        n = _n_matching(final_states, self)
        return {"eq": n == self.value, "ge": n >= self.value, "le": n <= self.value}[self.op]


class RecordMatches(_StateCheck):
    """Passes when the record with key ``record_id`` exists and matches ``where``."""

    kind: Literal["record_matches"] = "record_matches"
    record_id: str
    where: dict[str, Any]

    def evaluate(self, final_states: dict[str, Any], answer: Optional[str],
                 call_log: list[dict[str, Any]], initial_states: dict[str, Any]) -> bool:
        """The final record ``record_id`` exists and matches ``where``."""
        rec = _record(_collection(final_states, self), self.record_id)
        return rec is not None and matches(rec, self.where)


class RecordUnchanged(_StateCheck):
    """Passes when the record with key ``record_id`` is exactly as it was at reset."""

    kind: Literal["record_unchanged"] = "record_unchanged"
    record_id: str

    def evaluate(self, final_states: dict[str, Any], answer: Optional[str],
                 call_log: list[dict[str, Any]], initial_states: dict[str, Any]) -> bool:
        """The record ``record_id`` existed at reset and is equal at the end."""
        before = _record(_collection(initial_states, self), self.record_id)
        after = _record(_collection(final_states, self), self.record_id)
        return before is not None and before == after


class AnswerContains(_Check):
    """Passes when the final answer reports the requested value(s) and no
    confusable one.

    The answer must contain every value of ``values`` (case-insensitive,
    whitespace-normalised; with ``any_of``, at least one: the spellings of one
    value), must name at most ``allowance`` of the ``candidates`` (the values
    it could be confused with: planted decoys and every other value of the
    same entity type in the mounted state), at most ``max_others`` of the
    ``others`` (the other values of the records the work reads) and must be
    at most ``max_chars`` long. A value is named when it appears as a whole
    token (not inside a longer id or number). So an answer that dumps every
    value seen fails, while one that reports the value, with any honest
    account of what the task itself said and wrote, passes
    (:mod:`compoworld_gym.answers` fills both lists)."""

    kind: Literal["answer_contains"] = "answer_contains"
    values: list[str] = Field(min_length=1)
    any_of: bool = False
    candidates: list[str] = Field(default_factory=list, description="Confusable values the answer must not name.")
    allowance: int = Field(default=0, ge=0, description="How many candidates an answer may name besides the values.")
    others: list[str] = Field(default_factory=list, description="Other values of the records the work reads.")
    max_others: int = Field(default=4, ge=0, description="How many of ``others`` an answer may name.")
    max_chars: int = Field(default=2000, ge=1)

    def evaluate(self, final_states: dict[str, Any], answer: Optional[str],
                 call_log: list[dict[str, Any]], initial_states: dict[str, Any]) -> bool:
        """The answer (at most ``max_chars``) contains every value (with
        ``any_of``: one), names at most ``allowance`` candidates and at most
        ``max_others`` others."""
        if answer is not None and len(answer) > self.max_chars:
            return False
        text = _norm_text(answer or "")
        hits = [_norm_text(v) in text for v in self.values]
        if not (any(hits) if self.any_of else all(hits)):
            return False
        if self.candidates and _named(text, tuple(self.candidates)) > self.allowance:
            return False
        return not self.others or _named(text, tuple(self.others)) <= self.max_others


def _named(text: str, values: tuple[str, ...]) -> int:
    """How many of ``values`` appear in normalised ``text`` as whole tokens:
    not inside a longer token (no letter or digit next to it where the value
    itself starts or ends with one, so "TCK-0001" is not named by
    "TCK-00012" but is by "TCK-0001_TCK-0002"). A substring test first: most
    of hundreds of candidates are not in a short answer."""
    n = 0
    for v in _normed(values):
        if not v or v not in text:
            continue
        at = text.find(v)
        while at >= 0:
            before = text[at - 1] if at else " "
            after = text[at + len(v)] if at + len(v) < len(text) else " "
            if not (_word(before) and _word(v[0])) and not (_word(after) and _word(v[-1])):
                n += 1
                break
            at = text.find(v, at + 1)
    return n


def _word(ch: str) -> bool:
    # Only letters and digits continue a token: "TCK-0012_TCK-0013" names both.
    return ch.isalnum()


@functools.lru_cache(maxsize=256)
def _normed(values: tuple[str, ...]) -> tuple[str, ...]:
    """Normalised values, once per list (a list can hold hundreds of look-alikes).

    Small on purpose: every generated task brings new lists (about 90 KB
    each), and a 4096-entry cache grew a long ``generate`` run by ~350 MB;
    a miss costs only ~0.1 ms."""
    return tuple(_norm_text(v) for v in values)


class AnswerExcludes(_Check):
    """Passes when the final answer contains none of the values (wrong ids,
    decoys, negations such as "not a VIP"); case-insensitive. A guard."""

    kind: Literal["answer_excludes"] = "answer_excludes"
    values: list[str] = Field(min_length=1)

    def evaluate(self, final_states: dict[str, Any], answer: Optional[str],
                 call_log: list[dict[str, Any]], initial_states: dict[str, Any]) -> bool:
        """The answer contains none of the values (a missing answer passes)."""
        text = _norm_text(answer or "")
        return not any(v in text for v in _normed(tuple(self.values)))


class OnlyChanged(_StateCheck):
    """Nothing else touched, nothing done twice: every record of the
    collection outside ``allow_ids`` is exactly as it was at reset (none
    deleted); every new record matches ``allow_new`` (no new record allowed
    when it is None) and there are at most ``max_new`` of them; and no list
    field named in ``max_added`` gained more items in any record than it
    allows; and in an allowed record listed in ``allow_paths`` nothing
    changes but those paths (the fields the task's own write sets: not the
    status, not another row of the table, not deleting it). A guard against
    vandalism, spam and repeated work (closing every ticket, emailing
    everyone, sending the same message twice, adding a comment again). An
    update that sets a field to the value it already has changes nothing and
    breaks nothing."""

    kind: Literal["only_changed"] = "only_changed"
    allow_ids: list[str] = Field(default_factory=list)
    allow_new: Optional[dict[str, Any]] = None
    max_new: Optional[int] = Field(default=None, ge=0, description="At most this many new records (None: any).")
    max_added: dict[str, int] = Field(
        default_factory=dict, description="{list path (see list_sizes): at most this many items added to it "
                                          "in one record}.")
    allow_paths: dict[str, list[str]] = Field(
        default_factory=dict, description="{allowed record id: the only paths in it that may change (see "
                                          "changed_paths)}; an allowed id not listed may change anywhere.")

    def evaluate(self, final_states: dict[str, Any], answer: Optional[str],
                 call_log: list[dict[str, Any]], initial_states: dict[str, Any]) -> bool:
        """Only ``allow_ids`` changed, none deleted, new records match
        ``allow_new`` and number at most ``max_new``, lists grew within ``max_added``."""
        return only_changed(self, _collection(initial_states, self), _collection(final_states, self))


class WritesConfined(_Check):
    """Nothing written outside the task's footprint: each service of
    ``services`` ends exactly as it was at reset, except the collections
    ``allow`` names for it (and, on a service with an allowed collection, its
    bookkeeping: id counters and clock). A guard against writes to
    distractor services and to collections no item of work concerns."""

    kind: Literal["writes_confined"] = "writes_confined"
    services: list[str] = Field(min_length=1, description="The services watched (every mounted service).")
    allow: dict[str, list[str]] = Field(default_factory=dict, description="{service: collections it may change}.")

    def evaluate(self, final_states: dict[str, Any], answer: Optional[str],
                 call_log: list[dict[str, Any]], initial_states: dict[str, Any]) -> bool:
        """Every watched service's state outside ``allow`` equals its initial state."""
        for name in self.services:
            before, after = initial_states.get(name), final_states.get(name)
            if before is None or after is None:
                return False
            if before is after or before == after:
                continue
            skip = set(self.allow.get(name, ())) | (BOOKKEEPING if name in self.allow else set())
            if any(before.get(k) != after.get(k) for k in before.keys() | after.keys() if k not in skip):
                return False
        return True

    def reads(self) -> tuple[frozenset[str], frozenset[str]]:
        """The final and initial state of every watched service."""
        return frozenset(self.services), frozenset(self.services)


class ToolCalled(_Check):
    """Passes when a successful call of ``tool`` (on ``service``) whose
    arguments match ``where`` happened at least ``min_count`` times."""

    kind: Literal["tool_called"] = "tool_called"
    service: str
    tool: str
    where: dict[str, Any] = Field(default_factory=dict)
    min_count: int = 1

    def evaluate(self, final_states: dict[str, Any], answer: Optional[str],
                 call_log: list[dict[str, Any]], initial_states: dict[str, Any]) -> bool:
        """At least ``min_count`` successful matching calls are in the log."""
        return len(_calls(call_log, self)) >= self.min_count


class ToolNotCalled(_Check):
    """Passes when no successful call of ``tool`` with matching arguments happened."""

    kind: Literal["tool_not_called"] = "tool_not_called"
    service: str
    tool: str
    where: dict[str, Any] = Field(default_factory=dict)

    def evaluate(self, final_states: dict[str, Any], answer: Optional[str],
                 call_log: list[dict[str, Any]], initial_states: dict[str, Any]) -> bool:
        """No successful matching call is in the log."""
        return not _calls(call_log, self)


class CallPattern(BaseModel):
    """A pattern over call-log entries: service, tool and an argument where-clause."""

    model_config = ConfigDict(extra="forbid")
    service: str
    tool: str
    where: dict[str, Any] = Field(default_factory=dict)


class CallOrder(_Check):
    """Ordering rule checked on the call log ("re-check X before money moves").

    With ``require="every_after"`` (default) it passes when at least one
    successful call matches ``after`` and every such call is preceded by a
    successful call matching ``before`` (an ordering rule). With
    ``require="some_after"`` it passes when some ``after`` call follows some
    ``before`` call (a re-read after a state change).
    """

    kind: Literal["call_order"] = "call_order"
    before: CallPattern
    after: CallPattern
    require: Literal["every_after", "some_after"] = "every_after"

    def evaluate(self, final_states: dict[str, Any], answer: Optional[str],
                 call_log: list[dict[str, Any]], initial_states: dict[str, Any]) -> bool:
        """The ``before``/``after`` calls are ordered as ``require`` says."""
        befores = _calls(call_log, self.before)
        afters = _calls(call_log, self.after)
        if not (afters and befores):
            return False
        if self.require == "some_after":
            return max(afters) > min(befores)
        return min(befores) < min(afters)


Check = Annotated[
    Union[RecordExists, RecordAbsent, RecordCount, RecordMatches, RecordUnchanged, OnlyChanged,
          WritesConfined, AnswerContains, AnswerExcludes, ToolCalled, ToolNotCalled, CallOrder],
    Field(discriminator="kind"),
]


class CheckResult(BaseModel):
    """The outcome of one rubric item (``guard``: the item is a guard)."""

    id: str
    kind: str
    passed: bool
    guard: bool = False
    description: str = ""


def _collection(states: dict[str, Any], check: _StateCheck) -> Any:
    return (states.get(check.service) or {}).get(check.collection)


def _n_matching(states: dict[str, Any], check: Any) -> int:
    return sum(1 for r in records(_collection(states, check)) if matches(r, check.where))


def _norm_text(text: str) -> str:
    """Whitespace runs as one space, ends trimmed, case folded. ``str.split``
    splits on exactly the characters ``\\s`` matches (``str.isspace``), so this
    is ``re.sub(r"\\s+", " ", text).strip().casefold()`` without the regex
    engine (answer items normalise hundreds of candidates)."""
    return " ".join(text.split()).casefold()


def _calls(log: list[dict[str, Any]], pattern: Any) -> list[int]:
    return [e["index"] for e in log if e["success"] and e["service"] == pattern.service
            and e["tool"] == pattern.tool and matches(e["arguments"], pattern.where)]


def _record(collection: Any, record_id: str) -> Optional[Any]:
    if isinstance(collection, dict):
        return collection.get(record_id)
    for rec in records(collection):
        if get_path(rec, "id") == record_id:
            return rec
    return None


def run_check(check: _Check, final_states: dict[str, Any], answer: Optional[str],
              call_log: list[dict[str, Any]], initial_states: dict[str, Any]) -> bool:
    """Evaluate one check (``check.evaluate(...)``, kept for callers); see :meth:`_Check.evaluate`."""
    return check.evaluate(final_states, answer, call_log, initial_states)


def evaluate_checks(checks: list[Any], final_states: dict[str, Any], answer: Optional[str],
                    call_log: list[dict[str, Any]], initial_states: dict[str, Any]) -> list[CheckResult]:
    """One :class:`CheckResult` per check, in the task's order.

    Args:
        checks: the task's rubric items.
        final_states: ``{service: state JSON dict}`` at the end of the episode.
        answer: the agent's final answer, or None if it never answered.
        call_log: the world's ordered log of real tool calls.
        initial_states: ``{service: state JSON dict}`` at reset (for
            ``record_unchanged``).
    """
    return [CheckResult(id=c.id, kind=c.kind, description=c.description, guard=c.is_guard,
                        passed=run_check(c, final_states, answer, call_log, initial_states))
            for c in checks]
