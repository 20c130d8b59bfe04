"""Visitors in chained tasks: an office invite names the hosting employee,
the visitor's email and company and the day they are expected; a host's
email (a room booking's organizer, a hiring manager), a guest's email (a
calendar meeting's customer) or a job application quoted in an interview
invite's notes lead to the invite. Writes: invite the case's guest quoting a
discovered value in the notes, cancel the invite, or sign the guest out."""

from __future__ import annotations

import datetime as dt
from typing import Any

from compoworld_gym.checks import OnlyChanged, RecordExists, RecordMatches
from compoworld_gym.envs.services._company import OPS_EMAIL
from compoworld_gym.envs.services._visitors_models import Entry, Host, Invite, Visitor
from compoworld_gym.generation.config import TODAY
from compoworld_gym.generation.context import Ctx, call
from compoworld_gym.generation.hooks.hr_directory import employee_email
from compoworld_gym.generation.links import (
    Action, Found, Give, Need, Reader, Relay, ServiceLinks, SolveError, Write, latest, next_id,
)

SERVICE = "visitors"
DATE_RX = r"\d{4}-\d{2}-\d{2}"
HQ = "LOC-0001"
_GUEST_WHO = ("the customer", "the guest")
_FLOWS = {"Customer visit": "FLW-0003", "Interview candidate": "FLW-0001"}
_NOTES = ("Quarterly business review; badge for floor 4.", "Product roadmap session with the account team.",
          "Contract walkthrough; visitor parking reserved.")


def next_invite_id(state: dict[str, Any]) -> str:
    """Take the next free invite id from the visitor system's counters."""
    return next_id(state, "VIN")


def _host(state: dict[str, Any], email: str) -> dict[str, Any]:
    """The host employee with ``email``, added to the directory (validated :class:`Host`) if new."""
    for h in state["hosts"].values():
        if h["email"].lower() == email.lower():
            return h
    name = " ".join(p.capitalize() for p in email.split("@")[0].replace("_", ".").split("."))
    h = Host(id=next_id(state, "HST"), name=name or "Employee", email=email, location_id=HQ).model_dump(mode="json")
    state["hosts"][h["id"]] = h
    return h


def plant_invite(ctx: Ctx, invite_id: str, *, host: str, guest: tuple[str, str], company: str, day: str,
                 flow: str = "Customer visit", notes: str = "", cancelled: bool = False) -> str:
    """Add an :class:`Invite` (validated) at the HQ for ``guest`` (name, email) hosted by ``host`` at
    10:00 on ``day``, made this morning (``cancelled`` an hour later); returns its id."""
    state = ctx.state(SERVICE)
    h = _host(state, host)
    made = ctx.at(0, 8)
    record = Invite.model_validate({
        "id": invite_id, "invitee_name": guest[0], "invitee_email": guest[1], "company": company,
        "host_email": h["email"], "host_name": h["name"], "location_id": HQ, "flow_id": _FLOWS[flow],
        "flow_name": flow, "expected_arrival_time": f"{str(day)[:10]}T10:00:00",
        "notes": notes or ctx.rng.choice(_NOTES), "status": "cancelled" if cancelled else "expected",
        "created_at": made, "cancelled_at": ctx.at(0, 8 + 1) if cancelled else None})
    state["invites"][invite_id] = record.model_dump(mode="json")
    return invite_id


def application_ref(ctx: Ctx) -> str:
    """A recruiting application id: recruiting's next one when it is mounted, else one counted in
    this state past the seeded pipeline."""
    if "recruiting" in ctx.states:
        return next_id(ctx.state("recruiting"), "APP")
    ctx.state(SERVICE)["counters"].setdefault("APP", 15 + ctx.rng.randrange(20))
    return ctx.new_id(SERVICE, "APP")


def _plant(ctx: Ctx, key: Any, outs: dict[str, Any], stale: bool, by: str) -> str:
    """Plant an invite found ``by`` its id (``id``: giving the host; ``id_guest``: giving the visitor),
    its ``host``'s email, its ``guest``'s email or the job ``application`` its notes quote."""
    state = ctx.state(SERVICE)
    iid = key if by in ("id", "id_guest") else next_invite_id(state)
    name, email = ctx.person()
    given = outs.get("email")
    host = employee_email(ctx)
    if by == "host":
        host, email = key, given or email
    elif by == "guest":
        host, email = given or host, key
    elif by == "id_guest":
        email = given or email
    else:
        host = given or host
    flow, notes = "Customer visit", ""
    if by == "application":
        flow, notes = "Interview candidate", f"Onsite interview loop for application {key}; escort to room Juniper."
    return plant_invite(ctx, iid, host=host, guest=(name, email), company=outs.get("company") or ctx.fresh("company"),
                        day=outs.get("date") or ctx.fresh("date"), flow=flow, notes=notes, cancelled=stale)


def _latest_expected(reader: Reader, **where: Any) -> dict[str, Any]:
    rows = reader.read(SERVICE, "list_invites", status="expected", limit=200, **where)
    if not rows:
        raise SolveError(f"no expected invite matches {where}")
    return latest(rows, "created_at")


_HOST = Give("email", "host_email", "the hosting employee's work email", "the host", draw=employee_email)
_GUEST = Give("email", "invitee_email", "the visitor's email address", "the guest")
_COMPANY = Give("company", "company", "the visitor's company")
_DAY = Give("date", "expected_arrival_time", "the day the visitor is expected", pattern=DATE_RX)
_INVITE = Give("visitor_invite_id", "id", "the visitor invite")
_TRUTH = "A cancelled invite brings nobody in; only the expected invite counts."

INVITE = Relay(
    service=SERVICE, name="visitor invite", key="visitor_invite_id",
    gives=(_HOST, _COMPANY, _DAY),
    plant=lambda ctx, key, outs, stale: _plant(ctx, key, outs, stale, "id"),
    find=lambda reader, key: reader.read(SERVICE, "get_invite", invite_id=key),
    where="Each visitor invite at the front desk names the hosting employee, the visitor's company and the day "
          "they are expected.",
    alloc=lambda ctx: next_invite_id(ctx.state(SERVICE)), entry=lambda key: f"visitor invite {key}")

INVITE_VISITOR = Relay(
    service=SERVICE, name="invited visitor", key="visitor_invite_id",
    gives=(_GUEST, _COMPANY, _DAY),
    plant=lambda ctx, key, outs, stale: _plant(ctx, key, outs, stale, "id_guest"),
    find=lambda reader, key: reader.read(SERVICE, "get_invite", invite_id=key),
    where="Each visitor invite at the front desk holds the visitor's email address and company and the day they "
          "are expected.",
    alloc=lambda ctx: next_invite_id(ctx.state(SERVICE)), entry=lambda key: f"visitor invite {key}")

#: Who hosts the office's visitors: people whose work brings guests in (a customer visit, an interview,
#: an event), not any member of staff (the on-call engineer, a commit author).
HOSTS = frozenset({"the account owner", "the account manager", "the hiring manager", "the project manager",
                   "the project owner", "the event organizer", "the program chair", "the manager", "the employee"})

HOST_INVITE = Relay(
    service=SERVICE, name="host's visitor invite", key="email",
    gives=(_INVITE, _GUEST, _COMPANY, _DAY),
    plant=lambda ctx, key, outs, stale: _plant(ctx, key, outs, stale, "host"),
    find=lambda reader, key: _latest_expected(reader, host_email=key), key_role="staff", key_who=HOSTS,
    truth=_TRUTH,
    where="Visitor invites are filed at the front desk under the hosting employee's work email; the invite made "
          "most recently for an expected visitor is the one in play.")

GUEST_INVITE = Relay(
    service=SERVICE, name="guest's visitor invite", key="email",
    gives=(_INVITE, _HOST, _DAY),
    plant=lambda ctx, key, outs, stale: _plant(ctx, key, outs, stale, "guest"),
    find=lambda reader, key: _latest_expected(reader, invitee_email=key), key_role="customer", truth=_TRUTH,
    where="A customer coming to the office has a visitor invite at the front desk under their email address; the "
          "invite made most recently for them is the one in play.")

APPLICATION_INVITE = Relay(
    service=SERVICE, name="interview visitor invite", key="job_application_id",
    gives=(_INVITE, _HOST, _DAY),
    plant=lambda ctx, key, outs, stale: _plant(ctx, key, outs, stale, "application"),
    find=lambda reader, key: _latest_expected(reader, query=str(key)), truth=_TRUTH, alloc=application_ref,
    where="A candidate coming onsite has an interview visitor invite at the front desk whose notes quote the job "
          "application; it names the hosting employee and the interview day.")


def _expected(reader: Reader, iid: str) -> dict[str, Any]:
    inv = reader.read(SERVICE, "get_invite", invite_id=iid)
    if inv["status"] != "expected":
        raise SolveError(f"invite {iid} is {inv['status']}")
    return inv


def reader_today(reader: Reader) -> dt.date:
    """The mounted visitor system's today (the date the agent is told)."""
    svc = getattr(reader, "services", {}).get(SERVICE)
    return svc.today if svc is not None else TODAY


def _invite(reader: Reader, args: dict[str, Found]) -> Write:
    guest, mention = args["guest"].value, args["mention"]
    day = (reader_today(reader) + dt.timedelta(days=1)).isoformat()
    room = reader.read(SERVICE, "get_location_capacity", location_id=HQ, date=day)
    if room["remaining"] < 1:
        raise SolveError(f"the HQ is full on {day}")
    notes = f"{args['case'].value}: {mention.noun} is {mention.display}."[:1000]
    where = {"invitee_email": guest, "status": "expected", "location_id": HQ,
             "expected_arrival_time": {"$contains": day}, "notes": {"$contains": mention.display}}
    return Write(
        calls=[call("create_invite", invitee_email=guest, host_email=OPS_EMAIL, location_id=HQ,
                    flow_name="Customer visit", expected_arrival_time=f"{day}T10:00:00", notes=notes)],
        checks=[RecordExists(id="_", service=SERVICE, collection="invites", where=where,
                             description="The guest is invited to the HQ tomorrow, the notes quoting the value.")],
        scope=[OnlyChanged(id="_", service=SERVICE, collection="invites", allow_new={"invitee_email": guest},
                           description="No other invite was made or changed.")],
        tool="create_invite", where={"invitee_email": guest}, label="the visitor invite")


def _cancel(reader: Reader, args: dict[str, Found]) -> Write:
    iid = args["invite"].value
    _expected(reader, iid)
    return Write(
        calls=[call("cancel_invite", invite_id=iid)],
        checks=[RecordMatches(id="_", service=SERVICE, collection="invites", record_id=iid,
                              where={"status": "cancelled"}, description="The visitor invite is cancelled.")],
        scope=[OnlyChanged(id="_", service=SERVICE, collection="invites", allow_ids=[iid],
                           description="No other invite was cancelled or changed.")],
        tool="cancel_invite", where={"invite_id": iid}, label="the cancelled visitor invite")


def _prepare_on_site(ctx: Ctx, values: dict[str, Any]) -> None:
    """The guest walked in this morning and is still signed in at the HQ."""
    state, email = ctx.state(SERVICE), values["visitor"]
    if any(e["email"].lower() == str(email).lower() and e["signed_out_at"] is None for e in state["entries"].values()):
        return
    vid = next((v["id"] for v in state["visitors"].values() if v["email"].lower() == str(email).lower()), None)
    if vid is None:
        invited = [i for i in state["invites"].values() if i["invitee_email"].lower() == str(email).lower()]
        name, company = (invited[-1]["invitee_name"], invited[-1]["company"]) if invited else (str(email), "")
        vid = next_id(state, "VIS")
        state["visitors"][vid] = Visitor(id=vid, full_name=name, email=email, company=company,
                                         visit_count=0).model_dump(mode="json")
    state["visitors"][vid]["visit_count"] += 1
    eid = next_id(state, "ENT")
    state["entries"][eid] = Entry.model_validate({
        "id": eid, "visitor_id": vid, "full_name": state["visitors"][vid]["full_name"], "email": email,
        "company": state["visitors"][vid]["company"], "location_id": HQ, "flow_id": _FLOWS["Customer visit"],
        "flow_name": "Customer visit", "host_email": OPS_EMAIL, "signed_in_at": f"{ctx.day(0)}T08:40:00"}).model_dump(
        mode="json")


def _sign_out(reader: Reader, args: dict[str, Found]) -> Write:
    email = args["visitor"].value
    rows = reader.read(SERVICE, "list_entries", email=email, on_site=True, limit=200)
    if not rows:
        raise SolveError(f"{email} is not signed in")
    eid = rows[0]["id"]
    return Write(
        calls=[call("sign_out_entry", entry_id=eid)],
        checks=[RecordMatches(id="_", service=SERVICE, collection="entries", record_id=eid,
                              where={"signed_out_at": {"$ne": None}}, description="The visitor is signed out.")],
        scope=[OnlyChanged(id="_", service=SERVICE, collection="entries", allow_ids=[eid],
                           description="No other visitor was signed in or out.")],
        tool="sign_out_entry", where={"entry_id": eid}, label="the visitor's sign-out")


# No blocklist action: barring a person from the office is no step a case about an order or an
# enrolment takes, whatever the chain found (the tool stays for agents and the fuzzer).
LINKS = ServiceLinks(
    service=SERVICE, label="the front desk's visitor system",
    relays=(INVITE, INVITE_VISITOR, HOST_INVITE, GUEST_INVITE, APPLICATION_INVITE),
    actions=(
        Action(service=SERVICE, name="invite", needs=(Need("guest", "email", _GUEST_WHO),), build=_invite,
               goal="invite {guest} to the head office for a customer visit tomorrow at 10:00, hosted by the "
                    "operations desk, the invite's notes quoting {mention}"),
        Action(service=SERVICE, name="cancel", needs=(Need("invite", "visitor_invite_id"),), build=_cancel,
               goal="cancel the visitor invite so the front desk no longer expects the visitor"),
        Action(service=SERVICE, name="sign_out", needs=(Need("visitor", "email", _GUEST_WHO),), build=_sign_out,
               prepare=_prepare_on_site, goal="sign {visitor} out of the front desk's visitor log, as they have left"),
    ),
)

__all__ = ["LINKS", "next_invite_id", "plant_invite"]
