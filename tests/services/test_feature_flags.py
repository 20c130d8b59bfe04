"""Tests of the feature_flags service."""

from __future__ import annotations

import pytest
from _svc_asserts import data, failed

from compoworld_gym.envs.services._engineering import ENGINEERS
from compoworld_gym.envs.services._feature_flags_models import bucket
from compoworld_gym.envs.services.feature_flags import FeatureFlags

ACTOR = ENGINEERS[0].email


@pytest.fixture
def svc(make_service):
    return make_service(FeatureFlags)


def test_seed_is_deterministic_and_cross_referenced(make_service):
    a, b = make_service(FeatureFlags, seed=3), make_service(FeatureFlags, seed=3)
    assert a.state_dict() == b.state_dict()
    assert a.state_dict() != make_service(FeatureFlags, seed=4).state_dict()
    engineers = {e.email for e in ENGINEERS}
    assert all(f.maintainer_email in engineers for f in a.state.flags.values())
    assert len(a.tools) == 14


def test_list_and_get_flags(svc):
    flags = data(svc.call("list_flags", {}))
    assert len(flags) == 10 and flags[0]["key"] == "new-checkout-flow"
    on_prod = data(svc.call("list_flags", {"environment": "production", "on": True}))
    assert {f["key"] for f in on_prod} == {k for k, f in svc.state.flags.items() if f.environments["production"].on}
    assert [f["key"] for f in data(svc.call("list_flags", {"query": "DARK"}))] == ["dark-mode"]
    assert all("payments" in f["tags"] for f in data(svc.call("list_flags", {"tag": "payments"})))
    failed(svc.call("list_flags", {"on": True}), 400)
    flag = data(svc.call("get_flag", {"flag_key": "dark-mode"}))
    assert flag["variations"] == ["true", "false"] and set(flag["environments"]) == {
        "production", "staging", "development"}
    failed(svc.call("get_flag", {"flag_key": "nope"}), 404)


def test_create_toggle_and_audit(svc):
    created = data(svc.call("create_flag", {"key": "gift-cards", "name": "Gift cards", "maintainer_email": ACTOR}))
    assert created["environments"]["production"] == {"on": False, "off_variation": 1, "rollout_percentage": 0,
                                                     "targets": [], "rules": [], "next_rule": 1}
    failed(svc.call("create_flag", {"key": "gift-cards", "name": "x", "maintainer_email": ACTOR}), 409)
    failed(svc.call("create_flag", {"key": "Bad Key", "name": "x", "maintainer_email": ACTOR}), 400)
    failed(svc.call("create_flag", {"key": "dup", "name": "x", "maintainer_email": ACTOR, "variations": ["a", "a"]}), 400)
    entry = data(svc.call("toggle_flag", {"flag_key": "gift-cards", "environment": "production", "on": True,
                                        "actor_email": ACTOR, "comment": "launch"}))
    assert entry["action"] == "turned_on" and entry["detail"] == "turned on. launch"
    assert entry["at"] == "2026-01-15T09:01:00"  # second tick of the logical clock
    assert svc.state.flags["gift-cards"].environments["production"].on is True
    failed(svc.call("toggle_flag", {"flag_key": "gift-cards", "environment": "production", "on": True,
                                 "actor_email": ACTOR}), 409)
    log = data(svc.call("list_audit_log", {"flag_key": "gift-cards"}))
    assert [e["action"] for e in log] == ["turned_on", "created"]
    assert data(svc.call("list_audit_log", {"actor_email": "nobody@x.io"})) == []


def test_rollout_and_evaluation(svc):
    data(svc.call("create_flag", {"key": "exp", "name": "Exp", "maintainer_email": ACTOR}))
    user = "pat.lee@gmail.com"
    off = data(svc.call("evaluate_flag", {"flag_key": "exp", "environment": "production", "user_email": user}))
    assert (off["variation"], off["value"], off["reason"]) == (1, "false", "OFF")
    data(svc.call("toggle_flag", {"flag_key": "exp", "environment": "production", "on": True, "actor_email": ACTOR}))
    pct = int(bucket("exp", user)) + 1  # just enough to include this user
    entry = data(svc.call("update_rollout", {"flag_key": "exp", "environment": "production",
                                           "rollout_percentage": pct, "actor_email": ACTOR}))
    assert entry["detail"] == f"rollout 0% -> {pct}%"
    res = data(svc.call("evaluate_flag", {"flag_key": "exp", "environment": "production", "user_email": user}))
    assert (res["variation"], res["reason"]) == (0, "ROLLOUT_IN")
    data(svc.call("update_rollout", {"flag_key": "exp", "environment": "production",
                                   "rollout_percentage": pct - 1, "actor_email": ACTOR}))
    res = data(svc.call("evaluate_flag", {"flag_key": "exp", "environment": "production", "user_email": user}))
    assert res["reason"] == "ROLLOUT_OUT" and res["variation"] == 1
    failed(svc.call("update_rollout", {"flag_key": "exp", "environment": "production",
                                    "rollout_percentage": 101, "actor_email": ACTOR}), 400)


def test_targets_and_rules(svc):
    user = "vip@globex.example"
    cfg = data(svc.call("add_targets", {"flag_key": "new-checkout-flow", "environment": "staging", "variation": 1,
                                      "emails": [user], "actor_email": ACTOR}))
    assert {"email": user, "variation": 1} in cfg["targets"]
    res = data(svc.call("evaluate_flag", {"flag_key": "new-checkout-flow", "environment": "staging",
                                        "user_email": user}))
    assert (res["variation"], res["reason"]) == (1, "TARGET_MATCH")
    failed(svc.call("add_targets", {"flag_key": "new-checkout-flow", "environment": "staging", "variation": 5,
                                 "emails": [user], "actor_email": ACTOR}), 422)
    data(svc.call("remove_targets", {"flag_key": "new-checkout-flow", "environment": "staging", "emails": [user],
                                   "actor_email": ACTOR}))
    failed(svc.call("remove_targets", {"flag_key": "new-checkout-flow", "environment": "staging", "emails": [user],
                                    "actor_email": ACTOR}), 404)
    rule = data(svc.call("add_rule", {"flag_key": "new-checkout-flow", "environment": "staging",
                                    "attribute": "email_domain", "values": ["globex.example"], "variation": 1,
                                    "actor_email": ACTOR}))
    assert rule["id"] == "rule-2"  # staging already has rule-1 (internal staff)
    res = data(svc.call("evaluate_flag", {"flag_key": "new-checkout-flow", "environment": "staging",
                                        "user_email": user}))
    assert (res["reason"], res["rule_id"], res["variation"]) == ("RULE_MATCH", "rule-2", 1)
    staff = data(svc.call("evaluate_flag", {"flag_key": "new-checkout-flow", "environment": "staging",
                                          "user_email": ENGINEERS[1].email}))
    assert (staff["rule_id"], staff["variation"]) == ("rule-1", 0)
    failed(svc.call("add_rule", {"flag_key": "new-checkout-flow", "environment": "staging", "attribute": "segment",
                              "values": ["ghosts"], "variation": 0, "actor_email": ACTOR}), 404)
    cfg = data(svc.call("remove_rule", {"flag_key": "new-checkout-flow", "environment": "staging",
                                      "rule_id": "rule-2", "actor_email": ACTOR}))
    assert [r["id"] for r in cfg["rules"]] == ["rule-1"]
    failed(svc.call("remove_rule", {"flag_key": "new-checkout-flow", "environment": "staging",
                                 "rule_id": "rule-2", "actor_email": ACTOR}), 404)


def test_segments(svc):
    segs = data(svc.call("list_segments", {}))
    assert [s["key"] for s in segs] == ["beta-testers", "internal-staff", "enterprise-accounts"]
    seg = data(svc.call("update_segment", {"segment_key": "internal-staff", "actor_email": ACTOR,
                                         "add_emails": ["new.hire@company.example"],
                                         "remove_emails": [ENGINEERS[0].email]}))
    assert seg["included"][-1] == "new.hire@company.example" and ENGINEERS[0].email not in seg["included"]
    failed(svc.call("update_segment", {"segment_key": "internal-staff", "actor_email": ACTOR}), 400)
    failed(svc.call("update_segment", {"segment_key": "nope", "actor_email": ACTOR, "add_emails": ["a@b.co"]}), 404)


def test_archive_rules_and_rollback_after_failure(svc):
    on_key = next(k for k, f in svc.state.flags.items() if f.environments["production"].on)
    before = svc.state_dict()
    failed(svc.call("archive_flag", {"flag_key": on_key, "actor_email": ACTOR}), 409)
    assert svc.state_dict() == before  # failed write leaves the state (and audit log, clock) untouched
    data(svc.call("toggle_flag", {"flag_key": on_key, "environment": "production", "on": False, "actor_email": ACTOR}))
    assert data(svc.call("archive_flag", {"flag_key": on_key, "actor_email": ACTOR}))["archived"] is True
    failed(svc.call("toggle_flag", {"flag_key": on_key, "environment": "staging", "on": False,
                                 "actor_email": ACTOR}), 409)
    assert on_key not in {f["key"] for f in data(svc.call("list_flags", {}))}
    assert on_key in {f["key"] for f in data(svc.call("list_flags", {"include_archived": True}))}
