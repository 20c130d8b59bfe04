"""CAPA tools of the quality_management service: open, plan, implement, verify and close.

A mixin of :class:`compoworld_gym.envs.services.quality_management.QualityManagement`:
it uses the service's ``_ncr`` and ``_user``.
"""

from __future__ import annotations

import datetime as dt
from typing import Optional

from pydantic import Field

from compoworld_gym.entities import Date, Email, Id
from compoworld_gym.envs.services._blocks import eq, select
from compoworld_gym.envs.services._quality_management_models import (
    Capa, CapaStatus, CapaType, CheckResult, EffectivenessCheck,
)
from compoworld_gym.envs.services._quality_management_rules import CAPA, NCR, check_capa_closable, due_days
from compoworld_gym.errors import Conflict, InvalidArgument, Unprocessable
from compoworld_gym.service import tool


class CapaMixin:
    """Corrective and preventive actions; its methods become tools of the service."""

    def _capa(self, capa_id: str) -> Capa:
        return self.lookup(self.state.capas, capa_id, "CAPA")

    def _future(self, day, what: str) -> None:
        if day <= self.today:
            raise Unprocessable(f"{what} {day.isoformat()} is not after today ({self.today.isoformat()}).")

    def _view_capa(self, c: Capa) -> dict:
        return {**c.model_dump(), "overdue": c.status not in ("closed", "cancelled") and c.due_date < self.today}

    @tool(read_only=True, returns=list[Capa])
    def list_capas(self, status: Optional[CapaStatus] = None, owner_email: Optional[Email] = None,
                   ncr_id: Optional[Id("nonconformance")] = None, overdue: Optional[bool] = None,
                   limit: int = Field(default=50, ge=1, le=200)) -> list[dict]:
        """List CAPAs by status, owner, the NCR they address or whether they are overdue.

        Args:
            status: open, in_progress, pending_verification, closed or cancelled.
            owner_email: the owner (case-insensitive).
            ncr_id: only CAPAs addressing this NCR.
            overdue: only CAPAs past their due date and not closed (true) or the others (false).
            limit: maximum number of CAPAs (1-200).
        """
        own = (lambda c: c.owner_email.lower() == owner_email.lower()) if owner_email else None
        about = (lambda c: ncr_id in c.ncr_ids) if ncr_id else None
        rows = [self._view_capa(c) for c in select(self.state.capas.values(), eq("status", status), own, about)]
        return [r for r in rows if overdue is None or r["overdue"] == overdue][:limit]

    @tool(read_only=True, returns=Capa)
    def get_capa(self, capa_id: Id("capa")) -> dict:
        """Get one CAPA with whether it is overdue.

        Args:
            capa_id: the CAPA number, e.g. CAPA-0002.
        """
        return self._view_capa(self._capa(capa_id))

    @tool(read_only=False, returns=Capa)
    def create_capa(self, title: str = Field(min_length=5, max_length=160),
                    problem_statement: str = Field(min_length=5, max_length=2000), owner_email: Email = Field(),
                    due_date: Optional[Date] = None, type: CapaType = "corrective",
                    ncr_ids: list[Id("nonconformance")] = Field(default_factory=list, max_length=20)) -> dict:
        """Open a CAPA with an owner and a due date, addressing NCRs (a corrective CAPA addresses at least one).

        Without a due date it is due by its most severe NCR: 14 days for critical, 30 for major, 60 otherwise.

        Args:
            title: short title.
            problem_statement: the problem to eliminate.
            owner_email: the active quality user who owns the actions.
            due_date: day the actions are due, after today (default by severity).
            type: corrective or preventive.
            ncr_ids: NCRs it addresses (not void).
        """
        owner = self._user(owner_email, "CAPA owner")
        ncrs = [self._ncr(k) for k in dict.fromkeys(ncr_ids)]
        if type == "corrective" and not ncrs:
            raise InvalidArgument("a corrective CAPA addresses at least one NCR; give ncr_ids.")
        void = [n.id for n in ncrs if n.status == "void"]
        if void:
            raise Conflict(f"NCR(s) {', '.join(void)} are void; a CAPA cannot address them.")
        if due_date is None:
            due_date = self.today + dt.timedelta(days=due_days([n.severity for n in ncrs]))
        self._future(due_date, "due_date")
        c = Capa(id=self.new_id("CAPA"), title=title, type=type, problem_statement=problem_statement,
                 owner_name=owner.name, owner_email=owner.email, ncr_ids=[n.id for n in ncrs], due_date=due_date,
                 status="open", created_on=self.today)
        self.state.capas[c.id] = c
        for n in ncrs:
            n.capa_ids.append(c.id)
        return self._view_capa(c)

    @tool(read_only=False, returns=Capa)
    def link_ncr_to_capa(self, capa_id: Id("capa"), ncr_id: Id("nonconformance")) -> dict:
        """Add an NCR to the ones an open or in-progress CAPA addresses.

        Args:
            capa_id: the CAPA.
            ncr_id: an NCR that is not void.
        """
        c, n = self._capa(capa_id), self._ncr(ncr_id)
        CAPA.check(c.id, c.status, "link an NCR")
        NCR.check(n.id, n.status, "link a CAPA")
        if n.id in c.ncr_ids:
            raise Conflict(f"CAPA {c.id} already addresses NCR {n.id}.")
        c.ncr_ids.append(n.id)
        n.capa_ids.append(c.id)
        return self._view_capa(c)

    @tool(read_only=False, returns=Capa)
    def update_capa_plan(self, capa_id: Id("capa"), root_cause: str = Field(min_length=5, max_length=2000),
                         action_plan: str = Field(min_length=5, max_length=2000)) -> dict:
        """Record a CAPA's root cause and action plan; an open CAPA moves to in_progress.

        Args:
            capa_id: an open or in-progress CAPA.
            root_cause: the root cause found.
            action_plan: the actions that remove it.
        """
        c = self._capa(capa_id)
        CAPA.check(c.id, c.status, "plan")
        c.root_cause, c.action_plan, c.status = root_cause, action_plan, "in_progress"
        return self._view_capa(c)

    @tool(read_only=False, returns=Capa)
    def complete_capa_actions(self, capa_id: Id("capa")) -> dict:
        """Mark a CAPA's actions implemented; it then waits for its effectiveness check.

        Args:
            capa_id: an in-progress CAPA with a root cause and action plan.
        """
        c = self._capa(capa_id)
        CAPA.check(c.id, c.status, "complete the actions")
        if not (c.root_cause and c.action_plan):
            raise Unprocessable(f"CAPA {c.id} has no root cause and action plan yet (update_capa_plan).")
        c.status, c.actions_completed_on = "pending_verification", self.today
        return self._view_capa(c)

    @tool(read_only=False, returns=Capa)
    def record_effectiveness_check(self, capa_id: Id("capa"), result: CheckResult, checked_by: Email,
                                   notes: str = Field(min_length=3, max_length=2000)) -> dict:
        """Record whether a CAPA's implemented actions worked; not effective sends it back to in_progress.

        Args:
            capa_id: a CAPA pending verification.
            result: effective or not_effective.
            checked_by: the verifier, an active quality user other than the CAPA's owner.
            notes: the evidence reviewed.
        """
        c = self._capa(capa_id)
        who = self._user(checked_by, "verifier")
        CAPA.check(c.id, c.status, "check effectiveness")
        if who.email == c.owner_email:
            raise Unprocessable(f"{who.name} owns CAPA {c.id}; its effectiveness is verified by someone else.")
        c.effectiveness_checks.append(EffectivenessCheck(result=result, checked_by=who.email, checked_on=self.today,
                                                         notes=notes))
        if result == "not_effective":
            c.status, c.actions_completed_on = "in_progress", None
        return self._view_capa(c)

    @tool(read_only=False, returns=Capa)
    def close_capa(self, capa_id: Id("capa")) -> dict:
        """Close a CAPA whose latest effectiveness check found it effective.

        Args:
            capa_id: a CAPA pending verification.
        """
        c = self._capa(capa_id)
        if c.status in ("closed", "cancelled"):
            raise Conflict(f"CAPA {c.id} is already {c.status}.")
        check_capa_closable(c)
        CAPA.check(c.id, c.status, "close")
        c.status, c.closed_on = "closed", self.today
        return self._view_capa(c)

    @tool(read_only=False, returns=Capa)
    def extend_capa_due_date(self, capa_id: Id("capa"), due_date: Date,
                             reason: str = Field(min_length=3, max_length=300)) -> dict:
        """Move a CAPA's due date later, recording why.

        Args:
            capa_id: a CAPA not closed or cancelled.
            due_date: the new due date, after today and after the current one.
            reason: why more time is needed.
        """
        c = self._capa(capa_id)
        CAPA.check(c.id, c.status, "extend")
        self._future(due_date, "due_date")
        if due_date <= c.due_date:
            raise InvalidArgument(f"the new due date must be after the current one, {c.due_date.isoformat()}.")
        c.extensions.append(f"{c.due_date.isoformat()} -> {due_date.isoformat()}: {reason}")
        c.due_date = due_date
        return self._view_capa(c)
