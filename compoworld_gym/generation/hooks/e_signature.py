"""E-signature in chained tasks: an envelope out for signature names the
customer's signer (by email) and the counterparty company, so it links with
the CRM contact (email) and the company's contract (company); it is found by
its id, by the company or by the signer's email. The case's envelope gets a
reminder quoting a discovered value, or is voided with a reason quoting it."""

from __future__ import annotations

from typing import Any

from compoworld_gym.checks import OnlyChanged, RecordMatches
from compoworld_gym.envs.services._company import staff_of
from compoworld_gym.envs.services._e_signature_models import IN_FLIGHT, Envelope
from compoworld_gym.envs.services._e_signature_seed import COUNTERSIGNERS
from compoworld_gym.generation.context import Ctx, call
from compoworld_gym.generation.links import (
    Action, Found, Give, Need, Reader, Relay, ServiceLinks, SolveError, Write, next_id,
)

_DOCS = ("Master Services Agreement", "Order Form", "Renewal Amendment", "Data Processing Addendum")


def next_envelope_id(state: dict[str, Any]) -> str:
    """Take the next free envelope id from the e-signature counters (as the service does)."""
    return next_id(state, "ENV")


def plant_envelope(state: dict[str, Any], envelope_id: str, **fields: Any) -> str:
    """Add an :class:`Envelope` (validated) under ``envelope_id``; returns the id.

    Raises:
        pydantic.ValidationError: the fields do not make a valid envelope.
    """
    state["envelopes"][envelope_id] = Envelope.model_validate({**fields, "id": envelope_id}).model_dump(mode="json")
    return envelope_id


def _plant(ctx: Ctx, key: Any, outs: dict[str, Any], stale: bool, by: str) -> str:
    state = ctx.state("e_signature")
    eid = key if by == "id" else next_envelope_id(state)
    company = key if by == "company" else (outs.get("company") or ctx.fresh("company"))
    email = key if by == "email" else (outs.get("email") or ctx.fresh("email"))
    name = ctx.client() if by != "email" else " ".join(p.capitalize() for p in email.split("@")[0].split(".")[:2])
    counter = ctx.rng.choice(COUNTERSIGNERS)
    doc = ctx.rng.choice(_DOCS)
    sent = ctx.at(-ctx.rng.randint(2, 8), hour=11)
    signers = [{"recipient_id": 1, "name": name, "email": email, "routing_order": 1, "status": "sent"},
               {"recipient_id": 2, "name": counter.name, "email": counter.email, "routing_order": 2}]
    sender = ctx.rng.choice(staff_of("customer_success")).email
    audit = [{"at": sent, "action": "Sent", "actor": sender}]
    if stale:  # the superseded envelope: voided, its signer never signed
        audit.append({"at": ctx.at(-1), "action": "Voided", "actor": sender, "detail": "Superseded by a new version."})
    return plant_envelope(state, eid, email_subject=f"Please sign: {doc} - {company}", sender_email=sender,
                          company=company, status="voided" if stale else "sent",
                          documents=[{"document_id": 1, "name": f"{doc}.pdf", "pages": ctx.rng.randint(3, 14)}],
                          signers=signers, created_at=sent, sent_at=sent, audit=audit,
                          voided_reason="Superseded by a new version." if stale else None)


def _by_id(reader: Reader, key: Any) -> dict[str, Any]:
    return reader.read("e_signature", "get_envelope", envelope_id=key)


def _in_flight(reader: Reader, **filters: Any) -> dict[str, Any]:
    rows = reader.read("e_signature", "list_envelopes", count=200, **filters)
    live = [r for r in rows if r["status"] in IN_FLIGHT]
    if len(live) != 1:
        raise SolveError(f"{len(live)} envelopes in flight match {filters}")
    return _by_id(reader, live[0]["id"])


def _by_company(reader: Reader, key: Any) -> dict[str, Any]:
    return _in_flight(reader, company=key)


def _by_signer(reader: Reader, key: Any) -> dict[str, Any]:
    return _in_flight(reader, recipient_email=key)


_SIGNER = Give("email", "signers.0.email", "the signer's email address", "the customer")
_COMPANY = Give("company", "company", "the company on the envelope", party="customer")
_ENTRY_TRUTH = "A voided envelope is history; only the envelope still out for signature counts."

ENVELOPE = Relay(
    service="e_signature", name="envelope", key="envelope_id",
    gives=(_SIGNER, _COMPANY, Give("envelope_id", "id", "the envelope")),
    plant=lambda ctx, key, outs, stale: _plant(ctx, key, outs, stale, "id"), find=_by_id,
    where="Each e-signature envelope names the counterparty company and its signers by email, the customer's "
          "signer first.",
    alloc=lambda ctx: next_envelope_id(ctx.state("e_signature")), entry=lambda key: f"envelope {key}")

COMPANY_ENVELOPE = Relay(
    service="e_signature", name="company's envelope", key="company", key_party="customer",
    gives=(Give("envelope_id", "id", "the envelope out for signature"), _SIGNER),
    plant=lambda ctx, key, outs, stale: _plant(ctx, key, outs, stale, "company"), find=_by_company,
    where="Agreements out for signature are e-signature envelopes filed under the counterparty company.",
    entry=lambda key: f"the envelope out for signature with {key}", truth=_ENTRY_TRUTH)

SIGNER_ENVELOPE = Relay(
    service="e_signature", name="signer's envelope", key="email",
    gives=(Give("envelope_id", "id", "the envelope awaiting the signer"), _COMPANY),
    plant=lambda ctx, key, outs, stale: _plant(ctx, key, outs, stale, "email"), find=_by_signer,
    where="E-signature envelopes list their signers by email; the one still out for signature is the live one.",
    truth=_ENTRY_TRUTH)


def _scope(eid: str) -> list[OnlyChanged]:
    return [OnlyChanged(id="_", service="e_signature", collection="envelopes", allow_ids=[eid],
                        description="No other envelope was changed or created.")]


def _remind(reader: Reader, args: dict[str, Found]) -> Write:
    eid, mention = args["envelope"].value, args["mention"]
    _by_id(reader, eid)
    text = f"{args['case'].value}: {mention.noun} is {mention.display}."
    if len(text) > 500:
        raise SolveError("the reminder message would be too long")
    return Write(
        calls=[call("send_envelope_reminder", envelope_id=eid, message=text)],
        checks=[RecordMatches(id="_", service="e_signature", collection="envelopes", record_id=eid,
                              where={"reminders_sent": {"$gte": 1},
                                     "audit": {"$any": {"action": "Reminder sent",
                                                        "detail": {"$contains": mention.display}}}},
                              description="A reminder on the envelope quotes the right value.")],
        scope=_scope(eid), tool="send_envelope_reminder", where={"envelope_id": eid},
        label="the reminder on the envelope")


def _void(reader: Reader, args: dict[str, Found]) -> Write:
    eid, mention = args["envelope"].value, args["mention"]
    _by_id(reader, eid)
    reason = f"{args['case'].value}: {mention.noun} is {mention.display}."
    if len(reason) > 200:
        reason = f"{args['case'].value}: {mention.display}"
    if len(reason) > 200:
        raise SolveError(f"{mention.noun} does not fit in a void reason")
    return Write(
        calls=[call("void_envelope", envelope_id=eid, voided_reason=reason)],
        checks=[RecordMatches(id="_", service="e_signature", collection="envelopes", record_id=eid,
                              where={"status": "voided", "voided_reason": {"$contains": mention.display}},
                              description="The case's envelope is voided, the reason quoting the value.")],
        scope=_scope(eid), tool="void_envelope", where={"envelope_id": eid}, label="the voided envelope")


LINKS = ServiceLinks(
    service="e_signature", label="the e-signature tool",
    relays=(ENVELOPE, COMPANY_ENVELOPE, SIGNER_ENVELOPE),
    actions=(
        Action(service="e_signature", name="remind", needs=(Need("envelope", "envelope_id"),), build=_remind,
               goal="send the signer a reminder on the envelope, quoting {mention} in its message"),
        Action(service="e_signature", name="void", needs=(Need("envelope", "envelope_id"),), build=_void,
               goal="void the envelope, quoting {mention} in the void reason"),
    ),
)

__all__ = ["LINKS", "next_envelope_id", "plant_envelope"]
