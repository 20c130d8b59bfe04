"""Grouped rollouts: GroupMember, GroupRollouts and make_grouped_vector_env."""

from __future__ import annotations

import numpy as np
import orjson
import pytest
from gymnasium.utils.env_checker import check_env
from gymnasium.vector import AutoresetMode, SyncVectorEnv

from compoworld_gym.wrappers import GroupMember, GroupRollouts, make_grouped_vector_env


def test_group_member_picks_its_groups_task(make_env):
    env = GroupMember(make_env(), index=5, group_size=2)
    _, info = env.reset(seed=0, options={"group_tasks": ["t-escalate", "t-escalate", "t-assign"]})
    assert info["task_id"] == "t-assign"  # group 5 // 2 = 2
    _, info = env.reset(seed=0, options={"group_tasks": ["t-escalate", "t-escalate", 1]})
    assert info["task_id"] == "t-assign"  # pool indices work too
    with pytest.raises(ValueError, match="at least 3 entries"):
        env.reset(options={"group_tasks": ["t-escalate"]})


def test_group_member_parks(make_env, acts):
    env = GroupMember(make_env(), index=0, group_size=1)
    with pytest.raises(ValueError, match="never reset"):
        env.reset(options={"park": True})
    env.reset(seed=0, options={"group_tasks": ["t-escalate"]})
    final, *_ = env.step("Done.")
    obs, info = env.reset(options={"park": True})
    assert (obs, info, env.parked) == (final, {}, True)
    assert env.step(acts.URGENT) == (final, 0.0, False, False, {})
    assert env.unwrapped.world.call_log == []  # the parked env did nothing
    env.reset(seed=0)
    assert env.parked is False


def test_group_member_check_env(make_env):
    check_env(GroupMember(make_env(), index=0, group_size=2), skip_render_check=True)


def _members(make_env, n, group_size):
    return [lambda i=i: GroupMember(make_env(), index=i, group_size=group_size) for i in range(n)]


def test_needs_disabled_autoreset_and_dividing_group(make_env):
    with pytest.raises(ValueError, match="DISABLED"):
        GroupRollouts(SyncVectorEnv(_members(make_env, 2, 2)), group_size=2)
    venv = SyncVectorEnv(_members(make_env, 4, 2), autoreset_mode=AutoresetMode.DISABLED)
    with pytest.raises(ValueError, match="divisor"):
        GroupRollouts(venv, group_size=3)


def test_groups_share_task_and_initial_state(task_file, acts):
    venv = make_grouped_vector_env(task_file=task_file, group_size=3, completion_focused=False)
    obs, info = venv.reset(seed=0, options={"tasks": ["t-assign", "t-escalate"]})
    assert info["group"].tolist() == [0, 0, 0, 1, 1, 1]
    assert info["group_task"].tolist() == ["t-assign"] * 3 + ["t-escalate"] * 3
    envs = [e.unwrapped for e in venv.unwrapped.envs]
    assert [e.task.id for e in envs] == info["task_id"].tolist() == info["group_task"].tolist()
    assert obs[0] == obs[1] == obs[2] and obs[3] == obs[4] == obs[5] and obs[0] != obs[3]
    states = [orjson.dumps(e.world.states(), option=orjson.OPT_SORT_KEYS) for e in envs]
    assert len(set(states[:3])) == 1 and len(set(states[3:])) == 1
    venv.step((acts.ASSIGN, "x", "y", acts.URGENT, "a", "b"))  # rollouts stay isolated
    assert envs[0].world.states() != envs[1].world.states()
    assert envs[3].world.states()["helpdesk"]["tickets"]["TCK-0013"]["priority"] == "urgent"
    assert envs[4].world.states()["helpdesk"]["tickets"]["TCK-0013"]["priority"] == "normal"
    venv.close()


def test_finished_sub_envs_hold_their_final_results(tasks, acts):
    venv = make_grouped_vector_env(tasks, group_size=2, num_groups=1, completion_focused=False)
    venv.reset(seed=0, options={"tasks": ["t-escalate"]})
    obs0, r0, term0, trunc0, _ = venv.step(("Done.", acts.URGENT))
    assert term0.tolist() == [True, False] and r0.tolist() == [0.0, 0.0]  # fraction of 4 items: 0
    obs1, r1, term1, _, _ = venv.step((acts.URGENT, "Done."))  # env 0's action is ignored
    assert obs1[0] == obs0[0] and term1.tolist() == [True, True] and r1.tolist() == [0.0, 0.5]
    obs2, r2, term2, trunc2, _ = venv.step(("again", "again"))  # after the end: still held
    assert obs2 == obs1 and r2.tolist() == [0.0, 0.0] and term2.tolist() == [True, True]
    assert venv.unwrapped.envs[0].unwrapped.world.call_log == []
    venv.close()


def test_task_sampling_is_seeded(task_file):
    venv = make_grouped_vector_env(task_file=task_file, group_size=1, num_groups=4, completion_focused=False)
    draws = [venv.reset(seed=s)[1]["group_task"].tolist() for s in (3, 3, 4)]
    assert draws[0] == draws[1]
    assert sorted(set(draws[0])) == ["t-assign", "t-escalate"]  # 4 groups > 2 tasks: with replacement
    with pytest.raises(ValueError, match="reset_mask"):
        venv.reset(options={"reset_mask": np.ones(4, dtype=bool)})
    with pytest.raises(ValueError, match="expected 4 tasks"):
        venv.reset(options={"tasks": ["t-assign"]})
    venv.close()


def test_factory_arguments(tasks, task_file):
    with pytest.raises(ValueError, match="vectorization"):
        make_grouped_vector_env(tasks, group_size=2, vectorization="ray")
    with pytest.raises(ValueError, match="unknown task id"):
        make_grouped_vector_env(["nope"], task_file=task_file, group_size=2)
    with pytest.raises(ValueError, match="group_size"):
        make_grouped_vector_env(tasks, group_size=0)
    venv = make_grouped_vector_env(["t-assign"], task_file=task_file, group_size=2)
    assert (venv.num_envs, venv.group_size) == (2, 2)
    assert venv.reset(seed=1)[1]["group_task"].tolist() == ["t-assign", "t-assign"]
    venv.close()
