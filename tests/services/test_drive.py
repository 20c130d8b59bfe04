"""The drive service (Google Drive MCP subset)."""

from __future__ import annotations

import base64

import pytest
from _svc_asserts import code, error, ok

from compoworld_gym.envs.services._drive_seed import FOLDER
from compoworld_gym.envs.services.drive import Drive


@pytest.fixture
def drive(make_service):
    return make_service(Drive)


def find(drive, name):
    return next(f for f in drive.state.files.values() if f.name == name)


def test_seed(make_service):
    s = make_service(Drive).state_dict()
    assert s == make_service(Drive).state_dict() != make_service(Drive, seed=1).state_dict()
    assert s["files"]["root"]["mimeType"] == FOLDER and len(s["files"]) == 16
    assert sum(f["trashed"] for f in s["files"].values()) == 1


def test_browse_and_read(drive):
    root = ok(drive, "drive_folder_children", {"folderId": "root"})
    assert [f["name"] for f in root["files"]] == ["Customers", "Finance", "Operations", "Projects"]
    page = ok(drive, "drive_folder_children", {"folderId": find(drive, "Finance").id, "pageSize": 2})
    assert len(page["files"]) == 2 and page["nextPageToken"] == "2"
    policy = find(drive, "Refund policy 2026")
    meta = ok(drive, "drive_file_metadata", {"fileId": policy.id})
    assert meta["size"] == len(policy.content) and meta["parents"] == [find(drive, "Finance").id]
    assert ok(drive, "drive_file_content", {"fileId": policy.id})["content"].startswith("Refunds above $500")
    assert code(drive, "drive_file_content", {"fileId": "root"}) == 400
    assert code(drive, "drive_folder_children", {"folderId": policy.id}) == 400
    assert code(drive, "drive_file_metadata", {"fileId": "file-9999"}) == 404


def test_search(drive):
    q = ok(drive, "drive_search", {"query": "name contains 'POLICY'"})
    assert [f["name"] for f in q["files"]] == ["Refund policy 2026"]
    assert [f["name"] for f in ok(drive, "drive_search", {"query": "trashed = true"})["files"]] == [
        "Old price list (2024)"]
    assert ok(drive, "drive_search", {"query": "price list"})["files"] == []  # trashed is hidden
    fin = find(drive, "Finance").id
    csv = ok(drive, "drive_search", {"query": f"'{fin}' in parents and mimeType = 'text/csv'"})
    assert [f["name"] for f in csv["files"]] == ["Pending orders.csv"]
    assert code(drive, "drive_search", {"query": "name ~= 'x' and y"}) == 400
    assert code(drive, "drive_search", {"query": "x", "pageToken": "abc"}) == 400


def test_create_upload_append_copy(drive):
    f = ok(drive, "drive_create", {"name": "Notes", "mimeType": "text/plain", "parents": [find(drive, "Projects").id]})
    assert f["id"] == "file-0016" and f["owner"] == "ops@company.example"
    ok(drive, "drive_upload", {"fileId": f["id"], "data": base64.b64encode(b"Line 1\n").decode()})
    ok(drive, "drive_append_text", {"fileId": f["id"], "text": "Line 2\n"})
    assert ok(drive, "drive_file_content", {"fileId": f["id"]})["content"] == "Line 1\nLine 2\n"
    assert code(drive, "drive_upload", {"fileId": f["id"], "data": "%%%"}) == 400
    new = ok(drive, "drive_upload", {"data": base64.b64encode("héllo".encode()).decode()})
    assert new["name"] == "Untitled" and new["parents"] == ["root"]
    cp = ok(drive, "drive_copy", {"fileId": f["id"]})
    assert cp["name"] == "Copy of Notes" and drive.state.files[cp["id"]].content == "Line 1\nLine 2\n"
    assert code(drive, "drive_create", {"name": "x", "mimeType": "text/plain", "parents": [f["id"]]}) == 400


def test_trash_restore_delete(drive):
    ops = find(drive, "Operations")
    inside = [f.id for f in drive.state.files.values() if ops.id in f.parents]
    assert ok(drive, "drive_delete", {"fileId": ops.id})["affected"] == 1 + len(inside)
    assert code(drive, "drive_append_text", {"fileId": inside[0], "text": "x"}) == 409
    assert code(drive, "drive_restore", {"fileId": find(drive, "Finance").id}) == 409
    ok(drive, "drive_restore", {"fileId": ops.id})
    assert not drive.state.files[inside[0]].trashed
    ok(drive, "drive_delete", {"fileId": inside[0], "permanent": True})
    assert inside[0] not in drive.state.files
    assert code(drive, "drive_delete", {"fileId": "root"}) == 422


def test_sharing(drive):
    fid = find(drive, "Q1 budget notes").id
    p = ok(drive, "drive_share", {"fileId": fid, "role": "reader", "type": "user", "emailAddress": "Ann@Client.com"})
    assert p["emailAddress"] == "ann@client.com" and p["role"] == "reader"
    again = ok(drive, "drive_share", {"fileId": fid, "role": "writer", "type": "user", "emailAddress": "ann@client.com"})
    assert again["id"] == p["id"] and again["role"] == "writer"
    assert code(drive, "drive_share", {"fileId": fid, "role": "reader", "type": "domain"}) == 422
    assert code(drive, "drive_share", {"fileId": fid, "role": "reader", "type": "user"}) == 400
    assert code(drive, "drive_share", {"fileId": fid, "role": "owner", "type": "user", "emailAddress": "a@b.co"}) == 400
    perms = ok(drive, "drive_permissions_list", {"fileId": fid})
    assert perms[0]["role"] == "owner" and perms[-1]["id"] == p["id"]
    assert code(drive, "drive_permission_update", {"fileId": fid, "permissionId": perms[0]["id"], "role": "reader"}) == 409
    assert ok(drive, "drive_permission_update", {"fileId": fid, "permissionId": p["id"], "role": "commenter"})[
        "role"] == "commenter"
    ok(drive, "drive_permission_delete", {"fileId": fid, "permissionId": p["id"]})
    assert code(drive, "drive_permission_delete", {"fileId": fid, "permissionId": p["id"]}) == 404
    assert ok(drive, "drive_search", {"query": "'ann@client.com' in readers"})["files"] == []


def test_rename_star_move_comment(drive):
    fid = find(drive, "Escalation log").id
    assert ok(drive, "drive_rename", {"fileId": fid, "name": "Escalations 2026"})["name"] == "Escalations 2026"
    assert ok(drive, "drive_star", {"fileId": fid})["starred"] is True
    proj = find(drive, "Projects").id
    assert ok(drive, "drive_file_move", {"fileId": fid, "parents": [proj]})["parents"] == [proj]
    assert code(drive, "drive_file_move", {"fileId": proj, "parents": [proj]}) == 422
    c = ok(drive, "drive_comment", {"fileId": fid, "content": "Add January"})
    assert ok(drive, "drive_file_list_comments", {"fileId": fid})[-1] == c


@pytest.mark.parametrize("data", ["é", "\x80", "aGVsbG8=é"])
def test_upload_of_non_ascii_data_is_a_400_naming_data(drive, data):
    fid = find(drive, "Escalation log").id
    for args in ({"data": data}, {"data": data, "fileId": fid}):
        err = error(drive, "drive_upload", args)
        assert err["code"] == 400 and "'data'" in err["message"] and "base64" in err["message"]
