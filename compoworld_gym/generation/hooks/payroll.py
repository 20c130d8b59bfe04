"""Payroll in chained tasks: an employee's pay in the open (draft) pay run,
found by employee id, gives their gross pay; an expense report's total is
reimbursed to the employee who filed it through that run."""

from __future__ import annotations

from typing import Any

from compoworld_gym.checks import OnlyChanged, RecordExists
from compoworld_gym.envs.services._company import OPS_EMAIL
from compoworld_gym.envs.services._payroll_models import Correction, PayEmployee
from compoworld_gym.envs.services._payroll_rules import STANDARD_HOURS, compute_summary
from compoworld_gym.generation.context import Ctx, call
from compoworld_gym.generation.hooks.expenses import EXPENSE_TOTAL
from compoworld_gym.generation.hooks.hr_directory import (
    claim_id, employee_email, employee_id_of, name_from_email, person_of,
)
from compoworld_gym.generation.links import Action, Found, Give, Need, Reader, Relay, ServiceLinks, Write, pick


def next_payroll_employee_id(state: dict[str, Any]) -> str:
    """Take the next free employee id on the payroll (after the roster's ids)."""
    n = state["counters"].get("EMP", len(state["employees"]) + 1)
    state["counters"]["EMP"] = n + 1
    return f"EMP-{n:04d}"


def plant_pay_employee(state: dict[str, Any], employee_id: str, **fields: Any) -> str:
    """Add a salaried :class:`PayEmployee` (validated) under ``employee_id``; returns the id.

    Raises:
        pydantic.ValidationError: the fields do not make a valid payroll employee.
    """
    base = {"department": "Customer Support", "pay_type": "salary", "annual_salary": 78000.0, "hourly_rate": None,
            "tax_state": "TX", "retirement_pct": 0.05, "bank_last4": "4821"}
    record = PayEmployee.model_validate({**base, **fields, "id": employee_id})
    state["employees"][employee_id] = record.model_dump(mode="json")
    claim_id(state, employee_id)
    return employee_id


def set_pay(state: dict[str, Any], run_id: str, employee_id: str, gross: float) -> None:
    """Make ``employee_id``'s pay summary in run ``run_id`` come to ``gross``
    (salary share plus the run's live bonuses and adjustments); the draft run
    takes the salary itself, a final run keeps the pay it had then."""
    emp = PayEmployee.model_validate(state["employees"][employee_id])
    cors = [Correction.model_validate(c) for c in state["corrections"].values()
            if c["payroll_id"] == run_id and c["employee_id"] == employee_id]
    extra = sum(c.amount for c in cors if not c.reversed and c.kind in ("bonus", "adjustment"))
    paid = emp.model_copy(update={"pay_type": "salary", "hourly_rate": None,
                                  "annual_salary": round((gross - extra) * 24, 2)})
    if state["runs"][run_id]["status"] == "draft":
        state["employees"][employee_id] = paid.model_dump(mode="json")
    state["runs"][run_id]["summaries"][employee_id] = compute_summary(paid, STANDARD_HOURS, cors).model_dump(
        mode="json")


def semimonthly_pay(ctx: Ctx) -> float:
    """A plausible gross pay for one semimonthly run (USD, two decimals)."""
    return round(ctx.rng.randint(250000, 900000) / 100, 2)


def _runs(state: dict[str, Any]) -> list[dict[str, Any]]:
    return sorted(state["runs"].values(), key=lambda r: r["period_start"])


def _ensure(ctx: Ctx, eid: str) -> None:
    state = ctx.state("payroll")
    if eid in state["employees"]:
        return
    known = person_of(ctx, employee_id=eid)
    email = known["email"] if known else employee_email(ctx)
    plant_pay_employee(state, eid, name=known["name"] if known else name_from_email(email), email=email,
                       department=known.get("department", "Customer Support") if known else "Customer Support",
                       retirement_pct=ctx.rng.choice((0.0, 0.03, 0.05)), bank_last4=f"{ctx.rng.randrange(10000):04d}")
    set_pay(state, _runs(state)[-1]["id"], eid, semimonthly_pay(ctx))


def _plant(ctx: Ctx, key: Any, outs: dict[str, Any], stale: bool) -> str:
    state = ctx.state("payroll")
    gross = outs.get("money") or semimonthly_pay(ctx)
    _ensure(ctx, key)
    runs = _runs(state)
    if stale:  # last period's pay, already final
        final = [r for r in runs if r["status"] != "draft"]
        set_pay(state, final[-1]["id"], key, gross)
    else:
        set_pay(state, pick(runs, status="draft")["id"], key, gross)
    return key


def _draft(reader: Reader) -> str:
    return pick(reader.read("payroll", "list_pay_runs", status="draft"), status="draft")["id"]


def _pay(reader: Reader, key: Any) -> dict[str, Any]:
    return reader.read("payroll", "get_pay_summary", payroll_id=_draft(reader), employee_id=key)


PAY = Relay(
    service="payroll", name="pay summary", key="employee_id",
    gives=(Give("money", "gross_pay", "the employee's gross pay in the open pay run", draw=semimonthly_pay),),
    plant=_plant, find=_pay,
    where="Payroll holds each employee's pay per pay run, by employee id; the open draft run is the current one.",
    truth="Approved and paid runs are final history; only the employee's pay in the open draft run counts.",
    alloc=lambda ctx: next_payroll_employee_id(ctx.state("payroll")))


def _employee_by_email(reader: Reader, email: str) -> dict[str, Any]:
    return pick(reader.read("payroll", "list_payroll_employees"), email=email)


def _prepare(ctx: Ctx, values: dict[str, Any]) -> None:
    """The reimbursed employee is on the payroll, with pay in the open run."""
    state, email = ctx.state("payroll"), values["employee"]
    if any(e["email"].lower() == email.lower() for e in state["employees"].values()):
        return
    eid = employee_id_of(ctx, email, "payroll") or next_payroll_employee_id(state)
    known = person_of(ctx, email=email)
    plant_pay_employee(state, eid, name=known["name"] if known else name_from_email(email), email=email,
                       retirement_pct=ctx.rng.choice((0.0, 0.03, 0.05)), bank_last4=f"{ctx.rng.randrange(10000):04d}")
    set_pay(state, pick(_runs(state), status="draft")["id"], eid, semimonthly_pay(ctx))


def _reimburse(reader: Reader, args: dict[str, Found]) -> Write:
    email, amount, mention = args["employee"].value, args["amount"].value, args["mention"]
    eid, run = _employee_by_email(reader, email)["id"], _draft(reader)
    reader.read("payroll", "get_pay_summary", payroll_id=run, employee_id=eid)
    note = f"{args['case'].value}: reimbursement; {mention.noun} is {mention.display}."
    where = {"payroll_id": run, "employee_id": eid, "kind": "reimbursement", "reversed": False,
             "amount": {"$gte": round(amount - 0.01, 2), "$lte": round(amount + 0.01, 2)},
             "note": {"$contains": mention.display}}
    return Write(
        calls=[call("add_correction", payroll_id=run, employee_id=eid, kind="reimbursement", amount=amount,
                    note=note, author_email=OPS_EMAIL)],
        checks=[RecordExists(id="_", service="payroll", collection="corrections", where=where,
                             description="The right employee is reimbursed the right amount in the open pay run.")],
        scope=[OnlyChanged(id="_", service="payroll", collection="corrections",
                           allow_new={"payroll_id": run, "employee_id": eid},
                           description="No other payroll correction was made or changed."),
               OnlyChanged(id="_", service="payroll", collection="runs", allow_ids=[run],
                           description="No other pay run was changed.")],
        tool="add_correction", where={"employee_id": eid, "kind": "reimbursement"},
        label="the payroll reimbursement", moves_money=True)


LINKS = ServiceLinks(
    service="payroll", label="payroll",
    relays=(PAY,),
    # What payroll reimburses is an expense report's total, to the employee who filed it.
    actions=(Action(service="payroll", name="reimburse",
                    needs=(Need("employee", "email", ("the employee",)), Need("amount", "money", (EXPENSE_TOTAL,))),
                    build=_reimburse, prepare=_prepare,
                    goal="reimburse {amount} to {employee} through the open pay run, noting {mention}"),),
)

__all__ = ["LINKS", "next_payroll_employee_id", "plant_pay_employee", "semimonthly_pay", "set_pay"]
