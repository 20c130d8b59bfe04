"""E-signature: envelopes of documents sent to ordered signers, DocuSign style.

No e-signature server is in ``compoworld_gym/data/mcp_servers.jsonl``; the
interface follows the DocuSign eSignature REST API v2.1: envelopes
(``/envelopes/{envelopeId}``) with documents and signer recipients by email
and ``routingOrder``; envelope status ``created`` (draft) -> ``sent`` ->
``delivered`` -> ``completed``, or ``declined`` / ``voided``. Rules the real
API enforces: a signer acts only once every earlier routing order has signed
(409); documents and recipients change only while the envelope is a draft
(later signers may still be added or corrected in flight); a draft is
deleted, not voided; only an envelope in flight can be voided, with a
reason, or reminded. Signing, viewing and declining are the recipients'
events as DocuSign Connect reports them. Senders are the company roster;
each envelope names the counterparty company.
"""

from __future__ import annotations

import datetime as dt
import random
from typing import Optional

from faker import Faker
from pydantic import Field

from compoworld_gym.entities import CompanyName, Email, Id, PersonName
from compoworld_gym.envs.services._blocks import Lifecycle, eq, ieq, select
from compoworld_gym.envs.services._e_signature_models import (
    IN_FLIGHT, AuditEvent, Document, Envelope, EnvelopeStatus, ESignatureState, Signer, current_order, release_next,
    require_turn, signer,
)
from compoworld_gym.envs.services._e_signature_seed import build_seed
from compoworld_gym.errors import Conflict, Unprocessable
from compoworld_gym.service import Record, Service, tool

ENVELOPE = Lifecycle("envelope", {
    "edit": ("created",), "send": ("created",), "delete": ("created",), "void": IN_FLIGHT, "remind": IN_FLIGHT,
    "sign": IN_FLIGHT, "correct": ("created", *IN_FLIGHT)})
_BRIEF = {"audit", "documents"}


class DocumentInput(Record):
    """A document to add: its file name and page count."""

    name: str = Field(min_length=1, max_length=120, description="File name, e.g. 'Order Form.pdf'.")
    pages: int = Field(default=1, ge=1, le=500, description="Page count.")


class SignerInput(Record):
    """A signer to add: name, email and routing order."""

    name: PersonName = Field(min_length=1, max_length=120, description="Signer's name.")
    email: Email = Field(description="Signer's email.")
    routing_order: int = Field(default=1, ge=1, le=20, description="Signing order (1 signs first).")


class ESignature(Service):
    """DocuSign-style envelopes: documents, signers in routing order, send/void/remind, signing events."""

    name = "e_signature"
    description = ("E-signature envelopes (DocuSign style): documents, signers in routing order, "
                   "send/remind/void, signing and decline events, audit trail.")
    domain = "legal"
    spec_source = None
    State = ESignatureState

    def _env(self, envelope_id: str) -> Envelope:
        return self.lookup(self.state.envelopes, envelope_id, "envelope")

    def _log(self, env: Envelope, action: str, actor: str, detail: str = "") -> dt.datetime:
        at = self.now()
        env.audit.append(AuditEvent(at=at, action=action, actor=actor.lower(), detail=detail))
        return at

    @staticmethod
    def _view(env: Envelope) -> dict:
        return {**env.model_dump(exclude={"audit"}), "current_routing_order": current_order(env)}

    @staticmethod
    def _add_signer(env: Envelope, s: SignerInput) -> Signer:
        if any(x.email.lower() == s.email.lower() for x in env.signers):
            raise Conflict(f"{s.email} is already a signer of envelope {env.id}.")
        new = Signer(recipient_id=max((x.recipient_id for x in env.signers), default=0) + 1, name=s.name,
                     email=s.email.lower(), routing_order=s.routing_order)
        env.signers.append(new)
        return new

    def _send(self, env: Envelope) -> None:
        if not env.documents or not env.signers:
            raise Unprocessable(f"envelope {env.id} needs at least one document and one signer to be sent.")
        env.status, env.sent_at = "sent", self._log(env, "Sent", env.sender_email)
        release_next(env)

    # ------------------------------------------------------------------ reads
    @tool(read_only=True, returns=list[Envelope])
    def list_envelopes(self, status: Optional[EnvelopeStatus] = None, company: Optional[CompanyName] = None,
                       recipient_email: Optional[Email] = None, sender_email: Optional[Email] = None,
                       count: int = Field(default=50, ge=1, le=200)) -> list[dict]:
        """List envelopes (without documents and audit trail), newest first.

        Args:
            status: only envelopes in this status.
            company: only envelopes with this counterparty company (case-blind).
            recipient_email: only envelopes with this signer.
            sender_email: only envelopes this staff member sent.
            count: maximum number of envelopes (1-200).
        """
        wanted = recipient_email.lower() if recipient_email else None
        rows = select(sorted(self.state.envelopes.values(), key=lambda e: (e.created_at, e.id), reverse=True),
                      eq("status", status), ieq("company", company), ieq("sender_email", sender_email),
                      (lambda e: any(s.email.lower() == wanted for s in e.signers)) if wanted else None, limit=count)
        return [{**e.model_dump(exclude=_BRIEF), "current_routing_order": current_order(e)} for e in rows]

    @tool(read_only=True, returns=Envelope)
    def get_envelope(self, envelope_id: Id("envelope")) -> dict:
        """Get an envelope with its documents, signers and the routing order it waits on.

        Args:
            envelope_id: the envelope id, e.g. ENV-0001.
        """
        return self._view(self._env(envelope_id))

    @tool(read_only=True, returns=list[Signer])
    def list_recipients(self, envelope_id: Id("envelope")) -> dict:
        """List an envelope's signers with their routing order and status.

        Args:
            envelope_id: the envelope.
        """
        env = self._env(envelope_id)
        return {"envelope_id": env.id, "current_routing_order": current_order(env),
                "signers": [s.model_dump()
                            for s in sorted(env.signers, key=lambda s: (s.routing_order, s.recipient_id))]}

    @tool(read_only=True, returns=list[Document])
    def list_envelope_documents(self, envelope_id: Id("envelope")) -> list[dict]:
        """List an envelope's documents.

        Args:
            envelope_id: the envelope.
        """
        return [d.model_dump() for d in self._env(envelope_id).documents]

    @tool(read_only=True, returns=list[AuditEvent])
    def list_audit_events(self, envelope_id: Id("envelope")) -> list[dict]:
        """The envelope's audit trail (sent, delivered, signed, reminders, void), oldest first.

        Args:
            envelope_id: the envelope.
        """
        return [a.model_dump() for a in self._env(envelope_id).audit]

    # ----------------------------------------------------------------- drafts
    @tool(read_only=False, returns=Envelope)
    def create_envelope(self, email_subject: str = Field(min_length=1, max_length=100), sender_email: Email = ...,
                        company: CompanyName = Field(min_length=1, max_length=120),
                        documents: list[DocumentInput] = Field(default_factory=list, max_length=20),
                        signers: list[SignerInput] = Field(default_factory=list, max_length=20),
                        email_blurb: str = Field(default="", max_length=1000), send_now: bool = False) -> dict:
        """Create an envelope as a draft, or send it at once (send_now) if it has documents and signers.

        Args:
            email_subject: subject of the signing email.
            sender_email: the sending staff member's email.
            company: the counterparty company.
            documents: documents, each {name, pages}.
            signers: signers, each {name, email, routing_order}.
            email_blurb: message in the signing email.
            send_now: send immediately instead of saving a draft.
        """
        env = Envelope(id=self.new_id("ENV"), email_subject=email_subject, email_blurb=email_blurb,
                       sender_email=sender_email.lower(), company=company, status="created", created_at=self.now(),
                       documents=[Document(document_id=n, name=d.name, pages=d.pages)
                                  for n, d in enumerate(documents, start=1)])
        for s in signers:
            self._add_signer(env, s)
        self.state.envelopes[env.id] = env
        if send_now:
            self._send(env)
        return self._view(env)

    @tool(read_only=False, returns=Envelope)
    def add_envelope_document(self, envelope_id: Id("envelope"), name: str = Field(min_length=1, max_length=120),
                              pages: int = Field(default=1, ge=1, le=500)) -> dict:
        """Add a document to a draft envelope.

        Args:
            envelope_id: the draft envelope.
            name: file name.
            pages: page count.
        """
        env = self._env(envelope_id)
        ENVELOPE.check(env.id, env.status, "edit")
        env.documents.append(Document(document_id=len(env.documents) + 1, name=name, pages=pages))
        return self._view(env)

    @tool(read_only=False, returns=Signer)
    def add_recipient(self, envelope_id: Id("envelope"), name: PersonName = Field(min_length=1, max_length=120),
                      email: Email = ..., routing_order: int = Field(default=1, ge=1, le=20)) -> dict:
        """Add a signer to a draft, or to an envelope in flight after the routing order it waits on.

        Args:
            envelope_id: the envelope.
            name: signer's name.
            email: signer's email.
            routing_order: signing order.
        """
        env = self._env(envelope_id)
        ENVELOPE.check(env.id, env.status, "correct")
        order = current_order(env)
        if env.status != "created" and order is not None and routing_order <= order:
            raise Unprocessable(f"envelope {env.id} is at routing order {order}; a signer added in flight needs a "
                                "later routing order.")
        return self._add_signer(env, SignerInput(name=name, email=email, routing_order=routing_order)).model_dump()

    @tool(read_only=False, destructive=True, returns=Envelope)
    def remove_recipient(self, envelope_id: Id("envelope"), recipient_email: Email) -> dict:
        """Remove a signer whose signing link has not gone out yet.

        Args:
            envelope_id: the envelope.
            recipient_email: the signer's email.
        """
        env = self._env(envelope_id)
        ENVELOPE.check(env.id, env.status, "correct")
        s = signer(env, recipient_email)
        if s.status != "created":
            raise Conflict(f"{s.email} has already been sent envelope {env.id} ({s.status}); correct it instead.")
        env.signers.remove(s)
        if env.status != "created":
            release_next(env)
        return self._view(env)

    @tool(read_only=False, returns=Signer)
    def correct_recipient(self, envelope_id: Id("envelope"), recipient_email: Email, new_email: Email,
                          new_name: Optional[PersonName] = None) -> dict:
        """Correct a signer's email (and name) before they sign; a sent link is re-sent to the new address.

        Args:
            envelope_id: the envelope.
            recipient_email: the signer's current email.
            new_email: the corrected email.
            new_name: the corrected name.
        """
        env = self._env(envelope_id)
        ENVELOPE.check(env.id, env.status, "correct")
        s = signer(env, recipient_email)
        if s.status in ("signed", "declined"):
            raise Conflict(f"{s.email} already {s.status} envelope {env.id}; it cannot be corrected.")
        if new_email.lower() != s.email and any(x.email == new_email.lower() for x in env.signers):
            raise Conflict(f"{new_email} is already a signer of envelope {env.id}.")
        old, s.email, s.name = s.email, new_email.lower(), new_name or s.name
        if s.status == "delivered":
            s.status, s.delivered_at = "sent", None
        self._log(env, "Corrected", env.sender_email, f"{old} -> {s.email}")
        return s.model_dump()

    @tool(read_only=False, returns=Envelope)
    def send_envelope(self, envelope_id: Id("envelope")) -> dict:
        """Send a draft envelope: the first routing order's signers get their signing links.

        Args:
            envelope_id: the draft envelope.
        """
        env = self._env(envelope_id)
        ENVELOPE.check(env.id, env.status, "send")
        self._send(env)
        return self._view(env)

    @tool(read_only=False, destructive=True, returns=Envelope)
    def delete_draft_envelope(self, envelope_id: Id("envelope")) -> dict:
        """Delete a draft envelope (an envelope already sent is voided instead).

        Args:
            envelope_id: the draft envelope.
        """
        env = self._env(envelope_id)
        ENVELOPE.check(env.id, env.status, "delete")
        return self.state.envelopes.pop(env.id).model_dump(exclude=_BRIEF)

    # ---------------------------------------------------------------- signing
    @tool(read_only=False, returns=Signer)
    def record_view(self, envelope_id: Id("envelope"), recipient_email: Email) -> dict:
        """Record that a signer opened the envelope (the 'recipient-delivered' event); it becomes 'delivered'.

        Args:
            envelope_id: the envelope in flight.
            recipient_email: the signer whose turn it is.
        """
        env = self._env(envelope_id)
        ENVELOPE.check(env.id, env.status, "sign")
        s = signer(env, recipient_email)
        require_turn(env, s, "viewing")
        if s.status == "sent":
            s.status, s.delivered_at = "delivered", self._log(env, "Delivered", s.email)
        env.status = "delivered"
        return s.model_dump()

    @tool(read_only=False, returns=Envelope)
    def record_signature(self, envelope_id: Id("envelope"), recipient_email: Email) -> dict:
        """Record a signer's signature (in-person signing or a Connect 'recipient-completed' event).

        Refused (409) before every earlier routing order has signed. The last signature completes the envelope.

        Args:
            envelope_id: the envelope in flight.
            recipient_email: the signer whose turn it is.
        """
        env = self._env(envelope_id)
        ENVELOPE.check(env.id, env.status, "sign")
        s = signer(env, recipient_email)
        require_turn(env, s, "signing")
        at = self._log(env, "Signed", s.email)
        s.status, s.signed_at, s.delivered_at = "signed", at, s.delivered_at or at
        if current_order(env) is None:
            env.status, env.completed_at = "completed", at
            self._log(env, "Completed", s.email)
        else:
            env.status = "delivered"
            release_next(env)
        return self._view(env)

    @tool(read_only=False, returns=Envelope)
    def record_decline(self, envelope_id: Id("envelope"), recipient_email: Email,
                       reason: str = Field(min_length=1, max_length=500)) -> dict:
        """Record that a signer declined to sign, with their reason; the envelope becomes 'declined'.

        Args:
            envelope_id: the envelope in flight.
            recipient_email: the signer whose turn it is.
            reason: why they declined.
        """
        env = self._env(envelope_id)
        ENVELOPE.check(env.id, env.status, "sign")
        s = signer(env, recipient_email)
        require_turn(env, s, "declining")
        s.status, s.declined_reason = "declined", reason
        self._log(env, "Declined", s.email, reason)
        env.status = "declined"
        return self._view(env)

    # ------------------------------------------------------------ in flight
    @tool(read_only=False, returns=Envelope)
    def send_envelope_reminder(self, envelope_id: Id("envelope"),
                               message: str = Field(default="", max_length=500)) -> dict:
        """Re-send the signing email to the signers the envelope waits on (envelope in flight only).

        Args:
            envelope_id: the envelope in flight.
            message: extra text for the reminder email.
        """
        env = self._env(envelope_id)
        ENVELOPE.check(env.id, env.status, "remind")
        order = current_order(env)
        waiting = [s.email for s in env.signers if s.routing_order == order and s.status in ("sent", "delivered")]
        env.reminders_sent += 1
        detail = f"to {', '.join(waiting)}" + (f": {message}" if message else "")
        self._log(env, "Reminder sent", env.sender_email, detail)
        return {**self._view(env), "reminded": waiting}

    @tool(read_only=False, destructive=True, returns=Envelope)
    def void_envelope(self, envelope_id: Id("envelope"),
                      voided_reason: str = Field(min_length=1, max_length=200)) -> dict:
        """Void an envelope in flight (sent or delivered) with a reason; signers can no longer sign.

        Args:
            envelope_id: the envelope in flight.
            voided_reason: why it is voided (shown to the signers).
        """
        env = self._env(envelope_id)
        if env.status == "created":
            raise Conflict(f"envelope {env.id} is a draft; delete_draft_envelope removes it.")
        ENVELOPE.check(env.id, env.status, "void")
        env.status, env.voided_reason = "voided", voided_reason
        self._log(env, "Voided", env.sender_email, voided_reason)
        return self._view(env)

    # ------------------------------------------------------------------ seeds
    @classmethod
    def build_seed_state(cls, fake: Faker, rng: random.Random, today: dt.date) -> ESignatureState:
        return build_seed(fake, rng, today)
