"""DNS: the company's Cloudflare zones, their DNS records and zone settings.

No DNS server of this kind is in ``compoworld_gym/data/mcp_servers.jsonl``
(``spec_source = None``); the interface follows the Cloudflare API v4:
``GET /zones`` (``name``, ``status``), ``GET /zones/{zone_id}``,
``GET /zones/{zone_id}/dns_records`` (filters ``type``, ``name``,
``content``, ``proxied``), ``GET/POST/PUT/PATCH/DELETE
/zones/{zone_id}/dns_records/{id}`` (``type``, ``name``, ``content``,
``ttl``, ``proxied``, ``priority``, ``comment``),
``GET /zones/{zone_id}/dns_records/export`` (BIND zone file) and
``GET/PATCH /zones/{zone_id}/settings/{setting}`` (``ssl``,
``always_use_https``, ``min_tls_version``).

Rules of the real product: an A record's content is an IPv4 address and an
AAAA's an IPv6 address; CNAME, MX and NS point at a host name; a TTL is 1
(automatic) or 60-86400 seconds, and a proxied record's TTL is automatic;
only A, AAAA and CNAME records can be proxied; a record's name is the zone
apex or a name inside the zone; a CNAME cannot share its name with any
other record and identical records are refused; a record's type cannot be
changed by a patch; MX records need a priority. Left out: page rules,
DNSSEC, load balancers, firewall rules, zone creation and billing.
"""

from __future__ import annotations

import datetime as dt
import random
from typing import Literal, Optional

from faker import Faker
from pydantic import Field

from compoworld_gym.entities import Id
from compoworld_gym.envs.services._blocks import eq, select
from compoworld_gym.envs.services._dns_records_models import DnsRecord, DnsState, RecordType, Zone, ZoneSettings
from compoworld_gym.envs.services._dns_records_rules import (
    PROXIABLE, check_content, check_name_clash, check_ttl_proxy, full_name,
)
from compoworld_gym.envs.services._dns_records_seed import build_state
from compoworld_gym.errors import InvalidArgument, Unprocessable
from compoworld_gym.service import Service, tool

Setting = Literal["ssl", "always_use_https", "min_tls_version"]
_VALUES = {"ssl": ("off", "flexible", "full", "strict"), "always_use_https": ("on", "off"),
           "min_tls_version": ("1.0", "1.1", "1.2", "1.3")}


class DnsRecords(Service):
    """Cloudflare-style DNS zones and records."""

    name = "dns_records"
    description = ("DNS (Cloudflare): the company's zones, their A/AAAA/CNAME/MX/TXT records with TTL and proxy "
                   "status, BIND export and SSL/HTTPS zone settings.")
    domain = "devops"
    spec_source = None
    State = DnsState

    # ---------------------------------------------------------------- helpers
    def _zone(self, zone_id: str) -> Zone:
        return self.lookup(self.state.zones, zone_id, "zone")

    def _record(self, zone: Zone, record_id: str) -> DnsRecord:
        r = self.lookup(self.state.dns_records, record_id, "DNS record")
        if r.zone_id != zone.id:
            raise Unprocessable(f"record {r.id} belongs to zone {r.zone_name}, not {zone.name}.")
        return r

    def _of(self, zone: Zone) -> list[DnsRecord]:
        return [r for r in self.state.dns_records.values() if r.zone_id == zone.id]

    def _checked(self, zone: Zone, rid: Optional[str], rtype: str, name: str, content: str, ttl: int,
                 proxied: bool, priority: Optional[int]) -> dict:
        fqdn = full_name(name, zone.name)
        value, ip = check_content(rtype, content)
        ttl = check_ttl_proxy(rtype, ttl, proxied)
        if rtype == "MX" and priority is None:
            raise InvalidArgument("an MX record needs a priority.")
        if rtype == "CNAME" and fqdn == value:
            raise Unprocessable(f"a CNAME cannot point at its own name {fqdn}.")
        check_name_clash(self._of(zone), rid, rtype, fqdn, value)
        return {"type": rtype, "name": fqdn, "content": value, "ip_address": ip, "ttl": ttl, "proxied": proxied,
                "proxiable": rtype in PROXIABLE, "priority": priority if rtype == "MX" else None}

    # ------------------------------------------------------------------ reads
    @tool(read_only=True, returns=list[Zone])
    def list_zones(self, name: Optional[str] = None, status: Optional[Literal["active", "pending"]] = None) -> list[dict]:
        """List the account's zones.

        Args:
            name: the domain (case-insensitive), e.g. company.example.
            status: active or pending.
        """
        n = name.strip().lower().rstrip(".") if name else None
        return [z.model_dump() for z in select(self.state.zones.values(), eq("name", n), eq("status", status))]

    @tool(read_only=True, returns=Zone)
    def get_zone(self, zone_id: Id("dns_zone")) -> dict:
        """Get a zone with its settings and record count.

        Args:
            zone_id: the zone id, e.g. ZN-0001.
        """
        z = self._zone(zone_id)
        return {**z.model_dump(), "record_count": len(self._of(z))}

    @tool(read_only=True, returns=list[DnsRecord])
    def list_dns_records(self, zone_id: Id("dns_zone"), type: Optional[RecordType] = None,
                         name: Optional[str] = None, content: Optional[str] = None,
                         proxied: Optional[bool] = None, limit: int = Field(default=100, ge=1, le=500)) -> list[dict]:
        """List a zone's DNS records.

        Args:
            zone_id: the zone id.
            type: A, AAAA, CNAME, MX, TXT or NS.
            name: the record name, fully qualified or relative to the zone (e.g. checkout-api).
            content: exact content, e.g. an IP address or a target host.
            proxied: only proxied (true) or DNS-only (false) records.
            limit: maximum number of records (1-500).
        """
        z = self._zone(zone_id)
        fqdn = full_name(name, z.name) if name else None
        c = content.strip().lower().rstrip(".") if content else None
        rows = select(self._of(z), eq("type", type), eq("name", fqdn), eq("proxied", proxied),
                      (lambda r: r.content.lower() == c) if c else None, limit=limit)
        return [r.model_dump() for r in rows]

    @tool(read_only=True, returns=DnsRecord)
    def get_dns_record(self, zone_id: Id("dns_zone"), record_id: Id("dns_record")) -> dict:
        """Get one DNS record.

        Args:
            zone_id: the zone id.
            record_id: the record id, e.g. DNS-0007.
        """
        return self._record(self._zone(zone_id), record_id).model_dump()

    @tool(read_only=True)
    def export_dns_records(self, zone_id: Id("dns_zone")) -> dict:
        """Export a zone's records as a BIND zone file.

        Args:
            zone_id: the zone id.
        """
        z = self._zone(zone_id)
        lines = [f";; Zone: {z.name}", f"$ORIGIN {z.name}.", f"@ 3600 IN SOA {z.name_servers[0]}. "
                 f"dns.cloudflare.com. 2048 10000 2400 604800 3600"]
        for r in sorted(self._of(z), key=lambda r: (r.name, r.type)):
            value = f'"{r.content}"' if r.type == "TXT" else (f"{r.content}." if r.type in ("CNAME", "MX", "NS")
                                                              else r.content)
            prio = f"{r.priority} " if r.priority is not None else ""
            tag = " ; cf_tags=cf-proxied:true" if r.proxied else ""
            lines.append(f"{r.name}. {r.ttl} IN {r.type} {prio}{value}{tag}")
        return {"zone_id": z.id, "zone_file": "\n".join(lines) + "\n"}

    @tool(read_only=True)
    def get_zone_setting(self, zone_id: Id("dns_zone"), setting: Setting) -> dict:
        """Get one zone setting.

        Args:
            zone_id: the zone id.
            setting: ssl, always_use_https or min_tls_version.
        """
        z = self._zone(zone_id)
        return {"id": setting, "value": getattr(z.settings, setting), "editable": True}

    @tool(read_only=True, returns=ZoneSettings)
    def list_zone_settings(self, zone_id: Id("dns_zone")) -> dict:
        """Get all of a zone's edge settings (ssl, always_use_https, min_tls_version).

        Args:
            zone_id: the zone id.
        """
        return self._zone(zone_id).settings.model_dump()

    # ----------------------------------------------------------------- writes
    @tool(read_only=False, returns=DnsRecord)
    def create_dns_record(self, zone_id: Id("dns_zone"), type: RecordType, name: str = Field(min_length=1,
                                                                                             max_length=253),
                          content: str = Field(min_length=1, max_length=2048), ttl: int = 1, proxied: bool = False,
                          priority: Optional[int] = Field(default=None, ge=0, le=65535),
                          comment: str = Field(default="", max_length=100)) -> dict:
        """Create a DNS record in a zone.

        Args:
            zone_id: the zone id.
            type: A, AAAA, CNAME, MX, TXT or NS.
            name: the name, fully qualified or relative to the zone ("@" for the apex).
            content: IPv4 (A), IPv6 (AAAA), host name (CNAME, MX, NS) or text (TXT).
            ttl: 1 (automatic) or 60-86400 seconds.
            proxied: route through Cloudflare's proxy (A, AAAA, CNAME only).
            priority: MX priority.
            comment: a note on the record.
        """
        z = self._zone(zone_id)
        fields = self._checked(z, None, type, name, content, ttl, proxied, priority)
        at = self.now()
        r = DnsRecord(id=self.new_id("DNS"), zone_id=z.id, zone_name=z.name, comment=comment, created_on=at,
                      modified_on=at, **fields)
        self.state.dns_records[r.id] = r
        return r.model_dump()

    @tool(read_only=False, returns=DnsRecord)
    def update_dns_record(self, zone_id: Id("dns_zone"), record_id: Id("dns_record"), type: RecordType,
                          name: str = Field(min_length=1, max_length=253),
                          content: str = Field(min_length=1, max_length=2048), ttl: int = 1, proxied: bool = False,
                          priority: Optional[int] = Field(default=None, ge=0, le=65535),
                          comment: str = Field(default="", max_length=100)) -> dict:
        """Overwrite a DNS record (PUT): every field is replaced.

        Args:
            zone_id: the zone id.
            record_id: the record id.
            type: A, AAAA, CNAME, MX, TXT or NS.
            name: the name, fully qualified or relative to the zone.
            content: the new content.
            ttl: 1 (automatic) or 60-86400 seconds.
            proxied: route through Cloudflare's proxy.
            priority: MX priority.
            comment: a note on the record.
        """
        z = self._zone(zone_id)
        r = self._record(z, record_id)
        fields = self._checked(z, r.id, type, name, content, ttl, proxied, priority)
        for k, v in {**fields, "comment": comment}.items():
            setattr(r, k, v)
        r.modified_on = self.now()
        return r.model_dump()

    @tool(read_only=False, returns=DnsRecord)
    def patch_dns_record(self, zone_id: Id("dns_zone"), record_id: Id("dns_record"),
                         content: Optional[str] = Field(default=None, min_length=1, max_length=2048),
                         name: Optional[str] = Field(default=None, min_length=1, max_length=253),
                         ttl: Optional[int] = None, proxied: Optional[bool] = None,
                         priority: Optional[int] = Field(default=None, ge=0, le=65535),
                         comment: Optional[str] = Field(default=None, max_length=100)) -> dict:
        """Change some fields of a DNS record (PATCH); its type stays.

        Args:
            zone_id: the zone id.
            record_id: the record id.
            content: new content (an IP for A/AAAA, a host name for CNAME).
            name: new name.
            ttl: 1 (automatic) or 60-86400 seconds.
            proxied: turn the proxy on or off.
            priority: MX priority.
            comment: a note on the record.
        """
        z = self._zone(zone_id)
        r = self._record(z, record_id)
        if all(v is None for v in (content, name, ttl, proxied, priority, comment)):
            raise InvalidArgument("give at least one field to change.")
        new_proxied = r.proxied if proxied is None else proxied
        new_ttl = ttl if ttl is not None else (1 if new_proxied else (r.ttl if not r.proxied else 300))
        fields = self._checked(z, r.id, r.type, name or r.name, content or r.content, new_ttl, new_proxied,
                               r.priority if priority is None else priority)
        for k, v in fields.items():
            setattr(r, k, v)
        if comment is not None:
            r.comment = comment
        r.modified_on = self.now()
        return r.model_dump()

    @tool(read_only=False, destructive=True)
    def delete_dns_record(self, zone_id: Id("dns_zone"), record_id: Id("dns_record")) -> dict:
        """Delete a DNS record.

        Args:
            zone_id: the zone id.
            record_id: the record id.
        """
        r = self._record(self._zone(zone_id), record_id)
        del self.state.dns_records[r.id]
        return {"id": r.id}

    @tool(read_only=False, returns=ZoneSettings)
    def edit_zone_setting(self, zone_id: Id("dns_zone"), setting: Setting, value: str) -> dict:
        """Change a zone setting: ssl (off, flexible, full, strict), always_use_https (on, off), min_tls_version.

        Args:
            zone_id: the zone id.
            setting: ssl, always_use_https or min_tls_version.
            value: the new value.
        """
        z = self._zone(zone_id)
        if value not in _VALUES[setting]:
            raise InvalidArgument(f"{setting} takes one of {', '.join(_VALUES[setting])}.")
        if setting == "always_use_https" and value == "on" and z.settings.ssl == "off":
            raise Unprocessable("always_use_https needs SSL on; set ssl first.")
        setattr(z.settings, setting, value)
        return z.settings.model_dump()

    # ------------------------------------------------------------------ seeds
    @classmethod
    def build_seed_state(cls, fake: Faker, rng: random.Random, today: dt.date) -> DnsState:
        return build_state(fake, rng, today)


__all__ = ["DnsRecords"]
