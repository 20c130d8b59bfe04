"""Helpers and read tools of the trademarks service (TSDR case status, office actions, docket).

Kept apart from the Trademark Center writes in ``trademarks.py`` so each module stays short.
"""

from __future__ import annotations

from typing import Optional

from pydantic import Field

from compoworld_gym.entities import Date, Id, Sku
from compoworld_gym.envs.services._blocks import select
from compoworld_gym.envs.services._trademarks_models import (
    STATUS_CODES, ActionStatus, DocketEntry, Filing, FilingType, HistoryEntry, OfficeAction, StatusCode,
    TrademarkApplication,
)
from compoworld_gym.envs.services._trademarks_rules import maintenance_window, open_action
from compoworld_gym.errors import NotFound, Unprocessable
from compoworld_gym.service import Service, tool


class TrademarkReads(Service, register=False):
    """TSDR reads of the portfolio (the base of :class:`~compoworld_gym.envs.services.trademarks.Trademarks`)."""

    # --------------------------------------------------------------- helpers
    def _app(self, serial_number: str) -> TrademarkApplication:
        return self.lookup(self.state.applications, serial_number.strip(), "trademark application")

    def _oa(self, office_action_id: str) -> OfficeAction:
        return self.lookup(self.state.office_actions, office_action_id, "office action")

    def _actions(self, serial: str) -> list[OfficeAction]:
        return [a for a in self.state.office_actions.values() if a.serial_number == serial]

    def _oa_view(self, oa: OfficeAction) -> dict:
        app = self.state.applications[oa.serial_number]
        left = (oa.response_deadline - self.today).days
        return {**oa.model_dump(), "mark_literal": app.mark_literal, "application_status_code": app.status_code,
                "attorney_email": app.attorney_email, "firm_matter_id": app.firm_matter_id,
                "days_to_deadline": left,
                "deadline_passed": oa.status == "open" and left < 0,
                "extension_available": oa.status == "open" and not oa.extended and left >= 0}

    def _view(self, app: TrademarkApplication, full: bool = True) -> dict:
        oa = open_action(self._actions(app.id))
        body = app.model_dump(exclude=None if full else {"history"})
        return {**body, "status_description": STATUS_CODES[app.status_code],
                "open_office_action": self._oa_view(oa) if oa else None,
                "maintenance": maintenance_window(app, self.today)}

    def _signer(self, app: TrademarkApplication, signatory_email: Optional[str]) -> str:
        who = (signatory_email or app.attorney_email).strip().lower()
        if who != app.attorney_email.lower():
            raise Unprocessable(f"{app.id} is represented by {app.attorney_name} ({app.attorney_email}); only the "
                                "attorney of record may sign its filings.")
        return who

    def _history(self, app: TrademarkApplication, code: str, text: str) -> None:
        app.history.append(HistoryEntry(entry_number=len(app.history) + 1, date=self.today, code=code,
                                        description=text))

    def _file(self, app: TrademarkApplication, kind: str, signer: str, text: str = "", fee: float = 0.0,
              oa: Optional[str] = None) -> Filing:
        f = Filing(id=self.new_id("TC"), serial_number=app.id, filing_type=kind, office_action_id=oa,
                   filed_at=self.now(), text=text, signatory_email=signer,
                   classes=[g.nice_class for g in app.goods_services], fee=fee)
        self.state.filings[f.id] = f
        return f

    # ------------------------------------------------------------------ reads
    @tool(read_only=True, returns=TrademarkApplication)
    def get_case_status(self, serial_number: Id("trademark_application")) -> dict:
        """TSDR case status of one application or registration, with its open office action and maintenance.

        Args:
            serial_number: the 8-digit serial number, e.g. 98221457.
        """
        return self._view(self._app(serial_number))

    @tool(read_only=True, returns=TrademarkApplication)
    def get_by_registration_number(self, registration_number: str = Field(pattern=r"^\d{7}$")) -> dict:
        """TSDR case status looked up by registration number.

        Args:
            registration_number: the 7-digit registration number, e.g. 6512345.
        """
        app = next((a for a in self.state.applications.values() if a.registration_number == registration_number),
                   None)
        if app is None:
            raise NotFound(f"no registration {registration_number} in the portfolio.")
        return self._view(app)

    @tool(read_only=True, returns=list[TrademarkApplication])
    def search_marks(self, mark_literal: Optional[str] = Field(default=None, max_length=100),
                     status_code: Optional[StatusCode] = None,
                     nice_class: Optional[int] = Field(default=None, ge=1, le=45),
                     product_sku: Optional[Sku] = None, firm_matter_id: Optional[Id("matter")] = None,
                     limit: int = Field(default=50, ge=1, le=200)) -> list[dict]:
        """Search the portfolio by mark text, status code, Nice class, product or outside counsel's matter.

        Args:
            mark_literal: text the mark contains (case-insensitive), e.g. HUB.
            status_code: TSDR status code, e.g. 641 (non-final action mailed), 700 (registered), 602 (abandoned).
            nice_class: Nice international class, e.g. 9.
            product_sku: the company product the mark is used on, e.g. HB-USBC-03.
            firm_matter_id: outside counsel's matter id for the mark, e.g. MAT-0012.
            limit: maximum results (1-200).
        """
        text = mark_literal.strip().lower() if mark_literal else None
        rows = select(self.state.applications.values(),
                      (lambda a: text in a.mark_literal.lower()) if text else None,
                      (lambda a: a.status_code == status_code) if status_code else None,
                      (lambda a: any(g.nice_class == nice_class for g in a.goods_services)) if nice_class else None,
                      (lambda a: (a.product_sku or "").upper() == product_sku.upper()) if product_sku else None,
                      (lambda a: a.firm_matter_id == firm_matter_id) if firm_matter_id else None, limit=limit)
        return [self._view(a, full=False) for a in rows]

    @tool(read_only=True, returns=list[HistoryEntry])
    def get_prosecution_history(self, serial_number: Id("trademark_application")) -> list[dict]:
        """The prosecution history of an application, oldest entry first.

        Args:
            serial_number: the serial number.
        """
        return [h.model_dump() for h in self._app(serial_number).history]

    @tool(read_only=True, returns=list[OfficeAction])
    def list_office_actions(self, serial_number: Optional[Id("trademark_application")] = None,
                            status: Optional[ActionStatus] = None, due_before: Optional[Date] = None,
                            limit: int = Field(default=50, ge=1, le=200)) -> list[dict]:
        """List office actions, earliest deadline first, by application, status or deadline.

        Args:
            serial_number: only this application's office actions.
            status: open, responded or abandoned.
            due_before: only those whose response deadline is on or before this date (YYYY-MM-DD).
            limit: maximum results (1-200).
        """
        if serial_number is not None:
            self._app(serial_number)
        rows = sorted(self.state.office_actions.values(), key=lambda a: (a.response_deadline, a.id))
        rows = select(rows, (lambda a: a.serial_number == serial_number.strip()) if serial_number else None,
                      (lambda a: a.status == status) if status else None,
                      (lambda a: a.response_deadline <= due_before) if due_before else None, limit=limit)
        return [self._oa_view(a) for a in rows]

    @tool(read_only=True, returns=OfficeAction)
    def get_office_action(self, office_action_id: Id("office_action")) -> dict:
        """One office action: issues raised, examining attorney, response deadline and days left.

        Args:
            office_action_id: the office action id, e.g. OA-0002.
        """
        return self._oa_view(self._oa(office_action_id))

    @tool(read_only=True)
    def get_maintenance_status(self, serial_number: Id("trademark_application")) -> dict:
        """A registration's Section 8 window (years 5-6 after registration, then a 6-month grace period),
        Section 15 eligibility and the fees due.

        Args:
            serial_number: the serial number of the registration.
        """
        app = self._app(serial_number)
        return {"serial_number": app.id, "registration_number": app.registration_number,
                "mark_literal": app.mark_literal, **maintenance_window(app, self.today)}

    @tool(read_only=True, returns=list[Filing])
    def list_filings(self, serial_number: Optional[Id("trademark_application")] = None,
                     filing_type: Optional[FilingType] = None,
                     limit: int = Field(default=50, ge=1, le=200)) -> list[dict]:
        """List Trademark Center filings, newest first, by application or type.

        Args:
            serial_number: only filings for this serial number.
            filing_type: application, response, extension_request, section_8, section_15 or petition_to_revive.
            limit: maximum results (1-200).
        """
        rows = select(reversed(self.state.filings.values()),
                      (lambda f: f.serial_number == serial_number.strip()) if serial_number else None,
                      (lambda f: f.filing_type == filing_type) if filing_type else None, limit=limit)
        return [f.model_dump() for f in rows]

    @tool(read_only=True, returns=list[DocketEntry])
    def list_docket(self, serial_number: Optional[Id("trademark_application")] = None,
                    due_before: Optional[Date] = None, limit: int = Field(default=50, ge=1, le=200)) -> list[dict]:
        """List the legal team's docket entries by application or docketed date.

        Args:
            serial_number: only entries for this serial number.
            due_before: only entries docketed for this date or earlier (YYYY-MM-DD).
            limit: maximum results (1-200).
        """
        rows = select(self.state.docket.values(),
                      (lambda e: e.serial_number == serial_number.strip()) if serial_number else None,
                      (lambda e: e.due_date is not None and e.due_date <= due_before) if due_before else None,
                      limit=limit)
        return [e.model_dump() for e in rows]
