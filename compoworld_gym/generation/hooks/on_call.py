"""On-call in chained tasks: a technical service (keyed like the deploy
projects) names who is on call for it now, its escalation policy and
schedule; a service names its open incident and the responder assigned; an
incident names its service and assignee. The case's incident gets a note, is
handed to the incident commander a policy names, or is resolved with a
resolution quoting a discovered value."""

from __future__ import annotations

import datetime as dt
from typing import Any

from compoworld_gym.checks import OnlyChanged, RecordMatches
from compoworld_gym.envs.services._company import OPS_EMAIL
from compoworld_gym.envs.services._engineering import ENGINEERS
from compoworld_gym.envs.services._on_call_models import (
    EscalationPolicy, EscalationRule, EscalationTarget, IncidentNote, OnCallIncident, OnCallUser, Schedule,
    ScheduleLayer, ScheduleOverride, TechnicalService,
)
from compoworld_gym.envs.services._on_call_seed import INCIDENT_COMMANDERS, WEEK
from compoworld_gym.generation.context import Ctx, call
from compoworld_gym.generation.hooks.deployments import app_name, new_app_key
from compoworld_gym.generation.hooks.hr_directory import name_from_email
from compoworld_gym.generation.links import (
    Action, Found, Give, Need, Reader, Relay, ServiceLinks, SolveError, Write, next_id, pick,
)

SERVICE = "on_call"
#: Responders the level-1 rotation can hold: every engineer but the senior SRE (an incident commander).
RESPONDERS = tuple(e.email for e in ENGINEERS if e.email not in INCIDENT_COMMANDERS)
_SYMPTOMS = ("High 5xx error rate", "p95 latency above 800 ms", "Queue backlog growing", "Health check failing")


def responder_email(ctx: Ctx) -> str:
    """An engineer who takes level-1 turns (never an incident commander)."""
    return ctx.rng.choice(RESPONDERS)


def _dump(record: Any) -> dict[str, Any]:
    return record.model_dump(mode="json")


def ensure_user(state: dict[str, Any], email: str) -> None:
    """Add a responder :class:`OnCallUser` for ``email`` unless the account has one."""
    if any(u["email"].lower() == email.lower() for u in state["users"].values()):
        return
    uid = next_id(state, "PU")
    team = next((e.team for e in ENGINEERS if e.email == email), "platform")
    state["users"][uid] = _dump(OnCallUser(id=uid, name=name_from_email(email), email=email, role="responder",
                                           team=team))


def _rotation(ctx: Ctx, oncall: str) -> ScheduleLayer:
    """A weekly layer whose turn now (this week, started Monday 09:00) is ``oncall``'s."""
    other = next(e for e in RESPONDERS if e != oncall)
    monday = dt.datetime.combine(ctx.today - dt.timedelta(days=ctx.today.weekday()), dt.time(9, 0))
    return ScheduleLayer(name="Primary weekly", users=[oncall, other],
                         rotation_virtual_start=monday - dt.timedelta(weeks=2), rotation_turn_length_seconds=WEEK)


def ensure_service(ctx: Ctx, key: str, oncall: str | None = None) -> dict[str, Any]:
    """Give service ``key`` its own schedule and policy (added unless planted before), with ``oncall``
    on the rotation's current turn when given; returns the service record (a JSON dict)."""
    state = ctx.state(SERVICE)
    svc = state["services"].get(key)
    sid = None
    if svc is not None:
        first = state["policies"][svc["escalation_policy_id"]]["escalation_rules"][0]["targets"][0]["id"]
        sid = first if state["schedules"].get(first, {}).get("name") == f"{app_name(key)} primary" else None
    oncall = oncall or responder_email(ctx)
    for email in (oncall, *INCIDENT_COMMANDERS):
        ensure_user(state, email)
    if sid is not None:  # planted before: only move the rotation's current turn
        state["schedules"][sid]["layers"] = [_dump(_rotation(ctx, oncall))]
        return svc
    sid, pid = next_id(state, "PS"), next_id(state, "PE")
    state["schedules"][sid] = _dump(Schedule(id=sid, name=f"{app_name(key)} primary", layers=[_rotation(ctx, oncall)]))
    rules = [EscalationRule(escalation_delay_in_minutes=15, targets=[EscalationTarget(type="schedule_reference",
                                                                                      id=sid)]),
             EscalationRule(escalation_delay_in_minutes=30, targets=[
                 EscalationTarget(type="user_reference", id=e) for e in INCIDENT_COMMANDERS])]
    state["policies"][pid] = _dump(EscalationPolicy(id=pid, name=f"{app_name(key)} escalation", escalation_rules=rules))
    team = next((e.team for e in ENGINEERS if e.email == oncall), "platform")
    state["services"][key] = _dump(TechnicalService(id=key, name=app_name(key), team=team, escalation_policy_id=pid))
    return state["services"][key]


def _plant_oncall(ctx: Ctx, key: Any, outs: dict[str, Any], stale: bool) -> str:
    state = ctx.state(SERVICE)
    if not stale:
        return ensure_service(ctx, key, outs.get("email"))["id"]
    # A cover that ended yesterday: it no longer decides who is on call.
    svc = state["services"].get(key) or ensure_service(ctx, key)
    sid = state["policies"][svc["escalation_policy_id"]]["escalation_rules"][0]["targets"][0]["id"]
    who = outs.get("email") or responder_email(ctx)
    ensure_user(state, who)
    state["schedules"][sid]["overrides"].append(_dump(ScheduleOverride(
        id=next_id(state, "PO"), user=who, start=ctx.at(-3, 9), end=ctx.at(-1, 9))))
    return key


def _find_oncall(reader: Reader, key: Any) -> dict[str, Any]:
    svc = reader.read(SERVICE, "get_technical_service", service_id=key)
    rows = reader.read(SERVICE, "list_oncalls", escalation_policy_id=svc["escalation_policy_id"])
    return pick([r for r in rows if r["escalation_level"] == 1])


def next_incident_id(state: dict[str, Any]) -> str:
    """Take the next free incident id (``PI-0001``) from on_call's counters."""
    return next_id(state, "PI")


def plant_incident(ctx: Ctx, iid: str, service: str, assignee: str, stale: bool) -> str:
    """Add an :class:`OnCallIncident` ``iid`` on ``service`` (validated), open or (``stale``) resolved."""
    state = ctx.state(SERVICE)
    svc = ensure_service(ctx, service) if service not in state["services"] else state["services"][service]
    ensure_user(state, assignee)
    number = state["counters"].get("incident_number", 1)
    state["counters"]["incident_number"] = number + 1
    opened = ctx.at(-5 if stale else 0, 7)
    note = IncidentNote(id=next_id(state, "PN"), user_email=assignee, created_at=opened,
                        content="Paged; investigating.")  # quotes no discovered value: a note must be new
    inc = OnCallIncident(id=iid, incident_number=number, title=f"{ctx.rng.choice(_SYMPTOMS)} on {service}",
                         service_id=service, escalation_policy_id=svc["escalation_policy_id"],
                         status="resolved" if stale else ctx.rng.choice(("triggered", "acknowledged")),
                         urgency="high", assignee_email=assignee, escalation_level=1, created_at=opened,
                         notes=[note], resolved_at=ctx.at(-5, 9) if stale else None,
                         resolution="Restarted the workers; queue drained." if stale else "")
    state["incidents"][iid] = _dump(inc)
    return iid


def _alloc_service(ctx: Ctx) -> str:
    taken = ctx.__dict__.setdefault("_app_keys", set())
    taken |= set(ctx.state(SERVICE)["services"])
    return new_app_key(ctx)


def _plant_by_id(ctx: Ctx, key: Any, outs: dict[str, Any], stale: bool) -> str:
    service = outs.get("project_id") or ctx.rng.choice(sorted(ctx.state(SERVICE)["services"]))
    return plant_incident(ctx, key, service, outs.get("email") or responder_email(ctx), stale)


def _plant_of_service(ctx: Ctx, key: Any, outs: dict[str, Any], stale: bool) -> str:
    return plant_incident(ctx, next_incident_id(ctx.state(SERVICE)), key,
                          outs.get("email") or responder_email(ctx), stale)


def _of_service(reader: Reader, key: Any) -> dict[str, Any]:
    rows = reader.read(SERVICE, "list_incidents", service_id=key, limit=100)
    inc = pick([r for r in rows if r["status"] != "resolved"], service_id=key)
    return reader.read(SERVICE, "get_incident", incident_id=inc["id"])


_ASSIGNEE = Give("email", "assignee_email", "the assigned responder's email address", "the on-call engineer",
                 draw=responder_email)

SERVICE_ONCALL = Relay(
    service=SERVICE, name="on-call engineer", key="project_id",
    gives=(Give("email", "user_email", "the on-call engineer's email address", "the on-call engineer",
                draw=responder_email),
           Give("escalation_policy_id", "escalation_policy_id", "the service's escalation policy"),
           Give("oncall_schedule_id", "schedule_id", "the service's on-call schedule")),
    plant=_plant_oncall, find=_find_oncall,
    where="The on-call tool pages each technical service's escalation policy; level 1 is whoever its "
          "schedule puts on call now.",
    alloc=_alloc_service, entry=lambda key: f"the on-call engineer for {key}",
    truth="A schedule override that has ended is history; only who is on call now counts.")

INCIDENT = Relay(
    service=SERVICE, name="on-call incident", key="incident_id",
    gives=(_ASSIGNEE, Give("project_id", "service_id", "the affected service")),
    plant=_plant_by_id, find=lambda reader, key: reader.read(SERVICE, "get_incident", incident_id=key),
    where="An incident in the on-call tool names the affected service and the responder assigned to it.",
    alloc=lambda ctx: next_incident_id(ctx.state(SERVICE)), entry=lambda key: f"on-call incident {key}")

SERVICE_INCIDENT = Relay(
    service=SERVICE, name="open on-call incident", key="project_id",
    gives=(Give("incident_id", "id", "the service's open on-call incident"), _ASSIGNEE),
    plant=_plant_of_service, find=_of_service,
    where="The on-call tool files each incident under the affected service, with the responder assigned.",
    alloc=_alloc_service, entry=lambda key: f"the open on-call incident on {key}",
    truth="A resolved incident is over; only the service's open incident counts.")


def _scope(iid: str, paths: list[str], grows: str) -> list[OnlyChanged]:
    """Only incident ``iid`` changes, only at ``paths``, and its list ``grows`` gains one item."""
    return [OnlyChanged(id="_", service=SERVICE, collection="incidents", allow_ids=[iid], allow_paths={iid: paths},
                        max_added={grows: 1}, description="No other on-call incident was changed or opened.")]


def _matches(iid: str, where: dict[str, Any], what: str) -> RecordMatches:
    return RecordMatches(id="_", service=SERVICE, collection="incidents", record_id=iid, where=where,
                         description=what)


def _note(reader: Reader, args: dict[str, Found]) -> Write:
    iid, mention = args["incident"].value, args["mention"]
    reader.read(SERVICE, "get_incident", incident_id=iid)
    content = f"{args['case'].value}: {mention.noun} is {mention.display}."
    return Write(
        calls=[call("add_note_to_incident", incident_id=iid, user_email=OPS_EMAIL, content=content)],
        checks=[_matches(iid, {"notes": {"$any": {"content": {"$contains": mention.display}}}},
                         "A note on the on-call incident quotes the right value.")],
        scope=_scope(iid, [], "notes"), tool="add_note_to_incident", where={"incident_id": iid},
        label="the note on the on-call incident")


def _reassign(reader: Reader, args: dict[str, Found]) -> Write:
    iid, owner = args["incident"].value, args["assignee"].value
    inc = reader.read(SERVICE, "get_incident", incident_id=iid)
    if inc["assignee_email"].lower() == str(owner).lower():
        raise SolveError(f"incident {iid} is already assigned to {owner}")
    return Write(
        calls=[call("reassign_incident", incident_id=iid, assignee_email=owner, from_email=OPS_EMAIL)],
        checks=[_matches(iid, {"assignee_email": {"$ieq": owner}}, "The incident is handed to the right responder.")],
        scope=_scope(iid, ["assignee_email"], "log_entries"), tool="reassign_incident", where={"incident_id": iid},
        label="the on-call incident hand-over")


def _resolve(reader: Reader, args: dict[str, Found]) -> Write:
    iid, mention = args["incident"].value, args["mention"]
    inc = reader.read(SERVICE, "get_incident", incident_id=iid)
    if inc["status"] == "resolved":
        raise SolveError(f"incident {iid} is already resolved")
    text = f"{args['case'].value}: resolved; {mention.noun} was {mention.display}."
    return Write(
        calls=[call("resolve_incident", incident_id=iid, from_email=OPS_EMAIL, resolution=text)],
        checks=[_matches(iid, {"status": "resolved", "resolution": {"$contains": mention.display}},
                         "The on-call incident is resolved, its resolution quoting the right value.")],
        scope=_scope(iid, ["status", "resolved_at", "resolution"], "log_entries"), tool="resolve_incident",
        where={"incident_id": iid}, label="the resolution of the on-call incident")


def _commanders(ctx: Ctx) -> tuple[str, str]:
    """The two incident commanders (last level of every policy), in a seeded order."""
    a, b = ctx.rng.sample(INCIDENT_COMMANDERS, 2)
    return a, b


LINKS = ServiceLinks(
    service=SERVICE, label="the on-call tool",
    relays=(SERVICE_ONCALL, INCIDENT, SERVICE_INCIDENT),
    actions=(
        Action(service=SERVICE, name="note", needs=(Need("incident", "incident_id"),), build=_note,
               goal="add a note to the on-call incident stating {mention}"),
        # Only a policy picks the commander: both are members of every escalation policy.
        Action(service=SERVICE, name="reassign",
               needs=(Need("assignee", "email", ("the incident commander",), "incident commander"),
                      Need("incident", "incident_id")),
               build=_reassign, goal="hand the on-call incident over to {assignee}", routable=True),
        Action(service=SERVICE, name="resolve", needs=(Need("incident", "incident_id"),), build=_resolve,
               goal="resolve the on-call incident, quoting {mention} in its resolution"),
    ),
    route_values={"email": _commanders},
)

__all__ = ["LINKS", "RESPONDERS", "ensure_service", "ensure_user", "next_incident_id", "plant_incident",
           "responder_email"]
