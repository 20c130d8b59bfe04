"""The env's one-pass observation path: tool results written as JSON fragments.

``Service.invoke(..., as_fragment=True)`` must give exactly the text the
two-pass route (``to_jsonable_python`` then ``orjson.dumps``) gives, so
observations are unchanged byte for byte.
"""

from __future__ import annotations

import collections
import dataclasses
import datetime as dt
import decimal
import enum
import json
import uuid
from zoneinfo import ZoneInfo

import orjson
import pytest
from pydantic import BaseModel, Field
from pydantic_core import to_jsonable_python

from compoworld_gym.builtin_tasks import builtin_tasks
from compoworld_gym.envs.compoworld_env import CompoWorldEnv
from compoworld_gym.episode import mount
from compoworld_gym.metatools import dispatch
from compoworld_gym.service import Service, ServiceState, json_fragment, tool

TODAY = dt.date(2026, 1, 15)


class Colour(str, enum.Enum):
    red = "r"


class Level(enum.IntEnum):
    high = 3


class Point(BaseModel):
    x: int = 1
    at: dt.datetime = dt.datetime(2026, 1, 15, 9, 30)


@dataclasses.dataclass
class Pair:
    a: int = 1
    days: list = dataclasses.field(default_factory=lambda: [dt.date(2026, 1, 2)])


class Str(str):
    pass


STAMP = dt.datetime(2026, 1, 15, 9, 30, 5, 123)
VALUES = [
    STAMP, STAMP.replace(tzinfo=dt.timezone.utc), STAMP.replace(tzinfo=ZoneInfo("UTC")),
    STAMP.replace(tzinfo=ZoneInfo("Europe/Paris")), STAMP.replace(tzinfo=dt.timezone(dt.timedelta(hours=-3))),
    dt.date(2026, 1, 5), dt.time(9, 5, 1, 5), dt.time(9, 5, tzinfo=dt.timezone.utc), dt.timedelta(hours=1, seconds=3),
    Colour.red, Level.high, decimal.Decimal("1.50"), uuid.UUID(int=5), Point(), Pair(),
    collections.namedtuple("NT", "a b")(1, [2]), (1, "a"), {1, 2}, frozenset({"a"}), b"abc", Str("s"),
    {Str("k"): Str("v")}, {1: "int key"}, {dt.date(2026, 1, 1): 1}, float("nan"), float("inf"), 1e300, -0.0,
    2**63, -(2**63), [None, True, {"deep": [Point(), {"d": dt.date(2026, 1, 1)}]}],
]


@pytest.mark.parametrize("value", VALUES, ids=lambda v: type(v).__name__)
def test_fragment_text_equals_the_two_pass_text(value):
    expected = orjson.dumps(to_jsonable_python(value))
    assert orjson.dumps(json_fragment(value)) == expected
    assert orjson.dumps({"success": True, "data": json_fragment(value)}) == \
        orjson.dumps({"success": True, "data": to_jsonable_python(value)})


class ListState(ServiceState):
    names: list[str] = Field(default_factory=lambda: ["a"], description="Names.")


class Lists(Service):
    name = "lists"
    description = "Lists."
    domain = "test"
    State = ListState

    @tool(read_only=True)
    def show(self) -> list:
        """Return the live list (no copy)."""
        return self.state.names

    @tool(read_only=False)
    def add(self, name: str, broken: bool = False) -> object:
        """Append a name; ``broken`` returns something with no JSON form.

        Args:
            name: the name.
            broken: return an object that cannot be serialised.
        """
        self.state.names.append(name)
        return object() if broken else {"names": self.state.names}


def test_fragment_is_written_at_call_time_and_plain_calls_stay_json():
    svc = Lists(today=TODAY)
    shown, _ = svc.invoke("show", {}, as_fragment=True)
    assert isinstance(shown["data"], orjson.Fragment)
    svc.call("add", {"name": "b"})
    assert orjson.dumps(shown) == b'{"success":true,"data":["a"]}'  # not the later ["a","b"]
    assert svc.call("show", {}) == {"success": True, "data": ["a", "b"]}


def test_result_without_json_form_is_a_rolled_back_500_on_both_paths():
    for as_fragment in (False, True):
        svc = Lists(today=TODAY)
        out, _ = svc.invoke("add", {"name": "c", "broken": True}, as_fragment=as_fragment)
        assert out["success"] is False and out["error"]["code"] == 500
        assert svc.state.names == ["a"]


@pytest.mark.parametrize("task", builtin_tasks(), ids=lambda t: t.id)
def test_env_observations_equal_the_two_pass_results(task):
    env = CompoWorldEnv(tasks=[task])
    env.reset(options={"task": task})
    world = mount(task)
    for mc in task.reference:
        obs = env.step(mc.action())[0]
        expected = dispatch(world, mc.name, mc.arguments)
        assert obs == orjson.dumps(expected, option=orjson.OPT_NON_STR_KEYS).decode()
        assert json.loads(obs) == expected
    assert env.world.call_log == world.call_log
    calls = [mc.action() for mc in task.reference[:3]]
    env.reset(options={"task": task})
    several = env.step("[" + ",".join(calls) + "]")[0]
    world = mount(task)
    assert json.loads(several) == [dispatch(world, mc.name, mc.arguments) for mc in task.reference[:3]]
