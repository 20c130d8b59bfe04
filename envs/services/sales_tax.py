"""Sales tax: destination-based US sales tax on invoices, with exemption certificates (AvaTax-style).

No sales-tax server is in ``compoworld_gym/data/mcp_servers.jsonl``
(``spec_source = None``); the interface follows Avalara AvaTax REST v2:
``/addresses/resolve`` and ``/taxrates/byaddress`` (state, county, city and
special-district jurisdictions of a small ZIP table), ``/transactions/create``
(a ``SalesInvoice`` with lines, tax codes, ship-to address and
``customerCode``; a ``SalesOrder`` is an estimate and is never saved),
``/transactions/{code}/commit``, ``/void`` (``DocVoided``) and ``/adjust``
(``adjustmentReason``, ``adjustmentDescription``, a new version of the
lines), customers, and exemption certificates (``exemptionNumber``,
``exemptionReason``, ``exposureZone``, ``signedDate``, ``expirationDate``).
Tax is computed per line and jurisdiction and rounded half up to the cent
(see :mod:`._sales_tax_rules`). Rules of the real product: a committed
transaction is not edited, only adjusted (creating its code again is a
409); a voided one cannot be committed or adjusted; a certificate exempts a
sale only in its state, between its signed and expiration dates, unless
revoked (an expired one never exempts, even quoted as ``exemptionNo``).
Writes address documents by id (``AVT-0001``) where AvaTax uses the
document code; ``get_transaction_by_code`` finds the id. Left out: VAT and
non-US nexus, returns (``ReturnInvoice``), multi-company, filings/returns
and the Avalara item catalogue. Customers are the shared store customers
under their payments ids; document codes are the invoicing ids.
"""

from __future__ import annotations

import datetime as dt
import random
from typing import Optional

from faker import Faker
from pydantic import Field

from compoworld_gym.entities import Date, Email, Id
from compoworld_gym.envs.services._sales_tax_models import (
    AddressInfo, AdjustmentReason, Certificate, Customer, DocType, ExemptionReason, LineIn, SalesTaxState,
    TaxTransaction, VoidReason,
)
from compoworld_gym.envs.services._sales_tax_reads import SalesTaxBase
from compoworld_gym.envs.services._sales_tax_rules import JURISDICTIONS, make_transaction, valid_certificate
from compoworld_gym.envs.services._sales_tax_seed import build_state
from compoworld_gym.errors import Conflict, Unprocessable
from compoworld_gym.service import tool

_STATES = sorted({z.region for z in JURISDICTIONS.values()})


class SalesTax(SalesTaxBase):
    """AvaTax-style sales tax: rates by address, tax documents (create, commit, void, adjust), certificates."""

    name = "sales_tax"
    description = ("Sales tax (AvaTax-style): jurisdiction rates by address, tax transactions for invoices "
                   "(create, commit, void, adjust) and customers' exemption certificates.")
    domain = "finance"
    spec_source = None
    State = SalesTaxState

    # ---------------------------------------------------------------- helpers
    def _exemption(self, customer_code: str, ship_to: AddressInfo, day: dt.date,
                   exemption_no: Optional[str]) -> Optional[Certificate]:
        """The certificate exempting the sale, if any; a quoted ``exemption_no`` must be one that does (422)."""
        cert = valid_certificate(self.state.certificates.values(), customer_code, ship_to.region.upper(), day) \
            if ship_to.country == "US" else None
        if exemption_no is not None and (cert is None or cert.exemption_number != exemption_no):
            quoted = next((c for c in self.state.certificates.values() if c.exemption_number == exemption_no), None)
            why = ("no certificate on file has that number" if quoted is None else
                   f"certificate {quoted.id} is {quoted.status.lower()}, for {quoted.exposure_zone}, valid "
                   f"{quoted.signed_date} to {quoted.expiration_date}")
            raise Unprocessable(f"exemption number {exemption_no} does not exempt a sale to {ship_to.region} on {day}: "
                                f"{why}.")
        return cert

    def _live_with_code(self, code: str) -> Optional[TaxTransaction]:
        return next((d for d in self.state.transactions.values() if d.code == code and d.status != "Cancelled"), None)

    # ----------------------------------------------------------------- writes
    @tool(read_only=False, returns=TaxTransaction)
    def create_transaction(self, code: Id("invoice"), customer_code: Id("customer"),
                           lines: list[LineIn] = Field(min_length=1, max_length=100), date: Optional[Date] = None,
                           type: DocType = "SalesInvoice", ship_to: Optional[AddressInfo] = None, commit: bool = False,
                           exemption_no: Optional[str] = None, purchase_order_no: Optional[str] = None,
                           description: str = Field(default="", max_length=200)) -> dict:
        """Compute tax on a sale shipped to an address and record it (SalesInvoice) or only estimate it (SalesOrder).

        Each line is taxed by the ship-to ZIP's jurisdictions per its tax code;
        the customer's valid certificate for that state exempts every line.
        Creating a code whose document is Saved replaces that document; a
        Committed one is a 409 (adjust it instead).

        Args:
            code: document code, the invoice number, e.g. INV-0021.
            customer_code: the customer (get_customer).
            lines: each {amount, tax_code?, quantity?, item_code?, description?, number?}; amount is the line total.
            date: document date (YYYY-MM-DD), default today; that day's certificates apply.
            type: SalesInvoice (recorded) or SalesOrder (estimate, not saved).
            ship_to: destination; default the customer's address.
            commit: commit the SalesInvoice at once.
            exemption_no: the buyer's exemption number; it must be a valid certificate for the ship-to state (422).
            purchase_order_no: the buyer's PO number.
            description: document description.
        """
        cust = self._customer(customer_code)
        addr = ship_to or cust.address
        self._zone(addr)
        day = date or self.today
        cert = self._exemption(cust.customer_code, addr, day, exemption_no)
        existing = self._live_with_code(code) if type == "SalesInvoice" else None
        if existing is not None and existing.status == "Committed":
            raise Conflict(f"transaction {existing.id} with code {code} is committed; use adjust_transaction to "
                           "change it.")
        if existing is not None and existing.customer_code != cust.customer_code:
            raise Conflict(f"code {code} belongs to {existing.id} of customer {existing.customer_code}.")
        tid = existing.id if existing is not None else (self.new_id("AVT") if type == "SalesInvoice" else "AVT-0000")
        doc = make_transaction(tid, code, day, cust.customer_code, addr, lines, cert.id if cert else None, self.today,
                               type=type, status="Temporary" if type == "SalesOrder" else "Committed" if commit
                               else "Saved", exemption_no=cert.exemption_number if cert else None,
                               purchase_order_no=purchase_order_no, description=description)
        if type == "SalesInvoice":
            self.state.transactions[tid] = doc
        return self._view(doc)

    @tool(read_only=False, returns=TaxTransaction)
    def commit_transaction(self, transaction_id: Id("tax_transaction")) -> dict:
        """Commit a Saved transaction (it is then reported, and changed only by adjustment).

        Args:
            transaction_id: a Saved transaction.
        """
        doc = self._doc(transaction_id)
        if doc.status == "Cancelled":
            raise Conflict(f"transaction {doc.id} is voided ({doc.void_reason}); a voided transaction cannot be "
                           "committed.")
        if doc.status == "Committed":
            raise Conflict(f"transaction {doc.id} is already committed.")
        doc.status, doc.modified_date = "Committed", self.today
        return self._view(doc)

    @tool(read_only=False, destructive=True, returns=TaxTransaction)
    def void_transaction(self, transaction_id: Id("tax_transaction"), code: VoidReason = "DocVoided") -> dict:
        """Void a Saved or Committed transaction (status Cancelled); it stays on file.

        Args:
            transaction_id: the transaction.
            code: DocVoided, DocDeleted, PostFailed or AdjustmentCancelled.
        """
        doc = self._doc(transaction_id)
        if doc.status == "Cancelled":
            raise Conflict(f"transaction {doc.id} is already voided.")
        doc.status, doc.void_reason, doc.modified_date = "Cancelled", code, self.today
        return self._view(doc)

    @tool(read_only=False, returns=TaxTransaction)
    def adjust_transaction(self, transaction_id: Id("tax_transaction"), adjustment_reason: AdjustmentReason,
                           lines: list[LineIn] = Field(min_length=1, max_length=100),
                           adjustment_description: str = Field(default="", max_length=255)) -> dict:
        """Replace a Saved or Committed transaction's lines with a new version, recomputed on its date and address.

        Its status stays; version goes up by one. A voided transaction cannot
        be adjusted (409); reason Other needs a description (422).

        Args:
            transaction_id: the transaction.
            adjustment_reason: PriceAdjusted, ProductReturned, ProductExchanged, BadDebt, RateChanged,
                ExemptCertApplied, SourcingIssue, ReconciledWithGeneralLedger or Other.
            lines: the corrected lines (all of them).
            adjustment_description: why it was adjusted.
        """
        doc = self._doc(transaction_id)
        if doc.status == "Cancelled":
            raise Conflict(f"transaction {doc.id} is voided; it cannot be adjusted.")
        if adjustment_reason == "Other" and not adjustment_description.strip():
            raise Unprocessable("adjustment reason Other needs an adjustment_description.")
        cert = self._exemption(doc.customer_code, doc.ship_to, doc.date, None)
        new = make_transaction(doc.id, doc.code, doc.date, doc.customer_code, doc.ship_to, lines,
                               cert.id if cert else None, self.today, status=doc.status,
                               exemption_no=cert.exemption_number if cert else None,
                               purchase_order_no=doc.purchase_order_no, description=doc.description,
                               version=doc.version + 1, adjustment_reason=adjustment_reason,
                               adjustment_description=adjustment_description or None)
        self.state.transactions[doc.id] = new
        return self._view(new)

    @tool(read_only=False, returns=Customer)
    def create_customer(self, customer_code: Id("customer"), name: str = Field(min_length=2, max_length=120),
                        email_address: Email = Field(min_length=3), address: AddressInfo = Field()) -> dict:
        """Add a customer with its default ship-to address (code and email must be new: 409).

        Args:
            customer_code: the billing system's customer id, e.g. CUS-0042.
            name: customer name.
            email_address: customer email.
            address: {line1, city, region, postal_code, country}; a US address must resolve (422).
        """
        if customer_code in self.state.customers:
            raise Conflict(f"customer {customer_code} exists.")
        if any(c.email_address.lower() == email_address.lower() for c in self.state.customers.values()):
            raise Conflict(f"a customer with email {email_address} exists; use list_customers.")
        self._zone(address)
        c = Customer(customer_code=customer_code, name=name, email_address=email_address, address=address,
                     created_date=self.today)
        self.state.customers[c.customer_code] = c
        return c.model_dump()

    @tool(read_only=False, returns=Certificate)
    def create_certificate(self, customer_code: Id("customer"), exemption_reason: ExemptionReason,
                           exposure_zone: str = Field(min_length=2, max_length=2),
                           exemption_number: str = Field(min_length=4, max_length=40),
                           signed_date: Date = Field(), expiration_date: Date = Field()) -> dict:
        """Put a customer's exemption certificate on file for one state.

        It must be signed by today and expire after it was signed (422); the
        state must be one the account collects in (422).

        Args:
            customer_code: the exempt customer.
            exemption_reason: RESALE, CHARITABLE/EXEMPT ORG, GOVERNMENT or MANUFACTURING.
            exposure_zone: the state it exempts sales in, e.g. TX.
            exemption_number: the permit or exemption number.
            signed_date: date signed (YYYY-MM-DD), not in the future.
            expiration_date: last day valid (YYYY-MM-DD), after signed_date.
        """
        cust = self._customer(customer_code)
        zone = exposure_zone.upper()
        if zone not in _STATES:
            raise Unprocessable(f"the account collects tax in {', '.join(_STATES)}; {zone} is not one of them.")
        if signed_date > self.today or expiration_date <= signed_date:
            raise Unprocessable(f"a certificate is signed by today and expires after it is signed "
                                f"(got {signed_date} to {expiration_date}).")
        c = Certificate(id=self.new_id("CERT"), customer_code=cust.customer_code, exemption_number=exemption_number,
                        exemption_reason=exemption_reason, exposure_zone=zone, signed_date=signed_date,
                        expiration_date=expiration_date, status="COMPLETE")
        self.state.certificates[c.id] = c
        return self._cert_view(c)

    @tool(read_only=False, destructive=True, returns=Certificate)
    def revoke_certificate(self, certificate_id: Id("tax_exemption")) -> dict:
        """Revoke a certificate: it no longer exempts new or adjusted transactions (409 if already revoked).

        Args:
            certificate_id: the certificate.
        """
        c = self._cert(certificate_id)
        if c.status == "REVOKED":
            raise Conflict(f"certificate {c.id} is already revoked.")
        c.status = "REVOKED"
        return self._cert_view(c)

    # ------------------------------------------------------------------ seeds
    @classmethod
    def build_seed_state(cls, fake: Faker, rng: random.Random, today: dt.date) -> SalesTaxState:
        return build_state(rng, today)


__all__ = ["SalesTax"]
