"""Deriving MCP tool schemas from typed Python signatures.

A tool's signature plus its Google-style docstring *is* its schema (one
source of truth, as in τ²-bench): parameter types and defaults give the JSON
Schema ``inputSchema`` and the pydantic model that validates arguments; the
``Args:`` section gives the per-parameter descriptions.
"""

from __future__ import annotations

import inspect
import re
from typing import Annotated, Any, Callable, get_type_hints

from pydantic import BaseModel, ConfigDict, Field, ValidationError, create_model

from compoworld_gym.errors import InvalidArgument

_SECTION = re.compile(r"^\s*(Args|Arguments|Returns|Raises|Example|Examples|Note|Yields):\s*$")
_ARG_LINE = re.compile(r"^(\*{0,2}\w+)(?:\s*\([^)]*\))?:\s*(.*)$")


def parse_docstring(doc: str | None) -> tuple[str, dict[str, str]]:
    """Split a Google-style docstring into (description, {arg: description}).

    The description is everything before the first section header, with
    paragraphs joined by a blank line. Continuation lines of an argument are
    appended to it.
    """
    if not doc:
        return "", {}
    lines = inspect.cleandoc(doc).splitlines()
    desc: list[str] = []
    args: dict[str, str] = {}
    section: str | None = None
    current: str | None = None
    arg_indent: int | None = None
    for line in lines:
        header = _SECTION.match(line)
        if header:
            section, current = header.group(1), None
            continue
        if section is None:
            desc.append(line)
        elif section in ("Args", "Arguments") and line.strip():
            indent = len(line) - len(line.lstrip())
            m = _ARG_LINE.match(line.strip())
            if m and (arg_indent is None or indent <= arg_indent):
                arg_indent = indent
                current = m.group(1).lstrip("*")
                args[current] = m.group(2).strip()
            elif current:
                args[current] = (args[current] + " " + line.strip()).strip()
    return "\n".join(desc).strip(), args


def clean_schema(schema: dict[str, Any]) -> dict[str, Any]:
    """Inline ``$ref``s and drop pydantic's auto-generated ``title`` keys.

    Property *names* called ``title`` are kept: only the keyword is removed.
    """
    defs = schema.get("$defs", {})

    def walk(node: Any, in_properties: bool = False) -> Any:
        if isinstance(node, list):
            return [walk(x) for x in node]
        if not isinstance(node, dict):
            return node
        if "$ref" in node and not in_properties:
            target = defs[node["$ref"].split("/")[-1]]
            merged = {**target, **{k: v for k, v in node.items() if k != "$ref"}}
            return walk(merged)
        out = {}
        for key, value in node.items():
            if in_properties:
                out[key] = walk(value)
            elif key in ("title", "$defs"):
                continue
            else:
                out[key] = walk(value, in_properties=(key == "properties"))
        return out

    return walk(schema)


def signature_model(fn: Callable[..., Any], arg_docs: dict[str, str]) -> type[BaseModel]:
    """A pydantic model (extra fields forbidden) of ``fn``'s parameters after ``self``.

    Raises:
        TypeError: a parameter has no type annotation.
    """
    hints = get_type_hints(fn, include_extras=True)
    fields: dict[str, Any] = {}
    for name, param in list(inspect.signature(fn).parameters.items())[1:]:
        if name not in hints:
            raise TypeError(f"tool {fn.__qualname__}: parameter {name!r} needs a type annotation")
        annotation = hints[name]
        if name in arg_docs:
            annotation = Annotated[annotation, Field(description=arg_docs[name])]
        default = ... if param.default is inspect.Parameter.empty else param.default
        fields[name] = (annotation, default)
    # allow_inf_nan=False: "inf"/"NaN" parse as floats, but no tool argument means them (400, not a 500 later)
    config = ConfigDict(extra="forbid", arbitrary_types_allowed=False, allow_inf_nan=False)
    return create_model(f"{fn.__name__}_arguments", __config__=config, **fields)


def describe_expected(schema: dict[str, Any]) -> str:
    """A short human description of what a JSON Schema property expects."""
    if "enum" in schema:
        return "one of " + ", ".join(repr(v) for v in schema["enum"])
    if "anyOf" in schema:
        parts = [describe_expected(s) for s in schema["anyOf"] if s.get("type") != "null"]
        return " or ".join(parts) or "a value"
    kind = schema.get("type", "value")
    fmt = schema.get("format")
    text = {"string": "a string", "integer": "an integer", "number": "a number",
            "boolean": "true or false", "array": "an array", "object": "an object"}.get(kind, kind)
    if fmt == "date":
        text = "a date string YYYY-MM-DD"
    elif fmt == "date-time":
        text = "a datetime string YYYY-MM-DDTHH:MM:SS"
    if schema.get("x-entity"):
        text += f" ({schema['x-entity'].replace('_', ' ')})"
    return text


def _schema_at(schema: dict[str, Any], loc: tuple[Any, ...]) -> dict[str, Any]:
    """The subschema at a pydantic error location (property names, list indexes), following
    ``items`` and the non-null branch of an ``anyOf``; ``{}`` where the path leaves the schema."""
    node: Any = schema
    for key in loc:
        if not isinstance(node, dict):
            return {}
        branches = [b for b in node.get("anyOf", []) if isinstance(b, dict) and b.get("type") != "null"]
        if "properties" not in node and "items" not in node and len(branches) == 1:
            node = branches[0]
        if isinstance(key, int) and isinstance(node.get("items"), dict):
            node = node["items"]
        elif isinstance(node.get("properties"), dict) and key in node["properties"]:
            node = node["properties"][key]
        else:
            return {}
    return node if isinstance(node, dict) else {}


def validation_message(exc: ValidationError, input_schema: dict[str, Any]) -> str:
    """Turn a pydantic ``ValidationError`` into an agent-readable 400 message.

    The message names each offending field and says what is expected.
    """
    parts = []
    for err in exc.errors(include_url=False)[:5]:
        raw_loc = tuple(err.get("loc", ()))
        path = ".".join(str(x) for x in raw_loc) or "arguments"
        # describe the schema at the error's own path, not its top-level argument's
        expected = describe_expected(_schema_at(input_schema, raw_loc))
        if err["type"] == "missing":
            parts.append(f"missing required argument '{path}' ({expected})")
        elif err["type"] == "extra_forbidden":
            allowed = ", ".join(_schema_at(input_schema, raw_loc[:-1]).get("properties", {})) or "none"
            parts.append(f"unexpected argument '{path}' (allowed: {allowed})")
        else:
            got = repr(err.get("input"))
            if len(got) > 60:
                got = got[:57] + "..."
            parts.append(f"invalid argument '{path}': {err['msg']}; expected {expected}, got {got}")
    return "; ".join(parts) + "."


def _types(schema: dict[str, Any]) -> set[str]:
    kind = schema.get("type")
    found = {kind} if isinstance(kind, str) else set(kind) if isinstance(kind, list) else set()
    for branch in schema.get("anyOf", []) + schema.get("oneOf", []):
        if isinstance(branch, dict):
            found |= _types(branch)
    return found - {"null"}


def _loose_scalar(value: Any, schema: Any, path: str) -> Any:
    """``(path, schema)`` of a scalar that JSON types apart but pydantic's lax mode would
    coerce: ``true`` or ``"10"`` for a number, ``1`` or ``"yes"`` for a boolean; None if none.

    A JSON boolean is no amount and a string no count: taken as 1 or 10 they would move
    money or scale a service on an agent's typo. Integral floats (``2.0``) stay integers,
    as JSON Schema says."""
    if not isinstance(schema, dict):
        return None
    kinds = _types(schema)
    numeric = bool(kinds) and kinds <= {"number", "integer"}
    if numeric and (isinstance(value, (bool, str))):
        return path, schema
    if kinds == {"boolean"} and not isinstance(value, bool) and value is not None:
        return path, schema
    if isinstance(value, list) and isinstance(schema.get("items"), dict):
        for i, item in enumerate(value):
            bad = _loose_scalar(item, schema["items"], f"{path}.{i}")
            if bad is not None:
                return bad[0], {**bad[1], "_got": item}
    return None


def _short(value: Any) -> str:
    got = repr(value)
    return got if len(got) <= 60 else got[:57] + "..."


def validate_arguments(
    model: type[BaseModel], input_schema: dict[str, Any], arguments: Any
) -> dict[str, Any]:
    """Validate ``arguments`` (a JSON object) against a signature model.

    Returns:
        Keyword arguments for the tool function (validated, coerced values).

    Raises:
        InvalidArgument: arguments is not an object, or a field is missing,
            extra or of the wrong type (the message names the field).
    """
    if not isinstance(arguments, dict):
        raise InvalidArgument(
            f"arguments must be a JSON object, got {type(arguments).__name__}."
        )
    props = input_schema.get("properties") or {}
    for name, value in arguments.items():
        bad = _loose_scalar(value, props.get(name), name)
        if bad is not None:
            path, sub = bad
            raise InvalidArgument(f"invalid argument '{path}': expected {describe_expected(sub)}, "
                                  f"got {_short(value if path == name else sub.get('_got'))}.")
    try:
        # The model's validator directly: model_validate adds only keyword plumbing (one call per step).
        parsed = model.__pydantic_validator__.validate_python(arguments)
    except ValidationError as exc:
        raise InvalidArgument(validation_message(exc, input_schema)) from None
    return dict(parsed.__dict__)
