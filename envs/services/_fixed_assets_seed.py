"""Seed data of the fixed assets service: assets bought on accounts payable's bills and procurement's POs.

The state is built on accounts payable's seeded state for the same seed
(:func:`seed_for`), itself built on procurement's: every billed PO line of
electronics or furniture at or above the capitalization threshold is an asset
(in service once the PO's goods were received, pending while the PO is still
on order), with the vendor's name, the PO and the bill. Older assets bought
from the same vendors before the POs (a server, a van, a fully depreciated
forklift, an office fit-out, AV equipment) and two disposals (a laptop pool
sold at a gain, a scrapped printer at a loss) complete the register.
Custodians are the staff roster of ``_company.py``.
"""

from __future__ import annotations

import datetime as dt
import random

from faker import Faker

from compoworld_gym.envs.services._accounts_payable_models import AccountsPayableState
from compoworld_gym.envs.services._blocks import seed_id
from compoworld_gym.envs.services._commerce import PRODUCTS_BY_SKU, money
from compoworld_gym.envs.services._company import STAFF
from compoworld_gym.envs.services._fixed_assets_models import (
    AssetClass, AssetDisposal, Custodian, FixedAsset, FixedAssetsState,
)
from compoworld_gym.envs.services._fixed_assets_rules import figures
from compoworld_gym.envs.services._accounts_payable_seed import build_state as build_payables
from compoworld_gym.envs.services.accounts_payable import AccountsPayable
from compoworld_gym.envs.services.procurement import Procurement, ProcurementState

#: PO lines of at least this amount (USD) are capitalized.
CAPITALIZATION_THRESHOLD = 1000.0
#: Sites holding assets: name -> city.
SITES = {"San Francisco HQ": "San Francisco", "Austin Office": "Austin", "East Warehouse": "Newark",
         "West Warehouse": "Reno"}
_CLASSES = (("CLS-COMP", "Computer Equipment", 36, 0.0, "1510"), ("CLS-FURN", "Furniture & Fixtures", 84, 0.05, "1520"),
            ("CLS-MACH", "Machinery & Equipment", 60, 0.10, "1530"), ("CLS-VEH", "Vehicles", 60, 0.20, "1540"),
            ("CLS-LHI", "Leasehold Improvements", 120, 0.0, "1550"))
_BY_CATEGORY = {"electronics": "CLS-COMP", "furniture": "CLS-FURN"}
#: Older assets: (name, class, cost, days acquired ago, custodian index, site, disposal or None).
_OLDER = (("Dell PowerEdge R760 server", "CLS-COMP", 18450.00, 640, 11, "San Francisco HQ", None),
          ("Ford Transit 250 cargo van", "CLS-VEH", 46800.00, 900, 4, "East Warehouse", None),
          ("Toyota 8FGCU25 forklift", "CLS-MACH", 28900.00, 2100, 5, "West Warehouse", None),
          ("Floor 4 office fit-out", "CLS-LHI", 96500.00, 1500, 2, "San Francisco HQ", None),
          ("Boardroom AV system", "CLS-MACH", 12350.00, 400, 9, "San Francisco HQ", None),
          ("MacBook Pro 16 pool (8 units)", "CLS-COMP", 21592.00, 1200, 11, "San Francisco HQ",
           ("sale", 60, 4800.00, "Second Life IT Recyclers")),
          ("Zebra ZT411 label printer", "CLS-MACH", 2450.00, 700, 4, "East Warehouse", ("scrap", 20, 0.0, "")))


def seed_for(seed: int, today: dt.date) -> FixedAssetsState:
    """The seeded state for ``seed``, on accounts payable's (and procurement's) seeded state for the same seed."""
    rng = random.Random(f"fixed_assets:{seed}")
    return build_state(rng, today, AccountsPayable.seed_state(seed, today), Procurement.seed_state(seed, today))


def _serial(rng: random.Random) -> str:
    return "".join(rng.choice("ABCDEFGHJKLMNPQRSTUVWXYZ0123456789") for _ in range(10))


def build_state(rng: random.Random, today: dt.date, source: AccountsPayableState,
                pos: ProcurementState) -> FixedAssetsState:
    """Classes, custodians, assets and disposals on ``source``'s vendors and bills and ``pos``' purchase orders
    (a line is in service once its goods were all received)."""
    state = FixedAssetsState()
    for cid, name, life, pct, acct in _CLASSES:
        state.classes[cid] = AssetClass(id=cid, name=name, default_life_months=life, residual_pct=pct,
                                        asset_account=f"{acct} {name}", accumulated_account=f"{int(acct) + 80} "
                                        f"Accumulated Depreciation - {name}", expense_account=f"6400 Depreciation "
                                        f"Expense - {name}")
    for s in STAFF:
        c = Custodian(id=seed_id(state, "CUS"), name=s.name, email=s.email, department=s.team.replace("_", " "))
        state.custodians[c.id] = c
    names = {s.email: s.name for s in STAFF}
    for bill in source.bills.values():
        if bill.po_id is None or bill.voided:
            continue
        for ln in bill.lines:
            product = PRODUCTS_BY_SKU.get(ln.sku or "")
            if product is None or product.category not in _BY_CATEGORY or ln.amount < CAPITALIZATION_THRESHOLD:
                continue
            cls = state.classes[_BY_CATEGORY[product.category]]
            po = pos.purchase_orders.get(bill.po_id)
            po_line = next((x for x in po.lines if x.sku == ln.sku), None) if po else None
            received = po_line is not None and po_line.received_quantity >= po_line.quantity
            keeper = STAFF[5] if product.category == "electronics" else STAFF[4]
            a = FixedAsset(id=seed_id(state, "FA"), name=f"{product.name} x{ln.quantity}",
                           description=f"{ln.quantity} x {ln.sku} on {bill.po_id}", class_id=cls.id,
                           cost=ln.amount, residual_value=money(ln.amount * cls.residual_pct),
                           useful_life_months=cls.default_life_months, acquisition_date=bill.invoice_date,
                           in_service_date=bill.invoice_date + dt.timedelta(days=3) if received else None,
                           status="in_service" if received else "pending", location="East Warehouse",
                           city=SITES["East Warehouse"], custodian_email=keeper.email, custodian_name=keeper.name,
                           vendor_name=bill.vendor_name, vendor_id=bill.vendor_id, po_id=bill.po_id, bill_id=bill.id)
            state.assets[a.id] = a
    vendors = [v for v in source.vendors.values() if v.active]
    for k, (name, cid, cost, ago, who, site, disposal) in enumerate(_OLDER):
        cls, v, keeper = state.classes[cid], vendors[k % len(vendors)], STAFF[who]
        acquired = today - dt.timedelta(days=ago)
        a = FixedAsset(id=seed_id(state, "FA"), name=name, serial_number=_serial(rng), class_id=cid, cost=cost,
                       residual_value=money(cost * cls.residual_pct), useful_life_months=cls.default_life_months,
                       acquisition_date=acquired, in_service_date=acquired + dt.timedelta(days=rng.randint(0, 12)),
                       status="in_service", location=site, city=SITES[site], custodian_email=keeper.email,
                       custodian_name=names[keeper.email], vendor_name=v.name, vendor_id=v.id)
        state.assets[a.id] = a
        if disposal is not None:
            method, days_ago, proceeds, buyer = disposal
            on = today - dt.timedelta(days=days_ago)
            f = figures(a, on, on)
            d = AssetDisposal(id=seed_id(state, "AD"), asset_id=a.id, disposal_date=on, method=method,
                              proceeds=proceeds, buyer=buyer, cost=a.cost,
                              accumulated_depreciation=f["accumulated_depreciation"],
                              net_book_value=f["net_book_value"], gain_loss=money(proceeds - f["net_book_value"]),
                              notes="Refresh cycle." if method == "sale" else "Print head failed; beyond repair.",
                              created_by=STAFF[2].email, created_at=dt.datetime.combine(on, dt.time(15, 0)))
            state.disposals[d.id] = d
            a.status, a.disposal_id = "disposed", d.id
    return state


def build_seed_state(fake: Faker, rng: random.Random, today: dt.date) -> FixedAssetsState:
    """A state on procurement's and accounts payable's states drawn from the same streams (no seed number)."""
    pos = Procurement.build_seed_state(fake, rng, today)
    return build_state(rng, today, build_payables(fake, rng, today, pos), pos)
