"""Records, tariff table and ports of the customs service (US CBP ACE entries; see ``customs.py``).

An entry (CBP Form 7501 data as a broker transmits it to ACE over ABI)
carries the importer of record and its IOR number, the mode of transport,
port of entry, bill of lading or air waybill, the carrier's tracking number,
the purchase order and supplier it is for, and HTS-classified lines with
country of origin and entered value. The tariff table is a small, real slice
of the Harmonized Tariff Schedule (general column-1 ad valorem rates).
"""

from __future__ import annotations

from typing import Literal, NamedTuple, Optional

from pydantic import Field

from compoworld_gym.entities import CompanyName, Country, Date, DateTime, Id, Money, TrackingNumber
from compoworld_gym.service import Record, ServiceState

EntryStatus = Literal["draft", "filed", "under_review", "held", "released"]
EntryType = Literal["01", "11"]
Mode = Literal["ocean", "air", "truck"]
HoldType = Literal["CBP exam", "FDA hold", "FCC review", "Document review", "CPSC hold"]
DocumentType = Literal["commercial_invoice", "packing_list", "bill_of_lading", "air_waybill", "truck_manifest",
                       "fcc_form_740", "fda_prior_notice", "certificate_of_origin"]
PaymentMethod = Literal["ach_debit", "ach_credit", "daily_statement"]

#: Merchandise processing fee (19 CFR 24.23, FY2025): formal entries pay 0.3464% of value within a min and max.
MPF_RATE, MPF_MIN, MPF_MAX = 0.003464, 32.71, 634.62
#: Informal entries (type 11, value up to INFORMAL_LIMIT) pay a flat, automated MPF.
MPF_INFORMAL, INFORMAL_LIMIT = 2.62, 2500.0
#: Harbor maintenance fee: 0.125% of the value of cargo arriving by vessel.
HMF_RATE = 0.00125
#: Transport document each mode needs.
TRANSPORT_DOCUMENT: dict[str, str] = {"ocean": "bill_of_lading", "air": "air_waybill", "truck": "truck_manifest"}


class HtsCode(NamedTuple):
    """A 10-digit HTS statistical line: code, description, general duty rate (fraction), unit, agency flag."""

    code: str
    description: str
    rate: float
    unit: str
    agency: Optional[str]


HTS: dict[str, HtsCode] = {h.code: h for h in (
    HtsCode("8471.60.2000", "Keyboards for automatic data processing machines", 0.0, "No.", None),
    HtsCode("8471.60.9050", "Other input units for ADP machines (mice, trackballs)", 0.0, "No.", None),
    HtsCode("8473.30.5100", "Parts and accessories of ADP machines (hubs, docks)", 0.0, "No.", None),
    HtsCode("8528.52.0000", "Monitors capable of directly connecting to an ADP machine", 0.0, "No.", "FCC"),
    HtsCode("8525.89.5000", "Television cameras, other (webcams)", 0.021, "No.", "FCC"),
    HtsCode("8518.30.2000", "Headphones and earphones combined with a microphone", 0.049, "No.", "FCC"),
    HtsCode("8544.42.9090", "Insulated electric conductors fitted with connectors, other", 0.026, "kg", None),
    HtsCode("8504.40.9580", "Static converters (power supplies), other", 0.0, "No.", None),
    HtsCode("9401.30.8031", "Swivel seats with variable height adjustment, other", 0.0, "No.", None),
    HtsCode("9403.20.0090", "Other metal furniture (desk frames)", 0.0, "No.", None),
    HtsCode("9405.21.8000", "Electric table, desk, bedside or floor-standing lamps, other", 0.039, "No.", None),
    HtsCode("4820.10.2030", "Diaries, notebooks and address books", 0.0, "No.", None),
    HtsCode("9608.10.0000", "Ball point pens, including gel pens", 0.054, "No.", None),
    HtsCode("4202.92.3131", "Backpacks with outer surface of man-made textile fibres", 0.176, "No.", None),
    HtsCode("6307.90.9891", "Other made up textile articles (felt mats)", 0.07, "kg", None),
    HtsCode("6109.10.0012", "Men's T-shirts, knitted, of cotton", 0.165, "doz.", None),
    HtsCode("3926.90.9985", "Other articles of plastics", 0.053, "kg", None),
    HtsCode("7323.93.0080", "Table and kitchen articles of stainless steel, other", 0.02, "kg", None),
    HtsCode("0901.21.0020", "Coffee, roasted, not decaffeinated, in retail containers of 2 kg or less", 0.0, "kg",
            "FDA"),
)}
#: Document each partner agency needs for its flagged HTS lines.
AGENCY_DOCUMENT: dict[str, str] = {"FCC": "fcc_form_740", "FDA": "fda_prior_notice"}


class Port(NamedTuple):
    """A CBP port of entry: four-digit code, name and the modes it clears."""

    code: str
    name: str
    modes: tuple[str, ...]


PORTS: dict[str, Port] = {p.code: p for p in (
    Port("2704", "Los Angeles, CA", ("ocean",)), Port("2709", "Long Beach, CA", ("ocean",)),
    Port("2720", "Los Angeles International Airport, CA", ("air",)), Port("4601", "Newark, NJ", ("ocean",)),
    Port("4701", "John F. Kennedy Airport, NY", ("air",)), Port("3901", "Chicago, IL", ("air", "truck")),
    Port("2304", "Laredo, TX", ("truck",)), Port("5301", "Houston, TX", ("ocean", "air")),
)}


class Importer(Record):
    """An importer of record the broker files for."""

    id: str = Field(description="Importer id, e.g. IMP-0001.")
    name: CompanyName = Field(description="Importer of record's legal name.")
    ior_number: str = Field(description="IOR number (IRS EIN plus suffix), e.g. 84-2917365-00.")
    bond_number: str = Field(description="Continuous customs bond number.")


class EntryLine(Record):
    """An HTS-classified line of an entry."""

    line_number: int = Field(ge=1, description="Line number (1-based).")
    hts_code: str = Field(description="10-digit HTS code, e.g. 8471.60.2000.")
    description: str = Field(description="Merchandise description.")
    country_of_origin: Country = Field(description="ISO alpha-2 country of origin.")
    quantity: float = Field(gt=0, description="Quantity in the HTS unit.")
    value: Money = Field(gt=0, description="Entered value (USD).")
    duty_rate: float = Field(ge=0, description="General duty rate (fraction, 0.049 = 4.9%).")
    duty: Money = Field(ge=0, description="value x duty_rate (USD).")


class Hold(Record):
    """A hold CBP or a partner government agency placed on an entry."""

    id: str = Field(description="Hold id, e.g. HLD-0001.")
    hold_type: HoldType = Field(description="Who holds and why in short.")
    reason: str = Field(description="Reason given.")
    status: Literal["open", "resolved"] = Field(description="open or resolved.")
    placed_on: Date = Field(description="Date placed.")
    resolved_on: Optional[Date] = Field(default=None, description="Date resolved.")
    resolution: Optional[str] = Field(default=None, description="How it was resolved.")


class EntryDocument(Record):
    """A document an entry requires (or carries)."""

    document_type: DocumentType = Field(description="Kind of document.")
    required: bool = Field(description="Whether the entry cannot be filed without it.")
    status: Literal["missing", "received"] = Field(description="missing or received.")
    file_name: Optional[str] = Field(default=None, description="Uploaded file, once received.")


class DutyPayment(Record):
    """Payment of an entry's duties and fees."""

    amount: Money = Field(description="Amount paid (USD).")
    method: PaymentMethod = Field(description="ACH debit, ACH credit or daily statement.")
    reference: str = Field(default="", description="Payer's reference.")
    paid_on: Date = Field(description="Date paid.")


class EntryNote(Record):
    """A broker's note on an entry."""

    text: str = Field(description="Note text.")
    at: DateTime = Field(description="When written (logical clock).")


class Entry(Record):
    """A customs entry (CBP Form 7501 data)."""

    id: Id("customs_entry") = Field(description="Entry id, e.g. ENT-0001.")
    entry_number: str = Field(description="CBP entry number: filer code, serial, check digit.")
    entry_type: EntryType = Field(description="01 formal consumption entry, 11 informal.")
    importer_id: str = Field(description="Importer of record id.")
    importer_name: CompanyName = Field(description="Importer of record.")
    ior_number: str = Field(description="Importer of record number.")
    mode: Mode = Field(description="Mode of transport.")
    port_code: str = Field(description="Port of entry code.")
    port_name: str = Field(description="Port of entry.")
    bill_of_lading: str = Field(description="Bill of lading, air waybill or manifest number.")
    tracking_number: Optional[TrackingNumber] = Field(default=None, description="Carrier tracking number.")
    purchase_order_id: Optional[Id("purchase_order")] = Field(default=None, description="Purchase order imported.")
    supplier: CompanyName = Field(description="Seller / manufacturer.")
    country_of_export: Country = Field(description="ISO alpha-2 country of export.")
    arrival_date: Date = Field(description="Date of arrival at the port.")
    lines: list[EntryLine] = Field(default_factory=list, description="HTS lines.")
    entered_value: Money = Field(ge=0, description="Sum of line values (USD).")
    duty: Money = Field(ge=0, description="Sum of line duties (USD).")
    mpf: Money = Field(ge=0, description="Merchandise processing fee (USD).")
    hmf: Money = Field(ge=0, description="Harbor maintenance fee, ocean only (USD).")
    total_due: Money = Field(ge=0, description="duty + mpf + hmf (USD).")
    status: EntryStatus = Field(description="draft, filed, under_review, held or released.")
    holds: list[Hold] = Field(default_factory=list, description="Holds, oldest first.")
    documents: list[EntryDocument] = Field(default_factory=list, description="Documents required or received.")
    created_on: Date = Field(description="Date created.")
    filed_on: Optional[Date] = Field(default=None, description="Date transmitted to CBP.")
    released_on: Optional[Date] = Field(default=None, description="Date CBP released the goods.")
    payment: Optional[DutyPayment] = Field(default=None, description="Duty payment, once paid.")
    notes: list[EntryNote] = Field(default_factory=list, description="Broker notes, oldest first.")


class CustomsState(ServiceState):
    """Importers and entries."""

    importers: dict[str, Importer] = Field(default_factory=dict, description="Importers of record by id.")
    entries: dict[str, Entry] = Field(default_factory=dict, description="Entries by id.")
