"""Learning benchmark: SFT then GRPO of the tiny model on an easy task family (CPU).

Not a unit test: it trains for minutes and reports what it gets. The task
family is generated tasks over two services (``generate_tasks(n, seed,
services=2)``: one lookup, one write, an answer check, sometimes negative
checks). The tiny Qwen3 model (:mod:`.tiny_model`, randomly initialised)
is fine-tuned on the reference runs of the training tasks, then trained
with GRPO (grouped vector envs, completion-focused reward); the mean
rubric score and strict success of greedy decoding are measured on the
training tasks (what a model this small can learn: memorising call
sequences) and on held-out tasks of the same family, before training,
after SFT and after GRPO.

Reproduce (about 10–20 minutes on 2 CPU cores)::

    python -m compoworld_gym.baselines.learning_benchmark --json

A random model's "before" score is not 0: negative checks ("did not
touch X") pass when the agent does nothing.
"""

from __future__ import annotations

import argparse
import json
import tempfile
import time
from typing import Any, Optional, Sequence

from compoworld_gym.tasks import Task


def evaluate_model(model: Any, tokenizer: Any, tasks: Sequence[Task], max_steps: int,
                   max_new_tokens: int) -> dict[str, float]:
    """Greedy-decoding mean rubric score and success rate of ``model`` on ``tasks``."""
    from compoworld_gym.baselines.evaluate import evaluate_agent
    from compoworld_gym.baselines.hf_agent import HFAgent

    was_training = model.training
    model.eval()
    agent = HFAgent(model, tokenizer, max_new_tokens=max_new_tokens, temperature=0.0, device="cpu")
    metrics, _ = evaluate_agent(lambda s: agent, tasks, max_steps=max_steps)
    model.train(was_training)
    return {"mean_rubric_score": round(metrics["mean_rubric_score"], 4),
            "success_rate": round(metrics["success_rate"], 4), "mean_steps": round(metrics["mean_steps"], 2)}


def run(n_train: int = 4, n_heldout: int = 4, seed: int = 0, sft_steps: int = 40, grpo_steps: int = 6,
        group_size: int = 4, sft_lr: float = 3e-3, grpo_lr: float = 3e-4, max_steps: int = 8,
        max_new_tokens: int = 96) -> dict[str, Any]:
    """Run the benchmark; returns the scores per phase and the settings."""
    import torch

    from compoworld_gym.baselines.grpo import RolloutConfig, grpo_config, make_grpo_trainer
    from compoworld_gym.baselines.sft import (build_sft_dataset, make_sft_trainer, reference_trajectories,
                                              sft_config, successful)
    from compoworld_gym.baselines.tiny_model import TinyConfig, build_tiny_model
    from compoworld_gym.generation import generate_tasks

    torch.manual_seed(seed)
    tasks = generate_tasks(n_train + n_heldout, seed, services=2)
    train, heldout = tasks[:n_train], tasks[n_train:]
    model, tok = build_tiny_model(seed, TinyConfig(hidden_size=128, num_layers=4, num_heads=4,
                                                   intermediate_size=256))
    report: dict[str, Any] = {"settings": dict(n_train=n_train, n_heldout=n_heldout, seed=seed, sft_steps=sft_steps,
                                               grpo_steps=grpo_steps, group_size=group_size, sft_lr=sft_lr,
                                               grpo_lr=grpo_lr, max_steps=max_steps, max_new_tokens=max_new_tokens,
                                               parameters=sum(p.numel() for p in model.parameters()))}
    timings: dict[str, float] = {}

    def measure(phase: str) -> None:
        report[phase] = {"train": evaluate_model(model, tok, train, max_steps, max_new_tokens),
                         "heldout": evaluate_model(model, tok, heldout, max_steps, max_new_tokens)}

    measure("before")
    with tempfile.TemporaryDirectory() as out:
        t0 = time.perf_counter()
        data = build_sft_dataset(successful(reference_trajectories(train)))
        sft = make_sft_trainer(model, tok, data, args=sft_config(out, max_steps=sft_steps, learning_rate=sft_lr,
                                                                   disable_tqdm=True))
        sft.train()
        timings["sft_s"] = round(time.perf_counter() - t0, 1)
        report["sft_final_loss"] = round(float(sft.state.log_history[-2]["loss"]), 4)
        measure("after_sft")
        t0 = time.perf_counter()
        args = grpo_config(out, groups=min(2, n_train), group_size=group_size, max_steps=grpo_steps, learning_rate=grpo_lr,
                           disable_tqdm=True, temperature=1.0)
        rollout = RolloutConfig(max_turns=max_steps, max_new_tokens=max_new_tokens, max_completion_tokens=12000,
                                reward="completion_focused", temperature=1.0)
        grpo = make_grpo_trainer(model, tok, train, args, rollout)
        grpo.train()
        timings["grpo_s"] = round(time.perf_counter() - t0, 1)
        report["grpo_rewards"] = [round(float(h["reward"]), 4) for h in grpo.state.log_history if "reward" in h]
        measure("after_grpo")
    report["seconds"] = timings
    return report


def _table(report: dict[str, Any]) -> str:
    lines = ["| phase | train mean rubric | train success | held-out mean rubric | held-out success |",
             "|---|---|---|---|---|"]
    for phase in ("before", "after_sft", "after_grpo"):
        r = report[phase]
        lines.append(f"| {phase} | {r['train']['mean_rubric_score']:.3f} | {r['train']['success_rate']:.3f} | "
                     f"{r['heldout']['mean_rubric_score']:.3f} | {r['heldout']['success_rate']:.3f} |")
    return "\n".join(lines)


def main(argv: Optional[Sequence[str]] = None) -> None:
    """Command-line entry point (see the module docstring)."""
    p = argparse.ArgumentParser(description="SFT then GRPO of the tiny model on easy tasks (CPU).")
    p.add_argument("--n-train", type=int, default=4)
    p.add_argument("--n-heldout", type=int, default=4)
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--sft-steps", type=int, default=40)
    p.add_argument("--grpo-steps", type=int, default=6)
    p.add_argument("--json", action="store_true", help="print the report as JSON")
    a = p.parse_args(argv)
    report = run(n_train=a.n_train, n_heldout=a.n_heldout, seed=a.seed, sft_steps=a.sft_steps,
                 grpo_steps=a.grpo_steps)
    print(json.dumps(report, indent=2) if a.json else _table(report))


if __name__ == "__main__":
    main()
