"""Name handling: tool-name tokens, singular nouns and service names.

MCP tool names come in every style (``crm_create_company``,
``createIssue``, ``list-task-files``); the importer reads them as lists of
lower-case tokens.
"""

from __future__ import annotations

import keyword
import re
from typing import Iterable

_SPLIT = re.compile(r"[^A-Za-z0-9]+|(?<=[a-z0-9])(?=[A-Z])|(?<=[A-Z])(?=[A-Z][a-z])")
_NOT_IDENT = re.compile(r"[^a-z0-9_]+")
#: Words ending in "s" that are already singular (or uncountable).
_SINGULAR_S = frozenset({
    "status", "news", "analysis", "address", "access", "process", "business", "class", "canvas",
    "alias", "bus", "campus", "series", "species", "settings", "details", "stats", "metrics",
    "analytics", "chaos", "corpus", "virus", "bonus", "census", "focus", "radius", "thesis",
})


def tokens(name: str) -> list[str]:
    """Lower-case word tokens of an identifier in any casing style.

    Example:
        >>> tokens("crm_createCompanyProperty")
        ['crm', 'create', 'company', 'property']
    """
    return [t.lower() for t in _SPLIT.split(name or "") if t]


def singular(word: str) -> str:
    """A simple English singular: ``companies`` → ``company``, ``tasks`` → ``task``."""
    if len(word) <= 3 or word in _SINGULAR_S or word.endswith(("ss", "us", "is")):
        return word
    if word.endswith("ies"):
        return word[:-3] + "y"
    if word.endswith(("sses", "xes", "ches", "shes", "zes")):
        return word[:-2]
    if word.endswith("s"):
        return word[:-1]
    return word


def plural(word: str) -> str:
    """A simple English plural: ``company`` → ``companies``, ``box`` → ``boxes``."""
    if word.endswith("y") and len(word) > 1 and word[-2] not in "aeiou":
        return word[:-1] + "ies"
    if word.endswith(("s", "x", "ch", "sh", "z")):
        return word + "es"
    return word + "s"


def identifier(text: str, *, fallback: str = "x") -> str:
    """``text`` as a lower-case Python identifier (never a keyword, never empty)."""
    out = _NOT_IDENT.sub("_", text.lower()).strip("_")
    out = re.sub(r"_+", "_", out)
    if not out:
        out = fallback
    if out[0].isdigit():
        out = f"{fallback}_{out}"
    if keyword.iskeyword(out):
        out += "_"
    return out


def service_name(slug: str, taken: Iterable[str]) -> str:
    """A unique service name derived from a server ``slug``.

    ``@shinzo-labs_hubspot-mcp`` → ``shinzo_labs_hubspot_mcp``. A name already
    in ``taken`` (a built-in service, or an earlier server of the import) gets
    ``_mcp``, then ``_2``, ``_3``... appended.

    Args:
        slug: the server's slug (or display name).
        taken: names already in use.
    """
    used = set(taken)
    base = identifier(slug, fallback="mcp")
    candidates = [base] if base not in used else [f"{base}_mcp"]
    name = candidates[0]
    n = 2
    while name in used:
        name = f"{base}_{n}"
        n += 1
    return name
