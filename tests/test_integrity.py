"""Rubric integrity: counted writes, confined writes, answers a dump cannot pass."""

from __future__ import annotations

import re

import pytest

from compoworld_gym.answers import fit_answers
from compoworld_gym.builtin_tasks import builtin_tasks
from compoworld_gym.checks import AnswerContains, OnlyChanged, WritesConfined
from compoworld_gym.state_diff import list_sizes
from compoworld_gym.entity_values import entity_paths, values_of_type
from compoworld_gym.footprint import CONFINED_ID, Written, fit_checks, footprint
from compoworld_gym.generation import generate_tasks

BEFORE = {"desk": {"counters": {"TCK": 3}, "clock": 0,
                   "tickets": {"T1": {"id": "T1", "status": "open", "comments": []},
                               "T2": {"id": "T2", "status": "open", "comments": []}},
                   "macros": {"M1": {"id": "M1", "body": "Hi"}}},
          "mail": {"counters": {}, "clock": 0, "messages": {}}}


def _after(**changes):
    import copy

    state = copy.deepcopy(BEFORE)
    for path, value in changes.items():
        service, coll, key, *field = path.split("__")
        if field:
            state[service][coll][key][field[0]] = value
        else:
            state[service][coll][key] = value
    return state


def _guard(**kw) -> OnlyChanged:
    return OnlyChanged(id="g", service="desk", collection="tickets", **kw)


def _ok(check, after) -> bool:
    return check.evaluate(after, None, [], BEFORE)


def test_only_changed_counts_new_records_and_list_growth() -> None:
    one = _after(desk__tickets__T3={"id": "T3", "status": "new", "comments": []})
    two = _after(desk__tickets__T3={"id": "T3", "status": "new", "comments": []},
                 desk__tickets__T4={"id": "T4", "status": "new", "comments": []})
    assert _ok(_guard(allow_new={}, max_new=1), one)
    assert not _ok(_guard(allow_new={}, max_new=1), two)
    assert _ok(_guard(allow_new={}), two)  # no cap: the version-2 behaviour
    commented = _after(desk__tickets__T1__comments=[{"body": "a"}])
    twice = _after(desk__tickets__T1__comments=[{"body": "a"}, {"body": "a"}])
    assert _ok(_guard(allow_ids=["T1"], max_added={"comments": 1}), commented)
    assert not _ok(_guard(allow_ids=["T1"], max_added={"comments": 1}), twice)
    assert not _ok(_guard(allow_ids=["T1"]), _after(desk__tickets__T2__status="closed"))


def test_allowed_records_change_only_where_the_reference_changed_them() -> None:
    guard = _guard(allow_ids=["T1"], allow_paths={"T1": ["status"]})
    assert _ok(guard, _after(desk__tickets__T1__status="closed"))
    assert not _ok(guard, _after(desk__tickets__T1__comments=[{"body": "spam"}]))  # no comments allowed
    gone = _after()
    del gone["desk"]["tickets"]["T1"]
    assert not _ok(guard, gone)  # deleting the allowed record
    rows = {"id": "T1", "rows": [["a", 1], ["b", 2]]}
    before = {"desk": {"tickets": {"T1": rows}}}
    table = OnlyChanged(id="g", service="desk", collection="tickets", allow_ids=["T1"],
                        allow_paths={"T1": ["rows.0.1"]})
    assert table.evaluate({"desk": {"tickets": {"T1": {"id": "T1", "rows": [["a", 9], ["b", 2]]}}}}, None, [], before)
    assert not table.evaluate({"desk": {"tickets": {"T1": {"id": "T1", "rows": [["a", 9]]}}}}, None, [], before)
    assert not table.evaluate({"desk": {"tickets": {"T1": {"id": "T1", "rows": [["a", 9], ["b", 0]]}}}}, None, [],
                              before)


def test_list_sizes_enter_lists_of_records_only() -> None:
    rec = {"tags": ["a", "b"], "sheets": [{"rows": [[1, 2], [3]]}, {"rows": []}], "meta": {"log": [1]}}
    assert list_sizes(rec) == {"tags": 2, "sheets": 2, "sheets[].rows": 2, "meta.log": 1}


def test_writes_confined_allows_only_the_named_collections() -> None:
    guard = WritesConfined(id="c", services=["desk", "mail"], allow={"desk": ["tickets"]})
    moved = _after(desk__tickets__T1__status="closed")
    moved["desk"]["counters"]["TCK"] = 4  # bookkeeping of a written service
    assert _ok(guard, moved)
    assert not _ok(guard, _after(desk__macros__M1__body="Bye"))
    assert not _ok(guard, _after(mail__messages__X={"id": "X"}))
    assert not guard.evaluate({"desk": BEFORE["desk"]}, None, [], BEFORE)  # a missing service fails
    assert guard.reads() == (frozenset({"desk", "mail"}), frozenset({"desk", "mail"}))


def test_footprint_and_fitted_guards() -> None:
    after = _after(desk__tickets__T1__comments=[{"body": "a"}], desk__tickets__T3={"id": "T3", "comments": []})
    fp = footprint(BEFORE, after)
    assert fp == {("desk", "tickets"): Written(changed=("T1",), new=1, added={"comments": 1}, paths={"T1": ()})}
    checks = fit_checks([_guard(allow_ids=["T1"], allow_new={})], fp, ["desk", "mail"])
    assert checks[0].max_new == 1 and checks[0].max_added == {"comments": 1}
    assert checks[-1].id == CONFINED_ID and checks[-1].allow == {"desk": ["tickets"]}
    assert all(_ok(c, after) for c in checks) and all(_ok(c, BEFORE) for c in checks)
    # A written collection without a guard gets one.
    added = fit_checks([], fp, ["desk"])
    assert [c.id for c in added] == ["keep_desk_tickets", CONFINED_ID] and not _ok(added[0], _after(
        desk__tickets__T3={"id": "T3"}, desk__tickets__T4={"id": "T4"}))


def test_answer_names_whole_tokens_only() -> None:
    item = AnswerContains(id="r", values=["TCK-0001"], candidates=["TCK-0002"], others=[
        "a@x.org", "Ann Lee", "ORD-0009", "1,234.50", "2026-01-09"])
    ev = lambda a: item.evaluate({}, a, [], {})  # noqa: E731
    assert ev("It was TCK-0001.")
    assert not ev("TCK-0001 or maybe TCK-0002")
    assert not ev("TCK-0001_TCK-0002") and not ev("TCK-0001.TCK-0002")  # glued values are still named
    assert ev("TCK-0001 (not TCK-00021, a longer id)")
    assert ev("TCK-0001: emailed Ann Lee at a@x.org about ORD-0009 (1,234.50)")  # four others: the allowance
    assert not ev("TCK-0001: Ann Lee a@x.org ORD-0009 1,234.50 2026-01-09")


def test_entity_values_follow_the_state_schema() -> None:
    import datetime as dt

    from compoworld_gym.catalog import get_service

    assert ("tickets", "*", "requester_email") in entity_paths("helpdesk")["email"]
    state = get_service("helpdesk").seed_state(0, dt.date(2026, 1, 15)).model_dump(mode="json")
    ids = values_of_type({"helpdesk": state}, "ticket_id")
    assert ids == sorted(state["tickets"]) and len(ids) >= 10


def test_fit_answers_lists_same_type_values_and_what_was_seen() -> None:
    states = {"helpdesk": {"tickets": {f"TCK-000{i}": {"id": f"TCK-000{i}", "requester_email": f"u{i}@x.org"}
                                       for i in range(1, 4)}}}
    [item] = fit_answers([AnswerContains(id="r", values=["TCK-0001"])], states=states, said="Handle TCK-0003",
                         seen=[{"id": "TCK-0001", "requester_email": "u1@x.org"}])
    assert item.candidates == ["TCK-0002"]  # TCK-0003 is said by the task itself
    assert item.others == ["u1@x.org"]


REPORT_ASKED = re.compile(r"\b(tell me|report|list|name the|name just|stating|reply with|summari[sz]e|"
                          r"final answer)", re.I)


@pytest.mark.parametrize("source", ["builtin", "generated"])
def test_every_requested_report_has_an_answer_item(source: str) -> None:
    tasks = builtin_tasks() if source == "builtin" else generate_tasks(40, seed=7)
    asked = [t for t in tasks if REPORT_ASKED.search(t.instruction)]
    assert len(asked) == len(tasks), [t.id for t in tasks if t not in asked]  # every task asks for a report
    for t in asked:
        assert any(c.kind == "answer_contains" for c in t.checks), t.id


def test_builtin_guards_hold_the_reference_footprint() -> None:
    for t in builtin_tasks():
        kinds = [c.kind for c in t.checks]
        assert kinds.count("writes_confined") == 1, t.id
        confined = next(c for c in t.checks if c.kind == "writes_confined")
        assert set(confined.services) == {*t.services, *t.distractors}
        for c in t.checks:
            if c.kind == "only_changed":
                assert c.max_new is not None, (t.id, c.id)
