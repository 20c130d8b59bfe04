"""GitHub in chained tasks: an issue quotes the customer who reported it and
the ticket, order, incident or feature flag it tracks; a service's runbook
in the ops-runbooks repository names its owner and pager. The case's issue
gets a comment, or a follow-up issue is opened for an engineer."""

from __future__ import annotations

import datetime as dt
import hashlib
from typing import Any

from compoworld_gym.checks import OnlyChanged, RecordExists, RecordMatches
from compoworld_gym.envs.services._company import STAFF
from compoworld_gym.envs.services._engineering import ENG_MANAGER, ENGINEERS
from compoworld_gym.envs.services._github_models import Commit, GitUser, Issue
from compoworld_gym.envs.services._github_seed import ORG, login_of
from compoworld_gym.generation.context import Ctx, call
from compoworld_gym.generation.hooks.deployments import app_name, engineer_email, new_app_key
from compoworld_gym.generation.hooks.monitoring import FLAG_RX
from compoworld_gym.generation.links import Action, Found, Give, Need, Reader, Relay, ServiceLinks, Write, pick

RUNBOOKS = f"{ORG}/ops-runbooks"
EMAIL_RX = r"[\w.+-]+@[\w-]+(?:\.[\w-]+)+"
PHONE_RX = r"\+1-\d{3}-555-\d{4}"
_REPOS = ("storefront", "billing-service")
#: Engineers a follow-up issue can be assigned to (the roles that give their emails).
ENG_ROLES = ("the on-call engineer", "the service owner", "the project owner", "the engineer who deployed it")
#: What an issue says about the record it tracks, per entity type.
_QUOTES = {"ticket_id": ("Customer-reported: wrong amount shown at checkout",
                         "A customer reported this in ticket {v}."),
           "order_id": ("Order confirmation shows a stale total", "It affects order {v}; see its history."),
           "incident_id": ("Post-incident follow-up: add alerting on retries", "Follow-up of incident {v}."),
           "flag_id": ("Clean up the rollout of a feature flag", "The change ships behind feature flag {v}.")}


def next_issue_key(ctx: Ctx) -> str:
    """The next free issue key ``"company-example/<repo>#<n>"`` of a
    product repository (numbers as the service allocates them)."""
    state, full = ctx.state("github"), f"{ORG}/{ctx.rng.choice(_REPOS)}"
    n = state["counters"].get(full, 1)
    state["counters"][full] = n + 1
    return f"{full}#{n}"


def plant_issue(state: dict[str, Any], key: str, **fields: Any) -> str:
    """Add an open :class:`Issue` (validated) under ``key`` ("owner/repo#n"); returns the key."""
    full, number = key.split("#")
    base = {"state": "open", "labels": [], "assignees": [], "comments": [], "body": ""}
    issue = Issue.model_validate({**base, **fields, "repo": full, "number": int(number)})
    state["issues"][key] = issue.model_dump(mode="json")
    return key


def commit_file(state: dict[str, Any], repo: str, branch: str, path: str, content: str, author: str,
                when: str) -> None:
    """Commit ``content`` to ``path`` on ``branch`` (created from the default
    branch if missing), with a :class:`Commit` as the service would record."""
    branches = state["repositories"][repo]["branches"]
    if branch not in branches:
        main = branches["main"]
        branches[branch] = {"files": dict(main["files"]), "commits": list(main["commits"])}
    b = branches[branch]
    parent = b["commits"][-1]["sha"] if b["commits"] else ""
    digest = "\n".join([parent, f"Update {path}", when, f"{path}:{content}"])
    commit = Commit(sha=hashlib.sha1(digest.encode()).hexdigest(), message=f"Update {path}", author=author,
                    date=dt.datetime.fromisoformat(when), files=[path])
    b["files"][path] = content
    b["commits"].append(commit.model_dump(mode="json"))


def _login(ctx: Ctx) -> str:
    return login_of(ctx.rng.choice(STAFF).name)


def _plant_issue(ctx: Ctx, key: Any, outs: dict[str, Any], stale: bool) -> str:
    etype = next((t for t in _QUOTES if outs.get(t)), "")
    title, said = _QUOTES.get(etype, ("Checkout total rounds the wrong way", "Seen on three orders this week."))
    body = f"{said.format(v=outs.get(etype))} Reported by {outs.get('email') or ctx.person()[1]}."
    when = ctx.at(-ctx.rng.randint(2, 9), 10)
    return plant_issue(ctx.state("github"), key, title=title, body=body, user=_login(ctx),
                       labels=["bug", "customer-report"], created_at=when, updated_at=when)


def _plant_runbook(ctx: Ctx, key: Any, outs: dict[str, Any], stale: bool) -> str:
    owner, pager = outs.get("email") or engineer_email(ctx), outs.get("phone") or ctx.fresh("phone")
    text = (f"# {app_name(key)} runbook\n\nService owner: {owner}\nPager: {pager}\n\n"
            "1. Check the error-rate dashboard.\n2. Roll back the latest deploy if errors started with it.\n"
            "3. Post an update in #incidents every 30 minutes.\n")
    branch = f"draft/{key}-runbook" if stale else "main"
    commit_file(ctx.state("github"), RUNBOOKS, branch, f"runbooks/{key}.md", text, _login(ctx),
                ctx.at(-3 if stale else -20, 15))
    return f"runbooks/{key}.md"


def _find_issue(reader: Reader, key: Any) -> dict[str, Any]:
    full, number = key.split("#")
    owner, repo = full.split("/")
    return reader.read("github", "get_issue", owner=owner, repo=repo, issue_number=int(number))


ISSUE = Relay(
    service="github", name="GitHub issue", key="issue_id",
    gives=(Give("email", "body", "the reporting customer's email address", "the customer", pattern=EMAIL_RX),
           Give("ticket_id", "body", "the ticket the issue was reported in", pattern=r"TCK-\d{4,}"),
           Give("order_id", "body", "the order the issue affects", pattern=r"ORD-\d{4,}"),
           Give("incident_id", "body", "the incident the issue follows up", pattern=r"INC-\d{4,}"),
           Give("flag_id", "body", "the feature flag the change ships behind", pattern=FLAG_RX)),
    plant=_plant_issue, find=_find_issue,
    where="A GitHub issue's description names the customer who reported it and the ticket, order, incident or "
          "feature flag it tracks.",
    alloc=next_issue_key, entry=lambda key: f"GitHub issue {key}")

RUNBOOK = Relay(
    service="github", name="runbook", key="project_id",
    gives=(Give("email", "content", "the service owner's email address", "the service owner", pattern=EMAIL_RX,
                draw=engineer_email),
           Give("phone", "content", "the service's pager number", "the on-call engineer", pattern=PHONE_RX)),
    plant=_plant_runbook,
    find=lambda reader, key: reader.read("github", "get_file_contents", owner=ORG, repo="ops-runbooks",
                                         path=f"runbooks/{key}.md"),
    where="Each service's runbook, in the ops-runbooks repository on GitHub, names the service owner and the pager "
          "number.",
    alloc=new_app_key,
    truth="Only the runbook on the repository's default branch counts; other branches hold unmerged drafts.")


def _issue_args(key: str) -> dict[str, Any]:
    full, number = key.split("#")
    owner, repo = full.split("/")
    return {"owner": owner, "repo": repo, "issue_number": int(number)}


def _scope(key: str) -> list[OnlyChanged]:
    return [OnlyChanged(id="_", service="github", collection="issues", allow_ids=[key],
                        description="No other issue was changed or opened.")]


def _comment(reader: Reader, args: dict[str, Found]) -> Write:
    key, mention = args["issue"].value, args["mention"]
    _find_issue(reader, key)
    body = f"{args['case'].value}: {mention.noun} is {mention.display}."
    return Write(
        calls=[call("add_issue_comment", **_issue_args(key), body=body)],
        checks=[RecordMatches(id="_", service="github", collection="issues", record_id=key,
                              where={"comments": {"$any": {"body": {"$contains": mention.display}}}},
                              description="A comment on the GitHub issue quotes the right value.")],
        scope=_scope(key), tool="add_issue_comment", where=_issue_args(key), label="the comment on the issue")


def _follow_up(reader: Reader, args: dict[str, Found]) -> Write:
    email, mention, case = args["assignee"].value, args["mention"], args["case"].value
    login = pick(reader.read("github", "search_users", q=email)["items"], email=email)["login"]
    body = f"{case}: {mention.noun} is {mention.display}."
    where = {"repo": RUNBOOKS, "assignees": {"$contains": login}, "body": {"$contains": mention.display}}
    return Write(
        calls=[call("create_issue", owner=ORG, repo="ops-runbooks", title=f"Follow-up for {case}", body=body,
                    assignees=[login], labels=["follow-up"])],
        checks=[RecordExists(id="_", service="github", collection="issues", where=where,
                             description="A follow-up issue assigned to the right engineer quotes the right value.")],
        scope=[OnlyChanged(id="_", service="github", collection="issues", allow_new={"repo": RUNBOOKS},
                           description="No other issue was changed or opened.")],
        tool="create_issue", where={"repo": "ops-runbooks"}, label="the follow-up issue")


def plant_user(state: dict[str, Any], email: str) -> str:
    """Add the :class:`GitUser` of a staff member or engineer with ``email``
    unless one exists (logins as the seed makes them); returns the login."""
    for user in state["users"].values():
        if user["email"].lower() == email.lower():
            return user["login"]
    name = next((p.name for p in (*STAFF, *ENGINEERS, ENG_MANAGER) if p.email == email.lower()),
                email.split("@")[0].replace(".", " ").title())
    login = login_of(name)
    state["users"][login] = GitUser(login=login, name=name, email=email.lower()).model_dump(mode="json")
    return login


def _prepare_follow_up(ctx: Ctx, values: dict[str, Any]) -> None:
    people = values["assignee"]
    for email in people if isinstance(people, tuple) else (people,):
        plant_user(ctx.state("github"), email)


LINKS = ServiceLinks(
    service="github", label="GitHub",
    relays=(ISSUE, RUNBOOK),
    actions=(
        Action(service="github", name="comment", needs=(Need("issue", "issue_id"),), build=_comment,
               goal="comment on the GitHub issue, quoting {mention}"),
        Action(service="github", name="follow-up",
               needs=(Need("assignee", "email", ENG_ROLES, "engineer"),), build=_follow_up,
               prepare=_prepare_follow_up,
               goal="open a follow-up issue in the ops-runbooks repository on GitHub, assigned to {assignee} "
                    "and quoting {mention} in its description"),
    ),
)

__all__ = ["EMAIL_RX", "ENG_ROLES", "LINKS", "PHONE_RX", "commit_file", "next_issue_key", "plant_issue", "plant_user"]
