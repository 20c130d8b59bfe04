"""Tests of the video library service (Vimeo-style videos and showcases)."""

from __future__ import annotations

import pytest
from _svc_asserts import code, error, ok

from compoworld_gym.envs.services.video_library import VideoLibrary

JAMAL, LUIS = "jamal.wright@company.example", "luis.ortega@company.example"


@pytest.fixture
def svc(make_service):
    return make_service(VideoLibrary)


def test_seeded_library(svc):
    videos = svc.state.videos
    assert len(videos) == 12 and len(svc.state.showcases) == 3
    assert [v.upload_status for v in videos.values()].count("available") == 9
    assert {v.owner_email for v in videos.values()} <= {JAMAL, LUIS, "hannah.kovacs@company.example"}
    public = svc.state.showcases["ALB-0001"]
    assert public.name == "Customer stories" and public.privacy_view == "anybody"
    assert all(videos[v].privacy_view in ("anybody", "unlisted") for v in public.video_ids)
    assert VideoLibrary.seed_state(0, svc.today) == VideoLibrary.seed_state(0, svc.today)


def test_list_and_get(svc):
    rows = ok(svc, "list_videos", {"per_page": 3})
    assert [r["id"] for r in rows] == ["VID-0011", "VID-0001", "VID-0008"] and "comments" not in rows[0]
    assert [r["id"] for r in ok(svc, "list_videos", {"upload_status": "transcoding"})] == ["VID-0004"]
    assert [r["id"] for r in ok(svc, "list_videos", {"client_company": "short llc"})] == ["VID-0002"]
    assert len(ok(svc, "list_videos", {"owner_email": LUIS})) == 4
    assert ok(svc, "list_videos", {"page": 9}) == []
    v = ok(svc, "get_video", {"video_id": "VID-0001"})
    assert v["showcase_ids"] == ["ALB-0001", "ALB-0002"] and len(v["comments"]) == 1
    assert code(svc, "get_video", {"video_id": "VID-0999"}) == 404
    assert [s["id"] for s in ok(svc, "list_showcases", {"owner_email": JAMAL})] == ["ALB-0001", "ALB-0002", "ALB-0003"]
    s = ok(svc, "get_showcase", {"album_id": "ALB-0003"})
    assert [x["id"] for x in s["videos"]] == ["VID-0009", "VID-0011", "VID-0012"]
    assert code(svc, "get_showcase", {"album_id": "ALB-0009"}) == 404


def test_upload_lifecycle(svc):
    v = ok(svc, "create_video", {"name": "Acme story", "owner_email": LUIS, "client_company": "Acme Labs"})
    assert (v["id"], v["upload_status"], v["privacy_view"], v["duration"]) == ("VID-0013", "uploading", "nobody", 0)
    assert v["upload_link"] == "https://upload.vimeo.example/vid-0013"
    assert code(svc, "create_video", {"name": "x", "owner_email": LUIS, "privacy_view": "password"}) == 422
    assert code(svc, "create_video", {"name": "x", "owner_email": LUIS, "password": "pw"}) == 400
    assert code(svc, "set_video_privacy", {"video_id": "VID-0013", "privacy_view": "anybody"}) == 409
    done = ok(svc, "complete_upload", {"video_id": "VID-0013", "duration": 95})
    assert (done["upload_status"], done["duration"]) == ("transcoding", 95)
    assert code(svc, "complete_upload", {"video_id": "VID-0013", "duration": 95}) == 409
    # A video without a client company must not break the company filter.
    assert [r["id"] for r in ok(svc, "list_videos", {"client_company": "Short LLC"})] == ["VID-0002"]
    assert code(svc, "add_video_to_showcase", {"album_id": "ALB-0002", "video_id": "VID-0004"}) == 409


def test_edit_and_privacy(svc):
    e = ok(svc, "edit_video", {"video_id": "VID-0008", "name": "Final cut", "tags": ["webinar"],
                               "comments_enabled": False})
    assert (e["name"], e["tags"], e["comments_enabled"]) == ("Final cut", ["webinar"], False)
    p = ok(svc, "set_video_privacy", {"video_id": "VID-0008", "privacy_view": "password", "password": "s3cret"})
    assert (p["privacy_view"], p["password"]) == ("password", "s3cret")
    msg = error(svc, "set_video_privacy", {"video_id": "VID-0001", "privacy_view": "nobody"})
    assert msg["code"] == 422 and "ALB-0001" in msg["message"]
    assert ok(svc, "set_video_privacy", {"video_id": "VID-0009", "privacy_view": "nobody"})["privacy_view"] == "nobody"
    assert code(svc, "set_video_privacy", {"video_id": "VID-0009", "privacy_view": "secret"}) == 400


def test_embed_whitelist(svc):
    v = ok(svc, "add_embed_domain", {"video_id": "VID-0001", "domain": "https://WWW.Acme.example/page"})
    assert (v["embed_privacy"], v["embed_domains"]) == ("whitelist", ["www.acme.example"])
    assert code(svc, "add_embed_domain", {"video_id": "VID-0001", "domain": "www.acme.example"}) == 409
    assert code(svc, "add_embed_domain", {"video_id": "VID-0001", "domain": "not a domain"}) == 400
    assert code(svc, "add_embed_domain", {"video_id": "VID-0004", "domain": "acme.example"}) == 409
    for n in range(9):
        ok(svc, "add_embed_domain", {"video_id": "VID-0001", "domain": f"site{n}.example"})
    assert code(svc, "add_embed_domain", {"video_id": "VID-0001", "domain": "one-more.example"}) == 422
    left = ok(svc, "remove_embed_domain", {"video_id": "VID-0001", "domain": "www.acme.example"})
    assert "www.acme.example" not in left["embed_domains"] and len(left["embed_domains"]) == 9
    assert code(svc, "remove_embed_domain", {"video_id": "VID-0001", "domain": "www.acme.example"}) == 404
    assert ok(svc, "set_embed_privacy", {"video_id": "VID-0001", "embed_privacy": "private"})["embed_privacy"] == "private"
    assert code(svc, "set_embed_privacy", {"video_id": "VID-0007", "embed_privacy": "public"}) == 409


def test_comments(svc):
    c = ok(svc, "add_video_comment", {"video_id": "VID-0009", "author_email": LUIS, "text": "Approved by legal."})
    assert (c["id"], c["video_id"], c["created_time"]) == ("CMT-0006", "VID-0009", "2026-01-15T09:00:00")
    assert code(svc, "add_video_comment", {"video_id": "VID-0010", "author_email": LUIS, "text": "x"}) == 409
    ok(svc, "edit_video", {"video_id": "VID-0009", "comments_enabled": False})
    assert code(svc, "add_video_comment", {"video_id": "VID-0009", "author_email": LUIS, "text": "x"}) == 409
    assert ok(svc, "delete_video_comment", {"video_id": "VID-0009", "comment_id": "CMT-0006"})["deleted"] == "CMT-0006"
    assert code(svc, "delete_video_comment", {"video_id": "VID-0009", "comment_id": "CMT-0006"}) == 404


def test_showcases(svc):
    s = ok(svc, "create_showcase", {"name": "Partner demos", "owner_email": JAMAL})
    assert (s["id"], s["privacy_view"], s["video_ids"]) == ("ALB-0004", "anybody", [])
    assert code(svc, "create_showcase", {"name": "partner demos", "owner_email": JAMAL}) == 409
    msg = error(svc, "add_video_to_showcase", {"album_id": "ALB-0004", "video_id": "VID-0008"})
    assert msg["code"] == 422 and "private" in msg["message"]
    assert ok(svc, "add_video_to_showcase", {"album_id": "ALB-0004", "video_id": "VID-0009"})["video_ids"] == ["VID-0009"]
    assert code(svc, "add_video_to_showcase", {"album_id": "ALB-0004", "video_id": "VID-0009"}) == 409
    assert code(svc, "set_showcase_privacy", {"album_id": "ALB-0002", "privacy_view": "anybody"}) == 422
    assert ok(svc, "set_showcase_privacy", {"album_id": "ALB-0003", "privacy_view": "unlisted"})["privacy_view"] == "unlisted"
    assert code(svc, "set_showcase_privacy", {"album_id": "ALB-0003", "privacy_view": "password"}) == 422
    assert ok(svc, "remove_video_from_showcase", {"album_id": "ALB-0004", "video_id": "VID-0009"})["video_ids"] == []
    assert code(svc, "remove_video_from_showcase", {"album_id": "ALB-0004", "video_id": "VID-0009"}) == 404


def test_delete_video_leaves_showcases(svc):
    gone = ok(svc, "delete_video", {"video_id": "VID-0001"})
    assert gone["id"] == "VID-0001" and "VID-0001" not in svc.state.videos
    assert "VID-0001" not in svc.state.showcases["ALB-0001"].video_ids
    assert code(svc, "delete_video", {"video_id": "VID-0001"}) == 404


def test_failed_call_rolls_back(svc):
    # The whitelist write would have happened before the 409 on a non-available video: nothing may stay.
    before = svc.state_dict()
    res = svc.call("add_embed_domain", {"video_id": "VID-0007", "domain": "acme.example"})
    assert res["error"]["code"] == 409 and svc.state_dict() == before
