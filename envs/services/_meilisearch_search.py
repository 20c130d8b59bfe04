"""Search, sort and facet rules of the meilisearch service, as pure functions.

Matching is by whole-word prefix, ignoring case, over the index's
``searchableAttributes`` (``["*"]``: every attribute); the index's stop
words are dropped from the query. ``matchingStrategy`` ``"last"`` (the
default) drops query words from the end until something matches, ``"all"``
needs every word. Hits keep document order (a stable stand-in for Meilisearch's
ranking rules) unless ``sort`` is given.
"""

from __future__ import annotations

import re
from typing import Any, Optional, Sequence

from compoworld_gym.envs.services._meilisearch_models import Document, IndexSettings
from compoworld_gym.errors import InvalidArgument

_WORD = re.compile(r"\w+")


def words(text: str) -> list[str]:
    """The lower-cased words of a text."""
    return _WORD.findall(text.casefold())


def _text(value: Any) -> str:
    if isinstance(value, list):
        return " ".join(_text(v) for v in value)
    return "" if value is None or isinstance(value, dict) else str(value)


def _doc_words(doc: Document, searchable: Sequence[str]) -> set[str]:
    attrs = doc.fields if "*" in searchable else {a: doc.fields[a] for a in searchable if a in doc.fields}
    return {w for v in attrs.values() for w in words(_text(v))}


def _hits_for(docs: Sequence[Document], terms: list[set[str]], searchable: Sequence[str]
              ) -> list[tuple[int, Document]]:
    out = []
    for doc in docs:
        have = _doc_words(doc, searchable)
        if all(any(w.startswith(t) for t in alts for w in have) for alts in terms):
            out.append((len(terms), doc))
    return out


def _alternatives(term: str, synonyms: dict[str, list[str]]) -> set[str]:
    """A query word and its one-word synonyms (Meilisearch also matches synonyms)."""
    alts = {term}
    for word, syns in synonyms.items():
        if word.casefold() == term:
            alts.update(w for s in syns for w in words(s)[:1])
    return alts


def match(docs: Sequence[Document], q: str, settings: IndexSettings, strategy: str) -> list[Document]:
    """The documents that match query ``q``, best first (see the module docstring).

    Raises:
        InvalidArgument: 400 for a matching strategy other than 'last' or 'all'.
    """
    if strategy not in ("last", "all"):
        raise InvalidArgument(f"invalid_search_matching_strategy: {strategy!r}; use 'last' or 'all'.")
    stop = set(settings.stopWords)
    terms = [_alternatives(t, settings.synonyms) for t in words(q) if t not in stop]
    if not terms:
        return list(docs)
    while terms:
        hits = _hits_for(docs, terms, settings.searchableAttributes)
        if hits or strategy == "all":
            return [d for _, d in hits]
        terms = terms[:-1]
    return []


def sort_docs(docs: list[Document], sort: Optional[Sequence[str]], sortable: Sequence[str]) -> list[Document]:
    """``docs`` sorted by ``["attr:asc", "attr:desc", ...]`` (documents lacking an attribute last).

    Raises:
        InvalidArgument: 400 for a malformed rule or an attribute that is not sortable.
    """
    for rule in reversed(list(sort or [])):
        attr, _, way = rule.partition(":")
        if way not in ("asc", "desc"):
            raise InvalidArgument(f"invalid_search_sort: {rule!r} must be 'attribute:asc' or 'attribute:desc'.")
        if attr not in sortable:
            listed = ", ".join(f"`{a}`" for a in sortable) or "none"
            raise InvalidArgument(f"invalid_search_sort: Attribute `{attr}` is not sortable. "
                                  f"Available sortable attributes are: {listed}.")
        present = [d for d in docs if d.fields.get(attr) is not None]
        missing = [d for d in docs if d.fields.get(attr) is None]
        present.sort(key=lambda d: (isinstance(d.fields[attr], str), d.fields[attr]), reverse=way == "desc")
        docs = present + missing
    return docs


def facet_distribution(docs: Sequence[Document], facets: Sequence[str], filterable: Sequence[str]
                       ) -> dict[str, dict[str, int]]:
    """``{facet: {value: count}}`` over ``docs`` (values as text, sorted).

    Raises:
        InvalidArgument: 400 for a facet that is not a filterable attribute.
    """
    out: dict[str, dict[str, int]] = {}
    for facet in facets:
        if facet not in filterable:
            listed = ", ".join(f"`{a}`" for a in filterable) or "none"
            raise InvalidArgument(f"invalid_search_facets: Attribute `{facet}` is not filterable. "
                                  f"Available filterable attributes are: {listed}.")
        counts: dict[str, int] = {}
        for d in docs:
            value = d.fields.get(facet)
            for v in value if isinstance(value, list) else ([] if value is None else [value]):
                key = str(v).lower() if isinstance(v, bool) else str(v)
                counts[key] = counts.get(key, 0) + 1
        out[facet] = dict(sorted(counts.items()))
    return out


def project(fields: dict[str, Any], wanted: Optional[Sequence[str]], displayed: Sequence[str]) -> dict[str, Any]:
    """The attributes of a document to return: ``wanted`` (or all) that are displayed."""
    keep = [a for a in fields if ("*" in displayed or a in displayed) and (not wanted or "*" in wanted or a in wanted)]
    return {a: fields[a] for a in keep}
