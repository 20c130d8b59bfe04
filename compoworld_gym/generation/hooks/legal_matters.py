"""Legal matters in chained tasks: a matter names its client (email, name,
company) and its outstanding bill balance; a client's open matter is found
by their email, a client company's by the company name. Writes: a note on
the matter, time recorded by its responsible attorney, the client's payment
clearing the balance, or (by policy) a new responsible attorney."""

from __future__ import annotations

import datetime as dt
from typing import Any

from compoworld_gym.checks import OnlyChanged, RecordExists, RecordMatches
from compoworld_gym.envs.services._legal_matters_models import Activity, Bill, Contact, Matter
from compoworld_gym.envs.services._legal_matters_seed import PRACTICE_AREAS, TIME_NOTES, USERS
from compoworld_gym.generation.config import TODAY
from compoworld_gym.generation.context import Ctx, call
from compoworld_gym.generation.links import (
    Action, Found, Give, Need, Reader, Relay, ServiceLinks, Write, latest, next_id, pick,
)

_ATTORNEYS = [u for u in USERS if u.role == "attorney"]
#: Attorneys a policy may route a matter to; planted matters are led by the others, so a routed
#: reassignment always changes the matter.
ROUTE_ATTORNEYS = tuple(u.email for u in _ATTORNEYS if u.practice_area in ("Employment", "Intellectual Property"))
_LEADS = [u for u in _ATTORNEYS if u.email not in ROUTE_ATTORNEYS]


def next_matter_id(state: dict[str, Any]) -> str:
    """Take the next free matter id from the legal system's counters."""
    return next_id(state, "MAT")


def _contact(state: dict[str, Any], ctx: Ctx, name: str, email: str, company: str) -> str:
    for c in state["contacts"].values():
        if (c.get("email") or "").lower() == email.lower():
            return c["id"]
    cid = next_id(state, "CON")
    state["contacts"][cid] = Contact(id=cid, type="Person", name=name, email=email, company=company,
                                     phone=ctx.fresh("phone")).model_dump(mode="json")
    return cid


def _activity(state: dict[str, Any], **fields: Any) -> str:
    aid = next_id(state, "ACT")
    state["activities"][aid] = Activity.model_validate({**fields, "id": aid}).model_dump(mode="json")
    return aid


def plant_matter(ctx: Ctx, matter_id: str, *, email: str, name: str, company: str, balance: float,
                 closed: bool = False) -> str:
    """Add a matter of a client (created unless their email is known) with one issued bill whose
    balance is ``balance`` (USD) and, on an open matter, newer unbilled time; returns the id.

    Raises:
        pydantic.ValidationError: the fields do not make valid records.
    """
    state = ctx.state("legal_matters")
    lead = ctx.rng.choice(_LEADS)
    cid = _contact(state, ctx, name, email, company)
    opened = ctx.today - dt.timedelta(days=ctx.rng.randint(40, 120) + (150 if closed else 0))
    day = (opened + dt.timedelta(days=12)).isoformat()
    hours = int(balance * 0.8 / lead.rate * 10) / 10
    work = round(hours * lead.rate, 2)
    ids = [_activity(state, type="TimeEntry", matter_id=matter_id, user_email=lead.email, date=day, quantity=hours,
                     price=lead.rate, total=work, note=ctx.rng.choice(TIME_NOTES[lead.practice_area]))] if hours else []
    if round(balance - work, 2) > 0:
        ids.append(_activity(state, type="ExpenseEntry", matter_id=matter_id, user_email=lead.email, date=day,
                             quantity=1, price=round(balance - work, 2), total=round(balance - work, 2),
                             note="Court filing and service fees"))
    bid = next_id(state, "BIL")
    for aid in ids:
        state["activities"][aid]["bill_id"] = bid
    issued = opened + dt.timedelta(days=20)
    state["bills"][bid] = Bill(id=bid, matter_id=matter_id, client_id=cid, state="awaiting_payment",
                               activity_ids=ids, total=balance, balance=balance, created_on=issued, issued_at=issued,
                               due_at=issued + dt.timedelta(days=30)).model_dump(mode="json")
    if not closed:
        recent = ctx.rng.randint(3, 25) / 10  # newer work, not billed yet
        _activity(state, type="TimeEntry", matter_id=matter_id, user_email=lead.email,
                  date=ctx.day(-ctx.rng.randint(1, 6)), quantity=recent, price=lead.rate,
                  total=round(recent * lead.rate, 2), note=ctx.rng.choice(TIME_NOTES[lead.practice_area]))
    m = Matter(id=matter_id, display_number=f"{int(matter_id[4:]):05d}-{name.split()[-1]}",
               description=ctx.rng.choice(PRACTICE_AREAS[lead.practice_area]).format(client=name), client_id=cid,
               client_name=name, client_email=email, client_company=company, practice_area=lead.practice_area,
               responsible_attorney_email=lead.email, originating_attorney_email=lead.email,
               status="closed" if closed else "open", open_date=opened,
               close_date=ctx.day(-ctx.rng.randint(10, 30)) if closed else None)
    state["matters"][matter_id] = m.model_dump(mode="json")
    return matter_id


def _plant(ctx: Ctx, key: Any, outs: dict[str, Any], stale: bool, by: str) -> str:
    state = ctx.state("legal_matters")
    mid = key if by == "id" else next_matter_id(state)
    email = key if by == "email" else outs.get("email") or ctx.person()[1]
    company = key if by == "company" else outs.get("company") or ctx.fresh("company")
    name = outs.get("person_name") or ctx.client()
    balance = outs.get("money") or round(ctx.rng.randint(40000, 900000) / 100, 2)
    return plant_matter(ctx, mid, email=email, name=name, company=company, balance=balance, closed=stale)


def _by_id(reader: Reader, key: Any) -> dict[str, Any]:
    return reader.read("legal_matters", "get_matter", matter_id=key)


def _open_of(reader: Reader, **where: Any) -> dict[str, Any]:
    rows = reader.read("legal_matters", "list_matters", limit=200, **where)
    return _by_id(reader, latest([r for r in rows if r["status"] != "closed"], "open_date")["id"])


_BALANCE = Give("money", "outstanding_balance", "the matter's outstanding bill balance")

MATTER = Relay(
    service="legal_matters", name="legal matter", key="matter_id",
    gives=(Give("matter_id", "id", "the legal matter"),
           Give("email", "client_email", "the client's email address", "the customer"),
           Give("person_name", "client_name", "the client's name", "the customer"),
           Give("company", "client_company", "the client's company", party="customer"), _BALANCE),
    plant=lambda ctx, key, outs, stale: _plant(ctx, key, outs, stale, "id"), find=_by_id,
    where="Each legal matter names its client (email, name and company) and its outstanding bill balance.",
    alloc=lambda ctx: next_matter_id(ctx.state("legal_matters")), entry=lambda key: f"legal matter {key}")

CLIENT_MATTER = Relay(
    service="legal_matters", name="client's open matter", key="email",
    gives=(Give("matter_id", "id", "the client's open legal matter"),
           Give("company", "client_company", "the client's company", party="customer"), _BALANCE),
    plant=lambda ctx, key, outs, stale: _plant(ctx, key, outs, stale, "email"),
    find=lambda reader, key: _open_of(reader, client_email=key),
    where="Legal matters are filed under the client's email address.",
    truth="A closed legal matter is history; only the client's open matter counts.")

COMPANY_MATTER = Relay(
    service="legal_matters", name="company's open matter", key="company", key_party="customer",
    gives=(Give("matter_id", "id", "the company's open legal matter"),
           Give("email", "client_email", "the client's email address", "the customer"), _BALANCE),
    plant=lambda ctx, key, outs, stale: _plant(ctx, key, outs, stale, "company"),
    find=lambda reader, key: _open_of(reader, client_company=key),
    where="Legal matters list the client's company; a company's open matter is the one that counts.",
    truth="A closed legal matter is history; only the company's open matter counts.")


def _scope(collection: str, ids: list[str], **new: Any) -> list[OnlyChanged]:
    return [OnlyChanged(id="_", service="legal_matters", collection=collection, allow_ids=ids,
                        allow_new=new or None, description=f"No other legal {collection} were changed or created.")]


def _note(reader: Reader, args: dict[str, Found]) -> Write:
    mid, mention, case = args["matter"].value, args["mention"], args["case"].value
    _by_id(reader, mid)
    return Write(
        calls=[call("create_note", matter_id=mid, subject=case[:120],
                    detail=f"{case}: {mention.noun} is {mention.display}.")],
        checks=[RecordMatches(id="_", service="legal_matters", collection="matters", record_id=mid,
                              where={"notes": {"$any": {"detail": {"$all": [{"$contains": case},
                                                                             {"$contains": mention.display}]}}}},
                              description="A note on the matter quotes the case and the right value.")],
        scope=_scope("matters", [mid]), tool="create_note", where={"matter_id": mid}, label="the note on the matter")


def _log_time(reader: Reader, args: dict[str, Found]) -> Write:
    mid, mention, case = args["matter"].value, args["mention"], args["case"].value
    lead = _by_id(reader, mid)["responsible_attorney_email"]
    note = f"{case}: review; {mention.noun} is {mention.display}"[:500]
    where = {"matter_id": mid, "type": "TimeEntry", "user_email": {"$ieq": lead}, "quantity": 0.5,
             "note": {"$contains": mention.display}}
    return Write(
        calls=[call("create_time_entry", matter_id=mid, user_email=lead, date=reader_today(reader), hours=0.5,
                    note=note)],
        checks=[RecordExists(id="_", service="legal_matters", collection="activities", where=where,
                             description="Half an hour is recorded on the matter by its responsible attorney, "
                                         "the note quoting the value.")],
        scope=_scope("activities", [], matter_id=mid, type="TimeEntry"), tool="create_time_entry",
        where={"matter_id": mid}, label="the time entry on the matter")


def reader_today(reader: Reader) -> str:
    """Today's date (ISO): the mounted legal system's today (the date the agent is told)."""
    svc = getattr(reader, "services", {}).get("legal_matters")
    return (svc.today if svc is not None else TODAY).isoformat()


def _settle(reader: Reader, args: dict[str, Found]) -> Write:
    mid = args["matter"].value
    _by_id(reader, mid)
    bill = pick(reader.read("legal_matters", "list_bills", matter_id=mid, state="awaiting_payment"), matter_id=mid)
    return Write(
        calls=[call("record_payment", bill_id=bill["id"], amount=bill["balance"])],
        checks=[RecordMatches(id="_", service="legal_matters", collection="bills", record_id=bill["id"],
                              where={"state": "paid", "balance": 0.0},
                              description="The matter's outstanding bill is paid in full.")],
        scope=_scope("bills", [bill["id"]]), tool="record_payment", where={"bill_id": bill["id"]},
        label="the payment on the matter's bill", moves_money=True)


def _assign(reader: Reader, args: dict[str, Found]) -> Write:
    mid, who = args["matter"].value, args["attorney"].value
    _by_id(reader, mid)
    return Write(
        calls=[call("update_matter", matter_id=mid, responsible_attorney_email=who)],
        checks=[RecordMatches(id="_", service="legal_matters", collection="matters", record_id=mid,
                              where={"responsible_attorney_email": {"$ieq": who}, "status": "open"},
                              description="The matter's responsible attorney is the one the policy names.")],
        scope=_scope("matters", [mid]), tool="update_matter", where={"matter_id": mid},
        label="the matter reassignment")


def _attorneys(ctx: Ctx) -> tuple[str, str]:
    a, b = ctx.rng.sample(ROUTE_ATTORNEYS, 2)
    return a, b


LINKS = ServiceLinks(
    service="legal_matters", label="the legal practice-management system",
    relays=(MATTER, CLIENT_MATTER, COMPANY_MATTER),
    actions=(
        Action(service="legal_matters", name="note", needs=(Need("matter", "matter_id"),), build=_note,
               goal="add a note to the legal matter stating {mention}"),
        Action(service="legal_matters", name="log time", needs=(Need("matter", "matter_id"),), build=_log_time,
               goal="record half an hour of review time on the legal matter by its responsible attorney, "
                    "the note quoting {mention}"),
        Action(service="legal_matters", name="settle", needs=(Need("matter", "matter_id"),), build=_settle,
               goal="record the client's payment clearing the legal matter's outstanding bill"),
        # Only a policy names the new attorney: nothing in a record says who should take a matter over.
        Action(service="legal_matters", name="assign",
               needs=(Need("attorney", "email", ("the backup attorney",), "attorney"), Need("matter", "matter_id")),
               build=_assign, goal="make {attorney} the responsible attorney of the legal matter", routable=True),
    ),
    route_values={"email": _attorneys},
)

__all__ = ["LINKS", "ROUTE_ATTORNEYS", "next_matter_id", "plant_matter"]
