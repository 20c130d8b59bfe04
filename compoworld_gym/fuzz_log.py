"""The JSON-lines log of a fuzz campaign (``compoworld fuzz --log F`` / ``--resume F``).

Line 1 is a header with the campaign's settings and planned targets
(``{"header": "compoworld-fuzz", "version": 1, "seed", "steps", ...,
"targets": [...]}``); every later line is one finished batch, written and
flushed as it finishes, so an interrupted campaign keeps what it did.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import IO, Any, Optional

#: Version of the log format (the header's ``version``).
LOG_VERSION = 1
#: Header fields a resumed campaign must share with its log.
SETTINGS = ("seed", "steps", "include", "services", "examples", "minutes", "batch")


class FuzzLogError(ValueError):
    """A log that cannot be resumed: unreadable, damaged before its end, or of other settings."""


def read_log(path: Path) -> tuple[dict[str, Any], list[dict[str, Any]], list[str], int]:
    """Read a campaign log: ``(header, batch records, notes, bytes to keep)``.

    A last line that does not parse (a write cut short) is dropped with a
    note; ``bytes to keep`` is the length up to the last good line.

    Raises:
        FuzzLogError: the file cannot be read, has no header, or a line
            other than the last is not a JSON object.
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
        records.append(record)
        keep += len(line) + 1
    if not records or records[0].get("header") != "compoworld-fuzz":
        raise FuzzLogError(f"{path} is not a compoworld fuzz log (no header line); give a log written by --log")
    return records[0], records[1:], notes, keep


def check_settings(path: Path, header: dict[str, Any], settings: dict[str, Any], labels: list[str]) -> None:
    """Refuse to resume a log written with other :data:`SETTINGS`, targets or log version.

    Raises:
        FuzzLogError: naming every setting that differs.
    """
    diff = [f"{k} {header.get(k)!r} (given {settings[k]!r})" for k in SETTINGS if header.get(k) != settings[k]]
    if diff:
        raise FuzzLogError(f"{path} was written with other settings: {', '.join(diff)}; resume with the log's "
                           "settings (leave those options out) or start a new log")
    if header.get("version") != LOG_VERSION or header.get("targets") != labels:
        raise FuzzLogError(f"{path} planned other targets (or another log version) than this version of "
                           "compoworld plans for its settings; start a new log")


def open_log(path: Path, settings: dict[str, Any], labels: list[str], keep: Optional[int]) -> IO[str]:
    """The log opened for appending: a new one with its header, or (``keep``) a resumed one cut to its
    last good line.

    Raises:
        FuzzLogError: a new log would overwrite an existing, non-empty file.
    """
    if keep is None:
        if path.exists() and path.stat().st_size:
            raise FuzzLogError(f"{path} already exists; continue its campaign with --resume {path}, "
                               "or give another --log file")
        fh = path.open("w", encoding="utf-8")
        fh.write(json.dumps({"header": "compoworld-fuzz", "version": LOG_VERSION, **settings,
                             "targets": labels}) + "\n")
        fh.flush()
        return fh
    with path.open("r+b") as raw:
        raw.truncate(keep)
    return path.open("a", encoding="utf-8")
