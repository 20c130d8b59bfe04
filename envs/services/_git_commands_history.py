"""The history-changing tools of the git_commands service: merge, rebase, pull,
push, reset and revert.

:class:`GitHistory` does not register; :class:`~compoworld_gym.envs.services.git_commands.GitCommands`
builds on it. A merge is a fast-forward when the target has nothing of its
own, else a merge commit from the three-way merge of both sides with their
merge base; a file both sides changed differently is a conflict (409, the
merge is aborted and nothing changes). Push refuses a non-fast-forward
unless forced; pull merges (or rebases onto) origin's branch.
"""

from __future__ import annotations

from typing import Literal, Optional

from compoworld_gym.entities import FilePath
from compoworld_gym.envs.services._git_commands_models import BranchName, Repository
from compoworld_gym.envs.services._git_commands_reads import GitReads
from compoworld_gym.envs.services._git_commands_rules import (
    ancestors, history, index_tree, make_commit, merge_base, overlay_of, resolve, three_way, untracked, work_tree,
)
from compoworld_gym.errors import Conflict, NotFound, Unprocessable
from compoworld_gym.service import tool


class GitHistory(GitReads, register=False):
    """Merge, rebase, pull, push, reset and revert on a local clone."""

    # --------------------------------------------------------------- helpers
    def _guard(self, repo: Repository, before: dict, after: dict, doing: str) -> None:
        """Refuse a move of HEAD from tree ``before`` to ``after`` that would overwrite local work."""
        touched = set(overlay_of(before, after))
        self._dirty(repo, doing, touched)
        clobbered = sorted(touched & set(untracked(self.state, repo)))
        if clobbered:
            raise Conflict(f"untracked working tree files {', '.join(clobbered)} would be overwritten by {doing}; "
                           "move or remove them (git_clean) first.")

    def _switch(self, repo: Repository, name: str) -> None:
        """Check out local branch ``name``, carrying local changes that do not clash with it."""
        self._guard(repo, self.state.commits[repo.branches[repo.head].head].tree,
                    self.state.commits[repo.branches[name].head].tree, f"checking out {name}")
        repo.head = name

    def _move_head(self, repo: Repository, sha: str, doing: str) -> None:
        b = repo.branches[repo.head]
        self._guard(repo, self.state.commits[b.head].tree, self.state.commits[sha].tree, doing)
        b.head = sha

    def _replay(self, repo: Repository, onto: str, label: str) -> dict:
        """Rebase the current branch onto ``onto``: its own commits are applied again, oldest first."""
        b = repo.branches[repo.head]
        if onto in ancestors(self.state, b.head):
            return {"result": "up_to_date", "branch": repo.head, "head": b.head}
        self._dirty(repo, "the rebase")
        if b.head in ancestors(self.state, onto):
            self._move_head(repo, onto, "the rebase")
            return {"result": "fast_forward", "branch": repo.head, "head": onto}
        todo = [c for c in reversed(history(self.state, [b.head], [onto])) if len(c.parents) == 1]
        cur, replayed = onto, []
        for c in todo:
            merged, conflicts = three_way(self.state.commits[c.parents[0]].tree, self.state.commits[cur].tree, c.tree)
            if conflicts:
                raise Conflict(f"could not apply {c.sha[:7]} ({c.message.splitlines()[0]}) onto {label}: conflict in "
                               f"{', '.join(conflicts)}; the rebase was aborted and nothing changed.")
            if merged == self.state.commits[cur].tree:
                continue  # already upstream: git drops it
            new = make_commit(repo.path, merged, [cur], c.author_name, c.author_email, c.message, self.now())
            self.state.commits[new.sha] = new
            cur = new.sha
            replayed.append(new.sha)
        self._move_head(repo, cur, "the rebase")
        return {"result": "rebased", "branch": repo.head, "head": cur, "replayed": replayed}

    def _integrate(self, repo: Repository, theirs: str, label: str, message: str, fast_forward: bool = True) -> dict:
        """Merge commit ``theirs`` into the current branch (fast-forward when possible and allowed)."""
        b = repo.branches[repo.head]
        ours = b.head
        if theirs in ancestors(self.state, ours):
            return {"result": "up_to_date", "branch": repo.head, "head": ours}
        if fast_forward and ours in ancestors(self.state, theirs):
            self._move_head(repo, theirs, "the merge")
            return {"result": "fast_forward", "branch": repo.head, "head": theirs}
        base = merge_base(self.state, ours, theirs)
        merged, conflicts = three_way(self.state.commits[base].tree if base else {}, self.state.commits[ours].tree,
                                      self.state.commits[theirs].tree)
        if conflicts:
            raise Conflict(f"merge conflict in {', '.join(conflicts)}: both {repo.head} and {label} changed "
                           f"{'it' if len(conflicts) == 1 else 'them'} since {base[:7] if base else 'the start'}; "
                           "the merge was aborted and nothing changed. Rebase or fix the branch, then merge again.")
        self._guard(repo, self.state.commits[ours].tree, merged, "the merge")
        c = self._new_commit(repo, merged, [ours, theirs], message)
        b.head = c.sha
        return {"result": "merge_commit", "branch": repo.head, "head": c.sha, "message": message}

    # ------------------------------------------------------------------ tools
    @tool(read_only=False)
    def git_merge_branch(self, repo_path: FilePath, source_branch: BranchName,
                         target_branch: Optional[BranchName] = None, no_fast_forward: bool = False) -> dict:
        """Merge a source branch into the current or target branch.

        A target other than the current branch is checked out first (local changes it
        would overwrite must be committed or stashed). Conflicting changes to the same file abort the merge (409).

        Args:
            repo_path: The path to the local Git repository
            source_branch: Branch to merge from
            target_branch: Branch to merge into (optional, uses current branch if not provided)
            no_fast_forward: Whether to create a merge commit even if fast-forward is possible
        """
        repo = self._repo(repo_path)
        theirs = resolve(self.state, repo, source_branch)
        target = target_branch or repo.head
        if target not in repo.branches:
            raise NotFound(f"no local branch {target!r} in {repo.name}; branches: {', '.join(sorted(repo.branches))}.")
        if target != repo.head:
            self._switch(repo, target)
        remote = source_branch.startswith("origin/")
        message = (f"Merge {'remote-tracking ' if remote else ''}branch '{source_branch}'"
                   + ("" if target in ("main", "master") else f" into {target}"))
        return self._integrate(repo, theirs, source_branch, message, fast_forward=not no_fast_forward)

    @tool(read_only=False)
    def git_rebase(self, repo_path: FilePath, onto: str, interactive: bool = False) -> dict:
        """Rebase the current branch onto another branch or commit.

        Args:
            repo_path: The path to the local Git repository
            onto: Branch or commit to rebase onto
            interactive: Whether to perform an interactive rebase
        """
        repo = self._repo(repo_path)
        if interactive:
            raise Unprocessable("an interactive rebase needs an editor session; run it without interactive.")
        return self._replay(repo, resolve(self.state, repo, onto), onto)

    @tool(read_only=False)
    def git_push(self, repo_path: FilePath, remote: str = "origin", branch: Optional[BranchName] = None,
                 force: bool = False) -> dict:
        """Push changes to a remote repository.

        Refused (409) when origin's branch has commits the local one lacks, unless forced.

        Args:
            repo_path: The path to the local Git repository
            remote: Remote name
            branch: Branch to push (default: current branch)
            force: Whether to force push
        """
        repo = self._repo(repo_path)
        if remote != "origin":
            raise NotFound(f"no remote named {remote!r}; {repo.path} has only origin ({repo.url}).")
        name = branch or repo.head
        if name not in repo.branches:
            raise NotFound(f"no local branch {name!r} in {repo.name}; branches: {', '.join(sorted(repo.branches))}.")
        b, there = repo.branches[name], repo.remote_branches.get(name)
        if there == b.head:
            return {"result": "up_to_date", "branch": name, "remote_head": there}
        if there is not None and there not in ancestors(self.state, b.head) and not force:
            raise Conflict(f"push of {name} rejected (non-fast-forward): origin/{name} has commits that {name} does "
                           "not; pull first (git_pull), or force only if overwriting them is intended.")
        repo.remote_branches[name] = b.head
        b.upstream = b.upstream or f"origin/{name}"
        return {"result": "forced" if there is not None and there not in ancestors(self.state, b.head) else "pushed",
                "branch": name, "remote": "origin", "old_head": there, "remote_head": b.head}

    @tool(read_only=False)
    def git_pull(self, repo_path: FilePath, remote: str = "origin", branch: Optional[BranchName] = None,
                 rebase: bool = False) -> dict:
        """Pull changes from a remote repository.

        Merges origin's branch into the current branch (fast-forward when possible), or
        rebases the current branch onto it.

        Args:
            repo_path: The path to the local Git repository
            remote: Remote name
            branch: Branch to pull (default: current branch)
            rebase: Whether to rebase instead of merge
        """
        repo = self._repo(repo_path)
        if remote != "origin":
            raise NotFound(f"no remote named {remote!r}; {repo.path} has only origin ({repo.url}).")
        up = repo.branches[repo.head].upstream
        name = branch or (up[7:] if up else repo.head)
        theirs = self._remote_branch(repo, name)
        if rebase:
            return self._replay(repo, theirs, f"origin/{name}")
        return self._integrate(repo, theirs, f"origin/{name}", f"Merge branch '{name}' of {repo.url}")

    @tool(read_only=False, destructive=True)
    def git_reset(self, repo_path: FilePath, mode: Literal["soft", "mixed", "hard"] = "mixed",
                  to: str = "HEAD") -> dict:
        """Reset repository to specified commit or state.

        soft moves the branch and keeps index and files; mixed also resets the index;
        hard also resets tracked files (untracked files stay).

        Args:
            repo_path: The path to the local Git repository
            mode: Reset mode (soft, mixed, hard)
            to: Commit or reference to reset to
        """
        repo = self._repo(repo_path)
        sha = resolve(self.state, repo, to)
        new = self.state.commits[sha].tree
        index, work, loose = index_tree(self.state, repo), work_tree(self.state, repo), untracked(self.state, repo)
        repo.branches[repo.head].head = sha
        if mode == "soft":
            repo.staged, repo.unstaged = overlay_of(new, index), overlay_of(index, work)
        elif mode == "mixed":
            repo.staged, repo.unstaged = {}, overlay_of(new, work)
        else:
            repo.staged = {}
            repo.unstaged = {p: work[p] for p in loose if p not in new}
        return {"branch": repo.head, "head": sha, "mode": mode}

    @tool(read_only=False)
    def git_revert(self, repo_path: FilePath, commit: Optional[str] = None, no_commit: bool = False) -> dict:
        """Revert the current branch to a commit or state.

        Makes a new commit undoing the changes of ``commit`` (default HEAD); with
        ``no_commit`` the undo is only staged. Merge commits cannot be reverted here (422).

        Args:
            repo_path: The path to the local Git repository
            commit: Commit hash or reference to revert
            no_commit: Whether to stage changes without committing
        """
        repo = self._repo(repo_path)
        sha = resolve(self.state, repo, commit or "HEAD")
        c = self.state.commits[sha]
        if len(c.parents) != 1:
            raise Unprocessable(f"commit {sha[:7]} is {'a merge' if c.parents else 'the root commit'}; it cannot be "
                                "reverted with this tool.")
        head = repo.branches[repo.head].head
        merged, conflicts = three_way(c.tree, self.state.commits[head].tree, self.state.commits[c.parents[0]].tree)
        if conflicts:
            raise Conflict(f"could not revert {sha[:7]}: {', '.join(conflicts)} changed since; nothing was changed.")
        before = self.state.commits[head].tree
        if merged == before:
            raise Conflict(f"reverting {sha[:7]} changes nothing on {repo.head}; it is already undone.")
        self._guard(repo, before, merged, "the revert")
        if no_commit:
            repo.staged = {**repo.staged, **overlay_of(before, merged)}
            return {"result": "staged", "branch": repo.head, "staged": sorted(overlay_of(before, merged))}
        subject = c.message.splitlines()[0]
        new = self._new_commit(repo, merged, [head], f'Revert "{subject}"\n\nThis reverts commit {sha}.')
        repo.branches[repo.head].head = new.sha
        return {"result": "committed", "branch": repo.head, "head": new.sha, "reverted": sha,
                "message": new.message}
