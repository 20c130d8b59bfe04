"""Tests of the digital_assets service (Cloudinary Admin API / Bynder style)."""

from __future__ import annotations

import pytest
from _svc_asserts import code, error, ok

from compoworld_gym.envs.services._commerce import PRODUCTS
from compoworld_gym.envs.services.digital_assets import DigitalAssets
from compoworld_gym.envs.services.hugo_cms import HugoCms

NEW = {"public_id": "products/kb-mech-02", "format": "JPG", "bytes": 850000, "width": 2000, "height": 2000,
       "tags": ["product_shot", "electronics"], "sku": "kb-mech-02", "rights_holder": "Northlight Studios",
       "license_type": "rights_managed", "license_expiry": "2026-06-30", "caption": "Keyboard, top view"}


@pytest.fixture
def svc(make_service):
    return make_service(DigitalAssets)


def test_product_shots_line_up_with_the_catalog_and_the_blog(make_service, svc):
    shots = ok(svc, "list_resources", {"prefix": "products/", "tag": "product_shot", "max_results": 500})
    assert {a["metadata"]["sku"] for a in shots} == {p.sku for p in PRODUCTS}
    blog = make_service(HugoCms)
    for post in blog.state.posts.values():
        for image in post.front_matter.images:
            if image.startswith("/images/products/"):
                pid = image.removeprefix("/images/").removesuffix(".jpg")
                assert ok(svc, "get_resource", {"public_id": pid})["metadata"]["sku"] == post.front_matter.product


def test_reads(svc):
    a = ok(svc, "get_resource", {"public_id": "products/mn-27k-04"})
    assert (a["id"], a["license_status"], a["collections"], a["secure_url"]) == (
        "AST-0004", "expiring", ["COL-0002"],
        "https://res.cloudinary.com/acme-store/image/upload/v1754204400/products/mn-27k-04.jpg")
    assert ok(svc, "get_resource_by_asset_id", {"asset_id": "AST-0016"})["license_status"] == "expired"
    assert code(svc, "get_resource", {"public_id": "products/nope"}) == 404
    assert code(svc, "get_resource_by_asset_id", {"asset_id": "AST-0999"}) == 404
    assert [x["public_id"] for x in ok(svc, "list_resources", {"resource_type": "video"})] == [
        "video/standing-desk-demo"]
    assert [x["id"] for x in ok(svc, "list_resources", {"max_results": 2})] == ["AST-0019", "AST-0018"]
    assert [x["id"] for x in ok(svc, "search_assets", {"sku": "ch-erg-05"})] == ["AST-0005", "AST-0015", "AST-0019"]
    assert [x["id"] for x in ok(svc, "search_assets", {"license_status": "expired"})] == ["AST-0015", "AST-0016"]
    assert [x["id"] for x in ok(svc, "search_assets", {"rights_holder": "brightline photo agency",
                                                       "expires_before": "2026-03-01"})] == [
        "AST-0004", "AST-0015", "AST-0016"]
    assert ok(svc, "list_tags", {"prefix": "f"}) == ["furniture"]
    assert len(ok(svc, "list_tags")) == 11
    assert [c["id"] for c in ok(svc, "list_collections", {"status": "published"})] == ["COL-0001", "COL-0002"]
    assert ok(svc, "get_collection", {"collection_id": "COL-0003"})["assets"] == [
        {"id": "AST-0016", "public_id": "campaigns/holiday-keyboard-bundle"},
        {"id": "AST-0001", "public_id": "products/kb-mech-01"}]
    assert code(svc, "get_collection", {"collection_id": "COL-0999"}) == 404


def test_upload(svc):
    a = ok(svc, "upload_asset", NEW)
    assert (a["id"], a["resource_type"], a["format"], a["metadata"]["sku"], a["metadata"]["credit_line"],
            a["license_status"], a["context"]) == ("AST-0020", "image", "jpg", "KB-MECH-02",
                                                   "Photo: Northlight Studios", "active",
                                                   {"caption": "Keyboard, top view"})
    assert a["secure_url"].endswith("/products/kb-mech-02.jpg") and a["created_at"] == "2026-01-15T09:00:00"
    msg = error(svc, "upload_asset", NEW)
    assert msg["code"] == 409 and "public ids are unique" in msg["message"]
    assert code(svc, "upload_asset", {**NEW, "public_id": "/bad//id"}) == 400
    assert code(svc, "upload_asset", {**NEW, "public_id": "x/y", "format": "tiff"}) == 400
    assert code(svc, "upload_asset", {**NEW, "public_id": "x/y", "tags": ["a,b"]}) == 400
    msg = error(svc, "upload_asset", {**NEW, "public_id": "video/big", "format": "mp4", "bytes": 150_000_000})
    assert msg["code"] == 422 and "File size too large" in msg["message"]
    assert ok(svc, "upload_asset", {"public_id": "docs/returns-policy", "format": "pdf", "bytes": 1200})[
        "resource_type"] == "raw"


def test_rename(svc):
    r = ok(svc, "rename_asset", {"from_public_id": "products/mt-flt-14", "to_public_id": "products/mt-flt-14-grey"})
    assert (r["id"], r["public_id"]) == ("AST-0014", "products/mt-flt-14-grey")
    assert r["secure_url"].endswith("/products/mt-flt-14-grey.jpg")
    assert code(svc, "rename_asset", {"from_public_id": "products/ms-wl-02", "to_public_id": "products/wc-hd-12"}) == 409
    o = ok(svc, "rename_asset", {"from_public_id": "products/ms-wl-02", "to_public_id": "products/wc-hd-12",
                                 "overwrite": True})
    assert o["id"] == "AST-0002" and code(svc, "get_resource_by_asset_id", {"asset_id": "AST-0012"}) == 404
    assert code(svc, "rename_asset", {"from_public_id": "products/nb-a5-08", "to_public_id": "products/dk-std-06",
                                      "overwrite": True}) == 409  # the target is in a published collection
    assert code(svc, "rename_asset", {"from_public_id": "nope", "to_public_id": "x"}) == 404


def test_tags(svc):
    rows = ok(svc, "add_tag", {"tag": "discontinued", "public_ids": ["products/mt-flt-14", "products/cb-hdmi-11"]})
    assert [r["tags"][-1] for r in rows] == ["discontinued", "discontinued"]
    again = ok(svc, "add_tag", {"tag": "discontinued", "public_ids": ["products/mt-flt-14"]})
    assert again[0]["tags"] == ["product_shot", "accessories", "discontinued"]
    assert ok(svc, "remove_tag", {"tag": "discontinued", "public_ids": ["products/mt-flt-14"]})[0]["tags"] == [
        "product_shot", "accessories"]
    assert code(svc, "add_tag", {"tag": "x", "public_ids": ["products/mt-flt-14", "products/none"]}) == 404
    assert code(svc, "add_tag", {"tag": "a,b", "public_ids": ["products/mt-flt-14"]}) == 400


def test_metadata_and_context(svc):
    r = ok(svc, "update_metadata", {"public_ids": ["products/mn-27k-04"], "license_expiry": "2026-07-31",
                                    "allowed_channels": ["web", "ads", "web"]})
    assert (r[0]["metadata"]["license_expiry"], r[0]["metadata"]["allowed_channels"], r[0]["license_status"]) == (
        "2026-07-31", ["web", "ads"], "active")
    msg = error(svc, "update_metadata", {"public_ids": ["products/mn-27k-04"], "license_expiry": "2026-01-10"})
    assert msg["code"] == 422 and "published collection" in msg["message"]
    ok(svc, "update_metadata", {"public_ids": ["products/wc-hd-12"], "license_expiry": "2026-01-10"})  # not published
    assert ok(svc, "update_metadata", {"public_ids": ["campaigns/holiday-keyboard-bundle"],
                                       "clear_license_expiry": True})[0]["license_status"] == "perpetual"
    assert code(svc, "update_metadata", {"public_ids": ["products/wc-hd-12"]}) == 400
    assert code(svc, "update_metadata", {"public_ids": ["products/wc-hd-12"], "license_expiry": "2026-05-01",
                                         "clear_license_expiry": True}) == 400
    c = ok(svc, "update_context", {"public_id": "products/wc-hd-12", "caption": "Webcam on a monitor", "alt": ""})
    assert c["context"] == {"caption": "Webcam on a monitor"}
    assert code(svc, "update_context", {"public_id": "products/wc-hd-12"}) == 400


def test_collections_refuse_expired_licenses(svc):
    msg = error(svc, "add_assets_to_collection", {"collection_id": "COL-0001",
                                                  "public_ids": ["products/archive/ch-erg-05-v1"]})
    assert msg["code"] == 422 and "expired license" in msg["message"]
    added = ok(svc, "add_assets_to_collection", {"collection_id": "COL-0001", "public_ids": ["products/mt-flt-14",
                                                                                            "products/dk-std-06"]})
    assert [a["id"] for a in added["assets"]] == ["AST-0006", "AST-0005", "AST-0007", "AST-0018", "AST-0014"]
    msg = error(svc, "publish_collection", {"collection_id": "COL-0003"})
    assert msg["code"] == 422 and "AST-0016" in msg["message"]
    ok(svc, "remove_assets_from_collection", {"collection_id": "COL-0003",
                                              "public_ids": ["campaigns/holiday-keyboard-bundle"]})
    p = ok(svc, "publish_collection", {"collection_id": "COL-0003"})
    assert (p["status"], p["published_at"]) == ("published", "2026-01-15T09:00:00")
    assert code(svc, "publish_collection", {"collection_id": "COL-0003"}) == 409
    assert code(svc, "remove_assets_from_collection", {"collection_id": "COL-0003",
                                                       "public_ids": ["products/nb-a5-08"]}) == 422
    new = ok(svc, "create_collection", {"name": "Summer Sale"})
    assert (new["id"], new["status"]) == ("COL-0005", "draft")
    assert code(svc, "create_collection", {"name": "summer sale"}) == 409
    assert code(svc, "publish_collection", {"collection_id": "COL-0005"}) == 422  # empty
    assert ok(svc, "unpublish_collection", {"collection_id": "COL-0002"})["status"] == "draft"
    assert code(svc, "unpublish_collection", {"collection_id": "COL-0002"}) == 409


def test_delete(svc):
    msg = error(svc, "delete_resources", {"public_ids": ["products/lp-led-07", "products/nb-a5-08"]})
    assert msg["code"] == 409 and "products/lp-led-07" in msg["message"]
    gone = ok(svc, "delete_resources", {"public_ids": ["products/nb-a5-08"]})
    assert gone[0]["id"] == "AST-0008"
    assert [a["public_id"] for a in ok(svc, "get_collection", {"collection_id": "COL-0004"})["assets"]] == [
        "products/pn-gel-09", "products/bp-lap-10"]
    assert code(svc, "delete_resources", {"public_ids": ["products/nb-a5-08"]}) == 404


def test_failed_write_rolls_back_and_seed_is_deterministic(svc, make_service):
    before = svc.state_dict()
    assert svc.call("publish_collection", {"collection_id": "COL-0003"})["success"] is False
    assert svc.call("update_metadata", {"public_ids": ["products/wc-hd-12", "products/mn-27k-04"],
                                        "license_expiry": "2026-01-01"})["success"] is False
    assert svc.state_dict() == before
    assert make_service(DigitalAssets, seed=2).state_dict() == make_service(DigitalAssets, seed=2).state_dict()
