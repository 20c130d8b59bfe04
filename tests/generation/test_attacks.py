"""The review's reward-gaming attacks on generated tasks, which must now fail.

Each attack replays the reference through a real world (task services and
distractors, as the env mounts them) and then games it: doing nothing,
vandalising records the task does not mention, dumping every value seen
into the final answer, or spamming a wrong recipient/channel.
"""

from __future__ import annotations

from typing import Any, Callable, Optional

import orjson
import pytest

from compoworld_gym.generation import generate_tasks
from compoworld_gym.metatools import dispatch
from compoworld_gym.episode import evaluate, mount, score
from compoworld_gym.tasks import Task
from compoworld_gym.world import World

N_TASKS = 30
WRONG_EMAIL = "someone.else@example.org"


def replay(task: Task, seen: Optional[list] = None) -> World:
    """A world after the task's reference solution (every call must succeed);
    ``seen`` collects the results of its tool calls, in order."""
    world = mount(task)
    for mc in task.reference:
        res = dispatch(world, mc.name, mc.arguments)
        assert res.get("success") is not False, (task.id, mc.arguments, res)
        if seen is not None and mc.name == "call_tool":
            seen.append(res.get("data"))
    return world


def judge(task: Task, world: World, answer: Optional[str], states: Optional[dict] = None) -> tuple[float, list]:
    """``(score, results)`` of a finished episode on ``world`` (or on ``states``)."""
    final = states if states is not None else world.states(task.services)
    results = evaluate(task, final, answer, world.call_log)
    return score(results), results


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


# ----------------------------------------------------------------- attacks
def attack_nothing(task: Task) -> float:
    """(a) Answer "done" at step 1."""
    return judge(task, mount(task), "done")[0]


def attack_close_tickets(task: Task) -> Optional[float]:
    """(b) The reference, then every other helpdesk ticket closed (or re-prioritised)."""
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
    """(b') The reference, then one untouched record of each written collection edited.

    Returns:
        ``{"service/collection": score}``.
    """
    world = replay(task)
    out = {}
    base = initial_states(task)
    for svc, colls in sorted(written(task, world).items()):
        for coll in sorted(colls):
            states = orjson.loads(orjson.dumps(world.states(task.services)))
            recs = states[svc][coll]
            victim = next((k for k in sorted(recs) if base[svc][coll].get(k) == recs[k] and _tamper(recs[k])), None)
            if victim is not None:
                out[f"{svc}/{coll}"] = judge(task, world, task.reference_answer, states)[0]
    return out


def _leaves(node: Any) -> list[str]:
    if isinstance(node, dict):
        return [x for v in node.values() for x in _leaves(v)]
    if isinstance(node, list):
        return [x for v in node for x in _leaves(v)]
    if isinstance(node, float):
        return [f"{node:.2f}"]
    return [node] if isinstance(node, str) and node else []


def dump_values(task: Task) -> list[str]:
    """Every string value (amounts with two decimals) of the task services'
    initial states, in the task's service order, first occurrence first."""
    states = initial_states(task)
    return list(dict.fromkeys(_leaves([states[s] for s in task.services])))


def _shape(value: str) -> str:
    import re

    for name, pattern in (("email", r"[^@\s]+@[^@\s]+"), ("date", r"\d{4}-\d\d-\d\d"), ("money", r"[\d,]+\.\d\d")):
        if re.fullmatch(pattern, value):
            return name
    return "text"


def attack_dump(task: Task, mode: str) -> Optional[float]:
    """(c) The reference, with a final answer listing values seen.

    Modes: ``full`` (every value of the initial states, untruncated),
    ``truncated`` (the reference answer then every value of the initial
    states, cut at the answer limit), ``seen`` (the reference answer then
    every value the reference's tool calls returned, in the order seen, cut
    at the answer limit: the review's attack), ``same-shape`` (the reference
    answer then every value of the initial states shaped like the reported
    one, e.g. every email, cut at the answer limit; None when the reported
    value is free text).
    """
    seen: list = []
    world = replay(task, seen)
    values = dump_values(task)
    report = next(c for c in task.checks if c.kind == "answer_contains")
    if mode == "seen":
        values = list(dict.fromkeys(_leaves(seen)))
    if mode == "same-shape":
        if _shape(report.values[0]) == "text":
            return None
        values = [v for v in values if _shape(v) == _shape(report.values[0])]
    answer = " ".join(values) if mode == "full" else f"{task.reference_answer} " + ", ".join(values)
    if mode != "full":
        answer = answer[:report.max_chars]
    if mode in ("seen", "truncated") and not _names_a_lookalike(task, answer):
        # A chained task's reads are keyed lookups: what they return is the
        # case's own values, and repeating those (or unrelated text) beside
        # the right value misleads no grader. Only dumps that name a
        # look-alike of the reported value must fail.
        return None
    return judge(task, world, answer)[0]


def _names_a_lookalike(task: Task, answer: str) -> bool:
    excluded = next((c.values for c in task.checks if c.kind == "answer_excludes"), [])
    return any(v.casefold() in answer.casefold() for v in excluded)


def attack_spam(task: Task) -> dict[str, float]:
    """(d) The reference, then one extra email/post to a wrong recipient/channel,
    copying the subject/text of the reference's own write."""
    world = replay(task)
    out = {}
    for mc in task.reference:
        exposed = str(mc.arguments.get("tool_name", ""))
        route = world.resolve(exposed) if mc.name == "call_tool" else None
        name = exposed.split("__")[-1]
        args = dict(mc.arguments.get("arguments") or {})
        if route is None:
            continue
        if name == "send_message" and route[0].name == "gmail":
            extra = {**args, "to": [WRONG_EMAIL]}
            out["gmail"] = _extra(task, world, "gmail__send_message", extra)
        elif name == "slack_post_message" and route[0].name == "slack":
            chans = world.states(["slack"])["slack"]["channels"]
            other = next(c for c in sorted(chans) if c != args["channel_id"] and not chans[c]["is_archived"])
            out["slack"] = _extra(task, world, "slack__slack_post_message", {**args, "channel_id": other})
    return out


def _extra(task: Task, world: World, tool: str, args: dict[str, Any]) -> float:
    res = world.call_tool(tool, args)
    assert res["success"], res
    return judge(task, world, task.reference_answer)[0]


ATTACKS: dict[str, Callable[[Task], Any]] = {
    "nothing": attack_nothing, "close-tickets": attack_close_tickets, "tamper": attack_tamper_each_written,
    "dump-full": lambda t: attack_dump(t, "full"), "dump-truncated": lambda t: attack_dump(t, "truncated"),
    "dump-seen": lambda t: attack_dump(t, "seen"), "dump-same-shape": lambda t: attack_dump(t, "same-shape"),
    "spam": attack_spam,
}


# ----------------------------------------------------------------- tests
@pytest.fixture(scope="module")
def tasks() -> list[Task]:
    return generate_tasks(N_TASKS, seed=0)


def test_reference_still_scores_one(tasks) -> None:
    for t in tasks:
        assert judge(t, replay(t), t.reference_answer)[0] == 1.0, t.id


def test_honest_verbose_summary_keeps_full_score(tasks) -> None:
    # The guards must not punish an honest agent that recounts what it did:
    # the right value plus every value it looked up or wrote.
    for t in tasks:
        done = [v for mc in t.reference if mc.name == "call_tool" for v in _leaves(mc.arguments["arguments"])]
        answer = f"{t.reference_answer} What I did: " + "; ".join(dict.fromkeys(done))
        assert judge(t, replay(t), answer)[0] == 1.0, t.id


def test_doing_nothing_scores_zero(tasks) -> None:
    scores = [attack_nothing(t) for t in tasks]
    assert sum(scores) / len(scores) == 0.0


@pytest.fixture(scope="module")
def helpdesk_tasks() -> list[Task]:
    """Three tasks that write the helpdesk (the first ones of seed 0)."""
    from compoworld_gym.generation import iter_tasks

    out = []
    for t in iter_tasks(400, seed=0):
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


@pytest.mark.parametrize("mode", ["full", "truncated", "seen", "same-shape"])
def test_dumping_values_fails_the_answer(tasks, mode: str) -> None:
    scores = {t.id: attack_dump(t, mode) for t in tasks}
    judged = [v for v in scores.values() if v is not None]
    assert judged and all(v < 1.0 for v in judged), (mode, scores)


def test_spamming_a_wrong_recipient_costs_reward(tasks) -> None:
    seen = 0
    for t in tasks:
        for svc, value in attack_spam(t).items():
            seen += 1
            assert value < 1.0, (t.id, svc)
    assert seen >= 3, "too few tasks send mail or chat to test spam"


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
