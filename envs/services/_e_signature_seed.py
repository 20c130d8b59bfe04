"""Seed data of the e-signature service: customer agreements out for signature."""

from __future__ import annotations

import datetime as dt
import random

from faker import Faker

from compoworld_gym.envs.services._blocks import seed_id, stamp
from compoworld_gym.envs.services._common import email_for
from compoworld_gym.envs.services._company import STAFF, staff_of
from compoworld_gym.envs.services._e_signature_models import AuditEvent, Document, Envelope, ESignatureState, Signer

#: Agreement kinds a customer envelope carries.
_DOCS = ("Master Services Agreement", "Order Form", "Mutual NDA", "Data Processing Addendum", "Renewal Amendment")
#: Envelope statuses of the seeded envelopes, in order.
_PLAN = ("created", "sent", "delivered", "completed", "completed", "declined", "voided", "sent", "delivered",
         "completed")
#: Who countersigns for the company (routing order 2).
COUNTERSIGNERS = tuple(s for s in STAFF if s.email in ("elena.petrova@company.example", "aisha.khan@company.example"))


def _signers(fake: Faker, rng: random.Random, company: str) -> list[Signer]:
    name = fake.name()
    domain = "".join(ch for ch in company.lower() if ch.isalnum())[:24] + ".example"
    counter = rng.choice(COUNTERSIGNERS)
    return [Signer(recipient_id=1, name=name, email=email_for(name, domain), routing_order=1),
            Signer(recipient_id=2, name=counter.name, email=counter.email, routing_order=2)]


def _advance(env: Envelope, status: str, at: dt.datetime) -> None:
    """Move the seeded envelope and its signers to ``status`` with a matching audit trail."""
    first, second = env.signers
    if status == "created":
        return
    env.sent_at = at
    env.audit.append(AuditEvent(at=at, action="Sent", actor=env.sender_email))
    first.status = "sent"
    if status in ("delivered", "completed", "declined", "voided"):
        first.status, first.delivered_at = "delivered", at + dt.timedelta(hours=2)
        env.audit.append(AuditEvent(at=first.delivered_at, action="Delivered", actor=first.email))
    if status == "completed":
        first.status, first.signed_at = "signed", at + dt.timedelta(hours=3)
        second.status, second.delivered_at, second.signed_at = "signed", at + dt.timedelta(hours=5), at + dt.timedelta(
            hours=6)
        env.completed_at = second.signed_at
        env.audit += [AuditEvent(at=first.signed_at, action="Signed", actor=first.email),
                      AuditEvent(at=second.signed_at, action="Signed", actor=second.email),
                      AuditEvent(at=second.signed_at, action="Completed", actor=second.email)]
    if status == "declined":
        first.status, first.declined_reason = "declined", "Liability cap needs legal review on our side."
        env.audit.append(AuditEvent(at=at + dt.timedelta(hours=4), action="Declined", actor=first.email,
                                    detail=first.declined_reason))
    if status == "voided":
        env.voided_reason = "Superseded by a corrected order form."
        env.audit.append(AuditEvent(at=at + dt.timedelta(days=1), action="Voided", actor=env.sender_email,
                                    detail=env.voided_reason))
    env.status = status


def build_seed(fake: Faker, rng: random.Random, today: dt.date) -> ESignatureState:
    """The seeded account: 10 customer envelopes in every status.

    Args:
        fake: the service's seeded Faker (companies, signer names).
        rng: the service's seeded random source.
        today: the task's date; every time is before 09:00 of it.
    """
    state = ESignatureState()
    senders = staff_of("customer_success")
    for status in _PLAN:
        company = fake.company()
        doc = rng.choice(_DOCS)
        created = stamp(today, rng.randint(3, 40), rng)
        env = Envelope(id=seed_id(state, "ENV"), email_subject=f"Please sign: {doc} - {company}",
                       email_blurb="Please review and sign at your earliest convenience.",
                       sender_email=rng.choice(senders).email, company=company, status="created",
                       documents=[Document(document_id=1, name=f"{doc}.pdf", pages=rng.randint(2, 18))],
                       signers=_signers(fake, rng, company), created_at=created)
        _advance(env, status, created + dt.timedelta(hours=1))
        state.envelopes[env.id] = env
    return state
