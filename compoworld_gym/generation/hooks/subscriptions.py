"""Subscriptions in chained tasks: a subscription, found by its id, by the
billing contact's email or by the company, names the billing email, the
company and the monthly recurring revenue; the case's subscription is
downgraded one plan tier (the prorated credit issued as a credit note),
scheduled to cancel at the end of its term, or given a comment."""

from __future__ import annotations

from typing import Any

from compoworld_gym.checks import OnlyChanged, RecordExists, RecordMatches
from compoworld_gym.envs.services._subscriptions_models import Customer, Subscription, SubscriptionItem
from compoworld_gym.envs.services._subscriptions_rules import PLANS, mrr, term_end
from compoworld_gym.envs.services._subscriptions_seed import split_name
from compoworld_gym.generation.context import Ctx, call
from compoworld_gym.generation.links import (
    Action, Found, Give, Need, Reader, Relay, ServiceLinks, SolveError, Write, next_id, pick,
)

SERVICE = "subscriptions"
_LIVE = ("future", "in_trial", "active", "non_renewing", "paused")
_CANCEL_REASON = "no_longer_needed"


def next_subscription_id(state: dict[str, Any]) -> str:
    """Take the next free subscription id from the service's counters (as ``new_id("SUB")``)."""
    return next_id(state, "SUB")


def plan_for(amount: float) -> str:
    """The monthly plan a negotiated price of ``amount`` USD sits on: the highest tier whose next
    lower plan lists at under 90% of it (so a downgrade always credits), else Starter."""
    item = PLANS[0][0]
    for (_, _, _, lower, _), (name, _, _, _, _) in zip(PLANS, PLANS[1:]):
        if lower < amount * 0.9:
            item = name
    return f"{item}-USD-monthly"


def _customer(ctx: Ctx, state: dict[str, Any], email: str, company: str, by: str, stale: bool) -> str:
    """The customer the key names (added if new); a live record's customer carries its email and company."""
    field, key = ("company", company) if by == "company" else ("email", email)
    for c in state["customers"].values():
        if c[field].lower() == key.lower():
            if not stale:  # the stale look-alike is planted with other values: it never rewrites the customer
                c.update(email=email, company=company)
            return c["id"]
    name = ctx.person()[0]
    first, last = split_name(name)
    cid = next_id(state, "CUS")
    state["customers"][cid] = Customer(id=cid, first_name=first, last_name=last or "Team", email=email,
                                       company=company, created_at=ctx.day(-300)).model_dump(mode="json")
    return cid


def plant_subscription(ctx: Ctx, sid: str, *, customer_id: str, amount: float, stale: bool = False) -> str:
    """Add an active monthly :class:`Subscription` (validated) of ``customer_id`` at a negotiated
    ``amount`` USD a month (its MRR), or a cancelled one (``stale``); returns its id. The
    customer's other live subscriptions are cancelled first: one live subscription is the case's."""
    state = ctx.state(SERVICE)
    ip = state["item_prices"][plan_for(amount)]
    if not stale:
        for other in state["subscriptions"].values():
            if other["customer_id"] == customer_id and other["status"] in _LIVE:
                other.update(status="cancelled", cancelled_at=ctx.day(-45), cancel_reason_code="switched_to_competitor",
                             next_billing_at=None, mrr=0.0, pause_date=None, resume_date=None)
    start = ctx.today.fromordinal(ctx.today.toordinal() - (200 if stale else ctx.rng.randint(3, 25)))
    sub = Subscription(id=sid, customer_id=customer_id, status="active", billing_period_unit="month",
                       subscription_items=[SubscriptionItem(item_price_id=ip["id"], quantity=1, unit_price=amount,
                                                            amount=amount)],
                       start_date=start, current_term_start=start, current_term_end=term_end(start, "month"),
                       created_at=start)
    sub.next_billing_at = sub.current_term_end
    if stale:
        sub.status, sub.cancel_reason_code, sub.next_billing_at = "cancelled", "too_expensive", None
        sub.cancelled_at = sub.current_term_end
    sub.mrr = mrr(sub)
    state["subscriptions"][sid] = sub.model_dump(mode="json")
    return sid


def _plant(ctx: Ctx, key: Any, outs: dict[str, Any], stale: bool, by: str) -> str:
    state = ctx.state(SERVICE)
    email = key if by == "email" else outs.get("email") or ctx.person()[1]
    company = key if by == "company" else outs.get("company") or ctx.fresh("company")
    cid = _customer(ctx, state, email, company, by, stale)
    sid = key if by == "id" else next_subscription_id(state)
    amount = outs.get("money") or round(ctx.rng.randint(15000, 250000) / 100, 2)
    return plant_subscription(ctx, sid, customer_id=cid, amount=amount, stale=stale)


def _by_id(reader: Reader, key: Any) -> dict[str, Any]:
    return reader.read(SERVICE, "retrieve_subscription", subscription_id=key)


def _live(reader: Reader, field: str, key: Any) -> dict[str, Any]:
    cust = pick(reader.read(SERVICE, "list_customers", **{field: key}), **{field: key})
    rows = reader.read(SERVICE, "list_subscriptions", customer_id=cust["id"], limit=200)
    return _by_id(reader, pick([r for r in rows if r["status"] in _LIVE], customer_id=cust["id"])["id"])


_EMAIL = Give("email", "customer_email", "the billing contact's email address", "the customer")
_COMPANY = Give("company", "company", "the subscribed company", party="customer")
_MRR = Give("money", "mrr", "the subscription's monthly recurring revenue")
_TRUTH = "A cancelled subscription is history; only the customer's live subscription counts."

SUBSCRIPTION = Relay(
    service=SERVICE, name="subscription", key="billing_subscription_id", gives=(_EMAIL, _COMPANY, _MRR),
    plant=lambda ctx, key, outs, stale: _plant(ctx, key, outs, stale, "id"), find=_by_id,
    where="Each subscription in the billing system names the billing contact's email, the company and its "
          "monthly recurring revenue.",
    alloc=lambda ctx: next_subscription_id(ctx.state(SERVICE)), entry=lambda key: f"subscription {key}")

CUSTOMER_SUBSCRIPTION = Relay(
    service=SERVICE, name="customer's subscription", key="email",
    gives=(Give("billing_subscription_id", "id", "the customer's live subscription"), _COMPANY, _MRR),
    plant=lambda ctx, key, outs, stale: _plant(ctx, key, outs, stale, "email"),
    find=lambda reader, key: _live(reader, "email", key),
    where="The billing system files subscriptions under the customer, found by the billing contact's email.",
    truth=_TRUTH)

COMPANY_SUBSCRIPTION = Relay(
    service=SERVICE, name="company's subscription", key="company", key_party="customer",
    gives=(Give("billing_subscription_id", "id", "the company's live subscription"), _EMAIL, _MRR),
    plant=lambda ctx, key, outs, stale: _plant(ctx, key, outs, stale, "company"),
    find=lambda reader, key: _live(reader, "company", key),
    where="The billing system files each customer under its company name, with its subscriptions.", truth=_TRUTH)


def _scope(sid: str, collection: str = "", **new: Any) -> list[OnlyChanged]:
    """Guards: only subscription ``sid`` changed (none when ``collection`` is the comments), and at
    most one new record in ``collection`` matching ``new``."""
    out = []
    if collection != "comments":
        out.append(OnlyChanged(id="_", service=SERVICE, collection="subscriptions", allow_ids=[sid],
                               description="No other subscription was changed or created."))
    if collection:
        out.append(OnlyChanged(id="_", service=SERVICE, collection=collection, allow_new=new, max_new=1,
                               description=f"No other {collection.replace('_', ' ')} were added or changed."))
    return out


def _downgrade(reader: Reader, args: dict[str, Found]) -> Write:
    sid = args["subscription"].value
    sub = _by_id(reader, sid)
    if sub["status"] not in ("active", "non_renewing"):
        raise SolveError(f"subscription {sid} is {sub['status']}: nothing to prorate")
    here = reader.read(SERVICE, "retrieve_item_price", item_price_id=sub["item_price_id"])
    lower = [p for p in reader.read(SERVICE, "list_item_prices", period_unit=here["period_unit"])
             if p["tier"] == here["tier"] - 1]
    if not lower:
        raise SolveError(f"subscription {sid} is on the lowest plan")
    target = lower[0]["id"]
    est = reader.read(SERVICE, "estimate_update_subscription", subscription_id=sid, item_price_id=target)
    if est["credit_note_total"] <= 0:
        raise SolveError(f"downgrading {sid} credits nothing")
    return Write(
        calls=[call("update_subscription_for_items", subscription_id=sid, item_price_id=target)],
        checks=[RecordMatches(id="_", service=SERVICE, collection="subscriptions", record_id=sid,
                              where={"subscription_items": {"$any": {"item_price_id": target}},
                                     "status": sub["status"]},
                              description="The subscription is on the next plan tier down, same billing period."),
                RecordExists(id="_", service=SERVICE, collection="credit_notes",
                             where={"subscription_id": sid, "reason_code": "subscription_change",
                                    "total": est["credit_note_total"], "status": {"$ne": "voided"}},
                             description="A credit note carries the exact prorated credit of the downgrade.")],
        scope=_scope(sid, "credit_notes", subscription_id=sid), tool="update_subscription_for_items",
        where={"subscription_id": sid}, label="the subscription downgrade", moves_money=True)


def _cancel(reader: Reader, args: dict[str, Found]) -> Write:
    sid = args["subscription"].value
    sub = _by_id(reader, sid)
    if sub["status"] != "active":
        raise SolveError(f"subscription {sid} is {sub['status']}, not active")
    return Write(
        calls=[call("cancel_subscription_for_items", subscription_id=sid, end_of_term=True,
                    cancel_reason_code=_CANCEL_REASON)],
        checks=[RecordMatches(id="_", service=SERVICE, collection="subscriptions", record_id=sid,
                              where={"status": "non_renewing", "cancelled_at": sub["current_term_end"],
                                     "cancel_reason_code": _CANCEL_REASON},
                              description="The subscription stops at the end of its current term, reason "
                                          "'no longer needed'.")],
        scope=_scope(sid), tool="cancel_subscription_for_items", where={"subscription_id": sid},
        label="the scheduled cancellation")


def _comment(reader: Reader, args: dict[str, Found]) -> Write:
    sid, mention, case = args["subscription"].value, args["mention"], args["case"].value
    _by_id(reader, sid)
    return Write(
        calls=[call("create_comment", entity_type="subscription", entity_id=sid,
                    notes=f"{case}: {mention.noun} is {mention.display}.")],
        checks=[RecordExists(id="_", service=SERVICE, collection="comments",
                             where={"entity_id": sid, "notes": {"$all": [{"$contains": case},
                                                                         {"$contains": mention.display}]}},
                             description="A comment on the subscription quotes the case and the right value.")],
        scope=_scope(sid, "comments", entity_id=sid), tool="create_comment", where={"entity_id": sid},
        label="the comment on the subscription")


_SUB = (Need("subscription", "billing_subscription_id"),)

LINKS = ServiceLinks(
    service=SERVICE, label="the subscription billing system",
    relays=(SUBSCRIPTION, CUSTOMER_SUBSCRIPTION, COMPANY_SUBSCRIPTION),
    actions=(
        Action(service=SERVICE, name="downgrade", needs=_SUB, build=_downgrade,
               goal="downgrade the subscription to the next plan tier down (same billing period), prorated by day "
                    "so that the unused time is credited on a credit note"),
        Action(service=SERVICE, name="cancel", needs=_SUB, build=_cancel,
               goal="schedule the subscription to cancel at the end of its current term, reason 'no longer needed'"),
        Action(service=SERVICE, name="comment", needs=_SUB, build=_comment,
               goal="add a comment to the subscription, quoting {mention}"),
    ),
)

__all__ = ["LINKS", "next_subscription_id", "plan_for", "plant_subscription"]
