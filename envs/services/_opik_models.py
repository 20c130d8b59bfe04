"""Records of the opik service: projects, prompts with versions, and traces
with spans, token usage, estimated costs and feedback scores; and the
derived figures every view and statistic computes from them.

Ids are UUIDv7-shaped like Opik's (48-bit creation time in milliseconds,
then a seeded counter), so they sort by creation and stay deterministic.
"""

from __future__ import annotations

import datetime as dt
import re
from typing import Literal, Optional

from pydantic import Field, JsonValue

from compoworld_gym.entities import DateTime, Email, Id
from compoworld_gym.errors import Unprocessable
from compoworld_gym.service import Record, ServiceState

#: The workspace the MCP server's API key belongs to (workspaceName defaults to it).
WORKSPACE = "acme"
_EPOCH = dt.datetime(1970, 1, 1)
_VAR = re.compile(r"\{\{\s*([^{}]*?)\s*\}\}")
_NAME = re.compile(r"^[A-Za-z_][\w.-]*$")


def uuid7(at: dt.datetime, n: int) -> str:
    """A UUIDv7-shaped id: ``at`` in milliseconds (read as UTC), then counter ``n``."""
    h = f"{int((at - _EPOCH).total_seconds() * 1000):012x}"
    return f"{h[:8]}-{h[8:12]}-7{(n >> 48) & 0xfff:03x}-8{(n >> 36) & 0xfff:03x}-{n & 0xffffffffffff:012x}"


def template_variables(template: str) -> list[str]:
    """The ``{{variable}}`` names of a mustache template, in first-use order.

    Raises:
        Unprocessable: unbalanced braces or a variable that is not a name (422).
    """
    names = _VAR.findall(template)
    if template.count("{{") != template.count("}}") or template.count("{{") != len(names):
        raise Unprocessable("the template has unbalanced {{ }}: write each variable as {{name}}.")
    bad = [n for n in names if not _NAME.match(n)]
    if bad:
        raise Unprocessable(f"template variables must be names (letters, digits, _ . -): {bad}.")
    return list(dict.fromkeys(names))


class OpikProject(Record):
    """A project: the traces of one application."""

    id: Id("ml_project") = Field(description="Project id (UUIDv7).")
    name: str = Field(description="Project name, unique in the workspace (the application's key).")
    description: str = Field(default="", description="What the project traces.")
    workspace: str = Field(default=WORKSPACE, description="Workspace.")
    created_at: DateTime = Field(description="Creation time.")
    created_by: str = Field(description="Who created it.")
    last_updated_at: DateTime = Field(description="Last change.")


class PromptVersion(Record):
    """One committed version of a prompt."""

    id: str = Field(description="Version id (UUIDv7).")
    commit: str = Field(description="Short commit hash (8 hex digits).")
    template: str = Field(description="Mustache template with {{variables}}.")
    variables: list[str] = Field(default_factory=list, description="The template's variables.")
    commit_message: str = Field(default="", description="Why it changed.")
    created_at: DateTime = Field(description="Commit time.")
    created_by: Email = Field(description="Who committed it.")


class OpikPrompt(Record):
    """A prompt in the prompt library, with its versions (oldest first)."""

    id: Id("prompt") = Field(description="Prompt id (UUIDv7).")
    name: str = Field(description="Prompt name, unique in the workspace.")
    description: str = Field(default="", description="What it is for.")
    tags: list[str] = Field(default_factory=list, description="Tags.")
    created_at: DateTime = Field(description="Creation time.")
    created_by: str = Field(description="Who created it.")
    last_updated_at: DateTime = Field(description="Last change.")
    versions: list[PromptVersion] = Field(default_factory=list, description="Versions, oldest first.")


class Usage(Record):
    """Token usage of an LLM call."""

    prompt_tokens: int = Field(ge=0, description="Input tokens.")
    completion_tokens: int = Field(ge=0, description="Output tokens.")
    total_tokens: int = Field(ge=0, description="prompt + completion.")


class ErrorInfo(Record):
    """An exception raised in a trace or span."""

    exception_type: str = Field(description="e.g. RateLimitError.")
    message: str = Field(description="The exception message.")


class Span(Record):
    """One step of a trace: an LLM call, a tool call or plain code."""

    id: str = Field(description="Span id (UUIDv7).")
    name: str = Field(description="Step name.")
    type: Literal["llm", "tool", "general", "guardrail"] = Field(description="Kind of step.")
    model: Optional[str] = Field(default=None, description="LLM model (llm spans).")
    provider: Optional[str] = Field(default=None, description="LLM provider (llm spans).")
    start_time: DateTime = Field(description="Start.")
    end_time: DateTime = Field(description="End.")
    usage: Optional[Usage] = Field(default=None, description="Tokens (llm spans).")
    total_estimated_cost: float = Field(default=0.0, ge=0, description="Estimated cost (USD).")
    error_info: Optional[ErrorInfo] = Field(default=None, description="Error raised in the step.")


class FeedbackScore(Record):
    """A score on a trace (by an online evaluation rule, the SDK or a person)."""

    name: str = Field(description="Score name, e.g. hallucination, user_feedback.")
    value: float = Field(description="The score.")
    reason: str = Field(default="", description="Why.")
    source: Literal["sdk", "ui", "online_scoring"] = Field(description="Who scored it.")
    created_by: str = Field(description="Scorer.")
    last_updated_at: DateTime = Field(description="When.")


class Trace(Record):
    """One end-to-end request of an application through its LLM pipeline."""

    id: Id("trace") = Field(description="Trace id (UUIDv7).")
    project_id: Id("ml_project") = Field(description="The project it belongs to.")
    name: str = Field(description="Trace name, e.g. shopping_assistant.chat.")
    start_time: DateTime = Field(description="Start.")
    end_time: DateTime = Field(description="End.")
    input: dict[str, JsonValue] = Field(default_factory=dict, description="Request.")
    output: dict[str, JsonValue] = Field(default_factory=dict, description="Response.")
    metadata: dict[str, JsonValue] = Field(default_factory=dict, description=(
        "Metadata: environment, user_email of the end user, prompt name and commit."))
    tags: list[str] = Field(default_factory=list, description="Tags.")
    spans: list[Span] = Field(default_factory=list, description="Steps, in order.")
    feedback_scores: list[FeedbackScore] = Field(default_factory=list, description="Scores (one per name).")
    error_info: Optional[ErrorInfo] = Field(default=None, description="Error that ended the trace.")


class OpikState(ServiceState):
    """One Opik workspace."""

    projects: dict[str, OpikProject] = Field(default_factory=dict, description="Projects by id.")
    prompts: dict[str, OpikPrompt] = Field(default_factory=dict, description="Prompts by id.")
    traces: dict[str, Trace] = Field(default_factory=dict, description="Traces by id.")


# ----------------------------------------------------------------- figures


def trace_usage(t: Trace) -> dict[str, int]:
    """Token totals of a trace's LLM spans."""
    spans = [s.usage for s in t.spans if s.usage is not None]
    return {k: sum(getattr(u, k) for u in spans) for k in ("prompt_tokens", "completion_tokens", "total_tokens")}


def trace_cost(t: Trace) -> float:
    """Estimated cost of a trace (USD, 6 decimals): the sum of its spans' costs."""
    return round(sum(s.total_estimated_cost for s in t.spans), 6)


def duration_ms(t: Trace) -> float:
    """A trace's duration in milliseconds."""
    return round((t.end_time - t.start_time).total_seconds() * 1000, 1)
