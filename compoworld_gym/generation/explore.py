"""Stage 1, *explore*: the seeded states a composition's services start from.

Seed states are built once per ``(service, seed, today)`` and kept as JSON
bytes (:func:`compoworld_gym.episode.seed_state_bytes`, shared with episode
mounting); each task plants into a fresh copy made by ``orjson`` (far cheaper
than running Faker again). The services are then really read by the design
stage's solver (:mod:`.solve`), which follows the planted chain.
"""

from __future__ import annotations

import datetime as dt
from typing import Any

import orjson

from compoworld_gym.episode import seed_state_bytes


def explore_states(services: list[str], seed: int, today: dt.date) -> dict[str, dict[str, Any]]:
    """Fresh copies of the seeded states of ``services`` (planting starts from them)."""
    return {s: orjson.loads(seed_state_bytes(s, seed, today)) for s in services}


__all__ = ["explore_states", "seed_state_bytes"]
