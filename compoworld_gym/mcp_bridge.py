"""Serve one episode of a task as an MCP server (official ``mcp`` 2.x SDK, low-level ``Server``).

An MCP client can attempt the task end to end:

* **prompt** ``task`` (``prompts/get``): the env's system prompt
  (:func:`compoworld_gym.prompts.system_prompt`) with a note on how to finish
  over MCP, then the task's instruction. MCP prompt messages have no system
  role, so both are ``user`` messages, system prompt first; the same system
  text is the server's ``instructions``;
* **resources** ``compoworld://task/<id>/instruction`` and
  ``compoworld://task/<id>/system`` (``text/plain``): the instruction alone
  and the system text alone;
* **tools**, in one of two modes:

  * ``"meta"`` — the four meta-tools (``list_services``, ``list_tools``,
    ``describe_tool``, ``call_tool``), exactly the agent interface of the env;
  * ``"flat"`` — every mounted tool under its exposed name with its own
    ``inputSchema`` and MCP annotations (the usual MCP setup);

  plus, in both modes, ``submit_answer({"answer": str})``, which ends the
  episode. It scores the world as the env does at a final answer
  (:meth:`TaskRuntime.evaluate_world` and :func:`compoworld_gym.rewards.score`)
  and returns ``{"success": true, "data": {"reward", "rubric", "passed"}}``;
  every tool call after it is a 409 envelope.

Results are the framework's JSON envelopes as text content (also as
``structuredContent``); a failed call sets ``isError``. The low-level server
is used because our schemas are raw JSON Schema (``MCPServer`` derives them
from Python signatures), and arguments are validated by our own validators
(the SDK does not validate against a raw ``inputSchema``).
One server is one episode: serve a fresh one for the next attempt.

Example:
    >>> import asyncio
    >>> from mcp import Client
    >>> from compoworld_gym.builtin_tasks import builtin_tasks
    >>> server = build_server(builtin_tasks()[0], mode="meta")
    >>> async def main():
    ...     async with Client(server) as client:
    ...         tools = await client.list_tools()
    ...         done = await client.call_tool("submit_answer", {"answer": "done"})
    ...         return [t.name for t in tools.tools], done.structured_content["data"]["passed"]
    >>> asyncio.run(main())
    (['list_services', 'list_tools', 'describe_tool', 'call_tool', 'submit_answer'], False)
"""

from __future__ import annotations

import urllib.parse
from typing import Any, Literal, Optional

import orjson

from compoworld_gym.episode import TaskRuntime
from compoworld_gym.errors import error_envelope, ok
from compoworld_gym.metatools import dispatch, meta_tool_definitions
from compoworld_gym.prompts import system_prompt
from compoworld_gym.rewards import score
from compoworld_gym.tasks import Task
from compoworld_gym.world import World

Mode = Literal["meta", "flat"]

#: The tool that ends the episode with the agent's final answer.
SUBMIT_TOOL = "submit_answer"
#: The name of the prompt that carries the task.
PROMPT_NAME = "task"

_SUBMIT_ENTRY: dict[str, Any] = {
    "name": SUBMIT_TOOL,
    "description": ("Finish the task: submit your final answer (plain text reporting what the request "
                    "asks for, and only that). This ends the episode and scores it; it returns "
                    '{"reward", "rubric", "passed"}, and no tool can be called afterwards.'),
    "inputSchema": {"type": "object", "properties": {"answer": {"type": "string",
                                                                "description": "The final answer."}},
                    "required": ["answer"], "additionalProperties": False},
    "annotations": {"readOnlyHint": False, "destructiveHint": False, "idempotentHint": False,
                    "openWorldHint": False},
}

_FINISH_NOTE = {
    "meta": ("Over MCP, the four meta-tools above are MCP tools. When the work is done, do not just "
             "reply: call the submit_answer tool with {\"answer\": \"<your final answer>\"}. It ends "
             "the episode; no tool works after it."),
    "flat": ("Over MCP, the meta-tools are not served: every tool of the workspace is an MCP tool under "
             "its own name, with its schema. When the work is done, do not just reply: call the "
             "submit_answer tool with {\"answer\": \"<your final answer>\"}. It ends the episode; no "
             "tool works after it."),
}


def task_system_text(task: Task, mode: Mode = "meta") -> str:
    """The env's system prompt for ``task`` plus how to finish over MCP in ``mode``."""
    return f"{system_prompt(task.today)}\n\n{_FINISH_NOTE[mode]}"


def instruction_uri(task: Task) -> str:
    """``compoworld://task/<id>/instruction`` (the id percent-encoded)."""
    return f"compoworld://task/{urllib.parse.quote(task.id, safe='')}/instruction"


def system_uri(task: Task) -> str:
    """``compoworld://task/<id>/system`` (the id percent-encoded)."""
    return f"compoworld://task/{urllib.parse.quote(task.id, safe='')}/system"


class McpEpisode:
    """One episode of ``task`` as an MCP server plays it: the world, then the scored answer.

    Args:
        task: the task; its world is mounted as the env mounts it (:meth:`TaskRuntime.mount`).
        mode: ``"meta"`` or ``"flat"`` (see the module docstring).

    Raises:
        ValueError: unknown mode, or (flat) a mounted tool is exposed as ``submit_answer``.
        pydantic.ValidationError: an initial state does not fit its service's state model.

    Attributes:
        task: the task.
        mode: the mode.
        world: the episode's world.
        tool_entries: the served tools as MCP definitions (``name``, ``description``,
            ``inputSchema``, ``annotations``), ``submit_answer`` last.
        result: ``{"reward", "rubric", "passed"}`` once the answer is submitted, else None.
    """

    def __init__(self, task: Task, mode: Mode = "meta") -> None:
        if mode not in ("meta", "flat"):
            raise ValueError(f"mode must be 'meta' or 'flat', got {mode!r}")
        self.task = task
        self.mode: Mode = mode
        self._runtime = TaskRuntime(task)
        self.world: World = self._runtime.mount()
        self.result: Optional[dict[str, Any]] = None
        self.tool_entries = [*_tool_entries(self.world, mode), _SUBMIT_ENTRY]
        if mode == "flat" and sum(e["name"] == SUBMIT_TOOL for e in self.tool_entries) > 1:
            raise ValueError(f"task {task.id!r} mounts a tool exposed as {SUBMIT_TOOL!r}, which the "
                             f"bridge reserves; serve it with mode='meta'")

    def call(self, name: str, arguments: Any) -> dict[str, Any]:
        """Run one ``tools/call``: the JSON result envelope (never raises).

        After :meth:`submit` every call, ``submit_answer`` included, is a 409 envelope.
        """
        if self.result is not None:
            return _ended()
        if name == SUBMIT_TOOL:
            return self.submit(arguments)
        return handle_call(self.world, self.mode, name, arguments)

    def submit(self, arguments: Any) -> dict[str, Any]:
        """End the episode with ``arguments["answer"]`` and score it as the env does.

        Returns:
            ``{"success": True, "data": {"reward": float in [0, 1], "rubric": [CheckResult
            dicts], "passed": bool}}`` (``passed``: every rubric item passed), or a 400
            envelope (the episode goes on) when ``arguments`` is not ``{"answer": str}``, or a
            409 envelope once the answer was submitted.
        """
        if self.result is not None:
            return _ended()
        if not isinstance(arguments, dict) or not isinstance(arguments.get("answer"), str):
            return error_envelope(400, f"{SUBMIT_TOOL} needs argument 'answer' (a string).")
        if arguments.keys() != {"answer"}:
            extra = sorted(set(arguments) - {"answer"})
            return error_envelope(400, f"unexpected argument(s) {', '.join(map(repr, extra))} for "
                                       f"{SUBMIT_TOOL}; allowed: answer.")
        results = self._runtime.evaluate_world(self.world, arguments["answer"])
        self.result = {"reward": float(score(results)), "rubric": [r.model_dump() for r in results],
                       "passed": bool(results) and all(r.passed for r in results)}
        return ok(self.result)


def _ended() -> dict[str, Any]:
    return error_envelope(409, "the episode has ended: the answer was submitted; start a new server "
                               "to attempt the task again.")


def _tool_entries(world: World, mode: Mode) -> list[dict[str, Any]]:
    if mode == "meta":
        return [{"name": d["function"]["name"], "description": d["function"]["description"],
                 "inputSchema": d["function"]["parameters"], "annotations": None}
                for d in meta_tool_definitions()]
    entries = []
    # Service classes, not world.services: listing must not build every (lazily mounted) distractor.
    for svc_name, cls in world.classes.items():
        for name, spec in cls.tools.items():
            entry = spec.mcp_definition()
            entry["name"] = world.exposed_name(svc_name, name)
            entries.append(entry)
    return entries


def handle_call(world: World, mode: Mode, name: str, arguments: dict[str, Any] | None) -> dict[str, Any]:
    """Run one world tool call (a meta-tool in ``"meta"`` mode); the JSON result (never raises).

    It knows nothing of ``submit_answer`` or the episode's end: see :meth:`McpEpisode.call`.
    """
    if mode == "meta":
        return dispatch(world, name, arguments or {})
    return world.call_tool(name, arguments or {})


def build_server(task: Task, mode: Mode = "meta", name: str | None = None) -> Any:
    """An MCP low-level ``Server`` serving one fresh episode of ``task``.

    Args:
        task: the task whose services (and distractors) are mounted.
        mode: ``"meta"`` or ``"flat"`` (see module docstring).
        name: server name (default ``compoworld-<task id>``).

    Returns:
        The server; its ``episode`` attribute is the :class:`McpEpisode` (and
        ``world`` its world), for inspection.

    Raises:
        ValueError: unknown mode (see :class:`McpEpisode`).
        ImportError: the ``mcp`` extra is not installed.
    """
    if mode not in ("meta", "flat"):
        raise ValueError(f"mode must be 'meta' or 'flat', got {mode!r}")
    import mcp_types as types
    from mcp import MCPError
    from mcp.server.lowlevel import Server

    episode = McpEpisode(task, mode)
    system = task_system_text(task, mode)
    texts = {instruction_uri(task): task.instruction, system_uri(task): system}
    tools = [_mcp_tool(types, e) for e in episode.tool_entries]

    async def on_list_tools(ctx: Any, params: Any) -> Any:
        return types.ListToolsResult(tools=tools)

    async def on_call_tool(ctx: Any, params: Any) -> Any:
        result = episode.call(params.name, params.arguments)
        return types.CallToolResult(
            content=[types.TextContent(type="text", text=orjson.dumps(result).decode())],
            structured_content=result, is_error=result.get("success") is False)

    async def on_list_prompts(ctx: Any, params: Any) -> Any:
        return types.ListPromptsResult(prompts=[types.Prompt(
            name=PROMPT_NAME, title=f"Task {task.id}",
            description=f"The system prompt and the request of task {task.id}; finish with {SUBMIT_TOOL}.")])

    async def on_get_prompt(ctx: Any, params: Any) -> Any:
        if params.name != PROMPT_NAME:
            raise MCPError(types.INVALID_PARAMS,
                           f"unknown prompt {params.name!r}; the only prompt is {PROMPT_NAME!r}")
        return types.GetPromptResult(description=f"Task {task.id}", messages=[
            types.PromptMessage(role="user", content=types.TextContent(type="text", text=system)),
            types.PromptMessage(role="user", content=types.TextContent(type="text", text=task.instruction))])

    async def on_list_resources(ctx: Any, params: Any) -> Any:
        return types.ListResourcesResult(resources=[
            types.Resource(uri=instruction_uri(task), name="instruction", mime_type="text/plain",
                           description=f"The request of task {task.id}."),
            types.Resource(uri=system_uri(task), name="system", mime_type="text/plain",
                           description=f"The system prompt of task {task.id}, with how to finish over MCP.")])

    async def on_read_resource(ctx: Any, params: Any) -> Any:
        text = texts.get(str(params.uri))
        if text is None:
            raise MCPError(types.INVALID_PARAMS, f"unknown resource {params.uri!r}; see resources/list")
        return types.ReadResourceResult(contents=[
            types.TextResourceContents(uri=str(params.uri), mime_type="text/plain", text=text)])

    server = Server(name or f"compoworld-{task.id}", instructions=system,
                    on_list_tools=on_list_tools, on_call_tool=on_call_tool,
                    on_list_prompts=on_list_prompts, on_get_prompt=on_get_prompt,
                    on_list_resources=on_list_resources, on_read_resource=on_read_resource)
    server.episode = episode  # type: ignore[attr-defined]  # for inspection in tests and tools
    server.world = episode.world  # type: ignore[attr-defined]
    return server


def _mcp_tool(types: Any, entry: dict[str, Any]) -> Any:
    ann = entry.get("annotations")
    return types.Tool(
        name=entry["name"], description=entry["description"], input_schema=entry["inputSchema"],
        annotations=types.ToolAnnotations(
            read_only_hint=ann["readOnlyHint"], destructive_hint=ann["destructiveHint"],
            idempotent_hint=ann["idempotentHint"], open_world_hint=ann["openWorldHint"]) if ann else None)


def serve_stdio(task: Task, mode: Mode = "meta") -> None:
    """Serve one episode of ``task`` over stdio until the client disconnects.

    Raises:
        ValueError: unknown mode (see :class:`McpEpisode`).
        ImportError: the ``mcp`` extra is not installed.
    """
    import anyio
    from mcp.server.stdio import stdio_server

    server = build_server(task, mode)

    async def main() -> None:
        async with stdio_server() as (read, write):
            await server.run(read, write, server.create_initialization_options())

    anyio.run(main)
