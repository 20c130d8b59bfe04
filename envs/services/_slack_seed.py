"""Seed workspace of the slack service: roster users, team channels, history.

Users are the ops bot plus the fixed company roster; channels are ``general``,
``random``, one channel per team (names from :data:`._company.TEAMS`) and one
archived channel. Messages mention seed-drawn invoice/order numbers.
"""

from __future__ import annotations

import datetime as dt
import random
from typing import Any

from faker import Faker

from compoworld_gym.envs.services._company import OPS_EMAIL, STAFF, TEAMS

BOT_ID = "U0001"
_EPOCH = dt.datetime(1970, 1, 1)


def _users() -> list[dict[str, Any]]:
    users = [{"id": BOT_ID, "name": "ops-bot", "real_name": "Ops Bot", "email": OPS_EMAIL,
              "title": "Operations automation", "is_bot": True}]
    for i, s in enumerate(STAFF, start=2):
        users.append({"id": f"U{i:04d}", "name": s.email.split("@")[0], "real_name": s.name, "email": s.email,
                      "title": s.title})
    return users


def _channels(users: list[dict], today: dt.date) -> list[dict[str, Any]]:
    everyone = [u["id"] for u in users]
    by_email = {u["email"]: u["id"] for u in users}
    created = dt.datetime.combine(today - dt.timedelta(days=400), dt.time(9, 0))
    chans = [("general", "Company-wide announcements", everyone, False),
             ("random", "Anything else", everyone, False)]
    for team in TEAMS.values():
        members = [BOT_ID] + [by_email[s.email] for s in STAFF if s.team == team.key or s.team == "support"]
        chans.append((team.channel, f"{team.name}: escalations and coordination", members, False))
    chans.append(("old-announcements", "Retired announcements channel", everyone, True))
    return [{"id": f"C{i:04d}", "name": name, "topic": purpose, "purpose": purpose, "members": members,
             "is_archived": archived, "created": created} for i, (name, purpose, members, archived)
            in enumerate(chans, start=1)]


def _script(fake: Faker, rng: random.Random) -> list[tuple[str, str, str, int, list[tuple[str, str]], list]]:
    """(channel, author email local part, text, days ago, replies [(author, text)], reactions [(name, authors)])."""
    inv, order, order2 = rng.randint(1000, 9999), rng.randint(100000, 999999), rng.randint(100000, 999999)
    company, vip = fake.company(), fake.company()
    return [
        ("general", "luis.ortega", "Reminder: the operations manual is the source of truth for handling rules. "
         "Always follow the latest published version.", 12, [], [("+1", ["priya.raman", "grace.okafor"])]),
        ("random", "hannah.kovacs", "The coffee machine on the 3rd floor is fixed.", 6, [], []),
        ("billing-escalations", "priya.raman", f"INV-{inv} for {company} is {rng.randint(5, 15)} days overdue; "
         "escalated to priority high.", 4, [("marcus.bell", "Customer notified, account owner cc'd.")], []),
        ("billing-escalations", "marcus.bell", f"Weekly overdue count: {rng.randint(4, 12)} invoices.", 2, [], []),
        ("finance-approvals", "elena.petrova", f"Approved refund of ${rng.choice((620, 880, 1250))} for order "
         f"#{order}.", 5, [], [("white_check_mark", ["tomas.lindqvist"])]),
        ("finance-approvals", "tomas.lindqvist", f"Pending approval: refund of ${rng.choice((540, 760, 990))} for "
         f"order #{order2}, waiting on ticket details.", 1, [], []),
        ("shipping-ops", "grace.okafor", f"Carrier delays in the {fake.city()} region: expect +2 days on ground "
         "shipments.", 3, [("daniel.cho", "Thanks, updating the customer macro.")], [("eyes", ["daniel.cho"])]),
        ("account-security", "sofia.marin", f"Repeated failed logins from {fake.ipv4_public()}; address blocked.",
         2, [], []),
        ("vip-accounts", "jamal.wright", f"{vip} renewal call next week; ping me on any ticket from them.", 3,
         [("hannah.kovacs", "Noted, I will watch the queue.")], []),
        ("support-escalations", "luis.ortega", "Queue is high today: handle urgent tickets first.", 1, [], []),
        ("privacy-requests", "aisha.khan", "Deletion requests have a hard deadline; see the manual for the "
         "number of days.", 7, [], []),
        ("incidents", "ben.foster", f"Resolved: checkout latency spike ({rng.randint(12, 48)} min). Post-mortem "
         "to follow.", 5, [("luis.ortega", "Support macro posted for affected customers.")], []),
        ("old-announcements", "luis.ortega", "The office is closed on the public holiday.", 90, [], []),
    ]


def seed_workspace(fake: Faker, rng: random.Random, today: dt.date
                   ) -> tuple[list[dict], list[dict], list[dict], int]:
    """Users, channels, messages (field dicts) and the next ts sequence number."""
    users = _users()
    channels = _channels(users, today)
    chan_id = {c["name"]: c["id"] for c in channels}
    user_id = {u["name"]: u["id"] for u in users}
    messages: list[dict[str, Any]] = []

    def post(channel: str, author: str, text: str, when: dt.datetime, parent: str | None) -> str:
        ts = f"{int((when - _EPOCH).total_seconds())}.{len(messages) + 1:06d}"
        messages.append({"ts": ts, "channel_id": chan_id[channel], "user": user_id[author], "text": text,
                         "thread_ts": parent, "reactions": []})
        return ts

    for channel, author, text, days, replies, reactions in _script(fake, rng):
        when = dt.datetime.combine(today - dt.timedelta(days=days), dt.time(rng.randint(8, 17), rng.randint(0, 59)))
        ts = post(channel, author, text, when, None)
        messages[-1]["reactions"] = [{"name": n, "users": [user_id[a] for a in who]} for n, who in reactions]
        for k, (r_author, r_text) in enumerate(replies, start=1):
            post(channel, r_author, r_text, when + dt.timedelta(minutes=7 * k), ts)
    return users, channels, messages, len(messages) + 1
