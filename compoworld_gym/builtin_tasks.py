"""The built-in task set: hand-designed tasks that run before the generator.

Each task is built from the services' seeded states plus planted records,
so it is reproducible and self-contained. Every reference solution passes
all its checks and every initial state fails at least one (tested).
"""

from __future__ import annotations

import datetime as dt
import functools
from typing import Any, Callable

from compoworld_gym.catalog import get_service
from compoworld_gym.tasks import MetaCall, Task

TODAY = dt.date(2026, 1, 15)

_BUILDERS: list[Callable[[], Task]] = []


def builder(fn: Callable[[], Task]) -> Callable[[], Task]:
    """Register a task builder (kept in definition order)."""
    _BUILDERS.append(fn)
    return fn


def seed_json(service: str, seed: int = 0, today: dt.date = TODAY) -> dict[str, Any]:
    """The seeded state of ``service`` as a JSON dict, for planting records into."""
    return get_service(service).seed_state(seed, today).model_dump(mode="json")


def call(tool_name: str, **arguments: Any) -> MetaCall:
    """A reference ``call_tool`` step."""
    return MetaCall(name="call_tool", arguments={"tool_name": tool_name, "arguments": arguments})


def meta(name: str, **arguments: Any) -> MetaCall:
    """A reference discovery step (``list_services`` / ``list_tools`` / ``describe_tool``)."""
    return MetaCall(name=name, arguments=arguments)


@builder
def _escalate_overdue_ticket() -> Task:
    helpdesk = seed_json("helpdesk")
    for t in helpdesk["tickets"].values():  # only the planted ticket is overdue and open
        if t["status"] in ("new", "open", "pending") and t["due_date"] < TODAY.isoformat():
            t["due_date"] = (TODAY + dt.timedelta(days=3)).isoformat()
    agent = next(iter(helpdesk["agents"].values()))
    helpdesk["tickets"]["TCK-0013"] = {
        "id": "TCK-0013", "subject": "Charged twice for January invoice",
        "description": "My card was charged twice for the same invoice. Please refund one charge.",
        "status": "open", "priority": "normal", "category": "billing",
        "requester_name": "Dana Whitfield", "requester_email": "dana.whitfield@northwind.example",
        "assignee_email": agent["email"], "created_on": "2026-01-05", "due_date": "2026-01-12",
        "tags": ["billing"], "comments": [],
    }
    helpdesk["counters"]["TCK"] = 14
    return Task(
        id="builtin-helpdesk-overdue-escalation",
        services=["helpdesk"], today=TODAY, initial_state={"helpdesk": helpdesk},
        instruction=(
            "One open support ticket is past its due date. Find it, raise its priority to urgent, "
            "and add a public reply telling the customer we are on it. House rule: do not change "
            "any other ticket. Report the ticket id in your final answer."),
        checks=[
            {"kind": "record_matches", "id": "priority_urgent", "service": "helpdesk",
             "collection": "tickets", "record_id": "TCK-0013", "where": {"priority": "urgent"},
             "description": "The overdue ticket's priority is urgent."},
            {"kind": "record_matches", "id": "public_reply", "service": "helpdesk",
             "collection": "tickets", "record_id": "TCK-0013",
             "where": {"comments": {"$any": {"public": True}}},
             "description": "A public reply was added to the overdue ticket."},
            {"kind": "record_count", "id": "others_untouched", "service": "helpdesk",
             "collection": "tickets", "where": {"priority": "urgent"}, "op": "eq", "value": 1,
             "description": "No other ticket was escalated."},
            {"kind": "answer_contains", "id": "reports_id", "values": ["TCK-0013"],
             "description": "The final answer names the ticket."},
        ],
        reference=[
            call("search_tickets", status="open", due_before=TODAY.isoformat()),
            call("update_ticket", ticket_id="TCK-0013", priority="urgent"),
            call("add_comment", ticket_id="TCK-0013", public=True,
                 body="We are on it: your double charge is being investigated with priority."),
        ],
        reference_answer="Escalated TCK-0013 to urgent and replied to the customer.",
        domain="support", capabilities=["sequential-dependency", "negative-check"],
    )


@functools.lru_cache(maxsize=1)
def _cached() -> tuple[Task, ...]:
    return tuple(build() for build in _BUILDERS)


def builtin_tasks() -> list[Task]:
    """The built-in tasks, in a fixed order (built once, then shared read-only)."""
    return list(_cached())
