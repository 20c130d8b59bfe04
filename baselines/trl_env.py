"""TRL's own tool loop over CompoWorld: ``GRPOTrainer(environment_factory=...)`` and ``AsyncGRPOTrainer``.

TRL (1.16) builds one env per rollout with a zero-argument factory, turns the
public methods of its class into tools (schemas from
``transformers.utils.get_json_schema``), calls ``reset(**row)`` with the
dataset row, and adds ``get_reward()``, if the class has it, as a reward
column. Tool results are masked out of the loss.

* :class:`CompoWorldEnvFactory`: that factory, a frozen picklable dataclass
  (``AsyncGRPOTrainer`` pickles it into its rollout process);
  :meth:`~CompoWorldEnvFactory.grpo_kwargs` gives TRL the step limit.
* :class:`CompoWorldToolEnv`: the four meta-tools, generated from
  :class:`compoworld_gym.metatools.MetaTools` (same names, parameters,
  docstrings; they return the result's JSON text), plus ``answer(text)``,
  which ends and scores the episode inside the env; later calls get a 409.
  :class:`CompoWorldScoredToolEnv` adds ``get_reward()``, the rubric score; an
  episode that never called ``answer`` is scored as it stands, with no answer.
* :class:`GroupRubricReward`: the completion-focused group reward (or the
  binary / fraction ablations) as a TRL reward function. ``GRPOTrainer``
  passes it ``environments=``; ``AsyncGRPOTrainer``'s worker never does
  (``_AsyncRolloutLoop._score_group``), so there it replays each completion's
  tool calls in a fresh env (episodes are deterministic).

``docs/integrations/trl.md`` has the example, what the model sees, which
reward fits which trainer, and the measured figures.
"""

from __future__ import annotations

import datetime as dt
import inspect
import typing
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable, Optional, Sequence

import orjson

from compoworld_gym.baselines.config import REWARD_KINDS, RewardKind
from compoworld_gym.envs.compoworld_env import CompoWorldEnv
from compoworld_gym.errors import error_envelope
from compoworld_gym.metatools import META_TOOL_NAMES, MetaTools
from compoworld_gym.prompts import ANSWER_TOOL_SENTENCE
from compoworld_gym.prompts import system_prompt as base_system_prompt
from compoworld_gym.rewards import RubricRow, rubric_row
from compoworld_gym.tasks import Task

#: The prompt's sentence that the final answer is the ``answer`` tool (its home: :mod:`compoworld_gym.prompts`).
ANSWER_SENTENCE = ANSWER_TOOL_SENTENCE

#: The tool names TRL sees on a :class:`CompoWorldToolEnv`, in the order of the prompt's tool list.
TOOL_NAMES = (*META_TOOL_NAMES, "answer")


def system_prompt(today: dt.date) -> str:
    """The system prompt of this path: the episode prompt plus :data:`ANSWER_SENTENCE`."""
    return base_system_prompt(today, answer_tool=True)


def prompt_dataset(tasks: Sequence[Task]) -> Any:
    """A ``datasets.Dataset`` with ``prompt`` (system + user messages) and ``task_id`` columns.

    Raises:
        ValueError: no tasks.
    """
    from datasets import Dataset

    if not tasks:
        raise ValueError("prompt_dataset needs at least one task")
    return Dataset.from_dict({
        "prompt": [[{"role": "system", "content": system_prompt(t.today)},
                    {"role": "user", "content": t.instruction}] for t in tasks],
        "task_id": [t.id for t in tasks],
    })


def _meta_tool(name: str) -> Callable[..., str]:
    """The env method of meta-tool ``name``: :class:`MetaTools`' signature, type hints and
    docstring, returning the result's JSON text (arguments are validated by the env: 400s)."""
    declared = getattr(MetaTools, name)
    hints = {**typing.get_type_hints(declared), "return": str}
    signature = inspect.signature(declared)
    params = [p.replace(annotation=hints.get(p.name, p.annotation)) for p in signature.parameters.values()]
    names = [p.name for p in params[1:]]  # params[0] is self

    def tool(self: CompoWorldToolEnv, *args: Any, **kwargs: Any) -> str:
        if len(args) > len(names):
            return _dumps(error_envelope(400, f"{name} takes at most {len(names)} arguments, got {len(args)}"))
        return self._step(name, {**dict(zip(names, args)), **kwargs})

    tool.__name__ = name
    tool.__qualname__ = f"CompoWorldToolEnv.{name}"
    tool.__doc__ = declared.__doc__
    tool.__annotations__ = hints
    tool.__signature__ = signature.replace(parameters=params, return_annotation=str)  # type: ignore[attr-defined]
    return tool


def _dumps(obj: Any) -> str:
    return orjson.dumps(obj).decode()


class CompoWorldToolEnv:
    """One CompoWorld episode whose meta-tools, and ``answer``, are TRL tools.

    Instances are pooled and reused by TRL: :meth:`reset` starts a fresh
    episode. Only the tools are public methods (TRL would expose any other);
    the episode's outcome is read through properties.

    Args:
        tasks: the task pool (``reset`` picks one by ``task_id``); or
        task_file: a JSONL task file as the pool (default: the built-in tasks).
        max_steps: env steps per episode: each tool call is one, ``answer`` too.

    Raises:
        ValueError: both ``tasks`` and ``task_file``, an empty pool, or a bad ``max_steps``.
    """

    def __init__(self, tasks: Optional[Sequence[Task]] = None, task_file: Optional[str] = None,
                 max_steps: int = 40) -> None:
        self._env = CompoWorldEnv(tasks=None if tasks is None else list(tasks), task_file=task_file,
                                  max_steps=max_steps)
        self._rubric: Optional[RubricRow] = None
        self._score: Optional[float] = None
        self._ended_by: Optional[str] = None

    def reset(self, **row: Any) -> None:
        """Start the episode of ``row["task_id"]`` (the dataset prompt already holds the task).

        Returns None: TRL then keeps the dataset prompt as it is.

        Raises:
            ValueError: the row has no ``task_id``, or it names no task of the pool.
        """
        if "task_id" not in row:
            raise ValueError("dataset rows need a 'task_id' column (see prompt_dataset)")
        self._env.reset(seed=0, options={"task": str(row["task_id"])})
        self._rubric, self._score, self._ended_by = None, None, None
        return None

    list_services = _meta_tool("list_services")
    list_tools = _meta_tool("list_tools")
    describe_tool = _meta_tool("describe_tool")
    call_tool = _meta_tool("call_tool")

    def answer(self, text: str) -> str:
        """Give your final answer and end the task. Call it once, when the work is done: no tool works after it.

        Args:
            text: Your final answer in plain text: what the request asks for, and only that.
        """
        blocked = self._blocked()
        if blocked is not None:
            return blocked
        _obs, _r, _term, _trunc, info = self._env.step(_dumps({"final_answer": str(text)}))
        self._record(info, "answer")
        return _dumps({"success": True, "data": {"message": "Answer recorded. The task is over."}})

    # ----------------------------------------------------------- the outcome
    @property
    def task_id(self) -> Optional[str]:
        """The id of the episode's task (None before the first reset)."""
        return self._env.task.id if self._env.task is not None else None

    @property
    def ended(self) -> bool:
        """Whether the episode has ended (answer given, step limit hit, or scored)."""
        return self._ended_by is not None

    @property
    def rubric(self) -> Optional[RubricRow]:
        """The ended episode's rubric row (``passes``, ``guards``: shape ``(K,)``); None while it runs."""
        return self._rubric

    @property
    def score(self) -> Optional[float]:
        """The ended episode's rubric score in [0, 1]; None while it runs."""
        return self._score

    # ------------------------------------------------------------- internals
    def _finish(self) -> RubricRow:
        """End the episode as it stands (no final answer) unless it has ended; its rubric row.

        Raises:
            RuntimeError: before the first reset.
        """
        if self._env.task is None:
            raise RuntimeError("reset() the environment before scoring it")
        if self._rubric is None:
            _reward, info = self._env.end_episode()
            self._record(info, "scoring")
        return self._rubric  # type: ignore[return-value]

    def _record(self, info: dict[str, Any], ended_by: str) -> None:
        self._rubric = rubric_row(info["rubric"])
        self._score = float(info["rubric_score"])
        self._ended_by = ended_by

    def _blocked(self) -> Optional[str]:
        if self._env.task is None:
            return _dumps(error_envelope(409, "the environment has not been reset; no episode is running."))
        if self._ended_by is None:
            return None
        why = {"answer": "you gave your final answer", "scoring": "it was scored"}.get(
            self._ended_by, f"the step limit ({self._env.max_steps} steps) was reached")
        return _dumps(error_envelope(409, f"the episode has ended ({why}); no tool works now. "
                                          "Reply without a tool call."))

    def _step(self, name: str, arguments: dict[str, Any]) -> str:
        blocked = self._blocked()
        if blocked is not None:
            return blocked
        try:
            action = _dumps({"name": name, "arguments": arguments})
        except TypeError as exc:  # not JSON-able: never from TRL's parser, possible from Python callers
            return _dumps(error_envelope(400, f"{name}: arguments are not JSON ({exc})"))
        obs, _r, terminated, truncated, info = self._env.step(action)
        if terminated or truncated:
            self._record(info, "step limit")
        return obs


class CompoWorldScoredToolEnv(CompoWorldToolEnv):
    """A :class:`CompoWorldToolEnv` that owns its reward: TRL adds :meth:`get_reward` as a reward column."""

    def get_reward(self) -> float:
        """The episode's rubric score in [0, 1] (:func:`compoworld_gym.rewards.score`).

        An episode still running (no ``answer`` call) is ended first and
        scored as it stands, with no final answer.

        Raises:
            RuntimeError: before the first reset.
        """
        self._finish()
        return float(self._score)  # type: ignore[arg-type]


@dataclass(frozen=True)
class CompoWorldEnvFactory:
    """The ``environment_factory`` of ``GRPOTrainer`` / ``AsyncGRPOTrainer``: picklable, zero-argument.

    Args:
        tasks: the task pool (stored as a tuple; it is pickled with the factory), or
        task_file: a JSONL task file (pickled as its path: the rollout process
            must see the same file). Neither: the built-in tasks.
        max_steps: env steps per episode (tool calls, ``answer`` included).
        owns_reward: True: the envs are :class:`CompoWorldScoredToolEnv`
            (the rubric score is TRL's reward column); False: plain
            :class:`CompoWorldToolEnv`, rewarded by :class:`GroupRubricReward`.

    Raises:
        ValueError: both ``tasks`` and ``task_file``, no tasks, or a bad ``max_steps``.
        FileNotFoundError: ``task_file`` does not exist.

    Example:
        >>> factory = CompoWorldEnvFactory(max_steps=5)     # the built-in tasks
        >>> env = factory()
        >>> env.reset(task_id="builtin-merge-duplicates")
        >>> orjson.loads(env.list_tools("nowhere"))["error"]["code"]
        404
        >>> env.answer("Nothing to do."), env.get_reward(), env.ended
        ('{"success":true,"data":{"message":"Answer recorded. The task is over."}}', 0.0, True)
        >>> factory.grpo_kwargs()
        {'max_tool_calling_iterations': 5}
    """

    tasks: Optional[tuple[Task, ...]] = None
    task_file: Optional[str] = None
    max_steps: int = 40
    owns_reward: bool = True

    def __post_init__(self) -> None:
        if self.tasks is not None and self.task_file is not None:
            raise ValueError("give either tasks or task_file, not both")
        if self.tasks is not None:
            object.__setattr__(self, "tasks", tuple(self.tasks))
            if not self.tasks:
                raise ValueError("the environment factory needs at least one task")
        if self.task_file is not None:
            object.__setattr__(self, "task_file", str(self.task_file))
            if not Path(self.task_file).is_file():
                raise FileNotFoundError(f"task file {self.task_file} does not exist")
        if not isinstance(self.max_steps, int) or isinstance(self.max_steps, bool) or self.max_steps < 1:
            raise ValueError(f"max_steps must be a positive int, got {self.max_steps!r}")

    def __call__(self) -> CompoWorldToolEnv:
        """A new env (not reset: TRL resets it with each dataset row)."""
        cls = CompoWorldScoredToolEnv if self.owns_reward else CompoWorldToolEnv
        return cls(tasks=self.tasks, task_file=self.task_file, max_steps=self.max_steps)

    def task_pool(self) -> list[Task]:
        """The tasks the envs serve (for :func:`prompt_dataset`)."""
        if self.tasks is not None:
            return list(self.tasks)
        if self.task_file is not None:
            from compoworld_gym.tasks import shared_tasks

            return list(shared_tasks(self.task_file))
        from compoworld_gym.builtin_tasks import builtin_tasks

        return builtin_tasks()

    def grpo_kwargs(self) -> dict[str, int]:
        """``GRPOConfig`` / ``AsyncGRPOConfig`` kwargs of the step limit:
        ``{"max_tool_calling_iterations": max_steps}``."""
        return {"max_tool_calling_iterations": self.max_steps}


class GroupRubricReward:
    """A TRL reward function: each group's rubric reward, completion-focused by default.

    Called with ``completions`` (``N`` = groups × ``num_generations``, in
    TRL's group order) and either ``environments=`` (``GRPOTrainer``: the
    ended envs are read) or, without them, the dataset's ``task_id`` column
    (``AsyncGRPOTrainer``: each completion's tool calls are replayed, see the
    module docstring). An env whose episode still runs is scored as it stands.
    Rewards come from :func:`compoworld_gym.baselines.grpo.group_rewards`.

    Args:
        factory: the trainer's factory, with ``owns_reward=False``.
        num_generations: ``G``, TRL's ``num_generations`` (in eval, ``num_generations_eval`` must equal it).
        kind: ``"completion_focused"``, ``"binary"`` or ``"fraction"``.

    Raises:
        ValueError: a factory whose envs own their reward (TRL would add
            both), a bad ``num_generations`` or ``kind``; at call time, a
            batch that is not whole groups, a group mixing tasks, or neither
            ``environments`` nor ``task_id``.
    """

    def __init__(self, factory: CompoWorldEnvFactory, num_generations: int,
                 kind: RewardKind = "completion_focused") -> None:
        if factory.owns_reward:
            raise ValueError("the factory's envs own their reward (get_reward), which TRL adds as a reward column: "
                             "this reward would count on top of it. Use CompoWorldEnvFactory(..., owns_reward=False)")
        if not isinstance(num_generations, int) or num_generations < 1:
            raise ValueError(f"num_generations must be a positive int, got {num_generations!r}")
        if kind not in REWARD_KINDS:
            raise ValueError(f"kind must be one of {', '.join(REWARD_KINDS)}; got {kind!r}")
        self.factory, self.num_generations, self.kind = factory, num_generations, kind
        self.__name__ = f"{kind}_reward"  # TRL's column name (rewards/<name>)
        self._replayer: Optional[CompoWorldToolEnv] = None

    def __getstate__(self) -> dict[str, Any]:
        return {**self.__dict__, "_replayer": None}  # rebuilt on demand

    def __call__(self, completions: list[Any], environments: Optional[list[CompoWorldToolEnv]] = None,
                 task_id: Optional[list[str]] = None, **kwargs: Any) -> list[float]:
        from compoworld_gym.baselines.grpo import group_rewards

        n, g = len(completions), self.num_generations
        if n % g:
            raise ValueError(f"{n} completions are not whole groups of num_generations={g}")
        if environments is not None:
            rows, ids = [env._finish() for env in environments], [env.task_id for env in environments]
        elif task_id is not None:
            rows, ids = [self.replay(t, c) for t, c in zip(task_id, completions)], list(task_id)
        else:
            raise ValueError("GroupRubricReward needs environments= (GRPOTrainer) or the dataset's task_id "
                             "column (to replay the completions)")
        rewards: list[float] = []
        for s in range(0, n, g):
            if len(set(ids[s:s + g])) != 1:
                raise ValueError(f"rollouts {s}..{s + g - 1} are not one task: each run of num_generations "
                                 "rollouts must be one group (per_device_train_batch_size a multiple of it)")
            rewards += group_rewards(rows[s:s + g], self.kind).tolist()
        return rewards

    def replay(self, task_id: str, completion: Sequence[dict[str, Any]]) -> RubricRow:
        """Re-run a completion's executed tool calls in a fresh episode of ``task_id``; its rubric row.

        A call counts as executed when tool messages follow its assistant
        message (TRL does not run the calls of a turn cut by its iteration
        limit). Calls of unknown tools, or with non-object arguments, are
        skipped (TRL fails them without touching the env).
        """
        if self._replayer is None:
            self._replayer = CompoWorldToolEnv(self.factory.tasks, self.factory.task_file, self.factory.max_steps)
        env = self._replayer
        env.reset(task_id=task_id)
        for i, message in enumerate(completion):
            ran = i + 1 < len(completion) and completion[i + 1].get("role") == "tool"
            for call in (message.get("tool_calls") or []) if message.get("role") == "assistant" and ran else []:
                function = call.get("function") or {}
                args = function.get("arguments", {})
                if function.get("name") in TOOL_NAMES and isinstance(args, dict):
                    try:
                        getattr(env, function["name"])(**args)
                    except TypeError:  # a wrong keyword: TRL's call raised the same, before the env
                        pass
        return env._finish()


__all__ = ["ANSWER_SENTENCE", "TOOL_NAMES", "CompoWorldEnvFactory", "CompoWorldScoredToolEnv", "CompoWorldToolEnv",
           "GroupRubricReward", "prompt_dataset", "system_prompt"]
