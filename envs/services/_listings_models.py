"""Records of the listings service (RESO Data Dictionary resources).

Field names are the snake_case forms of the RESO Data Dictionary fields
(``ListPrice`` -> ``list_price``, ``StandardStatus`` -> ``standard_status``,
``UnparsedAddress`` -> ``unparsed_address``, ``ShowingStartTimestamp`` ->
``showing_start_timestamp``); enumerations keep RESO's values ("Active",
"Single Family Residence", "Conventional"). The record key ``id`` is the
RESO ``ListingKey`` / ``ShowingKey``; offers follow the MLS offer forms that
feed ``PurchaseContractDate``, ``BuyerFinancing`` and ``ClosePrice``.
"""

from __future__ import annotations

from typing import Literal, Optional

from pydantic import Field

from compoworld_gym.entities import Address, City, Date, DateTime, Email, Id, Money, PersonName
from compoworld_gym.service import Record, ServiceState

StandardStatus = Literal["Active", "Pending", "Closed", "Withdrawn", "Expired"]
PropertySubType = Literal["Single Family Residence", "Condominium", "Townhouse"]
BuyerFinancing = Literal["Cash", "Conventional", "FHA", "VA"]
OfferStatus = Literal["Submitted", "Countered", "Accepted", "Rejected", "Withdrawn", "Terminated"]
ShowingStatus = Literal["Scheduled", "Completed", "Cancelled"]
#: Offer statuses still awaiting an answer.
LIVE_OFFER = ("Submitted", "Countered")


class HistoryTransactional(Record):
    """One logged change of a listing (RESO ``HistoryTransactional``)."""

    change_type: Literal["New Listing", "Price Change", "Status Change"] = Field(description="What changed.")
    field_name: str = Field(description="The RESO field changed, e.g. ListPrice.")
    previous_value: Optional[str] = Field(default=None, description="Value before.")
    new_value: str = Field(description="Value after.")
    modification_date: Date = Field(description="Day of the change.")


class Listing(Record):
    """A listed home (RESO ``Property``)."""

    id: Id("listing") = Field(description="ListingKey, e.g. LST-0001.")
    standard_status: StandardStatus = Field(description="Active, Pending, Closed, Withdrawn or Expired.")
    property_type: Literal["Residential"] = Field(default="Residential", description="RESO PropertyType.")
    property_sub_type: PropertySubType = Field(description="Kind of home.")
    unparsed_address: Address = Field(description="Street address (number and street).")
    city: City = Field(description="City.")
    state_or_province: str = Field(description="US state code.")
    postal_code: str = Field(description="ZIP code.")
    bedrooms_total: int = Field(ge=0, description="Bedrooms.")
    bathrooms_total_integer: int = Field(ge=0, description="Bathrooms.")
    living_area: int = Field(ge=100, description="Finished floor area (sq ft).")
    year_built: int = Field(ge=1800, description="Year built.")
    list_price: Money = Field(gt=0, description="Current asking price (USD).")
    original_list_price: Money = Field(gt=0, description="Asking price when listed (USD).")
    list_agent_full_name: PersonName = Field(description="Listing agent.")
    list_agent_email: Email = Field(description="Listing agent's email.")
    list_office_name: str = Field(description="Listing brokerage.")
    listing_contract_date: Date = Field(description="Day the listing agreement was signed (on market).")
    expiration_date: Date = Field(description="Last day of the listing agreement.")
    public_remarks: str = Field(default="", description="Marketing remarks.")
    purchase_contract_date: Optional[Date] = Field(default=None, description="Day an offer was accepted.")
    buyer_agent_full_name: Optional[PersonName] = Field(default=None, description="Buyer's agent of the sale.")
    buyer_agent_email: Optional[Email] = Field(default=None, description="Their email.")
    buyer_financing: Optional[BuyerFinancing] = Field(default=None, description="How the buyer pays.")
    close_price: Optional[Money] = Field(default=None, description="Sale price at closing (USD).")
    close_date: Optional[Date] = Field(default=None, description="Day the sale closed.")
    off_market_date: Optional[Date] = Field(default=None, description="Day it was withdrawn or expired.")
    history: list[HistoryTransactional] = Field(default_factory=list, description="Logged changes, oldest first.")


class Showing(Record):
    """A showing appointment (RESO ``Showing``)."""

    id: Id("showing") = Field(description="ShowingKey, e.g. SHW-0001.")
    listing_id: Id("listing") = Field(description="ListingKey of the home shown.")
    showing_start_timestamp: DateTime = Field(description="Start.")
    showing_end_timestamp: DateTime = Field(description="End.")
    showing_agent_full_name: PersonName = Field(description="Agent bringing the buyers.")
    showing_agent_email: Email = Field(description="Their email.")
    status: ShowingStatus = Field(description="Scheduled, Completed or Cancelled.")
    remarks: str = Field(default="", description="Notes for the listing agent.")
    feedback: Optional[str] = Field(default=None, description="Showing agent's feedback afterwards.")


class Offer(Record):
    """An offer to buy a listing (the MLS offer form)."""

    id: Id("offer") = Field(description="Offer id, e.g. OFR-0001.")
    listing_id: Id("listing") = Field(description="ListingKey of the home.")
    buyer_name: PersonName = Field(description="Buyer's name.")
    buyer_email: Email = Field(description="Buyer's email.")
    buyer_agent_full_name: PersonName = Field(description="Buyer's agent.")
    buyer_agent_email: Email = Field(description="Buyer's agent's email.")
    offer_price: Money = Field(gt=0, description="Price offered (USD); the agreed price once accepted.")
    earnest_money_amount: Money = Field(ge=0, description="Earnest money deposit (USD).")
    buyer_financing: BuyerFinancing = Field(description="Cash, Conventional, FHA or VA.")
    proposed_close_date: Date = Field(description="Closing day the buyer proposes.")
    offer_expiration_date: Date = Field(description="Last day the seller can accept.")
    status: OfferStatus = Field(description="Submitted, Countered, Accepted, Rejected, Withdrawn or Terminated.")
    counter_price: Optional[Money] = Field(default=None, description="Seller's counter price (USD).")
    submitted_on: Date = Field(description="Day it was submitted.")
    responded_on: Optional[Date] = Field(default=None, description="Day the seller last answered.")
    response_note: Optional[str] = Field(default=None, description="Seller's remark with the answer.")


class ListingsState(ServiceState):
    """Listings, showings and offers of the MLS."""

    listings: dict[str, Listing] = Field(default_factory=dict, description="Listings by ListingKey.")
    showings: dict[str, Showing] = Field(default_factory=dict, description="Showings by ShowingKey.")
    offers: dict[str, Offer] = Field(default_factory=dict, description="Offers by id.")
