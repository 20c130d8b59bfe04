"""Per-service task hooks: discovery, validation and the task graph.

Each module ``hooks/<service>.py`` defines ``HOOK``, a
:class:`~compoworld_gym.generation.hooks._base.ServiceHook`. Hooks are kept
apart from the service files so that services stay plain MCP-style
components. A hook is used only when its service is in the catalog, and
each source/sink is checked against the service's real tool specs: a source
must use a read tool that produces its entity type, a sink a write tool that
consumes it. Entries that fail are dropped and reported by
:func:`hook_problems`, so the task graph is always a subgraph of the
dependency graph.
"""

from __future__ import annotations

import functools
import importlib
import pkgutil

import networkx as nx

from compoworld_gym.catalog import get_service, service_names
from compoworld_gym.entities import entities_in_schema
from compoworld_gym.generation.hooks._base import RecordSource, ServiceHook
from compoworld_gym.service import ToolSpec


def _discover() -> dict[str, ServiceHook]:
    found: dict[str, ServiceHook] = {}
    for mod in sorted(pkgutil.iter_modules(__path__), key=lambda m: m.name):
        if mod.name.startswith("_"):
            continue
        hook = getattr(importlib.import_module(f"{__name__}.{mod.name}"), "HOOK", None)
        if isinstance(hook, ServiceHook):
            found[hook.service] = hook
    return found


def consumed_types(spec: ToolSpec) -> set[str]:
    """Every entity type a tool takes, nested ones included (``properties.email``)."""
    return entities_in_schema(spec.input_schema.get("properties", {}))


def _source_ok(tools: dict[str, ToolSpec], etype: str, src: RecordSource) -> bool:
    spec = tools.get(src.tool)
    return spec is not None and spec.read_only and etype in spec.produces


def _sink_ok(hook: ServiceHook, tools: dict[str, ToolSpec], etype: str, tool_name: str) -> bool:
    spec = tools.get(tool_name)
    if spec is None or spec.read_only:
        return False
    if etype in consumed_types(spec):
        return True
    param = hook.free_text.get(tool_name)  # the fact travels inside free text
    prop = spec.input_schema.get("properties", {}).get(param or "", {})
    return param is not None and prop.get("type") == "string"


def _problems(hook: ServiceHook) -> list[str]:
    tools = get_service(hook.service).tools
    out = []
    for etype, src in hook.sources.items():
        if not _source_ok(tools, etype, src):
            out.append(f"{hook.service}: source {etype} via {src.tool!r} is not a read tool producing {etype}")
    for etype, (tool_name, _) in hook.sinks.items():
        if not _sink_ok(hook, tools, etype, tool_name):
            out.append(f"{hook.service}: sink {etype} via {tool_name!r} is not a write tool consuming {etype}")
    return out


@functools.lru_cache(maxsize=1)
def _validated() -> tuple[dict[str, ServiceHook], tuple[str, ...]]:
    known = set(service_names())
    hooks, problems = {}, []
    for name, hook in _discover().items():
        if name not in known:
            continue
        problems.extend(_problems(hook))
        tools = get_service(name).tools
        sources = {t: s for t, s in hook.sources.items() if _source_ok(tools, t, s)}
        sinks = {t: s for t, s in hook.sinks.items() if _sink_ok(hook, tools, t, s[0])}
        hooks[name] = ServiceHook(hook.service, hook.label, sources, sinks, dict(hook.free_text))
    return hooks, tuple(problems)


def available_hooks() -> dict[str, ServiceHook]:
    """``{service: validated hook}`` for every catalog service that has one."""
    return dict(_validated()[0])


def hook_problems() -> list[str]:
    """Sources/sinks dropped because they disagree with the service's tool specs."""
    return list(_validated()[1])


def task_graph(hooks: dict[str, ServiceHook] | None = None) -> nx.DiGraph:
    """The graph the generator walks: ``A → B`` typed ``T`` when A's hook
    has a source of ``T`` and B's hook a sink of ``T``. Typed sinks make it a
    subgraph of :func:`compoworld_gym.graph.build_graph` (guaranteed by
    validation); free-text sinks (a chat post carrying a date) add edges the
    typed graph cannot see."""
    hooks = available_hooks() if hooks is None else hooks
    g = nx.DiGraph()
    g.add_nodes_from(sorted(hooks))
    for a in sorted(hooks):
        for b in sorted(hooks):
            shared = sorted(set(hooks[a].sources) & set(hooks[b].sinks)) if a != b else []
            if shared:
                g.add_edge(a, b, types=shared)
    return g


__all__ = ["RecordSource", "ServiceHook", "available_hooks", "hook_problems", "task_graph"]
