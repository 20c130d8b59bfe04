"""Court filings: a law firm's electronic filing into the courts, after Tyler's Odyssey eFileAndServe.

No court e-filing server is in ``compoworld_gym/data/mcp_servers.jsonl``
(``spec_source = None``); the interface follows Tyler Technologies' Odyssey
eFileAndServe (EFM) and the OASIS ECF 4.01 operations it implements:
``GetCaseList`` / ``GetCase`` (cases with case number, court location, case
type, participants and attorneys of record, the firm's client matter number),
``GetFeesCalculation``, ``ReviewFiling`` (an envelope of documents, each with
a filing code and its fee, charged to a payment account and served on
service contacts), ``GetFilingList`` / ``GetFilingStatus``,
``NotifyFilingReviewComplete`` (the clerk accepts or rejects with a reason),
``CancelFiling``, EFM service contacts (create, attach to a case), and the
Court Scheduling MDE's ``GetCourtSchedule`` / ``ReserveCourtDate``.

Rules: a filing on a closed case is rejected (409); fees must be paid by an
active, unexpired account, a fee-waiver account only under a granted waiver
(422); the filer must be an attorney of record; a rejected filing can be
resubmitted once, corrected (409 for a second time); hearings go only on
future court days, at a courtroom's calendar times, and never double-book a
courtroom (409). Left out: initiating filings that open new cases, party
and attorney substitution, document images and court-side docketing.
"""

from __future__ import annotations

import datetime as dt
import random
from typing import Literal, Optional

from faker import Faker
from pydantic import Field

from compoworld_gym.entities import CompanyName, Email, Id, PersonName
from compoworld_gym.envs.services import _court_filings_rules as rules
from compoworld_gym.envs.services._blocks import eq, ieq, select
from compoworld_gym.envs.services._court_filings_calendar import CourtCalendar, CourtCode
from compoworld_gym.envs.services._court_filings_models import (
    EFSP_FEE, FILING_CODES, CaseStatus, CourtCase, CourtFilingsState, DocumentInput, Filing, FilingCodeName,
    FilingDocument, FilingStatus, PaymentAccount, ServiceContact,
)
from compoworld_gym.envs.services._court_filings_seed import build_state
from compoworld_gym.errors import Conflict, Unprocessable
from compoworld_gym.service import tool


class CourtFilings(CourtCalendar):
    """Odyssey-style court e-filing: cases, filing envelopes and review, service contacts (calendar: the base)."""

    name = "court_filings"
    description = ("Court e-filing (Odyssey eFileAndServe-style): the firm's court cases, filing envelopes with "
                   "fees and clerk review, service contacts, and hearings on the court calendar.")
    domain = "legal"
    spec_source = None
    State = CourtFilingsState

    # ---------------------------------------------------------------- helpers
    def _filing(self, filing_id: str) -> Filing:
        return self.lookup(self.state.filings, filing_id, "filing")

    def _account(self, account_id: str) -> PaymentAccount:
        return self.lookup(self.state.payment_accounts, account_id, "payment account")

    def _documents(self, case: CourtCase, documents: list[DocumentInput]) -> list[FilingDocument]:
        return [FilingDocument(filing_code=d.filing_code, title=d.title, file_name=d.file_name,
                               fee=0.0 if case.fee_waiver else FILING_CODES[d.filing_code].fee) for d in documents]

    def _envelope(self, case: CourtCase, docs: list[FilingDocument], acct: PaymentAccount, **fields) -> Filing:
        lines = rules.fee_lines([d.filing_code for d in docs], case.fee_waiver)
        fid = self.new_id("FIL")
        f = Filing(id=fid, envelope_number=str(24_310_000 + 17 * int(fid[4:])), case_id=case.id,
                   case_number=case.case_number, documents=docs, fees=lines, total_fees=rules.total(lines),
                   payment_account_id=acct.id, payment_status="waived" if case.fee_waiver else "authorized",
                   status="submitted", submitted_on=self.today, **fields)
        self.state.filings[fid] = f
        return f

    # ------------------------------------------------------------------ reads
    @tool(read_only=True)
    def list_filing_codes(self) -> dict:
        """The filing codes with the court's fee for each, and the e-filing service fee per envelope (USD)."""
        return {"filing_codes": [{"filing_code": f.name, "fee": f.fee, "category": f.category}
                                 for f in FILING_CODES.values()], "efiling_service_fee": EFSP_FEE}

    @tool(read_only=True, returns=list[CourtCase])
    def search_cases(self, case_number: Optional[str] = None, matter_id: Optional[Id("matter")] = None,
                     party_name: Optional[str] = None, client_company: Optional[CompanyName] = None,
                     attorney_email: Optional[Email] = None, court: Optional[CourtCode] = None,
                     status: Optional[CaseStatus] = None, limit: int = Field(default=50, ge=1, le=200)) -> list[dict]:
        """Find the firm's cases (GetCaseList) by docket number, client matter, party, attorney, court or status.

        Args:
            case_number: the court's docket number (exact, case-insensitive).
            matter_id: the firm's client matter id, e.g. MAT-0004.
            party_name: part of a party's name or of the case title (case-insensitive).
            client_company: the firm's client company (case-insensitive).
            attorney_email: an attorney of record on the case.
            court: court location code.
            status: open or closed.
            limit: maximum number of cases (1-200).
        """
        q = (party_name or "").lower()
        who = (attorney_email or "").lower()
        rows = select(self.state.cases.values(), ieq("case_number", case_number), eq("matter_id", matter_id),
                      rules.blank_ieq("client_company", client_company),
                      eq("court", court), eq("status", status),
                      (lambda c: q in " ".join([c.title, *(p.name for p in c.parties)]).lower()) if q else None,
                      (lambda c: any(a.email.lower() == who for a in c.attorneys)) if who else None, limit=limit)
        return [rules.case_view(self.state, c, self.today) for c in rows]

    @tool(read_only=True, returns=CourtCase)
    def get_case(self, case_id: Id("court_case")) -> dict:
        """Get one case (GetCase) with its parties, attorneys, service contacts and next scheduled hearing.

        Args:
            case_id: the case tracking id, e.g. CASE-0001.
        """
        return rules.case_view(self.state, self._case(case_id), self.today)

    @tool(read_only=True, returns=list[Filing])
    def get_filing_list(self, case_id: Optional[Id("court_case")] = None, status: Optional[FilingStatus] = None
                        ) -> list[dict]:
        """List filing envelopes (GetFilingList), optionally of one case or in one status.

        Args:
            case_id: only this case's filings.
            status: submitted, accepted, rejected or cancelled.
        """
        if case_id is not None:
            self._case(case_id)
        rows = select(self.state.filings.values(), eq("case_id", case_id), eq("status", status))
        return [f.model_dump() for f in rows]

    @tool(read_only=True, returns=Filing)
    def get_filing_status(self, filing_id: Id("court_filing")) -> dict:
        """Get one filing envelope (GetFilingStatus): documents, fees, payment, review status and any rejection reason.

        Args:
            filing_id: the filing id, e.g. FIL-0003.
        """
        return self._filing(filing_id).model_dump()

    @tool(read_only=True)
    def get_fees_calculation(self, case_id: Id("court_case"),
                             filing_codes: list[FilingCodeName] = Field(min_length=1, max_length=10)) -> dict:
        """The fees an envelope of these filing codes would cost on a case (GetFeesCalculation; USD).

        Args:
            case_id: the case.
            filing_codes: one filing code per document.
        """
        case = self._case(case_id)
        lines = rules.fee_lines(filing_codes, case.fee_waiver)
        return {"case_id": case.id, "fee_waiver": case.fee_waiver, "fees": [f.model_dump() for f in lines],
                "total_fees": rules.total(lines)}

    @tool(read_only=True, returns=list[ServiceContact])
    def list_service_contacts(self, case_id: Optional[Id("court_case")] = None, query: Optional[str] = None
                              ) -> list[dict]:
        """List the firm's service contacts, or those attached to one case; ``query`` searches name, email and firm.

        Args:
            case_id: only contacts attached to this case.
            query: text in the name, email or firm (case-insensitive).
        """
        ids = set(self._case(case_id).service_contact_ids) if case_id else None
        q = (query or "").lower()
        return [s.model_dump() for s in self.state.service_contacts.values()
                if (ids is None or s.id in ids) and q in f"{s.name} {s.email} {s.firm}".lower()]

    @tool(read_only=True, returns=list[PaymentAccount])
    def list_payment_accounts(self) -> list[dict]:
        """The firm's payment accounts for filing fees, with type, expiry and whether each is active."""
        return [a.model_dump() for a in self.state.payment_accounts.values()]

    # ----------------------------------------------------------------- writes
    @tool(read_only=False, returns=Filing)
    def submit_filing(self, case_id: Id("court_case"), filer_email: Email,
                      documents: list[DocumentInput] = Field(min_length=1, max_length=10),
                      payment_account_id: str = Field(min_length=1),
                      service_contact_ids: list[str] = Field(default_factory=list, max_length=20),
                      comments_to_clerk: str = Field(default="", max_length=500),
                      client_reference: str = Field(default="", max_length=120)) -> dict:
        """Submit an envelope of documents into an open case (ReviewFiling); fees are authorized on the account.

        Args:
            case_id: the case (must be open).
            filer_email: the filing attorney (an attorney of record on the case).
            documents: the documents, each {filing_code, title, file_name (.pdf)}.
            payment_account_id: the account paying the fees (active, unexpired).
            service_contact_ids: contacts attached to the case to serve.
            comments_to_clerk: comments for the reviewing clerk.
            client_reference: the firm's client/matter reference.
        """
        case = self._case(case_id)
        rules.require_open(case, "filings")
        if not any(a.email.lower() == filer_email.lower() for a in case.attorneys):
            raise Unprocessable(f"{filer_email} is not an attorney of record on {case.case_number}; attorneys: "
                                f"{', '.join(a.email for a in case.attorneys)}.")
        acct = self._account(payment_account_id)
        rules.check_payment(acct, case, self.today)
        stray = [s for s in dict.fromkeys(service_contact_ids) if s not in case.service_contact_ids]
        if stray:
            raise Unprocessable(f"service contact(s) {stray} are not attached to {case.case_number}; "
                                "call attach_service_contact first.")
        f = self._envelope(case, self._documents(case, documents), acct, filer_email=filer_email.lower(),
                           comments_to_clerk=comments_to_clerk, client_reference=client_reference,
                           served_contact_ids=list(dict.fromkeys(service_contact_ids)))
        return f.model_dump()

    @tool(read_only=False, returns=Filing)
    def complete_filing_review(self, filing_id: Id("court_filing"), decision: Literal["accepted", "rejected"],
                               reason: Optional[str] = Field(default=None, max_length=500)) -> dict:
        """Record the clerk's review of a submitted filing (NotifyFilingReviewComplete); a rejection needs a reason.

        Acceptance captures the fees; rejection voids them. A filing on a case
        closed since submission cannot be accepted (409).

        Args:
            filing_id: the submitted filing.
            decision: accepted or rejected.
            reason: the clerk's reason (required to reject).
        """
        f = self._filing(filing_id)
        if f.status != "submitted":
            raise Conflict(f"filing {f.id} is {f.status}; only a submitted filing is reviewed.")
        if decision == "rejected" and not reason:
            raise Unprocessable("a rejection needs the clerk's reason, so the filer can correct it.")
        if decision == "accepted":
            rules.require_open(self._case(f.case_id), "filings")
        f.status, f.reviewed_on = decision, self.today
        f.rejection_reason = reason if decision == "rejected" else None
        if f.payment_status != "waived":
            f.payment_status = "captured" if decision == "accepted" else "voided"
        return f.model_dump()

    @tool(read_only=False, returns=Filing)
    def resubmit_filing(self, filing_id: Id("court_filing"),
                        correction_note: str = Field(min_length=5, max_length=500),
                        documents: Optional[list[DocumentInput]] = Field(default=None, min_length=1, max_length=10),
                        payment_account_id: Optional[str] = None) -> dict:
        """Resubmit a rejected filing once, corrected: a new envelope linked to it, fees authorized again.

        Args:
            filing_id: the rejected filing.
            correction_note: what was corrected (the clerk reads it).
            documents: corrected documents with the same filing codes (default: the same documents).
            payment_account_id: the account to charge (default: the rejected filing's).
        """
        old = self._filing(filing_id)
        if old.status != "rejected":
            raise Conflict(f"filing {old.id} is {old.status}; only a rejected filing can be resubmitted.")
        if old.resubmitted_as:
            raise Conflict(f"filing {old.id} was already resubmitted as {old.resubmitted_as}; a rejected filing is "
                           "resubmitted once; file a new envelope instead.")
        case = self._case(old.case_id)
        rules.require_open(case, "filings")
        acct = self._account(payment_account_id or old.payment_account_id)
        rules.check_payment(acct, case, self.today)
        if documents is None:
            docs = [d.model_copy() for d in old.documents]
        else:
            if sorted(d.filing_code for d in documents) != sorted(d.filing_code for d in old.documents):
                raise Unprocessable("a resubmission keeps the rejected filing's filing codes ("
                                    f"{', '.join(d.filing_code for d in old.documents)}); file a new envelope "
                                    "for other documents.")
            docs = self._documents(case, documents)
        new = self._envelope(case, docs, acct, filer_email=old.filer_email, comments_to_clerk=old.comments_to_clerk,
                             client_reference=old.client_reference, served_contact_ids=list(old.served_contact_ids),
                             resubmission_of=old.id, correction_note=correction_note)
        old.resubmitted_as = new.id
        return new.model_dump()

    @tool(read_only=False, returns=Filing)
    def cancel_filing(self, filing_id: Id("court_filing")) -> dict:
        """Withdraw a submitted filing before review (CancelFiling); its fee authorization is voided.

        Args:
            filing_id: the submitted filing.
        """
        f = self._filing(filing_id)
        if f.status != "submitted":
            raise Conflict(f"filing {f.id} is {f.status}; only a submitted filing not yet reviewed can be cancelled.")
        f.status = "cancelled"
        if f.payment_status != "waived":
            f.payment_status = "voided"
        return f.model_dump()

    @tool(read_only=False, returns=ServiceContact)
    def create_service_contact(self, name: PersonName = Field(min_length=2, max_length=120),
                               email: Email = Field(), firm: CompanyName = Field(min_length=2, max_length=120)) -> dict:
        """Add a service contact to the firm's list (409 if the email is already a contact).

        Args:
            name: the contact's name.
            email: their service email address.
            firm: their firm or organisation.
        """
        hit = next((s for s in self.state.service_contacts.values() if s.email.lower() == email.lower()), None)
        if hit is not None:
            raise Conflict(f"{email} is already service contact {hit.id}.")
        sc = ServiceContact(id=self.new_id("SC"), name=name, email=email.lower(), firm=firm)
        self.state.service_contacts[sc.id] = sc
        return sc.model_dump()

    @tool(read_only=False, returns=CourtCase)
    def attach_service_contact(self, case_id: Id("court_case"), service_contact_id: str) -> dict:
        """Attach a service contact to an open case, so filings on it can be served on them.

        Args:
            case_id: the case.
            service_contact_id: the contact, e.g. SC-0002.
        """
        case = self._case(case_id)
        rules.require_open(case, "service changes")
        sc = self.lookup(self.state.service_contacts, service_contact_id, "service contact")
        if sc.id in case.service_contact_ids:
            raise Conflict(f"service contact {sc.id} is already attached to {case.case_number}.")
        case.service_contact_ids.append(sc.id)
        return rules.case_view(self.state, case, self.today)

    # ------------------------------------------------------------------ seeds
    @classmethod
    def build_seed_state(cls, fake: Faker, rng: random.Random, today: dt.date) -> CourtFilingsState:
        return build_state(fake, rng, today)
