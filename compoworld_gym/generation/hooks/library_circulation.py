"""The library in chained tasks: a loan names the borrower's email, the
overdue fine owed and the due date; a guardian's email (the school's SIS
contact) leads to their child's library account and its overdue loan, and
so does the child's SIS student id; a community member's own email leads to
their overdue loan. Writes: collect the overdue fine, renew the loan, or
send the borrower a notice (each quoting a discovered value)."""

from __future__ import annotations

import datetime as dt
import math
from typing import Any, Optional

from compoworld_gym.checks import OnlyChanged, RecordExists, RecordMatches
from compoworld_gym.envs.services._common import email_for
from compoworld_gym.envs.services._library_circulation_models import (
    LOCATIONS, POLICIES, Fee, Item, Loan, Patron, isbn13_check_digit,
)
from compoworld_gym.envs.services._library_circulation_seed import STUDENT_DOMAIN, TITLES
from compoworld_gym.generation.context import Ctx, call
from compoworld_gym.generation.hooks.hr_directory import name_from_email
from compoworld_gym.generation.links import (
    Action, Found, Give, Need, Reader, Relay, ServiceLinks, SolveError, Write, next_id, pick,
)

SERVICE = "library_circulation"


def fine_amount(ctx: Ctx) -> float:
    """A plausible overdue fine (USD): 1.00 to 9.50 in quarter-dollar steps, under the $10 block."""
    return ctx.rng.randint(4, 38) * 0.25


def past_due_day(ctx: Ctx) -> str:
    """A due date 3-30 days ago (ISO)."""
    return ctx.day(-ctx.rng.randint(3, 30))


def plant_patron(ctx: Ctx, *, group: str, email: str, name: str, guardian: Optional[str] = None,
                 student_id: Optional[str] = None, active: bool = True) -> str:
    """Add a :class:`Patron` (validated) with the next id and card barcode; returns the id."""
    state = ctx.state(SERVICE)
    pid = next_id(state, "PAT")
    first, _, last = name.partition(" ")
    p = Patron(id=pid, barcode=f"21000{int(pid[4:]):09d}", first_name=first, last_name=last or first, email=email,
               phone=ctx.fresh("phone"), patron_group=group, active=active,
               expiration_date=ctx.day(300) if active else ctx.day(-150), enrollment_date=ctx.day(-400),
               student_id=student_id, guardian_email=guardian)
    state["patrons"][pid] = p.model_dump(mode="json")
    return pid


def _return_overdue(ctx: Ctx, patron_id: str) -> None:
    """The patron's seeded overdue loans were returned yesterday: the planted loan is the only one overdue."""
    state = ctx.state(SERVICE)
    for loan in state["loans"].values():
        if loan["patron_id"] == patron_id and loan["status"] == "open" and loan["due_date"] < ctx.day(0):
            loan.update(status="closed", action="checked_in", return_date=ctx.day(-1))
            state["items"][loan["item_id"]]["status"] = "available"
            for fee in state["fees"].values():
                if fee["loan_id"] == loan["id"]:
                    fee["accruing"] = False


def plant_loan(ctx: Ctx, patron_id: str, *, fine: float, due: Optional[str] = None, loan_id: Optional[str] = None,
               returned: bool = False) -> str:
    """Add a new item lent to ``patron_id``: overdue with ``fine`` USD accrued (or, ``returned``, checked in late
    with the fine paid); ``due`` defaults to the day the fine implies. Returns the loan id."""
    state = ctx.state(SERVICE)
    patron = state["patrons"][patron_id]
    policy = POLICIES[patron["patron_group"]]
    days = min(120, max(1, math.ceil(fine / policy.fine_per_day)))  # a look-alike's amount may be any figure
    due = due or ctx.day(-days)
    iid = next_id(state, "ITM")
    title, author, stem, kind, cost = TITLES[int(iid[4:]) % len(TITLES)]
    item = Item(id=iid, barcode=f"31000{int(iid[4:]):09d}", title=title, author=author,
                isbn=f"{stem}{isbn13_check_digit(stem)}", call_number=f"{author.split()[-1][:3].upper()} {iid[4:]}",
                location=LOCATIONS[0], material_type=kind, status="available" if returned else "checked_out",
                replacement_cost=cost)
    state["items"][iid] = item.model_dump(mode="json")
    lid = loan_id or next_id(state, "LN")
    loan_day = (dt.date.fromisoformat(due) - dt.timedelta(days=policy.loan_period_days)).isoformat()
    loan = Loan(id=lid, patron_id=patron_id, item_id=iid, loan_policy=policy.policy_name, loan_date=loan_day,
                due_date=due, status="closed" if returned else "open", return_date=ctx.day(-1) if returned else None,
                action="checked_in" if returned else "checked_out")
    state["loans"][lid] = loan.model_dump(mode="json")
    fid = next_id(state, "FEE")
    fee = Fee(id=fid, patron_id=patron_id, loan_id=lid, item_id=iid, fee_type="overdue_fine", amount=fine,
              remaining=0.0 if returned else fine, status="closed" if returned else "open",
              payment_status="paid_fully" if returned else "outstanding", accruing=not returned, created_on=due)
    state["fees"][fid] = fee.model_dump(mode="json")
    return lid


def _patron_by(ctx: Ctx, field: str, value: Any) -> Optional[str]:
    hit = next((p for p in ctx.state(SERVICE)["patrons"].values() if p["active"]
                and str(p.get(field) or "").lower() == str(value).lower()), None)
    return hit["id"] if hit else None


def _sis_student(ctx: Ctx, *, student_id: Optional[str] = None, guardian: Optional[str] = None) -> Optional[dict]:
    """The enrolled SIS student record of the task (by id or guardian email), when student_records is mounted."""
    for st in ctx.states.get("student_records", {}).get("students", {}).values():
        if st["enroll_status"] == "A" and (st["id"] == student_id or guardian and any(
                c["email"].lower() == guardian.lower() for c in st["contacts"])):
            return st
    return None


def _student_patron(ctx: Ctx, guardian: str, name: Optional[str], student_id: Optional[str]) -> str:
    sis = _sis_student(ctx, student_id=student_id, guardian=guardian)
    if sis is not None:
        name, student_id = f"{sis['first_name']} {sis['last_name']}", sis["id"]
    name = name or f"{ctx.first_name()} {name_from_email(guardian).split()[-1]}"
    student_id = student_id or ctx.new_id(SERVICE, "STU")
    return plant_patron(ctx, group="student", email=email_for(name, STUDENT_DOMAIN), name=name, guardian=guardian,
                        student_id=student_id)


def _plant_guardian(ctx: Ctx, key: Any, outs: dict[str, Any], stale: bool) -> str:
    fine = outs.get("money") or fine_amount(ctx)
    if stale:  # a child who left the school, whose account closed with a book still out
        name = f"{ctx.first_name()} {name_from_email(str(key)).split()[-1]}"
        pid = plant_patron(ctx, group="student", email=email_for(name, STUDENT_DOMAIN), name=name, guardian=str(key),
                           student_id=ctx.new_id(SERVICE, "STU"), active=False)
        return plant_loan(ctx, pid, fine=fine)
    pid = _patron_by(ctx, "guardian_email", key) or _student_patron(ctx, str(key), outs.get("person_name"), None)
    _return_overdue(ctx, pid)
    return plant_loan(ctx, pid, fine=fine)


def _plant_student(ctx: Ctx, key: Any, outs: dict[str, Any], stale: bool) -> str:
    pid = _patron_by(ctx, "student_id", key)
    if pid is None:
        sis = _sis_student(ctx, student_id=str(key))
        guardian = sis["contacts"][0]["email"] if sis else outs.get("email") or ctx.person()[1]
        pid = _student_patron(ctx, guardian, None, str(key))
    elif outs.get("email"):
        ctx.state(SERVICE)["patrons"][pid]["guardian_email"] = outs["email"]
    _return_overdue(ctx, pid)
    return plant_loan(ctx, pid, fine=outs.get("money") or fine_amount(ctx))


def _plant_member(ctx: Ctx, key: Any, outs: dict[str, Any], stale: bool) -> str:
    pid = _patron_by(ctx, "email", key) or plant_patron(ctx, group="community", email=str(key),
                                                         name=name_from_email(str(key)))
    fine = outs.get("money") or fine_amount(ctx)
    if stale:  # returned late, the fine already paid
        return plant_loan(ctx, pid, fine=fine, due=outs.get("date"), returned=True)
    _return_overdue(ctx, pid)
    return plant_loan(ctx, pid, fine=fine, due=outs.get("date"))


def _plant_by_id(ctx: Ctx, key: Any, outs: dict[str, Any], stale: bool) -> str:
    email = outs.get("email") or ctx.person()[1]
    pid = _patron_by(ctx, "email", email) or plant_patron(ctx, group="community", email=email,
                                                           name=name_from_email(email))
    _return_overdue(ctx, pid)
    return plant_loan(ctx, pid, fine=outs.get("money") or fine_amount(ctx), due=outs.get("date"), loan_id=str(key))


def _overdue_of(reader: Reader, **search: Any) -> dict[str, Any]:
    patron = pick(reader.read(SERVICE, "search_patrons", active=True, limit=200, **search))
    loan = pick(reader.read(SERVICE, "list_loans", patron_id=patron["id"], status="open", overdue_only=True))
    return reader.read(SERVICE, "get_loan", loan_id=loan["id"])


_FINE = Give("money", "fine_owed", "the overdue fine owed on the library loan", "the overdue fine", draw=fine_amount)
_DUE = Give("date", "due_date", "the library loan's due date", "the loan due date", draw=past_due_day)
_LOAN = Give("loan_id", "id", "the overdue library loan")

LOAN = Relay(
    service=SERVICE, name="library loan", key="loan_id",
    gives=(Give("email", "patron_email", "the borrower's email address", "the customer"), _FINE, _DUE),
    plant=_plant_by_id, find=lambda reader, key: reader.read(SERVICE, "get_loan", loan_id=key),
    where="Each library loan names the borrower, the due date and the overdue fine owed.",
    alloc=lambda ctx: next_id(ctx.state(SERVICE), "LN"), entry=lambda key: f"library loan {key}")

GUARDIAN_LOAN = Relay(
    service=SERVICE, name="child's overdue library loan", key="email",
    gives=(_LOAN, _FINE, Give("person_name", "patron_name", "the student's name", "the student")),
    plant=_plant_guardian, find=lambda reader, key: _overdue_of(reader, guardian_email=key),
    where="The library lists each student's account with their guardian's email; a student's overdue loans carry "
          "the fine owed.",
    truth="An expired library account (a student who left the school) is closed; only the active student's loans "
          "count.")

STUDENT_LOAN = Relay(
    service=SERVICE, name="student's overdue library loan", key="student_id",
    gives=(_LOAN, _FINE, Give("email", "guardian_email", "the guardian's email address", "the customer")),
    plant=_plant_student, find=lambda reader, key: _overdue_of(reader, student_id=key),
    where="Student library accounts carry the SIS student id; their overdue loans carry the fine owed.",
    alloc=lambda ctx: next_id(ctx.state("student_records"), "STU") if "student_records" in ctx.states
    else ctx.new_id(SERVICE, "STU"))

MEMBER_LOAN = Relay(
    service=SERVICE, name="member's overdue library loan", key="email",
    gives=(_LOAN, _FINE, _DUE),
    plant=_plant_member, find=lambda reader, key: _overdue_of(reader, email=key),
    where="Community members have library cards under their own email address; their overdue loans carry the fine.",
    truth="A loan already checked in is history; only the loan still out counts.")


def _loan(reader: Reader, args: dict[str, Found]) -> dict[str, Any]:
    return reader.read(SERVICE, "get_loan", loan_id=args["loan"].value)


def _quote(args: dict[str, Found]) -> tuple[str, dict[str, Any]]:
    mention, case = args["mention"], args["case"].value
    return f"{case}: {mention.noun} is {mention.display}.", {"$all": [{"$contains": case},
                                                                     {"$contains": mention.display}]}


def _pay(reader: Reader, args: dict[str, Found]) -> Write:
    loan = _loan(reader, args)
    if not loan["fine_owed"]:
        raise SolveError(f"loan {loan['id']} has no fine owed")
    fid, mention = loan["fine_fee_id"], args["mention"]
    info = f"{args['case'].value}: {mention.display}"
    return Write(
        calls=[call("pay_fee", fee_id=fid, amount=loan["fine_owed"], payment_method="credit_card",
                    transaction_info=info)],
        checks=[RecordMatches(id="_", service=SERVICE, collection="fees", record_id=fid,
                              where={"status": "closed", "payment_status": "paid_fully",
                                     "payments": {"$any": {"transaction_info": {"$contains": mention.display}}}},
                              description="The loan's overdue fine is paid in full, the payment quoting the value.")],
        scope=[OnlyChanged(id="_", service=SERVICE, collection="fees", allow_ids=[fid],
                           description="No other fee was paid, waived or billed.")],
        tool="pay_fee", where={"fee_id": fid}, label="the payment of the overdue fine", moves_money=True)


def _renew(reader: Reader, args: dict[str, Found]) -> Write:
    loan = _loan(reader, args)
    if loan["holds_in_queue"] or loan["status"] != "open":
        raise SolveError(f"loan {loan['id']} cannot be renewed")
    lid = loan["id"]
    return Write(
        calls=[call("renew_loan", loan_id=lid)],
        checks=[RecordMatches(id="_", service=SERVICE, collection="loans", record_id=lid,
                              where={"action": "renewed", "renewal_count": loan["renewal_count"] + 1,
                                     "due_date": {"$gt": loan["due_date"]}, "status": "open"},
                              description="The loan is renewed once, with a later due date.")],
        scope=[OnlyChanged(id="_", service=SERVICE, collection="loans", allow_ids=[lid],
                           description="No other loan was renewed, returned or made.")],
        tool="renew_loan", where={"loan_id": lid}, label="the loan renewal")


def _notice(reader: Reader, args: dict[str, Found]) -> Write:
    loan = _loan(reader, args)
    text, quoted = _quote(args)
    lid = loan["id"]
    return Write(
        calls=[call("send_patron_notice", patron_id=loan["patron_id"], subject=f"Overdue: {loan['title']}",
                    body=text, loan_id=lid)],
        checks=[RecordExists(id="_", service=SERVICE, collection="outbox",
                             where={"about": lid, "body": quoted, "to": {"$contains": loan["patron_email"]}},
                             description="The borrower got a notice about the loan quoting the case and the value.")],
        scope=[OnlyChanged(id="_", service=SERVICE, collection="outbox", allow_new={"about": lid}, max_new=1,
                           description="No other patron notice was sent.")],
        tool="send_patron_notice", where={"loan_id": lid}, label="the notice to the borrower")


LINKS = ServiceLinks(
    service=SERVICE, label="the library circulation system",
    relays=(LOAN, GUARDIAN_LOAN, STUDENT_LOAN, MEMBER_LOAN),
    actions=(
        Action(service=SERVICE, name="pay_fine", needs=(Need("loan", "loan_id"),), build=_pay,
               goal="collect the overdue fine on the library loan in full, quoting {mention} in the payment's "
                    "transaction info"),
        Action(service=SERVICE, name="renew", needs=(Need("loan", "loan_id"),), build=_renew,
               goal="renew the overdue library loan"),
        Action(service=SERVICE, name="notice", needs=(Need("loan", "loan_id"),), build=_notice,
               goal="send the borrower a library notice about the overdue loan, quoting {mention}"),
    ),
)

__all__ = ["LINKS", "fine_amount", "plant_loan", "plant_patron"]
