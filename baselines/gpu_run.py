"""One command for one GPU: SFT then GRPO (vLLM colocate) of SmolLM2 on generated tasks, in minutes.

Tasks: 64 training and 16 held-out generated chained tasks (distinct seeds; the
short, discovery-free variant of :func:`.composition_tasks.composed_tasks`, so an
episode fits a 135M model's context). Held-out evaluation (greedy, batched over
the tasks: one ``generate`` call per turn through the GRPO rollout code) before
training, during and after SFT (:mod:`.sft`, bf16, 2 epochs of reference runs),
and at the midpoint and end of GRPO (:mod:`.grpo`, 4 tasks x 8 rollouts, 30
steps, completion-focused reward, TRL's colocated vLLM engine). ``--minutes``
(default 10) is a budget guard: SFT must end by :data:`SFT_SHARE` of it, GRPO by
:data:`GRPO_SHARE`; a trainer past its deadline stops after its current step
(``stopped_early``). Not yet run on a GPU by us: see ``docs/gpu.md``.

On a GPU (``trl[vllm]`` brings a vLLM that TRL supports)::

    pip install "trl[vllm]>=1.16,<2" && pip install -e ".[train,viz]"
    compoworld models fetch smollm2
    python -m compoworld_gym.baselines.gpu_run --model smollm2 --out runs/gpu

CPU check (CI; the tiny random model, 2 + 1 tasks, one SFT and one GRPO step, no vLLM)::

    python -m compoworld_gym.baselines.gpu_run --dry-run --out runs/gpu-dry

Writes ``DIR/metrics.json`` and ``DIR/curves.png`` (each atomically); ``--json``
prints only the metrics JSON on stdout.
"""

from __future__ import annotations

import argparse
import contextlib
import dataclasses
import json
import math
import os
import platform
import statistics
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from types import SimpleNamespace
from typing import Any, Callable, Optional, Sequence

from compoworld_gym.baselines.config import RolloutConfig
from compoworld_gym.baselines.grpo import GroupedRollout, task_prompt
from compoworld_gym.tasks import Task

#: Share of the budget by which SFT (and the evaluations before and during it) must end.
SFT_SHARE = 0.35
#: Share of the budget by which GRPO (vLLM start-up and its midpoint evaluation included) must end.
GRPO_SHARE = 0.85
NO_GPU = "no CUDA device; use --dry-run for the CPU check"
NO_VLLM = "vLLM cannot be imported ({}); the GPU run generates with it: pip install vllm"


@dataclass(frozen=True)
class RunSettings:
    """Sizes of one run (the GPU defaults; :data:`DRY_RUN` for the CPU check).

    Raises:
        ValueError: a count < 1, a rate <= 0, or a memory share outside (0, 1).
    """

    n_train: int = field(default=64, metadata={"help": "generated training tasks"})
    n_heldout: int = field(default=16, metadata={"help": "generated held-out tasks"})
    train_seed: int = field(default=0, metadata={"help": "generation seed of the training tasks"})
    heldout_seed: int = field(default=1, metadata={"help": "generation seed of the held-out tasks"})
    sft_epochs: int = field(default=2, metadata={"help": "SFT epochs over the reference runs"})
    sft_batch: int = field(default=4, metadata={"help": "SFT sequences per step"})
    sft_lr: float = field(default=1e-4, metadata={"help": "SFT peak learning rate (cosine)"})
    sft_checkpoints: int = field(default=2, metadata={"help": "held-out evaluations during SFT (last: its end)"})
    grpo_steps: int = field(default=30, metadata={"help": "GRPO optimizer steps"})
    groups: int = field(default=4, metadata={"help": "tasks per GRPO step"})
    group_size: int = field(default=8, metadata={"help": "rollouts per task"})
    grpo_lr: float = field(default=2e-6, metadata={"help": "GRPO learning rate"})
    max_steps: int = field(default=12, metadata={"help": "env steps per episode (evaluation and rollouts)"})
    max_new_tokens: int = field(default=192, metadata={"help": "tokens generated per turn"})
    max_completion_tokens: int = field(default=4096, metadata={"help": "completion tokens per episode"})
    temperature: float = field(default=0.8, metadata={"help": "sampling temperature of the rollouts"})
    vllm_memory: float = field(default=0.3, metadata={"help": "GPU memory share of the vLLM engine"})

    def __post_init__(self) -> None:
        for f in dataclasses.fields(self):
            if f.type == "int" and getattr(self, f.name) < (0 if f.name.endswith("seed") else 1):
                raise ValueError(f"{f.name} must be >= 1, got {getattr(self, f.name)}")
        if not (self.sft_lr > 0 and self.grpo_lr > 0 and self.temperature > 0 and 0 < self.vllm_memory < 1):
            raise ValueError("sft_lr, grpo_lr and temperature must be > 0 and vllm_memory in (0, 1)")


#: ``--dry-run``: the whole pipeline at toy scale on a CPU (numbers meaningless).
DRY_RUN = RunSettings(n_train=2, n_heldout=1, sft_epochs=1, sft_batch=2, sft_checkpoints=1, grpo_steps=1,
                      groups=1, group_size=2, max_steps=2, max_new_tokens=16, max_completion_tokens=512)


@dataclass
class TrainConfigs:
    """What :func:`build_configs` returns: TRL's ``SFTConfig`` and ``GRPOConfig``, the rollout settings."""

    sft: Any
    grpo: Any
    rollout: RolloutConfig
    sft_steps: int


def build_configs(s: RunSettings, out: str, gpu: bool) -> TrainConfigs:
    """The trainers' configs of a run, built without training (``gpu``: bf16 and vLLM colocate)."""
    from compoworld_gym.baselines.grpo import grpo_config
    from compoworld_gym.baselines.sft import sft_config

    sft_steps = max(1, math.ceil(s.sft_epochs * s.n_train / s.sft_batch))
    # A 135M model fits without gradient checkpointing, which would only slow it; the dry run stays on CPU.
    common = dict(disable_tqdm=True, gradient_checkpointing=False, **({} if gpu else dict(use_cpu=True, bf16=False)))
    sft = sft_config(os.path.join(out, "sft"), max_steps=sft_steps, learning_rate=s.sft_lr, lr_scheduler_type="cosine",
                     warmup_steps=max(1, sft_steps // 10), per_device_train_batch_size=s.sft_batch, **common)
    vllm = dict(use_vllm=True, vllm_mode="colocate", vllm_gpu_memory_utilization=s.vllm_memory,
                max_completion_length=s.max_new_tokens) if gpu else {}
    # One group per micro-batch, one optimizer step (and one generation batch) per `groups` of them.
    grpo = grpo_config(os.path.join(out, "grpo"), s.groups, s.group_size, max_steps=s.grpo_steps,
                       learning_rate=s.grpo_lr, temperature=s.temperature, per_device_train_batch_size=s.group_size,
                       gradient_accumulation_steps=s.groups, **vllm, **common)
    rollout = RolloutConfig(max_turns=s.max_steps, max_new_tokens=s.max_new_tokens,
                            max_completion_tokens=s.max_completion_tokens, reward="completion_focused",
                            temperature=s.temperature)
    return TrainConfigs(sft, grpo, rollout, sft_steps)


class GreedyRollout(GroupedRollout):
    """:class:`GroupedRollout` decoding greedily with ``model`` (batched held-out evaluation)."""

    def __init__(self, tasks: Sequence[Task], tokenizer: Any, model: Any, config: RolloutConfig) -> None:
        super().__init__(tasks, tokenizer, config)
        self.model = model

    def _generate(self, trainer: Any, inputs: list[list[int]]) -> tuple[list[list[int]], list[list[float]]]:
        import torch

        pad, eos, width = self.tokenizer.pad_token_id, self.tokenizer.eos_token_id, max(len(x) for x in inputs)
        ids = torch.tensor([[pad] * (width - len(x)) + x for x in inputs], device=self.model.device)
        mask = torch.tensor([[0] * (width - len(x)) + [1] * len(x) for x in inputs], device=self.model.device)
        with torch.no_grad():
            out = self.model.generate(input_ids=ids, attention_mask=mask, max_new_tokens=self.config.max_new_tokens,
                                      do_sample=False, temperature=None, top_p=None, top_k=None,
                                      pad_token_id=pad, eos_token_id=eos)
        rows = [r[:r.index(eos) + 1] if eos in r else [t for t in r if t != pad] for r in out[:, width:].tolist()]
        return rows, [[0.0] * len(r) for r in rows]


def evaluate_heldout(model: Any, tokenizer: Any, tasks: Sequence[Task], s: RunSettings) -> dict[str, float]:
    """Greedy held-out ``{"success", "mean_rubric", "mean_turns"}``: one episode per task, all in one batch."""
    was_training = model.training
    model.eval()
    try:
        cfg = RolloutConfig(max_turns=s.max_steps, max_new_tokens=s.max_new_tokens,
                            max_completion_tokens=s.max_completion_tokens, reward="binary")
        out = GreedyRollout(tasks, tokenizer, model, cfg)(
            [task_prompt(t) for t in tasks], SimpleNamespace(model=model, num_generations=1, num_generations_eval=1))
    finally:
        model.train(was_training)
    return {"success": round(statistics.fmean(out["env_reward"]), 4),  # binary reward: every item passed
            "mean_rubric": round(statistics.fmean(out["rubric_score"]), 4),
            "mean_turns": round(statistics.fmean(out["num_turns"]), 2)}


def _train_phase(trainer: Any, marks: dict[int, str], measure: Callable[[str, int], None], until: float) -> bool:
    """Train, evaluating at ``marks`` ({step: label}); stop after the step that passes ``until``
    (``time.monotonic()``). Returns whether it stopped early."""
    from transformers import TrainerCallback

    stopped: list[int] = []

    class Guard(TrainerCallback):
        def on_step_end(self, args: Any, state: Any, control: Any, **kw: Any) -> None:
            if state.global_step in marks:
                measure(marks[state.global_step], state.global_step)
            if time.monotonic() >= until and state.global_step < state.max_steps:
                control.should_training_stop = True
                stopped.append(state.global_step)

    trainer.add_callback(Guard())
    trainer.train()
    return bool(stopped)


def make_tasks(s: RunSettings) -> tuple[list[Task], list[Task]]:
    """``(train, heldout)``: generated with distinct seeds; a held-out task whose instruction a
    training task shares is dropped."""
    from compoworld_gym.baselines.composition_tasks import composed_tasks

    train = [c.task for c in composed_tasks(s.n_train, s.train_seed)]
    seen = {t.instruction for t in train}
    return train, [c.task for c in composed_tasks(s.n_heldout, s.heldout_seed) if c.task.instruction not in seen]


def run(s: RunSettings, model_name: str, gpu: bool, minutes: float) -> dict[str, Any]:
    """The whole pipeline (see the module docstring); returns the metrics."""
    import torch

    from compoworld_gym.baselines.grpo import make_grpo_trainer
    from compoworld_gym.baselines.hf_agent import load_model
    from compoworld_gym.baselines.sft import build_sft_dataset, make_sft_trainer, reference_trajectories, successful

    start = time.monotonic()
    torch.manual_seed(0)
    train, heldout = make_tasks(s)
    model, tok = load_model(model_name, device="cuda" if gpu else "cpu")
    data = build_sft_dataset(successful(reference_trajectories(train)))
    seconds = {"setup": time.monotonic() - start, "eval": 0.0}
    curve: list[dict[str, Any]] = []

    def measure(point: str, sft_steps: int, grpo_steps: int) -> None:
        t0 = time.monotonic()
        m = evaluate_heldout(model, tok, heldout, s)
        curve.append({"point": point, "sft_steps": sft_steps, "grpo_steps": grpo_steps, **m,
                      "seconds": round(time.monotonic() - t0, 1)})
        seconds["eval"] += time.monotonic() - t0

    measure("before", 0, 0)
    stopped: dict[str, bool] = {}
    with tempfile.TemporaryDirectory() as tmp:
        cfgs = build_configs(s, tmp, gpu)
        t0, e0 = time.monotonic(), seconds["eval"]
        sft = make_sft_trainer(model, tok, data, args=cfgs.sft)
        c, n = s.sft_checkpoints, cfgs.sft_steps
        marks = {round(n * k / c): f"sft {k}/{c}" for k in range(1, c)}
        stopped["sft"] = _train_phase(sft, marks, lambda p, i: measure(p, i, 0), start + minutes * 60 * SFT_SHARE)
        sft_done = sft.state.global_step
        measure("sft end", sft_done, 0)
        seconds["sft"] = time.monotonic() - t0 - (seconds["eval"] - e0)
        t0, e0 = time.monotonic(), seconds["eval"]
        grpo = make_grpo_trainer(model, tok, train, cfgs.grpo, cfgs.rollout)
        mid = {s.grpo_steps // 2: "grpo mid"} if s.grpo_steps >= 2 else {}
        stopped["grpo"] = _train_phase(grpo, mid, lambda p, i: measure(p, sft_done, i),
                                       start + minutes * 60 * GRPO_SHARE)
        seconds["grpo"] = time.monotonic() - t0 - (seconds["eval"] - e0)
        measure("grpo end", sft_done, grpo.state.global_step)
    seconds["total"] = time.monotonic() - start
    return {
        "settings": {**dataclasses.asdict(s), "model": model_name, "dry_run": not gpu, "minutes": minutes,
                     "device": torch.cuda.get_device_name(0) if gpu else "cpu", "sft_steps_planned": cfgs.sft_steps},
        "versions": versions(),
        "tasks": {"train": len(train), "heldout": len(heldout), "sft_conversations": len(data)},
        "curve": curve,
        "sft_losses": [round(float(h["loss"]), 4) for h in sft.state.log_history if "loss" in h],
        "grpo_rewards": [round(float(h["reward"]), 4) for h in grpo.state.log_history if "reward" in h],
        "stopped_early": stopped,
        "seconds": {k: round(v, 1) for k, v in seconds.items()},
        "within_budget": seconds["total"] <= minutes * 60,
    }


def versions() -> dict[str, Optional[str]]:
    """Python's version and those of the libraries the run uses (None: not installed)."""
    import importlib.metadata as md

    def version(pkg: str) -> Optional[str]:
        try:
            return md.version(pkg)
        except md.PackageNotFoundError:
            return None

    return {"python": platform.python_version(),
            **{p: version(p) for p in ("torch", "transformers", "trl", "vllm", "compoworld-gym")}}


def plot(metrics: dict[str, Any], path: Path) -> None:
    """Held-out curves, SFT loss and GRPO reward as one PNG (written to a temp name, then renamed)."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    from compoworld_gym.graph import save_figure

    fig, (held, loss, reward) = plt.subplots(1, 3, figsize=(14, 4))
    x = [p["sft_steps"] + p["grpo_steps"] for p in metrics["curve"]]
    for key in ("mean_rubric", "success"):
        held.plot(x, [p[key] for p in metrics["curve"]], marker="o", label=key.replace("_", " "))
    held.axvline(metrics["curve"][-1]["sft_steps"], color="grey", linestyle=":", label="SFT -> GRPO")
    held.set(title="held-out (greedy)", xlabel="optimizer steps (SFT, then GRPO)", ylim=(-0.02, 1.02))
    held.legend()
    loss.plot(range(1, len(metrics["sft_losses"]) + 1), metrics["sft_losses"], marker=".")
    loss.set(title="SFT training loss", xlabel="SFT step")
    reward.plot(range(1, len(metrics["grpo_rewards"]) + 1), metrics["grpo_rewards"], marker=".")
    reward.set(title="GRPO mean reward (completion-focused)", xlabel="GRPO step")
    fig.suptitle(f"{metrics['settings']['model']} on {metrics['settings']['device']}")
    save_figure(fig, path)


def write_outputs(metrics: dict[str, Any], out: Path) -> None:
    """``metrics.json`` and ``curves.png`` under ``out``, each replaced only once complete."""
    from compoworld_gym.jsonl import atomic_writer

    out.mkdir(parents=True, exist_ok=True)
    with atomic_writer(out / "metrics.json") as fh:
        fh.write(json.dumps(metrics, indent=2) + "\n")
    plot(metrics, out / "curves.png")


def summary(metrics: dict[str, Any]) -> str:
    """A few lines: the held-out curve, the phases' seconds, early stops."""
    return "\n".join([f"{p['point']:>9}: held-out success {p['success']:.3f}, mean rubric {p['mean_rubric']:.3f}"
                      for p in metrics["curve"]] + [f"seconds {metrics['seconds']}; stopped early "
                                                    f"{metrics['stopped_early']}"])


def parse_cli(argv: Optional[Sequence[str]] = None) -> argparse.Namespace:
    """The command line: ``--model``, ``--out``, ``--minutes``, ``--dry-run``, ``--json`` and one flag
    per :class:`RunSettings` field; ``.settings`` holds the resolved :class:`RunSettings`.

    Raises:
        SystemExit: a bad flag or value (argparse's usage error, exit 2).
    """
    p = argparse.ArgumentParser(description="SFT then GRPO (vLLM colocate) of SmolLM2 on one GPU, in minutes.")
    p.add_argument("--model", default=None, help="model (default: smollm2; tiny with --dry-run)")
    p.add_argument("--out", type=Path, required=True, help="write metrics.json and curves.png here")
    p.add_argument("--minutes", type=float, default=10.0, help="wall-clock budget of the whole run (default 10)")
    p.add_argument("--dry-run", action="store_true", help="CPU check: tiny model, toy sizes, no vLLM")
    p.add_argument("--json", action="store_true", help="print the metrics as JSON (and nothing else on stdout)")
    fields = dataclasses.fields(RunSettings)
    for f in fields:
        p.add_argument(f"--{f.name.replace('_', '-')}", type=type(f.default), default=None,
                       help=f"{f.metadata['help']} (default {f.default}; dry run {getattr(DRY_RUN, f.name)})")
    a = p.parse_args(argv)
    if not a.minutes > 0:
        p.error(f"--minutes must be > 0, got {a.minutes}")
    given = {f.name: getattr(a, f.name) for f in fields if getattr(a, f.name) is not None}
    try:
        a.settings = dataclasses.replace(DRY_RUN if a.dry_run else RunSettings(), **given)
    except ValueError as exc:
        p.error(str(exc))
    a.model = a.model or ("tiny" if a.dry_run else "smollm2")
    return a


def _refuse(message: str) -> None:
    """One ``error:`` line on stderr, exit status 2 (the CLI's user-error convention)."""
    print(f"error: {message}", file=sys.stderr)
    raise SystemExit(2)


def main(argv: Optional[Sequence[str]] = None) -> None:
    """Command-line entry point (see the module docstring). Exit 2 without CUDA or vLLM (GPU path), or
    with an unwritable ``--out``."""
    from compoworld_gym.baselines.composition_benchmark import check_out_arg
    from compoworld_gym.baselines.learning_benchmark import stdout_to_stderr

    a = parse_cli(argv)
    import torch

    if not a.dry_run and not torch.cuda.is_available():
        _refuse(NO_GPU)
    if not a.dry_run:
        try:
            import vllm  # noqa: F401
        except ImportError as exc:
            _refuse(NO_VLLM.format(exc))
    check_out_arg(a.out)  # before the model loads and the budget starts, not after the run
    with stdout_to_stderr() if a.json else contextlib.nullcontext():
        if a.json:  # warnings only: the trainers' info lines and progress bars are noise around a report
            import datasets
            import transformers

            transformers.logging.set_verbosity_error()
            datasets.disable_progress_bars()
        metrics = run(a.settings, a.model, gpu=not a.dry_run, minutes=a.minutes)
        write_outputs(metrics, a.out)
    print(json.dumps(metrics, indent=2) if a.json else summary(metrics))


if __name__ == "__main__":
    from compoworld_gym.cli.app import run_script

    run_script(main)
