"""Assertion helpers shared by the service tests."""

from __future__ import annotations


def ok(svc, tool, args=None):
    """Call ``tool`` and return its data, failing the test on an error envelope."""
    res = svc.call(tool, args or {})
    assert res["success"], res
    return res["data"]


def code(svc, tool, args=None):
    """Call ``tool`` expecting failure; return the error code (state must be unchanged)."""
    before = svc.state_dict()
    res = svc.call(tool, args or {})
    assert not res["success"], res
    assert svc.state_dict() == before, "a failed call changed the state"
    return res["error"]["code"]


def error(svc, tool, args=None):
    """Call ``tool`` expecting failure; return the error ``{"code", "message"}`` (state must be unchanged)."""
    before = svc.state_dict()
    res = svc.call(tool, args or {})
    assert not res["success"], res
    assert svc.state_dict() == before, "a failed call changed the state"
    return res["error"]


# The helpers below take an envelope already returned by ``svc.call`` (the
# ones above make the call themselves), for tests that build the call inline.


def data(result):
    """Return ``result["data"]``, failing the test unless ``result`` is a success envelope."""
    assert result["success"] is True, result
    return result["data"]


def error_code(result):
    """Return the error code of ``result``, failing the test unless it is an error envelope."""
    assert result["success"] is False, result
    return result["error"]["code"]


def failed(result, code):
    """Return the error message of ``result``, failing the test unless it is an error with ``code``."""
    assert result["success"] is False and result["error"]["code"] == code, result
    return result["error"]["message"]
