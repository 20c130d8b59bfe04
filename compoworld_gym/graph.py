"""The service dependency graph (paper §2.2) and pictures of it.

A node is a service; an edge ``A → B`` labelled with entity type ``T`` exists
when a tool of ``A`` returns a fact of type ``T`` (``ToolSpec.produces``) and
a tool of ``B`` takes a fact of type ``T`` as input (``ToolSpec.consumes``).
Self-loops are left out: a composition connects different services.

Example:
    >>> from compoworld_gym.graph import build_graph
    >>> g = build_graph()
    >>> "helpdesk" in g
    True
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Iterable, Optional

import networkx as nx

from compoworld_gym.entities import entities_in_schema
from compoworld_gym.service import Service


def service_io(cls: type[Service]) -> tuple[set[str], set[str]]:
    """The entity types a service produces and consumes.

    Returns:
        ``(produces, consumes)``: unions over all of the service's tools.
    """
    produces: set[str] = set()
    consumes: set[str] = set()
    for spec in cls.tools.values():
        produces |= set(spec.produces)
        # Nested inputs (``properties.email``, ``lines[].sku``) count too.
        consumes |= set(spec.consumes.values()) | entities_in_schema(spec.input_schema.get("properties", {}))
    return produces, consumes


def build_graph(services: Optional[Iterable[type[Service]]] = None) -> nx.DiGraph:
    """The dependency graph over ``services`` (default: the whole catalog).

    Returns:
        A ``networkx.DiGraph``; nodes carry ``domain`` and ``tools`` (count),
        edges carry ``types`` (sorted list of entity types).
    """
    if services is None:
        from compoworld_gym.catalog import get_service, service_names

        services = [get_service(n) for n in service_names()]
    classes = sorted(services, key=lambda c: c.name)
    graph = nx.DiGraph()
    io = {}
    for cls in classes:
        graph.add_node(cls.name, domain=cls.domain, tools=len(cls.tools))
        io[cls.name] = service_io(cls)
    for a in classes:
        for b in classes:
            if a.name == b.name:
                continue
            shared = io[a.name][0] & io[b.name][1]
            if shared:
                graph.add_edge(a.name, b.name, types=sorted(shared))
    return graph


def graph_summary(graph: Optional[nx.DiGraph] = None, k: int = 5) -> dict[str, Any]:
    """Size of the graph and how many compositions of ``k`` services it admits.

    Args:
        graph: the graph (default: :func:`build_graph` over the catalog).
        k: composition size for the candidate count.

    Returns:
        ``{"services", "edges", "typed_edges", "entity_types", "density",
        "k", "candidate_compositions"}`` where ``candidate_compositions`` is
        :func:`compoworld_gym.composition.count_candidates`'s result.
    """
    from compoworld_gym.composition import count_candidates

    graph = build_graph() if graph is None else graph
    types = sorted({t for _, _, d in graph.edges(data=True) for t in d["types"]})
    typed = sum(len(d["types"]) for _, _, d in graph.edges(data=True))
    return {
        "services": graph.number_of_nodes(),
        "edges": graph.number_of_edges(),
        "typed_edges": typed,
        "entity_types": types,
        "density": round(nx.density(graph), 4) if graph.number_of_nodes() > 1 else 0.0,
        "k": k,
        "candidate_compositions": count_candidates(graph, k),
    }


def _plt():
    import matplotlib

    matplotlib.use("Agg")  # files only: never open a window
    import matplotlib.pyplot as plt

    return plt


def draw_graph(path: str | Path, graph: Optional[nx.DiGraph] = None) -> Path:
    """Write a PNG picture of the dependency graph, nodes coloured by domain.

    Raises:
        ImportError: matplotlib is not installed (``pip install compoworld-gym[viz]``).
    """
    plt = _plt()
    graph = build_graph() if graph is None else graph
    domains = sorted({d.get("domain", "") for _, d in graph.nodes(data=True)})
    cmap = plt.get_cmap("tab20")
    colours = [cmap(domains.index(graph.nodes[n].get("domain", "")) % 20) for n in graph.nodes]
    pos = nx.circular_layout(graph) if graph.number_of_nodes() > 60 else nx.spring_layout(graph, seed=0, k=1.2)
    fig, ax = plt.subplots(figsize=(14, 11))
    nx.draw_networkx_edges(graph, pos, ax=ax, alpha=0.15, arrows=True, arrowsize=6)
    nx.draw_networkx_nodes(graph, pos, ax=ax, node_color=colours, node_size=500)
    nx.draw_networkx_labels(graph, pos, ax=ax, font_size=7)
    ax.set_title(f"Service dependency graph: {graph.number_of_nodes()} services, "
                 f"{graph.number_of_edges()} edges")
    ax.axis("off")
    return _save(fig, plt, path)


def draw_composition(comp: Any, path: str | Path) -> Path:
    """Write a PNG picture of one composition: the walk, its entity types,
    revisit steps (dashed) and distractor services (grey).

    Args:
        comp: a :class:`compoworld_gym.composition.Composition` (or its dict).
        path: where to write the PNG.
    """
    from compoworld_gym.composition import Composition

    comp = comp if isinstance(comp, Composition) else Composition.from_record(comp)
    plt = _plt()
    g = nx.MultiDiGraph()
    g.add_nodes_from(comp.services)
    g.add_nodes_from(comp.distractors)
    for step in comp.steps:
        g.add_edge(step.source, step.target, type=step.type, revisit=step.revisit)
    pos = nx.circular_layout(g)
    fig, ax = plt.subplots(figsize=(9, 7))
    nx.draw_networkx_nodes(g, pos, nodelist=comp.services, node_color="#4c72b0", node_size=1400, ax=ax)
    nx.draw_networkx_nodes(g, pos, nodelist=comp.distractors, node_color="#cccccc", node_size=700, ax=ax)
    nx.draw_networkx_labels(g, pos, font_size=8, font_color="black", ax=ax)
    plain = [(s.source, s.target) for s in comp.steps if not s.revisit]
    back = [(s.source, s.target) for s in comp.steps if s.revisit]
    nx.draw_networkx_edges(g, pos, edgelist=plain, ax=ax, arrows=True, width=2, node_size=1400)
    nx.draw_networkx_edges(g, pos, edgelist=back, ax=ax, arrows=True, width=2, style="dashed",
                           edge_color="#c44e52", node_size=1400, connectionstyle="arc3,rad=0.2")
    labels = {(s.source, s.target): f"{i + 1}: {s.type}" for i, s in enumerate(comp.steps)}
    nx.draw_networkx_edge_labels(nx.DiGraph(list(labels)), pos, edge_labels=labels, font_size=7, ax=ax)
    ax.set_title(f"{comp.slug}  ({comp.id})", fontsize=9)
    ax.axis("off")
    return _save(fig, plt, path)


def _save(fig: Any, plt: Any, path: str | Path) -> Path:
    out = Path(path)
    out.parent.mkdir(parents=True, exist_ok=True)
    fig.tight_layout()
    # Fixed metadata: the same graph gives byte-identical files.
    fig.savefig(out, dpi=110, metadata={"Software": None})
    plt.close(fig)
    return out
