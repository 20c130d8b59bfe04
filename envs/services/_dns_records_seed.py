"""Seed data of the DNS service: the company's Cloudflare zones.

``company.example`` (the company's own domain: its staff emails and
services live under it) holds the website apex (A and AAAA, proxied),
``www``, mail (MX, SPF TXT), the API gateway, and one host per roster
application (``_engineering.py``): ``<app>.company.example`` is a proxied
CNAME to the app's Cloud Run URL (``<app>-<project number>.<region>.run.app``)
or an A record of its load balancer. ``company-status.example`` serves the
public status page and ``company-shop.example`` is a newly added zone whose
name servers are not switched yet (pending).
"""

from __future__ import annotations

import datetime as dt
import random

from faker import Faker

from compoworld_gym.envs.services._blocks import day_start, seed_id
from compoworld_gym.envs.services._company import DOMAIN
from compoworld_gym.envs.services._dns_records_models import DnsRecord, DnsState, Zone, ZoneSettings
from compoworld_gym.envs.services._dns_records_rules import PROXIABLE
from compoworld_gym.envs.services._engineering import APPS

ZONES = ((DOMAIN, "active", "pro", "strict"), ("company-status.example", "active", "free", "full"),
         ("company-shop.example", "pending", "free", "flexible"))
_NS = ("ada.ns.cloudflare.com", "bob.ns.cloudflare.com")


def add_record(s: DnsState, zone: Zone, rtype: str, name: str, content: str, at: dt.datetime, *,
               proxied: bool = False, ttl: int = 3600, priority: int | None = None, comment: str = "",
               rid: str | None = None) -> DnsRecord:
    """Add a record (no checks: the caller gives valid values); returns it."""
    r = DnsRecord(id=rid or seed_id(s, "DNS"), zone_id=zone.id, zone_name=zone.name, type=rtype, name=name,
                  content=content, ip_address=content if rtype in ("A", "AAAA") else None,
                  ttl=1 if proxied else ttl, proxied=proxied, proxiable=rtype in PROXIABLE, priority=priority,
                  comment=comment, created_on=at, modified_on=at)
    s.dns_records[r.id] = r
    return r


def build_state(fake: Faker, rng: random.Random, today: dt.date) -> DnsState:
    """The zones and records of the module docstring.

    Args:
        fake: seeded Faker (unused).
        rng: seeded random stream (addresses, project number, dates).
        today: the task's date.
    """
    s = DnsState()
    for name, status, plan, ssl in ZONES:
        z = Zone(id=seed_id(s, "ZN"), name=name, status=status, plan=plan, name_servers=list(_NS),
                 settings=ZoneSettings(ssl=ssl, always_use_https="on" if ssl != "flexible" else "off"))
        s.zones[z.id] = z
    main, status_zone, shop = s.zones.values()
    at = day_start(today) - dt.timedelta(days=rng.randint(60, 400))
    net = rng.randint(10, 250)
    add_record(s, main, "A", main.name, f"203.0.113.{net}", at, proxied=True, comment="website")
    add_record(s, main, "AAAA", main.name, f"2001:db8:{net:x}::1", at, proxied=True, comment="website")
    add_record(s, main, "CNAME", f"www.{main.name}", main.name, at, proxied=True)
    add_record(s, main, "MX", main.name, "aspmx.l.google.com", at, priority=1)
    add_record(s, main, "TXT", main.name, "v=spf1 include:_spf.google.com ~all", at)
    add_record(s, main, "A", f"api.{main.name}", f"198.51.100.{rng.randint(2, 120)}", at, proxied=True,
               comment="API gateway")
    number = rng.randint(100000000000, 999999999999)
    for n, app in enumerate(APPS):
        when = at + dt.timedelta(days=rng.randint(1, 50))
        host = f"{app.key}.{main.name}"
        if n % 3 == 2:
            add_record(s, main, "A", host, f"198.51.100.{130 + n}", when, proxied=False, ttl=300,
                       comment=f"{app.name} load balancer")
        else:
            add_record(s, main, "CNAME", host, f"{app.key}-{number}.us-central1.run.app", when, proxied=True,
                       comment=f"{app.name} on Cloud Run")
    add_record(s, status_zone, "CNAME", f"www.{status_zone.name}", "company.statuspage.example", at, proxied=False)
    add_record(s, status_zone, "A", status_zone.name, f"203.0.113.{(net + 7) % 250 + 2}", at, proxied=True)
    add_record(s, shop, "A", shop.name, f"192.0.2.{rng.randint(2, 250)}", at + dt.timedelta(days=30), ttl=1)
    add_record(s, shop, "CNAME", f"www.{shop.name}", shop.name, at + dt.timedelta(days=30), ttl=1)
    return s
