"""The configuration and file-level tools of the git_commands service: config,
archive, .gitattributes, clean, hooks and git-lfs.

:class:`GitFiles` does not register; :class:`~compoworld_gym.envs.services.git_commands.GitCommands`
builds on it. Attribute and LFS changes are written to .gitattributes in the
working tree, as git leaves them: unstaged changes to be tracked and committed.
"""

from __future__ import annotations

import fnmatch
import re
from typing import Literal, Optional

from compoworld_gym.entities import FilePath
from compoworld_gym.envs.services._git_commands_history import GitHistory
from compoworld_gym.envs.services._git_commands_models import KNOWN_HOOKS, LFS_ATTRS, Archive, Hook, Repository
from compoworld_gym.envs.services._git_commands_rules import head_tree, index_tree, resolve, untracked, work_tree
from compoworld_gym.errors import Conflict, NotFound, Unprocessable
from compoworld_gym.service import tool

_CONFIG_KEY = re.compile(r"^[A-Za-z][A-Za-z0-9-]*(\.[A-Za-z0-9_.-]+)+$")


class GitFiles(GitHistory, register=False):
    """Config, archives, attributes, clean, hooks and LFS on a local clone."""

    # --------------------------------------------------------------- helpers
    def _attributes(self, repo: Repository) -> list[str]:
        return work_tree(self.state, repo).get(".gitattributes", "").splitlines()

    def _write_attributes(self, repo: Repository, lines: list[str]) -> None:
        """Write .gitattributes in the working tree (an unstaged change, as git's commands leave it)."""
        index = index_tree(self.state, repo)
        new = "".join(f"{ln}\n" for ln in lines)
        repo.unstaged = {k: v for k, v in repo.unstaged.items() if k != ".gitattributes"}
        if index.get(".gitattributes") != new:
            repo.unstaged[".gitattributes"] = new

    # ---------------------------------------------------------------- config
    @tool(read_only=False)
    def git_config(self, repo_path: FilePath, key: str, value: str,
                   scope: Literal["local", "global", "system"] = "local") -> dict:
        """Configure git settings for the repository.

        Args:
            repo_path: The path to the local Git repository
            key: Configuration key
            value: Configuration value
            scope: Configuration scope (local, global, system)
        """
        repo = self._repo(repo_path)
        if not _CONFIG_KEY.match(key):
            raise Unprocessable(f"invalid config key {key!r}; keys look like section.name, e.g. user.email.")
        if key == "user.email" and not re.fullmatch(r"[^@\s]+@[^@\s]+\.[^@\s]+", value):
            raise Unprocessable(f"user.email {value!r} is not an email address.")
        store = {"local": repo.config, "global": self.state.global_config, "system": self.state.system_config}[scope]
        previous = store.get(key)
        store[key] = value
        return {"scope": scope, "key": key, "value": value, "previous": previous}

    @tool(read_only=False)
    def git_archive(self, repo_path: FilePath, output_path: FilePath, format: Literal["zip", "tar"] = "zip",
                    prefix: Optional[str] = None, treeish: str = "HEAD") -> dict:
        """Create a git archive (zip or tar).

        Args:
            repo_path: The path to the local Git repository
            output_path: Output path for the archive
            format: Archive format (zip or tar)
            prefix: Prefix for files in the archive
            treeish: Tree-ish to archive (default: HEAD)
        """
        repo = self._repo(repo_path)
        if output_path.endswith((".zip", ".tar", ".tar.gz", ".tgz")) and not output_path.endswith(
                (".zip",) if format == "zip" else (".tar", ".tar.gz", ".tgz")):
            raise Unprocessable(f"output_path {output_path!r} does not match the {format} format.")
        sha = resolve(self.state, repo, treeish)
        files = [f"{prefix or ''}{p}" for p in sorted(self.state.commits[sha].tree)]
        archive = Archive(output_path=output_path, format=format, treeish=treeish, sha=sha, prefix=prefix, files=files,
                          created_at=self.now())
        repo.archives = [a for a in repo.archives if a.output_path != output_path] + [archive]
        return archive.model_dump()

    @tool(read_only=False)
    def git_attributes(self, repo_path: FilePath, action: Literal["get", "set", "list"],
                       pattern: Optional[str] = None, attribute: Optional[str] = None) -> dict:
        """Manage git attributes for files.

        set appends ``pattern attribute`` to .gitattributes in the working tree.

        Args:
            repo_path: The path to the local Git repository
            action: Action (get, set, list)
            pattern: File pattern
            attribute: Attribute to set
        """
        repo = self._repo(repo_path)
        lines = self._attributes(repo)
        rows = [{"pattern": ln.split()[0], "attributes": ln.split()[1:]} for ln in lines if ln.strip()
                and not ln.startswith("#")]
        if action == "list":
            return {"attributes": rows}
        if not pattern:
            raise Unprocessable(f"action {action!r} needs a pattern, e.g. '*.psd'.")
        if action == "get":
            return {"pattern": pattern, "attributes": [a for r in rows if r["pattern"] == pattern
                                                       for a in r["attributes"]]}
        if not attribute:
            raise Unprocessable("action 'set' needs the attribute, e.g. 'binary' or 'text eol=lf'.")
        line = f"{pattern} {attribute}"
        if line not in lines:
            self._write_attributes(repo, [*lines, line])
        return {"pattern": pattern, "attribute": attribute, "file": ".gitattributes", "staged": False}

    @tool(read_only=False, destructive=True)
    def git_clean(self, repo_path: FilePath, directories: bool = False, force: bool = False,
                  dry_run: bool = True) -> dict:
        """Perform git clean operations.

        Removes untracked files (those in untracked directories only with directories=true);
        without dry_run it needs force (git's clean.requireForce).

        Args:
            repo_path: The path to the local Git repository
            directories: Whether to remove directories as well
            force: Whether to force clean
            dry_run: Whether to perform a dry run
        """
        repo = self._repo(repo_path)
        index = index_tree(self.state, repo)
        dirs = {p.rsplit("/", 1)[0] for p in index if "/" in p}
        gone = [p for p in untracked(self.state, repo) if "/" not in p or p.rsplit("/", 1)[0] in dirs or directories]
        if dry_run:
            return {"dry_run": True, "would_remove": gone}
        if not force:
            raise Unprocessable("clean.requireForce is true: pass force=true to delete files, or dry_run=true to "
                                "list them.")
        repo.unstaged = {p: v for p, v in repo.unstaged.items() if p not in gone}
        return {"dry_run": False, "removed": gone}

    @tool(read_only=False)
    def git_hooks(self, repo_path: FilePath, action: Literal["list", "get", "create", "enable", "disable"],
                  hook_name: Optional[str] = None, script: Optional[str] = None) -> dict:
        """Manage git hooks in the repository.

        Args:
            repo_path: The path to the local Git repository
            action: Hook action (list, get, create, enable, disable)
            hook_name: Name of the hook (e.g., 'pre-commit', 'post-merge')
            script: Script content for the hook (for create action)
        """
        repo = self._repo(repo_path)
        if action == "list":
            return {"hooks": [h.model_dump() for h in repo.hooks.values()]}
        if not hook_name:
            raise Unprocessable(f"action {action!r} needs hook_name, e.g. 'pre-commit'.")
        if action == "create":
            if hook_name not in KNOWN_HOOKS:
                raise Unprocessable(f"{hook_name!r} is not a git hook; hooks are: {', '.join(KNOWN_HOOKS)}.")
            if not script or not script.strip():
                raise Unprocessable("action 'create' needs the script text.")
            repo.hooks[hook_name] = Hook(name=hook_name, script=script, enabled=True)
            return repo.hooks[hook_name].model_dump()
        hook = repo.hooks.get(hook_name)
        if hook is None:
            raise NotFound(f"no {hook_name} hook in {repo.path}; hooks: {', '.join(sorted(repo.hooks)) or 'none'}.")
        if action != "get":
            hook.enabled = action == "enable"
        return hook.model_dump()

    @tool(read_only=False)
    def git_lfs(self, repo_path: FilePath, action: Literal["install", "track", "untrack", "list"],
                patterns: Optional[list[str]] = None) -> dict:
        """Manage Git LFS (Large File Storage).

        Args:
            repo_path: The path to the local Git repository
            action: LFS action (install, track, untrack, list)
            patterns: File patterns for track/untrack
        """
        repo = self._repo(repo_path)
        if action == "install":
            repo.lfs_installed = True
            repo.hooks.setdefault("pre-push", Hook(name="pre-push", script="#!/bin/sh\ngit lfs pre-push \"$@\"\n",
                                                   enabled=True))
            return {"installed": True, "hooks": ["pre-push"]}
        if not repo.lfs_installed:
            raise Conflict(f"git-lfs is not installed in {repo.path}; run git_lfs with action 'install' first.")
        lines = self._attributes(repo)
        tracked = [ln.split()[0] for ln in lines if LFS_ATTRS in ln]
        if action == "list":
            head = head_tree(self.state, repo)
            return {"patterns": tracked, "files": sorted(p for p in head if any(
                fnmatch.fnmatch(p, t) or fnmatch.fnmatch(p.rsplit("/", 1)[-1], t) for t in tracked))}
        if not patterns:
            raise Unprocessable(f"action {action!r} needs patterns, e.g. ['*.psd'].")
        if action == "track":
            lines += [f"{p} {LFS_ATTRS}" for p in patterns if p not in tracked]
        else:
            missing = [p for p in patterns if p not in tracked]
            if missing:
                raise NotFound(f"{', '.join(missing)} not tracked by git-lfs; tracked: {', '.join(tracked) or 'none'}.")
            lines = [ln for ln in lines if not (LFS_ATTRS in ln and ln.split()[0] in patterns)]
        self._write_attributes(repo, lines)
        return {"patterns": [ln.split()[0] for ln in lines if LFS_ATTRS in ln], "file": ".gitattributes"}
