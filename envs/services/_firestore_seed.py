"""Seed state of the firestore service: a mobile shop app's database.

* ``customers/{email}``: the shared store customers (``_commerce.CUSTOMERS``,
  the people of the orders, CRM and helpdesk seeds), keyed by email, with
  their app profile (phone, city, country, loyalty tier, opt-ins, tags);
* ``customers/{email}/devices/{deviceId}``: the phones the app runs on;
* ``feedback/{autoId}``: in-app product reviews naming the customer's email
  and a shared-catalog SKU, ``new`` until triaged;
* ``app_config/mobile``: the app's remote configuration.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import random

from faker import Faker

from compoworld_gym.envs.services._blocks import stamp
from compoworld_gym.envs.services._commerce import CUSTOMERS, PRODUCTS
from compoworld_gym.envs.services._firestore_models import FirestoreState, FsDocument

_ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789"
_COMMENTS = {5: "Love it, exactly as described.", 4: "Good value, arrived quickly.", 3: "Does the job, nothing more.",
             2: "Stopped working properly after a week.", 1: "Arrived broken, very disappointed."}


def auto_id(seed_text: str) -> str:
    """A 20-character Firestore-style document id derived from ``seed_text`` (deterministic)."""
    digest = hashlib.sha256(seed_text.encode()).digest()
    return "".join(_ALPHABET[b % len(_ALPHABET)] for b in digest[:20])


def put(state: FirestoreState, path: str, data: dict, when: dt.datetime) -> FsDocument:
    """Store a document at ``path`` (a valid document path) created and updated at ``when``."""
    collection, _, doc_id = path.rpartition("/")
    doc = FsDocument(path=path, id=doc_id, collectionPath=collection, data=data, createTime=when, updateTime=when)
    state.documents[path] = doc
    return doc


def profile(name: str, email: str, phone: str, city: str, country: str, tier: str, signup: dt.date) -> dict:
    """A customer's app profile document."""
    return {"name": name, "email": email, "phone": phone, "city": city, "country": country, "loyaltyTier": tier,
            "marketingOptIn": True, "pushEnabled": True, "signupDate": signup.isoformat(), "tags": [],
            "orderCount": 0}


def feedback(email: str, sku: str, rating: int, day: dt.date, status: str) -> dict:
    """An in-app review document."""
    return {"email": email, "sku": sku, "rating": rating, "comment": _COMMENTS[rating], "date": day.isoformat(),
            "status": status}


def build_state(fake: Faker, rng: random.Random, today: dt.date) -> FirestoreState:
    """The seeded database (see the module docstring)."""
    state = FirestoreState()
    for i, c in enumerate(CUSTOMERS):
        signup = today - dt.timedelta(days=rng.randint(90, 900))
        doc = profile(c.name, c.email, fake.numerify("+1-###-555-####"), c.city, c.country,
                      rng.choice(("bronze", "bronze", "silver", "gold")), signup)
        doc["orderCount"], doc["marketingOptIn"] = rng.randint(1, 12), rng.random() < 0.7
        doc["tags"] = rng.sample(["early-adopter", "reviewer", "deal-hunter", "b2b"], rng.randint(0, 2))
        put(state, f"customers/{c.email}", doc, stamp(today, rng.randint(1, 60), rng))
        for k in range(1 + i % 2):
            dev = auto_id(f"device:{c.email}:{k}")
            put(state, f"customers/{c.email}/devices/{dev}",
                {"platform": rng.choice(("ios", "android")), "appVersion": rng.choice(("4.2.0", "4.3.1", "4.4.0")),
                 "pushToken": auto_id(f"token:{dev}") * 2, "lastSeenAt": stamp(today, rng.randint(0, 20), rng).isoformat()},
                stamp(today, rng.randint(30, 90), rng))
    for n in range(12):
        c, p = rng.choice(CUSTOMERS), rng.choice(PRODUCTS)
        ago = rng.randint(1, 40)
        put(state, f"feedback/{auto_id(f'feedback:{n}')}",
            feedback(c.email, p.sku, rng.randint(1, 5), today - dt.timedelta(days=ago), "new" if ago < 10 else "triaged"),
            stamp(today, ago, rng))
    put(state, "app_config/mobile", {"minSupportedVersion": "4.2.0", "maintenanceMode": False,
                                     "features": {"wishlist": True, "liveChat": rng.random() < 0.5}},
        stamp(today, 14, rng))
    return state
