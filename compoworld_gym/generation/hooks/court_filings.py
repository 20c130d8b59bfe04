"""Court filings in chained tasks: a court case names the firm's client matter,
the client company, the amount in controversy and the date of its next
hearing; a matter's (or a client company's) open case is found by the matter
id (or the company name, and then names the matter), so a matter leads to its
court case and the day of its next hearing, which a calendar invitation or a
room booking for the client can then quote. Writes: e-file a status report on
the case, or reserve its next free status-conference date."""

from __future__ import annotations

import datetime as dt
from typing import Any, Optional

from compoworld_gym.checks import OnlyChanged, RecordExists
from compoworld_gym.envs.services._common import email_for
from compoworld_gym.envs.services._court_filings_models import (
    COURTS, HEARING_TIMES, CourtCase, Hearing, court_day_problem,
)
from compoworld_gym.envs.services._court_filings_seed import FIRM, LITIGATORS
from compoworld_gym.envs.services._legal_matters_seed import USERS
from compoworld_gym.generation.config import TODAY
from compoworld_gym.generation.context import Ctx, call
from compoworld_gym.generation.hooks.legal_matters import next_matter_id
from compoworld_gym.generation.links import (
    Action, Found, Give, Need, Reader, Relay, ServiceLinks, SolveError, Write, latest, next_id,
)

SERVICE = "court_filings"
_COURT = "riverton:cv"
_ATTORNEYS = tuple(email for _, email, _ in LITIGATORS)
_BAR = {email: bar for _, email, bar in LITIGATORS}
_NAMES = {u.email: u.name for u in USERS}


def next_case_id(state: dict[str, Any]) -> str:
    """Take the next free case tracking id from the e-filing counters."""
    return next_id(state, "CASE")


def matter_ref(ctx: Ctx) -> str:
    """A fresh matter id for a court case: the practice-management system's next one when it is
    mounted, else one counted in the e-filing state past the firm's seeded matters."""
    if "legal_matters" in ctx.states:
        return next_matter_id(ctx.state("legal_matters"))
    ctx.state(SERVICE)["counters"].setdefault("MAT", 11 + ctx.rng.randrange(25))
    return ctx.new_id(SERVICE, "MAT")


def hearing_day(ctx: Ctx) -> str:
    """A court day 3 to 40 days ahead (ISO): a weekday that is not a judicial holiday."""
    day = ctx.today + dt.timedelta(days=ctx.rng.randint(3, 40))
    while court_day_problem(day) is not None:
        day += dt.timedelta(days=1)
    return day.isoformat()


def _slot(state: dict[str, Any], day: str) -> tuple[str, str]:
    """A (courtroom, time) of the civil court still free on ``day`` in the planted calendar."""
    taken = {(h["courtroom"], h["time"]) for h in state["hearings"].values()
             if h["status"] == "scheduled" and h["court"] == _COURT and h["date"] == day}
    for room in sorted(COURTS[_COURT].courtrooms):
        for t in HEARING_TIMES:
            if (room, t) not in taken:
                return room, t
    raise SolveError(f"no free courtroom time on {day}")


def plant_case(ctx: Ctx, case_id: str, *, matter_id: Optional[str], client: str, company: str, attorney: str,
               day: str, amount: float, closed: bool = False) -> str:
    """Add a civil case of client ``company`` (validated), led by ``attorney``, with a scheduled
    Case Management Conference on ``day`` (ISO); a ``closed`` case was dismissed and its
    hearing vacated. Returns the id."""
    state = ctx.state(SERVICE)
    court = COURTS[_COURT]
    room, time = _slot(state, day)
    other = f"{ctx.last_name()} {ctx.rng.choice(('Holdings', 'Supply Co', 'Industries', 'Group'))}"
    counsel = f"{ctx.first_name()} {ctx.last_name()}"
    firm = other.split()[0].lower().replace("'", "")
    counsel_email = email_for(f"{counsel[0]}{counsel.split()[-1]}", f"{firm}law.example")
    filed = ctx.today - dt.timedelta(days=ctx.rng.randint(60, 200) + (200 if closed else 0))
    case = CourtCase(
        id=case_id, case_number=f"{filed.year % 100:02d}CV{ctx.rng.randint(20000, 99999):06d}", court=_COURT,
        court_name=court.name, city=court.city, case_type="Breach of Contract/Warranty",
        title=f"{company} v. {other}", status="closed" if closed else "open", filed_on=filed,
        closed_on=ctx.today - dt.timedelta(days=ctx.rng.randint(20, 90)) if closed else None,
        disposition="Dismissed without prejudice" if closed else None, courtroom=room,
        judge=court.courtrooms[room], matter_id=matter_id, client_name=client, client_company=company,
        amount_in_controversy=amount, lead_attorney_email=attorney,
        parties=[{"name": company, "party_type": "Plaintiff", "is_organization": True, "attorney_email": attorney},
                 {"name": other, "party_type": "Defendant", "is_organization": True, "attorney_email": counsel_email}],
        attorneys=[{"name": _NAMES.get(attorney, "Victor Reed"), "email": attorney, "bar_number": _BAR.get(attorney,
                    "219371"), "firm": FIRM, "represents": company},
                   {"name": counsel, "email": counsel_email, "bar_number": str(ctx.rng.randint(150000, 330000)),
                    "firm": f"{other.split()[0]} Law LLP", "represents": other}])
    state["cases"][case_id] = case.model_dump(mode="json")
    hid = next_id(state, "HRG")
    state["hearings"][hid] = Hearing(
        id=hid, case_id=case_id, case_number=case.case_number, court=_COURT, courtroom=room,
        judge=case.judge, hearing_type="Case Management Conference", date=day, time=time,
        status="vacated" if closed else "scheduled",
        note="Vacated: case dismissed." if closed else "").model_dump(mode="json")
    return case_id


def _plant(ctx: Ctx, key: Any, outs: dict[str, Any], stale: bool, by: str) -> str:
    state = ctx.state(SERVICE)
    cid = key if by == "id" else next_case_id(state)
    matter = key if by == "matter" else outs.get("matter_id") or matter_ref(ctx)
    known = ctx.states.get("legal_matters", {}).get("matters", {}).get(matter) or {}
    company = key if by == "company" else outs.get("company") or known.get("client_company") or ctx.fresh("company")
    client = known.get("client_name") or ctx.client()
    # The matter's responsible attorney appears for the client. The attorney is not a value the chain
    # carries on: an outside firm's lawyer is nobody's employee or customer in the other services.
    lead = known.get("responsible_attorney_email")
    lead = lead if lead in _ATTORNEYS else ctx.rng.choice(_ATTORNEYS)
    return plant_case(ctx, cid, matter_id=matter, client=client, company=company, attorney=lead,
                      day=outs.get("date") or hearing_day(ctx),
                      amount=outs.get("money") or float(ctx.rng.randrange(2500000, 90000000, 100)) / 100,
                      closed=stale)


def _by_id(reader: Reader, key: Any) -> dict[str, Any]:
    return reader.read(SERVICE, "get_case", case_id=key)


def _open_of(reader: Reader, **where: Any) -> dict[str, Any]:
    rows = reader.read(SERVICE, "search_cases", limit=200, **where)
    return _by_id(reader, latest([r for r in rows if r["status"] == "open"], "filed_on")["id"])


_HEARING = Give("date", "next_hearing.date", "the date of the case's next hearing", draw=hearing_day)
_AMOUNT = Give("money", "amount_in_controversy", "the amount in controversy in the court case")
_MATTER = Give("matter_id", "matter_id", "the firm's client matter for the court case")
_TRUTH = "A closed court case is disposed of; only the open case counts."

COURT_CASE = Relay(
    service=SERVICE, name="court case", key="court_case_id",
    gives=(_MATTER, Give("company", "client_company", "the client company in the court case", party="customer"),
           _HEARING, _AMOUNT),
    plant=lambda ctx, key, outs, stale: _plant(ctx, key, outs, stale, "id"), find=_by_id,
    where="Each court case in the e-filing system names the firm's client matter, the client company, the amount "
          "in controversy and its next hearing.",
    alloc=lambda ctx: next_case_id(ctx.state(SERVICE)), entry=lambda key: f"court case {key}")

MATTER_CASE = Relay(
    service=SERVICE, name="matter's court case", key="matter_id",
    gives=(Give("court_case_id", "id", "the matter's open court case"), _HEARING, _AMOUNT),
    plant=lambda ctx, key, outs, stale: _plant(ctx, key, outs, stale, "matter"),
    find=lambda reader, key: _open_of(reader, matter_id=key), alloc=matter_ref,
    where="The court e-filing system files each court case under the firm's client matter id.",
    entry=lambda key: f"the court case of legal matter {key}", truth=_TRUTH)

CLIENT_CASE = Relay(
    service=SERVICE, name="client company's court case", key="company", key_party="customer",
    gives=(Give("court_case_id", "id", "the client company's open court case"), _MATTER, _HEARING, _AMOUNT),
    plant=lambda ctx, key, outs, stale: _plant(ctx, key, outs, stale, "company"),
    find=lambda reader, key: _open_of(reader, client_company=key),
    where="Court cases in the e-filing system name the firm's client company and the firm's client matter.",
    truth=_TRUTH)


def reader_today(reader: Reader) -> dt.date:
    """The mounted e-filing system's today (the date the agent is told)."""
    svc = getattr(reader, "services", {}).get(SERVICE)
    return svc.today if svc is not None else TODAY


def _account(reader: Reader) -> str:
    today = reader_today(reader).isoformat()
    for acct in reader.read(SERVICE, "list_payment_accounts"):
        if acct["active"] and acct["type"] != "fee_waiver" and (acct["expires_on"] is None
                                                                 or acct["expires_on"] >= today):
            return acct["id"]
    raise SolveError("no payment account can pay filing fees")


def _file(reader: Reader, args: dict[str, Found]) -> Write:
    cid, mention, case = args["case_file"].value, args["mention"], args["case"].value
    record = _by_id(reader, cid)
    if record["status"] != "open":
        raise SolveError(f"court case {cid} is closed")
    comment = f"{case}: {mention.noun} is {mention.display}."
    doc = {"filing_code": "Status Report", "title": f"Status Report - {record['title']}"[:200],
           "file_name": "status_report.pdf"}
    where = {"case_id": cid, "status": "submitted", "documents": {"$any": {"filing_code": "Status Report"}},
             "comments_to_clerk": {"$all": [{"$contains": case}, {"$contains": mention.display}]}}
    return Write(
        calls=[call("submit_filing", case_id=cid, filer_email=record["lead_attorney_email"], documents=[doc],
                    payment_account_id=_account(reader), comments_to_clerk=comment, client_reference=case)],
        checks=[RecordExists(id="_", service=SERVICE, collection="filings", where=where,
                             description="A status report is e-filed on the right court case, the comments to the "
                                         "clerk quoting the case and the value.")],
        scope=[OnlyChanged(id="_", service=SERVICE, collection="filings", allow_new={"case_id": cid}, max_new=1,
                           description="No other filing was submitted or changed.")],
        tool="submit_filing", where={"case_id": cid}, label="the status report filing", moves_money=True)


def _reserve(reader: Reader, args: dict[str, Found]) -> Write:
    cid = args["case_file"].value
    _by_id(reader, cid)
    slots = reader.read(SERVICE, "get_available_court_dates", case_id=cid, limit=1)["slots"]
    if not slots:
        raise SolveError(f"no free court date for {cid}")
    first = slots[0]
    where = {"case_id": cid, "hearing_type": "Status Conference", "date": first["date"], "time": first["time"],
             "status": "scheduled"}
    return Write(
        calls=[call("reserve_court_date", case_id=cid, hearing_type="Status Conference", date=first["date"],
                    time=first["time"])],
        checks=[RecordExists(id="_", service=SERVICE, collection="hearings", where=where,
                             description="A status conference is reserved for the right case on the first free "
                                         "court date and time.")],
        scope=[OnlyChanged(id="_", service=SERVICE, collection="hearings", allow_new={"case_id": cid}, max_new=1,
                           description="No other hearing was reserved, moved or vacated.")],
        tool="reserve_court_date", where={"case_id": cid}, label="the status conference reservation")


LINKS = ServiceLinks(
    service=SERVICE, label="the court e-filing system",
    relays=(COURT_CASE, MATTER_CASE, CLIENT_CASE),
    actions=(
        Action(service=SERVICE, name="file", needs=(Need("case_file", "court_case_id"),), build=_file,
               goal="e-file a status report on the court case, paid from a valid firm account, the comments to the "
                    "clerk quoting {mention}"),
        Action(service=SERVICE, name="reserve", needs=(Need("case_file", "court_case_id"),), build=_reserve,
               goal="reserve a status conference for the court case at the first free time on the court calendar"),
    ),
)

__all__ = ["LINKS", "hearing_day", "matter_ref", "next_case_id", "plant_case"]
