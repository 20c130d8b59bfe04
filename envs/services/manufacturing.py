"""Manufacturing: products and materials by SKU, bills of materials, manufacturing orders.

No MRP server is in ``compoworld_gym/data/mcp_servers.jsonl``
(``spec_source = None``); the interface follows the Katana MRP API
(products/materials with variants by SKU, recipes, manufacturing orders with
planned quantity and production deadline, ingredient availability, stock
adjustments). Rules of the real product: an MO copies its product's BOM;
it can start only when every ingredient is available (in stock minus
committed to other MOs in progress), and starting commits the materials; completing
consumes them and adds the finished units to stock; only a not-started MO
can be edited; a done MO cannot be cancelled.
"""

from __future__ import annotations

import datetime as dt
import random
from typing import Optional

from faker import Faker
from pydantic import Field

from compoworld_gym.entities import Date, Id, Money, Sku
from compoworld_gym.envs.services._manufacturing_seed import (
    Bom, BomLine, Item, ItemKind, ManufacturingOrder, ManufacturingState, MoStatus, build_state, cost_of,
    StockAdjustment, ingredients_for, qty,
)
from compoworld_gym.errors import Conflict, InvalidArgument, NotFound, Unprocessable
from compoworld_gym.service import Service, tool

#: Lead time (days) of an MO created without a due date.
DEFAULT_LEAD_DAYS = 7


class Manufacturing(Service):
    """Katana-style MRP: items and stock, BOMs, manufacturing orders and their material checks."""

    name = "manufacturing"
    description = ("Manufacturing (MRP): products and materials by SKU with stock, bills of materials, "
                   "manufacturing orders, material availability, start/complete production.")
    domain = "manufacturing"
    spec_source = None
    State = ManufacturingState

    # ---------------------------------------------------------------- helpers
    def _item(self, sku: str) -> Item:
        item = self.state.items.get(sku.upper())
        if item is None:
            raise NotFound(f"item {sku!r} not found; call list_items for valid SKUs.")
        return item

    def _bom_of(self, sku: str) -> Bom:
        bom = next((b for b in self.state.boms.values() if b.product_sku == sku), None)
        if bom is None:
            raise NotFound(f"product {sku} has no bill of materials; call create_bom first.")
        return bom

    def _mo(self, mo_id: str) -> ManufacturingOrder:
        return self.lookup(self.state.orders, mo_id, "manufacturing order")

    @staticmethod
    def _require(mo: ManufacturingOrder, allowed: tuple[str, ...], action: str) -> None:
        if mo.status not in allowed:
            raise Conflict(f"manufacturing order {mo.id} is {mo.status}; {action} needs status "
                           f"{' or '.join(allowed)}.")

    def _availability(self, mo: ManufacturingOrder) -> list[dict]:
        rows = []
        for ing in mo.ingredients:
            item = self.state.items[ing.material_sku]
            free = qty(item.in_stock - item.committed)
            rows.append({"material_sku": item.sku, "name": item.name, "required": ing.required,
                         "available": free, "shortfall": qty(max(ing.required - free, 0.0)),
                         "unit_of_measure": item.unit_of_measure})
        return rows

    def _mo_view(self, mo: ManufacturingOrder) -> dict:
        short = mo.status == "not_started" and any(r["shortfall"] > 0 for r in self._availability(mo))
        return {**mo.model_dump(), "ingredient_availability": "NOT_AVAILABLE" if short else
                "PROCESSED" if mo.status != "not_started" else "IN_STOCK"}

    # ------------------------------------------------------------------ reads
    @tool(read_only=True, returns=list[Item])
    def list_items(self, kind: Optional[ItemKind] = None, query: Optional[str] = None) -> list[dict]:
        """List products and materials with stock (in stock, committed, available).

        Args:
            kind: product or material.
            query: part of the SKU or name (case-insensitive).
        """
        q = (query or "").lower()
        return [{**i.model_dump(), "available": qty(i.in_stock - i.committed)} for i in self.state.items.values()
                if (kind is None or i.kind == kind) and (q in i.sku.lower() or q in i.name.lower())]

    @tool(read_only=True, returns=Item)
    def get_item(self, sku: Sku) -> dict:
        """Get one product or material by SKU with its stock.

        Args:
            sku: the SKU, e.g. CH-ERG-05 or MAT-GASLIFT.
        """
        i = self._item(sku)
        return {**i.model_dump(), "available": qty(i.in_stock - i.committed)}

    @tool(read_only=True, returns=list[Bom])
    def list_boms(self) -> list[dict]:
        """List every bill of materials (product SKU and ingredients per unit)."""
        return [b.model_dump() for b in self.state.boms.values()]

    @tool(read_only=True, returns=Bom)
    def get_bom(self, sku: Sku) -> dict:
        """Get the bill of materials of a product, with the unit material cost.

        Args:
            sku: the product's SKU.
        """
        bom = self._bom_of(self._item(sku).sku)
        return {**bom.model_dump(), "unit_material_cost": cost_of(self.state.items, ingredients_for(bom, 1))}

    @tool(read_only=True, returns=list[ManufacturingOrder])
    def list_manufacturing_orders(self, status: Optional[MoStatus] = None, sku: Optional[Sku] = None,
                                  order_id: Optional[Id("order")] = None,
                                  limit: int = Field(default=50, ge=1, le=200)) -> list[dict]:
        """List manufacturing orders by status, product SKU or the sales order they are made for.

        Args:
            status: not_started, in_progress, done or cancelled.
            sku: only MOs making this product.
            order_id: only MOs made for this sales order, e.g. ORD-0007.
            limit: maximum number of MOs (1-200).
        """
        s = sku.upper() if sku else None
        return [mo.model_dump(exclude={"ingredients"}) for mo in self.state.orders.values()
                if (status is None or mo.status == status) and (s is None or mo.sku == s)
                and (order_id is None or mo.order_id == order_id)][:limit]

    @tool(read_only=True, returns=ManufacturingOrder)
    def get_manufacturing_order(self, mo_id: Id("manufacturing_order")) -> dict:
        """Get one MO with its ingredients and ingredient availability
        (IN_STOCK, NOT_AVAILABLE, or PROCESSED once started).

        Args:
            mo_id: the MO id, e.g. MO-0003.
        """
        return self._mo_view(self._mo(mo_id))

    @tool(read_only=True)
    def check_material_availability(self, mo_id: Id("manufacturing_order")) -> dict:
        """Per ingredient of an MO: quantity required, available (in stock minus committed) and shortfall.

        Args:
            mo_id: the MO.
        """
        mo = self._mo(mo_id)
        rows = self._availability(mo)
        return {"mo_id": mo.id, "can_start": mo.status == "not_started" and not any(r["shortfall"] for r in rows),
                "ingredients": rows}

    # ----------------------------------------------------------------- writes
    @tool(read_only=False, returns=Item)
    def create_item(self, sku: Sku = Field(pattern=r"^[A-Za-z0-9][A-Za-z0-9-]{2,31}$"),
                    name: str = Field(min_length=1, max_length=120), kind: ItemKind = "material",
                    unit_of_measure: str = Field(default="pcs", min_length=1, max_length=10),
                    unit_cost: Money = Field(default=0.0, ge=0, le=1_000_000)) -> dict:
        """Create a product or material with no stock.

        Args:
            sku: a new SKU (letters, digits, dashes).
            name: item name.
            kind: product or material.
            unit_of_measure: pcs, m, m2, kg ...
            unit_cost: cost of one unit (USD).
        """
        key = sku.upper()
        if key in self.state.items:
            raise Conflict(f"SKU {key} already exists.")
        item = Item(sku=key, name=name, kind=kind, unit_of_measure=unit_of_measure, unit_cost=round(unit_cost, 2),
                    in_stock=0, committed=0)
        self.state.items[key] = item
        return item.model_dump()

    @tool(read_only=False, returns=Bom)
    def set_bom_line(self, sku: Sku, material_sku: Sku, quantity: float = Field(ge=0, le=100000)) -> dict:
        """Set how much of a material one unit of a product needs (0 removes the line);
        creates the product's BOM on first use. Open MOs keep the BOM they were created with.

        Args:
            sku: the product's SKU.
            material_sku: the ingredient's SKU (a material).
            quantity: quantity per unit, in the material's unit of measure.
        """
        if 0 < quantity < 0.001:  # quantities are kept to 3 decimals: this would be a line of 0
            raise InvalidArgument(f"quantity {quantity:g} is below 0.001, the precision quantities are kept to; "
                                  "give 0 to remove the line.")
        product, material = self._item(sku), self._item(material_sku)
        if product.kind != "product":
            raise Unprocessable(f"{product.sku} is a material; only products have a BOM.")
        if material.kind != "material":
            raise Unprocessable(f"{material.sku} is a product; BOM lines are materials.")
        bom = next((b for b in self.state.boms.values() if b.product_sku == product.sku), None)
        if bom is None:
            bom = Bom(id=self.new_id("BOM"), product_sku=product.sku)
            self.state.boms[bom.id] = bom
        lines = [ln for ln in bom.lines if ln.material_sku != material.sku]
        if quantity > 0:
            lines.append(BomLine(material_sku=material.sku, quantity=qty(quantity)))
        bom.lines = lines
        return bom.model_dump()

    @tool(read_only=False, returns=ManufacturingOrder)
    def create_manufacturing_order(self, sku: Sku, planned_quantity: float = Field(ge=0.001, le=100000),
                                   due_date: Optional[Date] = None, order_id: Optional[Id("order")] = None,
                                   note: Optional[str] = Field(default=None, max_length=500)) -> dict:
        """Create a not-started MO for a product; its ingredients come from the product's BOM.

        Args:
            sku: the product to make.
            planned_quantity: units to make (quantities are kept to 3 decimals, so at least 0.001).
            due_date: production deadline (YYYY-MM-DD, not in the past); default in 7 days.
            order_id: the sales order it is made for (make-to-order).
            note: a note for the shop floor.
        """
        product = self._item(sku)
        if product.kind != "product":
            raise Unprocessable(f"{product.sku} is a material; manufacturing orders make products.")
        bom = self._bom_of(product.sku)
        if not bom.lines:
            raise Unprocessable(f"the BOM of {product.sku} has no ingredients.")
        due = due_date or self.today + dt.timedelta(days=DEFAULT_LEAD_DAYS)
        if due < self.today:
            raise Unprocessable(f"due_date {due} is in the past.")
        ing = ingredients_for(bom, planned_quantity)
        mo = ManufacturingOrder(id=self.new_id("MO"), sku=product.sku, planned_quantity=qty(planned_quantity),
                                due_date=due, order_id=order_id, status="not_started", ingredients=ing,
                                total_cost=cost_of(self.state.items, ing), created_on=self.today,
                                notes=[note] if note else [])
        self.state.orders[mo.id] = mo
        return self._mo_view(mo)

    @tool(read_only=False, returns=ManufacturingOrder)
    def update_manufacturing_order(self, mo_id: Id("manufacturing_order"),
                                   planned_quantity: Optional[float] = Field(default=None, ge=0.001, le=100000),
                                   due_date: Optional[Date] = None) -> dict:
        """Change the quantity or deadline of a not-started MO (ingredients are recomputed).

        Args:
            mo_id: the MO.
            planned_quantity: new number of units.
            due_date: new production deadline (not in the past).
        """
        mo = self._mo(mo_id)
        self._require(mo, ("not_started",), "editing")
        if planned_quantity is None and due_date is None:
            raise InvalidArgument("give planned_quantity or due_date to change.")
        if due_date is not None:
            if due_date < self.today:
                raise Unprocessable(f"due_date {due_date} is in the past.")
            mo.due_date = due_date
        if planned_quantity is not None:
            per_unit = {i.material_sku: i.required / mo.planned_quantity for i in mo.ingredients}
            mo.planned_quantity = qty(planned_quantity)
            for i in mo.ingredients:
                i.required = qty(per_unit[i.material_sku] * planned_quantity)
            mo.total_cost = cost_of(self.state.items, mo.ingredients)
        return self._mo_view(mo)

    @tool(read_only=False, returns=ManufacturingOrder)
    def start_manufacturing_order(self, mo_id: Id("manufacturing_order")) -> dict:
        """Start production: every ingredient must be available (422 lists the shortfalls);
        the materials are committed to the MO.

        Args:
            mo_id: a not-started MO.
        """
        mo = self._mo(mo_id)
        self._require(mo, ("not_started",), "starting")
        short = [f"{r['material_sku']} short by {r['shortfall']:g} {r['unit_of_measure']}"
                 for r in self._availability(mo) if r["shortfall"] > 0]
        if short:
            raise Unprocessable(f"materials not available for {mo.id}: " + "; ".join(short) + ".")
        for ing in mo.ingredients:
            item = self.state.items[ing.material_sku]
            item.committed = qty(item.committed + ing.required)
        mo.status, mo.started_on = "in_progress", self.today
        return self._mo_view(mo)

    @tool(read_only=False, returns=ManufacturingOrder)
    def complete_manufacturing_order(self, mo_id: Id("manufacturing_order"),
                                     produced_quantity: Optional[float] = Field(default=None, ge=0.001, le=100000)
                                     ) -> dict:
        """Finish an MO in progress: its materials are consumed and the units made go into stock.

        Args:
            mo_id: an MO in progress.
            produced_quantity: units actually made (default the planned quantity; at most that).
        """
        mo = self._mo(mo_id)
        self._require(mo, ("in_progress",), "completion")
        made = qty(produced_quantity or mo.planned_quantity)
        if made > mo.planned_quantity:
            raise Unprocessable(f"produced_quantity {made:g} exceeds the planned {mo.planned_quantity:g}.")
        for ing in mo.ingredients:
            item = self.state.items[ing.material_sku]
            item.committed = qty(max(item.committed - ing.required, 0.0))
            item.in_stock = qty(max(item.in_stock - ing.required, 0.0))
        product = self.state.items[mo.sku]
        product.in_stock = qty(product.in_stock + made)
        mo.status, mo.completed_on, mo.produced_quantity = "done", self.today, made
        return self._mo_view(mo)

    @tool(read_only=False, returns=ManufacturingOrder)
    def cancel_manufacturing_order(self, mo_id: Id("manufacturing_order"),
                                   reason: str = Field(min_length=3, max_length=300)) -> dict:
        """Cancel an MO that is not done; an MO in progress releases its committed materials.

        Args:
            mo_id: the MO.
            reason: why.
        """
        mo = self._mo(mo_id)
        self._require(mo, ("not_started", "in_progress"), "cancellation")
        if mo.status == "in_progress":
            for ing in mo.ingredients:
                item = self.state.items[ing.material_sku]
                item.committed = qty(max(item.committed - ing.required, 0.0))
        mo.status = "cancelled"
        mo.notes.append(f"Cancelled: {reason}")
        return self._mo_view(mo)

    @tool(read_only=False, returns=ManufacturingOrder)
    def add_manufacturing_order_note(self, mo_id: Id("manufacturing_order"),
                                     note: str = Field(min_length=1, max_length=500)) -> dict:
        """Add a note to an MO (shop-floor instructions, customer context).

        Args:
            mo_id: the MO.
            note: the note.
        """
        mo = self._mo(mo_id)
        mo.notes.append(note)
        return self._mo_view(mo)

    @tool(read_only=False, returns=Item)
    def adjust_stock(self, sku: Sku, quantity_delta: float = Field(ge=-100000, le=100000),
                     reason: str = Field(min_length=3, max_length=200)) -> dict:
        """Record a stock adjustment (goods received, count correction, scrap) on an item.

        Refused (422) if it would leave less in stock than is committed to MOs in progress.

        Args:
            sku: the item.
            quantity_delta: units to add (positive) or remove (negative), non-zero.
            reason: why, e.g. 'PO-0042 received' or 'scrapped: water damage'.
        """
        item = self._item(sku)
        if quantity_delta == 0:
            raise InvalidArgument("quantity_delta must not be 0.")
        new = qty(item.in_stock + quantity_delta)
        if new < item.committed:
            raise Unprocessable(f"{item.sku} has {item.in_stock:g} in stock, {item.committed:g} committed; "
                                f"it cannot go down to {new:g}.")
        item.in_stock = new
        adj = StockAdjustment(id=self.new_id("ADJ"), sku=item.sku, quantity_delta=qty(quantity_delta), reason=reason,
                              adjusted_on=self.today)
        self.state.adjustments[adj.id] = adj
        return {**item.model_dump(), "available": qty(item.in_stock - item.committed), "adjustment": adj.model_dump()}

    @tool(read_only=True, returns=list[StockAdjustment])
    def list_stock_adjustments(self, sku: Optional[Sku] = None) -> list[dict]:
        """List manual stock adjustments, oldest first, optionally of one SKU.

        Args:
            sku: only adjustments of this item.
        """
        s = sku.upper() if sku else None
        return [a.model_dump() for a in self.state.adjustments.values() if s is None or a.sku == s]

    # ------------------------------------------------------------------ seeds
    @classmethod
    def build_seed_state(cls, fake: Faker, rng: random.Random, today: dt.date) -> ManufacturingState:
        return build_state(rng, today)
