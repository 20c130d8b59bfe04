"""Digital assets: the store's DAM of product images, videos and documents, with usage rights and collections.

No DAM server is in ``compoworld_gym/data/mcp_servers.jsonl``
(``spec_source = None``); the interface follows the Cloudinary Admin and
Upload APIs with Bynder-style collections: ``resources`` (listing by
``resource_type``, ``prefix`` and ``tag``, ``max_results``), the Search API
(by structured metadata), ``resource`` by ``public_id`` or ``asset_id``,
``tags``, ``upload`` (``public_id``, ``format``, ``bytes``, ``width``, ``height``,
``tags``, ``context``, ``metadata``), ``rename`` (``from_public_id``,
``to_public_id``, ``overwrite``), ``add_tag`` / ``remove_tag`` on several
``public_ids``, ``update_metadata`` (structured metadata: SKU, rights
holder, license type, license expiry, allowed channels, credit line),
``update`` of ``context`` (caption, alt text), ``delete_resources``, and the
Media Library's collections (create, add and remove assets, publish,
unpublish). SKUs are the product catalog's; ``products/<sku>`` is the image
the Hugo blog's launch posts show.

Rules of the real products: a public id is unique (an upload or rename onto
a taken one is refused unless it overwrites, which replaces the old asset);
tags have no commas (at most 1,000 per asset); formats and file sizes follow
the plan's limits. Usage-rights rules of the account: an asset whose
license has expired cannot be added to a published collection, a collection
holding one cannot be published (nor an empty one), and an asset in a
published collection may not get an expiry that has passed or be deleted
(unpublish or remove it first). Left out: transformations, derived
versions, upload presets, moderation, folders as separate objects, and
access control.
"""

from __future__ import annotations

import datetime as dt
import random
from typing import Optional

from faker import Faker
from pydantic import Field

from compoworld_gym.entities import CompanyName, Date, Id, Sku
from compoworld_gym.envs.services._blocks import eq, has, select
from compoworld_gym.envs.services._digital_assets_collections import CollectionsMixin
from compoworld_gym.envs.services._digital_assets_models import (
    Asset, AssetMetadata, Channel, DigitalAssetsState, LicenseStatus, LicenseType, ResourceType, url_for, version_of,
)
from compoworld_gym.envs.services._digital_assets_models import license_status as status_of
from compoworld_gym.envs.services._digital_assets_rules import (
    MAX_TAGS, check_metadata_change, check_public_id, check_tag, resource_type_of,
)
from compoworld_gym.envs.services._digital_assets_seed import build_state
from compoworld_gym.errors import Conflict, InvalidArgument, NotFound
from compoworld_gym.service import Service, tool

PublicIds = list[str]


class DigitalAssets(CollectionsMixin, Service):
    """Cloudinary-style DAM: assets with usage-rights metadata, tags and published collections."""

    name = "digital_assets"
    description = ("Digital asset management (Cloudinary/Bynder): product images, videos and documents by public "
                   "id with tags, usage-rights metadata (SKU, rights holder, license expiry) and collections.")
    domain = "media"
    spec_source = None
    State = DigitalAssetsState

    # ---------------------------------------------------------------- helpers
    def _asset(self, public_id: str) -> Asset:
        hit = next((a for a in self.state.assets.values() if a.public_id == public_id.strip()), None)
        if hit is None:
            raise NotFound(f"no asset has public_id {public_id!r}; call list_resources or search_assets.")
        return hit

    def _assets(self, public_ids: list[str]) -> list[Asset]:
        missing = [p for p in dict.fromkeys(public_ids) if not any(a.public_id == p for a in self.state.assets.values())]
        if missing:
            raise NotFound(f"unknown public_id(s) {missing}; call list_resources or search_assets.")
        return [self._asset(p) for p in dict.fromkeys(public_ids)]

    def _published_in(self, asset_id: str) -> list[str]:
        return [c.id for c in self.state.collections.values() if c.status == "published" and asset_id in c.asset_ids]

    def _view(self, a: Asset) -> dict:
        return {**a.model_dump(), "license_status": status_of(a.metadata, self.today),
                "collections": [c.id for c in self.state.collections.values() if a.id in c.asset_ids]}

    # ------------------------------------------------------------------ reads
    @tool(read_only=True, returns=list[Asset])
    def list_resources(self, resource_type: Optional[ResourceType] = None,
                       prefix: Optional[str] = Field(default=None, max_length=200),
                       tag: Optional[str] = Field(default=None, max_length=255),
                       max_results: int = Field(default=50, ge=1, le=500)) -> list[dict]:
        """List assets, newest first, by resource type, public id prefix (folder) or tag.

        Args:
            resource_type: image, video or raw.
            prefix: public ids starting with this, e.g. products/.
            tag: only assets with this tag.
            max_results: maximum number of assets (1-500).
        """
        pre = (lambda a: a.public_id.startswith(prefix)) if prefix else None
        rows = select(sorted(self.state.assets.values(), key=lambda a: (a.created_at, a.id), reverse=True),
                      eq("resource_type", resource_type), pre, has("tags", tag), limit=max_results)
        return [self._view(a) for a in rows]

    @tool(read_only=True, returns=list[Asset])
    def search_assets(self, sku: Optional[Sku] = None, rights_holder: Optional[CompanyName] = None,
                      tag: Optional[str] = Field(default=None, max_length=255),
                      license_status: Optional[LicenseStatus] = None, expires_before: Optional[Date] = None,
                      max_results: int = Field(default=50, ge=1, le=500)) -> list[dict]:
        """Search assets by structured metadata: SKU, rights holder, tag, license status or expiry.

        Args:
            sku: the catalog SKU in the metadata (case-insensitive).
            rights_holder: the rights holder (case-insensitive).
            tag: only assets with this tag.
            license_status: perpetual, active, expiring (within 30 days) or expired.
            expires_before: only licenses ending before this day.
            max_results: maximum number of assets (1-500).
        """
        status = license_status
        rows = select(self.state.assets.values(),
                      (lambda a: (a.metadata.sku or "").upper() == sku.upper()) if sku else None,
                      (lambda a: (a.metadata.rights_holder or "").lower() == rights_holder.lower())
                      if rights_holder else None, has("tags", tag),
                      (lambda a: status_of(a.metadata, self.today) == status) if status else None,
                      (lambda a: a.metadata.license_expiry is not None and a.metadata.license_expiry < expires_before)
                      if expires_before else None, limit=max_results)
        return [self._view(a) for a in rows]

    @tool(read_only=True, returns=Asset)
    def get_resource(self, public_id: str = Field(min_length=1, max_length=255)) -> dict:
        """Get one asset by public id, with its license status and the collections holding it.

        Args:
            public_id: e.g. products/kb-mech-01.
        """
        return self._view(self._asset(public_id))

    @tool(read_only=True, returns=Asset)
    def get_resource_by_asset_id(self, asset_id: Id("media_asset")) -> dict:
        """Get one asset by its immutable asset id (it survives renames).

        Args:
            asset_id: e.g. AST-0004.
        """
        return self._view(self.lookup(self.state.assets, asset_id, "asset"))

    @tool(read_only=True)
    def list_tags(self, prefix: Optional[str] = Field(default=None, max_length=255)) -> list[str]:
        """All tags in use, sorted, optionally those starting with a prefix.

        Args:
            prefix: only tags starting with this.
        """
        tags = sorted({t for a in self.state.assets.values() for t in a.tags})
        return [t for t in tags if not prefix or t.startswith(prefix)]

    # ----------------------------------------------------------------- writes
    @tool(read_only=False, returns=Asset)
    def upload_asset(self, public_id: str = Field(min_length=1, max_length=255),
                     format: str = Field(min_length=2, max_length=5), bytes: int = Field(gt=0, le=10_000_000_000),
                     width: Optional[int] = Field(default=None, ge=1, le=50000),
                     height: Optional[int] = Field(default=None, ge=1, le=50000),
                     tags: list[str] = Field(default_factory=list, max_length=50),
                     sku: Optional[Sku] = None, rights_holder: Optional[CompanyName] = None,
                     license_type: LicenseType = "owned", license_expiry: Optional[Date] = None,
                     allowed_channels: Optional[list[Channel]] = None,
                     caption: Optional[str] = Field(default=None, max_length=500)) -> dict:
        """Upload an asset under a new public id with its tags and usage-rights metadata.

        Args:
            public_id: unique path, e.g. products/kb-mech-02.
            format: jpg, png, webp, gif, svg, mp4, mov, pdf or zip (sets the resource type).
            bytes: file size (images and raw files up to 20 MB, videos up to 100 MB).
            width: pixels wide (images, videos).
            height: pixels high (images, videos).
            tags: tags (no commas).
            sku: the catalog SKU shown.
            rights_holder: who holds the rights.
            license_type: owned, royalty_free, rights_managed or editorial.
            license_expiry: last day the license allows use (none: perpetual).
            allowed_channels: channels the license allows (default all).
            caption: contextual caption.
        """
        pid = check_public_id(public_id, self.state.assets.values())
        kind = resource_type_of(format, bytes)
        clean = list(dict.fromkeys(check_tag(t) for t in tags))
        meta = AssetMetadata(sku=sku.upper() if sku else None, rights_holder=rights_holder, license_type=license_type,
                             license_expiry=license_expiry, credit_line=f"Photo: {rights_holder}" if rights_holder
                             else "")
        if allowed_channels is not None:
            meta.allowed_channels = list(dict.fromkeys(allowed_channels))
        made = self.now()
        version = version_of(made)
        a = Asset(id=self.new_id("AST"), public_id=pid, resource_type=kind, format=format.lower(), bytes=bytes,
                  width=width, height=height, version=version, secure_url=url_for(pid, kind, format.lower(), version),
                  created_at=made, tags=clean, context={"caption": caption} if caption else {}, metadata=meta)
        self.state.assets[a.id] = a
        return self._view(a)

    @tool(read_only=False, destructive=True, returns=Asset)
    def rename_asset(self, from_public_id: str = Field(min_length=1, max_length=255),
                     to_public_id: str = Field(min_length=1, max_length=255), overwrite: bool = False) -> dict:
        """Rename an asset's public id; with overwrite, an asset already at the target is deleted and replaced.

        Args:
            from_public_id: the current public id.
            to_public_id: the new public id.
            overwrite: replace an asset that already has the new public id.
        """
        a = self._asset(from_public_id)
        target = next((x for x in self.state.assets.values() if x.public_id == to_public_id.strip() and x.id != a.id),
                      None)
        if target is not None and overwrite:
            if self._published_in(target.id):
                raise Conflict(f"{target.public_id} is in published collection(s) "
                               f"{', '.join(self._published_in(target.id))}; it cannot be overwritten.")
            self._drop(target)
        pid = check_public_id(to_public_id, self.state.assets.values(), skip=a.id)
        a.public_id, a.secure_url = pid, url_for(pid, a.resource_type, a.format, a.version)
        return self._view(a)

    @tool(read_only=False, returns=list[Asset])
    def add_tag(self, tag: str = Field(min_length=1, max_length=255),
                public_ids: PublicIds = Field(min_length=1, max_length=100)) -> list[dict]:
        """Add a tag to assets (those that have it are left as they are).

        Args:
            tag: the tag, without commas.
            public_ids: the assets' public ids.
        """
        t, assets = check_tag(tag), self._assets(public_ids)
        full = [a.public_id for a in assets if t not in a.tags and len(a.tags) >= MAX_TAGS]
        if full:
            raise Conflict(f"asset(s) {full} already carry {MAX_TAGS} tags.")
        for a in assets:
            if t not in a.tags:
                a.tags.append(t)
        return [self._view(a) for a in assets]

    @tool(read_only=False, returns=list[Asset])
    def remove_tag(self, tag: str = Field(min_length=1, max_length=255),
                   public_ids: PublicIds = Field(min_length=1, max_length=100)) -> list[dict]:
        """Remove a tag from assets.

        Args:
            tag: the tag.
            public_ids: the assets' public ids.
        """
        t, assets = check_tag(tag), self._assets(public_ids)
        for a in assets:
            if t in a.tags:
                a.tags.remove(t)
        return [self._view(a) for a in assets]

    @tool(read_only=False, returns=list[Asset])
    def update_metadata(self, public_ids: PublicIds = Field(min_length=1, max_length=100),
                        sku: Optional[Sku] = None, rights_holder: Optional[CompanyName] = None,
                        license_type: Optional[LicenseType] = None, license_expiry: Optional[Date] = None,
                        clear_license_expiry: bool = False, allowed_channels: Optional[list[Channel]] = None,
                        credit_line: Optional[str] = Field(default=None, max_length=200)) -> list[dict]:
        """Set structured metadata fields on assets; fields not given are kept.

        Args:
            public_ids: the assets' public ids.
            sku: the catalog SKU shown.
            rights_holder: who holds the rights.
            license_type: owned, royalty_free, rights_managed or editorial.
            license_expiry: new last day of the license (a renewal).
            clear_license_expiry: make the license perpetual (with no license_expiry).
            allowed_channels: channels the license allows.
            credit_line: credit required when used.
        """
        if clear_license_expiry and license_expiry is not None:
            raise InvalidArgument("give license_expiry or clear_license_expiry, not both.")
        assets, changes = self._assets(public_ids), {}
        for key, value in (("sku", sku.upper() if sku else None), ("rights_holder", rights_holder),
                           ("license_type", license_type), ("license_expiry", license_expiry),
                           ("allowed_channels", list(dict.fromkeys(allowed_channels)) if allowed_channels else None),
                           ("credit_line", credit_line)):
            if value is not None:
                changes[key] = value
        if clear_license_expiry:
            changes["license_expiry"] = None
        if not changes:
            raise InvalidArgument("give at least one metadata field to set.")
        new = {a.id: AssetMetadata.model_validate({**a.metadata.model_dump(), **changes}) for a in assets}
        for a in assets:
            check_metadata_change(a, new[a.id], self._published_in(a.id), self.today)
        for a in assets:
            a.metadata = new[a.id]
        return [self._view(a) for a in assets]

    @tool(read_only=False, returns=Asset)
    def update_context(self, public_id: str = Field(min_length=1, max_length=255),
                       caption: Optional[str] = Field(default=None, max_length=500),
                       alt: Optional[str] = Field(default=None, max_length=300)) -> dict:
        """Set an asset's contextual metadata (caption, alt text); an empty string removes the key.

        Args:
            public_id: the asset.
            caption: the caption.
            alt: the alt text.
        """
        a = self._asset(public_id)
        if caption is None and alt is None:
            raise InvalidArgument("give caption or alt.")
        for key, value in (("caption", caption), ("alt", alt)):
            if value == "":
                a.context.pop(key, None)
            elif value is not None:
                a.context[key] = value
        return self._view(a)

    @tool(read_only=False, destructive=True, returns=list[Asset])
    def delete_resources(self, public_ids: PublicIds = Field(min_length=1, max_length=100)) -> list[dict]:
        """Delete assets (they leave draft collections; none may be in a published collection).

        Args:
            public_ids: the assets' public ids.
        """
        assets = self._assets(public_ids)
        live = {a.public_id: self._published_in(a.id) for a in assets if self._published_in(a.id)}
        if live:
            raise Conflict(f"asset(s) in published collections cannot be deleted: {live}; unpublish the collection "
                           "or remove them from it first.")
        out = [self._view(a) for a in assets]
        for a in assets:
            self._drop(a)
        return out

    def _drop(self, a: Asset) -> None:
        for c in self.state.collections.values():
            if a.id in c.asset_ids:
                c.asset_ids.remove(a.id)
        del self.state.assets[a.id]

    # ------------------------------------------------------------------ seeds
    @classmethod
    def build_seed_state(cls, fake: Faker, rng: random.Random, today: dt.date) -> DigitalAssetsState:
        return build_state(rng, today)


__all__ = ["DigitalAssets"]
