"""Git mechanics of the ``github`` service on its typed records: commits with
content-derived shas, what a branch changed since it forked, directory
listings and per-file line counts of a pull request."""

from __future__ import annotations

import datetime as dt
import difflib
import hashlib

from compoworld_gym.envs.services._github_models import BranchState, Commit, Repository, blob_sha
from compoworld_gym.errors import NotFound


def commit(b: BranchState, message: str, files: dict[str, str], author: str, when: dt.datetime) -> Commit:
    """Write ``files`` (path -> content) to branch ``b`` in one new commit and return it.

    The sha is the SHA-1 of the parent sha, message, time and the files' blob
    shas, so the same history always gives the same shas.
    """
    parent = b.commits[-1].sha if b.commits else ""
    digest = "\n".join([parent, message, when.isoformat()] + [f"{p}:{blob_sha(c)}" for p, c in sorted(files.items())])
    new = Commit(sha=hashlib.sha1(digest.encode()).hexdigest(), message=message, author=author, date=when,
                 files=sorted(files))
    b.files.update(files)
    b.commits.append(new)
    return new


def changes(r: Repository, head: str, base: str) -> tuple[dict[str, str], list[str]]:
    """What merging ``head`` into ``base`` of ``r`` would bring.

    Returns:
        ``({path: head content} of the files head changed since it forked
        from base and that differ from base, [paths that both sides changed
        differently]: the merge conflicts)``.
    """
    h, b = r.branches[head], r.branches[base]
    k = 0  # branches copy their history, so the shared commit prefix is the merge base
    for x, y in zip(h.commits, b.commits):
        if x.sha != y.sha:
            break
        k += 1
    ours = {f for c in h.commits[k:] for f in c.files}
    theirs = {f for c in b.commits[k:] for f in c.files}
    changed = {f: h.files[f] for f in sorted(ours) if b.files.get(f) != h.files[f]}
    return changed, sorted(f for f in changed if f in theirs)


def read_path(b: BranchState, path: str) -> dict | list[dict]:
    """A file's content and sha, or the entries of a directory ('' or '/' is the root).

    Raises:
        NotFound: no file or directory at ``path`` on the branch.
    """
    p = path.strip("/")
    if p in b.files:
        c = b.files[p]
        return {"type": "file", "name": p.rsplit("/", 1)[-1], "path": p, "sha": blob_sha(c),
                "size": len(c.encode()), "encoding": "utf-8", "content": c}
    prefix = f"{p}/" if p else ""
    entries: dict[str, dict] = {}
    for f, c in sorted(b.files.items()):
        if f.startswith(prefix):
            head, _, rest = f[len(prefix):].partition("/")
            entries.setdefault(head, {"type": "dir" if rest else "file", "name": head, "path": prefix + head,
                                      "sha": None if rest else blob_sha(c)})
    if not entries:
        raise NotFound(f"path {path!r} not found on that branch; list the root with path ''.")
    return list(entries.values())


def file_stats(base_files: dict[str, str], changed: dict[str, str]) -> list[dict]:
    """Per changed file: added or modified, lines added and deleted against ``base_files``, new blob sha."""
    out = []
    for f, new in changed.items():
        old = base_files.get(f)
        diff = list(difflib.ndiff((old or "").splitlines(), new.splitlines()))
        adds, dels = sum(ln.startswith("+ ") for ln in diff), sum(ln.startswith("- ") for ln in diff)
        out.append({"filename": f, "status": "modified" if old is not None else "added", "additions": adds,
                    "deletions": dels, "changes": adds + dels, "sha": blob_sha(new)})
    return out
