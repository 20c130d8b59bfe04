"""Records and state of the sales_tax service (Avalara AvaTax REST v2).

Field names follow AvaTax's models in snake case: ``TransactionModel``
(``code``, ``companyCode``, ``type``, ``status``, ``customerCode``,
``exemptionNo``, ``totalAmount``, ``totalExempt``, ``totalTaxable``,
``totalTax``, ``totalTaxCalculated``, ``adjustmentReason``,
``adjustmentDescription``, ``version``), ``TransactionLineModel``
(``lineNumber``, ``itemCode``, ``taxCode``, ``lineAmount``,
``taxableAmount``, ``exemptAmount``, ``exemptCertId``, ``details``),
``TransactionLineDetailModel`` (``jurisType``, ``jurisCode``,
``jurisName``, ``rate``, ``tax``, ``taxCalculated``), ``CustomerModel``
and ``CertificateModel`` (``exemptionNumber``, ``exemptionReason``,
``exposureZone``, ``signedDate``, ``expirationDate``).
"""

from __future__ import annotations

from typing import Literal, Optional

from pydantic import Field

from compoworld_gym.entities import Address, City, Country, Date, Email, Id, Money
from compoworld_gym.service import Record, ServiceState

TaxCode = Literal["P0000000", "FR020100", "SW054000", "NT"]
DocType = Literal["SalesInvoice", "SalesOrder"]
DocStatus = Literal["Temporary", "Saved", "Committed", "Cancelled"]
VoidReason = Literal["DocVoided", "DocDeleted", "PostFailed", "AdjustmentCancelled"]
AdjustmentReason = Literal["PriceAdjusted", "ProductReturned", "ProductExchanged", "BadDebt", "RateChanged",
                           "ExemptCertApplied", "SourcingIssue", "ReconciledWithGeneralLedger", "Other"]
ExemptionReason = Literal["RESALE", "CHARITABLE/EXEMPT ORG", "GOVERNMENT", "MANUFACTURING"]


class AddressInfo(Record):
    """A street address (AvaTax ``AddressLocationInfo``)."""

    line1: Address = Field(min_length=3, max_length=120, description="Street line.")
    city: City = Field(min_length=2, max_length=60, description="City.")
    region: str = Field(max_length=3, description="State or province code, e.g. TX (empty where none).")
    postal_code: str = Field(min_length=3, max_length=10, description="ZIP or postal code.")
    country: Country = Field(default="US", min_length=2, max_length=2, description="ISO 3166 country code.")


class Customer(Record):
    """A customer of the tax account (AvaTax ``CustomerModel``), under the customer id billing uses."""

    customer_code: Id("customer") = Field(description="Customer code, e.g. CUS-0003 (the payments customer id).")
    name: str = Field(description="Customer name.")
    email_address: Email = Field(description="Customer email.")
    address: AddressInfo = Field(description="Default ship-to address.")
    created_date: Date = Field(description="Date created.")


class Certificate(Record):
    """An exemption certificate (AvaTax / CertCapture ``CertificateModel``)."""

    id: Id("tax_exemption") = Field(description="Certificate id, e.g. CERT-0001.")
    customer_code: Id("customer") = Field(description="The exempt customer.")
    exemption_number: str = Field(description="The state-issued exemption or resale permit number.")
    exemption_reason: ExemptionReason = Field(description="RESALE, CHARITABLE/EXEMPT ORG, GOVERNMENT or "
                                                          "MANUFACTURING.")
    exposure_zone: str = Field(max_length=2, description="The state the certificate exempts sales in, e.g. PA.")
    signed_date: Date = Field(description="Date signed.")
    expiration_date: Date = Field(description="Last day it is valid.")
    status: Literal["COMPLETE", "REVOKED"] = Field(description="COMPLETE (on file) or REVOKED.")


class LineIn(Record):
    """A line as the caller sends it (AvaTax ``LineItemModel``)."""

    number: Optional[str] = Field(default=None, max_length=20, description="Line number; default 1, 2, ...")
    quantity: float = Field(default=1.0, gt=0, le=100000, description="Quantity (informational; amount is the "
                                                                      "line total).")
    amount: Money = Field(ge=0.01, le=10_000_000, description="Line total (USD), before tax.")
    tax_code: Optional[TaxCode] = Field(default=None, description="AvaTax tax code; default P0000000.")
    item_code: Optional[str] = Field(default=None, max_length=50, description="SKU or item code.")
    description: str = Field(default="", max_length=200, description="What is sold.")


class TaxDetail(Record):
    """One jurisdiction's tax on one line (AvaTax ``TransactionLineDetailModel``)."""

    juris_type: Literal["STA", "CTY", "CIT", "STJ"] = Field(description="State, county, city or special district.")
    juris_code: str = Field(description="Jurisdiction code.")
    juris_name: str = Field(description="Jurisdiction name, e.g. TEXAS.")
    rate: float = Field(ge=0, le=1, description="Rate as a fraction, e.g. 0.0625.")
    taxable_amount: Money = Field(ge=0, description="Amount taxed here (USD).")
    tax: Money = Field(ge=0, description="Tax, rounded half up to the cent (USD).")
    tax_calculated: float = Field(ge=0, description="Unrounded tax (USD, 6 decimals).")


class TransactionLine(Record):
    """A computed line (AvaTax ``TransactionLineModel``)."""

    line_number: str = Field(description="Line number.")
    item_code: Optional[str] = Field(default=None, description="SKU or item code.")
    description: str = Field(default="", description="What is sold.")
    tax_code: TaxCode = Field(description="Tax code used.")
    quantity: float = Field(description="Quantity.")
    line_amount: Money = Field(description="Line total (USD).")
    taxable_amount: Money = Field(description="Taxable part (USD).")
    exempt_amount: Money = Field(description="Exempt or non-taxable part (USD).")
    tax: Money = Field(description="Sum of the jurisdictions' rounded tax (USD).")
    tax_calculated: float = Field(description="Unrounded tax (USD).")
    exempt_cert_id: Optional[Id("tax_exemption")] = Field(default=None, description="Certificate that exempted it.")
    details: list[TaxDetail] = Field(default_factory=list, description="Tax per jurisdiction.")


class SummaryRow(Record):
    """Tax per jurisdiction over the document (AvaTax ``TransactionSummary``)."""

    juris_type: str = Field(description="STA, CTY, CIT or STJ.")
    juris_name: str = Field(description="Jurisdiction name.")
    rate: float = Field(description="Rate as a fraction.")
    taxable: Money = Field(description="Taxable amount (USD).")
    tax: Money = Field(description="Tax (USD).")


class TaxTransaction(Record):
    """A tax document (AvaTax ``TransactionModel``)."""

    id: Id("tax_transaction") = Field(description="Transaction id, e.g. AVT-0001.")
    code: Id("invoice") = Field(description="Document code: the invoice number, e.g. INV-0007.")
    company_code: str = Field(description="AvaTax company code.")
    type: DocType = Field(description="SalesInvoice (recorded) or SalesOrder (estimate, never saved).")
    date: Date = Field(description="Document date: the rates and certificates of that day apply.")
    status: DocStatus = Field(description="Saved (editable), Committed (reported; adjust only), Cancelled (voided).")
    customer_code: Id("customer") = Field(description="The customer.")
    exemption_no: Optional[str] = Field(default=None, description="Exemption number quoted by the buyer.")
    purchase_order_no: Optional[str] = Field(default=None, description="Buyer's PO number.")
    description: str = Field(default="", description="Document description.")
    ship_from: AddressInfo = Field(description="Origin.")
    ship_to: AddressInfo = Field(description="Destination: its jurisdictions tax the sale.")
    lines: list[TransactionLine] = Field(min_length=1, description="Computed lines.")
    summary: list[SummaryRow] = Field(default_factory=list, description="Tax per jurisdiction.")
    total_amount: Money = Field(description="Sum of line amounts (USD).")
    total_exempt: Money = Field(description="Exempt and non-taxable amount (USD).")
    total_taxable: Money = Field(description="Taxable amount (USD).")
    total_tax: Money = Field(description="Sum of the lines' tax (USD).")
    total_tax_calculated: float = Field(description="Unrounded tax (USD).")
    version: int = Field(default=1, ge=1, description="Incremented by each adjustment.")
    adjustment_reason: Optional[AdjustmentReason] = Field(default=None, description="Reason of the last adjustment.")
    adjustment_description: Optional[str] = Field(default=None, description="Description of the last adjustment.")
    void_reason: Optional[VoidReason] = Field(default=None, description="Why it was voided.")
    modified_date: Date = Field(description="Date last changed.")


class SalesTaxState(ServiceState):
    """Customers, exemption certificates and tax transactions."""

    customers: dict[str, Customer] = Field(default_factory=dict, description="Customers by code.")
    certificates: dict[str, Certificate] = Field(default_factory=dict, description="Certificates by id.")
    transactions: dict[str, TaxTransaction] = Field(default_factory=dict, description="Transactions by id.")


__all__ = ["AddressInfo", "AdjustmentReason", "Certificate", "Customer", "DocStatus", "DocType", "ExemptionReason",
           "LineIn", "SalesTaxState", "SummaryRow", "TaxCode", "TaxDetail", "TaxTransaction", "TransactionLine",
           "VoidReason"]
