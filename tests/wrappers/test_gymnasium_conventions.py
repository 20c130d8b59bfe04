"""Every single-env wrapper on a ``gym.make`` env passes Gymnasium's own tools.

``check_env`` and ``gym.make(env.spec)`` both need every wrapper in the stack
to record its constructor arguments (``gymnasium.utils.RecordConstructorArgs``);
before, ``RecordTrajectory`` and ``GroupMember`` raised "wrapper does not
inherit from RecordConstructorArgs" from ``env.spec``.
"""

from __future__ import annotations

import json

import gymnasium as gym
import pytest
from gymnasium.utils.env_checker import check_env

import compoworld_gym  # noqa: F401  (registers the env ids)
from compoworld_gym.wrappers import ChatFormat, FlatTools, GroupMember, RecordTrajectory, RubricReward


def _wrappers(tmp_path):
    return {
        "RubricReward": lambda e: RubricReward(e, mode="binary"),
        "ChatFormat": ChatFormat,
        "FlatTools": FlatTools,
        "RecordTrajectory": lambda e: RecordTrajectory(e, tmp_path / "t.jsonl"),
        "GroupMember": lambda e: GroupMember(e, index=3, group_size=2),
        "stacked": lambda e: RecordTrajectory(RubricReward(ChatFormat(e)), tmp_path / "s.jsonl"),
    }


@pytest.mark.parametrize("name", ["RubricReward", "ChatFormat", "FlatTools", "RecordTrajectory",
                                  "GroupMember", "stacked"])
def test_check_env_and_rebuild_from_spec(name, tmp_path):
    env = _wrappers(tmp_path)[name](gym.make("CompoWorld-v0"))
    check_env(env, skip_render_check=True)
    rebuilt = gym.make(env.spec)
    assert type(rebuilt) is type(env)
    assert [s.name for s in rebuilt.spec.additional_wrappers] == [s.name for s in env.spec.additional_wrappers]
    obs, info = env.reset(seed=7)
    obs2, info2 = rebuilt.reset(seed=7)
    assert obs2 == obs and info2["task_id"] == info["task_id"]


def test_a_rebuilt_recorder_appends_instead_of_wiping(tmp_path):
    path = tmp_path / "t.jsonl"
    env = RecordTrajectory(gym.make("CompoWorld-v0"), path, mode="w")
    env.reset(seed=0)
    env.step(json.dumps({"final_answer": "done"}))
    env.close()
    rebuilt = gym.make(env.spec)
    rebuilt.reset(seed=1)
    rebuilt.step(json.dumps({"final_answer": "done"}))
    rebuilt.close()
    assert len(path.read_text().splitlines()) == 2


def test_group_member_keeps_its_index_through_the_spec():
    env = GroupMember(gym.make("CompoWorld-v0"), index=3, group_size=2)
    rebuilt = gym.make(env.spec)
    assert (rebuilt.index, rebuilt.group_size) == (3, 2)


def test_a_recorder_into_a_stream_has_a_spec_but_says_it_cannot_be_rebuilt():
    import io

    env = RecordTrajectory(gym.make("CompoWorld-v0"), io.StringIO())
    spec = env.spec  # must not try to copy the stream
    with pytest.raises(TypeError, match="cannot be rebuilt from its spec"):
        gym.make(spec)
