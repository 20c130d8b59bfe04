"""``compoworld fuzz`` and ``compoworld bench``."""

from __future__ import annotations

import os
import signal
from pathlib import Path
from typing import Callable, Optional, Sequence

import typer
from rich.table import Table

from compoworld_gym.cli.app import app
from compoworld_gym.cli.common import ProgressBar, check_out, console, errors, fail, print_json, progress


@app.command()
def fuzz(
    examples: Optional[int] = typer.Option(
        None, "--examples", min=1,
        help="State-machine runs to plan, split over the targets: each target gets at least 1, and "
             "Hypothesis adds its shrink runs on a failure (default 1000)."),
    minutes: Optional[float] = typer.Option(
        None, "--minutes", min=0.001, help="Instead of --examples: rounds over every target until the time is up."),
    seed: Optional[int] = typer.Option(None, "--seed", min=0, help="Campaign seed (default: random, reported)."),
    steps: Optional[int] = typer.Option(
        None, "--steps", min=2,
        help="Most steps per run, its first reset included (Hypothesis ends some runs earlier; "
             "default: deep profile, 20)."),
    workers: int = typer.Option(1, "--workers", min=1, help="Parallel worker processes."),
    include: Optional[str] = typer.Option(
        None, "--include",
        help="Target kinds, comma-separated, of: service, composition, generated, builtin (default all; "
             "service and composition with --services)."),
    services: Optional[str] = typer.Option(
        None, "--services",
        help="Only these services (comma-separated; `compoworld services` lists them), alone and in "
             "compositions of each other; generated and built-in task pools are left out unless "
             "--include names them."),
    log: Optional[Path] = typer.Option(
        None, "--log", help="Write a JSON-lines log: the settings, then one line per finished batch."),
    resume: Optional[Path] = typer.Option(
        None, "--resume", help="Continue the campaign of this log (its settings; appends to it)."),
    action_timeout: Optional[float] = typer.Option(
        None, "--action-timeout", min=0.0,
        help="Seconds one reset or step may take before it is a 'hang' finding (0: no limit; default 10, "
             "or with --resume the log's)."),
    as_json: bool = typer.Option(False, "--json", help="Print examples, actions, failures, seconds, ... as JSON."),
) -> None:
    """Fuzz every built-in service, composition and task pool with Hypothesis state machines.

    Ctrl-C or SIGTERM stops after saying what was covered (exit 130); with
    --log the log keeps every finished batch, and --resume continues it.
    """
    from compoworld_gym.fuzz import KINDS, run_fuzz

    _hypothesis_home()
    # SIGTERM (a job scheduler, `kill`, a background run whose SIGINT is ignored) unwinds like
    # Ctrl-C: the report is printed and the worker pool shut down, instead of orphaning workers.
    signal.signal(signal.SIGTERM, _interrupt)
    signal.signal(signal.SIGINT, _interrupt)
    if log is not None and resume is not None:
        raise fail("give --log F for a new campaign or --resume F to continue one, not both")
    if examples is not None and minutes is not None:
        raise fail("give --examples N or --minutes M, not both")
    kwargs = {"examples": examples, "minutes": minutes, "seed": seed, "steps": steps, "workers": workers,
              "include": _names(include, KINDS, "--include"), "services": _names(services, None, "--services"),
              "log": resume or log, "resume": resume is not None,
              # 0 is "no limit" (None); not given is "the default, or the log's" (...)
              "action_timeout": ... if action_timeout is None else (action_timeout or None)}
    if log is not None:
        check_out(log)
    with progress("fuzz (0 failure(s))", total=None) as bar:
        report = _run_with_bar(run_fuzz, {k: v for k, v in kwargs.items()
                                          if v is not None or k == "action_timeout"}, bar)
    for note in report["notes"]:
        errors.print(f"note: {note}", markup=False, highlight=False)
    if as_json:
        print_json(report)
    else:
        reached = report["targets_reached"]
        over = f"{reached} targets" if reached == report["targets"] else f"{reached} of {report['targets']} targets"
        console.print(f"{report['examples']} runs, {report['actions']} actions over {over} "
                      f"in {report['seconds']:.1f} s: {report['failures']} failure(s) (seed {report['seed']})")
        for f in report["failed"]:
            console.print(f"  {f['target']}: {f['invariant']}: {f['message'][:300]}", markup=False)
    if report["failures"]:
        raise typer.Exit(1)


def _interrupt(signum: int, frame: object) -> None:
    """Stop the campaign: the flag holds even when Python drops the KeyboardInterrupt (it does when
    the signal lands in a garbage-collector callback), so the campaign stops before its next batch."""
    from compoworld_gym.fuzz import request_stop

    request_stop()
    raise KeyboardInterrupt


def _names(value: Optional[str], allowed: Optional[Sequence[str]], option: str) -> Optional[list[str]]:
    """The names of a comma-separated option (None when not given); unknown or no names exit 2."""
    if value is None:
        return None
    names = [n.strip() for n in value.split(",") if n.strip()]
    bad = [n for n in names if allowed is not None and n not in allowed]
    if not names or bad:
        raise fail(f"{option} takes a comma-separated list of {', '.join(allowed or ['names'])}; got {value!r}")
    return names


def _run_with_bar(run_fuzz: Callable[..., dict], kwargs: dict, bar: ProgressBar) -> dict:
    """Run the campaign, advancing ``bar`` per batch; a bad setting or log and Ctrl-C become one line."""
    from compoworld_gym.fuzz import FuzzInterrupted

    failures = 0

    def advance(entry: dict, done: int, total: Optional[int]) -> None:
        nonlocal failures
        failures += entry["failure"] is not None
        # A --minutes bar counts runs with no total (the time is shown beside it).
        bar.update(completed=done, total=total, description=f"fuzz ({failures} failure(s))")

    try:
        return run_fuzz(progress=advance, **kwargs)
    except ValueError as exc:  # FuzzLogError included
        raise fail(str(exc)) from None
    except FuzzInterrupted as exc:
        r, where = exc.report, kwargs.get("log")
        kept = f"; {where} keeps them: --resume {where} continues" if where else ""
        raise fail(f"interrupted: {r['examples']} runs, {r['actions']} actions, {r['batches']} batches over "
                   f"{r['targets_reached']} of {r['targets']} targets in {r['seconds']:.1f} s, {r['failures']} failure(s){kept}", 130) from None


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


def _hypothesis_home() -> None:
    """Keep Hypothesis's files (its unicode tables) in the user cache, not a
    ``.hypothesis/`` folder in the directory ``compoworld fuzz`` runs in.

    Set as an environment variable, so worker processes inherit it; a
    ``HYPOTHESIS_STORAGE_DIRECTORY`` the user set wins.
    """
    if "HYPOTHESIS_STORAGE_DIRECTORY" not in os.environ:
        cache = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache")
        os.environ["HYPOTHESIS_STORAGE_DIRECTORY"] = str(cache / "compoworld-gym" / "hypothesis")
