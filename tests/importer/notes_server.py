"""A small MCP server (official ``mcp`` 2.x SDK) used by the importer tests.

Run over stdio: ``python tests/importer/notes_server.py``. It keeps notes
in memory, and has one outside-world tool (weather) the importer cannot
implement and must simulate.
"""

from __future__ import annotations

from typing import Optional

from mcp.server import MCPServer

server = MCPServer("notes-demo")
NOTES: dict[str, dict] = {}


@server.tool()
def create_note(title: str, body: str, owner_email: str, tags: Optional[list[str]] = None) -> dict:
    """Create a note."""
    note = {"id": f"N{len(NOTES) + 1}", "title": title, "body": body, "owner_email": owner_email,
            "tags": tags or []}
    NOTES[note["id"]] = note
    return note


@server.tool()
def get_note(note_id: str) -> dict:
    """Get one note by id."""
    return NOTES[note_id]


@server.tool()
def list_notes(owner_email: Optional[str] = None, limit: int = 20) -> list[dict]:
    """List notes, optionally by owner."""
    return [n for n in NOTES.values() if owner_email in (None, n["owner_email"])][:limit]


@server.tool()
def update_note(note_id: str, title: Optional[str] = None, body: Optional[str] = None) -> dict:
    """Update a note's title or body."""
    note = NOTES[note_id]
    note.update({k: v for k, v in (("title", title), ("body", body)) if v is not None})
    return note


@server.tool()
def delete_note(note_id: str) -> dict:
    """Delete a note."""
    NOTES.pop(note_id)
    return {"deleted": note_id}


@server.tool()
def get_weather(city: str, units: str = "metric") -> dict:
    """Current weather for a city (needs an outside weather API)."""
    return {"city": city, "temperature": 21.0, "units": units}


if __name__ == "__main__":
    server.run("stdio")
