"""Fixtures of the baseline tests: the tiny model and easy generated tasks."""

from __future__ import annotations

import pytest


@pytest.fixture(scope="session")
def tiny():
    """``(model factory, tokenizer)``: fresh tiny Qwen3 models sharing one tokenizer."""
    pytest.importorskip("torch")
    pytest.importorskip("trl")
    from compoworld_gym.baselines.tiny_model import build_tiny_model

    _, tok = build_tiny_model(seed=0)
    return (lambda seed=0: build_tiny_model(seed=seed)[0]), tok


@pytest.fixture(scope="session")
def easy_tasks():
    """Two small generated tasks (2 services each, one write, no policy)."""
    from compoworld_gym.generation import generate_tasks

    return generate_tasks(2, seed=0, services=2, max_actions=1, p_rule=0.0)
