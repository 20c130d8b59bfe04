"""WhatsApp (WaPulse) in chained tasks: a customer's phone number (from the
CRM, an order, a ticket) leads to their WhatsApp chat with the store, whose
latest message names the customer and the order they ask about; the case's
customer is then messaged in that chat, quoting a discovered value (an order
id, a tracking number, a refund amount)."""

from __future__ import annotations

import re
from typing import Any

from compoworld_gym.checks import OnlyChanged, RecordExists
from compoworld_gym.envs.services._whatsapp_models import Chat, Message
from compoworld_gym.generation.context import Ctx, call
from compoworld_gym.generation.links import Action, Found, Give, Need, Reader, Relay, ServiceLinks, Write

SERVICE = "whatsapp"
ORDER_RX = r"ORD-\d{4,}"


def digits(phone: str) -> str:
    """A phone number as WaPulse takes it: digits with the country code."""
    return re.sub(r"\D", "", str(phone))


def plant_chat(state: dict[str, Any], phone: str, name: str) -> str:
    """Add (or rename) the user :class:`Chat` of ``phone``; returns its chat id."""
    number = digits(phone)
    cid = f"{number}@c.us"
    old = state["chats"].get(cid, {})
    state["chats"][cid] = Chat(id=cid, type="user", name=name, phone=number, unread_count=old.get("unread_count", 0),
                               last_message_at=old.get("last_message_at")).model_dump(mode="json")
    return cid


def plant_message(state: dict[str, Any], chat_id: str, body: str, timestamp: str) -> str:
    """Add an incoming :class:`Message` from the person of user chat ``chat_id``; returns its id."""
    n = state["counters"].get("WAM", len(state["messages"]) + 1)
    state["counters"]["WAM"] = n + 1
    mid = f"WAM-{n:06d}"
    state["messages"][mid] = Message(id=mid, chat_id=chat_id, chat_type="user", from_me=False,
                                     sender=chat_id.split("@")[0], body=body, timestamp=timestamp,
                                     ack="delivered").model_dump(mode="json")
    state["messages"] = dict(sorted(state["messages"].items(), key=lambda kv: (kv[1]["timestamp"], kv[0])))
    chat = state["chats"][chat_id]
    chat["last_message_at"] = max(filter(None, (chat["last_message_at"], timestamp)))
    chat["unread_count"] += 1
    return mid


def _plant(ctx: Ctx, key: Any, outs: dict[str, Any], stale: bool) -> str:
    state = ctx.state(SERVICE)
    cid = f"{digits(key)}@c.us"
    if not stale or cid not in state["chats"]:
        plant_chat(state, key, outs.get("person_name") or ctx.client())
    first = state["chats"][cid]["name"].split(" ")[0]
    order = outs.get("order_id")
    if stale:
        text = (f"Hi, {first} here. About order {order}: please ignore my last message, it arrived." if order else
                f"Hi, {first} here. Please ignore my earlier question, it is sorted.")
        plant_message(state, cid, text, ctx.at(-6, 10))
    else:
        text = (f"Hi, {first} here. Any news on my order {order}? I still have not heard back." if order else
                f"Hi, {first} here. Could someone get back to me about my account, please?")
        plant_message(state, cid, text, ctx.at(-1, 17))
    return cid


CHAT = Relay(
    service=SERVICE, name="WhatsApp chat", key="phone",
    gives=(Give("person_name", "name", "the contact's name", "the customer"),
           Give("order_id", "last_message.body", "the order the customer asks about", pattern=ORDER_RX)),
    plant=_plant,
    find=lambda reader, key: reader.read(SERVICE, "load_chat_messages", id=digits(key), type="user"),
    where="The store's WhatsApp Business number (WaPulse) keeps a chat per customer under their phone number; "
          "the latest message says what it is about.",
    truth="In a WhatsApp chat only the customer's latest message counts.",
    entry=lambda key: f"the WhatsApp chat with {key}")


def _send(reader: Reader, args: dict[str, Found]) -> Write:
    to, mention = digits(args["to"].value), args["mention"]
    cid = f"{to}@c.us"
    text = f"Hello, about {args['case'].value}: {mention.noun} is {mention.display}."
    return Write(
        calls=[call("send_whatsapp_message", to=to, message=text, type="user")],
        checks=[RecordExists(id="_", service=SERVICE, collection="messages",
                             where={"chat_id": cid, "from_me": True, "body": {"$contains": mention.display}},
                             description="The customer's chat got a WhatsApp message quoting the right value.")],
        scope=[OnlyChanged(id="_", service=SERVICE, collection="messages", allow_new={"chat_id": cid},
                           description="No WhatsApp message went to anyone else."),
               OnlyChanged(id="_", service=SERVICE, collection="chats", allow_ids=[cid], allow_new={"id": cid},
                           description="No other chat was opened or changed."),
               OnlyChanged(id="_", service=SERVICE, collection="groups",
                           description="No WhatsApp group was changed.")],
        tool="send_whatsapp_message", where={"to": to}, label="the WhatsApp message to the customer")


LINKS = ServiceLinks(
    service=SERVICE, label="WhatsApp (WaPulse)",
    relays=(CHAT,),
    actions=(Action(service=SERVICE, name="message", needs=(Need("to", "phone", who=("the customer",)),),
                    build=_send, goal="message {to} on the store's WhatsApp Business number (WaPulse), quoting "
                                      "{mention}"),),
)

__all__ = ["LINKS", "ORDER_RX", "digits", "plant_chat", "plant_message"]
