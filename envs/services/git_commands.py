"""Git commands: deterministic git repositories of the company's applications.

Follows the MCP server ``@bsreeram08_git-commands-mcp`` (all 27 of its tools,
with their parameter names). The real server shells out to git on the
machine's file system; here every repository is modelled (see
``_git_commands_models``): the clones of the shared engineering catalog's
applications live at ``/srv/repos/acme/<app>`` with their remote origin at
``https://github.com/acme/<app>.git``. The tools that take ``repo_url``
clone the remote, so they see what was pushed; the tools that take
``repo_path`` act on the local clone. One tool is added
(``git_list_repositories``, in ``designed_tools``): the real server relies
on the caller knowing the paths, which an agent here learns from it.

Modelled rules: a commit's sha is a hash of its content, parents, author
and message; committing needs staged changes and an identity (user.name and
user.email config); an enabled commit-msg hook of the form
``grep -qE '<regex>' "$1"`` is enforced on git_commit; checkout, merge, pull,
reset and revert never overwrite local changes they would clash with (409);
merges fast-forward or make a merge commit, and a file changed on both sides
is a conflict (409 with the files, nothing changes); push refuses a
non-fast-forward unless forced; a branch not merged needs force to delete;
git clean needs force unless it is a dry run; git-lfs must be installed
before it tracks patterns. Hooks other than commit-msg are stored, not run.
"""

from __future__ import annotations

import datetime as dt
import fnmatch
import random
import re
from typing import Literal, Optional

from faker import Faker
from pydantic import Field

from compoworld_gym.entities import FilePath
from compoworld_gym.envs.services._git_commands_files import GitFiles
from compoworld_gym.envs.services._git_commands_models import Branch, BranchName, GitState, StashEntry, Tag
from compoworld_gym.envs.services._git_commands_rules import (
    ancestors, apply, changes, check_ref_name, head_tree, identity, index_tree, overlay_of, resolve, tracked_changes,
    untracked, work_tree,
)
from compoworld_gym.envs.services._git_commands_seed import build_state
from compoworld_gym.errors import Conflict, NotFound, Unprocessable
from compoworld_gym.service import tool

_HOOK_GREP = re.compile(r"grep\s+-[a-zA-Z]*E[a-zA-Z]*\s+'([^']+)'")


class GitCommands(GitFiles):
    """Git repositories: branches, commits, merges, stash, tags, push/pull to origin."""

    name = "git_commands"
    description = ("Git repositories of the company's services: branches, commits, diffs, merges, rebases, "
                   "stash, tags, hooks and push/pull to origin.")
    domain = "developer_tools"
    spec_source = "@bsreeram08_git-commands-mcp"
    designed_tools = frozenset({"git_list_repositories"})
    State = GitState

    # -------------------------------------------------------------- branches
    @tool(read_only=False)
    def git_checkout_branch(self, repo_path: FilePath, branch_name: BranchName, start_point: Optional[str] = None,
                            create: bool = False) -> dict:
        """Create and/or checkout a branch.

        A branch only on origin is created tracking it. Local changes that the switch would
        overwrite are refused (409); other local changes are carried over.

        Args:
            repo_path: The path to the local Git repository
            branch_name: The name of the branch to checkout
            start_point: Starting point for the branch (optional)
            create: Whether to create a new branch
        """
        repo = self._repo(repo_path)
        if create:
            check_ref_name(branch_name)
            if branch_name in repo.branches:
                raise Conflict(f"a branch named {branch_name!r} already exists; check it out without create.")
            sha = resolve(self.state, repo, start_point or "HEAD")
            up = start_point if start_point and start_point.startswith("origin/") else None
            repo.branches[branch_name] = Branch(name=branch_name, head=sha, upstream=up)
        elif branch_name not in repo.branches:
            if branch_name not in repo.remote_branches:
                raise NotFound(f"no branch {branch_name!r} in {repo.name}, locally or on origin; pass create=true "
                               "to make it.")
            repo.branches[branch_name] = Branch(name=branch_name, head=repo.remote_branches[branch_name],
                                                upstream=f"origin/{branch_name}")
        if repo.head == branch_name:
            return {"branch": branch_name, "head": repo.branches[branch_name].head, "result": "already_on"}
        self._switch(repo, branch_name)
        return {"branch": branch_name, "head": repo.branches[branch_name].head,
                "result": "created" if create else "switched", "upstream": repo.branches[branch_name].upstream}

    @tool(read_only=False, destructive=True)
    def git_delete_branch(self, repo_path: FilePath, branch_name: BranchName, force: bool = False) -> dict:
        """Delete a branch from the repository.

        The checked-out branch cannot be deleted (409); an unmerged one needs force (409).

        Args:
            repo_path: The path to the local Git repository
            branch_name: The name of the branch to delete
            force: Whether to force deletion
        """
        repo = self._repo(repo_path)
        b = repo.branches.get(branch_name)
        if b is None:
            raise NotFound(f"branch {branch_name!r} not found in {repo.name}; branches: "
                           f"{', '.join(sorted(repo.branches))}.")
        if branch_name == repo.head:
            raise Conflict(f"cannot delete branch {branch_name!r}: it is checked out; check out another branch first.")
        up = repo.remote_branches.get(b.upstream[7:]) if b.upstream else None
        merged = b.head in ancestors(self.state, repo.branches[repo.head].head) or (
            up is not None and b.head in ancestors(self.state, up))
        if not merged and not force:
            raise Conflict(f"branch {branch_name!r} is not fully merged; merge it first or pass force=true.")
        del repo.branches[branch_name]
        return {"deleted": branch_name, "was": b.head, "merged": merged}

    # --------------------------------------------------------------- commits
    @tool(read_only=False)
    def git_track(self, repo_path: FilePath, files: list[str] = Field(default_factory=lambda: ["."], min_length=1)
                  ) -> dict:
        """Track (stage) specific files or all files.

        Args:
            repo_path: The path to the local Git repository
            files: Array of file paths to track/stage (use ["."] for all files)
        """
        repo = self._repo(repo_path)
        index, work = index_tree(self.state, repo), work_tree(self.state, repo)
        pending = sorted(repo.unstaged)
        chosen: set[str] = set()
        for spec in files:
            spec = spec.strip().removeprefix("./").rstrip("/")
            hits = [p for p in pending if spec in ("", ".") or p == spec or p.startswith(spec + "/")
                    or fnmatch.fnmatch(p, spec)]
            if not hits and spec not in ("", ".") and spec not in index and not any(
                    p.startswith(spec + "/") for p in index):
                raise NotFound(f"pathspec {spec!r} did not match any files; git_local_changes lists the changes.")
            chosen |= set(hits)
        new_index = {**index, **{p: work[p] for p in chosen if p in work}}
        for p in chosen:
            if p not in work:
                new_index.pop(p, None)
        repo.staged = overlay_of(head_tree(self.state, repo), new_index)
        repo.unstaged = {p: v for p, v in repo.unstaged.items() if p not in chosen}
        return {"staged": sorted(repo.staged), "unstaged": sorted(repo.unstaged)}

    @tool(read_only=False)
    def git_commit(self, repo_path: FilePath, message: str = Field(min_length=1, max_length=2000)) -> dict:
        """Create a commit with the specified message.

        Commits the staged changes (409 when nothing is staged); an enabled commit-msg
        hook's message rule applies (422).

        Args:
            repo_path: The path to the local Git repository
            message: The commit message
        """
        repo = self._repo(repo_path)
        if not repo.staged:
            raise Conflict(f"nothing to commit on {repo.head}; stage changes with git_track first.")
        if not message.strip():
            raise Unprocessable("aborting commit due to empty commit message.")
        hook = repo.hooks.get("commit-msg")
        rule = _HOOK_GREP.search(hook.script) if hook is not None and hook.enabled else None
        if rule is not None and not re.search(rule.group(1), message):
            raise Unprocessable(f"the commit-msg hook rejected the message: it must match {rule.group(1)!r} "
                                "(reference the ticket or case, e.g. KQ-4821).")
        identity(self.state, repo)
        b = repo.branches[repo.head]
        c = self._new_commit(repo, index_tree(self.state, repo), [b.head], message.strip())
        files = changes(head_tree(self.state, repo), c.tree)
        b.head, repo.staged = c.sha, {}
        return {"branch": repo.head, "commit": c.sha, "short_hash": c.sha[:7], "author_email": c.author_email,
                "files": [f["path"] for f in files]}

    @tool(read_only=False)
    def git_stash(self, repo_path: FilePath, action: Literal["save", "pop", "apply", "list", "drop"] = "save",
                  message: str = Field(default="", max_length=300), index: int = Field(default=0, ge=0)) -> dict:
        """Create or apply a stash.

        save shelves the changes to tracked files (untracked files stay); apply/pop bring
        stash@{index} back (409 when it clashes with local changes); drop deletes it.

        Args:
            repo_path: The path to the local Git repository
            action: Stash action (save, pop, apply, list, drop)
            message: Stash message (for save action)
            index: Stash index (for pop, apply, drop actions)
        """
        repo = self._repo(repo_path)
        if action == "list":
            return {"stashes": [{"ref": f"stash@{{{n}}}", "message": s.message, "branch": s.branch}
                                for n, s in enumerate(repo.stash)]}
        if action == "save":
            loose = set(untracked(self.state, repo))
            if not tracked_changes(self.state, repo):
                raise Conflict("no local changes to save (untracked files are not stashed).")
            head = repo.branches[repo.head].head
            label = message or f"WIP on {repo.head}: {head[:7]} {self.state.commits[head].message.splitlines()[0]}"
            repo.stash.insert(0, StashEntry(message=label, branch=repo.head, base=head, staged=dict(repo.staged),
                                            unstaged={p: v for p, v in repo.unstaged.items() if p not in loose},
                                            created_at=self.now()))
            repo.staged = {}
            repo.unstaged = {p: v for p, v in repo.unstaged.items() if p in loose}
            return {"result": "saved", "ref": "stash@{0}", "message": label}
        if index >= len(repo.stash):
            raise NotFound(f"stash@{{{index}}} does not exist; {repo.path} has {len(repo.stash)} stash entries.")
        entry = repo.stash[index]
        if action == "drop":
            del repo.stash[index]
            return {"result": "dropped", "ref": f"stash@{{{index}}}", "message": entry.message}
        base, head = self.state.commits[entry.base].tree, head_tree(self.state, repo)
        paths = set(entry.staged) | set(entry.unstaged)
        clash = sorted(p for p in paths if base.get(p) != head.get(p)) or sorted(
            paths & (tracked_changes(self.state, repo) | set(untracked(self.state, repo))))
        if clash:
            raise Conflict(f"stash@{{{index}}} clashes with {', '.join(clash)} (changed since it was saved, or "
                           "changed locally); commit or stash those first.")
        index_full = apply(index_tree(self.state, repo), entry.staged)
        repo.staged = overlay_of(head, index_full)
        repo.unstaged = overlay_of(index_full, apply(apply(work_tree(self.state, repo), entry.staged), entry.unstaged))
        if action == "pop":
            del repo.stash[index]
        return {"result": "popped" if action == "pop" else "applied", "ref": f"stash@{{{index}}}",
                "restored": sorted(paths)}

    @tool(read_only=False)
    def git_create_tag(self, repo_path: FilePath, tag_name: str, message: str = Field(default="", max_length=500),
                       annotated: bool = True) -> dict:
        """Create a tag.

        Tags the commit checked out (HEAD); an annotated tag records the tagger and message.

        Args:
            repo_path: The path to the local Git repository
            tag_name: Name of the tag
            message: Tag message (for annotated tags)
            annotated: Whether to create an annotated tag
        """
        repo = self._repo(repo_path)
        check_ref_name(tag_name, "tag")
        if any(t.name == tag_name for t in repo.tags):
            raise Conflict(f"tag {tag_name!r} already exists in {repo.name}.")
        sha = repo.branches[repo.head].head
        if annotated:
            _, email = identity(self.state, repo)
            tag = Tag(name=tag_name, sha=sha, annotated=True, message=message or tag_name, tagger_email=email,
                      created_at=self.now())
        else:
            tag = Tag(name=tag_name, sha=sha, annotated=False)
        repo.tags.append(tag)
        return {**tag.model_dump(), "branch": repo.head}

    # ------------------------------------------------------------------ seeds
    @classmethod
    def build_seed_state(cls, fake: Faker, rng: random.Random, today: dt.date) -> GitState:
        return build_state(rng, today)
