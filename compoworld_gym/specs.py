"""The bundled file of real MCP tool specifications.

``compoworld_gym/data/mcp_servers.jsonl`` (see ``data/README.md`` for its
sources and licences) is the spec file the built-in services follow
(``Service.spec_source`` names a ``slug`` in it) and the default input of
``compoworld import-mcp``.
"""

from __future__ import annotations

import functools
from pathlib import Path
from typing import Any

import orjson

#: Path of the bundled spec file (JSON Lines, one MCP server per line).
SPECS_PATH = Path(__file__).resolve().parent / "data" / "mcp_servers.jsonl"


@functools.lru_cache(maxsize=1)
def load_specs() -> dict[str, dict[str, Any]]:
    """``{slug: server spec}`` of the bundled file (parsed once).

    Raises:
        FileNotFoundError: the package was installed without its data.
    """
    with open(SPECS_PATH, "rb") as fh:
        servers = [orjson.loads(line) for line in fh if line.strip()]
    return {s["slug"]: s for s in servers}


def server_spec(slug: str) -> dict[str, Any]:
    """The spec of the server ``slug``.

    Raises:
        KeyError: no server with that slug is bundled.
    """
    try:
        return load_specs()[slug]
    except KeyError:
        raise KeyError(f"no MCP server with slug {slug!r} in {SPECS_PATH.name}") from None
