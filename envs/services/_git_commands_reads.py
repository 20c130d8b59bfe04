"""The read half of the git_commands service: record lookups shared by all its
tools, the tools that read a repository by URL (they see origin, as a fresh
clone would) and the read tools on a local clone.

:class:`GitReads` does not register, so it is not a service of its own;
:class:`~compoworld_gym.envs.services.git_commands.GitCommands` adds the
tools that change a clone. Tools are listed in definition order, these first.
"""

from __future__ import annotations

import datetime as dt
import fnmatch
import re
from typing import Optional

from pydantic import Field

from compoworld_gym.entities import FilePath, Id, Url
from compoworld_gym.envs.services._git_commands_models import LFS_ATTRS, BranchName, Commit, Repository
from compoworld_gym.envs.services._git_commands_rules import (
    ahead_behind, ancestors, blame, changes, history, identity, make_commit, merge_base, resolve, since_time,
    tracked_changes, untracked, work_tree, head_tree, index_tree,
)
from compoworld_gym.errors import Conflict, NotFound, Unprocessable
from compoworld_gym.service import DAY_START, Service, tool


def _norm_url(url: str) -> str:
    u = url.strip().lower().removesuffix("/").removesuffix(".git")
    return "https://github.com/" + u.split(":", 1)[1] if u.startswith("git@github.com:") else u


def commit_row(c: Commit, full: bool = False) -> dict:
    """A commit as git log shows it: hash, short hash, author, date and subject (or the whole message)."""
    row = {"hash": c.sha, "short_hash": c.sha[:7], "author": c.author_name, "author_email": c.author_email,
           "date": c.authored_at, "message": c.message if full else c.message.split("\n", 1)[0]}
    return row | ({"parents": list(c.parents)} if full else {})


class GitReads(Service, register=False):
    """Repository lookups, the clone-by-URL reads and the local read tools."""

    # --------------------------------------------------------------- helpers
    def _clock(self) -> dt.datetime:
        """The logical time without advancing it (reads must not change state)."""
        return dt.datetime.combine(self.today, DAY_START) + dt.timedelta(minutes=self.state.clock)

    def _repo(self, repo_path: str) -> Repository:
        path = repo_path.strip().removesuffix("/")
        repo = self.state.repositories.get(path)
        if repo is None:
            raise NotFound(f"{repo_path!r} is not a git repository; git_list_repositories lists the clones and "
                           "their paths.")
        return repo

    def _remote(self, repo_url: str) -> Repository:
        want = _norm_url(repo_url)
        repo = next((r for r in self.state.repositories.values() if _norm_url(r.url) == want), None)
        if repo is None:
            raise NotFound(f"no repository at {repo_url!r}; git_list_repositories lists the repositories and "
                           "their URLs.")
        return repo

    def _remote_branch(self, repo: Repository, branch: str) -> str:
        name = branch.removeprefix("origin/")
        if name not in repo.remote_branches:
            raise NotFound(f"origin of {repo.name} has no branch {branch!r}; branches: "
                           f"{', '.join(sorted(repo.remote_branches))}.")
        return repo.remote_branches[name]

    def _new_commit(self, repo: Repository, tree: dict, parents: list[str], message: str,
                    author: Optional[tuple[str, str]] = None) -> Commit:
        name, email = author or identity(self.state, repo)
        c = make_commit(repo.path, tree, parents, name, email, message, self.now())
        self.state.commits[c.sha] = c
        return c

    def _dirty(self, repo: Repository, doing: str, paths: Optional[set[str]] = None) -> None:
        """Refuse ``doing`` when tracked files have local changes (only those in ``paths`` when given)."""
        local = tracked_changes(self.state, repo)
        hit = sorted(local if paths is None else local & paths)
        if hit:
            raise Conflict(f"your local changes to {', '.join(hit)} would be overwritten by {doing}; commit them "
                           "(git_track + git_commit) or stash them (git_stash) first.")

    def _log(self, repo: Repository, branch: str, max_count: int, author: Optional[str], since: Optional[str],
             until: Optional[str], grep: Optional[str]) -> list[Commit]:
        now = self._clock()
        lo = since_time(since, now) if since else None
        hi = since_time(until, now) if until else None
        try:
            rx = re.compile(grep, re.IGNORECASE) if grep else None
        except re.error as exc:
            raise Unprocessable(f"grep {grep!r} is not a valid regular expression ({exc}).") from None
        who = author.lower() if author else None
        out = []
        for c in history(self.state, [self._remote_branch(repo, branch)]):
            if ((lo is None or c.authored_at >= lo) and (hi is None or c.authored_at <= hi)
                    and (who is None or who in c.author_name.lower() or who in c.author_email.lower())
                    and (rx is None or rx.search(c.message))):
                out.append(c)
        return out[:max_count]

    # ---------------------------------------------------------- repositories
    @tool(read_only=True, returns=list[Repository])
    def git_list_repositories(self, query: Optional[str] = None, project: Optional[Id("project")] = None) -> list[dict]:
        """List the local clones: path, origin URL, the service they build, the branch checked out and every
        local branch with its tip commit, upstream, ahead/behind counts and whether it is merged into main.

        Args:
            query: part of the repository name or path (case-insensitive).
            project: the deployed service (deploy project key) the repository builds, e.g. checkout-api.
        """
        out = []
        for r in self.state.repositories.values():
            if query and query.lower() not in f"{r.name} {r.path}".lower() or project and r.project != project:
                continue
            main = r.branches[r.default_branch].head if r.default_branch in r.branches else None
            branches = []
            for b in r.branches.values():
                tip = self.state.commits[b.head]
                up = r.remote_branches.get(b.upstream[7:]) if b.upstream else None
                ahead, behind = ahead_behind(self.state, b.head, up)
                branches.append({"name": b.name, "head": b.head, "upstream": b.upstream, "ahead": ahead,
                                 "behind": behind, "merged": main is not None and b.head in ancestors(self.state, main),
                                 "last_commit": commit_row(tip)})
            out.append({"path": r.path, "name": r.name, "url": r.url, "project": r.project,
                        "default_branch": r.default_branch, "current_branch": r.head, "branches": branches,
                        "tags": [t.name for t in r.tags]})
        return out

    # ----------------------------------------------------- clone-by-URL reads
    @tool(read_only=True)
    def git_directory_structure(self, repo_url: Url) -> dict:
        """Clone a Git repository and return its directory structure in a tree format.

        Args:
            repo_url: The URL of the Git repository
        """
        repo = self._remote(repo_url)
        sha = repo.remote_branches[repo.default_branch]
        paths = sorted(self.state.commits[sha].tree)
        lines, seen = [repo.name.split("/")[-1] + "/"], set()
        for p in paths:
            parts = p.split("/")
            for depth in range(len(parts)):
                node = "/".join(parts[:depth + 1])
                if node not in seen:
                    seen.add(node)
                    lines.append("    " * (depth + 1) + parts[depth] + ("/" if depth < len(parts) - 1 else ""))
        return {"repository": repo.url, "branch": repo.default_branch, "commit": sha, "files": paths,
                "tree": "\n".join(lines)}

    @tool(read_only=True)
    def git_read_files(self, repo_url: Url, file_paths: list[FilePath] = Field(min_length=1, max_length=50)) -> dict:
        """Read the contents of specified files in a given git repository.

        Args:
            repo_url: The URL of the Git repository
            file_paths: List of file paths to read (relative to repository root)
        """
        repo = self._remote(repo_url)
        tree = self.state.commits[repo.remote_branches[repo.default_branch]].tree
        found = {p: tree[p.lstrip("/")] for p in file_paths if p.lstrip("/") in tree}
        missing = [p for p in file_paths if p.lstrip("/") not in tree]
        if not found:
            raise NotFound(f"none of {missing} exist on {repo.default_branch} of {repo.name}; "
                           "git_directory_structure lists the files.")
        return {"branch": repo.default_branch, "files": found, "errors": {p: "file not found" for p in missing}}

    @tool(read_only=True)
    def git_branch_diff(self, repo_url: Url, source_branch: BranchName, target_branch: BranchName,
                        show_patch: bool = False) -> dict:
        """Compare two branches and show files changed between them.

        Lists what ``source_branch`` changed since it forked from ``target_branch``
        (``git diff target...source``), the commits it is ahead and behind.

        Args:
            repo_url: The URL of the Git repository
            source_branch: The source branch name
            target_branch: The target branch name
            show_patch: Whether to include the actual diff patches
        """
        repo = self._remote(repo_url)
        src, dst = self._remote_branch(repo, source_branch), self._remote_branch(repo, target_branch)
        base = merge_base(self.state, src, dst)
        before = self.state.commits[base].tree if base else {}
        return {"source_branch": source_branch, "target_branch": target_branch, "merge_base": base,
                "commits_ahead": [commit_row(c) for c in history(self.state, [src], [dst])],
                "commits_behind": len(history(self.state, [dst], [src])),
                "files": changes(before, self.state.commits[src].tree, patch=show_patch)}

    @tool(read_only=True)
    def git_commit_history(self, repo_url: Url, branch: BranchName = "main", max_count: int = Field(default=10, ge=1,
                                                                                                   le=200),
                           author: Optional[str] = None, since: Optional[str] = None, until: Optional[str] = None,
                           grep: Optional[str] = None) -> dict:
        """Get commit history for a branch with optional filtering.

        Args:
            repo_url: The URL of the Git repository
            branch: The branch to get history from
            max_count: Maximum number of commits to retrieve
            author: Filter by author (optional)
            since: Get commits after this date (e.g., "1 week ago", "2023-01-01")
            until: Get commits before this date (e.g., "yesterday", "2023-12-31")
            grep: Filter commits by message content (optional)
        """
        repo = self._remote(repo_url)
        return {"branch": branch, "commits": [commit_row(c) for c in self._log(repo, branch, max_count, author, since,
                                                                                until, grep)]}

    @tool(read_only=True)
    def git_commits_details(self, repo_url: Url, branch: BranchName = "main",
                            max_count: int = Field(default=10, ge=1, le=100), include_diff: bool = False,
                            since: Optional[str] = None, until: Optional[str] = None, author: Optional[str] = None,
                            grep: Optional[str] = None) -> dict:
        """Get detailed information about commits including full messages and diffs.

        Args:
            repo_url: The URL of the Git repository
            branch: The branch to get commits from
            max_count: Maximum number of commits to retrieve
            include_diff: Whether to include the commit diffs
            since: Get commits after this date (e.g., "1 week ago", "2023-01-01")
            until: Get commits before this date (e.g., "yesterday", "2023-12-31")
            author: Filter by author (optional)
            grep: Filter commits by message content (optional)
        """
        repo = self._remote(repo_url)
        out = []
        for c in self._log(repo, branch, max_count, author, since, until, grep):
            before = self.state.commits[c.parents[0]].tree if c.parents else {}
            out.append({**commit_row(c, full=True), "files": changes(before, c.tree, patch=include_diff)})
        return {"branch": branch, "commits": out}

    @tool(read_only=True)
    def git_search_code(self, repo_url: Url, pattern: str = Field(min_length=1, max_length=200),
                        file_patterns: Optional[list[str]] = None, case_sensitive: bool = False,
                        context_lines: int = Field(default=2, ge=0, le=10)) -> dict:
        """Search for patterns in repository code.

        Args:
            repo_url: The URL of the Git repository
            pattern: Search pattern (regex or string)
            file_patterns: Optional file patterns to filter (e.g., "*.js")
            case_sensitive: Whether the search is case sensitive
            context_lines: Number of context lines to include
        """
        repo = self._remote(repo_url)
        try:
            rx = re.compile(pattern, 0 if case_sensitive else re.IGNORECASE)
        except re.error as exc:
            raise Unprocessable(f"pattern {pattern!r} is not a valid regular expression ({exc}).") from None
        tree, matches = self.state.commits[repo.remote_branches[repo.default_branch]].tree, []
        for path in sorted(tree):
            if file_patterns and not any(fnmatch.fnmatch(path, g) or fnmatch.fnmatch(path.rsplit("/", 1)[-1], g)
                                         for g in file_patterns):
                continue
            lines = tree[path].splitlines()
            for n, line in enumerate(lines):
                if rx.search(line):
                    matches.append({"file": path, "line": n + 1, "content": line,
                                    "context_before": lines[max(0, n - context_lines):n],
                                    "context_after": lines[n + 1:n + 1 + context_lines]})
        return {"pattern": pattern, "total_matches": len(matches), "matches": matches}

    # ------------------------------------------------------------ local reads
    @tool(read_only=True)
    def git_local_changes(self, repo_path: FilePath) -> dict:
        """Get uncommitted changes in the working directory.

        Args:
            repo_path: The path to the local Git repository
        """
        repo = self._repo(repo_path)
        b = repo.branches[repo.head]
        up = repo.remote_branches.get(b.upstream[7:]) if b.upstream else None
        ahead, behind = ahead_behind(self.state, b.head, up) if b.upstream else (0, 0)
        head, index = head_tree(self.state, repo), index_tree(self.state, repo)
        new = set(untracked(self.state, repo))
        return {"branch": repo.head, "upstream": b.upstream, "ahead": ahead, "behind": behind,
                "staged": [{"path": r["path"], "status": r["status"]} for r in changes(head, index)],
                "unstaged": [{"path": r["path"], "status": r["status"]}
                             for r in changes(index, work_tree(self.state, repo)) if r["path"] not in new],
                "untracked": sorted(new), "clean": not repo.staged and not repo.unstaged,
                "stash_entries": len(repo.stash)}

    @tool(read_only=True)
    def git_blame(self, repo_path: FilePath, file_path: FilePath, rev: str = "HEAD") -> dict:
        """Get blame information for a file.

        Args:
            repo_path: The path to the local Git repository
            file_path: Path to the file
            rev: Revision to blame (default: HEAD)
        """
        repo = self._repo(repo_path)
        sha = resolve(self.state, repo, rev)
        if file_path not in self.state.commits[sha].tree:
            raise NotFound(f"{file_path!r} does not exist at {rev} ({sha[:7]}) in {repo.name}.")
        return {"file": file_path, "rev": sha, "lines": blame(self.state, sha, file_path)}

    @tool(read_only=True)
    def git_lfs_fetch(self, repo_path: FilePath, dry_run: bool = False, pointers: bool = False) -> dict:
        """Fetch LFS objects from the remote repository.

        Lists the LFS objects of the current branch's upstream (files matching the
        patterns .gitattributes marks filter=lfs); git-lfs must be installed in the clone.

        Args:
            repo_path: The path to the local Git repository
            dry_run: Whether to perform a dry run
            pointers: Whether to convert pointers to objects
        """
        repo = self._repo(repo_path)
        if not repo.lfs_installed:
            raise Conflict(f"git-lfs is not installed in {repo.path}; run git_lfs with action 'install' first.")
        up = repo.branches[repo.head].upstream
        sha = repo.remote_branches.get(up[7:]) if up else None
        tree = self.state.commits[sha or repo.branches[repo.head].head].tree
        pats = [ln.split()[0] for ln in tree.get(".gitattributes", "").splitlines() if LFS_ATTRS in ln]
        objects = []
        for path in sorted(tree):
            if any(fnmatch.fnmatch(path.rsplit("/", 1)[-1], p) or fnmatch.fnmatch(path, p) for p in pats):
                size = re.search(r"size (\d+)", tree[path])
                objects.append({"path": path, "size": int(size.group(1)) if size else len(tree[path])})
        return {"ref": up or repo.head, "dry_run": dry_run, "pointers": pointers, "objects": objects,
                "fetched": 0 if dry_run else len(objects)}
