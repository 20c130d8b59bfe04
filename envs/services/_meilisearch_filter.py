"""The Meilisearch filter expression language, parsed into a predicate.

Supported, as in Meilisearch: ``attr = v``, ``!=``, ``>``, ``>=``, ``<``,
``<=``, ``attr low TO high``, ``attr IN [a, b]``, ``attr NOT IN [...]``,
``attr EXISTS``, ``attr NOT EXISTS``, ``NOT``, ``AND``, ``OR`` and
parentheses (``AND`` binds tighter than ``OR``). Values are bare words,
numbers or quoted strings. String equality ignores case; an array attribute
matches when one of its items does; ``true``/``false`` match booleans.
Every attribute a filter names must be filterable, or the filter is refused
(400 ``invalid_search_filter``), as the real server does.

Example:
    >>> keep = compile_filter("price < 50 AND category IN [stationery, accessories]", ["price", "category"])
    >>> keep({"price": 9.99, "category": "Accessories"}), keep({"price": 9.99, "category": "furniture"})
    (True, False)
"""

from __future__ import annotations

import re
from typing import Any, Callable, Sequence

from compoworld_gym.errors import InvalidArgument

#: ``fields -> bool``: whether a document (its attribute dict) passes.
Predicate = Callable[[dict[str, Any]], bool]
_TOKEN = re.compile(r"""\s*(?:(?P<str>"(?:[^"\\]|\\.)*"|'(?:[^'\\]|\\.)*')|(?P<op>!=|>=|<=|=|>|<)|"""
                    r"""(?P<punct>[\[\](),])|(?P<word>[^\s\[\](),=!<>"']+))""")
_KEYWORDS = {"AND", "OR", "NOT", "IN", "TO", "EXISTS"}


def _tokens(text: str) -> list[tuple[str, str]]:
    out, pos, text = [], 0, text.rstrip()
    while pos < len(text):
        m = _TOKEN.match(text, pos)
        if m is None or m.end() == pos:
            raise InvalidArgument(f"invalid_search_filter: cannot parse the filter at {text[pos:]!r}.")
        kind = m.lastgroup or "word"
        value = m.group(kind)
        if kind == "str":
            value = re.sub(r"\\(.)", r"\1", value[1:-1])
        elif kind == "word" and value.upper() in _KEYWORDS:
            kind, value = "kw", value.upper()
        out.append((kind, value))
        pos = m.end()
    return out


def _norm(value: Any) -> Any:
    """A value as the filter compares it: numbers as floats, booleans as 'true'/'false', text folded."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (int, float)):
        return float(value)
    if isinstance(value, str):
        try:
            return float(value)
        except ValueError:
            return value.casefold()
    return value


def _items(value: Any) -> list[Any]:
    return [_norm(v) for v in value] if isinstance(value, list) else [_norm(value)]


def _compare(op: str, have: Any, want: Any) -> bool:
    if op == "=":
        return have == want
    if op == "!=":
        return have != want
    if not (isinstance(have, float) and isinstance(want, float)):
        return False  # order comparisons apply to numbers only
    return {">": have > want, ">=": have >= want, "<": have < want, "<=": have <= want}[op]


class _Parser:
    def __init__(self, text: str) -> None:
        self.toks, self.i, self.attrs = _tokens(text), 0, []

    def peek(self) -> tuple[str, str]:
        return self.toks[self.i] if self.i < len(self.toks) else ("end", "")

    def take(self, kind: str, value: str | None = None) -> str:
        k, v = self.peek()
        if k != kind or (value is not None and v != value):
            raise InvalidArgument(f"invalid_search_filter: expected {value or kind} but found {v or 'the end'!r}.")
        self.i += 1
        return v

    def value(self) -> Any:
        k, v = self.peek()
        if k not in ("word", "str"):
            raise InvalidArgument(f"invalid_search_filter: expected a value but found {v or 'the end'!r}.")
        self.i += 1
        return _norm(v)

    def parse(self) -> Predicate:
        pred = self.disjunction()
        if self.peek()[0] != "end":
            raise InvalidArgument(f"invalid_search_filter: unexpected {self.peek()[1]!r}.")
        return pred

    def disjunction(self) -> Predicate:
        parts = [self.conjunction()]
        while self.peek() == ("kw", "OR"):
            self.i += 1
            parts.append(self.conjunction())
        return parts[0] if len(parts) == 1 else (lambda d: any(p(d) for p in parts))

    def conjunction(self) -> Predicate:
        parts = [self.negation()]
        while self.peek() == ("kw", "AND"):
            self.i += 1
            parts.append(self.negation())
        return parts[0] if len(parts) == 1 else (lambda d: all(p(d) for p in parts))

    def negation(self) -> Predicate:
        if self.peek() == ("kw", "NOT"):
            self.i += 1
            inner = self.negation()
            return lambda d: not inner(d)
        if self.peek() == ("punct", "("):
            self.i += 1
            inner = self.disjunction()
            self.take("punct", ")")
            return inner
        return self.condition()

    def condition(self) -> Predicate:
        attr = self.take("word") if self.peek()[0] == "word" else self.take("str")
        self.attrs.append(attr)
        k, v = self.peek()
        negate = False
        if (k, v) == ("kw", "NOT"):
            self.i, negate = self.i + 1, True
            k, v = self.peek()
        if (k, v) == ("kw", "EXISTS"):
            self.i += 1
            return lambda d: (attr in d) != negate
        if (k, v) == ("kw", "IN"):
            self.i += 1
            wanted = self.value_list()
            return lambda d: (attr in d and any(x in wanted for x in _items(d[attr]))) != negate
        if negate:
            raise InvalidArgument("invalid_search_filter: NOT after an attribute must be followed by IN or EXISTS.")
        if k == "op":
            self.i += 1
            want = self.value()
            return lambda d: attr in d and any(_compare(v, x, want) for x in _items(d[attr]))
        low = self.value()
        self.take("kw", "TO")
        high = self.value()
        return lambda d: attr in d and any(_compare(">=", x, low) and _compare("<=", x, high) for x in _items(d[attr]))

    def value_list(self) -> list[Any]:
        self.take("punct", "[")
        out = [] if self.peek() == ("punct", "]") else [self.value()]
        while self.peek() == ("punct", ","):
            self.i += 1
            out.append(self.value())
        self.take("punct", "]")
        return out


def compile_filter(text: str, filterable: Sequence[str]) -> Predicate:
    """Parse a Meilisearch filter into a predicate on a document's attributes.

    Args:
        text: the filter expression.
        filterable: the index's ``filterableAttributes``.

    Raises:
        InvalidArgument: 400 when the text does not parse, or names an attribute that is not filterable.
    """
    parser = _Parser(text)
    pred = parser.parse()
    for attr in parser.attrs:
        if attr not in filterable:
            listed = ", ".join(f"`{a}`" for a in filterable) or "none"
            raise InvalidArgument(f"invalid_search_filter: Attribute `{attr}` is not filterable. "
                                  f"Available filterable attributes are: {listed}.")
    return pred
