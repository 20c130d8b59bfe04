"""Tests of the secrets_vault service (HashiCorp Vault KV v2 style)."""

from __future__ import annotations

import orjson
import pytest
from _svc_asserts import code, error, ok

from compoworld_gym.envs.services.secrets_vault import SecretsVault

KENJI, OSCAR, CARLA, OPS = ("kenji.watanabe@company.example", "oscar.lindgren@company.example",
                            "carla.jensen@company.example", "ops@company.example")
DB = {"mount": "secret", "path": "apps/checkout-api/database"}
KEY = {"mount": "secret", "path": "apps/checkout-api/api-key"}


@pytest.fixture
def svc(make_service):
    return make_service(SecretsVault)


def test_mounts_listing_and_policies(svc):
    assert [(m["path"], m["cas_required"]) for m in ok(svc, "list_mounts")] == [("secret", False), ("infra", True)]
    assert ok(svc, "list_secrets", {"mount": "secret", "path": "apps/checkout-api"}) == {"keys": ["api-key",
                                                                                               "database"]}
    assert ok(svc, "list_secrets", {"mount": "secret"}) == {"keys": ["apps/"]}
    assert code(svc, "list_secrets", {"mount": "secret", "path": "nope"}) == 404
    assert code(svc, "list_secrets", {"mount": "kv"}) == 404
    pol = ok(svc, "read_policy", {"name": "payments-apps"})
    assert pol["members"] == [KENJI, "rachel.adeyemi@company.example"]
    assert [r["path"] for r in pol["rules"]] == ["secret/data/apps/checkout-api/*", "secret/data/apps/payments-service/*"]
    assert len(ok(svc, "list_policies")) == 5
    assert code(svc, "read_policy", {"name": "root"}) == 404


def test_metadata_never_holds_values(svc):
    meta = ok(svc, "read_secret_metadata", KEY)
    assert (meta["current_version"], meta["custom_metadata"]["service"]) == (2, "checkout-api")
    assert meta["versions"]["2"]["deletion_time"] is not None and meta["versions"]["1"]["destroyed"] is False
    secret = svc.state.secrets["secret/apps/checkout-api/api-key"].versions[0].data["key"]
    assert secret not in orjson.dumps(meta).decode()
    for tool, args in (("list_secrets", {"mount": "secret", "path": "apps/checkout-api"}), ("list_mounts", {}),
                       ("list_policies", {})):
        assert secret not in orjson.dumps(ok(svc, tool, args)).decode()


def test_read_needs_a_policy_and_a_live_version(svc):
    e = error(svc, "read_secret", {**DB, "requester_email": OSCAR})
    assert e["code"] == 422 and "permission denied" in e["message"]
    r = ok(svc, "read_secret", {**DB, "requester_email": KENJI})
    assert r["data"] == svc.state.secrets["secret/apps/checkout-api/database"].versions[-1].data
    assert r["metadata"]["version"] == svc.state.secrets["secret/apps/checkout-api/database"].current_version
    assert code(svc, "read_secret", {**KEY, "requester_email": KENJI}) == 404  # latest is soft-deleted
    assert ok(svc, "read_secret", {**KEY, "requester_email": CARLA, "version": 1})["metadata"]["version"] == 1
    assert code(svc, "read_secret", {**KEY, "requester_email": CARLA, "version": 7}) == 400
    assert code(svc, "read_secret", {"mount": "secret", "path": "apps/x/y", "requester_email": CARLA}) == 404


def test_write_returns_metadata_and_checks_cas(svc):
    v = ok(svc, "write_secret", {**KEY, "data": {"key": "new-key-value"}, "requester_email": KENJI})
    assert v == {"version": 3, "created_time": "2026-01-15T09:00:00", "deletion_time": None, "destroyed": False}
    assert code(svc, "write_secret", {**KEY, "data": {"key": "x"}, "requester_email": KENJI, "cas": 2}) == 409
    assert ok(svc, "write_secret", {**KEY, "data": {"key": "y"}, "requester_email": KENJI, "cas": 3})["version"] == 4
    assert code(svc, "write_secret", {**KEY, "data": {"key": "z"}, "requester_email": OSCAR}) == 422
    assert code(svc, "write_secret", {**KEY, "data": {}, "requester_email": KENJI}) == 400
    new = ok(svc, "write_secret", {"mount": "secret", "path": "apps/checkout-api/webhook", "data": {"s": "1"},
                                   "requester_email": KENJI, "cas": 0})
    assert new["version"] == 1


def test_cas_required_mount_and_secret(svc):
    infra = {"mount": "infra", "path": "ci/deploy-token", "data": {"token": "t2"}, "requester_email": CARLA}
    e = error(svc, "write_secret", infra)
    assert e["code"] == 400 and "cas=1" in e["message"]
    assert ok(svc, "write_secret", {**infra, "cas": 1})["version"] == 2
    ok(svc, "update_secret_metadata", {**DB, "requester_email": KENJI, "cas_required": True})
    assert code(svc, "write_secret", {**DB, "data": {"password": "p"}, "requester_email": KENJI}) == 400


def test_max_versions_prunes_oldest(svc):
    m = ok(svc, "update_secret_metadata", {**DB, "requester_email": KENJI, "max_versions": 2,
                                           "custom_metadata": {"owner": KENJI}})
    assert (m["max_versions"], m["custom_metadata"]) == (2, {"owner": KENJI})
    for n in range(3):
        ok(svc, "write_secret", {**DB, "data": {"password": f"p{n}"}, "requester_email": KENJI})
    meta = ok(svc, "read_secret_metadata", DB)
    assert len(meta["versions"]) == 2 and max(int(k) for k in meta["versions"]) == meta["current_version"]
    assert code(svc, "update_secret_metadata", {**DB, "requester_email": KENJI}) == 400
    assert code(svc, "update_secret_metadata", {**DB, "requester_email": OSCAR, "max_versions": 3}) == 422


def test_delete_undelete_destroy(svc):
    assert ok(svc, "undelete_secret_versions", {**KEY, "versions": [2], "requester_email": KENJI}
              )["versions"]["2"]["deletion_time"] is None
    assert ok(svc, "read_secret", {**KEY, "requester_email": KENJI})["metadata"]["version"] == 2
    d = ok(svc, "delete_latest_version", {**KEY, "requester_email": KENJI})
    assert d["versions"]["2"]["deletion_time"] == "2026-01-15T09:01:00"
    x = ok(svc, "destroy_secret_versions", {**KEY, "versions": [1, 2], "requester_email": KENJI})
    assert x["versions"]["1"]["destroyed"] and svc.state.secrets["secret/apps/checkout-api/api-key"].versions[0].data == {}
    e = error(svc, "undelete_secret_versions", {**KEY, "versions": [1], "requester_email": KENJI})
    assert e["code"] == 409 and "destroyed" in e["message"]
    assert code(svc, "delete_secret_versions", {**KEY, "versions": [1], "requester_email": KENJI}) == 409
    assert code(svc, "delete_secret_versions", {**KEY, "versions": [9], "requester_email": KENJI}) == 400
    assert code(svc, "delete_secret_versions", {**DB, "versions": [1], "requester_email": OSCAR}) == 422
    assert code(svc, "read_secret", {**KEY, "requester_email": KENJI, "version": 1}) == 404


def test_failed_write_rolls_back(svc):
    before = svc.state_dict()
    assert svc.call("write_secret", {**KEY, "data": {"key": "x"}, "requester_email": KENJI,
                                     "cas": 1})["error"]["code"] == 409
    assert svc.call("destroy_secret_versions", {**KEY, "versions": [1, 9],
                                                "requester_email": KENJI})["error"]["code"] == 400
    assert svc.state_dict() == before


def test_seed_is_deterministic(make_service):
    assert make_service(SecretsVault, seed=2).state_dict() == make_service(SecretsVault, seed=2).state_dict()
    assert make_service(SecretsVault, seed=2).state_dict() != make_service(SecretsVault, seed=3).state_dict()
