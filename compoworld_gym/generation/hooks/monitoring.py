"""Monitoring in chained tasks: an incident names the affected service, the
on-call engineer and what set it off (a deploy, a feature flag); a service
names its open incident. The case's incident is annotated, or handed to the
responder a policy names."""

from __future__ import annotations

from typing import Any

from compoworld_gym.checks import OnlyChanged, RecordMatches
from compoworld_gym.envs.services._company import OPS_EMAIL
from compoworld_gym.envs.services._engineering import ENG_MANAGER, ENGINEERS, team_engineers
from compoworld_gym.envs.services.monitoring import Incident, MonitoredService, Note
from compoworld_gym.generation.context import Ctx, call
from compoworld_gym.generation.hooks.deployments import app_name, new_app_key
from compoworld_gym.generation.links import (
    next_id,
    Action, Found, Give, Need, Reader, Relay, ServiceLinks, Write, pick,
)

#: Flag keys the feature-flag hook allocates ("smart-retries-v2"), as quoted in an incident title.
FLAG_RX = r"[a-z]+(?:-[a-z]+)+-v\d+"
DEPLOY_RX = r"DPL-\d{4,}"
_TEAMS = tuple(dict.fromkeys(e.team for e in ENGINEERS))
_SYMPTOMS = ("High 5xx error rate", "p95 latency above 800 ms", "Queue backlog", "Error budget burn")


def oncall_email(ctx: Ctx) -> str:
    """A level-1 on-call engineer (the first engineer of a team)."""
    return team_engineers(ctx.rng.choice(_TEAMS))[0].email


def _backups(ctx: Ctx) -> tuple[str, str]:
    """Two responders a policy can hand an incident to: level-2 engineers or
    the engineering manager, never a level-1 on-call (the current owner)."""
    pool = sorted({team_engineers(t)[1].email for t in _TEAMS} | {ENG_MANAGER.email})
    a, b = ctx.rng.sample(pool, 2)
    return a, b


def next_incident_id(state: dict[str, Any]) -> str:
    """Take the next free incident id from monitoring's counters."""
    return next_id(state, "INC")


def ensure_service(ctx: Ctx, key: str, team: str | None = None) -> str:
    """Add a :class:`MonitoredService` ``key`` (validated) on its team's
    escalation policy unless it exists; returns the key."""
    services = ctx.state("monitoring")["services"]
    if key not in services:
        team = team or ctx.rng.choice(_TEAMS)
        services[key] = MonitoredService(id=key, name=app_name(key), team=team,
                                         escalation_policy_id=f"EP-{team.upper()}").model_dump(mode="json")
    return key


def plant_incident(state: dict[str, Any], incident_id: str, **fields: Any) -> str:
    """Add an :class:`Incident` (validated) under ``incident_id``; returns the id."""
    base = {"priority": "P2", "urgency": "high", "status": "triggered", "escalation_level": 1, "alert_ids": [],
            "resolution": ""}
    inc = Incident.model_validate({**base, **fields, "id": incident_id})
    state["incidents"][incident_id] = inc.model_dump(mode="json")
    return incident_id


def _team_of(email: str) -> str | None:
    return next((e.team for e in ENGINEERS if e.email == email), None)


def _plant(ctx: Ctx, iid: str, service: str, outs: dict[str, Any], stale: bool) -> str:
    state = ctx.state("monitoring")
    owner = outs.get("email") or oncall_email(ctx)
    ensure_service(ctx, service, _team_of(owner))
    symptom = ctx.rng.choice(_SYMPTOMS)
    flag, deploy = outs.get("flag_id"), outs.get("deployment_id")
    cause = f" after flag {flag} was turned on" if flag else f" since deploy {deploy}" if deploy else ""
    title, opened = f"{symptom}{cause}", ctx.at(-6 if stale else 0, 7)
    # The timeline holds no discovered value: a note quoting one must be new.
    note = "Paged level 1; investigating."
    fields: dict[str, Any] = {"status": "acknowledged" if ctx.rng.random() < 0.5 else "triggered"}
    if stale:
        fields = {"status": "resolved", "resolved_at": ctx.at(-6, 9),
                  "resolution": "Restarted the pods; error rate back to baseline."}
    return plant_incident(state, iid, title=title, service=service, assignee_email=owner, created_at=opened,
                          priority="P1" if "5xx" in symptom else "P2",
                          notes=[Note(author_email=owner, content=note, created_at=opened).model_dump(mode="json")],
                          **fields)


def _plant_by_id(ctx: Ctx, key: Any, outs: dict[str, Any], stale: bool) -> str:
    service = outs.get("project_id") or ctx.rng.choice(sorted(ctx.state("monitoring")["services"]))
    return _plant(ctx, key, service, outs, stale)


def _plant_of_service(ctx: Ctx, key: Any, outs: dict[str, Any], stale: bool) -> str:
    return _plant(ctx, next_incident_id(ctx.state("monitoring")), key, outs, stale)


def _alloc_service(ctx: Ctx) -> str:
    return ensure_service(ctx, new_app_key(ctx))


def _of_service(reader: Reader, key: Any) -> dict[str, Any]:
    rows = reader.read("monitoring", "list_incidents", service=key, limit=200)
    inc = pick([r for r in rows if r["status"] != "resolved"], service=key)
    return reader.read("monitoring", "get_incident", incident_id=inc["id"])


_ONCALL = Give("email", "assignee_email", "the on-call engineer's email address", "the on-call engineer",
               draw=oncall_email)

INCIDENT = Relay(
    service="monitoring", name="incident", key="incident_id",
    gives=(_ONCALL, Give("project_id", "service", "the affected service"),
           Give("flag_id", "title", "the feature flag that set the incident off", pattern=FLAG_RX),
           Give("deployment_id", "title", "the deploy suspected of causing it", pattern=DEPLOY_RX)),
    plant=_plant_by_id, find=lambda reader, key: reader.read("monitoring", "get_incident", incident_id=key),
    where="An incident in monitoring names the affected service and the on-call engineer, and says what set it off.",
    alloc=lambda ctx: next_incident_id(ctx.state("monitoring")), entry=lambda key: f"incident {key}")

SERVICE_INCIDENT = Relay(
    service="monitoring", name="open incident", key="project_id",
    gives=(Give("incident_id", "id", "the service's open incident"), _ONCALL),
    plant=_plant_of_service, find=_of_service,
    where="Monitoring files each incident under the affected service, with its on-call engineer.",
    alloc=_alloc_service, entry=lambda key: f"the open incident on {key}",
    truth="A resolved incident is over; only the service's open incident counts.")


def _scope(iid: str) -> list[OnlyChanged]:
    return [OnlyChanged(id="_", service="monitoring", collection="incidents", allow_ids=[iid],
                        description="No other incident was changed or opened.")]


def _note(reader: Reader, args: dict[str, Found]) -> Write:
    iid, mention = args["incident"].value, args["mention"]
    reader.read("monitoring", "get_incident", incident_id=iid)
    content = f"{args['case'].value}: {mention.noun} is {mention.display}."
    return Write(
        calls=[call("add_note_to_incident", incident_id=iid, user_email=OPS_EMAIL, content=content)],
        checks=[RecordMatches(id="_", service="monitoring", collection="incidents", record_id=iid,
                              where={"notes": {"$any": {"content": {"$contains": mention.display}}}},
                              description="A timeline note on the incident quotes the right value.")],
        scope=_scope(iid), tool="add_note_to_incident", where={"incident_id": iid},
        label="the note on the incident")


def _reassign(reader: Reader, args: dict[str, Found]) -> Write:
    iid, owner = args["incident"].value, args["assignee"].value
    reader.read("monitoring", "get_incident", incident_id=iid)
    return Write(
        calls=[call("reassign_incident", incident_id=iid, assignee_email=owner, user_email=OPS_EMAIL)],
        checks=[RecordMatches(id="_", service="monitoring", collection="incidents", record_id=iid,
                              where={"assignee_email": {"$ieq": owner}},
                              description="The incident is handed to the right responder.")],
        scope=_scope(iid), tool="reassign_incident", where={"incident_id": iid},
        label="the incident hand-over")


LINKS = ServiceLinks(
    service="monitoring", label="monitoring",
    relays=(INCIDENT, SERVICE_INCIDENT),
    actions=(
        Action(service="monitoring", name="note", needs=(Need("incident", "incident_id"),), build=_note,
               goal="add a note to the internal incident stating {mention}"),
        # Only a policy picks the responder: no record names one (who matches no give).
        Action(service="monitoring", name="reassign",
               needs=(Need("assignee", "email", ("the backup responder",), "responder"),
                      Need("incident", "incident_id")),
               build=_reassign, goal="hand the internal incident over to {assignee}", routable=True),
    ),
    route_values={"email": _backups},
)

__all__ = ["DEPLOY_RX", "FLAG_RX", "LINKS", "ensure_service", "next_incident_id", "oncall_email", "plant_incident"]
