"""The court calendar half of the ``court_filings`` service: courts, hearings and reservations.

:class:`CourtCalendar` sets no ``name``, so it is not a service of its own;
:class:`~compoworld_gym.envs.services.court_filings.CourtFilings` adds the
case, filing and service-contact tools. It holds the case and hearing
lookups and the Court Scheduling MDE operations (``GetCourtSchedule``,
``ReserveCourtDate``) with the calendar rules of ``_court_filings_rules``.
"""

from __future__ import annotations

from typing import Literal, Optional

from pydantic import Field

from compoworld_gym.entities import Date, Id
from compoworld_gym.envs.services import _court_filings_rules as rules
from compoworld_gym.envs.services._blocks import eq, select
from compoworld_gym.envs.services._court_filings_models import (
    COURTS, HEARING_TIMES, CourtCase, Hearing, HearingStatus, HearingTime, HearingType, court_day_problem,
    court_holidays,
)
from compoworld_gym.errors import Conflict, Unprocessable
from compoworld_gym.service import Service, tool

CourtCode = Literal["riverton:cv", "riverton:lc", "marlow:cir"]


class CourtCalendar(Service):
    """Courts, the court calendar and hearings; the case and hearing lookups of every court_filings tool."""

    # ---------------------------------------------------------------- helpers
    def _case(self, case_id: str) -> CourtCase:
        return self.lookup(self.state.cases, case_id, "court case")


    def _hearing(self, hearing_id: str) -> Hearing:
        return self.lookup(self.state.hearings, hearing_id, "hearing")


    # ------------------------------------------------------------------ reads
    @tool(read_only=True)
    def list_courts(self) -> list[dict]:
        """The court locations: code, name, courtrooms with their judges, case types and this year's holidays."""
        holidays = court_holidays(self.today.year)
        return [{"code": c.code, "name": c.name, "city": c.city,
                 "courtrooms": [{"courtroom": r, "judge": j} for r, j in c.courtrooms.items()],
                 "case_types": list(c.case_types), "calendar_times": list(HEARING_TIMES),
                 "holidays": [{"date": d, "name": n} for d, n in sorted(holidays.items())]} for c in COURTS.values()]

    @tool(read_only=True, returns=list[Hearing])
    def list_hearings(self, case_id: Optional[Id("court_case")] = None, court: Optional[CourtCode] = None,
                      status: Optional[HearingStatus] = None, date_from: Optional[Date] = None,
                      date_to: Optional[Date] = None) -> list[dict]:
        """List hearings by case, court, status or date range, earliest first.

        Args:
            case_id: only this case's hearings.
            court: only this court's calendar.
            status: scheduled, vacated or held.
            date_from: first day (YYYY-MM-DD).
            date_to: last day (YYYY-MM-DD).
        """
        rows = select(self.state.hearings.values(), eq("case_id", case_id), eq("court", court), eq("status", status),
                      (lambda h: h.date >= date_from) if date_from else None,
                      (lambda h: h.date <= date_to) if date_to else None)
        return [h.model_dump() for h in sorted(rows, key=lambda h: (h.date, h.time, h.id))]

    @tool(read_only=True, returns=list[Hearing])
    def get_court_schedule(self, court: CourtCode, date: Date) -> dict:
        """One day of a court's calendar (GetCourtSchedule): each courtroom's hearings and free calendar times.

        Args:
            court: court location code.
            date: the day (YYYY-MM-DD).
        """
        c = COURTS[court]
        problem = court_day_problem(date)
        rooms = []
        for room, judge in c.courtrooms.items():
            heard = sorted((h for h in self.state.hearings.values() if h.court == court and h.courtroom == room
                            and h.date == date and h.status == "scheduled"), key=lambda h: h.time)
            taken = {h.time for h in heard}
            rooms.append({"courtroom": room, "judge": judge, "hearings": [h.model_dump() for h in heard],
                          "free_times": [] if problem else [t for t in HEARING_TIMES if t not in taken]})
        return {"court": court, "date": date, "court_day": problem is None, "closed_reason": problem,
                "courtrooms": rooms}

    @tool(read_only=True)
    def get_available_court_dates(self, case_id: Id("court_case"), courtroom: Optional[str] = None,
                                  start_date: Optional[Date] = None, limit: int = Field(default=5, ge=1, le=20)
                                  ) -> dict:
        """The next free hearing slots (court days after today) in the case's courtroom, earliest first.

        Args:
            case_id: the case.
            courtroom: another courtroom of the case's court (default: the case's assigned one).
            start_date: earliest day to consider (YYYY-MM-DD).
            limit: how many slots (1-20).
        """
        case = self._case(case_id)
        room = courtroom or case.courtroom
        if room not in COURTS[case.court].courtrooms:
            raise Unprocessable(f"{room!r} is not a courtroom of {case.court_name}.")
        return {"case_id": case.id, "courtroom": room,
                "slots": rules.free_slots(self.state, case, room, self.today, start_date or self.today, limit)}

    # ----------------------------------------------------------------- writes
    @tool(read_only=False, returns=Hearing)
    def reserve_court_date(self, case_id: Id("court_case"), hearing_type: HearingType, date: Date, time: HearingTime,
                           courtroom: Optional[str] = None) -> dict:
        """Reserve a hearing on the court calendar (ReserveCourtDate): a future court day, a free courtroom time.

        Args:
            case_id: the case (must be open).
            hearing_type: the kind of hearing.
            date: the day (YYYY-MM-DD): after today, not a weekend or court holiday.
            time: calendar time: 08:30, 10:00, 13:30 or 15:00.
            courtroom: a courtroom of the case's court (default: the case's assigned one).
        """
        case = self._case(case_id)
        rules.require_open(case, "hearing reservations")
        room = courtroom or case.courtroom
        rules.check_slot(self.state, case, room, date, time, self.today)
        same = next((h for h in self.state.hearings.values() if h.case_id == case.id and h.status == "scheduled"
                     and h.hearing_type == hearing_type), None)
        if same is not None:
            raise Conflict(f"case {case.case_number} already has a {hearing_type} on {same.date} ({same.id}); "
                           "reschedule or vacate it instead.")
        h = Hearing(id=self.new_id("HRG"), case_id=case.id, case_number=case.case_number, court=case.court,
                    courtroom=room, judge=COURTS[case.court].courtrooms[room], hearing_type=hearing_type, date=date,
                    time=time, status="scheduled")
        self.state.hearings[h.id] = h
        return h.model_dump()

    @tool(read_only=False, returns=Hearing)
    def reschedule_hearing(self, hearing_id: Id("hearing"), date: Date, time: HearingTime) -> dict:
        """Move a scheduled hearing to another free time of its courtroom on a future court day.

        Args:
            hearing_id: the scheduled hearing.
            date: the new day (YYYY-MM-DD).
            time: the new calendar time.
        """
        h = self._hearing(hearing_id)
        if h.status != "scheduled":
            raise Conflict(f"hearing {h.id} is {h.status}; only a scheduled hearing can be moved.")
        case = self._case(h.case_id)
        rules.require_open(case, "hearing changes")
        rules.check_slot(self.state, case, h.courtroom, date, time, self.today, ignore=h.id)
        h.note = f"Continued from {h.date} {h.time}."
        h.date, h.time = date, time
        return h.model_dump()

    @tool(read_only=False, returns=Hearing)
    def vacate_hearing(self, hearing_id: Id("hearing"), reason: str = Field(min_length=3, max_length=300)) -> dict:
        """Take a scheduled hearing off calendar, freeing its courtroom time.

        Args:
            hearing_id: the scheduled hearing.
            reason: why it is vacated.
        """
        h = self._hearing(hearing_id)
        if h.status != "scheduled":
            raise Conflict(f"hearing {h.id} is {h.status}; only a scheduled hearing can be vacated.")
        h.status, h.note = "vacated", f"Vacated: {reason}"
        return h.model_dump()
