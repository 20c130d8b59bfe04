"""Pure on-call rules: who a schedule puts on call at an instant, and who an
escalation policy pages at each level (PagerDuty's final schedule: overrides
win over layers, a later layer wins over an earlier one)."""

from __future__ import annotations

import datetime as dt
from typing import Mapping, Optional

from compoworld_gym.envs.services._on_call_models import EscalationPolicy, Schedule, ScheduleLayer


def layer_oncall(layer: ScheduleLayer, at: dt.datetime) -> Optional[tuple[str, dt.datetime, dt.datetime]]:
    """``(email, turn start, turn end)`` of the layer's user on call at ``at``, or None before its start."""
    if at < layer.rotation_virtual_start:
        return None
    turn = dt.timedelta(seconds=layer.rotation_turn_length_seconds)
    n = int((at - layer.rotation_virtual_start) // turn)
    start = layer.rotation_virtual_start + n * turn
    return layer.users[n % len(layer.users)], start, start + turn


def schedule_oncall(schedule: Schedule, at: dt.datetime) -> Optional[tuple[str, dt.datetime, dt.datetime]]:
    """``(email, start, end)`` on call in ``schedule`` at ``at``; the latest matching override wins,
    then the last layer that covers ``at``. None when nobody is."""
    for o in reversed(schedule.overrides):
        if o.start <= at < o.end:
            return o.user, o.start, o.end
    for layer in reversed(schedule.layers):
        hit = layer_oncall(layer, at)
        if hit is not None:
            return hit
    return None


def level_emails(policy: EscalationPolicy, level: int, schedules: Mapping[str, Schedule],
                 at: dt.datetime) -> list[str]:
    """Emails paged at ``level`` (1-based) of ``policy`` at ``at`` (schedules resolved to their on-call)."""
    out: list[str] = []
    for t in policy.escalation_rules[level - 1].targets:
        if t.type == "user_reference":
            out.append(t.id)
        elif t.id in schedules:
            hit = schedule_oncall(schedules[t.id], at)
            if hit is not None:
                out.append(hit[0])
    return list(dict.fromkeys(out))


def policy_members(policy: EscalationPolicy, schedules: Mapping[str, Schedule]) -> set[str]:
    """Every email the policy can page: direct users plus all users of its schedules' layers and overrides
    (lower-cased)."""
    out: set[str] = set()
    for rule in policy.escalation_rules:
        for t in rule.targets:
            if t.type == "user_reference":
                out.add(t.id.lower())
            elif t.id in schedules:
                s = schedules[t.id]
                out |= {u.lower() for layer in s.layers for u in layer.users}
                out |= {o.user.lower() for o in s.overrides}
    return out


def oncall_rows(policy: EscalationPolicy, schedules: Mapping[str, Schedule], at: dt.datetime) -> list[dict]:
    """The ``/oncalls`` entries of ``policy`` at ``at``:
    ``[{escalation_policy_id, escalation_level, user_email, schedule_id or None}]``, level 1 first."""
    return [{"escalation_policy_id": policy.id, "escalation_level": n, "user_email": e,
             "schedule_id": next((t.id for t in rule.targets if t.type == "schedule_reference"), None)}
            for n, rule in enumerate(policy.escalation_rules, start=1)
            for e in level_emails(policy, n, schedules, at)]
