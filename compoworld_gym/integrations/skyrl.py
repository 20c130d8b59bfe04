"""SkyRL-Gym adapter: one CompoWorld episode as a SkyRL ``BaseTextEnv``.

SkyRL's generator builds one env per trajectory with
``skyrl_gym.make(env_class, env_config=..., extras=row)``, calls
``init(prompt)`` once, then ``step(model_text)`` until ``done``. It applies
the chat template without ``tools=``, so the four meta-tools' schemas and the
``<tool_call>`` format are written into the system prompt
(:func:`compoworld_gym.prompts.system_prompt_with_tools`).

- :class:`CompoWorldTextEnv`: the env (``ChatFormat`` over ``CompoWorldEnv``).
- :class:`CompoWorldSkyRLConfig`: the typed ``env_config``.
- :func:`register_skyrl_env`: registers the id ``"compoworld"``.
- :func:`skyrl_rows` / :func:`write_skyrl_dataset`: the dataset rows SkyRL's
  ``PromptDataset`` reads (``prompt``, ``env_class``; every other column
  reaches the env as ``extras``).

Needs the ``[skyrl]`` extra; ``import compoworld_gym`` never imports this module.
"""

from __future__ import annotations

import numbers
from collections.abc import Mapping
from dataclasses import asdict, dataclass, field, fields
from pathlib import Path
from typing import Any, Literal, Optional, Sequence

import orjson
from skyrl_gym.envs.base_text_env import BaseTextEnv, BaseTextEnvStepOutput

from compoworld_gym.envs.compoworld_env import CompoWorldEnv
from compoworld_gym.errors import error_envelope
from compoworld_gym.metatools import meta_tool_definitions
from compoworld_gym.prompts import system_prompt_with_tools
from compoworld_gym.tasks import Task, load_tasks
from compoworld_gym.wrappers import ChatFormat

#: The SkyRL-Gym env id (the ``env_class`` column of the dataset).
ENV_ID = "compoworld"
#: String entry point, so nothing is imported until ``skyrl_gym.make``.
ENTRY_POINT = "compoworld_gym.integrations.skyrl:CompoWorldTextEnv"
#: The ``data_source`` column of the rows written here.
DATA_SOURCE = "compoworld"

#: An OpenAI-style chat message (``role``, ``content``; tool messages add ``tool_call_id``, ``name``).
Message = dict[str, Any]


@dataclass(frozen=True)
class CompoWorldSkyRLConfig:
    """The ``env_config`` of :class:`CompoWorldTextEnv` (``environment.skyrl_gym.compoworld`` in SkyRL).

    Raises:
        ValueError: a field is out of range (the message says what was given).
    """

    task_file: Optional[str] = field(default=None, metadata={
        "help": "JSONL task file to serve; None: the built-in tasks. Rows must name tasks of this pool."})
    max_steps: int = field(default=40, metadata={
        "help": "Step limit per episode (one step = one model turn). The generator's max_turns, when "
                "smaller, wins."})
    observation_role: Literal["tool", "user"] = field(default="tool", metadata={
        "help": "'tool': one tool message per call (Qwen/Hermes templates render <tool_response>); "
                "'user': all results of a turn in one user message of <tool_response> blocks."})

    def __post_init__(self) -> None:
        if self.task_file is not None and (not isinstance(self.task_file, str) or not self.task_file):
            raise ValueError(f"task_file must be a path string or None, got {self.task_file!r}")
        if isinstance(self.max_steps, bool) or not isinstance(self.max_steps, int) or self.max_steps < 1:
            raise ValueError(f"max_steps must be a positive int, got {self.max_steps!r}")
        if self.observation_role not in ("tool", "user"):
            raise ValueError(f"observation_role must be 'tool' or 'user', got {self.observation_role!r}")

    @classmethod
    def from_any(cls, config: Any) -> "CompoWorldSkyRLConfig":
        """The config from None (defaults), an instance, or a mapping (a dict or omegaconf ``DictConfig``).

        Raises:
            ValueError: a key is unknown (the known ones are listed) or a value is out of range.
            TypeError: ``config`` is of another type.
        """
        if config is None:
            return cls()
        if isinstance(config, cls):
            return config
        if not isinstance(config, Mapping):
            raise TypeError(f"env_config must be a mapping or {cls.__name__}, got {type(config).__name__}")
        known = {f.name for f in fields(cls)}
        unknown = sorted(str(k) for k in config if k not in known)
        if unknown:
            raise ValueError(f"unknown env_config key(s) {unknown}; known keys: {sorted(known)}")
        return cls(**{k: config[k] for k in config})


@dataclass(frozen=True)
class EpisodeRow:
    """What :class:`CompoWorldTextEnv` reads from a dataset row (SkyRL's ``extras``).

    Attributes:
        task_id: the task to serve (column ``task_id``).
        seed: passed to ``reset(seed=)`` (column ``seed``; None if absent). The task fixes
            the world, so with a task named the seed changes nothing today.
        max_turns: the generator's turn limit (SkyRL sets ``extras["max_turns"]``); None if absent.
    """

    task_id: str
    seed: Optional[int] = None
    max_turns: Optional[int] = None

    @classmethod
    def from_extras(cls, extras: Optional[Mapping[str, Any]]) -> "EpisodeRow":
        """Read the row; other keys (``data_source``, ``reward_spec``, ``extra_info``) are ignored.

        Raises:
            ValueError: ``task_id`` is missing or empty, ``seed`` is not an int ≥ 0, or
                ``max_turns`` is not an int ≥ 1.
            TypeError: ``extras`` is not a mapping.
        """
        extras = {} if extras is None else extras
        if not isinstance(extras, Mapping):
            raise TypeError(f"extras (the dataset row) must be a mapping, got {type(extras).__name__}")
        task_id = extras.get("task_id")
        if not isinstance(task_id, str) or not task_id:
            raise ValueError(f"the dataset row must name a task in a 'task_id' column (a non-empty string), "
                             f"got {task_id!r}; write rows with write_skyrl_dataset()")
        return cls(task_id=task_id, seed=_optional_int(extras.get("seed"), "seed", 0),
                   max_turns=_optional_int(extras.get("max_turns"), "max_turns", 1))


def _optional_int(value: Any, name: str, minimum: int) -> Optional[int]:
    if value is None:
        return None
    # Arrow hands back numpy integers; bool is an Integral but never meant here.
    if isinstance(value, bool) or not isinstance(value, numbers.Integral) or value < minimum:
        raise ValueError(f"{name} must be an int >= {minimum} or absent, got {value!r}")
    return int(value)


def initial_messages(task: Task) -> list[Message]:
    """The episode's first two messages: system (with the tool schemas) and user (the instruction)."""
    return [{"role": "system", "content": system_prompt_with_tools(task.today, meta_tool_definitions())},
            {"role": "user", "content": task.instruction}]


def _as_user(tool_messages: list[Message]) -> Message:
    """One user message holding a turn's results, the way Qwen/Hermes templates render tool turns."""
    blocks = (f"<tool_response>\n{m['content']}\n</tool_response>" for m in tool_messages)
    return {"role": "user", "content": "\n".join(blocks)}


class CompoWorldTextEnv(BaseTextEnv):
    """A CompoWorld task as a SkyRL-Gym text env: raw model text in, tool messages out.

    ## Prompt
    ``init(prompt)`` ignores the incoming ``prompt`` and returns the env's own
    ``[system, user]`` (system prompt with the four meta-tool schemas and the
    ``<tool_call>`` format, then the task's instruction), so a stale dataset
    cannot drift from the task. The dataset's ``prompt`` column (the same
    messages, see :func:`skyrl_rows`) only feeds SkyRL's prompt-length filter.

    ## Action
    The model's text for one turn, parsed by
    :func:`compoworld_gym.toolcall_parser.parse_tool_calls` (Hermes/Qwen
    ``<tool_call>`` blocks, several per turn; OpenAI and Llama JSON too).
    Text without a tool call is the final answer and ends the episode.

    ## Observations
    The messages that follow the model's turn (the generator adds the turn
    itself): with ``observation_role="tool"`` one ``{"role": "tool",
    "tool_call_id", "name", "content"}`` per call (``content``: the result
    JSON); with ``"user"`` one user message of ``<tool_response>`` blocks. An
    unparseable turn gives one user message holding a 400 error envelope (never
    an exception) and still uses a step. ``[]`` once ``done``.

    ## Rewards
    0.0 until ``done``; then the rubric score in [0, 1] (the reference scores 1.0).

    ## Episode End
    ``done`` on a final answer or after ``min(max_steps, extras["max_turns"])`` steps.
    ``metadata`` carries ``task_id``, ``steps``, ``n_tool_calls``, ``n_real_tool_calls``,
    ``parse_error`` and ``finish_reason`` (None, ``"final_answer"`` or ``"max_steps"``); at the
    end also ``rubric`` (one dict per item: ``id``, ``kind``, ``passed``, ``guard``,
    ``description``), ``rubric_score`` and ``final_answer``.

    Args:
        env_config: :class:`CompoWorldSkyRLConfig`, a mapping of its fields, or None.
        extras: the dataset row; see :class:`EpisodeRow`.

    Raises:
        ValueError: a bad config or row, or a ``task_id`` not in the task pool.

    Example:
        >>> env = CompoWorldTextEnv(extras={"task_id": "builtin-merge-duplicates"})
        >>> messages, meta = env.init([])
        >>> [m["role"] for m in messages], meta["task_id"]
        (['system', 'user'], 'builtin-merge-duplicates')
        >>> out = env.step('<tool_call>{"name": "list_services", "arguments": {}}</tool_call>')
        >>> out["observations"][0]["role"], out["reward"], out["done"]
        ('tool', 0.0, False)
    """

    def __init__(self, env_config: Any = None, extras: Optional[Mapping[str, Any]] = None) -> None:
        super().__init__()
        self.config = CompoWorldSkyRLConfig.from_any(env_config)
        self.row = EpisodeRow.from_extras(extras)
        limits = [self.config.max_steps] + ([self.row.max_turns] if self.row.max_turns else [])
        self.max_turns = min(limits)
        # The inner env looks the task up now, so a bad row fails in make(), not mid-rollout.
        inner = CompoWorldEnv(task=self.row.task_id, task_file=self.config.task_file, max_steps=self.max_turns)
        self._chat = ChatFormat(inner)
        self._seen: Optional[int] = None  # messages already handed out; None before init()
        self._done = False
        self._last: dict[str, Any] = {}

    def init(self, prompt: Any = None) -> tuple[list[Message], dict[str, Any]]:
        """Start the episode; returns ``([system, user], {"task_id", "tools"})`` (``prompt`` is ignored)."""
        messages, info = self._chat.reset(seed=self.row.seed, options={"task": self.row.task_id})
        self._seen, self._done, self.turns = len(messages), False, 0
        self._last = {}
        return initial_messages(self._chat.unwrapped.task), {"task_id": self.row.task_id, "tools": info["tools"]}

    def step(self, action: str) -> BaseTextEnvStepOutput:
        """Run one model turn; see the class docstring for what comes back.

        Raises:
            RuntimeError: ``step`` before ``init``.
        """
        if self._seen is None:
            raise RuntimeError("call init() before step()")
        if self._done:
            note = error_envelope(409, "the episode has ended; make a new env for a new episode.")
            return BaseTextEnvStepOutput(observations=[{"role": "user", "content": _dumps(note)}],
                                         reward=0.0, done=True, metadata=dict(self._last))
        self.turns += 1
        messages, reward, terminated, truncated, info = self._chat.step(action)
        new = messages[self._seen + 1:]  # skip the assistant message: the generator keeps the model's turn
        self._seen = len(messages)
        self._done = terminated or truncated
        parse_error = bool(new) and new[0]["role"] == "user"
        self._last = self._metadata(info, terminated, truncated, parse_error)
        observations = [] if self._done else self._observations(new)
        return BaseTextEnvStepOutput(observations=observations, reward=float(reward), done=self._done,
                                     metadata=dict(self._last))

    def _observations(self, new: list[Message]) -> list[Message]:
        if self.config.observation_role == "tool" or not new or new[0]["role"] != "tool":
            return new
        return [_as_user(new)]

    @staticmethod
    def _metadata(info: dict[str, Any], terminated: bool, truncated: bool, parse_error: bool) -> dict[str, Any]:
        meta = {k: info[k] for k in ("task_id", "steps", "n_tool_calls", "n_real_tool_calls")}
        meta["parse_error"] = parse_error
        meta["finish_reason"] = "final_answer" if terminated else "max_steps" if truncated else None
        for key in ("rubric", "rubric_score", "final_answer"):
            if key in info:
                meta[key] = info[key]
        return meta

    def get_metrics(self) -> dict[str, Any]:
        """Numeric episode metrics for SkyRL's logs: ``steps``, call counts, ``rubric_score``, ``solved``."""
        meta = self._last
        score = float(meta.get("rubric_score", 0.0))
        return {"steps": meta.get("steps", 0), "n_tool_calls": meta.get("n_tool_calls", 0),
                "n_real_tool_calls": meta.get("n_real_tool_calls", 0), "rubric_score": score,
                "solved": float(score == 1.0)}

    def close(self) -> None:
        """Close the inner env (safe to call twice)."""
        self._chat.close()


def _dumps(obj: Any) -> str:
    return orjson.dumps(obj, option=orjson.OPT_NON_STR_KEYS).decode()


def register_skyrl_env(env_id: str = ENV_ID) -> None:
    """Register :class:`CompoWorldTextEnv` with SkyRL-Gym under ``env_id`` (string entry point).

    Call it where SkyRL makes envs: inside the Ray entrypoint task, as SkyRL's
    own custom-env examples do. Calling it again is a no-op.

    Raises:
        ValueError: ``env_id`` is registered already with another entry point.
    """
    import skyrl_gym

    spec = skyrl_gym.registry.get(env_id)
    if spec is not None:
        if spec.entry_point == ENTRY_POINT:
            return
        raise ValueError(f"skyrl_gym id {env_id!r} is taken by {spec.entry_point!r}; pick another env_id")
    skyrl_gym.register(id=env_id, entry_point=ENTRY_POINT)


@dataclass(frozen=True)
class SkyRLRow:
    """One dataset row in SkyRL's layout (``PromptDataset`` pops ``prompt`` and ``env_class``;
    the other columns reach the env as ``extras``).

    Attributes:
        prompt: the episode's ``[system, user]`` messages (what ``init`` returns).
        env_class: the SkyRL-Gym env id.
        data_source: ``"compoworld"``.
        task_id: the task to serve.
        seed: the reset seed.
        reward_spec: ``{"method": "rule", "ground_truth": task_id}``: the rubric lives in the task.
        extra_info: ``{"index", "split", "domain"}`` (same keys in every row: Arrow merges struct keys).
    """

    prompt: list[dict[str, str]]
    env_class: str
    data_source: str
    task_id: str
    seed: int
    reward_spec: dict[str, str]
    extra_info: dict[str, Any]

    def to_dict(self) -> dict[str, Any]:
        """The row as a plain dict (column name -> value)."""
        return asdict(self)


def skyrl_rows(tasks: Optional[Sequence[Task]] = None, *, task_file: Optional[str | Path] = None,
               seeds: Sequence[int] = (0,), split: str = "train", env_class: str = ENV_ID) -> list[SkyRLRow]:
    """One row per task and seed, in task order then seed order.

    Args:
        tasks: the tasks; with ``task_file`` None and ``tasks`` None, the built-in tasks.
        task_file: a JSONL task file instead (serve it with ``env_config.task_file`` set to the same file).
        seeds: reset seeds (ints ≥ 0); each task appears once per seed.
        split: recorded in ``extra_info["split"]``.
        env_class: the registered env id.

    Raises:
        ValueError: both ``tasks`` and ``task_file``, no tasks, or a bad seed.
        TaskFileError, FileNotFoundError: as :func:`compoworld_gym.tasks.load_tasks`.
    """
    if tasks is not None and task_file is not None:
        raise ValueError("give either tasks or task_file, not both")
    if task_file is not None:
        tasks = load_tasks(task_file)
    elif tasks is None:
        from compoworld_gym.builtin_tasks import builtin_tasks

        tasks = builtin_tasks()
    if not tasks:
        raise ValueError("no tasks to write")
    checked = [_optional_int(s, "seed", 0) for s in seeds]
    if not checked or None in checked:
        raise ValueError(f"seeds must be a non-empty sequence of ints >= 0, got {list(seeds)!r}")
    rows = []
    for task in tasks:
        prompt = initial_messages(task)
        for seed in checked:
            rows.append(SkyRLRow(prompt=prompt, env_class=env_class, data_source=DATA_SOURCE, task_id=task.id,
                                 seed=seed, reward_spec={"method": "rule", "ground_truth": task.id},
                                 extra_info={"index": len(rows), "split": split, "domain": task.domain}))
    return rows


def write_skyrl_dataset(path: str | Path, tasks: Optional[Sequence[Task]] = None, *,
                        task_file: Optional[str | Path] = None, seeds: Sequence[int] = (0,),
                        split: str = "train") -> Path:
    """Write :func:`skyrl_rows` as Parquet (``.parquet``) or JSON Lines (``.jsonl``/``.json``) via ``datasets``.

    SkyRL reads either with ``data.train_data="['<path>']"``.

    Returns:
        ``path`` as a :class:`Path`.

    Raises:
        ValueError: another file extension, or as :func:`skyrl_rows`.
        ImportError: ``datasets`` is not installed.
    """
    path = Path(path)
    suffix = path.suffix.lower()
    if suffix not in (".parquet", ".jsonl", ".json"):
        raise ValueError(f"dataset path must end in .parquet, .jsonl or .json, got {path.name!r}")
    import datasets

    rows = [r.to_dict() for r in skyrl_rows(tasks, task_file=task_file, seeds=seeds, split=split)]
    dataset = datasets.Dataset.from_list(rows)
    path.parent.mkdir(parents=True, exist_ok=True)
    if suffix == ".parquet":
        dataset.to_parquet(str(path))
    else:
        dataset.to_json(str(path), lines=True, force_ascii=False)
    return path


__all__ = [
    "DATA_SOURCE", "ENTRY_POINT", "ENV_ID", "CompoWorldSkyRLConfig", "CompoWorldTextEnv", "EpisodeRow",
    "SkyRLRow", "initial_messages", "register_skyrl_env", "skyrl_rows", "write_skyrl_dataset",
]
