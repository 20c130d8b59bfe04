"""Business rules of the admissions service: checklists, decisions, offers and deposits.

Pure functions on the records of ``_admissions_models`` (no service state
beyond what is passed in), so the tools, the seed and the generation hook
compute offers and checklists the same way.
"""

from __future__ import annotations

import datetime as dt
from typing import Optional

from compoworld_gym.envs.services._admissions_models import Application, ChecklistItem, Decision, Round
from compoworld_gym.envs.services._blocks import Lifecycle
from compoworld_gym.envs.services._commerce import money

#: Share of the year's net tuition due as the enrollment deposit when the contract is signed.
DEPOSIT_RATE = 0.10
#: Days a family has to reply to a rolling-round admit.
ROLLING_REPLY_DAYS = 14
#: Checklist of a grade 9 application: (item, waivable).
GRADE9_CHECKLIST = (("Application Form", False), ("Application Fee", True), ("School Transcript", False),
                    ("English Teacher Recommendation", False), ("Math Teacher Recommendation", False),
                    ("SSAT Score Report", True), ("Student Interview", True))
#: Checklist of a transfer application (grades 10-11).
TRANSFER_CHECKLIST = (("Application Form", False), ("Application Fee", True), ("School Transcript", False),
                      ("Counselor Recommendation", False), ("Student Interview", True))
#: The item submitting the application marks received.
FORM = "Application Form"
#: Roles that may record and release decisions (faculty readers only review).
DECIDERS = ("Director of Admission", "Associate Director")

APPLICATION = Lifecycle("application", {
    "submit": ("awaiting_submission",),
    "review": ("ready_for_review",),
    "assign": ("awaiting_materials", "ready_for_review"),
    "decide": ("ready_for_review", "decided"),
    "withdraw": ("awaiting_submission", "awaiting_materials", "ready_for_review", "decided", "enrolled"),
    "checklist": ("awaiting_submission", "awaiting_materials", "ready_for_review", "decided"),
})


def checklist_for(rnd: Round, grade: int, ids: list[str]) -> list[ChecklistItem]:
    """The checklist items an application to ``rnd`` for ``grade`` starts with (``ids`` in order)."""
    template = GRADE9_CHECKLIST if grade == 9 else TRANSFER_CHECKLIST
    if rnd.application_fee == 0:
        template = tuple(t for t in template if t[0] != "Application Fee")
    return [ChecklistItem(id=i, name=n, status="awaiting", waivable=w) for i, (n, w) in zip(ids, template)]


def checklist_size(grade: int, rnd: Round) -> int:
    """How many checklist items an application for ``grade`` in ``rnd`` gets."""
    n = len(GRADE9_CHECKLIST if grade == 9 else TRANSFER_CHECKLIST)
    return n - (1 if rnd.application_fee == 0 else 0)


def outstanding(app: Application) -> list[str]:
    """Names of the checklist items still awaited."""
    return [c.name for c in app.checklist if c.status == "awaiting"]


def complete(app: Application) -> bool:
    """Whether every checklist item is received or waived."""
    return not outstanding(app)


def current(app: Application) -> Optional[Decision]:
    """The decision in force: the last one recorded, or None."""
    return app.decisions[-1] if app.decisions else None


def offer_terms(tuition: float, financial_aid: float) -> tuple[float, float]:
    """``(net tuition, deposit due)`` of an admit with ``financial_aid`` off ``tuition``."""
    net = money(tuition - financial_aid)
    return net, money(net * DEPOSIT_RATE)


def reply_by(rnd: Round, released: dt.date) -> dt.date:
    """The reply-by date of an admit released on ``released`` in ``rnd``."""
    if rnd.rolling or rnd.reply_by is None:
        return released + dt.timedelta(days=ROLLING_REPLY_DAYS)
    return max(rnd.reply_by, released + dt.timedelta(days=ROLLING_REPLY_DAYS))


def release_problem(rnd: Round, today: dt.date) -> Optional[str]:
    """Why a decision of ``rnd`` cannot be released today (a sentence), or None."""
    if not rnd.rolling and rnd.release_date is not None and today < rnd.release_date:
        return (f"decisions of round {rnd.id} ({rnd.name}) release on {rnd.release_date.isoformat()}; "
                "stage the decision and release it then.")
    return None


def submit_problem(rnd: Round, today: dt.date) -> Optional[str]:
    """Why an application to ``rnd`` cannot be started or submitted today, or None."""
    if not rnd.active:
        return f"round {rnd.id} ({rnd.name}) is closed."
    if rnd.deadline is not None and today > rnd.deadline:
        return f"round {rnd.id} ({rnd.name}) closed on {rnd.deadline.isoformat()}; apply in an open round."
    return None


__all__ = ["APPLICATION", "DECIDERS", "DEPOSIT_RATE", "FORM", "GRADE9_CHECKLIST", "ROLLING_REPLY_DAYS",
           "TRANSFER_CHECKLIST", "checklist_for", "checklist_size", "complete", "current", "offer_terms",
           "outstanding", "release_problem", "reply_by", "submit_problem"]
