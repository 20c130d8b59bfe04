"""Seed data of the ``workflow_automation`` service: the company's n8n instance.

Users are staff of the shared roster (the SRE owns the instance), each with
a personal project; the platform team's alert routing lives in a team
project. Workflows follow the company's real work: Stripe refunds to the
billing channel, Shopify orders to Xero invoices (two runs failed on Xero's
rate limit, their input the shared order book's orders and customers), a
nightly CRM export whose Google Sheets credential was deleted (its runs fail
until the node uses the new credential), per-app alert routing tagged with
the app's service name (an old inactive copy beside the live one), a draft
with only a Manual Trigger, and abandoned-checkout follow-ups waiting in a
Wait node.
"""

from __future__ import annotations

import datetime as dt
import random
from typing import Any, Optional

from compoworld_gym.envs.services._blocks import day_start
from compoworld_gym.envs.services._commerce import order_book
from compoworld_gym.envs.services._company import STAFF
from compoworld_gym.envs.services._workflow_automation_models import (
    Credential, CredentialRef, Execution, Node, Project, Tag, User, Workflow, WorkflowAutomationState,
)
from compoworld_gym.envs.services._workflow_automation_rules import NEEDS_CREDENTIAL, chain

BASE = "n8n-nodes-base."
TEAM_PROJECT = "Platform Alerts"
#: (staff name, role) of the instance's users, in id order.
USERS = (("Ben Foster", "global:owner"), ("Sofia Marin", "global:admin"), ("Priya Raman", "global:member"),
         ("Marcus Bell", "global:member"), ("Elena Petrova", "global:member"), ("Grace Okafor", "global:member"),
         ("Daniel Cho", "global:member"), ("Jamal Wright", "global:member"), ("Hannah Kovacs", "global:member"),
         ("Luis Ortega", "global:member"))
TAGS = ("billing", "finance", "sync", "reporting", "alerting", "checkout-api", "search-api", "support", "logistics",
        "marketing")
#: (name, type, owner name or None for the team project); CRD-0005 (the old Google Sheets one) was deleted.
CREDENTIALS = (("Stripe live", "stripeApi", "Priya Raman"), ("Slack ops bot", "slackApi", None),
               ("Shopify store", "shopifyApi", "Elena Petrova"), ("Xero finance", "xeroOAuth2Api", "Elena Petrova"),
               None, ("PagerDuty events", "pagerDutyApi", None), ("Support mailbox", "imap", "Luis Ortega"),
               ("Warehouse Postgres (read-only)", "postgres", "Grace Okafor"),
               ("Gmail ops", "gmailOAuth2", "Grace Okafor"), ("Twilio SMS", "twilioApi", "Daniel Cho"),
               ("Google Sheets reporting 2026", "googleSheetsOAuth2Api", "Jamal Wright"))
DELETED_SHEETS = "CRD-0005"
RATE_LIMIT = "Request failed with status code 429: Too Many Requests (Xero API rate limit)"
TIMEOUT = "ETIMEDOUT: connect timed out after 30000 ms"
#: (name, owner name or None, active, tags, [(node name, type, parameters, credential id)])
WORKFLOWS: tuple[tuple[str, Optional[str], bool, tuple[str, ...], list[tuple[str, str, dict, Optional[str]]]], ...] = (
    ("Stripe refunds to #billing-escalations", "Priya Raman", True, ("billing",), [
        ("Stripe Trigger", "stripeTrigger", {"events": ["charge.refunded"]}, "CRD-0001"),
        ("Format message", "set", {"text": "Refund {{$json.amount}} for {{$json.customer}}"}, None),
        ("Slack", "slack", {"channel": "billing-escalations"}, "CRD-0002")]),
    ("Shopify orders to Xero invoices", "Elena Petrova", True, ("finance", "sync"), [
        ("Shopify Trigger", "shopifyTrigger", {"topic": "orders/create"}, "CRD-0003"),
        ("Map invoice", "set", {"keepOnlySet": True}, None),
        ("Xero", "xero", {"resource": "invoice", "operation": "create"}, "CRD-0004")]),
    ("Nightly CRM export to Google Sheets", "Jamal Wright", True, ("reporting",), [
        ("Schedule Trigger", "scheduleTrigger", {"rule": {"cronExpression": "0 2 * * *"}}, None),
        ("Fetch accounts", "httpRequest", {"url": "https://crm.company.example/api/accounts"}, None),
        ("Google Sheets", "googleSheets", {"operation": "append", "sheetName": "Accounts"}, DELETED_SHEETS)]),
    ("checkout-api alerts to PagerDuty", None, True, ("alerting", "checkout-api"), [
        ("Webhook", "webhook", {"path": "alerts/checkout-api", "httpMethod": "POST"}, None),
        ("Only critical", "if", {"conditions": "severity == critical"}, None),
        ("PagerDuty", "pagerDuty", {"operation": "create", "service": "checkout-api"}, "CRD-0006")]),
    ("checkout-api alerts to PagerDuty (v1)", None, False, ("alerting", "checkout-api"), [
        ("Webhook", "webhook", {"path": "alerts/checkout-api-v1", "httpMethod": "POST"}, None),
        ("PagerDuty", "pagerDuty", {"operation": "create", "service": "checkout-api"}, "CRD-0006")]),
    ("search-api alerts to #incidents", "Ben Foster", True, ("alerting", "search-api"), [
        ("Webhook", "webhook", {"path": "alerts/search-api", "httpMethod": "POST"}, None),
        ("Slack", "slack", {"channel": "incidents"}, "CRD-0002")]),
    ("Support inbox triage", "Luis Ortega", True, ("support",), [
        ("Support mailbox", "emailReadImap", {"mailbox": "INBOX"}, "CRD-0007"),
        ("Classify", "code", {"language": "javaScript"}, None),
        ("Slack", "slack", {"channel": "support-escalations"}, "CRD-0002")]),
    ("Weekly carrier invoice reconciliation", "Grace Okafor", False, ("logistics",), [
        ("Schedule Trigger", "scheduleTrigger", {"rule": {"cronExpression": "0 7 * * 1"}}, None),
        ("Carrier charges", "postgres", {"operation": "executeQuery"}, "CRD-0008"),
        ("Email summary", "gmail", {"sendTo": "logistics@company.example"}, "CRD-0009")]),
    ("Refund approval form (draft)", "Marcus Bell", False, ("billing",), [
        ("When clicking 'Test workflow'", "manualTrigger", {}, None),
        ("Slack", "slack", {"channel": "billing-escalations"}, "CRD-0002")]),
    ("Abandoned checkout follow-up", "Hannah Kovacs", True, ("marketing",), [
        ("Shopify Trigger", "shopifyTrigger", {"topic": "checkouts/create"}, "CRD-0003"),
        ("Wait 24 hours", "wait", {"amount": 24, "unit": "hours"}, None),
        ("Send reminder", "gmail", {"subject": "You left something in your cart"}, "CRD-0009")]),
    ("Order shipped customer SMS", "Daniel Cho", True, ("logistics",), [
        ("Shopify Trigger", "shopifyTrigger", {"topic": "fulfillments/create"}, "CRD-0003"),
        ("Twilio", "twilio", {"operation": "send"}, "CRD-0010")]),
)


def email_of(name: str) -> str:
    return next(s.email for s in STAFF if s.name == name)


def personal_name(first: str, last: str, email: str) -> str:
    """The name n8n gives a user's personal project."""
    return f"{first} {last} <{email}>"


def make_nodes(spec: list[tuple[str, str, dict, Optional[str]]], creds: dict[str, str]) -> list[Node]:
    """Nodes laid out left to right; each credential id is named as ``creds`` has it."""
    out = []
    for k, (name, typ, params, cred) in enumerate(spec):
        ctype = NEEDS_CREDENTIAL.get(BASE + typ)
        refs = {ctype: CredentialRef(id=cred, name=creds.get(cred, "Google Sheets reporting"))} if cred and ctype else {}
        out.append(Node(id=f"n{k + 1}", name=name, type=BASE + typ, position=[240 * k, 300], parameters=params,
                        credentials=refs))
    return out


def add_workflow(state: WorkflowAutomationState, wid: str, name: str, project: str, active: bool,
                 tags: list[str], nodes: list[Node], when: dt.datetime) -> Workflow:
    tag_ids = [t.id for n in tags for t in state.tags.values() if t.name == n]
    wf = Workflow(id=wid, name=name, active=active, nodes=nodes, connections=chain(n.name for n in nodes),
                  settings={"executionOrder": "v1", "timezone": "America/New_York"}, tag_ids=tag_ids,
                  project_id=project, created_at=when, updated_at=when, version_id=f"{wid.lower()}-v1")
    state.workflows[wid] = wf
    return wf


def add_execution(state: WorkflowAutomationState, eid: str, wf: Workflow, status: str, started: dt.datetime,
                  **fields: Any) -> Execution:
    last = wf.nodes[-1].name if status == "success" else fields.get("error_node", wf.nodes[0].name)
    stopped = None if status == "waiting" else started + dt.timedelta(seconds=4)
    ex = Execution(id=eid, workflow_id=wf.id, mode=fields.pop("mode", "trigger" if wf.nodes[0].type != BASE +
                                                                "webhook" else "webhook"),
                   status=status, finished=status == "success", started_at=started, stopped_at=stopped,
                   last_node_executed=last, **fields)
    state.executions[eid] = ex
    return ex


def build_state(rng: random.Random, today: dt.date) -> WorkflowAutomationState:
    st = WorkflowAutomationState()
    start = day_start(today)
    by_name: dict[str, Project] = {}
    for k, (name, role) in enumerate(USERS, start=1):
        first, last = name.split(" ", 1)
        email = email_of(name)
        st.users[f"USR-{k:04d}"] = User(id=f"USR-{k:04d}", email=email, first_name=first, last_name=last, role=role,
                                        created_at=start - dt.timedelta(days=700 - 30 * k))
        by_name[name] = st.projects[f"PRJ-{k:04d}"] = Project(id=f"PRJ-{k:04d}", name=personal_name(first, last, email),
                                                              type="personal", owner_email=email)
    team = Project(id=f"PRJ-{len(USERS) + 1:04d}", name=TEAM_PROJECT, type="team", owner_email=email_of("Ben Foster"))
    st.projects[team.id] = team
    for k, tag in enumerate(TAGS, start=1):
        st.tags[f"TAG-{k:04d}"] = Tag(id=f"TAG-{k:04d}", name=tag, created_at=start - dt.timedelta(days=400 - k))
    names = {}
    for k, c in enumerate(CREDENTIALS, start=1):
        if c is None:
            continue
        cid, (cname, ctype, owner) = f"CRD-{k:04d}", c
        names[cid] = cname
        st.credentials[cid] = Credential(id=cid, name=cname, type=ctype,
                                         project_id=by_name[owner].id if owner else team.id,
                                         data={"apiKey": f"sk_{rng.getrandbits(64):016x}"},
                                         created_at=start - dt.timedelta(days=300 - 7 * k),
                                         updated_at=start - dt.timedelta(days=200 - 5 * k))
    for k, (name, owner, active, tags, spec) in enumerate(WORKFLOWS, start=1):
        add_workflow(st, f"WF-{k:04d}", name, by_name[owner].id if owner else team.id, active, list(tags),
                     make_nodes(spec, names), start - dt.timedelta(days=120 - 9 * k))
    _executions(st, start, today, rng)
    st.counters.update(USR=len(USERS) + 1, PRJ=len(USERS) + 2, TAG=len(TAGS) + 1, CRD=len(CREDENTIALS) + 1,
                       WF=len(WORKFLOWS) + 1)
    return st


def _executions(st: WorkflowAutomationState, start: dt.datetime, today: dt.date, rng: random.Random) -> None:
    book = {o.id: o for o in order_book(today)}

    def item(oid: str) -> dict[str, str]:
        o = book[oid]
        return {"order_id": o.id, "customer_email": o.customer.email, "total": f"{o.total:.2f}"}

    wf = st.workflows
    h = lambda hours: start + dt.timedelta(hours=hours, minutes=rng.randint(0, 50))  # noqa: E731
    rows = [
        ("WF-0001", "success", h(-50), {}),
        ("WF-0002", "success", h(-49), {"input": item("ORD-0005")}),
        ("WF-0003", "error", h(-79), {"error_node": "Google Sheets", "error_credential_id": DELETED_SHEETS,
                                      "error_message": f"Credential with ID {DELETED_SHEETS} does not exist."}),
        ("WF-0004", "success", h(-30), {}),
        ("WF-0007", "error", start - dt.timedelta(hours=28), {"error_node": "Classify", "error_message": TIMEOUT}),
        ("WF-0007", "success", start - dt.timedelta(hours=27), {"mode": "retry"}),
        ("WF-0002", "error", h(-26), {"input": item("ORD-0006"), "error_node": "Xero", "error_message": RATE_LIMIT}),
        ("WF-0003", "error", h(-7), {"error_node": "Google Sheets", "error_credential_id": DELETED_SHEETS,
                                     "error_message": f"Credential with ID {DELETED_SHEETS} does not exist."}),
        ("WF-0001", "success", h(-20), {}),
        ("WF-0002", "error", h(-2), {"input": item("ORD-0007"), "error_node": "Xero", "error_message": RATE_LIMIT}),
        ("WF-0010", "waiting", h(-5), {"input": item("ORD-0008"), "wait_till": start + dt.timedelta(hours=19)}),
        ("WF-0010", "waiting", h(-4), {"input": item("ORD-0009"), "wait_till": start + dt.timedelta(hours=20)}),
        ("WF-0011", "success", h(-40), {"input": item("ORD-0003")}),
    ]
    rows.sort(key=lambda r: r[2])
    made = [add_execution(st, str(n), wf[wid], status, when, **fields)
            for n, (wid, status, when, fields) in enumerate(rows, start=1001)]
    failed, retry = (next(e for e in made if e.workflow_id == "WF-0007" and e.status == s) for s in ("error", "success"))
    retry.retry_of, failed.retry_success_id = failed.id, retry.id
    st.counters["execution"] = 1001 + len(rows)
