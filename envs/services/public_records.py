"""Public records (FOIA / PRA) requests: intake, acknowledgement, deadlines, fees, releases, closure.

No public-records server is in ``compoworld_gym/data/mcp_servers.jsonl``
(``spec_source = None``); the interface follows the NextRequest API (with
GovQA's equivalents): a ``request`` with the requester, ``request_text``,
``department_names``, ``point_of_contact``, ``request_state`` and
``due_date``; timeline events for the acknowledgement, the due-date
extension and the closure; ``invoices`` (fee estimates) and released
``documents`` with the exemptions cited for redactions or withheld records.
Status runs received -> acknowledged -> in_progress -> fulfilled / denied /
partially_fulfilled (or withdrawn). Rules (``_public_records_rules``, on
the city's business-day calendar): a request is acknowledged within 3
business days (later only with a reason); the response is due 10 business
days after receipt; the due date is extended once, for 10 business days,
with a reason and before it passes; records are released only once a
pending fee estimate is paid or waived; a denial cites an exemption; a
closed request cannot change. Requests can name a permit record of the
``permits`` service (same city). Left out: file uploads, redaction tools
and the public portal's search.
"""

from __future__ import annotations

import datetime as dt
import random
from typing import Literal, Optional

from faker import Faker
from pydantic import Field

from compoworld_gym.entities import CompanyName, Email, Id, Money, PersonName
from compoworld_gym.envs.services import _public_records_rules as rules
from compoworld_gym.envs.services._blocks import eq, ieq, select, text
from compoworld_gym.envs.services._commerce import MONEY_MAX, money
from compoworld_gym.envs.services._public_records_models import (
    EXEMPTIONS, RECORDS_OFFICERS, Department, Document, FeeEstimate, PaymentMethod, PublicRecordsState,
    RecordsRequest, RequestStatus,
)
from compoworld_gym.envs.services._public_records_seed import build_state
from compoworld_gym.errors import Conflict, Unprocessable
from compoworld_gym.service import Service, tool

_Reason = Field(min_length=5, max_length=500)


class PublicRecords(Service):
    """NextRequest-style public records requests with statutory deadlines, fees and exemptions."""

    name = "public_records"
    description = ("City public records (FOIA/PRA) requests: intake, acknowledgement, statutory due dates and "
                   "the one extension, fee estimates and payments, released documents and exemptions.")
    domain = "government"
    spec_source = None
    State = PublicRecordsState

    # ---------------------------------------------------------------- helpers
    def _req(self, request_id: str, action: Optional[str] = None) -> RecordsRequest:
        r = self.lookup(self.state.requests, request_id, "records request")
        if action is not None:
            rules.check_open(r, action)
        return r

    def _view(self, r: RecordsRequest) -> dict:
        open_ = r.status not in ("fulfilled", "denied", "partially_fulfilled", "withdrawn")
        return {**r.model_dump(), "fees_due": rules.fees_due(r),
                "business_days_left": rules.business_days_between(self.today, r.due_on) if open_ else None,
                "overdue": open_ and self.today > r.due_on,
                "ack_overdue": r.status == "received" and self.today > r.ack_due_on}

    # ------------------------------------------------------------------ reads
    @tool(read_only=True)
    def list_departments(self) -> list[dict]:
        """The departments that answer requests, each with its records officer."""
        return [{"department": d, "point_of_contact": p} for d, p in RECORDS_OFFICERS.items()]

    @tool(read_only=True)
    def list_exemptions(self) -> list[dict]:
        """The exemptions a response may cite (statute section and what it covers), and the fee schedule."""
        return [{"code": c, "covers": d} for c, d in EXEMPTIONS.items()] + [
            {"code": "FEES", "covers": f"copies {rules.COPY_PRICE:.2f}/page; data extraction at actual cost; "
                                       f"electronic media {rules.MEDIA_PRICE:.2f}"}]

    @tool(read_only=True, returns=list[RecordsRequest])
    def search_requests(self, requester_email: Optional[Email] = None, department: Optional[Department] = None,
                        status: Optional[RequestStatus] = None, related_permit_id: Optional[Id("permit")] = None,
                        query: Optional[str] = None, overdue: Optional[bool] = None,
                        limit: int = Field(default=50, ge=1, le=200)) -> list[dict]:
        """Search requests by requester email, department, status, the permit asked about, text or overdue.

        Args:
            requester_email: the requester's email.
            department: the department.
            status: received, acknowledged, in_progress, fulfilled, denied, partially_fulfilled or withdrawn.
            related_permit_id: the permit record asked about, e.g. PRM-0003.
            query: text in the request description (case-insensitive).
            overdue: only requests past (or not past) their response due date.
            limit: maximum number of requests (1-200).
        """
        hits = select(self.state.requests.values(), ieq("requester_email", requester_email),
                      eq("department", department), eq("status", status), eq("related_permit_id", related_permit_id),
                      text(query, "description"))
        views = [self._view(r) for r in hits]
        return [v for v in views if overdue is None or v["overdue"] == overdue][:limit]

    @tool(read_only=True, returns=RecordsRequest)
    def get_request(self, request_id: Id("records_request")) -> dict:
        """One request with its deadlines, fee estimate, fees due, documents, exemptions and notes.

        Args:
            request_id: the request id, e.g. PRR-0004.
        """
        return self._view(self._req(request_id))

    # ----------------------------------------------------------------- writes
    @tool(read_only=False, returns=RecordsRequest)
    def create_request(self, requester_name: PersonName = Field(min_length=2), requester_email: Email = Field(),
                       description: str = Field(min_length=10, max_length=1000),
                       department: Department = "City Clerk", requester_company: Optional[CompanyName] = None,
                       related_permit_id: Optional[Id("permit")] = None) -> dict:
        """Log a new request received today; its acknowledgement is due in 3 business days and its response
        in 10.

        Args:
            requester_name: who asks.
            requester_email: their email.
            description: the records asked for.
            department: the department holding them.
            requester_company: the organisation they are with.
            related_permit_id: the permit record it is about, e.g. PRM-0003.
        """
        r = RecordsRequest(id=self.new_id("PRR"), requester_name=requester_name, requester_email=requester_email,
                           requester_company=requester_company, description=description, department=department,
                           related_permit_id=related_permit_id, point_of_contact=RECORDS_OFFICERS[department],
                           status="received", received_on=self.today,
                           ack_due_on=rules.add_business_days(self.today, rules.ACK_DAYS),
                           due_on=rules.add_business_days(self.today, rules.RESPONSE_DAYS))
        self.state.requests[r.id] = r
        return self._view(r)

    @tool(read_only=False, returns=RecordsRequest)
    def acknowledge_request(self, request_id: Id("records_request"),
                            message: str = Field(min_length=5, max_length=1000),
                            late_reason: Optional[str] = Field(default=None, min_length=5, max_length=300)) -> dict:
        """Acknowledge a received request to the requester. After its 3-business-day deadline a
        ``late_reason`` is required (422).

        Args:
            request_id: the received request.
            message: the acknowledgement sent to the requester.
            late_reason: why it is acknowledged late (only after the deadline).
        """
        r = self._req(request_id, "acknowledge")
        if self.today > r.ack_due_on and not late_reason:
            raise Unprocessable(f"the acknowledgement of {r.id} was due on {r.ack_due_on}; give late_reason.")
        r.status, r.acknowledged_on, r.acknowledgement = "acknowledged", self.today, message
        r.late_ack_reason = late_reason if self.today > r.ack_due_on else None
        return self._view(r)

    @tool(read_only=False, returns=RecordsRequest)
    def start_processing(self, request_id: Id("records_request")) -> dict:
        """Move an acknowledged request to in_progress (the department is gathering records).

        Args:
            request_id: the acknowledged request.
        """
        r = self._req(request_id, "start")
        r.status = "in_progress"
        return self._view(r)

    @tool(read_only=False, returns=RecordsRequest)
    def extend_deadline(self, request_id: Id("records_request"), reason: str = _Reason) -> dict:
        """Extend the response due date once, by 10 business days, before it passes, giving the reason.

        A second extension is refused (409); one after the due date is refused (422).

        Args:
            request_id: the acknowledged or in-progress request.
            reason: the statutory ground, e.g. records in an off-site archive.
        """
        r = self._req(request_id, "extend")
        if r.extended:
            raise Conflict(f"records request {r.id} was already extended (to {r.due_on}); a request is extended "
                           "only once.")
        if self.today > r.due_on:
            raise Unprocessable(f"records request {r.id} was due on {r.due_on}; an extension must be given before "
                                "the due date passes.")
        r.extended, r.extension_reason = True, reason
        r.due_on = rules.add_business_days(r.due_on, rules.EXTENSION_DAYS)
        return self._view(r)

    @tool(read_only=False, returns=FeeEstimate)
    def estimate_fees(self, request_id: Id("records_request"), pages: int = Field(default=0, ge=0, le=100000),
                      extraction_cost: Money = Field(default=0.0, ge=0, le=MONEY_MAX), media: bool = False) -> dict:
        """Send the requester a fee estimate: copies at 0.10 a page, data extraction at actual cost, and
        5.00 for electronic media. Replaces a pending estimate; refused once one is paid or waived (409).

        Args:
            request_id: the acknowledged or in-progress request.
            pages: pages to copy.
            extraction_cost: actual cost of extracting electronic records (USD).
            media: whether records go out on electronic media.
        """
        r = self._req(request_id, "estimate")
        if r.fee_estimate is not None and r.fee_estimate.status != "pending":
            raise Conflict(f"the fees of {r.id} are already {r.fee_estimate.status}.")
        r.fee_estimate = rules.estimate(pages, money(extraction_cost), media, self.today)
        return {**r.fee_estimate.model_dump(), "request_id": r.id}

    @tool(read_only=False, returns=FeeEstimate)
    def pay_request_fees(self, request_id: Id("records_request"), amount: Money = Field(ge=0.01, le=MONEY_MAX),
                         payment_method: PaymentMethod = "credit_card",
                         reference: str = Field(default="", max_length=120)) -> dict:
        """Record the requester's payment of the pending fee estimate (``amount`` must equal its total).

        Args:
            request_id: the request.
            amount: the estimate's total (USD).
            payment_method: credit_card, check, cash or ach.
            reference: the payer's reference.
        """
        r = self._req(request_id, "pay")
        due = rules.fees_due(r)
        if not due:
            raise Conflict(f"records request {r.id} has no pending fee estimate.")
        if money(amount) != due:
            raise Unprocessable(f"amount {money(amount):.2f} does not match the fee estimate {due:.2f}.")
        est = r.fee_estimate
        est.status, est.settled_on, est.method, est.reference = "paid", self.today, payment_method, reference
        est.receipt_number = self.new_id("PRC")
        return {**est.model_dump(), "request_id": r.id}

    @tool(read_only=False, returns=FeeEstimate)
    def waive_fees(self, request_id: Id("records_request"), reason: str = _Reason) -> dict:
        """Waive the pending fee estimate (e.g. public interest, small amount).

        Args:
            request_id: the request.
            reason: why the fees are waived.
        """
        r = self._req(request_id, "waive")
        if not rules.fees_due(r):
            raise Conflict(f"records request {r.id} has no pending fee estimate.")
        est = r.fee_estimate
        est.status, est.settled_on, est.reference = "waived", self.today, reason
        return {**est.model_dump(), "request_id": r.id}

    @tool(read_only=False, returns=Document)
    def release_document(self, request_id: Id("records_request"), title: str = Field(min_length=3, max_length=200),
                         pages: int = Field(ge=1, le=100000), redacted: bool = False,
                         exemptions: list[str] = Field(default_factory=list, max_length=7)) -> dict:
        """Release a document to the requester of an in-progress request, once fees are settled (422).

        A redacted document cites the exemptions for its redactions (422 without).

        Args:
            request_id: the in-progress request.
            title: the document's title.
            pages: its page count.
            redacted: whether parts are redacted.
            exemptions: exemption codes for the redactions (see list_exemptions).
        """
        r = self._req(request_id, "release")
        rules.check_fees_settled(r, "records are released")
        rules.check_exemptions(exemptions)
        if redacted != bool(exemptions):
            raise Unprocessable("cite the exemptions of a redacted document, and only of a redacted one.")
        doc = Document(id=self.new_id("DOC"), title=title, pages=pages, redacted=redacted,
                       exemptions=list(dict.fromkeys(exemptions)), released_on=self.today)
        r.documents.append(doc)
        return {**doc.model_dump(), "request_id": r.id}

    @tool(read_only=False, returns=RecordsRequest)
    def close_request(self, request_id: Id("records_request"),
                      outcome: Literal["fulfilled", "partially_fulfilled", "denied"],
                      message: str = Field(min_length=5, max_length=1000),
                      exemptions: list[str] = Field(default_factory=list, max_length=7)) -> dict:
        """Close a request with its outcome and a message to the requester (then it can never change).

        fulfilled: documents released, nothing withheld; partially_fulfilled: documents released and an
        exemption cited (here or on a redacted document); denied: nothing released, an exemption cited.

        Args:
            request_id: the acknowledged or in-progress request.
            outcome: fulfilled, partially_fulfilled or denied.
            message: the closure message.
            exemptions: exemption codes for withheld records.
        """
        r = self._req(request_id, "close")
        rules.check_close(r, outcome, exemptions)
        r.status, r.closed_on, r.closure_reason = outcome, self.today, message
        r.exemptions_cited = list(dict.fromkeys(exemptions))
        return self._view(r)

    @tool(read_only=False, returns=RecordsRequest)
    def withdraw_request(self, request_id: Id("records_request"), reason: str = _Reason) -> dict:
        """Close a request the requester withdrew.

        Args:
            request_id: the open request.
            reason: the requester's words.
        """
        r = self._req(request_id, "withdraw")
        r.status, r.closed_on, r.closure_reason = "withdrawn", self.today, reason
        return self._view(r)

    @tool(read_only=False, returns=RecordsRequest)
    def add_request_note(self, request_id: Id("records_request"), note: str = Field(min_length=1, max_length=500)
                         ) -> dict:
        """Add an internal note to an open request (a closed request cannot change: 409).

        Args:
            request_id: the request.
            note: the note.
        """
        r = self._req(request_id, "note")
        r.notes.append(note)
        return self._view(r)

    # ------------------------------------------------------------------ seeds
    @classmethod
    def build_seed_state(cls, fake: Faker, rng: random.Random, today: dt.date) -> PublicRecordsState:
        return build_state(fake, rng, today)
