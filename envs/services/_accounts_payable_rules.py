"""Pure business rules of accounts payable: approval routing, balances, who may approve.

Routing follows BILL approval policies: the strictest policy whose
threshold the bill total exceeds decides who may approve; a bill no policy
covers needs no approval. The open balance is the total less processed
payments; what may still be scheduled is the open balance less scheduled
payments, so two payments can never pay a bill twice.
"""

from __future__ import annotations

from typing import Iterable, Mapping, Optional, Sequence

from compoworld_gym.envs.services._accounts_payable_models import (
    ApprovalPolicy, Bill, BillLine, BillLineInput, Payment,
)
from compoworld_gym.envs.services._commerce import money
from compoworld_gym.envs.services._company import STAFF
from compoworld_gym.errors import Unprocessable

#: Finance staff of the shared roster: Elena Petrova (controller), Tomas Lindqvist (AP analyst).
FINANCE: tuple[str, ...] = tuple(s.email for s in STAFF if s.team == "finance")
CONTROLLER: str = next(s.email for s in STAFF if s.title == "Finance Controller")
#: Bills up to this total (USD) need no approval.
APPROVAL_ABOVE = 1000.0
#: Bills above this total (USD) need the Finance Controller.
CONTROLLER_ABOVE = 20000.0


def default_policies() -> dict[str, ApprovalPolicy]:
    """The two seeded policies: Finance review above 1,000 USD, Controller sign-off above 20,000 USD."""
    return {p.id: p for p in (
        ApprovalPolicy(id="POL-0001", name="Finance review", above=APPROVAL_ABOVE, approvers=list(FINANCE)),
        ApprovalPolicy(id="POL-0002", name="Controller sign-off", above=CONTROLLER_ABOVE, approvers=[CONTROLLER]),
    )}


def policy_for(policies: Mapping[str, ApprovalPolicy], total: float) -> Optional[ApprovalPolicy]:
    """The strictest policy (highest threshold) whose threshold ``total`` exceeds; None: no approval needed."""
    hits = [p for p in policies.values() if total > p.above]
    return max(hits, key=lambda p: p.above) if hits else None


def build_lines(inputs: Sequence[BillLineInput]) -> tuple[list[BillLine], float]:
    """Stored lines (unit price rounded to cents, amount = quantity x unit price) and their total (USD)."""
    lines = []
    for ln in inputs:
        price = money(ln.unit_price)
        lines.append(BillLine(**{**ln.model_dump(), "unit_price": price}, amount=money(ln.quantity * price)))
    return lines, money(sum(ln.amount for ln in lines))


def route(bill: Bill, policies: Mapping[str, ApprovalPolicy]) -> None:
    """Set the bill's approval routing from its total: pending under a policy, else not required.

    Clears any earlier decision (an edited bill is decided afresh)."""
    policy = policy_for(policies, bill.total)
    bill.approval_policy_id = policy.id if policy else None
    bill.approval_status = "pending" if policy else "not_required"
    bill.approver_email = bill.decided_on = bill.denial_reason = None


def refresh(bill: Bill, payments: Iterable[Payment]) -> None:
    """Recompute paid/scheduled amounts, open balance and payment status from the bill's payments."""
    mine = [p for p in payments if p.bill_id == bill.id]
    bill.paid_amount = money(sum(p.amount for p in mine if p.status == "processed"))
    bill.scheduled_amount = money(sum(p.amount for p in mine if p.status == "scheduled"))
    bill.open_balance = money(bill.total - bill.paid_amount)
    if bill.open_balance <= 0:
        bill.payment_status = "paid"
    elif bill.scheduled_amount > 0:
        bill.payment_status = "scheduled"
    else:
        bill.payment_status = "partially_paid" if bill.paid_amount > 0 else "unpaid"


def payable(bill: Bill) -> float:
    """What may still be scheduled on the bill (USD): open balance less scheduled payments."""
    return money(bill.open_balance - bill.scheduled_amount)


def check_approver(bill: Bill, policies: Mapping[str, ApprovalPolicy], approver_email: str) -> str:
    """The approver's email (lower case) if they may decide ``bill``.

    Raises:
        Unprocessable: 422 when they entered the bill themselves or the bill's policy does not name them.
    """
    who = approver_email.lower()
    if who == bill.created_by.lower():
        raise Unprocessable("the person who entered a bill cannot approve or deny it.")
    policy = policies.get(bill.approval_policy_id or "")
    allowed = [a.lower() for a in policy.approvers] if policy else []
    if who not in allowed:
        raise Unprocessable(f"bill {bill.id} ({bill.total:.2f} USD) is routed by policy "
                            f"{bill.approval_policy_id} ({policy.name if policy else 'none'}); "
                            f"its approvers are {', '.join(allowed)}.")
    return who
