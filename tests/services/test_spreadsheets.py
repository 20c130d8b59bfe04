"""The spreadsheets service: A1 ranges, writes, appends, lookups, sharing."""

from __future__ import annotations

import pytest
from _svc_asserts import code, ok

from compoworld_gym.envs.services._commerce import order_book
from compoworld_gym.envs.services.spreadsheets import Spreadsheets, col_letter, parse_range

SS = "SS-0001"


@pytest.fixture
def sheets(make_service):
    return make_service(Spreadsheets)


def test_a1_parsing():
    assert parse_range("A1") == (None, 0, 0, 0, 0)
    assert parse_range("Orders!B2:D") == ("Orders", 1, 1, None, 3)
    assert parse_range("'My Sheet'!C:C") == ("My Sheet", 0, 2, None, 2)
    assert parse_range("2:5") == (None, 1, 0, 4, None)
    assert [col_letter(i) for i in (0, 25, 26, 701)] == ["A", "Z", "AA", "ZZ"]


def test_seed_and_reads(sheets, today):
    assert [b["title"] for b in ok(sheets, "list_spreadsheets")] == ["Customer orders 2026", "Team roster", "Q1 budget"]
    assert [b["id"] for b in ok(sheets, "list_spreadsheets", {"query": "ROSTER"})] == ["SS-0002"]
    meta = ok(sheets, "get_spreadsheet", {"spreadsheet_id": SS})
    assert meta["sheets"][0] == {"sheet_id": 0, "title": "Orders", "row_count": 13, "column_count": 5,
                                 "header": ["Order ID", "Customer Email", "Total", "Status", "Placed On"]}
    first = order_book(today)[0]
    data = ok(sheets, "get_sheet_data", {"spreadsheet_id": SS, "range": "Orders!A2:C2"})
    assert data == {"sheet": "Orders", "range": "A2:C2", "values": [[first.id, first.customer.email, first.total]]}
    col = ok(sheets, "get_sheet_data", {"spreadsheet_id": SS, "range": "D:D"})["values"]
    assert [r[0] for r in col[1:]] == [o.status for o in order_book(today)]
    assert ok(sheets, "get_sheet_data", {"spreadsheet_id": SS, "sheet": "Notes"})["values"][1] == [
        "Totals include shipping."]
    assert code(sheets, "get_sheet_data", {"spreadsheet_id": SS, "range": "Nope!A1"}) == 404
    assert code(sheets, "get_sheet_data", {"spreadsheet_id": SS, "range": "ZZZZ1"}) == 400
    assert code(sheets, "get_spreadsheet", {"spreadsheet_id": "SS-0099"}) == 404


def test_find_rows(sheets, today):
    pending = [o.id for o in order_book(today) if o.status == "pending"]
    rows = ok(sheets, "find_rows", {"spreadsheet_id": SS, "column": "status", "value": "PENDING"})
    assert [r["values"]["Order ID"] for r in rows] == pending and rows[0]["row"] == 9
    assert len(ok(sheets, "find_rows", {"spreadsheet_id": SS, "column": "B", "value": "gmail", "match": "contains"}))
    assert code(sheets, "find_rows", {"spreadsheet_id": SS, "column": "Nope Column", "value": 1}) == 404


def test_update_append_clear(sheets):
    out = ok(sheets, "update_cells", {"spreadsheet_id": SS, "range": "D9", "data": [["paid"]]})
    assert out == {"sheet": "Orders", "updated_range": "D9:D9", "updated_cells": 1}
    assert sheets.state.spreadsheets[SS].sheets[0].rows[8][3] == "paid"
    assert code(sheets, "update_cells", {"spreadsheet_id": SS, "range": "A1:A1", "data": [["x", "y"]]}) == 400
    ap = ok(sheets, "append_rows", {"spreadsheet_id": SS, "data": [["ORD-0013", "a@b.co", 10.5, "pending", "2026-01-15"]]})
    assert ap["updated_range"] == "A14:E14" and ap["first_row"] == 14
    ok(sheets, "update_cells", {"spreadsheet_id": SS, "range": "G20", "data": [[1, True]]})
    assert sheets.state.spreadsheets[SS].sheets[0].rows[19] == [None] * 6 + [1, True]
    assert ok(sheets, "clear_range", {"spreadsheet_id": SS, "range": "A14:H20"})["cleared_cells"] == 7
    assert len(sheets.state.spreadsheets[SS].sheets[0].rows) == 13  # trailing empty rows trimmed


def test_sheet_management_and_sharing(sheets):
    new = ok(sheets, "create_spreadsheet", {"title": "Event budget", "sheet_titles": ["Costs", "Vendors"]})
    assert new == {"id": "SS-0004", "title": "Event budget", "sheets": ["Costs", "Vendors"]}
    assert code(sheets, "create_spreadsheet", {"title": "x", "sheet_titles": ["A", "a"]}) == 400
    assert ok(sheets, "create_sheet", {"spreadsheet_id": "SS-0004", "title": "Notes"})["sheet_id"] == 2
    assert code(sheets, "create_sheet", {"spreadsheet_id": "SS-0004", "title": "notes"}) == 409
    ok(sheets, "rename_sheet", {"spreadsheet_id": "SS-0004", "sheet": "Notes", "new_title": "Memo"})
    assert code(sheets, "rename_sheet", {"spreadsheet_id": "SS-0004", "sheet": "Memo", "new_title": "Costs"}) == 409
    assert ok(sheets, "delete_sheet", {"spreadsheet_id": "SS-0004", "sheet": "Memo"})["sheets"] == ["Costs", "Vendors"]
    ok(sheets, "delete_sheet", {"spreadsheet_id": "SS-0004", "sheet": "Vendors"})
    assert code(sheets, "delete_sheet", {"spreadsheet_id": "SS-0004", "sheet": "Costs"}) == 409
    out = ok(sheets, "share_spreadsheet", {"spreadsheet_id": "SS-0004", "recipients": [
        {"email_address": "Ann@Client.com", "role": "reader"}, {"email_address": "ann@client.com", "role": "writer"}]})
    assert out["shared_with"] == [{"email_address": "ann@client.com", "role": "writer"}]
    assert code(sheets, "share_spreadsheet", {"spreadsheet_id": "SS-0004", "recipients": [
        {"email_address": "ops@company.example"}]}) == 409


@pytest.mark.parametrize("titles", [[""], ["Data", ""], ["x" * 101]])
def test_bad_sheet_titles_are_a_400_naming_the_title(sheets, titles):
    from _svc_asserts import error

    err = error(sheets, "create_spreadsheet", {"title": "t", "sheet_titles": titles})
    assert err["code"] == 400 and f"sheet_titles.{len(titles) - 1}" in err["message"]
    err = error(sheets, "rename_sheet", {"spreadsheet_id": "SS-0001", "sheet": "Orders", "new_title": titles[-1]})
    assert err["code"] == 400 and "'new_title'" in err["message"]


@pytest.mark.parametrize("value", [float("inf"), float("-inf"), float("nan")])  # text "NaN" stays text
def test_non_finite_cell_values_are_a_400(sheets, value):
    from _svc_asserts import error

    for tool, extra in (("update_cells", {"range": "A2"}), ("append_rows", {})):
        err = error(sheets, tool, {"spreadsheet_id": "SS-0001", "data": [[1, value]], **extra})
        assert err["code"] == 400 and "data.0.1" in err["message"]
