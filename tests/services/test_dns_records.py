"""Tests of the DNS service (Cloudflare API v4 style)."""

from __future__ import annotations

import pytest
from _svc_asserts import code, ok

from compoworld_gym.envs.services.dns_records import DnsRecords

Z = "ZN-0001"


@pytest.fixture
def svc(make_service):
    return make_service(DnsRecords)


def test_reads(svc):
    assert [(z["id"], z["name"], z["status"]) for z in ok(svc, "list_zones")] == [
        ("ZN-0001", "company.example", "active"), ("ZN-0002", "company-status.example", "active"),
        ("ZN-0003", "company-shop.example", "pending")]
    assert [z["id"] for z in ok(svc, "list_zones", {"name": "Company.Example."})] == ["ZN-0001"]
    assert ok(svc, "get_zone", {"zone_id": Z})["record_count"] == 13
    rec = ok(svc, "list_dns_records", {"zone_id": Z, "name": "checkout-api"})
    assert [(r["id"], r["type"], r["content"], r["proxied"]) for r in rec] == [
        ("DNS-0007", "CNAME", "checkout-api-793372551267.us-central1.run.app", True)]
    assert [r["id"] for r in ok(svc, "list_dns_records", {"zone_id": Z, "type": "A", "proxied": False})] == [
        "DNS-0009", "DNS-0012"]
    assert [r["id"] for r in ok(svc, "list_dns_records", {"zone_id": Z, "content": "198.51.100.132"})] == ["DNS-0009"]
    assert ok(svc, "get_dns_record", {"zone_id": Z, "record_id": "DNS-0009"})["ip_address"] == "198.51.100.132"
    assert code(svc, "get_dns_record", {"zone_id": "ZN-0002", "record_id": "DNS-0009"}) == 422
    assert code(svc, "get_dns_record", {"zone_id": Z, "record_id": "DNS-0999"}) == 404
    f = ok(svc, "export_dns_records", {"zone_id": "ZN-0002"})["zone_file"]
    assert "company-status.example. 1 IN A 203.0.113.213 ; cf_tags=cf-proxied:true" in f
    assert "www.company-status.example. 3600 IN CNAME company.statuspage.example." in f
    assert ok(svc, "get_zone_setting", {"zone_id": Z, "setting": "ssl"})["value"] == "strict"
    assert ok(svc, "list_zone_settings", {"zone_id": "ZN-0003"}) == {
        "ssl": "flexible", "always_use_https": "off", "min_tls_version": "1.2"}


def test_create_rules(svc):
    r = ok(svc, "create_dns_record", {"zone_id": Z, "type": "A", "name": "staging", "content": "192.0.2.10",
                                      "ttl": 300})
    assert (r["id"], r["name"], r["ttl"], r["proxied"]) == ("DNS-0018", "staging.company.example", 300, False)
    v6 = ok(svc, "create_dns_record", {"zone_id": Z, "type": "AAAA", "name": "staging.company.example",
                                       "content": "2001:DB8::0010", "proxied": True, "ttl": 600})
    assert (v6["content"], v6["ttl"]) == ("2001:db8::10", 1)
    assert code(svc, "create_dns_record", {"zone_id": Z, "type": "A", "name": "x", "content": "2001:db8::1"}) == 400
    assert code(svc, "create_dns_record", {"zone_id": Z, "type": "AAAA", "name": "x", "content": "192.0.2.1"}) == 400
    assert code(svc, "create_dns_record", {"zone_id": Z, "type": "A", "name": "x", "content": "999.1.1.1"}) == 400
    assert code(svc, "create_dns_record", {"zone_id": Z, "type": "A", "name": "x", "content": "192.0.2.1",
                                           "ttl": 30}) == 400
    assert code(svc, "create_dns_record", {"zone_id": Z, "type": "TXT", "name": "x", "content": "hello",
                                           "proxied": True}) == 422
    assert code(svc, "create_dns_record", {"zone_id": Z, "type": "A", "name": "api.other.example",
                                           "content": "192.0.2.1"}) == 422
    assert code(svc, "create_dns_record", {"zone_id": Z, "type": "CNAME", "name": "staging",
                                           "content": "x.run.app"}) == 409
    assert code(svc, "create_dns_record", {"zone_id": Z, "type": "A", "name": "www", "content": "192.0.2.1"}) == 409
    assert code(svc, "create_dns_record", {"zone_id": Z, "type": "A", "name": "staging",
                                           "content": "192.0.2.10"}) == 409
    assert code(svc, "create_dns_record", {"zone_id": Z, "type": "MX", "name": "@", "content": "mx.example.net"}) == 400
    assert code(svc, "create_dns_record", {"zone_id": Z, "type": "CNAME", "name": "loop",
                                           "content": "loop.company.example"}) == 422
    assert code(svc, "create_dns_record", {"zone_id": "ZN-0009", "type": "A", "name": "x",
                                           "content": "192.0.2.1"}) == 404
    txt = ok(svc, "create_dns_record", {"zone_id": Z, "type": "TXT", "name": "staging", "content": "v=ok"})
    assert txt["proxiable"] is False


def test_update_patch_delete(svc):
    p = ok(svc, "patch_dns_record", {"zone_id": Z, "record_id": "DNS-0009", "content": "198.51.100.77"})
    assert (p["content"], p["ip_address"], p["ttl"], p["proxied"]) == ("198.51.100.77", "198.51.100.77", 300, False)
    p = ok(svc, "patch_dns_record", {"zone_id": Z, "record_id": "DNS-0009", "proxied": True})
    assert (p["ttl"], p["proxied"]) == (1, True)
    p = ok(svc, "patch_dns_record", {"zone_id": Z, "record_id": "DNS-0009", "proxied": False})
    assert p["ttl"] == 300
    assert code(svc, "patch_dns_record", {"zone_id": Z, "record_id": "DNS-0009", "content": "web.example.net"}) == 400
    assert code(svc, "patch_dns_record", {"zone_id": Z, "record_id": "DNS-0005", "proxied": True}) == 422
    assert code(svc, "patch_dns_record", {"zone_id": Z, "record_id": "DNS-0009"}) == 400
    assert code(svc, "patch_dns_record", {"zone_id": Z, "record_id": "DNS-0009", "name": "www"}) == 409
    u = ok(svc, "update_dns_record", {"zone_id": Z, "record_id": "DNS-0009", "type": "CNAME", "name": "web-frontend",
                                      "content": "web-frontend-1.us-central1.run.app", "proxied": True})
    assert (u["type"], u["ip_address"], u["comment"]) == ("CNAME", None, "")
    assert ok(svc, "delete_dns_record", {"zone_id": Z, "record_id": "DNS-0009"}) == {"id": "DNS-0009"}
    assert code(svc, "delete_dns_record", {"zone_id": Z, "record_id": "DNS-0009"}) == 404


def test_zone_settings(svc):
    assert ok(svc, "edit_zone_setting", {"zone_id": "ZN-0003", "setting": "ssl", "value": "full"})["ssl"] == "full"
    assert code(svc, "edit_zone_setting", {"zone_id": Z, "setting": "ssl", "value": "strictest"}) == 400
    ok(svc, "edit_zone_setting", {"zone_id": "ZN-0002", "setting": "always_use_https", "value": "off"})
    ok(svc, "edit_zone_setting", {"zone_id": "ZN-0002", "setting": "ssl", "value": "off"})
    assert code(svc, "edit_zone_setting", {"zone_id": "ZN-0002", "setting": "always_use_https", "value": "on"}) == 422


def test_failed_call_rolls_back(svc):
    before = svc.state_dict()
    res = svc.call("patch_dns_record", {"zone_id": Z, "record_id": "DNS-0009", "content": "2001:db8::1"})
    assert not res["success"] and svc.state_dict() == before
