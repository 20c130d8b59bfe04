"""SFT and GRPO on the tiny model (CPU): two steps each, on real batches."""

from __future__ import annotations

import math
import types

import numpy as np
import orjson
import pytest

pytest.importorskip("torch")
pytest.importorskip("trl")

import torch  # noqa: E402

from baseline_scripts import ScriptedGenerate, call_text, reference_script  # noqa: E402
from compoworld_gym.baselines.grpo import (GroupedRollout, RolloutConfig, grpo_config,  # noqa: E402
                                           make_grpo_trainer, task_prompt)
from compoworld_gym.baselines.sft import (build_sft_dataset, make_sft_trainer, reference_trajectories,  # noqa: E402
                                          sft_config, successful)
from compoworld_gym.rewards import completion_focused_reward  # noqa: E402
from compoworld_gym.trajectory import load_trajectories  # noqa: E402


def snapshot(model):
    return {n: p.detach().clone() for n, p in model.named_parameters()}


def changed(model, before):
    return sum(not torch.equal(before[n], p) for n, p in model.named_parameters())


def test_sft_dataset_from_reference_runs_and_recorded_files(easy_tasks, tmp_path):
    trajs = reference_trajectories(easy_tasks)
    path = tmp_path / "t.jsonl"
    path.write_text("".join(t.to_json() + "\n" for t in trajs))
    loaded = successful(load_trajectories(path))
    assert len(loaded) == 2
    ds = build_sft_dataset(loaded)
    assert ds.column_names == ["messages", "tools", "task_id"] and ds["task_id"] == [t.id for t in easy_tasks]
    first_call = ds[0]["messages"][2]["tool_calls"][0]["function"]
    assert isinstance(first_call["arguments"], str) and orjson.loads(first_call["arguments"]) == {}
    assert [t["function"]["name"] for t in orjson.loads(ds[0]["tools"])][0] == "list_services"
    failed = trajs[0].model_copy(update={"meta": trajs[0].meta.model_copy(update={"rubric_score": 0.5})})
    assert successful([failed]) == []


def test_two_sft_steps_on_assistant_tokens_only(tiny, easy_tasks, tmp_path):
    make_model, tok = tiny
    model = make_model(0)
    data = build_sft_dataset(successful(reference_trajectories(easy_tasks[:1])))
    trainer = make_sft_trainer(model, tok, data, args=sft_config(str(tmp_path), max_steps=2, disable_tqdm=True))
    row = trainer.train_dataset[0]
    trained = tok.decode([i for i, lab in zip(row["input_ids"], row["labels"]) if lab != -100])
    ignored = tok.decode([i for i, lab in zip(row["input_ids"], row["labels"]) if lab == -100])
    assert trained.count("<tool_call>") == len(easy_tasks[0].reference) and "<tool_response>" not in trained
    assert "<tool_response>" in ignored and "Today's date is" in ignored
    before = snapshot(model)
    trainer.train()
    losses = [h["loss"] for h in trainer.state.log_history if "loss" in h]
    assert len(losses) == 2 and all(math.isfinite(x) and x > 0 for x in losses)
    assert changed(model, before) == len(before)


def scripts_for(task):
    """Three rollouts passing different rubric items: all / the write only / nothing."""
    write = call_text(task.reference[-1].action())
    return [[write, task.reference_answer], [write, "Done."], ["Done."]]


def test_two_grpo_steps_rubric_rewards_vary_and_env_tokens_are_masked(tiny, easy_tasks, tmp_path):
    make_model, tok = tiny
    model = make_model(1)
    task = easy_tasks[0]
    positive = [c.kind for c in task.checks if not c.is_guard]
    guards = [c.is_guard for c in task.checks]
    assert len(positive) == 2 and positive[1] == "answer_contains" and any(guards)
    gen = ScriptedGenerate(tok, scripts_for(task))
    model.generate = gen
    args = grpo_config(str(tmp_path), groups=1, group_size=3, max_steps=2, learning_rate=1e-3, disable_tqdm=True)
    trainer = make_grpo_trainer(model, tok, [task], args, RolloutConfig(max_turns=6, max_completion_tokens=20000))
    batches = []
    inner = trainer._generate_and_score_completions
    trainer._generate_and_score_completions = lambda inputs: batches.append(inner(inputs)) or batches[-1]
    before = snapshot(model)
    trainer.train()
    losses = [h["loss"] for h in trainer.state.log_history if "loss" in h]
    assert len(losses) == 2 and all(math.isfinite(x) and x != 0 for x in losses)
    assert changed(model, before) > 0
    # rewards: the rubric's pass matrix (all / write only / nothing; guards kept) through the
    # completion-focused reward, guards masked
    done = {positive[0]: [1, 1, 0], "answer_contains": [1, 0, 0]}
    passes = [[done.get(c.kind, [1, 1, 1])[k] for c in task.checks] for k in range(3)]
    expected = completion_focused_reward(passes, guards=guards).rewards
    got = trainer.compoworld_rollout.last_batch["group_rewards"][0]
    assert np.allclose(got, expected) and got[0] == pytest.approx(1.0) and 0 < got[1] < 1 and got[2] == 0.0
    assert trainer.compoworld_rollout.last_batch["rubric_scores"].tolist() == [1.0, 0.5, 0.0]
    assert gen.batch_sizes[:2] == [3, 2]  # one batched generation per turn over the live sub-envs
    # env tokens masked, checked on the batch TRL trained on
    batch = batches[-1]
    ids, mask, keep = batch["completion_ids"][0], batch["tool_mask"][0], batch["completion_mask"][0]
    model_text = tok.decode(ids[(mask * keep).bool()])
    env_text = tok.decode(ids[(1 - mask).bool() & keep.bool()])
    assert model_text.count("<tool_call>") == 1 and task.reference_answer in model_text
    assert "<tool_response>" in env_text and "<tool_call>" not in env_text and '"success":true' in env_text
    assert int((1 - mask)[keep.bool()].sum()) > 10


def fake_trainer(model, g):
    return types.SimpleNamespace(model=model, num_generations=g, num_generations_eval=g,
                                 accelerator=types.SimpleNamespace(unwrap_model=lambda m: m))


@pytest.mark.parametrize("kind, expected", [("binary", [1.0, 0.0, 0.0]), ("fraction", [1.0, 0.5, 0.0])])
def test_rollout_reward_flags(tiny, easy_tasks, kind, expected):
    make_model, tok = tiny
    model = make_model(0)
    task = easy_tasks[0]
    model.generate = ScriptedGenerate(tok, scripts_for(task))
    rollout = GroupedRollout([task], tok, RolloutConfig(max_turns=6, reward=kind, max_completion_tokens=20000))
    out = rollout([task_prompt(task)] * 3, fake_trainer(model, 3))
    assert out["env_reward"] == expected and out["num_turns"] == [2, 2, 1]
    assert all(len(c) == len(m) for c, m in zip(out["completion_ids"], out["env_mask"]))
    assert out["logprobs"] is None and out["task_id"] == [task.id] * 3


def test_rollout_rejects_split_groups_and_unknown_prompts(tiny, easy_tasks):
    make_model, tok = tiny
    rollout = GroupedRollout(easy_tasks, tok)
    a, b = (task_prompt(t) for t in easy_tasks)
    with pytest.raises(ValueError, match="a group was split"):
        rollout([a, b], fake_trainer(make_model(0), 2))
    with pytest.raises(ValueError, match="prompt of no known task"):
        rollout([[{"role": "user", "content": "hi"}]] * 2, fake_trainer(make_model(0), 2))
    with pytest.raises(ValueError, match="reward must be"):
        RolloutConfig(reward="sparse")


def test_hf_agent_runs_the_tiny_model_and_parses_its_turns(tiny, easy_tasks):
    from compoworld_gym.baselines.evaluate import evaluate_agent
    from compoworld_gym.baselines.hf_agent import HFAgent

    make_model, tok = tiny
    model = make_model(0)
    task = easy_tasks[0]
    agent = HFAgent(model, tok, max_new_tokens=8, device="cpu")
    metrics, runs = evaluate_agent(lambda s: agent, [task], max_steps=3)  # real generation, random weights
    assert runs[task.id][0].steps <= 3 and 0.0 <= metrics["mean_rubric_score"] <= 1.0
    model.generate = ScriptedGenerate(tok, [reference_script(task)])
    metrics, _ = evaluate_agent(lambda s: agent, [task], max_steps=10)
    assert metrics["success_rate"] == 1.0
