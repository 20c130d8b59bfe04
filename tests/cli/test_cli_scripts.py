"""The ``python -m`` training scripts fail like the CLI: one line, no traceback (issue 14 review)."""

from __future__ import annotations

import subprocess
import sys

import pytest

from compoworld_gym.cli.app import _state, run_script


def _script(module: str, *args: str, hide: str = "") -> subprocess.CompletedProcess:
    """Run ``python -m module args`` (optionally with module ``hide`` made unimportable)."""
    code = (f"import runpy, sys\nif {hide!r}: sys.modules[{hide!r}] = None\n"
            f"sys.argv = [{module!r}, *{list(args)!r}]\nrunpy.run_module({module!r}, run_name='__main__')")
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=300)


def test_sft_with_a_missing_model_directory_is_one_line(tmp_path):
    out = _script("compoworld_gym.baselines.sft", "--model", "./Qwen3-0.6B", "--output-dir", str(tmp_path / "o"))
    assert out.returncode == 2, out.stderr
    assert out.stderr.strip().splitlines() == [
        "error: model directory ./Qwen3-0.6B does not exist (nothing is downloaded; "
        "give a local model directory or 'tiny')"]


def test_sft_without_the_train_extra_names_it(tmp_path):
    out = _script("compoworld_gym.baselines.sft", "--model", "tiny", "--output-dir", str(tmp_path / "o"),
                  hide="datasets")
    assert out.returncode == 2, out.stderr
    assert out.stderr.strip().splitlines() == [
        "error: this command needs the [train] extra (module 'datasets' is not installed): "
        'pip install "compoworld-gym[train]"']


def test_an_empty_model_directory_is_named(tmp_path):
    from compoworld_gym.baselines.hf_agent import check_model_path

    with pytest.raises(FileNotFoundError, match="holds no model"):
        check_model_path(str(tmp_path))
    (tmp_path / "config.json").write_text("{}")
    check_model_path(str(tmp_path))  # a saved model directory passes


@pytest.mark.parametrize("exc, code, line", [
    (ImportError("vLLM is not available and `use_vllm` is set to True. Please install vLLM with "
                 "`pip install trl[vllm]` to use it."), 2,
     'error: --vllm needs the [vllm] extra (on a GPU machine): pip install "compoworld-gym[vllm]"'),
    (KeyboardInterrupt(), 130, "error: interrupted"),
    (RuntimeError("CUDA\nout of memory"), 1, "error: RuntimeError: CUDA out of memory (run with --debug for the "
                                             "traceback)"),
])
def test_run_script_turns_errors_into_one_line(capsys, monkeypatch, exc, code, line):
    monkeypatch.setitem(_state, "debug", False)

    def main():
        raise exc

    with pytest.raises(SystemExit) as done:
        run_script(main)
    assert done.value.code == code and capsys.readouterr().err == line + "\n"
