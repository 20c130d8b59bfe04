"""The SkyRL-Gym adapter: scripted model text through ``skyrl_gym.make("compoworld", ...)``."""

from __future__ import annotations

import copy
import importlib.util
import json
import re
from pathlib import Path

import pytest

skyrl_gym = pytest.importorskip("skyrl_gym")

from omegaconf import OmegaConf  # noqa: E402  (a skyrl-gym dependency)

from compoworld_gym.builtin_tasks import builtin_tasks  # noqa: E402
from compoworld_gym.integrations.skyrl import (  # noqa: E402
    ENTRY_POINT, CompoWorldSkyRLConfig, CompoWorldTextEnv, register_skyrl_env, skyrl_rows, write_skyrl_dataset)
from compoworld_gym.metatools import meta_tool_definitions  # noqa: E402
from compoworld_gym.tasks import save_tasks  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
TASKS = builtin_tasks()
BY_ID = {t.id: t for t in TASKS}
MERGE = "builtin-merge-duplicates"
BAD_TURN = '<tool_call>{"name": "call_tool", "arguments": {</tool_call>'
LIST = '<tool_call>{"name": "list_services", "arguments": {}}</tool_call>'

register_skyrl_env()


def call_text(name, arguments):
    return f"<tool_call>\n{json.dumps({'name': name, 'arguments': arguments})}\n</tool_call>"


def reference_turns(task, per_turn=1, drop_last_call=False):
    """The task's reference as model turns: ``per_turn`` calls per turn, then the final answer."""
    calls = [(c.name, c.arguments) for c in task.reference][:len(task.reference) - drop_last_call]
    turns = ["I will do the next step.\n" + "\n".join(call_text(*c) for c in calls[i:i + per_turn])
             for i in range(0, len(calls), per_turn)]
    return turns + [task.reference_answer]


def make(task_id=MERGE, env_config=None, **extra):
    """An env made the way SkyRL's generator makes one (DictConfig config, row extras, max_turns added)."""
    extras = {"task_id": task_id, "seed": 0, "data_source": "compoworld", "max_turns": 40,
              "reward_spec": {"method": "rule", "ground_truth": task_id}, **extra}
    config = OmegaConf.create(env_config or {})
    return skyrl_gym.make("compoworld", env_config=config, extras=extras)


def rollout(env, turns):
    """SkyRL's agent loop without a model: init, then step until done."""
    messages, _ = env.init([{"role": "user", "content": "placeholder"}])
    outs = []
    for turn in turns:
        outs.append(env.step(turn))
        if outs[-1]["done"]:
            break
    return messages, outs


@pytest.mark.parametrize("task", TASKS, ids=lambda t: t.id)
def test_reference_script_scores_one(task):
    per_turn = 2 if TASKS.index(task) % 2 else 1  # odd tasks put two calls in a turn
    turns = reference_turns(task, per_turn)
    env = make(task.id)
    assert isinstance(env, CompoWorldTextEnv)
    messages, outs = rollout(env, turns)
    assert len(outs) == len(turns)
    for turn, out in zip(turns[:-1], outs[:-1]):
        names = re.findall(r'"name": "(\w+)"', turn)
        assert (out["reward"], out["done"]) == (0.0, False)
        assert [(m["role"], m["name"]) for m in out["observations"]] == [("tool", n) for n in names]
        assert all(isinstance(json.loads(m["content"]), dict) for m in out["observations"])
    last = outs[-1]
    assert (last["reward"], last["done"], last["observations"]) == (1.0, True, [])
    meta = last["metadata"]
    assert meta["finish_reason"] == "final_answer" and meta["rubric_score"] == 1.0
    assert meta["rubric"] and all(item["passed"] for item in meta["rubric"])
    assert meta["n_tool_calls"] == len(task.reference) and meta["final_answer"] == task.reference_answer
    assert env.get_metrics()["solved"] == 1.0


def test_wrong_scripts_score_below_one():
    task = BY_ID[MERGE]
    _, outs = rollout(make(), [task.reference_answer])  # the right answer, without doing the work
    failed = {i["id"] for i in outs[-1]["metadata"]["rubric"] if not i["passed"]}
    assert outs[-1]["done"] and outs[-1]["reward"] == pytest.approx(1 / 3)
    assert failed == {"newer_closed", "told_customer"}
    _, outs = rollout(make(), reference_turns(task, drop_last_call=True))  # never mails the customer
    meta = outs[-1]["metadata"]
    assert outs[-1]["done"] and 0.0 < outs[-1]["reward"] < 1.0
    assert {i["id"] for i in meta["rubric"] if not i["passed"]} == {"told_customer"}


def test_malformed_text_is_an_error_observation_and_uses_a_step():
    env = make()
    env.init([])
    for i, bad in enumerate([BAD_TURN, "</tool_call>", None], 1):
        out = env.step(bad)
        [obs] = out["observations"]
        error = json.loads(obs["content"])
        assert obs["role"] == "user" and error["success"] is False and error["error"]["code"] == 400
        assert (out["reward"], out["done"], out["metadata"]["parse_error"], out["metadata"]["steps"]) == (
            0.0, False, True, i)
    # Nothing ran: the reference still scores 1.0 afterwards.
    outs = [env.step(t) for t in reference_turns(BY_ID[MERGE])]
    assert outs[-1]["reward"] == 1.0 and not outs[0]["metadata"]["parse_error"]


@pytest.mark.parametrize(("config", "max_turns", "limit"), [({"max_steps": 2}, 40, 2), ({}, 3, 3)])
def test_step_limit_ends_the_episode(config, max_turns, limit):
    env = make(env_config=config, max_turns=max_turns)
    assert env.max_turns == limit
    _, outs = rollout(env, [LIST] * 10)
    assert len(outs) == limit and [o["done"] for o in outs] == [False] * (limit - 1) + [True]
    meta = outs[-1]["metadata"]
    assert meta["finish_reason"] == "max_steps" and outs[-1]["observations"] == []
    assert outs[-1]["reward"] == meta["rubric_score"] == 0.0 and meta["final_answer"] is None
    after = env.step(LIST)  # a step past the end changes nothing
    assert after["done"] and after["reward"] == 0.0 and json.loads(after["observations"][0]["content"])[
        "error"]["code"] == 409


def test_system_prompt_states_the_four_schemas_and_the_call_format():
    env = make()
    messages, meta = env.init([{"role": "user", "content": "something else entirely"}])
    system, user = messages
    assert (system["role"], user["role"], user["content"]) == ("system", "user", BY_ID[MERGE].instruction)
    assert "Today's date is 2026-01-15." in system["content"]
    block = system["content"].split("<tools>\n", 1)[1].split("\n</tools>", 1)[0]
    assert [json.loads(line) for line in block.splitlines()] == meta_tool_definitions() == meta["tools"]
    assert '<tool_call>\n{"name": "list_tools", "arguments": {"service": "<service name>"}}\n</tool_call>' in (
        system["content"])


def test_user_role_observations_hold_the_same_results():
    turn = call_text("list_services", {}) + call_text("list_tools", {"service": "helpdesk"})
    tool_env, user_env = make(), make(env_config={"observation_role": "user"})
    tool_env.init([])
    user_env.init([])
    tool_obs = tool_env.step(turn)["observations"]
    [user_obs] = user_env.step(turn)["observations"]
    assert len(tool_obs) == 2 and user_obs["role"] == "user"
    assert user_obs["content"] == "\n".join(f"<tool_response>\n{m['content']}\n</tool_response>" for m in tool_obs)
    assert user_env.step(BAD_TURN)["observations"][0]["role"] == "user"


def test_same_script_same_bytes():
    turns = reference_turns(BY_ID["builtin-refund-approval"], per_turn=2)
    a = rollout(make("builtin-refund-approval"), turns)
    b = rollout(make("builtin-refund-approval"), turns)
    assert json.dumps(a, sort_keys=True) == json.dumps(b, sort_keys=True)


def test_bad_config_and_rows_fail_in_make_with_clear_errors():
    with pytest.raises(ValueError, match=r"unknown env_config key\(s\) \['max_step'\]"):
        make(env_config={"max_step": 3})
    with pytest.raises(ValueError, match="max_steps must be a positive int"):
        make(env_config={"max_steps": 0})
    with pytest.raises(ValueError, match="observation_role must be"):
        make(env_config={"observation_role": "assistant"})
    typed = CompoWorldTextEnv(env_config=CompoWorldSkyRLConfig(max_steps=5), extras={"task_id": MERGE})
    assert typed.max_turns == 5 and typed.config.observation_role == "tool"
    with pytest.raises(TypeError, match="env_config must be a mapping"):
        CompoWorldTextEnv(env_config=[("max_steps", 3)], extras={"task_id": MERGE})
    with pytest.raises(TypeError, match="extras .* must be a mapping"):
        CompoWorldTextEnv(extras=[("task_id", MERGE)])
    with pytest.raises(ValueError, match="'task_id' column"):
        skyrl_gym.make("compoworld", env_config={}, extras={"data_source": "compoworld"})
    with pytest.raises(ValueError, match="unknown task 'no-such-task'"):
        make("no-such-task")
    with pytest.raises(ValueError, match="seed must be an int >= 0"):
        make(seed=-1)
    with pytest.raises(RuntimeError, match=r"call init\(\) before step\(\)"):
        make().step(LIST)


def test_registration_is_idempotent_and_refuses_a_taken_id():
    register_skyrl_env()
    assert skyrl_gym.registry["compoworld"].entry_point == ENTRY_POINT
    skyrl_gym.register(id="compoworld-taken-test", entry_point="skyrl_gym.envs.gsm8k.env:GSM8kEnv")
    try:
        with pytest.raises(ValueError, match="is taken by"):
            register_skyrl_env("compoworld-taken-test")
    finally:
        skyrl_gym.envs.registration.deregister("compoworld-taken-test")


@pytest.mark.parametrize("suffix", [".parquet", ".jsonl"])
def test_dataset_rows_load_like_skyrl_and_replay(tmp_path, suffix):
    datasets = pytest.importorskip("datasets")
    path = write_skyrl_dataset(tmp_path / f"train{suffix}", seeds=(0, 1))
    kind = "parquet" if suffix == ".parquet" else "json"
    data = datasets.load_dataset(kind, data_files=str(path), keep_in_memory=True)["train"]
    assert len(data) == 2 * len(TASKS)
    assert set(data.column_names) == {"data_source", "prompt", "env_class", "reward_spec", "task_id", "seed",
                                      "extra_info"}
    row = dict(data[2])  # what PromptDataset.__getitem__ does: pop prompt and env_class, the rest is extras
    prompt, env_class = row.pop("prompt"), row.pop("env_class")
    assert (env_class, row["task_id"], row["seed"], row["extra_info"]["index"]) == ("compoworld", TASKS[1].id, 0, 2)
    env = skyrl_gym.make(env_class, env_config={}, extras={**row, "max_turns": 40})
    messages, _ = env.init(prompt)
    assert messages == prompt
    outs = [env.step(t) for t in reference_turns(TASKS[1])]
    assert outs[-1]["reward"] == 1.0
    if suffix == ".jsonl":  # same tasks, same bytes
        again = write_skyrl_dataset(tmp_path / "again.jsonl", seeds=(0, 1))
        assert again.read_bytes() == path.read_bytes()


def test_task_file_config_and_rows(tmp_path):
    path = tmp_path / "tasks.jsonl"
    save_tasks(TASKS[:2], path)
    rows = skyrl_rows(task_file=path)
    assert [r.task_id for r in rows] == [TASKS[0].id, TASKS[1].id]
    env = make(TASKS[0].id, env_config={"task_file": str(path)})
    _, outs = rollout(env, reference_turns(TASKS[0]))
    assert outs[-1]["reward"] == 1.0
    with pytest.raises(ValueError, match="unknown task"):
        make(TASKS[5].id, env_config={"task_file": str(path)})
    with pytest.raises(ValueError, match="either tasks or task_file"):
        skyrl_rows(TASKS, task_file=path)
    with pytest.raises(ValueError, match=r"\.parquet, \.jsonl or \.json"):
        write_skyrl_dataset(tmp_path / "train.csv")


@pytest.mark.parametrize("template", ["qwen2_5.jinja", "qwen3.jinja"])
def test_conversation_renders_through_qwen_templates_without_tools(template):
    """What SkyRL's generator does: the chat template with no ``tools=``; results become <tool_response>."""
    chat_utils = pytest.importorskip("transformers.utils.chat_template_utils")
    spec = importlib.util.find_spec("trl")
    if spec is None:
        pytest.skip("trl (its chat templates) is not installed")
    text = (Path(spec.submodule_search_locations[0]) / "chat_templates" / template).read_text(encoding="utf-8")
    task = BY_ID[MERGE]
    env = make()
    conversation, _ = rollout(env, [])
    for turn in reference_turns(task):
        out = env.step(turn)
        conversation = conversation + [{"role": "assistant", "content": turn}] + out["observations"]
    [rendered], _ = chat_utils.render_jinja_template(conversations=[copy.deepcopy(conversation)],
                                                     chat_template=text, add_generation_prompt=False)
    system = conversation[0]["content"]
    assert rendered.count("<tools>") == 1 and system in rendered  # the schemas come from the system prompt only
    assert rendered.count("<tool_call>") == system.count("<tool_call>") + len(task.reference)
    assert rendered.count("<tool_response>") == len(task.reference)
    assert rendered.rstrip().endswith(task.reference_answer + "<|im_end|>")


def test_docs_example_runs(tmp_path, monkeypatch, capsys):
    doc = (ROOT / "docs" / "integrations" / "skyrl.md").read_text(encoding="utf-8")
    example = re.search(r"```python\n(.*?)```", doc, re.S).group(1)
    assert len(example.strip().splitlines()) <= 12
    monkeypatch.chdir(tmp_path)
    exec(compile(example, "docs/integrations/skyrl.md", "exec"), {})
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].startswith('{"services":[') and lines[0].endswith("0.0 False")
    assert lines[1] == "0.0 True 0.0" and (tmp_path / "compoworld_train.parquet").is_file()
