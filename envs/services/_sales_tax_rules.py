"""Pure rules of the sales_tax service: the jurisdiction table, tax codes and the per-line computation.

Rates are destination-based, as AvaTax sources remote sales: the ship-to
ZIP code picks the state (``STA``), county (``CTY``), city (``CIT``) and
special-district (``STJ``) jurisdictions of a small, realistic table (2025
combined rates). A tax code's taxability depends on the state: shipping
is taxed in some states only, and Texas taxes 80% of a SaaS charge (as
data processing). Each jurisdiction's tax on each line is rounded half up
to the cent; the line tax is the sum of its jurisdictions' and the
document's ``totalTax`` the sum of its lines (line-level rounding), while
``taxCalculated`` keeps the unrounded amount.

Example:
    >>> [round(j.rate, 4) for j in JURISDICTIONS["78701"].rates]
    [0.0625, 0.01, 0.01]
    >>> taxable_fraction("SW054000", "TX"), taxable_fraction("FR020100", "CO")
    (0.8, 0.0)
"""

from __future__ import annotations

import datetime as dt
from typing import Any, Iterable, NamedTuple, Optional

from compoworld_gym.envs.services._commerce import money
from compoworld_gym.envs.services._sales_tax_models import (
    AddressInfo, Certificate, LineIn, SummaryRow, TaxDetail, TaxTransaction, TransactionLine,
)

#: Where the store ships from (AvaTax ``shipFrom``).
SHIP_FROM = AddressInfo(line1="2100 NW Front Avenue", city="Portland", region="OR", postal_code="97209")
#: The AvaTax company all transactions belong to.
COMPANY_CODE = "DEFAULT"


class Rate(NamedTuple):
    """One jurisdiction's rate: AvaTax ``jurisType``, ``jurisCode``, ``jurisName`` and rate (a fraction)."""

    juris_type: str
    juris_code: str
    juris_name: str
    rate: float


class Zone(NamedTuple):
    """A ZIP code's place and the jurisdictions that tax a delivery there."""

    city: str
    region: str
    county: str
    rates: tuple[Rate, ...]


JURISDICTIONS: dict[str, Zone] = {
    "97205": Zone("Portland", "OR", "Multnomah", ()),
    "02110": Zone("Boston", "MA", "Suffolk", (Rate("STA", "25", "MASSACHUSETTS", 0.0625),)),
    "78701": Zone("Austin", "TX", "Travis", (Rate("STA", "48", "TEXAS", 0.0625),
                                             Rate("CIT", "05000", "AUSTIN", 0.01),
                                             Rate("STJ", "3227684", "AUSTIN MTA TRANSIT", 0.01))),
    "80202": Zone("Denver", "CO", "Denver", (Rate("STA", "08", "COLORADO", 0.029),
                                             Rate("CIT", "20000", "DENVER", 0.0481),
                                             Rate("STJ", "RTD", "REGIONAL TRANSPORTATION DIST (RTD)", 0.01),
                                             Rate("STJ", "SCFD", "SCIENTIFIC AND CULTURAL FACILITIES DIST", 0.001))),
    "92101": Zone("San Diego", "CA", "San Diego", (Rate("STA", "06", "CALIFORNIA", 0.06),
                                                   Rate("CTY", "073", "SAN DIEGO", 0.0025),
                                                   Rate("STJ", "SL", "SAN DIEGO COUNTY LOCAL TAX SL", 0.01),
                                                   Rate("STJ", "SDTR", "SAN DIEGO TRANSNET (SDTR)", 0.005))),
    "19106": Zone("Philadelphia", "PA", "Philadelphia", (Rate("STA", "42", "PENNSYLVANIA", 0.06),
                                                         Rate("CTY", "101", "PHILADELPHIA", 0.02))),
    "60601": Zone("Chicago", "IL", "Cook", (Rate("STA", "17", "ILLINOIS", 0.0625), Rate("CTY", "031", "COOK", 0.0175),
                                            Rate("CIT", "14000", "CHICAGO", 0.0125),
                                            Rate("STJ", "RTA", "REGIONAL TRANSPORTATION AUTHORITY (RTA)", 0.01))),
    "98101": Zone("Seattle", "WA", "King", (Rate("STA", "53", "WASHINGTON", 0.065), Rate("CTY", "033", "KING", 0.002),
                                            Rate("CIT", "63000", "SEATTLE", 0.0225),
                                            Rate("STJ", "RTA", "SOUND TRANSIT (RTA)", 0.014))),
    "10001": Zone("New York", "NY", "New York", (Rate("STA", "36", "NEW YORK", 0.04),
                                                 Rate("CIT", "51000", "NEW YORK CITY", 0.045),
                                                 Rate("STJ", "MCTD", "METROPOLITAN COMMUTER TRANSPORTATION DISTRICT",
                                                      0.00375))),
}

#: AvaTax tax codes: code -> (description, {state: taxable fraction}; states not named tax it fully).
TAX_CODES: dict[str, tuple[str, dict[str, float]]] = {
    "P0000000": ("Tangible personal property", {}),
    "FR020100": ("Shipping only - common carrier - FOB destination",
                 {"MA": 0.0, "CO": 0.0, "CA": 0.0, "IL": 0.0}),
    "SW054000": ("Software as a service (SaaS), business use",
                 {"TX": 0.8, "CO": 0.0, "CA": 0.0, "IL": 0.0}),
    "NT": ("Non-taxable", {region: 0.0 for region in ("MA", "TX", "CO", "CA", "PA", "IL", "WA", "NY", "OR")}),
}
DEFAULT_TAX_CODE = "P0000000"


def taxable_fraction(tax_code: str, region: str) -> float:
    """The share of a line's amount that ``region`` taxes for ``tax_code`` (1.0 unless the table says otherwise)."""
    return TAX_CODES[tax_code][1].get(region, 1.0)


def total_rate(postal_code: str) -> float:
    """The combined rate of a ZIP code (a fraction, 6 decimals)."""
    return round(sum(r.rate for r in JURISDICTIONS[postal_code].rates), 6)


def compute(lines: list[LineIn], ship_to: AddressInfo, cert_id: Optional[str]) -> tuple[list[TransactionLine],
                                                                                     list[SummaryRow]]:
    """Tax each line shipped to ``ship_to``: per jurisdiction, rounded half up to the cent.

    Outside the US the company has no nexus: nothing is taxable or exempt.
    With a valid certificate (``cert_id``) every line is exempt in full.
    Returns the computed lines and the per-jurisdiction summary.
    """
    zone = JURISDICTIONS.get(ship_to.postal_code) if ship_to.country == "US" else None
    out: list[TransactionLine] = []
    for n, ln in enumerate(lines, start=1):
        code = ln.tax_code or DEFAULT_TAX_CODE
        amount = money(ln.amount)
        # A state without sales tax (Oregon) reports the whole line as non-taxable.
        taxed = zone is not None and zone.rates and not cert_id
        taxable = money(amount * taxable_fraction(code, zone.region)) if taxed else 0.0
        details = [TaxDetail(juris_type=r.juris_type, juris_code=r.juris_code, juris_name=r.juris_name, rate=r.rate,
                             taxable_amount=taxable, tax=money(taxable * r.rate),
                             tax_calculated=round(taxable * r.rate, 6)) for r in (zone.rates if zone else ())]
        out.append(TransactionLine(
            line_number=ln.number or str(n), item_code=ln.item_code, description=ln.description, tax_code=code,
            quantity=ln.quantity, line_amount=amount, taxable_amount=taxable,
            exempt_amount=money(amount - taxable) if zone is not None else 0.0,
            tax=money(sum(d.tax for d in details)), tax_calculated=round(sum(d.tax_calculated for d in details), 6),
            exempt_cert_id=cert_id if zone is not None else None, details=details))
    return out, summarize(out)


def summarize(lines: list[TransactionLine]) -> list[SummaryRow]:
    """AvaTax ``summary``: taxable and tax per jurisdiction over the lines, in first-seen order."""
    out: dict[tuple[str, str], SummaryRow] = {}
    for ln in lines:
        for d in ln.details:
            row = out.setdefault((d.juris_type, d.juris_name), SummaryRow(juris_type=d.juris_type,
                                                                          juris_name=d.juris_name, rate=d.rate,
                                                                          taxable=0.0, tax=0.0))
            row.taxable, row.tax = money(row.taxable + d.taxable_amount), money(row.tax + d.tax)
    return list(out.values())


def valid_certificate(certs: Iterable[Certificate], customer_code: str, region: str, day: dt.date
                      ) -> Optional[Certificate]:
    """The customer's certificate that exempts a sale shipped to ``region`` on ``day``: on file (not
    revoked), for that state, signed by then and not expired. None: the sale is taxed."""
    for c in certs:
        if (c.customer_code == customer_code and c.status == "COMPLETE" and c.exposure_zone == region
                and c.signed_date <= day <= c.expiration_date):
            return c
    return None


def make_transaction(tid: str, code: str, day: dt.date, customer_code: str, ship_to: AddressInfo,
                     lines: list[LineIn], cert_id: Optional[str], today: dt.date, **fields: Any) -> TaxTransaction:
    """A Saved SalesInvoice (unless ``fields`` say otherwise) with its lines taxed and totalled."""
    computed, summary = compute(lines, ship_to, cert_id)
    return TaxTransaction(
        id=tid, code=code, company_code=COMPANY_CODE, type=fields.pop("type", "SalesInvoice"), date=day,
        status=fields.pop("status", "Saved"), customer_code=customer_code, ship_from=SHIP_FROM, ship_to=ship_to,
        lines=computed, summary=summary, total_amount=money(sum(ln.line_amount for ln in computed)),
        total_exempt=money(sum(ln.exempt_amount for ln in computed)),
        total_taxable=money(sum(ln.taxable_amount for ln in computed)),
        total_tax=money(sum(ln.tax for ln in computed)),
        total_tax_calculated=round(sum(ln.tax_calculated for ln in computed), 6), modified_date=today, **fields)


__all__ = ["COMPANY_CODE", "DEFAULT_TAX_CODE", "JURISDICTIONS", "Rate", "SHIP_FROM", "TAX_CODES", "Zone", "compute",
           "make_transaction", "summarize", "taxable_fraction", "total_rate", "valid_certificate"]
