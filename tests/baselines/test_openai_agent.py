"""The openai agent against a loopback server speaking chat completions."""

from __future__ import annotations

import json
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest

pytest.importorskip("openai")

from compoworld_gym.baselines.evaluate import evaluate_agent  # noqa: E402
from compoworld_gym.baselines.openai_agent import OpenAIAgent  # noqa: E402


class ChatServer:
    """A chat-completions endpoint on 127.0.0.1 replaying scripted assistant messages."""

    def __init__(self, replies):
        self.replies = list(replies)
        self.requests = []
        server = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self):  # noqa: N802 (http.server API)
                body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
                server.requests.append((self.path, body))
                message = server.replies.pop(0)
                payload = {"id": f"chatcmpl-{len(server.requests)}", "object": "chat.completion", "created": 0,
                           "model": body["model"],
                           "choices": [{"index": 0, "message": {"role": "assistant", **message},
                                        "finish_reason": "tool_calls" if message.get("tool_calls") else "stop"}],
                           "usage": {"prompt_tokens": 10, "completion_tokens": 5, "total_tokens": 15}}
                data = json.dumps(payload).encode()
                self.send_response(200)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

            def log_message(self, *args):
                pass

        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.thread = threading.Thread(target=self.httpd.serve_forever, daemon=True)

    def __enter__(self):
        self.thread.start()
        return f"http://127.0.0.1:{self.httpd.server_address[1]}/v1"

    def __exit__(self, *exc):
        self.httpd.shutdown()
        self.httpd.server_close()
        self.thread.join(timeout=5)


def tool_calls_reply(task, index):
    call = json.loads(task.reference[index].action())
    return {"content": None, "tool_calls": [{"id": f"srv_{index}", "type": "function", "function": {
        "name": call["name"], "arguments": json.dumps(call.get("arguments", {}))}}]}


def test_openai_agent_solves_a_task_through_tool_calls(easy_tasks):
    task = easy_tasks[0]
    replies = [tool_calls_reply(task, i) for i in range(len(task.reference))]
    replies.append({"content": task.reference_answer})
    server = ChatServer(replies)
    with server as url:
        agent = OpenAIAgent(model="loopback-model", base_url=url, api_key="test", max_retries=0)
        metrics, runs = evaluate_agent(lambda s: agent, [task], max_steps=20)
    assert metrics["success_rate"] == 1.0 and metrics["mean_rubric_score"] == 1.0
    assert agent.usage == {"prompt_tokens": 10 * len(replies), "completion_tokens": 5 * len(replies),
                           "requests": len(replies)}
    path, first = server.requests[0]
    assert path == "/v1/chat/completions" and first["model"] == "loopback-model"
    assert [t["function"]["name"] for t in first["tools"]] == ["list_services", "list_tools", "describe_tool",
                                                                "call_tool"]


def test_openai_agent_sends_tool_results_and_parses_hermes_text(easy_tasks):
    task = easy_tasks[0]
    hermes = {"content": '<tool_call>{"name": "list_services", "arguments": {}}</tool_call>'}
    server = ChatServer([tool_calls_reply(task, 0), hermes, {"content": "Nothing to do."}])
    with server as url:
        agent = OpenAIAgent(model="m", base_url=url, api_key="k", max_retries=0)
        _, runs = evaluate_agent(lambda s: agent, [task], max_steps=10)
    assert runs[task.id][0].n_tool_calls == 2 and runs[task.id][0].finish_reason == "answer"
    second = server.requests[1][1]["messages"]
    assert [m["role"] for m in second] == ["system", "user", "assistant", "tool"]
    assert second[2]["tool_calls"][0]["function"]["arguments"] == "{}"  # a JSON string on the wire
    assert second[3]["tool_call_id"] == "call_0000" and json.loads(second[3]["content"])["services"]


def test_openai_agent_bad_arguments_become_a_parse_error(easy_tasks):
    bad = {"content": None, "tool_calls": [{"id": "x", "type": "function",
                                            "function": {"name": "list_tools", "arguments": "{not json"}}]}
    server = ChatServer([bad, {"content": "Stop."}])
    with server as url:
        agent = OpenAIAgent(model="m", base_url=url, api_key="k", max_retries=0)
        _, runs = evaluate_agent(lambda s: agent, easy_tasks[:1], max_steps=10)
    assert runs[easy_tasks[0].id][0].n_tool_calls == 0
    assert "arguments are not valid JSON" in server.requests[1][1]["messages"][-1]["content"]


def test_openai_agent_needs_a_model():
    with pytest.raises(ValueError, match="needs a model name"):
        OpenAIAgent(model="", base_url="http://127.0.0.1:9/v1")
