"""Newsletters (Mailchimp-style) in chained tasks: a customer's subscriber
record on the monthly customer newsletter, found by their email, names them
(FNAME LNAME), their company and phone; a scheduled campaign names its send
date and its reply-to owner. The case's customer is unsubscribed (the
unsubscribe request of a helpdesk ticket, say) or gets a note on their
member record; a scheduled campaign is taken off the schedule."""

from __future__ import annotations

import datetime as dt
from typing import Any

from compoworld_gym.checks import OnlyChanged, RecordMatches
from compoworld_gym.envs.services._newsletters_models import (
    Campaign, CampaignContent, CampaignRecipients, CampaignSettings, Member, member_key, subscriber_hash,
)
from compoworld_gym.envs.services._newsletters_seed import MAIN_LIST, SENDER, merge_values
from compoworld_gym.generation.context import Ctx, call
from compoworld_gym.generation.hooks.hr_directory import employee_email, name_from_email
from compoworld_gym.generation.links import (
    Action, Found, Give, Need, Reader, Relay, ServiceLinks, Write, next_id, pick,
)

SERVICE = "newsletters"
DATE_RX = r"\d{4}-\d{2}-\d{2}"
_TOPICS = ("Spring collection preview", "Loyalty points reminder", "Workspace makeover tips", "New arrivals")


def main_list_id(state: dict[str, Any]) -> str:
    """The id of the monthly customer newsletter audience in a newsletters state (JSON)."""
    return pick(state["lists"], name=MAIN_LIST)["id"]


def plant_member(state: dict[str, Any], list_id: str, email: str, **fields: Any) -> str:
    """Add (or replace) a subscribed :class:`Member` (validated) of ``list_id``; returns its state key.

    Raises:
        pydantic.ValidationError: the fields do not make a valid member.
    """
    base = {"status": "subscribed", "tags": [], "notes": [], "unsubscribe_reason": None,
            "timestamp_opt": "2025-06-02T09:00:00", "last_changed": "2025-06-02T09:00:00"}
    member = Member.model_validate({**base, **fields, "id": subscriber_hash(email), "list_id": list_id,
                                    "email_address": email})
    key = member_key(list_id, email)
    state["members"][key] = member.model_dump(mode="json")
    return key


def _subscribe(ctx: Ctx, email: str, outs: dict[str, Any]) -> str:
    """The case's customer, subscribed to the main list (their old record's name and notes kept)."""
    state = ctx.state(SERVICE)
    lid = main_list_id(state)
    old = state["members"].get(member_key(lid, email)) or {}
    merge = old.get("merge_fields") or {}
    known = f"{merge.get('FNAME', '')} {merge.get('LNAME', '')}".strip()
    merge = merge_values(outs.get("person_name") or known or name_from_email(email),
                         outs.get("company") or merge.get("COMPANY") or ctx.fresh("company"),
                         outs.get("phone") or merge.get("PHONE") or ctx.fresh("phone"))
    opted = old.get("timestamp_opt") or f"{ctx.day(-ctx.rng.randint(30, 500))}T09:00:00"
    return plant_member(state, lid, email, merge_fields=merge, tags=old.get("tags", []), notes=old.get("notes", []),
                        timestamp_opt=opted, last_changed=opted)


def _find_member(reader: Reader, email: Any) -> dict[str, Any]:
    lid = pick(reader.read(SERVICE, "get_lists"), name=MAIN_LIST)["id"]
    return reader.read(SERVICE, "get_list_member", list_id=lid, subscriber_hash=email)


MEMBER = Relay(
    service=SERVICE, name="newsletter subscriber", key="email",
    gives=(Give("person_name", "full_name", "the subscriber's name", "the customer"),
           Give("company", "company", "the subscriber's company", party="customer"),
           Give("phone", "phone", "the subscriber's phone number", "the customer")),
    plant=lambda ctx, key, outs, stale: _subscribe(ctx, key, outs), find=_find_member,
    where=f"The '{MAIN_LIST}' audience in the newsletter tool keeps each subscriber by email, with their name, "
          "company and phone in its merge fields.")


def next_campaign_id(state: dict[str, Any]) -> str:
    """Take the next free campaign id (as ``new_id("NCP")``)."""
    return next_id(state, "NCP")


def plant_campaign(ctx: Ctx, campaign_id: str, *, day: str, reply_to: str) -> str:
    """Add a ready :class:`Campaign` to the main list, scheduled for 10:00 on ``day`` (ISO date). Returns the id."""
    state = ctx.state(SERVICE)
    topic = ctx.rng.choice(_TOPICS)
    when = dt.datetime.fromisoformat(f"{day}T10:00:00")
    camp = Campaign(id=campaign_id, status="schedule", recipients=CampaignRecipients(list_id=main_list_id(state)),
                    settings=CampaignSettings(title=f"{topic} ({when:%b %d})", subject_line=topic,
                                              from_name="Acme Inc.", reply_to=reply_to),
                    content=CampaignContent(html=f"<h1>{topic}</h1><p>Hello *|FNAME|*</p>", plain_text=topic),
                    create_time=dt.datetime.fromisoformat(f"{ctx.day(-3)}T11:00:00"), send_time=when)
    state["campaigns"][campaign_id] = camp.model_dump(mode="json")
    return campaign_id


CAMPAIGN = Relay(
    service=SERVICE, name="newsletter campaign", key="newsletter_campaign_id",
    gives=(Give("date", "send_time", "the campaign's scheduled send date", pattern=DATE_RX),
           Give("email", "settings.reply_to", "the campaign owner's reply-to address", "the campaign owner",
                draw=employee_email)),
    plant=lambda ctx, key, outs, stale: plant_campaign(ctx, key, day=outs.get("date") or ctx.day(ctx.rng.randint(3, 30)),
                                                        reply_to=outs.get("email") or SENDER),
    find=lambda reader, key: reader.read(SERVICE, "get_campaign", campaign_id=key),
    where="Each newsletter campaign names its scheduled send time and the owner who gets the replies.",
    alloc=lambda ctx: next_campaign_id(ctx.state(SERVICE)), entry=lambda key: f"newsletter campaign {key}")


def _prepare_member(ctx: Ctx, values: dict[str, Any]) -> None:
    _subscribe(ctx, values["member"], {})


def _member_scope(key: str) -> list[OnlyChanged]:
    return [OnlyChanged(id="_", service=SERVICE, collection="members", allow_ids=[key],
                        description="No other newsletter member was changed or added.")]


def _unsubscribe(reader: Reader, args: dict[str, Found]) -> Write:
    email, case = args["member"].value, args["case"].value
    member = _find_member(reader, email)
    key = member_key(member["list_id"], email)
    return Write(
        calls=[call("update_list_member", list_id=member["list_id"], subscriber_hash=email, status="unsubscribed",
                    unsubscribe_reason=f"Unsubscribe request, {case}")],
        checks=[RecordMatches(id="_", service=SERVICE, collection="members", record_id=key,
                              where={"status": "unsubscribed"},
                              description="The case's customer is unsubscribed from the customer newsletter.")],
        scope=_member_scope(key), tool="update_list_member", where={"subscriber_hash": {"$ieq": email}},
        label="the newsletter unsubscription")


def _note(reader: Reader, args: dict[str, Found]) -> Write:
    email, mention, case = args["member"].value, args["mention"], args["case"].value
    member = _find_member(reader, email)
    key = member_key(member["list_id"], email)
    return Write(
        calls=[call("create_list_member_note", list_id=member["list_id"], subscriber_hash=email,
                    note=f"{case}: {mention.noun} is {mention.display}.")],
        checks=[RecordMatches(id="_", service=SERVICE, collection="members", record_id=key,
                              where={"notes": {"$any": {"note": {"$contains": mention.display}}}},
                              description="A note on the customer's newsletter record quotes the right value.")],
        scope=_member_scope(key), tool="create_list_member_note", where={"subscriber_hash": {"$ieq": email}},
        label="the note on the newsletter subscriber")


def _unschedule(reader: Reader, args: dict[str, Found]) -> Write:
    cid = args["campaign"].value
    reader.read(SERVICE, "get_campaign", campaign_id=cid)
    return Write(
        calls=[call("unschedule_campaign", campaign_id=cid)],
        checks=[RecordMatches(id="_", service=SERVICE, collection="campaigns", record_id=cid,
                              where={"status": "save", "send_time": None},
                              description="The campaign is off the schedule, back to a draft.")],
        scope=[OnlyChanged(id="_", service=SERVICE, collection="campaigns", allow_ids=[cid],
                           description="No other campaign was changed, created or sent.")],
        tool="unschedule_campaign", where={"campaign_id": cid}, label="the unscheduled campaign")


_CUSTOMER = ("the customer",)

LINKS = ServiceLinks(
    service=SERVICE, label="the newsletter tool",
    relays=(MEMBER, CAMPAIGN),
    actions=(
        Action(service=SERVICE, name="unsubscribe", needs=(Need("member", "email", _CUSTOMER),), build=_unsubscribe,
               prepare=_prepare_member, goal=f"unsubscribe {{member}} from the '{MAIN_LIST}' audience"),
        Action(service=SERVICE, name="note", needs=(Need("member", "email", _CUSTOMER),), build=_note,
               prepare=_prepare_member, goal="add a note to {member}'s newsletter subscriber record quoting {mention}"),
        Action(service=SERVICE, name="unschedule", needs=(Need("campaign", "newsletter_campaign_id"),),
               build=_unschedule, goal="take the newsletter campaign off the schedule"),
    ),
)

__all__ = ["LINKS", "main_list_id", "next_campaign_id", "plant_campaign", "plant_member"]
