"""Composition by random walk: ids, slugs, revisits, distractors, counts."""

from __future__ import annotations

import itertools
import random

import networkx as nx
import pytest

from compoworld_gym.composition import (Composition, Step, WalkError, add_distractors, count_candidates,
                                        random_walk)


def _graph() -> nx.DiGraph:
    g = nx.DiGraph()
    for a, b, t in [("crm", "gmail", "email"), ("gmail", "helpdesk", "email"), ("helpdesk", "gmail", "email"),
                    ("helpdesk", "calendar", "date"), ("calendar", "crm", "email"), ("gmail", "crm", "email")]:
        g.add_edge(a, b, types=[t])
    return g


def test_id_is_stable_and_order_free() -> None:
    steps = [Step(source="crm", target="gmail", type="email"), Step(source="gmail", target="helpdesk", type="email")]
    a = Composition(services=["crm", "gmail", "helpdesk"], steps=steps)
    b = Composition(services=["helpdesk", "crm", "gmail"], steps=list(reversed(steps)), distractors=["x"])
    assert a.id == b.id and a.slug == b.slug
    assert a.id == "cmp-" + a.id[4:] and len(a.id) == 16
    assert a.slug == f"crm-gmail-helpdesk-{a.id[4:10]}"
    c = Composition(services=["crm", "gmail", "helpdesk"], steps=[steps[0], Step(source="gmail", target="helpdesk",
                                                                                    type="date")])
    assert c.id != a.id


def test_walk_is_deterministic_and_connected() -> None:
    g = _graph()
    w1 = random_walk(g, random.Random(7), k=4, revisit_prob=0.5)
    w2 = random_walk(g, random.Random(7), k=4, revisit_prob=0.5)
    assert w1 == w2
    assert len(set(w1.services)) == 4
    for s in w1.steps:
        assert s.type in g.edges[s.source, s.target]["types"]
    assert all(w1.steps[i].target == w1.steps[i + 1].source for i in range(len(w1.steps) - 1))


def test_walk_revisits_when_forced() -> None:
    walks = []
    for s in range(30):
        try:
            walks.append(random_walk(_graph(), random.Random(s), k=4, revisit_prob=1.0))
        except WalkError:  # a revisit can lead into a corner; the generator then retries
            continue
    revisiting = [w for w in walks if w.revisits]
    assert revisiting, "revisit_prob=1 must produce revisit steps"
    for w in revisiting:
        step = next(s for s in w.steps if s.revisit)
        assert step.target in w.services[: w.services.index(step.source) + 1]


def test_walk_errors() -> None:
    g = nx.DiGraph()
    g.add_edge("a", "b", types=["email"])
    with pytest.raises(WalkError):
        random_walk(g, random.Random(0), k=3, start="a")
    with pytest.raises(WalkError):
        random_walk(g, random.Random(0), k=2, start="zzz")
    with pytest.raises(WalkError):
        random_walk(nx.DiGraph(), random.Random(0), k=2)


def test_distractors_fill_the_listing() -> None:
    comp = Composition(services=["crm", "gmail"])
    out = add_distractors(comp, [f"s{i}" for i in range(30)] + ["crm", "gmail"], random.Random(1), listed=15)
    assert len(out.distractors) == 13 and not set(out.distractors) & {"crm", "gmail"}
    assert out.id == comp.id


def test_candidate_count_matches_brute_force() -> None:
    g = nx.gnp_random_graph(10, 0.3, seed=3, directed=True)
    und = g.to_undirected()
    for k in (2, 3, 4):
        brute = sum(1 for c in itertools.combinations(g.nodes, k) if nx.is_connected(und.subgraph(c)))
        got = count_candidates(g, k)
        assert got["connected"] == brute
        assert got["combinations"] == {2: 45, 3: 120, 4: 210}[k]
