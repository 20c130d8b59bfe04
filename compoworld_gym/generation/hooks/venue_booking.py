"""Venue booking (Tripleseat-style) in chained tasks: a corporate client's
converted lead leads to its booked venue event, whose banquet event order
(BEO) total, client contact email and date the record gives (the total then
goes on to the client's invoice); a contact's email finds their live event
too; an event found by its id also names the ticketed event it hosts. The
case's event is confirmed (the 25% deposit recorded, then definite), marked
lost for the case, or gets a note."""

from __future__ import annotations

import datetime as dt
from typing import Any, Optional

from compoworld_gym.checks import OnlyChanged, RecordExists, RecordMatches
from compoworld_gym.envs.services._commerce import money
from compoworld_gym.envs.services._venue_booking_models import (
    SERVICE_CHARGE, TAX_RATE, BanquetOrder, Lead, MenuItem, VenueEvent, overlaps, priced,
)
from compoworld_gym.envs.services._venue_booking_seed import SALES_MANAGERS
from compoworld_gym.generation.context import Ctx, call
from compoworld_gym.generation.hooks.hr_directory import name_from_email
from compoworld_gym.generation.links import (
    Action, Found, Give, Need, Reader, Relay, ServiceLinks, SolveError, Write, next_id, pick,
)

SERVICE = "venue_booking"
DATE_RX = r"\d{4}-\d{2}-\d{2}"
_KINDS = ("Leadership Offsite", "Client Appreciation Dinner", "Annual Kickoff", "Awards Night", "Team Summit")


def next_event_id(state: dict[str, Any]) -> str:
    """Take the next free venue event id (as ``new_id("VEV")``)."""
    return next_id(state, "VEV")


def beo_total(ctx: Ctx) -> float:
    """A plausible BEO grand total for a corporate event (USD)."""
    return round(ctx.rng.randint(250000, 3200000) / 100, 2)


def _beo(state: dict[str, Any], event_id: str, total: float, stamp: str) -> str:
    """Add a BEO to ``event_id`` whose grand total is exactly ``total``: a catering package (food: service
    charge and tax apply) and the room rental that makes up the rest."""
    food = money(total * 0.7 / ((1 + SERVICE_CHARGE) * (1 + TAX_RATE)))
    bid = next_id(state, "BEO")
    while True:
        lines = [MenuItem(name="Catering package", category="food", quantity=1, unit_price=food, amount=food)]
        part = priced(BanquetOrder(id=bid, event_id=event_id, title="Event BEO", items=lines,
                                   service_charge_rate=SERVICE_CHARGE, tax_rate=TAX_RATE, subtotal=0,
                                   service_charge=0, tax=0, grand_total=0, updated_at=stamp)).grand_total
        rent = money(total - part)
        if rent >= 0:
            break
        food = money(food - 0.01)
    if rent > 0:
        lines.append(MenuItem(name="Room rental", category="rental", quantity=1, unit_price=rent, amount=rent))
    order = priced(BanquetOrder(id=bid, event_id=event_id, title="Event BEO", items=lines,
                                service_charge_rate=SERVICE_CHARGE, tax_rate=TAX_RATE, subtotal=0, service_charge=0,
                                tax=0, grand_total=0, updated_at=stamp))
    state["banquet_orders"][bid] = order.model_dump(mode="json")
    return bid


def _free_room(ctx: Ctx, state: dict[str, Any], start: dt.datetime, end: dt.datetime) -> dict[str, Any]:
    """A room no live event holds between ``start`` and ``end`` (a random one of them)."""
    ids = sorted(state["rooms"])
    ctx.rng.shuffle(ids)
    for rid in ids:
        if not any(rid in e["room_ids"] and e["status"] != "lost" and overlaps(
                start, end, dt.datetime.fromisoformat(e["event_start"]), dt.datetime.fromisoformat(e["event_end"]))
                   for e in state["events"].values()):
            return state["rooms"][rid]
    return state["rooms"][ids[0]]


def plant_booking(ctx: Ctx, event_id: str, *, company: str, email: str, total: float, day: str,
                  status: str = "tentative", ticketed: Optional[str] = None, lead: bool = True) -> str:
    """Add a :class:`VenueEvent` for ``company`` (contact ``email``) on ``day`` 18:00-22:00 in a free room, with
    a BEO of ``total`` USD and nothing paid; ``status`` tentative (or lost); with ``lead``, the converted
    :class:`Lead` it came from. Returns the event id."""
    state = ctx.state(SERVICE)
    start = dt.datetime.fromisoformat(f"{day}T18:00:00")
    end = start + dt.timedelta(hours=4)
    room = _free_room(ctx, state, start, end)
    contact = name_from_email(email)
    created = f"{ctx.day(-ctx.rng.randint(8, 30))}T10:00:00"
    lead_id = next_id(state, "VLD") if lead else None
    ev = VenueEvent(id=event_id, name=f"{company} {ctx.rng.choice(_KINDS)}", status=status, lead_id=lead_id,
                    company=company, contact_name=contact, contact_email=email, contact_phone=ctx.fresh("phone"),
                    location_id=room["location_id"], room_ids=[room["id"]], event_start=start, event_end=end,
                    guest_count=ctx.rng.randint(min(15, room["capacity"]), min(room["capacity"], 180)),
                    event_style="Plated Dinner", owner_email=ctx.rng.choice(SALES_MANAGERS), ticketed_event_id=ticketed,
                    lost_reason="Client postponed indefinitely" if status == "lost" else None, created_at=created)
    state["events"][event_id] = ev.model_dump(mode="json")
    _beo(state, event_id, total, created)
    if lead_id is not None:
        first, _, last = contact.partition(" ")
        state["leads"][lead_id] = Lead(
            id=lead_id, first_name=first, last_name=last or "-", email_address=email, phone_number=ev.contact_phone,
            company=company, event_description=ev.name, event_start=start, event_end=end, guest_count=ev.guest_count,
            location_id=ev.location_id, status="converted", event_id=event_id, created_at=created,
        ).model_dump(mode="json")
    return event_id


def _plant(ctx: Ctx, key: Any, outs: dict[str, Any], stale: bool, by: str) -> str:
    state = ctx.state(SERVICE)
    eid = key if by == "id" else next_event_id(state)
    values = {"company": outs.get("company") or ctx.fresh("company"), "email": outs.get("email") or ctx.person()[1]}
    if by != "id":
        values[by] = key
    return plant_booking(ctx, eid, company=values["company"], email=values["email"],
                         total=outs.get("money") or beo_total(ctx), day=outs.get("date") or ctx.day(ctx.rng.randint(5, 60)),
                         status="lost" if stale else "tentative", ticketed=outs.get("ticketed_event_id"))


def _client_event(reader: Reader, company: Any) -> dict[str, Any]:
    """The client's converted lead -> its live event (and the event's BEO, for the total)."""
    leads = reader.read(SERVICE, "list_leads", company=company, status="converted")
    events = [reader.read(SERVICE, "get_event", event_id=ld["event_id"]) for ld in leads]
    event = pick([e for e in events if e["status"] != "lost"])
    for beo in event["banquet_orders"]:
        reader.read(SERVICE, "get_banquet_order", banquet_order_id=beo["id"])
    return event


def _contact_event(reader: Reader, email: Any) -> dict[str, Any]:
    rows = reader.read(SERVICE, "list_events", contact_email=email)
    return reader.read(SERVICE, "get_event", event_id=pick([e for e in rows if e["status"] != "lost"])["id"])


_TOTAL = Give("money", "financials.grand_total", "the banquet event order total", draw=beo_total)
_CONTACT = Give("email", "contact_email", "the client contact's email address", "the customer")
_DAY = Give("date", "event_start", "the event date", pattern=DATE_RX)
_TRUTH = "A lost booking is dead; only the client's live event counts."

EVENT = Relay(
    service=SERVICE, name="venue event", key="venue_event_id",
    gives=(Give("company", "company", "the client company of the event", party="customer"), _CONTACT, _TOTAL, _DAY,
           Give("ticketed_event_id", "ticketed_event_id", "the ticketed event the booking hosts")),
    plant=lambda ctx, key, outs, stale: _plant(ctx, key, outs, stale, "id"),
    find=lambda reader, key: reader.read(SERVICE, "get_event", event_id=key),
    where="Each venue event names the client company, its contact, the BEO total, the date and any ticketed "
          "event it hosts.",
    alloc=lambda ctx: next_event_id(ctx.state(SERVICE)), entry=lambda key: f"venue event {key}")

CLIENT_EVENT = Relay(
    service=SERVICE, name="client's booked venue event", key="company", key_party="customer",
    gives=(Give("venue_event_id", "id", "the client's booked venue event"), _TOTAL, _CONTACT, _DAY),
    plant=lambda ctx, key, outs, stale: _plant(ctx, key, outs, stale, "company"), find=_client_event,
    where="The venue's sales system files each corporate client's inquiry as a lead under the company name; a "
          "converted lead names the event it was booked as, and the event's banquet event order holds the total.",
    truth=_TRUTH)

CONTACT_EVENT = Relay(
    service=SERVICE, name="contact's booked venue event", key="email",
    gives=(Give("venue_event_id", "id", "the contact's booked venue event"), _TOTAL,
           Give("company", "company", "the client company of the event", party="customer"), _DAY),
    plant=lambda ctx, key, outs, stale: _plant(ctx, key, outs, stale, "email"), find=_contact_event,
    where="Venue events record the client contact's email address.", truth=_TRUTH)


def _events_scope(eid: str) -> OnlyChanged:
    return OnlyChanged(id="_", service=SERVICE, collection="events", allow_ids=[eid],
                       description="No other venue event was changed or booked.")


def _prepare_open(ctx: Ctx, values: dict[str, Any]) -> None:
    """The event is pencilled in (tentative) when the write starts."""
    ev = ctx.state(SERVICE)["events"].get(values["event"])
    if ev is not None and ev["status"] == "prospect":
        ev["status"] = "tentative"


def _confirm(reader: Reader, args: dict[str, Found]) -> Write:
    eid, case = args["event"].value, args["case"].value
    fin = reader.read(SERVICE, "get_event", event_id=eid)["financials"]
    short = money(fin["deposit_required"] - fin["deposits_paid"])
    if fin["grand_total"] <= 0:
        raise SolveError(f"venue event {eid} has no BEO to take a deposit on")
    calls, checks = [], [RecordMatches(id="_", service=SERVICE, collection="events", record_id=eid,
                                       where={"status": "definite"},
                                       description="The venue event is confirmed (definite).")]
    if short > 0:
        calls.append(call("record_payment", event_id=eid, amount=short, kind="deposit", reference=case))
        checks.append(RecordExists(id="_", service=SERVICE, collection="payments",
                                   where={"event_id": eid, "kind": "deposit", "reference": {"$contains": case},
                                          "amount": {"$gte": round(short - 0.01, 2), "$lte": round(short + 0.01, 2)}},
                                   description="The missing 25% deposit is recorded, quoting the case."))
    calls.append(call("update_event_status", event_id=eid, status="definite"))
    return Write(calls=calls, checks=checks,
                 scope=[_events_scope(eid), OnlyChanged(id="_", service=SERVICE, collection="payments",
                                                        allow_new={"event_id": eid}, max_new=1,
                                                        description="No other payment was recorded.")],
                 tool="update_event_status", where={"event_id": eid, "status": "definite"},
                 label="the confirmed venue booking", moves_money=short > 0)


def _lose(reader: Reader, args: dict[str, Found]) -> Write:
    eid, case = args["event"].value, args["case"].value
    reader.read(SERVICE, "get_event", event_id=eid)
    return Write(
        calls=[call("update_event_status", event_id=eid, status="lost", reason=f"Cancelled by the client, {case}")],
        checks=[RecordMatches(id="_", service=SERVICE, collection="events", record_id=eid,
                              where={"status": "lost", "lost_reason": {"$contains": case}},
                              description="The venue event is marked lost, the reason naming the case.")],
        scope=[_events_scope(eid)], tool="update_event_status", where={"event_id": eid, "status": "lost"},
        label="the released venue booking")


def _note(reader: Reader, args: dict[str, Found]) -> Write:
    eid, mention, case = args["event"].value, args["mention"], args["case"].value
    reader.read(SERVICE, "get_event", event_id=eid)
    return Write(
        calls=[call("add_event_note", event_id=eid, note=f"{case}: {mention.noun} is {mention.display}.")],
        checks=[RecordMatches(id="_", service=SERVICE, collection="events", record_id=eid,
                              where={"notes": {"$some": {"$all": [{"$contains": case},
                                                                  {"$contains": mention.display}]}}},
                              description="The venue event carries a note quoting the right value.")],
        scope=[_events_scope(eid)], tool="add_event_note", where={"event_id": eid}, label="the note on the venue event")


_NEED = (Need("event", "venue_event_id"),)

LINKS = ServiceLinks(
    service=SERVICE, label="the venue booking system",
    relays=(EVENT, CLIENT_EVENT, CONTACT_EVENT),
    actions=(
        Action(service=SERVICE, name="confirm", needs=_NEED, build=_confirm, prepare=_prepare_open,
               goal="record the client's deposit still needed to reach 25% of the BEO total (quoting the case in "
                    "the reference) and confirm the venue event as definite"),
        Action(service=SERVICE, name="lose", needs=_NEED, build=_lose, prepare=_prepare_open,
               goal="release the venue booking: mark the event lost, naming the case in the reason"),
        Action(service=SERVICE, name="note", needs=_NEED, build=_note,
               goal="add a note to the venue event quoting {mention}"),
    ),
)

__all__ = ["LINKS", "beo_total", "next_event_id", "plant_booking"]
