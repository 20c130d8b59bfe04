"""Seed data of the digital_assets service: the store's DAM.

Every product of the shared catalogue (``_commerce.PRODUCTS``) has a product
shot at ``products/<sku>`` (the path the Hugo blog's launch posts show as
``/images/products/<sku>.jpg``), tagged ``product_shot`` and its category,
its SKU in the metadata: most shot in house (owned, perpetual), a few by
agencies under licenses that run out (one expiring this month). An archived
chair shot and the holiday bundle campaign image have expired licenses;
there are a lifestyle image, a demo video and a spec sheet. Two collections
are published, two are drafts (one holds the expired holiday image).
"""

from __future__ import annotations

import datetime as dt
import random
from typing import Optional

from compoworld_gym.envs.services._blocks import day_start, seed_id
from compoworld_gym.envs.services._commerce import PRODUCTS
from compoworld_gym.envs.services._digital_assets_models import (
    Asset, AssetMetadata, Collection, DigitalAssetsState, url_for, version_of,
)

STUDIO = "Acme In-House Studio"
#: Agency-shot product images: SKU -> (rights holder, license days left, channels).
AGENCY_SHOTS = {"MN-27K-04": ("Brightline Photo Agency", 20, ["web", "social", "email"]),
                "CH-ERG-05": ("Northlight Studios", 200, ["web", "social", "email", "print"]),
                "HS-NC-13": ("Brightline Photo Agency", 75, ["web", "email"])}
#: Other assets: (public_id, format, sku, rights holder, license type, days left or None, tags).
_OTHERS = (("products/archive/ch-erg-05-v1", "jpg", "CH-ERG-05", "Brightline Photo Agency", "rights_managed", -40,
            ["product_shot", "archive"]),
           ("campaigns/holiday-keyboard-bundle", "jpg", "KB-MECH-01", "Brightline Photo Agency", "rights_managed", -14,
            ["campaign", "holiday"]),
           ("lifestyle/home-office-desk", "jpg", "DK-STD-06", "Northlight Studios", "rights_managed", 90,
            ["lifestyle", "furniture"]),
           ("video/standing-desk-demo", "mp4", "DK-STD-06", STUDIO, "owned", None, ["video", "furniture"]),
           ("docs/ch-erg-05-spec-sheet", "pdf", "CH-ERG-05", STUDIO, "owned", None, ["spec_sheet"]))
#: Collections: (name, description, status, public ids).
_COLLECTIONS = (("Spring Launch 2026", "Landing page of the spring furniture launch.", "published",
                 ("products/dk-std-06", "products/ch-erg-05", "products/lp-led-07", "video/standing-desk-demo")),
                ("Homepage Hero", "Rotating hero images on the store homepage.", "published",
                 ("lifestyle/home-office-desk", "products/mn-27k-04")),
                ("Holiday 2025 Bundle", "Holiday keyboard bundle promotion (ended).", "draft",
                 ("campaigns/holiday-keyboard-bundle", "products/kb-mech-01")),
                ("Back to School", "Stationery and bags for the August campaign.", "draft",
                 ("products/nb-a5-08", "products/pn-gel-09", "products/bp-lap-10")))


def make_asset(state: DigitalAssetsState, rng: random.Random, created: dt.datetime, *, public_id: str, fmt: str,
               sku: Optional[str], holder: str, license_type: str, expiry: Optional[dt.date], tags: list[str],
               channels: Optional[list[str]] = None, aid: Optional[str] = None, alt: Optional[str] = None) -> Asset:
    """Add an asset (with seeded size and dimensions) to ``state``; returns it."""
    kind = {"mp4": "video", "pdf": "raw"}.get(fmt, "image")
    version = version_of(created)
    meta = AssetMetadata(sku=sku, rights_holder=holder, license_type=license_type, license_expiry=expiry,
                         credit_line="" if holder == STUDIO else f"Photo: {holder}")
    if channels:
        meta.allowed_channels = channels
    a = Asset(id=aid or seed_id(state, "AST"), public_id=public_id, resource_type=kind, format=fmt,
              bytes={"image": rng.randint(180_000, 2_400_000), "video": rng.randint(18_000_000, 64_000_000),
                     "raw": rng.randint(90_000, 900_000)}[kind],
              width=None if kind == "raw" else (1920 if kind == "video" else 2000),
              height=None if kind == "raw" else (1080 if kind == "video" else 2000), version=version,
              secure_url=url_for(public_id, kind, fmt, version), created_at=created, tags=tags, metadata=meta)
    if kind == "image":
        a.context = {"alt": alt or public_id.rsplit("/", 1)[-1].replace("-", " ").capitalize()}
    state.assets[a.id] = a
    return a


def build_state(rng: random.Random, today: dt.date) -> DigitalAssetsState:
    """Nineteen assets and four collections.

    Args:
        rng: seeded random stream (file sizes, upload times).
        today: the task's date.
    """
    state = DigitalAssetsState()
    start = day_start(today)
    for n, p in enumerate(PRODUCTS):
        created = start - dt.timedelta(days=180 - 5 * n, hours=rng.randint(0, 6))
        holder, days, channels = AGENCY_SHOTS.get(p.sku, (STUDIO, None, None))
        make_asset(state, rng, created, public_id=f"products/{p.sku.lower()}", fmt="jpg", sku=p.sku, holder=holder,
                   license_type="owned" if days is None else "rights_managed",
                   expiry=None if days is None else today + dt.timedelta(days=days),
                   tags=["product_shot", p.category], channels=channels, alt=p.name)
    for n, (pid, fmt, sku, holder, lic, days, tags) in enumerate(_OTHERS):
        created = start - dt.timedelta(days=120 - 20 * n, hours=rng.randint(0, 6))
        make_asset(state, rng, created, public_id=pid, fmt=fmt, sku=sku, holder=holder, license_type=lic,
                   expiry=None if days is None else today + dt.timedelta(days=days), tags=list(tags))
    by_pid = {a.public_id: a.id for a in state.assets.values()}
    for n, (name, desc, status, pids) in enumerate(_COLLECTIONS):
        made = start - dt.timedelta(days=60 - 10 * n)
        c = Collection(id=seed_id(state, "COL"), name=name, description=desc, status=status,
                       asset_ids=[by_pid[p] for p in pids], created_at=made)
        if status == "published":
            c.published_at = made + dt.timedelta(days=2)
        state.collections[c.id] = c
    return state


__all__ = ["AGENCY_SHOTS", "STUDIO", "build_state", "make_asset"]
