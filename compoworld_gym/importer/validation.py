"""Argument validation against a tool's raw ``inputSchema`` (jsonschema).

The ``mcp`` SDK does not validate call arguments against an ``inputSchema``
(measured on mcp 2.x), so imported tools do it here, with the draft the schema
declares (Draft 2020-12 when it declares none) and format checks on. Errors
become the framework's 400 messages, naming the offending field.
"""

from __future__ import annotations

from typing import Any, Callable, Optional

import orjson
from jsonschema import Draft202012Validator
from jsonschema.exceptions import ValidationError, best_match, relevance
from jsonschema.validators import validator_for

from compoworld_gym.errors import InvalidArgument
from compoworld_gym.schema import describe_expected

Validate = Callable[[Any], dict[str, Any]]


_META: dict[type, Any] = {}
_PROBLEMS: dict[bytes, Optional[str]] = {}


def _meta_validator(cls: type) -> Any:
    # One metaschema validator per draft: check_schema builds a new one per call.
    if cls not in _META:
        _META[cls] = cls(cls.META_SCHEMA)
    return _META[cls]


def _check(schema: dict[str, Any]) -> Optional[str]:
    try:
        meta = _meta_validator(validator_for(schema, default=Draft202012Validator))
        if meta.is_valid(schema):
            return None
        exc = best_match(meta.iter_errors(schema))
    except Exception as exc:  # noqa: BLE001 - unknown $schema URIs and the like
        return f"unusable JSON Schema ({type(exc).__name__}: {str(exc)[:120]})"
    where = "/".join(str(p) for p in exc.absolute_path) or "<root>"
    return f"invalid JSON Schema at {where}: {exc.message[:160]}"


def schema_problem(schema: Any) -> Optional[str]:
    """Why ``schema`` is not a usable object schema, or None when it is fine.

    The schema is checked against the metaschema of the draft it declares
    (Draft 2020-12 when it declares none). Results are cached by the
    schema's canonical JSON: forks of a server repeat the same schemas.
    """
    if not isinstance(schema, dict):
        return f"inputSchema is a {type(schema).__name__}, not an object"
    try:
        key = orjson.dumps(schema, option=orjson.OPT_SORT_KEYS)
    except (TypeError, orjson.JSONEncodeError):
        return "inputSchema is not JSON"
    if key not in _PROBLEMS:
        problem = _check(schema)
        if problem is None and schema.get("type", "object") != "object":
            problem = f"inputSchema type is {schema.get('type')!r}, not 'object'"
        _PROBLEMS[key] = problem
    return _PROBLEMS[key]


def _message(err: ValidationError, schema: dict[str, Any], arguments: dict[str, Any]) -> str:
    props = schema.get("properties") if isinstance(schema.get("properties"), dict) else {}
    path = ".".join(str(p) for p in err.absolute_path)
    if err.validator == "required" and isinstance(err.validator_value, list):
        instance = err.instance if isinstance(err.instance, dict) else {}
        missing = [r for r in err.validator_value if isinstance(r, str) and r not in instance]
        name = ".".join([path, missing[0]]) if path and missing else (missing[0] if missing else path)
        sub = err.schema.get("properties", {}).get(missing[0], {}) if missing else {}
        return f"missing required argument '{name}' ({describe_expected(sub if isinstance(sub, dict) else {})})"
    if err.validator == "additionalProperties" and not path:
        extra = sorted(k for k in arguments if k not in props)
        allowed = ", ".join(props) or "none"
        return f"unexpected argument '{extra[0] if extra else '?'}' (allowed: {allowed})"
    got = repr(err.instance)
    got = got if len(got) <= 60 else got[:57] + "..."
    msg = err.message if len(err.message) <= 160 else err.message[:157] + "..."
    expected = describe_expected(err.schema) if isinstance(err.schema, dict) else "a valid value"
    return f"invalid argument '{path or 'arguments'}': {msg}; expected {expected}, got {got}"


def _lenient(schema: Any) -> Validate:
    """Checks what can be checked when a schema is invalid: an object with the required keys."""
    required = []
    if isinstance(schema, dict) and isinstance(schema.get("required"), list):
        required = [r for r in schema["required"] if isinstance(r, str)]

    def validate(arguments: Any) -> dict[str, Any]:
        if not isinstance(arguments, dict):
            raise InvalidArgument(f"arguments must be a JSON object, got {type(arguments).__name__}.")
        missing = [r for r in required if r not in arguments]
        if missing:
            raise InvalidArgument(f"missing required argument '{missing[0]}'.")
        return dict(arguments)

    return validate


def make_validator(schema: Any) -> tuple[Validate, Optional[str]]:
    """A ``validate(arguments) -> kwargs`` function for a tool's ``inputSchema``.

    Args:
        schema: the raw ``inputSchema``.

    Returns:
        ``(validate, problem)``: ``problem`` is None for a valid schema; for an
        invalid one it says why, and ``validate`` only checks that arguments
        are an object carrying the ``required`` keys. ``validate`` raises
        :class:`~compoworld_gym.errors.InvalidArgument` with a message naming
        the field.
    """
    problem = schema_problem(schema)
    if problem is not None:
        return _lenient(schema), problem
    cls = validator_for(schema, default=Draft202012Validator)
    checker = cls(schema, format_checker=cls.FORMAT_CHECKER)
    fallback = _lenient(schema)

    def validate(arguments: Any) -> dict[str, Any]:
        if not isinstance(arguments, dict):
            raise InvalidArgument(f"arguments must be a JSON object, got {type(arguments).__name__}.")
        try:
            errors = sorted(checker.iter_errors(arguments), key=relevance, reverse=True)[:3]
        except Exception:  # noqa: BLE001 - e.g. an unresolvable $ref found only now
            return fallback(arguments)
        if errors:
            messages = dict.fromkeys(_message(e, schema, arguments) for e in errors)
            raise InvalidArgument("; ".join(messages) + ".")
        return dict(arguments)

    return validate, None
