"""Pure-function tools the engine runs as code: hashes, encodings, arithmetic, clock.

Helper servers expose functions of their arguments alone: ``sha256(input)``,
``base64_encode(content)``, ``calculate(expression)``, ``add(a, b)``,
``convert_time(source_timezone, time, target_timezone)``. Their answer
needs no outside world and no stored records, so the engine computes it.
Tools that read the time read the episode's logical clock (09:00 UTC on
the episode's day plus the minutes the service's writes have used, see
``Service.now``) without advancing it, never the machine's, so that a
replay is byte-identical and a clock read changes no state. The random
tools of :mod:`~compoworld_gym.importer.randomness` are the only ones that
change state (they advance the clock, so that two draws differ).

A tool is matched by its name and the shape of its parameters
(:func:`function_for`); what does not fit exactly stays simulated.
"""

from __future__ import annotations

import ast
import base64
import binascii
import calendar
import datetime as dt
import hashlib
import html
import math
import operator
import urllib.parse
from typing import Any, Callable, Optional
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from compoworld_gym.errors import InvalidArgument
from compoworld_gym.importer.names import tokens
from compoworld_gym.importer.randomness import RANDOM_TOOLS
from compoworld_gym.service import DAY_START

_HASHES = ("md5", "sha1", "sha224", "sha256", "sha384", "sha512")


def _props(schema: dict[str, Any]) -> dict[str, Any]:
    props = schema.get("properties")
    return props if isinstance(props, dict) else {}


def _text_param(schema: dict[str, Any]) -> Optional[str]:
    """The one string parameter that carries the input (required ones first)."""
    props = _props(schema)
    strings = [n for n, p in props.items() if isinstance(p, dict) and p.get("type") == "string"]
    required = [n for n in strings if n in (schema.get("required") or [])]
    pick = required or strings
    return pick[0] if len(pick) == 1 else None


def _text(args: dict[str, Any], schema: dict[str, Any]) -> str:
    name = _text_param(schema)
    value = args.get(name) if name else None
    if not isinstance(value, str):
        raise InvalidArgument(f"missing argument '{name}': give the text to work on.")
    return value


def _hash(algo: str) -> Callable[..., Any]:
    def run(service: Any, args: dict[str, Any], schema: dict[str, Any]) -> Any:
        chosen = str(args.get("algorithm") or algo).lower().replace("-", "")
        if chosen not in _HASHES:
            raise InvalidArgument(f"invalid argument 'algorithm': one of {', '.join(_HASHES)}.")
        return {"algorithm": chosen, "hash": hashlib.new(chosen, _text(args, schema).encode()).hexdigest()}
    return run


def _decode_b64(text: str) -> str:
    try:
        return base64.b64decode(text, validate=True).decode("utf-8")
    except (binascii.Error, UnicodeDecodeError):
        raise InvalidArgument("invalid argument: not base64-encoded UTF-8 text.") from None


def _decode_hex(text: str) -> str:
    try:
        return bytes.fromhex(text).decode("utf-8")
    except (ValueError, UnicodeDecodeError):
        raise InvalidArgument("invalid argument: not hex-encoded UTF-8 text.") from None


_CODECS: dict[tuple[str, str], Callable[[str], str]] = {
    ("encode", "base64"): lambda t: base64.b64encode(t.encode()).decode(), ("decode", "base64"): _decode_b64,
    ("encode", "hex"): lambda t: t.encode().hex(), ("decode", "hex"): _decode_hex,
    ("encode", "url"): urllib.parse.quote, ("decode", "url"): urllib.parse.unquote,
    ("encode", "html"): html.escape, ("decode", "html"): html.unescape,
}


def _codec(key: tuple[str, str]) -> Callable[..., Any]:
    def run(service: Any, args: dict[str, Any], schema: dict[str, Any]) -> Any:
        return {"result": _CODECS[key](_text(args, schema))}
    return run


_BINARY = {ast.Add: operator.add, ast.Sub: operator.sub, ast.Mult: operator.mul, ast.Div: operator.truediv,
           ast.FloorDiv: operator.floordiv, ast.Mod: operator.mod, ast.Pow: operator.pow}
_UNARY = {ast.UAdd: operator.pos, ast.USub: operator.neg}
_NAMES = {"pi": math.pi, "e": math.e, "tau": math.tau}
_CALLS = {"sqrt": math.sqrt, "abs": abs, "round": round, "floor": math.floor, "ceil": math.ceil, "log": math.log,
          "log10": math.log10, "exp": math.exp, "sin": math.sin, "cos": math.cos, "tan": math.tan,
          "min": min, "max": max}


def evaluate(expression: str) -> float:
    """The value of an arithmetic expression: numbers, + - * / // % **, parentheses,
    ``pi``/``e``/``tau`` and the functions of ``_CALLS``. No names, attributes or code.

    Raises:
        InvalidArgument: anything else, a division by zero, or an exponent over 1000.
    """
    def walk(node: ast.AST) -> Any:
        if isinstance(node, ast.Constant) and isinstance(node.value, (int, float)) and not isinstance(node.value, bool):
            return node.value
        if isinstance(node, ast.BinOp) and type(node.op) in _BINARY:
            left, right = walk(node.left), walk(node.right)
            if isinstance(node.op, ast.Pow) and abs(right) > 1000:
                raise InvalidArgument("invalid argument 'expression': exponent too large (at most 1000).")
            return _BINARY[type(node.op)](left, right)
        if isinstance(node, ast.UnaryOp) and type(node.op) in _UNARY:
            return _UNARY[type(node.op)](walk(node.operand))
        if isinstance(node, ast.Name) and node.id in _NAMES:
            return _NAMES[node.id]
        if (isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in _CALLS
                and not node.keywords):
            return _CALLS[node.func.id](*[walk(a) for a in node.args])
        raise InvalidArgument(f"invalid argument 'expression': {ast.dump(node)[:40]}... is not arithmetic.")

    try:
        return walk(ast.parse(expression.replace("^", "**"), mode="eval").body)
    except (SyntaxError, ZeroDivisionError, ValueError, TypeError, OverflowError) as exc:
        raise InvalidArgument(f"invalid argument 'expression': {exc}.") from None


def _calculate(service: Any, args: dict[str, Any], schema: dict[str, Any]) -> Any:
    return {"expression": _text(args, schema), "result": evaluate(_text(args, schema))}


def _number(args: dict[str, Any], name: str) -> float:
    value = args.get(name)
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise InvalidArgument(f"invalid argument '{name}': give a number.")
    return value


def _zone(name: Any, param: str) -> ZoneInfo:
    try:
        return ZoneInfo(str(name or "UTC"))
    except (ZoneInfoNotFoundError, ValueError):
        raise InvalidArgument(f"invalid argument '{param}': {name!r} is not an IANA time zone name.") from None


def _clock(service: Any) -> dt.datetime:
    """The logical clock's time, read without advancing it (naive, UTC)."""
    return dt.datetime.combine(service.today, DAY_START) + dt.timedelta(minutes=service.state.clock)


def _now(service: Any, args: dict[str, Any], schema: dict[str, Any]) -> Any:
    zone_param = next((n for n in _props(schema) if "zone" in n.lower()), None)
    zone = _zone(args.get(zone_param) if zone_param else None, zone_param or "timezone")
    now = _clock(service).replace(tzinfo=dt.timezone.utc).astimezone(zone)
    return {"timezone": str(zone), "datetime": now.isoformat(timespec="seconds"),
            "day_of_week": now.strftime("%A"), "is_dst": bool(now.dst())}


def _parse_when(value: Any, param: str, service: Any) -> dt.datetime:
    text = str(value or "").strip()
    try:
        if len(text) == 5 and text[2] == ":":  # "HH:MM" on the episode's day
            return dt.datetime.combine(service.today, dt.time.fromisoformat(text))
        return dt.datetime.fromisoformat(text.replace("Z", "+00:00").replace(" ", "T"))
    except ValueError:
        raise InvalidArgument(f"invalid argument '{param}': {value!r} is not an ISO date/time or HH:MM.") from None


def _convert(service: Any, args: dict[str, Any], schema: dict[str, Any]) -> Any:
    names = list(_props(schema))
    source = next(n for n in names if tokens(n)[0] in ("source", "from"))
    target = next(n for n in names if tokens(n)[0] in ("target", "to"))
    when_param = next(n for n in names if n not in (source, target))
    when = _parse_when(args.get(when_param), when_param, service)
    start = when.replace(tzinfo=_zone(args.get(source), source)) if when.tzinfo is None else when
    end = start.astimezone(_zone(args.get(target), target))
    return {"source": {"timezone": args.get(source), "datetime": start.isoformat(timespec="seconds")},
            "target": {"timezone": args.get(target), "datetime": end.isoformat(timespec="seconds")}}


def _days_in_month(service: Any, args: dict[str, Any], schema: dict[str, Any]) -> Any:
    day = _parse_when(args.get("date") or service.today.isoformat(), "date", service)
    return {"year": day.year, "month": day.month, "days": calendar.monthrange(day.year, day.month)[1]}


def _week_year(service: Any, args: dict[str, Any], schema: dict[str, Any]) -> Any:
    day = _parse_when(args.get("date") or service.today.isoformat(), "date", service)
    year, week, _ = day.isocalendar()
    return {"week": int(day.strftime("%U")), "isoWeek": week, "isoYear": year}


def _timestamp(service: Any, args: dict[str, Any], schema: dict[str, Any]) -> Any:
    when = _parse_when(args.get("time"), "time", service) if args.get("time") else _clock(service)
    aware = when if when.tzinfo else when.replace(tzinfo=dt.timezone.utc)
    return {"timestamp": int(aware.timestamp() * 1000)}


def _echo(service: Any, args: dict[str, Any], schema: dict[str, Any]) -> Any:
    return f"Echo: {_text(args, schema)}"


def _add(service: Any, args: dict[str, Any], schema: dict[str, Any]) -> Any:
    return {"result": _number(args, "a") + _number(args, "b")}


def _permutations(service: Any, args: dict[str, Any], schema: dict[str, Any]) -> Any:
    n, k = int(_number(args, "n")), args.get("k")
    if k is not None and (isinstance(k, bool) or not isinstance(k, int) or not 1 <= k <= n):
        raise InvalidArgument("invalid argument 'k': an integer from 1 to n.")
    return {"n": n, "k": k, "permutations": math.perm(n, k)}


def _compare(service: Any, args: dict[str, Any], schema: dict[str, Any]) -> Any:
    first, second = (str(args.get(n, "")) for n in ("hash1", "hash2"))
    return {"match": first.strip().lower() == second.strip().lower()}


FunctionRun = Callable[[Any, dict[str, Any], dict[str, Any]], Any]

#: Every function the engine runs, by the key :func:`function_for` returns.
FUNCTIONS: dict[str, FunctionRun] = {
    **{algo: _hash(algo) for algo in _HASHES}, "hash": _hash("sha256"),
    **{f"{verb}_{codec}": _codec((verb, codec)) for verb, codec in _CODECS},
    "compare_hashes": _compare, "echo": _echo, "add": _add, "permutations": _permutations,
    "calculate": _calculate, "days_in_month": _days_in_month, "week_year": _week_year,
    "timestamp": _timestamp, "now": _now, "convert_time": _convert,
    **{f"random_{name}": run for name, (run, _) in RANDOM_TOOLS.items()},
}
#: Squashed tool name -> (function key, the exact parameter names it takes).
_EXACT: dict[str, tuple[str, frozenset[str]]] = {
    "comparehashes": ("compare_hashes", frozenset({"hash1", "hash2"})), "echo": ("echo", frozenset({"message"})),
    "add": ("add", frozenset({"a", "b"})), "getsum": ("add", frozenset({"a", "b"})),
    "permutations": ("permutations", frozenset({"n", "k"})),
    "calculate": ("calculate", frozenset({"expression"})),
    "calculateexpression": ("calculate", frozenset({"expression"})),
    "daysinmonth": ("days_in_month", frozenset({"date"})), "getweekyear": ("week_year", frozenset({"date"})),
    "gettimestamp": ("timestamp", frozenset({"time"})),
}
_CLOCK = frozenset({"currenttime", "getcurrenttime", "getcurrentdatetime", "whattimeisit", "gettimeinfo"})


def function_for(tool: str, schema: dict[str, Any]) -> Optional[str]:
    """The key in :data:`FUNCTIONS` of the pure function a tool is, or None
    (it is then planned as usual).

    Example:
        >>> function_for("sha256", {"properties": {"input": {"type": "string"}}})
        'sha256'
    """
    words = tokens(tool)
    squashed, props = "".join(words), set(_props(schema))
    if squashed in _HASHES or squashed in ("hash", "hashdata"):
        return (squashed if squashed in _HASHES else "hash") if _text_param(schema) else None
    for verb, codec in _CODECS:
        if verb in words and codec in words and _text_param(schema):
            return f"{verb}_{codec}"
    if squashed in _EXACT and props == _EXACT[squashed][1]:
        return _EXACT[squashed][0]
    if squashed in RANDOM_TOOLS and props <= RANDOM_TOOLS[squashed][1]:
        return f"random_{squashed}"
    if squashed in _CLOCK and all("zone" in n.lower() or n == "format" for n in props):
        return "now"
    if squashed in ("converttime", "converttimezone") and len(props) == 3:
        first = {tokens(n)[0] for n in props}
        if {"source", "target"} <= first or {"from", "to"} <= first:
            return "convert_time"
    return None


def is_pure(key: str) -> bool:
    """True when function ``key`` changes no state (all but the random draws)."""
    return not key.startswith("random_")


def run_function(key: str, service: Any, args: dict[str, Any], schema: dict[str, Any]) -> Any:
    """Compute function ``key`` of :data:`FUNCTIONS` on a call's arguments.

    Raises:
        InvalidArgument: an argument the function cannot take (the message names it).
    """
    return FUNCTIONS[key](service, args, schema)
