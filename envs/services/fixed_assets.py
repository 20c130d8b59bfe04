"""Fixed assets: the asset register, straight-line depreciation, transfers and disposals.

No fixed-asset server is in ``compoworld_gym/data/mcp_servers.jsonl``
(``spec_source = None``); the interface follows NetSuite Fixed Assets
Management (the FAM Asset record: asset number, asset type, original cost,
residual value, asset lifetime in months, depreciation method, depreciation
start date, asset location, custodian, purchase order and bill; Asset
Transfer, Asset Disposal with sales amount and gain/loss, the depreciation
schedule and the asset register report) and the Sage Intacct Fixed Assets
API (``fixed-asset`` objects: ``assetId``, ``classification``,
``acquisitionCost``, ``acquisitionDate``, ``inServiceDate``, ``salvageValue``,
``usefulLife``, ``status`` in service / disposed, ``disposal`` with
``disposalDate``, ``salesPrice`` and ``gainLoss``).

Rules of the real products: straight-line depreciation by month, (cost -
residual value) / useful life, from the in-service month (full-month
convention), computed from the record whenever it is read; cost must be
positive and the residual value below it; the in-service date may not be
before the acquisition date; a pending asset is placed in service once; a
disposal records proceeds and gain/loss = proceeds - net book value, the
asset depreciating through the month before; a disposed asset cannot be
revised (depreciated further), transferred or disposed again; a custodian
must be an employee. Left out: other depreciation methods, books (tax vs.
GAAP), journal posting to the GL, leases, splits and revaluations.
"""

from __future__ import annotations

import datetime as dt
import random
from typing import Optional

from faker import Faker
from pydantic import Field

from compoworld_gym.entities import CompanyName, Date, Email, Id, Money
from compoworld_gym.envs.services._blocks import eq, ieq, select
from compoworld_gym.envs.services._commerce import MONEY_MAX, money
from compoworld_gym.envs.services._fixed_assets_models import (
    AssetClass, AssetDisposal, AssetNote, AssetStatus, Custodian, DisposalMethod, FixedAsset, FixedAssetsState,
    Transfer,
)
from compoworld_gym.envs.services._fixed_assets_rules import figures, schedule
from compoworld_gym.envs.services._fixed_assets_seed import SITES, build_seed_state, seed_for
from compoworld_gym.errors import Conflict, InvalidArgument, NotFound, Unprocessable
from compoworld_gym.service import Service, tool

Limit = Field(default=50, ge=1, le=200)


class FixedAssets(Service):
    """NetSuite FAM / Sage Intacct style fixed asset register."""

    name = "fixed_assets"
    description = ("Fixed assets (NetSuite FAM / Sage Intacct): the asset register with classes, cost, in-service "
                   "dates, custodians and locations, straight-line depreciation schedules and net book value, "
                   "transfers between custodians and disposals with gain or loss.")
    domain = "finance"
    spec_source = None
    State = FixedAssetsState

    # ---------------------------------------------------------------- helpers
    def _asset(self, asset_id: str) -> FixedAsset:
        return self.lookup(self.state.assets, asset_id, "fixed asset")

    def _disposed_on(self, a: FixedAsset) -> Optional[dt.date]:
        return self.state.disposals[a.disposal_id].disposal_date if a.disposal_id else None

    def _view(self, a: FixedAsset) -> dict:
        return {**a.model_dump(), **figures(a, self.today, self._disposed_on(a))}

    def _live(self, a: FixedAsset, action: str) -> None:
        if a.status == "disposed":
            raise Conflict(f"fixed asset {a.id} was disposed ({a.disposal_id}); a disposed asset cannot be {action}.")

    def _custodian(self, email: str) -> Custodian:
        e = email.strip().lower()
        for c in self.state.custodians.values():
            if c.email.lower() == e:
                return c
        raise NotFound(f"no employee {email!r} can hold assets; a custodian must be an employee (list_custodians).")

    def _site(self, location: str) -> str:
        for s in SITES:
            if s.lower() == location.strip().lower():
                return s
        raise NotFound(f"location {location!r} is not a site; use one of {', '.join(SITES)}.")

    # ------------------------------------------------------------------ reads
    @tool(read_only=True, returns=list[AssetClass])
    def list_asset_classes(self) -> list[dict]:
        """List asset classes with their default useful life, residual share and GL accounts."""
        return [c.model_dump() for c in self.state.classes.values()]

    @tool(read_only=True, returns=list[Custodian])
    def list_custodians(self, email: Optional[Email] = None) -> list[dict]:
        """List employees who can hold assets.

        Args:
            email: the employee's work email (case-insensitive).
        """
        return [c.model_dump() for c in select(self.state.custodians.values(), ieq("email", email))]

    @tool(read_only=True, returns=list[FixedAsset])
    def list_assets(self, class_id: Optional[str] = None, status: Optional[AssetStatus] = None,
                    custodian_email: Optional[Email] = None, location: Optional[str] = None,
                    vendor_name: Optional[CompanyName] = None, po_id: Optional[Id("purchase_order")] = None,
                    bill_id: Optional[Id("bill")] = None, query: Optional[str] = Field(default=None, max_length=100),
                    limit: int = Limit) -> list[dict]:
        """Search the asset register; each row has its computed accumulated depreciation and net book value.

        Args:
            class_id: only this asset class, e.g. CLS-COMP.
            status: pending, in_service or disposed.
            custodian_email: the custodian's work email (case-insensitive).
            location: the site, e.g. 'San Francisco HQ' (case-insensitive).
            vendor_name: the vendor bought from (case-insensitive).
            po_id: the purchase order bought on, e.g. PO-0005.
            bill_id: the vendor bill paid on, e.g. BIL-0002.
            query: text in the name, description or serial number (case-insensitive).
            limit: maximum number of assets (1-200).
        """
        q = (lambda a: query.lower() in f"{a.name} {a.description} {a.serial_number}".lower()) if query else None
        rows = select(self.state.assets.values(), eq("class_id", class_id), eq("status", status),
                      ieq("custodian_email", custodian_email), ieq("location", location),
                      ieq("vendor_name", vendor_name), eq("po_id", po_id), eq("bill_id", bill_id), q, limit=limit)
        return [self._view(a) for a in rows]

    @tool(read_only=True, returns=FixedAsset)
    def get_asset(self, asset_id: Id("fixed_asset")) -> dict:
        """Get one asset with today's accumulated depreciation, net book value and remaining life.

        Args:
            asset_id: the asset number, e.g. FA-0003.
        """
        return self._view(self._asset(asset_id))

    @tool(read_only=True)
    def calculate_depreciation(self, asset_id: Id("fixed_asset"), as_of: Date) -> dict:
        """An asset's depreciation figures as of a date (periods, accumulated depreciation, net book value).

        Args:
            asset_id: the asset number.
            as_of: the date, YYYY-MM-DD (a disposed asset stops at its disposal).
        """
        a = self._asset(asset_id)
        return {"asset_id": a.id, **figures(a, as_of, self._disposed_on(a))}

    @tool(read_only=True)
    def get_depreciation_schedule(self, asset_id: Id("fixed_asset")) -> dict:
        """An asset's straight-line schedule: one row per month of its life (to disposal, if disposed).

        Args:
            asset_id: the asset number.
        """
        a = self._asset(asset_id)
        return {"asset_id": a.id, "method": a.depreciation_method, "cost": a.cost,
                "residual_value": a.residual_value, "useful_life_months": a.useful_life_months,
                "periods": schedule(a, self._disposed_on(a), self.today)}

    @tool(read_only=True)
    def get_asset_register_summary(self, class_id: Optional[str] = None) -> list[dict]:
        """The asset register report: cost, accumulated depreciation and net book value per class, as of today.

        Args:
            class_id: only this class.
        """
        out = []
        for c in select(self.state.classes.values(), eq("id", class_id)):
            views = [self._view(a) for a in self.state.assets.values() if a.class_id == c.id and a.status != "disposed"]
            out.append({"class_id": c.id, "name": c.name, "assets": len(views),
                        "cost": money(sum(v["cost"] for v in views)),
                        "accumulated_depreciation": money(sum(v["accumulated_depreciation"] for v in views)),
                        "net_book_value": money(sum(v["net_book_value"] for v in views))})
        return out

    @tool(read_only=True, returns=list[AssetDisposal])
    def list_disposals(self, asset_id: Optional[Id("fixed_asset")] = None,
                       method: Optional[DisposalMethod] = None) -> list[dict]:
        """List disposals with their proceeds and gain or loss.

        Args:
            asset_id: only this asset's disposal.
            method: sale, scrap, donation or write_off.
        """
        return [d.model_dump() for d in select(self.state.disposals.values(), eq("asset_id", asset_id),
                                               eq("method", method))]

    @tool(read_only=True, returns=AssetDisposal)
    def get_disposal(self, disposal_id: Id("asset_disposal")) -> dict:
        """Get one disposal.

        Args:
            disposal_id: the disposal id, e.g. AD-0001.
        """
        return self.lookup(self.state.disposals, disposal_id, "disposal").model_dump()

    # ----------------------------------------------------------------- writes
    @tool(read_only=False, returns=FixedAsset)
    def create_asset(self, name: str = Field(min_length=2, max_length=120), class_id: str = "CLS-COMP",
                     cost: Money = Field(gt=0, le=MONEY_MAX), acquisition_date: Date = Field(),
                     custodian_email: Email = Field(max_length=200), location: str = "San Francisco HQ",
                     in_service_date: Optional[Date] = None, residual_value: Optional[Money] = Field(
                         default=None, ge=0, le=MONEY_MAX), useful_life_months: Optional[int] = Field(
                         default=None, ge=1, le=600), vendor_name: CompanyName = Field(default="", max_length=120),
                     po_id: Optional[Id("purchase_order")] = None, bill_id: Optional[Id("bill")] = None,
                     serial_number: str = Field(default="", max_length=60)) -> dict:
        """Add an asset to the register (pending until it has an in-service date).

        Args:
            name: the asset's name.
            class_id: the asset class; its life and residual share are the defaults.
            cost: original cost (USD, positive).
            acquisition_date: date acquired (not in the future).
            custodian_email: the employee responsible.
            location: the site holding it.
            in_service_date: date placed in service (not before acquisition); empty leaves it pending.
            residual_value: residual value (USD, below cost); default the class's share of cost.
            useful_life_months: useful life; default the class's.
            vendor_name: the vendor bought from.
            po_id: the purchase order, e.g. PO-0005.
            bill_id: the vendor bill, e.g. BIL-0001.
            serial_number: serial or tag number.
        """
        cls = self.lookup(self.state.classes, class_id, "asset class")
        keeper, site = self._custodian(custodian_email), self._site(location)
        if acquisition_date > self.today:
            raise Unprocessable(f"acquisition_date {acquisition_date} is in the future.")
        if in_service_date is not None and in_service_date < acquisition_date:
            raise Unprocessable(f"in_service_date {in_service_date} is before acquisition_date {acquisition_date}.")
        residual = money(cost * cls.residual_pct) if residual_value is None else money(residual_value)
        if residual >= cost:
            raise Unprocessable(f"residual_value {residual:.2f} must be below the cost {cost:.2f}.")
        a = FixedAsset(id=self.new_id("FA"), name=name, serial_number=serial_number, class_id=cls.id,
                       cost=money(cost), residual_value=residual,
                       useful_life_months=useful_life_months or cls.default_life_months,
                       acquisition_date=acquisition_date, in_service_date=in_service_date,
                       status="in_service" if in_service_date else "pending", location=site, city=SITES[site],
                       custodian_email=keeper.email, custodian_name=keeper.name, vendor_name=vendor_name,
                       po_id=po_id, bill_id=bill_id)
        self.state.assets[a.id] = a
        return self._view(a)

    @tool(read_only=False, returns=FixedAsset)
    def place_in_service(self, asset_id: Id("fixed_asset"), in_service_date: Date) -> dict:
        """Place a pending asset in service; depreciation starts that month.

        Args:
            asset_id: a pending asset.
            in_service_date: not before its acquisition date, not in the future.
        """
        a = self._asset(asset_id)
        self._live(a, "placed in service")
        if a.status != "pending":
            raise Conflict(f"fixed asset {a.id} is already in service since {a.in_service_date}.")
        if in_service_date < a.acquisition_date or in_service_date > self.today:
            raise Unprocessable(f"in_service_date {in_service_date} must fall between the acquisition date "
                                f"{a.acquisition_date} and today.")
        a.in_service_date, a.status = in_service_date, "in_service"
        return self._view(a)

    @tool(read_only=False, returns=FixedAsset)
    def revise_asset(self, asset_id: Id("fixed_asset"), useful_life_months: Optional[int] = Field(
                     default=None, ge=1, le=600), residual_value: Optional[Money] = Field(
                     default=None, ge=0, le=MONEY_MAX)) -> dict:
        """Revise an asset's depreciation (useful life or residual value); the schedule is recomputed.

        Args:
            asset_id: an asset not disposed.
            useful_life_months: the new useful life (not below the periods already depreciated).
            residual_value: the new residual value (below cost).
        """
        a = self._asset(asset_id)
        self._live(a, "depreciated or revised")
        if useful_life_months is None and residual_value is None:
            raise InvalidArgument("give useful_life_months or residual_value to revise.")
        done = figures(a, self.today)["periods_depreciated"]
        if useful_life_months is not None and useful_life_months < done:
            raise Unprocessable(f"fixed asset {a.id} has already depreciated {done} months; its life cannot be "
                                "shorter.")
        if residual_value is not None and residual_value >= a.cost:
            raise Unprocessable(f"residual_value {residual_value:.2f} must be below the cost {a.cost:.2f}.")
        if useful_life_months is not None:
            a.useful_life_months = useful_life_months
        if residual_value is not None:
            a.residual_value = money(residual_value)
        return self._view(a)

    @tool(read_only=False, returns=FixedAsset)
    def transfer_asset(self, asset_id: Id("fixed_asset"), to_custodian_email: Email = Field(max_length=200),
                       to_location: Optional[str] = None,
                       reason: str = Field(default="", max_length=500)) -> dict:
        """Transfer an asset to another custodian (and optionally another site).

        Args:
            asset_id: an asset not disposed.
            to_custodian_email: the new custodian's work email.
            to_location: the new site; default the current one.
            reason: why.
        """
        a = self._asset(asset_id)
        self._live(a, "transferred")
        keeper = self._custodian(to_custodian_email)
        site = self._site(to_location) if to_location else a.location
        if keeper.email == a.custodian_email and site == a.location:
            raise Conflict(f"fixed asset {a.id} is already held by {a.custodian_email} at {a.location}.")
        a.transfers.append(Transfer(transferred_on=self.today, from_custodian_email=a.custodian_email,
                                    to_custodian_email=keeper.email, from_location=a.location, to_location=site,
                                    reason=reason))
        a.custodian_email, a.custodian_name, a.location, a.city = keeper.email, keeper.name, site, SITES[site]
        return self._view(a)

    @tool(read_only=False, destructive=True, returns=AssetDisposal)
    def dispose_asset(self, asset_id: Id("fixed_asset"), method: DisposalMethod = "sale",
                      proceeds: Money = Field(default=0.0, ge=0, le=MONEY_MAX), disposal_date: Optional[Date] = None,
                      buyer: str = Field(default="", max_length=120), notes: str = Field(default="", max_length=500),
                      created_by: Email = "finance-approvals@company.example") -> dict:
        """Dispose of an asset; gain or loss = proceeds - net book value at disposal.

        Args:
            asset_id: an asset not yet disposed.
            method: sale, scrap, donation or write_off (only a sale has proceeds).
            proceeds: sale proceeds (USD).
            disposal_date: default today; not in the future, not before acquisition.
            buyer: who bought it, for a sale.
            notes: disposal notes.
            created_by: who records it.
        """
        a = self._asset(asset_id)
        self._live(a, "disposed again")
        on = disposal_date or self.today
        if on > self.today or on < a.acquisition_date:
            raise Unprocessable(f"disposal_date {on} must fall between the acquisition date {a.acquisition_date} "
                                "and today.")
        if method != "sale" and proceeds > 0:
            raise InvalidArgument(f"a {method} has no proceeds; record a sale for proceeds.")
        f = figures(a, on, on)
        d = AssetDisposal(id=self.new_id("AD"), asset_id=a.id, disposal_date=on, method=method,
                          proceeds=money(proceeds), buyer=buyer, cost=a.cost,
                          accumulated_depreciation=f["accumulated_depreciation"], net_book_value=f["net_book_value"],
                          gain_loss=money(proceeds - f["net_book_value"]), notes=notes, created_by=created_by,
                          created_at=self.now())
        self.state.disposals[d.id] = d
        a.status, a.disposal_id = "disposed", d.id
        return d.model_dump()

    @tool(read_only=False, returns=FixedAsset)
    def add_asset_note(self, asset_id: Id("fixed_asset"), body: str = Field(min_length=1, max_length=2000),
                       author_email: Email = "ops@company.example") -> dict:
        """Add a note to an asset (disposed ones too).

        Args:
            asset_id: the asset number.
            body: the note text.
            author_email: who writes it.
        """
        a = self._asset(asset_id)
        a.notes.append(AssetNote(author_email=author_email, body=body, created_at=self.now()))
        return self._view(a)

    # ------------------------------------------------------------------ seeds
    @classmethod
    def seed_state(cls, seed: int, today: dt.date) -> FixedAssetsState:
        """Seeded state on procurement's POs and accounts payable's bills for the same seed."""
        return seed_for(seed, today)

    @classmethod
    def build_seed_state(cls, fake: Faker, rng: random.Random, today: dt.date) -> FixedAssetsState:
        return build_seed_state(fake, rng, today)


__all__ = ["FixedAssets"]
