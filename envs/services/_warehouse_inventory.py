"""The inventory half of the ``warehouse`` service: warehouses, bins, bin stock and its changes.

:class:`WarehouseInventory` sets no ``name``, so it is not a service of its
own; :class:`~compoworld_gym.envs.services.warehouse.WarehouseWms` adds the
inbound, order and pick-list tools. It holds the bin lookups, the inventory
change log and ShipHero's location tools (``locations``, ``item_locations``,
``inventory_transfer``, ``inventory_add`` / ``inventory_remove``, cycle
counts via ``inventory_replace``) under the rules of ``_warehouse_rules``.
"""

from __future__ import annotations

from typing import Optional

from pydantic import Field

from compoworld_gym.entities import Id, Sku
from compoworld_gym.envs.services import _warehouse_rules as rules
from compoworld_gym.envs.services._blocks import eq, select
from compoworld_gym.envs.services._warehouse_models import (
    MAX_UNITS, Bin, BinType, ChangeReason, CountInput, InventoryChange, Warehouse,
)
from compoworld_gym.errors import Unprocessable
from compoworld_gym.service import Service, tool


class WarehouseInventory(Service):
    """Warehouses, bins and the units in them; the bin lookups and change log of every warehouse tool."""

    # ---------------------------------------------------------------- helpers
    def _bin(self, bin_id: str) -> Bin:
        return self.lookup(self.state.bins, bin_id, "bin")

    def _log(self, sku: str, bin_id: str, delta: int, reason: str, reference: str = "",
             note: str = "") -> InventoryChange:
        change = InventoryChange(id=self.new_id("CHG"), sku=sku, bin_id=bin_id, delta=delta, reason=reason,
                                 reference=reference, note=note, on=self.today)
        self.state.inventory_changes[change.id] = change
        return change

    def _bin_view(self, b: Bin) -> dict:
        items = [{"sku": s.sku, "quantity": s.quantity, "allocated": rules.allocated(self.state, b.id, s.sku)}
                 for s in self.state.stock.values() if s.bin_id == b.id and s.quantity > 0]
        return {**b.model_dump(), "items": items}

    # ------------------------------------------------------------------ reads
    @tool(read_only=True, returns=list[Warehouse])
    def list_warehouses(self) -> list[dict]:
        """The warehouses with their identifiers and cities."""
        return [w.model_dump() for w in self.state.warehouses.values()]

    @tool(read_only=True, returns=list[Bin])
    def list_bins(self, warehouse_id: Id("warehouse"), type: Optional[BinType] = None, sku: Optional[Sku] = None
                  ) -> list[dict]:
        """A warehouse's bins (locations), in location order, with the SKUs and units each holds.

        Args:
            warehouse_id: the warehouse, e.g. WH-EAST.
            type: only pick, reserve or receiving bins.
            sku: only bins holding this SKU.
        """
        self.lookup(self.state.warehouses, warehouse_id, "warehouse")
        want = sku.upper() if sku else None
        rows = sorted(select(self.state.bins.values(), eq("warehouse_id", warehouse_id), eq("type", type)),
                      key=lambda b: b.name)
        return [self._bin_view(b) for b in rows if want is None or rules.on_hand(self.state, b.id, want) > 0]

    @tool(read_only=True, returns=Bin)
    def get_bin(self, bin_id: Id("bin")) -> dict:
        """One bin with the SKUs it holds and the units open pick lists will take.

        Args:
            bin_id: the bin id, e.g. BIN-0003.
        """
        return self._bin_view(self._bin(bin_id))

    @tool(read_only=True)
    def get_product_inventory(self, sku: Sku, warehouse_id: Optional[Id("warehouse")] = None) -> dict:
        """A SKU's units per bin and its totals: on hand, allocated to open pick lists, available.

        Args:
            sku: the SKU.
            warehouse_id: only this warehouse.
        """
        key = sku.upper()
        rows = [s for s in self.state.stock.values() if s.sku == key and s.quantity > 0
                and (warehouse_id is None or s.warehouse_id == warehouse_id)]
        bins = [{"bin_id": s.bin_id, "bin_name": self.state.bins[s.bin_id].name, "warehouse_id": s.warehouse_id,
                 "quantity": s.quantity, "allocated": rules.allocated(self.state, s.bin_id, key),
                 "pickable": self.state.bins[s.bin_id].pickable} for s in rows]
        on, alloc = sum(b["quantity"] for b in bins), sum(b["allocated"] for b in bins)
        return {"sku": key, "on_hand": on, "allocated": alloc, "available": on - alloc, "bins": bins}

    @tool(read_only=True, returns=list[InventoryChange])
    def list_inventory_changes(self, sku: Optional[Sku] = None, bin_id: Optional[Id("bin")] = None,
                               reason: Optional[ChangeReason] = None) -> list[dict]:
        """The log of inventory changes (receipts, picks, transfers, adjustments, counts), oldest first.

        Args:
            sku: only this SKU.
            bin_id: only this bin.
            reason: only this reason.
        """
        rows = select(self.state.inventory_changes.values(), eq("sku", sku.upper() if sku else None),
                      eq("bin_id", bin_id), eq("reason", reason))
        return [c.model_dump() for c in rows]

    # ----------------------------------------------------------------- writes
    @tool(read_only=False, returns=Bin)
    def transfer_inventory(self, sku: Sku, from_bin_id: Id("bin"), to_bin_id: Id("bin"),
                           quantity: int = Field(gt=0, le=MAX_UNITS)) -> dict:
        """Move units of a SKU between two bins of one warehouse (replenish a pick bin from reserve).

        Args:
            sku: the SKU.
            from_bin_id: the bin giving the units (only units no open pick list takes).
            to_bin_id: the bin receiving them.
            quantity: units to move.
        """
        src, dst, key = self._bin(from_bin_id), self._bin(to_bin_id), sku.upper()
        if src.id == dst.id or src.warehouse_id != dst.warehouse_id:
            raise Unprocessable("transfers go between two different bins of the same warehouse.")
        free = rules.available(self.state, src.id, key)
        if quantity > free:
            raise Unprocessable(f"bin {src.name} has {free} of {key} free to move; {quantity} asked.")
        rules.add_units(self.state, src, key, -quantity)
        rules.add_units(self.state, dst, key, quantity)
        self._log(key, src.id, -quantity, "transfer", dst.id)
        self._log(key, dst.id, quantity, "transfer", src.id)
        return self._bin_view(dst)

    @tool(read_only=False, returns=InventoryChange)
    def adjust_inventory(self, sku: Sku, bin_id: Id("bin"), quantity_delta: int = Field(ge=-MAX_UNITS, le=MAX_UNITS),
                         reason: ChangeReason = "correction", note: str = Field(default="", max_length=300)) -> dict:
        """Add or remove units of a SKU in a bin with a reason (inventory_add / inventory_remove).

        Args:
            sku: the SKU.
            bin_id: the bin.
            quantity_delta: units to add (positive) or remove (negative), not 0.
            reason: damaged, lost, found, correction, ... .
            note: what happened.
        """
        b, key = self._bin(bin_id), sku.upper()
        if quantity_delta == 0:
            raise Unprocessable("quantity_delta must not be 0.")
        if reason in ("received", "picked", "transfer", "cycle_count"):
            raise Unprocessable(f"reason {reason!r} belongs to its own tool; use damaged, lost, found or correction.")
        if (reason in ("damaged", "lost") and quantity_delta > 0) or (reason == "found" and quantity_delta < 0):
            raise Unprocessable(f"a {reason} adjustment {'removes' if reason != 'found' else 'adds'} units; "
                                "check the sign of quantity_delta.")
        if quantity_delta < 0 and -quantity_delta > rules.available(self.state, b.id, key):
            raise Unprocessable(f"bin {b.name} has {rules.available(self.state, b.id, key)} of {key} not on open "
                                "pick lists; that is the most that can be removed.")
        rules.add_units(self.state, b, key, quantity_delta)
        return self._log(key, b.id, quantity_delta, reason, "", note).model_dump()

    @tool(read_only=False, returns=Bin)
    def record_cycle_count(self, bin_id: Id("bin"), counts: list[CountInput] = Field(min_length=1, max_length=50),
                           note: str = Field(default="", max_length=300)) -> dict:
        """Record a cycle count of a bin: each counted SKU is set to the units found, the difference logged.

        Args:
            bin_id: the counted bin.
            counts: each {sku, counted}.
            note: the counter's note.
        """
        b = self._bin(bin_id)
        skus = [c.sku.upper() for c in counts]
        if len(set(skus)) != len(skus):
            raise Unprocessable("count each SKU once per cycle count.")
        ref = f"COUNT-{self.today:%Y%m%d}-{b.name}"
        for sku, c in zip(skus, counts):
            delta = c.counted - rules.on_hand(self.state, b.id, sku)
            if delta:
                rules.add_units(self.state, b, sku, delta)
                self._log(sku, b.id, delta, "cycle_count", ref, note)
        return self._bin_view(b)
