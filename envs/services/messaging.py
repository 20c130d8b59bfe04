"""Messaging: WhatsApp-style chats with contacts addressed by phone number.

Follows the ``@s3cr1z_whatsapp-mcp`` server in ``compoworld_gym/data/mcp_servers.jsonl``
(all 12 tools, same names, parameters and defaults): contacts and direct
chats are addressed by JID ``<digits>@s.whatsapp.net`` (the phone number with
country code, no ``+``), groups by ``<digits>@g.us``. Where the spec says
"phone number with country code but no + or other symbols", ``+``, spaces
and dashes are tolerated and stripped, so an E.164 number from another
service works as is. Files are not stored: a sent file keeps its path and a
received one has a deterministic download path.
"""

from __future__ import annotations

import datetime as dt
import random
import re
from typing import Literal, Optional

from faker import Faker
from pydantic import Field

from compoworld_gym.entities import DateTime, FilePath, Id, PersonName, Phone
from compoworld_gym.errors import InvalidArgument, NotFound, Unprocessable
from compoworld_gym.service import Record, Service, ServiceState, tool

MY_NUMBER = "14155550100"
USER = "s.whatsapp.net"
GROUP = "g.us"
MediaType = Literal["image", "video", "audio", "document"]
_EXT = {"jpg": "image", "jpeg": "image", "png": "image", "gif": "image", "webp": "image", "mp4": "video",
        "mov": "video", "ogg": "audio", "mp3": "audio", "wav": "audio", "m4a": "audio", "opus": "audio"}
_NON_DIGIT = re.compile(r"[\s\-\(\)\.\+]")


class Contact(Record):
    """A WhatsApp contact."""

    jid: str = Field(description="Contact JID, e.g. 14155550123@s.whatsapp.net.")
    name: PersonName = Field(description="Saved contact name.")
    phone_number: Phone = Field(description="Phone with country code, digits only, e.g. 14155550123.")


class Chat(Record):
    """A direct or group chat."""

    jid: str = Field(description="Chat JID: a contact JID for direct chats, <digits>@g.us for groups.")
    name: str = Field(description="Contact name or group subject.")
    is_group: bool = Field(description="True for a group chat.")
    participants: list[str] = Field(default_factory=list, description="Member JIDs (groups; the user excluded).")
    last_message_time: Optional[DateTime] = Field(default=None, description="Time of the newest message.")


class Message(Record):
    """One message in a chat."""

    id: Id("message") = Field(description="Message id, e.g. MSG-000012.")
    chat_jid: str = Field(description="Chat the message belongs to.")
    sender: str = Field(description="Sender JID ('me' for the user's own messages).")
    sender_phone_number: Phone = Field(description="Sender phone, digits only.")
    is_from_me: bool = Field(description="True when the user sent it.")
    content: str = Field(description="Text, or the caption of a media message.")
    timestamp: DateTime = Field(description="When it was sent.")
    media_type: Optional[MediaType] = Field(default=None, description="Kind of attached media, if any.")
    filename: Optional[FilePath] = Field(default=None, description="Attached file name or path, if any.")


class MessagingState(ServiceState):
    """Contacts, chats and messages (oldest first)."""

    contacts: dict[str, Contact] = Field(default_factory=dict, description="Contacts by JID.")
    chats: dict[str, Chat] = Field(default_factory=dict, description="Chats by JID.")
    messages: dict[str, Message] = Field(default_factory=dict, description="Messages by id, oldest first.")


def _digits(recipient: str) -> str:
    return _NON_DIGIT.sub("", recipient.strip())


class Messaging(Service):
    """WhatsApp-style messaging: contacts by phone number, direct and group chats, send and search messages."""

    name = "messaging"
    description = "WhatsApp messaging: contacts by phone number, chats and groups, message history and search, send texts and files."
    domain = "communication"
    spec_source = "@s3cr1z_whatsapp-mcp"
    State = MessagingState

    # ---------------------------------------------------------------- helpers
    def _chat_messages(self, chat_jid: str) -> list[Message]:
        return [m for m in self.state.messages.values() if m.chat_jid == chat_jid]

    def _last(self, chat_jid: str) -> Optional[dict]:
        msgs = self._chat_messages(chat_jid)
        return msgs[-1].model_dump() if msgs else None

    def _chat_view(self, c: Chat, include_last_message: bool) -> dict:
        out = c.model_dump()
        if include_last_message:
            out["last_message"] = self._last(c.jid)
        return out

    def _resolve(self, recipient: str) -> Chat:
        """The chat for a phone number or JID; a direct chat is opened for a new number."""
        text = recipient.strip()
        if "@" in text:
            chat = self.state.chats.get(text)
            if chat is not None:
                return chat
            user, _, server = text.partition("@")
            if server != USER or not user.isdigit():
                raise NotFound(f"no chat {text!r}; group JIDs must exist (list_chats), "
                               f"direct JIDs look like 14155550123@{USER}.")
            text = user
        digits = _digits(text)
        if not digits.isdigit() or not 8 <= len(digits) <= 15:
            raise InvalidArgument(f"recipient {recipient!r} is not a phone number with country code "
                                  "(8-15 digits, e.g. 14155550123) or a chat JID.")
        jid = f"{digits}@{USER}"
        chat = self.state.chats.get(jid)
        if chat is None:
            contact = self.state.contacts.get(jid)
            chat = Chat(jid=jid, name=contact.name if contact else digits, is_group=False)
            self.state.chats[jid] = chat
        return chat

    def _send(self, recipient: str, content: str, media_type: Optional[str], filename: Optional[str]) -> dict:
        chat = self._resolve(recipient)
        ts = self.now()
        msg = Message(id=self.new_id("MSG", width=6), chat_jid=chat.jid, sender="me", sender_phone_number=MY_NUMBER,
                      is_from_me=True, content=content, timestamp=ts, media_type=media_type, filename=filename)
        self.state.messages[msg.id] = msg
        chat.last_message_time = ts
        return {"success": True, "message": f"Message sent to {chat.name} ({chat.jid})", "message_id": msg.id,
                "chat_jid": chat.jid, "timestamp": ts}

    @staticmethod
    def _media_path(media_path: str) -> tuple[str, str]:
        if not media_path.startswith("/"):
            raise InvalidArgument(f"media_path must be an absolute path, e.g. /home/me/photo.jpg; got {media_path!r}.")
        name = media_path.rsplit("/", 1)[-1]
        ext = name.rsplit(".", 1)[-1].lower() if "." in name else ""
        if not name or not ext:
            raise InvalidArgument(f"media_path {media_path!r} needs a file name with an extension.")
        return name, ext

    # ------------------------------------------------------------------ reads
    @tool(read_only=True, returns=list[Contact])
    def search_contacts(self, query: str = Field(min_length=1)) -> list[dict]:
        """Search WhatsApp contacts by name or phone number.

        Args:
            query: text matched against contact names (case-insensitive) or phone digits.
        """
        q, digits = query.lower(), _digits(query)
        return [c.model_dump() for c in self.state.contacts.values()
                if q in c.name.lower() or (digits.isdigit() and digits in c.phone_number)]

    @tool(read_only=True, returns=list[Message])
    def list_messages(
        self,
        after: Optional[DateTime] = None,
        before: Optional[DateTime] = None,
        sender_phone_number: Optional[Phone] = None,
        chat_jid: Optional[str] = None,
        query: Optional[str] = None,
        limit: int = Field(default=20, ge=1, le=200),
        page: int = Field(default=0, ge=0),
        include_context: bool = True,
        context_before: int = Field(default=1, ge=0, le=20),
        context_after: int = Field(default=1, ge=0, le=20),
    ) -> list[dict]:
        """Get messages matching the criteria, newest first, optionally with surrounding messages.

        Args:
            after: only messages after this ISO-8601 time.
            before: only messages before this ISO-8601 time.
            sender_phone_number: only messages sent by this phone number.
            chat_jid: only messages in this chat.
            query: case-insensitive text to find in the content.
            limit: maximum number of matches per page (default 20).
            page: page number, 0-based (default 0).
            include_context: also return the messages around each match (default True).
            context_before: messages before each match to include (default 1).
            context_after: messages after each match to include (default 1).
        """
        phone = _digits(sender_phone_number) if sender_phone_number else None
        q = query.lower() if query else None
        hits = [m for m in self.state.messages.values()
                if (after is None or m.timestamp > after.replace(tzinfo=None)) and (
                    before is None or m.timestamp < before.replace(tzinfo=None))
                and (phone is None or m.sender_phone_number == phone) and (chat_jid is None or m.chat_jid == chat_jid)
                and (q is None or q in m.content.lower())]
        hits.sort(key=lambda m: (m.timestamp, m.id), reverse=True)
        hits = hits[page * limit:(page + 1) * limit]
        if not include_context:
            return [m.model_dump() for m in hits]
        return [self._context(m, context_before, context_after) for m in hits]

    def _context(self, m: Message, before: int, after: int) -> dict:
        chat = self._chat_messages(m.chat_jid)
        i = next(k for k, x in enumerate(chat) if x.id == m.id)
        return {"message": m.model_dump(), "before": [x.model_dump() for x in chat[max(0, i - before):i]],
                "after": [x.model_dump() for x in chat[i + 1:i + 1 + after]]}

    @tool(read_only=True, returns=list[Chat])
    def list_chats(
        self,
        query: Optional[str] = None,
        limit: int = Field(default=20, ge=1, le=200),
        page: int = Field(default=0, ge=0),
        include_last_message: bool = True,
        sort_by: Literal["last_active", "name"] = "last_active",
    ) -> list[dict]:
        """Get chats matching the criteria.

        Args:
            query: case-insensitive text to find in the chat name or JID.
            limit: maximum number of chats per page (default 20).
            page: page number, 0-based (default 0).
            include_last_message: include each chat's newest message (default True).
            sort_by: 'last_active' (newest first) or 'name'.
        """
        q = query.lower() if query else None
        chats = [c for c in self.state.chats.values() if q is None or q in c.name.lower() or q in c.jid]
        if sort_by == "name":
            chats.sort(key=lambda c: (c.name.lower(), c.jid))
        else:
            chats.sort(key=lambda c: (c.last_message_time or dt.datetime.min, c.jid), reverse=True)
        return [self._chat_view(c, include_last_message) for c in chats[page * limit:(page + 1) * limit]]

    @tool(read_only=True, returns=Chat)
    def get_chat(self, chat_jid: str, include_last_message: bool = True) -> dict:
        """Get chat metadata by JID.

        Args:
            chat_jid: the chat JID.
            include_last_message: include the newest message (default True).
        """
        return self._chat_view(self.lookup(self.state.chats, chat_jid, "chat"), include_last_message)

    @tool(read_only=True, returns=Chat)
    def get_direct_chat_by_contact(self, sender_phone_number: Phone) -> dict:
        """Get the direct chat with a phone number.

        Args:
            sender_phone_number: the phone number with country code (e.g. 14155550123).
        """
        jid = f"{_digits(sender_phone_number)}@{USER}"
        chat = self.state.chats.get(jid)
        if chat is None:
            raise NotFound(f"no direct chat with {sender_phone_number}; search_contacts or send_message to start one.")
        return self._chat_view(chat, True)

    @tool(read_only=True, returns=list[Chat])
    def get_contact_chats(
        self, jid: str, limit: int = Field(default=20, ge=1, le=200), page: int = Field(default=0, ge=0)
    ) -> list[dict]:
        """Get all chats involving the contact: the direct chat and groups they are in.

        Args:
            jid: the contact's JID.
            limit: maximum number of chats per page (default 20).
            page: page number, 0-based (default 0).
        """
        chats = [c for c in self.state.chats.values() if c.jid == jid or jid in c.participants]
        return [c.model_dump() for c in chats[page * limit:(page + 1) * limit]]

    @tool(read_only=True, returns=Message)
    def get_last_interaction(self, jid: str) -> dict:
        """Get the most recent message involving the contact (sent by them or in their direct chat).

        Args:
            jid: the contact's JID.
        """
        for m in reversed(list(self.state.messages.values())):
            if m.sender == jid or m.chat_jid == jid:
                return m.model_dump()
        raise NotFound(f"no messages involve {jid!r}.")

    @tool(read_only=True, returns=Message)
    def get_message_context(
        self, message_id: Id("message"), before: int = Field(default=5, ge=0, le=50),
        after: int = Field(default=5, ge=0, le=50),
    ) -> dict:
        """Get the messages around one message in its chat.

        Args:
            message_id: the message id.
            before: messages before it to include (default 5).
            after: messages after it to include (default 5).
        """
        return self._context(self.lookup(self.state.messages, message_id, "message"), before, after)

    @tool(read_only=True)
    def download_media(self, message_id: Id("message"), chat_jid: str) -> dict:
        """Download the media of a message and get the local file path.

        Args:
            message_id: the message containing the media.
            chat_jid: the chat containing the message.
        """
        m = self.lookup(self.state.messages, message_id, "message")
        if m.chat_jid != chat_jid:
            raise NotFound(f"message {message_id} is not in chat {chat_jid} (it is in {m.chat_jid}).")
        if m.media_type is None or m.filename is None:
            raise Unprocessable(f"message {message_id} has no media to download.")
        name = m.filename.rsplit("/", 1)[-1]
        return {"success": True, "message": f"Media downloaded ({m.media_type})",
                "file_path": f"/store/{chat_jid.split('@')[0]}/{message_id}-{name}"}

    # ----------------------------------------------------------------- writes
    @tool(read_only=False, returns=Message)
    def send_message(self, recipient: Phone = Field(min_length=3), message: str = Field(min_length=1, max_length=4096)) -> dict:
        """Send a message to a person (phone number or JID) or a group (group JID).

        Args:
            recipient: phone number with country code (e.g. 14155550123) or a JID such as
                14155550123@s.whatsapp.net or a group JID like 120363040000000001@g.us.
            message: the text to send.
        """
        return self._send(recipient, message, None, None)

    @tool(read_only=False, returns=Message)
    def send_file(self, recipient: Phone = Field(min_length=3), media_path: FilePath = Field(min_length=2)) -> dict:
        """Send a picture, video or document to a person or group.

        Args:
            recipient: phone number with country code or a JID (group JID for groups).
            media_path: absolute path of the file to send.
        """
        name, ext = self._media_path(media_path)
        return self._send(recipient, name, _EXT.get(ext, "document"), media_path)

    @tool(read_only=False, returns=Message)
    def send_audio_message(self, recipient: Phone = Field(min_length=3), media_path: FilePath = Field(min_length=2)) -> dict:
        """Send an audio file as a voice message (converted to Opus .ogg) to a person or group.

        Args:
            recipient: phone number with country code or a JID (group JID for groups).
            media_path: absolute path of the audio file (.ogg, .mp3, .wav, .m4a, .opus).
        """
        name, ext = self._media_path(media_path)
        if _EXT.get(ext) != "audio":
            raise InvalidArgument(f"{name} is not an audio file; use send_file for other media.")
        ogg = media_path.rsplit(".", 1)[0] + ".ogg"
        return self._send(recipient, "", "audio", ogg)

    # ------------------------------------------------------------------ seeds
    @classmethod
    def build_seed_state(cls, fake: Faker, rng: random.Random, today: dt.date) -> MessagingState:
        st = MessagingState()
        prefixes = ("1415555", "1212555", "1512555", "4477009", "4915112", "5511987")
        for i in range(10):
            phone = f"{prefixes[i % len(prefixes)]}{rng.randrange(10**4):04d}"
            jid = f"{phone}@{USER}"
            st.contacts[jid] = Contact(jid=jid, name=fake.name(), phone_number=phone)
        contacts = list(st.contacts.values())
        for c in contacts[:8]:
            st.chats[c.jid] = Chat(jid=c.jid, name=c.name, is_group=False)
        for k, subject in enumerate(("Weekend Hikers", "Project Falcon")):
            jid = f"1203630400000000{k + 1:02d}@{GROUP}"
            st.chats[jid] = Chat(jid=jid, name=subject, is_group=True,
                                 participants=[c.jid for c in rng.sample(contacts, 4)])
        clock = dt.datetime.combine(today - dt.timedelta(days=6), dt.time(8, 0))
        chats = list(st.chats.values())
        n = 0
        for _ in range(36):
            chat = chats[rng.randrange(len(chats))]
            clock += dt.timedelta(minutes=rng.randint(20, 260))
            if clock.hour >= 22 or clock.hour < 7:  # people sleep: resume next morning
                clock = dt.datetime.combine(clock.date() + dt.timedelta(days=clock.hour >= 22), dt.time(7, 40))
            if clock.date() >= today:
                break
            mine = rng.random() < 0.4
            sender = "me" if mine else (rng.choice(chat.participants) if chat.is_group else chat.jid)
            phone = MY_NUMBER if mine else st.contacts[sender].phone_number
            text, media = rng.choice(_LINES)
            n += 1
            st.messages[f"MSG-{n:06d}"] = Message(
                id=f"MSG-{n:06d}", chat_jid=chat.jid, sender=sender, sender_phone_number=phone, is_from_me=mine,
                content=text, timestamp=clock, media_type=media, filename=f"IMG-{n:04d}.jpg" if media else None)
            chat.last_message_time = clock
        st.counters["MSG"] = n + 1
        return st


_LINES = (
    ("Are we still on for Saturday morning?", None), ("Running about 10 minutes late, sorry!", None),
    ("Can you send me the invoice from last week?", None), ("Here's the photo from yesterday", "image"),
    ("Thanks, got it.", None), ("The delivery arrived, all good.", None), ("Call me when you're free.", None),
    ("Meeting moved to 3pm tomorrow.", None), ("Trail map attached", "image"), ("Happy birthday!!", None),
    ("Did the plumber come by?", None), ("I'll pick up the tickets.", None),
)
