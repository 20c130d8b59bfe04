"""The forms service: questions, validated responses, summaries."""

from __future__ import annotations

import pytest
from _svc_asserts import code, ok

from compoworld_gym.envs.services.forms import Forms


@pytest.fixture
def forms(make_service):
    return make_service(Forms)


def test_seed_and_lists(make_service, forms):
    s = forms.state_dict()
    assert s == make_service(Forms).state_dict() != make_service(Forms, seed=1).state_dict()
    listed = ok(forms, "list_forms")
    assert [(f["id"], f["responses"]) for f in listed] == [("FRM-0001", 7), ("FRM-0002", 6), ("FRM-0003", 3),
                                                           ("FRM-0004", 4)]
    assert [f["id"] for f in ok(forms, "list_forms", {"status": "closed"})] == ["FRM-0004"]
    assert [q["type"] for q in ok(forms, "get_form", {"form_id": "FRM-0001"})["questions"]] == [
        "rating", "multiple_choice", "yes_no", "long_text"]
    assert code(forms, "get_form", {"form_id": "FRM-0404"}) == 404


def test_summary_matches_responses(forms):
    rs = [r for r in forms.state.responses.values() if r.form_id == "FRM-0001"]
    summary = ok(forms, "get_form_summary", {"form_id": "FRM-0001"})
    q1, q2, q3 = summary["questions"][:3]
    assert q1["average"] == round(sum(r.answers["q1"] for r in rs) / len(rs), 2)
    assert sum(q2["counts"].values()) == len(rs)
    assert q3["counts"]["yes"] == sum(r.answers["q3"] is True for r in rs)


def test_submit_validation(forms):
    f = "FRM-0001"
    assert code(forms, "submit_response", {"form_id": f, "respondent_email": "a@b.co", "answers": {"q1": 6, "q3": True}}) == 400
    assert code(forms, "submit_response", {"form_id": f, "respondent_email": "a@b.co", "answers": {"q1": 4}}) == 400
    assert code(forms, "submit_response", {"form_id": f, "respondent_email": "a@b.co",
                                            "answers": {"q1": 4, "q3": True, "q2": "TV"}}) == 400
    assert code(forms, "submit_response", {"form_id": f, "respondent_email": "a@b.co",
                                            "answers": {"q1": 4, "q3": True, "q9": "x"}}) == 400
    r = ok(forms, "submit_response", {"form_id": f, "respondent_email": "A@B.co", "answers": {"q1": 4, "q3": "yes" == "yes"}})
    assert r["id"] == "RSP-0021" and r["respondent_email"] == "a@b.co" and r["submitted_at"] == "2026-01-15T09:00:00"
    assert code(forms, "submit_response", {"form_id": f, "respondent_email": "a@b.co", "answers": {"q1": 4, "q3": True}}) == 409
    assert code(forms, "submit_response", {"form_id": "FRM-0004", "respondent_email": "z@b.co",
                                           "answers": {"q1": "Fish"}}) == 409
    it = {"q1": "Laptop", "q2": "2026-02-30", "q3": "boss@company.example"}
    assert code(forms, "submit_response", {"form_id": "FRM-0003", "respondent_email": "z@b.co", "answers": it}) == 400
    assert ok(forms, "submit_response", {"form_id": "FRM-0003", "respondent_email": "z@b.co",
                                         "answers": {**it, "q2": "2026-02-10"}})["answers"]["q2"] == "2026-02-10"


def test_responses_reads_and_delete(forms):
    ok(forms, "submit_response", {"form_id": "FRM-0002", "respondent_email": "guest@x.com",
                                  "answers": {"q1": "Yes", "q2": 2, "q3": ["Q&A", "Q&A", "Keynote"]}})
    hits = ok(forms, "list_responses", {"form_id": "FRM-0002", "question_id": "q3", "answer": "Q&A"})
    assert hits[-1]["respondent_email"] == "guest@x.com" and hits[-1]["answers"]["q3"] == ["Q&A", "Keynote"]
    assert code(forms, "list_responses", {"form_id": "FRM-0002", "question_id": "q3"}) == 400
    mine = ok(forms, "list_responses", {"form_id": "FRM-0002", "respondent_email": "GUEST@x.com"})
    rid = mine[0]["id"]
    assert ok(forms, "get_response", {"response_id": rid})["labelled"]["Number of guests"] == 2
    after = ok(forms, "list_responses", {"form_id": "FRM-0002", "submitted_after": "2026-01-15T08:00:00"})
    assert [r["id"] for r in after] == [rid]
    assert ok(forms, "delete_response", {"response_id": rid})["deleted"] is True
    assert code(forms, "get_response", {"response_id": rid}) == 404


def test_form_editing(forms):
    f = ok(forms, "create_form", {"title": "Webinar feedback", "questions": [
        {"title": "Useful?", "type": "rating", "required": True, "scale_max": 10}]})
    assert f["id"] == "FRM-0005" and f["questions"][0]["id"] == "q1" and f["status"] == "open"
    q = ok(forms, "add_question", {"form_id": "FRM-0005", "title": "Topics", "type": "checkboxes",
                                   "choices": ["AI", "Data"]})
    assert q["id"] == "q2"
    assert code(forms, "add_question", {"form_id": "FRM-0005", "title": "x", "type": "multiple_choice",
                                        "choices": ["only"]}) == 400
    assert code(forms, "add_question", {"form_id": "FRM-0005", "title": "x", "type": "number", "choices": ["a", "b"]}) == 400
    assert ok(forms, "delete_question", {"form_id": "FRM-0005", "question_id": "q2"})["deleted"] == "q2"
    assert code(forms, "delete_question", {"form_id": "FRM-0001", "question_id": "q4"}) == 409
    assert code(forms, "delete_question", {"form_id": "FRM-0005", "question_id": "q7"}) == 404
    ok(forms, "submit_response", {"form_id": "FRM-0005", "respondent_email": "a@b.co", "answers": {"q1": 9}})
    assert ok(forms, "update_form", {"form_id": "FRM-0005", "status": "closed"})["status"] == "closed"
    assert code(forms, "update_form", {"form_id": "FRM-0005"}) == 400
    assert code(forms, "submit_response", {"form_id": "FRM-0005", "respondent_email": "c@b.co", "answers": {"q1": 9}}) == 409
