"""Issue tracker (Linear) in chained tasks: a Linear issue names its assigned
engineer (and git branch), the service it is about and that service's
repository; an incident leads to the Linear issue that follows it up (the
issue quotes the incident id), and a service to its open Linear bug. Writes:
comment on the case's issue quoting a discovered value, or move it to In
Progress assigned to the engineer a policy names."""

from __future__ import annotations

import datetime as dt
from typing import Any

from compoworld_gym.checks import OnlyChanged, RecordExists, RecordMatches
from compoworld_gym.envs.services._company import OPS_EMAIL
from compoworld_gym.envs.services._engineering import APPS_BY_KEY, ENG_MANAGER, ENGINEERS
from compoworld_gym.envs.services._issue_tracker_models import PRIORITY_LABELS, Issue, User
from compoworld_gym.envs.services._issue_tracker_rules import branch_name, move
from compoworld_gym.envs.services._issue_tracker_seed import TEAMS
from compoworld_gym.envs.services._issue_tracker_models import WorkflowState
from compoworld_gym.generation.context import Ctx, call
from compoworld_gym.generation.hooks.deployments import new_app_key
from compoworld_gym.generation.links import (
    Action, Found, Give, Need, Reader, Relay, ServiceLinks, SolveError, Write, latest, next_id,
)

SERVICE = "issue_tracker"
_TEAM_OF = {roster: key for roster, key, *_ in TEAMS}
_REPO_RX = r"(?<=Repository: )[A-Za-z0-9_.-]+/[A-Za-z0-9_.-]+"
_APP_RX = r"(?<=Service: )[a-z0-9]+(?:-[a-z0-9]+)*"
_OPEN = ("backlog", "unstarted", "started")
_TITLES = ("Errors spike on {app} after the last release", "{app} returns 500 on a malformed request",
           "Timeouts from {app} under load", "{app} retries exhaust before the upstream recovers")


def engineer_email(ctx: Ctx) -> str:
    """An engineer of the roster (issues are assigned to engineers)."""
    return ctx.rng.choice(ENGINEERS).email


def _team_for(ctx: Ctx, app: str, email: str | None) -> str:
    if app in APPS_BY_KEY:
        return _TEAM_OF[APPS_BY_KEY[app].team]
    roster = next((e.team for e in ENGINEERS if e.email == email), None)
    return _TEAM_OF[roster] if roster else ctx.rng.choice(sorted(_TEAM_OF.values()))


def next_issue_id(ctx: Ctx, team: str | None = None) -> str:
    """The next identifier of ``team`` (a random team when None), taken from its counter."""
    state = ctx.state(SERVICE)
    return next_id(state, team or ctx.rng.choice(sorted(state["teams"])), width=1)


def plant_issue(ctx: Ctx, ident: str, *, app: str, assignee: str, title: str, description: str,
                state: str = "in-progress", branch: str | None = None, repo: str | None = None) -> str:
    """Add a Linear issue ``ident`` (its team is the identifier's prefix) on ``app``, assigned to
    ``assignee`` (added as a workspace user if new) in workflow state ``state`` (a slug such as
    ``in-progress`` or ``done``); returns the identifier."""
    raw = ctx.state(SERVICE)
    team = ident.split("-")[0]
    handle = assignee.split("@")[0].split(".")[0]
    if assignee not in raw["users"]:
        raw["users"][assignee] = User(id=assignee, name=handle.title(), display_name=handle).model_dump(mode="json")
    repo = repo or (APPS_BY_KEY[app].repo if app in APPS_BY_KEY else f"acme/{app}")
    at = dt.datetime.fromisoformat(ctx.at(-2, 10))
    ws = WorkflowState.model_validate(raw["workflow_states"][f"{team}-{state}"])
    issue = Issue(id=ident, team_id=team, number=int(ident.split("-")[1]), title=title,
                  description=f"{description}\n\nService: {app}\nRepository: {repo}\n", state_id="", state_name="",
                  state_type="backlog", priority=2, priority_label=PRIORITY_LABELS[2], assignee_email=assignee,
                  creator_email=ENG_MANAGER.email, labels=["Bug", app],
                  branch_name=branch or branch_name(handle, ident, title), created_at=at, updated_at=at)
    move(issue, ws, at)
    raw["issues"][ident] = issue.model_dump(mode="json")
    return ident


def _plant(ctx: Ctx, ident: str | None, outs: dict[str, Any], stale: bool, *, app: str | None = None,
           incident: str | None = None) -> str:
    email = outs.get("email") or engineer_email(ctx)
    app = app or outs.get("project_id") or new_app_key(ctx)
    ident = ident or next_issue_id(ctx, _team_for(ctx, app, email))
    title = ctx.rng.choice(_TITLES).format(app=app)
    text = f"Follow-up of incident {incident}." if incident else "Reported by the on-call engineer."
    if stale:
        title = f"{title} (earlier report)"
    return plant_issue(ctx, ident, app=app, assignee=email, title=title, description=text,
                       state="done" if stale else ctx.rng.choice(("todo", "in-progress")),
                       repo=outs.get("repo_name"))


def incident_key(ctx: Ctx) -> str:
    """An incident id: monitoring's next one when it is mounted, else one past the seeded ids."""
    if "monitoring" in ctx.states:
        return next_id(ctx.state("monitoring"), "INC")
    return next_id(ctx.state(SERVICE), "INC", start=500)


def _open_one(reader: Reader, rows: list[dict[str, Any]]) -> dict[str, Any]:
    live = [r for r in rows if r["state_type"] in _OPEN]
    if not live:
        raise SolveError("no open Linear issue matches")
    return reader.read(SERVICE, "get_issue", issue_id=latest(live, "created_at")["id"])


_ASSIGNEE = Give("email", "assignee_email", "the assigned engineer's email address", "the assigned engineer",
                 draw=engineer_email)
_REPO = Give("repo_name", "description", "the repository of the service the issue is about", pattern=_REPO_RX)
_APP = Give("project_id", "description", "the service the issue is about", pattern=_APP_RX, draw=new_app_key)
_ISSUE = Give("linear_issue_id", "id", "the Linear issue")
_TRUTH = "A Done or canceled Linear issue is closed; only the open issue counts."

LINEAR_ISSUE = Relay(
    service=SERVICE, name="Linear issue", key="linear_issue_id", gives=(_ASSIGNEE, _REPO, _APP),
    plant=lambda ctx, key, outs, stale: _plant(ctx, key, outs, stale),
    find=lambda reader, key: reader.read(SERVICE, "get_issue", issue_id=key),
    where="Each Linear issue names its assigned engineer, and its description names the service "
          "and repository it is about.",
    alloc=lambda ctx: next_issue_id(ctx), entry=lambda key: f"Linear issue {key}")

INCIDENT_ISSUE = Relay(
    service=SERVICE, name="incident's Linear issue", key="incident_id", gives=(_ISSUE, _ASSIGNEE, _REPO),
    plant=lambda ctx, key, outs, stale: _plant(ctx, None, outs, stale, incident=key),
    find=lambda reader, key: _open_one(reader, reader.read(SERVICE, "search_issues", query=key, limit=100)),
    where="Engineering follows up each incident with a Linear issue whose description quotes the incident id.",
    alloc=incident_key,
    truth=_TRUTH)

SERVICE_ISSUE = Relay(
    service=SERVICE, name="service's open Linear issue", key="project_id", gives=(_ISSUE, _ASSIGNEE, _REPO),
    plant=lambda ctx, key, outs, stale: _plant(ctx, None, outs, stale, app=key),
    find=lambda reader, key: _open_one(reader, reader.read(SERVICE, "list_issues", label=key, limit=250)),
    where="Linear issues carry the name of the service they are about as a label.", truth=_TRUTH,
    alloc=new_app_key, entry=lambda key: f"the open Linear issue on {key}")


def _scope(ident: str) -> list[OnlyChanged]:
    return [OnlyChanged(id="_", service=SERVICE, collection="issues", allow_ids=[ident],
                        description="No other Linear issue was changed or created.")]


def _comment(reader: Reader, args: dict[str, Found]) -> Write:
    ident, mention = args["issue"].value, args["mention"]
    reader.read(SERVICE, "get_issue", issue_id=ident)
    body = f"{args['case'].value}: {mention.noun} is {mention.display}."
    return Write(
        calls=[call("create_comment", issue_id=ident, body=body, user_email=OPS_EMAIL)],
        checks=[RecordExists(id="_", service=SERVICE, collection="comments",
                             where={"issue_id": ident, "body": {"$contains": mention.display}},
                             description="A comment on the Linear issue quotes the right value.")],
        scope=[OnlyChanged(id="_", service=SERVICE, collection="issues", description="No issue was changed."),
               OnlyChanged(id="_", service=SERVICE, collection="comments", allow_new={"issue_id": ident}, max_new=1,
                           description="One comment, on the case's issue only.")],
        tool="create_comment", where={"issue_id": ident}, label="the comment on the Linear issue")


def _start(reader: Reader, args: dict[str, Found]) -> Write:
    ident, owner = args["issue"].value, args["assignee"].value
    issue = reader.read(SERVICE, "get_issue", issue_id=ident)
    if issue["state_type"] not in _OPEN or issue["archived_at"]:
        raise SolveError(f"issue {ident} is closed")
    state_id = f"{issue['team_id']}-in-progress"
    return Write(
        calls=[call("update_issue", issue_id=ident, state_id=state_id, assignee_email=owner)],
        checks=[RecordMatches(id="_", service=SERVICE, collection="issues", record_id=ident,
                              where={"state_id": state_id, "assignee_email": {"$ieq": owner}},
                              description="The Linear issue is In Progress with the right engineer.")],
        scope=_scope(ident), tool="update_issue", where={"issue_id": ident}, label="the Linear issue hand-over")


def _pair(ctx: Ctx) -> tuple[str, str]:
    a, b = ctx.rng.sample(sorted({e.email for e in ENGINEERS}), 2)
    return a, b


LINKS = ServiceLinks(
    service=SERVICE, label="Linear",
    relays=(LINEAR_ISSUE, INCIDENT_ISSUE, SERVICE_ISSUE),
    actions=(
        Action(service=SERVICE, name="comment", needs=(Need("issue", "linear_issue_id"),), build=_comment,
               goal="comment on the Linear issue stating {mention}"),
        Action(service=SERVICE, name="start", needs=(Need("assignee", "email", ("the backup engineer",), "engineer"),
                                                     Need("issue", "linear_issue_id")),
               build=_start, goal="move the Linear issue to In Progress and assign it to {assignee}", routable=True,
               effect="advances"),
    ),
    route_values={"email": _pair},
)

__all__ = ["LINKS", "engineer_email", "next_issue_id", "plant_issue"]
