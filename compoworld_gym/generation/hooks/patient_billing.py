"""Patient billing in chained tasks: a patient statement names the patient (id and email), the balance
still due and its due date; a patient's open statement is found by their patient id or their email,
and the statement billing the patient's share of an insurance claim by the claim id. A voided statement
is passed over. Writes: record the patient's cash payment of the statement balance, set the patient up
on a three-month payment plan for their open balance, or put a message on the statement."""

from __future__ import annotations

import datetime as dt
from typing import Any, Optional

from compoworld_gym.checks import OnlyChanged, RecordExists, RecordMatches
from compoworld_gym.envs.services._patient_billing_models import Adjustment, Charge, PatientAccount, Statement
from compoworld_gym.envs.services._patient_billing_rules import TERMS_DAYS, split
from compoworld_gym.generation.context import Ctx, call
from compoworld_gym.generation.hooks.patient_scheduling import CLAIMS, SCHEDULING
from compoworld_gym.generation.hooks.pharmacy import clinic_patient_id, patient_name
from compoworld_gym.generation.links import (
    Action, Found, Give, Need, Reader, Relay, ServiceLinks, SolveError, Write, next_id, pick,
)

SERVICE = "patient_billing"
#: Months of the payment plan the plan action sets up.
PLAN_MONTHS = 3


def _account(ctx: Ctx, pid: str, email: Optional[str]) -> PatientAccount:
    """Patient ``pid``'s account (added unless present, with the email the clinic holds for them)."""
    accounts = ctx.state(SERVICE)["accounts"]
    if pid not in accounts:
        clinic = ctx.states.get(SCHEDULING, {}).get("patients", {}).get(pid) or {}
        name = patient_name(ctx, pid)
        accounts[pid] = PatientAccount(id=pid, name=name, email=email or clinic.get("email") or ctx.person()[1],
                                       phone=clinic.get("phone"), guarantor_name=name,
                                       statement_delivery="email").model_dump(mode="json")
    return PatientAccount.model_validate(accounts[pid])


def plant_statement(ctx: Ctx, sid: str, *, pid: str, balance: float, due: str, email: Optional[str] = None,
                    claim_id: Optional[str] = None, void: bool = False) -> str:
    """Add statement ``sid``, sent to patient ``pid`` thirty days before ``due`` (ISO), billing one charge of
    ``balance`` USD (the patient's share of ``claim_id`` when given, else a self-pay balance); ``void``: a
    voided one, its charge written off as issued in error. Returns the id."""
    state = ctx.state(SERVICE)
    acct = _account(ctx, pid, email)
    due_day = dt.date.fromisoformat(due)
    sent = min(due_day - dt.timedelta(days=TERMS_DAYS), ctx.today - dt.timedelta(days=1))
    service = sent - dt.timedelta(days=ctx.rng.randint(10, 30))
    cid = next_id(state, "CHG")
    kind = "coinsurance" if claim_id else "self_pay"
    state["charges"][cid] = Charge(
        id=cid, patient_id=pid, kind=kind, description=f"Patient share after insurance, claim {claim_id}"
        if claim_id else "Balance after insurance", service_date=service, claim_id=claim_id, amount=balance,
        balance=0.0 if void else balance, adjusted=balance if void else 0.0,
        adjustments=[Adjustment(amount=balance, reason="billing_error", note="Issued in error",
                                posted_on=sent + dt.timedelta(days=3))] if void else [],
        posted_on=service + dt.timedelta(days=5)).model_dump(mode="json")
    state["statements"][sid] = Statement(
        id=sid, patient_id=pid, patient_name=acct.name, email=acct.email, status="void" if void else "sent",
        statement_date=sent, due_date=due_day, charge_ids=[cid], amount_due=balance, balance=balance,
        delivery="email", sent_on=sent,
        void_reason="Issued in error; reissued after the payer's adjustment" if void else None).model_dump(mode="json")
    return sid


def _next_statement(ctx: Ctx) -> str:
    return next_id(ctx.state(SERVICE), "STM")


def _due(ctx: Ctx) -> str:
    return ctx.day(ctx.rng.randint(5, 25))


def _balance(ctx: Ctx) -> float:
    return round(ctx.rng.randint(9000, 180000) / 100, 2)


def _email_patient(ctx: Ctx, email: str) -> str:
    for a in ctx.state(SERVICE)["accounts"].values():
        if (a.get("email") or "").lower() == email.lower():
            return a["id"]
    return clinic_patient_id(ctx)


def _plant(ctx: Ctx, key: Any, outs: dict[str, Any], stale: bool, by: str) -> str:
    sid = key if by == "id" else _next_statement(ctx)
    claim = ctx.states.get(CLAIMS, {}).get("claims", {}).get(key if by == "claim" else "")
    email = key if by == "email" else outs.get("email")
    pid = (key if by == "patient" else outs.get("patient_id") or (
        claim["patient_id"] if claim else _email_patient(ctx, key) if by == "email" else clinic_patient_id(ctx)))
    balance = outs.get("money") if outs.get("money") is not None else _balance(ctx)
    return plant_statement(ctx, sid, pid=pid, balance=balance, due=outs.get("date") or _due(ctx), email=email,
                           claim_id=key if by == "claim" else None, void=stale)


def _get(reader: Reader, key: Any) -> dict[str, Any]:
    return reader.read(SERVICE, "get_statement", statement_id=key)


def _open(reader: Reader, **where: Any) -> dict[str, Any]:
    rows = [s for s in reader.read(SERVICE, "list_statements", limit=200, **where) if s["status"] == "sent"]
    if not rows:
        raise SolveError(f"no sent statement for {where}")
    return _get(reader, rows[0]["id"])


def _claim_statement(reader: Reader, key: Any) -> dict[str, Any]:
    charge = pick(reader.read(SERVICE, "list_charges", claim_id=key, limit=200), claim_id=key)
    rows = [s for s in reader.read(SERVICE, "list_statements", patient_id=charge["patient_id"], limit=200)
            if s["status"] == "sent" and charge["id"] in s["charge_ids"]]
    if not rows:
        raise SolveError(f"no sent statement bills claim {key}")
    return _get(reader, rows[0]["id"])


_BALANCE = Give("money", "balance", "the balance due on the patient statement", "the statement balance",
                draw=_balance)
_DUE = Give("date", "due_date", "the statement's due date", "the statement due date", draw=_due)
_TRUTH = "A voided statement was withdrawn; only the patient's sent statement counts."

STATEMENT = Relay(
    service=SERVICE, name="patient statement", key="patient_statement_id",
    gives=(Give("patient_id", "patient_id", "the patient's id"),
           Give("email", "email", "the patient's email address", "the customer"), _BALANCE, _DUE),
    plant=lambda ctx, key, outs, stale: _plant(ctx, key, outs, stale, "id"), find=_get,
    where="Each patient statement names the patient (id and email), the balance still due and its due date.",
    alloc=_next_statement, entry=lambda key: f"patient statement {key}")

PATIENT_STATEMENT = Relay(
    service=SERVICE, name="patient's open statement", key="patient_id",
    gives=(Give("patient_statement_id", "id", "the patient's open statement"), _BALANCE, _DUE),
    plant=lambda ctx, key, outs, stale: _plant(ctx, key, outs, stale, "patient"),
    find=lambda reader, key: _open(reader, patient_id=key),
    where="Patient statements are filed under the patient's id.", alloc=clinic_patient_id, truth=_TRUTH,
    entry=lambda key: f"the open patient statement of patient {key}")

EMAIL_STATEMENT = Relay(
    service=SERVICE, name="patient's open statement by email", key="email",
    gives=(Give("patient_statement_id", "id", "the patient's open statement"),
           Give("patient_id", "patient_id", "the patient's id"), _BALANCE),
    plant=lambda ctx, key, outs, stale: _plant(ctx, key, outs, stale, "email"),
    find=lambda reader, key: _open(reader, email=key),
    where="Patient statements are emailed to the patient's address on file.", truth=_TRUTH,
    entry=lambda key: f"the open patient statement emailed to {key}")

CLAIM_STATEMENT = Relay(
    service=SERVICE, name="statement billing a claim's patient share", key="claim_id",
    gives=(Give("patient_statement_id", "id", "the statement billing the patient's share of the claim"),
           Give("patient_id", "patient_id", "the patient's id"), _BALANCE, _DUE),
    plant=lambda ctx, key, outs, stale: _plant(ctx, key, outs, False, "claim"), find=_claim_statement,
    where="What a patient owes after insurance is billed on a patient statement whose charge names the claim.",
    alloc=lambda ctx: next_id(ctx.state(CLAIMS), "CLM") if CLAIMS in ctx.states
    else next_id(ctx.state(SERVICE), "CLM", start=40), entry=lambda key: f"the patient statement for claim {key}")


def _scope(collection: str, ids: list[str], **new: Any) -> list[OnlyChanged]:
    return [OnlyChanged(id="_", service=SERVICE, collection=collection, allow_ids=ids, allow_new=new or None,
                        description=f"No other {collection.replace('_', ' ')} were changed or created.")]


def _sent(reader: Reader, sid: str) -> dict[str, Any]:
    s = _get(reader, sid)
    if s["status"] != "sent" or s["balance"] <= 0:
        raise SolveError(f"statement {sid} has nothing owed on it")
    return s


def _pay(reader: Reader, args: dict[str, Found]) -> Write:
    s, case = _sent(reader, args["statement"].value), args["case"].value
    return Write(
        calls=[call("record_payment", patient_id=s["patient_id"], amount=s["balance"], method="cash",
                    statement_id=s["id"], memo=case)],
        checks=[RecordMatches(id="_", service=SERVICE, collection="statements", record_id=s["id"],
                              where={"status": "paid", "balance": 0.0}, description="The statement is paid in full."),
                RecordExists(id="_", service=SERVICE, collection="payments",
                             where={"statement_id": s["id"], "amount": s["balance"], "method": "cash",
                                    "status": "posted"},
                             description="One cash payment of the statement's balance is recorded on it.")],
        scope=_scope("statements", [s["id"]]) + _scope("charges", s["charge_ids"])
        + _scope("payments", [], statement_id=s["id"]) + _scope("plans", []),
        tool="record_payment", where={"statement_id": s["id"]}, label="the statement payment", moves_money=True)


def _plan(reader: Reader, args: dict[str, Found]) -> Write:
    s = _sent(reader, args["statement"].value)
    pid = s["patient_id"]
    if reader.read(SERVICE, "list_payment_plans", patient_id=pid, status="active"):
        raise SolveError(f"patient {pid} already has an active payment plan")
    bal = reader.read(SERVICE, "get_patient_balance", patient_id=pid)
    total = round(bal["balance"] - bal["collections_balance"], 2)
    try:
        amounts = split(total, PLAN_MONTHS, None)
    except Exception as exc:  # under $25 a month: no plan
        raise SolveError(str(exc)) from exc
    return Write(
        calls=[call("create_payment_plan", patient_id=pid, number_of_installments=PLAN_MONTHS)],
        checks=[RecordExists(id="_", service=SERVICE, collection="plans",
                             where={"patient_id": pid, "status": "active", "total": total,
                                    "installments": {"$len": PLAN_MONTHS}},
                             description=f"A {PLAN_MONTHS}-month payment plan covers the patient's whole open "
                                         f"balance ({amounts[0]:.2f} a month).")],
        scope=_scope("plans", [], patient_id=pid) + _scope("payments", []),
        tool="create_payment_plan", where={"patient_id": pid}, label="the payment plan")


def _message(reader: Reader, args: dict[str, Found]) -> Write:
    sid, mention, case = args["statement"].value, args["mention"], args["case"].value
    _sent(reader, sid)
    text = f"{case}: {mention.noun} is {mention.display}."
    return Write(
        calls=[call("update_statement", statement_id=sid, message=text)],
        checks=[RecordMatches(id="_", service=SERVICE, collection="statements", record_id=sid,
                              where={"message": {"$all": [{"$contains": case}, {"$contains": mention.display}]}},
                              description="The statement's message quotes the case and the right value.")],
        scope=_scope("statements", [sid]), tool="update_statement", where={"statement_id": sid},
        label="the message on the statement")


_STATEMENT = (Need("statement", "patient_statement_id"),)

LINKS = ServiceLinks(
    service=SERVICE, label="the patient billing system",
    relays=(STATEMENT, PATIENT_STATEMENT, EMAIL_STATEMENT, CLAIM_STATEMENT),
    actions=(
        Action(service=SERVICE, name="pay", needs=_STATEMENT, build=_pay,
               goal="record the patient's cash payment of the statement's full balance"),
        Action(service=SERVICE, name="plan", needs=_STATEMENT, build=_plan,
               goal=f"set the patient up on a {PLAN_MONTHS}-month payment plan for their whole open balance"),
        Action(service=SERVICE, name="message", needs=_STATEMENT, build=_message,
               goal="put a message on the patient's statement stating {mention}"),
    ),
)

__all__ = ["LINKS", "plant_statement"]
