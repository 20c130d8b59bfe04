"""The DAM in chained tasks: a product image names, in its usage-rights
metadata, the SKU it shows and the rights holder (the agency that shot it);
a SKU's product shot (the image the catalog
and the blog's launch post show) is found by the SKU, past an archived shot
whose license has run out. Writes: renew the image's license through a day
the chain found, add the image to the published spring launch collection,
or tag it as discontinued."""

from __future__ import annotations

import datetime as dt
from typing import Any, Optional

from compoworld_gym.checks import OnlyChanged, RecordMatches
from compoworld_gym.envs.services._digital_assets_models import Asset, Collection, DigitalAssetsState
from compoworld_gym.envs.services._digital_assets_seed import AGENCY_SHOTS, make_asset
from compoworld_gym.generation.context import Ctx, call
from compoworld_gym.generation.links import (
    Action, Found, Give, Need, Reader, Relay, ServiceLinks, SolveError, Write, next_id, pick,
)

SERVICE = "digital_assets"
LAUNCH = "Spring Launch 2026"
_AGENCIES = tuple(sorted({h for h, _, _ in AGENCY_SHOTS.values()}))


def next_asset_id(state: dict[str, Any]) -> str:
    """Take the next free asset id from the DAM's counters (as ``new_id("AST")``)."""
    return next_id(state, "AST")


def _live_shot(state: DigitalAssetsState, sku: str, today: dt.date) -> Optional[Asset]:
    for a in state.assets.values():
        m = a.metadata
        if (m.sku or "").upper() == sku.upper() and "product_shot" in a.tags and "archive" not in a.tags and (
                m.license_expiry is None or m.license_expiry >= today):
            return a
    return None


def plant_shot(ctx: Ctx, aid: Optional[str], *, sku: str, holder: str, expiry: str, archived: bool = False) -> str:
    """Plant ``sku``'s product shot at ``products/<sku>``, shot by ``holder`` under a rights-managed license
    running through ``expiry`` (the SKU's live shot is re-licensed in place when there is one and no id is
    given); or, ``archived``, an old shot of the SKU whose license ran out two months ago. Returns the asset id."""
    raw = ctx.state(SERVICE)
    state = DigitalAssetsState.model_validate(raw)
    sku, day = sku.upper(), dt.date.fromisoformat(expiry)
    live = None if archived or aid else _live_shot(state, sku, ctx.today)
    if live is not None:
        live.metadata.rights_holder, live.metadata.license_type = holder, "rights_managed"
        live.metadata.license_expiry, live.metadata.credit_line = day, f"Photo: {holder}"
        aid = live.id
    else:
        taken = {a.public_id for a in state.assets.values()}
        pid = f"products/archive/{sku.lower()}-{ctx.code().lower()}" if archived else f"products/{sku.lower()}"
        if pid in taken:
            pid = f"products/{sku.lower()}-{ctx.code().lower()}"
        made = dt.datetime.combine(ctx.today - dt.timedelta(days=300 if archived else 20), dt.time(10, 0))
        aid = make_asset(state, ctx.rng, made, public_id=pid, fmt="jpg", sku=sku, holder=holder,
                         license_type="rights_managed", tags=["product_shot", "archive"] if archived
                         else ["product_shot"], expiry=ctx.today - dt.timedelta(days=60) if archived else day,
                         aid=aid or next_asset_id(raw)).id
    dumped = state.model_dump(mode="json")
    raw["assets"] = dumped["assets"]
    return aid


def _plant(ctx: Ctx, key: Any, outs: dict[str, Any], stale: bool, by_id: bool) -> str:
    sku = outs.get("sku") or ctx.fresh("sku") if by_id else str(key)
    return plant_shot(ctx, str(key) if by_id else None, sku=sku,
                      holder=outs.get("company") or ctx.rng.choice(_AGENCIES),
                      expiry=ctx.day(ctx.rng.randint(60, 240)), archived=stale)


def _by_id(reader: Reader, key: Any) -> dict[str, Any]:
    return reader.read(SERVICE, "get_resource_by_asset_id", asset_id=key)


def _sku_shot(reader: Reader, key: Any) -> dict[str, Any]:
    rows = reader.read(SERVICE, "search_assets", sku=key, tag="product_shot", max_results=500)
    return _by_id(reader, pick([r for r in rows if r["license_status"] != "expired"])["id"])


_HOLDER = Give("company", "metadata.rights_holder", "the image's rights holder (the agency that shot it)",
               party="vendor")

ASSET = Relay(
    service=SERVICE, name="DAM image", key="media_asset_id",
    gives=(Give("sku", "metadata.sku", "the SKU of the product the image shows"), _HOLDER),
    plant=lambda ctx, key, outs, stale: _plant(ctx, key, outs, stale, True), find=_by_id,
    where="Each image in the DAM names, in its usage-rights metadata, the SKU it shows and the rights holder.",
    alloc=lambda ctx: next_asset_id(ctx.state(SERVICE)), entry=lambda key: f"DAM asset {key}")

SKU_SHOT = Relay(
    service=SERVICE, name="SKU's product shot", key="sku",
    gives=(Give("media_asset_id", "id", "the SKU's product shot in the DAM"), _HOLDER),
    plant=lambda ctx, key, outs, stale: _plant(ctx, key, outs, stale, False), find=_sku_shot,
    where="The DAM files each product shot under the product's SKU in its metadata, tagged product_shot.",
    truth="An image whose license has expired may not be used; only the SKU's licensed product shot counts.")


def _asset_scope(aid: str, *paths: str, added: str = "") -> OnlyChanged:
    return OnlyChanged(id="_", service=SERVICE, collection="assets", allow_ids=[aid], allow_paths={aid: list(paths)},
                       max_added={added: 1} if added else {},
                       description="No other asset was changed, and nothing else in this one.")


def _prepare_renew(ctx: Ctx, values: dict[str, Any]) -> None:
    """The image's license runs out a few days (at most 15) before the chain's day, and not before today."""
    a = ctx.state(SERVICE)["assets"].get(values["asset"])
    day = dt.date.fromisoformat(str(values["day"]))
    if a is None or day <= ctx.today:
        return
    ends = max(ctx.today, day - dt.timedelta(days=ctx.rng.randint(3, 15)))
    a["metadata"]["license_expiry"] = (ctx.today if ends >= day else ends).isoformat()


def _renew(reader: Reader, args: dict[str, Found]) -> Write:
    aid, day = args["asset"].value, str(args["day"].value)
    a = _by_id(reader, aid)
    current = a["metadata"]["license_expiry"]
    if current is None or day <= current:
        raise SolveError(f"asset {aid}'s license (to {current}) is not extended by {day}")
    return Write(
        calls=[call("update_metadata", public_ids=[a["public_id"]], license_expiry=day)],
        checks=[RecordMatches(id="_", service=SERVICE, collection="assets", record_id=aid,
                              where={"metadata.license_expiry": day},
                              description="The image's license now runs exactly through the day the case needs.")],
        scope=[_asset_scope(aid, "metadata.license_expiry")], tool="update_metadata",
        where={"public_ids": [a["public_id"]]}, label="the license renewal")


def _prepare_launch(ctx: Ctx, values: dict[str, Any]) -> None:
    """The spring launch collection is published (planted if the DAM has none)."""
    state = ctx.state(SERVICE)
    if any(c["name"] == LAUNCH for c in state["collections"].values()):
        return
    cid = next_id(state, "COL")
    state["collections"][cid] = Collection(
        id=cid, name=LAUNCH, description="Landing page of the spring furniture launch.", status="published",
        created_at=dt.datetime.combine(ctx.today - dt.timedelta(days=30), dt.time(10, 0)),
        published_at=dt.datetime.combine(ctx.today - dt.timedelta(days=28), dt.time(10, 0))).model_dump(mode="json")


def _collect(reader: Reader, args: dict[str, Found]) -> Write:
    aid = args["asset"].value
    a = _by_id(reader, aid)
    col = pick(reader.read(SERVICE, "list_collections", status="published"), name=LAUNCH)
    if a["license_status"] == "expired" or aid in col["asset_ids"]:
        raise SolveError(f"asset {aid} cannot be added to {LAUNCH}")
    return Write(
        calls=[call("add_assets_to_collection", collection_id=col["id"], public_ids=[a["public_id"]])],
        checks=[RecordMatches(id="_", service=SERVICE, collection="collections", record_id=col["id"],
                              where={"asset_ids": {"$contains": aid}, "status": "published"},
                              description=f"The image is in the published {LAUNCH} collection.")],
        scope=[OnlyChanged(id="_", service=SERVICE, collection="collections", allow_ids=[col["id"]],
                           allow_paths={col["id"]: []}, max_added={"asset_ids": 1},
                           description="No other collection was changed, and nothing else in this one."),
               OnlyChanged(id="_", service=SERVICE, collection="assets", description="No asset was changed.")],
        tool="add_assets_to_collection", where={"collection_id": col["id"]}, label="the image added to the launch")


def _discontinue(reader: Reader, args: dict[str, Found]) -> Write:
    aid = args["asset"].value
    a = _by_id(reader, aid)
    if "discontinued" in a["tags"]:
        raise SolveError(f"asset {aid} is already tagged discontinued")
    return Write(
        calls=[call("add_tag", tag="discontinued", public_ids=[a["public_id"]])],
        checks=[RecordMatches(id="_", service=SERVICE, collection="assets", record_id=aid,
                              where={"tags": {"$contains": "discontinued"}},
                              description="The image is tagged discontinued.")],
        scope=[_asset_scope(aid, added="tags")], tool="add_tag", where={"tag": "discontinued"},
        label="the discontinued tag")


_NEED = Need("asset", "media_asset_id")

LINKS = ServiceLinks(
    service=SERVICE, label="the DAM (Cloudinary)",
    relays=(ASSET, SKU_SHOT),
    actions=(
        Action(service=SERVICE, name="renew", needs=(_NEED, Need("day", "date", ("",))), build=_renew,
               prepare=_prepare_renew,
               goal="renew the image's license so that it runs exactly through {day}"),
        Action(service=SERVICE, name="collect", needs=(_NEED,), build=_collect, prepare=_prepare_launch,
               goal=f"add the image to the published {LAUNCH} collection"),
        Action(service=SERVICE, name="discontinue", needs=(_NEED,), build=_discontinue,
               goal="tag the image as discontinued"),
    ),
)

__all__ = ["LINKS", "next_asset_id", "plant_shot"]
