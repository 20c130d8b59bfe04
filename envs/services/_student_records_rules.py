"""School calendar, grading scale and scheduling rules of the student_records service.

The school year runs from August 20 (S1 to December 19) and from January 5
(S2 to June 5); the district's holidays are closed weekdays. Grades follow
the common 4.0 scale (A 93+, A- 90+, ... D 65+, F below); GPA is the
credit-weighted mean of the stored grades' points.

Example:
    >>> letter_grade(91.5)
    ('A-', 3.7)
    >>> import datetime as dt
    >>> terms, closed = school_calendar(dt.date(2026, 1, 15))
    >>> [t.id for t in terms], closed[-1].description
    (['Y1', 'S1', 'S2'], 'Memorial Day')
    >>> school_day_problem(dt.date(2026, 1, 19), terms, closed)
    'is Martin Luther King Jr. Day (no school)'
"""

from __future__ import annotations

import datetime as dt
from typing import Iterable, Optional

from compoworld_gym.envs.services._student_records_models import NonSchoolDay, StoredGrade, Term

#: (lowest percent, letter, points), best first.
SCALE: tuple[tuple[float, str, float], ...] = (
    (93, "A", 4.0), (90, "A-", 3.7), (87, "B+", 3.3), (83, "B", 3.0), (80, "B-", 2.7), (77, "C+", 2.3),
    (73, "C", 2.0), (70, "C-", 1.7), (67, "D+", 1.3), (65, "D", 1.0), (0, "F", 0.0))
#: Days ahead an excused absence or field trip may be entered (a parent's note in advance).
ADVANCE_DAYS = 14
#: Codes that may be entered ahead of the day.
ADVANCE_CODES = ("E", "FT")


def letter_grade(percent: float) -> tuple[str, float]:
    """``(letter, points)`` of a percent on :data:`SCALE`."""
    return next((letter, pts) for low, letter, pts in SCALE if percent >= low)


def _nth_weekday(year: int, month: int, weekday: int, n: int) -> dt.date:
    """The ``n``-th ``weekday`` (0 = Monday) of a month; ``n = -1`` for the last one."""
    if n > 0:
        first = dt.date(year, month, 1)
        return first + dt.timedelta(days=(weekday - first.weekday()) % 7 + 7 * (n - 1))
    nxt = dt.date(year + month // 12, month % 12 + 1, 1)
    last = nxt - dt.timedelta(days=1)
    return last - dt.timedelta(days=(last.weekday() - weekday) % 7)


def school_calendar(today: dt.date) -> tuple[list[Term], list[NonSchoolDay]]:
    """The terms and closed weekdays of the school year ``today`` falls in (it starts in August)."""
    y = today.year if today.month >= 7 else today.year - 1
    year_id = f"{y}-{y + 1}"
    terms = [Term(id="Y1", name="Full Year", year_id=year_id, first_day=dt.date(y, 8, 20),
                  last_day=dt.date(y + 1, 6, 5)),
             Term(id="S1", name="Semester 1", year_id=year_id, first_day=dt.date(y, 8, 20),
                  last_day=dt.date(y, 12, 19)),
             Term(id="S2", name="Semester 2", year_id=year_id, first_day=dt.date(y + 1, 1, 5),
                  last_day=dt.date(y + 1, 6, 5))]
    thanksgiving = _nth_weekday(y, 11, 3, 4)
    spring = _nth_weekday(y + 1, 3, 0, -1)
    days = [(_nth_weekday(y, 9, 0, 1), "Labor Day"), (_nth_weekday(y, 10, 4, 2), "Teacher in-service day"),
            (thanksgiving, "Thanksgiving"), (thanksgiving + dt.timedelta(days=1), "Thanksgiving break"),
            (_nth_weekday(y + 1, 1, 0, 3), "Martin Luther King Jr. Day"), (_nth_weekday(y + 1, 2, 0, 3),
                                                                          "Presidents' Day"),
            *[(spring + dt.timedelta(days=k), "Spring break") for k in range(5)],
            (_nth_weekday(y + 1, 5, 0, -1), "Memorial Day")]
    return terms, [NonSchoolDay(date=d, description=why) for d, why in days]


def school_day_problem(day: dt.date, terms: Iterable[Term], closed: Iterable[NonSchoolDay]) -> Optional[str]:
    """Why ``day`` is not a school day (a phrase), or None when it is one."""
    if day.weekday() >= 5:
        return f"is a {day:%A}"
    holiday = next((c.description for c in closed if c.date == day), None)
    if holiday:
        return f"is {holiday} (no school)"
    semesters = [t for t in terms if t.id != "Y1"]
    if not any(t.first_day <= day <= t.last_day for t in semesters):
        return "is outside the terms (a break or the summer)"
    return None


def school_days_before(today: dt.date, n: int) -> list[dt.date]:
    """The last ``n`` school days before ``today``, most recent first."""
    terms, closed = school_calendar(today)
    out, day = [], today
    for _ in range(400):
        day -= dt.timedelta(days=1)
        if school_day_problem(day, terms, closed) is None:
            out.append(day)
            if len(out) == n:
                break
    return out


def terms_overlap(a: Term, b: Term) -> bool:
    """Whether two terms share days (Y1 overlaps both semesters)."""
    return a.first_day <= b.last_day and b.first_day <= a.last_day


def storecodes_of(term_id: str) -> tuple[str, ...]:
    """The store codes a section of ``term_id`` takes grades for."""
    return ("S1", "S2") if term_id == "Y1" else (term_id,)


def gpa(grades: Iterable[StoredGrade]) -> Optional[float]:
    """Credit-weighted unweighted GPA (two decimals), None without grades."""
    grades = list(grades)
    credits = sum(g.potential_crhrs for g in grades)
    if not credits:
        return None
    return round(sum(g.gpa_points * g.potential_crhrs for g in grades) / credits, 2)
