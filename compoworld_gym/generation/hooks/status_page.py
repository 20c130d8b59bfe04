"""The status page in chained tasks: the public incident on a service's
component links the internal incident it reports on; a public update is
posted on it, or a customer is subscribed to the page's updates."""

from __future__ import annotations

from typing import Any

from compoworld_gym.checks import OnlyChanged, RecordMatches
from compoworld_gym.envs.services._company import OPS_EMAIL
from compoworld_gym.envs.services._status_page_models import Component, StatusIncident
from compoworld_gym.generation.context import Ctx, call
from compoworld_gym.generation.hooks.deployments import app_name, engineer_email, new_app_key
from compoworld_gym.generation.links import (
    next_id,
    Action, Found, Give, Need, Reader, Relay, ServiceLinks, SolveError, Write, pick,
)


def ensure_component(ctx: Ctx, service: str) -> str:
    """The id of the :class:`Component` backed by ``service``, added
    (validated, next free ``CPT`` number) if none is; returns the id."""
    comps = ctx.state("status_page")["components"]
    for cid, comp in comps.items():
        if comp["service"] == service:
            return cid
    cid = f"CPT-{max((int(c.split('-')[1]) for c in comps), default=0) + 1:04d}"
    comps[cid] = Component(id=cid, name=app_name(service), service=service,
                           status="operational").model_dump(mode="json")
    return cid


def next_status_incident_id(state: dict[str, Any]) -> str:
    """Take the next free public incident id from the page's counters."""
    return next_id(state, "SPI")


def plant_status_incident(state: dict[str, Any], **fields: Any) -> str:
    """Add a :class:`StatusIncident` (validated) with the next free id; an
    unresolved one puts its components in partial outage. Returns the id."""
    iid = next_status_incident_id(state)
    inc = StatusIncident.model_validate({"impact": "major", "linked_incident_id": None, **fields, "id": iid})
    state["incidents"][iid] = inc.model_dump(mode="json")
    if inc.status != "resolved":
        for cid in inc.component_ids:
            state["components"][cid]["status"] = "partial_outage"
    return iid


def _plant(ctx: Ctx, key: Any, outs: dict[str, Any], stale: bool) -> str:
    cid = ensure_component(ctx, key)
    author, when = outs.get("email") or engineer_email(ctx), ctx.at(-8 if stale else 0, 7)
    ups = [{"status": "investigating", "body": f"We are investigating errors in {app_name(key)}.",
            "author_email": author, "created_at": when},
           {"status": "identified", "body": "The cause was identified; a fix is rolling out.",
            "author_email": author, "created_at": ctx.at(-8 if stale else 0, 8)}]
    extra: dict[str, Any] = {"status": "identified"}
    if stale:
        ups.append({"status": "resolved", "body": "The issue is resolved.", "author_email": author,
                    "created_at": ctx.at(-8, 10)})
        extra = {"status": "resolved", "resolved_at": ctx.at(-8, 10)}
    return plant_status_incident(ctx.state("status_page"), name=f"Elevated error rates on {app_name(key)}",
                                 component_ids=[cid], linked_incident_id=outs.get("incident_id"),
                                 created_at=when, updates=ups, **extra)


def _alloc(ctx: Ctx) -> str:
    key = new_app_key(ctx)
    ensure_component(ctx, key)
    return key


def _find(reader: Reader, key: Any) -> dict[str, Any]:
    cid = pick(reader.read("status_page", "list_components"), service=key)["id"]
    rows = [r for r in reader.read("status_page", "list_status_incidents", unresolved_only=True, limit=100)
            if cid in r["component_ids"]]
    if len(rows) != 1:
        raise SolveError(f"{len(rows)} unresolved public incidents affect {cid}")
    return reader.read("status_page", "get_status_incident", incident_id=rows[0]["id"])


PUBLIC_INCIDENT = Relay(
    service="status_page", name="public incident", key="project_id",
    gives=(Give("incident_id", "linked_incident_id", "the internal incident it reports on"),
           Give("email", "updates.0.author_email", "the email address of the engineer who opened it",
                "the engineer who opened the public incident", draw=engineer_email)),
    plant=_plant, find=_find, alloc=_alloc, entry=lambda key: f"the public status-page incident on {key}",
    where="The status page files each public incident under the component a service backs, and links the "
          "internal incident it reports on.",
    truth="A resolved public incident is history; only the component's unresolved incident counts.")


def _post(reader: Reader, args: dict[str, Found]) -> Write:
    mention = args["mention"]
    spi = _find(reader, args["service"].value)["id"]
    body = f"Update on {args['case'].value}: {mention.noun} is {mention.display}. We continue to monitor."
    return Write(
        calls=[call("post_incident_update", incident_id=spi, status="monitoring", body=body, author_email=OPS_EMAIL)],
        checks=[RecordMatches(id="_", service="status_page", collection="incidents", record_id=spi,
                              where={"status": "monitoring",
                                     "updates": {"$any": {"status": "monitoring",
                                                          "body": {"$contains": mention.display}}}},
                              description="The public incident got a monitoring update quoting the right value.")],
        scope=[OnlyChanged(id="_", service="status_page", collection="incidents", allow_ids=[spi],
                           description="No other public incident was changed or opened.")],
        tool="post_incident_update", where={"incident_id": spi}, label="the public status update")


def _prepare(ctx: Ctx, values: dict[str, Any]) -> None:
    state, cid = ctx.state("status_page"), ensure_component(ctx, values["service"])
    if not any(cid in i["component_ids"] and i["status"] != "resolved" for i in state["incidents"].values()):
        _plant(ctx, values["service"], {}, False)


def _subscribe(reader: Reader, args: dict[str, Found]) -> Write:
    email = args["customer"].value
    reader.read("status_page", "list_subscribers")
    return Write(
        calls=[call("add_subscriber", email=email)],
        checks=[RecordMatches(id="_", service="status_page", collection="subscribers", record_id=email.lower(),
                              where={"email": {"$ieq": email}, "component_ids": []},
                              description="The right customer gets every status-page update.")],
        scope=[OnlyChanged(id="_", service="status_page", collection="subscribers",
                           allow_new={"email": {"$ieq": email}}, description="Nobody else was subscribed.")],
        tool="add_subscriber", where={"email": email}, label="the status-page subscription")


def _prepare_subscribe(ctx: Ctx, values: dict[str, Any]) -> None:
    ctx.state("status_page")["subscribers"].pop(values["customer"].lower(), None)  # not subscribed yet


LINKS = ServiceLinks(
    service="status_page", label="the status page",
    relays=(PUBLIC_INCIDENT,),
    actions=(Action(service="status_page", name="update", needs=(Need("service", "project_id", noun="service"),),
                    build=_post, prepare=_prepare,
                    goal="post a public update with status 'monitoring' on the status-page incident about "
                         "{service}, quoting {mention}"),
             Action(service="status_page", name="subscribe", needs=(Need("customer", "email", ("the customer",)),),
                    build=_subscribe, prepare=_prepare_subscribe,
                    goal="subscribe {customer} to every status-page update")),
)

__all__ = ["LINKS", "ensure_component", "next_status_incident_id", "plant_status_incident"]
