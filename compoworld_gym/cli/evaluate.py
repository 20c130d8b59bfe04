"""``compoworld eval``: agents over tasks."""

from __future__ import annotations

import json
from pathlib import Path
from typing import List, Optional

import typer
from rich.console import Console
from rich.table import Table

from compoworld_gym.cli.app import app
from compoworld_gym.cli.common import fail, load_task_pool, print_json, console


def _eval_tasks(tasks_file: Optional[Path], generate_n: Optional[int], seed: int):
    """The task list of ``eval``: a file, freshly generated tasks, or the built-ins."""
    if tasks_file is not None and generate_n is not None:
        console.print("[red]error:[/red] give either --tasks or --generate, not both")
        raise typer.Exit(2)
    if generate_n is None:
        return load_task_pool(tasks_file)
    from compoworld_gym.generation import GenerationError, generate_tasks

    try:
        with console.status(f"generating {generate_n} tasks (seed {seed})", spinner="dots"):
            return generate_tasks(generate_n, seed)
    except GenerationError as exc:
        raise fail(f"{exc}") from None


def _agent_factory(name: str, model: Optional[str], base_url: Optional[str], max_new_tokens: int,
                   temperature: float):
    """``seed -> agent``; model-backed agents are built once and reseeded."""
    from compoworld_gym.baselines.agents import agent_class, make_agent

    try:
        agent_class(name)
    except ValueError as exc:
        raise fail(f"{exc}") from None
    except ImportError as exc:
        extra = "openai" if name == "openai" else "train"
        console.print(f"[red]error:[/red] agent {name!r} needs the [{extra}] extra "
                      f"(pip install 'compoworld-gym[{extra}]'): {exc}")
        raise typer.Exit(2) from None
    if name == "random":
        return lambda s: make_agent("random", seed=s)
    if name not in ("hf", "openai"):
        return lambda s: make_agent(name)
    if not model:
        raise fail(f"--agent {name} needs --model")
    kwargs = {"model": model, "temperature": temperature}
    if name == "openai":
        kwargs.update(base_url=base_url, max_tokens=max_new_tokens)
    else:
        kwargs.update(max_new_tokens=max_new_tokens)
    try:
        agent = make_agent(name, **kwargs)
    except (ValueError, OSError) as exc:
        raise fail(f"cannot build agent {name!r}: {exc}") from None

    def factory(s: int):
        agent.seed = s
        return agent

    return factory


@app.command("eval")
def eval_cmd(
    agent: List[str] = typer.Option(["reference", "random"], "--agent",
                                    help="Agent(s) to evaluate: reference, random, hf, openai; repeatable."),
    model: Optional[str] = typer.Option(None, "--model", help="hf: local model path ('tiny' = random tiny "
                                        "model); openai: model name on the endpoint."),
    base_url: Optional[str] = typer.Option(None, "--base-url", help="openai: endpoint, e.g. "
                                           "http://localhost:8000/v1 (default $OPENAI_BASE_URL)."),
    tasks: Optional[Path] = typer.Option(None, "--tasks", help="JSONL task file (default: the built-in tasks)."),
    generate_n: Optional[int] = typer.Option(None, "--generate", min=1,
                                             help="Evaluate on N freshly generated tasks (seeded by --seed)."),
    k: int = typer.Option(1, "--k", min=1, help="Runs per task (pass@k, pass^k)."),
    max_steps: int = typer.Option(40, "--max-steps", min=1, help="Step limit per episode."),
    seed: int = typer.Option(0, "--seed", min=0, help="Seed of the agents, env resets and --generate."),
    max_new_tokens: int = typer.Option(1024, "--max-new-tokens", min=1, help="hf/openai: tokens per turn."),
    temperature: float = typer.Option(0.0, "--temperature", min=0.0, help="hf/openai: sampling temperature."),
    out: Optional[Path] = typer.Option(None, "--out", help="Write trajectories (paper format) and metrics "
                                       "here: DIR/<agent>.jsonl, DIR/<agent>.metrics.json."),
    as_json: bool = typer.Option(False, "--json", help="Print one JSON object per agent (a list)."),
) -> None:
    """Evaluate agents over tasks: success rate, mean rubric score, pass@k, pass^k."""
    from rich.progress import Progress

    from compoworld_gym.baselines.evaluate import evaluate_agent

    task_list = _eval_tasks(tasks, generate_n, seed)
    factories = [(name, _agent_factory(name, model, base_url, max_new_tokens, temperature)) for name in agent]
    if out is not None:
        out.mkdir(parents=True, exist_ok=True)
    reports = []
    for name, factory in factories:
        record = out / f"{name}.jsonl" if out is not None else None
        with Progress(console=Console(stderr=True), transient=True) as progress:
            bar = progress.add_task(f"{name}", total=len(task_list) * k)
            metrics, _ = evaluate_agent(factory, task_list, k=k, max_steps=max_steps, seed=seed,
                                        on_episode=lambda _r: progress.advance(bar),
                                        record_path=record, source=f"compoworld-eval:{name}")
        report = {"agent": name, **({"model": model} if name in ("hf", "openai") else {}), **metrics}
        reports.append(report)
        if out is not None:
            (out / f"{name}.metrics.json").write_text(json.dumps(report, indent=2) + "\n")
    if as_json:
        print_json(reports if len(reports) > 1 else reports[0])
        return
    table = Table(title=f"{len(task_list)} tasks, k={k}")
    for col in ("agent", "success rate", "mean rubric score", "pass@k", "pass^k", "mean steps"):
        table.add_column(col, justify="right" if col != "agent" else "left")
    for r in reports:
        table.add_row(r["agent"], f"{r['success_rate']:.3f}", f"{r['mean_rubric_score']:.3f}",
                      f"{r['pass_at_k']:.3f}", f"{r['pass_hat_k']:.3f}", f"{r['mean_steps']:.1f}")
    console.print(table)
    if out is not None:
        console.print(f"wrote trajectories and metrics to {out}/")
