"""GRPO with TRL's ``GRPOTrainer`` over vectorized, grouped env batches.

:class:`GroupedRollout` is a TRL ``rollout_func``. TRL hands it the prompts
of one generation batch, each repeated ``num_generations`` (``G``) times in
a row; it maps every run of ``G`` equal prompts to its task, resets a
grouped vector env (:func:`compoworld_gym.wrappers.make_grouped_vector_env`,
``B`` tasks × ``G`` rollouts, ``ChatFormat`` sub-envs) and then, turn by
turn, generates **one batch** for all live sub-envs, steps the vector env
with the decoded texts, and appends the environment's reply tokens.

Token layout of one rollout (what TRL trains on)::

    prompt_ids      = template(system, user, tools) + "<|im_start|>assistant\\n"
    completion_ids  = turn 1 | env reply 1 | turn 2 | env reply 2 | ... | last turn
    env_mask        =   1…1  |    0…0      |  1…1   |    0…0      | ... |   1…1

Env replies (tool results, next assistant header) are rendered by the
prefix-preserving training chat template and masked out of the loss
(``env_mask`` = 0). Rewards come from the episodes' rubrics: the
completion-focused group reward by default (``reward="binary"`` or
``"fraction"`` for ablations), passed to TRL through the :func:`env_reward`
reward function.

Generation: ``transformers`` ``generate`` on the trainer's model (CPU or a
GPU), or TRL's colocated vLLM engine when ``GRPOConfig(use_vllm=True,
vllm_mode="colocate")`` (each turn is one ``vllm_generation.generate`` call
whose ``max_tokens`` is the config's ``max_completion_length``).

A real model on one GPU (vLLM colocate, LoRA)::

    python -m compoworld_gym.baselines.grpo --model ./Qwen3-1.7B --tasks tasks.jsonl \\
        --output-dir runs/grpo --groups 4 --group-size 8 --max-steps 200 --vllm --lora --bf16

On CPU with the tiny model (smoke run)::

    python -m compoworld_gym.baselines.grpo --model tiny --max-steps 2 --groups 1 --group-size 2

The flags are the fields of :class:`~compoworld_gym.baselines.config.GRPOArguments`
and :class:`~compoworld_gym.baselines.config.RolloutConfig` (``--help`` lists
them with their defaults; ``--config run.yaml`` reads them from a file).
"""

from __future__ import annotations

from typing import Any, Optional, Sequence

import numpy as np

from compoworld_gym.baselines.config import GRPOArguments, RewardKind, RolloutConfig, parse_args
from compoworld_gym.metatools import meta_tool_definitions
from compoworld_gym.rewards import (RubricRow, WeightFn, binary_reward, completion_focused_reward, fraction_reward,
                                    rubric_row)
from compoworld_gym.tasks import Task

def _prompt_key(messages: Sequence[dict[str, Any]]) -> tuple[str, ...]:
    return tuple(str(m.get("content")) for m in messages)


def task_prompt(task: Task) -> list[dict[str, str]]:
    """The ``[system, user]`` messages of a task's episode (the dataset prompt)."""
    from compoworld_gym.prompts import system_prompt

    return [{"role": "system", "content": system_prompt(task.today)}, {"role": "user", "content": task.instruction}]


def prompt_dataset(tasks: Sequence[Task]) -> Any:
    """A ``datasets.Dataset`` with ``prompt`` and ``task_id`` columns."""
    from datasets import Dataset

    return Dataset.from_dict({"prompt": [task_prompt(t) for t in tasks], "task_id": [t.id for t in tasks]})


class GroupedRollout:
    """A TRL ``rollout_func`` driving a grouped vector env (see the module docstring).

    Args:
        tasks: the tasks the dataset's prompts come from.
        tokenizer: the policy's tokenizer (a tool-calling chat template).
        config: rollout settings.

    Raises:
        ValueError: no tasks, or two tasks with the same prompt.

    Attributes:
        last_batch: the last call's ``{"group_rewards", "rubric_scores", "task_ids"}`` (for logging and tests).
    """

    def __init__(self, tasks: Sequence[Task], tokenizer: Any, config: Optional[RolloutConfig] = None) -> None:
        from trl.chat_template_utils import get_training_chat_template

        self.tasks = list(tasks)
        if not self.tasks:
            raise ValueError("GroupedRollout needs at least one task")
        self.by_prompt = {_prompt_key(task_prompt(t)): t.id for t in self.tasks}
        if len(self.by_prompt) != len(self.tasks):
            raise ValueError("two tasks share the same prompt: a prompt must identify its task")
        self.tokenizer = tokenizer
        self.config = config or RolloutConfig()
        # Env replies are cut out of full renders: the template must be prefix-preserving.
        self.template = get_training_chat_template(tokenizer) or tokenizer.chat_template
        self.tools: Optional[list[dict[str, Any]]] = None
        self._venvs: dict[tuple[int, int], Any] = {}
        self._calls = 0
        self.last_batch: dict[str, Any] = {}

    # ------------------------------------------------------------ rendering
    def _render(self, messages: list[dict[str, Any]], generation_prompt: bool) -> list[int]:
        return list(self.tokenizer.apply_chat_template(
            messages, tools=self.tools, chat_template=self.template, add_generation_prompt=generation_prompt,
            tokenize=True, return_dict=False))

    def env_reply_ids(self, new_messages: list[dict[str, Any]]) -> list[int]:
        """Tokens of the env's reply after an assistant turn that ended on EOS:
        the ``tool``/``user`` messages and the next assistant header.

        Raises:
            ValueError: the chat template is not prefix-preserving.
        """
        first = new_messages[0]
        if first["role"] == "tool":
            call = {"type": "function", "function": {"name": first.get("name") or "tool", "arguments": {}}}
            dummy = [{"role": "user", "content": "x"}, {"role": "assistant", "content": "", "tool_calls": [call]}]
        else:
            dummy = [{"role": "user", "content": "x"}, {"role": "assistant", "content": "x"}]
        prefix = self._render(dummy, False)
        eos = self.tokenizer.eos_token_id
        if eos in prefix:  # Qwen renders "<|im_end|>\n": the model stops at the EOS itself
            prefix = prefix[:len(prefix) - prefix[::-1].index(eos)]
        full = self._render(dummy + new_messages, True)
        if full[:len(prefix)] != prefix:
            raise ValueError("the chat template is not prefix-preserving; cannot cut out the env's reply")
        return full[len(prefix):]

    # ----------------------------------------------------------- generation
    def _generate(self, trainer: Any, inputs: list[list[int]]) -> tuple[list[list[int]], list[list[float]]]:
        """One batched generation step: new token ids (and logprobs) per input."""
        if getattr(trainer, "use_vllm", False):
            _, ids, logprobs, _ = trainer.vllm_generation.generate(prompts=inputs, images=None, num_generations=1)
            return [list(x) for x in ids], [[lp[0] for lp in row] for row in logprobs]
        import torch

        model = trainer.accelerator.unwrap_model(trainer.model)
        pad, eos = self.tokenizer.pad_token_id, self.tokenizer.eos_token_id
        width = max(len(x) for x in inputs)
        ids = torch.tensor([[pad] * (width - len(x)) + x for x in inputs], device=model.device)
        mask = torch.tensor([[0] * (width - len(x)) + [1] * len(x) for x in inputs], device=model.device)
        cfg = self.config
        with torch.no_grad():
            out = model.generate(input_ids=ids, attention_mask=mask, max_new_tokens=cfg.max_new_tokens,
                                 do_sample=True, temperature=cfg.temperature, top_p=cfg.top_p, top_k=0,
                                 pad_token_id=pad, eos_token_id=eos)
        rows = []
        for row in out[:, width:].tolist():
            rows.append(row[:row.index(eos) + 1] if eos in row else [t for t in row if t != pad])
        return rows, [[0.0] * len(r) for r in rows]

    # -------------------------------------------------------------- rollout
    def _groups(self, prompts: list[Any], g: int) -> list[str]:
        if len(prompts) % g:
            raise ValueError(f"{len(prompts)} prompts is not a multiple of num_generations={g}")
        ids = []
        for start in range(0, len(prompts), g):
            keys = {_prompt_key(p) for p in prompts[start:start + g]}
            if len(keys) != 1:
                raise ValueError("each run of num_generations prompts must be one task (a group was split)")
            key = keys.pop()
            if key not in self.by_prompt:
                raise ValueError(f"prompt of no known task: {key[-1][:80]!r}")
            ids.append(self.by_prompt[key])
        return ids

    def _venv(self, b: int, g: int) -> Any:
        if (b, g) not in self._venvs:
            from compoworld_gym.wrappers import ChatFormat, make_grouped_vector_env

            self._venvs[(b, g)] = make_grouped_vector_env(
                self.tasks, group_size=g, num_groups=b, max_steps=self.config.max_turns,
                completion_focused=self.config.reward == "completion_focused", member_wrappers=(ChatFormat,))
        return self._venvs[(b, g)]

    def __call__(self, prompts: list[Any], trainer: Any) -> dict[str, Any]:
        """Roll out every prompt; returns TRL's rollout dict (see the module docstring)."""
        g = trainer.num_generations if trainer.model.training else trainer.num_generations_eval
        task_ids = self._groups(prompts, g)
        venv = self._venv(len(task_ids), g)
        obs, _ = venv.reset(seed=self._calls, options={"tasks": task_ids})
        self._calls += 1
        n = len(obs)
        self.tools = meta_tool_definitions()
        prompt_ids = [self._render(o, True) for o in obs]
        completion: list[list[int]] = [[] for _ in range(n)]
        env_mask: list[list[int]] = [[] for _ in range(n)]
        logprobs: list[list[float]] = [[] for _ in range(n)]
        history = [len(o) for o in obs]
        ended = np.zeros(n, dtype=bool)
        rows: list[Optional[RubricRow]] = [None] * n
        scores, rewards, turns = np.zeros(n), np.zeros(n), np.zeros(n, dtype=int)
        while not ended.all():
            live = [i for i in range(n) if not ended[i]]
            over = {i for i in live if len(completion[i]) >= self.config.max_completion_tokens}
            gen = [i for i in live if i not in over]
            texts = [""] * n  # ended sub-envs ignore their action; an empty text is a final answer
            if gen:
                new, lps = self._generate(trainer, [prompt_ids[i] + completion[i] for i in gen])
                for i, ids, lp in zip(gen, new, lps):
                    completion[i] += ids
                    env_mask[i] += [1] * len(ids)
                    logprobs[i] += lp
                    texts[i] = self.tokenizer.decode(ids, skip_special_tokens=True)
                    turns[i] += 1
            obs, step_rewards, terms, truncs, info = venv.step(texts)
            rewards += step_rewards
            for i in live:
                if terms[i] or truncs[i]:
                    ended[i] = True
                    rows[i] = rubric_row(info["rubric"][i])
                    scores[i] = info["rubric_score"][i]
                    continue
                reply = self.env_reply_ids(obs[i][history[i] + 1:])
                if not completion[i] or completion[i][-1] != self.tokenizer.eos_token_id:
                    reply = [self.tokenizer.eos_token_id] + reply  # the turn hit max_new_tokens
                completion[i] += reply
                env_mask[i] += [0] * len(reply)
                logprobs[i] += [0.0] * len(reply)
                history[i] = len(obs[i])
        final = self._rewards(rewards, rows, g)
        self.last_batch = {"group_rewards": final.reshape(-1, g), "rubric_scores": scores.copy(),
                           "task_ids": [task_ids[i // g] for i in range(n)]}
        return {"prompt_ids": prompt_ids, "completion_ids": completion, "env_mask": env_mask,
                "logprobs": logprobs if getattr(trainer, "use_vllm", False) else None,
                "env_reward": final.tolist(), "rubric_score": scores.tolist(), "num_turns": turns.tolist(),
                "task_id": self.last_batch["task_ids"]}

    def _rewards(self, summed: np.ndarray, rows: list[Optional[RubricRow]], g: int) -> np.ndarray:
        if self.config.reward == "completion_focused":
            return summed  # CompletionFocusedReward paid each sub-env its group reward once
        return np.concatenate([group_rewards(rows[s:s + g], self.config.reward) for s in range(0, len(rows), g)])


def group_rewards(rows: Sequence[RubricRow], kind: RewardKind = "completion_focused",
                  weight_fn: Optional[WeightFn] = None) -> np.ndarray:
    """The rewards of one group from its episodes' rubric rows (the rule: :mod:`compoworld_gym.rewards`).

    Args:
        rows: the rubric rows (:class:`~compoworld_gym.rewards.RubricRow`) of the ``G`` rollouts of one task.
        kind: ``"completion_focused"`` (item weights from the group's pass
            rates), ``"binary"`` or ``"fraction"``; guards scale the reward
            instead of earning it.
        weight_fn: the completion-focused weighting function (default ``1 - p + 0.1``).

    Returns:
        ``(G,)`` float64 rewards in [0, 1].

    Raises:
        ValueError: no rows, rows of different rubrics (a group mixing
            tasks), or an unknown ``kind``.
    """
    if not rows:
        raise ValueError("a group needs at least one rollout")
    if any(r.ids != rows[0].ids for r in rows):
        raise ValueError("the group mixes tasks with different rubrics; each group must run one task")
    passes, guards = np.stack([r.passes for r in rows]), rows[0].guards
    if kind == "completion_focused":
        return completion_focused_reward(passes, weight_fn, guards=guards).rewards
    if kind == "binary":
        return binary_reward(passes, guards=guards)
    if kind == "fraction":
        return fraction_reward(passes, guards=guards)
    raise ValueError(f"unknown reward kind {kind!r}")


def env_reward(completions: list[Any], env_reward: list[float], **kwargs: Any) -> list[float]:
    """TRL reward function: the rubric reward the rollout function computed."""
    return [float(r) for r in env_reward]


def grpo_config(output_dir: str, groups: int, group_size: int, **overrides: Any) -> Any:
    """A ``GRPOConfig`` for ``groups`` tasks × ``group_size`` rollouts per step
    (on a machine without CUDA: CPU, float32, no gradient checkpointing).

    The learning rate defaults to :class:`~compoworld_gym.baselines.config.GRPOArguments`'
    (1e-6); ``overrides`` are any ``GRPOConfig`` fields.
    """
    import torch
    from trl import GRPOConfig

    cpu = not torch.cuda.is_available()
    kwargs: dict[str, Any] = dict(
        output_dir=output_dir, num_generations=group_size, per_device_train_batch_size=groups * group_size,
        gradient_accumulation_steps=1, learning_rate=GRPOArguments.learning_rate, logging_steps=1, save_strategy="no",
        report_to="none", use_cpu=cpu, bf16=not cpu, gradient_checkpointing=not cpu, seed=0, data_seed=0,
        log_completions=False,
    )
    kwargs.update(overrides)
    return GRPOConfig(**kwargs)


def make_grpo_trainer(model: Any, tokenizer: Any, tasks: Sequence[Task], args: Any,
                      rollout: Optional[RolloutConfig] = None, lora: Any = None) -> Any:
    """A ``GRPOTrainer`` whose rollouts run in grouped vector envs.

    Args:
        model: a ``PreTrainedModel`` (or a local path).
        tokenizer: its tokenizer (left padding, a pad token).
        tasks: the training tasks (one dataset row each).
        args: a ``GRPOConfig`` (see :func:`grpo_config`).
        rollout: rollout settings (reward kind, turns, token budgets).
        lora: ``True`` for :func:`compoworld_gym.baselines.sft.lora_config`, a ``LoraConfig``, or None.
    """
    import os

    from trl import GRPOTrainer

    from compoworld_gym.baselines.sft import lora_config

    os.environ.setdefault("TRL_EXPERIMENTAL_SILENCE", "1")
    rollout_func = GroupedRollout(tasks, tokenizer, rollout)
    trainer = GRPOTrainer(model=model, reward_funcs=[env_reward], args=args, train_dataset=prompt_dataset(tasks),
                          processing_class=tokenizer, rollout_func=rollout_func,
                          peft_config=lora_config() if lora is True else (lora or None))
    trainer.compoworld_rollout = rollout_func
    return trainer


def main(argv: Optional[Sequence[str]] = None) -> None:
    """Command-line entry point (see the module docstring; flags: :class:`GRPOArguments` and
    :class:`RolloutConfig`, or ``--config run.yaml``)."""
    from compoworld_gym.baselines.hf_agent import load_model

    a, rollout = parse_args((GRPOArguments, RolloutConfig), argv,
                            "GRPO on CompoWorld tasks over grouped vector envs (TRL).")
    from compoworld_gym.generation import generate_tasks
    from compoworld_gym.tasks import load_tasks

    tasks = load_tasks(a.tasks) if a.tasks else generate_tasks(8, 0)
    model, tokenizer = load_model(a.model)
    extra = dict(use_vllm=True, vllm_mode="colocate", max_completion_length=rollout.max_new_tokens) if a.vllm else {}
    args = grpo_config(a.output_dir, a.groups, a.group_size, max_steps=a.max_steps, learning_rate=a.learning_rate,
                       **({"bf16": True} if a.bf16 else {}), **extra)
    trainer = make_grpo_trainer(model, tokenizer, tasks, args, rollout, lora=a.lora or None)
    trainer.train()
    trainer.save_model(a.output_dir)


if __name__ == "__main__":
    from compoworld_gym.cli.app import run_script

    run_script(main)
