"""Quotes in chained tasks: a sales quote, found by its number or as the
customer contact's live quote, names the contact's email, the company and
the expiry date; the deal-desk approver a policy names approves the case's
discounted quote, or the approved quote is sent with a cover message."""

from __future__ import annotations

from typing import Any

from compoworld_gym.checks import OnlyChanged, RecordMatches
from compoworld_gym.envs.services._commerce import PRODUCTS
from compoworld_gym.envs.services._quotes_models import DEAL_DESK, LineInput, Quote, price_line, reprice
from compoworld_gym.generation.context import Ctx, call
from compoworld_gym.generation.links import (
    Action, Found, Give, Need, Reader, Relay, ServiceLinks, SolveError, Write, latest, next_id,
)

SERVICE = "quotes"
#: Reps who own planted quotes: never deal-desk approvers, so either approver may decide.
OWNERS = ("hannah.kovacs@company.example", "marcus.bell@company.example")
_LIVE = ("draft", "pending_approval", "approved", "sent")


def next_quote_id(state: dict[str, Any]) -> str:
    """Take the next free quote id from the service's counters (as the service does)."""
    return next_id(state, "QUO")


def plant_quote(ctx: Ctx, quote_id: str, *, contact: str, company: str, expires: str, stale: bool) -> str:
    """Add a validated :class:`Quote` pending deal-desk approval (15 % off one line), or an expired one."""
    picks = ctx.rng.sample(PRODUCTS, 2)
    lines = [price_line(LineInput(sku=p.sku, quantity=ctx.rng.choice((10, 20, 40)), discount_percent=d),
                        p.name, p.price) for p, d in zip(picks, (15.0, 5.0))]
    # A stale look-alike: approved and sent weeks ago, since expired.
    history = {"approver_email": DEAL_DESK[0], "decided_on": ctx.day(-39), "sent_on": ctx.day(-38)} if stale else {}
    q = Quote(**history, id=quote_id, title=f"{company} - {ctx.rng.choice(('Expansion', 'Renewal', 'Pilot'))}",
              company=company, contact_email=contact, owner_email=ctx.rng.choice(OWNERS),
              status="expired" if stale else "pending_approval", expiration_date=ctx.day(-5) if stale else expires,
              lines=lines, created_on=ctx.day(-40 if stale else -3))
    reprice(q)
    ctx.state(SERVICE)["quotes"][quote_id] = q.model_dump(mode="json")
    return quote_id


def _plant(ctx: Ctx, key: Any, outs: dict[str, Any], stale: bool, by_id: bool) -> str:
    state = ctx.state(SERVICE)
    contact = (outs.get("email") or ctx.person()[1]) if by_id else str(key)
    return plant_quote(ctx, key if by_id else next_quote_id(state), contact=contact,
                       company=outs.get("company") or ctx.fresh("company"),
                       expires=outs.get("date") or ctx.day(ctx.rng.randint(10, 40)), stale=stale)


def _by_id(reader: Reader, key: Any) -> dict[str, Any]:
    return reader.read(SERVICE, "get_quote", quote_id=key)


def _live(reader: Reader, key: Any) -> dict[str, Any]:
    rows = reader.read(SERVICE, "list_quotes", contact_email=key, limit=200)
    return _by_id(reader, latest([r for r in rows if r["status"] in _LIVE], "created_on")["id"])


_CONTACT = Give("email", "contact_email", "the customer contact's email address", "the customer")
_COMPANY = Give("company", "company", "the customer's company", party="customer")
_EXPIRY = Give("date", "expiration_date", "the quote's expiration date")

QUOTE = Relay(
    service=SERVICE, name="sales quote", key="quote_id", gives=(_CONTACT, _COMPANY, _EXPIRY),
    plant=lambda ctx, key, outs, stale: _plant(ctx, key, outs, stale, True), find=_by_id,
    where="Each sales quote in the quotes tool names the customer contact, the company and its expiration date.",
    alloc=lambda ctx: next_quote_id(ctx.state(SERVICE)), entry=lambda key: f"sales quote {key}")

LIVE_QUOTE = Relay(
    service=SERVICE, name="customer's live quote", key="email",
    gives=(Give("quote_id", "id", "the customer's live quote"), _COMPANY, _EXPIRY),
    plant=lambda ctx, key, outs, stale: _plant(ctx, key, outs, stale, False), find=_live,
    where="Sales quotes are addressed to the customer contact's email; the latest one not expired or rejected "
          "is the live one.",
    truth="An expired quote is history; only the customer's live quote counts.")


def _scope(qid: str) -> list[OnlyChanged]:
    return [OnlyChanged(id="_", service=SERVICE, collection="quotes", allow_ids=[qid],
                        description="No other quote was changed or created.")]


def _approve(reader: Reader, args: dict[str, Found]) -> Write:
    qid, approver = args["quote"].value, args["approver"].value
    q = _by_id(reader, qid)
    if q["status"] != "pending_approval" or q["approval_level"] != "deal_desk" or q["owner_email"] == approver:
        raise SolveError(f"quote {qid} is not awaiting this deal-desk approver")
    return Write(
        calls=[call("approve_quote", quote_id=qid, approver_email=approver)],
        checks=[RecordMatches(id="_", service=SERVICE, collection="quotes", record_id=qid,
                              where={"status": "approved", "approver_email": {"$ieq": approver}},
                              description="The case's quote is approved by the right approver.")],
        scope=_scope(qid), tool="approve_quote", where={"quote_id": qid}, label="the quote approval")


def _prepare_send(ctx: Ctx, values: dict[str, Any]) -> None:
    q = ctx.state(SERVICE)["quotes"].get(values["quote"])
    if q is not None and q["status"] == "pending_approval":  # the deal desk approved it yesterday
        q.update(status="approved", approver_email=DEAL_DESK[0], decided_on=ctx.day(-1))


def _send(reader: Reader, args: dict[str, Found]) -> Write:
    qid, mention, case = args["quote"].value, args["mention"], args["case"].value
    q = _by_id(reader, qid)
    if q["status"] != "approved":
        raise SolveError(f"quote {qid} is not approved")
    message = f"{case}: {mention.display}"
    if len(message) > 1000:
        raise SolveError(f"{mention.noun} does not fit in a cover message")
    return Write(
        calls=[call("send_quote", quote_id=qid, message=message)],
        checks=[RecordMatches(id="_", service=SERVICE, collection="quotes", record_id=qid,
                              where={"status": "sent", "cover_message": {"$contains": mention.display}},
                              description="The case's quote is sent, its cover message quoting the value.")],
        scope=_scope(qid), tool="send_quote", where={"quote_id": qid}, label="the sent quote")


def _approvers(ctx: Ctx) -> tuple[str, str]:
    a, b = ctx.rng.sample(DEAL_DESK, 2)
    return a, b


LINKS = ServiceLinks(
    service=SERVICE, label="the quotes tool",
    relays=(QUOTE, LIVE_QUOTE),
    actions=(Action(service=SERVICE, name="approve",
                    needs=(Need("approver", "email", ("the deal desk approver",), "approver"),
                           Need("quote", "quote_id")),
                    build=_approve, goal="have {approver} approve the discounted quote", routable=True),
             Action(service=SERVICE, name="send", needs=(Need("quote", "quote_id"),), build=_send,
                    prepare=_prepare_send, goal="send the quote to the customer, quoting {mention} in the cover "
                                                "message")),
    route_values={"email": _approvers},
)

__all__ = ["LINKS", "OWNERS", "next_quote_id", "plant_quote"]
