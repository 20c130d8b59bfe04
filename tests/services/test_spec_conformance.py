"""Every built-in service that names a real MCP server (``spec_source``)
must keep that server's interface for the tools it implements.

For each such service and each of its tools (except those it lists in an
optional ``designed_tools`` class attribute, which must *not* exist in the
spec): the tool name exists in the spec server; our parameters are a subset
of the spec's (no invented parameters); every spec-required parameter exists
and is required here; and each parameter's JSON type is compatible with the
spec's (an ``integer`` may implement a ``number``; an optional parameter may
be ``anyOf [T, null]``). Enum narrowing and constraints are allowed. A
spec tool whose schema has no ``properties`` at all (a bare
``{"type": "object"}``, parameters lost by the compilation) is checked by
name only.
"""

from __future__ import annotations

import json
from functools import lru_cache
from pathlib import Path
from typing import Any

import pytest

from compoworld_gym.envs.services import BUILTIN_SERVICES

from compoworld_gym.specs import SPECS_PATH as SPECS  # noqa: E402
WITH_SPEC = [cls for cls in BUILTIN_SERVICES if cls.spec_source]
_ALLOWED = {"number": {"number", "integer"}}


@lru_cache(maxsize=1)
def _servers() -> dict[str, dict[str, Any]]:
    by_slug: dict[str, dict[str, Any]] = {}
    with open(SPECS, encoding="utf-8") as fh:
        for line in fh:
            if line.strip():
                server = json.loads(line)
                by_slug.setdefault(server["slug"], server)
    return by_slug


def _types(schema: dict[str, Any]) -> set[str]:
    """The JSON types a property schema accepts, ignoring null (optional)."""
    found: set[str] = set()
    kind = schema.get("type")
    if isinstance(kind, str):
        found.add(kind)
    elif isinstance(kind, list):
        found.update(kind)
    for branch in schema.get("anyOf", []) + schema.get("oneOf", []):
        found |= _types(branch)
    return found - {"null"}


def tool_mismatches(ours: dict[str, Any], spec: dict[str, Any]) -> list[str]:
    """Interface differences between our inputSchema and the spec's (empty = conformant)."""
    problems = []
    our_props, spec_props = ours.get("properties", {}), spec.get("properties", {}) or {}
    our_req, spec_req = set(ours.get("required", [])), set(spec.get("required", []))
    for extra in sorted(set(our_props) - set(spec_props)):
        problems.append(f"parameter {extra!r} is not in the spec (spec has {sorted(spec_props)})")
    for name in sorted(spec_req):
        if name not in our_props:
            problems.append(f"spec-required parameter {name!r} is missing")
        elif name not in our_req:
            problems.append(f"spec-required parameter {name!r} is optional here")
    for name in sorted(set(our_props) & set(spec_props)):
        spec_types, our_types = _types(spec_props[name]), _types(our_props[name])
        if not spec_types or not our_types:
            continue  # the spec (or we) accept any JSON value here
        allowed = set().union(*(_ALLOWED.get(t, {t}) for t in spec_types))
        if not our_types <= allowed:
            problems.append(f"parameter {name!r} has type {sorted(our_types)}, spec says {sorted(spec_types)}")
    return problems


def test_conformance_check_catches_mismatches():
    spec = {"properties": {"id": {"type": "string"}, "n": {"type": "number"}}, "required": ["id"]}
    good = {"properties": {"id": {"type": "string"}, "n": {"anyOf": [{"type": "integer"}, {"type": "null"}]}},
            "required": ["id"]}
    assert tool_mismatches(good, spec) == []
    bad = {"properties": {"n": {"type": "string"}, "extra": {"type": "string"}}, "required": []}
    assert tool_mismatches(bad, spec) == [
        "parameter 'extra' is not in the spec (spec has ['id', 'n'])",
        "spec-required parameter 'id' is missing",
        "parameter 'n' has type ['string'], spec says ['number']",
    ]
    optional_id = {"properties": {"id": {"type": "string"}}, "required": []}
    assert tool_mismatches(optional_id, spec) == ["spec-required parameter 'id' is optional here"]


def test_some_builtin_services_follow_a_spec():
    assert {"gmail", "slack", "calendar", "crm"} <= {cls.name for cls in WITH_SPEC}


@pytest.mark.parametrize("cls", WITH_SPEC, ids=lambda c: c.name)
def test_service_matches_its_spec(cls):
    server = _servers().get(cls.spec_source)
    assert server is not None, f"{cls.name}: spec_source {cls.spec_source!r} is not a slug in {SPECS.name}"
    spec_tools = {t["name"]: t.get("inputSchema") or {} for t in server["tools"]}
    designed = set(getattr(cls, "designed_tools", ()))
    problems = [f"designed tool {n!r} exists in the spec: implement the spec's interface instead"
                for n in sorted(designed & set(spec_tools))]
    for name, spec in sorted(cls.tools.items()):
        if name in designed:
            continue
        if name not in spec_tools:
            problems.append(f"tool {name!r} is not in spec {cls.spec_source!r} (list it in designed_tools "
                            "if it is deliberately designed)")
            continue
        if "properties" not in spec_tools[name]:
            continue  # the spec lost this tool's parameters (bare {"type": "object"}): only the name is checked
        problems += [f"{name}: {p}" for p in tool_mismatches(spec.input_schema, spec_tools[name])]
    assert not problems, f"{cls.name} deviates from {cls.spec_source}:\n  " + "\n  ".join(problems)
