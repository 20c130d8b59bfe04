"""The world-model interface: simulate a tool that cannot run locally.

Paper §2.1: tools that depend on outside systems (web search, weather,
maps...) are simulated by a language model; the simulated result and state
update go through the same type validation as real tools before entering
the service state. A :class:`WorldModel` gets a :class:`SimulationRequest`
(service, tool, arguments, a view of the state) and returns a
:class:`Simulation` (result, state update); :mod:`.runtime` validates and
applies it.

A state update is ``{collection field: {record id: record JSON or None}}``:
a record upserts, None deletes. Read-only tools must return ``{}``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any, Optional, Protocol, runtime_checkable

import orjson

#: Longest state view, in characters, put into an LLM prompt.
MAX_STATE_CHARS = 6000


class SimulationError(Exception):
    """A world model could not produce a simulation (transport or parse failure)."""


@dataclass(frozen=True)
class SimulationRequest:
    """Everything a world model may look at to simulate one call.

    Attributes:
        service: service name.
        service_description: what the service is.
        tool: tool name.
        description: the tool's MCP description.
        input_schema: the tool's JSON Schema.
        arguments: the validated arguments.
        state: the service state as JSON (a view: mutating it does nothing).
        seed: the task seed (``state["sim_seed"]``).
        read_only: the tool must not change state.
        output_schema: the tool's ``outputSchema``, if any.
        collections: ``{state field: JSON Schema of one record}`` the update may write.
    """

    service: str
    service_description: str
    tool: str
    description: str
    input_schema: dict[str, Any]
    arguments: dict[str, Any]
    state: dict[str, Any]
    seed: int
    read_only: bool
    output_schema: Optional[dict[str, Any]] = None
    collections: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class Simulation:
    """A world model's answer: the tool result and the state update.

    Attributes:
        result: the tool's result (JSON).
        state_update: ``{field: {id: record or None}}`` (empty for reads).
    """

    result: Any
    state_update: dict[str, Any] = field(default_factory=dict)


@runtime_checkable
class WorldModel(Protocol):
    """Anything with a ``name`` and ``simulate(request) -> Simulation``.

    ``simulate`` raises :class:`SimulationError` when it cannot answer; the
    caller turns that into a 500 with the state unchanged.
    """

    name: str

    def simulate(self, request: SimulationRequest) -> Simulation:
        """Simulate one tool call."""
        ...


SYSTEM_PROMPT = (
    "You are the world model of a tool-use environment. You simulate one call of a tool that "
    "cannot run locally, consistently with the service state you are shown. Answer with ONE JSON "
    "object and nothing else: {\"result\": <the tool's result as JSON>, \"state_update\": "
    "{<collection field>: {<record id>: <full record object, or null to delete>}}}. "
    "Records must match the collection schemas exactly. A read-only tool must return "
    "\"state_update\": {}. Keep results realistic and concise."
)


def build_messages(request: SimulationRequest) -> list[dict[str, str]]:
    """The chat messages (system + user) that ask an LLM for a simulation."""
    state = orjson.dumps(request.state, option=orjson.OPT_SORT_KEYS).decode()
    if len(state) > MAX_STATE_CHARS:
        state = state[:MAX_STATE_CHARS] + "...(truncated)"
    body = {
        "service": request.service,
        "service_description": request.service_description,
        "tool": request.tool,
        "tool_description": request.description,
        "input_schema": request.input_schema,
        "arguments": request.arguments,
        "read_only": request.read_only,
        "output_schema": request.output_schema,
        "collections": request.collections,
    }
    user = (orjson.dumps(body, option=orjson.OPT_SORT_KEYS).decode()
            + "\nCurrent state: " + state + "\nReply with the JSON object only.")
    return [{"role": "system", "content": SYSTEM_PROMPT}, {"role": "user", "content": user}]


_FENCE = re.compile(r"```(?:json)?\s*(.*?)```", re.DOTALL)


def parse_simulation(text: Any) -> Simulation:
    """Parse an LLM reply into a :class:`Simulation`.

    Accepts the object alone, inside a code fence, or surrounded by prose
    (the outermost ``{...}`` is taken).

    Raises:
        SimulationError: no JSON object with a ``result`` key is found, or
            ``state_update`` is not an object.
    """
    if not isinstance(text, str) or not text.strip():
        raise SimulationError("the world model returned an empty reply")
    fenced = _FENCE.search(text)
    candidate = fenced.group(1) if fenced else text
    start, end = candidate.find("{"), candidate.rfind("}")
    if start < 0 or end <= start:
        raise SimulationError("the world model reply holds no JSON object")
    try:
        obj = orjson.loads(candidate[start:end + 1])
    except orjson.JSONDecodeError as exc:
        raise SimulationError(f"the world model reply is not valid JSON ({exc})") from None
    if not isinstance(obj, dict) or "result" not in obj:
        raise SimulationError("the world model reply lacks a 'result' key")
    update = obj.get("state_update")
    update = {} if update is None else update
    if not isinstance(update, dict):
        raise SimulationError("the world model's 'state_update' is not an object")
    return Simulation(result=obj["result"], state_update=update)
