"""Reasoning tools: a journal the engine keeps, as the real servers do.

``sequentialthinking``, ``think``, ``mentalmodel``, ``log_decision`` and the
like take the agent's own thought (and its bookkeeping: a number, a total,
a branch) and keep it for the rest of the session; what they answer is
the record of it and how long the history now is. Nothing of the outside
world is involved, so the engine serves them: each call appends one entry
``{tool, entry, arguments}`` to the service's journal and answers with the
entry; ``clear_thoughts``-style tools empty it. The journal starts empty.
"""

from __future__ import annotations

import re
from typing import Any

from compoworld_gym.importer.keys import is_auth
from compoworld_gym.importer.names import tokens
from compoworld_gym.importer.patterns import Collection, ResourceOp

JOURNAL = "journal_entry"
#: Squashed-name fragments of reasoning tools.
_NAME_PARTS = ("think", "thought", "reason", "reflect", "mentalmodel", "socratic", "argument",
               "scientificmethod", "wisdom", "brainstorm", "metacognit", "decision", "chainofdraft",
               "debuggingapproach", "analogical", "hypothes", "critique", "creativ")
_DESCRIBED = re.compile(r"\b(think\w*|thoughts?|reasoning|reflect\w*|mental models?|problem[- ]solving|"
                        r"metacognit\w*|brainstorm\w*|decision log)\b")
_CLEAR = frozenset({"clear", "reset"})
_FIELDS = {"tool": {"type": "string", "description": "The reasoning tool called."},
           "entry": {"type": "integer", "description": "1-based position in the session's journal."},
           "arguments": {"type": "object", "description": "What the agent wrote (the call's arguments)."}}


def journal_kind(tool: str, description: str, schema: dict[str, Any]) -> str | None:
    """``"journal"`` (append), ``"journal_clear"`` or None for any other tool.

    A reasoning tool is named or described as thinking; it must take
    parameters (the thought) unless it clears the journal.
    """
    words = tokens(tool)
    squashed = "".join(words)
    named = any(part in squashed for part in _NAME_PARTS)
    first = " ".join((description or "").split()).lower().split(". ", 1)[0]
    if not named:
        return None
    if _CLEAR & set(words):
        return "journal_clear"
    props = schema.get("properties")
    return "journal" if isinstance(props, dict) and props else None


def add_journal_ops(collections: dict[str, Collection], ops: dict[str, ResourceOp], reasons: dict[str, str],
                    schemas: dict[str, dict[str, Any]], descriptions: dict[str, str], candidates: set[str]) -> None:
    """Serve the reasoning tools among ``candidates`` (simulated for want of a
    resource pattern) from a journal collection (mutates the dicts)."""
    kinds = {t: journal_kind(t, descriptions.get(t, ""), schemas[t]) for t in sorted(candidates) if t in reasons}
    kinds = {t: k for t, k in kinds.items() if k is not None}
    if "journal" not in kinds.values():
        return  # a lone "clear" tool has no journal to clear
    collections[JOURNAL] = Collection(name=JOURNAL, field="", noun=("journal", "entry"), properties=dict(_FIELDS),
                                      required=set(_FIELDS), open=False, journal=True,
                                      creators=[t for t, k in kinds.items() if k == "journal"])
    for tool, kind in kinds.items():
        ops[tool] = ResourceOp(kind, JOURNAL)
        del reasons[tool]


def _entries(service: Any, coll: Collection) -> dict[str, Any]:
    return getattr(service.state, coll.field)


def append_entry(service: Any, op: ResourceOp, coll: Collection, args: dict[str, Any], *, tool: str) -> Any:
    """Append ``args`` (credentials dropped) as the next entry; ``{"entry", "history_length", "recorded"}``."""
    from compoworld_gym.importer.engine import insert

    store = _entries(service, coll)
    written = {k: v for k, v in args.items() if not is_auth(k)}
    number = len(store) + 1
    insert(service, coll, {"tool": tool, "entry": number, "arguments": written})
    return {"entry": number, "history_length": len(store), "recorded": written}


def clear_entries(service: Any, op: ResourceOp, coll: Collection, args: dict[str, Any]) -> Any:
    """Empty the journal; ``{"cleared": n}``."""
    store = _entries(service, coll)
    cleared = len(store)
    store.clear()
    return {"cleared": cleared}
