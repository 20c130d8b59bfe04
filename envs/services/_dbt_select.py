"""dbt node selection: the DAG of a project and the ``--select`` syntax.

Nodes are models and seeds (by name), exposures (``exposure:<name>``) and
sources (``source:<source>.<table>``). A selection is a space-separated union
of terms; a term is a comma-separated intersection of atoms; an atom is
``[@][N]+<method:value>[+N]`` or a bare name/fqn, as in dbt:

* ``stg_orders``, ``stg_*`` (name glob), ``marts.finance`` / ``staging`` (fqn: folders under models/);
* ``tag:nightly``, ``path:models/staging``, ``config.materialized:incremental``,
  ``resource_type:seed``, ``source:shop`` / ``source:shop.orders``, ``exposure:checkout-api``;
* ``+x`` adds every ancestor, ``2+x`` ancestors up to two levels, ``x+`` every descendant,
  ``x+1`` children, ``@x`` descendants and all of their ancestors.
"""

from __future__ import annotations

import fnmatch
import re
from typing import Callable, Optional

from compoworld_gym.envs.services._dbt_models import PROJECT, DbtState, refs_of, sources_of
from compoworld_gym.errors import InvalidArgument, NotFound

_ATOM = re.compile(r"^(?P<at>@)?(?:(?P<up>\d*)\+)?(?P<body>[^+@]+?)(?:\+(?P<down>\d*))?$")
METHODS = ("tag", "path", "config.materialized", "resource_type", "source", "exposure", "fqn")


class Graph:
    """Parents and children of every node of a project."""

    def __init__(self, state: DbtState) -> None:
        self.state = state
        self.parents: dict[str, list[str]] = {}
        for name, m in state.models.items():
            self.parents[name] = [*refs_of(m.raw_sql), *(f"source:{s}" for s in sources_of(m.raw_sql))]
        for name in state.seeds:
            self.parents[name] = []
        for name in state.sources:
            self.parents[f"source:{name}"] = []
        for name, e in state.exposures.items():
            self.parents[f"exposure:{name}"] = list(e.depends_on)
        self.children: dict[str, list[str]] = {n: [] for n in self.parents}
        for node in sorted(self.parents):
            for p in self.parents[node]:
                self.children.setdefault(p, []).append(node)

    def walk(self, start: str, up: bool, depth: Optional[int]) -> set[str]:
        """Ancestors (``up``) or descendants of ``start`` within ``depth`` levels (None: all)."""
        edges = self.parents if up else self.children
        seen: set[str] = set()
        frontier, level = [start], 0
        while frontier and (depth is None or level < depth):
            nxt = [n for f in frontier for n in edges.get(f, []) if n not in seen]
            seen |= set(nxt)
            frontier, level = nxt, level + 1
        return seen

    def depth(self, node: str, _memo: Optional[dict[str, int]] = None) -> int:
        """Longest path from a root to ``node`` counted in model/seed steps (the execution order)."""
        memo = {} if _memo is None else _memo
        if node not in memo:
            ps = [p for p in self.parents.get(node, []) if p in self.state.models or p in self.state.seeds]
            memo[node] = 1 + max((self.depth(p, memo) for p in ps), default=-1)
        return memo[node]

    def order(self, nodes: set[str]) -> list[str]:
        """``nodes`` in execution order: parents before children, then by name."""
        memo: dict[str, int] = {}
        return sorted(nodes, key=lambda n: (self.depth(n, memo), n))

    def fqn(self, node: str) -> list[str]:
        """``[project, folder..., name]`` of a model or seed."""
        if node in self.state.models:
            folders = self.state.models[node].path.split("/")[1:-1]
        elif node in self.state.seeds:
            folders = self.state.seeds[node].path.split("/")[1:-1]
        else:
            folders = []
        return [PROJECT, *folders, node.split(":")[-1]]

    # ------------------------------------------------------------ selecting
    def _method(self, method: str, value: str) -> Callable[[str], bool]:
        st = self.state
        if method == "tag":
            return lambda n: any(fnmatch.fnmatchcase(t, value) for t in
                                 (st.models[n].tags if n in st.models else []))
        if method == "path":
            def path_of(n: str) -> str:
                return st.models[n].path if n in st.models else st.seeds[n].path if n in st.seeds else ""
            return lambda n: bool(path_of(n)) and (path_of(n).startswith(value.rstrip("/"))
                                                   or fnmatch.fnmatchcase(path_of(n), value))
        if method == "config.materialized":
            return lambda n: n in st.models and st.models[n].materialized == value
        if method == "resource_type":
            kinds = {"model": st.models, "seed": st.seeds}
            if value not in ("model", "seed", "source", "exposure"):
                raise InvalidArgument(f"resource_type:{value} is not a resource type; use model, seed, source or "
                                      "exposure.")
            return lambda n: (n in kinds[value]) if value in kinds else n.startswith(f"{value}:")
        if method in ("source", "exposure"):
            return lambda n: n.startswith(f"{method}:") and (
                fnmatch.fnmatchcase(n.split(":", 1)[1], value) or n.split(":", 1)[1].startswith(value + "."))
        parts = value.split(".")
        return lambda n: (":" not in n and (fnmatch.fnmatchcase(n, value) or self._fqn_match(n, parts)))

    def _fqn_match(self, node: str, parts: list[str]) -> bool:
        fqn = self.fqn(node)  # with or without the project name: marts.finance, acme_analytics.staging
        return fqn[:len(parts)] == parts or fqn[1:1 + len(parts)] == parts

    def atom(self, text: str) -> set[str]:
        """The nodes one atom selects (graph operators applied).

        Raises:
            InvalidArgument: a malformed atom or an unknown method (400).
        """
        m = _ATOM.match(text)
        if m is None:
            raise InvalidArgument(f"cannot parse selector {text!r}; write e.g. stg_orders, +fct_orders, "
                                  "fct_orders+, tag:nightly.")
        body = m.group("body")
        method, _, value = body.partition(":") if ":" in body else ("fqn", "", body)
        if method not in METHODS:
            raise InvalidArgument(f"unknown selection method {method!r}; use one of {', '.join(METHODS)}.")
        keep = self._method(method, value)
        base = {n for n in self.parents if keep(n)}
        out = set(base)
        up, down = m.group("up"), m.group("down")
        for n in base:
            if m.group("at"):
                for d in self.walk(n, False, None) | {n}:
                    out |= {d} | self.walk(d, True, None)
            if up is not None:
                out |= self.walk(n, True, int(up) if up else None)
            if down is not None:
                out |= self.walk(n, False, int(down) if down else None)
        return out

    def expression(self, expr: str) -> set[str]:
        """The nodes a selection expression selects (union of terms, intersection within a term)."""
        out: set[str] = set()
        for term in expr.split():
            atoms = [self.atom(a) for a in term.split(",") if a]
            if atoms:
                out |= set.intersection(*atoms)
        return out


def resolve(state: DbtState, models: Optional[str], selector: Optional[str], exclude: Optional[str],
            graph: Optional[Graph] = None) -> set[str]:
    """The nodes a command selects: ``models`` (``--select``) or a named ``selector``, or every
    model, seed and exposure; minus ``exclude``.

    Raises:
        InvalidArgument: both ``models`` and ``selector``, or a malformed selection (400).
        NotFound: an unknown selector, or a selection that matches no node (404).
    """
    g = graph or Graph(state)
    if models and selector:
        raise InvalidArgument("give either models (--select) or selector (--selector), not both.")
    if selector:
        if selector not in state.project.selectors:
            raise NotFound(f"selector {selector!r} is not in selectors.yml; selectors: "
                           f"{', '.join(sorted(state.project.selectors))}.")
        expr: Optional[str] = state.project.selectors[selector]
    else:
        expr = models
    chosen = g.expression(expr) if expr else {n for n in g.parents if not n.startswith("source:")}
    if expr and not chosen:
        raise NotFound(f"the selection {expr!r} does not match any node; list the project with dbt_ls.")
    if exclude:
        chosen -= g.expression(exclude)
    return chosen
