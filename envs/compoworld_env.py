"""The meta-tool environment: one verified task in one composition per episode."""

from __future__ import annotations

import datetime as dt
from typing import Any, Optional, Sequence

import gymnasium as gym
import orjson

from compoworld_gym.actions import parse_action
from compoworld_gym.episode import TaskRuntime
from compoworld_gym.errors import error_envelope
from compoworld_gym.metatools import dispatch, meta_tool_definitions_json
from compoworld_gym.prompts import system_prompt
from compoworld_gym.rewards import score
from compoworld_gym.tasks import Task, shared_tasks
from compoworld_gym.envs.spaces import Unicode

#: Longest observation text, in characters (results are truncated past it).
MAX_OBSERVATION_CHARS = 1_000_000
#: Longest accepted action text, in characters.
MAX_ACTION_CHARS = 65_536
#: Most task runtimes an env keeps (tasks given by object at reset beyond the pool).
MAX_RUNTIMES = 4096


def _dumps(obj: Any) -> str:
    return orjson.dumps(obj, option=orjson.OPT_NON_STR_KEYS).decode()


_PROMPTS: dict[tuple[dt.date, str], tuple[str, tuple[str, str]]] = {}


def _prompt(task: Task) -> tuple[str, list[str]]:
    """The reset observation and the transcript's first lines (cached by date and instruction)."""
    key = (task.today, task.instruction)
    hit = _PROMPTS.get(key)
    if hit is None:
        if len(_PROMPTS) >= 4096:  # bound the cache for long runs over many tasks
            _PROMPTS.clear()
        system = system_prompt(task.today)
        messages = [{"role": "system", "content": system}, {"role": "user", "content": task.instruction}]
        obs = '{"messages":' + _dumps(messages) + ',"tools":' + meta_tool_definitions_json() + "}"
        hit = _PROMPTS[key] = (obs, (f"[system] {system}", f"[user] {task.instruction}"))
    return hit[0], list(hit[1])


def _fit(result: dict[str, Any], budget: int) -> dict[str, Any]:
    """``result``, or its data withheld if it exceeds ``budget`` characters.

    The call itself has happened (a write stays applied), so the success flag
    is kept; only the oversized data is replaced by a note.
    """
    size = len(_dumps(result))
    if size <= budget:
        return result
    note = f"result of {size} characters is too large to show; narrow the request (filters, limit)."
    if result.get("success") is True:
        return {"success": True, "data": None, "truncated": True, "message": note}
    return error_envelope(400, note)


class CompoWorldEnv(gym.Env[str, str]):
    """An LLM agent solves one cross-service task through four meta-tools.

    Each episode mounts one task's services plus distractor services on the
    task's initial state (paper §2.2–2.3). The agent discovers the world with
    ``list_services``/``list_tools``/``describe_tool`` and acts with
    ``call_tool``; rubric checks score the final state (paper §2.5).

    ## Action Space
    ``Unicode(65536)``: a JSON meta-tool call
    ``{"name": "call_tool", "arguments": {"tool_name": "...", "arguments": {...}}}``
    (or ``list_services``/``list_tools``/``describe_tool``), a JSON array of
    calls made in one turn, ``{"final_answer": "..."}``, or plain text (a final
    answer). Malformed actions give an error observation, never an exception.

    ## Observation Space
    ``Unicode(1_000_000)``: JSON text. After ``reset``:
    ``{"messages": [{"role": "system", ...}, {"role": "user", ...}], "tools": [4 definitions]}``.
    After ``step``: the meta-tool's JSON result (a JSON array for several
    calls), or an error envelope ``{"success": false, "error": {"code", "message"}}``.

    ## Rewards
    0 on every step but the last; at the end of the episode the work done
    (the fraction of positive rubric items passed) times 0.5 for every guard
    broken, also given as ``info["rubric_score"]``: doing nothing scores 0,
    the reference solution 1. :func:`compoworld_gym.rewards.score` computes
    it; :mod:`compoworld_gym.rewards` states the rule. Wrap with
    ``compoworld_gym.wrappers`` for binary, weighted or completion-focused
    rewards.

    ## Episode End
    Terminates on a final answer; truncates after ``max_steps`` steps. A cut
    from outside (``gym.make(..., max_episode_steps=N)``, whose ``TimeLimit``
    the env cannot see) is scored the same way: registered ids add
    :class:`~compoworld_gym.wrappers.ScoreOnTruncation` outermost, which
    calls :meth:`end_episode`.

    ## Arguments
    - ``task``: a :class:`Task`, or the id of a task in ``tasks``/``task_file``.
    - ``tasks``: the pool to sample from at reset (default: the built-in set).
    - ``task_file``: a JSONL task file to use as the pool.
    - ``max_steps``: step limit (default 40).
    - ``render_mode``: ``None`` or ``"ansi"`` (a readable transcript).
    - ``composition``: keep only the pool's tasks of this composition id
      (what ``CompoWorld/<slug>-v0`` ids registered by
      :func:`compoworld_gym.envs.registration.register_compositions` pass).

    ``reset(options={"task": Task | task id | index})`` picks a task
    explicitly; otherwise a task is drawn from the pool with the env's RNG.

    ## Version History
    - v0: first release.

    Example:
        >>> import gymnasium as gym, compoworld_gym
        >>> env = gym.make("CompoWorld-v0")
        >>> obs, info = env.reset(seed=0)
        >>> obs, reward, terminated, truncated, info = env.step('{"name": "list_services"}')
        >>> "services" in obs
        True
    """

    metadata = {"render_modes": ["ansi"], "render_fps": 1}

    def __init__(
        self,
        task: Task | str | None = None,
        tasks: Optional[Sequence[Task]] = None,
        task_file: Optional[str] = None,
        max_steps: int = 40,
        render_mode: Optional[str] = None,
        composition: Optional[str] = None,
    ) -> None:
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode must be None or 'ansi', got {render_mode!r}")
        if not isinstance(max_steps, int) or max_steps < 1:
            raise ValueError(f"max_steps must be a positive int, got {max_steps!r}")
        self.render_mode = render_mode
        self.max_steps = max_steps
        self.observation_space = Unicode(MAX_OBSERVATION_CHARS)
        self.action_space = Unicode(MAX_ACTION_CHARS)
        self._pool = self._build_pool(tasks, task_file)
        if composition is not None:
            self._pool = [t for t in self._pool if (t.composition or {}).get("id") == composition]
            if not self._pool:
                raise ValueError(f"no task of composition {composition!r} in the task pool")
        self._by_id: Optional[dict[str, Task]] = None  # built at the first lookup by id
        self._fixed = self._find(task) if task is not None else None
        self.task: Optional[Task] = None
        self.world = None
        self._transcript: list[str] = []
        # One runtime per task served, built at its first reset. Keyed by id(task):
        # each runtime holds its task, so a key cannot be reused while it is here.
        self._runtimes: dict[int, TaskRuntime] = {}
        self._runtime: Optional[TaskRuntime] = None

    # ------------------------------------------------------------- task pool
    @staticmethod
    def _build_pool(tasks: Optional[Sequence[Task]], task_file: Optional[str]) -> list[Task]:
        """The task pool, checked here so that a bad pool fails at construction, not at reset."""
        if tasks is not None and task_file is not None:
            raise ValueError("give either tasks or task_file, not both")
        if task_file is not None:
            pool = list(shared_tasks(task_file))  # one parsed copy per file, shared by every env
            if not pool:
                raise ValueError(f"task file {task_file} holds no tasks")
            return pool
        if tasks is None:
            from compoworld_gym.builtin_tasks import builtin_tasks

            return builtin_tasks()
        if isinstance(tasks, (str, bytes, Task)):
            raise TypeError(f"tasks must be a sequence of Task objects, got {type(tasks).__name__}; "
                            "use task_file= for a JSONL file or task= for one task or task id")
        pool = list(tasks)
        if not pool:
            raise ValueError("tasks must not be empty")
        seen: dict[str, int] = {}
        for i, t in enumerate(pool):
            if not isinstance(t, Task):
                raise TypeError(f"tasks[{i}] is a {type(t).__name__}, not a Task; use task_file= for a "
                                "JSONL file or task= for a task id")
            if t.id in seen:
                raise ValueError(f"tasks[{i}] and tasks[{seen[t.id]}] share the task id {t.id!r}")
            seen[t.id] = i
        return pool

    def _find(self, task: Task | str | int) -> Task:
        if isinstance(task, Task):
            return task
        if isinstance(task, int) and not isinstance(task, bool):
            if not 0 <= task < len(self._pool):
                raise ValueError(f"task index {task} out of range 0..{len(self._pool) - 1}")
            return self._pool[task]
        if self._by_id is None:
            self._by_id = {t.id: t for t in self._pool}
        hit = self._by_id.get(task) if isinstance(task, str) else None
        if hit is not None:
            return hit
        raise ValueError(f"unknown task {task!r}; known ids start with "
                         f"{', '.join(t.id for t in self._pool[:5])}")

    @property
    def tasks(self) -> list[Task]:
        """The task pool (read-only view)."""
        return list(self._pool)

    # ----------------------------------------------------------------- reset
    def reset(self, *, seed: Optional[int] = None, options: Optional[dict[str, Any]] = None
              ) -> tuple[str, dict[str, Any]]:
        """Start an episode; returns the prompt observation and ``info``.

        Raises:
            ValueError: ``options["task"]`` names no task in the pool.
            pydantic.ValidationError: the task's initial state does not fit a
                service's state model (found on the task's first reset).
        """
        super().reset(seed=seed)
        options = options or {}
        if "task" in options:
            self.task = self._find(options["task"])
        elif self._fixed is not None:
            self.task = self._fixed
        else:
            self.task = self._pool[int(self.np_random.integers(len(self._pool)))]
        self._runtime = self._runtime_of(self.task)
        self.world = self._runtime.mount()
        self._steps = 0
        self._n_calls = 0
        self._answer: Optional[str] = None
        self._done = False
        self._results: Optional[list] = None
        self._score = 0.0
        obs, self._transcript = _prompt(self.task)
        return obs, self._info()

    # ------------------------------------------------------------------ step
    def step(self, action: str) -> tuple[str, float, bool, bool, dict[str, Any]]:
        """Apply one action (meta-tool call(s) or a final answer).

        Returns:
            ``(observation, reward, terminated, truncated, info)``; reward is
            0.0 except at the end of the episode (its score: see ``## Rewards``).

        Raises:
            RuntimeError: ``step`` before the first ``reset``.
        """
        if self.world is None:
            raise RuntimeError("call reset() before step()")
        if self._done:
            obs = _dumps(error_envelope(409, "the episode has ended; call reset() to start a new one."))
            return obs, 0.0, True, False, self._info()
        self._steps += 1
        parsed = parse_action(action)
        # Only a rendering env keeps a transcript: it would otherwise hold every observation twice.
        keep = self.render_mode == "ansi"
        if keep:
            self._transcript.append(f"[agent] {action if isinstance(action, str) else repr(action)}")
        terminated = False
        if parsed.error is not None:
            obs = _dumps(parsed.error)
        elif parsed.final_answer is not None:
            self._answer = parsed.final_answer
            obs = _dumps({"final_answer": parsed.final_answer})
            terminated = True
        else:
            # Tool results come as JSON fragments: written once, straight from the tool's data.
            results = [dispatch(self.world, name, args, as_fragment=True) for name, args in parsed.calls]
            self._n_calls += len(results)
            obs = _dumps(results[0] if len(results) == 1 else results)
            if len(obs) > MAX_OBSERVATION_CHARS:
                results = [_fit(r, MAX_OBSERVATION_CHARS // len(results) - 200) for r in results]
                obs = _dumps(results[0] if len(results) == 1 else results)
        truncated = not terminated and self._steps >= self.max_steps
        reward = 0.0
        if terminated or truncated:
            self._finish()
            reward = self._score
        if keep:
            self._transcript.append(f"[env] {obs}")
        return obs, reward, terminated, truncated, self._info()

    def end_episode(self) -> tuple[float, dict[str, Any]]:
        """End the episode now, scored exactly as the ``max_steps`` limit scores it.

        For wrappers that cut an episode from outside (Gymnasium's
        ``TimeLimit``; see :class:`~compoworld_gym.wrappers.ScoreOnTruncation`):
        the final state is scored with the final answer given so far (none).
        Calling it on an episode that has ended already changes nothing.

        Returns:
            ``(reward, info)``: the episode's score and an ``info`` with
            ``"rubric"`` and ``"rubric_score"``.

        Raises:
            RuntimeError: before the first ``reset``.
        """
        if self.world is None:
            raise RuntimeError("call reset() before end_episode()")
        if not self._done:
            self._finish()
        return self._score, self._info()

    def _finish(self) -> None:
        self._done = True
        # Only the services a tool call touched are dumped (see TaskRuntime.evaluate_world).
        self._results = self._runtime.evaluate_world(self.world, self._answer)
        self._score = score(self._results)

    def _runtime_of(self, task: Task) -> TaskRuntime:
        """The task's runtime, built once (it validates and normalises the initial states)."""
        runtime = self._runtimes.get(id(task))
        if runtime is None or runtime.task is not task:
            if len(self._runtimes) >= MAX_RUNTIMES:  # bound it when callers pass ever new Task objects
                self._runtimes.clear()
            runtime = self._runtimes[id(task)] = TaskRuntime(task)
        return runtime

    def _info(self) -> dict[str, Any]:
        info: dict[str, Any] = {
            "task_id": self.task.id if self.task else None,
            "steps": self._steps,
            "n_tool_calls": self._n_calls,
            "n_real_tool_calls": len(self.world.call_log) if self.world else 0,
        }
        if self._results is not None:
            info["rubric"] = [r.model_dump() for r in self._results]
            info["rubric_score"] = self._score
            info["final_answer"] = self._answer
        return info

    # ---------------------------------------------------------------- render
    def render(self) -> Optional[str]:
        """With ``render_mode="ansi"``, the transcript so far as text."""
        if self.render_mode != "ansi":
            return None
        return "\n".join(self._transcript) + "\n"

    # ------------------------------------------------------------ inspection
    @property
    def final_answer(self) -> Optional[str]:
        """The agent's final answer, once given."""
        return self._answer
