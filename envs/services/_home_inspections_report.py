"""Report tools of the home_inspections service: read, write and publish the defect report.

A mixin of :class:`compoworld_gym.envs.services.home_inspections.HomeInspections`:
it uses the service's ``_inspection``, ``_defects`` and ``_view``.
"""

from __future__ import annotations

from typing import Optional

from pydantic import Field

from compoworld_gym.entities import Id, Money
from compoworld_gym.envs.services._blocks import eq, select, send
from compoworld_gym.envs.services._commerce import money
from compoworld_gym.envs.services._home_inspections_models import Defect, Inspection, Section, Severity
from compoworld_gym.envs.services._home_inspections_rules import INSPECTION, balance_due, summary
from compoworld_gym.errors import Conflict, InvalidArgument, Unprocessable
from compoworld_gym.service import tool


class ReportMixin:
    """The inspection report and the company's notes; its methods become tools of the service."""

    @tool(read_only=True)
    def get_report(self, inspection_id: Id("home_inspection")) -> dict:
        """The inspection report: defects by section (most serious first), counts by severity and repair estimate.

        Args:
            inspection_id: the inspection.
        """
        i = self._inspection(inspection_id)
        return {"inspection_id": i.id, "address": i.address, "client_name": i.client_name,
                "published": i.report_published, "published_at": i.report_published_at,
                "locked": not (i.paid and i.agreed), **summary(self._defects(i.id))}

    @tool(read_only=True, returns=list[Defect])
    def list_defects(self, inspection_id: Optional[Id("home_inspection")] = None, section: Optional[Section] = None,
                     severity: Optional[Severity] = None, limit: int = Field(default=100, ge=1, le=500)) -> list[dict]:
        """List report defects by inspection, section or severity.

        Args:
            inspection_id: only this inspection's defects.
            section: report section, e.g. Roof or Electrical.
            severity: maintenance_item, recommendation or safety_hazard.
            limit: maximum number of defects (1-500).
        """
        if inspection_id is not None:
            self._inspection(inspection_id)
        return [d.model_dump() for d in select(self.state.defects.values(), eq("inspection_id", inspection_id),
                                               eq("section", section), eq("severity", severity), limit=limit)]

    @tool(read_only=False, returns=Defect)
    def add_defect(self, inspection_id: Id("home_inspection"), section: Section, severity: Severity,
                   title: str = Field(min_length=3, max_length=120),
                   contractor: str = Field(min_length=3, max_length=80),
                   estimate_low: Money = Field(ge=0, le=1_000_000), estimate_high: Money = Field(ge=0, le=1_000_000),
                   location: str = Field(default="", max_length=120),
                   comment: str = Field(default="", max_length=2000)) -> dict:
        """Write a defect into an unpublished report, with its repair estimate range.

        Args:
            inspection_id: a confirmed or completed inspection whose report is not published.
            section: report section, e.g. Electrical.
            severity: maintenance_item, recommendation or safety_hazard.
            title: short title, e.g. Missing GFCI protection.
            contractor: who should repair it, e.g. Licensed electrician.
            estimate_low: low end of the repair estimate (USD).
            estimate_high: high end (USD), at least estimate_low.
            location: where in the home.
            comment: the inspector's narrative.
        """
        i = self._inspection(inspection_id)
        INSPECTION.check(i.id, i.status, "write the report")
        if i.report_published:
            raise Conflict(f"the report of {i.id} is published and final.")
        if estimate_high < estimate_low:
            raise InvalidArgument("estimate_high is below estimate_low.")
        d = Defect(id=self.new_id("DEF"), inspection_id=i.id, section=section, severity=severity, title=title,
                   location=location, comment=comment, contractor=contractor, estimate_low=money(estimate_low),
                   estimate_high=money(estimate_high), created_at=self.now())
        self.state.defects[d.id] = d
        return d.model_dump()

    @tool(read_only=False, destructive=True, returns=Defect)
    def remove_defect(self, defect_id: Id("inspection_defect")) -> dict:
        """Delete a defect from an unpublished report.

        Args:
            defect_id: the defect, e.g. DEF-0003.
        """
        d = self.lookup(self.state.defects, defect_id, "defect")
        if self.state.inspections[d.inspection_id].report_published:
            raise Conflict(f"the report of {d.inspection_id} is published and final.")
        del self.state.defects[d.id]
        return d.model_dump()

    @tool(read_only=False, returns=Inspection)
    def publish_report(self, inspection_id: Id("home_inspection")) -> dict:
        """Publish a completed inspection's report and send Report Ready to the client and agents.

        Needs the agreement signed and the fee paid in full.

        Args:
            inspection_id: a completed inspection.
        """
        i = self._inspection(inspection_id)
        if i.report_published:
            raise Conflict(f"the report of {i.id} is already published.")
        INSPECTION.check(i.id, i.status, "publish")
        if not i.agreed:
            raise Unprocessable(f"the agreement of {i.id} is not signed; the client signs it before the report "
                                "is published.")
        if not i.paid:
            raise Unprocessable(f"inspection {i.id} has {balance_due(i):,.2f} due; the fee is paid in full before "
                                "the report is published.")
        i.report_published, i.report_published_at = True, self.now()
        to = [e for e in (i.client_email, i.buyer_agent_email, i.listing_agent_email) if e]
        send(self, self.state.outbox, to=to, subject=f"Inspection report ready: {i.address}",
             body=f"The inspection report for {i.address} is ready to view.", about=i.id)
        return self._view(i)

    @tool(read_only=False, returns=Inspection)
    def add_internal_note(self, inspection_id: Id("home_inspection"),
                          note: str = Field(min_length=1, max_length=1000)) -> dict:
        """Add a company-only note to an inspection.

        Args:
            inspection_id: the inspection.
            note: the note text.
        """
        i = self._inspection(inspection_id)
        i.internal_notes.append(note)
        return self._view(i)
