"""The ``compoworld`` command line."""

from __future__ import annotations

import json
import signal
import sys
from pathlib import Path
from typing import List, Optional

import rich.markup
import typer
from rich.console import Console
from rich.table import Table

app = typer.Typer(add_completion=False, no_args_is_help=True,
                  help="compoworld-gym: composed, verified tool-use environments for LLM agents.")
console = Console()
errors = Console(stderr=True, soft_wrap=True)


def _fail(message: str, code: int = 2) -> "typer.Exit":
    """Print ``error: message`` on stderr (unwrapped) and return the Exit to raise."""
    errors.print(f"[red]error:[/red] {rich.markup.escape(message)}", highlight=False)
    return typer.Exit(code)


def _print_json(obj: object) -> None:
    sys.stdout.write(json.dumps(obj, indent=2, sort_keys=False, default=str) + "\n")


@app.command()
def services(as_json: bool = typer.Option(False, "--json", help="Print JSON instead of a table.")) -> None:
    """List the services in the catalog, with tool counts and spec sources."""
    from compoworld_gym.catalog import get_service, service_names, service_summary

    rows = [service_summary(get_service(n)) for n in service_names()]
    if as_json:
        _print_json(rows)
        return
    table = Table(title=f"{len(rows)} services, {sum(r['tools'] for r in rows)} tools")
    for col in ("name", "domain", "tools", "simulated", "spec_source"):
        table.add_column(col)
    for r in rows:
        table.add_row(r["name"], r["domain"], str(r["tools"]), str(r["simulated_tools"]), r["spec_source"] or "-")
    console.print(table)


def _load_tasks(tasks_file: Optional[Path]):
    from compoworld_gym.builtin_tasks import builtin_tasks
    from compoworld_gym.tasks import TaskFileError, load_tasks

    if tasks_file is None:
        return builtin_tasks()
    if tasks_file.is_dir():
        raise _fail(f"{tasks_file} is a directory, not a JSONL task file")
    try:
        tasks = load_tasks(tasks_file)
    except (TaskFileError, OSError) as exc:
        raise _fail(f"{exc}") from None
    if not tasks:
        raise _fail(f"{tasks_file} holds no tasks")
    return tasks


def _check_out(path: Path) -> Path:
    """Fail early (before any work) when ``path`` cannot be written as a file."""
    if path.is_dir():
        raise _fail(f"{path} is a directory; give a file path")
    if not path.parent.exists():
        raise _fail(f"directory {path.parent} does not exist")
    return path


def _eval_tasks(tasks_file: Optional[Path], generate_n: Optional[int], seed: int):
    """The task list of ``eval``: a file, freshly generated tasks, or the built-ins."""
    if tasks_file is not None and generate_n is not None:
        console.print("[red]error:[/red] give either --tasks or --generate, not both")
        raise typer.Exit(2)
    if generate_n is None:
        return _load_tasks(tasks_file)
    from compoworld_gym.generation import GenerationError, generate_tasks

    try:
        with console.status(f"generating {generate_n} tasks (seed {seed})", spinner="dots"):
            return generate_tasks(generate_n, seed)
    except GenerationError as exc:
        raise _fail(f"{exc}") from None


def _agent_factory(name: str, model: Optional[str], base_url: Optional[str], max_new_tokens: int,
                   temperature: float):
    """``seed -> agent``; model-backed agents are built once and reseeded."""
    from compoworld_gym.baselines.agents import agent_class, make_agent

    try:
        agent_class(name)
    except ValueError as exc:
        raise _fail(f"{exc}") from None
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
        raise _fail(f"--agent {name} needs --model")
    kwargs = {"model": model, "temperature": temperature}
    if name == "openai":
        kwargs.update(base_url=base_url, max_tokens=max_new_tokens)
    else:
        kwargs.update(max_new_tokens=max_new_tokens)
    try:
        agent = make_agent(name, **kwargs)
    except (ValueError, OSError) as exc:
        raise _fail(f"cannot build agent {name!r}: {exc}") from None

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
        _print_json(reports if len(reports) > 1 else reports[0])
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


@app.command()
def tasks(
    out: Optional[Path] = typer.Option(None, "--out", help="Write the built-in tasks as JSONL here."),
    as_json: bool = typer.Option(False, "--json", help="Print a JSON summary."),
) -> None:
    """List (or export) the built-in tasks."""
    from compoworld_gym.builtin_tasks import builtin_tasks
    from compoworld_gym.tasks import save_tasks

    task_list = builtin_tasks()
    if out is not None:
        n = save_tasks(task_list, _check_out(out))
        console.print(f"wrote {n} tasks to {out}")
        return
    rows = [{"id": t.id, "services": t.services, "domain": t.domain, "capabilities": t.capabilities,
             "checks": len(t.checks)} for t in task_list]
    if as_json:
        _print_json(rows)
        return
    table = Table(title=f"{len(rows)} built-in tasks")
    for col in ("id", "services", "domain", "checks", "capabilities"):
        table.add_column(col)
    for r in rows:
        table.add_row(r["id"], ", ".join(r["services"]), r["domain"], str(r["checks"]), ", ".join(r["capabilities"]))
    console.print(table)


@app.command()
def play(
    task: Optional[str] = typer.Option(None, "--task", help="Task id (default: the first built-in task)."),
    tasks_file: Optional[Path] = typer.Option(None, "--tasks", help="JSONL task file."),
    max_steps: int = typer.Option(40, "--max-steps", min=1),
) -> None:
    """Play a task by hand: type JSON meta-tool calls, or plain text to answer."""
    from compoworld_gym.envs.compoworld_env import CompoWorldEnv

    pool = _load_tasks(tasks_file)
    env = CompoWorldEnv(tasks=pool, max_steps=max_steps)
    try:
        obs, _ = env.reset(seed=0, options={"task": task if task else 0})
    except ValueError as exc:
        raise _fail(f"{exc}") from None
    prompt = json.loads(obs)
    for m in prompt["messages"]:
        console.print(f"[bold]{m['role']}[/bold]: {m['content']}\n")
    console.print('Actions: {"name": "list_services"} | {"name": "call_tool", "arguments": '
                  '{"tool_name": ..., "arguments": {...}}} | plain text = final answer')
    while True:
        try:
            action = input("> ")
        except EOFError:
            action = ""
        obs, reward, terminated, truncated, info = env.step(action)
        console.print(obs, markup=False)
        if terminated or truncated:
            console.print(f"reward {reward:.3f}")
            for r in info["rubric"]:
                console.print(f"  [{'x' if r['passed'] else ' '}] {r['id']}: {r['description']}", markup=False)
            return


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

    _check_out(out)
    if composition_out is not None:
        _check_out(composition_out)
    g = build_graph()
    summary = graph_summary(g, k=k)
    summary["picture"] = str(draw_graph(out, g))
    if composition_out is not None:
        rng = random.Random(seed)
        comp = add_distractors(random_walk(g, rng, k), service_names(), rng)
        summary["composition"] = {"id": comp.id, "slug": comp.slug, "picture": str(draw_composition(comp, composition_out))}
    if as_json:
        _print_json(summary)
        return
    cands = summary["candidate_compositions"]
    console.print(f"{summary['services']} services, {summary['edges']} edges "
                  f"({summary['typed_edges']} typed), {len(summary['entity_types'])} entity types; "
                  f"candidate compositions of {k}: {cands}")
    console.print(f"wrote {summary['picture']}" + (f" and {summary['composition']['picture']}"
                                                   if "composition" in summary else ""))


@app.command()
def generate(
    n: int = typer.Option(100, "--n", min=0, help="Number of verified tasks."),
    seed: int = typer.Option(0, "--seed", min=0, help="Generation seed (same seed, same tasks)."),
    out: Path = typer.Option(Path("tasks.jsonl"), "--out", help="Output JSONL task file."),
    services: Optional[str] = typer.Option(None, "--services", help="Services per task: N or LO-HI (default 3-7)."),
    designer: str = typer.Option("offline", "--designer",
                                 help="Who writes instructions: offline (templates, deterministic) or openai."),
    base_url: Optional[str] = typer.Option(None, "--base-url", help="OpenAI-compatible endpoint for --designer openai."),
    model: Optional[str] = typer.Option(None, "--model", help="Model name for --designer openai."),
    api_key: str = typer.Option("EMPTY", "--api-key", envvar="OPENAI_API_KEY", help="Key for --designer openai."),
    designer_timeout: float = typer.Option(30.0, "--designer-timeout", min=1.0,
                                           help="Seconds per --designer openai request (one retry)."),
    metrics: bool = typer.Option(False, "--metrics", help="Also measure the chain figures (replays every task)."),
    as_json: bool = typer.Option(False, "--json", help="Print generation statistics as JSON."),
) -> None:
    """Generate verified chained tasks: a random walk over the services' records, then explore/design/verify/submit.

    Tasks stream to a temporary file beside --out that replaces it only when
    every task is written: an interrupted run leaves the old file as it was.
    """
    from rich.progress import Progress

    from compoworld_gym.generation import ConfigError, GenerationConfig, GenerationError, GenerationStats, iter_tasks
    from compoworld_gym.generation.designer import DesignerError, get_designer
    from compoworld_gym.jsonl import atomic_writer

    _check_out(out)
    try:
        span = _services_range(services)
        cfg = GenerationConfig() if span is None else GenerationConfig(services=span)
        write_instruction = get_designer(designer, base_url=base_url, model=model, api_key=api_key,
                                         timeout=designer_timeout)
    except (ConfigError, DesignerError) as exc:
        raise _fail(str(exc)) from None
    stats = GenerationStats()
    kept = []
    try:
        # SIGTERM unwinds like Ctrl-C, so the temporary file is removed and --out is untouched.
        signal.signal(signal.SIGTERM, _terminate)
        with Progress(console=Console(stderr=True), transient=True) as progress, atomic_writer(out) as sink:
            bar = progress.add_task("generating", total=n)
            for k, task in enumerate(iter_tasks(n, seed, cfg, stats=stats, designer=write_instruction), 1):
                sink.write(task.to_json() + "\n")
                if metrics:
                    kept.append(task)
                progress.update(bar, completed=k)
    except (GenerationError, DesignerError) as exc:
        raise _fail(f"{exc} ({out} left unchanged)") from None
    summary = {"out": str(out), **stats.summary()}
    if metrics:
        from compoworld_gym.generation.metrics import chain_metrics

        summary["chain"] = chain_metrics(kept)
    if as_json:
        _print_json(summary)
        return
    console.print(f"wrote {summary['tasks']} verified tasks to {out} ({summary.get('compositions')} compositions)")


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
        raise _fail(f"--services takes N or LO-HI (e.g. 3-5), got {text!r}") from None
    if span[1] > len(service_names()):
        raise _fail(f"--services {text}: the library has only {len(service_names())} services")
    return span


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
    report = run_fuzz(examples, seed, **kwargs)
    if as_json:
        _print_json(report)
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
        _print_json(report)
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


@app.command("import-mcp")
def import_mcp_cmd(
    source: Optional[str] = typer.Argument(None, help="JSONL file of MCP server specs, an http(s):// URL of "
                                                      "a streamable-HTTP server, or a stdio command line "
                                                      "(default: the bundled 420-server spec file)."),
    as_json: bool = typer.Option(False, "--json", help="Print the import figures as JSON."),
) -> None:
    """Import MCP servers as services: deterministic resource tools, the rest simulated."""
    from compoworld_gym.importer import import_mcp
    from compoworld_gym.importer.specs import SpecSourceError
    from compoworld_gym.specs import SPECS_PATH

    try:
        report = import_mcp(source or str(SPECS_PATH))
    except (SpecSourceError, FileNotFoundError) as exc:
        raise _fail(f"{exc}") from None
    if not report["servers"]:
        raise _fail(f"no MCP servers found in {source or SPECS_PATH}")
    report = {k: v for k, v in report.items() if k != "services"}
    if as_json:
        _print_json(report)
        return
    share = report["deterministic_tools"] / report["tools"] if report["tools"] else 0.0
    console.print(f"imported {report['servers']} servers, {report['tools']} tools: "
                  f"{report['deterministic_tools']} deterministic ({share:.1%}), "
                  f"{report['simulated_tools']} simulated, {report['invalid_schemas']} invalid schemas, "
                  f"{report['seconds']:.1f} s")


@app.command()
def serve(
    task: Optional[str] = typer.Option(None, "--task", help="Task id (default: the first task)."),
    tasks_file: Optional[Path] = typer.Option(None, "--tasks", help="JSONL task file (default: built-in)."),
    mode: str = typer.Option("meta", "--mode", help="'meta' (four meta-tools) or 'flat' (every tool)."),
) -> None:
    """Serve a task's composition as an MCP server over stdio."""
    from compoworld_gym.mcp_bridge import serve_stdio

    pool = _load_tasks(tasks_file)
    chosen = next((t for t in pool if t.id == task), None) if task else pool[0]
    if chosen is None:
        raise _fail(f"unknown task {task!r}")
    if mode not in ("meta", "flat"):
        raise _fail(f"--mode must be 'meta' or 'flat', got {mode!r}")
    serve_stdio(chosen, mode)  # type: ignore[arg-type]


def main() -> None:
    """Console-script entry point."""
    app()


if __name__ == "__main__":
    main()
