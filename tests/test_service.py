"""The service framework: schemas, validation, envelopes, transactions."""

from __future__ import annotations

import datetime as dt
from typing import Literal, Optional

import pytest
from pydantic import Field

from compoworld_gym.entities import Email, Id, UnknownEntityType, entity
from compoworld_gym.errors import Conflict
from compoworld_gym.service import Record, Service, ServiceState, tool

TODAY = dt.date(2026, 1, 15)


class Item(Record):
    id: Id("task") = Field(description="Item id.")
    owner: Email = Field(description="Owner.")
    qty: int = Field(ge=0, description="Quantity, never negative.")


class ShopState(ServiceState):
    items: dict[str, Item] = Field(default_factory=dict, description="Items by id.")


class Shop(Service):
    name = "shop"
    description = "A test shop."
    domain = "test"
    State = ShopState

    @tool(read_only=True, returns=Item)
    def get_item(self, item_id: Id("task")) -> dict:
        """Get one item.

        Args:
            item_id: the item id,
                continued on a second line.
        """
        return self.lookup(self.state.items, item_id, "item").model_dump()

    @tool(read_only=False, returns=Item)
    def add_item(self, owner: Email, qty: int = 1, kind: Literal["a", "b"] = "a",
                 note: Optional[str] = None) -> dict:
        """Add an item.

        Args:
            owner: the owner's email.
            qty: how many.
            kind: a or b.
            note: free text.
        """
        item = Item(id=self.new_id("IT"), owner=owner, qty=qty)
        self.state.items[item.id] = item
        self.now()
        return item.model_dump()

    @tool(read_only=False, destructive=True)
    def take(self, item_id: Id("task"), qty: int) -> dict:
        """Take items out; bugs planted for tests.

        Args:
            item_id: which item.
            qty: how many to take.
        """
        item = self.lookup(self.state.items, item_id, "item")
        item.qty -= qty  # mutate first, then fail: rollback must undo this
        if qty == 13:
            raise Conflict("unlucky number")
        if qty == 99:
            raise RuntimeError("boom")
        return item.model_dump()


@pytest.fixture
def shop():
    s = Shop(today=TODAY)
    s.call("add_item", {"owner": "a@x.io", "qty": 5})
    return s


def test_schema_from_signature_and_docstring():
    spec = Shop.tools["add_item"]
    schema = spec.input_schema
    assert schema["type"] == "object"
    assert schema["required"] == ["owner"]
    assert schema["properties"]["owner"]["x-entity"] == "email"
    assert schema["properties"]["kind"]["enum"] == ["a", "b"]
    assert schema["properties"]["qty"]["description"] == "how many."
    assert "title" not in schema["properties"]["qty"]
    assert Shop.tools["get_item"].input_schema["properties"]["item_id"]["description"] == (
        "the item id, continued on a second line.")
    assert spec.consumes == {"owner": "email"}
    assert spec.produces == frozenset({"email", "task_id"})
    assert spec.mcp_definition()["annotations"] == {
        "readOnlyHint": False, "destructiveHint": False, "idempotentHint": False, "openWorldHint": False}
    assert Shop.tools["take"].mcp_definition()["annotations"]["destructiveHint"] is True


def test_success_envelope_ids_and_clock(shop):
    out = shop.call("add_item", {"owner": "b@x.io", "qty": 2})
    assert out == {"success": True, "data": {"id": "IT-0002", "owner": "b@x.io", "qty": 2}}
    assert shop.state.counters == {"IT": 3}
    assert shop.state.clock == 2
    assert shop.now() == dt.datetime(2026, 1, 15, 9, 2)


@pytest.mark.parametrize("args, fragment", [
    ({}, "missing required argument 'owner'"),
    ({"owner": "nope"}, "invalid argument 'owner'"),
    ({"owner": "a@b.co", "qty": "many"}, "invalid argument 'qty'"),
    ({"owner": "a@b.co", "kind": "z"}, "one of 'a', 'b'"),
    ({"owner": "a@b.co", "color": "red"}, "unexpected argument 'color'"),
    # JSON types them apart; pydantic's lax mode would take them as 1 and 10 (a fresh user's finding).
    ({"owner": "a@b.co", "qty": True}, "invalid argument 'qty': expected an integer, got True"),
    ({"owner": "a@b.co", "qty": "10"}, "invalid argument 'qty': expected an integer, got '10'"),
])
def test_invalid_arguments_are_400_naming_the_field(shop, args, fragment):
    before = shop.state_dict()
    out = shop.call("add_item", args)
    assert out["success"] is False and out["error"]["code"] == 400
    assert fragment in out["error"]["message"]
    assert shop.state_dict() == before


def test_arguments_must_be_an_object(shop):
    assert shop.call("add_item", ["a"])["error"] == {
        "code": 400, "message": "arguments must be a JSON object, got list."}


def test_unknown_tool_and_record_are_404(shop):
    assert shop.call("nope", {})["error"]["code"] == 404
    out = shop.call("get_item", {"item_id": "IT-0404"})
    assert out["error"] == {"code": 404, "message": "item 'IT-0404' not found; list or search items to find valid ids."}


@pytest.mark.parametrize("qty, code", [(13, 409), (99, 500), (6, 500)])
def test_failed_write_rolls_back_exactly(shop, qty, code):
    """409 from the tool, 500 from a bug, 500 from an invalid resulting state (qty < 0)."""
    before = shop.state_dict()
    out = shop.call("take", {"item_id": "IT-0001", "qty": qty})
    assert out["success"] is False and out["error"]["code"] == code
    assert shop.state_dict() == before


def test_successful_write_keeps_state_valid(shop):
    out = shop.call("take", {"item_id": "IT-0001", "qty": 5})
    assert out["data"]["qty"] == 0
    assert ShopState.model_validate(shop.state_dict()).items["IT-0001"].qty == 0


def test_unknown_entity_type_is_rejected():
    with pytest.raises(UnknownEntityType):
        entity("favourite_colour")
    with pytest.raises(UnknownEntityType):
        Id("spaceship")


def test_tool_needs_docstring_and_annotations():
    with pytest.raises(TypeError, match="docstring"):
        class NoDoc(Service):
            name = "nodoc"
            State = ShopState

            @tool(read_only=True)
            def f(self) -> dict:
                return {}
    with pytest.raises(TypeError, match="type annotation"):
        class NoAnn(Service):
            name = "noann"
            State = ShopState

            @tool(read_only=True)
            def f(self, x) -> dict:
                """Doc."""
                return {}


def test_no_builtin_service_shadows_framework_methods():
    """A service method named like a framework internal (e.g. ``_execute``) would break every call."""
    from compoworld_gym.envs.services import BUILTIN_SERVICES

    framework = {name for name in vars(Service) if not name.startswith("__")}
    allowed = {"name", "description", "domain", "spec_source", "designed_tools", "State", "tools",
               "build_seed_state", "seed_state", "transaction"}
    clashes = {cls.name: sorted((set(vars(cls)) & framework) - allowed) for cls in BUILTIN_SERVICES}
    assert {k: v for k, v in clashes.items() if v} == {}


def test_a_method_named_transaction_is_refused_at_class_definition():
    # Regression: a tool called `transaction` hid Service.transaction, so every write failed with a 500.
    with pytest.raises(TypeError, match="run_transaction"):
        class Bad(Service, register=False):  # noqa: F841
            name = "bad"

            def transaction(self) -> None:
                pass
