"""The zero-shot baseline table: a local model, no training, meta-tools vs flat tools.

One command measures it::

    python -m compoworld_gym.baselines.zero_shot --model smollm2 [--generated 50] [--seed 0] \\
        [--max-steps 8] [--max-new-tokens 256] [--json | --markdown] [--out DIR]

It runs the :class:`~compoworld_gym.baselines.hf_agent.HFAgent` (greedy
decoding, so the run is deterministic) on the built-in tasks and on
``--generated`` tasks of :func:`compoworld_gym.generation.generate_tasks`
(seeded by ``--seed``), each in meta-tool mode and in flat-tool mode
(:class:`~compoworld_gym.wrappers.FlatTools`): four cells. Per cell: success
rate, mean rubric score, mean steps, the share of turns that failed to parse,
the most common error codes of failed tool results
(:func:`compoworld_gym.baselines.evaluate.aggregate`), the prompt sizes, and
the wall time. ``docs/zero_shot.md`` defines every column.

A turn whose prompt leaves no room in the model's context for
``--max-new-tokens`` (``max_position_embeddings``; or a prompt over
``--max-prompt-tokens``) is not generated:
the agent ends the episode with an empty final answer (scored as usual) and
the episode counts as a context overflow. Flat mode offers every mounted tool
with its schema up front; that prompt can be several times a small model's
context.

With ``--out DIR``: ``DIR/zero_shot.json`` (the report), ``DIR/zero_shot.md``
(the table as Markdown) and ``DIR/<suite>-<tools>.jsonl`` (trajectories in the
paper's format). Needs the ``[train]`` extra.
"""

from __future__ import annotations

import sys
import time
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any, Callable, Literal, Optional, Sequence

import orjson

from compoworld_gym.baselines.config import documented
from compoworld_gym.baselines.evaluate import TOOLS_MODES, EpisodeResult, ToolsMode, evaluate_agent
from compoworld_gym.baselines.hf_agent import HFAgent  # torch is imported only when a model loads
from compoworld_gym.tasks import Task
from compoworld_gym.toolcall_parser import ParsedTurn

#: Error codes kept per cell in the table (the report keeps them all).
TOP_ERROR_CODES = 5
#: The task suites: the built-in tasks, and tasks of the generator.
Suite = Literal["builtin", "generated"]


@documented
@dataclass
class ZeroShotConfig:
    """Settings of the zero-shot table (``python -m compoworld_gym.baselines.zero_shot``).

    Raises:
        ValueError: a count that is not a positive int (``generated``,
            ``builtin`` and ``seed`` may be 0), an unknown tools mode, no task
            at all, or both ``json`` and ``markdown``.

    Example:
        >>> c = ZeroShotConfig()
        >>> c.model, c.generated, c.tools, c.max_steps, c.max_new_tokens
        ('smollm2', 50, ['meta', 'flat'], 8, 256)
        >>> ZeroShotConfig(tools=["mcp"])
        Traceback (most recent call last):
        ...
        ValueError: tools must be a non-empty list of meta, flat; got ['mcp']
    """

    model: str = field(default="smollm2", metadata={
        "help": "registry name (smollm2, after 'compoworld models fetch smollm2'), local model directory, "
                "or 'tiny' (random tiny test model)"})
    builtin: Optional[int] = field(default=None, metadata={
        "help": "use the first N built-in tasks (None: all of them)"})
    generated: int = field(default=50, metadata={"help": "generated tasks (generate_tasks(N, seed))"})
    seed: int = field(default=0, metadata={"help": "seed of task generation, env resets and the tiny model"})
    tools: list[str] = field(default_factory=lambda: list(TOOLS_MODES), metadata={
        "help": "tool modes to run: meta (four meta-tools), flat (every tool directly)"})
    max_steps: int = field(default=8, metadata={"help": "step limit per episode (agent turns)"})
    max_new_tokens: int = field(default=256, metadata={"help": "tokens generated per turn"})
    max_prompt_tokens: Optional[int] = field(default=None, metadata={
        "help": "longest prompt generated from, in tokens; a longer turn ends the episode (None: the "
                "model's max_position_embeddings less max_new_tokens)"})
    device: Optional[str] = field(default=None, metadata={"help": "torch device (None: CUDA when available)"})
    threads: int = field(default=1, metadata={
        "help": "torch CPU threads; 1 keeps the float reduction order fixed, and on a shared 2-core machine "
                "2 threads per process oversubscribe (decoding measured 15-30x slower)"})
    out: Optional[str] = field(default=None, metadata={
        "help": "write zero_shot.json, zero_shot.md and the trajectories here"})
    json: bool = field(default=False, metadata={"help": "print the report as JSON"})
    markdown: bool = field(default=False, metadata={"help": "print the table as Markdown"})

    def __post_init__(self) -> None:
        for name, low in (("max_steps", 1), ("max_new_tokens", 1), ("threads", 1), ("max_prompt_tokens", 1),
                          ("generated", 0), ("seed", 0), ("builtin", 0)):
            value = getattr(self, name)
            if value is None and name in ("max_prompt_tokens", "builtin"):
                continue
            if not isinstance(value, int) or isinstance(value, bool) or value < low:
                raise ValueError(f"{name} must be an int >= {low}, got {value!r}")
        bad = [t for t in self.tools if t not in TOOLS_MODES]
        if bad or not self.tools:
            raise ValueError(f"tools must be a non-empty list of {', '.join(TOOLS_MODES)}; got {self.tools!r}")
        if self.builtin == 0 and self.generated == 0:
            raise ValueError("no tasks: give --builtin > 0 or --generated > 0")
        if self.json and self.markdown:
            raise ValueError("give --json or --markdown, not both")


class ContextLimitedHFAgent(HFAgent):
    """An :class:`HFAgent` that ends the episode instead of generating from an over-long prompt.

    Per episode it records ``prompt_tokens`` (the rendered prompt's length
    of every turn, in tokens) and ``overflowed`` (a turn was refused).

    Args:
        *args, **kwargs: those of :class:`HFAgent`.
        max_prompt_tokens: the longest prompt generated from (default: the
            model's ``max_position_embeddings`` less ``max_new_tokens``, so
            the answer fits the context too).
    """

    def __init__(self, *args: Any, max_prompt_tokens: Optional[int] = None, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.max_prompt_tokens = max_prompt_tokens or max(
            1, int(self.model.config.max_position_embeddings) - self.max_new_tokens)
        self.prompt_tokens: list[int] = []
        self.overflowed = False

    def reset(self, observation: str, task: Any = None) -> None:
        super().reset(observation, task)
        self.prompt_tokens, self.overflowed = [], False

    def complete(self, messages: list[dict[str, Any]], tools: list[dict[str, Any]]) -> ParsedTurn:
        """The model's turn, or an empty final answer when the prompt is over the limit."""
        ids = self.tokenizer.apply_chat_template(
            messages, tools=tools, add_generation_prompt=True, tokenize=True, return_dict=False,
            **self.chat_template_kwargs)
        self.prompt_tokens.append(len(ids))
        if len(ids) > self.max_prompt_tokens:
            self.overflowed = True
            return ParsedTurn(final_answer="")  # the model cannot read its prompt: no answer
        return super().complete(messages, tools)


@dataclass
class EpisodeRow:
    """One episode of a cell.

    Attributes:
        task_id: the task; score: rubric score in [0, 1]; success: every item passed.
        steps: agent turns; parse_failures: turns the env could not parse.
        error_codes: codes of failed tool results, in call order.
        finish: ``"answer"``, ``"max_steps"`` or ``"context"`` (a prompt past the context).
        prompt_tokens: rendered prompt length of every turn, in tokens.
        seconds: wall time of the episode.
    """

    task_id: str
    score: float
    success: bool
    steps: int
    parse_failures: int
    error_codes: list[int]
    finish: Literal["answer", "max_steps", "context"]
    prompt_tokens: list[int]
    seconds: float


@dataclass
class Cell:
    """One (task suite, tools mode) cell of the table.

    Attributes:
        suite: ``"builtin"`` or ``"generated"``; tools: ``"meta"`` or ``"flat"``.
        tasks: episodes run (one per task).
        success_rate, mean_rubric_score, mean_steps, parse_failure_share: see
            :func:`compoworld_gym.baselines.evaluate.aggregate`.
        turns, parse_failures: their totals.
        error_codes: ``[[code, count], ...]``, most common first (the top
            :data:`TOP_ERROR_CODES`); all_error_codes: every code.
        context_overflows: episodes ended because a prompt exceeded the context.
        mean_first_prompt_tokens, max_prompt_tokens: prompt sizes, in tokens.
        wall_seconds: wall time of the cell; episodes: the rows.
    """

    suite: Suite
    tools: ToolsMode
    tasks: int
    success_rate: float
    mean_rubric_score: float
    mean_steps: float
    parse_failure_share: float
    turns: int
    parse_failures: int
    error_codes: list[list[int]]
    all_error_codes: dict[str, int]
    context_overflows: int
    mean_first_prompt_tokens: float
    max_prompt_tokens: int
    wall_seconds: float
    episodes: list[EpisodeRow]


@dataclass
class ModelInfo:
    """The model measured: ``name`` as given, ``path`` it resolved to, parameter count, context (tokens)."""

    name: str
    path: str
    parameters: int
    context_tokens: int
    max_prompt_tokens: int


@dataclass
class ZeroShotReport:
    """The whole run: settings, model, versions, cells, total wall time (seconds)."""

    settings: dict[str, Any]
    model: ModelInfo
    versions: dict[str, str]
    cells: list[Cell]
    wall_seconds: float

    def to_json(self) -> str:
        """The report as indented JSON (deterministic apart from the ``*seconds`` fields)."""
        return orjson.dumps(asdict(self), option=orjson.OPT_INDENT_2).decode()


def resolve(model: str) -> str:
    """``model`` as a loadable name or path: a registry name becomes its fetched directory
    (:func:`~compoworld_gym.baselines.hf_agent.check_model_path`, the check every ``--model`` gets).

    Raises:
        FileNotFoundError: an unknown name (with close matches), a missing
            model directory, or a registry name not fetched yet (the message
            names ``compoworld models fetch <name>``).
    """
    from compoworld_gym.baselines.hf_agent import check_model_path

    return check_model_path(model)


def task_suites(config: ZeroShotConfig) -> list[tuple[Suite, list[Task]]]:
    """``[("builtin", tasks), ("generated", tasks)]`` as configured (empty suites left out).

    Raises:
        ValueError: ``builtin`` exceeds the number of built-in tasks.
        compoworld_gym.generation.GenerationError: the generator failed.
    """
    from compoworld_gym.builtin_tasks import builtin_tasks
    from compoworld_gym.generation import generate_tasks

    builtin = builtin_tasks()
    n = len(builtin) if config.builtin is None else config.builtin
    if n > len(builtin):
        raise ValueError(f"builtin must be at most {len(builtin)} (the built-in tasks), got {n}")
    suites: list[tuple[Suite, list[Task]]] = [("builtin", builtin[:n])]
    if config.generated:
        suites.append(("generated", generate_tasks(config.generated, seed=config.seed)))
    return [(name, tasks) for name, tasks in suites if tasks]


def run_cell(agent: ContextLimitedHFAgent, suite: Suite, tools: ToolsMode, tasks: list[Task], config: ZeroShotConfig,
             record_path: Optional[Path] = None, on_episode: Optional[Callable[[EpisodeRow], None]] = None) -> Cell:
    """Run ``agent`` (a :class:`ContextLimitedHFAgent`) on ``tasks`` in one tools mode.

    Args:
        agent: the agent, reused for every episode.
        suite, tools: the cell's names (``tools``: ``"meta"`` or ``"flat"``).
        tasks: one episode each.
        config: step limit and seed.
        record_path: write the trajectories here (JSONL).
        on_episode: called with each finished row (progress).
    """
    rows: list[EpisodeRow] = []
    clock = [time.perf_counter()]

    def collect(r: EpisodeResult) -> None:  # runs before the next reset: the agent still holds this episode
        now = time.perf_counter()
        rows.append(EpisodeRow(
            task_id=r.task_id, score=r.score, success=r.success, steps=r.steps, parse_failures=r.parse_failures,
            error_codes=list(r.error_codes), finish="context" if agent.overflowed else r.finish_reason,
            prompt_tokens=list(agent.prompt_tokens), seconds=round(now - clock[0], 3)))
        clock[0] = now
        if on_episode is not None:
            on_episode(rows[-1])

    start = time.perf_counter()
    metrics, _ = evaluate_agent(lambda s: agent, tasks, max_steps=config.max_steps, seed=config.seed,
                                on_episode=collect, record_path=record_path, tools=tools,
                                source=f"compoworld-zero-shot:{config.model}")
    prompts = [r.prompt_tokens for r in rows if r.prompt_tokens]
    return Cell(
        suite=suite, tools=tools, tasks=len(rows), success_rate=metrics["success_rate"],
        mean_rubric_score=metrics["mean_rubric_score"], mean_steps=metrics["mean_steps"],
        parse_failure_share=metrics["parse_failure_share"], turns=metrics["turns"],
        parse_failures=metrics["parse_failures"],
        error_codes=[[int(c), n] for c, n in list(metrics["error_codes"].items())[:TOP_ERROR_CODES]],
        all_error_codes=metrics["error_codes"],
        context_overflows=sum(r.finish == "context" for r in rows),
        mean_first_prompt_tokens=sum(p[0] for p in prompts) / (len(prompts) or 1),
        max_prompt_tokens=max((max(p) for p in prompts), default=0),
        wall_seconds=round(time.perf_counter() - start, 3), episodes=rows)


def _versions() -> dict[str, str]:
    from importlib.metadata import version

    return {pkg: version(pkg) for pkg in ("compoworld-gym", "torch", "transformers")}  # torch loaded: all installed


def run_zero_shot(config: ZeroShotConfig, on_cell: Optional[Callable[[Cell], None]] = None,
                  on_episode: Optional[Callable[[EpisodeRow], None]] = None) -> ZeroShotReport:
    """Build the agent once, run every (suite, tools) cell, and return the report
    (also written under ``config.out``: see the module docstring).

    Args:
        config: the settings.
        on_cell: called with each finished :class:`Cell` (progress).
        on_episode: called with each finished :class:`EpisodeRow` (progress).

    Raises:
        FileNotFoundError: the model is not fetched / not a model directory.
        ValueError: see :class:`ZeroShotConfig` and :func:`task_suites`.
        ImportError: the ``[train]`` extra is missing.
    """
    import torch

    start = time.perf_counter()
    path = resolve(config.model)
    suites = task_suites(config)
    out = Path(config.out) if config.out else None
    if out is not None:
        out.mkdir(parents=True, exist_ok=True)
    threads = torch.get_num_threads()
    torch.set_num_threads(config.threads)
    try:
        agent = ContextLimitedHFAgent(path, max_new_tokens=config.max_new_tokens, temperature=0.0, seed=config.seed,
                                      device=config.device, max_prompt_tokens=config.max_prompt_tokens)
        cells = []
        for suite, tasks in suites:
            for tools in config.tools:
                record = out / f"{suite}-{tools}.jsonl" if out is not None else None
                cells.append(run_cell(agent, suite, tools, tasks, config, record, on_episode))  # type: ignore[arg-type]
                if on_cell is not None:
                    on_cell(cells[-1])
    finally:
        torch.set_num_threads(threads)  # a process-wide setting: leave it as it was
    info = ModelInfo(name=config.model, path=path, parameters=sum(p.numel() for p in agent.model.parameters()),
                     context_tokens=int(agent.model.config.max_position_embeddings),
                     max_prompt_tokens=agent.max_prompt_tokens)
    settings = {k: v for k, v in asdict(config).items() if k not in ("out", "json", "markdown", "device")}
    settings["temperature"] = 0.0
    report = ZeroShotReport(settings=settings, model=info, versions=_versions(), cells=cells,
                            wall_seconds=round(time.perf_counter() - start, 3))
    if out is not None:
        write_outputs(report, out)
    return report


# ----------------------------------------------------------------- rendering
COLUMNS = ("tasks", "tools", "n", "success", "mean rubric", "mean steps", "parse-fail share",
           "top error codes", "context overflows", "wall s")
_LEFT = ("tasks", "tools", "top error codes")


def _codes(cell: Cell) -> str:
    return ", ".join(f"{c}×{n}" for c, n in cell.error_codes) or "none"


def table_rows(report: ZeroShotReport) -> list[tuple[str, ...]]:
    """One row of :data:`COLUMNS` per cell, formatted."""
    return [(c.suite, c.tools, str(c.tasks), f"{c.success_rate:.3f}", f"{c.mean_rubric_score:.3f}",
             f"{c.mean_steps:.2f}", f"{c.parse_failure_share:.3f}", _codes(c),
             f"{c.context_overflows}/{c.tasks}", f"{c.wall_seconds:.0f}") for c in report.cells]


def settings_line(report: ZeroShotReport) -> str:
    """The model and settings behind the table, in one line."""
    s, m = report.settings, report.model
    return (f"model {m.name} ({m.path}, {m.parameters:,} parameters, context {m.context_tokens} tokens); "
            f"greedy, max {s['max_steps']} steps, {s['max_new_tokens']} new tokens per turn, seed {s['seed']}; "
            f"total {report.wall_seconds:.0f} s")


def to_markdown(report: ZeroShotReport) -> str:
    """The table as GitHub Markdown, the settings line under it."""
    lines = ["| " + " | ".join(COLUMNS) + " |", "|" + "|".join("---" for _ in COLUMNS) + "|"]
    lines += ["| " + " | ".join(row) + " |" for row in table_rows(report)]
    return "\n".join(lines) + "\n\n" + settings_line(report) + "\n"


def print_table(report: ZeroShotReport) -> None:
    """The table on the terminal (rich)."""
    from rich.console import Console
    from rich.table import Table

    table = Table(title="zero-shot baseline")
    for col in COLUMNS:
        table.add_column(col, justify="left" if col in _LEFT else "right", overflow="fold")
    for row in table_rows(report):
        table.add_row(*row)
    console = Console(width=None if sys.stdout.isatty() else 160)  # a pipe gets the whole table, unwrapped
    console.print(table)
    console.print(settings_line(report), markup=False, highlight=False)


def write_outputs(report: ZeroShotReport, out: Path) -> None:
    """``out/zero_shot.json`` and ``out/zero_shot.md``, each replaced only when complete."""
    from compoworld_gym.jsonl import atomic_writer

    for name, text in (("zero_shot.json", report.to_json() + "\n"), ("zero_shot.md", to_markdown(report))):
        with atomic_writer(out / name) as fh:
            fh.write(text)


def main(argv: Optional[Sequence[str]] = None) -> int:
    """The command line; returns the exit status (2: a bad setting, a missing model or an unwritable ``--out``)."""
    from compoworld_gym.baselines.agents import agent_class
    from compoworld_gym.baselines.composition_benchmark import check_out_arg
    from compoworld_gym.baselines.config import parse_args
    from compoworld_gym.generation import GenerationError

    def log(text: str) -> None:  # progress on stderr, so --json / --markdown output stays clean
        print(text, file=sys.stderr, flush=True)

    try:
        agent_class("hf")  # a missing [train] extra is one line, before any work
        (config,) = parse_args([ZeroShotConfig], argv, description=__doc__.split("\n\n")[0])
        if config.out:
            try:
                check_out_arg(Path(config.out))  # now, not when the first cell's trajectories are written
            except SystemExit as exc:  # the line is printed
                return int(exc.code or 2)
        report = run_zero_shot(
            config, on_episode=lambda e: log(f"  {e.task_id}: score {e.score:.3f}, {e.steps} steps, {e.finish}, "
                                             f"{e.seconds:.1f} s"),
            on_cell=lambda c: log(f"{c.suite}/{c.tools}: {c.tasks} tasks, success {c.success_rate:.3f}, "
                                  f"{c.wall_seconds:.0f} s"))
    except (ValueError, FileNotFoundError, ImportError, GenerationError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    if config.json:
        sys.stdout.write(report.to_json() + "\n")
    elif config.markdown:
        sys.stdout.write(to_markdown(report))
    else:
        print_table(report)
    return 0


__all__ = ["Cell", "ContextLimitedHFAgent", "EpisodeRow", "ModelInfo", "ZeroShotConfig", "ZeroShotReport", "main",
           "run_cell", "run_zero_shot", "task_suites", "to_markdown"]

if __name__ == "__main__":
    sys.exit(main())
