"""What a write does to the case's matter: wind it down or move it on.

A generated task's writes must not work against each other. The effect of an
action is read from the verbs of its name, so a new service's ``cancel`` or
``approve`` action is classified without a declaration.

Example:
    >>> from compoworld_gym.generation.hooks import available_links
    >>> links = available_links()
    >>> [effect_of(a) for a in links["pharmacy"].actions]
    ['advances', 'ends', None]
"""

from __future__ import annotations

import re
from typing import Iterable, Optional

from compoworld_gym.generation.links import Action

#: Verbs of writes that wind the case's matter down, and of writes that move it on
#: (matched against the words of :attr:`Action.name`). A task never asks for both: a
#: prescription is not cancelled while its prior authorization is resubmitted, a SKU
#: not written off while stock of it is reserved.
ENDING_VERBS = frozenset({"cancel", "void", "revoke", "withdraw", "reject", "lose", "kill", "retract", "unpublish",
                          "pull", "deprecate", "write_off", "disable", "unschedule", "downgrade", "hide", "hold",
                          "deactivate", "discontinue", "scrap", "unsubscribe", "stop", "untarget"})
ADVANCING_VERBS = frozenset({"approve", "pay", "fund", "resubmit", "appeal", "renew", "extend", "dispense", "publish",
                             "dispatch", "confirm", "book", "reserve", "build", "start", "receive", "pick", "release",
                             "settle", "rerun", "hotfix", "engage", "enroll", "onboard", "showing", "payout",
                             "reimburse", "commit", "invoice", "arrive", "reroute", "preheat", "unsuspend", "restart",
                             "retry", "rebuild", "rework", "certify", "clear"})


def effect_of(action: Action) -> Optional[str]:
    """``"ends"``, ``"advances"`` or None for an action, from the verbs of its name
    (``"write_off"`` ends, ``"extend_lock"`` advances, ``"note"`` neither), unless
    the action declares its :attr:`~compoworld_gym.generation.links.Action.effect`."""
    if action.effect is not None:
        return None if action.effect == "neither" else action.effect
    name = action.name.casefold()
    words = {name, *re.split(r"[_\s-]+", name)}
    if words & ENDING_VERBS and not words & ADVANCING_VERBS:
        return "ends"
    return "advances" if words & ADVANCING_VERBS else None


def undoes(action: Action, chosen: Iterable[Action]) -> bool:
    """Whether ``action`` works against one of ``chosen`` (one ends the matter, the other moves it on)."""
    mine = effect_of(action)
    return mine is not None and any({mine, effect_of(a)} == {"ends", "advances"} for a in chosen)


__all__ = ["ADVANCING_VERBS", "ENDING_VERBS", "effect_of", "undoes"]
