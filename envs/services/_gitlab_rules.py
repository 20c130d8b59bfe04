"""Git and GitLab rules of the ``gitlab`` service, and the API shapes of its answers.

* branch names follow ``git check-ref-format`` (no spaces, ``..``, ``~^:?*[\\``,
  no leading ``-`` or ``/``, no trailing ``.lock``, ``/`` or ``.``);
* commit ids are SHA-1 digests of the parent, message, time and changes, and
  blob ids are git's own ``blob <size>\\0<content>`` SHA-1, so answers are
  deterministic and look like GitLab's;
* views render records the way the REST API v4 does (``references``,
  ``namespace``, ``author``, ``web_url``...).
"""

from __future__ import annotations

import datetime as dt
import hashlib
import re
from typing import Any, Optional

from compoworld_gym.envs.services._gitlab_models import (
    Branch, Commit, GitlabState, GitlabUser, Issue, MergeRequest, Project,
)
from compoworld_gym.errors import InvalidArgument

HOST = "https://gitlab.company.example"
#: Characters git refuses in a ref name.
_BAD_REF = re.compile(r"[\s~^:?*\[\\\x00-\x1f\x7f]|\.\.|@\{|//")


def check_branch_name(name: str) -> str:
    """``name`` if it is a valid branch name (``git check-ref-format --branch``).

    Raises:
        InvalidArgument: 400 naming the rule the name breaks.
    """
    if (not name or _BAD_REF.search(name) or name.startswith(("-", "/", ".")) or name.endswith((".lock", "/", "."))
            or name == "HEAD" or len(name) > 255):
        raise InvalidArgument(f"branch name {name!r} is invalid: no spaces, '..', '~^:?*[\\', no leading '-' or "
                              "'/', and no trailing '/', '.' or '.lock' (e.g. fix/checkout-timeouts).")
    return name


def check_file_path(path: str) -> str:
    """``path`` without leading ``./`` or ``/`` if it is a valid repository file path.

    Raises:
        InvalidArgument: 400 for an empty path, ``..`` segments or a trailing ``/``.
    """
    clean = path.strip().lstrip("/")
    while clean.startswith("./"):
        clean = clean[2:]
    if not clean or clean.endswith("/") or any(part in ("", ".", "..") for part in clean.split("/")):
        raise InvalidArgument(f"file path {path!r} is invalid; give a path inside the repository, e.g. docs/notes.md.")
    return clean


def blob_id(content: str) -> str:
    """Git's blob id of ``content`` (SHA-1 of ``blob <size>\\0<bytes>``)."""
    raw = content.encode()
    return hashlib.sha1(b"blob %d\x00" % len(raw) + raw).hexdigest()


def new_commit(branch: Branch, message: str, changes: dict[str, Optional[str]], user: GitlabUser,
               when: dt.datetime) -> Commit:
    """Apply ``changes`` (``{path: content}``, None deletes) to ``branch`` and append their commit.

    Returns:
        The new :class:`Commit` (already on the branch).
    """
    parent = branch.commits[-1].id if branch.commits else None
    digest = "\n".join([parent or "", message, when.isoformat()]
                       + sorted(f"{p}:{'' if c is None else c}" for p, c in changes.items()))
    for path, content in changes.items():
        if content is None:
            branch.files.pop(path, None)
        else:
            branch.files[path] = content
    commit = Commit(id=hashlib.sha1(digest.encode()).hexdigest(), title=message.split("\n", 1)[0], message=message,
                    author_name=user.name, author_email=user.email, created_at=when,
                    changes={p: changes[p] for p in sorted(changes)}, parent_id=parent)
    branch.commits.append(commit)
    return commit


def last_commit_of(branch: Branch, path: str) -> Optional[Commit]:
    """The latest commit of ``branch`` that touched ``path``, or None."""
    return next((c for c in reversed(branch.commits) if path in c.changes), None)


def branch_at(branch: Branch, sha: str) -> Optional[Branch]:
    """``branch`` as it was at its commit whose id starts with ``sha`` (files replayed), or None."""
    for k, commit in enumerate(branch.commits):
        if commit.id.startswith(sha):
            files: dict[str, str] = {}
            for c in branch.commits[:k + 1]:
                for path, content in c.changes.items():
                    if content is None:
                        files.pop(path, None)
                    else:
                        files[path] = content
            return Branch(name=commit.id, files=files, commits=branch.commits[:k + 1])
    return None


def web_url(project: Project, tail: str = "") -> str:
    """The project's web URL, e.g. ``https://gitlab.company.example/acme/checkout-api/-/issues/3``."""
    return f"{HOST}/{project.path_with_namespace}{tail}"


def user_view(user: GitlabUser) -> dict[str, Any]:
    """A user as GitLab embeds one (``author``, ``assignees``)."""
    return {"id": user.id, "username": user.username, "name": user.name, "public_email": user.email,
            "web_url": f"{HOST}/{user.username}"}


def commit_view(project: Project, commit: Commit) -> dict[str, Any]:
    """A commit as ``POST /projects/:id/repository/commits`` answers."""
    return {"id": commit.id, "short_id": commit.id[:8], "title": commit.title, "message": commit.message,
            "author_name": commit.author_name, "author_email": commit.author_email,
            "created_at": commit.created_at, "parent_ids": [commit.parent_id] if commit.parent_id else [],
            "files": sorted(commit.changes), "web_url": web_url(project, f"/-/commit/{commit.id}")}


def project_view(state: GitlabState, project: Project) -> dict[str, Any]:
    """A project as ``GET /projects`` lists it."""
    ns = state.namespaces[project.namespace]
    parent = state.projects.get(str(project.forked_from_id)) if project.forked_from_id else None
    heads = [b.commits[-1].created_at for b in project.branches.values() if b.commits]
    return {"id": project.id, "name": project.name, "path": project.path,
            "path_with_namespace": project.path_with_namespace, "description": project.description,
            "visibility": project.visibility, "default_branch": project.default_branch,
            "archived": project.archived, "web_url": web_url(project), "created_at": project.created_at,
            "last_activity_at": max(heads) if heads else project.created_at,
            "namespace": {"id": ns.id, "name": ns.name, "path": ns.full_path.rsplit("/", 1)[-1],
                          "kind": ns.kind, "full_path": ns.full_path},
            "forked_from_project": ({"id": parent.id, "path_with_namespace": parent.path_with_namespace}
                                    if parent else None),
            "open_issues_count": sum(1 for i in state.issues.values()
                                     if i.project_id == project.id and i.state == "opened")}


def _user(state: GitlabState, uid: int) -> dict[str, Any]:
    user = state.users.get(str(uid))
    return user_view(user) if user else {"id": uid, "username": "ghost", "name": "Ghost User"}


def issue_view(state: GitlabState, issue: Issue) -> dict[str, Any]:
    """An issue as ``GET /projects/:id/issues/:iid`` answers."""
    project = state.projects[str(issue.project_id)]
    milestone = state.milestones.get(str(issue.milestone_id)) if issue.milestone_id else None
    return {**issue.model_dump(exclude={"assignee_ids", "author_id", "milestone_id"}),
            "author": _user(state, issue.author_id), "assignees": [_user(state, u) for u in issue.assignee_ids],
            "milestone": milestone.model_dump() if milestone else None,
            "references": {"short": f"#{issue.iid}", "full": f"{project.path_with_namespace}#{issue.iid}"},
            "web_url": web_url(project, f"/-/issues/{issue.iid}")}


def mr_view(state: GitlabState, mr: MergeRequest) -> dict[str, Any]:
    """A merge request as ``GET /projects/:id/merge_requests/:iid`` answers (with changes_count)."""
    project = state.projects[str(mr.project_id)]
    source, target = project.branches.get(mr.source_branch), project.branches.get(mr.target_branch)
    ahead = 0
    if source is not None and target is not None:
        merged = {c.id for c in target.commits}
        ahead = sum(1 for c in source.commits if c.id not in merged)
    return {**mr.model_dump(exclude={"author_id", "reference"}), "work_in_progress": mr.draft,
            "source_project_id": mr.project_id, "target_project_id": mr.project_id,
            "author": _user(state, mr.author_id), "sha": source.commits[-1].id if source and source.commits else None,
            "commits_ahead": ahead, "references": {"short": f"!{mr.iid}", "full": mr.reference},
            "web_url": web_url(project, f"/-/merge_requests/{mr.iid}")}


__all__ = ["HOST", "blob_id", "branch_at", "check_branch_name", "check_file_path", "commit_view", "issue_view",
           "last_commit_of", "mr_view", "new_commit", "project_view", "user_view", "web_url"]
