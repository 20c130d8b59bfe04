"""Task hook of field service: a job's customer contact and visit date as
facts; new jobs for a customer and rescheduled visits as sinks."""

from __future__ import annotations

from typing import Any

from compoworld_gym.generation.context import Ctx, Fact, SinkStep, call
from compoworld_gym.generation.hooks._base import RecordSource, ServiceHook, clone, record_sink


def _job(ctx: Ctx, desc: str, opts: dict[str, Any], **fields: Any) -> tuple[str, dict[str, Any]]:
    jid = ctx.new_id("field_service", "JOB")
    name, email = ctx.person()
    record = clone(ctx, "field_service", "jobs", jid, customer_name=name, customer_email=email,
                   customer_phone=f"+1512555{ctx.rng.randint(1000, 9999)}", description=desc,
                   status="cancelled" if opts.get("closed") else "unscheduled", scheduled_date=None,
                   time_window=None, technician_id=None, parts=[], labor_hours=0.0, invoice_total=None,
                   notes=[f"Logged {ctx.day(-opts.get('when', 2))}."])
    record.update(fields)
    return jid, record


def _source(etype: str, field: str, noun: str) -> RecordSource:
    def plant(ctx: Ctx, value: Any, cue: str, opts: dict[str, Any]) -> tuple[str, dict[str, Any]]:
        return _job(ctx, f"Boiler service, {cue}", opts, **{field: value})

    return RecordSource(
        type=etype, tool="list_jobs", collection="jobs", noun=noun,
        locate="of the field-service job described as 'Boiler service, {cue}'", plant=plant,
        read_args=lambda cue: {"limit": 200}, cue=lambda ctx: f"unit {ctx.code()}",
        variants=frozenset({"decoy"}), plural="jobs",
        decoy_rule="Cancelled jobs are void; only the live job for {cue} counts.")


def _sink_reschedule(ctx: Ctx, fact: Fact) -> SinkStep:
    techs = ctx.state("field_service")["technicians"]
    tid = min(t for t, rec in techs.items() if rec["active"])
    tech = techs[tid]
    desc = ctx.unique(f"Annual check, {ctx.case()}")
    jid, record = _job(ctx, desc, {"when": 1}, status="scheduled", technician_id=tid, scheduled_date=ctx.day(1),
                       time_window="16:00-20:00", service_type=tech["skills"][0], zone=tech["zones"][0])
    ctx.state("field_service")["jobs"][jid] = record
    return record_sink(
        ctx, fact, service="field_service", tool="reschedule_job", value_arg="scheduled_date", collection="jobs",
        field_path="scheduled_date", record_id=jid, where={"job_id": jid},
        calls=[call("list_jobs", status="scheduled", limit=200),
               call("reschedule_job", job_id=jid, scheduled_date=fact.value, time_window="16:00-20:00",
                    reason="Customer request")],
        phrase=f"move the field-service job '{desc}' to {{ref}} (same 16:00-20:00 window)",
        label=f"the reschedule of job '{desc}'")


def _sink_job(ctx: Ctx, fact: Fact) -> SinkStep:
    desc = ctx.unique(f"No heating, {ctx.case()}")
    name = ctx.client()
    return record_sink(
        ctx, fact, service="field_service", tool="create_job", value_arg="customer_email", collection="jobs",
        field_path="customer_email", key={"description": {"$ieq": desc}}, where={"description": {"$ieq": desc}},
        calls=[call("create_job", customer_name=name, customer_phone="+15125550100", customer_email=fact.value,
                    address="12 Lamar Blvd, Austin, TX 78704", zone="central", service_type="hvac",
                    description=desc)],
        phrase=f"log a central-zone HVAC job '{desc}' for {name} (phone +15125550100, 12 Lamar Blvd, "
               f"Austin, TX 78704) with {{ref}} as the customer email",
        label=f"the job '{desc}'")


HOOK = ServiceHook(
    service="field_service",
    label="field service",
    sources={"email": _source("email", "customer_email", "the customer's email address"),
             "phone": _source("phone", "customer_phone", "the customer's phone number")},
    sinks={"date": ("reschedule_job", _sink_reschedule), "email": ("create_job", _sink_job)},
)
