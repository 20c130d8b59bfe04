"""Git repositories in chained tasks: a service's repository (found by the
deploy project key an incident or deploy names) gives the latest commit on
main and the engineer who made it; a repository (by org/name) gives the
author of its one unmerged branch and the day of its last commit. Writes:
revert the latest commit on main and push it, or tag main's head with an
annotated tag quoting a discovered value."""

from __future__ import annotations

from typing import Any

from compoworld_gym.checks import OnlyChanged, RecordMatches
from compoworld_gym.envs.services._engineering import APPS_BY_KEY, ENGINEERS
from compoworld_gym.envs.services._git_commands_models import Branch, Repository
from compoworld_gym.envs.services._git_commands_rules import commit_sha, make_commit
from compoworld_gym.envs.services._git_commands_seed import BOT_EMAIL, BOT_NAME, base_files, repo_path, repo_url
from compoworld_gym.generation.context import Ctx, call
from compoworld_gym.generation.hooks.deployments import engineer_email, new_app_key
from compoworld_gym.generation.links import (
    Action, Found, Give, Need, Reader, Relay, ServiceLinks, SolveError, Write, pick,
)

SERVICE = "git_commands"
DATE_RX = r"\d{4}-\d{2}-\d{2}"
_TOPICS = ("retry-budget", "pool-size", "cache-keys", "null-totals", "tls-upgrade", "rate-limits", "idempotency")
_NAMES = {e.email: e.name for e in ENGINEERS}


def _name(email: str) -> str:
    return _NAMES.get(email) or " ".join(p.capitalize() for p in email.split("@")[0].split("."))


def ensure_repo(ctx: Ctx, project: str, org: str = "acme") -> str:
    """The path of the clone of ``project`` (a deploy project key), made with an initial commit if missing."""
    state = ctx.state(SERVICE)
    hit = next((r for r in state["repositories"].values() if r["project"] == project), None)
    if hit is not None:
        return hit["path"]
    app = APPS_BY_KEY.get(project)
    author = engineer_email(ctx)
    root = make_commit(repo_path(project, org), base_files(project, app.name if app else project.replace("-", " ")
                                                          .title(), app.team if app else "platform"),
                       [], _name(author), author, "Initial commit", ctx.at(-90, 10))
    state["commits"][root.sha] = root.model_dump(mode="json")
    repo = Repository(path=root.repo_path, name=f"{org}/{project}", url=repo_url(project, org), project=project,
                      head="main", branches={"main": Branch(name="main", head=root.sha, upstream="origin/main")},
                      remote_branches={"main": root.sha}, config={"pull.rebase": "false"})
    state["repositories"][repo.path] = repo.model_dump(mode="json")
    return repo.path


def _add_commit(ctx: Ctx, path: str, parent: str, author: str, message: str, new_file: str, when: str) -> str:
    state = ctx.state(SERVICE)
    tree = {**state["commits"][parent]["tree"], new_file: f"-- {message}\n"}
    c = make_commit(path, tree, [parent], _name(author), author, message, when)
    state["commits"][c.sha] = c.model_dump(mode="json")
    return c.sha


def plant_main_commit(ctx: Ctx, project: str, author: str) -> str:
    """A new commit by ``author`` adding one migration file on main of ``project``'s clone, pushed to origin
    (local main fast-forwarded to it); returns its sha."""
    path = ensure_repo(ctx, project)
    repo = ctx.state(SERVICE)["repositories"][path]
    topic = ctx.rng.choice(_TOPICS)
    n = ctx.rng.randint(10, 99)
    sha = _add_commit(ctx, path, repo["remote_branches"]["main"], author, f"Add migration {n:04d} for {topic}",
                      f"migrations/{n:04d}_{topic.replace('-', '_')}.sql", f"{ctx.day(0)}T07:{n % 60:02d}:00")
    repo["remote_branches"]["main"] = repo["branches"]["main"]["head"] = sha
    return sha


def _plant_branch(ctx: Ctx, path: str, author: str, when: str, merged: bool) -> str:
    """A pushed ``fix/...`` branch with one commit by ``author`` at ``when``; ``merged`` fast-forwards main to it."""
    repo = ctx.state(SERVICE)["repositories"][path]
    topic = ctx.rng.choice(_TOPICS)
    name = f"fix/{repo['project']}-{topic}-{ctx.rng.randint(10, 99)}"
    sha = _add_commit(ctx, path, repo["remote_branches"]["main"], author, f"Fix {topic.replace('-', ' ')}",
                      f"src/fixes/{name.rsplit('/', 1)[-1].replace('-', '_')}.py", when)
    repo["branches"][name] = Branch(name=name, head=sha, upstream=f"origin/{name}").model_dump(mode="json")
    repo["remote_branches"][name] = sha
    if merged:
        repo["remote_branches"]["main"] = repo["branches"]["main"]["head"] = sha
    return sha


def _plant_head(ctx: Ctx, key: Any, outs: dict[str, Any], stale: bool) -> str:
    author = outs.get("email") or engineer_email(ctx)
    if stale:  # newer work on a branch that is not on main
        path = ensure_repo(ctx, str(key))
        return _plant_branch(ctx, path, author, f"{ctx.day(0)}T08:{ctx.rng.randint(10, 59)}:00", merged=False)
    return plant_main_commit(ctx, str(key), author)


def _plant_repo_branch(ctx: Ctx, key: Any, outs: dict[str, Any], stale: bool) -> str:
    org, _, project = str(key).partition("/")
    path = ensure_repo(ctx, project, org)
    day = outs.get("date") or ctx.day(-2)
    return _plant_branch(ctx, path, outs.get("email") or engineer_email(ctx), f"{day}T{ctx.rng.randint(10, 16)}:30:00",
                         merged=stale)


def _repo_of(reader: Reader, **search: Any) -> dict[str, Any]:
    return pick(reader.read(SERVICE, "git_list_repositories", **search))


def _latest_on_main(reader: Reader, key: Any) -> dict[str, Any]:
    repo = _repo_of(reader, project=key)
    return reader.read(SERVICE, "git_commit_history", repo_url=repo["url"], branch="main", max_count=1)["commits"][0]


def _open_branch_tip(reader: Reader, key: Any) -> dict[str, Any]:
    repo = _repo_of(reader, query=key)
    branch = pick([b for b in repo["branches"] if not b["merged"]])
    return reader.read(SERVICE, "git_commit_history", repo_url=repo["url"], branch=branch["name"],
                       max_count=1)["commits"][0]


SERVICE_HEAD = Relay(
    service=SERVICE, name="latest commit on the service's main branch", key="project_id",
    gives=(Give("email", "author_email", "the email address of the engineer who made the latest commit on main",
                "the commit author", draw=engineer_email),),
    plant=_plant_head, find=_latest_on_main,
    where="Each service's source is a git repository (git_commands) named after its deploy project; main is the "
          "shipped branch.",
    alloc=new_app_key, entry=lambda key: f"the git repository of {key}",
    truth="Only the main branch is shipped; newer commits on other branches do not count.")

REPO_BRANCH = Relay(
    service=SERVICE, name="repository's unmerged branch", key="repo_name",
    gives=(Give("email", "author_email", "the email address of the engineer whose branch is still unmerged",
                "the branch author", draw=engineer_email),
           Give("date", "date", "the day of the unmerged branch's last commit", "the branch's last commit day",
                pattern=DATE_RX, draw=lambda ctx: ctx.day(-ctx.rng.randint(1, 9)))),
    plant=_plant_repo_branch, find=_open_branch_tip,
    where="The git repositories (git_commands) list every branch and whether it is merged into main.",
    entry=lambda key: f"git repository {key}",
    truth="A branch already merged into main is finished; only the unmerged branch counts.")


def _scope(path: str, commits: bool) -> list[OnlyChanged]:
    out = [OnlyChanged(id="_", service=SERVICE, collection="repositories", allow_ids=[path],
                       description="No other repository was changed.")]
    if commits:
        out.append(OnlyChanged(id="_", service=SERVICE, collection="commits", allow_new={"repo_path": path},
                               max_new=1, description="No other commit was made."))
    return out


def _checkout_main(repo: dict[str, Any]) -> list:
    return [] if repo["current_branch"] == "main" else [call("git_checkout_branch", repo_path=repo["path"],
                                                              branch_name="main")]


def _revert(reader: Reader, args: dict[str, Found]) -> Write:
    repo = _repo_of(reader, project=args["project"].value)
    sha = next(b["head"] for b in repo["branches"] if b["name"] == "main")
    latest = reader.read(SERVICE, "git_commits_details", repo_url=repo["url"], branch="main", max_count=1)["commits"][0]
    files = reader.read(SERVICE, "git_directory_structure", repo_url=repo["url"])["files"]
    if latest["hash"] != sha or any(f["status"] != "added" for f in latest["files"]) or len(latest["parents"]) != 1:
        raise SolveError(f"commit {sha} is not a plain addition on main")
    added = {f["path"] for f in latest["files"]}
    tree = reader.read(SERVICE, "git_read_files", repo_url=repo["url"],
                       file_paths=[p for p in files if p not in added])["files"]
    message = f'Revert "{latest["message"].splitlines()[0]}"\n\nThis reverts commit {sha}.'
    new = commit_sha(tree, [sha], BOT_NAME, BOT_EMAIL, message)
    path = repo["path"]
    return Write(
        calls=[*_checkout_main(repo), call("git_revert", repo_path=path, commit=sha),
               call("git_push", repo_path=path, branch="main")],
        checks=[RecordMatches(id="_", service=SERVICE, collection="repositories", record_id=path,
                              where={"remote_branches.main": new, "branches.main.head": new},
                              description="main is the revert of the commit, pushed to origin.")],
        scope=_scope(path, True), tool="git_push", where={"repo_path": path}, label="the revert pushed to main")


def _tag(reader: Reader, args: dict[str, Found]) -> Write:
    repo = _repo_of(reader, project=args["project"].value)
    head = next(b["head"] for b in repo["branches"] if b["name"] == "main")
    mention, case = args["mention"], args["case"].value
    path = repo["path"]
    return Write(
        calls=[*_checkout_main(repo), call("git_create_tag", repo_path=path, tag_name=case.split()[-1],
                                           message=f"{case}: {mention.noun} is {mention.display}.", annotated=True)],
        checks=[RecordMatches(id="_", service=SERVICE, collection="repositories", record_id=path,
                              where={"tags": {"$any": {"sha": head, "annotated": True, "message": {
                                  "$all": [{"$contains": case}, {"$contains": mention.display}]}}}},
                              description="main's head carries an annotated tag quoting the case and the value.")],
        scope=_scope(path, False), tool="git_create_tag", where={"repo_path": path}, label="the release tag on main")


LINKS = ServiceLinks(
    service=SERVICE, label="the git repositories",
    relays=(SERVICE_HEAD, REPO_BRANCH),
    actions=(
        Action(service=SERVICE, name="revert", needs=(Need("project", "project_id"),), build=_revert,
               goal="revert the latest commit on main of the service's git repository and push main to origin"),
        Action(service=SERVICE, name="tag", needs=(Need("project", "project_id"),), build=_tag,
               goal="tag the head of main in the service's git repository with an annotated tag named after the "
                    "case reference, its message quoting {mention}"),
    ),
)

__all__ = ["LINKS", "ensure_repo", "plant_main_commit"]
