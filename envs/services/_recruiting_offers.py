"""Offer and hire tools of the recruiting service (Greenhouse ``/offers`` and ``/applications/{id}/hire``).

A mixin of :class:`compoworld_gym.envs.services.recruiting.Recruiting`: it uses
the service's ``_app``, ``_offers_of``, ``_require_interviewed`` and ``_enter``.
"""

from __future__ import annotations

from typing import Literal, Optional

from pydantic import Field

from compoworld_gym.entities import Date, Id, Money
from compoworld_gym.envs.services._recruiting_models import Application, Offer, require_active
from compoworld_gym.errors import Conflict, NotFound, Unprocessable
from compoworld_gym.service import tool


class OffersMixin:
    """Offers (make, resolve) and hires; the mixin's methods become tools of the service."""

    @tool(read_only=False, returns=Offer)
    def create_offer(self, application_id: Id("job_application"), salary: Money = Field(ge=10000, le=1000000),
                     start_date: Date = ...) -> dict:
        """Make an offer on an application in the Offer stage that has a completed interview.

        Args:
            application_id: the application.
            salary: annual base salary (USD).
            start_date: proposed start date, after today.
        """
        app = self._app(application_id)
        require_active(app, "making an offer")
        if app.current_stage != "Offer":
            raise Unprocessable(f"application {app.id} is in {app.current_stage}; move it to Offer first.")
        self._require_interviewed(app, "an offer")
        if any(o.status == "unresolved" for o in self._offers_of(app.id)):
            raise Conflict(f"application {app.id} already has an unresolved offer.")
        if start_date <= self.today:
            raise Unprocessable(f"start_date {start_date} must be after today ({self.today}).")
        o = Offer(id=self.new_id("OFR"), application_id=app.id, salary=round(salary, 2), start_date=start_date,
                  status="unresolved", created_at=self.now())
        self.state.offers[o.id] = o
        return o.model_dump()

    @tool(read_only=False, returns=Offer)
    def resolve_offer(self, offer_id: str, status: Literal["accepted", "rejected"]) -> dict:
        """Record the candidate's answer to an unresolved offer: accepted or rejected.

        Args:
            offer_id: the offer id, e.g. OFR-0002.
            status: accepted or rejected.
        """
        o = self.lookup(self.state.offers, offer_id, "offer")
        if o.status != "unresolved":
            raise Conflict(f"offer {o.id} is {o.status}; only an unresolved offer can be resolved.")
        o.status, o.resolved_at = status, self.now()
        return o.model_dump()

    @tool(read_only=False, returns=Application)
    def hire_application(self, application_id: Id("job_application"), opening_id: Optional[str] = None,
                         start_date: Optional[Date] = None) -> dict:
        """Hire an application with an accepted offer into an open opening of its job (final).

        Args:
            application_id: the application.
            opening_id: the opening to fill; default the job's first open one.
            start_date: start date; default the accepted offer's.
        """
        app = self._app(application_id)
        require_active(app, "hiring")
        offer = next((o for o in self._offers_of(app.id) if o.status == "accepted"), None)
        if offer is None:
            raise Unprocessable(f"application {app.id} has no accepted offer.")
        job = self.state.jobs[app.job_id]
        free = [op for op in job.openings if op.status == "open" and opening_id in (None, op.opening_id)]
        if not free:
            if opening_id is not None and all(op.opening_id != opening_id for op in job.openings):
                raise NotFound(f"opening {opening_id!r} not found on job {job.id}; get_job lists its openings.")
            raise Unprocessable(f"job {job.id} has no open opening{' ' + opening_id if opening_id else ''}.")
        free[0].status, free[0].application_id = "filled", app.id
        app.status, app.hired_at, app.start_date = "hired", self.now(), start_date or offer.start_date
        if app.current_stage != "Offer":
            self._enter(app, "Offer")
        return app.model_dump()

