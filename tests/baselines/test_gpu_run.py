"""The GPU script's CPU paths: the dry run end to end, the refusals (no CUDA, no vLLM), the configs the
GPU path would build (vLLM colocate) and the budget guard. CI has no GPU: the GPU run itself is not tested."""

from __future__ import annotations

import json
import math
import subprocess
import sys
import time

import pytest

pytest.importorskip("torch")
pytest.importorskip("trl")

from compoworld_gym.baselines import gpu_run  # noqa: E402

PNG = b"\x89PNG\r\n\x1a\n"


def numbers(obj):
    """Every int/float leaf of a JSON value (booleans excluded)."""
    if isinstance(obj, dict):
        for v in obj.values():
            yield from numbers(v)
    elif isinstance(obj, list):
        for v in obj:
            yield from numbers(v)
    elif isinstance(obj, (int, float)) and not isinstance(obj, bool):
        yield obj


@pytest.mark.train
def test_dry_run_writes_metrics_and_curves_and_json_stdout_is_only_the_metrics(tmp_path):
    out = tmp_path / "run"
    command = [sys.executable, "-m", "compoworld_gym.baselines.gpu_run", "--dry-run", "--json", "--out", str(out)]
    t0 = time.monotonic()
    proc = subprocess.run(command, capture_output=True, text=True, timeout=600)
    wall = time.monotonic() - t0
    assert proc.returncode == 0, proc.stderr[-3000:]
    metrics = json.loads(proc.stdout)  # the whole of stdout
    assert metrics == json.loads((out / "metrics.json").read_text())
    assert sorted(p.name for p in out.iterdir()) == ["curves.png", "metrics.json"]  # no temp files left
    assert (out / "curves.png").read_bytes()[:8] == PNG
    assert set(metrics) == {"settings", "versions", "tasks", "curve", "sft_losses", "grpo_rewards", "stopped_early",
                            "seconds", "within_budget"}
    s = metrics["settings"]
    assert (s["model"], s["dry_run"], s["device"], s["group_size"], s["max_steps"]) == ("tiny", True, "cpu", 2, 2)
    assert metrics["tasks"] == {"train": 2, "heldout": 1, "sft_conversations": 2}
    assert [(p["point"], p["sft_steps"], p["grpo_steps"]) for p in metrics["curve"]] == [
        ("before", 0, 0), ("sft end", 1, 0), ("grpo end", 1, 1)]
    for p in metrics["curve"]:
        assert 0 <= p["success"] <= p["mean_rubric"] <= 1 and 1 <= p["mean_turns"] <= 2
    assert len(metrics["sft_losses"]) == 1 and metrics["sft_losses"][0] > 0
    assert len(metrics["grpo_rewards"]) == 1 and 0 <= metrics["grpo_rewards"][0] <= 1
    assert metrics["stopped_early"] == {"sft": False, "grpo": False} and metrics["within_budget"] is True
    assert set(metrics["seconds"]) == {"setup", "eval", "sft", "grpo", "total"}
    assert metrics["versions"]["torch"] and metrics["versions"]["trl"] and "vllm" in metrics["versions"]
    assert all(math.isfinite(x) for x in numbers(metrics))
    assert metrics["seconds"]["total"] < 90, metrics["seconds"]
    print(f"dry run wall {wall:.1f} s, run {metrics['seconds']}")


def test_gpu_path_refuses_without_cuda(monkeypatch, tmp_path, capsys):
    import torch

    monkeypatch.setattr(torch.cuda, "is_available", lambda: False)
    with pytest.raises(SystemExit) as exc:
        gpu_run.main(["--model", "smollm2", "--out", str(tmp_path / "run")])
    assert exc.value.code == 2
    assert capsys.readouterr().err == "error: no CUDA device; use --dry-run for the CPU check\n"
    assert not (tmp_path / "run").exists()


def test_gpu_path_without_vllm_names_the_install(monkeypatch, tmp_path, capsys):
    import torch

    monkeypatch.setattr(torch.cuda, "is_available", lambda: True)
    monkeypatch.setitem(sys.modules, "vllm", None)  # makes `import vllm` raise ImportError
    with pytest.raises(SystemExit) as exc:
        gpu_run.main(["--out", str(tmp_path / "run")])
    err = capsys.readouterr().err
    assert exc.value.code == 2 and err.startswith("error: vLLM cannot be imported") and err.count("\n") == 1
    assert err.rstrip().endswith("pip install vllm") and not (tmp_path / "run").exists()


def test_gpu_configs_use_vllm_colocate_and_the_sizes_asked(tmp_path):
    a = gpu_run.parse_cli(["--out", str(tmp_path), "--grpo-steps", "20"])
    assert (a.model, a.dry_run, a.minutes) == ("smollm2", False, 10.0)
    cfgs = gpu_run.build_configs(a.settings, str(tmp_path), gpu=True)
    g = cfgs.grpo
    assert (g.use_vllm, g.vllm_mode, g.vllm_gpu_memory_utilization) == (True, "colocate", 0.3)
    assert (g.max_completion_length, g.num_generations, g.max_steps) == (192, 8, 20)
    assert (g.per_device_train_batch_size, g.gradient_accumulation_steps) == (8, 4)  # 4 groups x 8 per step
    assert (g.learning_rate, g.temperature, g.gradient_checkpointing) == (2e-6, 0.8, False)
    assert (cfgs.sft_steps, cfgs.sft.max_steps, cfgs.sft.learning_rate) == (32, 32, 1e-4)  # 2 epochs x 64 / 4
    assert (cfgs.rollout.reward, cfgs.rollout.max_turns, cfgs.rollout.max_new_tokens) == ("completion_focused", 12, 192)
    dry = gpu_run.build_configs(gpu_run.parse_cli(["--out", str(tmp_path), "--dry-run"]).settings, str(tmp_path),
                                gpu=False)
    assert (dry.grpo.use_vllm, dry.grpo.use_cpu, dry.grpo.bf16, dry.sft.use_cpu, dry.sft_steps) == (
        False, True, False, True, 1)


@pytest.mark.parametrize("argv", [["--groups", "0"], ["--minutes", "0"], ["--sft-lr", "-1"], ["--vllm-memory", "1.5"]])
def test_bad_settings_are_usage_errors(argv, tmp_path, capsys):
    with pytest.raises(SystemExit) as exc:
        gpu_run.parse_cli(["--out", str(tmp_path), *argv])
    assert exc.value.code == 2 and "error:" in capsys.readouterr().err


class ScriptedModel:
    """Stands in for a causal LM in greedy evaluation: each ``generate`` call appends the script's next turn."""

    device, training = "cpu", False

    def __init__(self, tok, script):
        self.tok, self.turn, self.calls = tok, 0, []
        self.script = [tok.encode(t, add_special_tokens=False) + [tok.eos_token_id] for t in script]

    def eval(self):
        self.training = False

    def train(self, mode=True):
        self.training = mode

    def generate(self, input_ids=None, attention_mask=None, **kwargs):
        import torch

        self.calls.append(kwargs["do_sample"])
        new = self.script[self.turn]
        self.turn += 1
        return torch.cat([input_ids, torch.tensor([new])], dim=1)


def tool_call_turn(action: str) -> str:
    call = json.loads(action)
    return "<tool_call>\n" + json.dumps({"name": call["name"], "arguments": call["arguments"]}) + "\n</tool_call>"


def test_heldout_evaluation_scores_the_reference_played_greedily_and_doing_nothing(tiny, easy_tasks):
    _, tok = tiny
    task = easy_tasks[0]
    script = [tool_call_turn(mc.action()) for mc in task.reference] + [task.reference_answer or "Done."]
    s = gpu_run.RunSettings(max_steps=len(script), max_completion_tokens=200_000)
    model = ScriptedModel(tok, script)
    model.training = True
    assert gpu_run.evaluate_heldout(model, tok, [task], s) == {
        "success": 1.0, "mean_rubric": 1.0, "mean_turns": float(len(script))}
    assert model.turn == len(script) and set(model.calls) == {False} and model.training  # greedy; mode restored
    nothing = gpu_run.evaluate_heldout(ScriptedModel(tok, ["Done."]), tok, [task], s)
    assert nothing["success"] == 0.0 and nothing["mean_rubric"] < 1.0 and nothing["mean_turns"] == 1.0


class FakeTrainer:
    """Steps 1..steps, calling ``on_step_end`` of its callbacks and honouring ``should_training_stop``."""

    def __init__(self, steps):
        self.steps, self.callbacks, self.done = steps, [], []

    def add_callback(self, cb):
        self.callbacks.append(cb)

    def train(self):
        from transformers import TrainerControl, TrainerState

        state, control = TrainerState(max_steps=self.steps), TrainerControl()
        for step in range(1, self.steps + 1):
            state.global_step = step
            for cb in self.callbacks:
                cb.on_step_end(None, state, control)
            self.done.append(step)
            if control.should_training_stop:
                break


def test_budget_guard_stops_a_phase_past_its_deadline_and_evaluates_at_marks():
    measured = []
    t = FakeTrainer(4)
    assert gpu_run._train_phase(t, {2: "mid"}, lambda p, i: measured.append((p, i)), time.monotonic() + 3600) is False
    assert t.done == [1, 2, 3, 4] and measured == [("mid", 2)]
    t, measured = FakeTrainer(4), []
    assert gpu_run._train_phase(t, {2: "mid"}, lambda p, i: measured.append((p, i)), 0.0) is True
    assert t.done == [1] and measured == []
    t = FakeTrainer(1)  # the last step ending past the deadline is no early stop
    assert gpu_run._train_phase(t, {}, lambda p, i: None, 0.0) is False and t.done == [1]
