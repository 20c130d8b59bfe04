"""The shared service building blocks (envs/services/_blocks.py)."""

from __future__ import annotations

import datetime as dt
import doctest
import random

import pytest
from faker import Faker
from pydantic import Field, ValidationError

from compoworld_gym.envs.services import _blocks
from compoworld_gym.envs.services._blocks import (
    Lifecycle, OutboxMessage, already, day_start, eq, fake_person, has, ieq, keyed, next_number, offset_page, paginate, pick,
    require_status, seed_id, select, send, sent_to, stamp, text, text_in_any,
)
from compoworld_gym.envs.services._common import email_for
from compoworld_gym.errors import Conflict, InvalidArgument, NotFound, Unprocessable
from compoworld_gym.service import Record, Service, ServiceState, tool

TODAY = dt.date(2026, 1, 15)


class Doc(Record):
    id: str
    status: str
    owner: str
    title: str
    body: str = ""
    tags: list[str] = Field(default_factory=list)


DOCS = [Doc(id="D-1", status="open", owner="Ann@x.co", title="Refund policy", body="Refunds over $500",
            tags=["finance"]),
        Doc(id="D-2", status="closed", owner="bob@x.co", title="Shipping", body="Express in 2 days", tags=[]),
        Doc(id="D-3", status="open", owner="ann@X.CO", title="Returns", body="policy for returns",
            tags=["finance", "support"])]


def ids(records):
    return [r.id for r in records]


def test_module_examples_run():
    assert doctest.testmod(_blocks).failed == 0


def test_pick_returns_records_in_order_without_repeats_and_names_every_unknown_key():
    by_id = keyed(DOCS)
    assert list(by_id) == ["D-1", "D-2", "D-3"]
    assert ids(pick(by_id, ["D-3", "D-1", "D-3"], "doc", "call list_docs.")) == ["D-3", "D-1"]
    assert pick(by_id, [], "doc", "call list_docs.") == []
    with pytest.raises(NotFound) as exc:
        pick(by_id, ["D-9", "D-1", "D-8", "D-9"], "doc", "call list_docs.")
    assert exc.value.message == "unknown doc(s) ['D-9', 'D-8', 'D-9']; call list_docs."
    with pytest.raises(Unprocessable):
        pick(by_id, ["D-7"], "user", "use search_users.", error=Unprocessable)


def test_keyed_by_another_field():
    assert list(keyed(DOCS, key="title")) == ["Refund policy", "Shipping", "Returns"]


def test_select_applies_every_filter_and_skips_none_filters():
    assert ids(select(DOCS)) == ["D-1", "D-2", "D-3"]
    assert ids(select(DOCS, eq("status", "open"), None, eq("owner", None))) == ["D-1", "D-3"]
    assert ids(select(DOCS, eq("status", "open"), has("tags", "support"))) == ["D-3"]
    assert ids(select(reversed(DOCS), eq("status", "open"), limit=1)) == ["D-3"]
    assert ids(select(DOCS, limit=2)) == ["D-1", "D-2"]
    assert ids(select(DOCS, lambda d: len(d.tags) == 1)) == ["D-1"]


def test_select_never_shows_a_rejected_record_to_a_later_filter():
    seen: list[str] = []

    def later(d):
        seen.append(d.id)
        return True

    assert ids(select(DOCS, eq("status", "open"), later)) == ["D-1", "D-3"]
    assert seen == ["D-1", "D-3"]
    seen.clear()
    assert ids(select(DOCS, later, limit=1)) == ["D-1"] and seen == ["D-1"]  # stops at the limit


def test_text_filters_need_a_field():
    with pytest.raises(ValueError, match="at least one field"):
        text("x")
    with pytest.raises(ValueError, match="at least one field"):
        text_in_any("x")


def test_eq_and_has_treat_only_none_as_no_filter():
    assert eq("status", None) is None and has("tags", None) is None and ieq("owner", None) is None
    assert text(None, "title") is None and text_in_any(None, "title") is None
    assert ids(select(DOCS, eq("status", ""))) == []
    assert ids(select(DOCS, has("tags", ""))) == []
    assert ids(select(DOCS, ieq("owner", ""))) == []


def test_ieq_ignores_case_on_both_sides():
    assert ids(select(DOCS, ieq("owner", "ANN@x.co"))) == ["D-1", "D-3"]
    assert ids(select(DOCS, ieq("owner", "ann"))) == []


def test_text_searches_the_fields_joined_by_spaces():
    assert ids(select(DOCS, text("POLICY", "title", "body"))) == ["D-1", "D-3"]
    assert ids(select(DOCS, text("policy refunds", "title", "body"))) == ["D-1"]  # spans title and body
    assert ids(select(DOCS, text("", "title"))) == ["D-1", "D-2", "D-3"]
    assert ids(select(DOCS, text("express", "title"))) == []


def test_text_in_any_matches_within_one_field_only():
    assert ids(select(DOCS, text_in_any("policy refunds", "title", "body"))) == []
    assert ids(select(DOCS, text_in_any("EXPRESS", "title", "body"))) == ["D-2"]


def test_paginate_is_one_based():
    items = list(range(1, 8))
    assert paginate(items, 1, 3) == [1, 2, 3]
    assert paginate(items, 3, 3) == [7]
    assert paginate(items, 4, 3) == []
    assert paginate(tuple(items), 2, 5) == [6, 7]


def test_offset_page_tokens_are_offsets():
    items = list("abcdefg")
    assert offset_page(items, None, 3) == (["a", "b", "c"], "3")
    assert offset_page(items, "3", 3) == (["d", "e", "f"], "6")
    assert offset_page(items, "6", 3) == (["g"], None)
    assert offset_page(items, "", 7) == (items, None)
    assert offset_page(items, "99", 3) == ([], None)
    with pytest.raises(InvalidArgument, match=r"^pageToken 'abc' is invalid; pass the nextPageToken"):
        offset_page(items, "abc", 3)
    with pytest.raises(InvalidArgument):
        offset_page(items, "-3", 3)


def test_next_number_and_seed_id_continue_where_new_id_goes_on():
    counters: dict[str, int] = {}
    assert [next_number(counters, "acme/web"), next_number(counters, "acme/web")] == [1, 2]
    assert counters == {"acme/web": 3}
    state = ServiceState()
    assert [seed_id(state, "TCK"), seed_id(state, "TCK"), seed_id(state, "MSG", width=6)] == [
        "TCK-0001", "TCK-0002", "MSG-000001"]
    assert state.counters == {"TCK": 3, "MSG": 2}


def test_require_status_and_already_messages():
    require_status("invoice", "INV-0001", "draft", ("draft",), "send")
    with pytest.raises(Conflict) as exc:
        require_status("invoice", "INV-0001", "paid", ("sent", "overdue"), "record_payment")
    assert exc.value.message == "invoice INV-0001 is paid; record_payment needs status sent or overdue."
    err = already("component", "CPT-0001", "operational")
    assert isinstance(err, Conflict) and err.code == 409
    assert err.message == "component CPT-0001 is already operational."


def test_lifecycle_checks_actions_and_refuses_bad_tables():
    life = Lifecycle("route", {"start": ("planned",), "cancel": ("planned", "in_progress")})
    life.check("RT-1", "in_progress", "cancel")
    assert life.allows("planned", "start") and not life.allows("completed", "cancel")
    with pytest.raises(Conflict, match=r"^route RT-1 is completed; cancel needs status planned or in_progress\.$"):
        life.check("RT-1", "completed", "cancel")
    with pytest.raises(KeyError):
        life.check("RT-1", "planned", "fly")
    with pytest.raises(ValueError, match="at least one action"):
        Lifecycle("route", {})
    with pytest.raises(ValueError, match=r"\['start'\] allow no status"):
        Lifecycle("route", {"start": ()})


class NoticeState(ServiceState):
    outbox: dict[str, OutboxMessage] = Field(default_factory=dict, description="Sent messages by id.")


class Notices(Service):
    name = "notices_test"
    description = "A test service that sends notices."
    domain = "test"
    State = NoticeState

    @tool(read_only=False, returns=OutboxMessage)
    def notify(self, to: list[str], body: str) -> dict:
        """Send a notice.

        Args:
            to: recipients.
            body: the text.
        """
        return send(self, self.state.outbox, to=to, body=body, subject="Notice", about="T-1").model_dump()


def test_send_records_the_message_with_the_next_id_and_the_logical_time():
    svc = Notices(today=TODAY)
    first = svc.call("notify", {"to": ["a@x.co", "a@x.co", "B@x.co"], "body": "hi"})["data"]
    assert first == {"id": "OUT-0001", "channel": "email", "to": ["a@x.co", "B@x.co"], "subject": "Notice",
                     "body": "hi", "sent_at": "2026-01-15T09:00:00", "about": "T-1"}
    second = svc.call("notify", {"to": ["b@x.co"], "body": "again"})["data"]
    assert (second["id"], second["sent_at"]) == ("OUT-0002", "2026-01-15T09:01:00")
    assert ids(sent_to(svc.state.outbox, "b@X.co")) == ["OUT-0001", "OUT-0002"]
    assert sent_to(svc.state.outbox, "c@x.co") == []
    # No recipient: the record refuses it, the call is a 500 and the outbox is unchanged.
    failed = svc.call("notify", {"to": [], "body": "nobody"})
    assert failed["error"]["code"] == 500 and list(svc.state.outbox) == ["OUT-0001", "OUT-0002"]
    with pytest.raises(ValidationError):
        OutboxMessage(id="OUT-9", channel="fax", to=["a@x.co"], subject="", body="", sent_at=day_start(TODAY))


def test_seed_helpers_are_deterministic():
    fake = Faker("en_US")
    fake.seed_instance(7)
    a = fake_person(fake)
    fake.seed_instance(7)
    name = fake.name()
    domain = fake.free_email_domain()
    assert a == (name, email_for(name, domain)) and a.email.endswith("@" + domain)
    assert day_start(TODAY) == dt.datetime(2026, 1, 15, 9, 0)
    rng = random.Random(3)
    when = stamp(TODAY, 2, rng)
    rng = random.Random(3)
    assert when == dt.datetime(2026, 1, 13, rng.randint(9, 17), rng.randint(0, 59))
    assert 9 <= when.hour <= 17
