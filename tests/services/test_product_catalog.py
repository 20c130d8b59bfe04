"""Tests of the product_catalog service."""

from __future__ import annotations

import pytest
from _svc_asserts import data, error, error_code

from compoworld_gym.envs.services.product_catalog import ProductCatalog


@pytest.fixture
def svc(make_service):
    return make_service(ProductCatalog)


def test_seed_is_deterministic_and_uses_the_shared_skus(make_service):
    a, b = make_service(ProductCatalog), make_service(ProductCatalog)
    assert a.state_dict() == b.state_dict()
    assert a.state.products["PRD-0001"].sku == "KB-MECH-01"
    assert a.state.products["PRD-0015"].active is False


def test_list_and_search(svc):
    furniture = data(svc.call("list_products", {"category": "furniture"}))
    assert [p["sku"] for p in furniture] == ["CH-ERG-05", "DK-STD-06", "LP-LED-07"]
    assert [p["id"] for p in data(svc.call("list_products", {"active": False}))] == ["PRD-0015"]
    hits = data(svc.call("search_products", {"query": "monitor"}))
    assert [p["sku"] for p in hits] == ["MN-27K-04"]
    cheap = data(svc.call("search_products", {"max_price": 10}))
    assert {p["sku"] for p in cheap} == {"NB-A5-08", "CB-HDMI-11"}


def test_get_product_and_by_sku(svc):
    p = data(svc.call("get_product", {"product_id": "PRD-0004"}))
    assert (p["name"], p["price"]) == ("27-inch 4K Monitor", 329.99)
    hit = data(svc.call("get_product_by_sku", {"sku": "kb-mech-01-whi"}))
    assert hit["product"]["id"] == "PRD-0001" and hit["variant"]["option"] == "White"
    assert error_code(svc.call("get_product_by_sku", {"sku": "NOPE-1"})) == 404
    assert error_code(svc.call("get_product", {"product_id": "PRD-9999"})) == 404


def test_list_product_categories(svc):
    cats = {c["category"]: c["active_products"] for c in data(svc.call("list_product_categories", {}))}
    assert cats == {"accessories": 3, "electronics": 6, "furniture": 3, "stationery": 2}


def test_create_product_and_duplicate_sku(svc):
    p = data(svc.call("create_product", {"sku": "tb-usb-16", "name": "USB Tablet", "price": 19.999,
                                         "category": "electronics"}))
    assert (p["id"], p["sku"], p["price"], p["created_on"]) == ("PRD-0016", "TB-USB-16", 20.0, "2026-01-15")
    assert error_code(svc.call("create_product", {"sku": "KB-MECH-01-BLA", "name": "x", "price": 1})) == 409
    assert error_code(svc.call("create_product", {"sku": "ZZ-1", "name": "x", "price": 0})) == 400


def test_update_product(svc):
    p = data(svc.call("update_product", {"product_id": "PRD-0008", "name": "A5 Notebook", "category": "other"}))
    assert (p["name"], p["category"]) == ("A5 Notebook", "other")
    assert error_code(svc.call("update_product", {"product_id": "PRD-0008"})) == 400


def test_update_price_records_history(svc):
    ch = data(svc.call("update_price", {"sku": "MS-WL-02", "price": 22.499}))
    assert (ch["old_price"], ch["new_price"], ch["product_id"]) == (24.5, 22.5, "PRD-0002")
    assert svc.state.products["PRD-0002"].price_history[-1].new_price == 22.5
    v = data(svc.call("update_price", {"sku": "KB-MECH-01-BLA", "price": 84.0}))
    assert v["old_price"] == 89.99 and svc.state.products["PRD-0001"].variants[0].price == 84.0
    assert svc.state.products["PRD-0001"].price == 89.99
    assert error_code(svc.call("update_price", {"sku": "MS-WL-02", "price": 22.5})) == 409
    assert error_code(svc.call("update_price", {"sku": "CAL-2025-15", "price": 5})) == 409


def test_set_active_and_variants(svc):
    assert data(svc.call("set_product_active", {"product_id": "PRD-0015", "active": True}))["active"] is True
    v = data(svc.call("create_variant", {"product_id": "PRD-0002", "sku": "MS-WL-02-PNK", "option": "Pink"}))
    assert (v["sku"], v["price"]) == ("MS-WL-02-PNK", 24.5)
    assert error_code(svc.call("create_variant", {"product_id": "PRD-0002", "sku": "MS-WL-02-P2", "option": "pink"})) == 409
    d = data(svc.call("discontinue_variant", {"sku": "MS-WL-02-PNK"}))
    assert d["active"] is False
    assert error_code(svc.call("discontinue_variant", {"sku": "MS-WL-02-PNK"})) == 409
    assert error_code(svc.call("discontinue_variant", {"sku": "MS-WL-02"})) == 404


def test_failed_write_rolls_back(svc):
    before = svc.state_dict()
    assert error_code(svc.call("create_variant", {"product_id": "PRD-0015", "sku": "CAL-X", "option": "A"})) == 409
    assert error_code(svc.call("update_price", {"sku": "CAL-2025-15", "price": 1})) == 409
    assert svc.state_dict() == before


@pytest.mark.parametrize("price", [0.004, 1e-9, "inf", 1e308])
def test_prices_that_round_to_zero_or_overflow_are_a_400_naming_price(svc, price):

    e = error(svc, "create_product", {"sku": "TB-USB-16", "name": "USB Tablet", "price": price})
    assert e["code"] == 400 and "'price'" in e["message"]
    e = error(svc, "update_price", {"sku": "KB-MECH-01", "price": price})
    assert e["code"] == 400 and "'price'" in e["message"]


def test_price_filters_are_bounded(svc):

    assert error(svc, "search_products", {"min_price": -1})["code"] == 400
    assert error(svc, "search_products", {"max_price": "inf"})["code"] == 400
