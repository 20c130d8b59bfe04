"""State records of the gmail service: labels, messages, drafts and the mailbox.

Kept apart from the tools so that hooks and tests can build records without
importing the service, and the seed factory can build a mailbox without it.
"""

from __future__ import annotations

from typing import Literal, Optional

from pydantic import BaseModel, ConfigDict, Field

from compoworld_gym.entities import DateTime, Email, Id
from compoworld_gym.envs.services._company import OPS_EMAIL
from compoworld_gym.service import Record, ServiceState

SYSTEM_LABELS = ("INBOX", "SENT", "DRAFT", "UNREAD", "STARRED", "IMPORTANT", "TRASH", "SPAM")
#: System labels a client may not add or remove by hand (Gmail rejects it).
FIXED_LABELS = frozenset({"SENT", "DRAFT"})


class LabelColor(BaseModel):
    """Label colours as hex strings, e.g. '#ffffff'."""

    model_config = ConfigDict(extra="forbid")
    textColor: str = Field(pattern=r"^#[0-9a-fA-F]{6}$", description="Text colour, e.g. '#000000'.")
    backgroundColor: str = Field(pattern=r"^#[0-9a-fA-F]{6}$", description="Background colour.")


class Label(Record):
    """A system or user label."""

    id: Id("label") = Field(description="Label id: the system name (INBOX, UNREAD, ...) or LBL-0001.")
    name: str = Field(description="Display name.")
    type: Literal["system", "user"] = Field(description="system labels are built in.")
    messageListVisibility: Literal["show", "hide"] = Field(default="show", description="Shown in message list.")
    labelListVisibility: Literal["labelShow", "labelShowIfUnread", "labelHide"] = Field(
        default="labelShow", description="Shown in the label list.")
    color: Optional[LabelColor] = Field(default=None, description="Colours of a user label.")


class Message(Record):
    """One email in the mailbox (received or sent)."""

    id: Id("email_message") = Field(description="Message id, e.g. MSG-0001.")
    thread_id: Id("email_thread") = Field(description="Conversation id, e.g. THR-0001.")
    sender: Email = Field(description="The From address.")
    to: list[Email] = Field(default_factory=list, description="To addresses.")
    cc: list[Email] = Field(default_factory=list, description="Cc addresses.")
    bcc: list[Email] = Field(default_factory=list, description="Bcc addresses (sent mail only).")
    subject: str = Field(description="Subject line.")
    body: str = Field(description="Plain-text body.")
    label_ids: list[Id("label")] = Field(default_factory=list, description="Labels; UNREAD absent = read.")
    date: DateTime = Field(description="When it was received or sent.")


class Draft(Record):
    """An unsent draft."""

    id: Id("draft") = Field(description="Draft id, e.g. DRF-0001.")
    thread_id: Optional[Id("email_thread")] = Field(default=None, description="Thread it replies to, if any.")
    to: list[Email] = Field(default_factory=list, description="To addresses.")
    cc: list[Email] = Field(default_factory=list, description="Cc addresses.")
    bcc: list[Email] = Field(default_factory=list, description="Bcc addresses.")
    subject: str = Field(default="", description="Subject line.")
    body: str = Field(default="", description="Plain-text body.")
    updated_at: DateTime = Field(description="When the draft was last saved.")


class GmailState(ServiceState):
    """The mailbox: its address, labels, messages and drafts."""

    email_address: Email = Field(default=OPS_EMAIL, description="The mailbox owner's address (From of sent mail).")
    labels: dict[str, Label] = Field(default_factory=dict, description="Labels by id.")
    messages: dict[str, Message] = Field(default_factory=dict, description="Messages by id.")
    drafts: dict[str, Draft] = Field(default_factory=dict, description="Drafts by id.")
