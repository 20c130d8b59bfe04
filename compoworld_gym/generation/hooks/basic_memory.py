"""Basic Memory in chained tasks: a customer's note (found by their email)
names their latest open order; a B2B account's note (by company name) names
its account manager and renewal date; runbook notes hold house policies
(superseded versions sit in the archive folder). Writes: record an
observation on the note, or file a case note linked to it, each quoting a
discovered value."""

from __future__ import annotations

from typing import Any, Optional

from compoworld_gym.checks import OnlyChanged, RecordExists, RecordMatches
from compoworld_gym.envs.services._basic_memory_models import Note, parse, permalink_for
from compoworld_gym.generation.context import Ctx, call
from compoworld_gym.generation.hooks.crm import staff_email
from compoworld_gym.generation.hooks.hr_directory import name_from_email
from compoworld_gym.generation.links import (
    Action, Found, Give, Need, Reader, Relay, RuleHolder, ServiceLinks, SolveError, Write, next_id, pick,
)

SERVICE = "basic_memory"
PROJECT = "company"
DATE_RX = r"\d{4}-\d{2}-\d{2}"


def plant_note(ctx: Ctx, folder: str, title: str, content: str, *, entity_type: str, tags: list[str],
               updated: str) -> str:
    """Write a note (validated) into the company project at folder/title, replacing one already at that
    permalink; returns its id."""
    state = ctx.state(SERVICE)
    link = permalink_for(folder, title)
    old = next((n for n in state["notes"].values() if n["project"] == PROJECT and n["permalink"] == link), None)
    nid = old["id"] if old else next_id(state, "MN")
    observations, relations = parse(content)
    note = Note(id=nid, project=PROJECT, title=title, folder=folder, permalink=link, file_path=f"{folder}/{title}.md",
                entity_type=entity_type, tags=tags, content=content, observations=observations, relations=relations,
                created_at=old["created_at"] if old else updated, updated_at=updated)
    state["notes"][nid] = note.model_dump(mode="json")
    return nid


def _order_id(ctx: Ctx) -> str:
    return f"ORD-{ctx.rng.randint(2000, 9999):04d}"


def _customer_body(title: str, email: str, order: str, day: str, superseded: bool = False) -> str:
    head = f"# {title}{' (superseded)' if superseded else ''}\n\n## Contact\n- [email] {email}\n\n## Orders\n"
    return head + f"- [order] Latest order {order} #open (placed {day})\n- handled_by [[Customer Support Playbook]]\n"


def _plant_customer(ctx: Ctx, key: Any, outs: dict[str, Any], stale: bool) -> str:
    state, email = ctx.state(SERVICE), str(key)
    order = outs.get("order_id") or _order_id(ctx)
    current = next((n for n in state["notes"].values() if n["project"] == PROJECT and n["folder"] != "archive"
                    and email.lower() in n["content"].lower()), None)
    title = current["title"] if current else name_from_email(email)
    if stale:  # the note from before the customer's last order, archived
        return plant_note(ctx, "archive", title, _customer_body(title, email, order, ctx.day(-120), True),
                          entity_type="customer", tags=["customer", "archived"], updated=ctx.at(-100, 11))
    folder = current["folder"] if current else "customers"
    return plant_note(ctx, folder, title, _customer_body(title, email, order, ctx.day(-3)), entity_type="customer",
                      tags=["customer"], updated=ctx.at(-2, 15))


def _plant_account(ctx: Ctx, key: Any, outs: dict[str, Any], stale: bool) -> str:
    owner, renewal = outs.get("email") or staff_email(ctx), outs.get("date") or ctx.day(ctx.rng.randint(10, 90))
    body = (f"# {key}\n\n## Account\n- [account_manager] Account manager: {owner}\n"
            f"- [renewal] Renewal date: {renewal} #renewal\n- managed_by [[Account Management Playbook]]\n")
    return plant_note(ctx, "accounts", str(key), body, entity_type="account", tags=["account"],
                      updated=ctx.at(-ctx.rng.randint(2, 20), 10))


def _current_customer(reader: Reader, key: Any) -> dict[str, Any]:
    rows = reader.read(SERVICE, "search_notes", query=str(key), entity_types=["customer"], page_size=100,
                       project=PROJECT)["results"]
    hit = pick([r for r in rows if r["folder"] != "archive"])
    return reader.read(SERVICE, "read_note", identifier=hit["permalink"], project=PROJECT)


def _account(reader: Reader, key: Any) -> dict[str, Any]:
    rows = reader.read(SERVICE, "search_notes", query=f'"{key}"', search_type="title", page_size=100,
                       project=PROJECT)["results"]
    hit = pick([r for r in rows if r["folder"] == "accounts"], title=str(key))
    return reader.read(SERVICE, "read_note", identifier=hit["permalink"], project=PROJECT)


_NOTE = Give("memory_note_id", "id", "the note in Basic Memory")

CUSTOMER_NOTE = Relay(
    service=SERVICE, name="customer's Basic Memory note", key="email",
    gives=(Give("order_id", "content", "the customer's latest open order", pattern=r"ORD-\d{4,}"), _NOTE),
    plant=_plant_customer, find=_current_customer,
    where="Basic Memory (project company) keeps a note on each customer with their email and their latest order.",
    truth="Notes in Basic Memory's archive folder are superseded; only the customer's current note counts.")

ACCOUNT_NOTE = Relay(
    service=SERVICE, name="account's Basic Memory note", key="company", key_party="customer",
    gives=(Give("email", "content", "the account manager's email address", "the account owner",
                pattern=r"(?<=Account manager: )[^\s]+", draw=staff_email),
           Give("date", "content", "the account's renewal date", "the renewal date",
                pattern=rf"(?<=Renewal date: ){DATE_RX}", draw=lambda ctx: ctx.day(ctx.rng.randint(10, 90))), _NOTE),
    plant=_plant_account, find=_account,
    where="Basic Memory (project company) has a note per client company in its accounts folder naming the account "
          "manager and the renewal date.")


def _plant_rule(ctx: Ctx, topic: str, text: str, stale: bool) -> str:
    return plant_note(ctx, "archive" if stale else "runbooks", topic, f"# {topic}\n\n{text}\n", entity_type="runbook",
                      tags=["runbook", "policy"], updated=ctx.at(-60 if stale else -4, 10))


def _find_rule(reader: Reader, topic: str) -> str:
    rows = reader.read(SERVICE, "search_notes", query=f'"{topic}"', search_type="title", page_size=100,
                       project=PROJECT)["results"]
    hits = [r for r in rows if r["folder"] == "runbooks" and r["title"] == topic]
    if len(hits) != 1:
        raise SolveError(f"{len(hits)} runbook notes are titled {topic!r}")
    return reader.read(SERVICE, "read_note", identifier=hits[0]["permalink"], project=PROJECT)["content"]


def _note(reader: Reader, args: dict[str, Found]) -> dict[str, Any]:
    return reader.read(SERVICE, "read_note", identifier=args["note"].value, project=PROJECT)


def _observe(reader: Reader, args: dict[str, Found]) -> Write:
    note, mention, case = _note(reader, args), args["mention"], args["case"].value
    quoted = {"$all": [{"$contains": case}, {"$contains": mention.display}]}
    return Write(
        calls=[call("edit_note", identifier=note["permalink"], operation="append", project=PROJECT,
                    content=f"- [case] {case}: {mention.noun} is {mention.display}.")],
        checks=[RecordMatches(id="_", service=SERVICE, collection="notes", record_id=note["id"],
                              where={"content": quoted, "observations": {"$any": {"content": {"$contains": case}}}},
                              description="The note has an observation quoting the case and the value.")],
        scope=[OnlyChanged(id="_", service=SERVICE, collection="notes", allow_ids=[note["id"]],
                           description="No other note was changed or created.")],
        tool="edit_note", where={"identifier": note["permalink"]}, label="the observation on the note")


def _case_note(reader: Reader, args: dict[str, Found]) -> Write:
    note, mention, case = _note(reader, args), args["mention"], args["case"].value
    body = f"# {case}\n\n- [case] {case}: {mention.noun} is {mention.display}.\n- relates_to [[{note['title']}]]\n"
    where: dict[str, Optional[Any]] = {
        "folder": "cases", "content": {"$all": [{"$contains": case}, {"$contains": mention.display}]},
        "relations": {"$any": {"target": {"$in": [note["title"], note["permalink"]]}}}}
    return Write(
        calls=[call("write_note", title=case[:1].upper() + case[1:], folder="cases", content=body,
                    entity_type="case", project=PROJECT)],
        checks=[RecordExists(id="_", service=SERVICE, collection="notes", where=where,
                             description="A case note in the cases folder quotes the value and links the note.")],
        scope=[OnlyChanged(id="_", service=SERVICE, collection="notes", allow_new={"folder": "cases"}, max_new=1,
                           description="No other note was changed or created.")],
        tool="write_note", where={"folder": "cases"}, label="the case note")


LINKS = ServiceLinks(
    service=SERVICE, label="Basic Memory",
    relays=(CUSTOMER_NOTE, ACCOUNT_NOTE),
    rules=(RuleHolder(service=SERVICE, plant=_plant_rule, find=_find_rule,
                      where="The '{topic}' policy is a runbook note in Basic Memory (project company, runbooks "
                            "folder); versions in the archive folder are superseded."),),
    actions=(
        Action(service=SERVICE, name="observe", needs=(Need("note", "memory_note_id"),), build=_observe,
               goal="record {mention} as an observation on that note in Basic Memory"),
        Action(service=SERVICE, name="case_note", needs=(Need("note", "memory_note_id"),), build=_case_note,
               goal="file a case note in Basic Memory's cases folder quoting {mention}, with a relation linking it to "
                    "that note"),
    ),
)

__all__ = ["LINKS", "plant_note"]
