"""Trademarks: the company's USPTO trademark portfolio, office actions, deadlines and maintenance.

No trademark server is in ``compoworld_gym/data/mcp_servers.jsonl``
(``spec_source = None``); the interface follows the USPTO TSDR API (Trademark
Status & Document Retrieval: ``/ts/cd/casestatus/sn{serialNumber}/info``
with ``serialNumber``, ``registrationNumber``, ``markLiteralElements``,
``ownerName``, the Nice ``classes`` with their goods and services,
``statusCode``/``statusDescription``/``statusDate``, ``filingDate``,
``publicationDate``, ``registrationDate``, the attorney of record and
correspondent, and the prosecution history; the office-action documents
with their issue date, examining attorney, law office and response period)
and the Trademark Center filings (new application, response to office
action, request for extension of time to respond, Section 8 declaration of
use, Section 15 declaration of incontestability, petition to revive, request
for express abandonment). The docket is the company's own list of notes and
dates. Tools are those endpoints and forms, snake_cased.

Rules of the real office (``_trademarks_rules``): a response is due within
3 months of the office action's issue date; one 3-month extension ($125) may
be requested before that deadline; a response after the deadline is refused
(the application is abandoned for failure to respond) and a petition to
revive ($250, including the response) must come within 2 months of the
notice of abandonment; a registered mark has no office action to respond to;
a Section 8 declaration ($325 per class) is filed between the 5th and 6th
anniversary of registration, or in the 6-month grace period with a $100 per
class surcharge; Section 15 ($250 per class) after 5 years of registration,
once; a represented owner's filings are signed by the attorney of record;
the same mark cannot be applied for twice in one class while the first is
live. Left out: Section 9 renewals, oppositions, TTAB appeals, specimens as
images, assignments (TSDR ``assignments``) and fee payment accounts.
"""

from __future__ import annotations

import datetime as dt
import random
from typing import Optional

from faker import Faker
from pydantic import Field

from compoworld_gym.entities import Date, Email, Id, Sku
from compoworld_gym.envs.services._trademarks_models import (
    STATUS_CODES, DocketEntry, Filing, FilingBasis, GoodsServices, OfficeAction, TrademarkApplication,
    TrademarksState,
)
from compoworld_gym.envs.services._trademarks_reads import TrademarkReads
from compoworld_gym.envs.services._trademarks_rules import (
    EXTENSION_MONTHS, FEES, add_months, is_registered, require_answerable, require_extendable, require_revivable,
    require_section_8, require_section_15,
)
from compoworld_gym.envs.services._trademarks_seed import COUNSEL, OWNER, OWNER_ADDRESS, build_state
from compoworld_gym.errors import Conflict, Unprocessable
from compoworld_gym.service import tool


def _long() -> object:
    """A required long text parameter (arguments, specimen or statement)."""
    return Field(min_length=10, max_length=8000)


class Trademarks(TrademarkReads):
    """USPTO TSDR + Trademark Center: the company's marks, office actions, deadlines, maintenance."""

    name = "trademarks"
    description = ("USPTO trademark portfolio of the company (TSDR case status and Trademark Center): marks by serial "
                   "and registration number, Nice classes, office actions with response deadlines and examining "
                   "attorneys, responses, extensions, Section 8/15 maintenance and the legal docket.")
    domain = "legal"
    spec_source = None
    State = TrademarksState

    # ----------------------------------------------------------------- writes
    @tool(read_only=False, returns=TrademarkApplication)
    def file_application(self, mark_literal: str = Field(min_length=1, max_length=100),
                         nice_class: int = Field(ge=1, le=45),
                         goods_services: str = Field(min_length=3, max_length=1000),
                         filing_basis: FilingBasis = "1(b)", product_sku: Optional[Sku] = None,
                         firm_matter_id: Optional[Id("matter")] = None,
                         signatory_email: Optional[Email] = None) -> dict:
        """File a new standard-character application in one Nice class for the company ($350 per class).

        Args:
            mark_literal: the mark, e.g. DESKFELT (stored in capitals).
            nice_class: the Nice class, e.g. 9 for electronics, 20 for furniture, 35 for retail services.
            goods_services: the identification of goods or services.
            filing_basis: 1(a) use in commerce or 1(b) intent to use.
            product_sku: the company product the mark will be used on.
            firm_matter_id: outside counsel's matter id for the filing.
            signatory_email: the attorney of record signing (defaults to them).
        """
        mark = " ".join(mark_literal.upper().split())
        live = [a for a in self.state.applications.values() if a.mark_literal == mark and a.status_code != "602"
                and any(g.nice_class == nice_class for g in a.goods_services)]
        if live:
            raise Conflict(f"{mark} in class {nice_class} is already {live[0].id} "
                           f"({STATUS_CODES[live[0].status_code]}).")
        template = next(iter(self.state.applications.values()), None)
        name = template.attorney_name if template else "Nathan Brooks"
        email = template.attorney_email if template else "n.brooks@harlowreed.example"
        n = self.state.counters.get("SN", 98600001)
        self.state.counters["SN"] = n + 1
        app = TrademarkApplication(
            id=str(n), mark_literal=mark, mark_type="standard_characters", owner_name=OWNER,
            owner_address=OWNER_ADDRESS, attorney_name=name, attorney_email=email, docket_contact_email=COUNSEL.email,
            firm_matter_id=firm_matter_id, product_sku=product_sku.upper() if product_sku else None,
            goods_services=[GoodsServices(nice_class=nice_class, description=goods_services.strip())],
            filing_basis=filing_basis, filing_date=self.today, status_code="630", status_date=self.today)
        signer = self._signer(app, signatory_email)
        self._history(app, "NWAP", "New application entered")
        self.state.applications[app.id] = app
        self._file(app, "application", signer, f"Application for {mark}, class {nice_class}.", FEES["application"])
        return self._view(app)

    @tool(read_only=False, returns=Filing)
    def file_office_action_response(self, office_action_id: Id("office_action"), response_text: str = _long(),
                                    signatory_email: Optional[Email] = None) -> dict:
        """Respond to an open office action before its deadline (no fee); the application awaits review.

        Args:
            office_action_id: the open office action, e.g. OA-0001.
            response_text: the arguments, amendments or disclaimers answering each issue.
            signatory_email: the attorney of record signing (defaults to them).
        """
        oa = self._oa(office_action_id)
        app = self.state.applications[oa.serial_number]
        require_answerable(app, oa, self.today, "response")
        signer = self._signer(app, signatory_email)
        f = self._file(app, "response", signer, response_text.strip(), 0.0, oa.id)
        oa.status, oa.responded_on, oa.response_filing_id = "responded", self.today, f.id
        app.status_code, app.status_date = "661", self.today
        self._history(app, "TEME", f"Response to {oa.id} entered")
        return {**f.model_dump(), "office_action": self._oa_view(oa), "status_code": app.status_code}

    @tool(read_only=False, returns=OfficeAction)
    def request_extension(self, office_action_id: Id("office_action"),
                          signatory_email: Optional[Email] = None) -> dict:
        """Request the one 3-month extension of an office action's response period ($125), before the deadline.

        Args:
            office_action_id: the open office action.
            signatory_email: the attorney of record signing (defaults to them).
        """
        oa = self._oa(office_action_id)
        app = self.state.applications[oa.serial_number]
        require_answerable(app, oa, self.today, "extension request")
        require_extendable(oa)
        signer = self._signer(app, signatory_email)
        f = self._file(app, "extension_request", signer, f"Request for extension of time to respond to {oa.id}.",
                       FEES["extension_request"], oa.id)
        oa.extended, oa.response_deadline = True, add_months(oa.issued_on, 3 + EXTENSION_MONTHS)
        self._history(app, "EXT3", f"Extension of time to respond to {oa.id} granted")
        return {**self._oa_view(oa), "filing_id": f.id, "fee": f.fee}

    @tool(read_only=False, returns=Filing)
    def file_section_8(self, serial_number: Id("trademark_application"),
                       specimen_description: str = _long(), signatory_email: Optional[Email] = None) -> dict:
        """File the Section 8 declaration of use ($325 per class, +$100 per class in the grace period).

        Args:
            serial_number: the registration's serial number.
            specimen_description: the specimen showing current use (e.g. the product page with the mark).
            signatory_email: the attorney of record signing (defaults to them).
        """
        app = self._app(serial_number)
        w = require_section_8(app, self.today)
        signer = self._signer(app, signatory_email)
        f = self._file(app, "section_8", signer, specimen_description.strip(), w["section_8_fee"])
        app.section_8_filed_on = self.today
        self._history(app, "E8FL", "Section 8 declaration filed" + (" in the grace period"
                                                                   if w["section_8_phase"] == "grace_period" else ""))
        return {**f.model_dump(), "section_8_phase": w["section_8_phase"]}

    @tool(read_only=False, returns=Filing)
    def file_section_15(self, serial_number: Id("trademark_application"),
                        statement: str = Field(default="Five years of continuous use since registration; no final "
                                               "adverse decision and no pending proceeding.", min_length=10,
                                               max_length=4000),
                        signatory_email: Optional[Email] = None) -> dict:
        """File the Section 15 declaration of incontestability ($250 per class), 5 years after registration.

        Args:
            serial_number: the registration's serial number.
            statement: the declaration of 5 years' continuous use.
            signatory_email: the attorney of record signing (defaults to them).
        """
        app = self._app(serial_number)
        require_section_15(app, self.today)
        signer = self._signer(app, signatory_email)
        f = self._file(app, "section_15", signer, statement.strip(), FEES["section_15"] * len(app.goods_services))
        app.section_15_filed_on = self.today
        self._history(app, "E15F", "Section 15 declaration filed")
        return f.model_dump()

    @tool(read_only=False, returns=Filing)
    def petition_to_revive(self, serial_number: Id("trademark_application"), response_text: str = _long(),
                           signatory_email: Optional[Email] = None) -> dict:
        """Petition to revive an application abandoned for failure to respond ($250), with the missing
        response, within 2 months of the notice of abandonment.

        Args:
            serial_number: the abandoned application.
            response_text: the response to the office action that went unanswered.
            signatory_email: the attorney of record signing (defaults to them).
        """
        app = self._app(serial_number)
        require_revivable(app, self.today)
        signer = self._signer(app, signatory_email)
        missed = max((a for a in self._actions(app.id) if a.status == "abandoned"), key=lambda a: a.issued_on,
                     default=None)
        f = self._file(app, "petition_to_revive", signer, response_text.strip(), FEES["petition_to_revive"],
                       missed.id if missed else None)
        if missed is not None:
            missed.status, missed.responded_on, missed.response_filing_id = "responded", self.today, f.id
        app.status_code, app.status_date, app.abandoned_on = "777", self.today, None
        self._history(app, "PETG", "Petition to revive granted; response entered")
        return f.model_dump()

    @tool(read_only=False, destructive=True, returns=TrademarkApplication)
    def express_abandon(self, serial_number: Id("trademark_application"),
                        signatory_email: Optional[Email] = None) -> dict:
        """Expressly abandon a pending application (a registration cannot be abandoned this way).

        Args:
            serial_number: the pending application.
            signatory_email: the attorney of record signing (defaults to them).
        """
        app = self._app(serial_number)
        if is_registered(app):
            raise Conflict(f"{app.id} is registered; a registration is surrendered, not abandoned.")
        if app.status_code == "602":
            raise Conflict(f"{app.id} is already abandoned (since {app.abandoned_on}).")
        self._signer(app, signatory_email)
        for oa in self._actions(app.id):
            if oa.status == "open":
                oa.status = "abandoned"
        app.status_code, app.status_date, app.abandoned_on = "602", self.today, self.today
        self._history(app, "EXAB", "Express abandonment entered")
        return self._view(app)

    @tool(read_only=False, returns=DocketEntry)
    def add_docket_entry(self, serial_number: Id("trademark_application"),
                         note: str = Field(min_length=3, max_length=2000), due_date: Optional[Date] = None,
                         office_action_id: Optional[Id("office_action")] = None,
                         author_email: Email = COUNSEL.email) -> dict:
        """Docket a note (and optionally a date) on an application for the legal team.

        Args:
            serial_number: the application or registration.
            note: the note, e.g. what is due and who handles it.
            due_date: the date to docket (YYYY-MM-DD), e.g. a response deadline.
            office_action_id: the office action the note is about (it must belong to the application).
            author_email: who dockets it.
        """
        app = self._app(serial_number)
        if office_action_id is not None and self._oa(office_action_id).serial_number != app.id:
            raise Unprocessable(f"office action {office_action_id} is not on {app.id}.")
        e = DocketEntry(id=self.new_id("DKT"), serial_number=app.id, office_action_id=office_action_id,
                        note=note.strip(), due_date=due_date, author_email=author_email.lower(),
                        created_at=self.now())
        self.state.docket[e.id] = e
        return e.model_dump()

    # ------------------------------------------------------------------ seeds
    @classmethod
    def build_seed_state(cls, fake: Faker, rng: random.Random, today: dt.date) -> TrademarksState:
        return build_state(rng, today)


__all__ = ["Trademarks"]
