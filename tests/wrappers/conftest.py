"""Fixtures for the wrapper tests: two small helpdesk tasks and scripted turns.

Task ``escalate`` has four rubric items and task ``assign`` three, so that
different scripted action sequences pass different items (the group reward
tests need varied rewards).
"""

from __future__ import annotations

import datetime as dt
from types import SimpleNamespace
from typing import Any

import orjson
import pytest

from compoworld_gym.envs.services.helpdesk import Helpdesk
from compoworld_gym.tasks import Task, save_tasks

TODAY = dt.date(2026, 1, 15)


def _helpdesk() -> dict[str, Any]:
    state = Helpdesk.seed_state(0, TODAY).model_dump(mode="json")
    for t in state["tickets"].values():  # the planted tickets are the only open overdue ones
        t["due_date"] = "2026-01-20"
    state["tickets"]["TCK-0013"] = {
        "id": "TCK-0013", "subject": "Charged twice for January invoice",
        "description": "My card was charged twice. Please refund one charge.", "status": "open",
        "priority": "normal", "category": "billing", "requester_name": "Dana Whitfield",
        "requester_email": "dana.whitfield@northwind.example", "assignee_email": None,
        "created_on": "2026-01-05", "due_date": "2026-01-12", "tags": ["billing"], "comments": []}
    state["tickets"]["TCK-0014"] = {
        "id": "TCK-0014", "subject": "Package never arrived",
        "description": "Order shipped two weeks ago, still nothing.", "status": "new",
        "priority": "normal", "category": "shipping", "requester_name": "Lee Park",
        "requester_email": "lee.park@example.org", "assignee_email": None,
        "created_on": "2026-01-10", "due_date": "2026-01-20", "tags": [], "comments": []}
    state["counters"]["TCK"] = 15
    return state


def agent_email() -> str:
    """Email of AGT-0001 in the seeded helpdesk."""
    return _helpdesk()["agents"]["AGT-0001"]["email"]


def make_tasks() -> list[Task]:
    """The two fixture tasks (fresh objects)."""
    state = _helpdesk()
    escalate = Task(
        id="t-escalate", services=["helpdesk"], today=TODAY, initial_state={"helpdesk": state},
        instruction="Escalate the overdue ticket TCK-0013 to urgent, reply publicly, report its id.",
        checks=[
            {"kind": "record_matches", "id": "priority_urgent", "service": "helpdesk",
             "collection": "tickets", "record_id": "TCK-0013", "where": {"priority": "urgent"}},
            {"kind": "record_matches", "id": "public_reply", "service": "helpdesk",
             "collection": "tickets", "record_id": "TCK-0013",
             "where": {"comments": {"$any": {"public": True}}}},
            {"kind": "record_count", "id": "only_one_urgent", "service": "helpdesk",
             "collection": "tickets", "where": {"priority": "urgent"}, "op": "eq", "value": 1},
            {"kind": "answer_contains", "id": "reports_id", "values": ["TCK-0013"]},
        ],
        domain="support", capabilities=["sequential-dependency"])
    assign = Task(
        id="t-assign", services=["helpdesk"], today=TODAY, initial_state={"helpdesk": state},
        instruction="Assign TCK-0014 to agent AGT-0001, open it, tag it lost-package.",
        checks=[
            {"kind": "record_matches", "id": "assigned", "service": "helpdesk", "collection": "tickets",
             "record_id": "TCK-0014", "where": {"assignee_email": agent_email()}},
            {"kind": "record_matches", "id": "opened", "service": "helpdesk", "collection": "tickets",
             "record_id": "TCK-0014", "where": {"status": "open"}},
            {"kind": "record_matches", "id": "tagged", "service": "helpdesk", "collection": "tickets",
             "record_id": "TCK-0014", "where": {"tags": {"$contains": "lost-package"}}},
        ],
        domain="support", capabilities=["single-service"])
    return [escalate, assign]


def call(tool: str, **arguments: Any) -> str:
    """A ``call_tool`` env action (JSON text)."""
    return orjson.dumps({"name": "call_tool", "arguments": {"tool_name": tool, "arguments": arguments}}).decode()


URGENT = call("update_ticket", ticket_id="TCK-0013", priority="urgent")
REPLY = call("add_comment", ticket_id="TCK-0013", body="We are on it.", public=True)
ASSIGN = call("update_ticket", ticket_id="TCK-0014", assignee_email=agent_email())
OPEN = call("update_ticket", ticket_id="TCK-0014", status="open")
TAG = call("update_ticket", ticket_id="TCK-0014", add_tags=["lost-package"])

#: Scripted episodes for ``t-escalate`` and the items each passes
#: (priority_urgent, public_reply, only_one_urgent, reports_id).
ESCALATE_SCRIPTS = {
    "full": ([URGENT, REPLY, "Escalated TCK-0013."], [1, 1, 1, 1]),
    "record_only": ([URGENT, "Done."], [1, 0, 1, 0]),
    "nothing": (["Nothing to do."], [0, 0, 0, 0]),
    "reply_and_id": ([REPLY, "Replied on TCK-0013."], [0, 1, 0, 1]),
}
#: Scripted episodes for ``t-assign`` (assigned, opened, tagged).
ASSIGN_SCRIPTS = {
    "full": ([ASSIGN, OPEN, TAG, "Done."], [1, 1, 1]),
    "assign_only": ([ASSIGN, "Done."], [1, 0, 0]),
    "assign_open": ([ASSIGN, OPEN, "Done."], [1, 1, 0]),
    "nothing": (["No."], [0, 0, 0]),
}


@pytest.fixture
def tasks() -> list[Task]:
    """The two fixture tasks."""
    return make_tasks()


@pytest.fixture
def task_file(tmp_path) -> str:
    """The fixture tasks saved as a JSONL task file."""
    path = tmp_path / "tasks.jsonl"
    save_tasks(make_tasks(), path)
    return str(path)


@pytest.fixture
def make_env(tasks):
    """``make_env(**kwargs)``: a CompoWorldEnv over the fixture tasks."""
    from compoworld_gym.envs.compoworld_env import CompoWorldEnv

    def make(**kwargs: Any) -> CompoWorldEnv:
        kwargs.setdefault("tasks", tasks)
        return CompoWorldEnv(**kwargs)

    return make


@pytest.fixture
def acts() -> SimpleNamespace:
    """The scripted actions and scripts above, as attributes."""
    return SimpleNamespace(call=call, URGENT=URGENT, REPLY=REPLY, ASSIGN=ASSIGN, OPEN=OPEN, TAG=TAG,
                           ESCALATE=ESCALATE_SCRIPTS, ASSIGN_SCRIPTS=ASSIGN_SCRIPTS,
                           agent_email=agent_email())
