"""``compoworld generate``: verified chained tasks to a JSONL file."""

from __future__ import annotations

import contextlib
import functools
import signal
from pathlib import Path
from typing import Any, Callable, Iterator, Optional

import typer

from compoworld_gym.cli.app import app
from compoworld_gym.cli.common import RayAddress, RayWorkers, check_out, console, fail, print_json, progress


@app.command()
def generate(
    n: int = typer.Option(100, "--n", min=0, help="Number of verified tasks."),
    seed: int = typer.Option(0, "--seed", min=0, help="Generation seed (same seed, same tasks)."),
    out: Path = typer.Option(Path("tasks.jsonl"), "--out", help="Output JSONL task file."),
    services: Optional[str] = typer.Option(None, "--services", help="Services per task: N or LO-HI (default 3-7)."),
    library: Optional[str] = typer.Option(
        None, "--library", help="Only these services, comma-separated, in chains and as distractors, or a "
                                "named library: v1 (the first 40 services). Default: every service; "
                                "`compoworld services` lists them."),
    designer: str = typer.Option("offline", "--designer",
                                 help="Who writes instructions: offline (templates, deterministic) or openai."),
    base_url: Optional[str] = typer.Option(None, "--base-url", help="OpenAI-compatible endpoint for --designer openai."),
    model: Optional[str] = typer.Option(None, "--model", help="Model name for --designer openai."),
    api_key: str = typer.Option("EMPTY", "--api-key", envvar="OPENAI_API_KEY", help="Key for --designer openai."),
    designer_timeout: float = typer.Option(30.0, "--designer-timeout", min=1.0,
                                           help="Seconds per --designer openai request (one retry)."),
    metrics: bool = typer.Option(False, "--metrics", help="Also measure the chain figures (replays every task)."),
    as_json: bool = typer.Option(False, "--json", help="Print generation statistics as JSON."),
    use_ray: bool = typer.Option(False, "--ray", help="Spread the work over Ray workers (needs the ray extra): "
                                 "the same tasks, byte for byte. Cluster: RAY_ADDRESS, else a local Ray for the run."),
    ray_address: RayAddress = None,
    ray_workers: RayWorkers = None,
) -> None:
    """Generate verified chained tasks: a random walk over the services' records, then explore/design/verify/submit.

    Tasks stream to ``<out>.partial`` as they are verified; only a finished
    run renames it to --out and writes ``<out>.summary.json`` (count and
    digest, checked whenever the file is loaded). Ctrl-C or SIGTERM exits 130,
    keeps the tasks so far in ``<out>.partial`` (summarised as incomplete) and
    leaves --out as it was.

    With --ray the tasks are made by Ray workers (half a CPU each) and
    written in index order as they arrive: the file and its summary are the
    single-process ones (the summary's stage seconds are summed over the workers).
    """
    from compoworld_gym.generation import ConfigError, GenerationConfig, GenerationStats, iter_tasks
    from compoworld_gym.generation.config import LIBRARIES
    from compoworld_gym.generation.designer import DesignerError, get_designer

    check_out(out)
    try:
        span = _services_range(services)
        names = None if library is None else LIBRARIES.get(library.strip()) or tuple(
            n.strip() for n in library.split(",") if n.strip())
        cfg = GenerationConfig(**({} if span is None else {"services": span}), library=names)
        write_instruction = get_designer(designer, base_url=base_url, model=model, api_key=api_key,
                                         timeout=designer_timeout)
    except (ConfigError, DesignerError) as exc:
        raise fail(str(exc)) from None
    stats = GenerationStats()
    with contextlib.ExitStack() as stack:
        if use_ray or ray_address or ray_workers:
            # Each worker builds its own designer from the same options: an OpenAI client does not pickle.
            build = functools.partial(get_designer, designer, base_url=base_url, model=model, api_key=api_key,
                                      timeout=designer_timeout)
            tasks = _ray_tasks(stack, n, seed, cfg, stats, build, ray_address, ray_workers)
        else:
            tasks = iter_tasks(n, seed, cfg, stats=stats, designer=write_instruction)
        _write_tasks(stack.enter_context(contextlib.closing(tasks)), out, n, seed, stats)
    summary = {"out": str(out), **stats.summary()}
    if metrics:
        from compoworld_gym.generation.metrics import chain_metrics
        from compoworld_gym.tasks import iter_task_file

        summary["chain"] = chain_metrics(iter_task_file(out))  # streamed back: no task kept in memory
    if as_json:
        print_json(summary)
        return
    console.print(f"wrote {summary['tasks']} verified tasks to {out} ({summary.get('compositions')} compositions)")


def _write_tasks(tasks: Iterator[Any], out: Path, n: int, seed: int, stats: Any) -> None:
    """Stream ``tasks`` to ``<out>.partial``, then commit them to ``out`` with their summary.

    A generation error discards the partial file (exit 2); Ctrl-C or SIGTERM
    keeps it, summarised as incomplete (exit 130). ``out`` is untouched
    unless the run finishes.
    """
    from compoworld_gym.generation import GenerationError
    from compoworld_gym.generation.designer import DesignerError
    from compoworld_gym.task_summary import TaskFileWriter

    writer = TaskFileWriter(out, requested=n)
    # SIGTERM unwinds like Ctrl-C, so what was verified is kept and --out is untouched.
    signal.signal(signal.SIGTERM, _terminate)
    try:
        with progress("generating", n) as bar:
            for task in tasks:
                writer.write(task.to_json())
                bar.advance()
    except (GenerationError, DesignerError) as exc:
        writer.discard()
        raise fail(f"{exc} ({out} left unchanged)") from None
    except (KeyboardInterrupt, SystemExit):
        # A second Ctrl-C must not cut the summary of what is kept.
        signal.signal(signal.SIGINT, signal.SIG_IGN)
        signal.signal(signal.SIGTERM, signal.SIG_IGN)
        kept = writer.keep_partial({"seed": seed, **stats.summary()})
        raise fail(f"interrupted after {kept} of {n} tasks: kept them in {writer.partial}; "
                   f"{out} left unchanged", 130) from None
    writer.commit({"seed": seed, **stats.summary()})


def _ray_tasks(stack: contextlib.ExitStack, n: int, seed: int, cfg: Any, stats: Any,
               designer_factory: Callable[[], Any], address: Optional[str], workers: Optional[int]) -> Iterator[Any]:
    """The tasks of a ``--ray`` run, connected to Ray now (a missing extra or an unreachable
    cluster exits 2 here, before any file is touched; the connection closes with ``stack``)."""
    from compoworld_gym.integrations.ray import RayClusterError, RayConfig, iter_tasks_ray, ray_session

    try:
        with progress("starting Ray" if address is None else f"joining Ray at {address}", None):
            stack.enter_context(ray_session(address))
    except RayClusterError as exc:
        raise fail(str(exc)) from None
    return iter_tasks_ray(n, seed, cfg, stats=stats, designer_factory=designer_factory,
                          ray_config=RayConfig(address=address, workers=workers))


def _terminate(signum: int, frame: object) -> None:
    raise SystemExit(128 + signum)


def _services_range(text: Optional[str]) -> Optional[tuple[int, int]]:
    """``"4"`` → (4, 4), ``"3-5"`` → (3, 5); None keeps the default."""
    if text is None:
        return None
    from compoworld_gym.catalog import service_names

    lo, dash, hi = text.partition("-")
    try:
        span = int(lo), int(hi if dash else lo)
    except ValueError:
        raise fail(f"--services takes N or LO-HI (e.g. 3-5), got {text!r}") from None
    if span[1] > len(service_names()):
        raise fail(f"--services {text}: the library has only {len(service_names())} services")
    return span
