"""The shared part of the redis service: the key helpers (logical-clock
expiry, WRONGTYPE checks) and the server, key, string and hash tools. The
list, set, sorted-set, JSON and stream tools are in ``redis.py``, which
documents the spec it follows and what it leaves out.
"""

from __future__ import annotations

import datetime as dt
from typing import Any, Optional, TypeVar

import orjson
from pydantic import Field

from compoworld_gym.entities import Id
from compoworld_gym.envs.services._redis_models import (
    MAX_TTL_S, HashKey, JsonKey, RedisState, Scalar, StreamKey, StringKey, _Key, glob_match, text,
)
from compoworld_gym.errors import Conflict, InvalidArgument, NotFound
from compoworld_gym.service import DAY_START, Service, tool

K = TypeVar("K", bound=_Key)
KeyName = Id("cache_key")
TTL = Optional[int]
_SECTIONS = ("server", "clients", "memory", "keyspace")
_COMMANDS = {"string": "get", "hash": "hgetall", "list": "lrange", "set": "smembers", "zset": "zrange",
             "stream": "xrange", "ReJSON-RL": "json_get"}


def ttl_field() -> Any:
    """An optional expiry argument: 1 second to 10 years, None for no change."""
    return Field(default=None, ge=1, le=MAX_TTL_S)


class RedisBase(Service, register=False):
    """Key helpers of the redis service, and its server, key, string and hash tools."""

    State = RedisState

    # ---------------------------------------------------------------- helpers
    def _clock(self) -> dt.datetime:
        """Logical "now" for reads: the time of the latest write (09:00 before any)."""
        return dt.datetime.combine(self.today, DAY_START) + dt.timedelta(minutes=max(self.state.clock - 1, 0))

    def _live(self, key: str) -> Optional[_Key]:
        """The key's record, or None when it is missing or has expired."""
        rec = self.state.keys.get(key)
        if rec is None or (rec.expires_at is not None and rec.expires_at <= self._clock()):
            return None
        return rec

    def _typed(self, key: str, cls: type[K]) -> Optional[K]:
        """The live key as ``cls``, None when missing.

        Raises:
            Conflict: 409 WRONGTYPE when the key holds another data type.
        """
        rec = self._live(key)
        if rec is not None and not isinstance(rec, cls):
            raise Conflict(f"WRONGTYPE Operation against a key holding the wrong kind of value: {key!r} is a "
                           f"{rec.type}; read it with {_COMMANDS[rec.type]}.")
        return rec

    def _need(self, key: str, cls: type[K]) -> K:
        """The live key as ``cls``.

        Raises:
            NotFound: 404 when the key does not exist (or has expired).
            Conflict: 409 WRONGTYPE.
        """
        rec = self._typed(key, cls)
        if rec is None:
            raise NotFound(f"key {key!r} does not exist (or has expired); use scan_keys to find keys.")
        return rec

    def _tick(self) -> dt.datetime:
        """Start a write: the logical clock moves to the write's minute (reads then see that time),
        so a key that expires by then is already gone for the write. Returns the write's time."""
        return self.now()

    def _write(self, rec: _Key, ttl: Optional[int], at: dt.datetime, keep_ttl: bool = True) -> dt.datetime:
        """Store ``rec`` written at ``at``; ``ttl`` seconds set its expiry, None keeps it
        (``keep_ttl``) or clears it. Returns ``at``."""
        if ttl is not None:
            rec.expires_at = at + dt.timedelta(seconds=ttl)
        elif not keep_ttl:
            rec.expires_at = None
        self.state.keys[rec.key] = rec
        return at

    def _fresh(self, key: str, cls: type[K], **value: Any) -> K:
        """The live ``cls`` key, or a new empty one (an expired record is replaced)."""
        return self._typed(key, cls) or cls(key=key, **value)

    def _drop_if_empty(self, rec: _Key) -> bool:
        """Redis deletes a hash, list, set or sorted set that loses its last element; True if it did."""
        if not isinstance(rec, (StreamKey, JsonKey, StringKey)) and not rec.value:
            del self.state.keys[rec.key]
            return True
        return False

    def _keys(self, pattern: str) -> list[str]:
        clock = self._clock()
        return sorted(k for k, r in self.state.keys.items()
                      if (r.expires_at is None or r.expires_at > clock) and glob_match(pattern, k))

    # ----------------------------------------------------------------- server
    @tool(read_only=True)
    def dbsize(self) -> dict:
        """Get the number of keys stored in the Redis database (expired keys do not count)."""
        return {"dbsize": len(self._keys("*"))}

    @tool(read_only=True)
    def info(self, section: str = "default") -> dict:
        """Get Redis server information and statistics.

        Args:
            section: server, clients, memory, keyspace, or default/all (every section).
        """
        wanted = _SECTIONS if section in ("default", "all", "everything") else (section,)
        if any(s not in _SECTIONS for s in wanted):
            raise InvalidArgument(f"unknown INFO section {section!r}; use one of {', '.join(_SECTIONS)}, default.")
        live = [self.state.keys[k] for k in self._keys("*")]
        used = sum(len(r.key) + len(orjson.dumps(r.model_dump(mode="json")["value"])) + 56 for r in live)
        clock = self._clock()
        ttls = [(r.expires_at - clock).total_seconds() * 1000 for r in live if r.expires_at is not None]
        out = {"server": {"redis_version": "7.4.2", "redis_mode": "standalone", "os": "Linux 6.8.0 x86_64",
                          "tcp_port": 6379, "uptime_in_days": 41},
               "clients": {"connected_clients": len(self._clients()), "blocked_clients": 0, "maxclients": 10000},
               "memory": {"used_memory": used, "used_memory_human": f"{used / 1024:.2f}K",
                          "maxmemory_policy": "volatile-lru"},
               "keyspace": {"db0": {"keys": len(live), "expires": len(ttls),
                                    "avg_ttl": int(sum(ttls) / len(ttls)) if ttls else 0}}}
        return {s: out[s] for s in wanted}

    @staticmethod
    def _clients() -> list[dict]:
        return [{"id": 7, "addr": "10.0.4.17:52114", "name": "mcp-redis", "db": 0, "cmd": "client|list"},
                {"id": 3, "addr": "10.0.2.31:40712", "name": "web-frontend", "db": 0, "cmd": "hgetall"},
                {"id": 4, "addr": "10.0.2.32:40998", "name": "checkout-api", "db": 0, "cmd": "hset"}]

    @tool(read_only=True)
    def client_list(self) -> list[dict]:
        """Get a list of connected clients to the Redis server."""
        return self._clients()

    # ------------------------------------------------------------------- keys
    @tool(read_only=False, destructive=True)
    def delete(self, key: KeyName) -> dict:
        """Delete a Redis key (any type).

        Args:
            key: The key to delete.
        """
        self._tick()
        if self._live(key) is None:
            raise NotFound(f"key {key!r} does not exist (or has expired); nothing was deleted.")
        del self.state.keys[key]
        return {"deleted": 1, "key": key}

    @tool(read_only=True, name="type")
    def type_(self, key: KeyName) -> dict:
        """Returns the string representation of the type of the value stored at key: string, hash,
        list, set, zset, stream, ReJSON-RL, or none when the key does not exist.

        Args:
            key: The key to check.
        """
        rec = self._live(key)
        return {"key": key, "type": rec.type if rec is not None else "none"}

    @tool(read_only=False)
    def expire(self, name: KeyName, expire_seconds: int = Field(ge=1, le=MAX_TTL_S)) -> dict:
        """Set an expiration time for a Redis key (seconds from now on the logical clock).

        Args:
            name: The Redis key.
            expire_seconds: Time in seconds after which the key should expire (1 or more).
        """
        at = self._tick()
        rec = self._live(name)
        if rec is None:
            raise NotFound(f"key {name!r} does not exist (or has expired); no expiry was set.")
        self._write(rec, expire_seconds, at)
        return {"key": name, "expires_at": at + dt.timedelta(seconds=expire_seconds), "ttl": expire_seconds}

    @tool(read_only=True)
    def ttl(self, key: KeyName) -> dict:
        """The time to live of a key in seconds: -1 when it never expires, -2 when it does not exist.

        Args:
            key: The key to check.
        """
        rec = self._live(key)
        if rec is None:
            return {"key": key, "ttl": -2}
        if rec.expires_at is None:
            return {"key": key, "ttl": -1}
        return {"key": key, "ttl": int((rec.expires_at - self._clock()).total_seconds()), "expires_at": rec.expires_at}

    @tool(read_only=False, destructive=True)
    def rename(self, old_key: KeyName, new_key: KeyName = Field(min_length=1)) -> dict:
        """Renames a Redis key from old_key to new_key (an existing new_key is overwritten; the TTL moves with it).

        Args:
            old_key: The current name of the Redis key to rename.
            new_key: The new name to assign to the key.
        """
        self._tick()
        rec = self._live(old_key)
        if rec is None:
            raise NotFound(f"ERR no such key: {old_key!r} does not exist (or has expired).")
        if new_key != old_key:
            del self.state.keys[old_key]
            self.state.keys[new_key] = rec.model_copy(update={"key": new_key})
        return {"status": "success", "old_key": old_key, "new_key": new_key}

    @tool(read_only=True)
    def scan_keys(self, pattern: str = "*", count: int = Field(default=100, ge=1, le=1000),
                  cursor: int = Field(default=0, ge=0)) -> dict:
        """Scan keys in the Redis database using the SCAN command (one iteration, partial results).

        Keys are walked in name order; each call looks at ``count`` keys from ``cursor`` and
        returns those matching ``pattern`` and the next cursor (0 when the scan is complete).

        Args:
            pattern: Redis glob: * any run, ? one character, [abc] a class (e.g. session:*).
            count: How many keys to look at in this iteration.
            cursor: 0 to start, else the cursor the previous call returned.
        """
        every = self._keys("*")
        part = every[cursor:cursor + count]
        nxt = cursor + count if cursor + count < len(every) else 0
        return {"cursor": nxt, "keys": [k for k in part if glob_match(pattern, k)], "total_scanned": len(part),
                "scan_complete": nxt == 0}

    @tool(read_only=True)
    def scan_all_keys(self, pattern: str = "*", batch_size: int = Field(default=100, ge=1, le=10000)) -> list[str]:
        """Scan and return ALL keys matching a pattern (every SCAN iteration), in name order.

        Args:
            pattern: Redis glob, e.g. cart:* or session:*@example.com.
            batch_size: Keys per SCAN iteration (does not change the result).
        """
        return self._keys(pattern)

    # ---------------------------------------------------------------- strings
    @tool(read_only=False, name="set")
    def set_(self, key: KeyName = Field(min_length=1), value: Scalar = Field(),
             expiration: TTL = ttl_field()) -> dict:
        """Set a Redis string value with an optional expiration time (SET replaces a key of any type
        and clears its old expiry).

        Args:
            key: The key to set.
            value: The value to store (numbers are stored as their text).
            expiration: Expiration time in seconds.
        """
        rec = StringKey(key=key, value=text(value))
        self._write(rec, expiration, self._tick(), keep_ttl=False)
        return {"status": "OK", "key": key, "value": rec.value, "expires_at": rec.expires_at}

    @tool(read_only=True)
    def get(self, key: KeyName) -> dict:
        """Get a Redis string value.

        Args:
            key: The key to retrieve.
        """
        return {"key": key, "value": self._need(key, StringKey).value}

    # ----------------------------------------------------------------- hashes
    @tool(read_only=False)
    def hset(self, name: KeyName = Field(min_length=1), key: str = Field(min_length=1), value: Scalar = Field(),
             expire_seconds: TTL = ttl_field()) -> dict:
        """Set a field in a hash stored at key with an optional expiration time for the whole hash.

        Args:
            name: The Redis hash key.
            key: The field name inside the hash.
            value: The value to set (numbers are stored as their text).
            expire_seconds: Optional; time in seconds after which the hash expires (else its expiry is kept).
        """
        at = self._tick()
        rec = self._fresh(name, HashKey, value={})
        added = key not in rec.value
        rec = rec.model_copy(update={"value": {**rec.value, key: text(value)}})
        self._write(rec, expire_seconds, at)
        return {"key": name, "field": key, "value": text(value), "added": int(added)}

    @tool(read_only=True)
    def hget(self, name: KeyName, key: str) -> dict:
        """Get the value of a field in a Redis hash.

        Args:
            name: The Redis hash key.
            key: The field name inside the hash.
        """
        rec = self._need(name, HashKey)
        if key not in rec.value:
            raise NotFound(f"hash {name!r} has no field {key!r}; its fields are: {', '.join(sorted(rec.value))}.")
        return {"key": name, "field": key, "value": rec.value[key]}

    @tool(read_only=False, destructive=True)
    def hdel(self, name: KeyName, key: str) -> dict:
        """Delete a field from a Redis hash (the hash is deleted with its last field).

        Args:
            name: The Redis hash key.
            key: The field name inside the hash.
        """
        at = self._tick()
        rec = self._need(name, HashKey)
        if key not in rec.value:
            raise NotFound(f"hash {name!r} has no field {key!r}; nothing was deleted.")
        rec = rec.model_copy(update={"value": {f: v for f, v in rec.value.items() if f != key}})
        self._write(rec, None, at)
        return {"key": name, "field": key, "deleted": 1, "key_deleted": self._drop_if_empty(rec)}

    @tool(read_only=True)
    def hgetall(self, name: KeyName) -> dict:
        """Get all fields and values from a Redis hash.

        Args:
            name: The Redis hash key.
        """
        return dict(sorted(self._need(name, HashKey).value.items()))

    @tool(read_only=True)
    def hexists(self, name: KeyName, key: str) -> dict:
        """Check if a field exists in a Redis hash (false when the hash does not exist).

        Args:
            name: The Redis hash key.
            key: The field name inside the hash.
        """
        rec = self._typed(name, HashKey)
        return {"key": name, "field": key, "exists": rec is not None and key in rec.value}
