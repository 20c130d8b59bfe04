"""Python source for JSON Schemas: the annotations and docstrings of drafted services.

``compoworld scaffold-service`` (:mod:`compoworld_gym.scaffold`) writes a
service module whose tool signatures must give back the spec's
``inputSchema`` (names, JSON types, required set) once :mod:`compoworld_gym.schema`
turns them into a schema again. This module renders one schema as a type
annotation that round-trips that way, tagged with the entity type the
importer infers (:func:`compoworld_gym.importer.inference.infer_entity`), so
the draft joins the dependency graph like an imported service does.
"""

from __future__ import annotations

import json
import keyword
import re
import textwrap
from collections import defaultdict
from typing import Any, Optional

from compoworld_gym.entities import ID_KINDS
from compoworld_gym.importer.inference import infer_entity

_SCALARS = {"string": "str", "integer": "int", "number": "float", "boolean": "bool"}
_PY_TYPES = {"str": str, "int": int, "float": (int, float), "bool": bool}
#: Entity types with a named annotation in compoworld_gym.entities, and the Python type it wraps.
_ALIASES = {"email": ("Email", "str"), "phone": ("Phone", "str"), "person_name": ("PersonName", "str"),
            "company": ("CompanyName", "str"), "money": ("Money", "float"), "currency": ("Currency", "str"),
            "url": ("Url", "str"), "address": ("Address", "str"), "city": ("City", "str"),
            "country": ("Country", "str"), "sku": ("Sku", "str"), "tracking_number": ("TrackingNumber", "str"),
            "channel_name": ("ChannelName", "str"), "username": ("Username", "str"),
            "repo_name": ("RepoName", "str"), "file_path": ("FilePath", "str")}
_DATE_ALIASES = {("date", "date"): "Date", ("datetime", "date-time"): "DateTime"}
# A docstring line that parse_docstring would read as a section header.
_SECTION = re.compile(r"^\s*(Args|Arguments|Returns|Raises|Example|Examples|Note|Yields):\s*$")


class Imports:
    """The names a drafted module imports, collected while rendering."""

    def __init__(self) -> None:
        self._names: dict[str, set[str]] = defaultdict(set)

    def use(self, module: str, name: str) -> str:
        """Note ``from module import name``; returns ``name``."""
        self._names[module].add(name)
        return name

    def lines(self) -> list[str]:
        """``from module import a, b`` lines: standard library first, then the rest, each sorted."""
        def block(mods: list[str]) -> list[str]:
            return [f"from {m} import {', '.join(sorted(self._names[m]))}" for m in sorted(mods)]
        std = [m for m in self._names if m == "typing"]
        third = [m for m in self._names if m in ("faker", "pydantic")]
        ours = [m for m in self._names if m not in std and m not in third]
        # Every draft's seed factory takes a date and a random.Random.
        return ["import datetime as dt", "import random", *block(std), "", *block(third), "", *block(ours)]


def python_name(name: str, taken: set[str]) -> str:
    """``name`` as an unused Python identifier (``from`` → ``from_``, ``page-size`` → ``page_size``)."""
    out = re.sub(r"\W+", "_", name).strip("_") or "x"
    if out[0].isdigit():
        out = f"x_{out}"
    if keyword.iskeyword(out) or out in taken:
        out += "_"
    n = 2
    base = out
    while out in taken:
        out, n = f"{base}{n}", n + 1
    return out


def _enum(schema: dict[str, Any], base: Optional[str], imp: Imports) -> Optional[str]:
    values = schema.get("enum")
    if not isinstance(values, list) or not values:
        return None
    kinds = {type(v) for v in values}
    if len(kinds) != 1 or kinds.pop() not in (str, int, bool):
        return None
    py = type(values[0]).__name__
    if base is not None and py != base and not (base == "float" and py == "int"):
        return None  # an enum of another type than the declared one: keep the declared type
    return f"{imp.use('typing', 'Literal')}[{', '.join(py_literal(v) for v in dict.fromkeys(values))}]"


def _tagged(base: str, tag: Optional[str], schema: dict[str, Any], imp: Imports) -> str:
    """``base`` carrying entity type ``tag`` (a named alias where one wraps exactly ``base``)."""
    if tag is None:
        return base
    if tag.endswith("_id") and tag[:-3] in ID_KINDS and base == "str":
        return f'{imp.use("compoworld_gym.entities", "Id")}("{tag[:-3]}")'
    alias = _DATE_ALIASES.get((tag, schema.get("format")))
    if alias and base == "str":
        return imp.use("compoworld_gym.entities", alias)
    if tag in _ALIASES and _ALIASES[tag][1] == base:
        return imp.use("compoworld_gym.entities", _ALIASES[tag][0])
    if base in _PY_TYPES:
        entity = imp.use("compoworld_gym.entities", "entity")
        return f'{imp.use("typing", "Annotated")}[{base}, {entity}("{tag}")]'
    return base


def annotation(schema: Any, imp: Imports, *, name: str = "", context: frozenset[str] = frozenset(),
               collection_kind: Optional[str] = None, depth: int = 0) -> str:
    """A type annotation (source text) whose pydantic JSON Schema has the JSON types of ``schema``.

    Enums become ``Literal``; arrays ``list[...]``; objects ``dict[str, Any]``;
    type lists and ``anyOf``/``oneOf`` a ``Union``; anything else ``Any``.
    A string, number or id whose name or format names an entity type is
    tagged with it (``Email``, ``Id("task")``, ``Annotated[str, entity("iban")]``).

    Args:
        schema: a property schema of an ``inputSchema`` (or a record field's).
        imp: collects the names the annotation uses.
        name: the property name (entity inference reads it).
        context: tokens of the tool name (``to`` is an email only in mail tools).
        collection_kind: the id kind of the record a field belongs to (a bare ``id``).
    """
    if not isinstance(schema, dict) or depth > 3:
        return imp.use("typing", "Any")
    kind = schema.get("type")
    kinds = [k for k in kind if k != "null"] if isinstance(kind, list) else None
    if kinds is not None and len(kinds) == 1:
        kind, kinds = kinds[0], None
    base = _SCALARS.get(kind) if isinstance(kind, str) else None
    literal = _enum(schema, base, imp)
    if literal is not None:
        return literal
    if base is not None:
        tag = infer_entity(name, schema, collection_kind=collection_kind, context=context) if name else None
        return _tagged(base, tag, schema, imp)
    if kind == "array":
        items = schema.get("items")
        return f"list[{annotation(items, imp, name=name, context=context, depth=depth + 1)}]"
    if kind == "object":
        return f"dict[str, {imp.use('typing', 'Any')}]"
    branches = [{"type": k} for k in kinds] if kinds else schema.get("anyOf") or schema.get("oneOf")
    if isinstance(branches, list):
        members = [b for b in branches if not (isinstance(b, dict) and b.get("type") == "null")]
        rendered = list(dict.fromkeys(annotation(b, imp, depth=depth + 1) for b in members))
        if rendered and "Any" not in rendered:
            return rendered[0] if len(rendered) == 1 else f"{imp.use('typing', 'Union')}[{', '.join(rendered)}]"
    return imp.use("typing", "Any")


def default_source(schema: Any, ann: str) -> Optional[str]:
    """``repr`` of the schema's ``default`` when it is a valid value of ``ann``, else None."""
    if not isinstance(schema, dict) or "default" not in schema:
        return None
    value = schema["default"]
    if ann.startswith("Literal["):
        return py_literal(value) if value in schema.get("enum", []) else None
    py = _PY_TYPES.get(ann)
    if py is None or isinstance(value, bool) and ann != "bool":
        return None
    return py_literal(value) if isinstance(value, py) else None


def py_literal(value: Any) -> str:
    """Python source of a JSON value, strings in double quotes (``{"a": [1, true]}`` → ``{"a": [1, True]}``)."""
    if isinstance(value, str):
        return json.dumps(value, ensure_ascii=False)
    if isinstance(value, list):
        return f"[{', '.join(py_literal(v) for v in value)}]"
    if isinstance(value, dict):
        return "{" + ", ".join(f"{py_literal(str(k))}: {py_literal(v)}" for k, v in value.items()) + "}"
    return repr(value)


def string_source(text: str, indent: str, width: int = 100) -> str:
    """``text`` as a parenthesised implicit concatenation of string literals, one per line."""
    parts = textwrap.wrap(text, width=width - len(indent) - 7, drop_whitespace=False, break_long_words=False,
                          break_on_hyphens=False)
    return "(\n" + "\n".join(f"{indent}    {py_literal(p)}" for p in parts) + ")"


def one_line(text: Any) -> str:
    """``text`` with its whitespace collapsed (descriptions become one docstring line)."""
    return " ".join(str(text).split()) if isinstance(text, str) else ""


def _escape(text: str) -> str:
    """``text`` as the inside of a ``\"\"\"`` string literal with the same value."""
    return text.replace("\\", "\\\\").replace('"""', '\\"\\"\\"')


def docstring(description: str, args: list[tuple[str, str]], indent: str) -> list[str]:
    """A Google docstring (lines, ``indent``-ed) that :func:`compoworld_gym.schema.parse_docstring` reads back.

    Args:
        description: the summary (paragraphs kept; lines that would read as a
            section header get a trailing ``-`` instead of ``:``).
        args: ``(parameter, description)`` pairs for the ``Args:`` section.
        indent: the indentation of the opening quotes.
    """
    text = _escape(description).strip()
    body = [_SECTION.sub(lambda m: f"{m.group(1)} -", line).rstrip() for line in text.splitlines()]
    body = [line for i, line in enumerate(body) if line or (i and body[i - 1])] or ["(no description)"]
    lines = [f'{indent}"""{body[0]}', *[f"{indent}{line}" if line else "" for line in body[1:]]]
    if args:
        lines += ["", f"{indent}Args:"]
        for pname, desc in args:
            desc = _escape(desc or "(no description in the spec)")
            wrapped = textwrap.wrap(f"{pname}: {desc}", width=100 - len(indent) - 4,
                                    subsequent_indent="    ", break_on_hyphens=False, break_long_words=False)
            lines += [f"{indent}    {w}" for w in wrapped]
    if len(lines) == 1 and not lines[0].endswith('"'):  # a closing quote right after a quote would end early
        return [lines[0] + '"""']
    return [*lines, f'{indent}"""']
