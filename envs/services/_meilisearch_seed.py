"""Seed state of the meilisearch service: the storefront product index and
the help-centre index, with their task history and API keys.

The ``products`` index holds one document per SKU of the shared commerce
catalog (``_commerce.PRODUCTS``, the SKUs the product_catalog and inventory
services use; ``product_id`` is the catalog's id, PRD-0001 onwards in the
same order). The ``help-centre`` index holds one document per published
operations-manual article of the knowledge_base service, under the same
article id (KB-0002 ...) and title, so chains link by SKU and article id; an
article's owner is the first roster member of the rule's owning team.
"""

from __future__ import annotations

import datetime as dt
import random
import uuid

from compoworld_gym.envs.services._blocks import day_start
from compoworld_gym.envs.services._commerce import PRODUCTS
from compoworld_gym.envs.services._company import staff_of
from compoworld_gym.envs.services._kb_rules import seed_rules
from compoworld_gym.envs.services._meilisearch_models import (
    ApiKey, Document, Index, IndexSettings, MeilisearchState, Task,
)

SHOP_URL = "https://shop.company.example/products/"
HELP_URL = "https://help.company.example/articles/"
PRODUCT_SETTINGS = IndexSettings(searchableAttributes=["name", "category", "sku"],
                                 filterableAttributes=["category", "price", "visible"],
                                 sortableAttributes=["price", "name"])
HELP_SETTINGS = IndexSettings(searchableAttributes=["title", "tags", "category"],
                              filterableAttributes=["category", "tags", "needs_review"],
                              sortableAttributes=["title"])


def document_key(index_uid: str, doc_id: str) -> str:
    """The state key of a document: ``"<indexUid>/<id>"``."""
    return f"{index_uid}/{doc_id}"


def product_fields(sku: str, product_id: str, name: str, category: str, price: float) -> dict:
    """A storefront product document (visible, priced in USD, with its product page link)."""
    return {"sku": sku, "product_id": product_id, "name": name, "category": category, "price": price,
            "currency": "USD", "visible": True, "url": SHOP_URL + sku.lower()}


def article_fields(article_id: str, title: str, category: str, tags: list[str], owner_email: str) -> dict:
    """A help-centre article document (not flagged for review, with its public link and its owner's work email)."""
    slug = "-".join(title.lower().split())
    return {"id": article_id, "title": title, "category": category, "tags": tags, "owner_email": owner_email,
            "needs_review": False,
            "review_note": "", "url": f"{HELP_URL}{article_id.lower()}-{slug}"}


def _help_articles(rng: random.Random) -> list[dict]:
    """Published knowledge_base articles under their knowledge_base ids (its ids count every version)."""
    out, n = [], 0
    for rule in seed_rules(rng):
        n += len(rule.versions)
        if rule.status == "published":
            out.append(article_fields(f"KB-{n:04d}", rule.title, rule.category, list(rule.tags),
                                       staff_of(rule.team)[0].email))
    return out


def _task(state: MeilisearchState, when: dt.datetime, index_uid: str, kind: str, details: dict,
          error: dict | None = None) -> None:
    uid = len(state.tasks)
    state.tasks[str(uid)] = Task(uid=uid, indexUid=index_uid, status="failed" if error else "succeeded", type=kind,
                                 details=details, error=error, enqueuedAt=when, startedAt=when,
                                 finishedAt=when + dt.timedelta(seconds=1))


def _index(state: MeilisearchState, uid: str, key: str, settings: IndexSettings, docs: list[dict],
           when: dt.datetime) -> None:
    state.indexes[uid] = Index(uid=uid, primaryKey=key, createdAt=when, updatedAt=when + dt.timedelta(hours=2),
                               settings=settings)
    for fields in docs:
        doc = Document(indexUid=uid, id=str(fields[key]), fields=fields)
        state.documents[document_key(uid, doc.id)] = doc
    _task(state, when, uid, "indexCreation", {"primaryKey": key})
    _task(state, when + dt.timedelta(hours=1), uid, "documentAdditionOrUpdate",
          {"receivedDocuments": len(docs), "indexedDocuments": len(docs)})
    _task(state, when + dt.timedelta(hours=2), uid, "settingsUpdate",
          settings.model_dump(include={"searchableAttributes", "filterableAttributes", "sortableAttributes"}))


def build_state(rng: random.Random, today: dt.date) -> MeilisearchState:
    """The seeded state: two indexes, their task history (one failed import) and two API keys."""
    state = MeilisearchState()
    start = day_start(today) - dt.timedelta(days=rng.randint(60, 120))
    products = [product_fields(p.sku, f"PRD-{i:04d}", p.name, p.category, p.price)
                for i, p in enumerate(PRODUCTS, start=1)]
    _index(state, "products", "sku", PRODUCT_SETTINGS.model_copy(deep=True), products, start)
    _index(state, "help-centre", "id", HELP_SETTINGS.model_copy(deep=True), _help_articles(rng),
           start + dt.timedelta(days=3))
    _task(state, start + dt.timedelta(days=9), "products", "documentAdditionOrUpdate",
          {"receivedDocuments": 3, "indexedDocuments": 0},
          error={"message": "Document doesn't have a `sku` attribute: `{\"name\":\"Desk Tidy\"}`.",
                 "code": "missing_document_id", "type": "invalid_request"})
    for name, actions, desc in (("Default Search API Key", ["search"], "Use it to search from the frontend"),
                                ("Default Admin API Key", ["*"], "Use it for anything that is not a search")):
        uid = str(uuid.UUID(int=rng.getrandbits(128), version=4))
        state.keys[uid] = ApiKey(uid=uid, key=f"{rng.getrandbits(256):064x}", name=name, description=desc,
                                 actions=actions, indexes=["*"], createdAt=start - dt.timedelta(days=1))
    return state
