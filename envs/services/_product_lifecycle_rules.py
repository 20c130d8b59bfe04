"""Business rules of the product lifecycle service (Arena PLM).

An item in Production (or Obsolete) is changed only through an approved
change; an item sits on one live change at a time; a change is submitted
with at least one affected item and one approver, is APPROVED once every
approver approved (one rejection rejects it), and implementing an approved
change releases each affected item at its next revision letter (A -> B;
the first release of an unreleased item is A) and sets its new phase; an
Obsolete item never goes on a new BOM line.
"""

from __future__ import annotations

from compoworld_gym.envs.services._product_lifecycle_models import LIVE_CHANGE, ChangeOrder, PlmItem
from compoworld_gym.errors import Conflict, Unprocessable

#: Phases an item leaves only through a change.
CONTROLLED = ("Production", "Obsolete")


def next_revision(rev: str) -> str:
    """The revision after ``rev``: '-' -> A, A -> B, Z -> AA."""
    if rev in ("", "-"):
        return "A"
    if rev[-1] == "Z":
        return next_revision(rev[:-1]) + "A" if rev[:-1] else "AA"
    return rev[:-1] + chr(ord(rev[-1]) + 1)


def require_editable(item: PlmItem) -> None:
    """Refuse a direct edit of a released (Production or Obsolete) item."""
    if item.lifecycle_phase in CONTROLLED:
        raise Conflict(f"item {item.number} is in {item.lifecycle_phase}; it changes only through an approved "
                       "change order (create_change).")


def require_free(item: PlmItem, changes: dict[str, ChangeOrder], skip: str = "") -> None:
    """Refuse an item already on another live change."""
    for c in changes.values():
        if c.id != skip and c.status in LIVE_CHANGE and any(a.item_id == item.id for a in c.affected_items):
            raise Conflict(f"item {item.number} is already on change {c.id} ({c.status}); finish or cancel it first.")


def require_status(change: ChangeOrder, allowed: tuple[str, ...], action: str) -> None:
    """Refuse ``action`` unless the change is in one of ``allowed``."""
    if change.status not in allowed:
        raise Conflict(f"change {change.id} is {change.status}; {action} needs {' or '.join(allowed)}.")


def require_component(component: PlmItem) -> None:
    """An obsolete item can't go on a new BOM."""
    if component.lifecycle_phase == "Obsolete":
        raise Unprocessable(f"item {component.number} is Obsolete; it cannot be added to a BOM.")
