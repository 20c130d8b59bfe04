"""Composition benchmark: single-service vs composed training at equal data budget (CPU).

The paper's claim (its results section): at an equal data budget, training on
composed environments beats training on single-service environments
(AutomationBench 12.83 -> 33.33). This is that experiment at toy scale.

Tasks (:mod:`.composition_tasks`): the generator's chained tasks with 2–3
services (no policy, no distractors, references without discovery calls).
Whole service *combinations* are held out: no composed training task has a
held-out task's service set. The single-service arm trains on the same
training cases cut at the service boundary (one task per service, the
values other services would have given stated in its instruction, the
composed rubric's items about that service). Every task's reference scores
1.0 and doing nothing scores below 1 (checked as they are built).

Arms, per seed (the seed picks the generated pool, the held-out
combinations, the tokenizer, the initialisation): the same randomly
initialised tiny Qwen3 (:mod:`.tiny_model`, 4 layers, width 128) and the same
tokenizer (merges learned from both arms' training conversations) are
fine-tuned (TRL ``SFTTrainer``) on the reference conversations of

* ``composed``: composed training tasks, and
* ``single``: single-service tasks drawn until their SFT tokens match the
  composed arm's (both arms are cut to the smaller of the two totals),

for the same number of epochs, so both see the same number of SFT tokens;
then the same GRPO schedule (steps, tasks per step, rollouts per task,
completion-focused reward) on each arm's own training tasks. Both are
evaluated, greedy, on the same held-out composed tasks: at ``checkpoints``
points of SFT (equal token counts for both arms), and after GRPO. Mean rubric
score (partial credit) is the main metric; strict success is reported too.

Reproduce (see docs/composition.md for measured times and results)::

    python -m compoworld_gym.baselines.composition_benchmark --json --out runs/composition

``--quick`` is a smoke run of the whole pipeline (numbers meaningless).
With ``--json`` stdout holds only the report; ``--out DIR`` writes
``report.json`` and ``curves.png`` (each atomically).
"""

from __future__ import annotations

import argparse
import contextlib
import json
import math
import os
import statistics
import tempfile
import time
from pathlib import Path
from typing import Any, Optional, Sequence

from compoworld_gym.tasks import Task

ARMS = ("single", "composed")
#: Defaults of :func:`run` that the command line can change (sized for ~25 min on 2 free cores).
DEFAULTS: dict[str, Any] = dict(seeds=3, n_pool=40, n_heldout=12, sft_epochs=6, checkpoints=3, grpo_steps=4,
                                groups=2, group_size=4, max_steps=6, max_new_tokens=64)
#: ``--quick``: the whole pipeline on a toy scale.
QUICK: dict[str, Any] = dict(seeds=3, n_pool=10, n_heldout=1, sft_epochs=1, checkpoints=2, grpo_steps=1,
                             groups=1, group_size=2, max_steps=2, max_new_tokens=16)
HELP = dict(seeds="seeds (each: its own task pool, held-out combinations and initialisation)",
            n_pool="composed tasks generated per seed", n_heldout="held-out composed tasks evaluated",
            sft_epochs="SFT epochs over each arm's data", checkpoints="held-out evaluations during SFT",
            grpo_steps="GRPO optimizer steps", groups="tasks per GRPO step", group_size="rollouts per task",
            max_steps="env steps per episode (eval and GRPO)", max_new_tokens="tokens generated per turn")
MODEL = dict(vocab_merges=3000, pre_tokenizer="digits", hidden_size=128, num_layers=4, num_heads=4,
             intermediate_size=256)
SFT_BATCH = 4


def conversation_tokens(tokenizer: Any, tasks: Sequence[Task]) -> dict[str, int]:
    """SFT tokens of each task's reference conversation (training template, tools included)."""
    from trl.chat_template_utils import get_training_chat_template

    from compoworld_gym.baselines.sft import reference_trajectories

    template = get_training_chat_template(tokenizer) or tokenizer.chat_template
    return {str(t.meta.task_id): len(tokenizer.apply_chat_template(
                t.chat_messages(arguments_as_string=True), tools=t.tools, chat_template=template, tokenize=True,
                return_dict=False))
            for t in reference_trajectories(tasks)}


def spread(values: Sequence[float]) -> dict[str, Any]:
    """``{"mean", "std", "min", "max", "values"}`` (population std; 0 for one value)."""
    vals = [float(v) for v in values]
    return {"mean": round(statistics.fmean(vals), 4), "std": round(statistics.pstdev(vals), 4),
            "min": round(min(vals), 4), "max": round(max(vals), 4), "values": [round(v, 4) for v in vals]}


def _train_arm(arm: str, tasks: list[Task], heldout: list[Task], seed: int, corpus: list[str], cfg: dict[str, Any],
               out: str, timings: dict[str, float]) -> list[dict[str, Any]]:
    """SFT (with held-out evaluations at checkpoints) then GRPO of one arm; its curve points."""
    import torch
    from transformers import TrainerCallback

    from compoworld_gym.baselines.grpo import RolloutConfig, grpo_config, make_grpo_trainer
    from compoworld_gym.baselines.learning_benchmark import evaluate_model
    from compoworld_gym.baselines.sft import build_sft_dataset, make_sft_trainer, reference_trajectories, sft_config
    from compoworld_gym.baselines.tiny_model import TinyConfig, build_tiny_model

    torch.manual_seed(seed)
    model, tok = build_tiny_model(seed, TinyConfig(**MODEL), extra_corpus=corpus)
    c = cfg["checkpoints"]
    # At least one step per checkpoint, so every arm and seed has the same curve points.
    steps = max(c, math.ceil(cfg["sft_epochs"] * len(tasks) / SFT_BATCH))
    marks = {round(steps * k / c): k for k in range(1, c + 1)}
    points: list[dict[str, Any]] = []

    def measure(k: int, sft_steps: int, grpo: int) -> None:
        t0 = time.perf_counter()
        m = evaluate_model(model, tok, heldout, cfg["max_steps"], cfg["max_new_tokens"])
        points.append({"point": "grpo" if grpo else f"sft {k}/{c}", "sft_fraction": round(k / c, 4),
                       "sft_steps": sft_steps, "grpo_steps": grpo,
                       "mean_rubric": m["mean_rubric_score"], "success": m["success_rate"]})
        timings[f"eval_{arm}_s"] = timings.get(f"eval_{arm}_s", 0.0) + time.perf_counter() - t0

    class Checkpoints(TrainerCallback):
        def on_step_end(self, args: Any, state: Any, control: Any, **kw: Any) -> None:
            if state.global_step in marks:
                measure(marks[state.global_step], state.global_step, 0)

    measure(0, 0, 0)
    t0, e0 = time.perf_counter(), timings[f"eval_{arm}_s"]
    data = build_sft_dataset(reference_trajectories(tasks))
    sft = make_sft_trainer(model, tok, data, args=sft_config(
        os.path.join(out, arm, "sft"), max_steps=steps, learning_rate=2e-3, lr_scheduler_type="cosine",
        warmup_steps=min(10, steps // 10), per_device_train_batch_size=SFT_BATCH, disable_tqdm=True,
        logging_steps=max(1, steps // 10), seed=seed, data_seed=seed))
    sft.add_callback(Checkpoints())
    sft.train()
    timings[f"sft_{arm}_s"] = time.perf_counter() - t0 - (timings[f"eval_{arm}_s"] - e0)  # evals excluded
    t0 = time.perf_counter()
    args = grpo_config(os.path.join(out, arm, "grpo"), groups=min(cfg["groups"], len(tasks)),
                       group_size=cfg["group_size"], max_steps=cfg["grpo_steps"], learning_rate=2e-5,
                       disable_tqdm=True, temperature=0.7, seed=seed, data_seed=seed)
    rollout = RolloutConfig(max_turns=cfg["max_steps"], max_new_tokens=cfg["max_new_tokens"],
                            max_completion_tokens=4096, reward="completion_focused", temperature=0.7)
    make_grpo_trainer(model, tok, tasks, args, rollout).train()
    timings[f"grpo_{arm}_s"] = time.perf_counter() - t0
    measure(c, steps, cfg["grpo_steps"])
    return points


def run_seed(seed: int, cfg: dict[str, Any]) -> dict[str, Any]:
    """One seed: build the task sets, match the budgets, train and evaluate both arms."""
    from compoworld_gym.baselines.composition_tasks import budget_match, build_task_sets
    from compoworld_gym.baselines.learning_benchmark import tokenizer_corpus
    from compoworld_gym.baselines.tiny_model import build_tokenizer

    timings: dict[str, float] = {}
    t0 = time.perf_counter()
    sets = build_task_sets(cfg["n_pool"], cfg["n_heldout"], seed)
    timings["tasks_s"] = time.perf_counter() - t0
    t0 = time.perf_counter()
    # One tokenizer for both arms, learned from both arms' training conversations only.
    corpus = tokenizer_corpus([*sets.composed_train, *sets.single_pool])
    tok = build_tokenizer(MODEL["vocab_merges"], MODEL["pre_tokenizer"], corpus)
    tokens = conversation_tokens(tok, [*sets.composed_train, *sets.single_pool])
    budget = min(sum(tokens[t.id] for t in sets.composed_train), sum(tokens[t.id] for t in sets.single_pool))
    arms = {"composed": budget_match(sets.composed_train, tokens, budget, seed),
            "single": budget_match(sets.single_pool, tokens, budget, seed)}
    timings["tokenizer_s"] = time.perf_counter() - t0
    held_tokens = conversation_tokens(tok, sets.heldout)
    curves = {}
    with tempfile.TemporaryDirectory() as out:
        for arm in ARMS:
            curves[arm] = _train_arm(arm, arms[arm], sets.heldout, seed, corpus, cfg, out, timings)
    return {"seed": seed, "heldout_combos": sets.heldout_combos, "dropped_unverified": sets.dropped,
            "tasks": {arm: len(arms[arm]) for arm in ARMS} | {"heldout": len(sets.heldout),
                                                             "composed_pool": len(sets.composed_train),
                                                             "single_pool": len(sets.single_pool)},
            "sft_tokens": {arm: sum(tokens[t.id] for t in arms[arm]) for arm in ARMS},
            "mean_episode_tokens": {arm: round(statistics.fmean(tokens[t.id] for t in arms[arm]), 1)
                                    for arm in ARMS} | {"heldout": round(statistics.fmean(held_tokens.values()), 1)},
            "curves": curves, "seconds": {k: round(v, 1) for k, v in timings.items()}}


def run(seeds: int = 3, **cfg: Any) -> dict[str, Any]:
    """The whole benchmark (settings: :data:`DEFAULTS`); the report (see docs/composition.md)."""
    cfg = {**{k: v for k, v in DEFAULTS.items() if k != "seeds"}, **cfg}
    t0 = time.perf_counter()
    per_seed = [run_seed(s, cfg) for s in range(seeds)]
    curves: dict[str, list[dict[str, Any]]] = {}
    for arm in ARMS:
        first = per_seed[0]["curves"][arm]  # every seed has the same points (see _train_arm)
        curves[arm] = [{"point": p["point"], "sft_fraction": p["sft_fraction"], "grpo_steps": p["grpo_steps"],
                        "sft_steps": [r["curves"][arm][i]["sft_steps"] for r in per_seed],
                        **{m: spread([r["curves"][arm][i][m] for r in per_seed]) for m in ("mean_rubric", "success")}}
                       for i, p in enumerate(first)]
    final = {arm: {m: curves[arm][-1][m] for m in ("mean_rubric", "success")} for arm in ARMS}
    after_sft = {arm: {m: curves[arm][-2][m] for m in ("mean_rubric", "success")} for arm in ARMS}
    return {"settings": {"seeds": seeds, **cfg, "model": MODEL, "sft_batch": SFT_BATCH},
            "after_sft": after_sft, "final": final, "curves": curves, "per_seed": per_seed,
            "seconds": {"total": round(time.perf_counter() - t0, 1)}}


def plot(report: dict[str, Any], path: Path) -> None:
    """The learning curves (held-out mean rubric and success, mean ± std over seeds) as a PNG."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    from compoworld_gym.graph import save_figure

    fig, axes = plt.subplots(1, 2, figsize=(10, 4))
    for ax, metric in zip(axes, ("mean_rubric", "success")):
        for arm in ARMS:
            pts = report["curves"][arm]
            x = [p["sft_fraction"] if p["grpo_steps"] == 0 else 1.15 for p in pts]
            mean = [p[metric]["mean"] for p in pts]
            std = [p[metric]["std"] for p in pts]
            ax.plot(x, mean, marker="o", label=arm)
            ax.fill_between(x, [m - s for m, s in zip(mean, std)], [m + s for m, s in zip(mean, std)], alpha=0.2)
        ticks = sorted({p["sft_fraction"] for p in report["curves"][ARMS[0]]} | {1.15})
        ax.set_xticks(ticks, ["+GRPO" if t > 1 else "all SFT" if t == 1 else f"{t:.2g}" for t in ticks])
        ax.set_xlabel("share of the SFT token budget seen (then GRPO)")
        ax.set_title(f"held-out compositions: {metric.replace('_', ' ')}")
        ax.set_ylim(0, max(0.1, *(p[metric]["max"] for a in ARMS for p in report["curves"][a])) * 1.1)
        ax.legend()
    fig.suptitle(f"single-service vs composed training, equal SFT tokens, {report['settings']['seeds']} seeds")
    save_figure(fig, path)


def write_outputs(report: dict[str, Any], out: Path) -> None:
    """``report.json`` and ``curves.png`` under ``out`` (each written to a temp name, then renamed)."""
    from compoworld_gym.jsonl import atomic_writer

    out.mkdir(parents=True, exist_ok=True)
    with atomic_writer(out / "report.json") as fh:
        fh.write(json.dumps(report, indent=2) + "\n")
    plot(report, out / "curves.png")


def _table(report: dict[str, Any]) -> str:
    lines = ["| arm | phase | held-out mean rubric | held-out success |", "|---|---|---|---|"]
    for phase in ("after_sft", "final"):
        for arm in ARMS:
            r = report[phase][arm]
            lines.append(f"| {arm} | {phase} | {r['mean_rubric']['mean']:.3f} ± {r['mean_rubric']['std']:.3f} | "
                         f"{r['success']['mean']:.3f} ± {r['success']['std']:.3f} |")
    return "\n".join(lines)


def check_out_arg(out: Path) -> None:
    """Create ``--out`` and probe-write it now, before the run (a read-only directory would otherwise
    fail only at the end): one ``error:`` line and exit 2, as the ``compoworld`` commands do."""
    import typer

    from compoworld_gym.cli.common import check_out_dir

    try:
        check_out_dir(out)
    except typer.Exit as exc:  # check_out_dir printed the line
        raise SystemExit(exc.exit_code) from None


def main(argv: Optional[Sequence[str]] = None) -> None:
    """Command-line entry point (see the module docstring); an unwritable ``--out`` exits 2 at once."""
    from compoworld_gym.baselines.learning_benchmark import stdout_to_stderr

    p = argparse.ArgumentParser(description="Single-service vs composed training at equal SFT tokens (CPU).")
    p.add_argument("--quick", action="store_true", help=f"smoke run, numbers meaningless ({QUICK})")
    for name, what in HELP.items():
        p.add_argument(f"--{name.replace('_', '-')}", type=int, default=None, help=f"{what} (default {DEFAULTS[name]})")
    p.add_argument("--json", action="store_true", help="print the report as JSON (and nothing else on stdout)")
    p.add_argument("--out", type=Path, default=None, help="write report.json and curves.png here")
    a = p.parse_args(argv)
    base = QUICK if a.quick else DEFAULTS
    settings = {k: base[k] if getattr(a, k) is None else getattr(a, k) for k in DEFAULTS}
    if any(v < 1 for v in settings.values()):
        p.error(f"every setting must be >= 1, got {settings}")
    if a.out is not None:
        check_out_arg(a.out)
    with stdout_to_stderr() if a.json else contextlib.nullcontext():
        if a.json:
            import datasets
            import transformers

            transformers.logging.set_verbosity_error()
            datasets.disable_progress_bars()
        report = run(**settings)
        if a.out is not None:
            write_outputs(report, a.out)
    print(json.dumps(report, indent=2) if a.json else _table(report))


if __name__ == "__main__":
    from compoworld_gym.cli.app import run_script

    run_script(main)
