"""Rules of the court e-filing service: fee calculation, payment accounts, the court calendar.

``GetFeesCalculation``: every document's filing-code fee plus the e-filing
service provider's fee per envelope, all waived on a case with a fee waiver.
A payment account pays only while active and unexpired; a fee-waiver account
only on a case whose waiver the court granted. Hearings go on court days
(weekdays that are not judicial holidays), after today, at one of the
courtroom's calendar times, one hearing per courtroom and time.
"""

from __future__ import annotations

import datetime as dt
from typing import Iterable, Optional

from compoworld_gym.envs.services._commerce import money
from compoworld_gym.envs.services._court_filings_models import (
    COURTS, EFSP_FEE, FILING_CODES, HEARING_TIMES, CourtCase, CourtFilingsState, FeeItem, Hearing, PaymentAccount,
    court_day_problem,
)
from compoworld_gym.errors import Conflict, Unprocessable

#: How far ahead the courts' calendars are open for reservations (days).
CALENDAR_HORIZON_DAYS = 120


def fee_lines(codes: Iterable[str], waived: bool) -> list[FeeItem]:
    """The fee calculation of an envelope holding documents of ``codes`` (USD; all 0 when ``waived``)."""
    lines = [FeeItem(description=f"Filing fee: {c}", amount=0.0 if waived else FILING_CODES[c].fee) for c in codes]
    lines.append(FeeItem(description="E-filing service fee", amount=0.0 if waived else EFSP_FEE))
    return lines


def total(lines: list[FeeItem]) -> float:
    """Sum of fee lines, to the cent."""
    return money(sum(f.amount for f in lines))


def check_payment(acct: PaymentAccount, case: CourtCase, today: dt.date) -> None:
    """Refuse an account that cannot pay the fees of a filing on ``case``.

    Raises:
        Unprocessable: 422 for an inactive or expired account, or a fee-waiver
            account on a case without a granted waiver.
    """
    if not acct.active:
        raise Unprocessable(f"payment account {acct.id} is inactive; fees must be paid: use an active account "
                            "(list_payment_accounts).")
    if acct.expires_on is not None and acct.expires_on < today:
        raise Unprocessable(f"payment account {acct.id} expired on {acct.expires_on}; fees must be paid: use "
                            "another account (list_payment_accounts).")
    if acct.type == "fee_waiver" and not case.fee_waiver:
        raise Unprocessable(f"case {case.case_number} has no fee waiver granted; fees must be paid with a card "
                            "or bank account.")


def require_open(case: CourtCase, action: str) -> None:
    """Refuse ``action`` on a closed case.

    Raises:
        Conflict: 409 naming the disposition.
    """
    if case.status == "closed":
        raise Conflict(f"case {case.case_number} was closed on {case.closed_on} ({case.disposition}); the clerk "
                       f"rejects {action} on a closed case.")


def next_hearing(state: CourtFilingsState, case_id: str, today: dt.date) -> Optional[Hearing]:
    """The case's earliest scheduled hearing on or after ``today``, or None."""
    ahead = [h for h in state.hearings.values() if h.case_id == case_id and h.status == "scheduled"
             and h.date >= today]
    return min(ahead, key=lambda h: (h.date, h.time, h.id)) if ahead else None


def booked(state: CourtFilingsState, court: str, courtroom: str, day: dt.date, time: str,
           ignore: Optional[str] = None) -> Optional[Hearing]:
    """The scheduled hearing holding ``courtroom`` at ``day`` ``time`` (other than ``ignore``), or None."""
    for h in state.hearings.values():
        if (h.status == "scheduled" and h.court == court and h.courtroom == courtroom and h.date == day
                and h.time == time and h.id != ignore):
            return h
    return None


def check_slot(state: CourtFilingsState, case: CourtCase, courtroom: str, day: dt.date, time: str,
               today: dt.date, ignore: Optional[str] = None) -> None:
    """Refuse a hearing slot that is not free on a court day of the case's court.

    Raises:
        Unprocessable: 422 for a courtroom of another court, a past or far day, or a day the court is closed.
        Conflict: 409 when another hearing holds the courtroom at that time.
    """
    court = COURTS[case.court]
    if courtroom not in court.courtrooms:
        raise Unprocessable(f"{courtroom!r} is not a courtroom of {court.name}; its courtrooms are "
                            f"{', '.join(court.courtrooms)}.")
    if day <= today:
        raise Unprocessable(f"{day} is not after today ({today}); hearings are reserved on future court days.")
    if (day - today).days > CALENDAR_HORIZON_DAYS:
        raise Unprocessable(f"the calendar is open {CALENDAR_HORIZON_DAYS} days ahead; pick a day up to "
                            f"{today + dt.timedelta(days=CALENDAR_HORIZON_DAYS)}.")
    problem = court_day_problem(day)
    if problem:
        raise Unprocessable(f"{problem}: the court is closed; call get_available_court_dates for court days.")
    taken = booked(state, case.court, courtroom, day, time, ignore)
    if taken is not None:
        raise Conflict(f"{courtroom} is already booked on {day} at {time} (hearing {taken.id}); pick a free time "
                       "from get_available_court_dates.")


def free_slots(state: CourtFilingsState, case: CourtCase, courtroom: str, today: dt.date, start: dt.date,
               limit: int) -> list[dict]:
    """The first ``limit`` free ``{date, time, courtroom, judge}`` of ``courtroom`` from ``start`` (after today)."""
    out, day = [], max(start, today + dt.timedelta(days=1))
    last = today + dt.timedelta(days=CALENDAR_HORIZON_DAYS)
    judge = COURTS[case.court].courtrooms[courtroom]
    while len(out) < limit and day <= last:
        if court_day_problem(day) is None:
            for t in HEARING_TIMES:
                if booked(state, case.court, courtroom, day, t) is None and len(out) < limit:
                    out.append({"date": day, "time": t, "courtroom": courtroom, "judge": judge})
        day += dt.timedelta(days=1)
    return out


def blank_ieq(field: str, value: Optional[str]):
    """A filter keeping records whose optional text ``field`` equals ``value`` ignoring case; None for no filter."""
    if value is None:
        return None
    wanted = value.lower()
    return lambda r: (getattr(r, field) or "").lower() == wanted


def case_view(state: CourtFilingsState, case: CourtCase, today: dt.date) -> dict:
    """A case as tools return it: its fields plus its next hearing and its filings' count and status."""
    nxt = next_hearing(state, case.id, today)
    filings = [f for f in state.filings.values() if f.case_id == case.id]
    return {**case.model_dump(), "next_hearing": nxt.model_dump() if nxt else None,
            "filing_count": len(filings),
            "pending_filings": [f.id for f in filings if f.status == "submitted"]}
