"""Git's rules for the git_commands service, as plain functions of its state.

Commit ids are deterministic (a SHA-1 of tree, parents, author and
message, the way git hashes a commit object), so the same work gives the
same sha in every episode. Revisions resolve as git's do (``HEAD``,
``HEAD~2``, ``main^``, ``origin/main``, tags, abbreviated shas); merges are
three-way from the merge base, and a file both sides changed differently is
a conflict.
"""

from __future__ import annotations

import datetime as dt
import difflib
import hashlib
import re
from typing import Iterable, Optional

from compoworld_gym.envs.services._git_commands_models import Commit, GitState, Repository
from compoworld_gym.errors import NotFound, Unprocessable

Tree = dict[str, str]
Overlay = dict[str, Optional[str]]
_REF_BAD = re.compile(r"(\.\.|[\s~^:?*\[\\]|@\{|^-|^/|/$|\.lock$|^\.|/\.|//)")
_REL = re.compile(r"^(\d+)\s*(minute|hour|day|week|month|year)s?(\s+ago)?$|^(\d+)([hdwmy])$")


def tree_hash(tree: Tree) -> str:
    """SHA-1 of a tree: its sorted ``path\\0content`` entries."""
    h = hashlib.sha1()
    for path in sorted(tree):
        h.update(f"{path}\0{tree[path]}\0".encode())
    return h.hexdigest()


def commit_sha(tree: Tree, parents: Iterable[str], author_name: str, author_email: str, message: str) -> str:
    """The deterministic id of a commit (40 hex), from its content, parents, author and message.

    Example:
        >>> commit_sha({"a.txt": "x"}, [], "Ann", "ann@x.example", "Init")[:7]
        '5887b5a'
    """
    body = f"tree {tree_hash(tree)}\n" + "".join(f"parent {p}\n" for p in parents)
    body += f"author {author_name} <{author_email}>\n\n{message}"
    return hashlib.sha1(body.encode()).hexdigest()


def make_commit(path: str, tree: Tree, parents: list[str], name: str, email: str, message: str,
                when: dt.datetime) -> Commit:
    """A :class:`Commit` of ``tree`` with its deterministic sha."""
    return Commit(sha=commit_sha(tree, parents, name, email, message), repo_path=path, parents=parents,
                  message=message, author_name=name, author_email=email, authored_at=when, tree=dict(tree))


def check_ref_name(name: str, what: str = "branch") -> None:
    """Refuse a name git's check-ref-format refuses (spaces, ``..``, ``~^:?*[``, a leading ``-``...).

    Raises:
        Unprocessable: 422 naming the rule.
    """
    if not name or _REF_BAD.search(name):
        raise Unprocessable(f"{name!r} is not a valid {what} name (no spaces, '..', '~^:?*[\\', leading '-' "
                            "or '.', trailing '/' or '.lock').")


def apply(base: Tree, overlay: Overlay) -> Tree:
    """``base`` with ``overlay``'s changes (None deletes the path)."""
    out = dict(base)
    for path, content in overlay.items():
        if content is None:
            out.pop(path, None)
        else:
            out[path] = content
    return out


def overlay_of(base: Tree, target: Tree) -> Overlay:
    """The overlay that turns ``base`` into ``target`` (only the paths that differ)."""
    return {p: target.get(p) for p in sorted(set(base) | set(target)) if base.get(p) != target.get(p)}


def head_tree(state: GitState, repo: Repository) -> Tree:
    """The tree of the commit checked out."""
    return state.commits[repo.branches[repo.head].head].tree


def index_tree(state: GitState, repo: Repository) -> Tree:
    """The index: HEAD's tree with the staged changes."""
    return apply(head_tree(state, repo), repo.staged)


def work_tree(state: GitState, repo: Repository) -> Tree:
    """The working files: the index with the unstaged changes (untracked files included)."""
    return apply(index_tree(state, repo), repo.unstaged)


def untracked(state: GitState, repo: Repository) -> list[str]:
    """Working files that are in neither the index nor HEAD."""
    index = index_tree(state, repo)
    return sorted(p for p, c in repo.unstaged.items() if c is not None and p not in index)


def tracked_changes(state: GitState, repo: Repository) -> set[str]:
    """Paths with staged or unstaged changes to tracked files (untracked files excluded)."""
    return set(repo.staged) | (set(repo.unstaged) - set(untracked(state, repo)))


def resolve(state: GitState, repo: Repository, rev: str, *, remote: bool = False) -> str:
    """The sha a revision names, as ``git rev-parse`` resolves it.

    Args:
        state: the service state.
        repo: the repository.
        rev: HEAD, a branch, origin/<branch>, a tag, a sha (4+ hex digits), each optionally followed by
            ``~N`` or ``^`` steps along first parents.
        remote: resolve branch names against origin's branches (the clone-by-URL tools).

    Raises:
        NotFound: 404 naming the known branches when nothing matches.
    """
    m = re.fullmatch(r"(.+?)((?:~\d*|\^)*)", rev.strip())
    name, steps = (m.group(1), m.group(2)) if m else (rev, "")
    sha = _named(state, repo, name, remote)
    for step in re.findall(r"~\d*|\^", steps):
        for _ in range(int(step[1:] or 1) if step.startswith("~") else 1):
            parents = state.commits[sha].parents
            if not parents:
                raise NotFound(f"revision {rev!r} goes past the first commit of {repo.name}.")
            sha = parents[0]
    return sha


def _named(state: GitState, repo: Repository, name: str, remote: bool) -> str:
    branches = repo.remote_branches if remote else {b: r.head for b, r in repo.branches.items()}
    if name == "HEAD":
        return repo.remote_branches[repo.default_branch] if remote else repo.branches[repo.head].head
    if name in branches:
        return branches[name]
    if name.startswith("origin/") and name[7:] in repo.remote_branches:
        return repo.remote_branches[name[7:]]
    tag = next((t for t in repo.tags if t.name == name), None)
    if tag is not None:
        return tag.sha
    if re.fullmatch(r"[0-9a-f]{4,40}", name):
        hits = [s for s, c in state.commits.items() if s.startswith(name) and c.repo_path == repo.path]
        if len(hits) == 1:
            return hits[0]
        if len(hits) > 1:
            raise Unprocessable(f"short sha {name!r} is ambiguous in {repo.name}; give more digits.")
    raise NotFound(f"unknown revision {name!r} in {repo.name}; branches: {', '.join(sorted(branches))}.")


def ancestors(state: GitState, sha: str) -> set[str]:
    """``sha`` and every commit reachable from it."""
    seen, todo = set(), [sha]
    while todo:
        s = todo.pop()
        if s not in seen:
            seen.add(s)
            todo.extend(state.commits[s].parents)
    return seen


def history(state: GitState, heads: Iterable[str], exclude: Iterable[str] = ()) -> list[Commit]:
    """Commits reachable from ``heads`` but not from ``exclude``, newest first (git log order)."""
    keep: set[str] = set()
    for h in heads:
        keep |= ancestors(state, h)
    for h in exclude:
        keep -= ancestors(state, h)
    return sorted((state.commits[s] for s in keep), key=lambda c: (c.authored_at, c.sha), reverse=True)


def merge_base(state: GitState, a: str, b: str) -> Optional[str]:
    """The best common ancestor of ``a`` and ``b`` (the newest one no other common ancestor descends from)."""
    common = ancestors(state, a) & ancestors(state, b)
    best = [c for c in common if not any(c != o and c in ancestors(state, o) for o in common)]
    return max(best, key=lambda s: (state.commits[s].authored_at, s)) if best else None


def three_way(base: Tree, ours: Tree, theirs: Tree) -> tuple[Tree, list[str]]:
    """Merge two trees from their base: ``(merged tree, paths both sides changed differently)``."""
    merged, conflicts = {}, []
    for path in sorted(set(base) | set(ours) | set(theirs)):
        b, o, t = base.get(path), ours.get(path), theirs.get(path)
        if o == t or t == b:
            value = o
        elif o == b:
            value = t
        else:
            conflicts.append(path)
            continue
        if value is not None:
            merged[path] = value
    return merged, conflicts


def changes(before: Tree, after: Tree, patch: bool = False) -> list[dict]:
    """Files changed from ``before`` to ``after``: path, status, lines added/deleted, and the patch."""
    out = []
    for path in sorted(set(before) | set(after)):
        a, b = before.get(path), after.get(path)
        if a == b:
            continue
        lines = list(difflib.unified_diff((a or "").splitlines(keepends=True), (b or "").splitlines(keepends=True),
                                          fromfile=f"a/{path}" if a is not None else "/dev/null",
                                          tofile=f"b/{path}" if b is not None else "/dev/null"))
        row = {"path": path, "status": "added" if a is None else "deleted" if b is None else "modified",
               "additions": sum(ln.startswith("+") and not ln.startswith("+++") for ln in lines),
               "deletions": sum(ln.startswith("-") and not ln.startswith("---") for ln in lines)}
        if patch:
            row["patch"] = "".join(lines)
        out.append(row)
    return out


def blame(state: GitState, sha: str, path: str) -> list[dict]:
    """Per line of ``path`` at ``sha``: the commit that last changed it (first-parent history)."""
    chain = []
    s: Optional[str] = sha
    while s is not None and path in state.commits[s].tree:
        chain.append(state.commits[s])
        s = state.commits[s].parents[0] if state.commits[s].parents else None
    owners: list[Commit] = []
    lines: list[str] = []
    for c in reversed(chain):
        new = c.tree[path].splitlines()
        keep: list[Commit] = []
        for op, i1, i2, j1, j2 in difflib.SequenceMatcher(None, lines, new, autojunk=False).get_opcodes():
            keep += owners[i1:i2] if op == "equal" else [c] * (j2 - j1)
        owners, lines = keep, new
    return [{"line": n, "sha": c.sha[:8], "author": c.author_name, "author_email": c.author_email,
             "date": c.authored_at, "content": text} for n, (c, text) in enumerate(zip(owners, lines), start=1)]


def since_time(text: str, now: dt.datetime) -> dt.datetime:
    """A git date (``2026-01-01``, ``3 days ago``, ``1 week ago``, ``7d``, ``yesterday``, ``today``) as a time.

    Raises:
        Unprocessable: 422 for a date git would not understand.
    """
    t = text.strip().lower()
    if t in ("today", "now"):
        return dt.datetime.combine(now.date(), dt.time()) if t == "today" else now
    if t == "yesterday":
        return dt.datetime.combine(now.date() - dt.timedelta(days=1), dt.time())
    if t.startswith("last "):
        t = "1 " + t[5:]
    m = _REL.match(t)
    if m:
        n = int(m.group(1) or m.group(4))
        unit = m.group(2) or {"h": "hour", "d": "day", "w": "week", "m": "month", "y": "year"}[m.group(5)]
        days = {"minute": 1 / 1440, "hour": 1 / 24, "day": 1, "week": 7, "month": 30, "year": 365}[unit]
        return now - dt.timedelta(days=n * days)
    try:
        return dt.datetime.fromisoformat(t)
    except ValueError:
        raise Unprocessable(f"cannot read the date {text!r}; use e.g. 2026-01-01, '3 days ago' or 'yesterday'.") \
            from None


def identity(state: GitState, repo: Repository) -> tuple[str, str]:
    """``(user.name, user.email)`` from local, then global, then system config.

    Raises:
        Unprocessable: 422 when either is unset (git's "Please tell me who you are").
    """
    def get(key: str) -> Optional[str]:
        return repo.config.get(key) or state.global_config.get(key) or state.system_config.get(key)
    name, email = get("user.name"), get("user.email")
    if not name or not email:
        raise Unprocessable("Please tell me who you are: set user.name and user.email with git_config.")
    return name, email


def ahead_behind(state: GitState, local: str, remote: Optional[str]) -> tuple[int, int]:
    """Commits ``local`` has that ``remote`` lacks, and the reverse."""
    if remote is None:
        return len(ancestors(state, local)), 0
    a, b = ancestors(state, local), ancestors(state, remote)
    return len(a - b), len(b - a)
