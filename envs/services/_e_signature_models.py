"""Records, state and routing rules of the e-signature service (DocuSign eSignature v2.1 shapes).

An envelope holds documents and signers in routing order. Envelope status
(``created`` -> ``sent`` -> ``delivered`` -> ``completed``, or ``declined`` /
``voided``) follows the recipients: the signers of the lowest unsigned
routing order are the ones the envelope currently waits on; a later signer
cannot sign before them.
"""

from __future__ import annotations

from typing import Literal, Optional

from pydantic import Field

from compoworld_gym.entities import CompanyName, DateTime, Email, Id, PersonName
from compoworld_gym.errors import Conflict, NotFound
from compoworld_gym.service import Record, ServiceState

EnvelopeStatus = Literal["created", "sent", "delivered", "completed", "declined", "voided"]
RecipientStatus = Literal["created", "sent", "delivered", "signed", "declined"]
#: Envelope statuses in which signers still act (void and reminders allowed).
IN_FLIGHT = ("sent", "delivered")


class Document(Record):
    """A document of an envelope."""

    document_id: int = Field(ge=1, description="1-based document number within the envelope.")
    name: str = Field(description="File name, e.g. 'MSA 2026.pdf'.")
    pages: int = Field(ge=1, description="Page count.")


class Signer(Record):
    """A signer of an envelope."""

    recipient_id: int = Field(ge=1, description="1-based recipient number within the envelope.")
    name: PersonName = Field(description="Signer's name.")
    email: Email = Field(description="Signer's email (where the signing link goes).")
    routing_order: int = Field(ge=1, description="Signing order; equal numbers sign in parallel.")
    status: RecipientStatus = Field(default="created", description="created, sent, delivered, signed or declined.")
    delivered_at: Optional[DateTime] = Field(default=None, description="When they opened it.")
    signed_at: Optional[DateTime] = Field(default=None, description="When they signed.")
    declined_reason: Optional[str] = Field(default=None, description="Why they declined.")


class AuditEvent(Record):
    """One entry of an envelope's audit trail (certificate of completion)."""

    at: DateTime = Field(description="When it happened.")
    action: str = Field(description="What happened, e.g. 'Sent', 'Signed', 'Voided'.")
    actor: Email = Field(description="Who did it.")
    detail: str = Field(default="", description="Free text (reason, reminder message).")


class Envelope(Record):
    """An envelope: documents, ordered signers and a status."""

    id: Id("envelope") = Field(description="Envelope id, e.g. ENV-0001.")
    email_subject: str = Field(description="Subject of the signing email.")
    email_blurb: str = Field(default="", description="Message in the signing email.")
    sender_email: Email = Field(description="Staff member who sends it.")
    company: CompanyName = Field(description="Counterparty company the envelope is with.")
    status: EnvelopeStatus = Field(description="created, sent, delivered, completed, declined or voided.")
    documents: list[Document] = Field(default_factory=list, description="Documents, in order.")
    signers: list[Signer] = Field(default_factory=list, description="Signers, by recipient id.")
    created_at: DateTime = Field(description="When it was created.")
    sent_at: Optional[DateTime] = Field(default=None, description="When it was sent.")
    completed_at: Optional[DateTime] = Field(default=None, description="When the last signer signed.")
    voided_reason: Optional[str] = Field(default=None, description="Why it was voided.")
    reminders_sent: int = Field(default=0, ge=0, description="Reminders sent so far.")
    audit: list[AuditEvent] = Field(default_factory=list, description="Audit trail, oldest first.")


class ESignatureState(ServiceState):
    """Envelopes by id."""

    envelopes: dict[str, Envelope] = Field(default_factory=dict, description="Envelopes by id.")


def current_order(env: Envelope) -> Optional[int]:
    """The routing order the envelope waits on (lowest with an unsigned signer), or None when all signed."""
    pending = [s.routing_order for s in env.signers if s.status != "signed"]
    return min(pending) if pending else None


def release_next(env: Envelope) -> None:
    """Send the signing link to every signer of the current routing order still 'created'."""
    order = current_order(env)
    for s in env.signers:
        if s.routing_order == order and s.status == "created":
            s.status = "sent"


def signer(env: Envelope, email: str) -> Signer:
    """The signer of ``env`` with ``email`` (case-blind).

    Raises:
        NotFound: 404 naming the envelope's signers.
    """
    hit = next((s for s in env.signers if s.email.lower() == email.lower()), None)
    if hit is None:
        raise NotFound(f"{email!r} is not a signer of envelope {env.id}; list_recipients shows its signers.")
    return hit


def require_turn(env: Envelope, s: Signer, action: str) -> None:
    """Refuse ``action`` by a signer whose routing order has not come (or who already acted).

    Raises:
        Conflict: 409 when the signer already signed/declined or waits for earlier signers.
    """
    if s.status in ("signed", "declined"):
        raise Conflict(f"{s.email} already {s.status} envelope {env.id}.")
    order = current_order(env)
    if s.routing_order != order:
        waiting = sorted(x.email for x in env.signers if x.routing_order == order and x.status != "signed")
        raise Conflict(f"{s.email} signs at routing order {s.routing_order}; envelope {env.id} still waits on "
                       f"routing order {order} ({', '.join(waiting)}).")
