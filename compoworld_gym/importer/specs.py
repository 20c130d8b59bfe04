"""Loading MCP server specifications: from a JSONL file or a live server.

A JSONL file has one server per line in the format of
``compoworld_gym/data/mcp_servers.jsonl`` (``server``, ``slug``, ``category``,
``tools: [{name, description, inputSchema}]``). A live server is listed
with the official ``mcp`` 2.x client, over stdio (a command line) or
streamable HTTP (an ``http(s)://`` URL).
"""

from __future__ import annotations

import os
import shlex
import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Optional

import orjson


class SpecSourceError(ValueError):
    """A spec source could not be read (bad file, bad line, unreachable server)."""


@dataclass(frozen=True)
class ToolDef:
    """One MCP tool as listed by its server.

    Attributes:
        name: MCP ``name``.
        description: MCP ``description`` (may be empty).
        input_schema: MCP ``inputSchema`` (any JSON value; it may be invalid).
        output_schema: MCP ``outputSchema`` when the server gives one.
        annotations: MCP hints (``readOnlyHint``, ``destructiveHint``,
            ``idempotentHint``), camelCase, when given.
    """

    name: str
    description: str
    input_schema: Any
    output_schema: Optional[dict[str, Any]] = None
    annotations: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class ServerSpec:
    """One MCP server: identity plus its tool list.

    Attributes:
        server: display name.
        slug: stable identifier (the service name derives from it).
        category: the compilation's category label, or None.
        tools: the tools, in listing order.
        description: one sentence about the server, when known.
    """

    server: str
    slug: str
    category: Optional[str]
    tools: tuple[ToolDef, ...]
    description: Optional[str] = None


def _tool_from_json(obj: Any, where: str) -> ToolDef:
    if not isinstance(obj, dict) or not isinstance(obj.get("name"), str) or not obj["name"]:
        raise SpecSourceError(f"{where}: every tool needs a non-empty string 'name'")
    desc = obj.get("description")
    annotations = obj.get("annotations") if isinstance(obj.get("annotations"), dict) else {}
    output = obj.get("outputSchema")
    return ToolDef(name=obj["name"], description=desc if isinstance(desc, str) else "",
                   input_schema=obj.get("inputSchema", {"type": "object"}),
                   output_schema=output if isinstance(output, dict) else None, annotations=annotations)


def server_from_json(obj: Any, where: str = "<spec>") -> ServerSpec:
    """Parse one server object of the JSONL format.

    Raises:
        SpecSourceError: the object lacks ``tools`` or a name/slug.
    """
    if not isinstance(obj, dict) or not isinstance(obj.get("tools"), list):
        raise SpecSourceError(f"{where}: a server must be an object with a 'tools' list")
    slug = obj.get("slug") or obj.get("server")
    if not isinstance(slug, str) or not slug:
        raise SpecSourceError(f"{where}: a server needs a 'slug' or 'server' name")
    tools = tuple(_tool_from_json(t, f"{where}: tool {i}") for i, t in enumerate(obj["tools"]))
    category = obj.get("category") if isinstance(obj.get("category"), str) else None
    desc = obj.get("description") if isinstance(obj.get("description"), str) else None
    return ServerSpec(server=str(obj.get("server") or slug), slug=slug, category=category, tools=tools,
                      description=desc)


def load_jsonl(path: str | Path) -> list[ServerSpec]:
    """All servers of a JSONL spec file.

    Raises:
        SpecSourceError: the file is missing or a line is not a valid server
            (the message gives ``path:line``).
    """
    try:
        text = Path(path).read_text(encoding="utf-8")
    except OSError as exc:
        raise SpecSourceError(f"cannot read {path}: {exc.strerror or exc}") from None
    servers = []
    for lineno, line in enumerate(text.splitlines(), 1):
        if not line.strip():
            continue
        try:
            obj = orjson.loads(line)
        except orjson.JSONDecodeError as exc:
            raise SpecSourceError(f"{path}:{lineno}: not valid JSON ({exc})") from None
        servers.append(server_from_json(obj, f"{path}:{lineno}"))
    return servers


def _annotations(tool: Any) -> dict[str, Any]:
    ann = getattr(tool, "annotations", None)
    if ann is None:
        return {}
    pairs = {"readOnlyHint": ann.read_only_hint, "destructiveHint": ann.destructive_hint,
             "idempotentHint": ann.idempotent_hint, "openWorldHint": ann.open_world_hint}
    return {k: v for k, v in pairs.items() if v is not None}


async def _list_tools(target: Any, timeout: float, errlog: Any = None) -> tuple[Any, list[Any]]:
    from mcp import Client
    from mcp.client.stdio import StdioServerParameters, stdio_client

    if isinstance(target, StdioServerParameters) and errlog is not None:
        # The child's stderr goes to ``errlog``, not ours: its last line is quoted in
        # the one-line error instead of interleaving with it.
        target = stdio_client(target, errlog=errlog)
    async with Client(target, cache=None, read_timeout_seconds=timeout) as client:
        tools: list[Any] = []
        cursor = None
        while True:
            page = await client.list_tools(cursor=cursor)
            tools.extend(page.tools)
            cursor = page.next_cursor
            if not cursor:
                return client.server_info, tools


def first_error(exc: BaseException) -> BaseException:
    """The first real exception inside ``exc``: task groups wrap the transport's error in
    (nested) ``ExceptionGroup``s, whose own text ("unhandled errors in a TaskGroup") says nothing."""
    while isinstance(exc, BaseExceptionGroup) and exc.exceptions:
        exc = exc.exceptions[0]
    return exc


def _os_cause(exc: BaseException) -> Optional[OSError]:
    # httpx reports a refused connection as ConnectError <- OSError <- ConnectionRefusedError:
    # the innermost OS error is the one that names the cause.
    found, seen = None, set()
    cur: Optional[BaseException] = exc
    while cur is not None and id(cur) not in seen:
        seen.add(id(cur))
        if isinstance(cur, OSError):
            found = cur
        cur = cur.__cause__ or cur.__context__
    return found


def describe_live_failure(exc: BaseException, timeout: float, stderr_tail: str = "") -> str:
    """One line saying why listing a live server failed (no group wrapper, no traceback).

    Args:
        exc: what the client raised (an ``ExceptionGroup`` is unwrapped).
        timeout: the per-request timeout in seconds (named when it ran out).
        stderr_tail: the server process's last stderr line, if any, quoted at the end.
    """
    from mcp.shared.exceptions import MCPError
    from mcp_types import CONNECTION_CLOSED, REQUEST_TIMEOUT

    leaf = first_error(exc)
    text = " ".join(str(leaf).split()) or type(leaf).__name__
    os_error = _os_cause(leaf)
    if isinstance(leaf, FileNotFoundError) and leaf.filename:
        cause = f"command {leaf.filename!r} not found"
    elif isinstance(leaf, MCPError) and leaf.code == CONNECTION_CLOSED:
        cause = "the server closed the connection before answering (did its process exit?)"
    elif (isinstance(leaf, MCPError) and leaf.code == REQUEST_TIMEOUT) or isinstance(leaf, TimeoutError):
        cause = f"no answer within {timeout:g} s ({text})"
    elif isinstance(os_error, ConnectionRefusedError):
        cause = f"connection refused ({' '.join(str(os_error).split())})"
    else:
        cause = f"{type(leaf).__name__}: {text}"
        if os_error is not None and os_error is not leaf and str(os_error) not in text:
            cause += f" ({type(os_error).__name__}: {' '.join(str(os_error).split())})"
    if stderr_tail:
        cause += f"; server stderr: {stderr_tail}"
    return cause


def _last_line(stream: Any) -> str:
    stream.seek(0)
    lines = [ln.strip() for ln in stream.read().splitlines() if ln.strip()]
    return lines[-1][:300] if lines else ""


def fetch_live(source: str, *, timeout: float = 30.0) -> ServerSpec:
    """List a live MCP server's tools with the official ``mcp`` client.

    Args:
        source: an ``http(s)://`` URL (streamable HTTP) or a command line
            that starts a stdio server, e.g. ``"python my_server.py"``.
        timeout: seconds to wait for each server response.

    Raises:
        SpecSourceError: the ``mcp`` package is missing, or the server
            cannot be listed: the command is not found, its process exits,
            the connection is refused, a response takes over ``timeout``.
            The message is one line naming ``source`` and the cause (see
            :func:`describe_live_failure`); a stdio server's stderr is
            captured and its last line quoted there.
    """
    import anyio

    try:
        from mcp.client.stdio import StdioServerParameters
    except ImportError:  # the optional extra is not installed
        raise SpecSourceError("listing a live MCP server needs the 'mcp' package: "
                              "pip install 'compoworld-gym[mcp]'") from None
    if source.startswith(("http://", "https://")):
        target: Any = source
        label = source
    else:
        argv = shlex.split(source)
        if not argv:
            raise SpecSourceError("empty MCP server command")
        target = StdioServerParameters(command=argv[0], args=argv[1:], env=dict(os.environ))
        label = Path(argv[-1]).stem if len(argv) > 1 else Path(argv[0]).name
    with tempfile.TemporaryFile("w+", encoding="utf-8", errors="replace") as errlog:
        try:
            info, tools = anyio.run(_list_tools, target, timeout, errlog)
        except Exception as exc:  # noqa: BLE001 - transport errors come in many types
            raise SpecSourceError(f"could not list tools of MCP server {source!r}: "
                                  f"{describe_live_failure(exc, timeout, _last_line(errlog))}") from None
    name = getattr(info, "name", None) or label
    defs = tuple(ToolDef(name=t.name, description=t.description or "", input_schema=t.input_schema,
                         output_schema=t.output_schema, annotations=_annotations(t)) for t in tools)
    return ServerSpec(server=name, slug=name, category=None, tools=defs,
                      description=getattr(info, "description", None))


def load_source(source: str) -> list[ServerSpec]:
    """Servers from a SOURCE: a JSONL file, an ``http(s)://`` URL or a stdio command.

    Raises:
        SpecSourceError: the source cannot be read or listed.
    """
    if source.startswith(("http://", "https://")):
        return [fetch_live(source)]
    path = Path(source)
    if path.is_file():
        return load_jsonl(path)
    if source.endswith((".jsonl", ".json")) and " " not in source.strip():
        raise SpecSourceError(f"spec file {source} does not exist")
    return [fetch_live(source)]
