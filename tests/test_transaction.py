"""Journal transactions: exact rollback (order included) and validation of touched records."""

from __future__ import annotations

import datetime as dt

import orjson
import pytest
from pydantic import Field

from compoworld_gym.errors import Conflict
from compoworld_gym.service import Record, Service, ServiceState, tool
from compoworld_gym.transaction import JournalTransaction, SnapshotTransaction

TODAY = dt.date(2026, 1, 15)


class Box(Record):
    n: int = Field(ge=0, description="Non-negative count.")
    tags: list[str] = Field(default_factory=list, description="Tags.")


class BoxState(ServiceState):
    boxes: dict[str, Box] = Field(default_factory=dict, description="Boxes by id.")
    history: list[str] = Field(default_factory=list, description="Plain list field.")


class Boxes(Service):
    name = "boxes"
    description = "Boxes."
    domain = "test"
    State = BoxState

    @tool(read_only=False)
    def churn(self, fail: str = "none") -> dict:
        """Delete, add, mutate and iterate, then optionally fail.

        Args:
            fail: 'none', 'conflict', 'bug' or 'invalid'.
        """
        del self.state.boxes["b"]
        self.state.boxes["z"] = Box(n=9)
        self.state.boxes["a"].tags.append("x")
        for box in self.state.boxes.values():
            box.n += 1
        self.state.history.append("churn")
        self.new_id("B")
        if fail == "conflict":
            raise Conflict("no")
        if fail == "bug":
            raise KeyError("oops")
        if fail == "invalid":
            self.state.boxes.get("c").n = -5
        return {"ok": True}


def fresh(txn) -> Boxes:
    cls = type("B2", (Boxes,), {"transaction": txn, "name": "boxes"})
    return cls({"boxes": {"a": {"n": 1}, "b": {"n": 2}, "c": {"n": 3}}}, today=TODAY)


@pytest.mark.parametrize("txn", [JournalTransaction, SnapshotTransaction])
@pytest.mark.parametrize("fail, code", [("conflict", 409), ("bug", 500), ("invalid", 500)])
def test_rollback_is_byte_exact(txn, fail, code):
    svc = fresh(txn)
    before = orjson.dumps(svc.state_dict())
    out = svc.call("churn", {"fail": fail})
    assert out["error"]["code"] == code
    assert orjson.dumps(svc.state_dict()) == before
    assert type(svc.state.boxes) is dict


def test_journal_and_snapshot_agree_on_success():
    a, b = fresh(JournalTransaction), fresh(SnapshotTransaction)
    assert a.call("churn", {}) == b.call("churn", {}) == {"success": True, "data": {"ok": True}}
    assert orjson.dumps(a.state_dict()) == orjson.dumps(b.state_dict())
    assert list(a.state.boxes) == ["a", "c", "z"] and a.state.boxes["a"].tags == ["x"]
    assert a.state.history == ["churn"] and a.state.counters == {"B": 2}


# ---------------------------------------------------------------- journal details
class Inner(Record):
    city: str = Field(description="City.")


class Tagged(Record):
    n: int = Field(ge=0, description="Non-negative count.")
    tags: list[str] = Field(default_factory=list, description="Tags.")
    inner: Inner = Field(default_factory=lambda: Inner(city="Oslo"), description="Nested record.")
    when: dt.date = Field(default=TODAY, description="A date.")


class TaggedState(ServiceState):
    items: dict[str, Tagged] = Field(default_factory=dict, description="Items by id.")


class Recorder(JournalTransaction):
    """Keeps every transaction so tests can read its ``validated`` count."""

    made: list[JournalTransaction] = []

    def __init__(self, service) -> None:
        super().__init__(service)
        Recorder.made.append(self)


class Items(Service):
    name = "items"
    description = "Items."
    domain = "test"
    State = TaggedState
    transaction = Recorder

    @tool(read_only=False)
    def act(self, how: str, key: str = "i3", fail: bool = False) -> dict:
        """Read every item, change some in a way chosen by ``how``, optionally fail.

        Args:
            how: which change to make.
            key: the item changed.
            fail: raise a conflict at the end.
        """
        items = self.state.items
        total = sum(item.n for item in items.values())  # every record is read
        if how == "bump":
            items[key].n += 1
        elif how == "nested":  # in-place change of a record reached by iteration
            for item in items.values():
                item.tags.append("x")
                item.inner.city = "Rome"
        elif how == "negative":
            next(iter(items.values())).n = -1
        elif how == "as_dict":  # wrong types whose dump equals the original
            items[key].inner = items[key].inner.model_dump()
        elif how == "as_string":
            items[key].when = items[key].when.isoformat()
        elif how == "bulk_copies":  # copies CPython makes without calling the dict's methods
            for item in {**items}.values():
                item.n += 1
            for item in dict(items).values():
                item.tags.append("y")
            items |= {"new": Tagged(n=1)}
            del items["i0"]
        elif how == "shrink":  # read all, remove some, read all again
            del items["i0"]
            items.pop("i1")
            total += sum(item.n for item in items.values()) + len(list(items.items()))
            items["i2"] = Tagged(n=40)
        elif how == "reassign":
            self.state.items = {"only": Tagged(n=int(key == "i3") - 1 if key == "bad" else 7)}
        if fail:
            raise Conflict("no")
        return {"total": total}


def items_service(n: int = 6) -> Items:
    return Items({"items": {f"i{i}": {"n": i, "tags": ["a"]} for i in range(n)}}, today=TODAY)


def last_validated() -> int:
    return Recorder.made[-1].validated


ALL_HOWS = ["bump", "nested", "negative", "as_dict", "as_string", "bulk_copies", "shrink", "reassign"]


@pytest.mark.parametrize("how", ALL_HOWS)
def test_failed_call_after_in_place_changes_restores_every_byte(how):
    svc = items_service()
    before = orjson.dumps(svc.state_dict())
    out = svc.call("act", {"how": how, "fail": True})
    assert out["error"]["code"] == 409
    assert orjson.dumps(svc.state_dict()) == before
    assert type(svc.state.items) is dict and list(svc.state.items) == [f"i{i}" for i in range(6)]


def test_reading_many_and_writing_one_validates_only_that_one():
    svc = items_service(12)
    assert svc.call("act", {"how": "bump", "key": "i3"}) == {"success": True, "data": {"total": 66}}
    assert last_validated() == 1  # 12 records read, 11 proven unchanged by their dump
    assert svc.state.items["i3"].n == 4
    assert svc.call("act", {"how": "none"})["success"] is True
    assert last_validated() == 0


def test_in_place_change_to_an_invalid_value_is_caught_among_unchanged_records():
    svc = items_service(12)
    before = orjson.dumps(svc.state_dict())
    out = svc.call("act", {"how": "negative"})
    assert out["error"]["code"] == 500 and "invalid state" in out["error"]["message"]
    assert orjson.dumps(svc.state_dict()) == before


@pytest.mark.parametrize("how, field, cls", [("as_dict", "inner", Inner), ("as_string", "when", dt.date)])
def test_wrong_type_with_an_equal_dump_is_still_validated(how, field, cls):
    svc = items_service(12)
    assert svc.call("act", {"how": how})["success"] is True
    assert last_validated() >= 1
    assert type(getattr(svc.state.items["i3"], field)) is cls  # coerced back by validation


def test_nested_and_bulk_copy_changes_are_validated_and_kept():
    svc = items_service()
    assert svc.call("act", {"how": "nested"})["success"] is True
    assert last_validated() == 6
    assert all(i.tags == ["a", "x"] and i.inner.city == "Rome" for i in svc.state.items.values())
    svc = items_service()
    assert svc.call("act", {"how": "bulk_copies"})["success"] is True
    assert list(svc.state.items) == ["i1", "i2", "i3", "i4", "i5", "new"]
    assert [i.n for i in svc.state.items.values()] == [2, 3, 4, 5, 6, 1]
    assert svc.state.items["i1"].tags == ["a", "y"] and type(svc.state.items) is dict


def test_assigning_a_new_dict_to_a_field_is_validated_and_kept():
    svc = items_service()
    assert svc.call("act", {"how": "reassign"})["success"] is True
    assert svc.state_dict()["items"] == {"only": {"n": 7, "tags": [], "inner": {"city": "Oslo"},
                                                  "when": "2026-01-15"}}
    before = orjson.dumps(svc.state_dict())
    assert svc.call("act", {"how": "reassign", "key": "bad"})["error"]["code"] == 500
    assert orjson.dumps(svc.state_dict()) == before


def test_journal_matches_snapshot_on_every_outcome():
    for how in ALL_HOWS:
        a = items_service()
        b = type("I2", (Items,), {"transaction": SnapshotTransaction, "name": "items"})(
            a.state.model_dump(), today=TODAY)
        out_a, out_b = a.call("act", {"how": how}), b.call("act", {"how": how})
        assert out_a.get("data") == out_b.get("data") and out_a.get("error", {}).get("code") == \
            out_b.get("error", {}).get("code"), how
        assert orjson.dumps(a.state_dict()) == orjson.dumps(b.state_dict()), how
