"""Meilisearch in chained tasks: the storefront search listing of a SKU
names the price shoppers see and the product page link; a help-centre
article (under its operations-manual id) names its public link and its
owner's work email. Writes: hide a SKU's listing from storefront search,
or flag a help-centre article for review with a note quoting the case."""

from __future__ import annotations

import json
import re
from typing import Any

from compoworld_gym.checks import OnlyChanged, RecordMatches
from compoworld_gym.envs.services._company import STAFF
from compoworld_gym.envs.services._meilisearch_models import Document
from compoworld_gym.envs.services._meilisearch_seed import article_fields, document_key, product_fields
from compoworld_gym.generation.context import Ctx, call
from compoworld_gym.generation.links import Action, Found, Give, Need, Reader, Relay, ServiceLinks, Write, next_id

PRODUCTS, HELP = "products", "help-centre"
_KINDS = (("Monitor Arm", "accessories"), ("Docking Station", "electronics"), ("Desk Drawer Unit", "furniture"),
          ("Laptop Stand", "accessories"), ("Wireless Presenter", "electronics"), ("Footrest", "furniture"))
_TOPICS = (("Returning a damaged item", "shipping", ["returns", "damage"]),
           ("Changing your billing address", "billing", ["billing", "address"]),
           ("Resetting two-factor authentication", "accounts", ["2fa", "login"]),
           ("Tracking a delayed parcel", "shipping", ["tracking", "delay"]),
           ("Requesting a copy of your data", "privacy", ["gdpr", "export"]))
_STAFF_EMAILS = tuple(s.email for s in STAFF)


def plant_document(state: dict[str, Any], index_uid: str, doc_id: str, fields: dict[str, Any]) -> str:
    """Add (or replace) a :class:`Document` (validated) in an existing index; returns the document id."""
    doc = Document(indexUid=index_uid, id=doc_id, fields=fields)
    state["documents"][document_key(index_uid, doc_id)] = doc.model_dump(mode="json")
    return doc_id


def _owner_email(ctx: Ctx) -> str:
    return ctx.rng.choice(_STAFF_EMAILS)


def _plant_listing(ctx: Ctx, sku: str, price: float, url: str | None = None) -> str:
    name, category = ctx.rng.choice(_KINDS)
    state = ctx.state("meilisearch")
    fields = product_fields(sku, next_id(state, "PRD", start=100), name, category, price)
    if url:
        fields["url"] = url
    return plant_document(state, PRODUCTS, sku, fields)


def _listing(reader: Reader, key: Any) -> dict[str, Any]:
    return reader.read("meilisearch", "get-document", indexUid=PRODUCTS, documentId=str(key))


LISTING = Relay(
    service="meilisearch", name="storefront search listing", key="sku",
    gives=(Give("money", "price", "the price shown in storefront search"),
           Give("url", "url", "the product page link")),
    plant=lambda ctx, key, outs, stale: _plant_listing(
        ctx, str(key), outs.get("money") or round(ctx.rng.randint(1500, 40000) / 100, 2), outs.get("url")),
    find=_listing,
    where="The storefront search engine (Meilisearch, index 'products') holds one listing per SKU, "
          "with the price shoppers see and the product page link.",
    entry=lambda key: f"the storefront search listing for SKU {key}")


def _next_article(ctx: Ctx) -> str:
    state = ctx.state("meilisearch")
    top = max((int(m.group(1)) for d in state["documents"].values() if d["indexUid"] == HELP
               for m in [re.fullmatch(r"KB-(\d+)", d["id"])] if m), default=0)
    return next_id(state, "KB", start=top + 1)


def _plant_article(ctx: Ctx, key: Any, outs: dict[str, Any], stale: bool) -> str:
    title, category, tags = ctx.rng.choice(_TOPICS)
    fields = article_fields(str(key), title, category, tags, outs.get("email") or _owner_email(ctx))
    if outs.get("url"):
        fields["url"] = outs["url"]
    return plant_document(ctx.state("meilisearch"), HELP, str(key), fields)


def _article(reader: Reader, key: Any) -> dict[str, Any]:
    return reader.read("meilisearch", "get-document", indexUid=HELP, documentId=str(key))


ARTICLE = Relay(
    service="meilisearch", name="help-centre article", key="article_id",
    gives=(Give("url", "url", "the public help-centre article link"),
           Give("email", "owner_email", "the article owner's work email", "the article owner",
                draw=_owner_email),
           Give("article_id", "id", "the help-centre article")),
    plant=_plant_article, find=_article, alloc=_next_article,
    where="The help centre's search index (Meilisearch, index 'help-centre') lists each published article "
          "under its operations-manual id, with its public link and its owner's work email.",
    entry=lambda key: f"help-centre article {key}", key_role="any")


def _prepare_hide(ctx: Ctx, values: dict[str, Any]) -> None:
    sku = str(values["sku"])
    if document_key(PRODUCTS, sku) not in ctx.state("meilisearch")["documents"]:
        _plant_listing(ctx, sku, round(ctx.rng.randint(1500, 40000) / 100, 2))


def _scope(index_uid: str, doc_id: str) -> list[OnlyChanged]:
    return [OnlyChanged(id="_", service="meilisearch", collection="documents",
                        allow_ids=[document_key(index_uid, doc_id)],
                        description="No other search document was changed, added or deleted.")]


def _hide(reader: Reader, args: dict[str, Found]) -> Write:
    sku = str(args["sku"].value)
    _listing(reader, sku)
    docs = json.dumps([{"sku": sku, "visible": False}])
    return Write(
        calls=[call("update-documents", indexUid=PRODUCTS, documents=docs)],
        checks=[RecordMatches(id="_", service="meilisearch", collection="documents",
                              record_id=document_key(PRODUCTS, sku), where={"fields.visible": False},
                              description="The SKU's storefront listing is hidden (visible is false).")],
        scope=_scope(PRODUCTS, sku), tool="update-documents", where={"indexUid": PRODUCTS},
        label="hiding the storefront listing")


def _flag(reader: Reader, args: dict[str, Found]) -> Write:
    aid, mention, case = str(args["article"].value), args["mention"], args["case"].value
    _article(reader, aid)
    note = f"{case}: {mention.display}"
    docs = json.dumps([{"id": aid, "needs_review": True, "review_note": note}])
    return Write(
        calls=[call("update-documents", indexUid=HELP, documents=docs)],
        checks=[RecordMatches(id="_", service="meilisearch", collection="documents",
                              record_id=document_key(HELP, aid),
                              where={"fields.needs_review": True, "fields.review_note": {"$contains": mention.display}},
                              description="The help-centre article is flagged for review, its note quoting the value.")],
        scope=_scope(HELP, aid), tool="update-documents", where={"indexUid": HELP},
        label="flagging the help-centre article for review")


LINKS = ServiceLinks(
    service="meilisearch", label="the search engine (Meilisearch)",
    relays=(LISTING, ARTICLE),
    actions=(
        Action(service="meilisearch", name="hide_listing", needs=(Need("sku", "sku"),), build=_hide,
               prepare=_prepare_hide,
               goal="hide the SKU's listing from storefront search (set the document's visible attribute to false "
                    "in the 'products' index)"),
        Action(service="meilisearch", name="flag_article", needs=(Need("article", "article_id"),), build=_flag,
               goal="flag the help-centre article for review in the 'help-centre' search index (needs_review "
                    "true), quoting {mention} in its review_note"),
    ),
)

__all__ = ["LINKS", "plant_document"]
