"""Records of the redis service: one typed record per key, and the pure
helpers its tools share (glob patterns, Redis list indexes, JSON paths).

A key holds exactly one Redis data type (``TYPE`` names it): a string, a
hash, a list, a set, a sorted set, a stream or a RedisJSON document. Its
expiry is an absolute time on the episode's logical clock (``expires_at``),
never wall-clock time: a key whose ``expires_at`` is at or before the
logical "now" is gone, as if Redis had expired it.
"""

from __future__ import annotations

import datetime as dt
import fnmatch
import re
from typing import Annotated, Any, Literal, Optional, Union

from pydantic import Field, JsonValue

from compoworld_gym.entities import DateTime
from compoworld_gym.errors import InvalidArgument
from compoworld_gym.service import Record, ServiceState

#: The names ``TYPE`` gives, by record type.
RedisType = Literal["string", "hash", "list", "set", "zset", "stream", "ReJSON-RL"]
#: A value Redis takes from a client: strings, integers and floats (stored as their text).
Scalar = Union[str, int, float]
#: Largest TTL a tool accepts (10 years, in seconds): a bigger one would overflow the clock.
MAX_TTL_S = 315_360_000
_EPOCH = dt.datetime(1970, 1, 1)


class _Key(Record):
    key: str = Field(description="The key name, e.g. session:ann.lee@example.com.")
    expires_at: Optional[DateTime] = Field(default=None, description=(
        "When the key expires on the logical clock (None: it never expires)."))


class StringKey(_Key):
    """A string value (``SET``/``GET``)."""

    type: Literal["string"] = "string"
    value: str = Field(description="The stored text.")


class HashKey(_Key):
    """A hash: field -> text (``HSET``/``HGETALL``)."""

    type: Literal["hash"] = "hash"
    value: dict[str, str] = Field(description="Fields and their text values.")


class ListKey(_Key):
    """A list of texts, head (left) first (``LPUSH``/``LRANGE``)."""

    type: Literal["list"] = "list"
    value: list[str] = Field(description="The elements, left to right.")


class SetKey(_Key):
    """A set of texts, kept sorted so that every listing is deterministic (``SADD``/``SMEMBERS``)."""

    type: Literal["set"] = "set"
    value: list[str] = Field(description="The members, sorted, no repeats.")


class ZSetKey(_Key):
    """A sorted set: member -> score (``ZADD``/``ZRANGE``)."""

    type: Literal["zset"] = "zset"
    value: dict[str, float] = Field(description="Members and their scores.")


class StreamEntry(Record):
    """One stream entry: an id ``<ms>-<seq>`` and its fields."""

    id: str = Field(description="Entry id, <milliseconds since epoch>-<sequence>.")
    fields: dict[str, str] = Field(description="The entry's fields and text values.")


class StreamKey(_Key):
    """A stream: entries in id order (``XADD``/``XRANGE``)."""

    type: Literal["stream"] = "stream"
    value: list[StreamEntry] = Field(description="Entries, oldest first.")
    last_id: str = Field(default="0-0", description="The greatest id ever added (ids only grow).")


class JsonKey(_Key):
    """A RedisJSON document (``JSON.SET``/``JSON.GET``)."""

    type: Literal["ReJSON-RL"] = "ReJSON-RL"
    value: JsonValue = Field(description="The JSON document.")


RedisValue = Annotated[Union[StringKey, HashKey, ListKey, SetKey, ZSetKey, StreamKey, JsonKey],
                       Field(discriminator="type")]


class RedisState(ServiceState):
    """Database 0 of one Redis server."""

    keys: dict[str, RedisValue] = Field(default_factory=dict, description="Keys by name (expired ones included).")


# ------------------------------------------------------------------ helpers


def text(value: Scalar) -> str:
    """How Redis stores a client value: its text (``5`` -> ``"5"``, ``2.5`` -> ``"2.5"``)."""
    return value if isinstance(value, str) else repr(value)


def stream_ms(at: dt.datetime) -> int:
    """Milliseconds since the Unix epoch of a logical-clock time (read as UTC, never the host's zone)."""
    return int((at - _EPOCH).total_seconds() * 1000)


def glob_match(pattern: str, key: str) -> bool:
    """Whether ``key`` matches a Redis glob (``*``, ``?``, ``[abc]``, ``[^a]``, ``\\`` escapes), case-sensitive."""
    return fnmatch.fnmatchcase(key, pattern.replace("[^", "[!"))


def list_slice(n: int, start: int, stop: int) -> tuple[int, int]:
    """``LRANGE``/``ZRANGE`` index semantics: inclusive ``start..stop``, negatives from the end,
    out-of-range clipped. Returns a Python ``[a:b]`` slice (empty when ``a >= b``)."""
    a = start + n if start < 0 else start
    b = stop + n if stop < 0 else stop
    return max(a, 0), min(b, n - 1) + 1


# ----------------------------------------------------------------- JSON paths
_SEGMENT = re.compile(r"\.([A-Za-z_$][\w$-]*)|\[(-?\d+)\]|\[\s*'([^']*)'\s*\]|\[\s*\"([^\"]*)\"\s*\]")


def json_path(path: str) -> list[Union[str, int]]:
    """The steps of a JSON path: ``$`` (or ``.``) is the root; ``$.cart.items[0]['sku']`` ->
    ``["cart", "items", 0, "sku"]``. Legacy paths without ``$`` (``.a.b``, ``a.b``) work too.

    Raises:
        InvalidArgument: wildcards, filters, recursive descent or a malformed path (400).
    """
    p = path.strip()
    if p in ("$", ".", ""):
        return []
    if "*" in p or ".." in p or "?(" in p:
        raise InvalidArgument(f"JSON path {path!r}: wildcards, filters and '..' are not supported; "
                              "give one plain path such as $.features.checkout.")
    if p.startswith("$"):
        p = p[1:]
    elif not p.startswith((".", "[")):
        p = "." + p
    steps: list[Union[str, int]] = []
    pos = 0
    while pos < len(p):
        m = _SEGMENT.match(p, pos)
        if m is None:
            raise InvalidArgument(f"JSON path {path!r} is malformed at {p[pos:]!r}; use $.field.sub[0].")
        name, index, q1, q2 = m.groups()
        steps.append(int(index) if index is not None else name if name is not None else (q1 if q1 is not None else q2))
        pos = m.end()
    return steps


def json_walk(doc: Any, steps: list[Union[str, int]]) -> tuple[bool, Any]:
    """``(found, value)`` at ``steps`` inside ``doc``."""
    node = doc
    for step in steps:
        if isinstance(step, int) and isinstance(node, list) and -len(node) <= step < len(node):
            node = node[step]
        elif isinstance(step, str) and isinstance(node, dict) and step in node:
            node = node[step]
        else:
            return False, None
    return True, node
