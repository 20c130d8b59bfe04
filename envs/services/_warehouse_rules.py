"""Rules of the warehouse service: bin stock, allocation to open pick lists, picking and receiving.

A bin's *available* units are its on-hand units less those open pick lists
will take from it; a pick may never exceed them (ShipHero refuses to pick
more than the location holds). Auto-allocation walks the warehouse's
pickable bins in location-name order and takes what each has available.
A receipt may bring at most the units still expected on a line unless it is
flagged as an over-receipt.
"""

from __future__ import annotations

from collections import defaultdict

from compoworld_gym.envs.services._warehouse_models import (
    Bin, BinStock, FulfillmentOrder, InboundShipment, PickInput, PickLine, ReceiveInput, WarehouseState,
)
from compoworld_gym.errors import Unprocessable


def stock_key(bin_id: str, sku: str) -> str:
    """Key of the stock of ``sku`` in ``bin_id``."""
    return f"{bin_id}/{sku}"


def on_hand(state: WarehouseState, bin_id: str, sku: str) -> int:
    """Units of ``sku`` on hand in ``bin_id``."""
    level = state.stock.get(stock_key(bin_id, sku))
    return level.quantity if level else 0


def allocated(state: WarehouseState, bin_id: str, sku: str, skip: str = "") -> int:
    """Units of ``sku`` open pick lists (other than ``skip``) will take from ``bin_id``."""
    return sum(ln.quantity for pl in state.pick_lists.values() if pl.status == "open" and pl.id != skip
               for ln in pl.lines if ln.bin_id == bin_id and ln.sku == sku)


def available(state: WarehouseState, bin_id: str, sku: str) -> int:
    """On-hand units less allocated ones."""
    return on_hand(state, bin_id, sku) - allocated(state, bin_id, sku)


def add_units(state: WarehouseState, b: Bin, sku: str, delta: int) -> BinStock:
    """Change the units of ``sku`` in bin ``b`` by ``delta`` (creating the stock row); returns it.

    Raises:
        Unprocessable: 422 when the bin would go below zero.
    """
    key = stock_key(b.id, sku)
    level = state.stock.get(key)
    if level is None:
        level = BinStock(bin_id=b.id, warehouse_id=b.warehouse_id, sku=sku, quantity=0)
    if level.quantity + delta < 0:
        raise Unprocessable(f"bin {b.name} ({b.id}) holds {level.quantity} of {sku}; it cannot give {-delta}.")
    level.quantity += delta
    state.stock[key] = level
    return level


def explicit_picks(state: WarehouseState, order: FulfillmentOrder, picks: list[PickInput]) -> list[PickLine]:
    """Pick lines from requested picks: each within the bin's available units, together exactly the order.

    Raises:
        Unprocessable: 422 for a bin of another warehouse, a pick above what the bin holds, or picks
            that do not add up to the order's lines.
    """
    lines, want = [], defaultdict(int)
    taken: dict[tuple[str, str], int] = defaultdict(int)
    for p in picks:
        b = state.bins.get(p.bin_id)
        if b is None or b.warehouse_id != order.warehouse_id or not b.pickable:
            raise Unprocessable(f"bin {p.bin_id} is not a pickable bin of {order.warehouse_id}; call list_bins.")
        taken[(b.id, p.sku)] += p.quantity
        free = available(state, b.id, p.sku)
        if taken[(b.id, p.sku)] > free:
            raise Unprocessable(f"cannot pick {taken[(b.id, p.sku)]} of {p.sku} from bin {b.name}: it has {free} "
                                "on hand and unallocated.")
        want[p.sku] += p.quantity
        lines.append(PickLine(sku=p.sku, bin_id=b.id, bin_name=b.name, quantity=p.quantity))
    need = {ln.sku: ln.quantity for ln in order.lines}
    if dict(want) != need:
        raise Unprocessable(f"picks must cover the order's lines exactly: {need}; got {dict(want)}.")
    return lines


def auto_picks(state: WarehouseState, order: FulfillmentOrder) -> list[PickLine]:
    """Pick lines for every order line from the pickable bins, in location-name order.

    Raises:
        Unprocessable: 422 when the warehouse's pickable bins do not hold enough of a SKU.
    """
    bins = sorted((b for b in state.bins.values() if b.warehouse_id == order.warehouse_id and b.pickable),
                  key=lambda b: b.name)
    lines = []
    for ln in order.lines:
        left = ln.quantity
        for b in bins:
            take = min(left, available(state, b.id, ln.sku))
            if take > 0:
                lines.append(PickLine(sku=ln.sku, bin_id=b.id, bin_name=b.name, quantity=take))
                left -= take
            if not left:
                break
        if left:
            raise Unprocessable(f"{order.warehouse_id} has only {ln.quantity - left} of {ln.sku} available in "
                                f"pickable bins; {ln.quantity} are needed. Receive or move stock first.")
    return sorted(lines, key=lambda p: p.bin_name)  # walking order


def check_receipt(inbound: InboundShipment, items: list[ReceiveInput], bins: dict[str, Bin],
                  allow_over_receipt: bool) -> None:
    """Refuse a receipt into a bin of another warehouse, of a SKU not on the shipment, or above what is expected.

    Raises:
        Unprocessable: 422 saying which line and how many units are still expected.
    """
    expected = {ln.sku: ln for ln in inbound.lines}
    counted: dict[str, int] = defaultdict(int)
    for item in items:
        b = bins.get(item.bin_id)
        if b is None or b.warehouse_id != inbound.warehouse_id:
            raise Unprocessable(f"bin {item.bin_id} is not in {inbound.warehouse_id}; receive into a bin there.")
        line = expected.get(item.sku)
        if line is None:
            raise Unprocessable(f"{item.sku} is not on inbound shipment {inbound.id}; its SKUs: "
                                f"{', '.join(expected)}.")
        counted[item.sku] += item.quantity
        left = line.expected_quantity - line.received_quantity
        if counted[item.sku] > left and not allow_over_receipt:
            raise Unprocessable(f"{inbound.id} expects {left} more of {item.sku}; receiving {counted[item.sku]} "
                                "needs allow_over_receipt=true.")
