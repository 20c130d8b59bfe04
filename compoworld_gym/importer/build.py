"""Building services from MCP server specs and registering them.

:func:`import_mcp` is what ``compoworld import-mcp SOURCE`` runs: it loads
the servers, builds one :class:`ImportedService` subclass per server (engine
tools where the resource pattern fits, simulated tools elsewhere), registers
them in the catalog and reports the figures.
"""

from __future__ import annotations

import functools
import time
from dataclasses import dataclass, field
from typing import Any, Iterable, Optional

from compoworld_gym.importer.actions import make_handler
from compoworld_gym.importer.functions import is_pure
from compoworld_gym.importer.inference import id_kind, tag_schema
from compoworld_gym.importer.names import identifier, tokens
from compoworld_gym.importer.names import service_name as make_service_name
from compoworld_gym.importer.patterns import READERS, VERBS, shape_of
from compoworld_gym.importer.plan import plan_server
from compoworld_gym.importer.service import ImportedService
from compoworld_gym.importer.specs import ServerSpec, ToolDef, load_source
from compoworld_gym.importer.state import record_model, state_model
from compoworld_gym.importer.validation import make_validator
from compoworld_gym.entities import entities_in_schema
from compoworld_gym.service import ToolSpec
from compoworld_gym.world_model.runtime import simulate_call

#: Verbs whose simulated tools are taken as read-only when the server gives no hint.
_READ_VERBS = frozenset({"get", "list", "search", "find", "read", "fetch", "query", "lookup", "check", "view",
                         "show", "describe", "count", "retrieve", "calculate", "convert", "validate",
                         "analyze", "analyse", "explain", "compare", "estimate", "inspect", "lint",
                         "parse", "extract", "summarize", "translate", "recommend", "suggest", "preview",
                         "ping", "resolve", "test", "verify", "scan", "browse", "download", "export", "open"})
_DESTRUCTIVE = frozenset({"delete", "remove", "archive", "trash", "destroy", "drop", "purge", "clear", "reset",
                          "kill", "terminate", "revoke", "overwrite", "truncate"})


#: The simulated reason of a tool whose schema is not a usable JSON Schema.
INVALID_SCHEMA = "invalid_schema"


@dataclass
class ImportReport:
    """What an import produced.

    Attributes:
        services: the built service classes, in input order.
        tools: tools imported (duplicates within a server dropped).
        deterministic_tools: tools run by the resource engine.
        simulated_tools: tools simulated by the world model.
        invalid_schemas: ``"<service>.<tool>: problem"`` for each invalid schema.
        duplicate_tools: ``"<service>.<tool>"`` for repeated names in one listing.
        simulated_reasons: ``{reason: simulated tools}``, why the world model
            serves them (outside-world reasons first, see ``ServerPlan.reasons``).
        seconds: wall time of the import.
    """

    services: list[type[ImportedService]] = field(default_factory=list)
    tools: int = 0
    deterministic_tools: int = 0
    simulated_tools: int = 0
    invalid_schemas: list[str] = field(default_factory=list)
    duplicate_tools: list[str] = field(default_factory=list)
    simulated_reasons: dict[str, int] = field(default_factory=dict)
    seconds: float = 0.0


def _hints(tool: ToolDef, verb: Optional[str]) -> tuple[bool, bool, bool]:
    """(read_only, destructive, idempotent): the server's hints win, else the verb decides."""
    words = tokens(tool.name)
    first = next((w for w in words[:3] if w in VERBS or w in _READ_VERBS or w in _DESTRUCTIVE), None)
    if verb is not None:
        read_only = verb in READERS or verb == "count"
    else:
        read_only = first in _READ_VERBS or VERBS.get(first or "") in READERS
    destructive = bool(first in _DESTRUCTIVE or verb == "delete")
    ann = tool.annotations
    read_only = bool(ann.get("readOnlyHint", read_only))
    destructive = bool(ann.get("destructiveHint", destructive)) and not read_only
    idempotent = bool(ann.get("idempotentHint", read_only or verb in ("update", "delete", "upsert", "action")))
    return read_only, destructive, idempotent


@functools.lru_cache(maxsize=4096)
def _record_entities(model: type) -> frozenset[str]:
    # One JSON Schema per record model: every tool over a collection produces the same entities.
    return frozenset(entities_in_schema(model.model_json_schema(by_alias=True)))


def _produces(records: dict[str, Any], op: Any, tool: ToolDef) -> frozenset[str]:
    if op is not None:
        if op.verb in ("delete", "function"):
            return frozenset()
        return _record_entities(records[op.collection])
    shape = shape_of(tool.name)
    kind = id_kind(list(shape.noun)) if shape is not None else None
    if tool.output_schema:
        return frozenset(entities_in_schema(tool.output_schema))
    return frozenset({f"{kind}_id"}) if kind else frozenset()


def _tool_spec(tool: ToolDef, op: Any, plan_records: dict[str, Any], collections: dict[str, Any],
               problem: Optional[str], validate: Any) -> ToolSpec:
    context = frozenset(tokens(tool.name))
    schema = tool.input_schema if isinstance(tool.input_schema, dict) else {"type": "object"}
    tagged, consumes = (schema, {}) if problem else tag_schema(schema, context)
    if op is not None and op.id_param and op.id_param in (schema.get("properties") or {}):
        kind = id_kind(list(collections[op.collection].noun))
        if kind and op.id_param not in consumes and op.verb not in ("create", "send"):
            consumes[op.id_param] = f"{kind}_id"
            props = dict(tagged.get("properties", {}))
            props[op.id_param] = {**props[op.id_param], "x-entity": f"{kind}_id"}
            tagged = {**tagged, "properties": props}
    verb = op.verb if op else None
    if op is not None and op.function is not None:
        verb = "get" if is_pure(op.function) else "create"  # a random draw advances the clock
    read_only, destructive, idempotent = _hints(tool, verb)
    handler = make_handler(op, tool.name, schema) if op is not None else _simulated(tool.name)
    description = tool.description.strip() or tool.name.replace("_", " ")
    return ToolSpec(name=tool.name, description=description, input_schema=tagged, handler=handler,
                    validate=validate, read_only=read_only, destructive=destructive, idempotent=idempotent,
                    consumes=consumes, produces=_produces(plan_records, op, tool),
                    simulated=op is None)


def _simulated(tool: str) -> Any:
    """The handler of a simulated tool (the service comes positionally: a tool
    may have parameters called ``service`` or ``tool``)."""

    def handler(*positional: Any, **arguments: Any) -> Any:
        return simulate_call(positional[0], tool, arguments)

    return handler


def build_service(spec: ServerSpec, name: str) -> type[ImportedService]:
    """One :class:`ImportedService` subclass for a server.

    Args:
        spec: the server's spec.
        name: the service name (a unique identifier).

    Returns:
        The class; not yet registered in the catalog.
    """
    tools: list[ToolDef] = []
    seen: set[str] = set()
    for tool in spec.tools:
        if tool.name not in seen:
            seen.add(tool.name)
            tools.append(tool)
    checked = {t.name: make_validator(t.input_schema) for t in tools}
    plan = plan_server({t.name: t.input_schema for t in tools if checked[t.name][1] is None},
                       {t.name: t.description for t in tools})
    reasons = {t.name: plan.reasons.get(t.name, INVALID_SCHEMA) for t in tools if t.name not in plan.ops}
    cls_name = "".join(w.capitalize() for w in name.split("_")) or "Imported"
    records = {c: record_model(f"{cls_name}{''.join(w.capitalize() for w in coll.noun)}", coll)
               for c, coll in plan.collections.items()}
    specs = {t.name: _tool_spec(t, plan.ops.get(t.name), records, plan.collections, checked[t.name][1],
                                checked[t.name][0]) for t in tools}
    domain = identifier(spec.category, fallback="imported") if spec.category else "imported"
    description = spec.description or f"{spec.server}: imported MCP server with {len(specs)} tools."
    namespace = {
        "name": name, "description": description.split("\n", 1)[0][:300], "domain": domain,
        "spec_source": spec.slug, "server": spec.server, "tools": specs,
        "State": state_model(f"{cls_name}State", plan.collections, records),
        "collections": plan.collections, "record_models": records, "ops": plan.ops,
        "output_schemas": {t.name: t.output_schema for t in tools if t.output_schema},
        "invalid_schemas": {n: p for n, (_, p) in checked.items() if p is not None},
        "simulated_reasons": reasons,
        "__module__": __name__, "__doc__": f"Imported MCP server {spec.server!r} ({spec.slug}).",
    }
    return type(cls_name, (ImportedService,), namespace)


def _taken_names() -> dict[str, Any]:
    from compoworld_gym import catalog

    return {n: catalog.get_service(n) for n in catalog.service_names()}


def import_specs(servers: Iterable[ServerSpec], *, register: bool = True) -> ImportReport:
    """Build (and register) one service per server.

    A server imported earlier in this process under the same slug is
    replaced; any other existing name is avoided (``_mcp``/``_2`` suffix).

    Args:
        servers: the server specs.
        register: add the services to the catalog.
    """
    start = time.perf_counter()
    report = ImportReport()
    existing = _taken_names()
    taken = {n for n, c in existing.items() if not issubclass(c, ImportedService)}
    previous = {c.spec_source: n for n, c in existing.items() if issubclass(c, ImportedService)}
    for spec in servers:
        name = previous.get(spec.slug)
        if name is None or name in taken:
            name = make_service_name(spec.slug, taken | set(previous.values()) - {previous.get(spec.slug)})
        taken.add(name)
        cls = build_service(spec, name)
        report.services.append(cls)
        report.tools += len(cls.tools)
        report.simulated_tools += sum(1 for t in cls.tools.values() if t.simulated)
        for reason in cls.simulated_reasons.values():
            report.simulated_reasons[reason] = report.simulated_reasons.get(reason, 0) + 1
        report.invalid_schemas += [f"{name}.{t}: {p}" for t, p in cls.invalid_schemas.items()]
        names = [t.name for t in spec.tools]
        report.duplicate_tools += sorted({f"{name}.{n}" for n in names if names.count(n) > 1})
        if register:
            from compoworld_gym.catalog import register_service

            register_service(cls, replace=True)
    report.deterministic_tools = report.tools - report.simulated_tools
    report.simulated_reasons = dict(sorted(report.simulated_reasons.items(), key=lambda kv: (-kv[1], kv[0])))
    report.seconds = time.perf_counter() - start
    return report


def import_mcp(source: str, *, register: bool = True) -> dict[str, Any]:
    """Import MCP servers from a JSONL spec file, a stdio command or an HTTP URL.

    Args:
        source: path of a JSONL file like the bundled ``compoworld_gym/data/mcp_servers.jsonl``,
            an ``http(s)://`` streamable-HTTP URL, or a command line that
            starts a stdio MCP server.
        register: add the services to the catalog (so tasks can mount them).

    Returns:
        ``{"servers", "tools", "deterministic_tools", "simulated_tools",
        "deterministic_share", "simulated_reasons", "invalid_schemas", "invalid_schema_tools",
        "duplicate_tools", "seconds", "service_names", "services"}``; counts
        are ints, ``deterministic_share`` is deterministic/tools in [0, 1]
        (4 decimals), ``simulated_reasons`` is ``{reason: tools}``,
        ``seconds`` includes loading, ``services`` holds the classes
        (drop it before printing JSON).

    Raises:
        SpecSourceError: the source cannot be read or listed.
    """
    start = time.perf_counter()
    servers = load_source(source)
    report = import_specs(servers, register=register)
    share = report.deterministic_tools / report.tools if report.tools else 0.0
    return {
        "servers": len(report.services), "tools": report.tools,
        "deterministic_tools": report.deterministic_tools, "simulated_tools": report.simulated_tools,
        "deterministic_share": round(share, 4), "simulated_reasons": report.simulated_reasons,
        "invalid_schemas": len(report.invalid_schemas),
        "invalid_schema_tools": report.invalid_schemas, "duplicate_tools": report.duplicate_tools,
        "seconds": round(time.perf_counter() - start, 3),
        "service_names": [c.name for c in report.services], "services": report.services,
    }

