"""``compoworld graph``: the service dependency graph, its size and pictures."""

from __future__ import annotations

from pathlib import Path
from typing import Optional

import typer

from compoworld_gym.cli.app import app
from compoworld_gym.cli.common import check_out, console, fail, print_json


@app.command()
def graph(
    out: Path = typer.Option(Path("compoworld-graph.png"), "--out", help="PNG of the dependency graph."),
    composition_out: Optional[Path] = typer.Option(None, "--composition-out",
                                                   help="Also draw one sampled composition (PNG)."),
    k: int = typer.Option(5, "--k", min=1, help="Composition size for the candidate count."),
    seed: int = typer.Option(0, "--seed", help="Seed of the sampled composition."),
    as_json: bool = typer.Option(False, "--json", help="Print the summary as JSON."),
) -> None:
    """Print the service dependency graph's size and draw it (and one composition)."""
    import random

    from compoworld_gym.catalog import service_names
    from compoworld_gym.composition import add_distractors, random_walk
    from compoworld_gym.graph import build_graph, draw_composition, draw_graph, graph_summary

    check_out(out)
    if composition_out is not None:
        check_out(composition_out)
    g = build_graph()
    if composition_out is not None and k > g.number_of_nodes():
        raise fail(f"--k {k} is more than the {g.number_of_nodes()} services; a composition to draw "
                   f"needs k distinct services")
    summary = graph_summary(g, k=k)
    summary["picture"] = str(draw_graph(out, g))
    if composition_out is not None:
        rng = random.Random(seed)
        comp = add_distractors(random_walk(g, rng, k), service_names(), rng)
        summary["composition"] = {"id": comp.id, "slug": comp.slug, "picture": str(draw_composition(comp, composition_out))}
    if as_json:
        print_json(summary)
        return
    console.print(f"{summary['services']} services, {summary['edges']} edges "
                  f"({summary['typed_edges']} typed), {len(summary['entity_types'])} entity types; "
                  f"candidate compositions of {k}: {describe_candidates(summary['candidate_compositions'])}",
                  highlight=False)
    console.print(f"wrote {summary['picture']}" + (f" and {summary['composition']['picture']}"
                                                   if "composition" in summary else ""))


def describe_candidates(cands: dict) -> str:
    """One line for :func:`compoworld_gym.graph.count_compositions`'s result, saying when it is an estimate."""
    if "note" in cands:
        return f"0 ({cands['note']})"
    if cands["connected_exact"]:
        connected = f"{cands['connected']:,} connected"
    else:
        low, high = cands["connected_interval"]
        connected = (f"about {cands['connected']:,} connected (estimate from {cands['connected_samples']:,} "
                     f"random sets; 95% interval {low:,}-{high:,})")
    return f"{cands['combinations']:,} sets of services, {connected}"
