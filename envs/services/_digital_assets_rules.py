"""Rules of the digital_assets service: public ids, tags, uploads and published collections.

A public id is a path of folder names and a file name (letters, digits,
``_``, ``-`` and ``.``; no leading or trailing slash, no empty folder) and is
unique in the account. A tag has no comma and at most 255 characters; an
asset carries at most 1,000. An upload's format decides its resource type,
and its size may not pass the plan's limit. An asset whose license has
expired may not sit in a published collection: it cannot be added to one,
a collection holding one cannot be published, and an asset in a published
collection cannot be given an expiry that has passed.
"""

from __future__ import annotations

import datetime as dt
import re
from typing import Iterable

from compoworld_gym.envs.services._digital_assets_models import (
    FORMATS, MAX_BYTES, Asset, AssetMetadata, Collection, license_status,
)
from compoworld_gym.errors import Conflict, InvalidArgument, Unprocessable

_PUBLIC_ID = re.compile(r"^[A-Za-z0-9_.-]+(/[A-Za-z0-9_.-]+)*$")
MAX_TAGS = 1000


def check_public_id(public_id: str, assets: Iterable[Asset], skip: str = "") -> str:
    """The public id, stripped, if it is well formed and free.

    Raises:
        InvalidArgument: 400, malformed.
        Conflict: 409, another asset has it.
    """
    pid = public_id.strip()
    if not _PUBLIC_ID.match(pid):
        raise InvalidArgument(f"public_id {public_id!r} is not a path of names (letters, digits, _ - .) joined by /.")
    taken = next((a for a in assets if a.public_id == pid and a.id != skip), None)
    if taken is not None:
        raise Conflict(f"public_id {pid!r} is already asset {taken.id}; public ids are unique (rename with "
                       "overwrite to replace it).")
    return pid


def check_tag(tag: str) -> str:
    """A valid tag, stripped.

    Raises:
        InvalidArgument: 400, empty, with a comma, or longer than 255 characters.
    """
    t = tag.strip()
    if not t or "," in t or len(t) > 255:
        raise InvalidArgument(f"tag {tag!r} must be 1-255 characters without commas.")
    return t


def resource_type_of(fmt: str, size: int) -> str:
    """The resource type of a ``fmt`` upload of ``size`` bytes.

    Raises:
        InvalidArgument: 400, an unsupported format.
        Unprocessable: 422, a file larger than the plan allows.
    """
    kind = FORMATS.get(fmt.lower())
    if kind is None:
        raise InvalidArgument(f"format {fmt!r} is not supported; use one of {', '.join(FORMATS)}.")
    if size > MAX_BYTES[kind]:
        raise Unprocessable(f"File size too large: {size:,} bytes; the maximum {kind} size is "
                            f"{MAX_BYTES[kind]:,} bytes.")
    return kind


def expired(asset: Asset, today: dt.date) -> bool:
    """Whether the asset's license has run out."""
    return license_status(asset.metadata, today) == "expired"


def check_publishable(c: Collection, assets: dict[str, Asset], today: dt.date) -> None:
    """Refuse to publish an empty collection or one holding an asset whose license has expired.

    Raises:
        Unprocessable: 422.
    """
    if not c.asset_ids:
        raise Unprocessable(f"collection {c.id} is empty; add assets before publishing it.")
    stale = [a for a in c.asset_ids if expired(assets[a], today)]
    if stale:
        raise Unprocessable(f"collection {c.id} holds assets whose license has expired ({', '.join(stale)}); "
                            "remove them or renew their licenses first.")


def check_metadata_change(asset: Asset, new: AssetMetadata, published_in: list[str], today: dt.date) -> None:
    """Refuse metadata that would leave an expired asset in a published collection.

    Raises:
        Unprocessable: 422.
    """
    if published_in and license_status(new, today) == "expired":
        raise Unprocessable(f"asset {asset.id} is in published collection(s) {', '.join(published_in)}; its "
                            "license expiry cannot be in the past.")
