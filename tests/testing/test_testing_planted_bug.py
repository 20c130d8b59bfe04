"""The toolkit can fail: planted bugs are found, named and shrunk to a minimal trace."""

from __future__ import annotations

import datetime as dt
import random

import orjson
import pytest
from faker import Faker
from pydantic import Field

from compoworld_gym.catalog import UnknownService, get_service
from compoworld_gym.entities import Id
from compoworld_gym.service import Record, Service, ServiceState, tool
from compoworld_gym.testing import FuzzFailure, FuzzProfile, fuzz_service

#: The planted trigger: 600 <= min_priority < 650, i.e. 5% of one parameter of one tool.
TRIGGER_LOW, TRIGGER_HIGH = 600, 650


class Note(Record):
    """A note."""

    id: Id("note") = Field(description="Note id, e.g. NOTE-0001.")
    text: str = Field(min_length=1, description="Note text.")
    priority: int = Field(ge=0, le=1000, description="Priority 0-1000.")


class NotesState(ServiceState):
    """Notes by id."""

    notes: dict[str, Note] = Field(default_factory=dict, description="Notes by id.")


class PlantedNotes(Service):
    """A notes service whose read-only listing corrupts the clock on a rare argument."""

    name = "planted_notes"
    description = "Notes with a planted bug."
    domain = "test"
    State = NotesState

    @tool(read_only=False)
    def add_note(self, text: str = Field(min_length=1, max_length=200),
                 priority: int = Field(default=0, ge=0, le=1000)) -> dict:
        """Add a note.

        Args:
            text: the note text.
            priority: 0-1000.
        """
        note = Note(id=self.new_id("NOTE"), text=text, priority=priority)
        self.state.notes[note.id] = note
        return note.model_dump()

    @tool(read_only=True)
    def list_notes(self, min_priority: int = Field(default=0, ge=0, le=1000)) -> list[dict]:
        """List notes with at least a priority.

        Args:
            min_priority: lowest priority listed.
        """
        if TRIGGER_LOW <= min_priority < TRIGGER_HIGH:
            self.state.clock = -1  # the planted bug: read-only tools are neither snapshotted nor validated
        return [n.model_dump() for n in self.state.notes.values() if n.priority >= min_priority]

    @classmethod
    def build_seed_state(cls, fake: Faker, rng: random.Random, today: dt.date) -> NotesState:
        state = NotesState()
        for i in range(1, 4):
            state.notes[f"NOTE-{i:04d}"] = Note(id=f"NOTE-{i:04d}", text=fake.sentence(), priority=rng.randint(0, 9))
        state.counters["NOTE"] = 4
        return state


class LeakyNotes(PlantedNotes):
    """Echoes the task's hidden rubric text through a tool result."""

    name = "leaky_notes"
    leak = ""

    @tool(read_only=True)
    def list_notes(self, min_priority: int = Field(default=0, ge=0, le=1000)) -> list[dict]:
        """List notes with at least a priority.

        Args:
            min_priority: lowest priority listed.
        """
        return [{"debug": type(self).leak}]


class StickyNotes(PlantedNotes):
    """Keeps a class-level counter: ids survive a reset."""

    name = "sticky_notes"
    issued = 0

    @tool(read_only=False)
    def add_note(self, text: str = Field(min_length=1, max_length=200),
                 priority: int = Field(default=0, ge=0, le=1000)) -> dict:
        """Add a note (buggy: ids from a global counter).

        Args:
            text: the note text.
            priority: 0-1000.
        """
        type(self).issued += 1
        note = Note(id=f"NOTE-{100 + type(self).issued:04d}", text=text, priority=priority)
        self.state.notes[note.id] = note
        return note.model_dump()


class TransactionlessNotes(PlantedNotes):
    """A read-only tool that mutates, then fails: the failed call changes state."""

    name = "transactionless_notes"

    @tool(read_only=True)
    def list_notes(self, min_priority: int = Field(default=0, ge=0, le=1000)) -> list[dict]:
        """List notes with at least a priority.

        Args:
            min_priority: lowest priority listed.
        """
        self.state.notes.clear()
        return self.lookup({}, "x", "note")


QUICK = FuzzProfile(runs=100, steps=6)


def _failure(service: type[Service], profile: FuzzProfile = QUICK) -> FuzzFailure:
    with pytest.raises(FuzzFailure) as info:
        fuzz_service(service, profile=profile, quiet=True)
    return info.value


def _calls(failure: FuzzFailure) -> list[dict]:
    action = orjson.loads(failure.action)
    return action if isinstance(action, list) else [action]


def _first_failure(service: type[Service], seeds: range) -> FuzzFailure:
    """The failure of the first campaign seed that finds the bug (a 5% integer range
    is hit by some 100-run campaigns and not others, depending on the draws)."""
    for s in seeds:
        try:
            fuzz_service(service, profile=QUICK, seed=s, quiet=True)
        except FuzzFailure as failure:
            return failure
    pytest.fail(f"no campaign of seeds {seeds.start}..{seeds.stop - 1} found the planted bug")


def test_planted_bug_is_found_and_shrunk_to_the_trigger():
    failure = _first_failure(PlantedNotes, range(12))
    assert failure.invariant == "state-invalid"
    assert "clock" in failure.detail
    # minimal: one seeded reset, then one step whose last call is the bug with the
    # smallest triggering value (at most one other call survives in the same batch)
    assert [kind for kind, _ in failure.trace] == ["reset", "step"]
    assert failure.trace[0] == ("reset", 0)
    calls = _calls(failure)
    assert len(calls) <= 2
    assert calls[-1]["arguments"] == {"tool_name": "list_notes", "arguments": {"min_priority": TRIGGER_LOW}}
    assert "reproducing trace" in str(failure) and str(TRIGGER_LOW) in str(failure)
    with pytest.raises(UnknownService):  # fuzz_service restored the catalog
        get_service("planted_notes")


def test_a_leak_of_rubric_text_is_found():
    LeakyNotes.leak = "cw-canary rubric description 0: never shown to the agent"
    failure = _failure(LeakyNotes)
    assert failure.invariant == "rubric-leak"
    assert "cw-canary rubric description" in failure.detail


def test_ids_surviving_a_reset_are_found():
    failure = _failure(StickyNotes)
    assert failure.invariant in ("reset-leak", "nondeterministic")
    assert any(kind == "reset" for kind, _ in failure.trace[1:]) or failure.invariant == "nondeterministic"


def test_a_failed_call_that_changes_state_is_found():
    failure = _failure(TransactionlessNotes)
    assert failure.invariant == "unexpected-state-change"
    assert any(c["arguments"].get("tool_name") == "list_notes" for c in _calls(failure))


def test_a_snippet_of_a_public_record_is_not_a_rubric_leak():
    """Regression (million-action campaign, seed 7): a report item's ``others`` list the values
    the reference's tool results returned, such as gmail's 100-character snippet of a policy
    memo; the fuzz took that snippet for hidden rubric text the moment ``list_messages`` showed it."""
    from compoworld_gym.envs.compoworld_env import CompoWorldEnv
    from compoworld_gym.generation import LIBRARY_V1, GenerationConfig, generate_tasks
    from compoworld_gym.testing import hidden_texts, tasks_env_factory
    from compoworld_gym.testing.state_machine import env_state_machine

    tasks = generate_tasks(3, seed=264306621, config=GenerationConfig(library=LIBRARY_V1))  # the campaign's library
    env = CompoWorldEnv(tasks=list(tasks), max_steps=12)
    env.reset(seed=0)
    task, world = env.unwrapped.task, env.unwrapped.world
    obs, *_ = env.step(orjson.dumps({"name": "call_tool", "arguments": {
        "tool_name": "gmail__list_messages", "arguments": {}}}).decode())
    snippet = "Escalation routing by expense report total. When the expense report total is $2,440.00 or more, t..."
    assert snippet in obs and any(snippet in other for c in task.checks for other in getattr(c, "others", []))
    secrets = hidden_texts(task, world)
    assert snippet not in secrets
    assert {c.description for c in task.checks} <= set(secrets)  # descriptions stay hidden

    machine = env_state_machine(tasks_env_factory(tasks))()
    machine.do_reset(0)
    machine.do_step(orjson.dumps([{"name": "call_tool", "arguments": {"tool_name": "search_responses", "arguments": {}}},
                                  {"name": "call_tool", "arguments": {"tool_name": "gmail__list_messages",
                                                                      "arguments": {}}}]).decode())
    machine.teardown()
