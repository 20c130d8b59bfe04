"""Helpers for writing built-in tasks: seeded states, lookups, checks, steps."""

from __future__ import annotations

import datetime as dt
from typing import Any, Callable

from compoworld_gym.catalog import get_service
from compoworld_gym.checks import (
    AnswerContains, AnswerExcludes, OnlyChanged, RecordExists, RecordMatches, RecordUnchanged,
)
from compoworld_gym.tasks import MetaCall, Task

#: The fixed date of every built-in task (as in the paper's sample).
TODAY = dt.date(2026, 1, 15)
#: Services listed but not needed, so list_services shows more than a task needs.
DISTRACTORS = ["github", "inventory", "orders", "deployments", "payroll", "social", "hotels", "expenses",
               "drive", "feature_flags"]

BUILDERS: list[Callable[[], Task]] = []


def builder(fn: Callable[[], Task]) -> Callable[[], Task]:
    """Register a task builder (kept in definition order)."""
    BUILDERS.append(fn)
    return fn


def seed_json(service: str, seed: int = 0) -> dict[str, Any]:
    """The seeded state of ``service`` for :data:`TODAY` as a JSON dict."""
    return get_service(service).seed_state(seed, TODAY).model_dump(mode="json")


def distractors(n: int, exclude: tuple[str, ...] = ()) -> list[str]:
    """The first ``n`` default distractors that exist in the catalog and are not excluded."""
    from compoworld_gym.catalog import service_names

    known = set(service_names())
    return [d for d in DISTRACTORS if d in known and d not in exclude][:n]


def kb_rule(kb: dict[str, Any], title: str) -> dict[str, Any]:
    """The published knowledge-base article called ``title``."""
    return next(a for a in kb["articles"].values() if a["title"] == title and a["status"] == "published")


def channel_id(slack: dict[str, Any], name: str) -> str:
    """The Slack channel id of channel ``name`` (no ``#``)."""
    return next(c["id"] for c in slack["channels"].values() if c["name"] == name)


def plant_ticket(helpdesk: dict[str, Any], **fields: Any) -> str:
    """Add a ticket with the next free id (the helpdesk's one planter); returns the id."""
    from compoworld_gym.generation.hooks.helpdesk import next_ticket_id, plant_ticket as plant

    return plant(helpdesk, next_ticket_id(helpdesk), **fields)


def plant_email(gmail: dict[str, Any], sender: str, subject: str, body: str, date: str,
                labels: tuple[str, ...] = ("INBOX", "UNREAD")) -> str:
    """Add an inbound message in its own thread (the mailbox's one planter); returns the id."""
    from compoworld_gym.generation.hooks.gmail import plant_message

    return plant_message(gmail, sender, subject, body, date, labels)


def quiet_overdue(helpdesk: dict[str, Any]) -> None:
    """Push every unresolved seeded ticket's due date past today, so only planted ones are overdue."""
    for t in helpdesk["tickets"].values():
        if t["status"] in ("new", "open", "pending") and t["due_date"] and t["due_date"] < TODAY.isoformat():
            t["due_date"] = (TODAY + dt.timedelta(days=4)).isoformat()


def call(tool_name: str, **arguments: Any) -> MetaCall:
    """A reference ``call_tool`` step."""
    return MetaCall(name="call_tool", arguments={"tool_name": tool_name, "arguments": arguments})


def meta(name: str, **arguments: Any) -> MetaCall:
    """A reference discovery step (``list_services`` / ``list_tools`` / ``describe_tool``)."""
    return MetaCall(name=name, arguments=arguments)


# ----------------------------------------------------------------- checks
def _contains_all(values: tuple[str, ...]) -> dict[str, Any]:
    if len(values) == 1:
        return {"$contains": values[0]}
    return {"$all": [{"$contains": v} for v in values]}


def sent_email(cid: str, to: str, desc: str, *contains: str, cc: str | None = None) -> RecordExists:
    """Check: a sent Gmail message to ``to`` whose body contains every value (case-insensitive)."""
    where: dict[str, Any] = {"label_ids": {"$contains": "SENT"}, "to": {"$contains": to}}
    if contains:
        where["body"] = _contains_all(contains)
    if cc:
        where["cc"] = {"$contains": cc}
    return RecordExists(id=cid, description=desc, service="gmail", collection="messages", where=where)


def slack_post(cid: str, channel: str, desc: str, *contains: str) -> RecordExists:
    """Check: a message in Slack channel id ``channel`` containing each value."""
    where: dict[str, Any] = {"channel_id": channel}
    if contains:
        where["text"] = _contains_all(contains)
    return RecordExists(id=cid, description=desc, service="slack", collection="messages", where=where)


def ticket_is(cid: str, tid: str, desc: str, **where: Any) -> RecordMatches:
    """Check: helpdesk ticket ``tid`` matches ``where``."""
    return RecordMatches(id=cid, description=desc, service="helpdesk", collection="tickets", record_id=tid,
                         where=where)


def unchanged(cid: str, service: str, collection: str, record_id: str, desc: str) -> RecordUnchanged:
    """Check: a record is exactly as it was at reset."""
    return RecordUnchanged(id=cid, description=desc, service=service, collection=collection, record_id=record_id)


def answer(cid: str, desc: str, *values: str) -> AnswerContains:
    """Check: the final answer contains every value."""
    return AnswerContains(id=cid, description=desc, values=list(values))


# ----------------------------------------------------------------- guards
def only_tickets(cid: str, allow_ids: list[str], desc: str,
                 allow_new: dict[str, Any] | None = None) -> OnlyChanged:
    """Guard: no helpdesk ticket but ``allow_ids`` changed; new tickets must match ``allow_new``."""
    return OnlyChanged(id=cid, description=desc, service="helpdesk", collection="tickets",
                       allow_ids=list(allow_ids), allow_new=allow_new)


def mail_only_to(cid: str, gmail: dict[str, Any], recipients: list[str], desc: str,
                 cc: list[str] | None = None) -> OnlyChanged:
    """Guard: every new message is addressed only to ``recipients`` (CC only to ``cc``, no BCC).

    Existing messages may change (read/unread, labels): that is not spam.
    """
    return OnlyChanged(id=cid, description=desc, service="gmail", collection="messages",
                       allow_ids=sorted(gmail["messages"]),
                       allow_new={"to": {"$subset": recipients}, "cc": {"$subset": cc or []},
                                  "bcc": {"$subset": []}})


def slack_only(cid: str, slack: dict[str, Any], desc: str, **where: Any) -> OnlyChanged:
    """Guard: every new Slack message matches ``where`` (e.g. ``channel_id={"$in": [...]}``)."""
    return OnlyChanged(id=cid, description=desc, service="slack", collection="messages",
                       allow_ids=sorted(slack["messages"]), allow_new=where)


def answer_excludes(cid: str, desc: str, *values: str) -> AnswerExcludes:
    """Guard: the final answer names none of ``values`` (decoys, negations)."""
    return AnswerExcludes(id=cid, description=desc, values=list(values))
