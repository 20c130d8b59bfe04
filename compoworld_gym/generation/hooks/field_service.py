"""Field service in chained tasks: an on-site job names the customer, their
email and phone; a customer's open job is found by their email or phone; the
case's job is dispatched to the technician a policy names, or cancelled."""

from __future__ import annotations

import re
from typing import Any

from compoworld_gym.checks import OnlyChanged, RecordMatches
from compoworld_gym.envs.services._field_service_models import CITY, ZIPS, Job
from compoworld_gym.envs.services._field_service_seed import ISSUES
from compoworld_gym.generation.context import Ctx, call
from compoworld_gym.generation.links import (
    next_id,
    Action, Found, Give, Need, Reader, Relay, ServiceLinks, SolveError, Write, pick,
)

_STREETS = {"north": "Burnet Rd", "south": "S 1st St", "east": "E Cesar Chavez St", "west": "Bee Caves Rd",
            "central": "Guadalupe St"}
_WINDOWS = ("08:00-12:00", "12:00-16:00", "16:00-20:00")
#: Active technicians of the fixed roster (TEC-0007 is off duty in every seed).
ROUTE_TECHS = ("TEC-0001", "TEC-0002", "TEC-0003", "TEC-0004", "TEC-0005", "TEC-0006", "TEC-0008")
_ASKED = re.compile(r"asked for a visit on (\d{4}-\d{2}-\d{2}), (\d\d:\d\d-\d\d:\d\d)")
_OPEN = ("unscheduled", "scheduled", "in_progress")


def next_job_id(state: dict[str, Any]) -> str:
    """Take the next free job id from the field-service counters (as ``new_id("JOB")``)."""
    return next_id(state, "JOB")


def plant_job(state: dict[str, Any], job_id: str, **fields: Any) -> str:
    """Add a :class:`Job` (validated) under ``job_id``; returns the id.

    Raises:
        pydantic.ValidationError: the fields do not make a valid job.
    """
    base = {"city": CITY, "priority": "normal", "status": "unscheduled", "parts": [], "labor_hours": 0.0,
            "notes": []}
    job = Job.model_validate({**base, **fields, "id": job_id})
    state["jobs"][job_id] = job.model_dump(mode="json")
    return job_id


def _plant(ctx: Ctx, key: Any, outs: dict[str, Any], stale: bool, by: str) -> str:
    state = ctx.state("field_service")
    jid = key if by == "id" else next_job_id(state)
    values = {"email": outs.get("email") or ctx.person()[1], "phone": outs.get("phone") or ctx.fresh("phone")}
    if by != "id":
        values[by] = key
    zone = ctx.rng.choice(sorted(ZIPS))
    skill = ctx.rng.choice(sorted(ISSUES))
    asked = f"Intake: customer asked for a visit on {ctx.day(ctx.rng.randint(6, 12))}, {ctx.rng.choice(_WINDOWS)}."
    notes = [asked, "Cancelled: customer fixed it themselves."] if stale else [asked]
    return plant_job(
        state, jid, customer_name=outs.get("person_name") or ctx.client(), customer_phone=values["phone"],
        customer_email=values["email"],
        address=f"{ctx.rng.randint(100, 9800)} {_STREETS[zone]}, {CITY}, TX {ZIPS[zone]}",
        zone=zone, service_type=skill, description=ctx.rng.choice(ISSUES[skill]),
        status="cancelled" if stale else "unscheduled", notes=notes)


def _get(reader: Reader, jid: Any) -> dict[str, Any]:
    return reader.read("field_service", "get_job", job_id=jid)


def _open_job(reader: Reader, **where: Any) -> dict[str, Any]:
    args = {"customer_email": where["customer_email"]} if "customer_email" in where else {}
    rows = reader.read("field_service", "list_jobs", limit=200, **args)
    return pick([r for r in rows if r["status"] in _OPEN], **where)


_ID = Give("job_id", "id", "the customer's open service job")
_TRUTH = "A cancelled service job is void; only the customer's open job counts."

JOB = Relay(
    service="field_service", name="service job", key="job_id",
    gives=(Give("job_id", "id", "the service job"),
           Give("email", "customer_email", "the customer's email address", "the customer"),
           Give("person_name", "customer_name", "the customer's name", "the customer"),
           Give("phone", "customer_phone", "the customer's phone number")),
    plant=lambda ctx, key, outs, stale: _plant(ctx, key, outs, stale, "id"), find=_get,
    where="The field-service job names the customer with their email and phone number.",
    alloc=lambda ctx: next_job_id(ctx.state("field_service")), entry=lambda key: f"service job {key}")

CUSTOMER_JOB = Relay(
    service="field_service", name="customer's service job", key="email",
    gives=(_ID, Give("phone", "customer_phone", "the customer's phone number")),
    plant=lambda ctx, key, outs, stale: _plant(ctx, key, outs, stale, "email"),
    find=lambda reader, key: _open_job(reader, customer_email=key),
    where="Field-service jobs are filed under the customer's email address.", truth=_TRUTH)

JOB_BY_PHONE = Relay(
    service="field_service", name="service job by phone", key="phone",
    gives=(_ID, Give("email", "customer_email", "the customer's email address", "the customer"),
           Give("person_name", "customer_name", "the customer's name", "the customer")),
    plant=lambda ctx, key, outs, stale: _plant(ctx, key, outs, stale, "phone"),
    find=lambda reader, key: _get(reader, _open_job(reader, customer_phone=key)["id"]),
    where="Dispatch logs each field-service job with the customer's phone number.", truth=_TRUTH)


def _scope(jid: str) -> list[OnlyChanged]:
    return [OnlyChanged(id="_", service="field_service", collection="jobs", allow_ids=[jid],
                        description="No other field-service job was changed or created.")]


def _prepare_dispatch(ctx: Ctx, values: dict[str, Any]) -> None:
    """Make the policy's technicians able to take the job (skill, zone, on duty)."""
    state = ctx.state("field_service")
    job = state["jobs"].get(values.get("job"))
    techs = values["technician"]
    for tid in techs if isinstance(techs, tuple) else (techs,):
        tech = state["technicians"].get(tid)
        if tech is None or job is None:
            continue
        tech["skills"] = sorted({*tech["skills"], job["service_type"]})
        tech["zones"] = sorted({*tech["zones"], job["zone"]})
        tech["active"] = True


def _dispatch(reader: Reader, args: dict[str, Found]) -> Write:
    jid, tech = args["job"].value, args["technician"].value
    asked = next((m for n in _get(reader, jid)["notes"] if (m := _ASKED.search(n))), None)
    if asked is None:
        raise SolveError(f"job {jid} records no requested visit")
    date, window = asked.groups()
    return Write(
        calls=[call("dispatch_job", job_id=jid, technician_id=tech, scheduled_date=date, time_window=window)],
        checks=[RecordMatches(id="_", service="field_service", collection="jobs", record_id=jid,
                              where={"status": "scheduled", "technician_id": tech, "scheduled_date": date,
                                     "time_window": window},
                              description="The job is dispatched to the right technician at the requested visit.")],
        scope=_scope(jid), tool="dispatch_job", where={"job_id": jid}, label="the dispatch of the job")


def _cancel(reader: Reader, args: dict[str, Found]) -> Write:
    jid, mention, case = args["job"].value, args["mention"], args["case"].value
    _get(reader, jid)
    return Write(
        calls=[call("cancel_job", job_id=jid, reason=f"{case}: {mention.noun} is {mention.display}.")],
        checks=[RecordMatches(id="_", service="field_service", collection="jobs", record_id=jid,
                              where={"status": "cancelled", "notes": {"$some": {"$all": [
                                  {"$contains": case}, {"$contains": mention.display}]}}},
                              description="The job is cancelled with a reason quoting the right value.")],
        scope=_scope(jid), tool="cancel_job", where={"job_id": jid}, label="the cancellation of the job")


def _techs(ctx: Ctx) -> tuple[str, str]:
    a, b = ctx.rng.sample(ROUTE_TECHS, 2)
    return a, b


LINKS = ServiceLinks(
    service="field_service", label="field service",
    relays=(JOB, CUSTOMER_JOB, JOB_BY_PHONE),
    actions=(
        Action(service="field_service", name="dispatch",
               needs=(Need("technician", "technician_id", noun="technician"), Need("job", "job_id")),
               build=_dispatch, prepare=_prepare_dispatch, routable=True,
               goal="dispatch {technician} to the customer's service job for the visit the customer asked for"),
        Action(service="field_service", name="cancel", needs=(Need("job", "job_id"),), build=_cancel,
               goal="cancel the customer's service job, giving {mention} in the reason"),
    ),
    route_values={"technician_id": _techs},
)

__all__ = ["LINKS", "ROUTE_TECHS", "next_job_id", "plant_job"]
