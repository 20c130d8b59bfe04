"""Gmail: the operations team's mailbox (``ops@company.example``).

Follows the ``@shinzo-labs_gmail-mcp`` server of
``compoworld_gym/data/mcp_servers.jsonl``: the tools below keep its names,
parameter names, types and required sets (the ``raw`` RFC 2822 input and
``includeBodyHtml`` are left out: bodies here are plain text). As in Gmail,
a message's state is its ``label_ids``: ``UNREAD`` absent means read,
``SENT`` marks mail this mailbox sent, ``TRASH`` trashed. Search ``q``
understands the common Gmail operators (see :mod:`._gmail_query`).
"""

from __future__ import annotations

import datetime as dt
import random
from typing import Literal, Optional

from faker import Faker
from pydantic import Field

from compoworld_gym.entities import Email, Id
from compoworld_gym.envs.services._gmail_models import FIXED_LABELS, Draft, GmailState, Label, LabelColor, Message
from compoworld_gym.envs.services._gmail_query import message_matches, parse_query
from compoworld_gym.envs.services._gmail_seed import seed_gmail
from compoworld_gym.errors import Conflict, InvalidArgument, Unprocessable
from compoworld_gym.service import Service, tool


def _snippet(m: Message | Draft) -> str:
    text = " ".join(m.body.split())
    return text if len(text) <= 100 else text[:97] + "..."


def _summary(m: Message) -> dict:
    return {**m.model_dump(exclude={"body", "bcc"}), "snippet": _snippet(m)}


class Gmail(Service):
    """A Gmail mailbox: search, read, label, send and draft email."""

    name = "gmail"
    description = "Gmail mailbox of the operations team: search, read, label, draft and send email."
    domain = "communication"
    spec_source = "@shinzo-labs_gmail-mcp"
    State = GmailState

    # -------------------------------------------------------------- messages
    @tool(read_only=True, returns=list[Message])
    def list_messages(
        self,
        maxResults: int = Field(default=50, ge=1, le=500),  # noqa: N803 - spec name
        q: Optional[str] = None,
        labelIds: Optional[list[Id("label")]] = None,  # noqa: N803
        includeSpamTrash: bool = False,  # noqa: N803
    ) -> dict:
        """List messages, newest first, optionally filtered by a Gmail search query and labels.

        Args:
            maxResults: maximum number of messages to return (1-500).
            q: Gmail search query, e.g. 'from:anna@x.com is:unread subject:refund after:2026/01/01'.
                Supports from:, to:, cc:, subject:, label:, in:, is:unread/read/starred/important,
                after:, before:, newer_than:Nd, older_than:Nd, "quoted phrases" and plain words.
            labelIds: only messages carrying all of these label ids.
            includeSpamTrash: also return messages in SPAM and TRASH.
        """
        found = self._search(q, labelIds, includeSpamTrash)
        return {"messages": [_summary(m) for m in found[:maxResults]], "resultSizeEstimate": len(found)}

    @tool(read_only=True, returns=Message)
    def get_message(self, id: Id("email_message")) -> dict:  # noqa: A002 - spec name
        """Get one message with its full body.

        Args:
            id: the message id, e.g. MSG-0001.
        """
        return self.lookup(self.state.messages, id, "message").model_dump()

    @tool(read_only=False, returns=Message)
    def send_message(
        self,
        to: list[Email] = Field(min_length=1),
        subject: str = "",
        body: str = "",
        cc: list[Email] = Field(default_factory=list),
        bcc: list[Email] = Field(default_factory=list),
        threadId: Optional[Id("email_thread")] = None,  # noqa: N803
    ) -> dict:
        """Send an email from the mailbox; it is stored with the SENT label.

        Args:
            to: recipient email addresses (at least one).
            subject: subject line; when replying in a thread and left empty, 'Re: <thread subject>'.
            body: plain-text body.
            cc: Cc addresses.
            bcc: Bcc addresses.
            threadId: the thread to reply in, e.g. THR-0001.
        """
        if not subject and threadId is None:
            raise InvalidArgument("subject is required when not replying in a thread (threadId).")
        return self._deliver(threadId, list(to), list(cc), list(bcc), subject, body).model_dump()

    @tool(read_only=False, returns=Message)
    def modify_message(
        self,
        id: Id("email_message"),  # noqa: A002
        addLabelIds: list[Id("label")] = Field(default_factory=list),  # noqa: N803
        removeLabelIds: list[Id("label")] = Field(default_factory=list),  # noqa: N803
    ) -> dict:
        """Add or remove labels on one message (remove UNREAD to mark it read).

        Args:
            id: the message id.
            addLabelIds: label ids to add, e.g. ['STARRED', 'LBL-0001'].
            removeLabelIds: label ids to remove, e.g. ['UNREAD', 'INBOX'].
        """
        msg = self.lookup(self.state.messages, id, "message")
        self._check_label_change(addLabelIds, removeLabelIds)
        self._relabel(msg, addLabelIds, removeLabelIds)
        return _summary(msg)

    @tool(read_only=False, returns=list[Message])
    def batch_modify_messages(
        self,
        ids: list[Id("email_message")] = Field(min_length=1, max_length=1000),
        addLabelIds: list[Id("label")] = Field(default_factory=list),  # noqa: N803
        removeLabelIds: list[Id("label")] = Field(default_factory=list),  # noqa: N803
    ) -> dict:
        """Add or remove labels on several messages at once (all or nothing).

        Args:
            ids: the message ids.
            addLabelIds: label ids to add.
            removeLabelIds: label ids to remove.
        """
        msgs = [self.lookup(self.state.messages, i, "message") for i in ids]
        self._check_label_change(addLabelIds, removeLabelIds)
        for msg in msgs:
            self._relabel(msg, addLabelIds, removeLabelIds)
        return {"modified": [m.id for m in msgs]}

    @tool(read_only=False, returns=Message)
    def trash_message(self, id: Id("email_message")) -> dict:  # noqa: A002
        """Move a message to the trash (adds TRASH, removes INBOX).

        Args:
            id: the message id.
        """
        msg = self.lookup(self.state.messages, id, "message")
        if "TRASH" in msg.label_ids:
            raise Conflict(f"message {id} is already in the trash.")
        self._relabel(msg, ["TRASH"], ["INBOX"])
        return _summary(msg)

    # --------------------------------------------------------------- threads
    @tool(read_only=True, returns=list[Message])
    def get_thread(self, id: Id("email_thread")) -> dict:  # noqa: A002
        """Get a conversation: all its messages, oldest first, with bodies.

        Args:
            id: the thread id, e.g. THR-0001.
        """
        msgs = sorted((m for m in self.state.messages.values() if m.thread_id == id), key=lambda m: (m.date, m.id))
        if not msgs:
            self.lookup({}, id, "thread")
        return {"id": id, "messages": [m.model_dump() for m in msgs]}

    @tool(read_only=True, returns=list[Message])
    def list_threads(
        self,
        maxResults: int = Field(default=50, ge=1, le=500),  # noqa: N803
        q: Optional[str] = None,
        labelIds: Optional[list[Id("label")]] = None,  # noqa: N803
        includeSpamTrash: bool = False,  # noqa: N803
    ) -> dict:
        """List conversations having at least one matching message, newest activity first.

        Args:
            maxResults: maximum number of threads (1-500).
            q: Gmail search query (same operators as list_messages).
            labelIds: only threads with a message carrying all of these label ids.
            includeSpamTrash: also consider messages in SPAM and TRASH.
        """
        threads: dict[str, list[Message]] = {}
        for m in self._search(q, labelIds, includeSpamTrash):
            threads.setdefault(m.thread_id, []).append(m)
        out = []
        for tid, msgs in threads.items():
            everything = [m for m in self.state.messages.values() if m.thread_id == tid]
            first = min(everything, key=lambda m: (m.date, m.id))
            latest = max(everything, key=lambda m: (m.date, m.id))
            out.append({"id": tid, "subject": first.subject, "snippet": _snippet(latest),
                        "messageCount": len(everything), "lastMessageDate": latest.date})
        return {"threads": out[:maxResults], "resultSizeEstimate": len(out)}

    # ---------------------------------------------------------------- drafts
    @tool(read_only=False, returns=Draft)
    def create_draft(
        self,
        to: list[Email] = Field(default_factory=list),
        subject: str = "",
        body: str = "",
        cc: list[Email] = Field(default_factory=list),
        bcc: list[Email] = Field(default_factory=list),
        threadId: Optional[Id("email_thread")] = None,  # noqa: N803
    ) -> dict:
        """Save a draft (not sent) that send_draft can send later.

        Args:
            to: recipient addresses.
            subject: subject line.
            body: plain-text body.
            cc: Cc addresses.
            bcc: Bcc addresses.
            threadId: the thread the draft replies in.
        """
        if threadId is not None:
            self._thread_subject(threadId)
        draft = Draft(id=self.new_id("DRF"), thread_id=threadId, to=list(to), cc=list(cc), bcc=list(bcc),
                      subject=subject, body=body, updated_at=self.now())
        self.state.drafts[draft.id] = draft
        return draft.model_dump()

    @tool(read_only=True, returns=list[Draft])
    def list_drafts(
        self,
        maxResults: int = Field(default=50, ge=1, le=500),  # noqa: N803
        q: Optional[str] = None,
    ) -> dict:
        """List drafts, newest first, optionally matching words of a query.

        Args:
            maxResults: maximum number of drafts (1-500).
            q: only drafts matching this query (to:, subject: and plain words).
        """
        terms = parse_query(q)
        drafts = [d for d in self.state.drafts.values()
                  if message_matches(_as_message(d, self.state.email_address), terms, self.today)]
        drafts.sort(key=lambda d: (d.updated_at, d.id), reverse=True)
        return {"drafts": [{**d.model_dump(exclude={"body"}), "snippet": _snippet(d)} for d in drafts[:maxResults]],
                "resultSizeEstimate": len(drafts)}

    @tool(read_only=True, returns=Draft)
    def get_draft(self, id: Id("draft")) -> dict:  # noqa: A002
        """Get one draft with its body.

        Args:
            id: the draft id, e.g. DRF-0001.
        """
        return self.lookup(self.state.drafts, id, "draft").model_dump()

    @tool(read_only=False, returns=Message)
    def send_draft(self, id: Id("draft")) -> dict:  # noqa: A002
        """Send a draft: it becomes a SENT message and the draft is removed.

        Args:
            id: the draft id.
        """
        d = self.lookup(self.state.drafts, id, "draft")
        if not d.to:
            raise Unprocessable(f"draft {id} has no recipients; create a new draft with 'to' addresses.")
        if not d.subject and d.thread_id is None:
            raise Unprocessable(f"draft {id} has no subject; create a new draft with a subject.")
        msg = self._deliver(d.thread_id, d.to, d.cc, d.bcc, d.subject, d.body)
        del self.state.drafts[id]
        return msg.model_dump()

    @tool(read_only=False, destructive=True)
    def delete_draft(self, id: Id("draft")) -> dict:  # noqa: A002
        """Delete a draft permanently.

        Args:
            id: the draft id.
        """
        self.lookup(self.state.drafts, id, "draft")
        del self.state.drafts[id]
        return {"deleted": id}

    # ---------------------------------------------------------------- labels
    @tool(read_only=True, returns=list[Label])
    def list_labels(self) -> dict:
        """List all system and user labels with their ids."""
        return {"labels": [lb.model_dump() for lb in self.state.labels.values()]}

    @tool(read_only=True, returns=Label)
    def get_label(self, id: Id("label")) -> dict:  # noqa: A002
        """Get one label with its total and unread message counts.

        Args:
            id: the label id, e.g. INBOX or LBL-0001.
        """
        lb = self.lookup(self.state.labels, id, "label")
        tagged = [m for m in self.state.messages.values() if id in m.label_ids]
        return {**lb.model_dump(), "messagesTotal": len(tagged),
                "messagesUnread": sum("UNREAD" in m.label_ids for m in tagged)}

    @tool(read_only=False, returns=Label)
    def create_label(
        self,
        name: str = Field(min_length=1, max_length=225),
        messageListVisibility: Literal["show", "hide"] = "show",  # noqa: N803
        labelListVisibility: Literal["labelShow", "labelShowIfUnread", "labelHide"] = "labelShow",  # noqa: N803
        color: Optional[LabelColor] = None,
    ) -> dict:
        """Create a user label.

        Args:
            name: display name; must differ (ignoring case) from every existing label.
            messageListVisibility: 'show' or 'hide' in the message list.
            labelListVisibility: 'labelShow', 'labelShowIfUnread' or 'labelHide'.
            color: optional {textColor, backgroundColor} hex colours.
        """
        for lb in self.state.labels.values():
            if lb.name.lower() == name.strip().lower():
                raise Conflict(f"a label named {lb.name!r} already exists (id {lb.id}).")
        lb = Label(id=self.new_id("LBL"), name=name.strip(), type="user", color=color,
                   messageListVisibility=messageListVisibility, labelListVisibility=labelListVisibility)
        self.state.labels[lb.id] = lb
        return lb.model_dump()

    @tool(read_only=True)
    def get_profile(self) -> dict:
        """Get the mailbox address and its message and thread totals."""
        msgs = self.state.messages.values()
        return {"emailAddress": self.state.email_address, "messagesTotal": len(msgs),
                "threadsTotal": len({m.thread_id for m in msgs})}

    # --------------------------------------------------------------- helpers
    def _search(self, q: Optional[str], label_ids: Optional[list[str]], spam_trash: bool) -> list[Message]:
        terms = parse_query(q)
        for lid in label_ids or []:
            self.lookup(self.state.labels, lid, "label")
        wants_bin = any(k == "in" and v in ("trash", "spam", "anywhere") for k, v in terms)
        names = {lb.name.lower(): lb.id for lb in self.state.labels.values()}
        out = []
        for m in self.state.messages.values():
            if not (spam_trash or wants_bin) and {"TRASH", "SPAM"} & set(m.label_ids):
                continue
            if any(lid not in m.label_ids for lid in label_ids or []):
                continue
            if message_matches(m, terms, self.today, names):
                out.append(m)
        return sorted(out, key=lambda m: (m.date, m.id), reverse=True)

    def _thread_subject(self, thread_id: str) -> str:
        msgs = [m for m in self.state.messages.values() if m.thread_id == thread_id]
        if not msgs:
            self.lookup({}, thread_id, "thread")
        return min(msgs, key=lambda m: (m.date, m.id)).subject

    def _deliver(self, thread_id, to, cc, bcc, subject, body) -> Message:
        if thread_id is not None:
            first = self._thread_subject(thread_id)
            subject = subject or (first if first.lower().startswith("re:") else f"Re: {first}")
        msg = Message(id=self.new_id("MSG"), thread_id=thread_id or self.new_id("THR"),
                      sender=self.state.email_address, to=to, cc=cc, bcc=bcc, subject=subject, body=body,
                      label_ids=["SENT"], date=self.now())
        self.state.messages[msg.id] = msg
        return msg

    def _check_label_change(self, add: list[str], remove: list[str]) -> None:
        if not add and not remove:
            raise InvalidArgument("nothing to change: give addLabelIds and/or removeLabelIds.")
        for lid in [*add, *remove]:
            self.lookup(self.state.labels, lid, "label")
            if lid in FIXED_LABELS:
                raise InvalidArgument(f"label {lid} cannot be added or removed by hand.")
        both = set(add) & set(remove)
        if both:
            raise InvalidArgument(f"labels {sorted(both)} are both added and removed.")

    @staticmethod
    def _relabel(msg: Message, add: list[str], remove: list[str]) -> None:
        kept = [lid for lid in msg.label_ids if lid not in remove]
        msg.label_ids = kept + [lid for lid in dict.fromkeys(add) if lid not in kept]

    # ------------------------------------------------------------------ seeds
    @classmethod
    def build_seed_state(cls, fake: Faker, rng: random.Random, today: dt.date) -> GmailState:
        return seed_gmail(fake, rng, today)


def _as_message(d: Draft, owner: str) -> Message:
    return Message(id="draft", thread_id=d.thread_id or "draft", sender=owner, to=d.to, cc=d.cc, subject=d.subject,
                   body=d.body, label_ids=["DRAFT"], date=d.updated_at)
