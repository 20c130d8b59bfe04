"""A world: the services of one episode, mounted together, and the call log.

The world is the runtime behind the four meta-tools (paper §2.3):
``list_services``, ``list_tools(service)``, ``describe_tool(tool)`` and
``call_tool(tool_name, arguments)``. It knows nothing about Gymnasium; the
env, the MCP bridge and the task generator all drive a world.

Tool names are exposed bare; when two mounted services share a tool name,
both are exposed only as ``<service>__<tool>`` (DESIGN.md §3a). The
qualified form is always accepted.
"""

from __future__ import annotations

import datetime as dt
from collections import Counter
from typing import Any, Iterable

from compoworld_gym.errors import error_envelope
from compoworld_gym.service import Service, ToolSpec

SEPARATOR = "__"


class World:
    """Mounted services plus the ordered log of real tool calls.

    Args:
        services: the service instances, in any order; names must be unique.

    Attributes:
        services: ``{name: Service}``, sorted by name.
        call_log: one dict per ``call_tool`` that reached a real tool:
            ``{"index", "service", "tool", "arguments", "success", "code"}``.
    """

    def __init__(self, services: Iterable[Service]) -> None:
        self.services: dict[str, Service] = {}
        for svc in sorted(services, key=lambda s: s.name):
            if svc.name in self.services:
                raise ValueError(f"service {svc.name!r} mounted twice")
            self.services[svc.name] = svc
        self.call_log: list[dict[str, Any]] = []
        self._routes = self._build_routes()

    def _build_routes(self) -> dict[str, tuple[Service, ToolSpec]]:
        counts = Counter(t for svc in self.services.values() for t in svc.tools)
        routes: dict[str, tuple[Service, ToolSpec]] = {}
        for svc in self.services.values():
            for name, spec in svc.tools.items():
                routes[f"{svc.name}{SEPARATOR}{name}"] = (svc, spec)
                if counts[name] == 1:
                    routes[name] = (svc, spec)
        return routes

    def exposed_name(self, service: str, tool: str) -> str:
        """The name under which ``service``'s ``tool`` is listed."""
        return tool if self._routes.get(tool, (None,))[0] is self.services[service] else (
            f"{service}{SEPARATOR}{tool}")

    # ------------------------------------------------------------ meta-tools
    def list_services(self) -> dict[str, Any]:
        """``{"services": [{"name", "description"}, ...]}`` sorted by name."""
        return {"services": [{"name": s.name, "description": s.description} for s in self.services.values()]}

    def list_tools(self, service: str) -> dict[str, Any]:
        """``{"service", "tools": [{"name", "description"}]}``, or a 404 envelope."""
        svc = self.services.get(service)
        if svc is None:
            return error_envelope(404, f"service {service!r} not found; call list_services to see "
                                       f"the available services.")
        tools = [{"name": self.exposed_name(svc.name, n), "description": t.summary} for n, t in svc.tools.items()]
        return {"service": svc.name, "tools": tools}

    def resolve(self, tool_name: str) -> tuple[Service, ToolSpec] | None:
        """The (service, spec) behind an exposed or qualified tool name."""
        return self._routes.get(tool_name)

    def describe_tool(self, tool: str) -> dict[str, Any]:
        """``{"name", "description", "parameters"}`` (full JSON Schema), or a 404 envelope."""
        route = self.resolve(tool)
        if route is None:
            return error_envelope(404, self._unknown_tool_message(tool))
        svc, spec = route
        return {"name": self.exposed_name(svc.name, spec.name), "description": spec.description,
                "parameters": spec.input_schema}

    def call_tool(self, tool_name: str, arguments: Any) -> dict[str, Any]:
        """Run a real tool; the result envelope. Logged when the tool exists."""
        route = self.resolve(tool_name)
        if route is None:
            return error_envelope(404, self._unknown_tool_message(tool_name))
        svc, spec = route
        result = svc.call(spec.name, arguments)
        self.call_log.append({
            "index": len(self.call_log),
            "service": svc.name,
            "tool": spec.name,
            "arguments": arguments if isinstance(arguments, dict) else {},
            "success": result["success"],
            "code": None if result["success"] else result["error"]["code"],
        })
        return result

    def _unknown_tool_message(self, tool: str) -> str:
        if SEPARATOR in tool and tool.split(SEPARATOR, 1)[0] not in self.services:
            return f"tool {tool!r} not found: no service {tool.split(SEPARATOR, 1)[0]!r} is mounted."
        return (f"tool {tool!r} not found; call list_services, then list_tools(service) to see "
                f"the tool names.")

    # ----------------------------------------------------------------- state
    def states(self) -> dict[str, dict[str, Any]]:
        """``{service name: state as JSON dict}`` for every mounted service."""
        return {name: svc.state_dict() for name, svc in self.services.items()}

    @property
    def today(self) -> dt.date | None:
        """The shared date of the mounted services (None if nothing is mounted)."""
        return next(iter(self.services.values())).today if self.services else None
