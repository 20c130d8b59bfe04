"""Recruiting in chained tasks: an application waiting on its offer names the
job's hiring manager (a staff member, who leads on to the HR directory), the
offered salary (an amount policies can route by) and the proposed start
date; a job names its hiring manager. The case's candidate gets a note
quoting a discovered value, or the application is rejected with notes
quoting it."""

from __future__ import annotations

from typing import Any

from compoworld_gym.checks import OnlyChanged, RecordMatches
from compoworld_gym.envs.services._company import OPS_EMAIL, STAFF
from compoworld_gym.envs.services._recruiting_models import STAGES, Application, Candidate, Interview, Job, Offer
from compoworld_gym.envs.services._recruiting_seed import RECRUITER, interviewers_for
from compoworld_gym.generation.context import Ctx, call
from compoworld_gym.generation.hooks.hr_directory import manager_email
from compoworld_gym.generation.links import (
    Action, Found, Give, Need, Reader, Relay, ServiceLinks, SolveError, Write, next_id,
)

_TITLES = ("Customer Success Manager", "Support Engineer", "Billing Analyst", "Operations Associate")


def offered_salary(ctx: Ctx) -> float:
    """A plausible annual base salary (USD, whole hundreds)."""
    return float(ctx.rng.randint(550, 1600) * 100)


def start_date(ctx: Ctx) -> str:
    """A proposed start date two to six weeks out (ISO)."""
    return ctx.day(ctx.rng.randint(14, 42))


def _put(state: dict[str, Any], collection: str, model: type, record: dict[str, Any]) -> str:
    state[collection][record["id"]] = model.model_validate(record).model_dump(mode="json")
    return record["id"]


def plant_job(ctx: Ctx, manager: str, job_id: str | None = None) -> str:
    """The open job ``manager`` hires for: an existing one, or a new one (validated :class:`Job`)."""
    state = ctx.state("recruiting")
    if job_id is None:
        mine = [j for j in state["jobs"].values() if j["hiring_manager_email"] == manager and j["status"] == "open"]
        if mine:
            return mine[0]["id"]
        job_id = next_id(state, "REQ")
    team = next((s.team for s in STAFF if s.email == manager), "support")
    return _put(state, "jobs", Job, {
        "id": job_id, "name": ctx.rng.choice(_TITLES), "department": team.replace("_", " ").title(), "office": "Remote",
        "status": "open", "hiring_manager_email": manager, "recruiter_email": RECRUITER, "opened_on": ctx.day(-50),
        "openings": [{"opening_id": next_id(state, "OPN"), "status": "open"}]})


def _plant_application(ctx: Ctx, key: Any, outs: dict[str, Any], stale: bool, by_manager: bool = False) -> str:
    state = ctx.state("recruiting")
    manager = key if by_manager else (outs.get("email") or manager_email(ctx))
    key = next_id(state, "APP") if by_manager else key
    job = plant_job(ctx, manager)
    name, email = ctx.person()
    first, last = name.split(" ", 1)
    applied = ctx.at(-30)
    cid = _put(state, "candidates", Candidate, {"id": next_id(state, "CAN"), "first_name": first, "last_name": last,
                                                "email": email, "created_at": applied})
    history = [{"stage": s, "at": ctx.at(-30 + 5 * k)} for k, s in enumerate(STAGES)]
    _put(state, "applications", Application, {
        "id": key, "candidate_id": cid, "candidate_name": name, "candidate_email": email, "job_id": job,
        "hiring_manager_email": manager, "status": "active", "current_stage": "Offer", "applied_at": applied,
        "history": history})
    team = next((s.team for s in STAFF if s.email == manager), "support")
    panel = interviewers_for(team, manager)
    _put(state, "interviews", Interview, {
        "id": next_id(state, "INT"), "application_id": key, "stage": "Onsite", "interviewers": panel,
        "start": ctx.at(-12, 14), "end": ctx.at(-12, 15), "status": "completed",
        "scorecards": [{"interviewer_email": e, "overall_recommendation": "yes", "submitted_at": ctx.at(-12, 16)}
                       for e in panel]})
    _put(state, "offers", Offer, {
        "id": next_id(state, "OFR"), "application_id": key, "salary": outs.get("money") or offered_salary(ctx),
        "start_date": outs.get("date") or start_date(ctx), "status": "unresolved", "created_at": ctx.at(-4)})
    return key


def _application(reader: Reader, key: Any) -> dict[str, Any]:
    """The application with its live (unresolved) offer at ``offer``."""
    app = reader.read("recruiting", "get_application", application_id=key)
    live = [o for o in app["offers"] if o["status"] == "unresolved"]
    return {**app, "offer": live[0] if live else {}}


def _latest_offer(reader: Reader, key: Any) -> dict[str, Any]:
    """The manager's application whose unresolved offer went out last."""
    rows = reader.read("recruiting", "list_applications", hiring_manager_email=key, status="active",
                       current_stage="Offer", limit=200)
    apps = [a for a in (_application(reader, r["id"]) for r in rows) if a["offer"]]
    if not apps:
        raise SolveError(f"no unresolved offer on {key}'s jobs")
    return max(apps, key=lambda a: (a["offer"]["created_at"], a["offer"]["id"]))


_MANAGER = Give("email", "hiring_manager_email", "the hiring manager's email address", "the hiring manager",
                draw=manager_email)

APPLICATION = Relay(
    service="recruiting", name="job application", key="job_application_id",
    gives=(_MANAGER, Give("money", "offer.salary", "the offered salary", "the offered salary", draw=offered_salary),
           Give("date", "offer.start_date", "the proposed start date", "the candidate's start date", draw=start_date),
           Give("job_application_id", "id", "the job application")),
    plant=_plant_application, find=_application,
    where="Each application in the recruiting system names the job's hiring manager; its unresolved offer "
          "holds the offered salary and the proposed start date.",
    alloc=lambda ctx: next_id(ctx.state("recruiting"), "APP"), entry=lambda key: f"job application {key}")

MANAGER_OFFER = Relay(
    service="recruiting", name="hiring manager's pending offer", key="email",
    gives=(Give("job_application_id", "id", "the application with the pending offer"),
           Give("money", "offer.salary", "the offered salary", "the offered salary", draw=offered_salary),
           Give("date", "offer.start_date", "the proposed start date", "the candidate's start date", draw=start_date)),
    plant=lambda ctx, key, outs, stale: _plant_application(ctx, key, outs, stale, by_manager=True),
    find=_latest_offer, key_role="staff",
    where="Offers waiting on the candidate's answer are filed in the recruiting system under the job's hiring "
          "manager; the most recent unresolved offer is the one in play.")

JOB = Relay(
    service="recruiting", name="job", key="job_posting_id",
    gives=(_MANAGER,),
    plant=lambda ctx, key, outs, stale: plant_job(ctx, outs.get("email") or manager_email(ctx), key),
    find=lambda reader, key: reader.read("recruiting", "get_job", job_id=key),
    where="Each job in the recruiting system names its hiring manager.",
    alloc=lambda ctx: next_id(ctx.state("recruiting"), "REQ"), entry=lambda key: f"job requisition {key}")


def _note(reader: Reader, args: dict[str, Found]) -> Write:
    aid, mention = args["application"].value, args["mention"]
    cid = reader.read("recruiting", "get_application", application_id=aid)["candidate_id"]
    return Write(
        calls=[call("add_candidate_note", candidate_id=cid, user_email=OPS_EMAIL,
                    body=f"{args['case'].value}: {mention.noun} is {mention.display}.")],
        checks=[RecordMatches(id="_", service="recruiting", collection="candidates", record_id=cid,
                              where={"notes": {"$any": {"body": {"$contains": mention.display}}}},
                              description="A note on the candidate quotes the right value.")],
        scope=[OnlyChanged(id="_", service="recruiting", collection="candidates", allow_ids=[cid],
                           description="No other candidate was changed or created.")],
        tool="add_candidate_note", where={"candidate_id": cid}, label="the note on the candidate")


def _reject(reader: Reader, args: dict[str, Found]) -> Write:
    aid, mention = args["application"].value, args["mention"]
    app = reader.read("recruiting", "get_application", application_id=aid)
    offers = [o["id"] for o in app["offers"]]
    interviews = [i["id"] for i in app["interviews"]]
    return Write(
        calls=[call("reject_application", application_id=aid, rejection_reason="Other",
                    notes=f"{args['case'].value}: {mention.noun} is {mention.display}.")],
        checks=[RecordMatches(id="_", service="recruiting", collection="applications", record_id=aid,
                              where={"status": "rejected", "rejection_notes": {"$contains": mention.display}},
                              description="The case's application is rejected, its notes quoting the value.")],
        scope=[OnlyChanged(id="_", service="recruiting", collection="applications", allow_ids=[aid],
                           description="No other application was changed or created."),
               OnlyChanged(id="_", service="recruiting", collection="offers", allow_ids=offers,
                           description="No other offer was changed or created."),
               OnlyChanged(id="_", service="recruiting", collection="interviews", allow_ids=interviews,
                           description="No other interview was changed or created.")],
        tool="reject_application", where={"application_id": aid}, label="the rejected application")


LINKS = ServiceLinks(
    service="recruiting", label="the recruiting system",
    relays=(APPLICATION, MANAGER_OFFER, JOB),
    actions=(
        Action(service="recruiting", name="note", needs=(Need("application", "job_application_id"),), build=_note,
               goal="note {mention} on the candidate's profile"),
        Action(service="recruiting", name="reject", needs=(Need("application", "job_application_id"),),
               build=_reject, goal="reject the job application, quoting {mention} in the rejection notes"),
    ),
)

__all__ = ["LINKS", "offered_salary", "plant_job", "start_date"]
