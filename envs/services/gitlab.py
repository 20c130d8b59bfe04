"""GitLab: projects of the company's GitLab, their branches, files, issues and merge requests.

Follows the MCP server ``modelcontextprotocol-gitlab`` (the official reference
server, ``spec_source``): all 9 of its tools with its parameters. A
``project_id`` is the numeric id or the full path (``acme/checkout-api``,
URL-encoded or not), as the REST API v4 takes it. Rules of GitLab:

* a file change, push or merge request needs its branches to exist (404), except
  the first push to an empty project, which creates that branch as the default;
* ``create_or_update_file`` creates a missing file and updates an existing one
  (the server checks for the file first, so no sha is passed); ``previous_path``
  moves a file, which must exist, onto a path that must not (409); an update
  that changes nothing is refused (409: nothing to commit);
* the agent's ``ops-bot`` account is a Developer of the ``acme`` group, so it
  cannot push to a protected branch (``main``) there (422: use a branch and a
  merge request); archived projects are read-only (409);
* a merge request's source and target differ (422) and both exist, and one
  source/target pair has at most one open merge request (409); ``draft``
  prefixes the title with ``Draft: ``;
* branch names follow ``git check-ref-format`` (400); a branch that exists is a
  409, a ``ref`` that is neither a branch nor a commit of the project a 404;
* issue assignees must be members of the project's namespace (422) and the
  milestone one of the project's (422); unknown labels are created, as GitLab does;
* new projects and forks go to a namespace the bot may create projects in (its
  own, by default); a path taken there is a 409.

``push_files`` creates or updates each file (the reference server sends
``create`` for all, which fails on an existing file; here an existing file is
updated). Designed tools, read-only and named as other GitLab MCP servers name
them: ``get_project``, ``list_branches``, ``list_issues``,
``list_merge_requests`` and ``get_merge_request`` (the reference server has no
way to read issues or merge requests back).
"""

from __future__ import annotations

import datetime as dt
import random
import re
from typing import Optional

from faker import Faker
from pydantic import Field

from compoworld_gym.envs.services._blocks import paginate
from compoworld_gym.envs.services._gitlab_base import GitlabBase, ProjectRef
from compoworld_gym.envs.services._gitlab_models import (
    Branch, BranchName, GitlabState, Issue, MergeRequest, Project, Visibility,
)
from compoworld_gym.envs.services._gitlab_rules import (
    blob_id, check_branch_name, check_file_path, commit_view, issue_view, last_commit_of, mr_view, new_commit,
    project_view,
)
from compoworld_gym.envs.services._gitlab_seed import build_state
from compoworld_gym.entities import FilePath
from compoworld_gym.errors import Conflict, InvalidArgument, NotFound, Unprocessable
from compoworld_gym.service import Record, tool


class FileIn(Record):
    """One file of a ``push_files`` commit."""

    file_path: FilePath = Field(description="Path where to create the file")
    content: str = Field(max_length=200_000, description="Content of the file")


class Gitlab(GitlabBase):
    """GitLab REST API v4: projects, branches, files and commits, issues, merge requests, forks."""

    name = "gitlab"
    description = ("The company's GitLab: projects of the acme group with branches, files and commits, issues, "
                   "merge requests and forks.")
    domain = "engineering"
    spec_source = "modelcontextprotocol-gitlab"
    designed_tools = frozenset({"get_project", "list_branches", "list_issues", "list_merge_requests",
                                "get_merge_request"})
    State = GitlabState

    # ------------------------------------------------------------------ reads
    @tool(read_only=True)
    def search_repositories(self, search: str = Field(max_length=200),
                            page: int = Field(default=1, ge=1, le=1000),
                            per_page: int = Field(default=20, ge=1, le=100)) -> dict:
        """Search for GitLab projects

        Matches the project name, path or full path (case-insensitive); answers
        ``{"count", "items"}`` with the page of projects.

        Args:
            search: Search query
            page: Page number for pagination (default: 1)
            per_page: Number of results per page (default: 20)
        """
        q = search.strip().lower()
        hits = [p for p in self.state.projects.values()
                if q in p.name.lower() or q in p.path_with_namespace.lower()]
        return {"count": len(hits), "items": [project_view(self.state, p) for p in paginate(hits, page, per_page)]}

    @tool(read_only=True)
    def get_file_contents(self, project_id: ProjectRef, file_path: FilePath, ref: Optional[str] = None) -> dict:
        """Get the contents of a file or directory from a GitLab project

        A directory (or ``/``) answers its entries (``type`` blob or tree).

        Args:
            project_id: Project ID or URL-encoded path
            file_path: Path to the file or directory
            ref: Branch/tag/commit to get contents from
        """
        p = self._project(project_id)
        branch = self._resolve_ref(p, ref)
        path = file_path.strip().strip("/")
        if path in branch.files:
            content, last = branch.files[path], last_commit_of(branch, path)
            return {"file_name": path.rsplit("/", 1)[-1], "file_path": path, "size": len(content.encode()),
                    "encoding": "text", "content": content, "blob_id": blob_id(content), "ref": branch.name,
                    "commit_id": branch.commits[-1].id, "last_commit_id": last.id if last else None}
        prefix = f"{path}/" if path else ""
        entries = {}
        for f in sorted(branch.files):
            if f.startswith(prefix):
                head, _, rest = f[len(prefix):].partition("/")
                entries.setdefault(head, {"name": head, "path": prefix + head, "type": "tree" if rest else "blob"})
        if not entries:
            raise NotFound(f"file {path!r} not found on {branch.name} of {p.path_with_namespace}; read the "
                           "directory '/' to see the files.")
        return {"path": path or "/", "ref": branch.name, "entries": list(entries.values())}

    # ----------------------------------------------------------------- writes
    @tool(read_only=False)
    def create_or_update_file(self, project_id: ProjectRef, file_path: FilePath,
                              content: str = Field(max_length=200_000),
                              commit_message: str = Field(min_length=1, max_length=2000),
                              branch: BranchName = Field(min_length=1),
                              previous_path: Optional[FilePath] = None) -> dict:
        """Create or update a single file in a GitLab project

        Args:
            project_id: Project ID or URL-encoded path
            file_path: Path where to create/update the file
            content: Content of the file
            commit_message: Commit message
            branch: Branch to create/update the file in
            previous_path: Path of the file to move/rename
        """
        p = self._writable(project_id)
        path = check_file_path(file_path)
        target = self._push_target(p, branch)
        changes: dict[str, Optional[str]] = {path: content}
        if previous_path is not None:
            old = check_file_path(previous_path)
            if old not in target.files:
                raise NotFound(f"previous_path {old!r} does not exist on {branch}; nothing to move.")
            if path in target.files and path != old:
                raise Conflict(f"{path} already exists on {branch}; move onto a new path.")
            if old != path:
                changes[old] = None
            action = "move"
        else:
            action = "update" if path in target.files else "create"
        if action == "update" and target.files[path] == content:
            raise Conflict(f"{path} on {branch} already has this content; nothing to commit.")
        commit = new_commit(target, commit_message, changes, self._viewer(), self.now())
        return {"file_path": path, "branch": branch, "action": action, "commit_id": commit.id,
                "blob_id": blob_id(content)}

    @tool(read_only=False)
    def push_files(self, project_id: ProjectRef, branch: BranchName = Field(min_length=1),
                   files: list[FileIn] = Field(min_length=1, max_length=100),
                   commit_message: str = Field(min_length=1, max_length=2000)) -> dict:
        """Push multiple files to a GitLab project in a single commit

        Each file is created, or updated when it exists; the answer is the commit.

        Args:
            project_id: Project ID or URL-encoded path
            branch: Branch to push to
            files: Array of files to push
            commit_message: Commit message
        """
        p = self._writable(project_id)
        changes = {check_file_path(f.file_path): f.content for f in files}
        if len(changes) != len(files):
            raise InvalidArgument("files lists the same path twice; give each path once.")
        target = self._push_target(p, branch)
        if all(target.files.get(path) == content for path, content in changes.items()):
            raise Conflict(f"every file already has this content on {branch}; nothing to commit.")
        return commit_view(p, new_commit(target, commit_message, dict(changes), self._viewer(), self.now()))

    @tool(read_only=False)
    def create_repository(self, name: str = Field(min_length=1, max_length=255),
                          description: Optional[str] = Field(default=None, max_length=2000),
                          visibility: Optional[Visibility] = "private",
                          initialize_with_readme: Optional[bool] = False) -> dict:
        """Create a new GitLab project

        It is created in your own namespace; its path is the name in lower case with dashes.

        Args:
            name: Repository name
            description: Repository description
            visibility: Repository visibility level
            initialize_with_readme: Initialize with README.md
        """
        path = re.sub(r"[^a-z0-9_.-]+", "-", name.strip().lower()).strip("-.")
        if not path:
            raise InvalidArgument(f"name {name!r} gives no valid path; use letters, digits, '-', '_' or '.'.")
        ns = self._creatable_namespace(None)
        self._take_path(ns, path)
        project = Project(id=self._new_project_id(), name=name.strip(), path=path, namespace=ns.full_path,
                          description=description or "", visibility=visibility or "private",
                          created_at=self.now())
        if initialize_with_readme:
            main = Branch(name="main")
            new_commit(main, "Initial commit", {"README.md": f"# {project.name}\n\n{project.description}\n"},
                       self._viewer(), project.created_at)
            project.branches["main"], project.default_branch = main, "main"
        self.state.projects[str(project.id)] = project
        return project_view(self.state, project)

    @tool(read_only=False)
    def fork_repository(self, project_id: ProjectRef, namespace: Optional[str] = None) -> dict:
        """Fork a GitLab project to your account or specified namespace

        Args:
            project_id: Project ID or URL-encoded path
            namespace: Namespace to fork to (full path)
        """
        source = self._project(project_id)
        ns = self._creatable_namespace(namespace)
        self._take_path(ns, source.path)
        fork = source.model_copy(deep=True, update={
            "id": self._new_project_id(), "namespace": ns.full_path, "archived": False, "created_at": self.now(),
            "forked_from_id": source.id,
            "protected_branches": [source.default_branch] if source.default_branch else []})
        self.state.projects[str(fork.id)] = fork
        return project_view(self.state, fork)

    @tool(read_only=False)
    def create_branch(self, project_id: ProjectRef, branch: BranchName = Field(min_length=1),
                      ref: Optional[str] = None) -> dict:
        """Create a new branch in a GitLab project

        Args:
            project_id: Project ID or URL-encoded path
            branch: Name for the new branch
            ref: Source branch/commit for new branch
        """
        p = self._writable(project_id)
        check_branch_name(branch)
        if branch in p.branches:
            raise Conflict(f"branch {branch} already exists in {p.path_with_namespace}.")
        source = self._resolve_ref(p, ref)
        new = Branch(name=branch, files=dict(source.files), commits=list(source.commits))
        p.branches[branch] = new
        return {"name": branch, "merged": False, "protected": False, "default": False,
                "commit": commit_view(p, new.commits[-1]) if new.commits else None}

    @tool(read_only=False)
    def create_issue(self, project_id: ProjectRef, title: str = Field(min_length=1, max_length=255),
                     description: Optional[str] = Field(default=None, max_length=100_000),
                     assignee_ids: Optional[list[int]] = Field(default=None, max_length=20),
                     labels: Optional[list[str]] = Field(default=None, max_length=20),
                     milestone_id: Optional[int] = None) -> dict:
        """Create a new issue in a GitLab project

        Args:
            project_id: Project ID or URL-encoded path
            title: Issue title
            description: Issue description
            assignee_ids: Array of user IDs to assign
            labels: Array of label names
            milestone_id: Milestone ID to assign
        """
        p = self._writable(project_id)
        members = set(self.state.namespaces[p.namespace].member_ids)
        for uid in assignee_ids or []:
            if str(uid) not in self.state.users:
                raise NotFound(f"user {uid} not found; assignee_ids take numeric user ids.")
            if uid not in members:
                raise Unprocessable(f"user {uid} is not a member of {p.namespace}; only members can be assigned.")
        if milestone_id is not None:
            ms = self.state.milestones.get(str(milestone_id))
            if ms is None or ms.project_id != p.id:
                raise Unprocessable(f"milestone {milestone_id} is not a milestone of {p.path_with_namespace}.")
        names = list(dict.fromkeys(lb.strip() for lb in labels or [] if lb.strip()))
        p.labels += [lb for lb in names if lb not in p.labels]
        iid = self._next(f"issue:{p.id}")
        issue = Issue(id=self._next("issue"), iid=iid, project_id=p.id, title=title, description=description or "",
                      state="opened", labels=names, assignee_ids=list(dict.fromkeys(assignee_ids or [])),
                      milestone_id=milestone_id, author_id=self.state.viewer_id, created_at=self.now())
        self.state.issues[f"{p.path_with_namespace}#{iid}"] = issue
        return issue_view(self.state, issue)

    @tool(read_only=False)
    def create_merge_request(self, project_id: ProjectRef, title: str = Field(min_length=1, max_length=255),
                             source_branch: BranchName = Field(min_length=1),
                             target_branch: BranchName = Field(min_length=1),
                             description: Optional[str] = Field(default=None, max_length=100_000),
                             draft: Optional[bool] = False, allow_collaboration: Optional[bool] = False) -> dict:
        """Create a new merge request in a GitLab project

        Args:
            project_id: Project ID or URL-encoded path
            title: Merge request title
            description: Merge request description
            source_branch: Branch containing changes
            target_branch: Branch to merge into
            draft: Create as draft merge request
            allow_collaboration: Allow commits from upstream members
        """
        p = self._writable(project_id)
        if source_branch == target_branch:
            raise Unprocessable("source_branch and target_branch are the same; merge a feature branch into another.")
        self._branch(p, source_branch)
        self._branch(p, target_branch)
        dup = next((m for m in self.state.merge_requests.values() if m.project_id == p.id and m.state == "opened"
                    and m.source_branch == source_branch and m.target_branch == target_branch), None)
        if dup is not None:
            raise Conflict(f"another open merge request already exists for this source branch: {dup.reference}.")
        iid = self._next(f"mr:{p.id}")
        ref = f"{p.path_with_namespace}!{iid}"
        plain = re.sub(r"^(draft:\s*|\[draft\]\s*)", "", title.strip(), flags=re.I)
        mr = MergeRequest(id=self._next("mr"), iid=iid, reference=ref, project_id=p.id,
                          title=f"Draft: {plain}" if draft else title.strip(), description=description or "",
                          state="opened", draft=bool(draft) or plain != title.strip(), source_branch=source_branch,
                          target_branch=target_branch, allow_collaboration=bool(allow_collaboration),
                          author_id=self.state.viewer_id, created_at=self.now())
        self.state.merge_requests[ref] = mr
        return mr_view(self.state, mr)

    # ------------------------------------------------------------------ seeds
    @classmethod
    def build_seed_state(cls, fake: Faker, rng: random.Random, today: dt.date) -> GitlabState:
        return build_state(rng, today)
