"""Rules of the returns service: the return window, returnable quantities, refunds and labels.

A return may be started up to ``return_window_days`` after the order was
delivered, for units of the order's lines not already on another live
(open or closed) return; a refund line gets the price paid back by default
and never more than ``price x quantity``; an exchange is refunded nothing
and needs the variant in stock. Labels get a carrier tracking number made
from the return id (UPS ``1Z`` numbers, USPS 22-digit, FedEx 12-digit).
"""

from __future__ import annotations

import datetime as dt

from compoworld_gym.envs.services._commerce import money
from compoworld_gym.envs.services._returns_models import ReturnLineItem, ReturnRequest
from compoworld_gym.errors import Unprocessable

#: Days from placing an order to its delivery, by shipping method.
TRANSIT_DAYS = {"standard": 4, "express": 2}
#: States in which a return holds its units (cancelled and expired ones release them).
LIVE = ("open", "closed")


def delivered_on(placed_on: dt.date, shipping_method: str) -> dt.date:
    """The delivery day of an order placed on ``placed_on``."""
    return placed_on + dt.timedelta(days=TRANSIT_DAYS.get(shipping_method, 4))


def check_window(delivered: dt.date, today: dt.date, window: int, order_id: str) -> None:
    """Refuse a return started more than ``window`` days after delivery.

    Raises:
        Unprocessable: 422 naming the days since delivery and the window.
    """
    days = (today - delivered).days
    if days > window:
        raise Unprocessable(f"order {order_id} was delivered {days} days ago ({delivered.isoformat()}); returns "
                            f"are accepted within {window} days of delivery.")


def returned_units(returns: list[ReturnRequest], order_id: str, sku: str) -> int:
    """Units of ``sku`` of ``order_id`` already on live returns."""
    return sum(li.quantity for r in returns if r.order_id == order_id and r.state in LIVE
               for li in r.line_items if li.sku == sku)


def check_refund(line: ReturnLineItem, amount: float) -> float:
    """``amount`` to cents if it may be refunded on ``line``.

    Raises:
        Unprocessable: 422, over the price paid, or a refund on an exchange line.
    """
    cap = money(line.price * line.quantity)
    value = money(amount)
    if line.outcome == "exchange" and value > 0:
        raise Unprocessable(f"line {line.line_item_id} is an exchange; an exchange is refunded nothing.")
    if value > cap:
        raise Unprocessable(f"line {line.line_item_id} paid {cap:,.2f} ({line.quantity} x {line.price:,.2f}); "
                            f"a refund of {value:,.2f} is more than was paid.")
    return value


def refund_total(lines: list[ReturnLineItem]) -> float:
    """The sum of the lines' refunds."""
    return money(sum(li.refund for li in lines))


def tracking_number(carrier: str, return_id: str, n: int) -> str:
    """The tracking number of the ``n``-th label of ``return_id`` with ``carrier``."""
    digits = return_id.split("-", 1)[1]
    if carrier == "ups":
        return f"1ZRT{n:02d}90{digits}"
    if carrier == "usps":
        return f"9202190{n:03d}000000{digits}".ljust(22, "0")[:22]
    return f"79{n:02d}0000{digits}"[:12].ljust(12, "0")
