"""A world: the services of one episode, mounted together, and the call log.

The world is the runtime behind the four meta-tools (paper §2.3):
``list_services``, ``list_tools(service)``, ``describe_tool(tool)`` and
``call_tool(tool_name, arguments)``. It knows nothing about Gymnasium; the
env, the MCP bridge and the task generator all drive a world.

Tool names are exposed bare; when two mounted services share a tool name,
both are exposed only as ``<service>__<tool>``, as in the paper's published trajectories. The
qualified form is always accepted.

Services can be mounted *lazily* (:class:`LazyService`): discovery
meta-tools need only the service classes, so a lazily mounted service's
state is built from its initial-state JSON the first time one of its tools
is called or ``world.services[name]`` is read. Most episodes never touch
most of their (distractor) services, so reset does no per-service work.
"""

from __future__ import annotations

import datetime as dt
import functools
from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Callable, Iterable, Iterator, Optional

import orjson

from compoworld_gym.errors import error_envelope
from compoworld_gym.service import Service, ToolSpec

SEPARATOR = "__"


@dataclass(frozen=True)
class LazyService:
    """A service mounted without building its state until first use.

    Attributes:
        cls: the service class.
        today: the task's fixed date.
        state_json: returns the initial state as JSON bytes, exactly as
            ``cls(state, today=today).state_dict()`` would dump it (so an
            untouched service reads the same through :meth:`World.states`).
    """

    cls: type[Service]
    today: dt.date
    state_json: Callable[[], bytes]

    def build(self) -> Service:
        """A live service instance on the initial state."""
        return self.cls(self.state_json(), today=self.today)


class _Services(Mapping):
    """``{name: Service}`` in name order; lazy entries are built on access."""

    __slots__ = ("_live", "_lazy", "_order")

    def __init__(self, live: dict[str, Service], lazy: dict[str, LazyService], order: tuple[str, ...]) -> None:
        self._live, self._lazy, self._order = live, lazy, order

    def __getitem__(self, name: str) -> Service:
        svc = self._live.get(name)
        if svc is None:
            svc = self._live[name] = self._lazy[name].build()  # KeyError for unknown names
        return svc

    def __iter__(self) -> Iterator[str]:
        return iter(self._order)

    def __len__(self) -> int:
        return len(self._order)

    def __contains__(self, name: object) -> bool:
        return name in self._live or name in self._lazy

    def __repr__(self) -> str:
        return f"<services {list(self._order)} (built: {sorted(self._live)})>"


@functools.lru_cache(maxsize=512)
def _route_table(classes: tuple[type[Service], ...]) -> tuple[dict[str, tuple[str, ToolSpec]],
                                                              dict[tuple[str, str], str],
                                                              dict[str, tuple[tuple[str, str], ...]]]:
    """Routes ``{exposed or qualified name: (service, spec)}``, exposed names
    ``{(service, tool): exposed name}`` and ``list_tools`` rows
    ``{service: ((exposed name, summary), ...)}`` of a set of classes.
    Shared by every world mounting the same classes (read-only)."""
    counts = Counter(t for cls in classes for t in cls.tools)
    routes: dict[str, tuple[str, ToolSpec]] = {}
    exposed: dict[tuple[str, str], str] = {}
    listing: dict[str, tuple[tuple[str, str], ...]] = {}
    for cls in classes:
        rows = []
        for name, qualified, route, summary in _tool_rows(cls):
            routes[qualified] = route
            shown = qualified
            if counts[name] == 1:  # a bare name only where no other mounted service has the tool
                routes[name] = route
                shown = name
            exposed[(cls.name, name)] = shown
            rows.append((shown, summary))
        listing[cls.name] = tuple(rows)
    return routes, exposed, listing


@functools.lru_cache(maxsize=None)
def _tool_rows(cls: type[Service]) -> tuple[tuple[str, str, tuple[str, ToolSpec], str], ...]:
    """``(tool, qualified name, route, summary)`` per tool of a class: what
    every routing table of a set of classes holding it repeats."""
    return tuple((name, f"{cls.name}{SEPARATOR}{name}", (cls.name, spec), spec.summary)
                 for name, spec in cls.tools.items())


class World:
    """Mounted services plus the ordered log of real tool calls.

    Args:
        services: live service instances, in any order.
        lazy: services built on first use (see :class:`LazyService`).
        cache_routes: keep the routing tables of this set of services for
            later worlds mounting the same set (an env resets the same task
            again and again); False for a one-off world, such as a candidate
            task's verification, whose tables would only crowd the cache.

    Raises:
        ValueError: a service name is mounted twice.

    Attributes:
        classes: ``{name: service class}``, sorted by name.
        services: ``{name: Service}``, sorted by name (a mapping that builds
            lazily mounted services when they are looked up or iterated).
        call_log: one dict per ``call_tool`` that reached a real tool:
            ``{"index", "service", "tool", "arguments", "success", "code"}``;
            ``arguments`` are the validated ones in JSON form (defaults filled
            in), or the raw ones when validation failed.
    """

    def __init__(self, services: Iterable[Service] = (), *, lazy: Iterable[LazyService] = (),
                 cache_routes: bool = True) -> None:
        live: dict[str, Service] = {}
        pending: dict[str, LazyService] = {}
        classes: dict[str, type[Service]] = {}
        dates: dict[str, dt.date] = {}
        for name, cls, obj, today in [*((s.name, type(s), s, s.today) for s in services),
                                      *((ls.cls.name, ls.cls, ls, ls.today) for ls in lazy)]:
            if name in classes:
                raise ValueError(f"service {name!r} mounted twice")
            classes[name], dates[name] = cls, today
            (pending if isinstance(obj, LazyService) else live)[name] = obj
        order = tuple(sorted(classes))
        self.classes: dict[str, type[Service]] = {n: classes[n] for n in order}
        self.services = _Services(live, pending, order)
        self.call_log: list[dict[str, Any]] = []
        self._today = dates[order[0]] if order else None
        tables = _route_table if cache_routes else _route_table.__wrapped__
        self._routes, self._exposed, self._listing = tables(tuple(self.classes.values()))

    def exposed_name(self, service: str, tool: str) -> str:
        """The name under which ``service``'s ``tool`` is listed.

        Raises:
            KeyError: ``service`` is not mounted.
        """
        if service not in self.classes:
            raise KeyError(service)
        return self._exposed.get((service, tool)) or f"{service}{SEPARATOR}{tool}"

    # ------------------------------------------------------------ meta-tools
    def list_services(self) -> dict[str, Any]:
        """``{"services": [name, ...]}`` sorted by name: bare names, as in the paper's
        published trajectories (``list_tools`` gives each tool's description)."""
        return {"services": list(self.classes)}

    def list_tools(self, service: str) -> dict[str, Any]:
        """``{"service", "tools": [{"name", "description"}]}``, or a 404 envelope."""
        if service not in self.classes:
            return error_envelope(404, f"service {service!r} not found; call list_services to see "
                                       f"the available services.")
        tools = [{"name": name, "description": summary} for name, summary in self._listing[service]]
        return {"service": service, "tools": tools}

    def resolve(self, tool_name: str) -> Optional[tuple[Service, ToolSpec]]:
        """The (service, spec) behind an exposed or qualified tool name
        (builds the service if it is mounted lazily)."""
        route = self._routes.get(tool_name)
        return None if route is None else (self.services[route[0]], route[1])

    def resolve_spec(self, tool_name: str) -> Optional[tuple[str, ToolSpec]]:
        """The (service name, spec) behind a tool name, without building anything."""
        return self._routes.get(tool_name)

    def describe_tool(self, tool: str) -> dict[str, Any]:
        """``{"name", "description", "parameters"}`` (full JSON Schema), or a 404 envelope."""
        route = self._routes.get(tool)
        if route is None:
            return error_envelope(404, self._unknown_tool_message(tool))
        service, spec = route
        return {"name": self._exposed[(service, spec.name)], "description": spec.description,
                "parameters": spec.input_schema}

    def call_tool(self, tool_name: str, arguments: Any, *, as_fragment: bool = False) -> dict[str, Any]:
        """Run a real tool; the result envelope. Logged when the tool exists.

        ``as_fragment``: successful ``data`` comes as an ``orjson.Fragment``
        of its JSON text (see :meth:`Service.invoke`).
        """
        route = self._routes.get(tool_name)
        if route is None:
            return error_envelope(404, self._unknown_tool_message(tool_name))
        service, spec = route
        result, validated = self.services[service].invoke(spec.name, arguments, as_fragment=as_fragment)
        success = result["success"]
        if validated is None:  # rejected before running: log what was sent
            validated = arguments if isinstance(arguments, dict) else {}
        self.call_log.append({
            "index": len(self.call_log),
            "service": service,
            "tool": spec.name,
            "arguments": validated,
            "success": success,
            "code": None if success else result["error"]["code"],
        })
        return result

    def _unknown_tool_message(self, tool: str) -> str:
        if SEPARATOR in tool and tool.split(SEPARATOR, 1)[0] not in self.classes:
            return f"tool {tool!r} not found: no service {tool.split(SEPARATOR, 1)[0]!r} is mounted."
        return (f"tool {tool!r} not found; call list_services, then list_tools(service) to see "
                f"the tool names.")

    # ----------------------------------------------------------------- state
    def state_of(self, service: str) -> dict[str, Any]:
        """The state of one mounted service as a fresh JSON dict.

        A lazily mounted service that was never built reads as its initial
        state, without being built.

        Raises:
            KeyError: ``service`` is not mounted.
        """
        live = self.services._live.get(service)
        if live is not None:
            return live.state_dict()
        return orjson.loads(self.services._lazy[service].state_json())

    def states(self, names: Optional[Iterable[str]] = None) -> dict[str, dict[str, Any]]:
        """``{service name: state as JSON dict}``, sorted by name.

        Args:
            names: only these services (names not mounted are skipped);
                default every mounted service.
        """
        wanted = self.classes if names is None else set(names)
        return {name: self.state_of(name) for name in self.classes if name in wanted}

    def is_built(self, service: str) -> bool:
        """Whether ``service`` has a live instance (a tool ran or it was looked up)."""
        return service in self.services._live

    @property
    def today(self) -> dt.date | None:
        """The shared date of the mounted services (None if nothing is mounted)."""
        return self._today
