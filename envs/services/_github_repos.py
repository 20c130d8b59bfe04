"""The repository half of the ``github`` service: record lookups shared by
all its tools, and the tools on repositories, files, branches and commits.

:class:`GitHubRepos` sets no ``name``, so it is not a service of its own;
:class:`~compoworld_gym.envs.services.github.GitHub` adds the issue and
pull-request tools. Tools are listed in definition order, these first.
"""

from __future__ import annotations

from typing import Literal, Optional

from pydantic import Field

from compoworld_gym.entities import FilePath, RepoName, Username
from compoworld_gym.envs.services._blocks import ieq, next_number, paginate, pick, select, text
from compoworld_gym.envs.services._github_git import changes, commit, read_path
from compoworld_gym.envs.services._github_models import (
    Branch, BranchState, Commit, FileIn, Issue, PullRequest, Repository, blob_sha,
)
from compoworld_gym.errors import Conflict, NotFound, Unprocessable
from compoworld_gym.service import Service, tool

Direction = Literal["asc", "desc"]

PerPage = Field(default=30, ge=1, le=100)


class GitHubRepos(Service):
    """Repositories, files, branches and commits; the lookups of every github tool."""

    # --------------------------------------------------------------- helpers
    def _repo(self, owner: str, repo: str) -> Repository:
        return self.lookup(self.state.repositories, f"{owner}/{repo}", "repository")

    def _branch(self, r: Repository, branch: Optional[str]) -> BranchState:
        name = branch or r.default_branch
        if name not in r.branches:
            raise NotFound(f"branch {name!r} not found in {r.full_name}; branches: {sorted(r.branches)}.")
        return r.branches[name]

    def _commit(self, b: BranchState, message: str, files: dict[str, str]) -> Commit:
        return commit(b, message, files, self.state.viewer, self.now())

    def _next_number(self, full: str) -> int:
        """The next issue/pull-request number of repository ``full`` (one sequence for both)."""
        return next_number(self.state.counters, full)

    def _check_users(self, logins: list[str]) -> None:
        pick(self.state.users, logins, "user", "use search_users to find valid logins.", error=Unprocessable)

    def _issue(self, owner: str, repo: str, number: int) -> Issue:
        self._repo(owner, repo)
        return self.lookup(self.state.issues, f"{owner}/{repo}#{number}", "issue")

    def _pr(self, owner: str, repo: str, number: int) -> PullRequest:
        self._repo(owner, repo)
        return self.lookup(self.state.pull_requests, f"{owner}/{repo}#{number}", "pull request")

    def _changes(self, full: str, head: str, base: str) -> tuple[dict[str, str], list[str]]:
        """(files head changed since it forked from base, paths both sides changed differently)."""
        return changes(self.state.repositories[full], head, base)

    # ----------------------------------------------------------- repositories
    @tool(read_only=True, returns=list[Repository])
    def search_repositories(self, query: str, page: int = Field(default=1, ge=1), perPage: int = PerPage) -> dict:  # noqa: N803
        """Search repositories by words in name or description; 'user:LOGIN' or 'org:LOGIN' filters the owner.

        Args:
            query: search words, optionally with user:/org: qualifiers.
            page: page number (1-based).
            perPage: results per page (max 100).
        """
        owners = [t.split(":", 1)[1] for t in query.split() if t.lower().startswith(("user:", "org:"))]
        words = [t for t in query.split() if ":" not in t]
        hits = select(self.state.repositories.values(), *(ieq("owner", o) for o in owners),
                      *(text(w, "full_name", "description") for w in words))
        items = [r.model_dump(exclude={"branches"}) for r in hits]
        return {"total_count": len(items), "items": paginate(items, page, perPage)}

    @tool(read_only=False, returns=Repository)
    def create_repository(self, name: str = Field(pattern=r"^[A-Za-z0-9._-]{1,100}$"), description: str = "",
                          private: bool = False, autoInit: bool = False) -> dict:  # noqa: N803
        """Create a new repository owned by the authenticated user.

        Args:
            name: repository name (letters, digits, '.', '_', '-').
            description: short description.
            private: whether the repository is private.
            autoInit: create an initial commit with README.md.
        """
        full = f"{self.state.viewer}/{name}"
        if full in self.state.repositories:
            raise Conflict(f"repository {full} already exists.")
        r = Repository(full_name=full, owner=self.state.viewer, name=name, description=description,
                       private=private, branches={"main": BranchState()})
        if autoInit:
            self._commit(r.branches["main"], "Initial commit", {"README.md": f"# {name}\n\n{description}\n"})
        self.state.repositories[full] = r
        return r.model_dump(exclude={"branches"})

    @tool(read_only=True)
    def get_file_contents(self, owner: Username, repo: RepoName, path: FilePath, branch: Optional[Branch] = None) -> dict | list:
        """Get a file's text content and sha, or list a directory ('' or '/' for the root).

        Args:
            owner: repository owner.
            repo: repository name.
            path: file or directory path.
            branch: branch to read (default: the repository's default branch).
        """
        return read_path(self._branch(self._repo(owner, repo), branch), path)

    @tool(read_only=False)
    def create_or_update_file(self, owner: Username, repo: RepoName, path: FilePath, content: str, message: str,
                              branch: Branch, sha: Optional[str] = None) -> dict:
        """Create or update one file in a single commit; updating needs the file's current sha.

        Args:
            owner: repository owner.
            repo: repository name.
            path: file path to write.
            content: the new full content.
            message: commit message.
            branch: branch to commit to.
            sha: current blob sha of the file (required when it already exists).
        """
        b = self._branch(self._repo(owner, repo), branch)
        p = path.strip("/")
        if p in b.files and sha != blob_sha(b.files[p]):
            raise Conflict(f"{p} exists on {branch}: pass its current sha {blob_sha(b.files[p])!r} "
                           "(from get_file_contents) to update it." if sha is None else
                           f"sha {sha!r} does not match the current sha of {p}; re-read the file.")
        new = self._commit(b, message, {p: content})
        return {"content": {"path": p, "sha": blob_sha(content)}, "commit": new.model_dump()}

    @tool(read_only=False)
    def push_files(self, owner: Username, repo: RepoName, branch: Branch, files: list[FileIn] = Field(min_length=1),
                   message: str = Field(min_length=1)) -> dict:
        """Write several files to a branch in one commit.

        Args:
            owner: repository owner.
            repo: repository name.
            branch: branch to push to.
            files: the files, each with path and content.
            message: commit message.
        """
        b = self._branch(self._repo(owner, repo), branch)
        return self._commit(b, message, {f.path.strip("/"): f.content for f in files}).model_dump()

    @tool(read_only=False)
    def create_branch(self, owner: Username, repo: RepoName, branch: Branch,
                      from_branch: Optional[Branch] = None) -> dict:
        """Create a branch from another branch (default: the default branch).

        Args:
            owner: repository owner.
            repo: repository name.
            branch: name of the new branch.
            from_branch: source branch.
        """
        r = self._repo(owner, repo)
        src = self._branch(r, from_branch)
        if branch in r.branches:
            raise Conflict(f"branch {branch!r} already exists in {r.full_name}.")
        r.branches[branch] = src.model_copy(deep=True)
        return {"ref": f"refs/heads/{branch}", "sha": src.commits[-1].sha if src.commits else None}

    @tool(read_only=True, returns=list[Commit])
    def list_commits(self, owner: Username, repo: RepoName, sha: Optional[Branch] = None,
                     page: int = Field(default=1, ge=1), perPage: int = PerPage) -> list[dict]:  # noqa: N803
        """List the commits of a branch, newest first.

        Args:
            owner: repository owner.
            repo: repository name.
            sha: branch name (default: the default branch).
            page: page number (1-based).
            perPage: results per page (max 100).
        """
        b = self._branch(self._repo(owner, repo), sha)
        return [c.model_dump() for c in paginate(b.commits[::-1], page, perPage)]
