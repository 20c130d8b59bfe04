"""Seed data of sales_tax: the store's customers, their exemption certificates and the book's tax documents.

The customers are the shared store customers of :mod:`._commerce` under the
payments service's ids (``CUS-0001`` is the first), with their addresses.
Every invoice of the shared order book has its tax document, coded with the
invoicing id (``INV-0003``): committed once paid, saved while open, voided
with the cancelled order. Certificates cover the cases the rules tell
apart: valid, expired, revoked, and valid for another state.
"""

from __future__ import annotations

import datetime as dt
import random

from compoworld_gym.envs.services._commerce import CUSTOMERS, PRODUCTS_BY_SKU, order_book
from compoworld_gym.envs.services._sales_tax_models import AddressInfo, Certificate, Customer, LineIn, SalesTaxState
from compoworld_gym.envs.services._sales_tax_rules import make_transaction, valid_certificate

#: State or province of each shared customer's city.
REGIONS = {"Portland": "OR", "Boston": "MA", "Austin": "TX", "Denver": "CO", "San Diego": "CA",
           "Philadelphia": "PA", "Berlin": "BE", "Chicago": "IL", "Lyon": "ARA", "Seattle": "WA"}
#: (customer index in CUSTOMERS, reason, exposure zone, signed days ago, days valid, status).
_CERTS = ((5, "RESALE", "PA", 200, 730, "COMPLETE"),
          (2, "CHARITABLE/EXEMPT ORG", "TX", 750, 730, "COMPLETE"),
          (7, "RESALE", "IL", 90, 365, "COMPLETE"),
          (1, "GOVERNMENT", "MA", 400, 1095, "REVOKED"),
          (3, "RESALE", "TX", 60, 365, "COMPLETE"))


def customer_code(index: int) -> str:
    """The customer code of ``CUSTOMERS[index]``: its payments id (``CUS-0001`` first)."""
    return f"CUS-{index + 1:04d}"


def build_state(rng: random.Random, today: dt.date) -> SalesTaxState:
    """Customers, five certificates and one tax document per book invoice."""
    state = SalesTaxState()
    for i, c in enumerate(CUSTOMERS):
        code = customer_code(i)
        state.customers[code] = Customer(
            customer_code=code, name=c.name, email_address=c.email,
            address=AddressInfo(line1=c.address, city=c.city, region=REGIONS[c.city], postal_code=c.postal_code,
                                country=c.country), created_date=today - dt.timedelta(days=200 + 9 * i))
    for n, (idx, reason, zone, ago, days, status) in enumerate(_CERTS, start=1):
        signed = today - dt.timedelta(days=ago + rng.randint(0, 5))
        cid = f"CERT-{n:04d}"
        state.certificates[cid] = Certificate(id=cid, customer_code=customer_code(idx),
                                              exemption_number=f"{zone}-{rng.randint(10**7, 10**8 - 1)}",
                                              exemption_reason=reason, exposure_zone=zone, signed_date=signed,
                                              expiration_date=signed + dt.timedelta(days=days), status=status)
    by_email = {c.email: i for i, c in enumerate(CUSTOMERS)}
    for n, b in enumerate(order_book(today), start=1):
        cust = state.customers[customer_code(by_email[b.customer.email])]
        lines = [LineIn(number=str(k), quantity=ln.quantity, amount=ln.amount, tax_code="P0000000", item_code=ln.sku,
                        description=PRODUCTS_BY_SKU[ln.sku].name) for k, ln in enumerate(b.lines, start=1)]
        lines.append(LineIn(number=str(len(lines) + 1), amount=b.shipping_fee, tax_code="FR020100",
                            item_code="SHIPPING", description=f"Shipping ({b.shipping_method})"))
        cert = valid_certificate(state.certificates.values(), cust.customer_code, cust.address.region, b.placed_on)
        status = {"pending": "Saved", "cancelled": "Cancelled"}.get(b.status, "Committed")
        tid = f"AVT-{n:04d}"
        state.transactions[tid] = make_transaction(
            tid, f"INV-{n:04d}", b.placed_on, cust.customer_code, cust.address, lines, cert.id if cert else None,
            b.placed_on, status=status, exemption_no=cert.exemption_number if cert else None,
            void_reason="DocVoided" if status == "Cancelled" else None, description=f"Order {b.id}")
    state.counters.update(CUS=len(CUSTOMERS) + 1, CERT=len(_CERTS) + 1, AVT=len(state.transactions) + 1)
    return state
