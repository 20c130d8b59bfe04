"""Grouped rollouts: ``B`` tasks × ``G`` rollouts in one Gymnasium vector env.

GRPO-style training (paper §2.5) runs ``G`` rollouts of the same task from
the same initial state and compares them. Sub-env ``i`` belongs to group
``i // G``. Three pieces:

* :class:`GroupMember` — a single-env wrapper that resets its env to its
  group's task (``options={"group_tasks": [task per group]}``; a task is an
  id or pool index, never an object sent across processes) and can be
  *parked* after its episode ends;
* :class:`GroupRollouts` — a vector wrapper that picks the ``B`` tasks at
  reset, keeps finished sub-envs finished (sticky ``terminated``/
  ``truncated``, their final observation, reward 0) and parks them;
* :func:`make_grouped_vector_env` — builds the whole stack, with a
  :class:`~compoworld_gym.wrappers.completion_focused.CompletionFocusedReward`
  on top by default.

Autoreset: the vector env runs with ``AutoresetMode.DISABLED`` (required).
Gymnasium's ``SyncVectorEnv`` refuses to step a finished sub-env in that
mode, so the moment a sub-env finishes, :class:`GroupRollouts` resets it
with a ``reset_mask`` into the parked state (no env work; it ignores
actions). The caller steps the whole batch until every sub-env reports
``terminated | truncated`` (actions of finished sub-envs are ignored), then
calls ``reset()`` for the next ``B`` groups. Partial resets are refused.
(NEXT_STEP autoreset is not used: it would start a new episode on a random
task, and in Gymnasium 1.4 ``AsyncVectorEnv(shared_memory=False)`` does not
clear its autoreset flag on an explicit reset, so Sync and Async diverge.)
"""

from __future__ import annotations

import copy
import functools
from typing import Any, Callable, Optional, Sequence, Union

import gymnasium as gym
import numpy as np
from gymnasium.vector import AsyncVectorEnv, AutoresetMode, SyncVectorEnv, VectorEnv, VectorWrapper

from compoworld_gym.rewards import WeightFn
from compoworld_gym.tasks import Task, shared_tasks

TaskRef = Union[str, int]


class GroupMember(gym.Wrapper, gym.utils.RecordConstructorArgs):
    """A sub-env that knows its index in a grouped vector env.

    ``reset(options={"group_tasks": refs})`` resets the env to task
    ``refs[index // group_size]`` (other options pass through);
    ``reset(options={"park": True})`` after an episode parks it: until the
    next reset, ``step`` returns the last observation, reward 0 and
    ``terminated = truncated = False`` without touching the env. Without
    these options it behaves like the env it wraps.

    Args:
        env: a ``CompoWorldEnv`` (possibly wrapped).
        index: this sub-env's index in the vector env (``>= 0``).
        group_size: rollouts per group ``G`` (``>= 1``).

    Raises:
        ValueError: a negative index or a group size below 1.
    """

    def __init__(self, env: gym.Env, index: int, group_size: int) -> None:
        gym.utils.RecordConstructorArgs.__init__(self, index=index, group_size=group_size)
        super().__init__(env)
        if not isinstance(index, int) or index < 0:
            raise ValueError(f"index must be a non-negative int, got {index!r}")
        if not isinstance(group_size, int) or group_size < 1:
            raise ValueError(f"group_size must be a positive int, got {group_size!r}")
        self.index = index
        self.group_size = group_size
        self.parked = False
        self._last_obs: Any = None

    def reset(self, *, seed: Optional[int] = None, options: Optional[dict[str, Any]] = None
              ) -> tuple[Any, dict[str, Any]]:
        """Reset to the group's task, or park (see the class docstring).

        Raises:
            ValueError: ``group_tasks`` too short for this index, or parking
                before the first reset.
        """
        options = dict(options or {})
        if options.pop("park", False):
            if self._last_obs is None:
                raise ValueError("cannot park a sub-env that was never reset")
            self.parked = True
            return copy.deepcopy(self._last_obs), {}
        self.parked = False
        if "group_tasks" in options:
            refs = options.pop("group_tasks")
            group = self.index // self.group_size
            if not isinstance(refs, (list, tuple)) or group >= len(refs):
                raise ValueError(f"group_tasks needs at least {group + 1} entries for sub-env {self.index}, "
                                 f"got {refs!r}")
            options["task"] = refs[group]
        obs, info = self.env.reset(seed=seed, options=options or None)
        self._last_obs = obs
        return obs, info

    def step(self, action: Any) -> tuple[Any, float, bool, bool, dict[str, Any]]:
        """Step the env, or hold still while parked."""
        if self.parked:
            return copy.deepcopy(self._last_obs), 0.0, False, False, {}
        obs, reward, terminated, truncated, info = self.env.step(action)
        self._last_obs = obs
        return obs, reward, terminated, truncated, info


class GroupRollouts(VectorWrapper):
    """Reset groups of sub-envs to shared tasks; hold finished sub-envs.

    ``reset(seed, options={"tasks": [B task refs]})`` starts group ``b`` on
    task ``tasks[b]``; without ``"tasks"`` the ``B`` tasks are drawn from
    ``task_refs`` (without replacement when ``B <= len(task_refs)``) by a
    generator seeded with ``seed``. Reset ``info`` gains ``"group"`` (group
    index per sub-env) and ``"group_task"`` (task ref per sub-env).

    After a sub-env's episode ends, every later step reports its final
    observation, reward 0.0 and its final ``terminated``/``truncated``.

    Args:
        env: a vector env of :class:`GroupMember` sub-envs with
            ``autoreset_mode=DISABLED``.
        group_size: rollouts per group ``G``; must divide ``num_envs``.
        task_refs: the pool to draw tasks from when reset gets no ``"tasks"``.

    Raises:
        ValueError: a bad group size, or an autoreset mode other than DISABLED.
    """

    def __init__(self, env: VectorEnv, group_size: int, task_refs: Optional[Sequence[TaskRef]] = None) -> None:
        super().__init__(env)
        if not isinstance(group_size, int) or group_size < 1 or env.num_envs % group_size:
            raise ValueError(f"group_size must be a positive divisor of num_envs={env.num_envs}, got {group_size!r}")
        mode = env.metadata.get("autoreset_mode")
        if mode != AutoresetMode.DISABLED:
            raise ValueError(f"grouped rollouts need autoreset_mode=DISABLED, got {mode}; "
                             "build the vector env with autoreset_mode=AutoresetMode.DISABLED")
        self.group_size = group_size
        self.num_groups = env.num_envs // group_size
        self.task_refs = list(task_refs) if task_refs is not None else None
        self.group_tasks: list[TaskRef] = []
        self._rng = np.random.default_rng()
        self._reset_state()

    def _reset_state(self) -> None:
        n = self.num_envs
        self.ended = np.zeros(n, dtype=np.bool_)
        self._final = [None] * n
        self._final_term = np.zeros(n, dtype=np.bool_)
        self._final_trunc = np.zeros(n, dtype=np.bool_)

    def _pick_tasks(self, seed: Optional[int], options: dict[str, Any]) -> list[TaskRef]:
        if seed is not None:
            self._rng = np.random.default_rng(seed)
        if "tasks" in options:
            tasks = list(options.pop("tasks"))
        elif self.task_refs:
            pool = self.task_refs
            idx = self._rng.choice(len(pool), size=self.num_groups, replace=self.num_groups > len(pool))
            tasks = [pool[int(i)] for i in idx]
        else:
            raise ValueError("no task pool: pass reset(options={'tasks': [...]}) or give task_refs")
        if len(tasks) != self.num_groups:
            raise ValueError(f"expected {self.num_groups} tasks (one per group), got {len(tasks)}")
        return tasks

    def reset(self, *, seed: Optional[int] = None, options: Optional[dict[str, Any]] = None
              ) -> tuple[Any, dict[str, Any]]:
        """Reset every group (see the class docstring).

        Raises:
            ValueError: a ``reset_mask`` (partial resets are not supported),
                or a wrong number of tasks.
        """
        options = dict(options or {})
        if "reset_mask" in options:
            raise ValueError("grouped rollouts reset all groups together; reset_mask is not supported")
        self.group_tasks = self._pick_tasks(seed, options)
        obs, info = self.env.reset(seed=seed, options={**options, "group_tasks": list(self.group_tasks)})
        self._reset_state()
        info = dict(info)
        info["group"] = np.arange(self.num_envs) // self.group_size
        info["group_task"] = np.array([self.group_tasks[g] for g in info["group"]], dtype=object)
        return obs, info

    def step(self, actions: Any) -> tuple[Any, np.ndarray, np.ndarray, np.ndarray, dict[str, Any]]:
        """Step every sub-env; finished ones hold their final results."""
        obs, rewards, terms, truncs, info = self.env.step(actions)
        obs = list(obs)
        rewards, terms, truncs = np.array(rewards, dtype=np.float64), np.array(terms), np.array(truncs)
        held = self.ended
        for i in np.flatnonzero(held):
            obs[i] = copy.deepcopy(self._final[i])
        rewards[held] = 0.0
        terms[held], truncs[held] = self._final_term[held], self._final_trunc[held]
        newly = (terms | truncs) & ~held
        for i in np.flatnonzero(newly):
            self._final[i] = copy.deepcopy(obs[i])
        self._final_term[newly], self._final_trunc[newly] = terms[newly], truncs[newly]
        self.ended = held | newly
        if newly.any():  # park them, so that the next step does not step a finished env
            self.env.reset(options={"reset_mask": newly.copy(), "park": True})
        return tuple(obs), rewards, terms, truncs, info


def _make_member(index: int, group_size: int, env_kwargs: dict[str, Any],
                 member_wrappers: Sequence[Callable[[gym.Env], gym.Env]]) -> gym.Env:
    """Build one sub-env (module level, so Async workers can unpickle it)."""
    from compoworld_gym.envs.compoworld_env import CompoWorldEnv

    env: gym.Env = CompoWorldEnv(**env_kwargs)
    for wrap in member_wrappers:
        env = wrap(env)
    return GroupMember(env, index=index, group_size=group_size)


def _pool_kwargs(tasks: Optional[Sequence[Union[Task, str]]], task_file: Optional[str]
                 ) -> tuple[dict[str, Any], list[TaskRef]]:
    """Env kwargs that make the pool reachable in workers, and the task refs."""
    if task_file is not None:
        pool_ids = [t.id for t in shared_tasks(task_file)]
        kwargs: dict[str, Any] = {"task_file": str(task_file)}
    elif tasks and all(isinstance(t, Task) for t in tasks):
        # Task objects are shipped once, at worker start; resets send only ids.
        return {"tasks": list(tasks)}, [t.id for t in tasks]
    else:
        from compoworld_gym.builtin_tasks import builtin_tasks

        pool_ids = [t.id for t in builtin_tasks()]
        kwargs = {}
    if tasks is None:
        return kwargs, pool_ids
    if not all(isinstance(t, str) for t in tasks):
        raise ValueError("tasks must be all Task objects or all task ids")
    unknown = [t for t in tasks if t not in pool_ids]
    if unknown:
        raise ValueError(f"unknown task id(s) {unknown}; the pool has {len(pool_ids)} tasks")
    return kwargs, list(tasks)


def make_grouped_vector_env(
    tasks: Optional[Sequence[Union[Task, str]]] = None,
    *,
    group_size: int,
    num_groups: Optional[int] = None,
    vectorization: str = "sync",
    task_file: Optional[str] = None,
    max_steps: int = 40,
    weight_fn: Optional[WeightFn] = None,
    completion_focused: bool = True,
    member_wrappers: Sequence[Callable[[gym.Env], gym.Env]] = (),
) -> VectorWrapper:
    """A vector env of ``num_groups × group_size`` rollouts of shared tasks.

    Args:
        tasks: the task pool: task ids (of ``task_file`` or the built-in
            set), or ``Task`` objects; default the whole file / built-ins.
        group_size: rollouts per task ``G``.
        num_groups: tasks per batch ``B``; default ``len(pool)``.
        vectorization: ``"sync"`` (fast for cheap envs) or ``"async"``
            (``AsyncVectorEnv(shared_memory=False)``: text spaces cannot use shared memory).
        task_file: a JSONL task file to load the pool from in every worker.
        max_steps: step limit of each episode.
        weight_fn: weighting function of the completion-focused reward.
        completion_focused: add :class:`CompletionFocusedReward` on top.
        member_wrappers: callables applied to each ``CompoWorldEnv`` before
            :class:`GroupMember` (e.g. ``ChatFormat``); must pickle for async.

    Returns:
        ``CompletionFocusedReward(GroupRollouts(vector env))`` (or just
        ``GroupRollouts`` with ``completion_focused=False``).

    Raises:
        ValueError: bad sizes, an unknown vectorization or unknown task ids.

    Example:
        >>> venv = make_grouped_vector_env(group_size=2, num_groups=1)
        >>> obs, info = venv.reset(seed=0)
        >>> len(obs), info["group"].tolist()
        (2, [0, 0])
        >>> venv.close()
    """
    if vectorization not in ("sync", "async"):
        raise ValueError(f"vectorization must be 'sync' or 'async', got {vectorization!r}")
    if tasks is not None and not tasks:
        raise ValueError("tasks must not be empty")
    env_kwargs, refs = _pool_kwargs(tasks, task_file)
    env_kwargs["max_steps"] = max_steps
    num_groups = len(refs) if num_groups is None else num_groups
    if not isinstance(num_groups, int) or num_groups < 1:
        raise ValueError(f"num_groups must be a positive int, got {num_groups!r}")
    if not isinstance(group_size, int) or group_size < 1:
        raise ValueError(f"group_size must be a positive int, got {group_size!r}")
    fns = [functools.partial(_make_member, i, group_size, env_kwargs, tuple(member_wrappers))
           for i in range(num_groups * group_size)]
    if vectorization == "sync":
        venv: VectorEnv = SyncVectorEnv(fns, autoreset_mode=AutoresetMode.DISABLED)
    else:
        venv = AsyncVectorEnv(fns, shared_memory=False, autoreset_mode=AutoresetMode.DISABLED)
    grouped = GroupRollouts(venv, group_size, task_refs=refs)
    if not completion_focused:
        return grouped
    from compoworld_gym.wrappers.completion_focused import CompletionFocusedReward

    return CompletionFocusedReward(grouped, weight_fn=weight_fn)
