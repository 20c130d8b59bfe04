"""Seed data of the ``database`` service: the business tables, built from
the shared customers, products and order book (:mod:`._commerce`) so a row
here is the same customer or order as in the other services."""

from __future__ import annotations

import datetime as dt
import random

from compoworld_gym.envs.services._commerce import CUSTOMERS, PRODUCTS, order_book
from compoworld_gym.envs.services._company import STAFF
from compoworld_gym.envs.services._database_models import Column, Table


def _cols(spec: str) -> list[Column]:
    """Columns from ``"name TYPE [pk|nn], ..."`` (pk: primary key, implies NOT NULL; nn: NOT NULL)."""
    out = []
    for part in spec.split(","):
        name, typ, *flags = part.split()
        out.append(Column(name=name, type=typ, primary_key="pk" in flags, not_null="pk" in flags or "nn" in flags))
    return out


_CASE_SUBJECTS = ("Refund not received", "Wrong item delivered", "Invoice address change",
                  "Damaged on arrival", "Missing package", "Warranty claim", "Double charge",
                  "Order stuck in processing", "Return label request", "Account email change")


def seed_tables(rng: random.Random, today: dt.date) -> list[Table]:
    """The seeded business tables: customers, orders, products and support cases (half of them past due)."""
    cust_ids = {c.email: f"CUS-{i:04d}" for i, c in enumerate(CUSTOMERS, start=1)}
    customers = Table(name="customers", columns=_cols(
        "id TEXT pk,name TEXT nn,email TEXT nn,city TEXT,country TEXT,tier TEXT nn,created_on TEXT nn"),
        rows=[{"id": cust_ids[c.email], "name": c.name, "email": c.email, "city": c.city, "country": c.country,
               "tier": rng.choice(("standard", "standard", "gold", "platinum")),
               "created_on": (today - dt.timedelta(days=rng.randint(60, 900))).isoformat()} for c in CUSTOMERS])
    orders = Table(name="orders", columns=_cols(
        "id TEXT pk,customer_id TEXT nn,total REAL nn,status TEXT nn,shipping_method TEXT,placed_on TEXT nn"),
        rows=[{"id": o.id, "customer_id": cust_ids[o.customer.email], "total": o.total, "status": o.status,
               "shipping_method": o.shipping_method, "placed_on": o.placed_on.isoformat()} for o in order_book(today)])
    products = Table(name="products", columns=_cols("sku TEXT pk,name TEXT nn,category TEXT,price REAL nn,stock INTEGER nn"),
                     rows=[{"sku": p.sku, "name": p.name, "category": p.category, "price": p.price,
                            "stock": rng.randint(0, 60)} for p in PRODUCTS])
    cases = Table(name="support_cases", columns=_cols(
        "id TEXT pk,customer_id TEXT nn,order_id TEXT,subject TEXT nn,status TEXT nn,priority TEXT nn,"
        "owner_email TEXT,opened_on TEXT nn,due_date TEXT nn"))
    book = order_book(today)
    statuses = ["pending", "pending", "open", "escalated", "resolved", "resolved", "pending", "open",
                "resolved", "pending"]
    rng.shuffle(statuses)
    for i, status in enumerate(statuses, start=1):
        order = book[rng.randrange(len(book))]
        opened = today - dt.timedelta(days=rng.randint(2, 25))
        # Every second case is already past due, so "overdue" queries always find some.
        due = today - dt.timedelta(days=rng.randint(1, 5)) if i % 2 else today + dt.timedelta(days=rng.randint(1, 10))
        cases.rows.append({"id": f"CASE-{i:04d}", "customer_id": cust_ids[order.customer.email], "order_id": order.id,
                           "subject": _CASE_SUBJECTS[i - 1], "status": status,
                           "priority": rng.choice(("low", "normal", "high", "urgent")),
                           "owner_email": rng.choice(STAFF).email, "opened_on": opened.isoformat(),
                           "due_date": max(due, opened).isoformat()})
    return [customers, orders, products, cases]
