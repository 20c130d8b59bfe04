"""The fixed commerce book shared by the built-in commerce and finance services.

Each service seeds its state from its own random stream, so two services of
one composition could never agree on generated SKUs, customers or orders.
The product catalog, the customer roster and the order book are therefore
fixed and seed-independent (dates move with ``today``): an order in
``orders`` lists SKUs the ``product_catalog`` sells and ``inventory``
stocks, its invoice in ``invoicing`` carries the same order id and customer
email, and its charge in ``payments`` the same amount. Per-seed variation
lives in each service's own fields (stock levels, extra records, statuses).
"""

from __future__ import annotations

import datetime as dt
import functools
import random
import math
from decimal import ROUND_HALF_UP, Context, Decimal
from typing import NamedTuple

from compoworld_gym.envs.services._common import email_for

#: The store's currency (ISO 4217).
CURRENCY = "USD"
#: Flat shipping fee per order by shipping method, in USD.
SHIPPING_FEES: dict[str, float] = {"standard": 5.99, "express": 14.99}
#: Upper bound of every money amount a tool accepts (USD): large enough for any
#: real business figure, small enough that sums of many amounts stay exact to the cent.
MONEY_MAX = 1_000_000_000
_CENT = Decimal("0.01")
# Float noise of a product sits far below 1e-9 (2292.5 * 0.03 is 68.77499999999999);
# rounding to 9 places first recovers the decimal a person computes (68.775).
_NOISE = Decimal("1e-9")
# Enough digits to quantize any finite float (up to ~1.8e308) to cents; the
# default context (28 digits) raises InvalidOperation above ~1e26.
_WIDE = Context(prec=400)


def money(value: float) -> float:
    """``value`` rounded half-up to cents, the one rounding rule of every money field.

    Rounds the shortest decimal form of the float (what a person reads), so
    ``9.805`` becomes ``9.81`` although the binary float is just below it;
    that form is first rounded to 9 decimal places, so the float noise of a
    product does not flip a half cent (``2292.5 * 0.03`` gives ``68.78``,
    like 68.775 on paper). Total on finite floats, however large (tools
    bound their money inputs by :data:`MONEY_MAX` anyway).

    Raises:
        ValueError: ``value`` is NaN or infinite (no amount of money is).

    Example:
        >>> money(9.805), money(0.1 + 0.2), money(-1.005), money(2292.5 * 0.03), money(1e300) == 1e300
        (9.81, 0.3, -1.01, 68.78, True)
    """
    if not math.isfinite(value):
        raise ValueError(f"a money amount must be a finite number, got {value!r}")
    exact = Decimal(repr(value + 0.0)).quantize(_NOISE, rounding=ROUND_HALF_UP, context=_WIDE)
    return float(exact.quantize(_CENT, rounding=ROUND_HALF_UP, context=_WIDE)) + 0.0


class Product(NamedTuple):
    """A sellable product: SKU, name, category, unit price (USD), unit cost (USD), weight (kg)."""

    sku: str
    name: str
    category: str
    price: float
    cost: float
    weight_kg: float


PRODUCTS: tuple[Product, ...] = (
    Product("KB-MECH-01", "Mechanical Keyboard", "electronics", 89.99, 41.20, 1.1),
    Product("MS-WL-02", "Wireless Mouse", "electronics", 24.50, 9.80, 0.2),
    Product("HB-USBC-03", "USB-C Hub 7-in-1", "electronics", 39.00, 16.40, 0.3),
    Product("MN-27K-04", "27-inch 4K Monitor", "electronics", 329.99, 212.00, 6.8),
    Product("CH-ERG-05", "Ergonomic Office Chair", "furniture", 249.00, 131.50, 17.5),
    Product("DK-STD-06", "Standing Desk Frame", "furniture", 399.00, 228.00, 29.0),
    Product("LP-LED-07", "LED Desk Lamp", "furniture", 34.95, 13.10, 1.4),
    Product("NB-A5-08", "A5 Dotted Notebook", "stationery", 7.25, 2.15, 0.3),
    Product("PN-GEL-09", "Gel Pen 12-pack", "stationery", 11.40, 3.90, 0.2),
    Product("BP-LAP-10", "Laptop Backpack", "accessories", 59.90, 24.75, 0.9),
    Product("CB-HDMI-11", "HDMI Cable 2m", "accessories", 9.99, 2.60, 0.1),
    Product("WC-HD-12", "1080p Webcam", "electronics", 54.00, 23.30, 0.3),
    Product("HS-NC-13", "Noise-cancelling Headset", "electronics", 149.00, 71.00, 0.4),
    Product("MT-FLT-14", "Felt Desk Mat", "accessories", 19.95, 6.40, 0.5),
)
PRODUCTS_BY_SKU: dict[str, Product] = {p.sku: p for p in PRODUCTS}


class Customer(NamedTuple):
    """A store customer: name, email, street address, city, postal code, country (ISO 2)."""

    name: str
    email: str
    address: str
    city: str
    postal_code: str
    country: str


def _customer(name: str, domain: str, address: str, city: str, postal: str, country: str = "US") -> Customer:
    return Customer(name, email_for(name, domain), address, city, postal, country)


CUSTOMERS: tuple[Customer, ...] = (
    _customer("Olivia Martinez", "gmail.com", "418 Maple Avenue", "Portland", "97205"),
    _customer("Noah Thompson", "outlook.com", "77 Harbor Street", "Boston", "02110"),
    _customer("Emma Wilson", "yahoo.com", "1520 Pine Road", "Austin", "78701"),
    _customer("Liam Patel", "gmail.com", "9 Birch Lane", "Denver", "80202"),
    _customer("Ava Nguyen", "hotmail.com", "3301 Ocean Drive", "San Diego", "92101"),
    _customer("Ethan Brooks", "brooksdesign.co", "250 Market Street", "Philadelphia", "19106"),
    _customer("Mia Schneider", "gmx.de", "Lindenstrasse 12", "Berlin", "10969", "DE"),
    _customer("Lucas Fernandez", "gmail.com", "61 Elm Court", "Chicago", "60601"),
    _customer("Chloe Dubois", "orange.fr", "14 Rue des Lilas", "Lyon", "69003", "FR"),
    _customer("James O'Connor", "icloud.com", "805 Cedar Boulevard", "Seattle", "98101"),
)
CUSTOMERS_BY_EMAIL: dict[str, Customer] = {c.email: c for c in CUSTOMERS}


class BookLine(NamedTuple):
    """One order line: SKU, quantity, unit price (USD) and rounded line total."""

    sku: str
    quantity: int
    unit_price: float
    amount: float


class BookOrder(NamedTuple):
    """One order of the shared book.

    ``status`` is the order's lifecycle status; ``total`` is the exact sum
    of the rounded line amounts plus the shipping fee.
    """

    id: str
    customer: Customer
    lines: tuple[BookLine, ...]
    shipping_method: str
    subtotal: float
    shipping_fee: float
    total: float
    placed_on: dt.date
    status: str


#: Order statuses of the book, in order id order (ORD-0001 first).
_BOOK_STATUSES = ("delivered", "delivered", "fulfilled", "fulfilled", "paid", "paid", "paid",
                  "pending", "pending", "cancelled", "refunded", "paid")


@functools.lru_cache(maxsize=8)
def order_book(today: dt.date) -> tuple[BookOrder, ...]:
    """The fixed order history as of ``today`` (12 orders, ORD-0001 oldest).

    Cached per date: every service of a composition reads the same tuple.
    """
    rng = random.Random("compoworld-commerce-book")
    orders = []
    for i, status in enumerate(_BOOK_STATUSES, start=1):
        customer = CUSTOMERS[(i * 3) % len(CUSTOMERS)]
        picks = rng.sample(PRODUCTS, rng.randint(1, 3))
        lines = tuple(BookLine(p.sku, q, p.price, money(p.price * q))
                      for p in picks for q in (rng.randint(1, 3),))
        method = "express" if i % 4 == 0 else "standard"
        subtotal = money(sum(ln.amount for ln in lines))
        fee = SHIPPING_FEES[method]
        placed = today - dt.timedelta(days=40 - 3 * i)
        orders.append(BookOrder(f"ORD-{i:04d}", customer, lines, method, subtotal, fee,
                                money(subtotal + fee), placed, status))
    return tuple(orders)


def book_payment_id(order_id: str) -> str:
    """The id of the card payment (``payments`` service) that paid book order ``order_id``.

    Example:
        >>> book_payment_id("ORD-0003")
        'PI-0003'
    """
    return "PI-" + order_id.split("-", 1)[1]


def book_tracking_number(order_id: str) -> str:
    """The UPS tracking number of the shipment of book order ``order_id``.

    Example:
        >>> book_tracking_number("ORD-0003")
        '1ZCW84100003'
    """
    return "1ZCW8410" + order_id.split("-", 1)[1]
