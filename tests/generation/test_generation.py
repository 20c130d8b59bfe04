"""The four-stage generator: verified, deterministic, replayable tasks;
verification rejects planted bad tasks."""

from __future__ import annotations

import orjson
import pytest

from compoworld_gym.envs.compoworld_env import CompoWorldEnv
from compoworld_gym.generation import GenerationStats, generate_tasks, verify
from compoworld_gym.metatools import dispatch
from compoworld_gym.episode import evaluate, mount, score, state_check_services
from compoworld_gym.tasks import MetaCall


@pytest.fixture(scope="module")
def tasks():
    return generate_tasks(12, seed=3)


def test_deterministic_by_seed(tasks) -> None:
    again = generate_tasks(12, seed=3)
    assert [t.to_json() for t in again] == [t.to_json() for t in tasks]
    other = generate_tasks(3, seed=4)
    assert [t.instruction for t in other] != [t.instruction for t in tasks[:3]]


def test_tasks_are_well_formed(tasks) -> None:
    for t in tasks:
        assert len(t.services) >= 3
        assert t.composition["id"] == t.meta["composition_id"]
        assert len(t.services) + len(t.distractors) == 15
        assert "sequential-dependency" in t.capabilities
        report = next(c for c in t.checks if c.kind == "answer_contains")
        for v in report.values:  # the discovered value is never in the instruction
            assert v.lower() not in t.instruction.lower()
        assert verify(t, t.meta["guards"]).ok


def test_reference_scores_one_through_env(tasks) -> None:
    env = CompoWorldEnv(tasks=tasks)
    for t in tasks:
        env.reset(seed=0, options={"task": t.id})
        for mc in t.reference:
            obs, reward, term, trunc, info = env.step(mc.action())
            assert not term and not trunc
        obs, reward, term, trunc, info = env.step(orjson.dumps({"final_answer": t.reference_answer}).decode())
        assert term and reward == 1.0, (t.id, info["rubric"])


def test_initial_state_fails_some_check(tasks) -> None:
    from compoworld_gym.episode import evaluate

    for t in tasks:
        world = mount(t)
        results = evaluate(t, world.states(), None, [])
        assert not all(r.passed for r in results)


def _some_record(task, svc):
    for coll, recs in task.initial_state[svc].items():
        if isinstance(recs, dict) and recs and all(isinstance(r, dict) and "id" in r for r in recs.values()):
            return coll, next(iter(recs.values()))["id"]
    raise AssertionError(f"no id-keyed collection in {svc}")


def _variant(task, **update):
    from compoworld_gym.tasks import Task

    data = task.model_dump(mode="json")
    data.update({k: [x.model_dump() if hasattr(x, "model_dump") else x for x in v] if isinstance(v, list) else v
                 for k, v in update.items()})
    return Task.model_validate(data)


def test_rejects_check_satisfied_at_reset(tasks) -> None:
    # A positive item that already holds at reset pays an agent for doing nothing.
    t = tasks[0]
    svc = t.services[0]
    coll, rid = _some_record(t, svc)
    idle = {"kind": "record_exists", "id": "idle", "service": svc, "collection": coll, "where": {"id": rid}}
    bad = _variant(t, checks=[*t.checks, idle])
    verdict = verify(bad, t.meta["guards"])
    assert not verdict.ok and verdict.reason.startswith("nothing-scores") and "idle" in verdict.reason


def test_rejects_check_no_step_affects(tasks) -> None:
    # Calling a read tool at least once, when the reference reads it twice:
    # removing either read leaves the item passing, so no step is needed for it.
    t = tasks[0]
    i, read = next((i, mc) for i, mc in enumerate(t.reference) if mc.name == "call_tool"
                   and mc.arguments["tool_name"].split("__")[-1] in t.service_classes()[0].tools
                   and t.service_classes()[0].tools[mc.arguments["tool_name"].split("__")[-1]].read_only)
    tool = read.arguments["tool_name"].split("__")[-1]
    idle = {"kind": "tool_called", "id": "idle", "service": t.services[0], "tool": tool}
    bad = _variant(t, checks=[*t.checks, idle], reference=[*t.reference[:i + 1], read, *t.reference[i + 1:]])
    verdict = verify(bad, t.meta["guards"])
    assert not verdict.ok and verdict.reason.startswith("unaffected-check") and "idle" in verdict.reason


def test_rejects_guard_the_reference_breaks(tasks) -> None:
    t = next(t for t in tasks if any(c.kind == "only_changed" and c.allow_ids for c in t.checks))
    keep = next(c for c in t.checks if c.kind == "only_changed" and c.allow_ids)
    strict = [c.model_copy(update={"allow_ids": []}) if c.id == keep.id else c for c in t.checks]
    verdict = verify(_variant(t, checks=strict), t.meta["guards"])
    assert not verdict.ok and verdict.reason.startswith("guard-broken") and keep.id in verdict.reason


def test_rejects_task_without_positive_item(tasks) -> None:
    t = tasks[0]
    guards = [c for c in t.checks if c.is_guard]
    verdict = verify(_variant(t, checks=guards), [c.id for c in guards])
    assert not verdict.ok and verdict.reason.startswith("no-positive-check")


def test_rejects_guards_that_disagree_with_flags(tasks) -> None:
    t = tasks[0]
    verdict = verify(t, [*t.meta["guards"], "report"])
    assert not verdict.ok and verdict.reason.startswith("guard-mismatch") and "report" in verdict.reason


def test_guard_flags_match_meta(tasks) -> None:
    for t in tasks:
        assert {c.id for c in t.checks if c.is_guard} == set(t.meta["guards"]), t.id
        kinds = {c.kind for c in t.checks}
        assert {"only_changed", "writes_confined", "answer_contains"} <= kinds, t.id


def test_doing_nothing_scores_zero(tasks) -> None:
    for t in tasks:
        results = evaluate(t, mount(t).states(state_check_services(t)), "done", [])
        assert score(results) == 0.0, (t.id, [r.id for r in results if r.passed and not r.guard])
        assert all(r.passed for r in results if r.guard), t.id


def test_every_written_collection_is_guarded(tasks) -> None:
    for t in tasks:
        world = mount(t)
        before = world.states(t.services)
        for mc in t.reference:
            dispatch(world, mc.name, mc.arguments)
        after = world.states(t.services)
        guarded = {(c.service, c.collection) for c in t.checks if c.kind == "only_changed"}
        for svc in t.services:
            for coll, recs in after[svc].items():
                if isinstance(recs, dict) and recs and all(isinstance(r, dict) for r in recs.values()) \
                        and recs != before[svc].get(coll):
                    assert (svc, coll) in guarded, (t.id, svc, coll)


def test_rejects_task_passing_at_reset(tasks) -> None:
    t = tasks[0]
    svc = t.services[0]
    coll, rid = _some_record(t, svc)
    only = [{"kind": "record_exists", "id": "idle", "service": svc, "collection": coll, "where": {"id": rid}}]
    verdict = verify(_variant(t, checks=only))
    assert not verdict.ok and verdict.reason.startswith("passes-at-reset")


def test_rejects_failing_reference(tasks) -> None:
    t = tasks[0]
    writes = [i for i, mc in enumerate(t.reference) if mc.name == "call_tool"]
    # Drop the last real call: the reference no longer reaches the goal.
    ref = [mc for i, mc in enumerate(t.reference) if i != writes[-1]]
    verdict = verify(_variant(t, reference=ref), t.meta["guards"])
    assert not verdict.ok and verdict.reason.startswith("reference-below-1")
    broken = [*t.reference, MetaCall(name="call_tool", arguments={"tool_name": "no_such_tool", "arguments": {}})]
    verdict = verify(_variant(t, reference=broken), t.meta["guards"])
    assert not verdict.ok and verdict.reason.startswith("reference-call-failed")
    assert not verify(_variant(t, reference_answer="I did it.")).ok


def test_rejects_redundant_reference_step() -> None:
    # Repeating a write (a second identical email, a second identical due-date
    # change) is caught: the task's guards allow the reference's footprint
    # once (a second message breaks them), a copy that changes nothing is
    # redundant (removing it breaks no check), and one the service refuses fails.
    from compoworld_gym.generation import LIBRARY_V1, GenerationConfig

    reasons = []
    # The first library's seed-3 tasks, each with its last write (a reference ends on a write) made twice.
    for t in generate_tasks(4, seed=3, config=GenerationConfig(library=LIBRARY_V1)):
        last = [mc for mc in t.reference if mc.name == "call_tool"][-1]
        verdict = verify(_variant(t, reference=[*t.reference, last]), t.meta["guards"])
        assert not verdict.ok, (t.id, last)
        reasons.append(verdict.reason.split(":")[0])
    # A write the service refuses the second time (approving an approved request) fails the replay itself.
    assert len(reasons) == 4 and set(reasons) <= {"redundant-step", "guard-broken", "reference-call-failed"}, reasons
    assert "guard-broken" in reasons


def test_stats_summary() -> None:
    stats = GenerationStats()
    out = generate_tasks(4, seed=9, stats=stats)
    s = stats.summary()
    assert s["tasks"] == 4 == len(out)
    assert s["attempts"] == 4 + sum(s["rejected"].values())
    assert set(s["seconds"]) >= {"compose", "explore", "design", "verify", "submit", "total"}


def test_a_library_pins_generation_to_its_services() -> None:
    from compoworld_gym.generation import GenerationConfig, generate_tasks
    from compoworld_gym.generation.config import ConfigError

    names = ("crm", "drive", "gmail", "helpdesk", "invoicing", "orders", "shipping", "slack")
    tasks = generate_tasks(12, seed=3, config=GenerationConfig(library=names))
    used = {s for t in tasks for s in (*t.services, *t.distractors)}
    assert used <= set(names) and len(used) >= 5
    # Same library, same tasks, whatever else the catalog holds (the order of the names does not matter).
    again = generate_tasks(12, seed=3, config=GenerationConfig(library=tuple(reversed(names))))
    assert [t.model_dump_json() for t in again] == [t.model_dump_json() for t in tasks]
    with pytest.raises(ConfigError, match="unknown services: nope"):
        GenerationConfig(library=("crm", "nope"))
    with pytest.raises(ConfigError, match="2 or more"):
        GenerationConfig(library=("crm",))


def test_generate_library_v1_names_the_first_library(tmp_path) -> None:
    from typer.testing import CliRunner

    from compoworld_gym.cli import app
    from compoworld_gym.generation import LIBRARY_V1, GenerationConfig

    out = tmp_path / "t.jsonl"
    result = CliRunner().invoke(app, ["generate", "--n", "2", "--seed", "0", "--library", "v1", "--out", str(out)])
    assert result.exit_code == 0, result.output
    plain = generate_tasks(2, seed=0, config=GenerationConfig(library=LIBRARY_V1))
    assert out.read_text().splitlines() == [t.to_json() for t in plain]
