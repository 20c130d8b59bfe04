"""Tests of the word_documents service (@GongRzhe_Office-Word-MCP-Server)."""

from __future__ import annotations

import pytest
from _svc_asserts import code, error, ok

from compoworld_gym.envs.services._word_documents_seed import HR_PASSWORD, LEGAL_PASSWORD
from compoworld_gym.envs.services.word_documents import WordDocuments

GLOBEX = "contracts/Globex_Corporation_MSA_2025.docx"
INITECH = "contracts/Initech_MSA_2025.docx"
NOTES = "Weekly_Ops_Sync_Notes.docx"


@pytest.fixture
def svc(make_service):
    return make_service(WordDocuments)


def test_list_documents_and_folders(svc):
    root = ok(svc, "list_available_documents")
    assert root["subdirectories"] == ["contracts", "policies", "proposals"]
    assert [d["filename"] for d in root["documents"]] == [NOTES]
    contracts = ok(svc, "list_available_documents", {"directory": "./contracts/"})
    assert contracts["subdirectories"] == ["contracts/archive"]
    assert [(d["filename"], d["protected"]) for d in contracts["documents"]][:2] == [(GLOBEX, False), (INITECH, True)]
    assert len(contracts["documents"]) == 5
    assert code(svc, "list_available_documents", {"directory": "invoices"}) == 404
    assert code(svc, "list_available_documents", {"directory": "/etc"}) == 422


def test_info_text_and_outline_are_computed(svc):
    info = ok(svc, "get_document_info", {"filename": "contracts/Globex_Corporation_MSA_2025"})  # .docx optional
    assert (info["title"], info["author"], info["paragraph_count"], info["table_count"], info["footnote_count"],
            info["word_count"], info["page_count"]) == ("Master Services Agreement — Globex Corporation",
                                                        "Hannah Kovacs", 11, 1, 1, 129, 1)
    text = ok(svc, "get_document_text", {"filename": GLOBEX})["text"]
    assert "Contract value\tUSD 168,000.00" in text
    assert "due net 30 from invoice.[1]" in text and text.endswith("Footnotes:\n1. Amounts exclude sales tax.")
    outline = ok(svc, "get_document_outline", {"filename": GLOBEX})
    assert [p["text"] for p in outline["paragraphs"] if p["is_heading"]][:3] == [
        "Master Services Agreement", "1. Key Terms", "2. Services"]
    assert outline["tables"][0]["after_paragraph"] == 2 and outline["tables"][0]["data"][1] == [
        "Customer", "Globex Corporation"]
    para = ok(svc, "get_paragraph_text_from_document", {"filename": GLOBEX, "paragraph_index": 5})
    assert (para["text"], para["style"], para["is_heading"]) == ("3. Fees and Payment", "Heading 1", True)
    assert code(svc, "get_paragraph_text_from_document", {"filename": GLOBEX, "paragraph_index": 11}) == 404
    assert code(svc, "get_document_text", {"filename": "contracts/Nobody.docx"}) == 404
    assert code(svc, "get_document_text", {"filename": "contracts/report.pdf"}) == 422


def test_find_text(svc):
    found = ok(svc, "find_text_in_document", {"filename": GLOBEX, "text_to_find": "customer", "match_case": False})
    assert found["total"] == 5
    assert ok(svc, "find_text_in_document", {"filename": GLOBEX, "text_to_find": "customer"})["total"] == 0
    assert ok(svc, "find_text_in_document", {"filename": GLOBEX, "text_to_find": "Custom",
                                             "whole_word": True})["total"] == 0
    cased = ok(svc, "find_text_in_document", {"filename": GLOBEX, "text_to_find": "Customer", "whole_word": True})
    assert cased["total"] == 5 and {"table_index": 0, "row": 1, "column": 0, "position": 0,
                                    "context": "Customer"} in cased["occurrences"]
    assert code(svc, "find_text_in_document", {"filename": GLOBEX, "text_to_find": ""}) == 400


def test_create_copy_and_add_content(svc):
    doc = ok(svc, "create_document", {"filename": "proposals/Soylent_Foods_Proposal", "title": "Proposal — Soylent",
                                      "author": "Jamal Wright"})
    name = doc["filename"]
    assert (name, doc["paragraph_count"], doc["revision"]) == ("proposals/Soylent_Foods_Proposal.docx", 0, 1)
    assert code(svc, "create_document", {"filename": name}) == 409
    assert ok(svc, "add_heading", {"filename": name, "text": "Pricing", "level": 2})["style"] == "Heading 2"
    assert code(svc, "add_heading", {"filename": name, "text": "Too deep", "level": 10}) == 400
    assert ok(svc, "add_paragraph", {"filename": name, "text": "Twenty chairs.", "style": "list bullet"})["style"] == \
        "List Bullet"
    assert code(svc, "add_paragraph", {"filename": name, "text": "x", "style": "Fancy"}) == 422
    pic = ok(svc, "add_picture", {"filename": name, "image_path": "images/acme_logo.png", "width": 2.5})
    assert (pic["kind"], pic["paragraph_index"]) == ("picture", 2)
    assert "images/org_chart.png" in error(svc, "add_picture", {"filename": name, "image_path": "images/x.png"})["message"]
    assert code(svc, "add_picture", {"filename": name, "image_path": "images/notes.txt"}) == 422
    assert ok(svc, "add_page_break", {"filename": name})["kind"] == "page_break"
    table = ok(svc, "add_table", {"filename": name, "rows": 2, "cols": 2, "data": [["SKU", "Qty"], ["CH-ERG-05", "20"]]})
    assert table["table_index"] == 0
    assert code(svc, "add_table", {"filename": name, "rows": 1, "cols": 2, "data": [["a", "b"], ["c", "d"]]}) == 422
    info = ok(svc, "get_document_info", {"filename": name})
    assert (info["paragraph_count"], info["table_count"], info["page_count"], info["revision"]) == (4, 1, 2, 6)
    copy = ok(svc, "copy_document", {"source_filename": name})
    assert copy["copy"] == "proposals/Soylent_Foods_Proposal_copy.docx"
    assert code(svc, "copy_document", {"source_filename": name}) == 409
    assert ok(svc, "copy_document", {"source_filename": INITECH, "destination_filename": "Initech_copy"})["copy"] == \
        "Initech_copy.docx"
    assert ok(svc, "get_document_info", {"filename": "Initech_copy.docx"})["protected"] is True  # protection copied


def test_delete_paragraph_moves_notes_and_tables(svc):
    out = ok(svc, "delete_paragraph", {"filename": GLOBEX, "paragraph_index": 1})
    assert out["paragraph_count"] == 10 and out["deleted_text"].startswith("This Master Services Agreement")
    doc = svc.state.documents[GLOBEX]
    assert (doc.tables[0].position, doc.footnotes[0].paragraph_index) == (2, 5)
    ok(svc, "delete_paragraph", {"filename": GLOBEX, "paragraph_index": 5})  # the fees paragraph, with its footnote
    assert svc.state.documents[GLOBEX].footnotes == []
    assert code(svc, "delete_paragraph", {"filename": GLOBEX, "paragraph_index": 40}) == 404


def test_search_and_replace_counts_and_keeps_formatting(svc):
    bold = svc.state.documents[GLOBEX].paragraphs[6].formats[0]
    assert svc.state.documents[GLOBEX].paragraphs[6].text[bold.start:bold.end] == "USD 168,000.00"
    out = ok(svc, "search_and_replace", {"filename": GLOBEX, "find_text": "168,000.00", "replace_text": "172,500.00"})
    assert (out["replacements"], out["in_paragraphs"], out["in_tables"]) == (2, 1, 1)
    p = svc.state.documents[GLOBEX].paragraphs[6]
    assert p.text[p.formats[0].start:p.formats[0].end] == "USD 172,500.00"
    short = ok(svc, "search_and_replace", {"filename": GLOBEX, "find_text": "Customer pays", "replace_text": "It pays"})
    assert short["replacements"] == 1
    p = svc.state.documents[GLOBEX].paragraphs[6]
    assert p.text[p.formats[0].start:p.formats[0].end] == "USD 172,500.00"  # moved with the text
    assert code(svc, "search_and_replace", {"filename": GLOBEX, "find_text": "globex corporation",
                                            "replace_text": "x"}) == 404  # case-sensitive


def test_protection_refuses_edits(svc):
    msg = error(svc, "add_paragraph", {"filename": INITECH, "text": "Amendment"})
    assert msg["code"] == 409 and "unprotect_document" in msg["message"]
    assert code(svc, "search_and_replace", {"filename": INITECH, "find_text": "Initech", "replace_text": "X"}) == 409
    assert ok(svc, "get_document_text", {"filename": INITECH})["text"].startswith("Master Services Agreement")
    assert code(svc, "protect_document", {"filename": INITECH, "password": "x"}) == 409
    assert code(svc, "unprotect_document", {"filename": INITECH, "password": "wrong"}) == 422
    assert ok(svc, "unprotect_document", {"filename": INITECH, "password": LEGAL_PASSWORD})["protected"] is False
    assert ok(svc, "add_paragraph", {"filename": INITECH, "text": "Amendment 1 agreed."})["paragraph_index"] == 11
    assert code(svc, "unprotect_document", {"filename": INITECH, "password": LEGAL_PASSWORD}) == 409
    assert ok(svc, "protect_document", {"filename": NOTES, "password": "ops-2026"})["protected"] is True
    assert code(svc, "add_page_break", {"filename": NOTES}) == 409
    assert ok(svc, "unprotect_document", {"filename": "policies/Remote_Work_Policy.docx",
                                          "password": HR_PASSWORD})["protected"] is False


def test_styles_and_formatting(svc):
    style = ok(svc, "create_custom_style", {"filename": NOTES, "style_name": "Action Item", "bold": True,
                                            "color": "red", "font_size": 12, "base_style": "list bullet"})
    assert (style["color"], style["base_style"]) == ("FF0000", "List Bullet")
    assert code(svc, "create_custom_style", {"filename": NOTES, "style_name": "heading 1"}) == 409
    assert code(svc, "create_custom_style", {"filename": NOTES, "style_name": "X", "color": "sparkly"}) == 422
    assert code(svc, "create_custom_style", {"filename": NOTES, "style_name": "X", "base_style": "Nope"}) == 422
    assert ok(svc, "add_paragraph", {"filename": NOTES, "text": "Send Globex pricing.",
                                     "style": "Action Item"})["style"] == "Action Item"
    f = ok(svc, "format_text", {"filename": NOTES, "paragraph_index": 3, "start_pos": 0, "end_pos": 6,
                                "italic": True, "color": "#00ff00"})
    assert (f["formatted"], f["color"], f["italic"]) == ("Globex", "00FF00", True)
    assert code(svc, "format_text", {"filename": NOTES, "paragraph_index": 3, "start_pos": 5, "end_pos": 500,
                                     "bold": True}) == 422
    assert code(svc, "format_text", {"filename": NOTES, "paragraph_index": 3, "start_pos": 0, "end_pos": 3}) == 400
    t = ok(svc, "format_table", {"filename": GLOBEX, "table_index": 0, "border_style": "double",
                                 "shading": [["blue", "blue"]]})
    assert (t["border_style"], t["shading"], t["has_header_row"]) == ("double", [["0000FF", "0000FF"]], True)
    assert code(svc, "format_table", {"filename": GLOBEX, "table_index": 3, "border_style": "none"}) == 404
    assert code(svc, "format_table", {"filename": GLOBEX, "table_index": 0, "border_style": "wavy"}) == 400
    assert code(svc, "format_table", {"filename": GLOBEX, "table_index": 0, "shading": [["red"] * 3]}) == 422


def test_footnotes_and_endnotes(svc):
    ok(svc, "add_footnote_to_document", {"filename": GLOBEX, "paragraph_index": 1, "footnote_text": "See order form."})
    assert code(svc, "add_footnote_to_document", {"filename": GLOBEX, "paragraph_index": 99,
                                                  "footnote_text": "x"}) == 404
    ok(svc, "customize_footnote_style", {"filename": GLOBEX, "numbering_format": "a, b, c", "start_number": 3})
    text = ok(svc, "get_document_text", {"filename": GLOBEX})["text"]
    assert "effective November 19, 2025.[c]" in text and "Footnotes:\nc. See order form.\nd. Amounts exclude" in text
    assert code(svc, "customize_footnote_style", {"filename": GLOBEX, "numbering_format": "1) 2) 3)"}) == 400
    ok(svc, "add_endnote_to_document", {"filename": GLOBEX, "paragraph_index": 10, "endnote_text": "Countersigned."})
    conv = ok(svc, "convert_footnotes_to_endnotes_in_document", {"filename": GLOBEX})
    assert (conv["converted"], conv["endnote_count"]) == (2, 3)
    text = ok(svc, "get_document_text", {"filename": GLOBEX})["text"]
    assert text.endswith("Endnotes:\ni. See order form.\nii. Amounts exclude sales tax.\niii. Countersigned.")
    assert code(svc, "convert_footnotes_to_endnotes_in_document", {"filename": GLOBEX}) == 409
    pic = "proposals/Tyrell_Analytics_Workspace_Proposal.docx"
    assert code(svc, "add_endnote_to_document", {"filename": pic, "paragraph_index": 6, "endnote_text": "x"}) == 422


def test_convert_to_pdf(svc):
    pdf = ok(svc, "convert_to_pdf", {"filename": INITECH})
    assert (pdf["filename"], pdf["pages"], pdf["source_revision"]) == ("contracts/Initech_MSA_2025.pdf", 1, 3)
    assert ok(svc, "convert_to_pdf", {"filename": NOTES, "output_filename": "exports/notes"})["filename"] == \
        "exports/notes.pdf"
    assert code(svc, "convert_to_pdf", {"filename": NOTES, "output_filename": "exports/notes.docx"}) == 422


def test_failed_write_rolls_back(svc):
    before = svc.state_dict()
    assert svc.call("add_table", {"filename": GLOBEX, "rows": 1, "cols": 1, "data": [["a", "b"]]})["success"] is False
    assert svc.call("unprotect_document", {"filename": INITECH, "password": "nope"})["success"] is False
    assert svc.state_dict() == before


def test_seed_is_deterministic(make_service):
    assert make_service(WordDocuments, seed=5).state_dict() == make_service(WordDocuments, seed=5).state_dict()
