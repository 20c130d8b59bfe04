"""The JSON-lines log of a fuzz campaign (``compoworld fuzz --log F`` / ``--resume F``).

Line 1 is a header with the campaign's settings and planned targets
(``{"header": "compoworld-fuzz", "version": 1, "seed", "steps", ...,
"targets": [...]}``); every later line is one finished batch
(:class:`BatchRecord`), written and flushed as it finishes, so an
interrupted campaign keeps what it did. A campaign holds an exclusive lock
on its log while it writes (``fcntl.flock``; where that does not exist the
log is not locked), so a second campaign cannot resume a log that is still
being written.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import IO, Any, Optional

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from compoworld_gym.testing.findings import MachineConfig

try:
    import fcntl
except ImportError:  # Windows: no advisory locks
    fcntl = None  # type: ignore[assignment]

#: Version of the log format (the header's ``version``).
LOG_VERSION = 1
#: Header fields a resumed campaign must share with its log.
SETTINGS = ("seed", "steps", "include", "services", "examples", "minutes", "batch")


class FuzzLogError(ValueError):
    """A log that cannot be resumed: unreadable, damaged before its end, locked, or of other settings."""


class BatchFailure(BaseModel):
    """The finding of a batch: the invariant it broke and the message with the shrunk trace."""

    model_config = ConfigDict(extra="forbid")

    invariant: str
    message: str


class BatchRecord(BaseModel):
    """One finished batch, as one log line and as the ``entry`` a progress callback gets.

    Attributes:
        target: the target's label, e.g. ``service:helpdesk``.
        index: the target's position in the campaign's plan.
        round: the batch's round (0 is the one-run sweep of a minutes campaign).
        seed: the batch's Hypothesis seed.
        planned: runs planned; runs: runs executed (Hypothesis's shrink runs included).
        actions: resets and steps executed.
        digest: BLAKE2b-128 of the seeds and actions the batch drew (None if it crashed
            before drawing): the same seed draws the same digest in any process.
        failures: 0 or 1; failure: the finding, if any.
        seconds: the batch's wall time; rss_mb: the process's resident memory after it (MiB).
        elapsed: seconds since the campaign started (counting a resumed log's time).
    """

    model_config = ConfigDict(extra="forbid")

    target: str
    index: int = Field(ge=0)
    round: int = Field(ge=0)
    seed: int = Field(ge=0)
    planned: int = Field(ge=0)
    runs: int = Field(ge=0)
    actions: int = Field(ge=0)
    digest: Optional[str] = None
    failures: int = Field(ge=0, le=1)
    failure: Optional[BatchFailure] = None
    seconds: float = Field(ge=0)
    rss_mb: Optional[float] = None
    elapsed: float = Field(default=0.0, ge=0)


def _batch(path: Path, number: int, record: dict[str, Any]) -> dict[str, Any]:
    """A batch line checked against :class:`BatchRecord` (as a plain dict)."""
    try:
        return BatchRecord.model_validate(record).model_dump()
    except ValidationError as exc:
        first = exc.errors()[0]
        where = ".".join(str(p) for p in first["loc"]) or "the record"
        raise FuzzLogError(f"{path}: line {number} is not a batch record ({where}: {first['msg']}); "
                           "the log is damaged (start a new campaign with another --log file)") from None


def read_log(path: Path) -> tuple[dict[str, Any], list[dict[str, Any]], list[str], int]:
    """Read a campaign log: ``(header, batch records, notes, bytes to keep)``.

    A last line that does not parse (a write cut short) is dropped with a
    note; ``bytes to keep`` is the length up to the end of the last good
    line (its newline included, when it has one).

    Raises:
        FuzzLogError: the file cannot be read, has no header, or a line
            other than the last is not a JSON object or not a batch record.
    """
    try:
        raw = Path(path).read_bytes()
    except OSError as exc:
        raise FuzzLogError(f"cannot read fuzz log {path}: {exc.strerror or exc}") from None
    lines, records, notes, keep = raw.split(b"\n"), [], [], 0
    if lines and lines[-1] == b"":
        lines.pop()
    for number, line in enumerate(lines, 1):
        try:
            record = json.loads(line)
            if not isinstance(record, dict) or not line.strip():
                raise ValueError("not a JSON object")
        except ValueError:
            if number < len(lines):
                raise FuzzLogError(f"{path}: line {number} is not a JSON object; the log is damaged "
                                   f"(start a new campaign with another --log file)") from None
            notes.append(f"{path}: ignored its last line {number} (an interrupted write)")
            break
        records.append(record if number == 1 else _batch(path, number, record))
        keep = min(keep + len(line) + 1, len(raw))  # the last line may lack its newline
    if not records or records[0].get("header") != "compoworld-fuzz":
        raise FuzzLogError(f"{path} is not a compoworld fuzz log (no header line); give a log written by --log")
    return records[0], records[1:], notes, keep


def logged_timeout(path: Path, header: dict[str, Any]) -> Optional[float]:
    """The action timeout a campaign's log was started with (seconds; None: no limit).

    Logs written before the header recorded it get the default limit
    (:class:`MachineConfig`'s, 10 s), which those campaigns ran with unless
    ``--action-timeout`` said otherwise.

    Raises:
        FuzzLogError: the header's value is not None or a number >= 0.
    """
    value = header.get("action_timeout", MachineConfig.action_timeout)
    if value is None or (isinstance(value, (int, float)) and not isinstance(value, bool) and value >= 0):
        return None if value is None else float(value)
    raise FuzzLogError(f"{path}: line 1 has action_timeout {value!r}, not a number of seconds >= 0 or null; "
                       "the log is damaged")


def check_settings(path: Path, header: dict[str, Any], settings: dict[str, Any], labels: list[str],
                   batches: list[dict[str, Any]], planned: Optional[set[tuple[int, int]]] = None) -> None:
    """Refuse to resume a log written with other :data:`SETTINGS`, targets or log version, or whose
    batch lines name targets the plan does not have, repeat a batch, or (``planned``: the
    ``(index, round)`` pairs of a finite plan) hold a batch the plan does not have.

    Raises:
        FuzzLogError: naming every setting that differs, or the first batch line that does not fit.
    """
    diff = [f"{k} {header.get(k)!r} (given {settings[k]!r})" for k in SETTINGS if header.get(k) != settings[k]]
    if diff:
        raise FuzzLogError(f"{path} was written with other settings: {', '.join(diff)}; resume with the log's "
                           "settings (leave those options out) or start a new log")
    if header.get("version") != LOG_VERSION or header.get("targets") != labels:
        raise FuzzLogError(f"{path} planned other targets (or another log version) than this version of "
                           "compoworld plans for its settings; start a new log")
    seen: set[tuple[int, int]] = set()
    for number, b in enumerate(batches, 2):
        key = (b["index"], b["round"])
        if b["index"] >= len(labels) or labels[b["index"]] != b["target"]:
            raise FuzzLogError(f"{path}: line {number} names target {b['target']!r} at index {b['index']}, "
                               f"which the log's plan of {len(labels)} targets does not have; the log is damaged")
        if key in seen or (planned is not None and key not in planned):
            why = "repeats a batch" if key in seen else "holds a batch its plan does not have"
            raise FuzzLogError(f"{path}: line {number} {why} ({b['target']}, round {b['round']}); the log is damaged")
        seen.add(key)


class LogWriter:
    """Appends batch records to a locked log, one flushed line each.

    Raises (constructor):
        FuzzLogError: a new log would overwrite a non-empty file, or another
            campaign holds the log's lock.
    """

    def __init__(self, path: Path, settings: dict[str, Any], labels: list[str], keep: Optional[int]) -> None:
        self.path = Path(path)
        if keep is None and self.path.exists() and self.path.stat().st_size:
            raise FuzzLogError(f"{path} already exists; continue its campaign with --resume {path}, "
                               "or give another --log file")
        self._fh: IO[bytes] = self.path.open("ab")
        try:
            self._lock()
            if keep is None:
                self._line({"header": "compoworld-fuzz", "version": LOG_VERSION, **settings, "targets": labels})
            else:
                self._fh.truncate(keep)  # drop a cut last line; only after the lock is held
                if keep and self.path.read_bytes()[keep - 1:keep] != b"\n":
                    self._fh.write(b"\n")  # a last good line without its newline
                    self._fh.flush()
        except BaseException:
            self._fh.close()
            raise

    def _lock(self) -> None:
        if fcntl is None:
            return
        try:
            fcntl.flock(self._fh.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            raise FuzzLogError(f"{self.path} is being written by another running campaign; wait for it to "
                               "end (or stop it) before resuming, or give another --log file") from None

    def _line(self, record: dict[str, Any]) -> None:
        self._fh.write(json.dumps(record).encode() + b"\n")
        self._fh.flush()

    def write(self, record: dict[str, Any]) -> None:
        """Append one batch record (validated as a :class:`BatchRecord`) and flush it."""
        self._line(BatchRecord.model_validate(record).model_dump())

    def close(self) -> None:
        """Flush, release the lock and close."""
        self._fh.close()
