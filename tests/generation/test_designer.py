"""The OpenAI-compatible designer, against a loopback chat-completions server."""

from __future__ import annotations

import json
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest

pytest.importorskip("openai")

from compoworld_gym.generation import LIBRARY_V1, GenerationStats, generate_tasks  # noqa: E402
from compoworld_gym.generation.designer import DesignerError, OpenAIDesigner, get_designer  # noqa: E402


class _Chat(BaseHTTPRequestHandler):
    """Answers /v1/chat/completions with the server's ``reply(brief) -> text``."""

    def do_POST(self) -> None:  # noqa: N802 - http.server API
        body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
        self.server.requests.append(body)
        brief = json.loads(body["messages"][-1]["content"])
        text = self.server.reply(brief)
        out = json.dumps({"id": "x", "object": "chat.completion", "created": 0, "model": body["model"],
                          "choices": [{"index": 0, "finish_reason": "stop",
                                       "message": {"role": "assistant", "content": text}}]}).encode()
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(out)))
        self.end_headers()
        self.wfile.write(out)

    def log_message(self, *args) -> None:
        pass


@pytest.fixture()
def server():
    srv = ThreadingHTTPServer(("127.0.0.1", 0), _Chat)
    srv.requests = []
    thread = threading.Thread(target=srv.serve_forever, daemon=True)
    thread.start()
    yield srv
    srv.shutdown()
    srv.server_close()


def _good(brief: dict) -> str:
    rules = [*brief["where_facts_live"], *brief["which_record_wins"], *([brief["policy"]] if brief["policy"] else []),
             *brief["ordering"], brief["always"]]
    return (f"Our team needs {brief['case']} finished, beginning at {brief['starts_from']}: "
            f"{'; '.join(brief['goals'])}.\n\nHouse rules:\n" + "\n".join(f"- {r}" for r in rules)
            + f"\n\nTell me {brief['report']} at the end.")


def _designer(server) -> OpenAIDesigner:
    return OpenAIDesigner(f"http://127.0.0.1:{server.server_address[1]}/v1", "tiny-designer")


def test_designer_writes_the_instruction(server) -> None:
    server.reply = _good
    tasks = generate_tasks(3, seed=2, designer=_designer(server))
    assert len(server.requests) >= 3 and server.requests[0]["model"] == "tiny-designer"
    for t in tasks:
        assert t.instruction.startswith("Our team needs ")
        assert t.meta["entry"] in t.instruction
    # The brief sent carries no discovered value.
    sent = server.requests[0]["messages"][-1]["content"]
    report = next(c for c in tasks[0].checks if c.kind == "answer_contains").values[0]
    assert report not in sent


def test_a_leaking_designer_is_rejected(server) -> None:
    # The model "helpfully" names the tools to call: every such task is rejected.
    from compoworld_gym.catalog import get_service, service_names

    tools = sorted({t for s in service_names() for t in get_service(s).tools if "_" in t})

    def leak(brief: dict) -> str:
        return _good(brief) + " Hint: use " + ", ".join(tools) + "."

    server.reply = leak
    stats = GenerationStats()
    with pytest.raises(Exception):
        generate_tasks(1, seed=2, designer=_designer(server), stats=stats, max_attempts_per_task=3,
                       library=LIBRARY_V1)  # seed 2's three walks of the first library all reach design
    assert stats.reasons["design: designer-leak"] == 3


def test_a_designer_that_drops_the_start_is_rejected(server) -> None:
    server.reply = lambda brief: "Please sort out the customer's problem and follow the usual rules."
    stats = GenerationStats()
    with pytest.raises(Exception):
        generate_tasks(1, seed=2, designer=_designer(server), stats=stats, max_attempts_per_task=3,
                       library=LIBRARY_V1)  # seed 2's three walks of the first library all reach design
    assert stats.reasons["design: designer-incomplete"] == 3


def test_an_unreachable_endpoint_is_a_clear_error() -> None:
    designer = OpenAIDesigner("http://127.0.0.1:9/v1", "m", timeout=2)
    with pytest.raises(DesignerError, match="endpoint failed"):
        generate_tasks(1, seed=2, designer=designer)
    with pytest.raises(DesignerError, match="needs --base-url"):
        get_designer("openai")
