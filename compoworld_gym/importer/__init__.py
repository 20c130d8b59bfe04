"""The MCP spec importer: any MCP server's tool list becomes a service.

Tools that follow a resource pattern (create/get/list/search/update/delete/
send over a collection with ids) run on a deterministic generic engine
with a typed state inferred from the schemas; the rest are simulated by a
world model (:mod:`compoworld_gym.world_model`). Arguments are validated
against each tool's ``inputSchema``; entity types are inferred from
parameter names and formats so imported services join the dependency graph.

Example:
    >>> from compoworld_gym.importer import import_mcp
    >>> from compoworld_gym.specs import SPECS_PATH
    >>> report = import_mcp(str(SPECS_PATH))  # doctest: +SKIP
    >>> report["servers"], report["tools"]  # doctest: +SKIP
    (420, 3665)
"""

from compoworld_gym.importer.build import ImportReport, build_service, import_mcp, import_specs
from compoworld_gym.importer.service import ImportedService
from compoworld_gym.importer.specs import (
    ServerSpec,
    SpecSourceError,
    ToolDef,
    fetch_live,
    load_jsonl,
    load_source,
    server_from_json,
)

__all__ = [
    "ImportReport", "ImportedService", "ServerSpec", "SpecSourceError", "ToolDef", "build_service",
    "fetch_live", "import_mcp", "import_specs", "load_jsonl", "load_source", "server_from_json",
]
