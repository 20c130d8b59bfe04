"""Services: typed state plus tools, with one execution convention.

A service (paper §2.1, "reusable services") is a stand-alone component with
its own pydantic state, a set of tools, and the state changes each tool
causes. Tools are methods decorated with :func:`tool`; the signature and the
Google docstring are the MCP tool definition (``name``, ``description``,
``inputSchema``). :meth:`Service.call` is the single boundary where arguments
are validated, the call runs transactionally, the new state is validated
against its model, and exceptions become the JSON envelope of
:mod:`compoworld_gym.errors`.

Example:
    >>> import datetime as dt
    >>> from compoworld_gym.service import Service, ServiceState, tool
    >>> class CounterState(ServiceState):
    ...     value: int = 0
    >>> class Counter(Service):
    ...     name = "counter"
    ...     description = "A counter."
    ...     domain = "test"
    ...     State = CounterState
    ...     @tool(read_only=False)
    ...     def add(self, amount: int) -> dict:
    ...         '''Add to the counter.
    ...
    ...         Args:
    ...             amount: how much to add.
    ...         '''
    ...         self.state.value += amount
    ...         return {"value": self.state.value}
    >>> c = Counter(today=dt.date(2026, 1, 15))
    >>> c.call("add", {"amount": 2})
    {'success': True, 'data': {'value': 2}}
    >>> c.call("add", {"amount": "x"})["error"]["code"]
    400
"""

from __future__ import annotations

import datetime as dt
import random
from dataclasses import dataclass, field
from typing import Any, Callable, ClassVar, Optional

import orjson
from faker import Faker
from pydantic import BaseModel, ConfigDict, Field, TypeAdapter, ValidationError
from pydantic_core import to_jsonable_python

from compoworld_gym.catalog import register_defined
from compoworld_gym.entities import entities_in_schema
from compoworld_gym.errors import (
    InternalError,
    InvalidArgument,
    NotFound,
    ToolError,
    error_envelope,
    ok,
)
from compoworld_gym.transaction import JournalTransaction
from compoworld_gym.schema import clean_schema, parse_docstring, signature_model, validate_arguments

#: Fixed clock time of day at which every service day starts (logical clock).
DAY_START = dt.time(9, 0)

#: orjson writes what it knows exactly as ``to_jsonable_python`` would (dates,
#: datetimes with "Z" for UTC, enums, UUIDs, tuples); dataclasses and every
#: type it does not know go through ``to_jsonable_python`` itself.
_FRAGMENT_OPTIONS = orjson.OPT_UTC_Z | orjson.OPT_PASSTHROUGH_DATACLASS


def json_fragment(result: Any) -> orjson.Fragment:
    """A tool result as an ``orjson.Fragment``: its JSON text, written once.

    The text is what ``orjson.dumps(to_jsonable_python(result))`` gives, in
    one pass instead of two (no intermediate JSON-compatible copy).

    Raises:
        orjson.JSONEncodeError: ``result`` has no JSON text (e.g. an int beyond 64 bits).
        pydantic_core.PydanticSerializationError: ``result`` holds an object
            pydantic cannot serialise either.
    """
    try:
        return orjson.Fragment(orjson.dumps(result, default=to_jsonable_python, option=_FRAGMENT_OPTIONS))
    except TypeError:
        # orjson refuses what to_jsonable_python accepts (non-str keys, tz-aware
        # times): take the two-pass route, whose output is the reference.
        return orjson.Fragment(orjson.dumps(to_jsonable_python(result)))


class Record(BaseModel):
    """Base of every stored record: unknown fields are rejected, and
    instances are re-validated whenever the owning state is validated."""

    # Non-finite floats have no JSON form (they would dump as null), so no record may hold one.
    model_config = ConfigDict(extra="forbid", revalidate_instances="always", allow_inf_nan=False)


class ServiceState(Record):
    """Base of every service state.

    Attributes:
        counters: next number per id prefix, so ids come from a seeded
            counter and are restored on rollback.
        clock: minutes elapsed on the logical clock since 09:00 of "today".
    """

    counters: dict[str, int] = Field(default_factory=dict, description="Next id number per id prefix.")
    clock: int = Field(default=0, ge=0, description="Logical minutes since 09:00 of the task's today.")


@dataclass
class ToolSpec:
    """One tool: its MCP definition and how to run it.

    Attributes:
        name: the tool name (MCP ``name``).
        description: one paragraph (MCP ``description``).
        input_schema: JSON Schema of the arguments (MCP ``inputSchema``).
        handler: ``handler(service, **kwargs) -> result`` (JSON-able).
        validate: ``validate(arguments) -> kwargs``; raises ``InvalidArgument``.
        read_only: MCP ``readOnlyHint``; read-only tools never change state.
        destructive: MCP ``destructiveHint`` (deletes or overwrites data).
        idempotent: MCP ``idempotentHint``.
        consumes: ``{parameter: entity type}`` of entity-typed inputs.
        produces: entity types present in the result.
        simulated: True when a world model, not code, produces the result.
        owner: the :class:`Service` class whose ``tools`` holds this spec, set
            when the class is created. A spec with an owner pickles as a
            reference to ``owner.tools[name]`` (its validator closes over a
            model built at import time, which pickle cannot carry), so envs
            and worlds ship to worker processes; a spec without one (built
            at run time, e.g. by the MCP importer) needs ``cloudpickle``.
    """

    name: str
    description: str
    input_schema: dict[str, Any]
    handler: Callable[..., Any]
    validate: Callable[[Any], dict[str, Any]]
    read_only: bool = True
    destructive: bool = False
    idempotent: bool = False
    consumes: dict[str, str] = field(default_factory=dict)
    produces: frozenset[str] = frozenset()
    simulated: bool = False
    owner: Optional[type] = field(default=None, repr=False, compare=False)

    def __reduce_ex__(self, protocol: Any) -> Any:
        if self.owner is not None:
            return (_owned_tool, (self.owner, self.name))
        return object.__reduce_ex__(self, protocol)

    @property
    def summary(self) -> str:
        """The first line of the description (what ``list_tools`` shows)."""
        return self.description.split("\n", 1)[0]

    def mcp_definition(self) -> dict[str, Any]:
        """The MCP ``tools/list`` entry: name, description, inputSchema, annotations."""
        return {
            "name": self.name,
            "description": self.description,
            "inputSchema": self.input_schema,
            "annotations": {
                "readOnlyHint": self.read_only,
                "destructiveHint": self.destructive,
                "idempotentHint": self.idempotent,
                "openWorldHint": self.simulated,
            },
        }


def tool(
    *,
    read_only: bool,
    destructive: bool = False,
    idempotent: bool | None = None,
    returns: Any = None,
    name: str | None = None,
) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
    """Mark a :class:`Service` method as a tool.

    Args:
        read_only: the tool never changes state (MCP ``readOnlyHint``).
        destructive: the tool deletes or overwrites data (``destructiveHint``).
        idempotent: repeated identical calls have no further effect; defaults
            to ``read_only``.
        returns: a type (e.g. a :class:`Record` subclass or ``list[Ticket]``)
            whose entity-tagged fields are the facts this tool produces.
        name: the tool name if it differs from the method name.
    """

    def mark(fn: Callable[..., Any]) -> Callable[..., Any]:
        fn.__compoworld_tool__ = {  # type: ignore[attr-defined]
            "read_only": read_only,
            "destructive": destructive,
            "idempotent": read_only if idempotent is None else idempotent,
            "returns": returns,
            "name": name or fn.__name__,
        }
        return fn

    return mark


def _spec_from_method(fn: Callable[..., Any]) -> ToolSpec:
    meta = fn.__compoworld_tool__  # type: ignore[attr-defined]
    description, arg_docs = parse_docstring(fn.__doc__)
    if not description:
        raise TypeError(f"tool {fn.__qualname__} needs a docstring: it is the tool description")
    model = signature_model(fn, arg_docs)
    schema = clean_schema(model.model_json_schema())
    schema.pop("additionalProperties", None)
    schema.setdefault("properties", {})
    consumes = {
        p: prop["x-entity"]
        for p, prop in schema["properties"].items()
        if isinstance(prop, dict) and "x-entity" in prop
    }
    for p, prop in schema["properties"].items():
        for tag in sorted(entities_in_schema(prop)):  # sorted: set order varies per process
            consumes.setdefault(p, tag)
    produces: frozenset[str] = frozenset()
    if meta["returns"] is not None:
        produces = frozenset(entities_in_schema(TypeAdapter(meta["returns"]).json_schema()))

    def validate(arguments: Any) -> dict[str, Any]:
        return validate_arguments(model, schema, arguments)

    return ToolSpec(
        name=meta["name"],
        description=description,
        input_schema=schema,
        handler=fn,
        validate=validate,
        read_only=meta["read_only"],
        destructive=meta["destructive"],
        idempotent=meta["idempotent"],
        consumes=consumes,
        produces=produces,
    )


def _owned_tool(owner: type, name: str) -> ToolSpec:
    """``owner.tools[name]``: how a pickled :class:`ToolSpec` is found again."""
    return owner.tools[name]


_FAKER = Faker("en_US")


class Service:
    """Base class of every service.

    Subclasses set the class attributes and implement :meth:`build_seed_state`.
    The constructor takes the initial state as a ``State`` instance, a JSON
    dict, or JSON text (``bytes``/``str``); None gives ``State()``.

    Attributes:
        name: unique service name (snake_case), e.g. ``"helpdesk"``.
        description: one sentence shown by ``list_services``.
        domain: the kind of work, e.g. ``"support"``, ``"communication"``.
        spec_source: ``slug`` of the real MCP server in
            ``compoworld_gym/data/mcp_servers.jsonl`` whose interface this follows,
            or None when designed from scratch.
        designed_tools: names of tools added beyond that server's tool list
            (the spec conformance test exempts them from the name check).
        State: the pydantic state model.
        tools: ``{tool name: ToolSpec}``, derived from the decorated methods.
        today: the task's fixed date; the logical clock starts at 09:00.
        state: the current state (an instance of ``State``).
    """

    name: ClassVar[str]
    description: ClassVar[str]
    domain: ClassVar[str]
    spec_source: ClassVar[str | None] = None
    #: Tools deliberately designed beyond the ``spec_source`` server's tool list.
    designed_tools: ClassVar[frozenset[str]] = frozenset()
    State: ClassVar[type[ServiceState]]
    tools: ClassVar[dict[str, ToolSpec]] = {}
    #: How mutating calls are made transactional (see compoworld_gym.transaction):
    #: JournalTransaction (per touched record) or SnapshotTransaction (whole state).
    transaction: ClassVar[type] = JournalTransaction

    def __init_subclass__(cls, register: bool = True, **kwargs: Any) -> None:
        """Collect the class's tools; register it in the catalog if it is a service of a
        service package (``register=False`` opts out; see :mod:`compoworld_gym.catalog`).

        Raises:
            TypeError: the class defines ``transaction`` as anything but a
                transaction class (a tool or helper of that name would hide the
                framework's rollback, and every write would fail).
        """
        super().__init_subclass__(**kwargs)
        own = vars(cls).get("transaction")
        if own is not None and not isinstance(own, type):
            raise TypeError(f"{cls.__qualname__}.transaction is the framework's transaction class; "
                            "name the method otherwise (e.g. run_transaction)")
        specs: dict[str, ToolSpec] = {}
        for klass in reversed(cls.__mro__):
            for attr in vars(klass).values():
                if callable(attr) and hasattr(attr, "__compoworld_tool__"):
                    spec = _spec_from_method(attr)
                    spec.owner = cls
                    specs[spec.name] = spec
        if specs:
            cls.tools = specs
        if register:
            register_defined(cls)

    def __init__(self, state: ServiceState | dict[str, Any] | bytes | str | None = None, *,
                 today: dt.date) -> None:
        self.today = today
        if state is None:
            self.state = self.State()
        elif isinstance(state, (bytes, str)):  # JSON text: one pass, no intermediate dicts
            self.state = self.State.model_validate_json(state)
        elif isinstance(state, dict):
            self.state = self.State.model_validate(state)
        else:
            self.state = self.State.model_validate(state)

    # ----------------------------------------------------------------- seeds
    @classmethod
    def build_seed_state(cls, fake: Faker, rng: random.Random, today: dt.date) -> ServiceState:
        """Build a realistic initial state. Subclasses override.

        Args:
            fake: a Faker seeded for this call (use it, never a global one).
            rng: a ``random.Random`` seeded for this call.
            today: the task's fixed date.
        """
        return cls.State()

    @classmethod
    def seed_state(cls, seed: int, today: dt.date) -> ServiceState:
        """The seeded initial state: same ``(seed, today)`` → same state."""
        rng = random.Random(f"{cls.name}:{seed}")
        _FAKER.seed_instance(rng.getrandbits(32))
        return cls.build_seed_state(_FAKER, rng, today)

    @classmethod
    def seeded(cls, seed: int, today: dt.date) -> "Service":
        """A service instance on its seeded initial state."""
        return cls(cls.seed_state(seed, today), today=today)

    # --------------------------------------------------------------- helpers
    def new_id(self, prefix: str, width: int = 4) -> str:
        """Next id for ``prefix`` from the state's counter, e.g. ``TCK-0042``."""
        n = self.state.counters.get(prefix, 1)
        self.state.counters[prefix] = n + 1
        return f"{prefix}-{n:0{width}d}"

    def now(self) -> dt.datetime:
        """The logical clock: 09:00 of today plus one minute per call to now()."""
        minute = self.state.clock
        self.state.clock = minute + 1
        return dt.datetime.combine(self.today, DAY_START) + dt.timedelta(minutes=minute)

    @staticmethod
    def lookup(collection: dict[str, Any], key: str, kind: str) -> Any:
        """``collection[key]`` or a 404 ``NotFound`` naming the record kind."""
        try:
            return collection[key]
        except (KeyError, TypeError):
            # Imported on the first miss: the importer package imports this module.
            from compoworld_gym.importer.names import plural

            raise NotFound(f"{kind} {key!r} not found; list or search {plural(kind)} to find valid ids.") from None

    # ----------------------------------------------------------------- calls
    def state_dict(self) -> dict[str, Any]:
        """The state as a JSON-compatible dict (dates as ISO strings)."""
        return self.state.model_dump(mode="json")

    def call(self, tool_name: str, arguments: Any) -> dict[str, Any]:
        """Run one tool call and return the JSON result envelope (see :meth:`invoke`)."""
        return self.invoke(tool_name, arguments)[0]

    def invoke(self, tool_name: str, arguments: Any, *, as_fragment: bool = False
               ) -> tuple[dict[str, Any], dict[str, Any] | None]:
        """Run one tool call; the JSON result envelope and the validated arguments.

        The validated arguments are the JSON form of what the tool actually
        received (defaults filled in, values coerced), or None when the
        arguments did not validate; the call log records them, so checks on
        the log see what the tool did, not how the agent spelled it.

        The call is transactional: on any failure (400/404/409/422/500) the
        state is restored exactly. After a successful mutating call the state
        is validated against ``State``; a violation is a 500 and is rolled back.

        Args:
            tool_name: the tool's name in this service.
            arguments: the arguments (a JSON object).
            as_fragment: give a successful result's ``data`` as an
                ``orjson.Fragment`` of its JSON text (see :func:`json_fragment`)
                instead of JSON-compatible objects, for callers that only
                serialise the envelope (the env's observations). It is written
                before the call returns, so later calls cannot change it.

        Returns:
            ``({"success": True, "data": ...} or
            {"success": False, "error": {"code": int, "message": str}}, arguments or None)``.
        """
        spec = self.tools.get(tool_name)
        if spec is None:
            return error_envelope(
                404, f"tool {tool_name!r} not found in service {self.name!r}; "
                f"available: {', '.join(sorted(self.tools))}."
            ), None
        try:
            kwargs = spec.validate(arguments)
        except InvalidArgument as exc:
            return error_envelope(exc.code, exc.message), None
        return self._execute(spec, kwargs, as_fragment), to_jsonable_python(kwargs)

    def _execute(self, spec: ToolSpec, kwargs: dict[str, Any], as_fragment: bool = False) -> dict[str, Any]:
        tool_name = spec.name
        txn = None if spec.read_only else self.transaction(self)
        try:
            result = spec.handler(self, **kwargs)
            # Serialised before the commit, as before: a result without a JSON form is a 500, rolled back.
            data = json_fragment(result) if as_fragment else to_jsonable_python(result)
            if txn is not None:
                txn.commit()
        except ToolError as exc:
            self._rollback(txn)
            return error_envelope(exc.code, exc.message)
        except ValidationError as exc:
            self._rollback(txn)
            first = exc.errors(include_url=False)[0]
            where = ".".join(str(x) for x in first.get("loc", ()))
            return error_envelope(
                InternalError.code,
                f"tool {tool_name!r} produced an invalid state ({where}: {first['msg']}); "
                "nothing was changed.",
            )
        except Exception as exc:  # noqa: BLE001 - a tool bug must not escape
            self._rollback(txn)
            return error_envelope(
                InternalError.code,
                f"internal error in tool {tool_name!r} ({type(exc).__name__}); nothing was changed.",
            )
        return ok(data)

    @staticmethod
    def _rollback(txn: Any) -> None:
        if txn is not None:
            txn.rollback()
