"""Drive in chained tasks: a customer's case file (named after the customer)
gives their email and the ids of their records; a company's account plan
gives the account owner and the main phone; policy documents live in the
Policies folder (superseded copies in Archive); the case file is commented on
or shared with the team a policy names."""

from __future__ import annotations

from typing import Any

from compoworld_gym.checks import OnlyChanged, RecordMatches
from compoworld_gym.envs.services._company import OPS_EMAIL, TEAMS
from compoworld_gym.envs.services._drive_models import DriveFile
from compoworld_gym.envs.services._drive_seed import FOLDER
from compoworld_gym.generation.context import Ctx, call
from compoworld_gym.generation.hooks.crm import staff_email
from compoworld_gym.generation.links import (
    Action, Found, Give, Need, Reader, Relay, RuleHolder, ServiceLinks, SolveError, Write, pick,
)

DOC = "application/vnd.google-apps.document"
CUSTOMERS, POLICIES, ARCHIVE = "Customers", "Policies", "Archive"
#: Record ids a case file may quote, by entity type: (label, pattern).
#: (No booking ids: flights and the room-booking system share that entity type.)
RECORD_IDS = {"order_id": ("Order", r"ORD-\d{4,}"), "reservation_id": ("Hotel reservation", r"RSV-\d{4,}"),
              "job_id": ("Service job", r"JOB-\d{4,}"), "ticket_id": ("Support ticket", r"TCK-\d{4,}")}
STAFF_ROLES = ("the account owner", "the manager")


def _next(state: dict[str, Any], prefix: str) -> str:
    n = state["counters"].get(prefix, 1)
    state["counters"][prefix] = n + 1
    return f"{prefix}-{n:04d}"


def plant_file(state: dict[str, Any], name: str, parent: str, content: str, when: str, *, owner: str = OPS_EMAIL,
               mime: str = DOC) -> str:
    """Add a :class:`DriveFile` (validated) in folder ``parent``, owned by
    ``owner`` (ops keeps write access); returns its id."""
    fid = _next(state, "file")
    perms = [{"id": _next(state, "perm"), "type": "user", "role": "owner", "emailAddress": owner}]
    if owner != OPS_EMAIL:
        perms.append({"id": _next(state, "perm"), "type": "user", "role": "writer", "emailAddress": OPS_EMAIL})
    f = DriveFile.model_validate({"id": fid, "name": name, "mimeType": mime, "parents": [parent], "owner": owner,
                                  "content": content, "createdTime": when, "modifiedTime": when,
                                  "permissions": perms})
    state["files"][fid] = f.model_dump(mode="json")
    return fid


def folder(state: dict[str, Any], name: str) -> str:
    """The id of top-level folder ``name``, created (validated) if missing."""
    for f in state["files"].values():
        if f["name"] == name and f["mimeType"] == FOLDER and "root" in f["parents"]:
            return f["id"]
    return plant_file(state, name, "root", "", "2025-11-03T09:00:00", mime=FOLDER)


def _q(text: str) -> str:
    return text.replace("'", "\\'")


def _folder_id(reader: Reader, name: str) -> str:
    rows = reader.read("drive", "drive_search", query=f"name = '{name}' and mimeType = '{FOLDER}'")["files"]
    return pick(rows, name=name)["id"]


def _current(reader: Reader, name: str, where: str) -> dict[str, Any]:
    """The content of the document ``name`` in folder ``where`` (not its archived copy)."""
    rows = reader.read("drive", "drive_search", query=f"name = '{_q(name)}'")["files"]
    parent = _folder_id(reader, where)
    hits = [r for r in rows if r["name"] == name and parent in r["parents"]]
    if len(hits) != 1:
        raise SolveError(f"{len(hits)} documents named {name!r} in {where}")
    return reader.read("drive", "drive_file_content", fileId=hits[0]["id"])


def case_file_name(customer: str) -> str:
    """The name of a customer's case file."""
    return f"Case file - {customer}"


def _plant_case(ctx: Ctx, key: Any, outs: dict[str, Any], stale: bool) -> str:
    state = ctx.state("drive")
    lines = [f"Case file for {key}{' (closed)' if stale else ''}.",
             f"Customer email: {outs.get('email') or ctx.person()[1]}"]
    lines += [f"{label}: {outs[t]}" for t, (label, _) in RECORD_IDS.items() if outs.get(t)]
    lines.append("Keep this file up to date with every contact.")
    return plant_file(state, case_file_name(key), folder(state, ARCHIVE if stale else CUSTOMERS), "\n".join(lines),
                      ctx.at(-ctx.rng.randint(60, 120) if stale else -ctx.rng.randint(2, 20), 10))


def _plant_plan(ctx: Ctx, key: Any, outs: dict[str, Any], stale: bool) -> str:
    state = ctx.state("drive")
    owner = outs.get("email") or staff_email(ctx)
    phone = outs.get("phone") or ctx.fresh("phone")
    text = f"Account owner: {owner}\nMain phone: {phone}\nRenewal review next quarter."
    return plant_file(state, f"Account plan - {key}", folder(state, CUSTOMERS), text,
                      ctx.at(-ctx.rng.randint(5, 60), 14), owner=owner)


CASE_FILE = Relay(
    service="drive", name="case file", key="person_name",
    gives=(Give("email", "content", "the customer's email address", "the customer",
                pattern=r"(?<=Customer email: )\S+"),
           *(Give(t, "content", f"the {label.lower()} in the case file", pattern=rx)
             for t, (label, rx) in RECORD_IDS.items())),
    plant=_plant_case, find=lambda reader, key: _current(reader, case_file_name(key), CUSTOMERS),
    where="Each customer's case file is a Drive document named after the customer in the Customers folder; "
          "it gives their email address and the records of their case.",
    truth="Case files in the Drive's Archive folder are closed; only the one in Customers counts.")

ACCOUNT_PLAN = Relay(
    service="drive", name="account plan", key="company", key_party="customer",
    gives=(Give("email", "content", "the account owner's email address", "the account owner",
                pattern=r"(?<=Account owner: )\S+", draw=staff_email),
           Give("phone", "content", "the company's main phone number", pattern=r"(?<=Main phone: )\+[\d-]+")),
    plant=_plant_plan, find=lambda reader, key: _current(reader, f"Account plan - {key}", CUSTOMERS),
    where="Each client company's account plan is a Drive document in the Customers folder naming the "
          "account owner and the company's main phone number.")


def _plant_policy(ctx: Ctx, topic: str, text: str, stale: bool) -> str:
    state = ctx.state("drive")
    return plant_file(state, topic, folder(state, ARCHIVE if stale else POLICIES), text,
                      ctx.at(-50 if stale else -4, 9))


POLICY_DOCS = RuleHolder(
    service="drive", plant=_plant_policy, find=lambda reader, topic: _current(reader, topic, POLICIES)["content"],
    where="The '{topic}' policy is a document in the Drive's Policies folder; copies in the Archive folder "
          "are superseded.")


def _prepare(ctx: Ctx, values: dict[str, Any]) -> None:
    """Plant the customer's case file if the chain did not."""
    state, name = ctx.state("drive"), case_file_name(values["customer"])
    parent = folder(state, CUSTOMERS)
    if not any(f["name"] == name and parent in f["parents"] for f in state["files"].values()):
        _plant_case(ctx, values["customer"], {}, False)


def _scope(fid: str) -> list[OnlyChanged]:
    return [OnlyChanged(id="_", service="drive", collection="files", allow_ids=[fid],
                        description="No other Drive file was changed or created.")]


def _comment(reader: Reader, args: dict[str, Found]) -> Write:
    mention, case = args["mention"], args["case"].value
    fid = _current(reader, case_file_name(args["customer"].value), CUSTOMERS)["id"]
    return Write(
        calls=[call("drive_comment", fileId=fid, content=f"{case}: {mention.noun} is {mention.display}.")],
        checks=[RecordMatches(id="_", service="drive", collection="files", record_id=fid,
                              where={"comments": {"$any": {"content": {"$all": [{"$contains": case},
                                                                                {"$contains": mention.display}]}}}},
                              description="A comment on the customer's case file quotes the right value.")],
        scope=_scope(fid), tool="drive_comment", where={"fileId": fid}, label="the comment on the case file")


def _share(reader: Reader, args: dict[str, Found]) -> Write:
    to = args["to"].value
    fid = _current(reader, case_file_name(args["customer"].value), CUSTOMERS)["id"]
    return Write(
        calls=[call("drive_share", fileId=fid, role="writer", type="user", emailAddress=to)],
        checks=[RecordMatches(id="_", service="drive", collection="files", record_id=fid,
                              where={"permissions": {"$any": {"emailAddress": {"$ieq": to}, "role": "writer"}}},
                              description="The case file is shared with the right person for editing.")],
        scope=_scope(fid), tool="drive_share", where={"fileId": fid, "emailAddress": to},
        label=f"the sharing of the case file with {args['to'].who or 'them'}")


def _teams(ctx: Ctx) -> tuple[str, str]:
    a, b = ctx.rng.sample(sorted(TEAMS), 2)
    return TEAMS[a].email, TEAMS[b].email


_CUSTOMER = Need("customer", "person_name", ("the customer",))

LINKS = ServiceLinks(
    service="drive", label="the Drive",
    relays=(CASE_FILE, ACCOUNT_PLAN), rules=(POLICY_DOCS,),
    actions=(
        Action(service="drive", name="share", needs=(Need("to", "email", STAFF_ROLES, "team"), _CUSTOMER),
               build=_share, prepare=_prepare, routable=True,
               goal="give {to} edit access to the customer's case file in the Drive"),
        Action(service="drive", name="comment", needs=(_CUSTOMER,), build=_comment, prepare=_prepare,
               goal="comment on the customer's case file in the Drive, stating {mention}"),
    ),
    route_values={"email": _teams},
)

__all__ = ["CASE_FILE", "LINKS", "RECORD_IDS", "case_file_name", "folder", "plant_file"]
