"""Shared fixtures."""

from __future__ import annotations

import datetime as dt

import pytest

TODAY = dt.date(2026, 1, 15)


@pytest.fixture
def today() -> dt.date:
    """The fixed date used by service tests."""
    return TODAY


@pytest.fixture
def make_service():
    """``make_service(cls, seed=0, state=None)``: a service on a seeded or given state."""

    def make(cls, seed: int = 0, state=None):
        if state is None:
            return cls.seeded(seed, TODAY)
        return cls(state, today=TODAY)

    return make
