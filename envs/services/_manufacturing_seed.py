"""Records and seed data of the manufacturing service (Katana-style MRP).

Finished goods are the shared catalog's SKUs (``_commerce.PRODUCTS``), so a
manufacturing order names the same SKU ``inventory``, ``product_catalog`` and
``orders`` use; make-to-order MOs name the book order they build for.
Materials have their own ``MAT-`` SKUs. Quantities are in each item's unit of
measure (pcs, m, m2), kept to 3 decimals.
"""

from __future__ import annotations

import datetime as dt
import random
from typing import Literal, Optional

from pydantic import Field

from compoworld_gym.entities import Date, Id, Money, Sku
from compoworld_gym.envs.services._commerce import PRODUCTS_BY_SKU, money
from compoworld_gym.service import Record, ServiceState

ItemKind = Literal["product", "material"]
MoStatus = Literal["not_started", "in_progress", "done", "cancelled"]

#: Materials: SKU -> (name, unit of measure, unit cost USD).
MATERIALS: dict[str, tuple[str, str, float]] = {
    "MAT-PCB-KB": ("Keyboard PCB, hot-swap", "pcs", 9.40), "MAT-SW-RED": ("Linear key switch", "pcs", 0.21),
    "MAT-CAP-SET": ("PBT keycap set", "pcs", 6.80), "MAT-ALU-CASE": ("Aluminium keyboard case", "pcs", 11.30),
    "MAT-USB-CBL": ("USB-C cable 1.5 m", "pcs", 1.35), "MAT-MESH-BLK": ("Black mesh fabric", "m2", 4.60),
    "MAT-GASLIFT": ("Class 4 gas lift", "pcs", 7.90), "MAT-CASTOR": ("50 mm castor", "pcs", 0.95),
    "MAT-BASE-NYL": ("Nylon 5-star base", "pcs", 12.40), "MAT-MOTOR-DC": ("24 V lift motor", "pcs", 38.00),
    "MAT-STL-LEG": ("Telescopic steel leg", "pcs", 27.50), "MAT-CTRL-BOX": ("Desk control box", "pcs", 19.80),
    "MAT-LED-STRIP": ("LED strip 5 W", "pcs", 2.10), "MAT-ALU-ARM": ("Aluminium lamp arm", "pcs", 3.70),
    "MAT-FELT-ROLL": ("Wool felt 3 mm", "m2", 8.90), "MAT-PKG-BOX": ("Corrugated shipping box", "pcs", 0.85),
}
#: Bills of materials: finished SKU -> ((material SKU, quantity per unit), ...).
BOMS: dict[str, tuple[tuple[str, float], ...]] = {
    "KB-MECH-01": (("MAT-PCB-KB", 1), ("MAT-SW-RED", 87), ("MAT-CAP-SET", 1), ("MAT-ALU-CASE", 1),
                   ("MAT-USB-CBL", 1), ("MAT-PKG-BOX", 1)),
    "CH-ERG-05": (("MAT-MESH-BLK", 1.2), ("MAT-GASLIFT", 1), ("MAT-CASTOR", 5), ("MAT-BASE-NYL", 1),
                  ("MAT-PKG-BOX", 1)),
    "DK-STD-06": (("MAT-MOTOR-DC", 2), ("MAT-STL-LEG", 2), ("MAT-CTRL-BOX", 1), ("MAT-PKG-BOX", 1)),
    "LP-LED-07": (("MAT-LED-STRIP", 2), ("MAT-ALU-ARM", 1), ("MAT-USB-CBL", 1), ("MAT-PKG-BOX", 1)),
    "MT-FLT-14": (("MAT-FELT-ROLL", 0.32), ("MAT-PKG-BOX", 1)),
}


def qty(value: float) -> float:
    """A quantity rounded to 3 decimals (float noise of ``1.2 * 3`` removed)."""
    return round(value + 0.0, 3)


class Item(Record):
    """A product or material with its stock at the factory."""

    sku: Sku = Field(description="Stock keeping unit.")
    name: str = Field(description="Item name.")
    kind: ItemKind = Field(description="product (made here) or material (bought in).")
    unit_of_measure: str = Field(description="pcs, m, m2, kg ...")
    unit_cost: Money = Field(ge=0, description="Average cost of one unit (USD).")
    in_stock: float = Field(ge=0, description="Quantity on hand.")
    committed: float = Field(ge=0, description="Quantity committed to manufacturing orders in progress.")


class BomLine(Record):
    """One ingredient of a bill of materials."""

    material_sku: Sku = Field(description="The ingredient's SKU.")
    quantity: float = Field(gt=0, description="Quantity per unit of the product.")


class Bom(Record):
    """A product's bill of materials (Katana recipe)."""

    id: Id("bom") = Field(description="BOM id, e.g. BOM-0001.")
    product_sku: Sku = Field(description="The product it makes.")
    lines: list[BomLine] = Field(default_factory=list, description="Ingredients per unit.")


class MoIngredient(Record):
    """What one ingredient of a manufacturing order needs."""

    material_sku: Sku = Field(description="The ingredient's SKU.")
    required: float = Field(ge=0, description="Quantity needed for the whole order.")


class ManufacturingOrder(Record):
    """A manufacturing order (MO) for a quantity of one product."""

    id: Id("manufacturing_order") = Field(description="MO id, e.g. MO-0001.")
    sku: Sku = Field(description="Product to make.")
    planned_quantity: float = Field(gt=0, description="Units to make.")
    due_date: Date = Field(description="Production deadline.")
    order_id: Optional[Id("order")] = Field(default=None, description="Sales order it is made for (make-to-order).")
    status: MoStatus = Field(description="not_started, in_progress, done or cancelled.")
    ingredients: list[MoIngredient] = Field(default_factory=list, description="Materials, copied from the BOM.")
    total_cost: Money = Field(ge=0, description="Planned material cost (USD).")
    created_on: Date = Field(description="Date created.")
    started_on: Optional[Date] = Field(default=None, description="Date production started.")
    completed_on: Optional[Date] = Field(default=None, description="Date finished.")
    produced_quantity: Optional[float] = Field(default=None, description="Units actually made.")
    notes: list[str] = Field(default_factory=list, description="Notes, oldest first.")


class StockAdjustment(Record):
    """A manual stock movement (goods received, count correction, scrap)."""

    id: str = Field(description="Adjustment id, e.g. ADJ-0001.")
    sku: Sku = Field(description="The item adjusted.")
    quantity_delta: float = Field(description="Units added (positive) or removed (negative).")
    reason: str = Field(description="Why.")
    adjusted_on: Date = Field(description="Date recorded.")


class ManufacturingState(ServiceState):
    """Items, BOMs, manufacturing orders and stock adjustments."""

    items: dict[str, Item] = Field(default_factory=dict, description="Items by SKU.")
    boms: dict[str, Bom] = Field(default_factory=dict, description="BOMs by id.")
    orders: dict[str, ManufacturingOrder] = Field(default_factory=dict, description="Manufacturing orders by id.")
    adjustments: dict[str, StockAdjustment] = Field(default_factory=dict, description="Stock adjustments by id.")


def ingredients_for(bom: Bom, quantity: float) -> list[MoIngredient]:
    """The ingredients an MO of ``quantity`` units needs under ``bom``."""
    return [MoIngredient(material_sku=ln.material_sku, required=qty(ln.quantity * quantity)) for ln in bom.lines]


def cost_of(items: dict[str, Item], ingredients: list[MoIngredient]) -> float:
    """Material cost (USD) of a list of ingredients at the items' unit costs."""
    return money(sum(items[i.material_sku].unit_cost * i.required for i in ingredients if i.material_sku in items))


#: Seeded MOs: (sku, quantity, due offset, book order, status).
_MOS = (("KB-MECH-01", 20, -4, None, "done"), ("CH-ERG-05", 10, 2, None, "in_progress"),
        ("CH-ERG-05", 2, 4, "ORD-0007", "not_started"), ("DK-STD-06", 8, 6, None, "not_started"),
        ("LP-LED-07", 3, 3, "ORD-0005", "not_started"), ("MT-FLT-14", 40, 9, None, "cancelled"),
        ("CH-ERG-05", 30, 12, None, "not_started"))


def build_state(rng: random.Random, today: dt.date) -> ManufacturingState:
    """Items, one BOM per product and seven MOs; 30 chairs (MO-0007) cannot
    start for lack of gas lifts."""
    state = ManufacturingState()
    for sku in BOMS:
        p = PRODUCTS_BY_SKU[sku]
        state.items[sku] = Item(sku=sku, name=p.name, kind="product", unit_of_measure="pcs", unit_cost=p.cost,
                                in_stock=rng.randint(0, 12), committed=0)
    for sku, (name, uom, cost) in MATERIALS.items():
        stock = rng.randint(30, 90) if uom == "pcs" else qty(rng.uniform(20, 60))
        state.items[sku] = Item(sku=sku, name=name, kind="material", unit_of_measure=uom, unit_cost=cost,
                                in_stock=stock, committed=0)
    state.items["MAT-SW-RED"].in_stock = 2600 + rng.randint(0, 400)
    state.items["MAT-CASTOR"].in_stock = 80 + rng.randint(0, 40)  # 50 of them committed to MO-0002
    state.items["MAT-GASLIFT"].in_stock = 14 + rng.randint(0, 4)  # 10 committed: too few for 30 more chairs
    for n, (sku, lines) in enumerate(BOMS.items(), start=1):
        bom = Bom(id=f"BOM-{n:04d}", product_sku=sku, lines=[BomLine(material_sku=m, quantity=q) for m, q in lines])
        state.boms[bom.id] = bom
    by_sku = {b.product_sku: b for b in state.boms.values()}
    for n, (sku, quantity, due, order, status) in enumerate(_MOS, start=1):
        ing = ingredients_for(by_sku[sku], quantity)
        mo = ManufacturingOrder(id=f"MO-{n:04d}", sku=sku, planned_quantity=quantity,
                                due_date=today + dt.timedelta(days=due), order_id=order, status=status,
                                ingredients=ing, total_cost=cost_of(state.items, ing),
                                created_on=today - dt.timedelta(days=10 - n))
        if status in ("in_progress", "done"):
            mo.started_on = today - dt.timedelta(days=6 if status == "done" else 1)
        if status == "in_progress":
            for i in ing:
                state.items[i.material_sku].committed = qty(state.items[i.material_sku].committed + i.required)
        if status == "done":
            mo.completed_on, mo.produced_quantity = today - dt.timedelta(days=4), quantity
        if status == "cancelled":
            mo.notes.append("Cancelled: felt supplier discontinued the colour.")
        state.orders[mo.id] = mo
    state.counters.update(MO=len(_MOS) + 1, BOM=len(state.boms) + 1)
    return state
