"""``compoworld eval``: agents over tasks.

Every agent is checked before any episode runs, each problem one ``error:``
line on stderr with exit 2: an unknown agent, a missing extra (which one to
install), a missing ``--model``, a local model directory that does not exist
(nothing is ever downloaded for a path), an OpenAI-compatible endpoint that
does not answer a models-list request within a few seconds.

With ``--out DIR`` the trajectories (``DIR/<agent>.jsonl``) and metrics
(``DIR/<agent>.metrics.json``) are written under temporary names and renamed
into place only when complete: a failure or Ctrl-C (exit 130) midway leaves
no partial file that looks complete. The progress bar is drawn on stderr and
only on a terminal, so ``--json`` output stays clean.
"""

from __future__ import annotations

import functools
import json
import sys
from pathlib import Path
from typing import Any, List, Optional

import typer
from rich.table import Table

from compoworld_gym.cli.app import app
from compoworld_gym.cli.common import (RayAddress, RayWorkers, check_out, check_out_dir, console, fail, load_task_pool,
                                       print_json, progress)
from compoworld_gym.jsonl import atomic_writer

#: Seconds the endpoint probe waits for an answer (a live local server answers in milliseconds).
PROBE_TIMEOUT_S = 5.0

def _eval_tasks(tasks_file: Optional[Path], generate_n: Optional[int], seed: int):
    """The task list of ``eval``: a file, freshly generated tasks, or the built-ins."""
    if tasks_file is not None and generate_n is not None:
        raise fail("give either --tasks or --generate, not both")
    if generate_n is None:
        return load_task_pool(tasks_file)
    from compoworld_gym.generation import GenerationError, generate_tasks

    try:
        with progress(f"generating {generate_n} tasks (seed {seed})", total=None):
            return generate_tasks(generate_n, seed)
    except GenerationError as exc:
        raise fail(f"{exc}") from None


def _check_local_model(model: str) -> None:
    """Fail (exit 2) with one line when ``--model`` names no loadable local model
    (see :func:`compoworld_gym.baselines.hf_agent.check_model_path`)."""
    from compoworld_gym.baselines.hf_agent import check_model_path

    try:
        check_model_path(model)
    except FileNotFoundError as exc:
        raise fail(str(exc)) from None


def _connection_problem(exc: BaseException) -> Optional[str]:
    """``"connection refused"``-style reason when ``exc`` is an openai connection failure, else None."""
    openai = sys.modules.get("openai")
    if openai is None or not isinstance(exc, openai.APIConnectionError):
        return None
    if isinstance(exc, openai.APITimeoutError):
        return "timed out"
    cause: Optional[BaseException] = exc
    innermost = exc
    while cause is not None:  # the OS's reason sits at the bottom of the client's exception chain
        if isinstance(cause, OSError) and cause.strerror:
            return cause.strerror.lower()
        innermost = cause
        cause = cause.__cause__ or cause.__context__
    return " ".join(str(innermost).split()) or "connection failed"


def _probe_endpoint(client: Any) -> None:
    """Fail (exit 2) now when the OpenAI-compatible endpoint cannot be reached.

    One models-list request, no retries, :data:`PROBE_TIMEOUT_S` timeout.
    Any HTTP answer other than a refused API key counts as reachable, since
    some servers do not serve the models list.
    """
    import openai

    url = str(client.base_url).rstrip("/")
    try:
        client.with_options(timeout=PROBE_TIMEOUT_S, max_retries=0).models.list()
    except (openai.AuthenticationError, openai.PermissionDeniedError) as exc:
        raise fail(f"the endpoint at {url} refused the API key (HTTP {exc.status_code}); "
                   "set OPENAI_API_KEY") from None
    except openai.APIStatusError:
        return
    except openai.APIConnectionError as exc:
        raise fail(f"cannot reach the OpenAI-compatible endpoint at {url}: {_connection_problem(exc)}") from None


def _agent_factory(name: str, model: Optional[str], base_url: Optional[str], max_new_tokens: int,
                   temperature: float, threads: Optional[int] = None):
    """``seed -> agent``; model-backed agents are built (and checked) once, then reseeded.
    ``threads``: torch's CPU threads, set before an ``hf`` agent loads (None: torch's default)."""
    from compoworld_gym.baselines.agents import agent_class, make_agent

    try:
        agent_class(name)
    except (ValueError, ImportError) as exc:  # unknown name; a missing extra (the message names it)
        raise fail(f"{exc}") from None
    if name == "random":
        return lambda s: make_agent("random", seed=s)
    if name not in ("hf", "openai"):
        return lambda s: make_agent(name)
    if not model:
        raise fail(f"--agent {name} needs --model")
    kwargs: dict[str, Any] = {"model": model, "temperature": temperature}
    if name == "openai":
        kwargs.update(base_url=base_url, max_tokens=max_new_tokens)
    else:
        _check_local_model(model)
        if threads is not None:
            import torch

            torch.set_num_threads(threads)  # process-wide, and before the model loads
        kwargs.update(max_new_tokens=max_new_tokens)
    try:
        agent = make_agent(name, **kwargs)
    except (ValueError, OSError) as exc:
        raise fail(f"cannot build agent {name!r}: {exc}") from None
    if name == "openai":
        _probe_endpoint(agent.client)

    def factory(s: int):
        agent.seed = s
        return agent

    return factory


@app.command("eval")
def eval_cmd(
    agent: List[str] = typer.Option(["reference", "random"], "--agent",
                                    help="Agent(s) to evaluate: reference, random, hf, openai; repeatable."),
    model: Optional[str] = typer.Option(None, "--model", help="hf: local model directory ('tiny' = random "
                                        "tiny model; 'smollm2' = SmolLM2-135M-Instruct after 'compoworld "
                                        "models fetch smollm2'); openai: model name on the endpoint."),
    base_url: Optional[str] = typer.Option(None, "--base-url", help="openai: endpoint, e.g. "
                                           "http://localhost:8000/v1 (default $OPENAI_BASE_URL)."),
    tasks: Optional[Path] = typer.Option(None, "--tasks", help="JSONL task file (default: the built-in tasks)."),
    generate_n: Optional[int] = typer.Option(None, "--generate", min=1,
                                             help="Evaluate on N freshly generated tasks (seeded by --seed)."),
    k: int = typer.Option(1, "--k", min=1, help="Runs per task (pass@k, pass^k)."),
    tools: str = typer.Option("meta", "--tools", help="meta: the four meta-tools; flat: every mounted tool "
                              "offered directly (FlatTools; not with --ray)."),
    max_steps: int = typer.Option(40, "--max-steps", min=1, help="Step limit per episode."),
    seed: int = typer.Option(0, "--seed", min=0, help="Seed of the agents, env resets and --generate."),
    max_new_tokens: int = typer.Option(1024, "--max-new-tokens", min=1, help="hf/openai: tokens per turn."),
    temperature: float = typer.Option(0.0, "--temperature", min=0.0, help="hf/openai: sampling temperature."),
    threads: Optional[int] = typer.Option(None, "--threads", min=1, help="hf: torch CPU threads (default: "
                                          "torch's own, one per core). On a small or busy machine that "
                                          "oversubscribes: a tiny eval on 2 cores took 75 s by default, 22 s "
                                          "with 1 thread. Not passed to --ray workers."),
    out: Optional[Path] = typer.Option(None, "--out", help="Write trajectories (paper format) and metrics "
                                       "here: DIR/<agent>.jsonl, DIR/<agent>.metrics.json (each file "
                                       "appears only when complete)."),
    as_json: bool = typer.Option(False, "--json", help="Print one JSON object per agent (a list)."),
    use_ray: bool = typer.Option(False, "--ray", help="Spread the episodes over Ray workers (needs the ray extra): "
                                 "the same metrics and trajectories. Cluster: RAY_ADDRESS, else a local Ray "
                                 "for the run."),
    ray_address: RayAddress = None,
    ray_workers: RayWorkers = None,
) -> None:
    """Evaluate agents over tasks: success rate, mean rubric score, pass@k, pass^k.

    With --ray every worker builds its own env and agent (a model agent
    loads its model once per worker) and the episodes come back in order.
    """
    import contextlib

    from compoworld_gym.baselines.evaluate import TOOLS_MODES, evaluate_agent

    if tools not in TOOLS_MODES:
        raise fail(f"--tools must be one of {', '.join(TOOLS_MODES)}, got {tools!r}")
    if tools != "meta" and (use_ray or ray_address or ray_workers):
        raise fail(f"--tools {tools} does not run over --ray yet: drop --ray or use --tools meta")
    task_list = _eval_tasks(tasks, generate_n, seed)
    if out is not None:
        check_out_dir(out)
        for name in agent:
            check_out(out / f"{name}.jsonl")
            check_out(out / f"{name}.metrics.json")
    factories = [(name, _agent_factory(name, model, base_url, max_new_tokens, temperature, threads))
                 for name in agent]
    session = contextlib.ExitStack()
    run: Any = functools.partial(evaluate_agent, tools=tools)
    if use_ray or ray_address or ray_workers:
        run, factories = _ray_evaluation(session, factories, ray_address, ray_workers,
                                         model=model, base_url=base_url, max_new_tokens=max_new_tokens,
                                         temperature=temperature)
    reports = []
    with session:  # a Ray joined for --ray leaves when the last agent is done
        for name, factory in factories:
            record = out / f"{name}.jsonl" if out is not None else None
            try:
                with progress(name, total=len(task_list) * k) as bar:
                    metrics, _ = run(factory, task_list, k=k, max_steps=max_steps, seed=seed,
                                     on_episode=lambda _r: bar.advance(), record_path=record,
                                     source=f"compoworld-eval:{name}")
            except Exception as exc:
                problem = _connection_problem(exc)
                if problem is None:
                    raise
                raise fail(f"lost the connection to the OpenAI-compatible endpoint during the evaluation: "
                           f"{problem} (nothing written for agent {name!r})", 1) from None
            report = {"agent": name, **({"model": model} if name in ("hf", "openai") else {}),
                      **({"tools": tools} if tools != "meta" else {}), **metrics}
            reports.append(report)
            if out is not None:
                with atomic_writer(out / f"{name}.metrics.json") as fh:
                    fh.write(json.dumps(report, indent=2) + "\n")
    if as_json:
        print_json(reports if len(reports) > 1 else reports[0])
        return
    _print_reports(reports, f"{len(task_list)} tasks, k={k}")
    if out is not None:
        console.print(f"wrote trajectories and metrics to {out}/", markup=False, highlight=False)


def _ray_evaluation(session: Any, factories: list[tuple[str, Any]], address: Optional[str],
                    workers: Optional[int], *, model: Optional[str], base_url: Optional[str],
                    max_new_tokens: int, temperature: float) -> tuple[Any, list[tuple[str, Any]]]:
    """``(run, [(name, factory)])`` for ``--ray``: Ray is joined now (an unreachable cluster exits 2
    before any episode; it stays joined until ``session`` closes) and each factory becomes an
    :class:`~compoworld_gym.integrations.ray.AgentSpec` built on the workers as the plain run builds it."""
    import functools

    from compoworld_gym.integrations.ray import AgentSpec, RayClusterError, RayConfig, evaluate_agent_ray, ray_session

    try:
        with progress("starting Ray" if address is None else f"joining Ray at {address}", None):
            session.enter_context(ray_session(address))
    except RayClusterError as exc:
        raise fail(str(exc)) from None
    specs = []
    for name, _factory in factories:  # the factories were built only for their checks
        options: dict[str, Any] = {}
        if name in ("hf", "openai"):
            options = {"model": model, "temperature": temperature}
            options.update({"base_url": base_url, "max_tokens": max_new_tokens} if name == "openai"
                           else {"max_new_tokens": max_new_tokens})
        specs.append((name, AgentSpec(name, options)))
    return functools.partial(evaluate_agent_ray, ray_config=RayConfig(address=address, workers=workers)), specs


def _print_reports(reports: list[dict[str, Any]], title: str) -> None:
    """The metrics table of ``eval``, one row per agent."""
    table = Table(title=title)
    for col in ("agent", "success rate", "mean rubric score", "pass@k", "pass^k", "mean steps"):
        table.add_column(col, justify="right" if col != "agent" else "left", overflow="fold")
    for r in reports:
        table.add_row(r["agent"], f"{r['success_rate']:.3f}", f"{r['mean_rubric_score']:.3f}",
                      f"{r['pass_at_k']:.3f}", f"{r['pass_hat_k']:.3f}", f"{r['mean_steps']:.1f}")
    console.print(table)
