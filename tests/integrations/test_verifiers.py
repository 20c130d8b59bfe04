"""The verifiers 0.4 (v1) taskset: loaded by verifiers' own loader, run against a scripted endpoint."""

import asyncio
import importlib.util
import json
import re
import shlex
import subprocess
import sys
from pathlib import Path

import pytest

vf = pytest.importorskip("verifiers.v1")

from pydantic import ValidationError  # noqa: E402
from verifiers.v1.cli.eval.runner import run_eval  # noqa: E402
from verifiers.v1.configs.cli.eval import EvalConfig  # noqa: E402

from compoworld_gym.builtin_tasks import builtin_tasks  # noqa: E402
from compoworld_gym.integrations.verifiers import (  # noqa: E402
    CompoWorldConfig, CompoWorldData, CompoWorldHarness, CompoWorldState, CompoWorldTask, CompoWorldTaskset,
    CompoWorldToolset, CompoWorldToolsetConfig, replay,
)
from compoworld_gym.metatools import meta_tool_definitions  # noqa: E402
from compoworld_gym.tasks import save_tasks  # noqa: E402

DOC = Path(__file__).resolve().parents[2] / "docs" / "integrations" / "verifiers.md"
TASKSET_ID = "compoworld-verifiers"
TASKS = builtin_tasks()
TASK = next(t for t in TASKS if t.id == "builtin-chargeback")  # 4 reference calls: the cheapest rollout


def _doc_block(marker: str) -> str:
    """The first ```python block of the doc that contains ``marker``."""
    blocks = re.findall(r"```python\n(.*?)```", DOC.read_text(), flags=re.S)
    return next(b for b in blocks if marker in b)


def test_the_taskset_id_is_installed_with_the_package():
    """verifiers imports a top-level module named after the id; it ships as compoworld_verifiers.py."""
    module = importlib.import_module("compoworld_verifiers")
    assert module.CompoWorldTaskset is CompoWorldTaskset and "CompoWorldTaskset" in module.__all__


def _eval_config(server, tmp_path, rollouts=1, max_steps=40, **extra) -> EvalConfig:
    """What `vf-eval compoworld-verifiers --env.agent.runtime.type subprocess ...` builds."""
    return EvalConfig.model_validate({
        "env": {"taskset": {"id": TASKSET_ID, "task": {"tools": {"max_steps": max_steps}}},
                "agent": {"runtime": {"type": "subprocess"}}},
        "model": server.model, "client": {"base_url": server.base_url, "api_key_var": "SCRIPTED_API_KEY"},
        "push": False, "rich": None, "output_dir": str(tmp_path), "num_rollouts": rollouts, **extra})


# ---------------------------------------------------------------- loading
def test_importing_compoworld_gym_does_not_import_verifiers():
    code = ("import sys, compoworld_gym, compoworld_gym.integrations, compoworld_gym.envs.compoworld_env; "
            "print(sorted(m for m in sys.modules if m.split('.')[0] in ('verifiers', 'mcp', 'openai')))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"


def test_verifiers_loader_resolves_the_taskset_and_its_harness():
    assert vf.taskset_config_type(TASKSET_ID) is CompoWorldConfig
    assert vf.task_type(TASKSET_ID) is CompoWorldTask
    assert vf.default_harness_id(TASKSET_ID) == TASKSET_ID  # the package's harness, not `bash`
    taskset = vf.load_taskset(CompoWorldConfig(id=TASKSET_ID))
    assert isinstance(taskset, CompoWorldTaskset)
    assert [t.key for t in taskset] == [t.id for t in TASKS]
    env = vf.load_environment(vf.resolve_env_config({"taskset": {"id": TASKSET_ID}}))
    assert isinstance(env.taskset, CompoWorldTaskset) and isinstance(env._harnesses["agent"], CompoWorldHarness)


def test_vf_eval_command_line_of_the_doc_parses(tmp_path, monkeypatch):
    """The doc's `vf-eval` line, plus the taskset knobs, through vf-eval's own parser (a dry run)."""
    from verifiers.v1.cli.eval import main as vf_eval

    command = re.search(r"^vf-eval .*$", DOC.read_text().replace("\\\n", " "), flags=re.M).group(0)
    argv = shlex.split(command.replace("<model>", "my-model"))[1:]
    task_file = tmp_path / "tasks.jsonl"
    save_tasks(TASKS[:2], task_file)
    monkeypatch.setattr(sys, "argv", ["vf-eval"])
    monkeypatch.setattr(vf_eval, "setup_logging", lambda *a, **k: None)  # it would re-route the process' logs
    vf_eval.main([*argv, "--env.taskset.task-file", str(task_file), "--env.taskset.task.tools.max-steps", "7",
                  "--dry-run", "-o", str(tmp_path), "--run.name", "dry"])
    written = json.loads((tmp_path / "dry" / "configs" / "resolved" / "eval.json").read_text())
    assert (written["model"], written["client"]["base_url"], written["select"]["limit"], written["num_rollouts"],
            written["push"]) == ("my-model", "http://localhost:8000/v1", 3, 2, False)
    assert written["env"]["agent"]["runtime"]["type"] == "subprocess"
    taskset = written["env"]["taskset"]
    assert taskset["id"] == TASKSET_ID and taskset["task_file"] == str(task_file)
    assert taskset["task"]["tools"]["max_steps"] == 7
    assert [t.key for t in CompoWorldTaskset(CompoWorldConfig.model_validate(taskset))] == [t.id for t in TASKS[:2]]


def test_task_sources_and_their_errors(tmp_path):
    task_file = tmp_path / "tasks.jsonl"
    save_tasks(TASKS[3:5], task_file)
    assert [t.key for t in CompoWorldTaskset(CompoWorldConfig(task_file=task_file))] == [t.id for t in TASKS[3:5]]
    assert [t.key for t in CompoWorldTaskset(CompoWorldConfig(tasks=[TASK]))] == [TASK.id]
    with pytest.raises(ValidationError, match="either task_file or tasks"):
        CompoWorldConfig(task_file=task_file, tasks=[TASK])
    with pytest.raises(ValueError, match="must not be empty"):
        CompoWorldTaskset(CompoWorldConfig(tasks=[]))
    with pytest.raises(ValueError, match="share the task id"):
        CompoWorldTaskset(CompoWorldConfig(tasks=[TASK, TASK]))
    with pytest.raises(ValidationError):
        CompoWorldToolsetConfig(max_steps=0)
    with pytest.raises(ValidationError, match="tools.url must stay unset"):
        CompoWorldToolsetConfig(url="http://127.0.0.1:9/mcp")


def test_task_data_is_the_prompt_plus_the_whole_task():
    data = next(iter(CompoWorldTaskset(CompoWorldConfig(tasks=[TASK])))).data
    assert data.id == TASK.id and data.idx == 0 and data.prompt == TASK.instruction
    assert "Today's date is 2026-01-15." in data.system_prompt and "call_tool" in data.system_prompt
    # What the tool server receives over verifiers' /task channel: the same task back.
    assert CompoWorldData.model_validate_json(data.model_dump_json()).spec == TASK


def test_meta_tools_are_advertised_as_defined():
    from mcp import Client
    from mcp.server.mcpserver import MCPServer

    server = MCPServer("compoworld")
    CompoWorldToolset(CompoWorldToolsetConfig()).register(server)

    async def listed():
        async with Client(server) as client:
            return (await client.list_tools()).tools

    tools = {t.name: t for t in asyncio.run(listed())}
    for definition in meta_tool_definitions():
        spec, tool = definition["function"], tools[definition["function"]["name"]]
        assert tool.description == spec["description"]
        assert sorted(tool.input_schema.get("required", [])) == sorted(spec["parameters"]["required"])
        assert {k: v["description"] for k, v in tool.input_schema["properties"].items()} == \
            {k: v["description"] for k, v in spec["parameters"]["properties"].items()}
    assert len(tools) == 4


def test_scripted_server_answers_plain_and_streamed_requests(chat_server):
    """The conftest endpoint, read by the OpenAI SDK both ways (verifiers relays streams as streams)."""
    from openai import OpenAI

    server = chat_server([chat_server.Reply(tool_calls=(("list_services", {}),)), chat_server.Reply("done")])
    client = OpenAI(base_url=server.base_url, api_key="sk-scripted")
    first = client.chat.completions.create(model=server.model, messages=[{"role": "user", "content": "hi"}])
    call = first.choices[0].message.tool_calls[0]
    assert (call.id, call.function.name, call.function.arguments) == ("call_0_0", "list_services", "{}")
    history = [{"role": "user", "content": "hi"}, first.choices[0].message.model_dump(exclude_none=True),
               {"role": "tool", "tool_call_id": call.id, "content": "{}"}]
    chunks = list(client.chat.completions.create(model=server.model, messages=history, stream=True))
    assert "".join(c.choices[0].delta.content or "" for c in chunks if c.choices) == "done"
    assert chunks[-2].choices[0].finish_reason == "stop" and len(server.requests) == 2


# --------------------------------------------------------------- scoring
def test_references_validate_and_replay_scores_the_state():
    tasks = list(CompoWorldTaskset(CompoWorldConfig()))
    async def validate_all():
        return await asyncio.gather(*(t.validate(None) for t in tasks))

    assert asyncio.run(validate_all()) == [True] * len(TASKS)
    actions = [step.action() for step in TASK.reference]
    assert replay(TASK, actions, TASK.reference_answer).rubric_score == 1.0
    wrong = replay(TASK, actions, "Done.")
    assert wrong.rubric_score == 0.75 and wrong.metrics()["rubric/reports_owner"] == 0.0
    cut = replay(TASK, actions, TASK.reference_answer, max_steps=2)  # truncated: scored with no answer
    assert cut.steps == 2 and cut.final_answer is None and cut.rubric_score < 1.0
    digest = replay(TASK, actions, None).digest
    with pytest.raises(RuntimeError, match="did not reproduce"):
        replay(TASK, actions[:-1], None, digest=digest)


# ---------------------------------------------------------------- rollouts
@pytest.mark.slow
def test_rollouts_score_the_rubric_each_on_its_own_world(chat_server, tmp_path, monkeypatch):
    """Four concurrent rollouts of one task through `vf-eval`'s runner, each with its own script."""
    monkeypatch.setenv("SCRIPTED_API_KEY", "sk-scripted")
    reference = chat_server.reference(TASK)
    scripts = {
        "reference": reference,
        "wrong answer": chat_server.reference(TASK, answer="Done."),
        "no writes": [r for r in reference if "update_ticket" not in json.dumps(r.tool_calls)],
        "over the limit": [*reference[:-1], chat_server.Reply(tool_calls=(("list_services", {}),)), reference[-1]],
    }
    server = chat_server(chat_server.by_session(list(scripts.values())))
    # max_steps 5: the reference's 4 calls and its answer fit; a fifth call ends the episode.
    config = _eval_config(server, tmp_path, rollouts=4, max_steps=5, select={"include": {"ids": [TASK.id]}})
    traces = [t for episode in asyncio.run(run_eval(config)) for t in episode.traces]
    assert len(traces) == 4 and all(t.ok and not t.errors for t in traces)

    def calls(script):  # the env actions a script makes, as the env log records them
        return [json.dumps({"name": n, "arguments": a}, separators=(",", ":")) for r in script
                for n, a in r.tool_calls]

    def played(trace):  # what a rollout did: its env action log and its final answer
        return tuple(trace.info["compoworld"]["actions"]), trace.info["compoworld"]["final_answer"]

    by_run = {played(t): t for t in traces}
    got = {name: by_run[tuple(calls(s)), s[-1].content] for name, s in scripts.items() if name != "over the limit"}
    got["over the limit"] = by_run[tuple(calls(scripts["over the limit"])), None]
    assert got["reference"].reward == 1.0
    assert all(v == 1.0 for k, v in got["reference"].metrics.items() if k.startswith("rubric/"))
    assert got["wrong answer"].reward == 0.75 and got["wrong answer"].metrics["rubric/reports_owner"] == 0.0
    assert got["no writes"].reward == 0.25 and got["no writes"].metrics["rubric/tag"] == 0.0
    over = got["over the limit"]
    assert over.stop_condition == "step_limit" and over.info["compoworld"]["final_answer"] is None
    assert over.reward == 0.75 and over.metrics["steps"] == 5.0
    # Each rollout's world saw only its own calls: its log is its own script's, and the writes of
    # the other three (concurrent, same task, same records) are not in it.
    assert [got[k].metrics["n_real_tool_calls"] for k in scripts] == [4.0, 4.0, 3.0, 4.0]
    assert len({t.id for t in traces}) == 4
    # What the model was offered: the four meta-tools, bare names, the definitions' descriptions.
    assert {t.name: t.description for t in traces[0].tools} == \
        {d["function"]["name"]: d["function"]["description"] for d in meta_tool_definitions()}
    # Offline re-scoring of the saved run, as vf-replay reads it: trace.state is not saved, the info log is.
    from verifiers.v1.configs.agent import WireAgentConfig
    from verifiers.v1.utils.trace_store import read_episodes

    saved = [t for e in read_episodes(tmp_path / config.run.dir,
                                      vf.Trace[vf.WireTaskData, CompoWorldState, WireAgentConfig]) for t in e.traces]
    assert sorted(t.reward for t in saved) == sorted(t.reward for t in traces) == [0.25, 0.75, 0.75, 1.0]
    for trace in saved:
        recorded, trace.rewards, trace.metrics = trace.reward, {}, {}
        row = CompoWorldData.model_validate(trace.task.data.model_dump())
        asyncio.run(CompoWorldTask(row, config.env.taskset.task).score(trace))
        assert trace.reward == recorded and type(trace.state) is vf.State  # scored from the saved log


@pytest.mark.slow
def test_doc_example_runs(chat_server, tmp_path, monkeypatch):
    monkeypatch.setenv("OPENAI_API_KEY", "sk-scripted")
    monkeypatch.chdir(tmp_path)
    server = chat_server(chat_server.reference(TASKS[0]))  # `select.limit 1`: the first built-in task
    code = _doc_block("run_eval(config)")
    code = re.sub(r'^BASE_URL, MODEL = .*$', f"BASE_URL, MODEL = {server.base_url!r}, {server.model!r}",
                  code, flags=re.M)
    namespace: dict = {}
    exec(compile(code, str(DOC), "exec"), namespace)  # noqa: S102 - the doc's own example
    trace = namespace["trace"]
    assert trace.reward == 1.0 and trace.metrics["rubric_work"] == 1.0
    assert trace.info["compoworld"]["n_real_tool_calls"] == sum(s.name == "call_tool" for s in TASKS[0].reference)
    assert len(server.requests) == len(TASKS[0].reference) + 1


# ------------------------------------------------------------------ fuzzing
def _fuzz_strategies():
    """Junk a model may send through MCP: any tool, any argument of any JSON type."""
    from hypothesis import strategies as st

    junk = st.recursive(
        st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=20)
        | st.sampled_from(["helpdesk", "payments", "helpdesk__get_ticket", "payments__list_charges", "CH-0001"]),
        lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=8), inner, max_size=3),
        max_leaves=6)
    call = st.tuples(st.sampled_from(["list_services", "list_tools", "describe_tool", "call_tool", "teleport"]),
                     st.dictionaries(st.sampled_from(["service", "tool", "tool_name", "arguments", "x"]), junk,
                                     max_size=3))
    reference = st.sampled_from([(s.name, s.arguments) for s in TASK.reference])
    return st.lists(call | reference, min_size=1, max_size=8), st.none() | st.text(max_size=40)


def test_the_tool_server_answers_any_call_and_the_reward_replays_it_exactly():
    """Fuzz the MCP surface verifiers serves (in memory, as its tool server registers it).

    Any tool name and any arguments: MCP answers a call that misses the tool's
    parameters with its own error result; every call that reaches the episode
    returns a JSON observation (never a 500), a failed call leaves the world as
    it was, the episode ends at its step limit and refuses calls after it (409),
    and the reward's replay of the logged actions reproduces the live episode's
    observations (digest) and its score, whatever the final answer.
    """
    from hypothesis import HealthCheck, given, settings
    from mcp import Client
    from mcp.server.mcpserver import MCPServer

    scripts, answers = _fuzz_strategies()
    max_steps = 5

    async def run(script, answer):
        toolset = CompoWorldToolset(CompoWorldToolsetConfig(max_steps=max_steps))
        server = MCPServer("compoworld")
        toolset.register(server)
        await toolset.setup_task(CompoWorldData.of(TASK))
        episode = toolset._episode
        async with Client(server) as client:
            for name, arguments in script:
                before, n_before, ended = episode.env.world.states(), len(episode.actions), episode.ended
                result = await client.call_tool(name, arguments)
                text = result.content[0].text if result.content else ""
                if result.is_error:  # MCP refused it (unknown tool, a parameter missing): nothing reached the env
                    assert len(episode.actions) == n_before and episode.env.world.states() == before, text
                    continue
                obs = json.loads(text)
                assert len(episode.actions) == n_before + (not ended)  # each call is one step until the end
                if ended:
                    assert obs["error"]["code"] == 409
                failed = [r for r in (obs if isinstance(obs, list) else [obs])
                          if isinstance(r, dict) and r.get("success") is False]
                assert all(r["error"]["code"] != 500 for r in failed), obs
                if failed and isinstance(obs, dict):
                    assert episode.env.world.states() == before  # a failed call changes nothing
        assert len(episode.actions) <= max_steps and (episode.ended or len(episode.actions) < max_steps)
        if episode.ended:
            assert json.loads(episode.apply('{"name": "list_services"}'))["error"]["code"] == 409
        live = episode.finish(answer)
        again = replay(TASK, list(episode.actions), answer, max_steps, episode.digest)
        assert again.model_dump() == live.model_dump() and 0.0 <= live.rubric_score <= 1.0

    @settings(max_examples=40, deadline=None, derandomize=True, database=None,
              suppress_health_check=[HealthCheck.too_slow])
    @given(script=scripts, answer=answers)
    def fuzz(script, answer):
        asyncio.run(run(script, answer))

    fuzz()
