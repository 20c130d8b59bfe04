"""The APISIX gateway in chained tasks: a route names the service it fronts
(its ``app`` label: the deploy project, monitored service and status-page
service key) and the engineer who owns it; a service's published route is
found by that key; a partner company's API consumer names its technical
contact. The case's route is disabled with a reason, or a partner company
is registered as an API consumer."""

from __future__ import annotations

import datetime as dt
from typing import Any

from compoworld_gym.checks import OnlyChanged, RecordMatches
from compoworld_gym.envs.services._apisix_models import GATEWAY_HOST, Consumer, Credential, Route, Upstream
from compoworld_gym.envs.services._apisix_seed import epoch, slug
from compoworld_gym.generation.context import Ctx, call
from compoworld_gym.generation.hooks.deployments import engineer_email, new_app_key
from compoworld_gym.generation.links import (
    Action, Found, Give, Need, Reader, Relay, ServiceLinks, SolveError, Write, pick,
)

SERVICE = "apisix"


def _stamp(ctx: Ctx, days: int) -> int:
    """Unix seconds of ``days`` from the task's today at 11:00."""
    return epoch(dt.datetime.fromisoformat(ctx.at(days, 11)))


def next_route_id(state: dict[str, Any]) -> str:
    """Take the next free route id from the gateway's counters (as the service does)."""
    n = state["counters"].get("routes", 1)
    while str(n) in state["routes"]:
        n += 1
    state["counters"]["routes"] = n + 1
    return str(n)


def ensure_upstream(ctx: Ctx, app: str) -> str:
    """The id of the upstream named ``app``, planted (validated, two nodes) if missing."""
    state = ctx.state(SERVICE)
    for uid, up in state["upstreams"].items():
        if up["name"] == app:
            return uid
    uid = str(max(int(k) for k in state["upstreams"] if k.isdigit()) + 1)
    net = ctx.rng.randint(40, 90)
    nodes = [{"host": f"10.{net}.{ctx.rng.randint(0, 9)}.{ctx.rng.randint(10, 250)}", "port": 8080, "weight": 100}
             for _ in range(2)]
    made = _stamp(ctx, -60)
    state["upstreams"][uid] = Upstream(id=uid, name=app, desc=f"{app} production pods", nodes=nodes,
                                       labels={"app": app}, create_time=made, update_time=made
                                       ).model_dump(mode="json")
    return uid


def plant_route(ctx: Ctx, route_id: str, app: str, owner: str, *, published: bool = True) -> str:
    """Add a :class:`Route` (validated) for ``app`` owned by ``owner``; returns its id."""
    upstream = ensure_upstream(ctx, app)
    made = _stamp(ctx, -40 if published else -90)
    route = Route(id=route_id, name=f"{app}-public" if published else f"{app}-legacy",
                  desc=f"Public {app} endpoints" if published else f"Retired {app} endpoints",
                  uri=f"/api/{app}/*" if published else f"/v1/{app}/*", methods=["GET", "POST"],
                  hosts=[GATEWAY_HOST], upstream_id=upstream, status=1 if published else 0,
                  labels={"app": app, "owner": owner, "env": "production"}, create_time=made, update_time=made)
    ctx.state(SERVICE)["routes"][route_id] = route.model_dump(mode="json")
    return route_id


def _plant_by_id(ctx: Ctx, key: Any, outs: dict[str, Any], stale: bool) -> str:
    app = outs.get("project_id") or new_app_key(ctx)
    return plant_route(ctx, key, app, outs.get("email") or engineer_email(ctx))


def _plant_of_app(ctx: Ctx, key: Any, outs: dict[str, Any], stale: bool) -> str:
    rid = next_route_id(ctx.state(SERVICE))
    return plant_route(ctx, rid, key, outs.get("email") or engineer_email(ctx), published=not stale)


def _route(reader: Reader, key: Any) -> dict[str, Any]:
    return reader.read(SERVICE, "get_resource", type="routes", id=key)["value"]


def _route_of_app(reader: Reader, key: Any) -> dict[str, Any]:
    rows = reader.read(SERVICE, "get_resource", type="routes", labels={"app": key}, page_size=500)["list"]
    return _route(reader, pick([r["value"] for r in rows if r["value"]["status"] == 1], status=1)["id"])


def plant_partner(ctx: Ctx, company: str, contact: str) -> str:
    """Add a partner :class:`Consumer` for ``company`` (validated, one key-auth key); returns its username."""
    user = slug(company)
    made = _stamp(ctx, -30)
    key = f"{ctx.rng.getrandbits(64):016x}"
    consumer = Consumer(username=user, desc=f"Partner: {company}", labels={"contact": contact, "kind": "partner"},
                        group_id=ctx.rng.choice(("gold", "silver")), create_time=made, update_time=made,
                        credentials={f"{user}-key": Credential(id=f"{user}-key", name="primary",
                                                               plugins={"key-auth": {"key": key}})})
    ctx.state(SERVICE)["consumers"][user] = consumer.model_dump(mode="json")
    return user


def _partner(reader: Reader, key: Any) -> dict[str, Any]:
    rows = reader.read(SERVICE, "get_resource", type="consumers", page_size=500)["list"]
    return pick([r["value"] for r in rows], desc=f"Partner: {key}")


_OWNER = Give("email", "labels.owner", "the email address of the engineer who owns the route", "the project owner",
              draw=engineer_email)

ROUTE = Relay(
    service=SERVICE, name="gateway route", key="gateway_route_id",
    gives=(Give("project_id", "labels.app", "the service the route fronts"), _OWNER),
    plant=_plant_by_id, find=_route,
    where="Each APISIX gateway route is labelled with the service it fronts ('app') and its owner ('owner').",
    alloc=lambda ctx: next_route_id(ctx.state(SERVICE)), entry=lambda key: f"gateway route {key}")

SERVICE_ROUTE = Relay(
    service=SERVICE, name="published gateway route", key="project_id",
    gives=(Give("gateway_route_id", "id", "the service's public gateway route"), _OWNER),
    plant=_plant_of_app, find=_route_of_app,
    where="The APISIX gateway routes public traffic to each service through a route labelled app=<service>.",
    alloc=new_app_key, entry=lambda key: f"the public gateway route of {key}",
    truth="A disabled gateway route (status 0) is retired; only the service's published route counts.")

PARTNER = Relay(
    service=SERVICE, name="partner API consumer", key="company", key_party="customer",
    gives=(Give("email", "labels.contact", "the partner's technical contact email", "the customer"),),
    plant=lambda ctx, key, outs, stale: plant_partner(ctx, key, outs.get("email") or ctx.fresh("email")),
    find=_partner,
    where="Each partner company calling the API is an APISIX consumer described 'Partner: <company>', "
          "its 'contact' label the technical contact's email.")


def _disable(reader: Reader, args: dict[str, Found]) -> Write:
    rid, mention = args["route"].value, args["mention"]
    _route(reader, rid)
    reason = f"{args['case'].value}: {mention.noun} is {mention.display}"
    if len(reason) > 256:
        raise SolveError("the reason does not fit in a route description")
    return Write(
        calls=[call("update_route", id=rid, route={"status": 0, "desc": reason})],
        checks=[RecordMatches(id="_", service=SERVICE, collection="routes", record_id=rid,
                              where={"status": 0, "desc": {"$contains": mention.display}},
                              description="The gateway route is disabled, its description quoting the right value.")],
        scope=[OnlyChanged(id="_", service=SERVICE, collection="routes", allow_ids=[rid],
                           description="No other gateway route was changed or created.")],
        tool="update_route", where={"id": rid}, label="the disabled gateway route")


def _onboard(reader: Reader, args: dict[str, Found]) -> Write:
    company, contact, mention = args["client"].value, args["contact"].value, args["mention"]
    user = slug(company)
    known = {r["value"]["username"]: r["value"] for r in
             reader.read(SERVICE, "get_resource", type="consumers", page_size=500)["list"]}
    desc = f"Partner: {company}. {args['case'].value}: {mention.noun} is {mention.display}"
    if len(desc) > 256:
        raise SolveError("the consumer description is too long")
    old = known.get(user, {})
    return Write(
        calls=[call("create_or_update_consumer", username=user, desc=desc,
                    labels={**old.get("labels", {}), "contact": contact, "kind": "partner"},
                    plugins=old.get("plugins") or None, group_id=old.get("group_id"))],
        checks=[RecordMatches(id="_", service=SERVICE, collection="consumers", record_id=user,
                              where={"labels.contact": {"$ieq": contact}, "desc": {"$contains": mention.display}},
                              description="The partner is an API consumer with the right contact, quoting the value.")],
        scope=[OnlyChanged(id="_", service=SERVICE, collection="consumers", allow_ids=[user],
                           allow_new={"username": user}, max_new=1,
                           description="No other API consumer was changed or created.")],
        tool="create_or_update_consumer", where={"username": user}, label="the partner API consumer")


LINKS = ServiceLinks(
    service=SERVICE, label="the APISIX gateway",
    relays=(ROUTE, SERVICE_ROUTE, PARTNER),
    actions=(
        Action(service=SERVICE, name="disable_route", needs=(Need("route", "gateway_route_id"),), build=_disable,
               goal="disable the gateway route (status 0), its description quoting {mention}"),
        Action(service=SERVICE, name="onboard_partner",
               needs=(Need("client", "company"), Need("contact", "email", ("the customer",))), build=_onboard,
               goal="register {client} as a partner API consumer with {contact} as its technical contact, its "
                    "description quoting {mention}"),
    ),
)

__all__ = ["LINKS", "ensure_upstream", "next_route_id", "plant_partner", "plant_route"]
