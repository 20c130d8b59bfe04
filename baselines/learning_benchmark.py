"""Learning benchmark: SFT then GRPO of the tiny model on an easy task family (CPU).

Not a unit test: it trains for minutes and reports what it gets.

The task family (:func:`easy_tasks`) is one-call helpdesk work: "set
ticket TCK-0007 to status solved and add the tag vip" (three phrasings,
12 tickets × 3 statuses × 4 tags minus combinations that change nothing:
104 tasks). The helpdesk is the only mounted service. The rubric has two
work items (the status, the tag: partial credit, so GRPO groups get varied
rewards) and one guard (no other ticket changed); with the env's reward
(work done, scaled down by broken guards) doing nothing scores 0. Training
and held-out tasks are distinct (ticket, status, tag) combinations, so a
held-out task can only be solved by reading its instruction (copying the
ticket id, mapping the status and tag words), not by recall.

The tiny Qwen3 model (:mod:`.tiny_model`: 4 layers, width 128, ~0.9M
parameters, randomly initialised) uses a tokenizer whose merges are learned
from the training tasks' rendered conversations and may span spaces and
punctuation (``pre_tokenizer="digits"``: digit runs stay separate tokens),
so a whole episode is ~120 tokens instead of ~1.2k. It is fine-tuned on the
reference runs of the training tasks (TRL ``SFTTrainer``), then trained
with GRPO (grouped vector envs, completion-focused reward, rollouts sampled
at temperature 0.7). Evaluation is the model acting on its own in the env
(greedy decoding through :class:`~compoworld_gym.baselines.hf_agent.HFAgent`,
meta-tools, tool-call parsing), scored by each task's rubric, on the
training tasks and on held-out tasks, before training, after SFT and
after GRPO.

Reproduce (about 8–15 minutes on 2 busy CPU cores)::

    python -m compoworld_gym.baselines.learning_benchmark --json

With ``--json`` stdout holds only the report; the trainers' logs go to
stderr. ``--quick`` is a smoke run of the whole pipeline (about a minute,
numbers meaningless).

Measured with the defaults (64 training, 16 held-out tasks, 300 SFT steps
of batch 8, 30 GRPO steps of 4 tasks × 4 rollouts; 10 min 17 s wall on a
busy 2-core machine), mean rubric score / strict success:

========== ============= =============
phase      train         held-out
========== ============= =============
before     0.000 / 0.000 0.000 / 0.000
after SFT  0.922 / 0.844 0.906 / 0.813
after GRPO 0.938 / 0.875 0.906 / 0.813
========== ============= =============
"""

from __future__ import annotations

import argparse
import contextlib
import itertools
import json
import os
import random
import sys
import tempfile
import time
from typing import Any, Iterator, Optional, Sequence

from compoworld_gym.tasks import MetaCall, Task

#: Statuses and tags the easy tasks ask for.
STATUSES = ("open", "pending", "solved")
TAGS = ("vip", "escalated", "follow-up", "callback")
#: Phrasings of the easy instruction (ticket id, status, tag).
PHRASINGS = (
    "Set ticket {tid} to status {status} and add the tag {tag}.",
    "Please mark {tid} as {status} and tag it {tag}.",
    "Ticket {tid}: change its status to {status}, then tag it {tag}.",
)


def _easy_task(index: int, helpdesk: dict[str, Any], tid: str, status: str, tag: str, phrasing: str) -> Task:
    """One easy helpdesk task (see the module docstring)."""
    from compoworld_gym.builtin_tasks.common import TODAY, only_tickets, ticket_is

    return Task(
        id=f"easy-helpdesk-{index:03d}", services=["helpdesk"], today=TODAY,
        initial_state={"helpdesk": helpdesk}, domain="support", capabilities=["single-call"],
        instruction=phrasing.format(tid=tid, status=status, tag=tag),
        checks=[ticket_is("status", tid, f"{tid} has status {status}.", status=status),
                ticket_is("tag", tid, f"{tid} carries the tag {tag}.", tags={"$contains": tag}),
                only_tickets("scope", [tid], "No other ticket changed, none created.")],
        reference=[MetaCall(name="call_tool", arguments={
            "tool_name": "update_ticket", "arguments": {"ticket_id": tid, "status": status, "add_tags": [tag]}})],
        reference_answer=f"Done: {tid} is {status}, tagged {tag}.",
    )


def easy_tasks(n_train: int, n_heldout: int, seed: int = 0) -> tuple[list[Task], list[Task]]:
    """Distinct one-call helpdesk tasks, split into training and held-out ones.

    Every task's (ticket, status, tag) combination is distinct, so no
    held-out task was seen in training; combinations whose status or tag the
    ticket already has are left out (they would need no work).

    Args:
        n_train: training tasks.
        n_heldout: held-out tasks.
        seed: shuffles the combinations and picks the phrasings.

    Returns:
        ``(train, heldout)``.

    Raises:
        ValueError: a negative count, or more tasks than combinations.
    """
    from compoworld_gym.builtin_tasks.common import seed_json

    if n_train < 0 or n_heldout < 0:
        raise ValueError(f"task counts must be >= 0, got {n_train}, {n_heldout}")
    helpdesk = seed_json("helpdesk", 0)
    tickets = {tid: t for tid, t in sorted(helpdesk["tickets"].items()) if t["status"] != "closed"}
    combos = [(tid, s, g) for tid, s, g in itertools.product(tickets, STATUSES, TAGS)
              if tickets[tid]["status"] != s and g not in tickets[tid]["tags"]]
    if n_train + n_heldout > len(combos):
        raise ValueError(f"only {len(combos)} distinct easy tasks exist; asked for {n_train + n_heldout}")
    rng = random.Random(seed)
    rng.shuffle(combos)
    tasks = [_easy_task(i, helpdesk, tid, s, g, rng.choice(PHRASINGS))
             for i, (tid, s, g) in enumerate(combos[:n_train + n_heldout])]
    return tasks[:n_train], tasks[n_train:]


def tokenizer_corpus(tasks: Sequence[Task]) -> list[str]:
    """The tokenizer's extra training text: the reference runs of ``tasks`` as
    the chat template renders them (system prompt, tool definitions, calls,
    tool results), so the constant prompt becomes a few long tokens."""
    from trl.chat_template_utils import get_training_chat_template

    from compoworld_gym.baselines.sft import reference_trajectories
    from compoworld_gym.baselines.tiny_model import build_tokenizer

    tok = build_tokenizer()
    template = get_training_chat_template(tok) or tok.chat_template
    return [tok.apply_chat_template(t.chat_messages(arguments_as_string=True), tools=t.tools,
                                    chat_template=template, tokenize=False)
            for t in reference_trajectories(tasks)]


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


def run(n_train: int = 64, n_heldout: int = 16, seed: int = 0, sft_steps: int = 300, grpo_steps: int = 30,
        group_size: int = 4, groups: int = 4, sft_lr: float = 2e-3, grpo_lr: float = 2e-5, max_steps: int = 3,
        max_new_tokens: int = 48, temperature: float = 0.7) -> dict[str, Any]:
    """Run the benchmark; returns the scores per phase, the settings and timings (seconds)."""
    import torch

    from compoworld_gym.baselines.grpo import RolloutConfig, grpo_config, make_grpo_trainer
    from compoworld_gym.baselines.sft import (build_sft_dataset, make_sft_trainer, reference_trajectories,
                                              sft_config, successful)
    from compoworld_gym.baselines.tiny_model import TinyConfig, build_tiny_model

    torch.manual_seed(seed)
    train, heldout = easy_tasks(n_train, n_heldout, seed)
    # The tokenizer learns its merges from the training tasks only (not the held-out ones).
    model, tok = build_tiny_model(seed, TinyConfig(vocab_merges=2000, pre_tokenizer="digits", hidden_size=128,
                                                   num_layers=4, num_heads=4, intermediate_size=256),
                                  extra_corpus=tokenizer_corpus(train))
    report: dict[str, Any] = {"settings": dict(
        task_family="easy helpdesk (one update_ticket call)", n_train=n_train, n_heldout=n_heldout, seed=seed,
        sft_steps=sft_steps, grpo_steps=grpo_steps, groups=groups, group_size=group_size, sft_lr=sft_lr,
        grpo_lr=grpo_lr, max_steps=max_steps, max_new_tokens=max_new_tokens, temperature=temperature,
        parameters=sum(p.numel() for p in model.parameters()))}
    timings: dict[str, float] = {}

    def measure(phase: str) -> None:
        t0 = time.perf_counter()
        report[phase] = {"train": evaluate_model(model, tok, train, max_steps, max_new_tokens),
                         "heldout": evaluate_model(model, tok, heldout, max_steps, max_new_tokens)}
        timings[f"eval_{phase}_s"] = round(time.perf_counter() - t0, 1)

    measure("before")
    with tempfile.TemporaryDirectory() as out:
        t0 = time.perf_counter()
        data = build_sft_dataset(successful(reference_trajectories(train)))
        sft = make_sft_trainer(model, tok, data, args=sft_config(
            out, max_steps=sft_steps, learning_rate=sft_lr, lr_scheduler_type="cosine", warmup_steps=10,
            per_device_train_batch_size=8, disable_tqdm=True, logging_steps=min(10, sft_steps)))
        sft.train()
        timings["sft_s"] = round(time.perf_counter() - t0, 1)
        report["sft_losses"] = [round(float(h["loss"]), 4) for h in sft.state.log_history if "loss" in h]
        measure("after_sft")
        t0 = time.perf_counter()
        args = grpo_config(out, groups=min(groups, n_train), group_size=group_size, max_steps=grpo_steps,
                           learning_rate=grpo_lr, disable_tqdm=True, temperature=temperature)
        rollout = RolloutConfig(max_turns=max_steps, max_new_tokens=max_new_tokens, max_completion_tokens=4096,
                                reward="completion_focused", temperature=temperature)
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


#: ``--quick``: the whole pipeline on a toy scale, so a test can run it end to end.
QUICK = dict(n_train=2, n_heldout=1, sft_steps=2, grpo_steps=1, groups=1, group_size=2, max_steps=1,
             max_new_tokens=16)
#: The defaults of :func:`run` that the command line can change.
DEFAULTS = dict(n_train=64, n_heldout=16, sft_steps=300, grpo_steps=30, groups=4, group_size=4, max_steps=3,
                max_new_tokens=48)
HELP = dict(n_train="training tasks", n_heldout="held-out tasks", sft_steps="SFT optimizer steps",
            grpo_steps="GRPO optimizer steps", groups="tasks per GRPO step", group_size="rollouts per task",
            max_steps="env steps per episode", max_new_tokens="tokens generated per turn")


@contextlib.contextmanager
def stdout_to_stderr() -> Iterator[None]:
    """Send what is written to stdout meanwhile to stderr.

    Catches Python-level prints (the trainers print their log dicts) and
    writes to file descriptor 1 by native code, whatever ``sys.stdout`` is
    (a test's capture replaces it but not the descriptor). Stdout is back as
    it was afterwards.
    """
    sys.stdout.flush()
    saved: Optional[int] = None
    try:
        saved = os.dup(1)
        os.dup2(2, 1)
    except OSError:  # no descriptor 1 or 2 (a detached process): Python level only
        if saved is not None:
            os.close(saved)
        saved = None
    try:
        with contextlib.redirect_stdout(sys.stderr):
            yield
    finally:
        sys.stdout.flush()
        if saved is not None:
            os.dup2(saved, 1)
            os.close(saved)


def main(argv: Optional[Sequence[str]] = None) -> None:
    """Command-line entry point (see the module docstring).

    With ``--json`` stdout holds exactly one JSON document (the :func:`run`
    report); everything the libraries print during the run goes to stderr.
    """
    p = argparse.ArgumentParser(description="SFT then GRPO of the tiny model on easy tasks (CPU).")
    p.add_argument("--quick", action="store_true",
                   help=f"smoke run of the whole pipeline, numbers meaningless ({QUICK}); "
                        f"other flags override it")
    for name, what in HELP.items():
        p.add_argument(f"--{name.replace('_', '-')}", type=int, default=None,
                       help=f"{what} (default {DEFAULTS[name]})")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--json", action="store_true", help="print the report as JSON (and nothing else on stdout)")
    a = p.parse_args(argv)
    base = QUICK if a.quick else DEFAULTS
    settings = {name: base[name] if getattr(a, name) is None else getattr(a, name) for name in DEFAULTS}
    with stdout_to_stderr() if a.json else contextlib.nullcontext():
        if a.json:
            # Warnings only: the trainers' info lines and the tokenizers' bars are noise around a report.
            import datasets
            import transformers

            transformers.logging.set_verbosity_error()
            datasets.disable_progress_bars()
        report = run(seed=a.seed, **settings)
    print(json.dumps(report, indent=2) if a.json else _table(report))


if __name__ == "__main__":
    from compoworld_gym.cli.app import run_script

    run_script(main)
