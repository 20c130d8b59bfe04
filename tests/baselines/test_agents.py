"""Agents: registry, lazy imports, the ChatAgent bookkeeping, evaluation."""

from __future__ import annotations

import subprocess
import sys

import pytest

from compoworld_gym.baselines.agents import ChatAgent, agent_class, make_agent
from compoworld_gym.baselines.evaluate import evaluate_agent
from compoworld_gym.toolcall_parser import parse_tool_calls

from baseline_scripts import reference_script


class ScriptedChatAgent(ChatAgent):
    """Plays fixed model turns (raw text), parsed like a model's output."""

    name = "scripted"

    def __init__(self, turns):
        self.turns = list(turns)
        self.seen = []

    def complete(self, messages, tools):
        self.seen.append([dict(m) for m in messages])
        return parse_tool_calls(self.turns.pop(0))


def test_unknown_agent_is_a_value_error():
    with pytest.raises(ValueError, match="unknown agent 'nope'; choose from hf, openai, random, reference"):
        make_agent("nope")


def test_model_agents_are_imported_lazily():
    code = ("import sys, compoworld_gym.baselines.agents, compoworld_gym.baselines.evaluate, compoworld_gym.cli; "
            "print(sorted(m for m in ('torch', 'transformers', 'openai', 'trl') if m in sys.modules))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"
    assert agent_class("openai").__name__ == "OpenAIAgent"


def test_chat_agent_replaying_the_reference_solves_a_generated_task(easy_tasks):
    task = easy_tasks[0]
    agent = ScriptedChatAgent(reference_script(task))
    metrics, runs = evaluate_agent(lambda s: agent, [task], max_steps=20)
    assert metrics["success_rate"] == 1.0 and runs[task.id][0].finish_reason == "answer"
    last = agent.seen[-1]
    assert [m["role"] for m in last[:4]] == ["system", "user", "assistant", "tool"]
    assert last[2]["tool_calls"][0]["id"] == "call_0000" and last[3]["tool_call_id"] == "call_0000"
    assert last[3]["name"] == "list_services" and '"services"' in last[3]["content"]


def test_chat_agent_unparseable_turn_costs_a_step_and_shows_the_error(easy_tasks):
    agent = ScriptedChatAgent(['<tool_call>{"name": oops</tool_call>', "Giving up."])
    metrics, runs = evaluate_agent(lambda s: agent, easy_tasks[:1], max_steps=5)
    assert runs[easy_tasks[0].id][0].steps == 2
    error_msg = agent.seen[1][-1]
    assert error_msg["role"] == "user" and '"code":400' in error_msg["content"]
    assert "could not parse the tool call" in error_msg["content"]


def test_reference_scores_one_and_random_near_zero_on_generated_tasks(easy_tasks):
    from compoworld_gym.generation import generate_tasks

    tasks = generate_tasks(4, seed=3)
    ref, _ = evaluate_agent(lambda s: make_agent("reference"), tasks)
    rnd, _ = evaluate_agent(lambda s: make_agent("random", seed=s), tasks, k=2)
    assert ref["success_rate"] == 1.0 and ref["mean_rubric_score"] == 1.0
    assert rnd["success_rate"] == 0.0 and rnd["pass_at_k"] == 0.0
