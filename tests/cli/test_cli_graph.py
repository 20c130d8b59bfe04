"""``compoworld graph``: the candidate count is fast for any k, pictures are written atomically,
and a missing matplotlib names the [viz] extra (issue 14)."""

from __future__ import annotations

import itertools
import json
import math
import os
import random
import sys

import networkx as nx
import pytest
from typer.testing import CliRunner

import compoworld_gym.graph as graph_mod
from compoworld_gym.cli import app
from compoworld_gym.composition import random_walk
from compoworld_gym.graph import build_graph, count_compositions

runner = CliRunner()


@pytest.fixture
def cheap_big_picture(monkeypatch):
    """Stub the whole-catalog drawing (~15 s of arrow clipping): these tests are about the count."""
    def draw(path, graph=None):
        path.write_bytes(b"\x89PNG stub")
        return path

    monkeypatch.setattr(graph_mod, "draw_graph", draw)


def brute_force(graph: nx.DiGraph, k: int) -> int:
    """Connected k-sets by checking every k-subset with networkx (the reference for small graphs)."""
    u = graph.to_undirected()
    return sum(nx.is_connected(u.subgraph(c)) for c in itertools.combinations(u.nodes, k))


def test_graph_k30_json_is_one_document_with_a_labelled_estimate(tmp_path, cheap_big_picture):
    # Before: 5 h-scale ESU enumeration (killed after 180 s). Now: a seeded sample per component.
    out = runner.invoke(app, ["graph", "--k", "30", "--json", "--out", str(tmp_path / "g.png")])
    assert out.exit_code == 0, out.output
    summary = json.loads(out.stdout)
    n, cands = summary["services"], summary["candidate_compositions"]
    biggest = max(len(c) for c in nx.connected_components(build_graph().to_undirected()))
    assert summary["k"] == 30 and cands["combinations"] == math.comb(n, 30)
    assert cands["connected_exact"] is False and cands["connected_samples"] > 0
    low, high = cands["connected_interval"]
    # A connected set lies inside one component, so C(biggest, 30) bounds it from above.
    assert 0 < low <= cands["connected"] <= high <= math.comb(biggest, 30)


def test_graph_k_above_the_services_is_zero_with_a_note(tmp_path, cheap_big_picture):
    n = build_graph().number_of_nodes()
    out = runner.invoke(app, ["graph", "--k", str(n + 1), "--json", "--out", str(tmp_path / "g.png")])
    assert out.exit_code == 0, out.output
    cands = json.loads(out.stdout)["candidate_compositions"]
    assert cands["combinations"] == 0 and cands["connected"] == 0 and cands["connected_exact"] is True
    assert cands["note"] == (f"k={n + 1} exceeds the {n} services: "
                             f"no composition of {n + 1} distinct services exists")
    human = runner.invoke(app, ["graph", "--k", str(n + 1), "--out", str(tmp_path / "g.png")])
    assert f"candidate compositions of {n + 1}: 0 (k={n + 1} exceeds" in " ".join(human.stdout.split())


def test_graph_k_above_the_services_with_composition_out_fails_before_drawing(tmp_path, cheap_big_picture):
    n = build_graph().number_of_nodes()
    out = runner.invoke(app, ["graph", "--k", str(n + 1), "--out", str(tmp_path / "g.png"),
                              "--composition-out", str(tmp_path / "c.png")])
    assert out.exit_code == 2 and out.stdout == ""
    assert f"error: --k {n + 1} is more than the {n} services" in out.stderr
    assert sorted(os.listdir(tmp_path)) == []


def test_count_is_exact_for_small_k_and_k_near_n_on_the_catalog():
    g = build_graph()
    n = g.number_of_nodes()
    for k in (1, 2, n - 1, n):
        got = count_compositions(g, k)
        assert got["connected_exact"] is True and got["connected_samples"] == 0
        assert got["connected"] == brute_force(g, k) and got["connected_interval"] == [got["connected"]] * 2
    assert count_compositions(g, n + 12)["combinations"] == 0
    with pytest.raises(ValueError, match="k and samples must be >= 1; got k=0"):
        count_compositions(g, 0)


def test_count_matches_brute_force_on_random_graphs():
    for seed in range(3):
        g = nx.gnp_random_graph(11, 0.3, seed=seed, directed=True)
        g.add_nodes_from(["lonely"])  # an isolated service, as in the catalog
        for k in range(1, 13):
            assert count_compositions(g, k)["connected"] == brute_force(g, k), (seed, k)


def test_estimate_is_labelled_and_its_interval_holds_the_exact_count(monkeypatch):
    path = nx.path_graph(20, create_using=nx.DiGraph)  # connected 5-sets of a path: 20 - 5 + 1
    assert count_compositions(path, 5) == {"combinations": 15504, "connected": 16, "connected_exact": True,
                                           "connected_interval": [16, 16], "connected_samples": 0}
    monkeypatch.setattr(graph_mod, "EXACT_WORK", 0)  # force the sample
    dense = nx.complete_graph(12, create_using=nx.DiGraph)
    dense.remove_edges_from([(0, j) for j in range(1, 12)] + [(j, 0) for j in range(1, 12)])
    est = count_compositions(dense, 4, samples=2000)
    exact = math.comb(11, 4)  # every 4-set without the cut-off node 0
    low, high = est["connected_interval"]
    assert est["connected_exact"] is False and est["connected_samples"] == 2000
    assert low <= exact <= high and low <= est["connected"] <= high and high == exact
    assert count_compositions(dense, 4, samples=2000) == est  # seeded: the same figures every run


@pytest.fixture
def comp():
    return random_walk(build_graph(), random.Random(0), k=3)


def test_interrupted_draw_keeps_the_old_picture_and_leaves_no_temporary(tmp_path, monkeypatch, comp):
    pytest.importorskip("matplotlib")
    from matplotlib.figure import Figure

    target = tmp_path / "comp.png"
    target.write_bytes(b"old picture")

    def half_written(self, fh, **kwargs):
        fh.write(b"\x89PNG\r\n\x1a\n half")
        raise KeyboardInterrupt

    monkeypatch.setattr(Figure, "savefig", half_written)
    with pytest.raises(KeyboardInterrupt):
        graph_mod.draw_composition(comp, target)
    assert target.read_bytes() == b"old picture" and os.listdir(tmp_path) == ["comp.png"]


def test_draw_replaces_the_picture_with_a_plain_file_mode(tmp_path, comp):
    pytest.importorskip("matplotlib")
    target = tmp_path / "comp.png"
    target.write_bytes(b"old picture")
    assert graph_mod.draw_composition(comp, target) == target
    assert target.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n" and os.listdir(tmp_path) == ["comp.png"]
    umask = os.umask(0)
    os.umask(umask)
    assert target.stat().st_mode & 0o777 == 0o666 & ~umask
    # No suffix: still a PNG, at exactly that path (matplotlib alone would write "pic.png").
    assert graph_mod.draw_composition(comp, tmp_path / "pic").read_bytes()[:4] == b"\x89PNG"
    assert sorted(os.listdir(tmp_path)) == ["comp.png", "pic"]


def test_graph_without_matplotlib_names_the_viz_extra(tmp_path, monkeypatch):
    # A None entry makes ``import matplotlib`` raise ModuleNotFoundError(name="matplotlib").
    for name in [m for m in sys.modules if m == "matplotlib" or m.startswith("matplotlib.")] + ["matplotlib"]:
        monkeypatch.setitem(sys.modules, name, None)
    out = runner.invoke(app, ["graph", "--json", "--out", str(tmp_path / "g.png")])
    assert out.exit_code == 2 and out.stdout == ""
    assert out.stderr.strip() == ("error: this command needs the [viz] extra (module 'matplotlib' is not "
                                  'installed): pip install "compoworld-gym[viz]"')
    assert os.listdir(tmp_path) == []
