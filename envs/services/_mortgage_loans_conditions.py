"""Condition and rate-lock tools of the mortgage_loans service (Encompass
``conditions/underwriting`` and buy-side ``ratelockRequests``).

A mixin of :class:`compoworld_gym.envs.services.mortgage_loans.MortgageLoans`:
it uses the service's ``_active`` and ``_condition`` lookups.
"""

from __future__ import annotations

import datetime as dt
from typing import Literal, Optional

from pydantic import Field

from compoworld_gym.entities import Id
from compoworld_gym.envs.services._mortgage_loans_models import Condition, ConditionCategory, PriorTo, RateLock
from compoworld_gym.envs.services._mortgage_loans_rules import (
    CONDITION_MOVES, LOCK_PERIODS, check_stage_open, lock_state,
)
from compoworld_gym.errors import Conflict, Unprocessable
from compoworld_gym.service import tool


class ConditionsLocksMixin:
    """Underwriting conditions (add, move) and the rate lock (lock, extend, cancel); its methods become tools."""

    # ------------------------------------------------------------- conditions
    @tool(read_only=False, returns=Condition)
    def add_condition(self, loan_id: Id("loan_application"), title: str = Field(min_length=3, max_length=120),
                      prior_to: PriorTo = "Approval", category: ConditionCategory = "Misc",
                      description: str = Field(default="", max_length=500)) -> dict:
        """Add an underwriting condition (status Added) for a stage the loan has not reached yet.

        Args:
            loan_id: an active loan.
            title: what is needed.
            prior_to: Approval, Docs or Funding (a stage already passed: 409).
            category: Assets, Credit, Income, Property, Legal or Misc.
            description: details.
        """
        loan = self._active(loan_id)
        check_stage_open(loan, prior_to)
        cond = Condition(id=self.new_id("COND"), loan_id=loan.id, title=title, description=description,
                         category=category, prior_to=prior_to, status="Added", added_date=self.today,
                         status_date=self.today)
        self.state.conditions[cond.id] = cond
        return cond.model_dump()

    @tool(read_only=False, returns=Condition)
    def update_condition_status(self, condition_id: Id("loan_condition"),
                                status: Literal["Requested", "Received", "Cleared", "Waived"],
                                comment: Optional[str] = Field(default=None, max_length=500)) -> dict:
        """Move a condition: Added -> Requested -> Received -> Cleared; Received back to Requested
        (re-request); Waived from any open status (needs a comment). Cleared needs Received first.

        Args:
            condition_id: the condition.
            status: Requested, Received, Cleared or Waived.
            comment: a comment kept on the condition (required to waive).
        """
        cond = self._condition(condition_id)
        self._active(cond.loan_id)
        allowed = CONDITION_MOVES.get(cond.status, ())
        if status not in allowed:
            hint = " (documents must be Received before clearing)" if status == "Cleared" else ""
            raise Conflict(f"condition {cond.id} is {cond.status}; it can go to {', '.join(allowed) or 'no status'}"
                           f"{hint}.")
        if status == "Waived" and not comment:
            raise Unprocessable("give the reason for the waiver in comment.")
        cond.status, cond.status_date = status, self.today
        if comment:
            cond.comments.append(comment)
        return cond.model_dump()

    # -------------------------------------------------------------- rate lock
    @tool(read_only=False, returns=RateLock)
    def lock_rate(self, loan_id: Id("loan_application"), lock_number_of_days: Literal[15, 30, 45, 60]) -> dict:
        """Lock the loan's note rate from today for 15, 30, 45 or 60 days (replaces an expired or cancelled lock).

        Args:
            loan_id: an active loan before Funding.
            lock_number_of_days: the lock period.
        """
        loan = self._active(loan_id)
        if lock_state(loan, self.today) == "Locked":
            raise Conflict(f"loan {loan.id} is locked until {loan.rate_lock.lock_expiration_date}; extend that lock.")
        if lock_number_of_days not in LOCK_PERIODS:  # pragma: no cover - the Literal already checks it
            raise Unprocessable(f"lock periods are {LOCK_PERIODS}.")
        loan.rate_lock = RateLock(id=self.new_id("LCK"), lock_date=self.today, lock_number_of_days=lock_number_of_days,
                                  lock_expiration_date=self.today + dt.timedelta(days=lock_number_of_days),
                                  rate=loan.note_rate_percent, requested_status="Locked")
        return {**loan.rate_lock.model_dump(), "loan_id": loan.id}

    @tool(read_only=False, returns=RateLock)
    def extend_rate_lock(self, loan_id: Id("loan_application"), extension_days: int = Field(ge=1, le=30),
                         comment: Optional[str] = Field(default=None, max_length=300)) -> dict:
        """Extend a rate lock that has not expired by 1-30 days (an expired lock needs lock_rate).

        Args:
            loan_id: an active loan with a current lock.
            extension_days: days to add to the expiration.
            comment: the reason, kept in the loan notes.
        """
        loan = self._active(loan_id)
        state = lock_state(loan, self.today)
        if state != "Locked":
            raise Conflict(f"loan {loan.id} has no current lock ({state}); lock the rate again with lock_rate.")
        lock = loan.rate_lock
        lock.lock_expiration_date += dt.timedelta(days=extension_days)
        lock.lock_number_of_days += extension_days
        lock.extension_days += extension_days
        if comment:
            loan.notes.append(f"Lock extended {extension_days} days: {comment}")
        return {**lock.model_dump(), "loan_id": loan.id}

    @tool(read_only=False, returns=RateLock)
    def cancel_rate_lock(self, loan_id: Id("loan_application"), reason: str = Field(min_length=3, max_length=300)) -> dict:
        """Cancel the loan's current rate lock (the rate floats again).

        Args:
            loan_id: an active loan.
            reason: why, kept in the loan notes.
        """
        loan = self._active(loan_id)
        if lock_state(loan, self.today) not in ("Locked", "Expired"):
            raise Conflict(f"loan {loan.id} has no lock to cancel.")
        loan.rate_lock.requested_status = "Cancelled"
        loan.notes.append(f"Lock cancelled: {reason}")
        return {**loan.rate_lock.model_dump(), "loan_id": loan.id}
