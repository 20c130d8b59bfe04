"""Error tracking (Sentry) in chained tasks: a Sentry issue names the
affected customer (its latest event's user email), the release it was last
seen in, its project (the application) and the project's repository; an
application leads to its unresolved Sentry issue. Writes: resolve the
case's issue, assign it to the engineer a policy names, or add a note
quoting a discovered value."""

from __future__ import annotations

import datetime as dt
from typing import Any

from compoworld_gym.checks import OnlyChanged, RecordExists, RecordMatches
from compoworld_gym.envs.services._company import OPS_EMAIL
from compoworld_gym.envs.services._engineering import APPS_BY_KEY, ENGINEERS
from compoworld_gym.envs.services._error_tracking_models import Event, Issue, Project, Release
from compoworld_gym.envs.services._error_tracking_rules import short_id
from compoworld_gym.generation.context import Ctx, call
from compoworld_gym.generation.hooks.deployments import app_name, new_app_key
from compoworld_gym.generation.links import (
    Action, Found, Give, Need, Reader, Relay, ServiceLinks, SolveError, Write, latest, next_id,
)

SERVICE = "error_tracking"
_ERRORS = (("TimeoutError: upstream did not answer in 10s", "POST /v1/{app}/sync"),
           ("KeyError: 'customer_id'", "{app}.handlers.load_account"),
           ("ValueError: invalid decimal literal", "{app}.billing.parse_amount"),
           ("ConnectionResetError: connection reset by peer", "{app}.clients.http.request"))


def next_issue_id(ctx: Ctx, project: str) -> str:
    """The next short id of ``project`` (its counter, base 36)."""
    counters = ctx.state(SERVICE)["counters"]
    n = counters.get(project, 1)
    counters[project] = n + 1
    return short_id(project, n)


def ensure_project(ctx: Ctx, slug: str, repo: str | None = None) -> str:
    """Add a project ``slug`` (validated) unless it exists, or link a project with no issues yet to
    ``repo``; returns the slug."""
    projects = ctx.state(SERVICE)["projects"]
    issues = ctx.state(SERVICE)["issues"].values()
    if repo and slug in projects and not any(i["project_id"] == slug for i in issues):
        projects[slug]["repository"] = repo
    if slug not in projects:
        app = APPS_BY_KEY.get(slug)
        projects[slug] = Project(id=slug, name=app_name(slug), platform="python",
                                 team=app.team if app else ctx.rng.choice(sorted({e.team for e in ENGINEERS})),
                                 repository=repo or (app.repo if app else f"acme/{slug}")).model_dump(mode="json")
    return slug


def _release(ctx: Ctx, slug: str, version: str | None) -> str:
    releases = ctx.state(SERVICE)["releases"]
    mine = [v for v in releases if v.startswith(f"{slug}@")]
    version = version or f"{slug}@{ctx.rng.randint(1, 4)}.{ctx.rng.randint(20, 40) + len(mine)}.0"
    if version not in releases:
        at = dt.datetime.fromisoformat(ctx.at(-3, 11))
        releases[version] = Release(id=version, project_id=slug, date_created=at, date_released=at,
                                    ref=f"{ctx.rng.getrandbits(40):010x}", commit_count=ctx.rng.randint(2, 30)
                                    ).model_dump(mode="json")
    return version


def plant_issue(ctx: Ctx, sid: str, *, project: str, customer: str, release: str, status: str = "unresolved",
                assignee: str | None = None, days_ago: int = 0) -> str:
    """Add an issue ``sid`` of ``project`` last seen in ``release``, with one production event of
    ``customer``; returns the short id."""
    raw = ctx.state(SERVICE)
    title, culprit = ctx.rng.choice(_ERRORS)
    seen = dt.datetime.fromisoformat(ctx.at(-days_ago, 8))
    issue = Issue(id=sid, project_id=project, title=title, culprit=culprit.format(app=project.replace("-", "_")),
                  level="error", status=status, first_seen=seen - dt.timedelta(hours=5), last_seen=seen,
                  count=ctx.rng.randint(3, 400), user_count=ctx.rng.randint(1, 40), assigned_to=assignee,
                  first_release=release, last_release=release, permalink=f"https://acme.sentry.io/issues/{sid}/")
    raw["issues"][sid] = issue.model_dump(mode="json")
    eid = next_id(raw, "EVT")
    raw["events"][eid] = Event(id=eid, issue_id=sid, date_created=seen, message=title, release=release,
                               environment="production", user_email=customer).model_dump(mode="json")
    return sid


def _plant(ctx: Ctx, sid: str | None, outs: dict[str, Any], stale: bool, project: str | None = None) -> str:
    project = project or (sid.rsplit("-", 1)[0].lower() if sid else outs.get("project_id") or new_app_key(ctx))
    ensure_project(ctx, project, outs.get("repo_name"))
    sid = sid or next_issue_id(ctx, project)
    release = _release(ctx, project, outs.get("release_id"))
    return plant_issue(ctx, sid, project=project, customer=outs.get("email") or ctx.fresh("email"), release=release,
                       status="resolved" if stale else "unresolved", days_ago=5 if stale else 0)


def _alloc(ctx: Ctx) -> str:
    return next_issue_id(ctx, ensure_project(ctx, new_app_key(ctx)))


def _of_project(reader: Reader, key: Any) -> dict[str, Any]:
    rows = reader.read(SERVICE, "list_project_issues", project_id=key, status="unresolved", limit=100)
    if not rows:
        raise SolveError(f"no unresolved issue on {key}")
    return reader.read(SERVICE, "get_issue", issue_id=latest(rows, "last_seen")["id"])


_CUSTOMER = Give("email", "latest_event.user_email", "the affected customer's email address", "the customer")
_RELEASE = Give("release_id", "last_release", "the release the error was last seen in")

SENTRY_ISSUE = Relay(
    service=SERVICE, name="Sentry issue", key="error_issue_id",
    gives=(_CUSTOMER, _RELEASE, Give("repo_name", "repository", "the repository of the failing service"),
           Give("project_id", "project_id", "the failing service")),
    plant=lambda ctx, key, outs, stale: _plant(ctx, key, outs, stale),
    find=lambda reader, key: reader.read(SERVICE, "get_issue", issue_id=key),
    where="Each Sentry issue belongs to the failing service's project (linked to its repository); its latest event "
          "names the release and the affected customer's email.",
    alloc=_alloc, entry=lambda key: f"Sentry issue {key}")

PROJECT_ISSUE = Relay(
    service=SERVICE, name="service's unresolved Sentry issue", key="project_id",
    gives=(Give("error_issue_id", "id", "the service's unresolved Sentry issue"), _CUSTOMER, _RELEASE),
    plant=lambda ctx, key, outs, stale: _plant(ctx, None, outs, stale, project=key),
    find=_of_project, where="Sentry keeps one project per service, named by the service's key.",
    alloc=lambda ctx: ensure_project(ctx, new_app_key(ctx)), entry=lambda key: f"the unresolved Sentry issue on {key}",
    truth="A resolved Sentry issue is fixed; only the unresolved issue counts.")


def _scope(sid: str) -> list[OnlyChanged]:
    return [OnlyChanged(id="_", service=SERVICE, collection="issues", allow_ids=[sid],
                        description="No other Sentry issue was changed.")]


def _open(reader: Reader, sid: str) -> dict[str, Any]:
    issue = reader.read(SERVICE, "get_issue", issue_id=sid)
    if issue["status"] != "unresolved":
        raise SolveError(f"issue {sid} is {issue['status']}")
    return issue


def _resolve(reader: Reader, args: dict[str, Found]) -> Write:
    sid = args["issue"].value
    _open(reader, sid)
    return Write(
        calls=[call("update_issue", issue_id=sid, status="resolved")],
        checks=[RecordMatches(id="_", service=SERVICE, collection="issues", record_id=sid,
                              where={"status": "resolved"}, description="The Sentry issue is resolved.")],
        scope=_scope(sid), tool="update_issue", where={"issue_id": sid}, label="the resolved Sentry issue")


def _assign(reader: Reader, args: dict[str, Found]) -> Write:
    sid, owner = args["issue"].value, args["assignee"].value
    _open(reader, sid)
    return Write(
        calls=[call("update_issue", issue_id=sid, assigned_to=owner)],
        checks=[RecordMatches(id="_", service=SERVICE, collection="issues", record_id=sid,
                              where={"assigned_to": {"$ieq": owner}, "status": "unresolved"},
                              description="The Sentry issue is assigned to the right engineer.")],
        scope=_scope(sid), tool="update_issue", where={"issue_id": sid}, label="the Sentry issue assignment")


def _note(reader: Reader, args: dict[str, Found]) -> Write:
    sid, mention = args["issue"].value, args["mention"]
    reader.read(SERVICE, "get_issue", issue_id=sid)
    text = f"{args['case'].value}: {mention.noun} is {mention.display}."
    return Write(
        calls=[call("create_note", issue_id=sid, text=text, user_email=OPS_EMAIL)],
        checks=[RecordExists(id="_", service=SERVICE, collection="notes",
                             where={"issue_id": sid, "text": {"$contains": mention.display}},
                             description="A note on the Sentry issue quotes the right value.")],
        scope=[OnlyChanged(id="_", service=SERVICE, collection="issues", description="No issue was changed."),
               OnlyChanged(id="_", service=SERVICE, collection="notes", allow_new={"issue_id": sid}, max_new=1,
                           description="One note, on the case's issue only.")],
        tool="create_note", where={"issue_id": sid}, label="the note on the Sentry issue")


def _pair(ctx: Ctx) -> tuple[str, str]:
    a, b = ctx.rng.sample(sorted({e.email for e in ENGINEERS}), 2)
    return a, b


LINKS = ServiceLinks(
    service=SERVICE, label="Sentry",
    relays=(SENTRY_ISSUE, PROJECT_ISSUE),
    actions=(
        Action(service=SERVICE, name="resolve", needs=(Need("issue", "error_issue_id"),), build=_resolve,
               goal="resolve the Sentry issue", effect="ends"),
        Action(service=SERVICE, name="assign",
               needs=(Need("assignee", "email", ("the backup engineer",), "engineer"), Need("issue", "error_issue_id")),
               build=_assign, goal="assign the Sentry issue to {assignee}", routable=True, effect="advances"),
        Action(service=SERVICE, name="note", needs=(Need("issue", "error_issue_id"),), build=_note,
               goal="add a note to the Sentry issue stating {mention}"),
    ),
    route_values={"email": _pair},
)

__all__ = ["LINKS", "ensure_project", "next_issue_id", "plant_issue"]
