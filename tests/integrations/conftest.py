"""Shared fixtures for the adapter tests: a scripted OpenAI-compatible chat server on loopback.

``chat_server(script)`` starts a ``/v1/chat/completions`` endpoint (plain JSON and
SSE streaming) that answers from a script instead of a model. The reply to a
request is picked by how many assistant messages the request already holds
(turn 0, 1, ...), so the server keeps no conversation state: concurrent rollouts
of one script each get the same replies, in order. :func:`by_session` gives each
conversation (an HTTP header naming it, e.g. verifiers' ``X-Session-ID``) its
own script instead.
"""

from __future__ import annotations

import json
import threading
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any, Callable, Optional, Sequence, Union

import pytest


@dataclass(frozen=True)
class ScriptedReply:
    """One scripted assistant message: text, tool calls ``(name, arguments)``, or both."""

    content: Optional[str] = None
    tool_calls: tuple[tuple[str, dict[str, Any]], ...] = ()

    def message(self, turn: int) -> dict[str, Any]:
        """The OpenAI ``message`` object; tool-call ids are ``call_<turn>_<i>``."""
        out: dict[str, Any] = {"role": "assistant", "content": self.content}
        if self.tool_calls:
            out["tool_calls"] = [{"id": f"call_{turn}_{i}", "type": "function",
                                  "function": {"name": name, "arguments": json.dumps(args)}}
                                 for i, (name, args) in enumerate(self.tool_calls)]
        return out


@dataclass(frozen=True)
class ScriptedRequest:
    """One chat request as a script sees it: the JSON body, the headers (lower-case names), the turn index."""

    body: dict[str, Any]
    headers: dict[str, str]
    turn: int


#: A script: replies by turn, or a function of the request that picks one.
Script = Union[Sequence[ScriptedReply], Callable[[ScriptedRequest], ScriptedReply]]


def by_session(scripts: Sequence[Sequence[ScriptedReply]], header: str = "x-session-id"
               ) -> Callable[[ScriptedRequest], ScriptedReply]:
    """A script giving the n-th conversation seen (named by ``header``) ``scripts[n]``.

    Raises (answered as HTTP 500):
        LookupError: more conversations than scripts, or a script ran out of replies.
    """
    assigned: dict[str, Sequence[ScriptedReply]] = {}
    lock = threading.Lock()

    def pick(request: ScriptedRequest) -> ScriptedReply:
        session = request.headers.get(header, "")
        with lock:
            if session not in assigned:
                if len(assigned) >= len(scripts):
                    raise LookupError(f"conversation {session!r} is one more than the {len(scripts)} scripts")
                assigned[session] = scripts[len(assigned)]
        script = assigned[session]
        if request.turn >= len(script):
            raise LookupError(f"the script has {len(script)} replies; turn {request.turn} asked for one more")
        return script[request.turn]

    return pick


def reference_script(task: Any, answer: Optional[str] = None, skip: Sequence[str] = ()) -> list[ScriptedReply]:
    """A CompoWorld task's reference solution as a script: one meta-tool call per turn, then the answer.

    Args:
        task: a :class:`compoworld_gym.tasks.Task` with a reference.
        answer: the final answer (default: the task's reference answer).
        skip: meta-tool names to leave out (e.g. ``("call_tool",)``: no writes, no reads).
    """
    turns = [ScriptedReply(tool_calls=((step.name, step.arguments),)) for step in task.reference
             if step.name not in skip]
    return [*turns, ScriptedReply(content=task.reference_answer if answer is None else answer)]


@dataclass
class ScriptedChatServer:
    """A running scripted endpoint. ``base_url`` ends in ``/v1``; ``requests`` holds every chat body received."""

    script: Script
    model: str = "scripted-model"
    requests: list[dict[str, Any]] = field(default_factory=list)
    base_url: str = ""

    def reply(self, body: dict[str, Any], headers: dict[str, str]) -> tuple[int, dict[str, Any]]:
        """The turn index and message answering ``body``.

        Raises:
            LookupError: the script has no reply for this turn.
        """
        turn = sum(1 for m in body.get("messages", []) if m.get("role") == "assistant")
        if callable(self.script):
            return turn, self.script(ScriptedRequest(body=body, headers=headers, turn=turn)).message(turn)
        if turn >= len(self.script):
            raise LookupError(f"the script has {len(self.script)} replies; turn {turn} asked for one more")
        return turn, self.script[turn].message(turn)


def _completion(server: ScriptedChatServer, body: dict[str, Any], headers: dict[str, str]
                ) -> tuple[dict[str, Any], str]:
    turn, message = server.reply(body, headers)
    finish = "tool_calls" if message.get("tool_calls") else "stop"
    usage = {"prompt_tokens": 10, "completion_tokens": 5, "total_tokens": 15}
    return {"id": f"chatcmpl-{turn}", "object": "chat.completion", "created": 0,
            "model": body.get("model", server.model),
            "choices": [{"index": 0, "message": message, "finish_reason": finish}], "usage": usage}, finish


def _sse_events(completion: dict[str, Any], finish: str) -> list[dict[str, Any]]:
    """The completion as streamed chunks: one delta with everything, the finish, the usage."""
    message = completion["choices"][0]["message"]
    delta: dict[str, Any] = {"role": "assistant", "content": message.get("content")}
    if message.get("tool_calls"):
        delta["tool_calls"] = [{"index": i, **call} for i, call in enumerate(message["tool_calls"])]
    base = {"id": completion["id"], "object": "chat.completion.chunk", "created": 0, "model": completion["model"]}
    return [{**base, "choices": [{"index": 0, "delta": delta, "finish_reason": None}]},
            {**base, "choices": [{"index": 0, "delta": {}, "finish_reason": finish}]},
            {**base, "choices": [], "usage": completion["usage"]}]


def _handler(server: ScriptedChatServer) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        def log_message(self, *args: Any) -> None:  # keep test output clean
            pass

        def _send(self, status: int, payload: bytes, content_type: str = "application/json") -> None:
            self.send_response(status)
            self.send_header("Content-Type", content_type)
            self.send_header("Content-Length", str(len(payload)))
            self.end_headers()
            self.wfile.write(payload)

        def do_GET(self) -> None:
            if self.path.rstrip("/").endswith("/models"):
                self._send(200, json.dumps({"object": "list", "data": [{"id": server.model, "object": "model"}]})
                           .encode())
            else:
                self._send(404, b'{"error": {"message": "not found"}}')

        def do_POST(self) -> None:
            body = json.loads(self.rfile.read(int(self.headers.get("Content-Length", 0))) or b"{}")
            if not self.path.rstrip("/").endswith("/chat/completions"):
                self._send(404, b'{"error": {"message": "not found"}}')
                return
            server.requests.append(body)
            try:
                completion, finish = _completion(server, body, {k.lower(): v for k, v in self.headers.items()})
            except LookupError as exc:
                self._send(500, json.dumps({"error": {"message": str(exc)}}).encode())
                return
            if not body.get("stream"):
                self._send(200, json.dumps(completion).encode())
                return
            events = _sse_events(completion, finish)
            stream = "".join(f"data: {json.dumps(e)}\n\n" for e in events) + "data: [DONE]\n\n"
            self._send(200, stream.encode(), "text/event-stream")

    return Handler


class ChatServers:
    """What the ``chat_server`` fixture gives: call it to start a server; helpers ride along.

    ``chat_server(script, model="scripted-model") -> ScriptedChatServer``; ``chat_server.Reply``
    is :class:`ScriptedReply`, ``chat_server.reference`` is :func:`reference_script` and
    ``chat_server.by_session`` is :func:`by_session` (so tests need not import this conftest).
    """

    Reply = ScriptedReply
    reference = staticmethod(reference_script)
    by_session = staticmethod(by_session)

    def __init__(self) -> None:
        self._running: list[tuple[ThreadingHTTPServer, threading.Thread]] = []

    def __call__(self, script: Script, model: str = "scripted-model") -> ScriptedChatServer:
        server = ScriptedChatServer(script=script, model=model)
        httpd = ThreadingHTTPServer(("127.0.0.1", 0), _handler(server))
        httpd.daemon_threads = True
        thread = threading.Thread(target=httpd.serve_forever, daemon=True)
        thread.start()
        server.base_url = f"http://127.0.0.1:{httpd.server_address[1]}/v1"
        self._running.append((httpd, thread))
        return server

    def close(self) -> None:
        """Stop every server started."""
        for httpd, thread in self._running:
            httpd.shutdown()
            httpd.server_close()
            thread.join(timeout=5)
        self._running.clear()


@pytest.fixture
def chat_server():
    """Scripted OpenAI-compatible chat servers on loopback, stopped when the test ends (see :class:`ChatServers`)."""
    servers = ChatServers()
    yield servers
    servers.close()
