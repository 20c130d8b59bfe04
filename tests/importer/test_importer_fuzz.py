"""The fuzz toolkit passes on a sample of imported real servers."""

from __future__ import annotations

from pathlib import Path

import pytest

runner = pytest.importorskip("compoworld_gym.testing.runner")

from compoworld_gym.importer import import_specs, load_jsonl  # noqa: E402

from compoworld_gym.specs import SPECS_PATH as SPECS  # noqa: E402
#: Small real servers and how many of their tools the engine runs (the rest
#: are simulated): a task queue, a memory-palace store, a travel search.
SAMPLE = {"@chriscarrollsmith_taskqueue-mcp": 9, "@zeyynepkaraduman_memory-palace-mcp": 6,
          "@openbnb-org_mcp-server-airbnb": 0}


@pytest.mark.parametrize("slug", SAMPLE)
def test_fuzz_imported_service(slug):
    servers = {s.slug: s for s in load_jsonl(SPECS) if s.slug in SAMPLE}
    cls = import_specs([servers[slug]], register=False).services[0]
    assert sum(not t.simulated for t in cls.tools.values()) == SAMPLE[slug]
    runner.fuzz_service(cls, profile=runner.with_runs(runner.SHORT, 40), seed=1, quiet=True)
