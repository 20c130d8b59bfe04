"""Seed data of the APISIX gateway (see ``apisix.py``; records in ``_apisix_models``).

The gateway fronts the fixed engineering application catalog
(``_engineering.APPS``): each app has an upstream named by its key
(``checkout-api``) whose nodes are the app's production hosts, and public
routes labelled ``app=<key>`` and ``owner=<engineer email>``, so a route
leads to the service a deploy, an alert or a status-page component names.
Partner companies are API consumers with key-auth credentials; a consumer's
``contact`` label is the partner's technical contact email.
"""

from __future__ import annotations

import datetime as dt
import random
from typing import Any, Optional

from faker import Faker

from compoworld_gym.entities import Email
from compoworld_gym.envs.services._apisix_models import (
    GATEWAY_HOST, ApisixState, Consumer, ConsumerGroup, Credential, GatewayService, GlobalRule, Node, Route, Ssl,
    Timeout, Upstream,
)
from compoworld_gym.envs.services._company import DOMAIN
from compoworld_gym.envs.services._engineering import APPS, team_engineers

def epoch(moment: dt.datetime) -> int:
    """Unix seconds of a naive UTC datetime."""
    return int(moment.replace(tzinfo=dt.timezone.utc).timestamp())


def pem(label: str, body: str) -> str:
    """A PEM block (placeholder body: certificates are not parsed)."""
    return f"-----BEGIN {label}-----\n{body}\n-----END {label}-----"


def slug(company: str) -> str:
    """A consumer username for a company ("Hartman Logistics" → "hartman_logistics")."""
    out = "".join(c if c.isalnum() else "_" for c in company.lower()).strip("_")
    return "_".join(p for p in out.split("_") if p)[:100] or "partner"


_PATHS = {"checkout-api": ("/api/checkout/*", ["GET", "POST"]), "payments-service": ("/api/payments/*", ["POST"]),
          "web-frontend": ("/*", ["GET", "HEAD"]), "search-api": ("/api/search*", ["GET"]),
          "auth-service": ("/api/auth/*", ["POST"]), "notifications-worker": ("/hooks/notifications/*", ["POST"])}


def build_state(fake: Faker, rng: random.Random, today: dt.date) -> ApisixState:
    """The seeded gateway (see the module docstring)."""
    st = ApisixState()
    t0 = epoch(dt.datetime.combine(today, dt.time(9)) - dt.timedelta(days=120))

    def at(days: int) -> int:
        return t0 + days * 86400 + rng.randint(0, 28800)

    for k, app in enumerate(APPS, start=1):
        nodes = [Node(host=f"10.{20 + k}.{rng.randint(0, 9)}.{rng.randint(10, 250)}", port=8080, weight=100)
                 for _ in range(rng.randint(2, 3))]
        made = at(k)
        st.upstreams[str(k)] = Upstream(id=str(k), name=app.key, desc=f"{app.name} production pods", nodes=nodes,
                                        labels={"app": app.key, "team": app.team}, timeout=Timeout(read=15),
                                        retries=2, create_time=made, update_time=at(k + rng.randint(5, 90)))
    st.services["1"] = GatewayService(id="1", name="public-api", desc="Shared CORS and metrics for the public API",
                                      plugins={"cors": {"allow_origins": f"https://www.{DOMAIN}"}, "prometheus": {}},
                                      hosts=[GATEWAY_HOST], create_time=at(0), update_time=at(30))
    n = 0
    for k, app in enumerate(APPS, start=1):
        if app.key not in _PATHS:
            continue  # reporting-etl is internal: no public route
        n += 1
        uri, methods = _PATHS[app.key]
        plugins: dict[str, dict[str, Any]] = {}
        if app.key in ("payments-service", "notifications-worker"):
            plugins["key-auth"] = {}
        if app.key in ("checkout-api", "auth-service"):
            plugins["limit-count"] = {"count": rng.choice((300, 600, 1200)), "time_window": 60, "rejected_code": 429}
        owner = team_engineers(app.team)[0].email
        st.routes[str(n)] = Route(
            id=str(n), name=f"{app.key}-public", desc=f"Public {app.name} endpoints", uri=uri, methods=methods,
            hosts=[f"www.{DOMAIN}"] if app.key == "web-frontend" else [GATEWAY_HOST],
            service_id="1" if app.key != "web-frontend" else None, upstream_id=str(k), plugins=plugins,
            labels={"app": app.key, "owner": owner, "env": "production"}, create_time=at(k + 2), update_time=at(60))
    _consumers(st, fake, rng, at)
    st.ssls["1"] = Ssl(id="1", snis=[GATEWAY_HOST], cert=pem("CERTIFICATE", "MIIDapi"), key="******",
                       validity_end=epoch(dt.datetime.combine(today + dt.timedelta(days=21), dt.time(0))),
                       labels={"issuer": "letsencrypt"}, create_time=at(40), update_time=at(40))
    st.ssls["2"] = Ssl(id="2", snis=[f"www.{DOMAIN}", DOMAIN], cert=pem("CERTIFICATE", "MIIDwww"), key="******",
                       validity_end=epoch(dt.datetime.combine(today + dt.timedelta(days=200), dt.time(0))),
                       labels={"issuer": "digicert"}, create_time=at(10), update_time=at(10))
    st.global_rules["1"] = GlobalRule(id="1", plugins={"prometheus": {}, "request-id": {"include_in_response": True}},
                                      create_time=at(0), update_time=at(0))
    st.counters.update({"routes": n + 1, "upstreams": len(APPS) + 1, "services": 2, "ssls": 3})
    return st


def _consumers(st: ApisixState, fake: Faker, rng: random.Random, at: Any) -> None:
    st.consumer_groups["gold"] = ConsumerGroup(id="gold", desc="Gold partner plan",
                                               plugins={"limit-count": {"count": 10000, "time_window": 3600}},
                                               create_time=at(3), update_time=at(3))
    st.consumer_groups["silver"] = ConsumerGroup(id="silver", desc="Silver partner plan",
                                                 plugins={"limit-count": {"count": 2000, "time_window": 3600}},
                                                 create_time=at(3), update_time=at(3))
    companies = sorted({fake.company() for _ in range(8)})[:5]
    for k, company in enumerate(companies):
        add_partner(st, company, fake.email(), rng.choice(("gold", "silver")), f"{rng.getrandbits(64):016x}",
                    at(20 + 5 * k))
    st.consumers["mobile_app"] = Consumer(username="mobile_app", desc="Company iOS and Android apps",
                                          labels={"contact": f"oncall@{DOMAIN}"}, create_time=at(8), update_time=at(8),
                                          credentials={"mobile-key": Credential(
                                              id="mobile-key", name="mobile-key",
                                              plugins={"key-auth": {"key": f"{rng.getrandbits(64):016x}"}})})


def add_partner(st: ApisixState, company: str, contact: Email, group: Optional[str], key: str, when: int) -> Consumer:
    """Add a partner consumer for ``company`` with one key-auth credential; returns it."""
    user = slug(company)
    consumer = Consumer(username=user, desc=f"Partner: {company}", labels={"contact": contact, "kind": "partner"},
                        group_id=group, create_time=when, update_time=when,
                        credentials={f"{user}-key": Credential(id=f"{user}-key", name="primary",
                                                               plugins={"key-auth": {"key": key}})})
    st.consumers[user] = consumer
    return consumer
