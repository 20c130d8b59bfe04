"""``compoworld eval`` failing well: one ``error:`` line, the right exit, no partial output files."""

from __future__ import annotations

import io
import json
import socket
import sys
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest
from rich.console import Console
from typer.testing import CliRunner

from compoworld_gym.baselines.agents import RandomAgent, agent_class
from compoworld_gym.builtin_tasks import builtin_tasks
from compoworld_gym.cli import app, common

runner = CliRunner()


def closed_port() -> int:
    """A loopback port nothing listens on (bound, then released)."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Endpoint:
    """A loopback chat-completions endpoint: GET answers ``get_status``, POST answers ``Done.`` or hangs up."""

    def __init__(self, get_status=404, hang_up_on_post=False):
        self.requests = []
        endpoint = self

        class Handler(BaseHTTPRequestHandler):
            def do_GET(self):  # noqa: N802 (http.server API)
                endpoint.requests.append(("GET", self.path))
                self.send_response(get_status)
                self.send_header("Content-Length", "2")
                self.end_headers()
                self.wfile.write(b"{}")

            def do_POST(self):  # noqa: N802
                body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
                endpoint.requests.append(("POST", self.path))
                if hang_up_on_post:
                    self.close_connection = True
                    return  # no response at all: the client sees the connection drop
                data = json.dumps({"id": "c", "object": "chat.completion", "created": 0, "model": body["model"],
                                   "choices": [{"index": 0, "finish_reason": "stop",
                                                "message": {"role": "assistant", "content": "Done."}}]}).encode()
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


def eval_openai(url, *args):
    return runner.invoke(app, ["eval", "--agent", "openai", "--model", "m", "--base-url", url, *args])


def test_unreachable_endpoint_is_one_line_before_any_work_and_writes_nothing(tmp_path):
    pytest.importorskip("openai")
    url = f"http://127.0.0.1:{closed_port()}/v1"
    out = eval_openai(url, "--out", str(tmp_path / "out"))
    assert out.exit_code == 2
    assert out.stderr == f"error: cannot reach the OpenAI-compatible endpoint at {url}: connection refused\n"
    assert out.stdout == "" and list((tmp_path / "out").iterdir()) == []


def test_endpoint_without_models_list_still_runs_and_refused_key_is_one_line(tmp_path):
    pytest.importorskip("openai")
    with Endpoint(get_status=404) as url:
        ok = eval_openai(url, "--json", "--out", str(tmp_path))
    assert ok.exit_code == 0, ok.output
    report = json.loads(ok.stdout)
    assert (report["agent"], report["model"], report["episodes"]) == ("openai", "m", len(builtin_tasks()))
    assert len((tmp_path / "openai.jsonl").read_text().splitlines()) == len(builtin_tasks())
    with Endpoint(get_status=401) as url:
        refused = eval_openai(url)
    assert refused.exit_code == 2
    assert refused.stderr == (f"error: the endpoint at {url} refused the API key (HTTP 401); "
                              "set OPENAI_API_KEY\n")


def test_connection_lost_midway_is_one_line_and_leaves_no_file(tmp_path):
    pytest.importorskip("openai")
    endpoint = Endpoint(get_status=200, hang_up_on_post=True)
    with endpoint as url:
        out = eval_openai(url, "--out", str(tmp_path))
    assert endpoint.requests[0] == ("GET", "/v1/models") and endpoint.requests[1][0] == "POST"
    assert out.exit_code == 1
    assert out.stderr.startswith("error: lost the connection to the OpenAI-compatible endpoint during the "
                                 "evaluation: ")
    assert out.stderr.endswith("(nothing written for agent 'openai')\n") and out.stderr.count("\n") == 1
    assert sorted(p.name for p in tmp_path.iterdir()) == []


def test_interrupted_eval_leaves_complete_files_only(tmp_path, monkeypatch):
    (tmp_path / "random.jsonl").write_text("old\n")
    calls = {"n": 0}
    act = RandomAgent.act

    def act_then_interrupt(self, observation):
        calls["n"] += 1
        if calls["n"] == 20:
            raise KeyboardInterrupt
        return act(self, observation)

    monkeypatch.setattr(RandomAgent, "act", act_then_interrupt)
    out = runner.invoke(app, ["eval", "--agent", "reference", "--agent", "random", "--out", str(tmp_path)])
    assert out.exit_code == 130 and out.stderr == "error: interrupted\n"
    # the reference agent finished: its files are complete; the random one's old file is untouched
    assert sorted(p.name for p in tmp_path.iterdir()) == ["random.jsonl", "reference.jsonl",
                                                          "reference.metrics.json"]
    assert (tmp_path / "random.jsonl").read_text() == "old\n"
    assert len((tmp_path / "reference.jsonl").read_text().splitlines()) == len(builtin_tasks())
    assert json.loads((tmp_path / "reference.metrics.json").read_text())["success_rate"] == 1.0


@pytest.mark.parametrize("model", ["./local-model-dir", "~/no-such-model-dir", "no-such-owner/no-such-model"])
def test_missing_local_model_directory_is_one_line_exit_2(model, tmp_path, monkeypatch):
    pytest.importorskip("torch")
    pytest.importorskip("transformers")
    monkeypatch.chdir(tmp_path)
    out = runner.invoke(app, ["eval", "--agent", "hf", "--model", model])
    assert out.exit_code == 2
    assert out.stderr == (f"error: model directory {model} does not exist (nothing is downloaded; "
                          "give a local model directory or 'tiny')\n")


def _no_hub_loads(monkeypatch):
    """Make every ``from_pretrained`` of the HF agent fail the test (it would ask the model hub)."""
    import transformers

    def refuse(*args, **kwargs):
        pytest.fail(f"from_pretrained{args} must not run for an unknown model name")

    monkeypatch.setattr(transformers.AutoTokenizer, "from_pretrained", refuse)
    monkeypatch.setattr(transformers.AutoModelForCausalLM, "from_pretrained", refuse)


@pytest.mark.parametrize(("model", "hint"), [("smolm2", "did you mean smollm2?"), ("tinny", "did you mean tiny?"),
                                             ("gpt5", "known: smollm2, tiny")])
def test_a_mistyped_bare_model_name_fails_at_once_without_the_hub(model, hint, tmp_path, monkeypatch):
    pytest.importorskip("torch")
    pytest.importorskip("transformers")
    monkeypatch.chdir(tmp_path)
    _no_hub_loads(monkeypatch)
    out = runner.invoke(app, ["eval", "--agent", "hf", "--model", model])
    assert (out.exit_code, out.stderr) == (2, f"error: unknown model {model!r}: not a local directory and not a "
                                              f"fetchable model ({hint})\n")


def test_a_bare_name_of_a_local_directory_loads_local_files_only(tmp_path, monkeypatch):
    pytest.importorskip("torch")
    transformers = pytest.importorskip("transformers")
    from compoworld_gym.baselines.hf_agent import check_model_path, load_model

    monkeypatch.chdir(tmp_path)
    (tmp_path / "mymodel").mkdir()
    (tmp_path / "mymodel" / "config.json").write_text("{}")
    assert check_model_path("mymodel") == "mymodel"  # a bare name that is a local directory passes
    seen = []

    class Stub:
        def to(self, device):
            return self

    def record(name, **kwargs):
        seen.append((name, kwargs.get("local_files_only")))
        return Stub()

    monkeypatch.setattr(transformers.AutoTokenizer, "from_pretrained", record)
    monkeypatch.setattr(transformers.AutoModelForCausalLM, "from_pretrained", record)
    load_model("mymodel", device="cpu")
    assert seen == [("mymodel", True), ("mymodel", True)]


def test_threads_reaches_torch_before_the_hf_agent_loads(monkeypatch):
    torch = pytest.importorskip("torch")
    pytest.importorskip("transformers")
    from compoworld_gym.baselines import agents

    events = []
    monkeypatch.setattr(torch, "set_num_threads", lambda n: events.append(("threads", n)))

    def make_agent(name, **kwargs):
        events.append(("load", name))
        raise ValueError("stop here")

    monkeypatch.setattr(agents, "make_agent", make_agent)
    out = runner.invoke(app, ["eval", "--agent", "hf", "--model", "tiny", "--threads", "1"])
    assert (out.exit_code, out.stderr) == (2, "error: cannot build agent 'hf': stop here\n")
    assert events == [("threads", 1), ("load", "hf")]
    events.clear()
    runner.invoke(app, ["eval", "--agent", "hf", "--model", "tiny"])
    assert events == [("load", "hf")]  # no --threads: torch's own default is left alone
    assert runner.invoke(app, ["eval", "--threads", "0"]).exit_code == 2


@pytest.mark.parametrize(("agent", "module", "extra"), [("openai", "openai", "openai"), ("hf", "torch", "train"),
                                                         ("hf", "transformers", "train")])
def test_missing_extra_is_one_line_on_stderr(agent, module, extra, monkeypatch):
    monkeypatch.setitem(sys.modules, module, None)  # what `import module` sees after a plain `pip install .`
    message = (f'agent {agent!r} needs the [{extra}] extra: pip install "compoworld-gym[{extra}]" '
               f"(cannot import {module})")
    with pytest.raises(ImportError) as raised:
        agent_class(agent)
    assert str(raised.value) == message and raised.value.name == module
    out = runner.invoke(app, ["eval", "--agent", agent, "--model", "m"])
    assert out.exit_code == 2
    assert (out.stdout, out.stderr) == ("", f"error: {message}\n")


def test_json_output_is_clean_and_progress_is_drawn_only_on_a_terminal(monkeypatch):
    plain = runner.invoke(app, ["eval", "--agent", "reference", "--json"])
    assert plain.exit_code == 0 and plain.stderr == ""
    assert json.loads(plain.stdout)["success_rate"] == 1.0
    screen = io.StringIO()
    monkeypatch.setattr(common, "errors", Console(file=screen, force_terminal=True, width=100))
    on_tty = runner.invoke(app, ["eval", "--agent", "reference", "--json"])
    assert on_tty.exit_code == 0
    assert json.loads(on_tty.stdout)["success_rate"] == 1.0
    drawn = screen.getvalue()
    assert "reference" in drawn and f"/{len(builtin_tasks())}" in drawn


def test_eval_tools_flat_replays_the_reference_and_bad_modes_exit_2():
    import json

    from typer.testing import CliRunner

    from compoworld_gym.cli import app

    runner = CliRunner()
    out = runner.invoke(app, ["eval", "--agent", "reference", "--tools", "flat", "--json"])
    assert out.exit_code == 0, out.output
    report = json.loads(out.stdout)
    assert report["tools"] == "flat" and report["success_rate"] == 1.0 and report["tasks"] == 12
    assert report["parse_failures"] == 0 and report["error_codes"] == {}
    bad = runner.invoke(app, ["eval", "--agent", "reference", "--tools", "mcp"])
    assert bad.exit_code == 2 and "--tools must be one of meta, flat" in bad.output
    ray = runner.invoke(app, ["eval", "--agent", "reference", "--tools", "flat", "--ray"])
    assert ray.exit_code == 2 and "does not run over --ray" in ray.output
