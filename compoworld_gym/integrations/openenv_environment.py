"""``CompoWorldEnvironment``: one CompoWorld episode per OpenEnv session.

The episode logic is the Gymnasium env's: each session holds a
:class:`~compoworld_gym.wrappers.ChatFormat` around a
:class:`~compoworld_gym.envs.compoworld_env.CompoWorldEnv`, and this class
only translates OpenEnv's typed actions and observations. Refusals (bad
reset arguments, unknown task ids, steps before reset or after the end,
oversized turns, a closed session) come back as an observation whose
``error`` is set, so that HTTP and WebSocket callers both get a structured
answer and the server never sees an exception.
"""

from __future__ import annotations

import importlib.metadata
import os
import threading
import weakref
from dataclasses import dataclass
from typing import Any, Optional, Sequence

import orjson
import pydantic
from openenv.core.env_server.interfaces import Environment
from openenv.core.env_server.types import EnvironmentMetadata

from compoworld_gym.actions import MAX_ACTION_CHARS
from compoworld_gym.catalog import UnknownService
from compoworld_gym.checks import CheckResult
from compoworld_gym.envs.compoworld_env import CompoWorldEnv
from compoworld_gym.integrations.openenv_models import (
    ActionError, CompoWorldAction, CompoWorldObservation, CompoWorldState, ErrorCode, MetaToolCall)
from compoworld_gym.tasks import Task
from compoworld_gym.wrappers.chat_format import MAX_TURN_CHARS, ChatFormat

#: Environment variable naming a JSONL task file (used when no task source is given).
TASK_FILE_ENV = "COMPOWORLD_TASK_FILE"
#: Environment variable giving the step limit (used when ``max_steps`` is not given).
MAX_STEPS_ENV = "COMPOWORLD_MAX_STEPS"
#: Step limit when neither ``max_steps`` nor :data:`MAX_STEPS_ENV` is given.
DEFAULT_MAX_STEPS = 40
#: Keyword arguments ``reset`` accepts.
RESET_ARGUMENTS = ("seed", "episode_id", "task_id")

# Sessions are created and closed on many executor threads: a WeakSet must
# not change size while another thread iterates it.
_OPEN: "weakref.WeakSet[CompoWorldEnvironment]" = weakref.WeakSet()
_OPEN_LOCK = threading.Lock()


def open_environments() -> int:
    """How many :class:`CompoWorldEnvironment` instances of this process are open (not closed)."""
    with _OPEN_LOCK:
        return sum(1 for env in _OPEN if not env.closed)


def _error(code: ErrorCode, message: str, **fields: Any) -> CompoWorldObservation:
    return CompoWorldObservation(error=ActionError(code=code, message=message), reward=0.0, **fields)


def _env_max_steps(max_steps: Optional[int]) -> int:
    if max_steps is not None:
        return max_steps
    raw = os.environ.get(MAX_STEPS_ENV)
    if raw is None:
        return DEFAULT_MAX_STEPS
    try:
        return int(raw)
    except ValueError:
        raise ValueError(f"{MAX_STEPS_ENV} must be a positive integer, got {raw!r}") from None


def _calls_text(calls: list[MetaToolCall]) -> str:
    """Structured calls as the OpenAI ``tool_calls`` JSON text ChatFormat parses.

    ``<`` and ``[TOOL_CALLS]`` are written as JSON ``\\u`` escapes: the parser
    looks for ``<tool_call>``, ``<think>`` and those markers in the raw text,
    and an argument holding one must reach the tool unchanged. JSON has
    neither outside strings, so the escapes change no value.
    """
    entries = [{"type": "function", "function": {"name": c.name, "arguments": c.arguments},
                **({"id": c.id} if c.id is not None else {})} for c in calls]
    text = orjson.dumps({"tool_calls": entries}, option=orjson.OPT_NON_STR_KEYS).decode()
    return text.replace("<", "\\u003c").replace("[TOOL_CALLS]", "\\u005bTOOL_CALLS]")


@dataclass
class _Episode:
    """The running episode's bookkeeping."""

    id: str
    task_id: str
    steps: int = 0
    n_tool_calls: int = 0
    done: bool = False
    rubric_score: Optional[float] = None


class CompoWorldEnvironment(Environment[CompoWorldAction, CompoWorldObservation, CompoWorldState]):
    """An OpenEnv environment serving CompoWorld's meta-tool episodes.

    ## Reset
    ``reset(seed=None, episode_id=None, task_id=None)``: ``task_id`` picks a
    task of the pool; otherwise one is drawn with ``seed``. The observation
    holds ``messages`` = [system, user] and the four meta-tool ``tools``.
    ``episode_id`` defaults to ``"<task id>/<seed>/<n>"`` (n counts this
    session's resets), so equal inputs give equal bytes.

    ## Step
    A :class:`CompoWorldAction` (raw text, structured calls or a final
    answer). The observation holds the messages the turn added, the decoded
    ``results``, ``reward`` (0.0, then the rubric score at the end),
    ``done``, and at the end ``rubric``/``rubric_score``.

    ## Errors
    Never raises from ``reset``/``step``: a refused call returns an
    observation with ``error`` set (see :class:`ActionError`).

    Args:
        task_file: JSONL task file of the pool; default ``$COMPOWORLD_TASK_FILE``,
            else the built-in tasks.
        max_steps: step limit; default ``$COMPOWORLD_MAX_STEPS``, else 40.
        tasks: the pool as Task objects (instead of a file).

    Raises:
        ValueError: a bad ``max_steps``, an empty pool, or both sources given.
        compoworld_gym.tasks.TaskFileError, FileNotFoundError: an unreadable task file.

    Example:
        >>> env = CompoWorldEnvironment()
        >>> obs = env.reset(task_id="builtin-overdue-billing-escalation")
        >>> [m["role"] for m in obs.messages], len(obs.tools)
        (['system', 'user'], 4)
        >>> obs = env.step(CompoWorldAction.call("list_services"))
        >>> obs.results[0]["services"][:1] != [], obs.reward, obs.done
        (True, 0.0, False)
    """

    SUPPORTS_CONCURRENT_SESSIONS = True

    def __init__(self, task_file: Optional[str] = None, max_steps: Optional[int] = None,
                 tasks: Optional[Sequence[Task]] = None) -> None:
        super().__init__()
        if task_file is None and tasks is None:
            task_file = os.environ.get(TASK_FILE_ENV) or None
        self._max_steps = _env_max_steps(max_steps)
        self._chat = ChatFormat(CompoWorldEnv(tasks=tasks, task_file=task_file, max_steps=self._max_steps))
        self._episode: Optional[_Episode] = None
        self._resets = 0
        self._closed = False
        with _OPEN_LOCK:
            _OPEN.add(self)

    @property
    def closed(self) -> bool:
        """True once :meth:`close` ran (the server closes idle and finished sessions)."""
        return self._closed

    # ----------------------------------------------------------------- reset
    def reset(self, seed: Optional[int] = None, episode_id: Optional[str] = None,
              task_id: Optional[str] = None, **kwargs: Any) -> CompoWorldObservation:
        """Start an episode (see the class docstring); never raises.

        A refused reset leaves the session's previous episode, if any, as it was.
        """
        refused = self._check_reset(seed, episode_id, task_id, kwargs)
        if refused is not None:
            return refused
        options = {"task": task_id} if task_id is not None else None
        try:
            messages, info = self._chat.reset(seed=seed, options=options)
        except (pydantic.ValidationError, UnknownService) as exc:  # before ValueError: the first is one
            return _error(500, f"the task could not be mounted ({type(exc).__name__}: "
                               f"{str(exc).splitlines()[0]}); fix the task file.", done=True)
        except ValueError as exc:
            return _error(404, f"{exc}; pass a task_id of the server's task pool, or none to draw one.",
                          done=True)
        self._resets += 1
        tid = info["task_id"]
        self._episode = _Episode(id=episode_id or f"{tid}/{seed}/{self._resets}", task_id=tid)
        return CompoWorldObservation(messages=messages, tools=info["tools"], task_id=tid,
                                     episode_id=self._episode.id, reward=0.0)

    def _check_reset(self, seed: Any, episode_id: Any, task_id: Any, extra: dict[str, Any]
                     ) -> Optional[CompoWorldObservation]:
        """A refusal for bad reset arguments or a closed session, else None."""
        if self._closed:
            return self._closed_error()
        if extra:
            return _error(400, f"unknown reset argument(s) {', '.join(map(repr, sorted(extra)))}; "
                               f"accepted: {', '.join(RESET_ARGUMENTS)}.", done=True)
        if seed is not None and (not isinstance(seed, int) or isinstance(seed, bool) or seed < 0):
            return _error(400, f"seed must be a non-negative integer or null, got {seed!r}.", done=True)
        if episode_id is not None and (not isinstance(episode_id, str) or len(episode_id) > 255):
            return _error(400, "episode_id must be a string of at most 255 characters or null.", done=True)
        if task_id is not None and not isinstance(task_id, str):
            return _error(400, f"task_id must be a string or null, got {type(task_id).__name__}.",
                          done=True)
        return None

    # ------------------------------------------------------------------ step
    def step(self, action: CompoWorldAction, timeout_s: Optional[float] = None,
             **kwargs: Any) -> CompoWorldObservation:
        """Apply one turn (see the class docstring); never raises. ``timeout_s`` is ignored
        (a step is pure computation on in-memory state)."""
        refused = self._check_step(action)
        if refused is not None:
            return refused
        ep = self._episode
        text, limit = self._wire_text(action)
        if len(text) > limit:
            return _error(413, f"the turn is {len(text)} characters long; the limit is {limit}. "
                               "Nothing ran and no step was used; send a shorter turn.",
                          task_id=ep.task_id, episode_id=ep.id, step=ep.steps)
        before = len(self._chat.messages)
        if action.final_answer is not None:
            # Taken verbatim: ChatFormat would parse the text for tool calls
            # first. This is ChatFormat's own final-answer branch.
            _, reward, terminated, truncated, info = self._chat.env.step(text)
            self._chat.messages.append({"role": "assistant", "content": action.final_answer})
            added = [{"role": "assistant", "content": action.final_answer}]
        else:
            messages, reward, terminated, truncated, info = self._chat.step(text)
            added = messages[before:]  # the wrapper returns a fresh copy: ours to keep
        ep.steps = info["steps"]
        ep.n_tool_calls = info["n_tool_calls"]
        ep.done = terminated or truncated
        return self._observation(added, reward, truncated, info)

    def _check_step(self, action: Any) -> Optional[CompoWorldObservation]:
        """A refusal for a step that cannot run now, else None."""
        if self._closed:
            return self._closed_error()
        ep = self._episode
        if ep is None:
            return _error(409, "no episode is running: call reset first (over plain HTTP every "
                               "request gets a fresh environment; hold an episode over the /ws "
                               "WebSocket).", done=True)
        if ep.done:
            return _error(409, "the episode has ended; call reset to start another.", done=True,
                          task_id=ep.task_id, episode_id=ep.id, step=ep.steps)
        if not isinstance(action, CompoWorldAction):
            return _error(400, f"expected a CompoWorldAction, got {type(action).__name__}.",
                          task_id=ep.task_id, episode_id=ep.id, step=ep.steps)
        return None

    @staticmethod
    def _wire_text(action: CompoWorldAction) -> tuple[str, int]:
        """What the wrapped env receives, and its length limit in characters.

        Text and calls go to ChatFormat (a turn of at most its action space's
        length); a final answer goes straight to the inner env as JSON
        ``{"final_answer": ...}``, whose limit counts the JSON escapes.
        """
        if action.text is not None:
            return action.text, MAX_TURN_CHARS
        if action.final_answer is not None:
            return orjson.dumps({"final_answer": action.final_answer}).decode(), MAX_ACTION_CHARS
        return _calls_text(action.calls or []), MAX_TURN_CHARS

    def _observation(self, added: list[dict[str, Any]], reward: float, truncated: bool,
                     info: dict[str, Any]) -> CompoWorldObservation:
        ep = self._episode
        results = [orjson.loads(m["content"]) for m in added if m["role"] == "tool"]
        error = None
        if added and added[-1]["role"] == "user":  # ChatFormat's reply to an unparseable turn
            envelope = orjson.loads(added[-1]["content"])["error"]
            error = ActionError(code=envelope["code"], message=envelope["message"])
        obs = CompoWorldObservation(messages=added, results=results, error=error, task_id=ep.task_id,
                                    episode_id=ep.id, step=ep.steps, done=ep.done, reward=float(reward),
                                    truncated=truncated)
        if ep.done:
            ep.rubric_score = float(info["rubric_score"])
            obs.rubric = [CheckResult.model_validate(r) for r in info["rubric"]]
            obs.rubric_score = ep.rubric_score
        return obs

    def _closed_error(self) -> CompoWorldObservation:
        return _error(410, "this session has been closed (the server frees sessions idle for longer "
                           "than its session timeout); open a new session and reset.", done=True)

    # ------------------------------------------------------------ the rest
    @property
    def state(self) -> CompoWorldState:
        """The episode's bookkeeping (no rubric, no reference)."""
        ep = self._episode
        if ep is None:
            return CompoWorldState(max_steps=self._max_steps, closed=self._closed)
        return CompoWorldState(episode_id=ep.id, step_count=ep.steps, task_id=ep.task_id, done=ep.done,
                               max_steps=self._max_steps, n_tool_calls=ep.n_tool_calls,
                               rubric_score=ep.rubric_score, closed=self._closed)

    def get_metadata(self) -> EnvironmentMetadata:
        """Name, description and version (the installed compoworld-gym's)."""
        try:
            version = importlib.metadata.version("compoworld-gym")
        except importlib.metadata.PackageNotFoundError:
            version = None
        return EnvironmentMetadata(
            name="compoworld", version=version, author="compoworld-gym developers",
            description="Cross-application tasks over composed, verified MCP-style services, acted on "
                        "through four meta-tools (list_services, list_tools, describe_tool, call_tool); "
                        "rubric checks score the final state.")

    def close(self) -> None:
        """Free the episode; later resets and steps get a 410 error. Idempotent."""
        self._closed = True
        self._episode = None
        self._chat.close()
        with _OPEN_LOCK:
            _OPEN.discard(self)


__all__ = ["CompoWorldEnvironment", "DEFAULT_MAX_STEPS", "MAX_STEPS_ENV", "RESET_ARGUMENTS", "TASK_FILE_ENV",
           "open_environments"]
