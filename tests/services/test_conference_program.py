"""Tests of the conference_program service (Pretalx style)."""

from __future__ import annotations

import pytest
from _svc_asserts import code, error, ok

from compoworld_gym.envs.services.conference_program import ConferenceProgram
from compoworld_gym.envs.services.event_ticketing import EventTicketing
from compoworld_gym.envs.services.venue_booking import VenueBooking

S, W = "customer-summit-2026", "data-workshop-2026"
DAY = "2026-02-18"  # TODAY + 34


@pytest.fixture
def svc(make_service):
    return make_service(ConferenceProgram)


def test_events_line_up_with_ticketing_and_venue(make_service, svc):
    tix, venue = make_service(EventTicketing), make_service(VenueBooking)
    for ev in ok(svc, "list_events"):
        t, v = tix.state.events[ev["ticketed_event_id"]], venue.state.events[ev["venue_event_id"]]
        assert t.name == v.name == ev["name"]
        assert t.start.date().isoformat() == v.event_start.date().isoformat() == ev["date_from"]
        assert v.event_start.hour == ev["day_start"] and v.event_end.hour == ev["day_end"]
    rooms = ok(svc, "list_rooms", {"event": S})
    assert [(r["name"], r["venue_space"]) for r in rooms] == [("Hall A", "SPC-0001"), ("Riverside Terrace", "SPC-0002"),
                                                             ("Boardroom 3", "SPC-0003")]
    assert all(venue.state.rooms[r["venue_space"]].name == r["name"] for r in rooms)
    assert [e["slug"] for e in ok(svc, "list_events", {"ticketed_event_id": "TEV-0004"})] == [W]
    assert [e["slug"] for e in ok(svc, "list_events", {"venue_event_id": "VEV-0007"})] == [S]


def test_reads(svc):
    ev = ok(svc, "get_event", {"event": W})
    assert (ev["cfp_open"], ev["schedule_version"], ev["reviewers"]) == (
        True, None, ["elena.petrova@company.example", "tomas.lindqvist@company.example"])
    assert ok(svc, "get_event", {"event": S})["cfp_open"] is False
    assert code(svc, "get_event", {"event": "nope"}) == 404
    assert [s["code"] for s in ok(svc, "list_submissions", {"event": S, "state": "accepted"})] == [
        "SES-0003", "SES-0006", "SES-0011"]
    assert [s["code"] for s in ok(svc, "list_submissions", {"event": S, "speaker": "SPK-0001"})] == [
        "SES-0001", "SES-0012"]
    by_mail = ok(svc, "list_submissions", {"event": S, "speaker_email": "ETHAN.brooks@brooksdesign.co"})
    assert [s["code"] for s in by_mail] == ["SES-0005"]
    assert [s["code"] for s in ok(svc, "list_submissions", {"event": S, "q": "migration"})] == ["SES-0007"]
    assert len(ok(svc, "list_submissions", {"event": S, "track": "Engineering"})) == 2
    sub = ok(svc, "get_submission", {"event": S, "code": "SES-0005"})
    assert (sub["speaker_name"], sub["slot"]["room_name"], sub["slot"]["start"], sub["review_score"]) == (
        "Ethan Brooks", "Riverside Terrace", f"{DAY}T11:00:00", 2.5)
    assert sub["ticketed_event_id"] == "TEV-0001"
    assert code(svc, "get_submission", {"event": W, "code": "SES-0005"}) == 404  # another event's
    sp = ok(svc, "list_speakers", {"event": W})
    assert [s["code"] for s in sp] == ["SPK-0004", "SPK-0013", "SPK-0014", "SPK-0015"]
    assert ok(svc, "list_speakers", {"event": S, "email": "hank.scorpio@globex.example"})[0]["name"] == "Hank Scorpio"
    assert ok(svc, "get_speaker", {"event": S, "code": "SPK-0001"})["submissions"] == ["SES-0001", "SES-0012"]
    assert code(svc, "get_speaker", {"event": S, "code": "SPK-0999"}) == 404
    talks = ok(svc, "list_talks", {"event": S})
    assert talks["version"] == "1.0" and [t["code"] for t in talks["talks"]] == [
        "SES-0001", "SES-0002", "SES-0003", "SES-0005", "SES-0004"]  # by start, then room
    assert ok(svc, "list_talks", {"event": W}) == {"version": None, "published": None, "talks": []}


def test_cfp_and_states(svc):
    new = ok(svc, "create_submission", {"event": W, "title": "Cohort Charts Without Tears",
                                        "submission_type": "lightning talk", "abstract": "Ten minutes, three charts.",
                                        "speaker_name": "Olivia Martinez", "speaker_email": "olivia.martinez@gmail.com",
                                        "track": "Data"})
    assert (new["code"], new["speakers"][0]["code"], new["duration"], new["state"]) == (
        "SES-0017", "SPK-0007", 10, "submitted")  # known speaker reused
    fresh = ok(svc, "create_submission", {"event": W, "title": "Forecasting 101", "submission_type": "Talk",
                                          "abstract": "Seasonality for busy people.", "speaker_name": "Nina Park",
                                          "speaker_email": "nina.park@example.org", "duration": 25})
    assert (fresh["speakers"][0]["code"], fresh["duration"]) == ("SPK-0016", 25)
    assert code(svc, "create_submission", {"event": S, "title": "Late idea", "submission_type": "Talk",
                                           "abstract": "Too late for the summit.", "speaker_name": "A B",
                                           "speaker_email": "a@b.co"}) == 422  # CFP closed
    assert code(svc, "create_submission", {"event": W, "title": "Panel", "submission_type": "Panel",
                                           "abstract": "Not a type here.", "speaker_name": "A B",
                                           "speaker_email": "a@b.co"}) == 400
    assert code(svc, "create_submission", {"event": W, "title": "Wrong track", "submission_type": "Talk",
                                           "abstract": "No such track here.", "speaker_name": "A B",
                                           "speaker_email": "a@b.co", "track": "Product"}) == 400
    assert ok(svc, "accept_submission", {"event": S, "code": "SES-0007"})["state"] == "accepted"
    assert ok(svc, "confirm_submission", {"event": S, "code": "SES-0007"})["state"] == "confirmed"
    msg = error(svc, "confirm_submission", {"event": S, "code": "SES-0008"})  # rejected
    assert msg["code"] == 409 and "only from accepted or canceled" in msg["message"]
    assert ok(svc, "accept_submission", {"event": S, "code": "SES-0008"})["state"] == "accepted"  # reconsidered
    assert code(svc, "accept_submission", {"event": S, "code": "SES-0009"}) == 409  # withdrawn is final
    w = ok(svc, "withdraw_submission", {"event": S, "code": "SES-0005"})
    assert (w["state"], w["slot"]) == ("withdrawn", None)
    c = ok(svc, "cancel_submission", {"event": S, "code": "SES-0003"})
    assert (c["state"], c["slot"]) == ("canceled", None)
    assert code(svc, "cancel_submission", {"event": S, "code": "SES-0013"}) == 404
    assert code(svc, "cancel_submission", {"event": W, "code": "SES-0013"}) == 409  # submitted
    assert ok(svc, "reject_submission", {"event": W, "code": "SES-0013"})["state"] == "rejected"


def test_reviews(svc):
    r = ok(svc, "add_review", {"event": W, "code": "SES-0014", "user": "Elena.Petrova@company.example", "score": 3,
                               "text": "Exactly what finance teams ask for."})
    assert (r["id"], r["user"]) == ("RVW-0014", "elena.petrova@company.example")
    assert code(svc, "add_review", {"event": W, "code": "SES-0014", "user": "elena.petrova@company.example",
                                    "score": 1}) == 409
    assert code(svc, "add_review", {"event": W, "code": "SES-0014", "user": "luis.ortega@company.example",
                                    "score": 1}) == 422  # not on this event's team
    assert code(svc, "add_review", {"event": S, "code": "SES-0002", "user": "grace.okafor@company.example",
                                    "score": 2}) == 409  # decided
    assert ok(svc, "create_submission", {"event": W, "title": "My own talk", "submission_type": "Talk",
                                         "abstract": "By a reviewer, for once.", "speaker_name": "Tomas Lindqvist",
                                         "speaker_email": "tomas.lindqvist@company.example"})["code"] == "SES-0017"
    assert code(svc, "add_review", {"event": W, "code": "SES-0017", "user": "tomas.lindqvist@company.example",
                                    "score": 3}) == 422  # own submission
    assert ok(svc, "get_submission", {"event": W, "code": "SES-0014"})["review_score"] == 3.0


def test_scheduling_rules(svc):
    s = ok(svc, "schedule_submission", {"event": S, "code": "SES-0006", "room": "ROOM-0002",
                                        "start": f"{DAY}T11:30:00"})  # right after SES-0005 ends
    assert (s["slot"]["end"], s["slot"]["room_name"]) == (f"{DAY}T12:00:00", "Riverside Terrace")
    msg = error(svc, "schedule_submission", {"event": S, "code": "SES-0006", "room": "ROOM-0001",
                                             "start": f"{DAY}T10:30:00"})
    assert msg["code"] == 409 and "SES-0002" in msg["message"]  # Hall A 10:15-10:45
    msg = error(svc, "schedule_submission", {"event": S, "code": "SES-0012", "room": "ROOM-0002",
                                             "start": f"{DAY}T09:30:00"})
    assert msg["code"] == 409 and "SPK-0001" in msg["message"]  # Jamal gives the keynote then
    assert code(svc, "schedule_submission", {"event": S, "code": "SES-0006", "room": "ROOM-0003",
                                             "start": f"{DAY}T17:45:00"}) == 422  # ends after 18:00
    assert code(svc, "schedule_submission", {"event": S, "code": "SES-0006", "room": "ROOM-0003",
                                             "start": "2026-02-19T10:00:00"}) == 422  # not an event day
    assert code(svc, "schedule_submission", {"event": S, "code": "SES-0006", "room": "ROOM-0003",
                                             "start": f"{DAY}T10:02:00"}) == 422  # off the grid
    assert code(svc, "schedule_submission", {"event": S, "code": "SES-0006", "room": "ROOM-0004",
                                             "start": f"{DAY}T10:00:00"}) == 404  # the workshop's room
    assert code(svc, "schedule_submission", {"event": S, "code": "SES-0007", "room": "ROOM-0003",
                                             "start": f"{DAY}T10:00:00"}) == 409  # not accepted
    assert ok(svc, "unschedule_submission", {"event": S, "code": "SES-0006"})["slot"] is None
    assert code(svc, "unschedule_submission", {"event": S, "code": "SES-0006"}) == 409


def test_release_schedule_and_updates(svc):
    assert code(svc, "release_schedule", {"event": S, "version": "1.0"}) == 409
    rel = ok(svc, "release_schedule", {"event": S, "version": "1.1", "comment": "Afternoon added"})
    assert (rel["version"], rel["talks"]) == ("1.1", 7)
    assert code(svc, "release_schedule", {"event": S, "version": "1.2"}) == 422  # nothing changed
    assert [t["code"] for t in ok(svc, "list_talks", {"event": S})["talks"]][-2:] == ["SES-0011", "SES-0012"]
    assert code(svc, "release_schedule", {"event": "nope", "version": "1"}) == 404
    u = ok(svc, "update_submission", {"event": S, "code": "SES-0006", "internal_notes": "Needs a lectern mic.",
                                      "track": "Engineering"})
    assert (u["internal_notes"], u["track"]) == ("Needs a lectern mic.", "Engineering")
    assert code(svc, "update_submission", {"event": S, "code": "SES-0006"}) == 400
    assert code(svc, "update_submission", {"event": S, "code": "SES-0006", "track": "Data"}) == 400
    assert code(svc, "update_submission", {"event": S, "code": "SES-0009", "title": "Back again"}) == 409


def test_failed_write_rolls_back_and_seed_is_deterministic(svc, make_service):
    before = svc.state_dict()
    assert svc.call("schedule_submission", {"event": S, "code": "SES-0006", "room": "ROOM-0001",
                                            "start": f"{DAY}T10:30:00"})["success"] is False
    assert svc.call("confirm_submission", {"event": S, "code": "SES-0009"})["success"] is False
    assert svc.state_dict() == before
    assert make_service(ConferenceProgram, seed=5).state_dict() == make_service(ConferenceProgram, seed=5).state_dict()
