"""The ``compoworld`` command line (one module per group of commands)."""

from __future__ import annotations

from compoworld_gym.cli import catalog_cmds, evaluate, fuzzing, generation, graph_cmd, mcp_cmds, play  # noqa: F401  (register)
from compoworld_gym.cli.app import app

__all__ = ["app", "main"]


def main() -> None:
    """Console-script entry point."""
    app()
