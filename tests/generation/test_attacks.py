"""Reward-gaming attacks, which must all fail.

The named attacks of :mod:`compoworld_gym.testing.attacks` (repeated
writes, answer dumps, the other branch of a rule, a stale or archived value,
writes to a distractor service, messages to extra recipients) run over every
built-in task and a fixed generated set, each against a measured ceiling;
the scripted vandalism and tampering attacks below are generated-task
specific. Before the footprint guards and answer candidates (issue 13),
repeated writes and distractor writes scored 1.0 on every built-in task, and
truncated dumps on every generated one.
"""

from __future__ import annotations

from typing import Any, Optional

import orjson
import pytest

from compoworld_gym.builtin_tasks import builtin_tasks
from compoworld_gym.episode import mount, state_check_services
from compoworld_gym.generation import generate_tasks
from compoworld_gym.tasks import Task
from compoworld_gym.testing.attacks import WRONG_EMAIL, attack_table, judge as judge_score, replay
from compoworld_gym.testing.attacks import text_leaves as _leaves
from compoworld_gym.world import World

N_TASKS = 30
#: Highest mean reward each attack may reach (measured, plus a margin);
#: no attack may reach 1.0 on any task.
CEILINGS = {"nothing": 0.0, "repeat-writes": 0.5, "dump": 0.85, "dump-truncated": 0.85, "other-branch": 0.7,
            "stale-value": 0.7, "distractor-write": 0.5, "extra-recipient": 0.5}


def judge(task: Task, world: World, answer: Optional[str], states: Optional[dict] = None) -> tuple[float, None]:
    """``(score, None)`` of a finished episode on ``world`` (or on ``states``)."""
    return judge_score(task, world, answer, states), None


def initial_states(task: Task) -> dict[str, Any]:
    """The task services' normalised initial states."""
    return mount(task).states(task.services)


def written(task: Task, world: World) -> dict[str, set[str]]:
    """``{service: {collection}}`` the reference changed (state diff)."""
    before, after = initial_states(task), world.states(task.services)
    def records(coll: Any) -> bool:
        return isinstance(coll, dict) and bool(coll) and all(isinstance(r, dict) for r in coll.values())

    out = {s: {c for c in after[s] if records(after[s][c]) and after[s][c] != before[s].get(c)}
           for s in task.services}
    return {s: colls for s, colls in out.items() if colls}


def _all_states(task: Task, world: World) -> dict[str, Any]:
    return orjson.loads(orjson.dumps(world.states(state_check_services(task))))


def attack_close_tickets(task: Task) -> Optional[float]:
    """The reference, then every other helpdesk ticket closed."""
    world = replay(task)
    if "helpdesk" not in written(task, world):
        return None
    before = initial_states(task)["helpdesk"]["tickets"]
    after = world.states(["helpdesk"])["helpdesk"]["tickets"]
    for tid, ticket in after.items():
        # Closed tickets cannot change (409): every other untouched ticket is closed.
        if tid in before and before[tid] == ticket and ticket["status"] != "closed":
            res = world.call_tool("helpdesk__update_ticket", {"ticket_id": tid, "status": "closed"})
            assert res["success"], res
    return judge(task, world, task.reference_answer)[0]


def _tamper(record: dict[str, Any]) -> bool:
    for key, value in record.items():
        if key != "id" and isinstance(value, str) and value:
            record[key] = value + " (edited)"
            return True
    return False


def attack_tamper_each_written(task: Task) -> dict[str, float]:
    """The reference, then one untouched record of each written collection edited.

    Returns:
        ``{"service/collection": score}``.
    """
    world = replay(task)
    out = {}
    base = initial_states(task)
    for svc, colls in sorted(written(task, world).items()):
        for coll in sorted(colls):
            states = _all_states(task, world)
            recs = states[svc][coll]
            victim = next((k for k in sorted(recs) if base[svc][coll].get(k) == recs[k] and _tamper(recs[k])), None)
            if victim is not None:
                out[f"{svc}/{coll}"] = judge(task, world, task.reference_answer, states)[0]
    return out


# ----------------------------------------------------------------- tests
@pytest.fixture(scope="module")
def tasks() -> list[Task]:
    return generate_tasks(N_TASKS, seed=0)


@pytest.fixture(scope="module")
def attacked() -> list[Task]:
    """Every built-in task and the first generated tasks of ``--seed 7`` on the full library
    (a rate lock extended by days derived from a date: its stale date scores 1.0 unless the swap
    also takes the decoy's implied days, or, where the lock already runs past the decoy's day,
    leaves the extension out: gen-s7-00014 with the 112-service library)."""
    return [*builtin_tasks(), *generate_tasks(N_TASKS, seed=7)]


@pytest.fixture(scope="module")
def table(attacked) -> dict[str, dict[str, Any]]:
    return attack_table(attacked)


def test_some_decoy_rules_a_write_out(attacked) -> None:
    unmade = [(t.id, d.unmade) for t in attacked for d in t.decoys if d.unmade]
    assert unmade and all(len(u) == 2 for _, us in unmade for u in us), unmade


def test_reference_still_scores_one(attacked) -> None:
    for t in attacked:
        assert judge(t, replay(t), t.reference_answer)[0] == 1.0, t.id


@pytest.mark.parametrize("attack", sorted(CEILINGS))
def test_attack_stays_under_its_ceiling(table, attack: str) -> None:
    row = table[attack]
    assert row["episodes"] > 0, f"{attack} applies to no task"
    assert row["max"] < 1.0 or attack == "nothing" and row["max"] == 0.0, row
    assert row["mean"] <= CEILINGS[attack], row


def test_attacks_apply_to_most_tasks(table, attacked) -> None:
    # An attack that applies nowhere proves nothing: each must be tried widely.
    n = len(attacked)
    assert table["repeat-writes"]["episodes"] >= 0.8 * n
    assert table["dump"]["episodes"] == n and table["distractor-write"]["episodes"] == n
    assert table["other-branch"]["episodes"] >= 0.4 * N_TASKS
    assert table["stale-value"]["episodes"] >= 0.8 * N_TASKS
    assert table["extra-recipient"]["episodes"] >= 0.3 * n


def test_honest_verbose_summary_keeps_full_score(attacked) -> None:
    # The guards must not punish an honest agent that recounts what it did:
    # the right value plus every value it looked up or wrote.
    # (Not where the task asks for nothing but the value and excludes one it writes.)
    judged = 0
    for t in attacked:
        done = [v for mc in t.reference if mc.name == "call_tool" for v in _leaves(mc.arguments["arguments"])]
        excluded = {v for c in t.checks if c.kind == "answer_excludes" for v in c.values}
        if excluded & set(done):
            continue
        answer = f"{t.reference_answer} What I did: " + "; ".join(dict.fromkeys(done))
        assert judge(t, replay(t), answer[:2000])[0] == 1.0, t.id
        judged += 1
    assert judged >= len(attacked) - 2


def test_same_value_update_is_harmless() -> None:
    # Repeating an update that sets what is already set changes nothing and costs nothing.
    task = next(t for t in builtin_tasks() if t.id == "builtin-chargeback")
    world = replay(task)
    update = next(mc for mc in task.reference if mc.arguments.get("tool_name") == "update_ticket")
    assert world.call_tool("update_ticket", update.arguments["arguments"])["success"]
    assert judge(task, world, task.reference_answer)[0] == 1.0


@pytest.fixture(scope="module")
def helpdesk_tasks() -> list[Task]:
    """Three tasks that write the helpdesk (the first ones of seed 0)."""
    from compoworld_gym.generation import LIBRARY_V1, GenerationConfig, iter_tasks

    out = []
    for t in iter_tasks(400, seed=0, config=GenerationConfig(library=LIBRARY_V1)):
        if "helpdesk" in written(t, replay(t)):
            out.append(t)
            if len(out) == 3:
                break
    return out


def test_vandalising_helpdesk_costs_reward(helpdesk_tasks) -> None:
    scores = {t.id: attack_close_tickets(t) for t in helpdesk_tasks}
    hit = {k: v for k, v in scores.items() if v is not None}
    assert len(hit) >= 3, "too few tasks write the helpdesk to test vandalism"
    assert all(v < 1.0 for v in hit.values()), hit


def test_tampering_any_written_collection_costs_reward(tasks) -> None:
    seen = 0
    for t in tasks:
        for where, value in attack_tamper_each_written(t).items():
            seen += 1
            assert value < 1.0, (t.id, where)
    assert seen >= N_TASKS


def test_second_message_to_a_wrong_address_costs_reward(tasks) -> None:
    seen = 0
    for t in tasks:
        sends = [mc for mc in t.reference if mc.arguments.get("tool_name", "").endswith("send_message")
                 and isinstance((mc.arguments.get("arguments") or {}).get("to"), list)]
        for mc in sends[:1]:
            world = replay(t)
            res = world.call_tool(mc.arguments["tool_name"], {**mc.arguments["arguments"], "to": [WRONG_EMAIL]})
            assert res["success"], res
            seen += 1
            assert judge(t, world, t.reference_answer)[0] < 1.0, t.id
    assert seen >= 3, "too few tasks send mail to test spam"


def test_merge_where_accepts_each_created_record() -> None:
    from compoworld_gym.generation.guards import merge_where
    from compoworld_gym.matching import matches

    a = {"subject": {"$ieq": "Update on case AB-1234"}, "to": {"$subset": ["a@x.org"]}, "amount": {"$gte": 1.0}}
    b = {"subject": {"$ieq": "Update on case AB-1234 (part 2)"}, "to": {"$subset": ["b@x.org"]},
         "amount": {"$gte": 7.0}}
    merged = merge_where([a, b])
    assert merged == {"subject": {"$in": ["Update on case AB-1234", "Update on case AB-1234 (part 2)",
                                          "update on case ab-1234", "update on case ab-1234 (part 2)"]},
                      "to": {"$subset": ["a@x.org", "b@x.org"]}}
    assert matches({"subject": "Update on case AB-1234", "to": ["b@x.org"]}, merged)
    assert not matches({"subject": "Update on case AB-1234", "to": ["c@x.org"]}, merged)
    assert not matches({"subject": "Spam", "to": ["a@x.org"]}, merged)
