"""JSON Lines files: parsing one record into a pydantic model with located
errors, and writing a whole file atomically."""

from __future__ import annotations

import contextlib
import os
import secrets
import stat
from pathlib import Path
from typing import Iterator, TextIO, TypeVar

import orjson
from pydantic import BaseModel, ValidationError

M = TypeVar("M", bound=BaseModel)


def parse_record(line: str, model: type[M], where: str, error: type[Exception], noun: str) -> M:
    """Parse one JSONL line as ``model``.

    Args:
        line: the line's text.
        model: the pydantic model of a record.
        where: location for messages, e.g. ``"tasks.jsonl:7"``.
        error: the exception class to raise.
        noun: what a record is called in messages (``"task"``).

    Raises:
        error: the line is not JSON, or not a valid record; the message gives
            ``where``, the first problem's field path and the problem count.
    """
    try:
        obj = orjson.loads(line)
    except orjson.JSONDecodeError as exc:
        raise error(f"{where}: not valid JSON ({exc})") from None
    try:
        return model.model_validate(obj)
    except ValidationError as exc:
        first = exc.errors(include_url=False)[0]
        loc = ".".join(str(x) for x in first["loc"]) or noun
        raise error(f"{where}: invalid {noun} at '{loc}': {first['msg']} "
                    f"({exc.error_count()} problem(s))") from None


@contextlib.contextmanager
def atomic_writer(path: str | Path) -> Iterator[TextIO]:
    """A text file (UTF-8) that replaces ``path`` only when the block ends without error.

    Lines go to a new temporary file beside ``path`` (same directory, so the
    rename is atomic), which is flushed and fsynced, then renamed over
    ``path`` with :func:`os.replace`. If the block raises, ``path`` keeps its
    old content (or stays absent) and the temporary file is removed: a file
    that looks complete always is. The new file keeps an existing file's
    permission bits; a symlink is written through.

    Raises:
        OSError: the directory cannot be written.

    Example:
        >>> import tempfile, pathlib
        >>> p = pathlib.Path(tempfile.mkdtemp()) / "out.jsonl"
        >>> with atomic_writer(p) as fh:
        ...     _ = fh.write('{"a": 1}\\n')
        >>> p.read_text()
        '{"a": 1}\\n'
    """
    target = Path(os.path.realpath(path))
    fd, tmp = _new_temp(target)
    try:
        with contextlib.suppress(FileNotFoundError):
            os.chmod(tmp, stat.S_IMODE(os.stat(target).st_mode))
        with os.fdopen(fd, "w", encoding="utf-8") as fh:
            yield fh
            fh.flush()
            os.fsync(fh.fileno())
        os.replace(tmp, target)
    except BaseException:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(tmp)
        raise
    _fsync_dir(target.parent)


def _new_temp(target: Path) -> tuple[int, Path]:
    """Create a fresh ``.<name>.<random>.tmp`` beside ``target``; mode as ``open(..., "w")`` gives."""
    for _ in range(100):
        tmp = target.with_name(f".{target.name}.{secrets.token_hex(4)}.tmp")
        try:
            return os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666), tmp
        except FileExistsError:
            continue
    raise FileExistsError(f"could not create a temporary file beside {target}")


def _fsync_dir(directory: Path) -> None:
    """Make a rename in ``directory`` durable, where the platform allows it."""
    with contextlib.suppress(OSError, AttributeError):
        dfd = os.open(directory, os.O_RDONLY)
        try:
            os.fsync(dfd)
        finally:
            os.close(dfd)
