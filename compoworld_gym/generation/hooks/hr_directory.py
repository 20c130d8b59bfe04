"""Task hook of the HR directory: employees' emails and start dates as
facts; an employee's manager, office and phone as sinks."""

from __future__ import annotations

from typing import Any

from compoworld_gym.generation.context import Ctx, Fact, SinkStep, call
from compoworld_gym.generation.hooks._base import RecordSource, ServiceHook, record_sink


def _employee(ctx: Ctx, name: str, email: str, opts: dict[str, Any]) -> tuple[str, dict[str, Any]]:
    eid = ctx.new_id("hr_directory", "EMP")
    return eid, {
        "id": eid, "name": name, "email": email, "phone": None, "title": "Account Manager",
        "department": "Sales", "manager_email": None, "location": "Chicago",
        "start_date": ctx.day(-30 * opts.get("when", 2)), "employment_type": "full_time",
        "status": "terminated" if opts.get("closed") else "active",
        "end_date": ctx.day(-1) if opts.get("closed") else None,
    }


def _plant(field: str):
    def plant(ctx: Ctx, value: Any, cue: str, opts: dict[str, Any]) -> tuple[str, dict[str, Any]]:
        first, last = cue.split(" ", 1)
        eid, record = _employee(ctx, cue, f"{first}.{last}.{ctx.rng.randint(10, 99)}@company.example".lower(), opts)
        record[field] = value
        return eid, record
    return plant


def _cue(ctx: Ctx) -> str:
    return f"{ctx.first_name()} {ctx.last_name()}{ctx.rng.choice(('son', 'ley', 'ford', 'wick'))}"


def _source(etype: str, field: str, noun: str) -> RecordSource:
    return RecordSource(
        type=etype, tool="search_employees", collection="employees", noun=noun,
        locate="of the employee named {cue}", plant=_plant(field), read_args=lambda cue: {"query": cue},
        cue=_cue, value=(lambda ctx: f"{ctx.first_name().lower()}.{ctx.code().lower()}@company.example")
        if etype == "email" else None,
        variants=frozenset({"decoy"}),
        decoy_rule="Terminated employees keep their directory entry; use the active {cue}.", plural="employees")


def _sink(field: str, what: str):
    def sink(ctx: Ctx, fact: Fact) -> SinkStep:
        name = _cue(ctx)
        eid, record = _employee(ctx, name, f"{name.replace(' ', '.').lower()}@company.example", {"when": 5})
        ctx.state("hr_directory")["employees"][eid] = record
        if field == "manager_email":  # a manager must be an active employee: onboard every candidate
            for email in [fact.value, *fact.wrong]:
                if isinstance(email, str):
                    mid, mgr = _employee(ctx, _cue(ctx), email, {"when": 20})
                    ctx.state("hr_directory")["employees"][mid] = mgr
        return record_sink(
            ctx, fact, service="hr_directory", tool="update_employee", value_arg=field, collection="employees",
            field_path=field, record_id=eid, where={"employee_id": eid},
            calls=[call("search_employees", query=name), call("update_employee", employee_id=eid,
                                                              **{field: fact.value})],
            phrase=f"in the HR directory, set {what} of {name} to {{ref}}", label=f"the HR update for {name}")
    return sink


HOOK = ServiceHook(
    service="hr_directory",
    label="the HR directory",
    sources={"email": _source("email", "email", "the work email address"),
             "date": _source("date", "start_date", "the start date")},
    sinks={"email": ("update_employee", _sink("manager_email", "the manager (by email)")),
           "city": ("update_employee", _sink("location", "the office location")),
           "phone": ("update_employee", _sink("phone", "the phone number"))},
)
