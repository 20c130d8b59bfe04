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

import itertools
import math
import os
import random
import tempfile
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


#: Count connected service sets one by one while ``C(m, k) * k`` (bit operations) stays under this;
#: beyond it, estimate from a sample. Enumeration is exponential in k, so it must be bounded.
EXACT_WORK = 250_000
#: Random k-sets drawn per component for an estimate (the 95% interval is about ±1.5% of a fraction).
SAMPLES = 4_000


def count_compositions(graph: nx.DiGraph, k: int, *, samples: int = SAMPLES, seed: int = 0) -> dict[str, Any]:
    """How many sets of ``k`` services there are, and how many are connected in ``graph``.

    A set is connected when its services form one piece with edge
    directions ignored (a random walk can only visit such a set). Such a set
    lies inside one connected component, so each component is counted on its
    own: exactly (every ``k``-subset checked) when that is cheap, else
    estimated from ``samples`` seeded random ``k``-subsets. The work is at
    most ``EXACT_WORK + samples * k`` bit operations per component, for any
    ``k``: never exponential.

    Args:
        graph: the dependency graph.
        k: the composition size (>= 1); more than the number of services
            gives 0 (no composition of that many distinct services exists).
        samples: k-subsets drawn per component for an estimate.
        seed: seed of the sample (the same graph and seed give the same figures).

    Returns:
        ``{"combinations": C(n, k)`` (the paper's count: any ``k`` services),
        ``"connected": int`` (connected ``k``-sets; an estimate unless
        ``connected_exact``), ``"connected_exact": bool``,
        ``"connected_interval": [low, high]`` (95% Wilson interval of the
        estimate; ``[connected, connected]`` when exact),
        ``"connected_samples": int`` (k-sets drawn; 0 when exact)}``, plus
        ``"note"`` when ``k`` exceeds the number of services.

    Raises:
        ValueError: ``k`` < 1 or ``samples`` < 1.

    Example:
        >>> path = nx.path_graph(6, create_using=nx.DiGraph)  # 0 - 1 - ... - 5
        >>> c = count_compositions(path, 3)
        >>> c["combinations"], c["connected"], c["connected_exact"]
        (20, 4, True)
    """
    if k < 1 or samples < 1:
        raise ValueError(f"k and samples must be >= 1; got k={k}, samples={samples}")
    n = graph.number_of_nodes()
    if k > n:
        return {"combinations": 0, "connected": 0, "connected_exact": True, "connected_interval": [0, 0],
                "connected_samples": 0, "note": f"k={k} exceeds the {n} services: no composition of {k} "
                                                f"distinct services exists"}
    rng = random.Random(f"count:{seed}:{k}")
    estimate, low, high, drawn = 0.0, 0.0, 0.0, 0
    # Sorted by name, so the sample (and so the estimate) does not depend on insertion order.
    pieces = nx.connected_components(graph.to_undirected(as_view=True))
    components = sorted((sorted(c, key=str) for c in pieces), key=lambda c: [str(v) for v in c])
    for component in components:
        total = math.comb(len(component), k)
        if total == 0:
            continue
        adjacency = _bit_adjacency(graph, component)
        if total * k <= EXACT_WORK:
            hits = sum(_is_connected(sum(c), adjacency) for c in itertools.combinations(adjacency, k))
            estimate, low, high = estimate + hits, low + hits, high + hits
            continue
        bits = list(adjacency)
        hits = sum(_is_connected(sum(rng.sample(bits, k)), adjacency) for _ in range(samples))
        lo, hi = _wilson(hits, samples)
        estimate += total * hits / samples
        low, high, drawn = low + total * lo, high + total * hi, drawn + samples
    return {"combinations": math.comb(n, k), "connected": round(estimate), "connected_exact": drawn == 0,
            "connected_interval": [math.floor(low), math.ceil(high)], "connected_samples": drawn}


def _bit_adjacency(graph: nx.DiGraph, nodes: list[str]) -> dict[int, int]:
    """``{node bit: bits of its neighbours}`` (undirected) over ``nodes``; sets of nodes are int bitmasks,
    so a connectivity check is a few integer operations per node instead of set building."""
    bit = {v: 1 << i for i, v in enumerate(nodes)}
    adjacency = dict.fromkeys(bit.values(), 0)
    for v in nodes:
        for u in itertools.chain(graph.successors(v), graph.predecessors(v)):
            if u in bit and u != v:
                adjacency[bit[v]] |= bit[u]
    return adjacency


def _is_connected(mask: int, adjacency: dict[int, int]) -> bool:
    """Whether the nodes of ``mask`` form one piece (breadth-first search over bits)."""
    seen = frontier = mask & -mask
    while frontier:
        node = frontier & -frontier
        frontier ^= node
        new = adjacency[node] & mask & ~seen
        seen |= new
        frontier |= new
    return seen == mask


def _wilson(hits: int, n: int, z: float = 1.96) -> tuple[float, float]:
    """95% Wilson score interval of a proportion (sound at 0 and 1, unlike ``p ± z·se``)."""
    p = hits / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return max(0.0, centre - half), min(1.0, centre + half)


def graph_summary(graph: Optional[nx.DiGraph] = None, k: int = 5) -> dict[str, Any]:
    """Size of the graph and how many compositions of ``k`` services it admits.

    Args:
        graph: the graph (default: :func:`build_graph` over the catalog).
        k: composition size for the candidate count (>= 1).

    Returns:
        ``{"services", "edges", "typed_edges", "entity_types", "density",
        "k", "candidate_compositions"}`` where ``candidate_compositions`` is
        :func:`count_compositions`'s result (fast for any ``k``).

    Raises:
        ValueError: ``k`` < 1.
    """
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
        "candidate_compositions": count_compositions(graph, k),
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
    # Not tight_layout: it draws the ~1,200 arrow patches twice more just to measure them
    # (two thirds of the time); with the axes off, fixed margins lose nothing.
    fig.subplots_adjust(left=0.01, right=0.99, bottom=0.01, top=0.96)
    return save_figure(fig, path, tight=False)


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
    return save_figure(fig, path)


def save_figure(fig: Any, path: str | Path, tight: bool = True) -> Path:
    """Write a matplotlib ``fig`` to ``path`` through a temporary file beside it, renamed into place,
    and close it.

    An interrupted or failing draw leaves the old file (or none), never a
    half-written one. The format comes from the suffix (PNG without one), and
    the file is written at exactly ``path``: matplotlib would otherwise append
    ``.png`` to a path without a suffix.

    Raises:
        ValueError: matplotlib does not know the suffix's format.
        OSError: the directory cannot be written.
    """
    import matplotlib.pyplot as plt

    out = Path(path)
    out.parent.mkdir(parents=True, exist_ok=True)
    fmt = out.suffix[1:].lower() or "png"
    fd, tmp = tempfile.mkstemp(dir=out.parent, prefix=f".{out.name}.", suffix=".tmp")
    try:
        with os.fdopen(fd, "wb") as fh:
            if tight:
                fig.tight_layout()
            # Fixed metadata: the same graph gives byte-identical files.
            fig.savefig(fh, format=fmt, dpi=110, metadata={"Software": None})
        # mkstemp makes the file 0600; give it the mode a plain open() would have.
        umask = os.umask(0)
        os.umask(umask)
        os.chmod(tmp, 0o666 & ~umask)
        os.replace(tmp, out)
    except BaseException:  # KeyboardInterrupt too: never leave the temporary file behind
        Path(tmp).unlink(missing_ok=True)
        raise
    finally:
        plt.close(fig)
    return out
