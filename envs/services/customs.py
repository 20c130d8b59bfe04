"""Customs: a customs broker's import entries filed with US CBP (ACE), with duties, holds and documents.

No customs server is in ``compoworld_gym/data/mcp_servers.jsonl``
(``spec_source = None``); the interface follows US CBP's ACE as a broker
reaches it through a broker platform's API (Descartes / Flexport customs
entries): importers of record with IOR numbers and bonds; entries (Form 7501
data: entry number and type 01/11, port of entry, mode, bill of lading or
air waybill, carrier tracking number, purchase order, supplier, country of
export, arrival date) with HTS-classified lines (country of origin, entered
value, general duty rate); duty = rate x value, MPF 0.3464% within its
minimum and maximum (flat on informal entries), HMF 0.125% on ocean cargo;
status draft -> filed -> (held <-> under_review) -> released; holds by CBP or
partner agencies (FDA, FCC, CPSC) with reasons; the documents each entry
needs; duty payment by ACH or daily statement.

Rules: a line needs a valid 10-digit HTS code of the tariff table and a value
above 0 (422 / 400); lines change only on a draft (409); an entry is filed
only with lines and every required document (422); no release while a hold
is open (409); duties are paid once, in full (422 otherwise). Left out:
Chapter 99 additional duties (Section 301/232), specific and compound rates,
ISF filing, liquidation and protests, drawback.
"""

from __future__ import annotations

import datetime as dt
import random
from typing import Optional

from faker import Faker
from pydantic import Field

from compoworld_gym.entities import CompanyName, Country, Date, Id, Money, TrackingNumber
from compoworld_gym.envs.services import _customs_rules as rules
from compoworld_gym.envs.services._blocks import eq, ieq, select
from compoworld_gym.envs.services._commerce import MONEY_MAX, money
from compoworld_gym.envs.services._customs_models import (
    HTS, INFORMAL_LIMIT, PORTS, CustomsState, DocumentType, DutyPayment, Entry, EntryDocument, EntryNote,
    EntryStatus, EntryType, Hold, HoldType, Importer, Mode, PaymentMethod,
)
from compoworld_gym.envs.services._customs_seed import build_state
from compoworld_gym.errors import Conflict, NotFound, Unprocessable
from compoworld_gym.service import Record, Service, tool


class LineInput(Record):
    """A line to estimate: HTS code and entered value (USD)."""

    hts_code: str = Field(min_length=8, max_length=14, description="10-digit HTS code.")
    value: Money = Field(ge=0.01, le=MONEY_MAX, description="Entered value (USD), above 0.")


class Customs(Service):
    """CBP ACE-style customs entries: HTS lines, duties and fees, holds, documents, release, payment."""

    name = "customs"
    description = ("Customs brokerage (US CBP ACE entries): importers of record, entries with HTS-classified lines, "
                   "duty and fee calculation, required documents, holds, release and duty payment.")
    domain = "logistics"
    spec_source = None
    State = CustomsState

    # ---------------------------------------------------------------- helpers
    def _entry(self, entry_id: str) -> Entry:
        return self.lookup(self.state.entries, entry_id, "customs entry")

    def _view(self, e: Entry) -> dict:
        return {**e.model_dump(), "open_holds": rules.open_holds(e),
                "missing_documents": [d.document_type for d in e.documents if d.required and d.status == "missing"],
                "duty_paid": e.payment is not None}

    # ------------------------------------------------------------------ reads
    @tool(read_only=True)
    def search_hts(self, query: Optional[str] = Field(default=None, max_length=100),
                   code_prefix: Optional[str] = Field(default=None, max_length=14)) -> list[dict]:
        """Search the tariff schedule by words of the description or a code prefix (e.g. 8471 or 8518.30).

        Args:
            query: words that must all occur in the description (case-insensitive).
            code_prefix: the start of the HTS code, with or without dots.
        """
        words = (query or "").lower().split()
        prefix = (code_prefix or "").replace(".", "")
        return [{"hts_code": h.code, "description": h.description, "general_rate": h.rate,
                 "general_rate_text": f"{h.rate:.1%}" if h.rate else "Free", "unit": h.unit, "agency": h.agency}
                for h in HTS.values() if all(w in h.description.lower() for w in words)
                and h.code.replace(".", "").startswith(prefix)]

    @tool(read_only=True)
    def list_ports(self) -> list[dict]:
        """The ports of entry: CBP port code, name and the modes of transport each clears."""
        return [{"port_code": p.code, "name": p.name, "modes": list(p.modes)} for p in PORTS.values()]

    @tool(read_only=True, returns=list[Importer])
    def list_importers(self, query: Optional[str] = None) -> list[dict]:
        """The importers of record the broker files for, with IOR and bond numbers.

        Args:
            query: part of the importer's name (case-insensitive).
        """
        q = (query or "").lower()
        return [i.model_dump() for i in self.state.importers.values() if q in i.name.lower()]

    @tool(read_only=True, returns=list[Entry])
    def list_entries(self, status: Optional[EntryStatus] = None, importer_name: Optional[CompanyName] = None,
                     tracking_number: Optional[TrackingNumber] = None,
                     purchase_order_id: Optional[Id("purchase_order")] = None,
                     supplier: Optional[CompanyName] = None, port_code: Optional[str] = None,
                     limit: int = Field(default=50, ge=1, le=200)) -> list[dict]:
        """List entries (without lines) by status, importer, tracking number, purchase order, supplier or port.

        Args:
            status: draft, filed, under_review, held or released.
            importer_name: importer of record (case-insensitive).
            tracking_number: the carrier's tracking number (case-insensitive).
            purchase_order_id: the purchase order imported, e.g. PO-0005.
            supplier: seller / manufacturer (case-insensitive).
            port_code: port of entry code, e.g. 2704.
            limit: maximum number of entries (1-200).
        """
        track = tracking_number.strip().upper() if tracking_number else None
        rows = select(self.state.entries.values(), eq("status", status), ieq("importer_name", importer_name),
                      (lambda e: (e.tracking_number or "").upper() == track) if track else None,
                      eq("purchase_order_id", purchase_order_id), ieq("supplier", supplier),
                      eq("port_code", port_code), limit=limit)
        return [{k: v for k, v in self._view(e).items() if k not in ("lines", "notes")} for e in rows]

    @tool(read_only=True, returns=Entry)
    def get_entry(self, entry_id: Id("customs_entry")) -> dict:
        """Get one entry with its lines, totals, documents, holds, payment and notes.

        Args:
            entry_id: the entry id, e.g. ENT-0003.
        """
        return self._view(self._entry(entry_id))

    @tool(read_only=True)
    def estimate_duties(self, lines: list[LineInput] = Field(min_length=1, max_length=50), mode: Mode = "ocean",
                        entry_type: EntryType = "01") -> dict:
        """Duty, MPF and HMF an entry of these lines would owe (USD), without creating anything.

        Args:
            lines: each {hts_code, value}.
            mode: ocean, air or truck (HMF applies to ocean).
            entry_type: 01 formal or 11 informal.
        """
        out = [rules.make_line(k, rules.hts_code(ln.hts_code), "estimate", "CN", 1, ln.value)
               for k, ln in enumerate(lines, start=1)]
        value, duty = money(sum(ln.value for ln in out)), money(sum(ln.duty for ln in out))
        mpf, hmf = rules.fees(value, mode, entry_type)
        return {"lines": [{"hts_code": ln.hts_code, "value": ln.value, "duty_rate": ln.duty_rate, "duty": ln.duty}
                          for ln in out], "entered_value": value, "duty": duty, "mpf": mpf, "hmf": hmf,
                "total_due": money(duty + mpf + hmf)}

    # ----------------------------------------------------------------- writes
    @tool(read_only=False, returns=Entry)
    def create_entry(self, importer_id: str, mode: Mode, port_code: str, supplier: CompanyName = Field(min_length=2),
                     country_of_export: Country = Field(pattern=r"^[A-Z]{2}$"), arrival_date: Date = Field(),
                     bill_of_lading: str = Field(min_length=4, max_length=40), entry_type: EntryType = "01",
                     tracking_number: Optional[TrackingNumber] = Field(default=None, max_length=40),
                     purchase_order_id: Optional[Id("purchase_order")] = None) -> dict:
        """Open a draft entry for an importer of record; lines and documents are added before filing.

        Args:
            importer_id: the importer of record, e.g. IMP-0002.
            mode: ocean, air or truck.
            port_code: a port of entry that clears this mode (list_ports).
            supplier: seller / manufacturer.
            country_of_export: ISO alpha-2 country the goods were exported from.
            arrival_date: arrival at the port (YYYY-MM-DD).
            bill_of_lading: bill of lading, air waybill or manifest number.
            entry_type: 01 formal or 11 informal (value up to 2,500 USD).
            tracking_number: the carrier's tracking number.
            purchase_order_id: the purchase order imported.
        """
        imp = self.lookup(self.state.importers, importer_id, "importer")
        port = PORTS.get(port_code)
        if port is None:
            raise NotFound(f"port {port_code!r} not found; call list_ports.")
        if mode not in port.modes:
            raise Unprocessable(f"port {port.code} ({port.name}) clears {', '.join(port.modes)}, not {mode}.")
        eid = self.new_id("ENT")
        e = Entry(id=eid, entry_number=rules.entry_number(int(eid[4:])), entry_type=entry_type, importer_id=imp.id,
                  importer_name=imp.name, ior_number=imp.ior_number, mode=mode, port_code=port.code,
                  port_name=port.name, bill_of_lading=bill_of_lading.upper(),
                  tracking_number=tracking_number.strip().upper() if tracking_number else None,
                  purchase_order_id=purchase_order_id, supplier=supplier, country_of_export=country_of_export,
                  arrival_date=arrival_date, entered_value=0, duty=0, mpf=0, hmf=0, total_due=0, status="draft",
                  created_on=self.today)
        rules.recompute(e)
        self.state.entries[eid] = e
        return self._view(e)

    @tool(read_only=False, returns=Entry)
    def add_entry_line(self, entry_id: Id("customs_entry"), hts_code: str = Field(min_length=8, max_length=14),
                       description: str = Field(min_length=3, max_length=200),
                       country_of_origin: Country = Field(pattern=r"^[A-Z]{2}$"),
                       quantity: float = Field(gt=0, le=10_000_000),
                       value: Money = Field(ge=0.01, le=MONEY_MAX)) -> dict:
        """Add an HTS-classified line to a draft entry; its duty is the general rate x value.

        Args:
            entry_id: the draft entry.
            hts_code: 10-digit HTS code (search_hts), e.g. 8518.30.2000.
            description: merchandise description.
            country_of_origin: ISO alpha-2 country of origin.
            quantity: quantity in the HTS unit (above 0).
            value: entered value in USD (above 0).
        """
        e = self._entry(entry_id)
        rules.require(e, ("draft",), "adding lines")
        hts = rules.hts_code(hts_code)
        e.lines.append(rules.make_line(len(e.lines) + 1, hts, description, country_of_origin, quantity, value))
        rules.recompute(e)
        return self._view(e)

    @tool(read_only=False, returns=Entry)
    def remove_entry_line(self, entry_id: Id("customs_entry"), line_number: int = Field(ge=1, le=1000)) -> dict:
        """Remove a line from a draft entry (the others are renumbered).

        Args:
            entry_id: the draft entry.
            line_number: the line to remove.
        """
        e = self._entry(entry_id)
        rules.require(e, ("draft",), "removing lines")
        if line_number > len(e.lines):
            raise NotFound(f"entry {e.id} has {len(e.lines)} line(s); no line {line_number}.")
        del e.lines[line_number - 1]
        for k, ln in enumerate(e.lines, start=1):
            ln.line_number = k
        rules.recompute(e)
        return self._view(e)

    @tool(read_only=False, returns=Entry)
    def upload_entry_document(self, entry_id: Id("customs_entry"), document_type: DocumentType,
                              file_name: str = Field(min_length=5, max_length=120, pattern=r"(?i)^[^/\\]+\.pdf$")
                              ) -> dict:
        """Attach a document (PDF) to an entry that is not yet released; a required one becomes received.

        Args:
            entry_id: the entry.
            document_type: e.g. commercial_invoice, packing_list, bill_of_lading, fcc_form_740.
            file_name: the PDF file name.
        """
        e = self._entry(entry_id)
        rules.require(e, ("draft", "filed", "under_review", "held"), "uploading documents")
        doc = next((d for d in e.documents if d.document_type == document_type), None)
        if doc is None:  # an extra document (a certificate of origin): carried, not required
            doc = EntryDocument(document_type=document_type, required=False, status="missing")
            e.documents.append(doc)
        doc.status, doc.file_name = "received", file_name
        return self._view(e)

    @tool(read_only=False, returns=Entry)
    def file_entry(self, entry_id: Id("customs_entry")) -> dict:
        """Transmit a draft entry to CBP (status filed): it needs lines and every required document.

        Args:
            entry_id: the draft entry.
        """
        e = self._entry(entry_id)
        rules.require(e, ("draft",), "filing")
        rules.check_file(e, INFORMAL_LIMIT)
        e.status, e.filed_on = "filed", self.today
        return self._view(e)

    @tool(read_only=False, returns=Hold)
    def place_hold(self, entry_id: Id("customs_entry"), hold_type: HoldType,
                   reason: str = Field(min_length=5, max_length=300)) -> dict:
        """Record a hold CBP or a partner agency placed on a filed entry (status held).

        Args:
            entry_id: a filed, under-review or held entry.
            hold_type: CBP exam, FDA hold, FCC review, Document review or CPSC hold.
            reason: the reason the agency gave.
        """
        e = self._entry(entry_id)
        rules.require(e, ("filed", "under_review", "held"), "a hold")
        h = Hold(id=self.new_id("HLD"), hold_type=hold_type, reason=reason, status="open", placed_on=self.today)
        e.holds.append(h)
        e.status = "held"
        return {**h.model_dump(), "entry_id": e.id, "entry_status": e.status}

    @tool(read_only=False, returns=Entry)
    def resolve_hold(self, entry_id: Id("customs_entry"), hold_id: str,
                     resolution: str = Field(min_length=5, max_length=300)) -> dict:
        """Resolve an open hold; once none is open the entry goes back under review.

        Args:
            entry_id: the held entry.
            hold_id: the open hold, e.g. HLD-0002.
            resolution: how it was resolved (document supplied, exam passed).
        """
        e = self._entry(entry_id)
        h = next((x for x in e.holds if x.id == hold_id), None)
        if h is None:
            raise NotFound(f"entry {e.id} has no hold {hold_id!r}; its holds: {[x.id for x in e.holds]}.")
        if h.status != "open":
            raise Conflict(f"hold {h.id} is already resolved.")
        h.status, h.resolved_on, h.resolution = "resolved", self.today, resolution
        if not rules.open_holds(e):
            e.status = "under_review"
        return self._view(e)

    @tool(read_only=False, returns=Entry)
    def release_entry(self, entry_id: Id("customs_entry")) -> dict:
        """Record CBP's release of the goods; never while a hold is open (409).

        Args:
            entry_id: a filed or under-review entry with no open hold.
        """
        e = self._entry(entry_id)
        holds = rules.open_holds(e)
        if holds:
            raise Conflict(f"entry {e.id} has open hold(s) {holds}; resolve them before release.")
        rules.require(e, ("filed", "under_review"), "release")
        e.status, e.released_on = "released", self.today
        return self._view(e)

    @tool(read_only=False, returns=DutyPayment)
    def pay_duty(self, entry_id: Id("customs_entry"), amount: Money = Field(ge=0.01, le=MONEY_MAX),
                 method: PaymentMethod = "ach_debit", reference: str = Field(default="", max_length=120)) -> dict:
        """Pay an entry's duties and fees (duty + MPF + HMF) in full, once it is filed.

        Args:
            entry_id: the entry (not a draft).
            amount: the entry's total_due (USD).
            method: ach_debit, ach_credit or daily_statement.
            reference: the payer's reference.
        """
        e = self._entry(entry_id)
        if e.status == "draft":
            raise Conflict(f"entry {e.id} is a draft; file it before paying duties.")
        if e.payment is not None:
            raise Conflict(f"entry {e.id} duties were already paid on {e.payment.paid_on}.")
        if money(amount) != e.total_due:
            raise Unprocessable(f"amount {money(amount):.2f} does not match the entry's total due {e.total_due:.2f} "
                                f"(duty {e.duty:.2f} + MPF {e.mpf:.2f} + HMF {e.hmf:.2f}).")
        e.payment = DutyPayment(amount=e.total_due, method=method, reference=reference, paid_on=self.today)
        return {**e.payment.model_dump(), "entry_id": e.id}

    @tool(read_only=False, returns=Entry)
    def add_entry_note(self, entry_id: Id("customs_entry"), note: str = Field(min_length=1, max_length=500)) -> dict:
        """Add a broker's note to an entry.

        Args:
            entry_id: the entry.
            note: the note.
        """
        e = self._entry(entry_id)
        e.notes.append(EntryNote(text=note, at=self.now()))
        return self._view(e)

    # ------------------------------------------------------------------ seeds
    @classmethod
    def build_seed_state(cls, fake: Faker, rng: random.Random, today: dt.date) -> CustomsState:
        return build_state(fake, rng, today)

