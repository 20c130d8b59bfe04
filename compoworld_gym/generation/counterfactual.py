"""Counterfactual verification: is every service of the composition needed?

For each service that contributes a fact, the expected end state is derived
again with that fact changed — a record that points at the alternative
record instead, another amount — from the next hop on
(:func:`~compoworld_gym.generation.solve.solve` with ``given``: what
re-planting that record would give, since every relay's ``find`` returns what
its ``plant`` stored), and the policy is planted again with its other
threshold and the whole chain re-derived. A service
whose every change leaves the expected end state as it was is not really
needed: the task is rejected. A change that breaks the chain (the next
lookup finds nothing) counts as a change: the service's answer decided the
next lookup.

Services that only receive writes are needed by construction (the expected
end state is in them) and are reported as ``"written"``.
"""

from __future__ import annotations

import datetime as dt
from typing import Any, Optional

from compoworld_gym.generation.chain import ChainSpec, Planted, Slot, replant_policy
from compoworld_gym.generation.links import SolveError
from compoworld_gym.generation.solve import Derived, Mounts, solve


def consumed_slots(spec: ChainSpec) -> set[Slot]:
    """The slots the task's writes and policy use: what each action binds or
    quotes, and the amount the rule is read on."""
    used = {s for a in spec.actions for s in [*a.bind.values(), a.mention]}
    if spec.rule is not None:
        used.add(spec.rule.attr)
    return used


def _alternative(spec: ChainSpec, planted: Planted, slot: Slot, amount_flip: Optional[float]) -> Any:
    """The value a hop's record carries in the counterfactual world, or None
    when it cannot be changed (the record's own id)."""
    i, etype = slot[1], slot[2]
    give = spec.hops[i].relay.give(etype)
    if give is not None and give.field == "id":
        return None  # the record's own id: the next lookup or the write is keyed by this very record
    if i + 1 < len(spec.hops) and spec.hops[i + 1].relay.key == etype:
        return planted.alt_keys[i + 1]
    if etype not in spec.hops[i].outs:
        return None
    if amount_flip is not None:
        return amount_flip
    return planted.alt_values.get(slot)


def _flip(spec: ChainSpec, slot: Slot) -> Optional[float]:
    """An amount on the other side of the policy's threshold, for the policy's input."""
    rule = spec.rule
    if rule is None or rule.attr != slot:
        return None
    amount = spec.hops[slot[1]].outs["money"]
    return round(rule.threshold * (0.5 if amount >= rule.threshold else 1.5), 2)


def _changes(spec: ChainSpec, replanted: Planted, today: dt.date, original: Derived, cache: Mounts,
             hop: int = 0) -> tuple[bool, Optional[Derived]]:
    """Whether the re-planted world changes the expected end state, and the
    re-derivation (None when the chain no longer solves)."""
    try:
        again = solve(spec, replanted, today, cache, (original, hop))
    except SolveError:
        return True, None
    return again.end_state() != original.end_state(), again


def _given(spec: ChainSpec, planted: Planted, today: dt.date, slot: Slot, alt: Any, original: Derived,
           cache: Mounts, end: bytes) -> bool:
    """Whether the expected end state changes when hop ``slot[1]``'s record
    carries ``alt`` instead: re-derived from the next hop on, as re-planting
    that one record would give (the other records are as planted)."""
    try:
        again = solve(spec, planted, today, cache, (original, slot[1] + 1), {slot: alt})
        return again.end_state() != end
    except SolveError:
        return True


def counterfactual(spec: ChainSpec, base: dict[str, Any], today: dt.date, fake: Any, planted: Planted,
                   derived: Derived, cache: Optional[Mounts] = None
                   ) -> tuple[Optional[str], dict[str, str], Optional[Derived]]:
    """Check that each service's fact decides the expected end state.

    Args:
        spec: the chain.
        base: the seeded states it was planted into.
        today: the task date.
        fake: the Faker used for planting.
        planted: the original planting.
        derived: the original derivation.
        cache: mounted services shared with the original solve (see
            :class:`~compoworld_gym.generation.solve.Mounts`).

    Returns:
        ``(reason or None, {service: verdict}, flipped)`` where a verdict is
        ``"changes:<what>"``, ``"written"`` or ``"not-needed"``, and
        ``flipped`` is the derivation under the superseded policy version
        (the other branch; None without a policy or when it does not solve).
    """
    original = derived
    end = derived.end_state()
    cache = Mounts() if cache is None else cache
    consumed = consumed_slots(spec)
    verdicts: dict[str, str] = {}
    for i, hop in enumerate(spec.hops):
        service = hop.relay.service
        for give in hop.relay.gives:
            slot = ("hop", i, give.type)
            if slot not in consumed and not (i + 1 < len(spec.hops) and spec.hops[i + 1].relay.key == give.type):
                continue
            alt = _alternative(spec, planted, slot, _flip(spec, slot))
            if alt is None:  # the write targets this very record
                verdicts.setdefault(service, f"changes:{give.type}")
                continue
            if _given(spec, planted, today, slot, alt, original, cache, end):
                verdicts[service] = f"changes:{give.type}"
                break
        verdicts.setdefault(service, "not-needed")
    flipped = None
    if spec.rule is not None:
        replanted = replant_policy(spec, planted, today, fake, spec.rule.stale_threshold)
        changed, flipped = _changes(spec, replanted, today, original, cache, len(spec.hops))
        verdicts[spec.rule.holder.service] = "changes:policy" if changed else "not-needed"
    for act in spec.actions:
        verdicts.setdefault(act.action.service, "written")
    bad = sorted(s for s, v in verdicts.items() if v == "not-needed")
    return (f"counterfactual: {', '.join(bad)} not needed" if bad else None), verdicts, flipped


__all__ = ["consumed_slots", "counterfactual"]
