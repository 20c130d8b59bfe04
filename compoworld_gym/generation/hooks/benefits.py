"""Benefits in chained tasks: a benefits enrollment names the employee
(work email and employee id, which lead on to the HR directory and payroll),
the per-paycheck deduction payroll takes and the coverage start; a
qualifying life event names the employee and the last day of its special
enrollment period. The case's life event is applied to the employee's
medical coverage (its dependents added, the tier that fits, the deduction
recomputed), or a candidate whose background check came back is enrolled
as a new hire on the cheapest medical plan.
"""

from __future__ import annotations

from typing import Any, Optional

from compoworld_gym.checks import OnlyChanged, RecordExists, RecordMatches
from compoworld_gym.envs.services._benefits_models import BenefitsEmployee, Dependent, Enrollment, LifeEvent
from compoworld_gym.envs.services._benefits_rules import PLANS, deduction, rate_of, tier_for
from compoworld_gym.envs.services._commerce import money
from compoworld_gym.envs.services._common import email_for
from compoworld_gym.envs.services._company import DOMAIN
from compoworld_gym.generation.context import Ctx, call
from compoworld_gym.generation.hooks.background_checks import CANDIDATE
from compoworld_gym.generation.hooks.hr_directory import (
    claim_id, employee_email, employee_id_of, name_from_email, person_of,
)
from compoworld_gym.generation.links import (
    Action, Found, Give, Need, Reader, Relay, ServiceLinks, SolveError, Write, next_id, pick,
)

SERVICE = "benefits"
#: ``Give.who`` of the per-paycheck benefits deduction (what payroll takes from the employee's pay).
DEDUCTION = "the employee's benefits deduction"
_PPO = next(p for p in PLANS if p.id == "PLN-0001")


def per_paycheck(ctx: Ctx) -> float:
    """A plausible medical deduction per paycheck (USD, two decimals)."""
    return round(ctx.rng.randint(2500, 42000) / 100, 2)


def enrollment_deadline(ctx: Ctx) -> str:
    """The last day of a special enrollment period still running (ISO): 3 to 25 days ahead."""
    return ctx.day(ctx.rng.randint(3, 25))


def _name(ctx: Ctx, email: str) -> str:
    known = person_of(ctx, email=email)
    return known["name"] if known else name_from_email(email)


def plant_member(ctx: Ctx, email: Optional[str], employee_id: Optional[str] = None, **fields: Any) -> str:
    """The benefits employee for ``email`` / ``employee_id`` (added if new, validated); returns the id.

    A given ``employee_id`` is the person another service of the task knows by it: their record
    here carries ``email``. Otherwise the employee is found by work or personal email, or added
    under the id the HR services give that email.
    """
    state = ctx.state(SERVICE)
    emps = state["employees"]
    email = email or employee_email(ctx)
    if employee_id is None:
        hit = next((e for e in emps.values() if email.lower() in (e["email"].lower(),
                                                                  (e.get("personal_email") or "").lower())), None)
        if hit is not None:
            return hit["id"]
        employee_id = employee_id_of(ctx, email, SERVICE) or next_id(state, "EMP")
    if employee_id in emps:
        rec = emps[employee_id]
        if email.lower() not in (rec["email"].lower(), (rec.get("personal_email") or "").lower()):
            rec.update(email=email, name=_name(ctx, email), personal_email=None)
        return employee_id
    base = {"name": _name(ctx, email), "email": email, "department": "Customer Support",
            "hire_date": ctx.day(-ctx.rng.randint(200, 2000)), "employment_status": "active"}
    emps[employee_id] = BenefitsEmployee.model_validate({**base, **fields, "id": employee_id}).model_dump(mode="json")
    claim_id(state, employee_id)
    return employee_id


def _medical(state: dict[str, Any], eid: str) -> Optional[dict[str, Any]]:
    return next((e for e in state["enrollments"].values() if e["employee_id"] == eid and e["status"] == "active"
                 and e["line_of_coverage"] == "medical"), None)


def plant_enrollment(ctx: Ctx, rid: str, eid: str, *, per_check: float, effective: str) -> str:
    """An active employee-only PPO enrollment of ``eid`` from ``effective`` whose deduction is
    ``per_check`` USD a paycheck (the employer share set to fit); the employee's other active
    medical coverage ends the day before. Returns ``rid``."""
    state = ctx.state(SERVICE)
    start = ctx.today.fromisoformat(effective)
    current = _medical(state, eid)
    if current is not None:
        current.update(status="terminated", end_date=start.fromordinal(start.toordinal() - 1).isoformat())
    premium = max(rate_of(_PPO, "employee").monthly_premium, money(per_check * 2))
    monthly, check = deduction(premium, money(premium - per_check * 2), 24)
    record = Enrollment(id=rid, employee_id=eid, plan_id=_PPO.id, line_of_coverage="medical", tier="employee",
                        status="active", reason="open_enrollment", effective_date=start, monthly_premium=premium,
                        employer_contribution=money(premium - monthly), employee_monthly_deduction=monthly,
                        deduction_per_paycheck=check)
    state["enrollments"][rid] = record.model_dump(mode="json")
    return rid


def _plant_enrollment(ctx: Ctx, key: Any, outs: dict[str, Any], stale: bool) -> str:
    eid = plant_member(ctx, outs.get("email"), outs.get("employee_id"))
    return plant_enrollment(ctx, key, eid, per_check=outs.get("money") or per_paycheck(ctx),
                            effective=outs.get("date") or ctx.day(-ctx.today.day + 1))


def _dependent(ctx: Ctx, eid: str, relationship: str, born: str) -> str:
    state = ctx.state(SERVICE)
    last = state["employees"][eid]["name"].split(" ")[-1]
    did = next_id(state, "DEP")
    state["dependents"][did] = Dependent(id=did, employee_id=eid, first_name=ctx.first_name(), last_name=last,
                                         relationship=relationship, date_of_birth=born).model_dump(mode="json")
    return did


def _plant_event(ctx: Ctx, key: Any, outs: dict[str, Any], stale: bool) -> str:
    """A pending life event: a marriage (a new spouse) or, for someone married, a birth (a newborn)."""
    state = ctx.state(SERVICE)
    eid = plant_member(ctx, outs.get("email"), outs.get("employee_id"))
    ends = ctx.today.fromisoformat(outs.get("date") or enrollment_deadline(ctx))
    day = min(ends.toordinal() - 30, ctx.today.toordinal() - 1)
    event_date = ctx.today.fromordinal(day)
    mine = [d for d in state["dependents"].values() if d["employee_id"] == eid]
    married = any(d["relationship"] != "child" for d in mine)
    if _medical(state, eid) is None:
        covered = [d for d in mine if d["relationship"] != "child"][:1]
        plant_enrollment(ctx, next_id(state, "ENR"), eid, per_check=per_paycheck(ctx), effective=ctx.day(-ctx.today.day + 1))
        if covered:  # the spouse on file is on the plan
            enr = _medical(state, eid)
            enr.update(tier="employee_spouse", dependent_ids=[covered[0]["id"]])
            rate = rate_of(_PPO, "employee_spouse")
            monthly, check = deduction(rate.monthly_premium, rate.employer_contribution, 24)
            enr.update(monthly_premium=rate.monthly_premium, employer_contribution=rate.employer_contribution,
                       employee_monthly_deduction=monthly, deduction_per_paycheck=check)
    kind = "birth" if married else "marriage"
    gained = _dependent(ctx, eid, "child" if married else "spouse",
                        event_date.isoformat() if married else ctx.day(-365 * ctx.rng.randint(25, 45)))
    state["life_events"][key] = LifeEvent(
        id=key, employee_id=eid, event_type=kind, event_date=event_date, reported_on=ctx.day(-1),
        special_enrollment_ends=ends, dependent_ids=[gained]).model_dump(mode="json")
    return key


_EMPLOYEE_EMAIL = Give("email", "employee_email", "the employee's work email address", "the employee",
                       draw=employee_email)
_EMPLOYEE_ID = Give("employee_id", "employee_id", "the employee's id", "the employee")

ENROLLMENT = Relay(
    service=SERVICE, name="benefits enrollment", key="benefit_enrollment_id",
    gives=(_EMPLOYEE_EMAIL, _EMPLOYEE_ID,
           Give("money", "deduction_per_paycheck", "the benefits deduction per paycheck", DEDUCTION, draw=per_paycheck),
           Give("date", "effective_date", "the date the coverage takes effect", "the coverage start")),
    plant=_plant_enrollment, find=lambda reader, key: reader.read(SERVICE, "get_enrollment", enrollment_id=key),
    where="Each enrollment in the benefits system names the employee (work email and employee id), the deduction "
          "payroll takes from each paycheck and the date the coverage takes effect.",
    alloc=lambda ctx: next_id(ctx.state(SERVICE), "ENR"), entry=lambda key: f"benefits enrollment {key}")

LIFE_EVENT = Relay(
    service=SERVICE, name="qualifying life event", key="life_event_id",
    gives=(_EMPLOYEE_EMAIL, _EMPLOYEE_ID,
           Give("date", "special_enrollment_ends", "the last day of the special enrollment period",
                "the special enrollment deadline", draw=enrollment_deadline)),
    plant=_plant_event, find=lambda reader, key: reader.read(SERVICE, "get_life_event", life_event_id=key),
    where="Each qualifying life event in the benefits system names the employee (work email and employee id) and "
          "the last day of its special enrollment period.",
    alloc=lambda ctx: next_id(ctx.state(SERVICE), "QLE"), entry=lambda key: f"qualifying life event {key}")


def _apply(reader: Reader, args: dict[str, Found]) -> Write:
    qid = args["event"].value
    ev = reader.read(SERVICE, "get_life_event", life_event_id=qid)
    enr = pick(reader.read(SERVICE, "list_enrollments", employee_id=ev["employee_id"], line_of_coverage="medical",
                           status="active"), status="active")
    deps = list(dict.fromkeys([*enr["dependent_ids"], *ev["dependent_ids"]]))
    rels = {d["id"]: d["relationship"] for d in reader.read(SERVICE, "list_dependents", employee_id=ev["employee_id"])}
    tier = tier_for([rels[d] for d in deps])
    rate = next(r for r in reader.read(SERVICE, "get_plan", plan_id=enr["plan_id"])["rates"] if r["tier"] == tier)
    check = deduction(rate["monthly_premium"], rate["employer_contribution"], 24)[1]
    where = {"tier": tier, "dependent_ids": deps, "life_event_id": qid, "status": "active",
             "deduction_per_paycheck": {"$gte": round(check - 0.01, 2), "$lte": round(check + 0.01, 2)}}
    return Write(
        calls=[call("update_enrollment", enrollment_id=enr["id"], reason="qualifying_life_event", life_event_id=qid,
                    tier=tier, dependent_ids=deps)],
        checks=[RecordMatches(id="_", service=SERVICE, collection="enrollments", record_id=enr["id"], where=where,
                              description="The employee's medical coverage adds the event's dependents at the tier "
                                          "that fits, citing the life event, with the deduction recomputed.")],
        scope=[OnlyChanged(id="_", service=SERVICE, collection="enrollments", allow_ids=[enr["id"]],
                           description="No other enrollment was changed or created."),
               OnlyChanged(id="_", service=SERVICE, collection="life_events", allow_ids=[qid],
                           description="No other life event was changed or reported.")],
        tool="update_enrollment", where={"enrollment_id": enr["id"]}, label="the life-event change of the coverage")


def _candidate_name(ctx: Ctx, email: str) -> Optional[str]:
    for service, collection in (("background_checks", "candidates"), ("recruiting", "candidates")):
        for c in ctx.states.get(service, {}).get(collection, {}).values():
            if c["email"].lower() == email.lower():
                return f"{c['first_name']} {c['last_name']}"
    return None


def _prepare_hire(ctx: Ctx, values: dict[str, Any]) -> None:
    """The candidate is on the benefits roster as a new hire starting soon, with no coverage yet."""
    state, email = ctx.state(SERVICE), values["hire"]
    if any(email.lower() in (e["email"].lower(), (e.get("personal_email") or "").lower())
           for e in state["employees"].values()):
        return
    name = _candidate_name(ctx, email) or name_from_email(email)
    work = email_for(name, DOMAIN)
    if any(e["email"].lower() == work for e in state["employees"].values()):
        work = email_for(f"{name} {ctx.rng.randint(2, 9)}", DOMAIN)
    eid = next_id(state, "EMP")
    state["employees"][eid] = BenefitsEmployee(
        id=eid, name=name, email=work, personal_email=email, department="Customer Support",
        hire_date=ctx.day(ctx.rng.randint(5, 25))).model_dump(mode="json")


def _enroll(reader: Reader, args: dict[str, Found]) -> Write:
    email = args["hire"].value
    emp = pick(reader.read(SERVICE, "list_employees", email=email))
    plans = reader.read(SERVICE, "list_plans", line_of_coverage="medical")
    if not plans:
        raise SolveError("no medical plan to enroll in")
    cheapest = min(plans, key=lambda p: (next(r["monthly_premium"] for r in p["rates"] if r["tier"] == "employee"),
                                         p["id"]))
    where = {"employee_id": emp["id"], "plan_id": cheapest["id"], "tier": "employee", "status": "active",
             "reason": "new_hire"}
    return Write(
        calls=[call("create_enrollment", employee_id=emp["id"], plan_id=cheapest["id"], tier="employee",
                    reason="new_hire")],
        checks=[RecordExists(id="_", service=SERVICE, collection="enrollments", where=where,
                             description="The new hire is enrolled, employee only, on the cheapest medical plan.")],
        scope=[OnlyChanged(id="_", service=SERVICE, collection="enrollments", allow_new={"employee_id": emp["id"]},
                           max_new=1, description="No other enrollment was made or changed.")],
        tool="create_enrollment", where={"employee_id": emp["id"]}, label="the new hire's medical enrollment")


LINKS = ServiceLinks(
    service=SERVICE, label="the benefits system",
    relays=(ENROLLMENT, LIFE_EVENT),
    actions=(
        Action(service=SERVICE, name="apply life event", needs=(Need("event", "life_event_id"),), build=_apply,
               goal="apply the qualifying life event to the employee's medical coverage: add the dependents it "
                    "brings and move the coverage to the tier that fits them"),
        # Only a candidate (their background check done) is enrolled as a new hire.
        Action(service=SERVICE, name="enroll new hire", needs=(Need("hire", "email", (CANDIDATE,)),),
               build=_enroll, prepare=_prepare_hire,
               goal="enroll {hire} as a new hire in employee-only coverage on the medical plan with the lowest "
                    "employee-only premium"),
    ),
)

__all__ = ["DEDUCTION", "LINKS", "enrollment_deadline", "per_paycheck", "plant_enrollment",
           "plant_member"]
