"""WhatsApp (messaging) in chained tasks: a chat, found by the contact's phone
number, names the contact and, in its latest message, the order it is about;
a contact found by name gives their WhatsApp number; the case's people are
messaged."""

from __future__ import annotations

import re
from typing import Any

from compoworld_gym.checks import OnlyChanged, RecordExists
from compoworld_gym.envs.services.messaging import USER, Chat, Contact, Message
from compoworld_gym.generation.context import Ctx, call
from compoworld_gym.generation.links import Action, Found, Give, Need, Reader, Relay, ServiceLinks, Write, pick

ORDER_RX = r"ORD-\d{4,}"


def digits(phone: str) -> str:
    """A phone number as WhatsApp files it: digits with the country code."""
    return re.sub(r"\D", "", str(phone))


def wa_number(ctx: Ctx) -> str:
    """A fresh WhatsApp number (digits, US country code, fictional 555 range)."""
    return f"1{ctx.rng.randint(200, 989)}555{ctx.rng.randint(1000, 9999)}"


def plant_contact(state: dict[str, Any], phone: str, name: str) -> str:
    """Add (or rename) the :class:`Contact` and direct :class:`Chat` of ``phone``; returns the JID."""
    number = digits(phone)
    jid = f"{number}@{USER}"
    state["contacts"][jid] = Contact(jid=jid, name=name, phone_number=number).model_dump(mode="json")
    old = state["chats"].get(jid, {})
    state["chats"][jid] = Chat(jid=jid, name=name, is_group=False,
                               last_message_time=old.get("last_message_time")).model_dump(mode="json")
    return jid


def plant_message(state: dict[str, Any], jid: str, content: str, timestamp: str) -> str:
    """Add an incoming :class:`Message` from the contact of ``jid``; messages stay
    in time order (a chat's last message is its newest). Returns the id."""
    n = state["counters"].get("MSG", len(state["messages"]) + 1)
    state["counters"]["MSG"] = n + 1
    mid = f"MSG-{n:06d}"
    state["messages"][mid] = Message(id=mid, chat_jid=jid, sender=jid, sender_phone_number=jid.split("@")[0],
                                     is_from_me=False, content=content, timestamp=timestamp).model_dump(mode="json")
    state["messages"] = dict(sorted(state["messages"].items(), key=lambda kv: (kv[1]["timestamp"], kv[0])))
    chat = state["chats"][jid]
    chat["last_message_time"] = max(filter(None, (chat["last_message_time"], timestamp)))
    return mid


def _name_of(ctx: Ctx, number: str) -> str:
    """Whose number this is in the task's other records (else the case's customer)."""
    for emp in ctx.states.get("hr_directory", {}).get("employees", {}).values():
        if emp.get("phone") and digits(emp["phone"]) == number:
            return emp["name"]
    for con in ctx.states.get("crm", {}).get("contacts", {}).values():
        props = con.get("properties", con)
        if props.get("phone") and digits(props["phone"]) == number:
            return f"{props.get('firstname', '')} {props.get('lastname', '')}".strip() or ctx.client()
    return ctx.client()


def _plant_chat(ctx: Ctx, key: Any, outs: dict[str, Any], stale: bool) -> str:
    state = ctx.state("messaging")
    jid = f"{digits(key)}@{USER}"
    if not stale or jid not in state["chats"]:
        plant_contact(state, key, outs.get("person_name") or _name_of(ctx, digits(key)))
    first = state["chats"][jid]["name"].split(" ")[0]
    order = outs.get("order_id")
    if stale:
        text = f"Hi, {first} here. About order {order}: never mind, it is sorted now." if order else \
            f"Hi, {first} here. Never mind my earlier question, it is sorted now."
        plant_message(state, jid, text, ctx.at(-5, 11))
    else:
        text = f"Hi, {first} here. Any news on my order {order}? It still has not arrived." if order else \
            f"Hi, {first} here. Could someone call me back about my account, please?"
        plant_message(state, jid, text, ctx.at(-1, 16))
    return jid


def _plant_contact(ctx: Ctx, key: Any, outs: dict[str, Any], stale: bool) -> str:
    return plant_contact(ctx.state("messaging"), outs.get("phone") or wa_number(ctx), key)


CHAT = Relay(
    service="messaging", name="WhatsApp chat", key="phone",
    gives=(Give("person_name", "name", "the contact's name", "the customer"),
           Give("order_id", "last_message.content", "the order the customer asks about", pattern=ORDER_RX)),
    plant=_plant_chat,
    find=lambda reader, key: reader.read("messaging", "get_direct_chat_by_contact", sender_phone_number=key),
    where="WhatsApp chats are filed under the contact's phone number; the latest message says what it is about.",
    truth="In a WhatsApp chat only the customer's latest message counts.",
    entry=lambda key: f"the WhatsApp chat with {key}")

CONTACT = Relay(
    service="messaging", name="WhatsApp contact", key="person_name",
    gives=(Give("phone", "phone_number", "the customer's WhatsApp number", "the customer", draw=wa_number),),
    plant=_plant_contact,
    find=lambda reader, key: pick(reader.read("messaging", "search_contacts", query=key), name=key),
    where="WhatsApp contacts are saved under the person's name, with their phone number.")


def _send(reader: Reader, args: dict[str, Found]) -> Write:
    to, mention = args["to"].value, args["mention"]
    jid = f"{digits(to)}@{USER}"
    text = f"Hello, about {args['case'].value}: {mention.noun} is {mention.display}."
    return Write(
        calls=[call("send_message", recipient=to, message=text)],
        checks=[RecordExists(id="_", service="messaging", collection="messages",
                             where={"chat_jid": jid, "is_from_me": True, "content": {"$contains": mention.display}},
                             description="The right number got a WhatsApp message quoting the right value.")],
        scope=[OnlyChanged(id="_", service="messaging", collection="messages", allow_new={"chat_jid": jid},
                           description="No WhatsApp message went to anyone else."),
               OnlyChanged(id="_", service="messaging", collection="chats", allow_ids=[jid], allow_new={"jid": jid},
                           description="No other chat was opened or changed.")],
        tool="send_message", where={"recipient": to}, label=f"the WhatsApp message to {args['to'].who or 'them'}")


LINKS = ServiceLinks(
    service="messaging", label="WhatsApp",
    relays=(CHAT, CONTACT),
    actions=(Action(service="messaging", name="message", needs=(Need("to", "phone"),), build=_send,
                    goal="send a WhatsApp message to {to}, quoting {mention}"),),
)

__all__ = ["LINKS", "ORDER_RX", "digits", "plant_contact", "plant_message", "wa_number"]
