"""Background checks in chained tasks: a report names the candidate's email
(who the benefits system then enrolls as a new hire); a recruiting
application's report is found by the application id the candidate carries
as ``custom_id``. The case's report is engaged (the candidate cleared to be
hired) or tagged with the case. (No action starts adverse action: a chain's
report is also the candidate a later step enrolls as a new hire, and the
two writes would contradict each other.)
"""

from __future__ import annotations

from typing import Any, Optional

from compoworld_gym.checks import OnlyChanged, RecordMatches
from compoworld_gym.envs.services._background_checks_models import (
    INVITATION_DAYS, Candidate, Invitation, Report, screenings_for,
)
from compoworld_gym.envs.services._background_checks_seed import invitation_url
from compoworld_gym.generation.context import Ctx, call
from compoworld_gym.generation.links import Action, Found, Give, Need, Reader, Relay, ServiceLinks, SolveError, Write
from compoworld_gym.generation.links import next_id, pick

SERVICE = "background_checks"
#: ``Give.who`` of the candidate's email: the benefits system enrolls candidates as new hires.
CANDIDATE = "the candidate"


def next_report_id(state: dict[str, Any]) -> str:
    """Take the next free report id from the service's counters (as ``new_id("RPT")``)."""
    return next_id(state, "RPT")


def application_ref(ctx: Ctx) -> str:
    """A recruiting application id for a candidate to carry: recruiting's next one when it is
    mounted, else one counted in this state past the seeded pipeline."""
    if "recruiting" in ctx.states:
        return next_id(ctx.state("recruiting"), "APP")
    ctx.state(SERVICE)["counters"].setdefault("APP", 15 + ctx.rng.randrange(20))
    return ctx.new_id(SERVICE, "APP")


def _person(ctx: Ctx, app_id: Optional[str], email: Optional[str]) -> tuple[str, str]:
    """``(name, email)`` of the candidate: the recruiting application's when it is planted (its
    email becomes ``email`` when the chain gives one: one person, one address), else fresh."""
    app = ctx.states.get("recruiting", {}).get("applications", {}).get(app_id or "")
    if app is None:
        name, fresh = ctx.person()
        return name, email or fresh
    if email:
        app["candidate_email"] = email
        cand = ctx.state("recruiting")["candidates"].get(app["candidate_id"])
        if cand is not None:
            cand["email"] = email
    return app["candidate_name"], app["candidate_email"]


def plant_report(ctx: Ctx, rid: str, *, name: str, email: str, app_id: Optional[str]) -> str:
    """A consented candidate (validated :class:`Candidate`, reused by email) with a completed
    invitation and a complete, clear, not yet adjudicated basic report ``rid``; returns ``rid``."""
    state = ctx.state(SERVICE)
    first, _, last = name.partition(" ")
    cand = next((c for c in state["candidates"].values() if c["email"].lower() == email.lower()), None)
    if cand is None:
        cid = next_id(state, "CND")
        cand = Candidate(id=cid, first_name=first, last_name=last or "Candidate", email=email, custom_id=app_id,
                         created_at=ctx.at(-8, 9), consent_given_at=ctx.at(-6, 14)).model_dump(mode="json")
        state["candidates"][cid] = cand
    cand.update(consent_given_at=cand.get("consent_given_at") or ctx.at(-6, 14), custom_id=app_id or cand["custom_id"])
    iid = next_id(state, "IVT")
    state["invitations"][iid] = Invitation(
        id=iid, candidate_id=cand["id"], package="basic", status="completed", invitation_url=invitation_url(iid),
        created_at=ctx.at(-6, 9), expires_at=ctx.day(-6 + INVITATION_DAYS), completed_at=ctx.at(-6, 14),
        report_id=rid).model_dump(mode="json")
    state["reports"][rid] = Report(
        id=rid, candidate_id=cand["id"], package="basic", status="complete", result="clear",
        screenings=screenings_for("basic"), created_at=ctx.at(-6, 14), completed_at=ctx.at(-2, 11),
        invitation_id=iid).model_dump(mode="json")
    return rid


def _plant(ctx: Ctx, key: Any, outs: dict[str, Any], stale: bool, by_application: bool) -> str:
    app_id = key if by_application else None
    name, email = _person(ctx, app_id, outs.get("email"))
    rid = next_report_id(ctx.state(SERVICE)) if by_application else key
    return plant_report(ctx, rid, name=name, email=email, app_id=app_id)


def _of_application(reader: Reader, key: Any) -> dict[str, Any]:
    cand = pick(reader.read(SERVICE, "list_candidates", custom_id=key), custom_id=key)
    rows = [r for r in reader.read(SERVICE, "list_reports", candidate_id=cand["id"]) if r["status"] != "canceled"]
    if not rows:
        raise SolveError(f"candidate {cand['id']} has no report")
    return reader.read(SERVICE, "get_report", report_id=max(rows, key=lambda r: (r["created_at"], r["id"]))["id"])


_EMAIL = Give("email", "candidate_email", "the candidate's email address", CANDIDATE)

REPORT = Relay(
    service=SERVICE, name="background check report", key="background_check_id", gives=(_EMAIL,),
    plant=lambda ctx, key, outs, stale: _plant(ctx, key, outs, stale, False),
    find=lambda reader, key: reader.read(SERVICE, "get_report", report_id=key),
    where="Each background check report names the candidate screened, with their email.",
    alloc=lambda ctx: next_report_id(ctx.state(SERVICE)), entry=lambda key: f"background check report {key}")

APPLICATION_REPORT = Relay(
    service=SERVICE, name="job application's background check", key="job_application_id",
    gives=(Give("background_check_id", "id", "the candidate's background check report"), _EMAIL),
    plant=lambda ctx, key, outs, stale: _plant(ctx, key, outs, stale, True), find=_of_application,
    alloc=application_ref,
    where="The background check provider files each candidate under the recruiting application id (custom_id); "
          "the candidate's latest report is the one that counts.")


def _report_scope(rid: str) -> list[OnlyChanged]:
    return [OnlyChanged(id="_", service=SERVICE, collection="reports", allow_ids=[rid],
                        description="No other background check report was changed or ordered.")]


def _prepare_clear(ctx: Ctx, values: dict[str, Any]) -> None:
    """The report has come back clear and is not adjudicated yet."""
    rep = ctx.state(SERVICE)["reports"].get(values["report"])
    if rep is None:
        return
    rep.update(status="complete", result="clear", adjudication=None, completed_at=rep["completed_at"] or ctx.at(-1),
               screenings=[s.model_dump(mode="json") for s in screenings_for(rep["package"])])


def _engage(reader: Reader, args: dict[str, Found]) -> Write:
    rid = args["report"].value
    rep = reader.read(SERVICE, "get_report", report_id=rid)
    if rep["status"] != "complete":
        raise SolveError(f"report {rid} is {rep['status']}")
    return Write(
        calls=[call("engage_report", report_id=rid)],
        checks=[RecordMatches(id="_", service=SERVICE, collection="reports", record_id=rid,
                              where={"adjudication": "engaged"},
                              description="The candidate's report is engaged: cleared to be hired.")],
        scope=_report_scope(rid), tool="engage_report", where={"report_id": rid}, label="the engaged report")


def _tag(reader: Reader, args: dict[str, Found]) -> Write:
    rid, mention, case = args["report"].value, args["mention"], args["case"].value
    reader.read(SERVICE, "get_report", report_id=rid)
    tag = f"{case}: {mention.display}"[:80]
    return Write(
        calls=[call("add_report_tags", report_id=rid, tags=[tag])],
        checks=[RecordMatches(id="_", service=SERVICE, collection="reports", record_id=rid,
                              where={"tags": {"$some": {"$all": [{"$contains": case}, {"$contains": mention.display}]}}},
                              description="The report carries a tag quoting the case and the right value.")],
        scope=_report_scope(rid), tool="add_report_tags", where={"report_id": rid}, label="the tag on the report")


_NEED = (Need("report", "background_check_id"),)

LINKS = ServiceLinks(
    service=SERVICE, label="the background check provider",
    relays=(REPORT, APPLICATION_REPORT),
    actions=(
        Action(service=SERVICE, name="engage", needs=_NEED, build=_engage,
               prepare=_prepare_clear,
               goal="engage the candidate's clear background check report so they can be hired"),
        Action(service=SERVICE, name="tag", needs=_NEED, build=_tag,
               goal="tag the candidate's background check report with the case reference and {mention}"),
    ),
)

__all__ = ["CANDIDATE", "LINKS", "application_ref", "next_report_id", "plant_report"]
