"""Records of the whatsapp service (WaPulse WhatsApp API).

WaPulse addresses a person's chat by their phone number with country code and
no symbols (``15035550101``; the chat id is ``15035550101@c.us``) and a group
by its group id (``120363020000000001@g.us``). Groups keep their
participants, admins, invite code and pending join requests; every message
sent or received is kept in a chat's history (the outbox of this instance).
"""

from __future__ import annotations

from typing import Literal, Optional

from pydantic import Field

from compoworld_gym.entities import DateTime, FilePath, Id, Phone, Url
from compoworld_gym.service import Record, ServiceState

MessageKind = Literal["text", "image", "video", "document", "audio", "voice"]


class Chat(Record):
    """A conversation of the instance: a person (type user) or a group (type group)."""

    id: Id("whatsapp_chat") = Field(description="Chat id: <digits>@c.us for a person, <group digits>@g.us for a group.")
    type: Literal["user", "group"] = Field(description="user (one person) or group.")
    name: str = Field(description="Saved contact name (user chats) or group subject (group chats).")
    phone: Optional[Phone] = Field(default=None, description="The person's number, digits with country code (users).")
    unread_count: int = Field(default=0, ge=0, description="Incoming messages not read yet.")
    archived: bool = Field(default=False, description="True when the chat is archived on the phone.")
    last_message_at: Optional[DateTime] = Field(default=None, description="Time of the newest message.")


class JoinRequest(Record):
    """A pending request to join a group (groups with admin approval on)."""

    number: Phone = Field(description="Requester's number, digits with country code.")
    requested_at: DateTime = Field(description="When the request was made.")
    method: Literal["invite_link", "linked_group_join"] = Field(description="How the request was made.")


class Group(Record):
    """A WhatsApp group the instance's number belongs (or belonged) to."""

    id: Id("whatsapp_group") = Field(description="Group id, e.g. 120363020000000001@g.us.")
    name: str = Field(description="Group subject.")
    description: str = Field(default="", description="Group description.")
    owner: Phone = Field(description="Number of the group's creator (cannot be removed or demoted by other admins).")
    participants: list[Phone] = Field(description="Member numbers, admins included.")
    admins: list[Phone] = Field(description="Admin numbers (a subset of participants).")
    invite_code: str = Field(description="Current invite code; the link is https://chat.whatsapp.com/<code>.")
    revoked_invite_codes: list[str] = Field(default_factory=list, description="Earlier codes, no longer valid.")
    requests: list[JoinRequest] = Field(default_factory=list, description="Pending join requests.")
    created_at: DateTime = Field(description="When the group was created.")
    left: bool = Field(default=False, description="True once the instance's number left the group.")


class Message(Record):
    """A message of a chat's history, incoming or sent by this instance."""

    id: Id("whatsapp_message") = Field(description="Message id, e.g. WAM-000012.")
    chat_id: Id("whatsapp_chat") = Field(description="Chat the message belongs to.")
    chat_type: Literal["user", "group"] = Field(description="user or group chat.")
    from_me: bool = Field(description="True when this instance sent it.")
    sender: Phone = Field(description="Sender's number, digits with country code.")
    body: str = Field(description="Text of the message, or the caption of a file.")
    kind: MessageKind = Field(default="text", description="text, image, video, document, audio or voice.")
    filename: Optional[FilePath] = Field(default=None, description="File name of an attachment.")
    file: Optional[Url] = Field(default=None, description="URL (or data: URI) of the attachment as sent.")
    timestamp: DateTime = Field(description="When it was sent.")
    ack: Literal["sent", "delivered", "read"] = Field(default="sent", description="Delivery state.")


class WhatsappState(ServiceState):
    """The WaPulse instance (one connected number), its chats, groups and message history."""

    instance_id: str = Field(default="", description="The WaPulse instance id (get_all_groups takes it).")
    my_number: Phone = Field(default="", description="The instance's own WhatsApp number.")
    unregistered: list[Phone] = Field(default_factory=list, description="Numbers known not to be on WhatsApp.")
    chats: dict[str, Chat] = Field(default_factory=dict, description="Chats by chat id.")
    groups: dict[str, Group] = Field(default_factory=dict, description="Groups by group id.")
    messages: dict[str, Message] = Field(default_factory=dict, description="Messages by id, oldest first.")
