"""WhatsApp (WaPulse): the store's WhatsApp Business number, its chats, groups and messages.

Follows the MCP server ``@Quegenx_wapulse-whatsapp-mcp`` (the WaPulse API):
its 19 business tools with their names, parameters and required sets.
Left out: the instance tools (create_instance, get_qr_code, start_instance,
stop_instance, delete_instance: one instance is connected for the session)
and get_wapulse_documentation (an external web page); the per-call
``customToken`` / ``customInstanceID`` overrides are not taken (the session's
instance is used).

Numbers are the country code and number, digits only (``15035550101``); a
person's chat id is ``<number>@c.us``, a group's ``<digits>@g.us`` (tools
taking a group ``id`` accept it with or without ``@g.us``). Rules of the real
product kept here: a number must be valid and on WhatsApp to be messaged or
added (a landline is not); only group admins add, remove, promote or demote
participants, see or rotate the invite link and handle join requests; the
group's creator cannot be removed or demoted by other admins; a group always
keeps an admin (the last admin cannot be demoted, nor leave while others
remain); rotating the invite code revokes the old link; a number that left a
group can no longer act in it. Files carry a name with an extension (its kind
follows it); audio must be an audio file.
"""

from __future__ import annotations

import datetime as dt
import random
from typing import Any, Literal, Optional

from faker import Faker
from pydantic import Field

from compoworld_gym.envs.services._whatsapp_groups import GroupTools, Numbers
from compoworld_gym.envs.services._whatsapp_models import Chat, Group, Message, WhatsappState
from compoworld_gym.envs.services._whatsapp_rules import (
    AUDIO_EXT, GROUP_SUFFIX, MAX_GROUP_SIZE, NUMBER_RX, check_number, file_kind, group_key, normalize, number,
    user_chat_id,
)
from compoworld_gym.envs.services._whatsapp_seed import build_state
from compoworld_gym.errors import Conflict, InvalidArgument, NotFound, Unprocessable
from compoworld_gym.service import tool

class Whatsapp(GroupTools):
    """WhatsApp Business through WaPulse: chats by phone number, groups, invite links and join requests."""

    name = "whatsapp"
    description = ("WhatsApp Business (WaPulse): message customers by phone number, send files and voice notes, read "
                   "chat histories, run staff groups (participants, admins, invite links, join requests).")
    domain = "communication"
    spec_source = "@Quegenx_wapulse-whatsapp-mcp"
    State = WhatsappState

    # --------------------------------------------------------------- helpers
    def _chat_for(self, to: str, kind: Literal["user", "group"]) -> Chat:
        if kind == "group":
            group = self._group(to)
            return self.state.chats[group.id]
        digits = number(to)
        self._registered(digits)
        chat = self.state.chats.get(user_chat_id(digits))
        if chat is None:
            chat = Chat(id=user_chat_id(digits), type="user", name=digits, phone=digits)
            self.state.chats[chat.id] = chat
        return chat

    def _target(self, to: str) -> Chat:
        """A group chat when ``to`` is one of the groups' ids, else the person's chat."""
        gid = group_key(to)
        return self._chat_for(to, "group" if gid in self.state.groups else "user")

    def _post(self, chat: Chat, body: str, kind: str = "text", **extra: Any) -> dict:
        ts = self.now()
        msg = Message(id=self.new_id("WAM", width=6), chat_id=chat.id, chat_type=chat.type, from_me=True,
                      sender=self.state.my_number, body=body, kind=kind, timestamp=ts, **extra)
        self.state.messages[msg.id] = msg
        chat.last_message_at, chat.unread_count, chat.archived = ts, 0, False
        return msg.model_dump()

    def _history(self, chat_id: str) -> list[Message]:
        return sorted((m for m in self.state.messages.values() if m.chat_id == chat_id),
                      key=lambda m: (m.timestamp, m.id))

    # -------------------------------------------------------------- messages
    @tool(read_only=False)
    def send_whatsapp_message(self, to: str = Field(pattern=NUMBER_RX),
                              message: str = Field(min_length=1, max_length=4096),
                              type: Literal["user", "group"] = "user") -> dict:
        """Send a text message to a phone number or a group.

        Args:
            to: the person's number (country code and number, digits only, e.g. 15035550101) or the group id digits.
            message: the text, up to 4096 characters.
            type: user (a person, the default) or group.
        """
        chat = self._chat_for(to, type)
        return {"status": "sent", "chat_id": chat.id, "message": self._post(chat, message)}

    @tool(read_only=False)
    def send_whatsapp_files(self, to: str = Field(pattern=NUMBER_RX),
                            files: list[dict[str, Any]] = Field(min_length=1, max_length=10)) -> dict:
        """Send files (images, documents, ...) to a phone number or a group, one message per file.

        Args:
            to: the person's number (digits with country code) or a group id's digits.
            files: up to 10 files, each {"file": URL or data URI, "filename": name with extension,
                "caption": optional text}.
        """
        plan = []
        for f in files:
            if set(f) - {"file", "filename", "caption"} or not isinstance(f.get("file"), str) or not f["file"] \
                    or not isinstance(f.get("filename"), str):
                raise InvalidArgument("each file needs a string 'file' and 'filename' (and optionally 'caption').")
            plan.append((f, file_kind(f["filename"])))
        chat = self._target(to)
        sent = [self._post(chat, str(f.get("caption") or ""), kind, filename=f["filename"], file=f["file"])
                for f, kind in plan]
        return {"status": "sent", "chat_id": chat.id, "messages": sent}

    @tool(read_only=False)
    def send_whatsapp_audio(self, to: str = Field(pattern=NUMBER_RX), audio: dict[str, Any] = Field()) -> dict:
        """Send an audio file or a voice note to a phone number or a group.

        Args:
            to: the person's number (digits with country code) or a group id's digits.
            audio: {"file": URL or data URI, "filename": e.g. update.ogg, "caption": optional,
                "isVoiceNote": true to send as a voice note (default false)}.
        """
        if set(audio) - {"file", "filename", "caption", "isVoiceNote"} or not audio.get("file") \
                or not isinstance(audio.get("filename"), str):
            raise InvalidArgument("audio needs 'file' and 'filename' (and optionally 'caption', 'isVoiceNote').")
        name = audio["filename"]
        if file_kind(name) != "audio" or name.rsplit(".", 1)[1].lower() not in AUDIO_EXT:
            raise Unprocessable(f"{name!r} is not an audio file ({', '.join(sorted(AUDIO_EXT))}).")
        chat = self._target(to)
        kind = "voice" if audio.get("isVoiceNote") else "audio"
        return {"status": "sent", "chat_id": chat.id,
                "message": self._post(chat, str(audio.get("caption") or ""), kind, filename=name, file=audio["file"])}

    @tool(read_only=True)
    def load_chat_messages(self, id: str, type: Literal["user", "group"], until: Optional[str] = None) -> dict:
        """Load a chat (its id, name, number) with its messages, oldest first, and its latest message.

        Args:
            id: the person's number (digits) or chat id (…@c.us), or the group id.
            type: user or group.
            until: only messages up to this message id (e.g. WAM-000012) or ISO time (e.g. 2026-01-05T12:00).
        """
        if type == "group":
            cid = group_key(id)
        else:
            cid = id.strip() if id.strip().endswith("@c.us") else user_chat_id(normalize(id))
        chat = self.lookup(self.state.chats, cid, "chat")
        if chat.type != type:
            raise InvalidArgument(f"{cid} is a {chat.type} chat; call with type={chat.type!r}.")
        msgs = self._history(cid)
        if until:
            if until in self.state.messages:
                stop = self.state.messages[until]
                msgs = [m for m in msgs if (m.timestamp, m.id) <= (stop.timestamp, stop.id)]
            else:
                try:
                    cut = dt.datetime.fromisoformat(until).replace(tzinfo=None)
                except ValueError:
                    raise InvalidArgument(f"until {until!r} is neither a message id nor an ISO time.") from None
                msgs = [m for m in msgs if m.timestamp <= cut]
        rows = [m.model_dump() for m in msgs]
        return {**chat.model_dump(), "count": len(rows), "messages": rows,
                "last_message": rows[-1] if rows else None}

    @tool(read_only=True)
    def get_all_chats(self) -> dict:
        """All chats of the instance (people and groups), newest activity first, with their latest message."""
        chats = sorted(self.state.chats.values(), key=lambda c: (c.last_message_at or dt.datetime.min, c.id),
                       reverse=True)
        rows = []
        for c in chats:
            last = self._history(c.id)
            rows.append({**c.model_dump(), "last_message": last[-1].model_dump() if last else None})
        return {"count": len(rows), "chats": rows}

    # ------------------------------------------------------------ directory
    @tool(read_only=True)
    def check_id_exists(self, value: str, type: Literal["user", "group"]) -> dict:
        """Check whether a number is on WhatsApp, or whether a group id exists for this instance.

        Args:
            value: a number (digits with country code) or a group id.
            type: user or group.
        """
        if type == "group":
            g = self.state.groups.get(group_key(value))
            return {"exists": g is not None, "id": g.id if g else group_key(value), "name": g.name if g else None,
                    "member": bool(g and not g.left)}
        digits = normalize(value)
        if check_number(digits):
            return {"exists": False, "id": value, "reason": check_number(digits)}
        chat = self.state.chats.get(user_chat_id(digits))
        return {"exists": digits not in self.state.unregistered, "id": user_chat_id(digits),
                "name": chat.name if chat else None}

    @tool(read_only=True)
    def validate_phone_number(self, phoneNumber: str) -> dict:
        """Check a number's format for WaPulse and give it in the form the other tools take.

        Args:
            phoneNumber: the number as written, e.g. +1 (503) 555-0101.
        """
        digits = normalize(phoneNumber)
        why = check_number(digits)
        return {"valid": why is None, "input": phoneNumber, "formatted": digits if why is None else None,
                "reason": why}

    # ---------------------------------------------------------------- groups
    @tool(read_only=False)
    def create_whatsapp_group(self, name: str = Field(min_length=1, max_length=100),
                              participants: Numbers = Field(min_length=1, max_length=256)) -> dict:
        """Create a group with this number as its owner and admin.

        Args:
            name: group subject, up to 100 characters.
            participants: numbers to add (digits with country code), 1 to 256.
        """
        people = self._numbers(participants)
        for p in people:
            self._registered(p)
        me = self.state.my_number
        if me in people:
            raise InvalidArgument("the instance's own number is added as the owner; leave it out of participants.")
        n = self.state.counters.get("GRP", 1)
        self.state.counters["GRP"] = n + 1
        gid = f"1203630200000000{n:02d}{GROUP_SUFFIX}"
        group = Group(id=gid, name=name, owner=me, participants=[me, *people], admins=[me],
                      invite_code=self._new_code(), created_at=self.now())
        self.state.groups[gid] = group
        self.state.chats[gid] = Chat(id=gid, type="group", name=name, last_message_at=group.created_at)
        return self._view(group)

    @tool(read_only=True)
    def get_all_groups(self, id: str = Field(min_length=1)) -> dict:
        """The groups this instance's number is in, with participants, admins and pending request counts.

        Args:
            id: the WaPulse instance id.
        """
        if id != self.state.instance_id:
            raise NotFound(f"instance {id!r} not found; this session's instance is {self.state.instance_id}.")
        rows = [self._view(g) for g in self.state.groups.values() if not g.left]
        return {"count": len(rows), "groups": rows}

    @tool(read_only=False)
    def add_group_participants(self, id: str = Field(min_length=1),
                               participants: Numbers = Field(min_length=1, max_length=50)) -> dict:
        """Add numbers to a group (admins only); a pending join request of an added number is dropped.

        Args:
            id: the group id.
            participants: numbers to add, 1 to 50.
        """
        g, people = self._group(id, admin=True), self._numbers(participants)
        for p in people:
            if p in g.participants:
                raise Conflict(f"{p} is already in {g.name}.")
            self._registered(p)
        if len(g.participants) + len(people) > MAX_GROUP_SIZE:
            raise Unprocessable(f"a group holds at most {MAX_GROUP_SIZE} participants.")
        g.participants += people
        g.requests = [r for r in g.requests if r.number not in people]
        return {"group": g.id, "added": people, "size": len(g.participants)}

    # ------------------------------------------------------------------ seeds
    @classmethod
    def build_seed_state(cls, fake: Faker, rng: random.Random, today: dt.date) -> WhatsappState:
        return build_state(rng, today)
