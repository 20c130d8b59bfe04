"""Tests of the APISIX gateway service."""

from __future__ import annotations

import pytest
from _svc_asserts import code, error, ok

from compoworld_gym.envs.services.apisix import Apisix

KENJI = "kenji.watanabe@company.example"
PEM_CERT, PEM_KEY = "-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----", \
    "-----BEGIN PRIVATE KEY-----\nMIIE\n-----END PRIVATE KEY-----"


@pytest.fixture
def svc(make_service):
    return make_service(Apisix)


def send(svc, **request):
    return ok(svc, "send_request_to_gateway", {"requests": [request]})["results"][0]["responses"]


def test_seeded_gateway(svc):
    st = svc.state
    assert {u.name for u in st.upstreams.values()} >= {"checkout-api", "payments-service", "reporting-etl"}
    assert all(r.labels["app"] == st.upstreams[r.upstream_id].name for r in st.routes.values())
    assert st.routes["1"].labels["owner"] == KENJI and "reporting-etl" not in {r.labels["app"] for r in st.routes.values()}
    partners = [c for c in st.consumers.values() if c.labels.get("kind") == "partner"]
    assert len(partners) == 5 and all(c.desc.startswith("Partner: ") and c.group_id in ("gold", "silver") for c in partners)
    assert Apisix.seeded(0, svc.today).state_dict() == svc.state_dict()


def test_get_resource(svc):
    r = ok(svc, "get_resource", {"type": "routes", "id": "2"})
    assert r["key"] == "/apisix/routes/2" and r["value"]["labels"]["app"] == "payments-service"
    by_label = ok(svc, "get_resource", {"type": "routes", "labels": {"app": "search-api"}})
    assert [x["value"]["id"] for x in by_label["list"]] == ["4"]
    assert ok(svc, "get_resource", {"type": "routes", "uri": "/api/"})["total"] == 4
    ups = ok(svc, "get_resource", {"type": "upstreams", "name": "service", "page_size": 10})
    assert [x["value"]["name"] for x in ups["list"]] == ["payments-service", "auth-service"]
    page2 = ok(svc, "get_resource", {"type": "consumers", "page": 2, "page_size": 10})
    assert (page2["total"], page2["list"]) == (6, [])
    assert "credentials" not in ok(svc, "get_resource", {"type": "consumers", "id": "mobile_app"})["value"]
    assert "not found" in error(svc, "get_resource", {"type": "routes", "id": "99"})["message"]
    assert code(svc, "get_resource", {"type": "protos"}) == 400
    assert code(svc, "get_resource", {"type": "routes", "page_size": 5}) == 400


def test_gateway_requests(svc):
    three = send(svc, path="/api/checkout/cart", method="GET", repeatCount=3)
    nodes = [f"{n.host}:{n.port}" for n in svc.state.upstreams["1"].nodes]
    assert [r["upstream_node"] for r in three] == [nodes[0], nodes[1], nodes[0]]
    assert send(svc, path="/api/checkout/cart", method="DELETE")[0]["status"] == 404
    assert send(svc, path="/api/payments/charge", method="POST")[0]["status"] == 401
    key = svc.state.consumers["mobile_app"].credentials["mobile-key"].plugins["key-auth"]["key"]
    paid = send(svc, path="/api/payments/charge", method="POST", headers={"apikey": key})[0]
    assert (paid["status"], paid["consumer"]) == (200, "mobile_app")
    assert send(svc, path="/api/payments/charge", method="POST", headers={"apikey": "nope"})[0]["status"] == 401
    www = send(svc, path="/index.html", method="GET", headers={"Host": "www.company.example"})[0]
    assert (www["status"], www["route_id"]) == (200, "3")
    ok(svc, "update_route", {"id": "1", "route": {"plugins": {"limit-count": {"count": 2, "time_window": 60,
                                                                              "rejected_code": 429}}}})
    assert [r["status"] for r in send(svc, path="/api/checkout/x", method="POST", repeatCount=3)] == [200, 200, 429]
    ok(svc, "update_upstream", {"id": "4", "upstream": {"nodes": [{"host": "10.0.0.1", "port": 80, "weight": 0}]}})
    assert send(svc, path="/api/search", method="GET")[0]["status"] == 502


def test_routes_create_update(svc):
    made = ok(svc, "create_route", {"route": {"uri": "/api/tax/*", "upstream_id": "7", "labels": {"app": "tax"}}})
    assert made["value"]["id"] == "7" and made["value"]["status"] == 1
    same = ok(svc, "create_route", {"id": "7", "route": {"uri": "/api/tax2/*", "service_id": "1", "upstream_id": "7"}})
    assert same["value"]["uri"] == "/api/tax2/*" and same["value"]["labels"] == {}
    assert code(svc, "create_route", {"route": {"upstream_id": "1"}}) == 400  # no uri
    assert code(svc, "create_route", {"route": {"uri": "/x", "upstream_id": "42"}}) == 404
    assert code(svc, "create_route", {"route": {"uri": "/x", "service_id": "1"}}) == 422  # service has no upstream
    assert code(svc, "create_route", {"route": {"uri": "/x", "upstream_id": "1", "plugins": {"waf": {}}}}) == 400
    assert code(svc, "create_route", {"route": {"uri": "/x", "upstream_id": "1",
                                                "plugins": {"limit-count": {"count": 5}}}}) == 400
    assert code(svc, "create_route", {"route": {"uri": "/x", "upstream_id": "1", "labels": {"a": "b c"}}}) == 400
    up = ok(svc, "update_route", {"id": "1", "route": {"status": 0, "desc": "case AB-1: paused",
                                                       "labels": {"env": None, "ticket": "AB-1"}}})["value"]
    assert (up["status"], up["desc"]) == (0, "case AB-1: paused")
    assert up["labels"] == {"app": "checkout-api", "owner": KENJI, "ticket": "AB-1"}
    assert send(svc, path="/api/checkout/cart", method="GET")[0]["status"] == 404  # disabled routes never match
    assert code(svc, "update_route", {"route": {"status": 1}}) == 400
    assert code(svc, "update_route", {"id": "99", "route": {"status": 1}}) == 404
    assert code(svc, "update_route", {"id": "1", "route": {"status": 2}}) == 400


def test_services_upstreams_and_deletes(svc):
    ok(svc, "create_upstream", {"id": "tax", "upstream": {"nodes": [{"host": "10.9.0.1", "port": 8080}],
                                                         "type": "least_conn"}})
    assert ok(svc, "update_upstream", {"id": "tax", "upstream": {"retries": 3}})["value"]["retries"] == 3
    assert code(svc, "create_upstream", {"upstream": {"nodes": []}}) == 400
    s = ok(svc, "create_service", {"service": {"name": "tax-api", "upstream_id": "tax"}})["value"]
    assert s["id"] == "2"
    assert ok(svc, "update_service", {"id": "2", "service": {"plugins": {"prometheus": {}}}})["value"]["plugins"] == {
        "prometheus": {}}
    assert code(svc, "create_service", {"service": {"upstream_id": "nope"}}) == 404
    assert code(svc, "delete_resource", {"type": "upstreams", "id": "tax"}) == 409  # service 2 uses it
    assert code(svc, "delete_resource", {"type": "upstreams", "id": "1"}) == 409  # route 1 uses it
    assert code(svc, "delete_resource", {"type": "services", "id": "1"}) == 409
    assert code(svc, "delete_resource", {"type": "consumer_groups", "id": "gold"}) == 409
    assert ok(svc, "delete_resource", {"type": "services", "id": "2"}) == {"key": "/apisix/services/2", "deleted": "1"}
    ok(svc, "delete_resource", {"type": "upstreams", "id": "tax"})
    ok(svc, "delete_resource", {"type": "upstreams", "id": "7"})  # reporting-etl has no route
    assert "7" not in svc.state.upstreams
    assert code(svc, "delete_resource", {"type": "routes", "id": "77"}) == 404


def test_consumers_and_credentials(svc):
    c = ok(svc, "create_or_update_consumer", {"username": "acme_corp", "desc": "Partner: Acme Corp",
                                              "labels": {"contact": "dev@acme.example"}, "group_id": "gold"})
    assert c["value"]["group_id"] == "gold"
    assert code(svc, "create_or_update_consumer", {"username": "acme_corp", "group_id": "platinum"}) == 404
    assert code(svc, "create_or_update_consumer", {"username": "bad name"}) == 400
    cred = {"name": "primary", "plugins": {"key-auth": {"key": "acme-secret-1"}}}
    ok(svc, "create_or_update_credential", {"username": "acme_corp", "id": "k1", "credential": cred})
    ok(svc, "create_or_update_credential", {"username": "acme_corp", "id": "k1", "credential": cred})  # same key again
    taken = svc.state.consumers["mobile_app"].credentials["mobile-key"].plugins["key-auth"]["key"]
    assert code(svc, "create_or_update_credential", {"username": "acme_corp", "id": "k2", "credential": {
        "name": "x", "plugins": {"key-auth": {"key": taken}}}}) == 409
    assert code(svc, "create_or_update_credential", {"username": "acme_corp", "id": "k2", "credential": {
        "name": "x", "plugins": {"key-auth": {}}}}) == 400
    assert code(svc, "create_or_update_credential", {"username": "acme_corp", "id": "k2", "credential": {
        "name": "x", "plugins": {"prometheus": {}}}}) == 400
    assert code(svc, "create_or_update_credential", {"username": "ghost", "id": "k", "credential": cred}) == 404
    listed = ok(svc, "get_credential", {"username": "acme_corp"})
    assert listed["total"] == 1 and listed["list"][0]["value"]["plugins"]["key-auth"]["key"] == "acme-secret-1"
    assert ok(svc, "get_credential", {"username": "acme_corp", "id": "k1"})["value"]["name"] == "primary"
    again = ok(svc, "create_or_update_consumer", {"username": "acme_corp", "desc": "Partner: Acme Corp (renamed)"})
    assert again["value"]["group_id"] is None and "k1" in svc.state.consumers["acme_corp"].credentials
    assert send(svc, path="/api/payments/x", method="POST", headers={"apikey": "acme-secret-1"})[0]["consumer"] == "acme_corp"
    ok(svc, "delete_credential", {"username": "acme_corp", "id": "k1"})
    assert code(svc, "delete_credential", {"username": "acme_corp", "id": "k1"}) == 404
    g = ok(svc, "create_consumer_group", {"id": "bronze", "consumerGroup": {
        "plugins": {"limit-count": {"count": 100, "time_window": 3600}}}})
    assert g["value"]["id"] == "bronze"
    ok(svc, "delete_resource", {"type": "consumers", "id": "acme_corp"})
    assert "acme_corp" not in svc.state.consumers


def test_ssl_global_rules_plugins(svc):
    s = ok(svc, "create_ssl", {"ssl": {"cert": PEM_CERT, "key": PEM_KEY, "sni": "partners.company.example"}})
    assert (s["value"]["id"], s["value"]["snis"], s["value"]["key"]) == ("3", ["partners.company.example"], "******")
    assert code(svc, "create_ssl", {"ssl": {"cert": PEM_CERT, "key": PEM_KEY}}) == 400
    assert code(svc, "create_ssl", {"ssl": {"cert": "MIIB", "key": PEM_KEY, "sni": "x.example"}}) == 400
    ok(svc, "create_global_rule", {"id": "2", "plugins": {"ip-restriction": {"blacklist": ["10.66.0.0/16"]}}})
    assert code(svc, "create_global_rule", {"id": "3", "plugins": {"ip-restriction": {"blacklist": "10.0.0.1"}}}) == 400
    names = ok(svc, "get_all_plugin_names")
    assert "key-auth" in names and names == sorted(names)
    schema = ok(svc, "get_plugin_schema", {"name": "limit-count"})
    assert schema["schema"]["required"] == ["count", "time_window"]
    assert code(svc, "get_plugin_schema", {"name": "waf"}) == 404


def test_failed_write_rolls_back(svc):
    before = svc.state_dict()
    res = svc.call("update_route", {"id": "1", "route": {"upstream_id": None, "service_id": None,
                                                         "desc": "would leave the route without an upstream"}})
    assert res["error"]["code"] == 422
    assert svc.state_dict() == before
