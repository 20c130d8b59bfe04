"""``RecordTrajectory``: write finished episodes as JSONL in the paper's format."""

from __future__ import annotations

import copy
import os
from pathlib import Path
from typing import Any, Optional, TextIO

import gymnasium as gym
import orjson

from compoworld_gym.actions import parse_action
from compoworld_gym.trajectory import Trajectory, assistant_message, tool_call_id, tool_message


class RecordTrajectory(gym.Wrapper, gym.utils.RecordConstructorArgs):
    """Append one JSON line per finished episode, in the paper's trajectory
    format (:mod:`compoworld_gym.trajectory`).

    Works on two kinds of env:

    * JSON-action envs (``CompoWorldEnv``, ``FlatTools``): the recorder
      rebuilds the chat from the actions and results: each call turn is an
      assistant message with ``tool_calls`` (ids ``call_0000``, ...) and
      one tool message per call; a final answer is an assistant message; a
      rejected action is the raw assistant text followed by a ``user``
      message holding the env's error;
    * :class:`ChatFormat` envs (message-list observations): the final
      observation is the conversation, recorded as is.

    ``meta`` holds ``task_id``, ``services``, ``distractors``, ``domain``,
    ``capabilities``, ``rubric`` (per item), ``rubric_score``, ``score``
    (the final reward this wrapper saw, so e.g. a binary reward under a
    :class:`RubricReward`), ``n_tool_calls``, ``n_real_tool_calls``,
    ``n_steps`` and ``finish_reason`` (``"stop"`` for a final answer,
    ``"max_steps"`` for truncation). Episodes abandoned by a new ``reset``
    are not written. Each line is flushed when written; give every sub-env
    of a vector env its own file.

    ``path`` may also be an open text stream, which is written to but never
    closed; e.g. :func:`compoworld_gym.jsonl.atomic_writer`'s, so that an
    interrupted run leaves no half-written file behind
    (:func:`compoworld_gym.baselines.evaluate.evaluate_agent` does this).

    Args:
        env: the env to record.
        path: the JSONL file, or an open text stream.
        source: the ``source`` field (who produced the trajectories).
        mode: ``"a"`` to append (default) or ``"w"`` to truncate first;
            ignored for a stream.

    Raises:
        ValueError: an unknown ``mode`` or an empty ``source``.
        TypeError: ``path`` is neither a path nor a writable stream.

    Example:
        >>> import gymnasium as gym, compoworld_gym, tempfile, os
        >>> from compoworld_gym.trajectory import load_trajectories
        >>> path = os.path.join(tempfile.mkdtemp(), "t.jsonl")
        >>> env = RecordTrajectory(gym.make("CompoWorld-v0"), path, source="doc")
        >>> _ = env.reset(seed=0)
        >>> _ = env.step('{"name": "list_services"}')
        >>> _ = env.step("Done.")
        >>> env.close()
        >>> t = load_trajectories(path)[0]
        >>> [m.role for m in t.messages], t.meta.n_tool_calls, t.meta.finish_reason
        (['system', 'user', 'assistant', 'tool', 'assistant'], 1, 'stop')
    """

    def __init__(self, env: gym.Env, path: str | Path | TextIO, source: str = "compoworld-gym",
                 mode: str = "a") -> None:
        # Recorded with mode "a": an env rebuilt from its spec (gym.make(env.spec))
        # must add to the file, not wipe the episodes already written. A caller's
        # stream cannot be copied into a spec: it is recorded as None, so a rebuild
        # raises the TypeError below instead of writing into a shared stream.
        recorded = path if isinstance(path, (str, os.PathLike)) else None
        gym.utils.RecordConstructorArgs.__init__(self, path=recorded, source=source, mode="a")
        super().__init__(env)
        if mode not in ("a", "w"):
            raise ValueError(f"mode must be 'a' (append) or 'w' (truncate), got {mode!r}")
        if not isinstance(source, str) or not source:
            raise ValueError("source must be a non-empty string")
        self.source = source
        #: The file's path; None when recording into a stream given by the caller.
        self.path: Optional[Path] = None
        if isinstance(path, (str, os.PathLike)):
            self.path = Path(path)
            self._fh: TextIO = open(self.path, mode, encoding="utf-8")
            self._owns_fh = True
        elif callable(getattr(path, "write", None)):
            # A caller's stream is the caller's to close (an atomic writer renames on its own exit).
            self._fh, self._owns_fh = path, False
        else:
            raise TypeError(f"path must be a file path or an open text stream, got {type(path).__name__}"
                            + (" (a recorder writing into a caller's stream cannot be rebuilt from its spec)"
                               if path is None else ""))
        self.messages: list[dict[str, Any]] = []
        self.tools: list[dict[str, Any]] = []
        self._n_ids = 0
        self.episodes_written = 0
        self.last_trajectory: Optional[dict[str, Any]] = None
        self._open = False

    def reset(self, *, seed: Optional[int] = None, options: Optional[dict[str, Any]] = None
              ) -> tuple[Any, dict[str, Any]]:
        """Reset and start a new record (an unfinished one is dropped)."""
        obs, info = self.env.reset(seed=seed, options=options)
        if isinstance(obs, list):  # ChatFormat underneath
            self.messages = copy.deepcopy(obs)
            self.tools = copy.deepcopy(info.get("tools") or self.env.get_wrapper_attr("tools"))
        else:
            prompt = orjson.loads(obs)
            self.messages, self.tools = prompt["messages"], prompt["tools"]
        self._n_ids = 0
        self._open = True
        return obs, info

    def step(self, action: Any) -> tuple[Any, float, bool, bool, dict[str, Any]]:
        """Step, extend the record, and write it when the episode ends."""
        obs, reward, terminated, truncated, info = self.env.step(action)
        if not getattr(self, "_open", False):
            return obs, reward, terminated, truncated, info
        if isinstance(obs, list):
            self.messages = copy.deepcopy(obs)
        else:
            self._record_json_turn(action, obs)
        if terminated or truncated:
            self._write(float(reward), info, "stop" if terminated else "max_steps")
            self._open = False
        return obs, reward, terminated, truncated, info

    def _record_json_turn(self, action: Any, obs: str) -> None:
        parsed = parse_action(action)
        if parsed.error is not None:
            raw = action if isinstance(action, str) else repr(action)
            self.messages.append({"role": "assistant", "content": raw})
            self.messages.append({"role": "user", "content": obs})
            return
        if parsed.final_answer is not None:
            self.messages.append({"role": "assistant", "content": parsed.final_answer})
            return
        n = len(parsed.calls)
        results = orjson.loads(obs)
        if n > 1 and not (isinstance(results, list) and len(results) == n):
            results = [results] * n
        elif n == 1:
            results = [results]
        ids = [tool_call_id(self._n_ids + j) for j in range(n)]
        self._n_ids += n
        calls = [(i, name, args if isinstance(args, dict) else {"value": args})
                 for i, (name, args) in zip(ids, parsed.calls)]
        self.messages.append(assistant_message("", calls))
        self.messages.extend(tool_message(i, name, r) for (i, name, _), r in zip(calls, results))

    def _write(self, reward: float, info: dict[str, Any], finish_reason: str) -> None:
        task = self.env.unwrapped.task
        meta = {
            "task_id": info.get("task_id", task.id if task else None),
            "services": list(task.services) if task else [],
            "distractors": list(task.distractors) if task else [],
            "domain": task.domain if task else None,
            "capabilities": list(task.capabilities) if task else [],
            "rubric": copy.deepcopy(info.get("rubric", [])),
            "rubric_score": info.get("rubric_score"),
            "score": reward,
            "n_tool_calls": int(info.get("n_tool_calls", 0)),
            "n_real_tool_calls": int(info.get("n_real_tool_calls", 0)),
            "n_steps": int(info.get("steps", 0)),
            "finish_reason": finish_reason,
        }
        record = {"tools": self.tools, "messages": self.messages, "meta": meta, "source": self.source}
        line = Trajectory.model_validate(record).to_json()  # validate before writing
        self._fh.write(line + "\n")
        self._fh.flush()
        self.episodes_written += 1
        self.last_trajectory = orjson.loads(line)

    def __getstate__(self) -> dict[str, Any]:
        """Pickle support: a recorder that owns its file reopens it for appending
        when unpickled (episodes written so far stay; the copy adds its own).

        Raises:
            TypeError: the recorder writes into a caller's stream, which cannot travel.
        """
        if not self._owns_fh:
            raise TypeError("a RecordTrajectory writing into a caller's stream cannot be pickled; "
                            "give it a file path instead")
        self._fh.flush()
        return {k: v for k, v in self.__dict__.items() if k != "_fh"}

    def __setstate__(self, state: dict[str, Any]) -> None:
        self.__dict__.update(state)
        self._fh = open(self.path, "a", encoding="utf-8")  # type: ignore[arg-type]

    def close(self) -> None:
        """Close the file (not a stream the caller gave) and the env."""
        if self._owns_fh and not self._fh.closed:
            self._fh.close()
        super().close()
