"""The wire types of the CompoWorld OpenEnv server: action, observation, state.

They subclass OpenEnv's own pydantic bases (``extra="forbid"``), so the
server publishes their JSON Schemas at ``/schema`` and rejects unknown
fields with a ``VALIDATION_ERROR``. Shared by
:mod:`~compoworld_gym.integrations.openenv_server` and
:mod:`~compoworld_gym.integrations.openenv_client`.

Example:
    >>> CompoWorldAction.from_text("All done: TCK-0013.").text
    'All done: TCK-0013.'
    >>> CompoWorldAction.call("list_tools", service="helpdesk").calls[0].arguments
    {'service': 'helpdesk'}
    >>> CompoWorldAction.answer("TCK-0013").final_answer
    'TCK-0013'
"""

from __future__ import annotations

from typing import Any, Literal, Optional

from openenv.core.env_server.types import Action, Observation, State
from pydantic import BaseModel, ConfigDict, Field, model_validator
from pydantic_core import PydanticCustomError

from compoworld_gym.checks import CheckResult
from compoworld_gym.toolcall_parser import MAX_CALLS

#: The codes of :class:`ActionError` (see its ``code`` field).
ErrorCode = Literal[400, 404, 409, 410, 413, 500]


class MetaToolCall(BaseModel):
    """One structured meta-tool call (what an OpenAI ``tool_calls`` entry carries)."""

    model_config = ConfigDict(extra="forbid")

    name: str = Field(min_length=1, max_length=256, description=(
        "Meta-tool name: list_services, list_tools, describe_tool or call_tool (another name "
        "gets the env's 404 result, as in a model turn)."))
    arguments: dict[str, Any] = Field(default_factory=dict, description=(
        "Its arguments as a JSON object, e.g. {\"tool_name\": ..., \"arguments\": {...}} for call_tool."))
    id: Optional[str] = Field(default=None, max_length=256, description=(
        "Call id echoed by the tool message's tool_call_id; default call_NNNN."))


class CompoWorldAction(Action):
    """One agent turn: exactly one of ``text``, ``calls`` or ``final_answer``.

    * ``text``: the model's raw output, parsed exactly as
      :class:`compoworld_gym.wrappers.ChatFormat` parses a turn (Hermes/Qwen
      ``<tool_call>``, OpenAI ``tool_calls`` JSON, Llama-3/Mistral, bare
      JSON; several calls per turn; text without a call is the final answer).
    * ``calls``: 1-16 structured meta-tool calls made in one turn.
    * ``final_answer``: the final answer, taken verbatim (never parsed for calls).

    Lengths are checked by the environment (an oversized turn gets a 413
    :class:`ActionError`), not here: a validation error would echo the
    whole oversized input back.

    Raises:
        pydantic.ValidationError: none or several of the three are given, or a
            field has the wrong type.
    """

    text: Optional[str] = Field(default=None, description="Raw model text for one turn.")
    calls: Optional[list[MetaToolCall]] = Field(default=None, min_length=1, max_length=MAX_CALLS,
                                                description="Structured meta-tool calls of one turn.")
    final_answer: Optional[str] = Field(default=None, description="The final answer, verbatim.")

    @model_validator(mode="after")
    def _exactly_one(self) -> "CompoWorldAction":
        given = [k for k in ("text", "calls", "final_answer") if getattr(self, k) is not None]
        if len(given) != 1:
            # Not a ValueError: OpenEnv sends ``errors()`` as JSON, and a ValueError
            # there carries the exception object, which does not serialise.
            raise PydanticCustomError("one_action",
                                      "give exactly one of text, calls, final_answer; got {given}",
                                      {"given": ", ".join(given) or "none"})
        return self

    @classmethod
    def from_text(cls, text: str) -> "CompoWorldAction":
        """A raw-model-text action."""
        return cls(text=text)

    @classmethod
    def call(cls, name: str, **arguments: Any) -> "CompoWorldAction":
        """A one-call structured action, e.g. ``call("call_tool", tool_name=..., arguments={...})``."""
        return cls(calls=[MetaToolCall(name=name, arguments=arguments)])

    @classmethod
    def answer(cls, text: str) -> "CompoWorldAction":
        """A final-answer action."""
        return cls(final_answer=text)


class ActionError(BaseModel):
    """Why a reset or step was refused: nothing ran (only an unparseable turn uses a step).

    Codes: 400 bad argument or unparseable turn (an unparseable turn uses a
    step, as in ChatFormat); 404 unknown task id; 409 no episode running
    (step before reset, or after the episode ended); 410 the session was
    closed (the server frees sessions idle longer than its session timeout);
    413 the turn is too long; 500 the task could not be mounted.
    """

    model_config = ConfigDict(extra="forbid")

    code: ErrorCode = Field(description="HTTP-like status code (see the class docstring).")
    message: str = Field(description="What was wrong and how to recover.")


class CompoWorldObservation(Observation):
    """What reset and step return (``done`` and ``reward`` come from OpenEnv's base).

    ``reward`` is 0.0 until the episode ends, then the rubric score in
    [0, 1] (work done times 0.5 per broken guard; see
    :mod:`compoworld_gym.rewards`). ``done`` is set on a final answer, at
    ``max_steps``, and on a refused reset or a closed session.
    """

    messages: list[dict[str, Any]] = Field(default_factory=list, description=(
        "OpenAI-format chat messages this call added: [system, user] after reset; then the "
        "assistant message and one tool message per call (content: the result as JSON text)."))
    tools: list[dict[str, Any]] = Field(default_factory=list, description=(
        "The four meta-tool definitions (OpenAI function format); after reset only."))
    results: list[Any] = Field(default_factory=list, description=(
        "This step's tool results, decoded: one per call, {\"success\": ..., ...}."))
    error: Optional[ActionError] = Field(default=None, description="Set when the call was refused.")
    task_id: Optional[str] = Field(default=None, description="Id of the episode's task.")
    episode_id: Optional[str] = Field(default=None, description="Id of the episode.")
    step: int = Field(default=0, ge=0, description="Steps taken in the episode so far.")
    truncated: bool = Field(default=False, description="The episode ended at max_steps.")
    rubric: Optional[list[CheckResult]] = Field(default=None, description=(
        "The rubric items and whether each passed; at the end of the episode only."))
    rubric_score: Optional[float] = Field(default=None, description="The episode's score, at its end.")


class CompoWorldState(State):
    """The session's episode bookkeeping (``episode_id`` and ``step_count`` from OpenEnv's base).

    Holds nothing of the rubric or the reference solution.
    """

    task_id: Optional[str] = Field(default=None, description="Id of the current task; None before reset.")
    done: bool = Field(default=False, description="The episode has ended.")
    max_steps: int = Field(default=40, ge=1, description="Step limit of an episode.")
    n_tool_calls: int = Field(default=0, ge=0, description="Meta-tool calls made in the episode.")
    rubric_score: Optional[float] = Field(default=None, description="The score, once the episode ended.")
    closed: bool = Field(default=False, description="The server closed this session.")


__all__ = ["ActionError", "CompoWorldAction", "CompoWorldObservation", "CompoWorldState", "ErrorCode",
           "MetaToolCall"]
