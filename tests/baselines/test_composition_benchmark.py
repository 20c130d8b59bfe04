"""The composition benchmark's task sets, budget matching and (slow) its --quick run end to end."""

from __future__ import annotations

import json

import pytest

from compoworld_gym.baselines.composition_tasks import (budget_match, build_task_sets, replay, service_set,
                                                        split_task, composed_tasks, verify_task)
from compoworld_gym.checks import AnswerContains, WritesConfined


@pytest.fixture(scope="module")
def sets():
    return build_task_sets(16, 2, seed=0)


def test_single_service_tasks_touch_one_service_and_their_references_score_one(sets):
    assert len(sets.single_pool) >= 2 * len(sets.composed_train) and sets.dropped == {"composed": 0, "single": 0}
    for t in sets.single_pool:
        (service,) = t.services
        assert list(t.initial_state) == [service] and not t.distractors
        assert all(getattr(c, "service", service) == service for c in t.checks)
        assert [c.services for c in t.checks if isinstance(c, WritesConfined)] == [[service]]
        assert all(mc.name == "call_tool" for mc in t.reference)
        _, info = replay(t)
        assert info["rubric_score"] == 1.0
        assert verify_task(t)  # and doing nothing scores below 1


def test_split_covers_every_composed_write_and_states_the_values_other_services_gave():
    c = composed_tasks(1, seed=0)[0]  # invoicing -> crm -> drive (see docs/composition.md)
    parts = {p.services[0]: p for p in split_task(c)}
    assert sorted(parts) == sorted(c.task.services)
    work = {ch.id for ch in c.task.checks if ch.id.startswith("w")}
    assert work == {ch.id for p in parts.values() for ch in p.checks if ch.id.startswith("w")}
    assert sum(len(p.reference) for p in parts.values()) == len(c.task.reference)
    # The CRM is searched by the customer's email, which the invoice gave: the instruction states it.
    crm = parts["crm"]
    email = crm.reference[0].arguments["arguments"]["filterGroups"][0]["filters"][0]["value"]
    assert email in crm.instruction and email not in c.task.instruction
    report = next(ch for ch in crm.checks if isinstance(ch, AnswerContains))
    assert report.values == ["Rivera Systems"]  # the company it hands to the Drive search


def test_heldout_combinations_are_disjoint_from_training_ones(sets):
    held = {frozenset(h) for h in sets.heldout_combos}
    assert held and len(sets.heldout) == 2
    assert all(service_set(t) in held for t in sets.heldout)
    assert not {service_set(t) for t in sets.composed_train} & held
    trained = {s for t in sets.composed_train for s in t.services}
    assert all(combo <= trained for combo in held)  # every held-out service was trained on
    assert {p.meta["parent"] for p in sets.single_pool} <= {t.id for t in sets.composed_train}


def test_budget_match_gets_closest_to_the_budget():
    pool = [type("T", (), {"id": f"t{i}"})() for i in range(10)]
    tokens = {f"t{i}": 100 + 10 * i for i in range(10)}
    chosen = budget_match(pool, tokens, 600, seed=0)
    assert abs(sum(tokens[t.id] for t in chosen) - 600) <= 60
    assert [t.id for t in chosen] == [t.id for t in budget_match(pool, tokens, 600, seed=0)]
    assert len(budget_match(pool, tokens, 10_000, seed=0)) == 10


@pytest.mark.slow
@pytest.mark.train
def test_quick_run_reports_spread_over_three_seeds_and_writes_the_png(tmp_path, capsys):
    pytest.importorskip("trl")
    pytest.importorskip("matplotlib")
    from compoworld_gym.baselines.composition_benchmark import ARMS, main

    main(["--quick", "--json", "--out", str(tmp_path)])
    report = json.loads(capsys.readouterr().out)  # stdout holds only the JSON report
    assert report == json.loads((tmp_path / "report.json").read_text())
    assert (tmp_path / "curves.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert report["settings"]["seeds"] == 3 and len(report["per_seed"]) == 3
    for arm in ARMS:
        for metric in ("mean_rubric", "success"):
            stats = report["final"][arm][metric]
            assert set(stats) == {"mean", "std", "min", "max", "values"} and len(stats["values"]) == 3
            assert stats["min"] <= stats["mean"] <= stats["max"]
        points = report["curves"][arm]
        assert [p["point"] for p in points] == ["sft 0/2", "sft 1/2", "sft 2/2", "grpo"]
    for seed in report["per_seed"]:
        tokens = seed["sft_tokens"]
        assert abs(tokens["single"] - tokens["composed"]) <= 0.1 * tokens["composed"]
        assert seed["tasks"]["heldout"] == 1 and seed["heldout_combos"]


@pytest.mark.parametrize("script", ["composition_benchmark", "gpu_run"])
def test_an_unwritable_out_fails_before_the_run(script, tmp_path, monkeypatch, capsys):
    import importlib

    module = importlib.import_module(f"compoworld_gym.baselines.{script}")
    monkeypatch.setattr(module, "run", lambda *a, **k: pytest.fail("the run must not start"))
    (tmp_path / "file").write_text("x")  # a directory under a file cannot be made, even by root
    out = tmp_path / "file" / "run"
    argv = ["--quick"] if script == "composition_benchmark" else ["--dry-run"]
    with pytest.raises(SystemExit) as exc:
        module.main([*argv, "--out", str(out)])
    assert exc.value.code == 2
    assert capsys.readouterr().err == f"error: cannot write in {out}: Not a directory\n"
