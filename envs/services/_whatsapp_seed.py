"""Seed data of the whatsapp service: the store's WhatsApp Business number.

Chats with the store customers of the shared roster (``_commerce.py``): each
customer's number is :func:`customer_phone` (their city's area code), the
contact is saved under their roster name, and their messages talk about their
latest order of the shared order book (its ORD id and, once shipped, the UPS
tracking number the shipping service has). Staff groups of the shared company
roster (support escalations, warehouse dispatch, billing and refunds), a
carrier's group where the store is a plain member, and a customer beta group
with pending join requests.
"""

from __future__ import annotations

import datetime as dt
import random

from compoworld_gym.envs.services._blocks import stamp
from compoworld_gym.envs.services._commerce import CUSTOMERS, Customer, book_tracking_number, order_book
from compoworld_gym.envs.services._company import STAFF
from compoworld_gym.envs.services._whatsapp_models import Chat, Group, JoinRequest, Message, WhatsappState
from compoworld_gym.envs.services._whatsapp_rules import invite_code, user_chat_id

MY_NUMBER = "15035550100"
INSTANCE_ID = "wp-inst-7c41"
_AREA = {"Portland": "1503", "Boston": "1617", "Austin": "1512", "Denver": "1720", "San Diego": "1619",
         "Philadelphia": "1215", "Chicago": "1312", "Seattle": "1206", "Berlin": "4930", "Lyon": "33478"}


def customer_phone(c: Customer) -> str:
    """The WhatsApp number of roster customer ``c``: their city's code, 555 and their roster position."""
    return f"{_AREA[c.city]}555{1001 + CUSTOMERS.index(c):04d}"


def staff_phone(email: str) -> str:
    """The work WhatsApp number of a staff member of the shared company roster."""
    return f"1503555{2001 + [s.email for s in STAFF].index(email):04d}"


_STAFF = {s.name: staff_phone(s.email) for s in STAFF}
CARRIER = "13125557700"  # Acme Freight's dispatch desk
UNREGISTERED = ("15035550199", "16175550000")  # the store landline, a customer's office line


def _msg(state: WhatsappState, chat: Chat, sender: str, body: str, at: dt.datetime, **extra) -> None:
    n = state.counters.get("WAM", 1)
    state.counters["WAM"] = n + 1
    mine = sender == MY_NUMBER
    state.messages[f"WAM-{n:06d}"] = Message(
        id=f"WAM-{n:06d}", chat_id=chat.id, chat_type=chat.type, from_me=mine, sender=sender, body=body,
        timestamp=at, ack="read" if mine else "delivered", **extra)
    chat.last_message_at = max(filter(None, (chat.last_message_at, at)))
    if not mine:
        chat.unread_count += 1


def _customer_chats(state: WhatsappState, rng: random.Random, today: dt.date) -> None:
    book = order_book(today)
    for k, c in enumerate(CUSTOMERS[:9]):
        phone = customer_phone(c)
        chat = Chat(id=user_chat_id(phone), type="user", name=c.name, phone=phone)
        state.chats[chat.id] = chat
        first = c.name.split()[0]
        orders = [o for o in book if o.customer.email == c.email]
        start = stamp(today, 6 + k, rng)
        if not orders:
            _msg(state, chat, phone, f"Hi, {first} here. Do you ship the standing desk to {c.city}?", start)
            _msg(state, chat, MY_NUMBER, f"Hi {first}, yes: standard shipping to {c.city} takes 3-5 business days.",
                 start + dt.timedelta(minutes=14))
            chat.unread_count = 0
            continue
        o = orders[-1]
        _msg(state, chat, phone, f"Hello, this is {first}. Quick question about my order {o.id}.", start)
        if o.status in ("fulfilled", "delivered"):
            _msg(state, chat, MY_NUMBER, f"Hi {first}, order {o.id} shipped with UPS, tracking number "
                                         f"{book_tracking_number(o.id)}.", start + dt.timedelta(minutes=9))
            chat.unread_count = 0
        elif o.status == "refunded":
            _msg(state, chat, MY_NUMBER, f"Hi {first}, the refund of ${o.total:.2f} for order {o.id} is on its way.",
                 start + dt.timedelta(minutes=20))
            chat.unread_count = 0
        elif o.status == "cancelled":
            _msg(state, chat, phone, f"Why was {o.id} cancelled? I did not cancel it.", start + dt.timedelta(hours=2))
        else:
            _msg(state, chat, phone, f"It still says {o.status}. When will {o.id} ship?", start + dt.timedelta(hours=2))
    state.chats[user_chat_id(CARRIER)] = Chat(id=user_chat_id(CARRIER), type="user", name="Acme Freight Dispatch",
                                               phone=CARRIER, archived=True)


_GROUPS = (
    ("Support Escalations", "Hand-offs from the support queue; post the ticket id.",
     MY_NUMBER, ["Luis Ortega", "Jamal Wright", "Hannah Kovacs", "Sofia Marin"], ["Luis Ortega"], ["Marcus Bell"]),
    ("Warehouse Dispatch", "Same-day shipping questions for the warehouse.",
     _STAFF["Daniel Cho"], ["Daniel Cho", "Grace Okafor", "Luis Ortega"], ["Daniel Cho", "Grace Okafor"],
     ["13125558810", "13125558811"]),
    ("Billing & Refunds", "Refund approvals and chargebacks.",
     MY_NUMBER, ["Priya Raman", "Marcus Bell", "Elena Petrova", "Tomas Lindqvist"], ["Priya Raman"], []),
    ("Acme Freight - Carrier Updates", "Pickup windows and delays from Acme Freight.",
     CARRIER, ["Grace Okafor", "13125557701", "13125557702"], ["13125557701"], []),
    ("Desk Setup Beta Club", "Early testers of new desk accessories.",
     MY_NUMBER, ["Olivia Martinez", "Emma Wilson", "Liam Patel"], [], ["Ava Nguyen", "Lucas Fernandez"]),
)


def _num(who: str) -> str:
    if who in _STAFF:
        return _STAFF[who]
    cust = next((c for c in CUSTOMERS if c.name == who), None)
    return customer_phone(cust) if cust else who


def _groups(state: WhatsappState, rng: random.Random, today: dt.date) -> None:
    for k, (name, about, owner, members, admins, asks) in enumerate(_GROUPS, start=1):
        gid = f"1203630200000000{k:02d}@g.us"
        people = [_num(m) for m in members]
        parts = list(dict.fromkeys([owner, MY_NUMBER, *people]))
        adm = list(dict.fromkeys([owner, *(_num(a) for a in admins)]))
        if owner == MY_NUMBER or k == 2:
            adm = list(dict.fromkeys([*adm, MY_NUMBER]))
        created = stamp(today, 120 + 30 * k, rng)
        state.groups[gid] = Group(
            id=gid, name=name, description=about, owner=owner, participants=parts, admins=adm,
            invite_code=invite_code(k), created_at=created,
            requests=[JoinRequest(number=_num(a), requested_at=stamp(today, 2 + j, rng), method="invite_link")
                      for j, a in enumerate(asks)])
        chat = Chat(id=gid, type="group", name=name)
        state.chats[gid] = chat
        speaker = people[0]
        _msg(state, chat, speaker, f"Morning all, reminder: {about.lower()}", stamp(today, 3 + k, rng))
    state.counters["INV"] = len(_GROUPS) + 1
    state.counters["GRP"] = len(_GROUPS) + 1


def build_state(rng: random.Random, today: dt.date) -> WhatsappState:
    """The instance, customer chats and groups; messages kept oldest first."""
    state = WhatsappState(instance_id=INSTANCE_ID, my_number=MY_NUMBER, unregistered=list(UNREGISTERED))
    _customer_chats(state, rng, today)
    _groups(state, rng, today)
    state.messages = dict(sorted(state.messages.items(), key=lambda kv: (kv[1].timestamp, kv[0])))
    return state
