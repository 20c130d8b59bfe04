"""Rules of the DNS service (Cloudflare): record content, TTL, proxying and name conflicts.

An A record holds an IPv4 address and an AAAA an IPv6 one (checked with
``ipaddress``); CNAME, MX and NS hold a hostname; a TTL is 1 (automatic) or
60-86400 seconds; only A, AAAA and CNAME can be proxied (a proxied record's
TTL is automatic); a record's name is the zone's apex or inside it; a CNAME
cannot share its name with any other record, and no record is duplicated.
"""

from __future__ import annotations

import ipaddress
import re
from typing import Iterable, Optional

from compoworld_gym.errors import Conflict, InvalidArgument, Unprocessable

PROXIABLE = frozenset({"A", "AAAA", "CNAME"})
_HOST = re.compile(r"^(?=.{1,253}$)([a-z0-9_]([a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$")


def full_name(name: str, zone: str) -> str:
    """The record name made fully qualified: ``@`` is the apex, ``www`` is ``www.<zone>``.

    Raises:
        Unprocessable: the name is outside the zone.
    """
    n = name.strip().lower().rstrip(".")
    if n in ("@", ""):
        return zone
    if n != zone and not n.endswith("." + zone):
        n = f"{n}.{zone}" if "." not in n else n
    if n != zone and not n.endswith("." + zone):
        raise Unprocessable(f"record name {name!r} is not inside zone {zone}.")
    if not _HOST.match(n):
        raise InvalidArgument(f"record name {name!r} is not a valid host name.")
    return n


def check_content(rtype: str, content: str) -> tuple[str, Optional[str]]:
    """``(content, ip_address)`` normalised for ``rtype``.

    Raises:
        InvalidArgument: an A without an IPv4, an AAAA without an IPv6, a bad host name, empty text.
    """
    c = content.strip()
    if rtype in ("A", "AAAA"):
        try:
            ip = ipaddress.ip_address(c)
        except ValueError:
            raise InvalidArgument(f"content {content!r} is not an IP address.") from None
        if (rtype == "A") != (ip.version == 4):
            raise InvalidArgument(f"an {rtype} record needs an IPv{4 if rtype == 'A' else 6} address, not {c}.")
        return str(ip), str(ip)
    if rtype == "TXT":
        if not c:
            raise InvalidArgument("a TXT record needs content.")
        return c, None
    host = c.lower().rstrip(".")
    if not _HOST.match(host):
        raise InvalidArgument(f"content {content!r} of a {rtype} record must be a host name.")
    return host, None


def check_ttl_proxy(rtype: str, ttl: int, proxied: bool) -> int:
    """The TTL to store.

    Raises:
        InvalidArgument: a TTL other than 1 or 60-86400.
        Unprocessable: proxying a type that cannot be proxied.
    """
    if ttl != 1 and not 60 <= ttl <= 86400:
        raise InvalidArgument(f"ttl {ttl} must be 1 (automatic) or between 60 and 86400.")
    if proxied and rtype not in PROXIABLE:
        raise Unprocessable(f"{rtype} records cannot be proxied; only A, AAAA and CNAME.")
    return 1 if proxied else ttl


def check_name_clash(others: Iterable, rid: Optional[str], rtype: str, name: str, content: str) -> None:
    """Raise 409 if a CNAME would share its name, or the same record exists.

    Args:
        others: the zone's records.
        rid: the record being changed (skipped), or None for a new one.
        rtype, name, content: the new record's values.
    """
    for r in others:
        if r.id == rid or r.name != name:
            continue
        if rtype == "CNAME" or r.type == "CNAME":
            raise Conflict(f"{name} already has a {r.type} record ({r.id}); a CNAME cannot share its name with "
                           "other records.")
        if r.type == rtype and r.content == content:
            raise Conflict(f"an identical {rtype} record for {name} exists ({r.id}).")
