"""``compoworld fuzz`` and ``compoworld bench``."""

from __future__ import annotations

from typing import Optional

import typer
from rich.table import Table

from compoworld_gym.cli.app import app
from compoworld_gym.cli.common import console, print_json, progress


@app.command()
def fuzz(
    examples: int = typer.Option(1000, "--examples", min=1,
                                 help="Total state-machine runs, split over the targets (at least one each)."),
    seed: Optional[int] = typer.Option(None, "--seed", min=0, help="Campaign seed (default: random, reported)."),
    steps: Optional[int] = typer.Option(None, "--steps", min=1, help="Steps per run (default: deep profile)."),
    workers: int = typer.Option(1, "--workers", min=1, help="Parallel worker processes."),
    as_json: bool = typer.Option(False, "--json", help="Print examples, failures, seconds, ... as JSON."),
) -> None:
    """Fuzz every built-in service, composition and task pool with Hypothesis state machines."""
    from compoworld_gym.fuzz import run_fuzz

    kwargs = {"workers": workers} if steps is None else {"workers": workers, "steps": steps}
    # Drawn on stderr only when it is a terminal, so --json output stays one document. The total is
    # --examples (exact unless there are more targets than examples); run_fuzz's count corrects it.
    with progress("fuzz (0 failure(s))", total=examples) as bar:
        failures = 0

        def advance(entry: dict, done: int, total: int) -> None:
            nonlocal failures
            failures += entry["failure"] is not None
            bar.update(completed=done, total=total, description=f"fuzz ({failures} failure(s))")

        report = run_fuzz(examples, seed, progress=advance, **kwargs)
    if as_json:
        print_json(report)
    else:
        console.print(f"{report['examples']} runs over {report['targets']} targets in {report['seconds']:.1f} s: "
                      f"{report['failures']} failure(s) (seed {report['seed']})")
        for f in report["failed"]:
            console.print(f"  {f['target']}: {f['invariant']}: {f['message'][:300]}", markup=False)
    if report["failures"]:
        raise typer.Exit(1)


@app.command()
def bench(
    quick: bool = typer.Option(False, "--quick", help="A smoke run with few repetitions (noisy numbers)."),
    as_json: bool = typer.Option(False, "--json", help="Print one JSON object."),
) -> None:
    """Run the standard benchmarks: step, reset, episode, generation, memory, vector, rollout."""
    from compoworld_gym.benchmarks.run import run_benchmarks

    report = run_benchmarks(quick=quick)
    if as_json:
        print_json(report)
        return
    table = Table(title="compoworld benchmarks (medians)")
    for col in ("figure", "value", "target", "met"):
        table.add_column(col)
    targets, met = report.get("targets", {}), report.get("targets_met", {})
    for key in ("step_read_us", "step_write_us", "reset_ms", "episode_ms", "tasks_per_s", "env_kib",
                "sync_steps_per_s", "env_share"):
        value = report.get(key)
        table.add_row(key, "-" if value is None else f"{value:.4g}", str(targets.get(key, "")),
                      {True: "yes", False: "no"}.get(met.get(key), ""))
    console.print(table)
