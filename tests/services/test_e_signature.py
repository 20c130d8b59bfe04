"""Tests of the e-signature service (DocuSign-style envelopes)."""

from __future__ import annotations

import pytest
from _svc_asserts import code, error, ok

from compoworld_gym.envs.services.e_signature import ESignature

JAMAL, ELENA, AISHA = "jamal.wright@company.example", "elena.petrova@company.example", "aisha.khan@company.example"
SIGNER = "dana.fox@acmelabs.example"


@pytest.fixture
def svc(make_service):
    return make_service(ESignature)


def draft(svc, send_now=False, signers=None):
    signers = signers or [{"name": "Dana Fox", "email": SIGNER, "routing_order": 1},
                          {"name": "Elena Petrova", "email": ELENA, "routing_order": 2}]
    return ok(svc, "create_envelope", {"email_subject": "Please sign: Order Form - Acme Labs", "sender_email": JAMAL,
                                       "company": "Acme Labs", "documents": [{"name": "Order Form.pdf", "pages": 4}],
                                       "signers": signers, "send_now": send_now})


def test_seeded_envelopes(svc):
    envs = svc.state.envelopes
    assert [e.status for e in envs.values()] == ["created", "sent", "delivered", "completed", "completed",
                                                 "declined", "voided", "sent", "delivered", "completed"]
    assert all(e.signers[1].email in (ELENA, AISHA) and e.signers[1].routing_order == 2 for e in envs.values())
    done = envs["ENV-0004"]
    assert [a.action for a in done.audit] == ["Sent", "Delivered", "Signed", "Signed", "Completed"]
    assert done.completed_at == done.signers[1].signed_at
    assert ESignature.seed_state(0, svc.today) == ESignature.seed_state(0, svc.today)


def test_reads(svc):
    rows = ok(svc, "list_envelopes", {"count": 2})
    assert [r["id"] for r in rows] == ["ENV-0006", "ENV-0009"] and "audit" not in rows[0]
    assert [r["id"] for r in ok(svc, "list_envelopes", {"status": "sent"})] == ["ENV-0002", "ENV-0008"]
    assert [r["id"] for r in ok(svc, "list_envelopes", {"company": "nash llc"})] == ["ENV-0002"]
    assert [r["id"] for r in ok(svc, "list_envelopes", {"recipient_email": "Betty.Lopez@powellltd.example"})] == ["ENV-0008"]
    assert len(ok(svc, "list_envelopes", {"sender_email": JAMAL})) == 6
    e = ok(svc, "get_envelope", {"envelope_id": "ENV-0003"})
    assert (e["status"], e["current_routing_order"], e["company"]) == ("delivered", 1, "Rose, Nelson and Kidd")
    r = ok(svc, "list_recipients", {"envelope_id": "ENV-0004"})
    assert r["current_routing_order"] is None and [s["status"] for s in r["signers"]] == ["signed", "signed"]
    assert ok(svc, "list_envelope_documents", {"envelope_id": "ENV-0001"})[0]["document_id"] == 1
    assert [a["action"] for a in ok(svc, "list_audit_events", {"envelope_id": "ENV-0007"})][-1] == "Voided"
    assert code(svc, "get_envelope", {"envelope_id": "ENV-0999"}) == 404


def test_draft_edits_and_send(svc):
    e = draft(svc)
    assert (e["id"], e["status"], e["current_routing_order"]) == ("ENV-0011", "created", 1)
    assert [s["status"] for s in e["signers"]] == ["created", "created"]
    docs = ok(svc, "add_envelope_document", {"envelope_id": "ENV-0011", "name": "DPA.pdf", "pages": 3})["documents"]
    assert [(d["document_id"], d["name"]) for d in docs] == [(1, "Order Form.pdf"), (2, "DPA.pdf")]
    extra = ok(svc, "add_recipient", {"envelope_id": "ENV-0011", "name": "Aisha Khan", "email": AISHA,
                                      "routing_order": 3})
    assert (extra["recipient_id"], extra["status"]) == (3, "created")
    assert code(svc, "add_recipient", {"envelope_id": "ENV-0011", "name": "Aisha", "email": AISHA}) == 409
    left = ok(svc, "remove_recipient", {"envelope_id": "ENV-0011", "recipient_email": AISHA})
    assert [s["email"] for s in left["signers"]] == [SIGNER, ELENA]
    sent = ok(svc, "send_envelope", {"envelope_id": "ENV-0011"})
    assert sent["status"] == "sent" and [s["status"] for s in sent["signers"]] == ["sent", "created"]
    assert code(svc, "send_envelope", {"envelope_id": "ENV-0011"}) == 409
    assert code(svc, "add_envelope_document", {"envelope_id": "ENV-0011", "name": "x.pdf"}) == 409
    empty = ok(svc, "create_envelope", {"email_subject": "x", "sender_email": JAMAL, "company": "Acme Labs"})
    assert code(svc, "send_envelope", {"envelope_id": empty["id"]}) == 422
    assert ok(svc, "delete_draft_envelope", {"envelope_id": empty["id"]})["id"] == "ENV-0012"
    assert code(svc, "delete_draft_envelope", {"envelope_id": "ENV-0011"}) == 409
    assert code(svc, "create_envelope", {"email_subject": "x", "sender_email": JAMAL, "company": "A",
                                         "send_now": True}) == 422


def test_routing_order_and_completion(svc):
    draft(svc, send_now=True)
    msg = error(svc, "record_signature", {"envelope_id": "ENV-0011", "recipient_email": ELENA})
    assert msg["code"] == 409 and "routing order 1" in msg["message"]
    assert code(svc, "record_view", {"envelope_id": "ENV-0011", "recipient_email": ELENA}) == 409
    assert code(svc, "record_signature", {"envelope_id": "ENV-0011", "recipient_email": "x@y.example"}) == 404
    seen = ok(svc, "record_view", {"envelope_id": "ENV-0011", "recipient_email": SIGNER})
    assert seen["status"] == "delivered" and svc.state.envelopes["ENV-0011"].status == "delivered"
    after = ok(svc, "record_signature", {"envelope_id": "ENV-0011", "recipient_email": SIGNER})
    assert (after["current_routing_order"], [s["status"] for s in after["signers"]]) == (2, ["signed", "sent"])
    assert code(svc, "record_signature", {"envelope_id": "ENV-0011", "recipient_email": SIGNER}) == 409
    done = ok(svc, "record_signature", {"envelope_id": "ENV-0011", "recipient_email": ELENA})
    assert done["status"] == "completed" and done["completed_at"] == done["signers"][1]["signed_at"]
    assert code(svc, "void_envelope", {"envelope_id": "ENV-0011", "voided_reason": "late"}) == 409
    assert code(svc, "send_envelope_reminder", {"envelope_id": "ENV-0011"}) == 409


def test_decline(svc):
    out = ok(svc, "record_decline", {"envelope_id": "ENV-0002", "recipient_email": "victoria.johnston@nashllc.example",
                                     "reason": "Wrong billing entity"})
    assert out["status"] == "declined" and out["signers"][0]["declined_reason"] == "Wrong billing entity"
    assert code(svc, "record_decline", {"envelope_id": "ENV-0003", "recipient_email": "cheyenne.nelson@"
                                        "rosenelsonandkidd.example", "reason": ""}) == 400


def test_in_flight_corrections(svc):
    assert code(svc, "add_recipient", {"envelope_id": "ENV-0002", "name": "Ann Lee", "email": "ann@nashllc.example",
                                       "routing_order": 1}) == 422
    assert ok(svc, "add_recipient", {"envelope_id": "ENV-0002", "name": "Ann Lee", "email": "ann@nashllc.example",
                                     "routing_order": 3})["status"] == "created"
    assert code(svc, "remove_recipient", {"envelope_id": "ENV-0002",
                                          "recipient_email": "victoria.johnston@nashllc.example"}) == 409
    fixed = ok(svc, "correct_recipient", {"envelope_id": "ENV-0003", "recipient_email":
                                          "cheyenne.nelson@rosenelsonandkidd.example", "new_email": "c.nelson@rnk.example"})
    assert (fixed["email"], fixed["status"], fixed["delivered_at"]) == ("c.nelson@rnk.example", "sent", None)
    assert code(svc, "correct_recipient", {"envelope_id": "ENV-0004", "recipient_email": AISHA,
                                           "new_email": "a@b.example"}) == 409
    assert code(svc, "correct_recipient", {"envelope_id": "ENV-0003", "recipient_email": "c.nelson@rnk.example",
                                           "new_email": ELENA}) == 409


def test_remind_and_void(svc):
    r = ok(svc, "send_envelope_reminder", {"envelope_id": "ENV-0008", "message": "case QA-1: please sign today"})
    assert (r["reminders_sent"], r["reminded"]) == (1, ["betty.lopez@powellltd.example"])
    last = svc.state.envelopes["ENV-0008"].audit[-1]
    assert (last.action, last.detail) == ("Reminder sent", "to betty.lopez@powellltd.example: case QA-1: please sign today")
    assert code(svc, "send_envelope_reminder", {"envelope_id": "ENV-0001"}) == 409
    v = ok(svc, "void_envelope", {"envelope_id": "ENV-0008", "voided_reason": "Customer asked for new terms"})
    assert (v["status"], v["voided_reason"]) == ("voided", "Customer asked for new terms")
    assert code(svc, "void_envelope", {"envelope_id": "ENV-0008", "voided_reason": "again"}) == 409
    assert "delete_draft_envelope" in error(svc, "void_envelope", {"envelope_id": "ENV-0001", "voided_reason": "x"})["message"]
    assert code(svc, "void_envelope", {"envelope_id": "ENV-0002", "voided_reason": ""}) == 400
    assert code(svc, "record_signature", {"envelope_id": "ENV-0008", "recipient_email": "betty.lopez@powellltd.example"}) == 409


def test_failed_call_rolls_back(svc):
    # create_envelope stores the envelope and takes an id before the 422 on send_now: none of that may stay.
    before = svc.state_dict()
    res = svc.call("create_envelope", {"email_subject": "x", "sender_email": JAMAL, "company": "A", "send_now": True})
    assert res["error"]["code"] == 422 and svc.state_dict() == before
