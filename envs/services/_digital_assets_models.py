"""Records of the digital_assets service (Cloudinary Admin API / Bynder style).

An asset keeps Cloudinary's resource fields: ``asset_id`` (immutable, the
record key), ``public_id`` (the unique, renamable path), ``resource_type``,
``type``, ``format``, ``bytes``, ``width``, ``height``, ``version``,
``secure_url``, ``tags``, ``context`` (caption and alt text) and the
structured ``metadata`` fields this account defines for usage rights: SKU,
rights holder, license type, license expiry, allowed channels and credit
line. Collections are the Media Library's (Bynder's) curated sets, draft or
published to a site or portal.
"""

from __future__ import annotations

import datetime as dt
from typing import Literal, Optional

from pydantic import Field

from compoworld_gym.entities import CompanyName, Date, DateTime, Id, Sku, Url
from compoworld_gym.service import Record, ServiceState

ResourceType = Literal["image", "video", "raw"]
LicenseType = Literal["owned", "royalty_free", "rights_managed", "editorial"]
Channel = Literal["web", "social", "email", "print", "ads"]
CollectionStatus = Literal["draft", "published"]
LicenseStatus = Literal["perpetual", "active", "expiring", "expired"]
#: Formats accepted, by resource type.
FORMATS: dict[str, str] = {"jpg": "image", "png": "image", "webp": "image", "gif": "image", "svg": "image",
                           "mp4": "video", "mov": "video", "pdf": "raw", "zip": "raw"}
#: The plan's largest upload per resource type (bytes): 20 MB images, 100 MB videos, 20 MB raw files.
MAX_BYTES = {"image": 20_000_000, "video": 100_000_000, "raw": 20_000_000}
#: Days before expiry when a license counts as expiring.
EXPIRING_DAYS = 30
CLOUD = "acme-store"


class AssetMetadata(Record):
    """The account's structured metadata fields for usage rights and product linkage."""

    sku: Optional[Sku] = Field(default=None, description="Catalog SKU of the product shown.")
    rights_holder: Optional[CompanyName] = Field(default=None, description="Who holds the rights (agency, studio).")
    license_type: LicenseType = Field(default="owned", description="owned, royalty_free, rights_managed or "
                                                                    "editorial.")
    license_expiry: Optional[Date] = Field(default=None, description="Last day the license allows use (none: "
                                                                     "perpetual).")
    allowed_channels: list[Channel] = Field(default_factory=lambda: ["web", "social", "email", "print", "ads"],
                                            description="Channels the license allows.")
    credit_line: str = Field(default="", description="Credit required when used.")


class Asset(Record):
    """A stored resource (Cloudinary ``/resources``)."""

    id: Id("media_asset") = Field(description="asset_id: immutable id, e.g. AST-0001.")
    public_id: str = Field(description="Unique public id (folder path and name), e.g. products/kb-mech-01.")
    resource_type: ResourceType = Field(description="image, video or raw.")
    type: Literal["upload"] = Field(default="upload", description="Delivery type.")
    format: str = Field(description="File format, e.g. jpg.")
    bytes: int = Field(gt=0, description="File size in bytes.")
    width: Optional[int] = Field(default=None, ge=1, description="Pixels wide (images, videos).")
    height: Optional[int] = Field(default=None, ge=1, description="Pixels high (images, videos).")
    version: int = Field(ge=1, description="Version stamp in delivery URLs (changes on overwrite).")
    secure_url: Url = Field(description="HTTPS delivery URL.")
    created_at: DateTime = Field(description="When uploaded.")
    tags: list[str] = Field(default_factory=list, description="Tags.")
    context: dict[str, str] = Field(default_factory=dict, description="Contextual metadata: caption, alt.")
    metadata: AssetMetadata = Field(default_factory=AssetMetadata, description="Structured metadata (usage rights).")


class Collection(Record):
    """A curated collection of assets, draft or published (Media Library / Bynder collections)."""

    id: Id("asset_collection") = Field(description="Collection id, e.g. COL-0001.")
    name: str = Field(description="Unique collection name.")
    description: str = Field(default="", description="What it is for.")
    status: CollectionStatus = Field(description="draft or published.")
    asset_ids: list[Id("media_asset")] = Field(default_factory=list, description="Assets, in display order.")
    created_at: DateTime = Field(description="When created.")
    published_at: Optional[DateTime] = Field(default=None, description="When last published.")


class DigitalAssetsState(ServiceState):
    """Assets and collections."""

    assets: dict[str, Asset] = Field(default_factory=dict, description="Assets by asset_id.")
    collections: dict[str, Collection] = Field(default_factory=dict, description="Collections by id.")


def version_of(when: dt.datetime) -> int:
    """The version stamp of an upload at ``when`` (seconds since the epoch, the clock read as UTC)."""
    return int((when - dt.datetime(1970, 1, 1)).total_seconds())


def url_for(public_id: str, resource_type: str, fmt: str, version: int) -> str:
    """The asset's secure delivery URL."""
    return f"https://res.cloudinary.com/{CLOUD}/{resource_type}/upload/v{version}/{public_id}.{fmt}"


def license_status(meta: AssetMetadata, today: dt.date) -> str:
    """perpetual (no expiry), active, expiring (within 30 days) or expired (before today)."""
    if meta.license_expiry is None:
        return "perpetual"
    if meta.license_expiry < today:
        return "expired"
    return "expiring" if (meta.license_expiry - today).days <= EXPIRING_DAYS else "active"
