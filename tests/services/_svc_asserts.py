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
