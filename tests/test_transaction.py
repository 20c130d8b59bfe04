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
