"""The learning benchmark's task family and short-sequence tokenizer (the benchmark itself is not run here)."""

from __future__ import annotations

import pytest

pytest.importorskip("torch")
pytest.importorskip("trl")

from compoworld_gym.baselines.agents import ReferenceAgent  # noqa: E402
from compoworld_gym.baselines.evaluate import evaluate_agent  # noqa: E402
from compoworld_gym.baselines.learning_benchmark import easy_tasks, tokenizer_corpus  # noqa: E402
from compoworld_gym.baselines.sft import reference_trajectories  # noqa: E402
from compoworld_gym.baselines.tiny_model import build_tokenizer  # noqa: E402


class DoNothing(ReferenceAgent):
    def act(self, observation: str) -> str:
        return '{"final_answer": "Done."}'


def test_easy_tasks_are_distinct_solvable_and_pay_nothing_for_nothing():
    train, heldout = easy_tasks(6, 3, seed=1)
    assert len(train) == 6 and len(heldout) == 3
    combos = [t.reference[0].arguments["arguments"] for t in train + heldout]
    assert len({(c["ticket_id"], c["status"], c["add_tags"][0]) for c in combos}) == 9
    ref, _ = evaluate_agent(lambda s: ReferenceAgent(), train + heldout, max_steps=3)
    nothing, _ = evaluate_agent(lambda s: DoNothing(), train[:2], max_steps=3)
    assert ref["success_rate"] == 1.0 and nothing["mean_rubric_score"] == 0.0
    assert easy_tasks(6, 3, seed=1)[1][0].instruction == heldout[0].instruction
    with pytest.raises(ValueError, match="distinct easy tasks"):
        easy_tasks(1000, 0)


def test_digits_tokenizer_trained_on_the_tasks_shortens_conversations_and_round_trips():
    train, heldout = easy_tasks(4, 1, seed=0)
    words = build_tokenizer()
    digits = build_tokenizer(2000, "digits", tokenizer_corpus(train))
    t = reference_trajectories(heldout)[0]
    messages = t.chat_messages(arguments_as_string=True)
    text = words.apply_chat_template(messages, tools=t.tools, tokenize=False)
    short = digits.apply_chat_template(messages, tools=t.tools, tokenize=True, return_dict=False)
    long = words.apply_chat_template(messages, tools=t.tools, tokenize=True, return_dict=False)
    assert len(short) * 3 < len(long) and digits.decode(short) == text
    ticket = heldout[0].reference[0].arguments["arguments"]["ticket_id"]
    assert [digits.decode([i]) for i in digits.encode(ticket, add_special_tokens=False)][-1] == ticket[-4:]
    with pytest.raises(ValueError, match="pre_tokenizer"):
        build_tokenizer(100, "chars")
