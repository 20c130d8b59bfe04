"""Tests of the meilisearch service (follows @devlimelabs_meilisearch-ts-mcp)."""

from __future__ import annotations

import json

import pytest
from _svc_asserts import code, error, ok

from compoworld_gym.envs.services._commerce import PRODUCTS
from compoworld_gym.envs.services.knowledge_base import KnowledgeBase
from compoworld_gym.envs.services.meilisearch import Meilisearch
from compoworld_gym.envs.services.product_catalog import ProductCatalog


@pytest.fixture
def svc(make_service):
    return make_service(Meilisearch)


def docs(*items):
    return json.dumps(list(items))


def test_seed_matches_the_catalog_and_the_manual(svc, make_service):
    listed = ok(svc, "get-documents", {"indexUid": "products", "limit": 100})["results"]
    catalog = make_service(ProductCatalog).state.products
    assert [d["sku"] for d in listed] == [p.sku for p in PRODUCTS]
    assert {d["product_id"]: d["sku"] for d in listed} == {p.id: p.sku for p in catalog.values() if p.active}
    kb = make_service(KnowledgeBase).state.articles
    help_docs = ok(svc, "get-documents", {"indexUid": "help-centre", "limit": 100})["results"]
    assert {d["id"]: d["title"] for d in help_docs} == {a.id: a.title for a in kb.values() if a.status == "published"}
    assert ok(svc, "get-document", {"indexUid": "products", "documentId": "KB-MECH-01"})["price"] == 89.99


def test_indexes_and_settings(svc):
    page = ok(svc, "list-indexes", {"limit": 1})
    assert (page["total"], [i["uid"] for i in page["results"]]) == (2, ["help-centre"])
    assert ok(svc, "get-index", {"indexUid": "products"})["primaryKey"] == "sku"
    assert code(svc, "get-index", {"indexUid": "nope"}) == 404
    assert ok(svc, "get-filterable-attributes", {"indexUid": "products"}) == ["category", "price", "visible"]
    assert ok(svc, "get-sortable-attributes", {"indexUid": "products"}) == ["price", "name"]
    assert ok(svc, "get-searchable-attributes", {"indexUid": "products"}) == ["name", "category", "sku"]
    s = ok(svc, "get-settings", {"indexUid": "help-centre"})
    assert s["rankingRules"][0] == "words" and s["filterableAttributes"] == ["category", "tags", "needs_review"]


def test_search_with_filter_sort_and_facets(svc):
    r = ok(svc, "search", {"indexUid": "products", "q": "desk", "sort": ["price:desc"], "facets": ["category"]})
    assert [h["sku"] for h in r["hits"]] == ["DK-STD-06", "LP-LED-07", "MT-FLT-14"]
    assert r["facetDistribution"] == {"category": {"accessories": 1, "furniture": 2}}
    r = ok(svc, "search", {"indexUid": "products", "q": "", "filter": "category = ELECTRONICS AND price 30 TO 100",
                           "attributesToRetrieve": ["sku"]})
    assert r["hits"] == [{"sku": "KB-MECH-01"}, {"sku": "HB-USBC-03"}, {"sku": "WC-HD-12"}]
    # 'last' drops trailing words until something matches; 'all' needs every word.
    assert ok(svc, "search", {"indexUid": "products", "q": "wireless zebra"})["estimatedTotalHits"] == 1
    assert ok(svc, "search", {"indexUid": "products", "q": "wireless zebra", "matchingStrategy": "all"})["hits"] == []
    nots = ok(svc, "search", {"indexUid": "products", "q": "", "filter": "NOT category IN [electronics, furniture]"})
    assert {h["category"] for h in nots["hits"]} == {"stationery", "accessories"}


def test_filter_and_sort_need_declared_attributes(svc):
    e = error(svc, "search", {"indexUid": "products", "q": "", "filter": "sku = KB-MECH-01"})
    assert e["code"] == 400 and "Attribute `sku` is not filterable" in e["message"]
    assert code(svc, "search", {"indexUid": "products", "q": "", "sort": ["category:asc"]}) == 400
    assert code(svc, "search", {"indexUid": "products", "q": "", "facets": ["name"]}) == 400
    assert code(svc, "search", {"indexUid": "products", "q": "", "filter": "price >"}) == 400
    assert code(svc, "get-documents", {"indexUid": "products", "filter": "name = x"}) == 400
    assert code(svc, "search", {"indexUid": "products", "q": "", "matchingStrategy": "frequency"}) == 400


def test_facet_search_and_stats(svc):
    hits = ok(svc, "facet-search", {"indexUid": "products", "facetName": "category", "facetQuery": "st"})["facetHits"]
    assert hits == [{"value": "stationery", "count": 2}]
    assert code(svc, "facet-search", {"indexUid": "products", "facetName": "sku"}) == 400
    st = ok(svc, "stats", {"indexUid": "products"})
    assert (st["numberOfDocuments"], st["fieldDistribution"]["price"]) == (14, 14)
    assert set(ok(svc, "stats", {})["indexes"]) == {"products", "help-centre"}


def test_writes_enqueue_tasks_that_succeed(svc):
    before = len(svc.state.tasks)
    t = ok(svc, "update-documents", {"indexUid": "products", "documents": docs({"sku": "MS-WL-02", "price": 19.99})})
    assert (t["taskUid"], t["status"], t["type"]) == (before, "enqueued", "documentAdditionOrUpdate")
    done = ok(svc, "get-task", {"taskUid": t["taskUid"]})
    assert (done["status"], done["details"]["indexedDocuments"]) == ("succeeded", 1)
    assert ok(svc, "wait-for-task", {"taskUid": t["taskUid"]})["status"] == "succeeded"
    doc = ok(svc, "get-document", {"indexUid": "products", "documentId": "MS-WL-02"})
    assert (doc["price"], doc["name"]) == (19.99, "Wireless Mouse")  # merged, not replaced
    ok(svc, "add-documents", {"indexUid": "products", "documents": docs({"sku": "MS-WL-02", "price": 18.0})})
    assert ok(svc, "get-document", {"indexUid": "products", "documentId": "MS-WL-02"}) == {"sku": "MS-WL-02", "price": 18.0}
    failed = ok(svc, "list-tasks", {"statuses": ["failed"]})
    assert failed["total"] == 1 and failed["results"][0]["error"]["code"] == "missing_document_id"
    assert ok(svc, "list-tasks", {"limit": 1})["results"][0]["uid"] == before + 1
    assert code(svc, "get-task", {"taskUid": 999}) == 404


def test_document_refusals(svc):
    assert code(svc, "add-documents", {"indexUid": "products", "documents": "[{"}) == 400
    assert code(svc, "add-documents", {"indexUid": "products", "documents": docs({"name": "No sku"})}) == 422
    assert code(svc, "add-documents", {"indexUid": "products", "documents": docs({"sku": "a b"})}) == 400
    assert code(svc, "add-documents", {"indexUid": "products", "documents": docs({"sku": "X-1"}), "primaryKey": "id"}) == 409
    assert code(svc, "get-document", {"indexUid": "products", "documentId": "NOPE"}) == 404


def test_index_lifecycle_and_primary_key_inference(svc):
    ok(svc, "create-index", {"indexUid": "orders"})
    assert code(svc, "create-index", {"indexUid": "orders"}) == 409
    assert code(svc, "create-index", {"indexUid": "bad uid"}) == 400
    assert code(svc, "add-documents", {"indexUid": "orders", "documents": docs({"order_id": 1, "sku_id": 2})}) == 422
    ok(svc, "add-documents", {"indexUid": "orders", "documents": docs({"order_id": "ORD-1", "total": 5})})
    assert ok(svc, "get-index", {"indexUid": "orders"})["primaryKey"] == "order_id"
    assert code(svc, "update-index", {"indexUid": "orders", "primaryKey": "total"}) == 409
    ok(svc, "add-documents", {"indexUid": "returns", "documents": docs({"rma": "R-1"}), "primaryKey": "rma"})
    assert ok(svc, "get-index", {"indexUid": "returns"})["primaryKey"] == "rma"  # created by the addition
    ok(svc, "delete-all-documents", {"indexUid": "orders"})
    ok(svc, "update-index", {"indexUid": "orders", "primaryKey": "total"})
    ok(svc, "delete-index", {"indexUid": "returns"})
    assert code(svc, "delete-index", {"indexUid": "returns"}) == 404
    assert not any(d.indexUid == "returns" for d in svc.state.documents.values())


def test_deletes(svc):
    t = ok(svc, "delete-documents", {"indexUid": "products", "documentIds": docs("NB-A5-08", "PN-GEL-09", "ZZ")})
    assert ok(svc, "get-task", {"taskUid": t["taskUid"]})["details"] == {"providedIds": 3, "deletedDocuments": 2}
    ok(svc, "delete-document", {"indexUid": "products", "documentId": "CB-HDMI-11"})
    assert ok(svc, "stats", {"indexUid": "products"})["numberOfDocuments"] == 11
    assert code(svc, "delete-documents", {"indexUid": "products", "documentIds": "{}"}) == 400


def test_settings_updates_change_what_filters_accept(svc):
    ok(svc, "update-filterable-attributes", {"indexUid": "products", "value": docs("category", "sku")})
    assert ok(svc, "search", {"indexUid": "products", "q": "", "filter": "sku = kb-mech-01"})["estimatedTotalHits"] == 1
    assert code(svc, "search", {"indexUid": "products", "q": "", "filter": "price < 5"}) == 400
    ok(svc, "update-sortable-attributes", {"indexUid": "products", "value": docs("category")})
    ok(svc, "update-searchable-attributes", {"indexUid": "products", "value": docs("sku")})
    assert ok(svc, "search", {"indexUid": "products", "q": "keyboard"})["hits"] == []
    ok(svc, "update-settings", {"indexUid": "products", "settings": json.dumps({"searchableAttributes": None,
                                                                                "synonyms": {"keyboard": ["mouse"]}})})
    assert ok(svc, "get-settings", {"indexUid": "products"})["searchableAttributes"] == ["*"]
    assert code(svc, "update-settings", {"indexUid": "products", "settings": '{"typo": 1}'}) == 400
    assert code(svc, "update-settings", {"indexUid": "products", "settings": '{"sortableAttributes": 3}'}) == 400
    assert code(svc, "update-filterable-attributes", {"indexUid": "products", "value": "[1]"}) == 400


def test_keys(svc):
    assert [k["name"] for k in ok(svc, "list-keys")] == ["Default Search API Key", "Default Admin API Key"]
    k = ok(svc, "create-key", {"name": "Storefront", "actions": ["search"], "indexes": ["products"]})
    assert (k["actions"], k["expiresAt"], len(k["key"])) == (["search"], None, 64)
    assert code(svc, "create-key", {"name": "Storefront", "actions": ["search"], "indexes": ["*"]}) == 409
    assert code(svc, "create-key", {"name": "X", "actions": ["search"], "indexes": ["ghost"]}) == 404
    assert code(svc, "create-key", {"name": "Y", "actions": ["search"], "indexes": ["*"],
                                    "expiresAt": "2025-01-01T00:00:00Z"}) == 422
    assert code(svc, "create-key", {"name": "Z", "actions": ["fly"], "indexes": ["*"]}) == 400


def test_failed_write_rolls_back(svc):
    before = svc.state_dict()
    bad = docs({"sku": "NEW-1", "price": 1}, {"name": "no key"})  # the first document must not stay
    assert svc.call("add-documents", {"indexUid": "products", "documents": bad})["error"]["code"] == 422
    assert svc.call("add-documents", {"indexUid": "fresh", "documents": docs({"x": 1})})["error"]["code"] == 422
    assert svc.state_dict() == before
