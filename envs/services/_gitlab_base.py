"""The shared part of the gitlab service: project, branch and namespace
helpers, and the designed read tools (projects, branches, issues, merge
requests); ``gitlab.py`` holds the spec's tools and documents the behaviour.
"""

from __future__ import annotations

import re
from typing import Literal, Optional
from urllib.parse import unquote

from pydantic import Field

from compoworld_gym.envs.services._gitlab_models import (
    ACCESS_NUMBER, Branch, GitlabState, GitlabUser, Namespace, Project,
)
from compoworld_gym.envs.services._gitlab_rules import (
    branch_at, check_branch_name, commit_view, issue_view, mr_view, project_view,
)
from compoworld_gym.entities import Id
from compoworld_gym.errors import Conflict, NotFound, Unprocessable
from compoworld_gym.service import Service, tool

#: A project reference: the numeric id or the full path, URL-encoded or not.
ProjectRef = Id("project")


class GitlabBase(Service, register=False):
    """Helpers of the gitlab tools, and its designed read tools."""

    State = GitlabState

    # ---------------------------------------------------------------- helpers
    def _viewer(self) -> GitlabUser:
        return self.state.users[str(self.state.viewer_id)]

    def _project(self, ref: str) -> Project:
        key = unquote(str(ref)).strip().strip("/")
        if key.isdigit() and key in self.state.projects:
            return self.state.projects[key]
        hit = next((p for p in self.state.projects.values() if p.path_with_namespace.lower() == key.lower()), None)
        if hit is None:
            raise NotFound(f"project {ref!r} not found; pass the numeric id or the full path 'namespace/project' "
                           "(search_repositories finds them).")
        return hit

    def _writable(self, ref: str) -> Project:
        project = self._project(ref)
        if project.archived:
            raise Conflict(f"project {project.path_with_namespace} is archived and read-only; unarchive it first.")
        return project

    def _branch(self, project: Project, name: str) -> Branch:
        if name not in project.branches:
            known = ", ".join(sorted(project.branches)) or "none (the project is empty)"
            raise NotFound(f"branch {name!r} not found in {project.path_with_namespace}; create it with "
                           f"create_branch first (branches: {known}).")
        return project.branches[name]

    def _push_target(self, project: Project, name: str) -> Branch:
        """The branch a commit goes to; an empty project gets it as its first, default branch."""
        check_branch_name(name)
        if not project.branches:
            project.branches[name] = Branch(name=name)
            project.default_branch = name
            return project.branches[name]
        branch = self._branch(project, name)
        access = self.state.namespaces[project.namespace].viewer_access
        if name in project.protected_branches and ACCESS_NUMBER[access] < ACCESS_NUMBER["maintainer"]:
            raise Unprocessable(f"branch {name} of {project.path_with_namespace} is protected and you are a "
                                f"{access}; push to a new branch (create_branch) and open a merge request.")
        return branch

    def _creatable_namespace(self, path: Optional[str]) -> Namespace:
        full = (path or self._viewer().username).strip().strip("/")
        ns = next((n for n in self.state.namespaces.values() if n.full_path.lower() == full.lower()), None)
        if ns is None:
            raise NotFound(f"namespace {full!r} not found; use your own namespace {self._viewer().username!r} "
                           "or a group you maintain.")
        if ACCESS_NUMBER[ns.viewer_access] < ACCESS_NUMBER["maintainer"]:
            raise Unprocessable(f"you cannot create projects in namespace {ns.full_path} ({ns.viewer_access}); "
                                f"use your own namespace {self._viewer().username!r}.")
        return ns

    def _new_project_id(self) -> int:
        n = self.state.counters.get("project", 1)
        self.state.counters["project"] = n + 1
        return n

    def _take_path(self, ns: Namespace, path: str) -> None:
        if any(p.namespace == ns.full_path and p.path.lower() == path.lower() for p in self.state.projects.values()):
            raise Conflict(f"path {ns.full_path}/{path} has already been taken; choose another name or namespace.")

    def _next(self, key: str) -> int:
        n = self.state.counters.get(key, 1)
        self.state.counters[key] = n + 1
        return n

    @staticmethod
    def _resolve_ref(project: Project, ref: Optional[str]) -> Branch:
        """The branch named ``ref`` (the default branch when None), or the project at commit ``ref``."""
        name = ref or project.default_branch
        if name is None:
            raise Conflict(f"project {project.path_with_namespace} is empty; push a first file to create its "
                           "default branch.")
        if name in project.branches:
            return project.branches[name]
        if re.fullmatch(r"[0-9a-f]{7,40}", name):
            for branch in project.branches.values():
                found = branch_at(branch, name)
                if found is not None:
                    return found
        raise NotFound(f"ref {name!r} is neither a branch nor a commit of {project.path_with_namespace}; "
                       "list_branches shows the branches.")

    # ------------------------------------------------------ designed reads
    @tool(read_only=True)
    def get_project(self, project_id: ProjectRef) -> dict:
        """Get one project with its branches, protected branches, labels and your access level.

        Args:
            project_id: Project ID or URL-encoded path
        """
        p = self._project(project_id)
        access = self.state.namespaces[p.namespace].viewer_access
        return {**project_view(self.state, p), "branches": sorted(p.branches), "labels": p.labels,
                "protected_branches": p.protected_branches,
                "permissions": {"access_level": ACCESS_NUMBER[access], "role": access},
                "open_merge_requests_count": sum(1 for m in self.state.merge_requests.values()
                                                 if m.project_id == p.id and m.state == "opened")}

    @tool(read_only=True)
    def list_branches(self, project_id: ProjectRef) -> list[dict]:
        """List a project's branches with their head commit.

        Args:
            project_id: Project ID or URL-encoded path
        """
        p = self._project(project_id)
        return [{"name": b.name, "default": b.name == p.default_branch, "protected": b.name in p.protected_branches,
                 "commit": commit_view(p, b.commits[-1]) if b.commits else None}
                for _, b in sorted(p.branches.items())]

    @tool(read_only=True)
    def list_issues(self, project_id: ProjectRef, state: Optional[Literal["opened", "closed", "all"]] = "opened",
                    labels: Optional[list[str]] = None, search: Optional[str] = None) -> list[dict]:
        """List a project's issues, newest first, by state (default opened), labels (all must match) or text.

        Args:
            project_id: Project ID or URL-encoded path
            state: opened, closed or all.
            labels: label names the issues must all have.
            search: text in the title or description (case-insensitive).
        """
        p = self._project(project_id)
        rows = [i for i in self.state.issues.values() if i.project_id == p.id
                and state in (None, "all", i.state) and all(lb in i.labels for lb in labels or [])
                and (search is None or search.lower() in f"{i.title} {i.description}".lower())]
        return [issue_view(self.state, i) for i in sorted(rows, key=lambda i: -i.iid)]

    @tool(read_only=True)
    def list_merge_requests(self, project_id: ProjectRef,
                            state: Optional[Literal["opened", "merged", "closed", "all"]] = "opened") -> list[dict]:
        """List a project's merge requests, newest first, by state (default opened).

        Args:
            project_id: Project ID or URL-encoded path
            state: opened, merged, closed or all.
        """
        p = self._project(project_id)
        rows = [m for m in self.state.merge_requests.values()
                if m.project_id == p.id and state in (None, "all", m.state)]
        return [mr_view(self.state, m) for m in sorted(rows, key=lambda m: -m.iid)]

    @tool(read_only=True)
    def get_merge_request(self, project_id: ProjectRef, merge_request_iid: int = Field(ge=1)) -> dict:
        """Get one merge request by its number in the project (the !iid).

        Args:
            project_id: Project ID or URL-encoded path
            merge_request_iid: the merge request's iid, e.g. 3 for !3.
        """
        p = self._project(project_id)
        mr = self.state.merge_requests.get(f"{p.path_with_namespace}!{merge_request_iid}")
        if mr is None:
            raise NotFound(f"merge request !{merge_request_iid} not found in {p.path_with_namespace}; "
                           "list_merge_requests shows them.")
        return mr_view(self.state, mr)


__all__ = ["GitlabBase", "ProjectRef"]
