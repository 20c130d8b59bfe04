"""Task hook of the HR directory: employees' emails and start dates as facts."""

from __future__ import annotations

from typing import Any

from compoworld_gym.generation.context import Ctx
from compoworld_gym.generation.hooks._base import RecordSource, ServiceHook


def _plant(field: str):
    def plant(ctx: Ctx, value: Any, cue: str, opts: dict[str, Any]) -> tuple[str, dict[str, Any]]:
        eid = ctx.new_id("hr_directory", "EMP")
        first, last = cue.split(" ", 1)
        record = {
            "id": eid, "name": cue, "email": f"{first}.{last}.{ctx.rng.randint(10, 99)}@company.example".lower(),
            "phone": None, "title": "Account Manager", "department": "Sales", "manager_email": None,
            "location": "Chicago", "start_date": ctx.day(-30 * opts.get("when", 2)), "employment_type": "full_time",
            "status": "terminated" if opts.get("closed") else "active",
            "end_date": ctx.day(-1) if opts.get("closed") else None,
        }
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


HOOK = ServiceHook(
    service="hr_directory",
    label="the HR directory",
    sources={"email": _source("email", "email", "the work email address"),
             "date": _source("date", "start_date", "the start date")},
)
