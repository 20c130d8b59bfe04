"""The dependency graph is derived from tool specs; pictures are written."""

from __future__ import annotations

import random

import pytest

from compoworld_gym.catalog import get_service
from compoworld_gym.composition import random_walk
from compoworld_gym.graph import build_graph, graph_summary, service_io


def test_edges_follow_produces_and_consumes() -> None:
    g = build_graph()
    assert g.number_of_nodes() >= 2
    for a, b, data in g.edges(data=True):
        produced, _ = service_io(get_service(a))
        _, consumed = service_io(get_service(b))
        assert data["types"] == sorted(produced & consumed) and data["types"]
    # helpdesk returns emails and gmail's send_message takes them.
    if "gmail" in g:
        assert "email" in g.edges["helpdesk", "gmail"]["types"]


def test_summary_counts() -> None:
    g = build_graph()
    s = graph_summary(g, k=3)
    assert s["services"] == g.number_of_nodes() and s["edges"] == g.number_of_edges()
    assert s["candidate_compositions"]["combinations"] >= s["candidate_compositions"]["connected"] > 0


def test_pictures(tmp_path) -> None:
    pytest.importorskip("matplotlib")
    from compoworld_gym.graph import draw_composition, draw_graph

    g = build_graph()
    p = draw_graph(tmp_path / "graph.png", g)
    assert p.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    comp = random_walk(g, random.Random(0), k=3)
    q = draw_composition(comp.record(), tmp_path / "comp.png")
    assert q.stat().st_size > 1000
