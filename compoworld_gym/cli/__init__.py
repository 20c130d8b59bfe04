"""The ``compoworld`` command line (one module per group of commands)."""

from __future__ import annotations

from compoworld_gym.cli import (  # noqa: F401  (register)
    catalog_cmds, evaluate, fuzzing, generation, graph_cmd, mcp_cmds, models_cmd, play, scaffold_cmd)
from compoworld_gym.cli.app import app

__all__ = ["app", "main"]


def main() -> None:
    """Console-script entry point. ``--debug`` may come anywhere (``compoworld eval
    --debug``, as the error line suggests): it is the app's option, so it moves up front."""
    import sys

    if "--debug" in sys.argv[2:]:
        sys.argv.remove("--debug")
        sys.argv.insert(1, "--debug")
    app()
