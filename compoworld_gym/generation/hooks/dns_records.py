"""DNS (Cloudflare) in chained tasks: every application has a host name
``<app>.company.example`` in the company's zone; an app (from a deploy, a
Cloud Run service, an alert) leads to its DNS record, which gives the
address the host name points at. Write: put the app's host name behind the
Cloudflare proxy."""

from __future__ import annotations

import datetime as dt
from typing import Any

from compoworld_gym.checks import OnlyChanged, RecordMatches
from compoworld_gym.envs.services._company import DOMAIN
from compoworld_gym.envs.services._dns_records_models import DnsState
from compoworld_gym.envs.services._dns_records_seed import add_record
from compoworld_gym.generation.context import Ctx, call
from compoworld_gym.generation.hooks.deployments import new_app_key
from compoworld_gym.generation.links import (
    Action, Found, Give, Need, Reader, Relay, ServiceLinks, SolveError, Write, next_id, pick,
)

SERVICE = "dns_records"
_APP_RX = r"^[a-z0-9]+(?:-[a-z0-9]+)*(?=\." + DOMAIN.replace(".", r"\.") + "$)"


def draw_ip(ctx: Ctx) -> str:
    """A documentation-range IPv4 address (RFC 5737 198.51.100.0/24)."""
    return f"198.51.100.{ctx.rng.randint(2, 254)}"


def plant_record(ctx: Ctx, rid: str, app: str, ip: str) -> str:
    """Add (or replace) the DNS-only A record ``<app>.company.example`` -> ``ip`` (TTL 300) as ``rid``;
    returns the id."""
    raw = ctx.state(SERVICE)
    state = DnsState.model_validate(raw)
    zone = next(z for z in state.zones.values() if z.name == DOMAIN)
    host = f"{app}.{DOMAIN}"
    for old in [r.id for r in state.dns_records.values() if r.name == host]:
        del state.dns_records[old]
    add_record(state, zone, "A", host, ip, dt.datetime.fromisoformat(ctx.at(-20, 11)), ttl=300,
               comment=f"{app} load balancer", rid=rid)
    raw["dns_records"] = state.model_dump(mode="json")["dns_records"]
    return rid


def _alloc_record(ctx: Ctx) -> str:
    return next_id(ctx.state(SERVICE), "DNS", start=100)


def _plant_app(ctx: Ctx, key: Any, outs: dict[str, Any], stale: bool) -> str:
    return plant_record(ctx, _alloc_record(ctx), key, outs.get("ip_address") or draw_ip(ctx))


def _plant_id(ctx: Ctx, key: Any, outs: dict[str, Any], stale: bool) -> str:
    return plant_record(ctx, key, outs.get("project_id") or new_app_key(ctx), outs.get("ip_address") or draw_ip(ctx))


def _zone_id(reader: Reader) -> str:
    return pick(reader.read(SERVICE, "list_zones", name=DOMAIN), name=DOMAIN)["id"]


def _of_app(reader: Reader, key: Any) -> dict[str, Any]:
    zid = _zone_id(reader)
    rows = reader.read(SERVICE, "list_dns_records", zone_id=zid, name=f"{key}.{DOMAIN}", type="A")
    return reader.read(SERVICE, "get_dns_record", zone_id=zid, record_id=pick(rows, type="A")["id"])


_IP = Give("ip_address", "ip_address", "the address the service's host name points at", draw=draw_ip)

APP_RECORD = Relay(
    service=SERVICE, name="service's DNS record", key="project_id",
    gives=(Give("dns_record_id", "id", "the service's DNS record"), _IP),
    plant=_plant_app, find=_of_app,
    where=f"Each service has a host name <service>.{DOMAIN} in the company's Cloudflare zone.",
    alloc=new_app_key, entry=lambda key: f"the DNS record of {key}")

RECORD = Relay(
    service=SERVICE, name="DNS record", key="dns_record_id",
    gives=(_IP, Give("project_id", "name", "the service the host name serves", pattern=_APP_RX, draw=new_app_key)),
    plant=_plant_id,
    find=lambda reader, key: reader.read(SERVICE, "get_dns_record", zone_id=_zone_id(reader), record_id=key),
    where="A DNS record's name is the service's host name; an A record holds the address it points at.",
    alloc=_alloc_record, entry=lambda key: f"DNS record {key}")


def _proxy(reader: Reader, args: dict[str, Found]) -> Write:
    rid = args["record"].value
    zid = _zone_id(reader)
    rec = reader.read(SERVICE, "get_dns_record", zone_id=zid, record_id=rid)
    if rec["proxied"] or not rec["proxiable"]:
        raise SolveError(f"record {rid} is already proxied or cannot be")
    return Write(
        calls=[call("patch_dns_record", zone_id=zid, record_id=rid, proxied=True)],
        checks=[RecordMatches(id="_", service=SERVICE, collection="dns_records", record_id=rid,
                              where={"proxied": True, "content": rec["content"]},
                              description="The host name is proxied and still points at the same address.")],
        scope=[OnlyChanged(id="_", service=SERVICE, collection="dns_records", allow_ids=[rid],
                           description="No other DNS record was changed, added or deleted.")],
        tool="patch_dns_record", where={"record_id": rid}, label="the proxied DNS record")


LINKS = ServiceLinks(
    service=SERVICE, label="Cloudflare DNS",
    relays=(RECORD, APP_RECORD),
    actions=(Action(service=SERVICE, name="proxy", needs=(Need("record", "dns_record_id"),), build=_proxy,
                    goal="put the service's host name behind the Cloudflare proxy", effect="advances"),),
)

__all__ = ["LINKS", "draw_ip", "plant_record"]
