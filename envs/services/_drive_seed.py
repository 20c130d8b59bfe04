"""Helpers of the ``drive`` service: the Drive query-language subset, folder
subtrees and the seeded folder tree (owned and shared by company staff)."""

from __future__ import annotations

import datetime as dt
import random
import re
from typing import Any

from compoworld_gym.envs.services._commerce import CUSTOMERS, order_book
from compoworld_gym.envs.services._company import OPS_EMAIL, STAFF, TEAMS
from compoworld_gym.errors import InvalidArgument

FOLDER = "application/vnd.google-apps.folder"
DOC = "application/vnd.google-apps.document"
_AND = re.compile(r"\s+and\s+(?=(?:[^']*'[^']*')*[^']*$)", re.I)
_CMP = re.compile(r"^(name|fullText|mimeType|modifiedTime|createdTime)\s*(contains|=|!=|>=|<=|>|<)\s*'((?:[^'\\]|\\.)*)'$")
_IN = re.compile(r"^'((?:[^'\\]|\\.)*)'\s+in\s+(parents|owners|writers|readers)$")
_BOOL = re.compile(r"^(trashed|starred)\s*(=|!=)\s*(true|false)$")
_SYNTAX = ("use clauses like name contains 'x', fullText contains 'x', mimeType = 'text/plain', "
           "'FOLDER_ID' in parents, 'EMAIL' in writers, trashed = false, starred = true, "
           "modifiedTime > '2026-01-01', joined by 'and'.")

Pred = tuple[str, str, Any]


def parse_query(query: str) -> list[Pred]:
    """Parse a Drive query into ``(field, op, value)`` predicates.

    Raises:
        InvalidArgument: a clause is not in the supported subset.
    """
    q = query.strip()
    if not q:
        raise InvalidArgument("query is empty; " + _SYNTAX)
    if "'" not in q and "=" not in q:
        return [("fullText", "contains", q)]
    preds: list[Pred] = []
    for clause in _AND.split(q):
        c = clause.strip()
        if m := _CMP.match(c):
            field, op, raw = m.groups()
            value: Any = raw.replace("\\'", "'")
            if field.endswith("Time"):
                try:
                    value = dt.datetime.fromisoformat(value.rstrip("Z"))
                except ValueError:
                    raise InvalidArgument(f"{field} needs an ISO date or datetime, got {raw!r}.") from None
            elif op not in ("contains", "=", "!="):
                raise InvalidArgument(f"operator {op} does not apply to {field}; " + _SYNTAX)
            preds.append((field, op, value))
        elif m := _IN.match(c):
            preds.append((m.group(2), "in", m.group(1).lower()))
        elif m := _BOOL.match(c):
            preds.append((m.group(1), m.group(2), m.group(3) == "true"))
        else:
            raise InvalidArgument(f"cannot parse query clause {c!r}; " + _SYNTAX)
    return preds


def holds(f: Any, pred: Pred) -> bool:
    """Whether DriveFile ``f`` satisfies one parsed predicate."""
    field, op, value = pred
    if op == "in":
        if field == "parents":
            return value in f.parents
        if field == "owners":
            return f.owner == value
        roles = ("owner", "writer") if field == "writers" else ("owner", "writer", "commenter", "reader")
        return any(p.emailAddress == value and p.role in roles for p in f.permissions)
    if field in ("trashed", "starred"):
        return (getattr(f, field) == value) == (op == "=")
    if field == "fullText":
        v = value.lower()
        return v in f.name.lower() or v in f.content.lower()
    actual = getattr(f, field)
    if op == "contains":
        return value.lower() in actual.lower()
    return {"=": actual == value, "!=": actual != value, ">": actual > value, "<": actual < value,
            ">=": actual >= value, "<=": actual <= value}[op]


def subtree(files: dict[str, Any], root_id: str) -> list[str]:
    """``root_id`` and the ids of everything inside it (folders recursively)."""
    children: dict[str, list[str]] = {}
    for f in files.values():
        for p in f.parents:
            children.setdefault(p, []).append(f.id)
    out, stack, seen = [], [root_id], set()
    while stack:
        i = stack.pop()
        if i in seen:
            continue
        seen.add(i)
        out.append(i)
        stack.extend(children.get(i, ()))
    return out


def _docs(today: dt.date) -> list[tuple[str, str, str, str]]:
    """(folder, name, mimeType, content) of the seeded documents."""
    book = order_book(today)
    pending = [o for o in book if o.status == "pending"]
    return [
        ("Finance", "Refund policy 2026", DOC, "Refunds above $500 need approval from "
         f"{TEAMS['finance'].email}. Refunds are paid within 5 business days."),
        ("Finance", "Q1 budget notes", DOC, "Marketing budget: $12,000. Support tooling: $4,500. "
         "Travel frozen until March."),
        ("Finance", "Pending orders.csv", "text/csv", "order_id,customer_email,total\n"
         + "".join(f"{o.id},{o.customer.email},{o.total}\n" for o in pending)),
        ("Operations", "On-call rota January", DOC, "Week 1: Ben Foster. Week 2: Luis Ortega. "
         "Week 3: Grace Okafor. Week 4: Ben Foster."),
        ("Operations", "Vendor contacts.csv", "text/csv", "vendor,contact_email\nParcelPro,accounts@parcelpro.example\n"
         "DeskWorks,orders@deskworks.example\n"),
        ("Operations", "Meeting notes 2026-01-12", DOC, "Decided: escalate VIP tickets to "
         f"{TEAMS['customer_success'].email}. Action: Grace to audit stock by Jan 20."),
        ("Customers", "VIP customers", DOC, "\n".join(f"{c.name} <{c.email}>" for c in CUSTOMERS[:4])),
        ("Customers", "Escalation log", "text/plain", "2026-01-08 Noah Thompson: late delivery, credited $15.\n"),
        ("Projects", "Storefront redesign brief", DOC, "Goal: cut checkout steps from 5 to 3. Owner: Luis Ortega."),
        ("Projects", "Onboarding checklist", DOC, "1. Laptop\n2. Accounts\n3. Security training\n"),
    ]


def build_state(rng: random.Random, today: dt.date) -> dict:
    """The seeded state of the drive service as plain data."""
    def stamp(days: int) -> dt.datetime:
        return dt.datetime.combine(today - dt.timedelta(days=days), dt.time(rng.randint(8, 17), rng.randint(0, 59)))

    files: dict[str, dict] = {}
    counters = {"file": 1, "perm": 1, "cmt": 1}

    def nid(prefix: str) -> str:
        n = counters[prefix]
        counters[prefix] = n + 1
        return f"{prefix}-{n:04d}"

    def add(name: str, mime: str, parents: list[str], owner: str, content: str = "", fid: str | None = None) -> dict:
        created = stamp(rng.randint(20, 90))
        f = {"id": fid or nid("file"), "name": name, "mimeType": mime, "parents": parents, "owner": owner,
             "content": content, "createdTime": created, "modifiedTime": created + dt.timedelta(days=rng.randint(0, 15)),
             "permissions": [{"id": nid("perm"), "type": "user", "role": "owner", "emailAddress": owner}]}
        files[f["id"]] = f
        return f

    add("My Drive", FOLDER, [], OPS_EMAIL, fid="root")["parents"] = []
    folders = {name: add(name, FOLDER, ["root"], OPS_EMAIL)["id"] for name in ("Finance", "Operations", "Customers", "Projects")}
    for folder, name, mime, content in _docs(today):
        owner = rng.choice((OPS_EMAIL, rng.choice(STAFF).email))
        f = add(name, mime, [folders[folder]], owner, content)
        for s in rng.sample(STAFF, rng.randint(0, 2)):
            if s.email != owner:
                f["permissions"].append({"id": nid("perm"), "type": "user", "emailAddress": s.email,
                                         "role": rng.choice(("reader", "commenter", "writer"))})
        if owner != OPS_EMAIL:
            f["permissions"].append({"id": nid("perm"), "type": "user", "emailAddress": OPS_EMAIL, "role": "writer"})
        f["starred"] = rng.random() < 0.2
        if rng.random() < 0.3:
            who = rng.choice(STAFF).email
            f["comments"] = [{"id": nid("cmt"), "author": who, "content": "Can you double-check the numbers here?",
                              "createdTime": f["modifiedTime"]}]
    old = add("Old price list (2024)", "text/plain", [folders["Finance"]], OPS_EMAIL, "Monitor: $349.99\n")
    old["trashed"] = True
    return {"files": files, "counters": counters}
