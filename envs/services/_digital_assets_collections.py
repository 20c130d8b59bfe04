"""Collection tools of the digital_assets service: curate, publish and unpublish collections.

A mixin of :class:`compoworld_gym.envs.services.digital_assets.DigitalAssets`:
it uses the service's ``_assets`` and ``_view``.
"""

from __future__ import annotations

from typing import Optional

from pydantic import Field

from compoworld_gym.entities import Id
from compoworld_gym.envs.services._blocks import eq, select
from compoworld_gym.envs.services._digital_assets_models import Collection, CollectionStatus
from compoworld_gym.envs.services._digital_assets_rules import check_publishable, expired
from compoworld_gym.errors import Conflict, Unprocessable
from compoworld_gym.service import tool


class CollectionsMixin:
    """Curated asset collections; its methods become tools of the service."""

    def _collection(self, collection_id: str) -> Collection:
        return self.lookup(self.state.collections, collection_id, "collection")

    def _view_collection(self, c: Collection) -> dict:
        return {**c.model_dump(), "assets": [{"id": a, "public_id": self.state.assets[a].public_id}
                                             for a in c.asset_ids]}

    @tool(read_only=True, returns=list[Collection])
    def list_collections(self, status: Optional[CollectionStatus] = None) -> list[dict]:
        """List collections, draft or published.

        Args:
            status: draft or published.
        """
        return [self._view_collection(c) for c in select(self.state.collections.values(), eq("status", status))]

    @tool(read_only=True, returns=Collection)
    def get_collection(self, collection_id: Id("asset_collection")) -> dict:
        """Get one collection with its assets' public ids.

        Args:
            collection_id: the collection id, e.g. COL-0001.
        """
        return self._view_collection(self._collection(collection_id))

    @tool(read_only=False, returns=Collection)
    def create_collection(self, name: str = Field(min_length=2, max_length=120),
                          description: str = Field(default="", max_length=500)) -> dict:
        """Create an empty draft collection with a unique name.

        Args:
            name: the collection name (unique, case-insensitive).
            description: what it is for.
        """
        same = next((c for c in self.state.collections.values() if c.name.lower() == name.strip().lower()), None)
        if same is not None:
            raise Conflict(f"collection {same.id} is already named {same.name!r}.")
        c = Collection(id=self.new_id("COL"), name=name.strip(), description=description, status="draft",
                       created_at=self.now())
        self.state.collections[c.id] = c
        return self._view_collection(c)

    @tool(read_only=False, returns=Collection)
    def add_assets_to_collection(self, collection_id: Id("asset_collection"),
                                 public_ids: list[str] = Field(min_length=1, max_length=100)) -> dict:
        """Add assets to a collection; a published one takes no asset whose license has expired.

        Args:
            collection_id: the collection.
            public_ids: the assets' public ids (those already in it are skipped).
        """
        c, assets = self._collection(collection_id), self._assets(public_ids)
        if c.status == "published":
            stale = [a.public_id for a in assets if expired(a, self.today)]
            if stale:
                raise Unprocessable(f"collection {c.id} is published; asset(s) {stale} have an expired license "
                                    "and cannot be added (renew the license first).")
        for a in assets:
            if a.id not in c.asset_ids:
                c.asset_ids.append(a.id)
        return self._view_collection(c)

    @tool(read_only=False, returns=Collection)
    def remove_assets_from_collection(self, collection_id: Id("asset_collection"),
                                      public_ids: list[str] = Field(min_length=1, max_length=100)) -> dict:
        """Remove assets from a collection.

        Args:
            collection_id: the collection.
            public_ids: the assets' public ids; each must be in it.
        """
        c, assets = self._collection(collection_id), self._assets(public_ids)
        absent = [a.public_id for a in assets if a.id not in c.asset_ids]
        if absent:
            raise Unprocessable(f"asset(s) {absent} are not in collection {c.id}.")
        for a in assets:
            c.asset_ids.remove(a.id)
        return self._view_collection(c)

    @tool(read_only=False, returns=Collection)
    def publish_collection(self, collection_id: Id("asset_collection")) -> dict:
        """Publish a draft collection (not empty, and no asset with an expired license).

        Args:
            collection_id: a draft collection.
        """
        c = self._collection(collection_id)
        if c.status == "published":
            raise Conflict(f"collection {c.id} is already published.")
        check_publishable(c, self.state.assets, self.today)
        c.status, c.published_at = "published", self.now()
        return self._view_collection(c)

    @tool(read_only=False, returns=Collection)
    def unpublish_collection(self, collection_id: Id("asset_collection")) -> dict:
        """Take a published collection back to draft.

        Args:
            collection_id: a published collection.
        """
        c = self._collection(collection_id)
        if c.status != "published":
            raise Conflict(f"collection {c.id} is a draft; only a published collection can be unpublished.")
        c.status = "draft"
        return self._view_collection(c)
