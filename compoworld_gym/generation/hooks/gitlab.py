"""GitLab in chained tasks: a service's project (``acme/<service key>``, the
repository the deploy project names) names its code owner in CODEOWNERS and
has an open merge request whose author and linked incident are known; a merge
request names its author and the incident it fixes. The case gets an issue
in the service's project, or a hotfix merge request from a branch named
after the case."""

from __future__ import annotations

import datetime as dt
import re
from typing import Any, Optional

from compoworld_gym.checks import OnlyChanged, RecordExists
from compoworld_gym.envs.services._engineering import ENG_MANAGER, ENGINEERS, team_engineers
from compoworld_gym.envs.services._gitlab_models import Branch, GitlabUser, MergeRequest, Project
from compoworld_gym.envs.services._gitlab_rules import new_commit
from compoworld_gym.envs.services._gitlab_seed import GROUP, LABELS
from compoworld_gym.generation.context import Ctx, call
from compoworld_gym.generation.hooks.deployments import app_name, engineer_email, new_app_key
from compoworld_gym.generation.links import Action, Found, Give, Need, Reader, Relay, ServiceLinks, Write, pick

SERVICE = "gitlab"
EMAIL_RX = r"[\w.+-]+@[\w-]+(?:\.[\w-]+)+"
INCIDENT_RX = r"INC-\d{4,}"
_TOPICS = ("timeouts", "retry-budget", "pool-size", "null-totals", "tls-upgrade", "cache-keys")
_TEAMS = ("payments", "storefront", "platform", "data")


def project_path(key: str) -> str:
    """The GitLab path of service ``key``'s project, e.g. ``acme/checkout-api``."""
    return f"{GROUP}/{key}"


def _find_project(state: dict[str, Any], key: str) -> Optional[dict[str, Any]]:
    return next((p for p in state["projects"].values() if p["namespace"] == GROUP and p["path"] == key), None)


def ensure_user(state: dict[str, Any], email: str) -> GitlabUser:
    """The GitLab user with ``email``, added (and made a member of the acme group) if missing."""
    for raw in state["users"].values():
        if raw["email"].lower() == email.lower():
            return GitlabUser.model_validate(raw)
    name = next((p.name for p in (*ENGINEERS, ENG_MANAGER) if p.email == email.lower()),
                email.split("@")[0].replace(".", " ").title())
    uid = state["counters"].get("user", len(state["users"]) + 1)
    state["counters"]["user"] = uid + 1
    user = GitlabUser(id=uid, username=email.split("@")[0].lower(), name=name, email=email.lower())
    state["users"][str(uid)] = user.model_dump(mode="json")
    state["namespaces"][GROUP]["member_ids"].append(uid)
    return user


def _save(state: dict[str, Any], project: Project) -> dict[str, Any]:
    state["projects"][str(project.id)] = project.model_dump(mode="json")
    return state["projects"][str(project.id)]


def ensure_project(ctx: Ctx, key: str, owner: Optional[str] = None) -> Project:
    """Service ``key``'s project ``acme/<key>`` (planted with a protected main branch,
    README and CODEOWNERS naming ``owner`` if missing), as a validated :class:`Project`."""
    state = ctx.state(SERVICE)
    raw = _find_project(state, key)
    if raw is not None:
        return Project.model_validate(raw)
    owner = owner or team_engineers(ctx.rng.choice(_TEAMS))[0].email
    pid = state["counters"].get("project", 1001)
    state["counters"]["project"] = pid + 1
    when = dt.datetime.fromisoformat(ctx.at(-ctx.rng.randint(200, 600), 10))
    project = Project(id=pid, name=app_name(key), path=key, namespace=GROUP, description=f"{app_name(key)} service",
                      visibility="internal", default_branch="main", created_at=when, protected_branches=["main"],
                      labels=list(LABELS))
    main = Branch(name="main")
    new_commit(main, "Initial commit", {"README.md": f"# {app_name(key)}\n", "CODEOWNERS": f"* {owner}\n",
                                        "config/settings.yaml": "upstream_timeout_ms: 1000\nretries: 3\n"},
               ensure_user(state, owner), when)
    project.branches["main"] = main
    _save(state, project)
    return project


def _alloc_key(ctx: Ctx) -> str:
    taken = ctx.__dict__.setdefault("_app_keys", set())
    taken |= {p["path"] for p in ctx.state(SERVICE)["projects"].values()}
    return new_app_key(ctx)


def _commit(ctx: Ctx, project: Project, branch: str, path: str, content: str, email: str, days: int) -> None:
    if branch not in project.branches:
        main = project.branches[project.default_branch or "main"]
        project.branches[branch] = Branch(name=branch, files=dict(main.files), commits=list(main.commits))
    new_commit(project.branches[branch], f"Update {path}", {path: content}, ensure_user(ctx.state(SERVICE), email),
               dt.datetime.fromisoformat(ctx.at(days, 11)))


def _plant_owner(ctx: Ctx, key: Any, outs: dict[str, Any], stale: bool) -> str:
    owner = outs.get("email") or engineer_email(ctx)
    project = ensure_project(ctx, key, owner)
    branch = "draft/codeowners" if stale else project.default_branch or "main"
    _commit(ctx, project, branch, "CODEOWNERS", f"# Reviewers for every change\n* {owner}\n", owner,
            -4 if stale else -30)
    _save(ctx.state(SERVICE), project)
    return project_path(key)


def plant_merge_request(ctx: Ctx, project: Project, iid: int, *, author: str, status: str,
                        incident: Optional[str], service: str) -> str:
    """Add a merge request ``!iid`` (validated) from a fresh fix branch of ``project``; returns its reference."""
    state = ctx.state(SERVICE)
    branch = f"fix/{project.path}-{ctx.rng.choice(_TOPICS)}-{iid}"
    _commit(ctx, project, branch, "config/settings.yaml", f"upstream_timeout_ms: {ctx.rng.randint(12, 40)}00\n",
            author, -2)
    _save(state, project)
    ref = f"{project.path_with_namespace}!{iid}"
    mid = state["counters"].get("mr", 1)
    state["counters"]["mr"] = mid + 1
    said = f"Fixes {incident}: raises the upstream timeout." if incident else "Raises the upstream timeout."
    when = dt.datetime.fromisoformat(ctx.at(-2, 15))
    mr = MergeRequest(id=mid, iid=iid, reference=ref, project_id=project.id, title=f"Fix {branch.split('/')[1]}",
                      description=said, state=status, source_branch=branch, target_branch="main",
                      author_id=ensure_user(state, author).id, created_at=when, labels=[f"service::{service}"],
                      merged_at=when + dt.timedelta(hours=3) if status == "merged" else None)
    state["merge_requests"][ref] = mr.model_dump(mode="json")
    return ref


def _next_iid(state: dict[str, Any], project: Project) -> int:
    n = state["counters"].get(f"mr:{project.id}", 1)
    state["counters"][f"mr:{project.id}"] = n + 1
    return n


def _plant_open_mr(ctx: Ctx, key: Any, outs: dict[str, Any], stale: bool) -> str:
    state = ctx.state(SERVICE)
    project = ensure_project(ctx, key)
    if not stale:  # the planted one is the project's only open merge request
        for mr in state["merge_requests"].values():
            if mr["project_id"] == project.id and mr["state"] == "opened":
                mr["state"] = "closed"
    return plant_merge_request(ctx, project, _next_iid(state, project), author=outs.get("email") or engineer_email(ctx),
                               status="merged" if stale else "opened", incident=outs.get("incident_id"), service=key)


def _alloc_mr(ctx: Ctx) -> str:
    project = ensure_project(ctx, _alloc_key(ctx))
    return f"{project.path_with_namespace}!{_next_iid(ctx.state(SERVICE), project)}"


def _split(ref: str) -> tuple[str, int]:
    path, _, iid = str(ref).rpartition("!")
    return path, int(iid)


def _plant_mr(ctx: Ctx, key: Any, outs: dict[str, Any], stale: bool) -> str:
    path, iid = _split(key)
    project = ensure_project(ctx, path.split("/", 1)[1])
    return plant_merge_request(ctx, project, iid, author=outs.get("email") or engineer_email(ctx), status="opened",
                               incident=outs.get("incident_id"), service=project.path)


def _find_mr(reader: Reader, key: Any) -> dict[str, Any]:
    path, iid = _split(key)
    return reader.read(SERVICE, "get_merge_request", project_id=path, merge_request_iid=iid)


def _find_open(reader: Reader, key: Any) -> dict[str, Any]:
    return pick(reader.read(SERVICE, "list_merge_requests", project_id=project_path(key), state="opened"),
                state="opened")


_AUTHOR = Give("email", "author.public_email", "the merge request author's email address",
               "the merge request author", draw=engineer_email)
_INCIDENT = Give("incident_id", "description", "the incident the merge request fixes", pattern=INCIDENT_RX)

CODE_OWNER = Relay(
    service=SERVICE, name="project code owner", key="project_id",
    gives=(Give("email", "content", "the code owner's email address", "the code owner", pattern=EMAIL_RX,
                draw=engineer_email),),
    plant=_plant_owner,
    find=lambda reader, key: reader.read(SERVICE, "get_file_contents", project_id=project_path(key),
                                         file_path="CODEOWNERS"),
    where="Each service's GitLab project (acme/<service>) names its code owner in the CODEOWNERS file.",
    alloc=_alloc_key, entry=lambda key: f"the GitLab project {project_path(key)}",
    truth="Only CODEOWNERS on the project's default branch counts; other branches hold unmerged drafts.")

OPEN_MR = Relay(
    service=SERVICE, name="open merge request", key="project_id", gives=(_AUTHOR, _INCIDENT),
    plant=_plant_open_mr, find=_find_open,
    where="A service's fixes go through merge requests in its GitLab project (acme/<service>); each names its "
          "author and the incident it fixes.",
    alloc=_alloc_key, entry=lambda key: f"the open merge request of {project_path(key)}",
    truth="A merged or closed merge request is done; only the project's open merge request counts.")

MERGE_REQUEST = Relay(
    service=SERVICE, name="merge request", key="merge_request_id",
    # No project give: the reference (acme/<service>!n) already names the service.
    gives=(_AUTHOR, _INCIDENT),
    plant=_plant_mr, find=_find_mr,
    where="A GitLab merge request names its author and the incident it fixes.",
    alloc=_alloc_mr, entry=lambda key: f"GitLab merge request {key}")


def _prepare(ctx: Ctx, values: dict[str, Any]) -> None:
    ensure_project(ctx, values["service"])


def _project_of(reader: Reader, key: str) -> dict[str, Any]:
    return reader.read(SERVICE, "get_project", project_id=project_path(key))


def _issue(reader: Reader, args: dict[str, Found]) -> Write:
    key, mention, case = args["service"].value, args["mention"], args["case"].value
    project = _project_of(reader, key)
    where = {"project_id": project["id"], "state": "opened", "description": {"$contains": mention.display}}
    return Write(
        calls=[call("create_issue", project_id=project_path(key), title=f"Follow-up for {case}",
                    description=f"{case}: {mention.noun} is {mention.display}.", labels=["incident"])],
        checks=[RecordExists(id="_", service=SERVICE, collection="issues", where=where,
                             description="An issue in the service's GitLab project quotes the right value.")],
        scope=[OnlyChanged(id="_", service=SERVICE, collection="issues", allow_new={"project_id": project["id"]},
                           max_new=1, description="No other issue was opened or changed.")],
        tool="create_issue", where={"project_id": project_path(key)}, label="the GitLab issue")


def hotfix_branch(case: str) -> str:
    """The branch a case's hotfix goes on: ``hotfix/`` and the case code ("case KQ-4821" -> hotfix/KQ-4821)."""
    return "hotfix/" + re.sub(r"^case\s+", "", case).strip()


def _hotfix(reader: Reader, args: dict[str, Found]) -> Write:
    key, mention, case = args["service"].value, args["mention"], args["case"].value
    project, branch = _project_of(reader, key), hotfix_branch(case)
    base = project["default_branch"]
    where = {"project_id": project["id"], "state": "opened", "source_branch": branch, "target_branch": base,
             "description": {"$contains": mention.display}}
    return Write(
        calls=[call("create_branch", project_id=project_path(key), branch=branch, ref=base),
               call("create_merge_request", project_id=project_path(key), title=f"Hotfix for {case}",
                    source_branch=branch, target_branch=base,
                    description=f"{case}: {mention.noun} is {mention.display}.")],
        checks=[RecordExists(id="_", service=SERVICE, collection="merge_requests", where=where,
                             description="A hotfix merge request from the case's branch quotes the right value.")],
        scope=[OnlyChanged(id="_", service=SERVICE, collection="merge_requests",
                           allow_new={"project_id": project["id"]}, max_new=1,
                           description="No other merge request was opened or changed."),
               OnlyChanged(id="_", service=SERVICE, collection="projects", allow_ids=[str(project["id"])],
                           description="No other project was changed.")],
        tool="create_merge_request", where={"project_id": project_path(key)}, label="the hotfix merge request")


_SERVICE = (Need("service", "project_id", noun="service"),)

LINKS = ServiceLinks(
    service=SERVICE, label="GitLab",
    relays=(CODE_OWNER, OPEN_MR, MERGE_REQUEST),
    actions=(
        Action(service=SERVICE, name="issue", needs=_SERVICE, build=_issue, prepare=_prepare,
               goal="open an issue in the GitLab project of {service}, quoting {mention} in its description"),
        Action(service=SERVICE, name="hotfix", needs=_SERVICE, build=_hotfix, prepare=_prepare,
               goal="open a merge request in the GitLab project of {service} from a new branch named hotfix/ and "
                    "the case code (hotfix/KQ-4821 for case KQ-4821) into its default branch, quoting {mention} "
                    "in its description"),
    ),
)

__all__ = ["LINKS", "ensure_project", "ensure_user", "hotfix_branch", "plant_merge_request", "project_path"]
