"""Supervised fine-tuning on successful trajectories (TRL ``SFTTrainer``).

Data: trajectories in the paper's format (:mod:`compoworld_gym.trajectory`;
"Trajectory format" in ``docs/design-notes.md``), either recorded
JSONL files (``compoworld eval --out``, :class:`RecordTrajectory`, or the
paper's own sample) or reference runs rendered on the fly
(:func:`reference_trajectories`). Only successful ones are kept (rubric
score at least ``min_score``). Loss is on assistant turns only
(``assistant_only_loss=True``: TRL swaps in its prefix-preserving training
template with generation markers); LoRA through PEFT is optional.

Command line (a local model directory; nothing is downloaded)::

    python -m compoworld_gym.baselines.sft --model ./Qwen3-0.6B --tasks tasks.jsonl \\
        --output-dir runs/sft --max-steps 200 --lora

The flags are the fields of :class:`~compoworld_gym.baselines.config.SFTArguments`
(``--help`` lists them with their defaults; ``--config run.yaml`` reads them from a file).

Example:
    >>> from compoworld_gym.builtin_tasks import builtin_tasks
    >>> ds = build_sft_dataset(reference_trajectories(builtin_tasks()[:2]))   # doctest: +SKIP
    >>> ds.column_names                                                       # doctest: +SKIP
    ['messages', 'tools', 'task_id']
"""

from __future__ import annotations

import tempfile
from pathlib import Path
from typing import Any, Iterable, Optional, Sequence

import orjson

from compoworld_gym.baselines.config import SFTArguments, parse_args
from compoworld_gym.tasks import Task
from compoworld_gym.trajectory import Trajectory, load_trajectories


def reference_trajectories(tasks: Sequence[Task], max_steps: int = 60) -> list[Trajectory]:
    """Run the reference (oracle) agent on ``tasks``; its episodes in the paper's format.

    Raises:
        ValueError: ``tasks`` is empty.
    """
    from compoworld_gym.baselines.agents import ReferenceAgent
    from compoworld_gym.baselines.evaluate import evaluate_agent

    if not tasks:
        raise ValueError("no tasks to render reference trajectories from")
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "reference.jsonl"
        evaluate_agent(lambda s: ReferenceAgent(), tasks, max_steps=max_steps, record_path=path,
                       source="compoworld-gym:reference")
        return load_trajectories(path)


def successful(trajectories: Iterable[Trajectory], min_score: float = 1.0) -> list[Trajectory]:
    """The trajectories whose ``meta.rubric_score`` is at least ``min_score``
    (those without a score are dropped) and whose tool calls all have answers."""
    return [t for t in trajectories
            if t.meta.rubric_score is not None and t.meta.rubric_score >= min_score and not t.unanswered_calls()]


def build_sft_dataset(trajectories: Sequence[Trajectory]) -> Any:
    """A ``datasets.Dataset`` of conversations for ``SFTTrainer``.

    Columns: ``messages`` (OpenAI chat format, tool-call ``arguments`` as
    JSON strings), ``tools`` (the definitions as one JSON string: as nested
    dicts Arrow would merge the four tools' parameter keys and invent
    nulls) and ``task_id``.

    Raises:
        ValueError: no trajectories.
    """
    from datasets import Dataset

    if not trajectories:
        raise ValueError("no trajectories: nothing to fine-tune on (were any successful?)")
    rows = {"messages": [], "tools": [], "task_id": []}
    for t in trajectories:
        rows["messages"].append(t.chat_messages(arguments_as_string=True))
        rows["tools"].append(orjson.dumps(t.tools).decode())
        rows["task_id"].append(str(t.meta.task_id))
    return Dataset.from_dict(rows)


def sft_config(output_dir: str, **overrides: Any) -> Any:
    """An ``SFTConfig`` with this suite's defaults (assistant-only loss; on a
    machine without CUDA: CPU, float32, no gradient checkpointing).

    Args:
        output_dir: where checkpoints and logs go.
        **overrides: any ``SFTConfig`` field.
    """
    import torch
    from trl import SFTConfig

    cpu = not torch.cuda.is_available()
    kwargs: dict[str, Any] = dict(
        output_dir=output_dir, assistant_only_loss=True, report_to="none", save_strategy="no",
        logging_steps=1, per_device_train_batch_size=1, gradient_accumulation_steps=1,
        learning_rate=1e-4, max_length=None, packing=False, use_cpu=cpu, bf16=not cpu,
        gradient_checkpointing=not cpu, seed=0, data_seed=0, dataset_num_proc=None,
    )
    kwargs.update(overrides)
    return SFTConfig(**kwargs)


def lora_config(r: int = 16, alpha: int = 32, dropout: float = 0.0,
                target_modules: Optional[Sequence[str]] = None) -> Any:
    """A PEFT ``LoraConfig`` for causal LMs (default: all attention and MLP projections)."""
    from peft import LoraConfig

    modules = list(target_modules or ("q_proj", "k_proj", "v_proj", "o_proj", "gate_proj", "up_proj", "down_proj"))
    return LoraConfig(r=r, lora_alpha=alpha, lora_dropout=dropout, target_modules=modules, task_type="CAUSAL_LM")


def make_sft_trainer(model: Any, tokenizer: Any, dataset: Any, args: Any = None, lora: Any = None,
                     output_dir: str = "runs/sft") -> Any:
    """An ``SFTTrainer`` on ``dataset`` (see :func:`build_sft_dataset`).

    Args:
        model: a ``PreTrainedModel`` or a local model path.
        tokenizer: its tokenizer (a tool-calling chat template TRL knows,
            for assistant-only loss).
        dataset: the conversations.
        args: an ``SFTConfig`` (default :func:`sft_config`).
        lora: ``True`` for :func:`lora_config`, a ``LoraConfig``, or None.
        output_dir: used when ``args`` is None.
    """
    from trl import SFTTrainer

    peft_config = lora_config() if lora is True else (lora or None)
    return SFTTrainer(model=model, args=args or sft_config(output_dir), train_dataset=dataset,
                      processing_class=tokenizer, peft_config=peft_config)


def main(argv: Optional[Sequence[str]] = None) -> None:
    """Command-line entry point (see the module docstring; flags: :class:`SFTArguments`,
    or ``--config run.yaml``)."""
    from compoworld_gym.baselines.hf_agent import load_model

    (a,) = parse_args((SFTArguments,), argv, "SFT on successful CompoWorld trajectories (TRL SFTTrainer).")
    trajectories = [t for path in a.trajectories for t in load_trajectories(path)]
    if a.tasks or not trajectories:
        from compoworld_gym.builtin_tasks import builtin_tasks
        from compoworld_gym.tasks import load_tasks

        trajectories += reference_trajectories(load_tasks(a.tasks) if a.tasks else builtin_tasks())
    dataset = build_sft_dataset(successful(trajectories, a.min_score))
    model, tokenizer = load_model(a.model, device="cpu")
    args = sft_config(a.output_dir, max_steps=a.max_steps, learning_rate=a.learning_rate, max_length=a.max_length)
    trainer = make_sft_trainer(model, tokenizer, dataset, args=args, lora=a.lora or None)
    trainer.train()
    trainer.save_model(a.output_dir)
    tokenizer.save_pretrained(a.output_dir)


if __name__ == "__main__":
    from compoworld_gym.cli.app import run_script

    run_script(main)
