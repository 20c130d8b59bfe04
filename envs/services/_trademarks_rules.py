"""USPTO rules of the trademarks service: response periods, extensions, maintenance windows, fees.

* An office action (non-final or final) must be answered within 3 months of
  its issue date; one 3-month extension may be requested, for a fee, before
  the deadline passes (37 C.F.R. 2.62). A response after the deadline is
  refused: the application is abandoned for failure to respond, and only a
  petition to revive (within 2 months of the notice of abandonment) brings it back.
* A registered mark has no pending examination: nothing can be "responded" to.
* Section 8 declaration of use: between the 5th and 6th anniversary of the
  registration date, or in the 6-month grace period after it with a
  surcharge. Section 15 declaration of incontestability: after 5 years of
  continuous use since registration, once.
* Fees (USD, per class where stated): application 350/class, extension 125,
  Section 8 325/class (+100/class in the grace period), Section 15 250/class,
  petition to revive 250.
"""

from __future__ import annotations

import calendar
import datetime as dt
from typing import Optional

from compoworld_gym.envs.services._trademarks_models import REGISTERED, OfficeAction, TrademarkApplication
from compoworld_gym.errors import Conflict, Unprocessable

RESPONSE_MONTHS = 3
EXTENSION_MONTHS = 3
REVIVE_MONTHS = 2
FEES = {"application": 350.0, "extension_request": 125.0, "section_8": 325.0, "section_8_grace": 100.0,
        "section_15": 250.0, "petition_to_revive": 250.0, "response": 0.0}


def add_months(d: dt.date, months: int) -> dt.date:
    """``d`` plus ``months`` calendar months (the day clamped to the month's end)."""
    y, m = divmod(d.month - 1 + months, 12)
    year, month = d.year + y, m + 1
    return d.replace(year=year, month=month, day=min(d.day, calendar.monthrange(year, month)[1]))


def add_years(d: dt.date, years: int) -> dt.date:
    """``d`` plus ``years`` (29 February becomes 28 February)."""
    return add_months(d, 12 * years)


def is_registered(app: TrademarkApplication) -> bool:
    """Whether the mark is registered."""
    return app.status_code in REGISTERED


def maintenance_window(app: TrademarkApplication, today: dt.date) -> dict:
    """The Section 8 / 15 position of a registration as of ``today``."""
    if not is_registered(app) or app.registration_date is None:
        return {"registered": False}
    reg = app.registration_date
    opens, closes = add_years(reg, 5), add_years(reg, 6)
    grace_ends = add_months(closes, 6)
    if app.section_8_filed_on is not None:
        phase = "filed"
    elif today < opens:
        phase = "not_yet_open"
    elif today <= closes:
        phase = "open"
    elif today <= grace_ends:
        phase = "grace_period"
    else:
        phase = "expired"
    n = len(app.goods_services)
    fee = FEES["section_8"] * n + (FEES["section_8_grace"] * n if phase == "grace_period" else 0.0)
    return {"registered": True, "registration_date": reg, "section_8_window_opens": opens,
            "section_8_window_closes": closes, "grace_period_ends": grace_ends, "section_8_phase": phase,
            "section_8_fee": fee, "section_8_filed_on": app.section_8_filed_on,
            "section_15_eligible": today >= opens and app.section_15_filed_on is None,
            "section_15_filed_on": app.section_15_filed_on, "section_15_fee": FEES["section_15"] * n}


def require_answerable(app: TrademarkApplication, oa: OfficeAction, today: dt.date, what: str) -> None:
    """An open office action on a pending application whose deadline has not passed."""
    if is_registered(app):
        raise Conflict(f"{app.id} ({app.mark_literal}) is registered (Reg. No. {app.registration_number}); "
                       f"there is no pending office action to {what}.")
    if oa.status != "open":
        raise Conflict(f"office action {oa.id} is {oa.status}; only an open office action can take a {what}.")
    if today > oa.response_deadline:
        raise Unprocessable(f"the response deadline of office action {oa.id} was {oa.response_deadline.isoformat()}; "
                            f"{what} refused: application {app.id} is abandoned for failure to respond "
                            "(a petition to revive is the only remedy).")


def require_extendable(oa: OfficeAction) -> None:
    """Only one 3-month extension per office action."""
    if oa.extended:
        raise Conflict(f"office action {oa.id} was already extended once (deadline "
                       f"{oa.response_deadline.isoformat()}); no further extension is available.")


def require_section_8(app: TrademarkApplication, today: dt.date) -> dict:
    """The Section 8 window must be open (or in its grace period); returns the window."""
    if not is_registered(app):
        raise Conflict(f"{app.id} ({app.mark_literal}) is not registered; Section 8 is for registrations.")
    w = maintenance_window(app, today)
    phase = w["section_8_phase"]
    if phase == "filed":
        raise Conflict(f"a Section 8 declaration for {app.id} was already filed on {app.section_8_filed_on}.")
    if phase == "not_yet_open":
        raise Unprocessable(f"the Section 8 window for {app.id} opens on {w['section_8_window_opens']} "
                            "(the 5th anniversary of registration); it cannot be filed earlier.")
    if phase == "expired":
        raise Unprocessable(f"the Section 8 window and grace period for {app.id} ended on {w['grace_period_ends']}; "
                            "the registration will be cancelled.")
    return w


def require_section_15(app: TrademarkApplication, today: dt.date) -> None:
    """Section 15 after 5 years of registration, once."""
    if not is_registered(app):
        raise Conflict(f"{app.id} ({app.mark_literal}) is not registered; Section 15 is for registrations.")
    if app.section_15_filed_on is not None:
        raise Conflict(f"a Section 15 declaration for {app.id} was already filed on {app.section_15_filed_on}.")
    opens = add_years(app.registration_date, 5)
    if today < opens:
        raise Unprocessable(f"{app.id} has not been registered for 5 years (that is on {opens}); "
                            "Section 15 needs 5 years of continuous use after registration.")


def require_revivable(app: TrademarkApplication, today: dt.date) -> None:
    """A petition to revive: only an abandoned application, within 2 months of abandonment."""
    if app.status_code != "602" or app.abandoned_on is None:
        raise Conflict(f"{app.id} is not abandoned (status {app.status_code}); nothing to revive.")
    last = add_months(app.abandoned_on, REVIVE_MONTHS)
    if today > last:
        raise Unprocessable(f"{app.id} was abandoned on {app.abandoned_on}; the 2-month period to petition to revive "
                            f"ended on {last}.")


def open_action(actions: list[OfficeAction]) -> Optional[OfficeAction]:
    """The latest open office action of an application, if any."""
    live = [a for a in actions if a.status == "open"]
    return max(live, key=lambda a: a.issued_on) if live else None
