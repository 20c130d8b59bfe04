"""Trajectory records in the paper's published format.

One JSON object per episode, one per line of a JSONL file::

    {"tools": [OpenAI function definitions],
     "messages": [system, user, assistant (tool_calls, arguments as an
                  object), tool (tool_call_id, name, content = JSON string), ...],
     "meta": {"task_id", "services", "domain", "capabilities", "rubric_score",
              "score", "n_tool_calls", "n_real_tool_calls", "n_steps",
              "finish_reason", ...},
     "source": "..."}

The same model is written by :class:`compoworld_gym.wrappers.RecordTrajectory`
and read by the SFT loader; it also reads the paper's own sample
(``compoworld_example_data_20.jsonl``), whose extra keys (``reasoning_content``,
``net_score``, ``rollout_idx``, ...) are kept, and whose ``task_id`` is an int.

Example:
    >>> line = ('{"tools": [], "source": "demo", "meta": {"task_id": 7, "n_steps": 1}, '
    ...         '"messages": [{"role": "user", "content": "hi"}, '
    ...         '{"role": "assistant", "content": "hello"}]}')
    >>> t = parse_trajectory_line(line)
    >>> t.meta.task_id, [m.role for m in t.messages]
    (7, ['user', 'assistant'])
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Iterator, Literal, Optional, Union

import orjson

from compoworld_gym.jsonl import parse_record
from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator


class FunctionCall(BaseModel):
    """The ``function`` part of a tool call; ``arguments`` is always an object
    (a JSON string is decoded on load)."""

    model_config = ConfigDict(extra="forbid")
    name: str = Field(description="Called function (a meta-tool or, with flat tools, a tool).")
    arguments: dict[str, Any] = Field(default_factory=dict, description="Call arguments.")

    @field_validator("arguments", mode="before")
    @classmethod
    def _decode(cls, value: Any) -> Any:
        if value is None:
            return {}
        if isinstance(value, str):
            try:
                return orjson.loads(value) if value.strip() else {}
            except orjson.JSONDecodeError:
                raise ValueError("arguments is a string that is not valid JSON") from None
        return value


class ToolCallRecord(BaseModel):
    """One entry of an assistant message's ``tool_calls``."""

    model_config = ConfigDict(extra="allow")
    id: str = Field(description="Call id, echoed by the tool message's tool_call_id.")
    type: Literal["function"] = "function"
    function: FunctionCall


class Message(BaseModel):
    """One chat message (OpenAI format); unknown keys such as
    ``reasoning_content`` are kept."""

    model_config = ConfigDict(extra="allow")
    role: Literal["system", "user", "assistant", "tool"]
    content: Optional[str] = None
    tool_calls: Optional[list[ToolCallRecord]] = None
    tool_call_id: Optional[str] = None
    name: Optional[str] = None

    @model_validator(mode="after")
    def _consistent(self) -> "Message":
        if self.tool_calls and self.role != "assistant":
            raise ValueError(f"only assistant messages carry tool_calls, not {self.role!r}")
        if self.role == "tool" and not self.tool_call_id:
            raise ValueError("a tool message needs tool_call_id")
        return self


class TrajectoryMeta(BaseModel):
    """Episode metadata; unknown keys are kept."""

    model_config = ConfigDict(extra="allow")
    task_id: Union[int, str] = Field(description="Task id (the paper's sample uses ints).")
    services: list[str] = Field(default_factory=list, description="Services the task needs.")
    domain: Optional[str] = None
    capabilities: list[str] = Field(default_factory=list)
    rubric_score: Optional[float] = Field(default=None, description="The env's rubric score (compoworld_gym.rewards.score).")
    score: Optional[float] = Field(default=None, description="The episode's final reward.")
    n_tool_calls: int = Field(default=0, ge=0, description="Meta-tool calls made.")
    n_real_tool_calls: int = Field(default=0, ge=0, description="Calls that reached a real tool.")
    n_steps: int = Field(default=0, ge=0, description="Agent turns.")
    finish_reason: Optional[str] = Field(default=None, description="'stop' (final answer) or 'max_steps'.")


class Trajectory(BaseModel):
    """One episode record."""

    model_config = ConfigDict(extra="allow")
    tools: list[dict[str, Any]] = Field(description="Tool definitions offered to the agent.")
    messages: list[Message] = Field(min_length=1)
    meta: TrajectoryMeta
    source: str = Field(description="Who produced the trajectory (model, agent or pipeline).")

    def to_json(self) -> str:
        """One JSONL line (keys of absent optional message fields are left out)."""
        return orjson.dumps(self.model_dump(mode="json", exclude_none=True)).decode()

    def chat_messages(self, arguments_as_string: bool = False) -> list[dict[str, Any]]:
        """The messages as plain dicts, e.g. for a chat template or a dataset.

        Args:
            arguments_as_string: encode each ``function.arguments`` as a JSON
                string (what datasets want: as dicts, Arrow merges keys
                across rows and invents nulls).
        """
        out = [m.model_dump(mode="json", exclude_none=True) for m in self.messages]
        if arguments_as_string:
            for m in out:
                for call in m.get("tool_calls") or ():
                    call["function"]["arguments"] = orjson.dumps(call["function"]["arguments"]).decode()
        return out

    def unanswered_calls(self) -> list[str]:
        """Ids of tool calls with no tool message answering them (empty when consistent)."""
        asked = [c.id for m in self.messages for c in (m.tool_calls or ())]
        answered = {m.tool_call_id for m in self.messages if m.role == "tool"}
        return [i for i in asked if i not in answered]


class TrajectoryFileError(ValueError):
    """A trajectory line could not be read; the message names file and line."""


def parse_trajectory_line(line: str, where: str = "<trajectory>") -> Trajectory:
    """Parse one JSONL line.

    Raises:
        TrajectoryFileError: not JSON, or not a valid trajectory (the
            message gives ``where`` and the first problem's location).
    """
    return parse_record(line, Trajectory, where, TrajectoryFileError, "trajectory")


def iter_trajectories(path: str | Path) -> Iterator[Trajectory]:
    """Yield the trajectories of a JSONL file, skipping blank lines.

    Raises:
        TrajectoryFileError: a bad line (``path:line`` in the message).
        FileNotFoundError: the file does not exist.
    """
    with open(path, encoding="utf-8") as fh:
        for lineno, line in enumerate(fh, 1):
            if line.strip():
                yield parse_trajectory_line(line, f"{path}:{lineno}")


def load_trajectories(path: str | Path) -> list[Trajectory]:
    """All trajectories of a JSONL file (see :func:`iter_trajectories`)."""
    return list(iter_trajectories(path))


# --------------------------------------------------------- message building
def tool_call_id(n: int) -> str:
    """The deterministic id of the ``n``-th tool call of an episode (``call_0000``...)."""
    return f"call_{n:04d}"


def assistant_message(content: str, calls: list[tuple[str, str, dict[str, Any]]]) -> dict[str, Any]:
    """An assistant message; ``calls`` are ``(id, name, arguments)`` triples."""
    msg: dict[str, Any] = {"role": "assistant", "content": content}
    if calls:
        msg["tool_calls"] = [{"id": cid, "type": "function", "function": {"name": name, "arguments": args}}
                             for cid, name, args in calls]
    return msg


def tool_message(call_id: str, name: str, result: Any) -> dict[str, Any]:
    """A tool message whose ``content`` is the result as a JSON string."""
    return {"role": "tool", "tool_call_id": call_id, "name": name,
            "content": orjson.dumps(result, option=orjson.OPT_NON_STR_KEYS).decode()}


__all__ = [
    "FunctionCall", "Message", "ToolCallRecord", "Trajectory", "TrajectoryFileError", "TrajectoryMeta",
    "assistant_message", "iter_trajectories", "load_trajectories", "parse_trajectory_line",
    "tool_call_id", "tool_message",
]
