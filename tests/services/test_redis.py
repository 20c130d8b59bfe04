"""Tests of the redis service (the official Redis MCP server's interface, deterministic)."""

from __future__ import annotations

import pytest
from _svc_asserts import code, error, ok

from compoworld_gym.envs.services.redis import Redis

DUSTIN = "session:dustin.davis@yahoo.com"
EXPIRED = "session:vincent.harris@yahoo.com"  # expired at 02:00, before the episode's 09:00


@pytest.fixture
def svc(make_service):
    return make_service(Redis)


def test_seeded_store_and_server_tools(svc):
    assert ok(svc, "dbsize") == {"dbsize": 34}
    sessions = ok(svc, "scan_all_keys", {"pattern": "session:*"})
    assert len(sessions) == 6 and DUSTIN in sessions and EXPIRED not in sessions
    assert ok(svc, "scan_all_keys", {"pattern": "cart:CRT-000[1-2]"}) == ["cart:CRT-0001", "cart:CRT-0002"]
    assert ok(svc, "scan_all_keys", {"pattern": "auth:lockout:?ina*"}) == ["auth:lockout:gina.anderson@yahoo.com"]
    info = ok(svc, "info")
    assert info["keyspace"]["db0"]["keys"] == 34 and info["server"]["redis_version"] == "7.4.2"
    assert list(ok(svc, "info", {"section": "keyspace"})) == ["keyspace"]
    assert code(svc, "info", {"section": "cpu"}) == 400
    assert [c["name"] for c in ok(svc, "client_list")] == ["mcp-redis", "web-frontend", "checkout-api"]


def test_scan_keys_walks_with_a_cursor(svc):
    first = ok(svc, "scan_keys", {"pattern": "*", "count": 20})
    assert (first["cursor"], len(first["keys"]), first["scan_complete"]) == (20, 20, False)
    rest = ok(svc, "scan_keys", {"pattern": "*", "count": 20, "cursor": 20})
    assert (rest["cursor"], len(rest["keys"]), rest["scan_complete"]) == (0, 14, True)
    carts = ok(svc, "scan_keys", {"pattern": "cart:*", "count": 5})
    assert carts["keys"] == ["cart:CRT-0001", "cart:CRT-0002", "cart:CRT-0003"]  # the rest of the first 5 are lockouts


def test_session_points_to_cart(svc):
    session = ok(svc, "hgetall", {"name": DUSTIN})
    assert (session["customer_name"], session["cart_key"]) == ("Dustin Davis", "cart:CRT-0001")
    cart = ok(svc, "hgetall", {"name": "cart:CRT-0001"})
    assert (cart["total"], cart["last_added_sku"], cart["line:SKU-12267"]) == ("385.52", "SKU-12267", "3@118.60")
    assert ok(svc, "hget", {"name": "cart:CRT-0003", "key": "status"})["value"] == "checked_out"
    assert ok(svc, "hexists", {"name": DUSTIN, "key": "ip"})["exists"] is True
    assert ok(svc, "hexists", {"name": "nope", "key": "ip"})["exists"] is False
    assert code(svc, "hget", {"name": DUSTIN, "key": "missing"}) == 404
    assert code(svc, "hgetall", {"name": EXPIRED}) == 404  # expired: gone
    assert ok(svc, "type", {"key": EXPIRED}) == {"key": EXPIRED, "type": "none"}


def test_wrongtype_errors(svc):
    msg = error(svc, "get", {"key": "config:checkout-api"})
    assert msg["code"] == 409 and msg["message"].startswith("WRONGTYPE") and "json_get" in msg["message"]
    assert code(svc, "hset", {"name": "online:customers", "key": "a", "value": 1}) == 409
    assert code(svc, "lpush", {"name": DUSTIN, "value": "x"}) == 409
    assert code(svc, "sadd", {"name": "queue:email-jobs", "value": "x"}) == 409
    assert code(svc, "zadd", {"key": "stream:audit", "score": 1, "member": "m"}) == 409
    assert code(svc, "xadd", {"key": "cart:CRT-0001", "fields": {"a": 1}}) == 409
    assert code(svc, "json_get", {"name": DUSTIN}) == 409
    assert {ok(svc, "type", {"key": k})["type"] for k in ("config:checkout-api", "online:customers", "stream:audit",
                                                          "leaderboard:bestsellers:2026-01", "queue:email-jobs",
                                                          DUSTIN, "auth:lockout:gina.anderson@yahoo.com")} == {
        "ReJSON-RL", "set", "stream", "zset", "list", "hash", "string"}


def test_strings_and_ttls_on_the_logical_clock(svc):
    assert ok(svc, "ttl", {"key": "auth:lockout:gina.anderson@yahoo.com"})["ttl"] == 15 * 3600
    assert ok(svc, "ttl", {"key": "config:checkout-api"})["ttl"] == -1
    assert ok(svc, "ttl", {"key": "nope"})["ttl"] == -2
    assert ok(svc, "set", {"key": "promo:banner", "value": 42, "expiration": 90})["value"] == "42"  # at 09:00
    assert ok(svc, "get", {"key": "promo:banner"})["value"] == "42"
    ok(svc, "set", {"key": "a", "value": "1"})  # 09:01: 30 s left
    assert ok(svc, "ttl", {"key": "promo:banner"})["ttl"] == 30
    ok(svc, "set", {"key": "b", "value": 2.5})  # 09:02: expired
    assert code(svc, "get", {"key": "promo:banner"}) == 404
    assert ok(svc, "get", {"key": "b"})["value"] == "2.5"
    # SET replaces any type and clears the expiry
    ok(svc, "set", {"key": "cart:CRT-0001", "value": "gone"})
    assert ok(svc, "ttl", {"key": "cart:CRT-0001"})["ttl"] == -1
    assert code(svc, "set", {"key": "x", "value": "1", "expiration": 0}) == 400


def test_expire_delete_rename(svc):
    exp = ok(svc, "expire", {"name": DUSTIN, "expire_seconds": 600})
    assert (exp["ttl"], exp["expires_at"]) == (600, "2026-01-15T09:10:00")
    assert code(svc, "expire", {"name": EXPIRED, "expire_seconds": 60}) == 404
    ren = ok(svc, "rename", {"old_key": DUSTIN, "new_key": "session:old"})
    assert ren["status"] == "success"
    assert ok(svc, "ttl", {"key": "session:old"})["ttl"] == 540  # the TTL moved with it, one minute later
    assert code(svc, "hgetall", {"name": DUSTIN}) == 404
    ok(svc, "rename", {"old_key": "session:old", "new_key": "cart:CRT-0002"})  # overwrites
    assert ok(svc, "type", {"key": "cart:CRT-0002"})["type"] == "hash"
    assert ok(svc, "hget", {"name": "cart:CRT-0002", "key": "customer_name"})["value"] == "Dustin Davis"
    assert code(svc, "rename", {"old_key": "nope", "new_key": "x"}) == 404
    assert ok(svc, "delete", {"key": "cart:CRT-0002"}) == {"deleted": 1, "key": "cart:CRT-0002"}
    assert code(svc, "delete", {"key": "cart:CRT-0002"}) == 404
    assert code(svc, "delete", {"key": EXPIRED}) == 404
    assert ok(svc, "dbsize")["dbsize"] == 32


def test_hash_writes(svc):
    assert ok(svc, "hset", {"name": DUSTIN, "key": "coupon", "value": "WINTER10"})["added"] == 1
    assert ok(svc, "ttl", {"key": DUSTIN})["ttl"] == 12 * 3600  # the expiry is kept (written at 09:00)
    assert ok(svc, "hset", {"name": DUSTIN, "key": "coupon", "value": 5, "expire_seconds": 120})["added"] == 0
    assert ok(svc, "ttl", {"key": DUSTIN})["ttl"] == 120
    ok(svc, "hset", {"name": "h:new", "key": "f", "value": 1.5})
    assert ok(svc, "hgetall", {"name": "h:new"}) == {"f": "1.5"}
    gone = ok(svc, "hdel", {"name": "h:new", "key": "f"})
    assert (gone["deleted"], gone["key_deleted"]) == (1, True)  # an empty hash is deleted
    assert code(svc, "hdel", {"name": DUSTIN, "key": "nope"}) == 404
    # a write to an expired key starts a new key
    ok(svc, "hset", {"name": EXPIRED, "key": "fresh", "value": "yes"})
    assert ok(svc, "hgetall", {"name": EXPIRED}) == {"fresh": "yes"}
    assert ok(svc, "ttl", {"key": EXPIRED})["ttl"] == -1


def test_lists(svc):
    q = "queue:email-jobs"
    assert ok(svc, "llen", {"name": q})["length"] == 4
    assert ok(svc, "lrange", {"name": q, "start": -2, "stop": -1}) == [
        '{"job":"EMJ-0003","template":"password_reset"}', '{"job":"EMJ-0004","template":"abandoned_cart"}']
    assert ok(svc, "lrange", {"name": q, "start": 3, "stop": 99})[0].startswith('{"job":"EMJ-0004"')
    assert ok(svc, "lrange", {"name": q, "start": 2, "stop": 1}) == []
    assert ok(svc, "rpush", {"name": q, "value": "job5"})["length"] == 5
    assert ok(svc, "lpush", {"name": q, "value": 0})["length"] == 6
    assert ok(svc, "lpop", {"name": q})["value"] == "0"
    assert ok(svc, "rpop", {"name": q})["value"] == "job5"
    ok(svc, "rpush", {"name": "l:tmp", "value": "only", "expire": 3600})
    assert ok(svc, "ttl", {"key": "l:tmp"})["ttl"] == 3600
    assert ok(svc, "lpop", {"name": "l:tmp"})["length"] == 0
    assert ok(svc, "llen", {"name": "l:tmp"})["length"] == 0  # an emptied list is deleted
    assert code(svc, "rpop", {"name": "l:tmp"}) == 404


def test_sets_and_sorted_sets(svc):
    members = ok(svc, "smembers", {"name": "online:customers"})
    assert members[0] == "alan.robinson@yahoo.com" and len(members) == 6
    assert ok(svc, "sadd", {"name": "online:customers", "value": "alan.robinson@yahoo.com"})["added"] == 0
    added = ok(svc, "sadd", {"name": "online:customers", "value": "aaron@x.example", "expire_seconds": 3600})
    assert added["added"] == 1
    assert ok(svc, "smembers", {"name": "online:customers"})[0] == "aaron@x.example"
    assert ok(svc, "srem", {"name": "online:customers", "value": "aaron@x.example"})["removed"] == 1
    assert code(svc, "srem", {"name": "online:customers", "value": "aaron@x.example"}) == 404
    board = "leaderboard:bestsellers:2026-01"
    assert ok(svc, "zrange", {"key": board, "start": -2, "end": -1, "with_scores": True}) == [
        ["SKU-61693", 196.0], ["SKU-63943", 218.0]]
    assert ok(svc, "zadd", {"key": board, "score": 500, "member": "SKU-94237"})["added"] == 0
    assert ok(svc, "zrange", {"key": board, "start": -1, "end": -1}) == ["SKU-94237"]
    assert ok(svc, "zadd", {"key": "z:new", "score": 1, "member": "b"})["added"] == 1
    ok(svc, "zadd", {"key": "z:new", "score": 1, "member": "a", "expiration": 60})
    assert ok(svc, "zrange", {"key": "z:new", "start": 0, "end": -1}) == ["a", "b"]  # ties by member
    ok(svc, "zadd", {"key": "z:other", "score": 1, "member": "c"})  # a minute later: z:new has expired
    assert code(svc, "zrange", {"key": "z:new", "start": 0, "end": -1}) == 404
    assert ok(svc, "zrem", {"key": board, "member": "SKU-94237"})["removed"] == 1
    assert code(svc, "zrem", {"key": board, "member": "SKU-94237"}) == 404


def test_json_documents(svc):
    cfg = "config:checkout-api"
    assert ok(svc, "json_get", {"name": cfg, "path": "$.owner_email"}) == "kenji.watanabe@company.example"
    assert ok(svc, "json_get", {"name": cfg, "path": ".limits.requests_per_minute"}) == 600
    assert ok(svc, "json_set", {"name": cfg, "path": "$.maintenance",
                                "value": {"enabled": True, "reason": "deploy"}})["status"] == "OK"
    assert ok(svc, "json_get", {"name": cfg, "path": "$['maintenance'].enabled"}) is True
    ok(svc, "json_set", {"name": cfg, "path": "$.features.gift-wrap", "value": False})
    assert ok(svc, "json_get", {"name": cfg, "path": "$.features"})["gift-wrap"] is False
    assert code(svc, "json_set", {"name": cfg, "path": "$.nope.deeper", "value": 1}) == 404
    assert code(svc, "json_set", {"name": "config:new", "path": "$.a", "value": 1}) == 422  # root first
    ok(svc, "json_set", {"name": "config:new", "path": "$", "value": {"tiers": [1, 2]}, "expire_seconds": 300})
    ok(svc, "json_set", {"name": "config:new", "path": "$.tiers[1]", "value": 9})
    assert code(svc, "json_set", {"name": "config:new", "path": "$.tiers[5]", "value": 9}) == 422
    assert ok(svc, "json_get", {"name": "config:new"}) == {"tiers": [1, 9]}
    assert ok(svc, "ttl", {"key": "config:new"})["ttl"] == 240
    assert code(svc, "json_get", {"name": cfg, "path": "$.features[*]"}) == 400
    assert code(svc, "json_get", {"name": cfg, "path": "$.missing"}) == 404
    assert ok(svc, "json_del", {"name": "config:new", "path": "$.tiers[0]"})["deleted"] == 1
    assert code(svc, "json_del", {"name": "config:new", "path": "$.zzz"}) == 404
    assert ok(svc, "json_del", {"name": "config:new"})["deleted"] == 1
    assert ok(svc, "type", {"key": "config:new"})["type"] == "none"


def test_streams(svc):
    audit = ok(svc, "xrange", {"key": "stream:audit", "count": 10})
    assert [e["fields"]["action"] for e in audit] == ["config_changed", "session_revoked"]
    assert ok(svc, "xrange", {"key": "stream:orders"})[0]["id"] == "1768433160000-0"
    added = ok(svc, "xadd", {"key": "stream:audit", "fields": {"action": "note", "n": 3}})
    assert (added["id"], added["length"]) == ("1768467600000-0", 3)  # 2026-01-15T09:00 UTC
    assert ok(svc, "xrange", {"key": "stream:audit", "count": 3})[-1]["fields"] == {"action": "note", "n": "3"}
    assert code(svc, "xadd", {"key": "stream:audit", "fields": {}}) == 400
    assert ok(svc, "xdel", {"key": "stream:audit", "entry_id": added["id"]})["deleted"] == 1
    assert code(svc, "xdel", {"key": "stream:audit", "entry_id": added["id"]}) == 404
    new = ok(svc, "xadd", {"key": "stream:new", "fields": {"a": "b"}, "expiration": 60})
    assert new["length"] == 1 and ok(svc, "ttl", {"key": "stream:new"})["ttl"] == 60


def test_failed_write_rolls_back(svc):
    before = svc.state_dict()
    assert svc.call("json_set", {"name": "config:checkout-api", "path": "$.nope.x", "value": 1})["success"] is False
    assert svc.call("lpush", {"name": DUSTIN, "value": "x"})["success"] is False
    assert svc.state_dict() == before


def test_seed_is_deterministic(make_service):
    assert make_service(Redis, seed=3).state_dict() == make_service(Redis, seed=3).state_dict()
