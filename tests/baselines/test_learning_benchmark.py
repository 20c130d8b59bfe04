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


def test_stdout_to_stderr_moves_python_and_native_writes(capfd):
    import os
    import sys

    from compoworld_gym.baselines.learning_benchmark import stdout_to_stderr

    with stdout_to_stderr():
        print("{'loss': '0.5'}")
        sys.stdout.flush()
        os.write(1, b"native line\n")
    print("report")
    out, err = capfd.readouterr()
    assert out == "report\n" and err == "{'loss': '0.5'}\nnative line\n"


@pytest.mark.slow
@pytest.mark.train
def test_json_run_prints_only_the_report_on_stdout():
    # Issue 14: the trainers' log dicts came before the JSON. ``--quick`` runs every phase (~75 s).
    import json
    import subprocess
    import sys

    command = [sys.executable, "-m", "compoworld_gym.baselines.learning_benchmark", "--json", "--quick"]
    proc = subprocess.run(command, capture_output=True, text=True, timeout=900)
    assert proc.returncode == 0, proc.stderr[-2000:]
    report = json.loads(proc.stdout)  # the whole of stdout
    assert {k: report["settings"][k] for k in ("n_train", "n_heldout", "sft_steps", "grpo_steps")} == {
        "n_train": 2, "n_heldout": 1, "sft_steps": 2, "grpo_steps": 1}
    assert report["before"]["train"] == {"mean_rubric_score": 0.0, "success_rate": 0.0, "mean_steps": 1.0}
    assert len(report["sft_losses"]) == 1 and report["sft_losses"][0] > 0 and len(report["grpo_rewards"]) == 1
    assert "'train_runtime'" in proc.stderr  # the trainers' logs moved to stderr, not lost
