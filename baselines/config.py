"""The baselines' settings: dataclasses whose field metadata generates the command lines.

Each field carries its help text once, in ``metadata={"help": ...}``; the
``Attributes:`` section of each class docstring and each ``--help`` are both
generated from it (:func:`documented`, :func:`parse_args`). The command lines
are TRL's :class:`trl.TrlParser` over these classes: every field is a flag in
both spellings (``--max_turns`` / ``--max-turns``), booleans are switches
(``--lora``), ``Literal`` fields take only their choices, and ``--config
run.yaml`` reads the same fields from a YAML file (flags override it).

One set of defaults, here. The GRPO defaults (16 turns of up to 512 new tokens,
learning rate 1e-6) are those of the documented real-model run (Qwen3-1.7B,
one GPU, full fine-tuning or LoRA); 1e-6 is also TRL's own ``GRPOConfig``
default. CPU runs of the tiny model (tests, the learning benchmark, the
walkthrough) set their own, smaller, values.

Example:
    >>> RolloutConfig().max_completion_tokens          # derived: 16 × (512 + 2048)
    40960
    >>> RolloutConfig(reward="sparse")
    Traceback (most recent call last):
    ...
    ValueError: reward must be one of completion_focused, binary, fraction; got 'sparse'
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from typing import Any, Literal, Optional, Sequence, TypeVar, get_args

#: Group reward of the GRPO baselines: the paper's completion-focused rubric
#: reward, or the all-or-nothing / fraction ablations (:mod:`compoworld_gym.rewards`).
RewardKind = Literal["completion_focused", "binary", "fraction"]
REWARD_KINDS: tuple[str, ...] = get_args(RewardKind)

#: Context left per turn for the env's reply, when the completion budget is derived.
ENV_REPLY_TOKENS = 2048

T = TypeVar("T")


def documented(cls: type[T]) -> type[T]:
    """Append an ``Attributes:`` section, built from each field's ``help`` and default, to ``cls.__doc__``."""
    lines = ["", "Attributes:"]
    for f in dataclasses.fields(cls):  # type: ignore[arg-type]
        default = "required" if f.default is dataclasses.MISSING and f.default_factory is dataclasses.MISSING \
            else f"default {f.default!r}" if f.default is not dataclasses.MISSING else "default empty"
        lines.append(f"    {f.name}: {f.metadata.get('help', '')} ({default}).")
    cls.__doc__ = (cls.__doc__ or "").rstrip() + "\n" + "\n".join(lines) + "\n"
    return cls


def _positive_ints(obj: Any, names: Sequence[str]) -> None:
    for name in names:
        value = getattr(obj, name)
        if not isinstance(value, int) or isinstance(value, bool) or value < 1:
            raise ValueError(f"{name} must be a positive int, got {value!r}")


def _reward_kind(value: str) -> None:
    if value not in REWARD_KINDS:
        raise ValueError(f"reward must be one of {', '.join(REWARD_KINDS)}; got {value!r}")


@documented
@dataclass
class RolloutConfig:
    """Multi-turn rollout settings of :class:`compoworld_gym.baselines.grpo.GroupedRollout`.

    Raises:
        ValueError: an unknown reward, or a count that is not a positive int.
    """

    max_turns: int = field(default=16, metadata={"help": "model turns per episode (the env's step limit)"})
    max_new_tokens: int = field(default=512, metadata={"help": "tokens generated per turn"})
    max_completion_tokens: Optional[int] = field(default=None, metadata={
        "help": "budget of completion tokens (model + env) per rollout; a rollout past it ends with an empty "
                f"final answer (None: max_turns x (max_new_tokens + {ENV_REPLY_TOKENS}))"})
    reward: RewardKind = field(default="completion_focused", metadata={
        "help": "group reward: completion_focused (the paper's), binary or fraction (ablations)"})
    temperature: float = field(default=1.0, metadata={"help": "sampling temperature of the rollouts"})
    top_p: float = field(default=1.0, metadata={"help": "nucleus sampling threshold of the rollouts"})

    def __post_init__(self) -> None:
        _reward_kind(self.reward)
        _positive_ints(self, ("max_turns", "max_new_tokens"))
        if self.max_completion_tokens is None:
            self.max_completion_tokens = self.max_turns * (self.max_new_tokens + ENV_REPLY_TOKENS)
        _positive_ints(self, ("max_completion_tokens",))


@documented
@dataclass
class GRPOArguments:
    """Command line of ``python -m compoworld_gym.baselines.grpo`` (with :class:`RolloutConfig`).

    Raises:
        ValueError: a count that is not a positive int, or a learning rate <= 0.
    """

    model: str = field(metadata={"help": "local model directory ('tiny' = the tiny test model; 'smollm2' = "
                                         "SmolLM2-135M-Instruct after: compoworld models fetch smollm2)"})
    tasks: Optional[str] = field(default=None, metadata={
        "help": "JSONL task file (default: 8 generated tasks, seed 0)"})
    output_dir: str = field(default="runs/grpo", metadata={"help": "where the trained model is saved"})
    groups: int = field(default=2, metadata={"help": "tasks per optimizer step (B)"})
    group_size: int = field(default=4, metadata={"help": "rollouts per task (G, TRL's num_generations)"})
    max_steps: int = field(default=100, metadata={"help": "optimizer steps"})
    learning_rate: float = field(default=1e-6, metadata={"help": "peak learning rate"})
    vllm: bool = field(default=False, metadata={"help": "generate with vLLM in colocate mode (GPU)"})
    lora: bool = field(default=False, metadata={"help": "train LoRA adapters (PEFT) instead of all weights"})
    bf16: bool = field(default=False, metadata={"help": "train in bfloat16 (the default on a GPU)"})

    def __post_init__(self) -> None:
        _positive_ints(self, ("groups", "group_size", "max_steps"))
        if not self.learning_rate > 0:
            raise ValueError(f"learning_rate must be > 0, got {self.learning_rate!r}")


@documented
@dataclass
class SFTArguments:
    """Command line of ``python -m compoworld_gym.baselines.sft``.

    Raises:
        ValueError: a count that is not a positive int, a learning rate <= 0,
            or a ``min_score`` outside [0, 1].
    """

    model: str = field(metadata={"help": "local model directory ('tiny' = the tiny test model; 'smollm2' = "
                                         "SmolLM2-135M-Instruct after: compoworld models fetch smollm2)"})
    trajectories: list[str] = field(default_factory=list, metadata={
        "help": "JSONL trajectory files (paper format)"})
    tasks: Optional[str] = field(default=None, metadata={
        "help": "JSONL task file: add its reference runs (default: the built-in tasks when no trajectories "
                "are given)"})
    min_score: float = field(default=1.0, metadata={"help": "keep trajectories scoring at least this"})
    output_dir: str = field(default="runs/sft", metadata={"help": "where the model and tokenizer are saved"})
    max_steps: int = field(default=100, metadata={"help": "optimizer steps"})
    learning_rate: float = field(default=1e-4, metadata={"help": "peak learning rate"})
    max_length: Optional[int] = field(default=None, metadata={"help": "truncate sequences to this many tokens"})
    lora: bool = field(default=False, metadata={"help": "train LoRA adapters (PEFT) instead of all weights"})

    def __post_init__(self) -> None:
        _positive_ints(self, ("max_steps",) + (("max_length",) if self.max_length is not None else ()))
        if not self.learning_rate > 0:
            raise ValueError(f"learning_rate must be > 0, got {self.learning_rate!r}")
        if not 0.0 <= self.min_score <= 1.0:
            raise ValueError(f"min_score must be in [0, 1], got {self.min_score!r}")


def parse_args(types: Sequence[type], argv: Optional[Sequence[str]], description: str) -> tuple[Any, ...]:
    """Parse ``argv`` (default ``sys.argv[1:]``) into one instance of each dataclass of ``types``.

    Args:
        types: the dataclasses whose fields are the flags (their names must not clash).
        argv: the arguments; ``--config FILE.yaml`` sets fields from a YAML mapping first.
        description: the ``--help`` text.

    Returns:
        The instances, in the order of ``types``.

    Raises:
        SystemExit: an unknown flag or a bad value (argparse's usage error, exit 2).
        ValueError: a field's check failed (its ``__post_init__``), or the YAML
            file holds unknown keys.
    """
    from trl import TrlParser

    return tuple(TrlParser(list(types), description=description).parse_args_and_config(
        args=None if argv is None else list(argv)))


__all__ = ["ENV_REPLY_TOKENS", "GRPOArguments", "REWARD_KINDS", "RewardKind", "RolloutConfig", "SFTArguments",
           "documented", "parse_args"]
