"""Tests of the package_registry service (follows @Nekzus_npm-sentinel-mcp)."""

from __future__ import annotations

import pytest
from _svc_asserts import code, ok

from compoworld_gym.envs.services.package_registry import PackageRegistry

UI = "@company-example/storefront-ui"
BEN = "ben.foster@company.example"


@pytest.fixture
def svc(make_service):
    return make_service(PackageRegistry)


def test_reads(svc):
    stats = ok(svc, "npmRepoStats", {"packages": [UI, "lodash"]})
    assert [(s["repository"], s["license"]) for s in stats] == [("company-example/storefront", "UNLICENSED"),
                                                                ("lodash/lodash", "MIT")]
    assert ok(svc, "npmMaintainers", {"packages": [UI]})[0]["maintainers"] == [{"name": "Ben Foster", "email": BEN}]
    assert [v["version"] for v in ok(svc, "npmVersions", {"packages": [UI]})[0]["versions"]] == ["1.0.0", "1.1.0", "2.0.0"]
    assert ok(svc, "npmLatest", {"packages": ["axios"]})[0]["latest"] == "1.6.8"
    assert ok(svc, "npmDeps", {"packages": [UI]})[0]["dependencies"] == {"lodash": "^4.17.20", "axios": "^0.21.0"}
    assert ok(svc, "npmTypes", {"packages": ["lodash"]})[0]["types_included"] is False
    vulns = ok(svc, "npmVulnerabilities", {"packages": ["minimist", "lodash"]})
    assert (vulns[0]["advisories"][0]["id"], vulns[0]["latest_affected"], vulns[1]["advisories"]) == (
        "GHSA-xvch-5gv4-984h", False, [])
    dep = ok(svc, "npmDeprecated", {"packages": ["request", "axios"]})
    assert (dep[0]["deprecated"], dep[1]["deprecated"]) == (True, False)
    assert [h["name"] for h in ok(svc, "npmSearch", {"query": "company-example", "limit": 2})] == [
        UI, "@company-example/billing-client"]
    assert code(svc, "npmVersions", {"packages": ["ghost-pkg"]}) == 404


def test_deprecate(svc):
    v = ok(svc, "npmDeprecate", {"package": UI, "version": "1.0.0", "message": "use 2.x", "actor_email": BEN})
    assert v["deprecated"] == "use 2.x"
    assert ok(svc, "npmDeprecated", {"packages": [UI]})[0]["deprecated_versions"] == ["1.0.0"]
    ok(svc, "npmDeprecate", {"package": UI, "version": "1.0.0", "message": "", "actor_email": BEN})
    assert svc.state.packages[UI].versions[0].deprecated is None
    assert code(svc, "npmDeprecate", {"package": UI, "version": "9.9.9", "message": "x", "actor_email": BEN}) == 404
    assert code(svc, "npmDeprecate", {"package": UI, "version": "1.0.0", "message": "x",
                                      "actor_email": "eve@x.example"}) == 422


def test_owners_and_dist_tags(svc):
    added = ok(svc, "npmOwnerAdd", {"package": UI, "email": "ada@company.example", "name": "Ada Lee", "actor_email": BEN})
    assert [m["email"] for m in added["maintainers"]] == [BEN, "ada@company.example"]
    assert code(svc, "npmOwnerAdd", {"package": UI, "email": "ada@company.example", "name": "Ada", "actor_email": BEN}) == 409
    ok(svc, "npmOwnerRemove", {"package": UI, "email": BEN, "actor_email": "ada@company.example"})
    assert code(svc, "npmOwnerRemove", {"package": UI, "email": "ada@company.example",
                                        "actor_email": "ada@company.example"}) == 422
    assert code(svc, "npmOwnerRemove", {"package": UI, "email": BEN, "actor_email": "ada@company.example"}) == 404
    tags = ok(svc, "npmDistTag", {"package": UI, "tag": "next", "version": "1.1.0", "actor_email": "ada@company.example"})
    assert tags["dist_tags"] == {"latest": "2.0.0", "next": "1.1.0"}
    assert code(svc, "npmDistTag", {"package": UI, "tag": "next", "version": "7.0.0", "actor_email": "ada@company.example"}) == 404
    assert code(svc, "npmDistTag", {"package": UI, "tag": "Bad Tag", "version": "1.1.0", "actor_email": BEN}) == 400


def test_failed_write_rolls_back(svc):
    before = svc.state_dict()
    assert svc.call("npmOwnerRemove", {"package": "lodash", "email": "jdalton@npm-maintainers.example",
                                       "actor_email": "jdalton@npm-maintainers.example"})["error"]["code"] == 422
    assert svc.state_dict() == before
