"""Parsing one JSON Lines record into a pydantic model with located errors."""

from __future__ import annotations

from typing import TypeVar

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
