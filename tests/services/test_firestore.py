"""Tests of the firestore service (follows @devlimelabs_firestore-mcp)."""

from __future__ import annotations

import pytest
from _svc_asserts import code, ok

from compoworld_gym.envs.services._commerce import CUSTOMERS
from compoworld_gym.envs.services.firestore import Firestore

OLIVIA = CUSTOMERS[0].email  # olivia.martinez@gmail.com


@pytest.fixture
def svc(make_service):
    return make_service(Firestore)


def where(field, op, value):
    return {"field": field, "operator": op, "value": value}


def test_seed_customers_are_the_shared_store_customers(svc):
    rows = ok(svc, "firestore-get-collection", {"collectionId": "customers"})
    assert sorted(r["id"] for r in rows) == sorted(c.email for c in CUSTOMERS)
    doc = ok(svc, "firestore-get-document", {"collectionId": "customers", "documentId": OLIVIA})
    assert (doc["path"], doc["data"]["name"], doc["data"]["city"]) == (f"customers/{OLIVIA}", "Olivia Martinez", "Portland")
    cols = ok(svc, "firestore-list-collections")
    assert [(c["id"], c["documentCount"]) for c in cols] == [("app_config", 1), ("customers", 10), ("feedback", 12)]
    subs = ok(svc, "firestore-list-subcollections", {"documentPath": f"customers/{OLIVIA}"})
    assert subs == [{"id": "devices", "path": f"customers/{OLIVIA}/devices"}]
    devices = ok(svc, "firestore-get-collection-by-path", {"collectionPath": f"customers/{OLIVIA}/devices"})
    assert len(devices) == 1 and devices[0]["data"]["platform"] in ("ios", "android")
    assert code(svc, "firestore-get-document", {"collectionId": "customers", "documentId": "nobody@x.io"}) == 404
    assert code(svc, "firestore-get-document-by-path", {"documentPath": "customers"}) == 400


def test_queries(svc):
    rows = ok(svc, "firestore-query-collection", {"collectionId": "feedback", "filters": [where("rating", "<=", 2)],
                                                   "orderBy": {"field": "rating", "direction": "asc"}})
    assert rows and all(r["data"]["rating"] <= 2 for r in rows)
    assert [r["data"]["rating"] for r in rows] == sorted(r["data"]["rating"] for r in rows)
    new = ok(svc, "firestore-query-collection", {"collectionId": "feedback", "filters": [where("status", "==", "new")],
                                                  "limit": 2, "orderBy": {"field": "date", "direction": "desc"}})
    assert [r["data"]["date"] for r in new] == ["2026-01-14", "2026-01-11"]
    # Inequalities only match the filter value's type; a string never equals a number.
    assert ok(svc, "firestore-query-collection", {"collectionId": "feedback", "filters": [where("rating", ">", "1")]}) == []
    tiers = ok(svc, "firestore-query-collection-by-path", {"collectionPath": "customers",
                                                           "filters": [where("loyaltyTier", "in", ["gold"])]})
    assert {r["data"]["loyaltyTier"] for r in tiers} == {"gold"}
    tagged = ok(svc, "firestore-query-collection", {"collectionId": "customers",
                                                     "filters": [where("tags", "array-contains", "reviewer")]})
    assert all("reviewer" in r["data"]["tags"] for r in tagged)
    nested = ok(svc, "firestore-query-collection", {"collectionId": "app_config",
                                                     "filters": [where("features.wishlist", "==", True)]})
    assert [r["id"] for r in nested] == ["mobile"]


def test_query_shapes_firestore_refuses(svc):
    q = {"collectionId": "customers"}
    assert code(svc, "firestore-query-collection", {**q, "filters": [where("tags", "in", [])]}) == 400
    assert code(svc, "firestore-query-collection", {**q, "filters": [where("city", "not-in", list("abcdefghijk"))]}) == 400
    assert code(svc, "firestore-query-collection", {**q, "filters": [where("tags", "array-contains", "b2b"),
                                                                     where("tags", "array-contains-any", ["x"])]}) == 400
    assert code(svc, "firestore-query-collection", {**q, "filters": [where("city", "not-in", ["Boston"]),
                                                                     where("name", "!=", "x")]}) == 400
    assert code(svc, "firestore-query-collection", {**q, "filters": [where("city", "like", "B")]}) == 400


def test_create_update_delete(svc):
    made = ok(svc, "firestore-create-document", {"collectionId": "feedback", "data": {"sku": "MS-WL-02", "rating": 5}})
    assert len(made["id"]) == 20 and made["createTime"] == "2026-01-15T09:00:00"
    assert code(svc, "firestore-create-document", {"collectionId": "customers", "documentId": OLIVIA, "data": {}}) == 409
    sub = ok(svc, "firestore-create-document-by-path", {"collectionPath": f"customers/{OLIVIA}/devices",
                                                        "documentId": "ipad", "data": {"platform": "ios"}})
    assert sub["path"] == f"customers/{OLIVIA}/devices/ipad"
    up = ok(svc, "firestore-update-document", {"collectionId": "customers", "documentId": OLIVIA,
                                               "data": {"loyaltyTier": "gold", "prefs.language": "es"}})
    assert (up["data"]["loyaltyTier"], up["data"]["prefs"], up["data"]["name"]) == ("gold", {"language": "es"}, "Olivia Martinez")
    assert code(svc, "firestore-update-document", {"collectionId": "customers", "documentId": "x@y.io", "data": {"a": 1}}) == 404
    ok(svc, "firestore-update-document-by-path", {"documentPath": f"customers/{OLIVIA}/devices/ipad", "data": {"appVersion": "4.4.0"}})
    assert ok(svc, "firestore-delete-document", {"collectionId": "customers", "documentId": OLIVIA})["deleted"] is True
    assert ok(svc, "firestore-delete-document-by-path", {"documentPath": f"customers/{OLIVIA}"})["deleted"] is False
    # Deleting a document keeps its subcollections, as in Firestore.
    assert len(ok(svc, "firestore-get-collection-by-path", {"collectionPath": f"customers/{OLIVIA}/devices"})) == 2


def test_batches_and_transactions_are_atomic(svc):
    ops = [{"type": "update", "documentPath": f"customers/{OLIVIA}", "data": {"vip": True}},
           {"type": "create", "collectionPath": "feedback", "documentId": "manual-1", "data": {"rating": 3}},
           {"type": "delete", "documentPath": "app_config/mobile"}]
    res = ok(svc, "firestore-batch-write", {"operations": ops})
    assert [r["type"] for r in res["results"]] == ["update", "create", "delete"]
    assert svc.state.documents[f"customers/{OLIVIA}"].data["vip"] is True and "app_config/mobile" not in svc.state.documents
    bad = [{"type": "update", "documentPath": f"customers/{OLIVIA}", "data": {"vip": False}},
           {"type": "update", "documentPath": "customers/ghost@x.io", "data": {"a": 1}}]
    assert code(svc, "firestore-batch-write", {"operations": bad}) == 404
    assert code(svc, "firestore-batch-write", {"operations": []}) == 400
    assert code(svc, "firestore-batch-write", {"operations": [{"type": "merge", "documentPath": "a/b"}]}) == 400
    read = ok(svc, "firestore-batch-read", {"documentPaths": [f"customers/{OLIVIA}", "customers/ghost@x.io"]})
    assert [r["exists"] for r in read] == [True, False]
    tx = ok(svc, "firestore-transaction", {"reads": [f"customers/{OLIVIA}"], "operations": [
        {"type": "update", "documentPath": f"customers/{OLIVIA}", "data": {"vip": False}}]})
    assert tx["reads"][0]["document"]["data"]["vip"] is True  # read before the write
    assert svc.state.documents[f"customers/{OLIVIA}"].data["vip"] is False


def test_field_transforms(svc):
    path = f"customers/{OLIVIA}"
    before = svc.state.documents[path].data["orderCount"]
    assert ok(svc, "firestore-increment-field", {"documentPath": path, "field": "orderCount", "incrementBy": 2})["data"]["orderCount"] == before + 2
    assert ok(svc, "firestore-increment-field", {"documentPath": path, "field": "name", "incrementBy": 1.5})["data"]["name"] == 1.5
    tags = ok(svc, "firestore-array-union", {"documentPath": path, "field": "tags", "elements": ["vip", "vip"]})["data"]["tags"]
    assert tags.count("vip") == 1
    assert "vip" not in ok(svc, "firestore-array-remove", {"documentPath": path, "field": "tags", "elements": ["vip"]})["data"]["tags"]
    assert ok(svc, "firestore-server-timestamp", {"documentPath": path, "fields": ["lastSupportAt"]})["data"]["lastSupportAt"].endswith("Z")
    assert "phone" not in ok(svc, "firestore-delete-field", {"documentPath": path, "fields": ["phone"]})["data"]
    res = ok(svc, "firestore-field-value-batch", {"operations": [
        {"type": "increment", "documentPath": path, "field": "points", "incrementBy": 10},
        {"type": "arrayUnion", "documentPath": path, "field": "tags", "elements": ["b"]}]})
    assert len(res["results"]) == 2 and svc.state.documents[path].data["points"] == 10
    assert code(svc, "firestore-field-value-batch", {"operations": [
        {"type": "increment", "documentPath": path, "field": "points", "incrementBy": 1},
        {"type": "deleteField", "documentPath": "customers/ghost@x.io", "fields": ["a"]}]}) == 404
    assert code(svc, "firestore-increment-field", {"documentPath": "customers/ghost@x.io", "field": "a", "incrementBy": 1}) == 404


def test_failed_write_rolls_back(svc):
    before = svc.state_dict()
    assert svc.call("firestore-batch-write", {"operations": [
        {"type": "create", "collectionPath": "feedback", "data": {"rating": 1}},
        {"type": "create", "collectionPath": "customers", "documentId": OLIVIA, "data": {}}]})["error"]["code"] == 409
    assert svc.state_dict() == before
