"""The resource engine's verbs beyond CRUD: counts, upserts and actions.

:data:`compoworld_gym.importer.patterns.VERBS` holds the CRUD verbs the
importer always had (the offline world model reads it too). This module
adds the verbs the resource engine serves on keyed records:

* ``count``: how many stored records match the filters;
* upserts (``write``/``save``/``put``/``store``/``upload``/``set``): create
  or replace the record named by its key fields (``write_file(path, content)``);
* actions (``close_issue``, ``enable_rule``, ``approve_request``...): the
  record's ``status`` becomes the verb's past state (:data:`STATUS_OF`);
  ``assign``/``unassign`` write a field (:data:`FIELD_ACTIONS`).
"""

from __future__ import annotations

from typing import Optional

from compoworld_gym.importer.names import singular, tokens
from compoworld_gym.importer.patterns import VERBS, ToolShape, shape_of

#: Action verb → the ``status`` it leaves the record in.
STATUS_OF: dict[str, str] = {
    "enable": "enabled", "disable": "disabled", "activate": "active", "deactivate": "inactive",
    "start": "running", "stop": "stopped", "pause": "paused", "resume": "running", "restart": "running",
    "close": "closed", "reopen": "open", "archive": "archived", "unarchive": "active",
    "approve": "approved", "reject": "rejected", "decline": "declined", "accept": "accepted",
    "publish": "published", "unpublish": "unpublished", "cancel": "cancelled", "complete": "completed",
    "finish": "completed", "lock": "locked", "unlock": "unlocked", "suspend": "suspended",
    "resolve": "resolved", "block": "blocked", "unblock": "active", "submit": "submitted",
    "confirm": "confirmed", "mute": "muted", "unmute": "active", "hide": "hidden", "unhide": "visible",
}
#: Action verb → the field it writes (the value comes from the tool's value parameter).
FIELD_ACTIONS: dict[str, str] = {"assign": "assignee", "unassign": "assignee"}
#: Verbs that create or replace the record their key fields name.
UPSERTS = frozenset({"write", "save", "put", "store", "upload", "upsert", "set", "remember", "record"})
READ_VERBS = frozenset({"get", "list", "search", "count"})

#: Every verb word the planner reads (``archive`` is an action here, not a delete).
ALL_VERBS: dict[str, str] = {
    **VERBS, **{w: w for w in STATUS_OF}, **{w: w for w in FIELD_ACTIONS},
    **{w: "upsert" for w in UPSERTS}, "count": "count", "inspect": "get", "load": "get",
}


#: Last words of a verbless name that read one record (``drive_file_metadata(fileId)``).
IMPLIED_GET = frozenset({"info", "metadata", "details", "detail", "stats", "statistics", "status", "summary"})


def implied_shape(tool_name: str) -> Optional[ToolShape]:
    """The ``get`` a verbless name ending in :data:`IMPLIED_GET` reads as, or None.

    The noun is the words before the suffix, without a leading server word
    when there are several (``drive_file_metadata`` → ``file``); the planner
    takes it only when the server keeps that collection.

    Example:
        >>> implied_shape("drive_file_metadata").collection
        'file'
    """
    words = tokens(tool_name)
    if len(words) < 2 or words[-1] not in IMPLIED_GET or any(w in ALL_VERBS for w in words):
        return None
    noun = words[1:-1] if len(words) > 2 else words[:-1]
    if not all(w.isalpha() for w in noun) or len(noun) > 3:
        return None
    return ToolShape(verb="get", collection="_".join(noun[:-1] + [singular(noun[-1])]),
                     noun=tuple(noun[:-1] + [singular(noun[-1])]), many=False)


def is_action(verb: str) -> bool:
    """True for a verb the engine serves as a status or field change (``close``, ``assign``)."""
    return verb in STATUS_OF or verb in FIELD_ACTIONS


def full_shape(tool_name: str) -> Optional[ToolShape]:
    """:func:`~compoworld_gym.importer.patterns.shape_of` with every verb of this module.

    Example:
        >>> full_shape("close_issue").verb, full_shape("write_file").verb
        ('close', 'upsert')
    """
    return shape_of(tool_name, ALL_VERBS)
