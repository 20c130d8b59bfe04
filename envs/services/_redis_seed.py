"""Seed data of the redis service: the storefront's cache and session store.

The company's web storefront (``web-frontend``, ``checkout-api`` of the
shared engineering catalog) keeps in Redis: signed-in customers' sessions
(``session:<email>`` hashes pointing to their cart), carts
(``cart:CRT-0001`` hashes with the total and one ``line:<SKU>`` field per
item), login lockouts (``auth:lockout:<email>`` counters), API rate-limit
counters, each application's runtime config (``config:<app>`` JSON naming
the owner and the maintenance switch), the set of customers online, the
month's best sellers (a sorted set), a queue of e-mail jobs, the order event
stream and the audit stream of manual cache changes. Expiries are set
relative to 09:00 of the episode's day; two sessions expired before it.
"""

from __future__ import annotations

import datetime as dt
import random
from typing import Optional

from faker import Faker

from compoworld_gym.envs.services._blocks import day_start, fake_person
from compoworld_gym.envs.services._engineering import APPS, team_engineers
from compoworld_gym.envs.services._redis_models import (
    HashKey, JsonKey, ListKey, RedisState, SetKey, StreamEntry, StreamKey, StringKey, ZSetKey, stream_ms,
)

#: The audit stream every manual cache change is logged to.
AUDIT_STREAM = "stream:audit"
#: The set of customers with a live session.
ONLINE_SET = "online:customers"
_DEVICES = ("iPhone / Safari 17", "Android / Chrome 121", "macOS / Chrome 121", "Windows / Edge 120",
            "iPad / Safari 17")


def session_key(email: str) -> str:
    """The session key of a customer: ``session:<email>`` (lower case)."""
    return f"session:{email.lower()}"


def lockout_key(email: str) -> str:
    """The login-lockout counter of a customer: ``auth:lockout:<email>``."""
    return f"auth:lockout:{email.lower()}"


def config_key(app: str) -> str:
    """The runtime config document of an application: ``config:<app key>``."""
    return f"config:{app}"


def cart_fields(email: str, lines: list[tuple[str, int, float]], status: str, updated: dt.datetime) -> dict[str, str]:
    """The fields of a cart hash: owner, status, total (2 decimals), item count, the SKU added
    last (the last line) and one ``line:<SKU>`` = ``<qty>@<unit price>`` per line."""
    total = round(sum(q * p for _, q, p in lines), 2)
    fields = {"customer_email": email.lower(), "status": status, "currency": "USD", "total": f"{total:.2f}",
              "item_count": str(sum(q for _, q, _ in lines)), "last_added_sku": lines[-1][0],
              "updated_at": updated.isoformat()}
    fields.update({f"line:{sku}": f"{q}@{p:.2f}" for sku, q, p in lines})
    return fields


def session_fields(name: str, email: str, cart: Optional[str], login: dt.datetime, seen: dt.datetime,
                   device: str, ip: str, token: str) -> dict[str, str]:
    """The fields of a session hash (``cart_key`` empty when the customer has no cart)."""
    return {"customer_name": name, "email": email.lower(), "session_id": token, "login_at": login.isoformat(),
            "last_seen": seen.isoformat(), "device": device, "ip": ip, "cart_key": cart or ""}


def app_config(app_key: str, name: str, team: str, owner: str, rpm: int, features: dict[str, bool],
               updated: dt.datetime) -> dict:
    """The runtime config document of an application."""
    return {"service": app_key, "name": name, "team": team, "owner_email": owner,
            "maintenance": {"enabled": False, "reason": ""}, "features": features,
            "limits": {"requests_per_minute": rpm}, "updated_at": updated.isoformat()}


def _sku(rng: random.Random) -> str:
    return f"SKU-{rng.randint(10000, 99999)}"


def _lines(rng: random.Random) -> list[tuple[str, int, float]]:
    return [(_sku(rng), rng.randint(1, 3), rng.randint(899, 24999) / 100) for _ in range(rng.randint(1, 3))]


def _ip(rng: random.Random) -> str:
    return f"203.0.113.{rng.randint(2, 254)}"


def _customers(state: RedisState, fake: Faker, rng: random.Random, today: dt.date) -> list[str]:
    """Sessions and carts of eight customers (the last two sessions expired); returns the live emails."""
    start, live, n_cart = day_start(today), [], 0
    for n in range(8):
        person = fake_person(fake)
        expired = n >= 6
        login = start - dt.timedelta(hours=rng.randint(1, 30) + (30 if expired else 0))
        seen = login + dt.timedelta(minutes=rng.randint(3, 50))
        cart = None
        if n % 3 != 2:  # most shoppers have a cart
            n_cart += 1
            cart = f"cart:CRT-{n_cart:04d}"
            state.keys[cart] = HashKey(key=cart, value=cart_fields(person.email, _lines(rng), "open", seen),
                                       expires_at=start + dt.timedelta(days=7))
        if n in (1, 4):  # an older cart, already checked out: history
            n_cart += 1
            old = f"cart:CRT-{n_cart:04d}"
            state.keys[old] = HashKey(key=old, value=cart_fields(person.email, _lines(rng), "checked_out",
                                                                 login - dt.timedelta(days=rng.randint(3, 20))),
                                      expires_at=start + dt.timedelta(days=rng.randint(5, 25)))
        key = session_key(person.email)
        state.keys[key] = HashKey(key=key, value=session_fields(
            person.name, person.email, cart, login, seen, rng.choice(_DEVICES), _ip(rng),
            f"{rng.getrandbits(64):016x}"),
            expires_at=(start - dt.timedelta(hours=rng.randint(2, 9))) if expired
            else start + dt.timedelta(hours=rng.randint(4, 12)))
        if not expired:
            live.append(person.email.lower())
        if n in (2, 5):  # too many failed logins: locked out for a day
            state.keys[lockout_key(person.email)] = StringKey(
                key=lockout_key(person.email), value=str(rng.randint(5, 9)),
                expires_at=start + dt.timedelta(hours=rng.randint(6, 20)))
    state.counters["CRT"] = n_cart + 1
    return live


def _platform(state: RedisState, rng: random.Random, today: dt.date, live: list[str]) -> None:
    """Configs, rate limits, the online set, best sellers, the e-mail queue and the streams."""
    start = day_start(today)
    for app in APPS:
        feats = {f: rng.random() < 0.6 for f in ("express-checkout", "saved-carts", "live-chat", "wishlist-sharing")}
        state.keys[config_key(app.key)] = JsonKey(key=config_key(app.key), value=app_config(
            app.key, app.name, app.team, team_engineers(app.team)[0].email, rng.choice((300, 600, 1200)), feats,
            start - dt.timedelta(days=rng.randint(1, 40))))
    for app in ("checkout-api", "search-api", "auth-service"):
        for _ in range(2):
            key = f"ratelimit:{app}:{_ip(rng)}"
            state.keys[key] = StringKey(key=key, value=str(rng.randint(12, 590)),
                                        expires_at=start + dt.timedelta(minutes=rng.randint(30, 60)))
    state.keys[ONLINE_SET] = SetKey(key=ONLINE_SET, value=sorted(live))
    month = f"leaderboard:bestsellers:{today:%Y-%m}"
    state.keys[month] = ZSetKey(key=month, value={_sku(rng): float(rng.randint(3, 240)) for _ in range(8)})
    jobs = [f'{{"job":"EMJ-{n:04d}","template":"{t}"}}' for n, t in
            enumerate(("order_confirmation", "shipping_update", "password_reset", "abandoned_cart"), start=1)]
    state.keys["queue:email-jobs"] = ListKey(key="queue:email-jobs", value=jobs)
    orders = []
    for minutes in sorted(rng.sample(range(5, 600), 5), reverse=True):  # distinct times: distinct entry ids
        at = start - dt.timedelta(minutes=minutes)
        orders.append((stream_ms(at), {"event": rng.choice(("order_placed", "payment_captured", "order_shipped")),
                                       "order_id": f"ORD-{rng.randint(1000, 9999)}",
                                       "amount": f"{rng.randint(1500, 40000) / 100:.2f}"}))
    state.keys["stream:orders"] = _stream("stream:orders", orders)
    audit = [(stream_ms(start - dt.timedelta(days=2, hours=h)), {"action": a, "key": k, "actor": "ops@company.example",
                                                               "reason": r})
             for h, a, k, r in ((5, "config_changed", "config:search-api", "raised rate limit for the sale"),
                                (2, "session_revoked", "session:former.customer@example.com", "account closed"))]
    state.keys[AUDIT_STREAM] = _stream(AUDIT_STREAM, audit)


def _stream(key: str, entries: list[tuple[int, dict[str, str]]]) -> StreamKey:
    items = [StreamEntry(id=f"{ms}-0", fields=f) for ms, f in entries]
    return StreamKey(key=key, value=items, last_id=items[-1].id if items else "0-0")


def build_state(fake: Faker, rng: random.Random, today: dt.date) -> RedisState:
    """The storefront cache: eight customers' sessions (two expired), carts, lockouts, app configs,
    rate-limit counters, the online set, best sellers, the e-mail queue, order and audit streams."""
    state = RedisState()
    live = _customers(state, fake, rng, today)
    _platform(state, rng, today, live)
    return state
