"""The on-disk side of fetched models: the cache lock, partial fetch directories, installing.

:func:`compoworld_gym.models.fetch_model` builds a model in a sibling
``.<name>.partial-*`` directory while it holds ``.<name>.lock`` (POSIX
``flock``), then renames the finished directory into place
(:func:`install`). A fetch killed midway (SIGKILL, power loss) leaves its
partial directory behind; the next fetch of the same model removes it
(:func:`remove_partials`).

Example:
    >>> import tempfile
    >>> from pathlib import Path
    >>> root = Path(tempfile.mkdtemp())
    >>> with locked(root, ".m.lock") as exclusive:
    ...     (root / ".m.partial-x").mkdir()
    ...     removed = remove_partials(root / "m", exclusive=exclusive)
    >>> [p.name for p in removed], sorted(p.name for p in root.iterdir())
    (['.m.partial-x'], ['.m.lock'])
"""

from __future__ import annotations

import contextlib
import os
import shutil
import time
from pathlib import Path
from typing import Callable, Iterator

#: Without a real lock (no ``fcntl``), only partial directories older than this are removed
#: (a fetch takes minutes, so an older one cannot belong to a live fetch).
STALE_PARTIAL_S = 6 * 3600


class ModelCacheError(ValueError):
    """The model cache cannot be written; the message names the directory and the OS's reason."""


def models_dir() -> Path:
    """The directory holding fetched models: ``$COMPOWORLD_CACHE/models``, else
    ``$XDG_CACHE_HOME/compoworld-gym/models`` (default ``~/.cache/compoworld-gym/models``); nothing is created."""
    base = os.environ.get("COMPOWORLD_CACHE")
    if base:
        return Path(base).expanduser() / "models"
    cache = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache")
    return cache / "compoworld-gym" / "models"


def write_durably(path: Path, text: str) -> None:
    """Write ``text`` to ``path`` (UTF-8) and fsync it: the manifest must be on disk before the rename."""
    with path.open("w", encoding="utf-8") as fh:
        fh.write(text)
        fh.flush()
        os.fsync(fh.fileno())


@contextlib.contextmanager
def locked(directory: Path, name: str) -> Iterator[bool]:
    """Create ``directory`` and hold an exclusive advisory lock on its file ``name``.

    Yields:
        True when the lock is really held (POSIX ``flock``); False where
        ``fcntl`` is missing: concurrent fetches then stay correct, only
        wasteful, and no partial directory may be assumed dead.

    Raises:
        ModelCacheError: the directory cannot be created or written.
    """
    try:
        directory.mkdir(parents=True, exist_ok=True)
        fh = (directory / name).open("a")
    except OSError as exc:
        raise ModelCacheError(f"cannot write the model cache {directory}: {exc.strerror or exc}") from None
    try:
        import fcntl
    except ImportError:
        fcntl = None  # type: ignore[assignment]
    with fh:
        if fcntl is not None:
            fcntl.flock(fh, fcntl.LOCK_EX)  # released when the file closes
        yield fcntl is not None


def remove_partials(target: Path, *, exclusive: bool) -> list[Path]:
    """Delete the ``.<name>.partial-*`` directories next to ``target`` that a killed fetch left behind.

    Only fetches holding the lock create partial directories, so while the
    caller holds it (``exclusive``) every one of them is dead, whatever its
    age; without a real lock only those older than :data:`STALE_PARTIAL_S` go.

    Returns:
        The directories removed.
    """
    now, removed = time.time(), []
    for partial in target.parent.glob(f".{target.name}.partial-*"):
        with contextlib.suppress(OSError):
            if exclusive or now - partial.stat().st_mtime > STALE_PARTIAL_S:
                shutil.rmtree(partial)
                removed.append(partial)
    return removed


def make_readable(directory: Path) -> None:
    """Give every file under ``directory`` the mode a plain ``open()`` would (0666 less the umask, so
    0644 by default): ``save_pretrained`` writes some weights through ``tempfile`` as 0600, which other
    users of a shared cache could not read."""
    mask = os.umask(0)
    os.umask(mask)  # reading the umask means setting it; put it straight back
    for path in directory.rglob("*"):
        if path.is_file() and not path.is_symlink():
            path.chmod(0o666 & ~mask)


def install(built: Path, target: Path, aside: Path, complete: Callable[[], bool]) -> None:
    """Rename the finished ``built`` directory to ``target``.

    An existing ``target`` is moved to ``aside`` (deleted with the work
    directory) unless ``complete()`` says it is a complete fetch to keep:
    then a concurrent fetch finished first and its copy stays.

    Raises:
        ModelCacheError: the rename failed (the old copy, if any, is put back).
    """
    try:
        if complete():
            return
        if target.exists():
            os.replace(target, aside)  # --force, or an incomplete directory left there
        try:
            os.replace(built, target)
        except OSError:
            if aside.exists():
                os.replace(aside, target)  # put the old copy back rather than lose it
            elif complete():
                return  # another fetch renamed its copy into place in between (no lock)
            raise
    except OSError as exc:
        raise ModelCacheError(f"cannot move the fetched model into {target}: {exc.strerror or exc}") from None


__all__ = ["ModelCacheError", "STALE_PARTIAL_S", "install", "locked", "make_readable", "models_dir", "remove_partials",
           "write_durably"]
