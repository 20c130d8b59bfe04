"""Tests of the presentations service (Office-PowerPoint-MCP-Server, spec ``ppt``)."""

from __future__ import annotations

import pytest
from _svc_asserts import code, error, ok

from compoworld_gym.envs.services._accounts import ACCOUNTS_BY_ID
from compoworld_gym.envs.services._presentations_rules import best_font_size, fits
from compoworld_gym.envs.services.presentations import Presentations

GLOBEX = "presentation_3"


@pytest.fixture
def svc(make_service):
    return make_service(Presentations)


def test_text_fit():
    assert fits("Quarterly revenue grew 18%", 4.0, 1.0, 18) and not fits("x" * 400, 2.0, 0.5, 18)
    assert best_font_size("x" * 400, 2.0, 0.5, 8, 72) is None
    assert best_font_size("Revenue", 4.0, 1.0, 8, 72) == 60


def test_seeded_decks_and_reads(svc):
    listed = ok(svc, "list_presentations")
    assert listed["current_presentation_id"] == "presentation_1"
    assert [(p["id"], p["customer"]) for p in listed["presentations"]] == [
        ("presentation_1", None), ("presentation_2", None), (GLOBEX, "Globex Corporation"),
        ("presentation_4", "Initech"), ("presentation_5", "Soylent Foods")]
    assert "decks/archive/q3-fy2025-business-review.pptx" in listed["files"]
    info = ok(svc, "get_presentation_info", {"presentation_id": GLOBEX})
    globex = ACCOUNTS_BY_ID["CUS-0001"]
    assert info["core_properties"]["comments"] == f"Customer contact: {globex.contact_name} <{globex.contact_email}>"
    assert [s["title"] for s in info["slides"]] == ["Globex Corporation: Quarterly Business Review",
                                                    "Account summary", "Platform usage", "Next steps"]
    assert ok(svc, "get_presentation_info")["id"] == "presentation_1"  # the current one
    slide = ok(svc, "get_slide_info", {"slide_index": 1, "presentation_id": GLOBEX})
    assert slide["shapes"][1]["table"]["data"][1:3] == [["Annual contract value", "$183,900.00"],
                                                        ["Open opportunity", "TBD"]]
    chart = ok(svc, "get_slide_info", {"slide_index": 1})["shapes"][1]["chart"]
    assert (chart["chart_type"], chart["series"][0]["values"]) == ("column", [1831800.0, 1936100.0, 2083300.0,
                                                                              2217900.0])
    assert code(svc, "get_slide_info", {"slide_index": 9}) == 404
    assert code(svc, "get_presentation_info", {"presentation_id": "presentation_99"}) == 404
    assert [t["template_id"] for t in ok(svc, "list_slide_templates")["templates"]][:2] == ["title_slide",
                                                                                            "text_with_image"]
    assert ok(svc, "get_server_info")["presentations_open"] == 5


def test_update_cell_and_save(svc):
    cell = ok(svc, "update_table_cell", {"slide_index": 1, "shape_index": 1, "row": 2, "col": 1,
                                         "text": "$48,000.00", "presentation_id": GLOBEX})
    assert cell["text"] == "$48,000.00"
    assert svc.state.files["decks/customers/globex-corporation-qbr.pptx"].slides[1].shapes[1].table.cells[
        "2,1"].text == "TBD"  # not saved yet
    saved = ok(svc, "save_presentation", {"file_path": "decks/customers/globex-corporation-qbr.pptx",
                                          "presentation_id": GLOBEX})
    assert (saved["revision"], saved["slide_count"]) == (4, 4)
    assert svc.state.files["decks/customers/globex-corporation-qbr.pptx"].slides[1].shapes[1].table.cells[
        "2,1"].text == "$48,000.00"
    assert code(svc, "save_presentation", {"file_path": "decks/globex.docx", "presentation_id": GLOBEX}) == 400
    assert code(svc, "update_table_cell", {"slide_index": 1, "shape_index": 1, "row": 5, "col": 0, "text": "x",
                                           "presentation_id": GLOBEX}) == 400
    assert code(svc, "update_table_cell", {"slide_index": 1, "shape_index": 0, "row": 0, "col": 0, "text": "x",
                                           "presentation_id": GLOBEX}) == 422  # the title, not a table
    f = ok(svc, "format_table_cell", {"slide_index": 1, "shape_index": 1, "row": 2, "col": 1, "bold": True,
                                      "bg_color": [255, 242, 204], "presentation_id": GLOBEX})
    assert (f["format"]["bold"], f["format"]["bg_color"]) == (True, [255, 242, 204])
    assert code(svc, "format_table_cell", {"slide_index": 1, "shape_index": 1, "row": 2, "col": 1,
                                           "presentation_id": GLOBEX}) == 400


def test_open_create_switch(svc):
    opened = ok(svc, "open_presentation", {"file_path": "decks/archive/q3-fy2025-business-review.pptx"})
    assert (opened["id"], opened["slide_count"], opened["is_current"]) == ("presentation_6", 3, True)
    assert opened["slides"][0]["title"] == "Q3 FY2025 Quarterly Business Review"
    assert code(svc, "open_presentation", {"file_path": "decks/nope.pptx"}) == 404
    assert code(svc, "open_presentation", {"file_path": "decks/board-update-2026-01.pptx",
                                           "id": "presentation_2"}) == 409
    new = ok(svc, "create_presentation", {"id": "pricing"})
    assert (new["id"], new["slide_count"]) == ("pricing", 0)
    assert code(svc, "create_presentation", {"id": "pricing"}) == 409
    assert ok(svc, "set_core_properties", {"title": "Pricing 2026", "author": "Jamal Wright"})["title"] == \
        "Pricing 2026"
    assert code(svc, "set_core_properties", {}) == 400
    assert code(svc, "switch_presentation", {"presentation_id": "ghost"}) == 404
    assert ok(svc, "switch_presentation", {"presentation_id": "presentation_2"})["is_current"] is True


def test_slides_placeholders_bullets_text(svc):
    s = ok(svc, "add_slide", {"layout_index": 1, "title": "Q1 priorities", "presentation_id": "presentation_2"})
    assert (s["slide_index"], s["slide_id"], s["layout_name"]) == (4, 260, "Title and Content")
    assert code(svc, "add_slide", {"layout_index": 6, "title": "Blank has none"}) == 422
    assert code(svc, "add_slide", {"layout_index": 12}) == 400
    assert code(svc, "add_slide", {"background_type": "gradient", "background_colors": [[1, 2, 3]]}) == 400
    b = ok(svc, "add_bullet_points", {"slide_index": 4, "placeholder_idx": 1, "presentation_id": "presentation_2",
                                      "bullet_points": ["Close the Series B", "Hire two account managers"]})
    assert b["paragraphs"] == ["Close the Series B", "Hire two account managers"]
    assert code(svc, "add_bullet_points", {"slide_index": 4, "placeholder_idx": 0, "bullet_points": ["x"],
                                           "presentation_id": "presentation_2"}) == 422
    p = ok(svc, "populate_placeholder", {"slide_index": 4, "placeholder_idx": 0, "text": "Q1 FY26 priorities",
                                         "presentation_id": "presentation_2"})
    assert p["text"] == "Q1 FY26 priorities"
    assert code(svc, "populate_placeholder", {"slide_index": 4, "placeholder_idx": 7, "text": "x",
                                              "presentation_id": "presentation_2"}) == 404
    box = ok(svc, "manage_text", {"slide_index": 0, "operation": "add", "text": "Draft", "left": 7, "top": 0.2,
                                  "width": 2.5, "height": 0.6, "bold": True})
    assert (box["shape_index"], box["shape_type"], box["format"]["bold"]) == (2, "text_box", True)
    assert code(svc, "manage_text", {"slide_index": 0, "operation": "add", "text": "Off", "left": 8, "width": 4}) \
        == 400
    v = ok(svc, "manage_text", {"slide_index": 0, "operation": "validate", "shape_index": 2, "font_size": 40})
    assert (v["fits"], v["suggested_font_size"]) == (False, 36)  # 40pt needs 0.67 in of height
    assert ok(svc, "manage_text", {"slide_index": 0, "operation": "format", "shape_index": 2,
                                   "font_size": 24})["format"]["font_size"] == 24
    assert code(svc, "manage_text", {"slide_index": 0, "operation": "format", "shape_index": 2}) == 400
    assert code(svc, "manage_text", {"slide_index": 0, "operation": "rotate", "shape_index": 2}) == 400
    t = ok(svc, "manage_slide_transitions", {"slide_index": 0, "operation": "set", "transition_type": "fade"})
    assert (t["transition"], t["duration"]) == ("fade", 1.0)
    assert code(svc, "manage_slide_transitions", {"slide_index": 0, "operation": "set",
                                                  "transition_type": "spin"}) == 400


def test_tables_and_charts(svc):
    tbl = ok(svc, "add_table", {"slide_index": 3, "rows": 3, "cols": 2, "left": 0.5, "top": 4.5, "width": 9,
                                "height": 1.5, "data": [["Region", "Revenue"], ["EMEA", "$410,000"]]})
    assert (tbl["shape_index"], tbl["table"]["data"][2]) == (2, ["", ""])
    assert code(svc, "add_table", {"slide_index": 3, "rows": 1, "cols": 2, "left": 0.5, "top": 4.5, "width": 9,
                                   "height": 1, "data": [["a", "b"], ["c", "d"]]}) == 422
    assert code(svc, "add_table", {"slide_index": 3, "rows": 40, "cols": 2, "left": 0.5, "top": 4.5, "width": 9,
                                   "height": 1}) == 422
    ch = ok(svc, "add_chart", {"slide_index": 3, "chart_type": "pie", "left": 6, "top": 1.8, "width": 3.5,
                               "height": 2.5, "categories": ["Online", "Wholesale"], "series_names": ["Mix"],
                               "series_values": [[62, 38]], "title": "Revenue mix"})
    assert (ch["shape_index"], ch["chart"]["series"][0]["values"]) == (3, [62.0, 38.0])
    assert code(svc, "add_chart", {"slide_index": 3, "chart_type": "pie", "left": 6, "top": 1.8, "width": 3,
                                   "height": 2, "categories": ["a", "b"], "series_names": ["x", "y"],
                                   "series_values": [[1, 2], [3, 4]]}) == 422
    assert code(svc, "add_chart", {"slide_index": 3, "chart_type": "line", "left": 6, "top": 1.8, "width": 3,
                                   "height": 2, "categories": ["a", "b"], "series_names": ["x"],
                                   "series_values": [[1]]}) == 422
    upd = ok(svc, "update_chart_data", {"slide_index": 1, "shape_index": 1, "categories": ["Q3 FY25", "Q4 FY25"],
                                        "series_data": [{"name": "Revenue (USD)", "values": [2083300, 2250000]}]})
    assert (upd["chart"]["chart_type"], upd["chart"]["series"][0]["values"]) == ("column", [2083300.0, 2250000.0])
    msg = error(svc, "update_chart_data", {"slide_index": 1, "shape_index": 1, "categories": ["a"],
                                           "series_data": [{"name": "x", "values": ["high"]}]})
    assert msg["code"] == 400
    assert code(svc, "update_chart_data", {"slide_index": 1, "shape_index": 0, "categories": ["a"],
                                           "series_data": [{"name": "x", "values": [1]}]}) == 422


def test_failed_write_rolls_back_and_seed_is_deterministic(svc, make_service):
    before = svc.state_dict()
    assert svc.call("add_chart", {"slide_index": 0, "chart_type": "bar", "left": 0, "top": 0, "width": 20,
                                  "height": 2, "categories": ["a"], "series_names": ["s"],
                                  "series_values": [[1]]})["success"] is False
    assert svc.state_dict() == before
    assert make_service(Presentations, seed=4).state_dict() == make_service(Presentations, seed=4).state_dict()
