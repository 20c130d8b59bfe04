"""Tests of the hugo_cms service (@wdm0006_hugo-frontmatter-mcp)."""

from __future__ import annotations

import pytest
from _svc_asserts import code, error, ok

from compoworld_gym.envs.services.hugo_cms import HugoCms

SITE = "/srv/hugo/acme-blog"
CONTENT = f"{SITE}/content"
LAUNCH = f"{CONTENT}/posts/launches"
KEYBOARD = f"{LAUNCH}/mechanical-keyboard.md"
HUB = f"{LAUNCH}/usb-c-hub-7-in-1.md"
PROMO = f"{LAUNCH}/holiday-keyboard-bundle.md"
DESK = f"{CONTENT}/posts/guides/desk-accessories-under-40.md"
SHIPPING = f"{CONTENT}/news/shipping-to-germany-and-france.md"


@pytest.fixture
def svc(make_service):
    return make_service(HugoCms)


def test_get_frontmatter_and_field(svc):
    fm = ok(svc, "get_frontmatter", {"file_path": KEYBOARD})
    assert fm["hugo_status"] == "scheduled"  # publishDate 2026-01-24 is after today
    assert (fm["frontmatter"]["product"], fm["frontmatter"]["publishDate"], fm["frontmatter"]["tags"]) == (
        "KB-MECH-01", "2026-01-24", ["launch", "electronics", "KB-MECH-01"])
    assert "expiryDate" not in fm["frontmatter"]
    assert ok(svc, "get_frontmatter", {"file_path": HUB})["hugo_status"] == "draft"
    assert ok(svc, "get_frontmatter", {"file_path": PROMO})["hugo_status"] == "expired"
    assert ok(svc, "get_frontmatter", {"file_path": DESK})["hugo_status"] == "build_error"
    assert ok(svc, "get_field", {"file_path": KEYBOARD, "field_name": "author"})["value"] == "Luis Ortega"
    assert "keys:" in error(svc, "get_field", {"file_path": KEYBOARD, "field_name": "weight"})["message"]
    assert code(svc, "get_frontmatter", {"file_path": "content/posts/x.md"}) == 422
    assert code(svc, "get_frontmatter", {"file_path": f"{CONTENT}/posts/none.md"}) == 404
    assert code(svc, "get_frontmatter", {"file_path": f"{CONTENT}/posts/launches"}) == 422


def test_tags_listing_and_search(svc):
    tags = ok(svc, "list_tags_in_directory", {"directory_path_str": CONTENT + "/"})
    assert tags["files_scanned"] == 10
    assert list(tags["tags"].items())[:3] == [("launch", 5), ("electronics", 3), ("KB-MECH-01", 2)]
    assert (tags["tags"]["Ergonomics"], tags["tags"]["ergonomics"]) == (1, 1)
    flat = ok(svc, "list_tags_in_directory", {"directory_path_str": f"{CONTENT}/posts", "recursive": False})
    assert flat["files_scanned"] == 0
    hits = ok(svc, "find_posts_by_tag", {"directory_path_str": CONTENT, "tag_to_find": "kb-mech-01"})
    assert [(h["file_path"], h["hugo_status"]) for h in hits] == [(PROMO, "expired"), (KEYBOARD, "scheduled")]
    assert len(ok(svc, "find_posts_by_tag", {"directory_path_str": f"{CONTENT}/news", "tag_to_find": "launch"})) == 0
    assert code(svc, "find_posts_by_tag", {"directory_path_str": "/srv/other", "tag_to_find": "x"}) == 404
    assert code(svc, "list_tags_in_directory", {"directory_path_str": "content"}) == 422


def test_validate_date_formats(svc):
    res = ok(svc, "validate_date_formats", {"directory_path_str": SITE})
    assert (res["checked"], len(res["valid"]), res["missing"]) == (10, 7, [])
    assert [(i["value"], i["iso_8601"]) for i in res["invalid"]] == [
        ("2025-12-16T10:00:00-05:00", True), ("2025/11/04", False), ("March 3, 2025", False)]
    pub = ok(svc, "validate_date_formats", {"directory_path_str": CONTENT, "field_name": "publishDate"})
    assert pub["invalid"] == [{"file_path": SHIPPING, "value": "2025-02-30", "iso_8601": False}]  # no 30 February
    assert len(pub["missing"]) == 4
    loose = ok(svc, "validate_date_formats", {"directory_path_str": f"{CONTENT}/posts/guides",
                                              "expected_format_str": "%B %d, %Y"})
    assert loose["valid"] == [DESK]
    assert code(svc, "validate_date_formats", {"directory_path_str": CONTENT, "field_name": "title"}) == 422
    assert code(svc, "validate_date_formats", {"directory_path_str": CONTENT, "expected_format_str": "YYYY"}) == 422


def test_setters_require_iso_dates(svc):
    assert ok(svc, "set_title", {"file_path": KEYBOARD, "title": "  The Mechanical Keyboard is here "})["value"] == \
        "The Mechanical Keyboard is here"
    assert code(svc, "set_title", {"file_path": KEYBOARD, "title": "   "}) == 422
    assert ok(svc, "set_date", {"file_path": DESK, "date_value": "2025-03-03"})["hugo_status"] == "published"
    assert code(svc, "set_date", {"file_path": DESK, "date_value": "03/03/2025"}) == 422
    assert code(svc, "set_date", {"file_path": DESK, "date_value": "2025-02-29"}) == 422  # not a leap year
    out = ok(svc, "set_publish_date", {"file_path": KEYBOARD, "publish_date_value": "2026-01-10T08:00:00Z"})
    assert (out["value"], out["hugo_status"]) == ("2026-01-10T08:00:00Z", "published")
    assert code(svc, "set_publish_date", {"file_path": KEYBOARD, "publish_date_value": "next week"}) == 422
    assert ok(svc, "set_description", {"file_path": KEYBOARD, "description": "Hot-swappable switches."})["value"] == \
        "Hot-swappable switches."
    assert code(svc, "set_description", {"file_path": KEYBOARD, "description": "x" * 501}) == 400


def test_draft_status_rules(svc):
    assert ok(svc, "set_draft_status", {"file_path": HUB, "draft_status": False})["hugo_status"] == "scheduled"
    assert ok(svc, "set_draft_status", {"file_path": KEYBOARD, "draft_status": True})["hugo_status"] == "draft"
    ok(svc, "set_draft_status", {"file_path": SHIPPING, "draft_status": True})
    msg = error(svc, "set_draft_status", {"file_path": SHIPPING, "draft_status": False})
    assert msg["code"] == 422 and "publishDate='2025-02-30'" in msg["message"]
    ok(svc, "set_publish_date", {"file_path": SHIPPING, "publish_date_value": "2025-03-01"})
    assert ok(svc, "set_draft_status", {"file_path": SHIPPING, "draft_status": False})["hugo_status"] == "published"


def test_tag_and_image_lists(svc):
    assert ok(svc, "add_tag", {"file_path": KEYBOARD, "tag_to_add": "new-arrivals"})["tags"][-1] == "new-arrivals"
    assert code(svc, "add_tag", {"file_path": KEYBOARD, "tag_to_add": "LAUNCH"}) == 409
    assert code(svc, "add_tag", {"file_path": KEYBOARD, "tag_to_add": "   "}) == 422
    assert ok(svc, "remove_tag", {"file_path": KEYBOARD, "tag_to_remove": "Electronics"})["tags"] == [
        "launch", "KB-MECH-01", "new-arrivals"]
    assert code(svc, "remove_tag", {"file_path": KEYBOARD, "tag_to_remove": "electronics"}) == 404
    imgs = ok(svc, "add_image", {"file_path": KEYBOARD, "image_path_to_add": "/images/products/kb-mech-01-side.webp"})
    assert imgs["images"] == ["/images/products/kb-mech-01.jpg", "/images/products/kb-mech-01-side.webp"]
    assert code(svc, "add_image", {"file_path": KEYBOARD, "image_path_to_add": "/images/products/kb-mech-01.jpg"}) == 409
    assert code(svc, "add_image", {"file_path": KEYBOARD, "image_path_to_add": "/docs/spec.pdf"}) == 422
    assert ok(svc, "remove_image", {"file_path": KEYBOARD, "image_path_to_remove": "/images/products/kb-mech-01.jpg"}
              )["images"] == ["/images/products/kb-mech-01-side.webp"]
    assert code(svc, "remove_image", {"file_path": KEYBOARD, "image_path_to_remove": "/images/x.png"}) == 404


def test_rename_tag_merges_case_variants(svc):
    out = ok(svc, "rename_tag_in_directory", {"directory_path_str": CONTENT, "old_tag": "ergonomics",
                                              "new_tag": "ergonomics"})
    assert out["files"] == [f"{CONTENT}/posts/guides/ergonomic-workstation-setup.md"]  # 'Ergonomics' joins 'ergonomics'
    assert ok(svc, "list_tags_in_directory", {"directory_path_str": CONTENT})["tags"]["ergonomics"] == 2
    merged = ok(svc, "rename_tag_in_directory", {"directory_path_str": f"{CONTENT}/posts", "old_tag": "work-from-home",
                                                 "new_tag": "Guides"})
    assert merged["renamed"] == 2
    setup = f"{CONTENT}/posts/guides/ergonomic-workstation-setup.md"
    assert ok(svc, "get_field", {"file_path": setup, "field_name": "tags"})["value"] == ["ergonomics", "guides"]
    assert code(svc, "rename_tag_in_directory", {"directory_path_str": CONTENT, "old_tag": "nope", "new_tag": "x"}) == 404
    assert code(svc, "rename_tag_in_directory", {"directory_path_str": CONTENT, "old_tag": "news",
                                                 "new_tag": "news"}) == 422
    assert code(svc, "rename_tag_in_directory", {"directory_path_str": f"{CONTENT}/posts", "old_tag": "news",
                                                 "new_tag": "updates", "recursive": False}) == 404


def test_failed_write_rolls_back(svc):
    before = svc.state_dict()
    assert svc.call("set_draft_status", {"file_path": DESK, "draft_status": False})["success"] is False
    assert svc.call("add_tag", {"file_path": KEYBOARD, "tag_to_add": "launch"})["success"] is False
    assert svc.state_dict() == before


def test_seed_is_deterministic(make_service):
    assert make_service(HugoCms, seed=4).state_dict() == make_service(HugoCms, seed=4).state_dict()
