"""Tests of the flashcards service (Anki MCP server + AnkiConnect actions)."""

from __future__ import annotations

import pytest
from _svc_asserts import code, error, ok

from compoworld_gym.envs.services.flashcards import Flashcards
from compoworld_gym.envs.services.learning_management import LearningManagement

BIL = "Academy::BIL-150 Billing Operations Certification"
API = "Academy::API-220 API Integration Workshop"
PRV = "Academy::PRV-105 Data Privacy Essentials"


@pytest.fixture
def svc(make_service):
    return make_service(Flashcards)


def test_decks_follow_the_lms_courses(make_service, svc):
    lms = make_service(LearningManagement)
    names = ok(svc, "listDecks")
    assert names[:2] == ["Academy", "Academy::ADM-101 Platform Administration Fundamentals"] and names[-1] == "Default"
    stats = ok(svc, "getDeckStats", {"decks": [n for n in names if n.count("::") == 1]})
    assert len(stats) == len(lms.state.courses) == 8
    for s in stats.values():
        course = lms.state.courses[s["course_id"]]
        assert s["name"] == f"Academy::{course.course_code} {course.name}"
        assert s["maintainer_email"] == course.instructor_email
    assert stats["DECK-0004"]["course_id"] == "CRS-0002"


def test_models(svc):
    assert ok(svc, "listModels") == ["Academy Term", "Basic", "Basic (and reversed card)",
                                     "Basic (type in the answer)", "Cloze"]
    m = ok(svc, "getModel", {"modelName": "basic (and reversed card)"})
    assert (m["fields"], [t["name"] for t in m["templates"]]) == (["Front", "Back"], ["Card 1", "Card 2"])
    assert ok(svc, "getModel", {"modelName": "Cloze"})["type"] == "cloze"
    assert code(svc, "getModel", {"modelName": "Vocab"}) == 404


def test_search_and_info(svc):
    assert ok(svc, "findNotes", {"query": "tag:leech"}) == ["NOTE-0007", "NOTE-0010", "NOTE-0013"]
    assert ok(svc, "findNotes", {"query": f'deck:"{BIL}"'}) == ["NOTE-0004", "NOTE-0005", "NOTE-0006", "NOTE-0007"]
    assert ok(svc, "findNotes", {"query": f'"deck:{BIL}" -tag:billing::*'}) == ["NOTE-0004", "NOTE-0005",
                                                                               "NOTE-0006"]
    assert ok(svc, "findNotes", {"query": "tag:billing"}) == ["NOTE-0004", "NOTE-0005", "NOTE-0006", "NOTE-0007"]
    assert ok(svc, "findNotes", {"query": "deck:Academy::API* note:Basic*"}) == ["NOTE-0013", "NOTE-0015"]
    assert ok(svc, "findNotes", {"query": "term:idempotency*"}) == ["NOTE-0014"]
    assert ok(svc, "findNotes", {"query": "gdpr ARTICLE"}) == ["NOTE-0010"]  # words are ANDed
    assert ok(svc, "findNotes", {"query": '"article gdpr"'}) == []  # a quoted phrase
    assert ok(svc, "findCards", {"query": "is:suspended"}) == ["CARD-0009", "CARD-0013", "CARD-0016"]
    assert ok(svc, "findCards", {"query": f'deck:"{API}" is:new'}) == ["CARD-0017", "CARD-0019"]
    assert ok(svc, "findCards", {"query": "is:due"}) == ["CARD-0001", "CARD-0011", "CARD-0021"]
    assert ok(svc, "findCards", {"query": "nid:NOTE-0006"}) == ["CARD-0007", "CARD-0008"]
    assert code(svc, "findNotes", {"query": 'deck:"Academy'}) == 400
    assert code(svc, "findNotes", {"query": "is:buried"}) == 400
    info = ok(svc, "notesInfo", {"notes": ["NOTE-0007"]})[0]
    assert info["tags"] == ["billing::refunds", "leech"] and info["decks"] == [f"{BIL}::Refunds"]
    assert info["fields"]["Back Extra"] == {"value": "Refunds over $500 need a second approver.", "order": 1}
    card = ok(svc, "cardsInfo", {"cards": ["CARD-0009"]})[0]
    assert (card["suspended"], card["lapses"], card["question"]) == (
        True, 8, "A refund returns money to the [...]; a credit note reduces the invoice balance.")
    assert ok(svc, "cardsInfo", {"cards": ["CARD-0008"]})[0]["question"] == (
        "A document that reduces an issued invoice's balance")
    assert code(svc, "notesInfo", {"notes": ["NOTE-0999"]}) == 404
    assert code(svc, "cardsInfo", {"cards": ["CARD-0999"]}) == 404


def test_deck_stats(svc):
    s = ok(svc, "getDeckStats", {"decks": [BIL, "academy"]})
    assert {k: s["DECK-0004"][k] for k in ("new_count", "review_count", "total_in_deck", "suspended_count")} == {
        "new_count": 1, "review_count": 0, "total_in_deck": 6, "suspended_count": 1}
    assert (s["DECK-0002"]["total_in_deck"], s["DECK-0002"]["review_count"]) == (24, 3)
    assert ok(svc, "deckNamesAndIds")[PRV] == "DECK-0006"
    assert code(svc, "getDeckStats", {"decks": ["Nope"]}) == 404


def test_add_note(svc):
    n = ok(svc, "addNote", {"deckName": API, "modelName": "Basic (and reversed card)",
                            "fields": {"Front": "Pagination cursor", "Back": "An opaque pointer to the next page"},
                            "tags": ["api", "paging"]})
    assert (n["noteId"], n["cards"], n["decks"]) == ("NOTE-0021", ["CARD-0025", "CARD-0026"], [API])
    assert ok(svc, "cardsInfo", {"cards": ["CARD-0026"]})[0]["type_name"] == "new"
    cz = ok(svc, "addNote", {"deckName": API, "modelName": "Cloze",
                             "fields": {"Text": "{{c1::OAuth}} issues {{c2::access tokens}}; {{c1::OAuth}} too."}})
    assert len(cz["cards"]) == 2
    msg = error(svc, "addNote", {"deckName": API, "modelName": "Basic",
                                 "fields": {"Front": "<b>What does SSO stand for?</b>", "Back": "x"}})
    assert msg["code"] == 409 and "duplicate" in msg["message"]
    assert ok(svc, "addNote", {"deckName": API, "modelName": "Basic (type in the answer)",
                               "fields": {"Front": "What does SSO stand for?", "Back": "SSO"}})["noteId"]  # other type
    assert code(svc, "addNote", {"deckName": "Nope", "modelName": "Basic", "fields": {"Front": "a"}}) == 404
    assert code(svc, "addNote", {"deckName": API, "modelName": "Vocab", "fields": {"Front": "a"}}) == 404
    assert code(svc, "addNote", {"deckName": API, "modelName": "Basic", "fields": {"Front": "a", "Extra": "b"}}) == 400
    assert error(svc, "addNote", {"deckName": API, "modelName": "Basic",
                                  "fields": {"Front": " <br> ", "Back": "b"}})["code"] == 422
    assert code(svc, "addNote", {"deckName": API, "modelName": "Cloze", "fields": {"Text": "no cloze here"}}) == 422
    assert code(svc, "addNote", {"deckName": API, "modelName": "Basic", "fields": {"Front": "q2"},
                                 "tags": ["two words"]}) == 400


def test_add_notes_partial(svc):
    res = ok(svc, "addNotes", {"notes": [
        {"deckName": PRV, "modelName": "Basic", "fields": {"Front": "What is a DPA?", "Back": "Data processing "
                                                                                           "agreement"}},
        {"deckName": PRV, "modelName": "Basic", "fields": {"Front": "What is a DPA?", "Back": "again"}},
        {"deckName": "Nope", "modelName": "Basic", "fields": {"Front": "x"}},
        {"deckName": PRV, "modelName": "Academy Term", "fields": {"Term": "Controller", "Definition": "Decides why "
                                                                                                   "data is processed"},
         "tags": ["privacy"]}]})
    assert res["result"] == ["NOTE-0021", None, None, "NOTE-0022"]
    assert [e["index"] for e in res["errors"]] == [1, 2] and "duplicate" in res["errors"][0]["error"]
    assert ok(svc, "notesInfo", {"notes": ["NOTE-0022"]})[0]["fields"]["Notes"]["value"] == ""


def test_update_fields_and_tags(svc):
    text = "An admin API key is shown {{c1::once}}; rotate it every {{c2::90}} days and on {{c3::staff exits}}."
    u = ok(svc, "updateNoteFields", {"note": {"id": "NOTE-0003", "fields": {"Text": text}}})
    assert u["cards"] == ["CARD-0003", "CARD-0004", "CARD-0025"]
    assert code(svc, "updateNoteFields", {"note": {"id": "NOTE-0001", "fields": {"Extra": "x"}}}) == 400
    assert code(svc, "updateNoteFields", {"note": {"id": "NOTE-0001", "fields": {"Front": ""}}}) == 422
    assert code(svc, "updateNoteFields", {"note": {"id": "NOTE-0999", "fields": {"Front": "x"}}}) == 404
    assert ok(svc, "addTags", {"notes": ["NOTE-0013", "NOTE-0014"], "tags": "needs_review API"}) == [
        {"noteId": "NOTE-0013", "tags": ["api", "leech", "needs_review"]},
        {"noteId": "NOTE-0014", "tags": ["api", "needs_review"]}]
    assert ok(svc, "removeTags", {"notes": ["NOTE-0013"], "tags": "LEECH"})[0]["tags"] == ["api", "needs_review"]
    assert code(svc, "addTags", {"notes": ["NOTE-0013"], "tags": "a\"b"}) == 400
    assert code(svc, "removeTags", {"notes": ["NOTE-0999"], "tags": "x"}) == 404


def test_suspend_unsuspend(svc):
    assert ok(svc, "unsuspend", {"cards": ["CARD-0016", "CARD-0017"]}) is True
    assert [(c["queue"], c["suspended"]) for c in ok(svc, "cardsInfo", {"cards": ["CARD-0016", "CARD-0017"]})] == [
        (2, False), (0, False)]
    assert ok(svc, "unsuspend", {"cards": ["CARD-0016"]}) is False
    assert ok(svc, "suspend", {"cards": ["CARD-0017"]}) is True
    assert ok(svc, "suspend", {"cards": ["CARD-0017"]}) is False
    assert code(svc, "suspend", {"cards": ["CARD-0999"]}) == 404


def test_decks_create_move_delete(svc):
    d = ok(svc, "createDeck", {"deck": "Academy::RPT-210 Advanced Reporting and Dashboards::Week 1"})
    assert (d["id"], d["created"], d["course_id"]) == ("DECK-0012", True, None)
    again = ok(svc, "createDeck", {"deck": "academy::rpt-210 advanced reporting and dashboards"})
    assert (again["id"], again["created"], again["course_id"]) == ("DECK-0009", False, "CRS-0006")
    linked = ok(svc, "createDeck", {"deck": "Archive::SEC-130 Account Security 2024"})
    assert (linked["id"], linked["course_id"]) == ("DECK-0014", "CRS-0004")  # Archive is DECK-0013
    assert ok(svc, "getDeckStats", {"decks": ["Archive::SEC-130 Account Security 2024"]})["DECK-0014"][
        "maintainer_email"] == "sofia.marin@company.example"
    assert code(svc, "createDeck", {"deck": "Academy::"}) == 400
    mv = ok(svc, "changeDeck", {"cards": ["CARD-0014", "CARD-0015"], "deck": "Archive::SEC-130 Account Security 2024"})
    assert mv["deck_id"] == "DECK-0014" and mv["deck_created"] is False
    assert code(svc, "deleteDecks", {"decks": ["Archive"]}) == 422  # cardsToo
    assert code(svc, "deleteDecks", {"decks": ["Default"], "cardsToo": True}) == 422
    gone = ok(svc, "deleteDecks", {"decks": ["Archive"], "cardsToo": True})
    assert gone == {"deleted_decks": ["DECK-0013", "DECK-0014"], "deleted_cards": 2,
                    "deleted_notes": ["NOTE-0011", "NOTE-0012"]}
    assert "Archive" not in ok(svc, "listDecks")
    dn = ok(svc, "deleteNotes", {"notes": ["NOTE-0006"]})
    assert dn == {"deleted_notes": ["NOTE-0006"], "deleted_cards": 2}
    assert code(svc, "deleteNotes", {"notes": ["NOTE-0006"]}) == 404


def test_failed_write_rolls_back_and_seed_is_deterministic(svc, make_service):
    before = svc.state_dict()
    assert svc.call("addNote", {"deckName": BIL, "modelName": "Basic",
                                "fields": {"Front": "What does SSO stand for?"}})["success"] is False
    assert svc.call("deleteDecks", {"decks": [BIL]})["success"] is False
    assert svc.state_dict() == before
    assert make_service(Flashcards, seed=5).state_dict() == make_service(Flashcards, seed=5).state_dict()
