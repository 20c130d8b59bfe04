"""TRL's own tool loop: ``GRPOTrainer(environment_factory=...)`` and the ``AsyncGRPOTrainer`` rollout worker."""

from __future__ import annotations

import contextvars
import importlib.util
import inspect
import itertools
import math
import os
import pickle
import queue
import re
import threading
import types
from pathlib import Path

import numpy as np
import orjson
import pytest

from compoworld_gym.baselines.trl_env import (ANSWER_SENTENCE, TOOL_NAMES, CompoWorldEnvFactory,
                                              CompoWorldScoredToolEnv, CompoWorldToolEnv, GroupRubricReward)
from compoworld_gym.metatools import MetaTools, meta_tool_definitions
from compoworld_gym.rewards import completion_focused_reward
from compoworld_gym.tasks import save_tasks

DOC = Path(__file__).resolve().parents[2] / "docs" / "integrations" / "trl.md"


def trl_tool_names(env):
    """The methods TRL turns into tools (grpo_trainer.py: public functions of the class but reset/get_reward)."""
    return [n for n, _ in inspect.getmembers(type(env), predicate=inspect.isfunction)
            if not n.startswith("_") and n not in ("reset", "get_reward")]


def run_reference(env, task):
    for call in task.reference:
        action = orjson.loads(call.action())
        assert orjson.loads(getattr(env, action["name"])(**action.get("arguments", {}))).get("success") is not False


def test_tools_are_the_meta_tools_plus_answer_and_only_the_scored_env_owns_a_reward(easy_tasks):
    scored, plain = CompoWorldEnvFactory(tasks=easy_tasks)(), CompoWorldEnvFactory(easy_tasks, owns_reward=False)()
    assert type(scored) is CompoWorldScoredToolEnv and type(plain) is CompoWorldToolEnv
    assert trl_tool_names(scored) == trl_tool_names(plain) == sorted(TOOL_NAMES)
    assert callable(getattr(scored, "get_reward", None)) and not hasattr(plain, "get_reward")
    for name in TOOL_NAMES[:4]:  # derived from MetaTools, not written twice
        method, declared = getattr(CompoWorldToolEnv, name), getattr(MetaTools, name)
        assert method.__doc__ == declared.__doc__
        assert list(inspect.signature(method).parameters) == list(inspect.signature(declared).parameters)
        assert inspect.signature(method).return_annotation is str


def normalised(schema):
    """JSON-Schema spellings that mean the same: TRL's extra ``return``, an absent empty ``required``,
    ``additionalProperties: {}`` (any value) for ``true``, ``nullable`` of an optional parameter."""
    fn = {k: v for k, v in schema["function"].items() if k != "return"}
    params = {**fn["parameters"], "required": fn["parameters"].get("required", [])}
    props = {}
    for key, prop in params["properties"].items():
        prop = dict(prop)
        if prop.get("additionalProperties") == {}:
            prop["additionalProperties"] = True
        if prop.pop("nullable", False):
            assert key not in params["required"]
        props[key] = prop
    return {"type": schema["type"], "function": {**fn, "parameters": {**params, "properties": props}}}


def test_trl_schema_of_each_tool_equals_the_meta_tool_definitions(easy_tasks):
    pytest.importorskip("transformers")
    from transformers.utils import get_json_schema

    env = CompoWorldEnvFactory(tasks=easy_tasks)()
    ours = {d["function"]["name"]: d for d in meta_tool_definitions()}
    for name, definition in ours.items():
        trl_schema = get_json_schema(getattr(env, name))  # what TRL renders into the prompt
        assert trl_schema["function"]["return"]["type"] == "string"
        assert normalised(trl_schema) == normalised(definition), name
    answer = get_json_schema(env.answer)["function"]
    assert answer["parameters"]["required"] == ["text"] and answer["description"].startswith("Give your final")


def test_answer_ends_the_episode_then_tools_get_409_and_reset_clears(easy_tasks):
    task = easy_tasks[0]
    env = CompoWorldEnvFactory(tasks=easy_tasks, max_steps=20)()
    assert env.reset(task_id=task.id, prompt=[]) is None and not env.ended
    assert orjson.loads(env.list_services())["services"]
    run_reference(env, task)
    done = env.answer(task.reference_answer)
    assert done == '{"success":true,"data":{"message":"Answer recorded. The task is over."}}'
    assert env.ended and env.score == 1.0 and env.get_reward() == 1.0
    for late in (env.list_tools("crm"), env.answer("again"), env.call_tool(tool_name="x")):
        error = orjson.loads(late)["error"]
        assert error["code"] == 409 and "you gave your final answer" in error["message"]
    assert env.get_reward() == 1.0  # unchanged by the refused calls
    env.reset(task_id=task.id)
    assert env.rubric is None and env.score is None and env.get_reward() == 0.0  # nothing done, no answer
    assert "it was scored" in orjson.loads(env.list_services())["error"]["message"]


def test_get_reward_without_answer_scores_the_episode_as_it_stands(easy_tasks):
    task = easy_tasks[0]
    env = CompoWorldEnvFactory(tasks=easy_tasks)()
    env.reset(task_id=task.id)
    run_reference(env, task)  # the work, but no answer call (the model replied in plain text)
    assert env.get_reward() == 0.5  # the write passes, the answer check fails, guards hold
    kinds = [c.kind for c in task.checks]
    assert env.rubric.passes[kinds.index("answer_contains")] == 0.0 and env.rubric.passes.sum() == len(kinds) - 1


def test_step_limit_bad_arguments_and_bad_inputs(easy_tasks, tmp_path):
    env = CompoWorldEnvFactory(tasks=easy_tasks, max_steps=1)()
    assert orjson.loads(env.list_services())["error"]["code"] == 409  # before any reset
    with pytest.raises(RuntimeError, match="reset"):
        env.get_reward()
    with pytest.raises(ValueError, match="task_id"):
        env.reset(prompt=[])
    with pytest.raises(ValueError, match="unknown task"):
        env.reset(task_id="no-such-task")
    env.reset(task_id=easy_tasks[0].id)
    bad = orjson.loads(env.call_tool(tool_name="x", extra=1))["error"]  # validated against MetaTools (400)
    assert bad["code"] == 400 and "unexpected argument 'extra'" in bad["message"] and env.ended  # 1 step used
    late = orjson.loads(env.list_services())["error"]
    assert late["code"] == 409 and "step limit (1 steps)" in late["message"]
    for kwargs, error in [(dict(tasks=easy_tasks, task_file="t.jsonl"), "not both"), (dict(tasks=[]), "at least one"),
                          (dict(max_steps=0), "positive int"), (dict(task_file=str(tmp_path / "no.jsonl")), "exist")]:
        with pytest.raises((ValueError, FileNotFoundError), match=error):
            CompoWorldEnvFactory(**kwargs)
    assert CompoWorldEnvFactory(max_steps=7).grpo_kwargs() == {"max_tool_calling_iterations": 7}


def test_factory_and_envs_pickle_mid_episode(easy_tasks, tmp_path):
    task = easy_tasks[1]
    factory = pickle.loads(pickle.dumps(CompoWorldEnvFactory(tasks=easy_tasks, max_steps=30)))
    env = factory()
    env.reset(task_id=task.id)
    env.list_services()
    run_reference(env, task)
    clone = pickle.loads(pickle.dumps(env))  # AsyncGRPOTrainer's spawned worker pickles the factory, Ray the envs
    assert clone.answer(task.reference_answer) == env.answer(task.reference_answer)
    assert clone.get_reward() == env.get_reward() == 1.0 and clone.rubric.ids == env.rubric.ids
    path = tmp_path / "tasks.jsonl"
    save_tasks(easy_tasks, path)
    by_file = CompoWorldEnvFactory(task_file=str(path))
    assert len(pickle.dumps(by_file)) < 500 and [t.id for t in pickle.loads(pickle.dumps(by_file)).task_pool()] == [
        t.id for t in easy_tasks]
    reward = GroupRubricReward(CompoWorldEnvFactory(tasks=easy_tasks, owns_reward=False), num_generations=1)
    reward.replay(task.id, [])
    assert pickle.loads(pickle.dumps(reward))([[]], task_id=[task.id]) == [0.0]


def test_group_reward_refuses_what_it_cannot_score(easy_tasks):
    plain = CompoWorldEnvFactory(tasks=easy_tasks, owns_reward=False)
    with pytest.raises(ValueError, match="owns_reward=False"):
        GroupRubricReward(CompoWorldEnvFactory(tasks=easy_tasks), num_generations=2)
    with pytest.raises(ValueError, match="kind must be"):
        GroupRubricReward(plain, 2, kind="sparse")
    reward = GroupRubricReward(plain, 2)
    envs = [plain() for _ in range(2)]
    for env, task in zip(envs, easy_tasks):
        env.reset(task_id=task.id)
    with pytest.raises(ValueError, match="not one task"):
        reward([[], []], environments=envs)
    with pytest.raises(ValueError, match="whole groups"):
        reward([[]], environments=envs[:1])
    with pytest.raises(ValueError, match="task_id"):
        reward([[], []])


# ------------------------------------------------------------------ GRPOTrainer, end to end
def scripts_for(task):
    """Four rollouts of one task: all done (then a refused call) / write + wrong answer / nothing /
    write, then the right answer in plain text (not read: scored as it stands)."""
    from baseline_scripts import call_text

    def answer(text):
        return call_text(orjson.dumps({"name": "answer", "arguments": {"text": text}}).decode())

    write = call_text(task.reference[-1].action())
    listing = call_text('{"name": "list_services"}')
    return [[write, answer(task.reference_answer), listing, "Done."], [write, answer("Done."), "Done."], ["Done."],
            [listing, write, task.reference_answer]]


#: Rubric scores of the four scripts (work items: the write, the answer; guards hold).
SCORES = [1.0, 0.5, 0.0, 0.5]


def expected_passes(task):
    work = {"answer_contains": [1, 0, 0, 0]}
    return np.array([[work.get(c.kind, [1, 1, 1, 1] if c.is_guard else [1, 1, 0, 1])[k] for c in task.checks]
                     for k in range(4)], dtype=float)


@pytest.mark.parametrize("owns_reward", [True, False], ids=["env-reward", "group-reward"])
def test_grpo_trainer_with_the_environment_factory_trains_on_rubric_rewards(tiny, easy_tasks, tmp_path,
                                                                            owns_reward):
    pytest.importorskip("trl")
    import torch
    from baseline_scripts import ScriptedGenerate
    from trl import GRPOTrainer

    from compoworld_gym.baselines.grpo import grpo_config
    from compoworld_gym.baselines.trl_env import prompt_dataset

    os.environ.setdefault("TRL_EXPERIMENTAL_SILENCE", "1")
    make_model, tok = tiny
    model, task = make_model(1), easy_tasks[0]
    model.generate = ScriptedGenerate(tok, scripts_for(task))
    factory = CompoWorldEnvFactory(tasks=[task], max_steps=6, owns_reward=owns_reward)
    reward_funcs = [] if owns_reward else [GroupRubricReward(factory, num_generations=4)]
    args = grpo_config(str(tmp_path), groups=1, group_size=4, max_steps=1, learning_rate=1e-3, disable_tqdm=True,
                       max_completion_length=8192, **factory.grpo_kwargs())
    trainer = GRPOTrainer(model=model, processing_class=tok, args=args, train_dataset=prompt_dataset([task]),
                          environment_factory=factory, reward_funcs=reward_funcs)
    assert trainer.max_tool_calling_iterations == 6
    calls = []
    inner = trainer._calculate_rewards
    trainer._calculate_rewards = lambda *a: calls.append((a, inner(*a))) or calls[-1][1]
    before = {n: p.detach().clone() for n, p in model.named_parameters()}
    trainer.train()
    loss = [h["loss"] for h in trainer.state.log_history if "loss" in h]
    assert len(loss) == 1 and math.isfinite(loss[0]) and loss[0] != 0
    assert sum(not torch.equal(before[n], p) for n, p in model.named_parameters()) > 0
    (inputs, prompts, completions, _ids), rewards = calls[0]
    envs = trainer.environments  # the batch's envs, still holding the ended episodes
    assert [e.score for e in envs] == SCORES and np.array_equal(np.stack([e.rubric.passes for e in envs]),
                                                                expected_passes(task))
    guards = envs[0].rubric.guards
    want = SCORES if owns_reward else completion_focused_reward(expected_passes(task), guards=guards).rewards
    assert rewards[:, 0].tolist() == pytest.approx(list(want))  # the one reward column TRL trained on
    assert trainer.reward_func_names == ["CompoWorldScoredToolEnv" if owns_reward else "completion_focused_reward"]
    assert ANSWER_SENTENCE in prompts[0][0]["content"]
    refused = [m for m in completions[0] if m["role"] == "tool"][-1]
    assert "409" in refused["content"] and "you gave your final answer" in refused["content"]
    replayer = GroupRubricReward(CompoWorldEnvFactory(tasks=[task], max_steps=6, owns_reward=False), 4)
    for env, completion in zip(envs, completions):  # what the async path does without environments=
        assert np.array_equal(replayer.replay(task.id, completion).passes, env.rubric.passes)


# ------------------------------------------------------------------ AsyncGRPOTrainer's rollout worker
_ROLLOUT = contextvars.ContextVar("rollout")
SEEN_KWARGS: list[set] = []


def spy_reward(completions, **kwargs):
    """Records the keyword arguments the async worker passes; no reward of its own (None: ignored)."""
    SEEN_KWARGS.append(set(kwargs))
    return [None] * len(completions)


def scripted_loop_class():
    from trl.experimental.async_grpo.async_rollout_worker import _AsyncRolloutLoop

    class ScriptedLoop(_AsyncRolloutLoop):
        """TRL's rollout loop with scripted turns in place of vLLM's ``/v1/completions``."""

        def __init__(self, *, scripts, **kwargs):
            super().__init__(**kwargs)
            self.scripts, self._next, self._turns = scripts, itertools.count(), {}

        async def _generate_one(self, *args, **kwargs):
            _ROLLOUT.set(next(self._next))  # each rollout is one asyncio task: its own context
            return await super()._generate_one(*args, **kwargs)

        async def _generate_one_turn(self, prompt_ids):
            k = _ROLLOUT.get()
            turn = self._turns[k] = self._turns.get(k, -1) + 1
            ids = self.tokenizer.encode(self.scripts[k % len(self.scripts)][turn], add_special_tokens=False)
            return ids + [self.tokenizer.eos_token_id], [0.0] * (len(ids) + 1)

    return ScriptedLoop


@pytest.mark.parametrize("owns_reward", [True, False], ids=["env-reward", "replayed-group-reward"])
def test_async_rollout_worker_scores_groups_without_environments(tiny, easy_tasks, owns_reward):
    pytest.importorskip("trl")
    pytest.importorskip("aiohttp")
    from accelerate.state import PartialState

    from compoworld_gym.baselines.trl_env import prompt_dataset

    os.environ.setdefault("TRL_EXPERIMENTAL_SILENCE", "1")
    PartialState()  # as TRL's child process does first
    _, tok = tiny
    task = easy_tasks[0]
    factory = CompoWorldEnvFactory(tasks=[task], max_steps=6, owns_reward=owns_reward)
    rewards = [spy_reward] + ([] if owns_reward else [GroupRubricReward(factory, num_generations=4)])
    kwargs = dict(model_name="tiny", dataset=prompt_dataset([task]), reward_funcs=rewards, processing_class=tok,
                  eos_token_ids=[tok.eos_token_id], environment_factory=factory, num_generations=4,
                  max_inflight_tasks=4, **factory.grpo_kwargs())
    kwargs = pickle.loads(pickle.dumps(kwargs))  # AsyncRolloutWorker.start pickles them into a spawned process
    buffer, SEEN_KWARGS[:] = queue.Queue(), []
    loop = scripted_loop_class()(
        scripts=scripts_for(task), rollout_buffer=buffer, model_version_value=types.SimpleNamespace(value=0),
        heartbeat_value=types.SimpleNamespace(value=0.0), failed_event=threading.Event(),
        exception_info_queue=queue.Queue(1), metrics_queue=queue.Queue(4096), **kwargs)
    thread = threading.Thread(target=loop.run, daemon=True)
    thread.start()
    try:
        samples = [buffer.get(timeout=60) for _ in range(4)]
    finally:
        loop._loop.call_soon_threadsafe(loop._stop_event.set)
        thread.join(30)
    assert {s.group_id for s in samples} == {0} and "environments" not in SEEN_KWARGS[0]
    assert "task_id" in SEEN_KWARGS[0]  # the dataset column the replay needs
    guards = np.array([c.is_guard for c in task.checks])
    want = SCORES if owns_reward else completion_focused_reward(expected_passes(task), guards=guards).rewards
    got = sorted(s.metrics["reward"] for s in samples)
    assert got == pytest.approx(sorted(want)) and len({round(s.advantage, 6) for s in samples}) == 3
    column = "rewards/CompoWorldScoredToolEnv" if owns_reward else "rewards/completion_focused_reward"
    assert all(s.metrics[column] == s.metrics["reward"] for s in samples)


def test_async_grpo_trainer_itself_needs_vllm_and_flash_attention_3():
    # Why the whole AsyncGRPOTrainer cannot run here: its model is forced onto a FlashAttention-3 kernel
    # fetched from the hub, and its default rollout worker needs vLLM (a server it talks to over HTTP).
    pytest.importorskip("trl")
    from trl.experimental.async_grpo import async_grpo_trainer, packing
    from trl.experimental.async_grpo.async_rollout_worker import AsyncRolloutWorker

    assert "attn_implementation=TREE_ATTENTION" in inspect.getsource(async_grpo_trainer.AsyncGRPOTrainer.__init__)
    assert packing.TREE_ATTENTION == "tree_fa3" and "kernels-community/flash-attn3" in inspect.getsource(packing)
    if importlib.util.find_spec("vllm") is None:
        with pytest.raises(ImportError, match="vLLM is required"):
            AsyncRolloutWorker(environment_factory=CompoWorldEnvFactory())


def test_the_documented_example_runs(tmp_path, monkeypatch):
    pytest.importorskip("trl")
    snippet = re.search(r"```python\n(.*?)```", DOC.read_text(encoding="utf-8"), re.S).group(1)
    assert len(snippet.strip().splitlines()) <= 14
    monkeypatch.chdir(tmp_path)
    scope: dict = {"__name__": "trl_doc_example"}
    exec(compile(snippet, str(DOC), "exec"), scope)
    losses = [h["loss"] for h in scope["trainer"].state.log_history if "loss" in h]
    assert len(losses) == 1 and math.isfinite(losses[0])
