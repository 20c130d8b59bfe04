"""Records and rules of the hugo_cms service: a Hugo site's Markdown posts and
their YAML front matter.

Date fields hold the raw YAML value (a string), as a file would: imported
posts can carry values Hugo cannot parse, which ``validate_date_formats``
finds. :func:`iso_date` is the ISO-8601 check the setters apply, and
:func:`hugo_status` is what Hugo would do with a post when it builds the site
today (draft, scheduled, expired, published, or a build error).
"""

from __future__ import annotations

import datetime as dt
import posixpath
import re
from typing import Literal, Optional

from pydantic import Field

from compoworld_gym.entities import Id, PersonName, Sku
from compoworld_gym.errors import NotFound, Unprocessable
from compoworld_gym.service import Record, ServiceState

#: The site's root and content directory on the build host.
SITE = "/srv/hugo/acme-blog"
CONTENT = f"{SITE}/content"
#: Front-matter fields Hugo reads as dates.
DATE_FIELDS = ("date", "publishDate", "expiryDate", "lastmod")
IMAGE_EXT = (".png", ".jpg", ".jpeg", ".webp", ".gif", ".svg", ".avif")
HugoStatus = Literal["draft", "scheduled", "published", "expired", "build_error"]
_ISO = re.compile(r"^\d{4}-\d{2}-\d{2}(?:[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d{1,6})?)?(?:Z|[+-]\d{2}:\d{2})?)?$")


class FrontMatter(Record):
    """A post's YAML front matter (keys as Hugo spells them)."""

    title: str = Field(description="Post title.")
    date: Optional[str] = Field(default=None, description="Post date, raw YAML value (ISO 8601 expected).")
    publishDate: Optional[str] = Field(default=None, description="Date from which the post is published.")
    expiryDate: Optional[str] = Field(default=None, description="Date from which the post is no longer published.")
    lastmod: Optional[str] = Field(default=None, description="Last modification date.")
    description: Optional[str] = Field(default=None, description="Summary for listings and SEO.")
    draft: bool = Field(default=False, description="Drafts are not built.")
    tags: list[str] = Field(default_factory=list, description="Tags taxonomy terms.")
    categories: list[str] = Field(default_factory=list, description="Categories taxonomy terms.")
    images: list[str] = Field(default_factory=list, description="Image paths (social cards, galleries).")
    author: Optional[PersonName] = Field(default=None, description="Author.")
    product: Optional[Sku] = Field(default=None, description="SKU of the store product the post presents.")
    slug: Optional[str] = Field(default=None, description="URL slug.")


class Post(Record):
    """A Markdown content file."""

    file_path: Id("blog_post") = Field(description="Absolute path, e.g. /srv/hugo/acme-blog/content/news/x.md.")
    front_matter: FrontMatter = Field(description="Its front matter.")
    body: str = Field(default="", description="Markdown after the front matter.")


class HugoState(ServiceState):
    """The site's content files."""

    posts: dict[str, Post] = Field(default_factory=dict, description="Content files by absolute path.")


def iso_date(value: str) -> Optional[dt.date]:
    """The calendar day of an ISO-8601 date or date-time, or None when it is not one
    (wrong shape, or a day that does not exist).

    Example:
        >>> iso_date("2026-02-03T10:00:00Z"), iso_date("2025-02-30"), iso_date("March 3, 2025")
        (datetime.date(2026, 2, 3), None, None)
    """
    v = value.strip()
    if not _ISO.match(v):
        return None
    try:
        return dt.datetime.fromisoformat(v.replace(" ", "T")).date() if len(v) > 10 else dt.date.fromisoformat(v)
    except ValueError:
        return None


def require_iso(value: str, field: str) -> str:
    """``value`` stripped, if it is ISO-8601.

    Raises:
        Unprocessable: it is not (Hugo would fail the build).
    """
    if iso_date(value) is None:
        raise Unprocessable(f"{field} {value!r} is not an ISO-8601 date; use YYYY-MM-DD or "
                            "YYYY-MM-DDTHH:MM:SS with an optional Z or +hh:mm offset.")
    return value.strip()


def bad_dates(fm: FrontMatter) -> list[str]:
    """The date fields Hugo cannot parse, as ``field='value'``."""
    values = {f: getattr(fm, f) for f in DATE_FIELDS}
    return [f"{f}={v!r}" for f, v in values.items() if v is not None and iso_date(v) is None]


def hugo_status(fm: FrontMatter, today: dt.date) -> HugoStatus:
    """What a build today does with the post (``buildDrafts``, ``buildFuture`` and ``buildExpired`` off)."""
    if bad_dates(fm):
        return "build_error"
    if fm.draft:
        return "draft"
    start = fm.publishDate or fm.date
    if start is not None and iso_date(start) > today:  # type: ignore[operator]
        return "scheduled"
    if fm.expiryDate is not None and iso_date(fm.expiryDate) <= today:  # type: ignore[operator]
        return "expired"
    return "published"


def abs_path(raw: str, what: str = "file path") -> str:
    """A normalised absolute path.

    Raises:
        Unprocessable: the path is relative.
    """
    p = raw.strip()
    if not p.startswith("/"):
        raise Unprocessable(f"expects an absolute {what}, e.g. {CONTENT}/posts/my-post.md; got {raw!r}.")
    return posixpath.normpath(p)


def directories(paths: list[str]) -> set[str]:
    """Every directory holding content files, and their parents up to the site root."""
    out = {SITE}
    for p in paths:
        d = posixpath.dirname(p)
        while d.startswith(SITE) and d not in out:
            out.add(d)
            d = posixpath.dirname(d)
    return out


def under(path: str, directory: str, recursive: bool) -> bool:
    """Whether content file ``path`` is in ``directory`` (or below it when ``recursive``)."""
    return path.startswith(directory + "/") if recursive else posixpath.dirname(path) == directory


def check_dir(raw: str, paths: list[str]) -> str:
    """A directory of the site.

    Raises:
        Unprocessable: relative. NotFound: not a directory of the site.
    """
    d = abs_path(raw, "directory path").rstrip("/") or "/"
    if d not in directories(paths):
        raise NotFound(f"directory {d!r} not found; the site's content is under {CONTENT}.")
    return d
