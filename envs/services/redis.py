"""Redis: a deterministic Redis database 0, seeded as the storefront's cache and session store.

Follows the MCP server ``@redis_mcp-redis`` (the official Redis MCP server):
same tool names and parameters. Keys are typed (string, hash, list, set,
sorted set, stream, RedisJSON document); a command on a key of another type
is refused with Redis's ``WRONGTYPE`` error (409). Expiry runs on the
episode's logical clock: every write happens one minute after the previous
one from 09:00 of the episode's day, a key's expiry is stored as an absolute
time on that clock, and an expired key behaves as if it did not exist (it is
never counted, scanned or read; a write to it starts a new key). As in
Redis, ``SET`` replaces a key of any type and clears its expiry, the other
writes keep the expiry unless given a new one, and a hash, list, set or
sorted set that loses its last element is deleted. Missing keys, fields,
members and entries are 404s (Redis answers nil or 0), so that a failed
write changes nothing. Stream ids are ``<ms>-<seq>`` on the logical clock.
JSON paths are plain paths (``$``, ``$.a.b``, ``$.items[0]``, legacy
``.a.b``): no wildcards or filters.

Seed: the storefront's sessions (``session:<customer email>``, pointing to
the customer's ``cart:CRT-…`` hash with its total), login lockouts, API
rate-limit counters, per-application config documents (``config:<app>``,
the apps of the shared engineering catalog, naming their owner), the online
set, the month's best sellers, the e-mail job queue, the order and audit
streams (``_redis_seed``).

Implemented (35): dbsize, info, client_list, delete, type, expire, rename,
scan_keys, scan_all_keys, set, get, hset, hget, hdel, hgetall, hexists,
lpush, rpush, lpop, rpop, lrange, llen, sadd, srem, smembers, zadd, zrange,
zrem, json_set, json_get, json_del, xadd, xrange, xdel; designed: ttl (the
spec has no way to read an expiry). Left out: the RediSearch index and
vector tools (get_indexes, get_index_info, get_indexed_keys_number,
create_vector_index_hash, vector_search_hash, set_vector_in_hash,
get_vector_from_hash: they need embeddings from a model outside the world
and a vector index, and no business record depends on them) and pub/sub
(publish, subscribe, unsubscribe: fire-and-forget messages to connected
listeners leave no state, and a request/response tool call can never receive
a subscribed message).
"""

from __future__ import annotations

import copy
import datetime as dt
import random
from typing import Any, Optional

from faker import Faker
from pydantic import Field, JsonValue

from compoworld_gym.envs.services._redis_base import TTL, KeyName, RedisBase, ttl_field
from compoworld_gym.envs.services._redis_models import (
    ListKey, JsonKey, RedisState, Scalar, SetKey, StreamEntry, StreamKey, ZSetKey, json_path, json_walk, list_slice,
    stream_ms, text,
)
from compoworld_gym.envs.services._redis_seed import build_state
from compoworld_gym.errors import NotFound, Unprocessable
from compoworld_gym.service import tool

def _index() -> Any:
    """A list index argument (negative counts from the end)."""
    return Field(ge=-1_000_000, le=1_000_000)


class Redis(RedisBase):
    """A deterministic Redis: typed keys, logical-clock TTLs, glob scans, WRONGTYPE errors."""

    name = "redis"
    description = ("Redis cache and session store of the storefront: customer sessions and carts, lockouts, rate "
                   "limits, app config JSON, sets, sorted sets, lists and streams, with expiring keys.")
    domain = "data"
    spec_source = "@redis_mcp-redis"
    designed_tools = frozenset({"ttl"})
    State = RedisState

    @classmethod
    def build_seed_state(cls, fake: Faker, rng: random.Random, today: dt.date) -> RedisState:
        return build_state(fake, rng, today)

    # ------------------------------------------------------------------ lists
    def _push(self, name: str, value: Scalar, expire: Optional[int], left: bool) -> dict:
        at = self._tick()
        rec = self._fresh(name, ListKey, value=[])
        items = [text(value), *rec.value] if left else [*rec.value, text(value)]
        self._write(rec.model_copy(update={"value": items}), expire, at)
        return {"key": name, "length": len(items)}

    @tool(read_only=False)
    def lpush(self, name: KeyName = Field(min_length=1), value: Scalar = Field(), expire: TTL = ttl_field()) -> dict:
        """Push a value onto the left of a Redis list and optionally set an expiration time.

        Args:
            name: The Redis list key.
            value: The value to push.
            expire: Optional; seconds after which the list expires (else its expiry is kept).
        """
        return self._push(name, value, expire, True)

    @tool(read_only=False)
    def rpush(self, name: KeyName = Field(min_length=1), value: Scalar = Field(), expire: TTL = ttl_field()) -> dict:
        """Push a value onto the right of a Redis list and optionally set an expiration time.

        Args:
            name: The Redis list key.
            value: The value to push.
            expire: Optional; seconds after which the list expires (else its expiry is kept).
        """
        return self._push(name, value, expire, False)

    def _pop(self, name: str, left: bool) -> dict:
        at = self._tick()
        rec = self._need(name, ListKey)
        value = rec.value[0] if left else rec.value[-1]
        rec = rec.model_copy(update={"value": rec.value[1:] if left else rec.value[:-1]})
        self._write(rec, None, at)
        self._drop_if_empty(rec)
        return {"key": name, "value": value, "length": len(rec.value)}

    @tool(read_only=False, destructive=True)
    def lpop(self, name: KeyName) -> dict:
        """Remove and return the first element from a Redis list.

        Args:
            name: The Redis list key.
        """
        return self._pop(name, True)

    @tool(read_only=False, destructive=True)
    def rpop(self, name: KeyName) -> dict:
        """Remove and return the last element from a Redis list.

        Args:
            name: The Redis list key.
        """
        return self._pop(name, False)

    @tool(read_only=True)
    def lrange(self, name: KeyName, start: int = _index(), stop: int = _index()) -> list[str]:
        """Get elements from a Redis list within a specific range (inclusive; -1 is the last element).

        Args:
            name: The Redis list key.
            start: First index (negative counts from the end).
            stop: Last index, inclusive (e.g. -1 for the whole list).
        """
        rec = self._need(name, ListKey)
        a, b = list_slice(len(rec.value), start, stop)
        return rec.value[a:b]

    @tool(read_only=True)
    def llen(self, name: KeyName) -> dict:
        """Get the length of a Redis list (0 when it does not exist).

        Args:
            name: The Redis list key.
        """
        rec = self._typed(name, ListKey)
        return {"key": name, "length": len(rec.value) if rec else 0}

    # ------------------------------------------------------------------- sets
    @tool(read_only=False)
    def sadd(self, name: KeyName = Field(min_length=1), value: str = Field(),
             expire_seconds: TTL = ttl_field()) -> dict:
        """Add a value to a Redis set with an optional expiration time.

        Args:
            name: The Redis set key.
            value: The value to add to the set.
            expire_seconds: Optional; seconds after which the set expires (else its expiry is kept).
        """
        at = self._tick()
        rec = self._fresh(name, SetKey, value=[])
        added = value not in rec.value
        self._write(rec.model_copy(update={"value": sorted({*rec.value, value})}), expire_seconds, at)
        return {"key": name, "value": value, "added": int(added)}

    @tool(read_only=False, destructive=True)
    def srem(self, name: KeyName, value: str) -> dict:
        """Remove a value from a Redis set (the set is deleted with its last member).

        Args:
            name: The Redis set key.
            value: The value to remove from the set.
        """
        at = self._tick()
        rec = self._need(name, SetKey)
        if value not in rec.value:
            raise NotFound(f"{value!r} is not a member of set {name!r}; read it with smembers.")
        rec = rec.model_copy(update={"value": [v for v in rec.value if v != value]})
        self._write(rec, None, at)
        return {"key": name, "removed": 1, "key_deleted": self._drop_if_empty(rec)}

    @tool(read_only=True)
    def smembers(self, name: KeyName) -> list[str]:
        """Get all members of a Redis set (sorted).

        Args:
            name: The Redis set key.
        """
        return list(self._need(name, SetKey).value)

    # ------------------------------------------------------------ sorted sets
    @tool(read_only=False)
    def zadd(self, key: KeyName = Field(min_length=1), score: float = Field(ge=-1e15, le=1e15),
             member: str = Field(), expiration: TTL = ttl_field()) -> dict:
        """Add a member to a Redis sorted set (or update its score) with an optional expiration time.

        Args:
            key: The sorted set key.
            score: The score of the member.
            member: The member to add.
            expiration: Optional; seconds after which the sorted set expires.
        """
        at = self._tick()
        rec = self._fresh(key, ZSetKey, value={})
        added = member not in rec.value
        self._write(rec.model_copy(update={"value": {**rec.value, member: float(score)}}), expiration, at)
        return {"key": key, "member": member, "score": float(score), "added": int(added)}

    @tool(read_only=True)
    def zrange(self, key: KeyName, start: int = _index(), end: int = _index(), with_scores: bool = False) -> list:
        """Retrieve a range of members from a Redis sorted set, lowest score first (ties by member).

        Args:
            key: The sorted set key.
            start: The starting index (negative counts from the end).
            end: The ending index, inclusive (-1 for the last).
            with_scores: Whether to include the scores ([member, score] pairs).
        """
        rec = self._need(key, ZSetKey)
        ranked = sorted(rec.value.items(), key=lambda ms: (ms[1], ms[0]))
        a, b = list_slice(len(ranked), start, end)
        return [[m, s] for m, s in ranked[a:b]] if with_scores else [m for m, _ in ranked[a:b]]

    @tool(read_only=False, destructive=True)
    def zrem(self, key: KeyName, member: str) -> dict:
        """Remove a member from a Redis sorted set.

        Args:
            key: The sorted set key.
            member: The member to remove.
        """
        at = self._tick()
        rec = self._need(key, ZSetKey)
        if member not in rec.value:
            raise NotFound(f"{member!r} is not a member of sorted set {key!r}; read it with zrange.")
        rec = rec.model_copy(update={"value": {m: s for m, s in rec.value.items() if m != member}})
        self._write(rec, None, at)
        return {"key": key, "removed": 1, "key_deleted": self._drop_if_empty(rec)}

    # ------------------------------------------------------------------- JSON
    @tool(read_only=False)
    def json_set(self, name: KeyName = Field(min_length=1), path: str = Field(), value: JsonValue = Field(),
                 expire_seconds: TTL = ttl_field()) -> dict:
        """Set a JSON value in Redis at a given path with an optional expiration time.

        A new key must be created at the root ($); a nested path needs its parent to exist.

        Args:
            name: The Redis key where the JSON document is stored.
            path: The JSON path where the value should be set ($ for the whole document, $.a.b, $.items[0]).
            value: The JSON value to store.
            expire_seconds: Optional; seconds after which the document expires (else its expiry is kept).
        """
        steps, at = json_path(path), self._tick()
        rec = self._typed(name, JsonKey)
        if not steps:
            self._write(JsonKey(key=name, value=value, expires_at=rec.expires_at if rec else None), expire_seconds, at)
            return {"status": "OK", "key": name, "path": path}
        if rec is None:
            raise Unprocessable(f"ERR new objects must be created at the root: {name!r} does not exist; "
                                "set the whole document at path $ first.")
        doc = copy.deepcopy(rec.value)
        found, parent = json_walk(doc, steps[:-1])
        last = steps[-1]
        if not found or not isinstance(parent, (dict, list)):
            raise NotFound(f"the parent of {path!r} does not exist in {name!r} (or is not an object or array).")
        if isinstance(parent, dict) != isinstance(last, str) or (
                isinstance(parent, list) and not -len(parent) <= last < len(parent)):
            raise Unprocessable(f"{path!r} does not fit the document: use a field name on an object and an "
                                "index inside the array's length on an array.")
        parent[last] = value
        self._write(rec.model_copy(update={"value": doc}), expire_seconds, at)
        return {"status": "OK", "key": name, "path": path}

    @tool(read_only=True)
    def json_get(self, name: KeyName, path: str = "$") -> Any:
        """Retrieve a JSON value from Redis at a given path.

        Args:
            name: The Redis key where the JSON document is stored.
            path: The JSON path to retrieve (default: root '$').
        """
        found, value = json_walk(self._need(name, JsonKey).value, json_path(path))
        if not found:
            raise NotFound(f"path {path!r} does not exist in {name!r}; read the document at $ first.")
        return value

    @tool(read_only=False, destructive=True)
    def json_del(self, name: KeyName, path: str = "$") -> dict:
        """Delete a JSON value from Redis at a given path ($ deletes the whole key).

        Args:
            name: The Redis key where the JSON document is stored.
            path: The JSON path to delete (default: root '$').
        """
        at = self._tick()
        rec, steps = self._need(name, JsonKey), json_path(path)
        if not steps:
            del self.state.keys[name]
            return {"deleted": 1, "key": name, "path": path}
        doc = copy.deepcopy(rec.value)
        found, parent = json_walk(doc, steps[:-1])
        hit, _ = json_walk(doc, steps)
        if not (found and hit):
            raise NotFound(f"path {path!r} does not exist in {name!r}; nothing was deleted.")
        del parent[steps[-1]]
        self._write(rec.model_copy(update={"value": doc}), None, at)
        return {"deleted": 1, "key": name, "path": path}

    # ---------------------------------------------------------------- streams
    @tool(read_only=False)
    def xadd(self, key: KeyName = Field(min_length=1), fields: dict[str, Scalar] = Field(min_length=1),
             expiration: TTL = ttl_field()) -> dict:
        """Add an entry to a Redis stream (id <ms>-<seq> on the logical clock) with an optional expiration time.

        Args:
            key: The stream key.
            fields: The fields and values for the stream entry (at least one).
            expiration: Optional; seconds after which the stream expires.
        """
        at = self._tick()
        rec = self._fresh(key, StreamKey, value=[])
        ms, seq = stream_ms(at), 0
        last_ms, last_seq = (int(p) for p in rec.last_id.split("-"))
        if ms <= last_ms:
            ms, seq = last_ms, last_seq + 1
        entry = StreamEntry(id=f"{ms}-{seq}", fields={f: text(v) for f, v in fields.items()})
        rec = rec.model_copy(update={"value": [*rec.value, entry], "last_id": entry.id})
        if expiration is not None:
            rec.expires_at = at + dt.timedelta(seconds=expiration)
        self.state.keys[key] = rec
        return {"key": key, "id": entry.id, "length": len(rec.value)}

    @tool(read_only=True)
    def xrange(self, key: KeyName, count: int = Field(default=1, ge=1, le=10000)) -> list[dict]:
        """Read entries from a Redis stream, oldest first.

        Args:
            key: The stream key.
            count: Number of entries to retrieve (from the oldest).
        """
        return [e.model_dump() for e in self._need(key, StreamKey).value[:count]]

    @tool(read_only=False, destructive=True)
    def xdel(self, key: KeyName, entry_id: str) -> dict:
        """Delete an entry from a Redis stream.

        Args:
            key: The stream key.
            entry_id: The ID of the entry to delete, e.g. 1768467600000-0.
        """
        at = self._tick()
        rec = self._need(key, StreamKey)
        if not any(e.id == entry_id for e in rec.value):
            raise NotFound(f"stream {key!r} has no entry {entry_id!r}; read its ids with xrange.")
        self._write(rec.model_copy(update={"value": [e for e in rec.value if e.id != entry_id]}), None, at)
        return {"key": key, "deleted": 1, "entry_id": entry_id}


__all__ = ["Redis"]
