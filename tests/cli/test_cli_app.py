"""The command line as a whole: --version, one-line errors, --debug, missing extras (issue 14)."""

from __future__ import annotations

import re
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

import compoworld_gym
from compoworld_gym.cli import app
from compoworld_gym.cli.app import _state

runner = CliRunner()
ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(autouse=True)
def _no_debug():
    before = _state["debug"]
    _state["debug"] = False
    yield
    _state["debug"] = before


def test_version_matches_the_package_metadata():
    result = runner.invoke(app, ["--version"])
    version = re.search(r'^version = "([^"]+)"', (ROOT / "pyproject.toml").read_text(), re.M).group(1)
    assert result.exit_code == 0 and result.output == f"compoworld-gym {version}\n"
    assert compoworld_gym.__version__ == version


def test_missing_extra_names_the_pip_command(tmp_path, monkeypatch):
    monkeypatch.setitem(sys.modules, "matplotlib", None)  # import matplotlib now raises ModuleNotFoundError
    result = runner.invoke(app, ["graph", "--out", str(tmp_path / "g.png")])
    assert result.exit_code == 2
    assert result.output.strip().splitlines() == [
        "error: this command needs the [viz] extra (module 'matplotlib' is not installed): "
        'pip install "compoworld-gym[viz]"']
    assert not (tmp_path / "g.png").exists()


def test_unexpected_error_is_one_line_and_debug_shows_the_traceback(monkeypatch):
    import compoworld_gym.catalog as catalog

    def broken():
        raise RuntimeError("catalog\nexploded")

    monkeypatch.setattr(catalog, "service_names", broken)
    result = runner.invoke(app, ["services"])
    assert result.exit_code == 1
    assert result.output == "error: RuntimeError: catalog exploded (run with --debug for the traceback)\n"
    debug = runner.invoke(app, ["--debug", "services"])
    assert isinstance(debug.exception, RuntimeError) and str(debug.exception) == "catalog\nexploded"


def test_debug_may_follow_the_command(monkeypatch):
    # "run with --debug" reads as `compoworld services --debug` too (a fresh user's first try).
    import compoworld_gym.cli as cli
    import compoworld_gym.catalog as catalog

    def broken():
        raise RuntimeError("catalog exploded")

    monkeypatch.setattr(catalog, "service_names", broken)
    monkeypatch.setattr(sys, "argv", ["compoworld", "services", "--debug"])
    monkeypatch.setattr(cli, "app", lambda: runner.invoke(app, sys.argv[1:]))
    cli.main()
    assert sys.argv == ["compoworld", "--debug", "services"]


def test_ctrl_c_in_a_command_exits_130_with_one_line(monkeypatch):
    import compoworld_gym.catalog as catalog

    def interrupted():
        raise KeyboardInterrupt

    monkeypatch.setattr(catalog, "service_names", interrupted)
    result = runner.invoke(app, ["services"])
    assert result.exit_code == 130 and result.output == "error: interrupted\n"


def test_the_cli_imports_without_click():
    """typer >= 0.29 bundles click: a base install has no ``click`` module
    (``import click`` made every command fail there)."""
    import subprocess

    code = ("import sys; sys.modules['click'] = None\n"
            "from typer.testing import CliRunner\nfrom compoworld_gym.cli import app\n"
            "r = CliRunner().invoke(app, ['--version']); print(r.exit_code, r.output.strip())")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == f"0 compoworld-gym {compoworld_gym.__version__}"
