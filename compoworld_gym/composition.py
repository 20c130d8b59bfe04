"""Compositions: a random walk over the dependency graph (paper §2.2).

A walk starts at a random service and follows typed edges until it has
connected ``k`` distinct services. A step may go back to a service already
visited (a *revisit*): the task will then need that service again after the
state changed elsewhere. Distractor services (not needed) are added so that
``list_services`` shows more than the task needs (paper sample: 5 needed,
15 listed). The id depends only on the services and the typed edges, so the
same composition always gets the same id and slug.

Example:
    >>> import random
    >>> import networkx as nx
    >>> g = nx.DiGraph()
    >>> g.add_edge("crm", "gmail", types=["email"])
    >>> g.add_edge("gmail", "helpdesk", types=["email"])
    >>> c = random_walk(g, random.Random(0), k=3, start="crm")
    >>> c.slug.startswith("crm-gmail-helpdesk-")
    True
"""

from __future__ import annotations

import hashlib
import math
import random
from typing import Any, Optional, Sequence

import networkx as nx
from pydantic import BaseModel, ConfigDict, Field


class WalkError(ValueError):
    """The walk could not connect ``k`` distinct services from its start."""


class Step(BaseModel):
    """One edge of a walk: a fact of ``type`` read in ``source`` is used in ``target``."""

    model_config = ConfigDict(extra="forbid", frozen=True)
    source: str
    target: str
    type: str
    revisit: bool = Field(default=False, description="True when ``target`` was visited before.")


class Composition(BaseModel):
    """A walk's services (first-visit order), its steps and distractors.

    Attributes:
        services: the services the task needs, in first-visit order.
        steps: the typed edges walked, in order (revisits included).
        distractors: services listed but not needed.
    """

    model_config = ConfigDict(extra="forbid")
    services: list[str] = Field(min_length=1)
    steps: list[Step] = Field(default_factory=list)
    distractors: list[str] = Field(default_factory=list)

    def _canonical(self) -> str:
        edges = sorted({(s.source, s.target, s.type) for s in self.steps})
        return "|".join(sorted(set(self.services))) + "#" + ";".join(",".join(e) for e in edges)

    @property
    def id(self) -> str:
        """Stable id: ``cmp-`` + 12 hex digits of the services and typed edges."""
        return "cmp-" + hashlib.sha1(self._canonical().encode()).hexdigest()[:12]

    @property
    def slug(self) -> str:
        """Readable, env-id-safe name: sorted services joined by ``-`` plus 6 hex digits."""
        return "-".join(sorted(set(self.services))) + "-" + self.id[4:10]

    @property
    def revisits(self) -> int:
        """How many steps return to an already visited service."""
        return sum(s.revisit for s in self.steps)

    def record(self) -> dict[str, Any]:
        """The JSON object stored in ``Task.composition``."""
        return {"id": self.id, "slug": self.slug, **self.model_dump(mode="json")}

    @classmethod
    def from_record(cls, record: dict[str, Any]) -> "Composition":
        """Rebuild from :meth:`record` output (``id``/``slug`` are derived, so dropped)."""
        return cls.model_validate({k: v for k, v in record.items() if k not in ("id", "slug")})


def _out_edges(graph: nx.DiGraph, node: str) -> list[tuple[str, str]]:
    return [(nbr, t) for nbr in sorted(graph.successors(node)) for t in graph.edges[node, nbr]["types"]]


def random_walk(graph: nx.DiGraph, rng: random.Random, k: int, *, start: Optional[str] = None,
                revisit_prob: float = 0.0, max_steps: Optional[int] = None) -> Composition:
    """Walk ``graph`` until ``k`` distinct services are connected.

    Each step follows a random typed out-edge; unvisited neighbours are
    preferred, except that with probability ``revisit_prob`` (at most once
    per walk, never straight back to the previous service's predecessor
    loop of length one) the step returns to an already visited service.

    Args:
        graph: a DiGraph whose edges carry ``types`` (list of entity types).
        rng: the seeded random source.
        k: number of distinct services wanted (>= 1).
        start: the first service (default: a random node with out-edges).
        revisit_prob: chance of adding one revisit step during the walk.
        max_steps: step budget (default ``2 * k``).

    Raises:
        WalkError: the graph is empty, ``start`` is unknown or the walk got
            stuck before reaching ``k`` services.
    """
    if k < 1:
        raise WalkError(f"k must be >= 1, got {k}")
    nodes = sorted(n for n in graph.nodes if graph.out_degree(n) > 0) or sorted(graph.nodes)
    if not nodes:
        raise WalkError("the graph has no services")
    if start is None:
        start = rng.choice(nodes)
    elif start not in graph:
        raise WalkError(f"start service {start!r} is not in the graph")
    visited, steps, here = [start], [], start
    revisited = False
    for _ in range(max_steps or 2 * k):
        if len(visited) >= k:
            break
        options = _out_edges(graph, here)
        fresh = [(n, t) for n, t in options if n not in visited]
        back = [(n, t) for n, t in options if n in visited and len(visited) >= 2]
        if back and not revisited and rng.random() < revisit_prob:
            nbr, etype = rng.choice(back)
            revisited = True
            steps.append(Step(source=here, target=nbr, type=etype, revisit=True))
        elif fresh:
            nbr, etype = rng.choice(fresh)
            visited.append(nbr)
            steps.append(Step(source=here, target=nbr, type=etype))
        else:
            break
        here = nbr
    if len(visited) < k:
        raise WalkError(f"walk from {start!r} reached only {len(visited)} of {k} services")
    return Composition(services=visited, steps=steps)


def add_distractors(comp: Composition, all_services: Sequence[str], rng: random.Random,
                    listed: int = 15) -> Composition:
    """A copy of ``comp`` with distractors so that ``listed`` services are shown.

    Args:
        comp: the composition.
        all_services: every service that could be mounted.
        rng: the seeded random source.
        listed: total services ``list_services`` should show (capped by the
            library size).
    """
    pool = sorted(set(all_services) - set(comp.services))
    n = max(0, min(len(pool), listed - len(comp.services)))
    return comp.model_copy(update={"distractors": sorted(rng.sample(pool, n))})


def _connected_subsets(adj: dict[str, set[str]], k: int, cap: int) -> int:
    """Count connected k-node subsets (ESU enumeration), stopping at ``cap``."""
    order = {n: i for i, n in enumerate(sorted(adj))}
    count = 0

    def extend(sub: list[str], ext: set[str], root: str) -> None:
        nonlocal count
        if count >= cap:
            return
        if len(sub) == k:
            count += 1
            return
        ext = set(ext)
        while ext and count < cap:
            w = min(ext, key=order.__getitem__)
            ext.discard(w)
            near = set().union(*(adj[s] for s in sub))
            new = {u for u in adj[w] if order[u] > order[root] and u not in sub and u not in near}
            extend(sub + [w], ext | new, root)

    for v in sorted(adj):
        extend([v], {u for u in adj[v] if order[u] > order[v]}, v)
    return count


def count_candidates(graph: nx.DiGraph, k: int, cap: int = 1_000_000) -> dict[str, Any]:
    """How many compositions of ``k`` services the library admits.

    Returns:
        ``{"combinations": C(n, k)`` (the paper's count, any k services),
        ``"connected": int`` (k-service sets connected in the graph, counted
        up to ``cap``), ``"connected_capped": bool}``.
    """
    n = graph.number_of_nodes()
    adj = {v: set(graph.successors(v)) | set(graph.predecessors(v)) for v in graph.nodes}
    connected = _connected_subsets(adj, k, cap) if 0 < k <= n else 0
    return {"combinations": math.comb(n, k) if 0 <= k <= n else 0,
            "connected": connected, "connected_capped": connected >= cap}
