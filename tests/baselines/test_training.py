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


# ------------------------------------------------------------------ the command lines (config dataclasses)
def test_flags_and_defaults_come_from_the_config_dataclasses(tmp_path):
    from compoworld_gym.baselines.config import GRPOArguments, SFTArguments, parse_args

    a, rollout = parse_args((GRPOArguments, RolloutConfig), ["--model", "tiny"], "GRPO")
    assert (a.learning_rate, a.output_dir, a.groups, a.group_size, a.lora, a.vllm) == (1e-6, "runs/grpo", 2, 4,
                                                                                     False, False)
    assert rollout == RolloutConfig() and (rollout.max_turns, rollout.max_new_tokens) == (16, 512)
    assert rollout.max_completion_tokens == 16 * (512 + 2048)  # derived when not given
    a, rollout = parse_args((GRPOArguments, RolloutConfig), [
        "--model", "m", "--group-size", "3", "--max_turns", "5", "--lora", "--reward", "binary", "--top-p", "0.9"], "")
    assert (a.group_size, a.lora, rollout.max_turns, rollout.reward, rollout.top_p) == (3, True, 5, "binary", 0.9)
    config = tmp_path / "run.yaml"
    config.write_text("model: ./m\nmax_steps: 7\nmax_length: 512\n")
    (s,) = parse_args((SFTArguments,), ["--config", str(config), "--max-steps", "9", "--trajectories", "a", "b"], "")
    assert (s.model, s.max_steps, s.max_length, s.trajectories, s.min_score) == ("./m", 9, 512, ["a", "b"], 1.0)
    with pytest.raises(SystemExit):  # argparse: not one of the choices
        parse_args((GRPOArguments, RolloutConfig), ["--model", "m", "--reward", "sparse"], "")
    with pytest.raises(ValueError, match="max_turns must be a positive int"):
        parse_args((GRPOArguments, RolloutConfig), ["--model", "m", "--max-turns", "0"], "")
    with pytest.raises(ValueError, match="min_score must be in"):
        SFTArguments(model="m", min_score=2.0)
    assert "    max_turns: model turns per episode (the env's step limit) (default 16)." in RolloutConfig.__doc__


class _StubTrainer:
    def __init__(self):
        self.trained = False

    def train(self):
        self.trained = True

    def save_model(self, path):
        pass


def test_grpo_and_sft_commands_pass_their_flags_to_the_trainers(easy_tasks, tmp_path, monkeypatch):
    from compoworld_gym.baselines import grpo, hf_agent, sft
    from compoworld_gym.tasks import save_tasks

    seen = {}
    monkeypatch.setattr(hf_agent, "load_model", lambda model, **kw: (f"model:{model}", types.SimpleNamespace(
        save_pretrained=lambda path: None)))
    monkeypatch.setattr(grpo, "make_grpo_trainer", lambda model, tok, tasks, args, rollout, lora=None: seen.update(
        grpo=(model, [t.id for t in tasks], args, rollout, lora)) or _StubTrainer())
    monkeypatch.setattr(sft, "make_sft_trainer", lambda model, tok, data, args=None, lora=None: seen.update(
        sft=(model, len(data), args, lora)) or _StubTrainer())
    tasks = tmp_path / "tasks.jsonl"
    save_tasks(easy_tasks, tasks)
    grpo.main(["--model", "tiny", "--tasks", str(tasks), "--output-dir", str(tmp_path / "g"), "--groups", "1",
               "--group-size", "3", "--max-steps", "2", "--learning-rate", "1e-5", "--max-turns", "4",
               "--max-new-tokens", "64", "--reward", "fraction", "--lora"])
    model, ids, args, rollout, lora = seen["grpo"]
    assert model == "model:tiny" and ids == [t.id for t in easy_tasks] and lora is True
    assert (args.num_generations, args.per_device_train_batch_size, args.max_steps, args.learning_rate) == (
        3, 3, 2, 1e-5)
    assert (rollout.max_turns, rollout.max_new_tokens, rollout.reward, rollout.max_completion_tokens) == (
        4, 64, "fraction", 4 * (64 + 2048))
    trajectories = tmp_path / "t.jsonl"
    trajectories.write_text("".join(t.to_json() + "\n" for t in reference_trajectories(easy_tasks)))
    sft.main(["--model", "tiny", "--trajectories", str(trajectories), "--output-dir", str(tmp_path / "s"),
              "--max-steps", "3", "--learning-rate", "2e-3", "--max-length", "1024", "--min-score", "0.5"])
    model, n, args, lora = seen["sft"]
    assert (model, n, lora) == ("model:tiny", 2, None)
    assert (args.max_steps, args.learning_rate, args.max_length, args.assistant_only_loss) == (3, 2e-3, 1024, True)
