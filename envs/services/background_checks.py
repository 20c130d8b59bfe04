"""Background checks: candidates, invitations, reports and the adverse action process.

No background-check server is in ``compoworld_gym/data/mcp_servers.jsonl``
(``spec_source = None``); the interface follows the Checkr API v1:
``/candidates`` (with ``custom_id``, here the recruiting application id),
``/invitations`` (hosted apply flow, where the candidate consents),
``/reports`` with ``package``, ``status`` (pending, complete, canceled),
``result`` (clear, consider), ``adjudication`` and screenings
(``ssn_trace``, ``sex_offender_search``, ``national_criminal_search``,
``county_criminal_search``, ``motor_vehicle_report``), report tags, and
``/reports/{id}/adverse_actions`` (pre-adverse notice, then the post-adverse
notice after the waiting period). Packages: ``basic`` and ``pro`` (adds a
county search and an MVR).

The candidates are the recruiting service's late-stage applicants (same
names and emails, see :mod:`._background_checks_seed`). Rules: a report
only for a candidate who consented (a completed invitation) and, for an
MVR, gave a driver license; one pending invitation or report at a time;
adverse action only on a complete ``consider`` report not yet adjudicated;
the post-adverse notice not before the 7-day waiting period ends. Left out:
geos, nodes, continuous monitoring, documents and webhooks; reports
complete on Checkr's side, so no tool completes one.
"""

from __future__ import annotations

import datetime as dt
import random
from typing import Optional

from faker import Faker
from pydantic import Field

from compoworld_gym.entities import Email, Id, Phone
from compoworld_gym.envs.services._background_checks_models import (
    INVITATION_DAYS, PACKAGES, WAITING_DAYS, Adjudication, AdverseAction, AdverseStatus, BackgroundChecksState,
    Candidate, Invitation, InvitationStatus, PackageSlug, Report, ReportResult, ReportStatus, screenings_for,
)
from compoworld_gym.envs.services._background_checks_seed import build_state, invitation_url
from compoworld_gym.envs.services._blocks import eq, ieq, require_status, select
from compoworld_gym.envs.services.recruiting import Recruiting
from compoworld_gym.errors import Conflict, Unprocessable
from compoworld_gym.service import Service, tool

_FAKE = Faker("en_US")
#: Days a new report takes (the ETA shown while it is pending).
TURNAROUND_DAYS = 3


class BackgroundChecks(Service):
    """Checkr-style employment screening: candidates, invitations, reports, adverse actions."""

    name = "background_checks"
    description = ("Pre-employment background checks: candidates, consent invitations, reports (clear/consider) "
                   "with screenings, adjudication and the adverse action process.")
    domain = "hr"
    spec_source = None
    State = BackgroundChecksState

    # ---------------------------------------------------------------- helpers
    def _candidate(self, candidate_id: str) -> Candidate:
        return self.lookup(self.state.candidates, candidate_id, "candidate")

    def _report(self, report_id: str) -> Report:
        return self.lookup(self.state.reports, report_id, "report")

    def _action(self, adverse_action_id: str) -> AdverseAction:
        return self.lookup(self.state.adverse_actions, adverse_action_id, "adverse action")

    def _status(self, inv: Invitation) -> str:
        """The invitation's status today (a pending link past its last day has expired)."""
        return "expired" if inv.status == "pending" and self.today > inv.expires_at else inv.status

    def _inv_view(self, inv: Invitation) -> dict:
        return {**inv.model_dump(), "status": self._status(inv)}

    def _live_action(self, report_id: str) -> Optional[AdverseAction]:
        return next((a for a in self.state.adverse_actions.values()
                     if a.report_id == report_id and a.status == "pending"), None)

    def _busy(self, cand: Candidate) -> None:
        """Refuse a second check while one is under way."""
        inv = next((i for i in self.state.invitations.values()
                    if i.candidate_id == cand.id and self._status(i) == "pending"), None)
        if inv is not None:
            raise Conflict(f"candidate {cand.id} has a pending invitation {inv.id} (expires {inv.expires_at}).")
        rep = next((r for r in self.state.reports.values() if r.candidate_id == cand.id and r.status == "pending"), None)
        if rep is not None:
            raise Conflict(f"candidate {cand.id} already has report {rep.id} in progress.")

    # ------------------------------------------------------------------ reads
    @tool(read_only=True)
    def list_packages(self) -> list[dict]:
        """The account's packages: slug, name, price (USD) and screenings."""
        return [{"slug": p.slug, "name": p.name, "price": p.price, "screenings": list(p.screenings)}
                for p in PACKAGES.values()]

    @tool(read_only=True, returns=list[Candidate])
    def list_candidates(self, email: Optional[Email] = None, custom_id: Optional[Id("job_application")] = None,
                        limit: int = Field(default=50, ge=1, le=200)) -> list[dict]:
        """Candidates, found by email or by custom_id (the recruiting application id).

        Args:
            email: the candidate's email (case-insensitive).
            custom_id: the applicant-tracking id, e.g. APP-0003.
            limit: maximum number of candidates (1-200).
        """
        return [c.model_dump() for c in select(self.state.candidates.values(), ieq("email", email),
                                               eq("custom_id", custom_id), limit=limit)]

    @tool(read_only=True, returns=Candidate)
    def get_candidate(self, candidate_id: str) -> dict:
        """A candidate with their invitations and report ids.

        Args:
            candidate_id: the candidate id, e.g. CND-0002.
        """
        c = self._candidate(candidate_id)
        return {**c.model_dump(), "invitations": [self._inv_view(i) for i in self.state.invitations.values()
                                                  if i.candidate_id == c.id],
                "report_ids": [r.id for r in self.state.reports.values() if r.candidate_id == c.id]}

    @tool(read_only=True, returns=list[Invitation])
    def list_invitations(self, candidate_id: Optional[str] = None, status: Optional[InvitationStatus] = None) -> list[dict]:
        """Invitations, by candidate or status (pending links past their last day show as expired).

        Args:
            candidate_id: the candidate.
            status: pending, completed, expired or canceled.
        """
        rows = [self._inv_view(i) for i in select(self.state.invitations.values(), eq("candidate_id", candidate_id))]
        return [r for r in rows if status is None or r["status"] == status]

    @tool(read_only=True, returns=list[Report])
    def list_reports(self, candidate_id: Optional[str] = None, status: Optional[ReportStatus] = None,
                     result: Optional[ReportResult] = None, adjudication: Optional[Adjudication] = None) -> list[dict]:
        """Reports (oldest first), by candidate, status, result or adjudication.

        Args:
            candidate_id: the candidate.
            status: pending, complete or canceled.
            result: clear or consider.
            adjudication: engaged, pre_adverse_action or post_adverse_action.
        """
        rows = select(self.state.reports.values(), eq("candidate_id", candidate_id), eq("status", status),
                      eq("result", result), eq("adjudication", adjudication))
        return [r.model_dump() for r in rows]

    @tool(read_only=True, returns=Report)
    def get_report(self, report_id: Id("background_check")) -> dict:
        """A report with its screenings, the candidate's email and any adverse action.

        Args:
            report_id: the report id, e.g. RPT-0003.
        """
        r = self._report(report_id)
        cand = self._candidate(r.candidate_id)
        actions = [a.model_dump() for a in self.state.adverse_actions.values() if a.report_id == r.id]
        return {**r.model_dump(), "candidate_email": cand.email, "custom_id": cand.custom_id,
                "adverse_actions": actions}

    @tool(read_only=True, returns=list[AdverseAction])
    def list_adverse_actions(self, report_id: Optional[Id("background_check")] = None,
                             status: Optional[AdverseStatus] = None) -> list[dict]:
        """Adverse actions, by report or status.

        Args:
            report_id: the report.
            status: pending, complete or canceled.
        """
        rows = select(self.state.adverse_actions.values(), eq("report_id", report_id), eq("status", status))
        return [a.model_dump() for a in rows]

    @tool(read_only=True, returns=AdverseAction)
    def get_adverse_action(self, adverse_action_id: str) -> dict:
        """Get one adverse action.

        Args:
            adverse_action_id: the id, e.g. AA-0001.
        """
        return self._action(adverse_action_id).model_dump()

    # ----------------------------------------------------------------- writes
    @tool(read_only=False, returns=Candidate)
    def create_candidate(self, first_name: str = Field(min_length=1, max_length=60),
                         last_name: str = Field(min_length=1, max_length=60), email: Email = Field(max_length=120),
                         phone: Optional[Phone] = None, custom_id: Optional[Id("job_application")] = None,
                         driver_license_number: Optional[str] = Field(default=None, min_length=4, max_length=20),
                         driver_license_state: Optional[str] = Field(default=None, pattern=r"^[A-Z]{2}$")) -> dict:
        """Create a candidate (the email must be new).

        Args:
            first_name: first name.
            last_name: last name.
            email: the candidate's email.
            phone: phone.
            custom_id: the recruiting application id.
            driver_license_number: needed for a pro (MVR) report.
            driver_license_state: issuing state, two letters.
        """
        if any(c.email.lower() == email.lower() for c in self.state.candidates.values()):
            raise Conflict(f"a candidate with email {email} exists; find it with list_candidates.")
        c = Candidate(id=self.new_id("CND"), first_name=first_name, last_name=last_name, email=email, phone=phone,
                      custom_id=custom_id, driver_license_number=driver_license_number,
                      driver_license_state=driver_license_state, created_at=self.now())
        self.state.candidates[c.id] = c
        return c.model_dump()

    @tool(read_only=False, returns=Invitation)
    def create_invitation(self, candidate_id: str, package: PackageSlug) -> dict:
        """Send the candidate an invitation to consent and give their details; valid 7 days.

        Args:
            candidate_id: the candidate (no pending invitation or report).
            package: basic or pro.
        """
        cand = self._candidate(candidate_id)
        self._busy(cand)
        iid = self.new_id("IVT")
        inv = Invitation(id=iid, candidate_id=cand.id, package=package, status="pending",
                         invitation_url=invitation_url(iid), created_at=self.now(),
                         expires_at=self.today + dt.timedelta(days=INVITATION_DAYS))
        self.state.invitations[iid] = inv
        return inv.model_dump()

    @tool(read_only=False, destructive=True, returns=Invitation)
    def cancel_invitation(self, invitation_id: str) -> dict:
        """Cancel a pending invitation.

        Args:
            invitation_id: the invitation id, e.g. IVT-0004.
        """
        inv = self.lookup(self.state.invitations, invitation_id, "invitation")
        require_status("invitation", inv.id, self._status(inv), ("pending",), "cancel")
        inv.status = "canceled"
        return inv.model_dump()

    @tool(read_only=False, returns=Report)
    def create_report(self, candidate_id: str, package: PackageSlug) -> dict:
        """Order a report for a candidate who has consented (completed an invitation); it starts pending.

        Args:
            candidate_id: the candidate (consent on file; a pro report also needs a driver license).
            package: basic or pro.
        """
        cand = self._candidate(candidate_id)
        if cand.consent_given_at is None:
            raise Unprocessable(f"candidate {cand.id} has not consented; send an invitation with create_invitation "
                                "and wait for the candidate to complete it.")
        if package == "pro" and not (cand.driver_license_number and cand.driver_license_state):
            raise Unprocessable(f"a pro report runs a motor vehicle report; candidate {cand.id} has no driver license "
                                "on file.")
        self._busy(cand)
        rep = Report(id=self.new_id("RPT"), candidate_id=cand.id, package=package, status="pending",
                     screenings=screenings_for(package, pending=True), created_at=self.now(),
                     estimated_completion_date=self.today + dt.timedelta(days=TURNAROUND_DAYS))
        self.state.reports[rep.id] = rep
        return rep.model_dump()

    @tool(read_only=False, returns=Report)
    def engage_report(self, report_id: Id("background_check")) -> dict:
        """Engage a complete report: the candidate is cleared to be hired.

        Args:
            report_id: a complete report not yet adjudicated (409 otherwise).
        """
        r = self._report(report_id)
        require_status("report", r.id, r.status, ("complete",), "engage")
        if r.adjudication is not None:
            raise Conflict(f"report {r.id} is already adjudicated ({r.adjudication}).")
        r.adjudication = "engaged"
        return r.model_dump()

    @tool(read_only=False, returns=AdverseAction)
    def create_adverse_action(self, report_id: Id("background_check"),
                              adverse_items: Optional[list[str]] = Field(default=None, max_length=10)) -> dict:
        """Send the pre-adverse action notice on a consider report; the waiting period of 7 days starts.

        Args:
            report_id: a complete report with result consider, not yet adjudicated.
            adverse_items: the report's records the decision rests on (default: all of them).
        """
        r = self._report(report_id)
        require_status("report", r.id, r.status, ("complete",), "adverse action")
        if r.result != "consider":
            raise Unprocessable(f"report {r.id} is {r.result}; adverse action is only for a consider report.")
        if r.adjudication is not None:
            raise Conflict(f"report {r.id} is already adjudicated ({r.adjudication}).")
        found = [rec for s in r.screenings for rec in s.records]
        items = list(dict.fromkeys(adverse_items)) if adverse_items else found
        wrong = [i for i in items if i not in found]
        if wrong or not items:
            raise Unprocessable(f"adverse items must be records of report {r.id}: {found}.")
        sent = self.now()
        a = AdverseAction(id=self.new_id("AA"), report_id=r.id, status="pending", adverse_items=items,
                          pre_notice_sent_at=sent, post_notice_ready_at=sent.date() + dt.timedelta(days=WAITING_DAYS))
        self.state.adverse_actions[a.id] = a
        r.adjudication = "pre_adverse_action"
        return a.model_dump()

    @tool(read_only=False, returns=AdverseAction)
    def send_post_adverse_action(self, adverse_action_id: str) -> dict:
        """Send the post-adverse action notice (the final decision), once the waiting period is over.

        Args:
            adverse_action_id: a pending adverse action whose post_notice_ready_at has come (422 before).
        """
        a = self._action(adverse_action_id)
        require_status("adverse action", a.id, a.status, ("pending",), "post-adverse notice")
        if self.today < a.post_notice_ready_at:
            raise Unprocessable(f"the waiting period of {a.id} runs until {a.post_notice_ready_at}; the post-adverse "
                                "notice cannot be sent before.")
        a.status, a.post_notice_sent_at = "complete", self.now()
        self._report(a.report_id).adjudication = "post_adverse_action"
        return a.model_dump()

    @tool(read_only=False, returns=AdverseAction)
    def cancel_adverse_action(self, adverse_action_id: str) -> dict:
        """Cancel a pending adverse action (e.g. after the candidate's explanation); the report is open to engage.

        Args:
            adverse_action_id: a pending adverse action.
        """
        a = self._action(adverse_action_id)
        require_status("adverse action", a.id, a.status, ("pending",), "cancel")
        a.status, a.canceled_at = "canceled", self.now()
        self._report(a.report_id).adjudication = None
        return a.model_dump()

    @tool(read_only=False, returns=Report)
    def add_report_tags(self, report_id: Id("background_check"),
                        tags: list[str] = Field(min_length=1, max_length=10)) -> dict:
        """Add tags to a report (new tags only are added; at most 20 per report).

        Args:
            report_id: the report.
            tags: tags, each 1-80 characters.
        """
        r = self._report(report_id)
        if any(not 1 <= len(t) <= 80 for t in tags):
            raise Unprocessable("each tag is 1 to 80 characters.")
        new = [t for t in dict.fromkeys(tags) if t not in r.tags]
        if not new:
            raise Conflict(f"report {r.id} already has those tags.")
        if len(r.tags) + len(new) > 20:
            raise Unprocessable(f"report {r.id} has {len(r.tags)} tags; a report takes at most 20.")
        r.tags.extend(new)
        return r.model_dump()

    # ------------------------------------------------------------------ seeds
    @classmethod
    def seed_state(cls, seed: int, today: dt.date) -> BackgroundChecksState:
        """The seeded state on recruiting's seeded pipeline for the same seed (same names, emails, application ids)."""
        rng = random.Random(f"{cls.name}:{seed}")
        _FAKE.seed_instance(rng.getrandbits(32))
        return build_state(Recruiting.seed_state(seed, today), _FAKE, rng, today)

    @classmethod
    def build_seed_state(cls, fake: Faker, rng: random.Random, today: dt.date) -> BackgroundChecksState:
        """A state on a recruiting pipeline drawn from the same stream (used without a seed number)."""
        return build_state(Recruiting.build_seed_state(fake, rng, today), fake, rng, today)


__all__ = ["BackgroundChecks"]
