"""Records of the fixed assets service (NetSuite Fixed Assets Management / Sage Intacct Fixed Assets style).

Field names follow the asset record of both products, snake_cased: asset
number, asset class (NetSuite "asset type", Intacct "asset classification")
with its default useful life, residual value percentage and depreciation
method, cost (original cost), acquisition date, in-service date
(NetSuite "depreciation start date", Intacct "in service date"), useful
life in months ("asset lifetime"), residual value, location, custodian, the
purchase order and vendor bill it was bought on, and its disposal (date,
method, proceeds, gain or loss) and transfer history. Accumulated
depreciation and net book value are computed on read, never stored.
"""

from __future__ import annotations

from typing import Literal, Optional

from pydantic import Field

from compoworld_gym.entities import City, CompanyName, Date, DateTime, Email, Id, Money, PersonName
from compoworld_gym.service import Record, ServiceState

AssetStatus = Literal["pending", "in_service", "disposed"]
DisposalMethod = Literal["sale", "scrap", "donation", "write_off"]
#: The only depreciation method in use (both products' "straight line").
METHOD = "straight_line"


class AssetClass(Record):
    """An asset class (NetSuite asset type / Intacct asset classification) with its defaults."""

    id: str = Field(description="Class id, e.g. CLS-COMP.")
    name: str = Field(description="Class name, e.g. 'Computer Equipment'.")
    default_life_months: int = Field(ge=1, le=600, description="Default useful life in months.")
    residual_pct: float = Field(ge=0, lt=1, description="Default residual value as a share of cost.")
    depreciation_method: Literal["straight_line"] = Field(default=METHOD, description="Depreciation method.")
    asset_account: str = Field(description="GL asset account, e.g. '1510 Computer Equipment'.")
    accumulated_account: str = Field(description="GL accumulated depreciation account.")
    expense_account: str = Field(description="GL depreciation expense account.")


class Custodian(Record):
    """An employee who can hold assets (the staff roster)."""

    id: str = Field(description="Custodian id, e.g. CUS-0001.")
    name: PersonName = Field(description="Employee's full name.")
    email: Email = Field(description="Employee's work email.")
    department: str = Field(default="", description="Employee's team.")


class Transfer(Record):
    """One custodian or location change of an asset."""

    transferred_on: Date = Field(description="Transfer date.")
    from_custodian_email: Email = Field(description="Custodian before.")
    to_custodian_email: Email = Field(description="Custodian after.")
    from_location: str = Field(description="Location before.")
    to_location: str = Field(description="Location after.")
    reason: str = Field(default="", description="Why.")


class AssetNote(Record):
    """A note on an asset."""

    author_email: Email = Field(description="Who wrote it.")
    body: str = Field(description="Note text.")
    created_at: DateTime = Field(description="When.")


class FixedAsset(Record):
    """An asset record."""

    id: Id("fixed_asset") = Field(description="Asset number, e.g. FA-0001.")
    name: str = Field(description="Asset name, e.g. 'Standing Desk Frame x20'.")
    description: str = Field(default="", description="What the asset is.")
    serial_number: str = Field(default="", description="Serial or tag number.")
    class_id: str = Field(description="Asset class.")
    cost: Money = Field(gt=0, description="Original cost (USD).")
    residual_value: Money = Field(ge=0, description="Residual (salvage) value at the end of its life (USD).")
    useful_life_months: int = Field(ge=1, le=600, description="Useful life in months.")
    depreciation_method: Literal["straight_line"] = Field(default=METHOD, description="Depreciation method.")
    acquisition_date: Date = Field(description="Date acquired.")
    in_service_date: Optional[Date] = Field(default=None, description="Date placed in service; depreciation "
                                                                     "starts that month. Empty while pending.")
    status: AssetStatus = Field(description="pending (not in service), in_service or disposed.")
    location: str = Field(description="Site holding the asset, e.g. 'San Francisco HQ'.")
    city: City = Field(description="City of the site.")
    custodian_email: Email = Field(description="Employee responsible for the asset.")
    custodian_name: PersonName = Field(description="Custodian's name.")
    vendor_name: CompanyName = Field(default="", description="Vendor it was bought from.")
    vendor_id: Optional[Id("vendor")] = Field(default=None, description="The vendor's id.")
    po_id: Optional[Id("purchase_order")] = Field(default=None, description="Purchase order it was bought on.")
    bill_id: Optional[Id("bill")] = Field(default=None, description="Vendor bill it was paid on.")
    disposal_id: Optional[Id("asset_disposal")] = Field(default=None, description="Its disposal, once disposed.")
    transfers: list[Transfer] = Field(default_factory=list, description="Transfer history, oldest first.")
    notes: list[AssetNote] = Field(default_factory=list, description="Notes, oldest first.")


class AssetDisposal(Record):
    """A disposal (retirement) of an asset, with its gain or loss."""

    id: Id("asset_disposal") = Field(description="Disposal id, e.g. AD-0001.")
    asset_id: Id("fixed_asset") = Field(description="The asset disposed.")
    disposal_date: Date = Field(description="Date disposed; depreciation runs through the month before.")
    method: DisposalMethod = Field(description="sale, scrap, donation or write_off.")
    proceeds: Money = Field(ge=0, description="Sale proceeds (USD; 0 unless sold).")
    buyer: str = Field(default="", description="Who bought it, for a sale.")
    cost: Money = Field(description="The asset's cost.")
    accumulated_depreciation: Money = Field(description="Accumulated depreciation at disposal.")
    net_book_value: Money = Field(description="Net book value at disposal.")
    gain_loss: Money = Field(description="proceeds - net book value (negative: a loss).")
    notes: str = Field(default="", description="Disposal notes.")
    created_by: Email = Field(description="Who recorded it.")
    created_at: DateTime = Field(description="When recorded.")


class FixedAssetsState(ServiceState):
    """Asset classes, custodians, assets and disposals."""

    classes: dict[str, AssetClass] = Field(default_factory=dict, description="Asset classes by id.")
    custodians: dict[str, Custodian] = Field(default_factory=dict, description="Custodians by id.")
    assets: dict[str, FixedAsset] = Field(default_factory=dict, description="Assets by asset number.")
    disposals: dict[str, AssetDisposal] = Field(default_factory=dict, description="Disposals by id.")
