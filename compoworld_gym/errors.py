"""Tool errors and the one JSON result envelope every service returns.

Convention (matching the paper's published trajectories)::

    {"success": true,  "data": ...}
    {"success": false, "error": {"code": 400|404|409|422|500, "message": "..."}}

Tools raise the specific exceptions below; :func:`error_envelope` turns them
into the envelope at exactly one boundary (:meth:`Service.call`). Messages
tell the agent how to recover.
"""

from __future__ import annotations

from typing import Any


class ToolError(Exception):
    """Base class of errors a tool reports to the agent.

    Attributes:
        code: the HTTP-like status code placed in the envelope.
        message: what went wrong and how to recover.
    """

    code: int = 500

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


class InvalidArgument(ToolError):
    """400: an argument is missing, of the wrong type or out of range."""

    code = 400


class NotFound(ToolError):
    """404: the tool, service or record does not exist."""

    code = 404


class Conflict(ToolError):
    """409: the call conflicts with the current state (e.g. already closed)."""

    code = 409


class Unprocessable(ToolError):
    """422: well-formed but semantically impossible (e.g. end before start)."""

    code = 422


class InternalError(ToolError):
    """500: a bug inside a tool, or a result that failed state validation."""

    code = 500


def ok(data: Any) -> dict[str, Any]:
    """The success envelope ``{"success": True, "data": data}``."""
    return {"success": True, "data": data}


def error_envelope(code: int, message: str) -> dict[str, Any]:
    """The failure envelope ``{"success": False, "error": {"code", "message"}}``."""
    return {"success": False, "error": {"code": code, "message": message}}
