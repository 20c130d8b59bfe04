"""Seed factory of the ``on_call`` service: the engineering roster as users,
one weekly rotation and escalation policy per team, the fixed apps as
technical services, and a few incidents in every status."""

from __future__ import annotations

import datetime as dt
import random

from compoworld_gym.envs.services._blocks import day_start, seed_id
from compoworld_gym.envs.services._company import OPS_EMAIL, STAFF
from compoworld_gym.envs.services._engineering import APPS, ENG_MANAGER, ENGINEERS, team_engineers
from compoworld_gym.envs.services._on_call_models import (
    EscalationPolicy, EscalationRule, EscalationTarget, IncidentNote, LogEntry, OnCallIncident, OnCallState,
    OnCallUser, Schedule, ScheduleLayer, TechnicalService,
)
from compoworld_gym.envs.services._on_call_rules import schedule_oncall

WEEK = 7 * 24 * 3600
#: The last escalation level of every policy: the engineering manager and the senior SRE.
INCIDENT_COMMANDERS = (ENG_MANAGER.email, ENGINEERS[0].email)
#: Staff who hold read-only (observer) seats: they can see incidents but are never paged.
OBSERVERS = tuple(s for s in STAFF if s.team in ("support", "customer_success"))[:2]
_TITLES = ("High 5xx error rate", "p95 latency above 800 ms", "Queue backlog growing", "Error budget burn",
           "Health check failing", "Database connection pool exhausted")


def team_keys() -> list[str]:
    """Engineering team keys, roster order."""
    return list(dict.fromkeys(e.team for e in ENGINEERS))


def team_policy(state: OnCallState, team: str, schedule_id: str) -> EscalationPolicy:
    """A new policy for ``team``: level 1 the schedule, level 2 the team's engineers, level 3 the incident commanders."""
    crew = [e.email for e in team_engineers(team)]
    rules = [EscalationRule(escalation_delay_in_minutes=15,
                            targets=[EscalationTarget(type="schedule_reference", id=schedule_id)]),
             EscalationRule(escalation_delay_in_minutes=20,
                            targets=[EscalationTarget(type="user_reference", id=e) for e in crew]),
             EscalationRule(escalation_delay_in_minutes=30,
                            targets=[EscalationTarget(type="user_reference", id=e) for e in INCIDENT_COMMANDERS])]
    return EscalationPolicy(id=seed_id(state, "PE"), name=f"{team.title()} escalation", escalation_rules=rules,
                            num_loops=1)


def _users(state: OnCallState) -> None:
    people = [(e.name, e.email, "responder", e.team) for e in ENGINEERS]
    people += [(ENG_MANAGER.name, ENG_MANAGER.email, "manager", ENG_MANAGER.team),
               ("Operations Desk", OPS_EMAIL, "manager", "operations")]
    people += [(s.name, s.email, "observer", s.team) for s in OBSERVERS]
    for name, email, role, team in people:
        uid = seed_id(state, "PU")
        state.users[uid] = OnCallUser(id=uid, name=name, email=email, role=role, team=team)


def build_on_call_seed(rng: random.Random, today: dt.date) -> OnCallState:
    """The seeded state (see the module docstring); same ``(rng seed, today)`` → same state."""
    state = OnCallState()
    _users(state)
    monday = day_start(today - dt.timedelta(days=today.weekday()))
    team_policy_ids: dict[str, str] = {}
    for team in team_keys():
        crew = [e.email for e in team_engineers(team)]
        rng.shuffle(crew)  # which engineer is on call this week varies per seed
        sid = seed_id(state, "PS")
        state.schedules[sid] = Schedule(id=sid, name=f"{team.title()} primary", layers=[ScheduleLayer(
            name="Primary weekly", users=crew, rotation_virtual_start=monday - dt.timedelta(weeks=4),
            rotation_turn_length_seconds=WEEK)])
        policy = team_policy(state, team, sid)
        state.policies[policy.id] = policy
        team_policy_ids[team] = policy.id
    for app in APPS:
        state.services[app.key] = TechnicalService(id=app.key, name=app.name, team=app.team,
                                                   escalation_policy_id=team_policy_ids[app.team])
    _incidents(state, rng, today)
    return state


def _incidents(state: OnCallState, rng: random.Random, today: dt.date) -> None:
    start = day_start(today)
    for n, status in enumerate(("resolved", "resolved", "acknowledged", "triggered", "triggered"), start=1):
        app = rng.choice(APPS)
        svc = state.services[app.key]
        when = start - dt.timedelta(minutes=rng.randint(30, 2880) if status != "resolved" else rng.randint(3000, 9000))
        policy = state.policies[svc.escalation_policy_id]
        sched = state.schedules[policy.escalation_rules[0].targets[0].id]
        hit = schedule_oncall(sched, when)
        who = hit[0] if hit else ENG_MANAGER.email
        title = f"{rng.choice(_TITLES)} on {app.key}"
        iid = seed_id(state, "PI")
        inc = OnCallIncident(id=iid, incident_number=n, title=title, service_id=svc.id,
                             escalation_policy_id=policy.id, status="triggered",
                             urgency="high" if rng.random() < 0.7 else "low", assignee_email=who,
                             escalation_level=1, created_at=when,
                             log_entries=[LogEntry(type="trigger_log_entry", summary=f"Triggered: {title}",
                                                   agent_email=who, created_at=when)])
        if status != "triggered":
            inc.status, inc.acknowledged_at = "acknowledged", when + dt.timedelta(minutes=4)
            inc.notes.append(IncidentNote(id=seed_id(state, "PN"), user_email=who, created_at=inc.acknowledged_at,
                                          content="Looking into it; checking the latest deploy."))
        if status == "resolved":
            inc.status, inc.resolved_at = "resolved", when + dt.timedelta(minutes=rng.randint(20, 90))
            inc.resolution = "Rolled back the latest deploy; error rate back to baseline."
        state.incidents[iid] = inc
    state.counters["incident_number"] = len(state.incidents) + 1
