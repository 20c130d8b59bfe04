"""Per-service link declarations: discovery and the service dependency graph.

Each module ``hooks/<service>.py`` defines ``LINKS``, a
:class:`~compoworld_gym.generation.links.ServiceLinks`: the record kinds the
service relays, the policies it can hold and the writes it offers, plus the
service's record planters (shared with the built-in tasks). Declarations are
kept apart from the service files so that services stay plain MCP-style
components. A declaration is used only when its service is in the catalog.
"""

from __future__ import annotations

import functools
import importlib
import pkgutil

import networkx as nx

from compoworld_gym.catalog import service_names
from compoworld_gym.generation.links import ServiceLinks


def _discover() -> dict[str, ServiceLinks]:
    found: dict[str, ServiceLinks] = {}
    for mod in sorted(pkgutil.iter_modules(__path__), key=lambda m: m.name):
        if mod.name.startswith("_"):
            continue
        links = getattr(importlib.import_module(f"{__name__}.{mod.name}"), "LINKS", None)
        if isinstance(links, ServiceLinks):
            found[links.service] = links
    return found


@functools.lru_cache(maxsize=1)
def _available() -> tuple[tuple[str, ServiceLinks], ...]:
    known = set(service_names())
    return tuple((name, links) for name, links in sorted(_discover().items()) if name in known)


def available_links() -> dict[str, ServiceLinks]:
    """``{service: ServiceLinks}`` for every catalog service that declares links."""
    return dict(_available())


def link_graph(links: dict[str, ServiceLinks] | None = None) -> nx.DiGraph:
    """The service dependency graph the generator walks: ``A → B`` typed ``T``
    when a record of A gives a value of type ``T`` and B finds a record by
    such a value, or B writes with it, or (``T = "money"``) B holds a policy
    that decides by an amount."""
    links = available_links() if links is None else links
    g = nx.DiGraph()
    g.add_nodes_from(sorted(links))
    for a in sorted(links):
        gives = {gv.type for r in links[a].relays for gv in r.gives}
        for b in sorted(links):
            if a == b:
                continue
            takes = {r.key for r in links[b].relays} | {n.type for act in links[b].actions for n in act.needs}
            if links[b].rules:
                takes.add("money")
            shared = sorted(gives & takes)
            if shared:
                g.add_edge(a, b, types=shared)
    return g


__all__ = ["available_links", "link_graph"]
