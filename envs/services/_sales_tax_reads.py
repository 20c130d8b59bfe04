"""The read half of the ``sales_tax`` service: lookups, address resolution and the read tools.

:class:`SalesTaxBase` sets no ``name``, so it is not a service of its own;
:class:`~compoworld_gym.envs.services.sales_tax.SalesTax` adds the writes.
"""

from __future__ import annotations

from typing import Optional

from pydantic import Field

from compoworld_gym.entities import Address, City, Country, Email, Id
from compoworld_gym.envs.services._blocks import eq, ieq, select
from compoworld_gym.envs.services._sales_tax_models import (
    AddressInfo, Certificate, Customer, DocStatus, TaxTransaction,
)
from compoworld_gym.envs.services._sales_tax_rules import JURISDICTIONS, TAX_CODES, Zone, total_rate
from compoworld_gym.errors import NotFound, Unprocessable
from compoworld_gym.service import Service, tool

# The bounds of AddressInfo's fields, so that a bad address is a 400 before it is built.
_LINE1 = Field(min_length=3, max_length=120)
_CITY = Field(min_length=2, max_length=60)
_REGION = Field(max_length=3)
_POSTAL = Field(min_length=3, max_length=10)
_COUNTRY = Field(default="US", min_length=2, max_length=2)


class SalesTaxBase(Service):
    """Jurisdictions, tax codes, customers, certificates and transactions: lookups and reads."""

    # ---------------------------------------------------------------- helpers
    def _customer(self, customer_code: str) -> Customer:
        return self.lookup(self.state.customers, customer_code, "customer")

    def _doc(self, transaction_id: str) -> TaxTransaction:
        return self.lookup(self.state.transactions, transaction_id, "transaction")

    def _cert(self, certificate_id: str) -> Certificate:
        return self.lookup(self.state.certificates, certificate_id, "certificate")

    @staticmethod
    def _zone(addr: AddressInfo) -> Optional[Zone]:
        """The address's tax zone (None outside the US), checked against the ZIP table.

        Raises:
            Unprocessable: 422 for a US ZIP code outside the table or a city/state that does not match it.
        """
        if addr.country != "US":
            return None
        zone = JURISDICTIONS.get(addr.postal_code)
        if zone is None:
            raise Unprocessable(f"ZIP code {addr.postal_code} could not be resolved; the account's jurisdiction table "
                                f"covers {', '.join(sorted(JURISDICTIONS))}.")
        if zone.region != addr.region.upper() or zone.city.lower() != addr.city.lower():
            raise Unprocessable(f"ZIP code {addr.postal_code} is in {zone.city}, {zone.region}, not "
                                f"{addr.city}, {addr.region}; correct the address.")
        return zone

    def _view(self, doc: TaxTransaction) -> dict:
        cust = self.state.customers.get(doc.customer_code)
        return {**doc.model_dump(), "customer_email": cust.email_address if cust else None}

    def _cert_view(self, c: Certificate) -> dict:
        return {**c.model_dump(), "valid_today": c.status == "COMPLETE" and c.signed_date <= self.today
                <= c.expiration_date}

    # ------------------------------------------------------------------ reads
    @tool(read_only=True)
    def resolve_address(self, line1: Address = _LINE1, city: City = _CITY, region: str = _REGION,
                        postal_code: str = _POSTAL, country: Country = _COUNTRY) -> dict:
        """AvaTax /addresses/resolve: validate an address and name the jurisdictions that tax a delivery there.

        Outside the US the address is taken as given and has no jurisdictions (no nexus). A
        US ZIP code the table lacks, or a city or state that does not match it, is a 422.

        Args:
            line1: street line.
            city: city.
            region: state code, e.g. TX.
            postal_code: ZIP code.
            country: ISO country code (default US).
        """
        addr = AddressInfo(line1=line1, city=city, region=region, postal_code=postal_code, country=country.upper())
        zone = self._zone(addr)
        valid = addr.model_copy(update={"region": zone.region, "city": zone.city}) if zone else addr
        return {"address": addr.model_dump(), "validated_address": {**valid.model_dump(),
                                                                    "county": zone.county if zone else None},
                "tax_authorities": [{"juris_type": r.juris_type, "juris_code": r.juris_code, "juris_name": r.juris_name}
                                    for r in (zone.rates if zone else ())],
                "messages": [] if zone else ["No tax nexus outside the US: sales shipped here are not taxed."]}

    @tool(read_only=True)
    def tax_rates_by_address(self, line1: Address = _LINE1, city: City = _CITY, region: str = _REGION,
                             postal_code: str = _POSTAL, country: Country = _COUNTRY) -> dict:
        """AvaTax /taxrates/byaddress: the combined sales tax rate of a US address and its parts.

        Args:
            line1: street line.
            city: city.
            region: state code, e.g. IL.
            postal_code: ZIP code.
            country: must be US (the rates API is US only; 422 otherwise).
        """
        addr = AddressInfo(line1=line1, city=city, region=region, postal_code=postal_code, country=country.upper())
        if addr.country != "US":
            raise Unprocessable("tax rates by address are available for US addresses only.")
        zone = self._zone(addr)
        return {"total_rate": total_rate(addr.postal_code),
                "rates": [{"rate": r.rate, "name": r.juris_name, "type": r.juris_type} for r in zone.rates]}

    @tool(read_only=True)
    def list_tax_codes(self) -> list[dict]:
        """The AvaTax tax codes the account uses, with the states that tax them partly or not at all."""
        return [{"tax_code": code, "description": desc, "taxable_fraction_by_state": dict(sorted(rules.items())),
                 "default_fraction": 1.0} for code, (desc, rules) in TAX_CODES.items()]

    @tool(read_only=True, returns=list[Customer])
    def list_customers(self, email_address: Optional[Email] = None,
                       limit: int = Field(default=50, ge=1, le=200)) -> list[dict]:
        """List customers, or find one by email (case-insensitive).

        Args:
            email_address: the customer's email.
            limit: maximum number of customers (1-200).
        """
        return [c.model_dump() for c in select(self.state.customers.values(), ieq("email_address", email_address),
                                               limit=limit)]

    @tool(read_only=True, returns=Customer)
    def get_customer(self, customer_code: Id("customer")) -> dict:
        """Get one customer with its default ship-to address.

        Args:
            customer_code: e.g. CUS-0003.
        """
        return self._customer(customer_code).model_dump()

    @tool(read_only=True, returns=list[Certificate])
    def list_certificates(self, customer_code: Optional[Id("customer")] = None,
                          exposure_zone: Optional[str] = None) -> list[dict]:
        """List exemption certificates by customer or state, with whether each is valid today.

        Args:
            customer_code: only this customer's certificates.
            exposure_zone: only certificates for this state, e.g. PA.
        """
        return [self._cert_view(c) for c in select(self.state.certificates.values(), eq("customer_code", customer_code),
                                                   eq("exposure_zone", exposure_zone and exposure_zone.upper()))]

    @tool(read_only=True, returns=Certificate)
    def get_certificate(self, certificate_id: Id("tax_exemption")) -> dict:
        """Get one exemption certificate.

        Args:
            certificate_id: e.g. CERT-0002.
        """
        return self._cert_view(self._cert(certificate_id))

    @tool(read_only=True, returns=list[TaxTransaction])
    def list_transactions(self, customer_code: Optional[Id("customer")] = None, code: Optional[Id("invoice")] = None,
                          status: Optional[DocStatus] = None,
                          limit: int = Field(default=50, ge=1, le=200)) -> list[dict]:
        """List tax transactions (without lines) by customer, document code or status, oldest first.

        Args:
            customer_code: only this customer's documents.
            code: only documents with this code (the invoice number).
            status: Saved, Committed or Cancelled.
            limit: maximum number of documents (1-200).
        """
        rows = select(self.state.transactions.values(), eq("customer_code", customer_code), eq("code", code),
                      eq("status", status), limit=limit)
        return [{**self._view(d), "lines": len(d.lines)} for d in rows]

    @tool(read_only=True, returns=TaxTransaction)
    def get_transaction(self, transaction_id: Id("tax_transaction")) -> dict:
        """Get one tax transaction with its lines, jurisdiction details and summary.

        Args:
            transaction_id: e.g. AVT-0004.
        """
        return self._view(self._doc(transaction_id))

    @tool(read_only=True, returns=TaxTransaction)
    def get_transaction_by_code(self, code: Id("invoice")) -> dict:
        """Get the tax transaction with a document code: the live one, else the latest voided one.

        Args:
            code: the document code, e.g. INV-0007.
        """
        docs = [d for d in self.state.transactions.values() if d.code == code]
        if not docs:
            raise NotFound(f"no transaction with code {code!r}; list_transactions shows the codes.")
        live = [d for d in docs if d.status != "Cancelled"]
        return self._view((live or docs)[-1])
