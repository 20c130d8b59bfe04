"""Hugo CMS: the front matter of the store blog's Markdown posts (a Hugo site's content/).

Follows the MCP server ``@wdm0006_hugo-frontmatter-mcp`` (all 15 tools, same
names and parameters). Files are typed records, not files on disk: a post's
YAML front matter (title, date, publishDate, expiryDate, lastmod,
description, draft, tags, categories, images, author, product, slug) and its
body. Paths are absolute, under ``/srv/hugo/acme-blog``. Rules: dates are set
only as real ISO-8601 values (``validate_date_formats`` finds the imported
ones that are not); a post cannot leave draft while a date field would break
Hugo's build; tags compare case-insensitively, as Hugo's taxonomy terms do
(no duplicate tag, renaming merges into an existing tag); images are image
files, once each. ``get_frontmatter`` also says what a build today does with
the post (draft, scheduled, published, expired, build_error).
"""

from __future__ import annotations

import datetime as dt
import random
from typing import Any

from faker import Faker
from pydantic import Field

from compoworld_gym.entities import Id
from compoworld_gym.envs.services._hugo_cms_models import (
    DATE_FIELDS, IMAGE_EXT, FrontMatter, HugoState, Post, abs_path, bad_dates, check_dir, hugo_status, iso_date,
    require_iso, under,
)
from compoworld_gym.envs.services._hugo_cms_seed import build_state
from compoworld_gym.errors import Conflict, NotFound, Unprocessable
from compoworld_gym.service import Service, tool

_TEXT = Field(min_length=1, max_length=300)


class HugoCms(Service):
    """The Hugo blog's posts and their front matter."""

    name = "hugo_cms"
    description = ("The store's Hugo blog: posts' YAML front matter (title, dates, draft, description, tags, "
                   "images), tag management across the content directory, date validation.")
    domain = "marketing"
    spec_source = "@wdm0006_hugo-frontmatter-mcp"
    State = HugoState

    @classmethod
    def build_seed_state(cls, fake: Faker, rng: random.Random, today: dt.date) -> HugoState:
        return build_state(fake, rng, today)

    # --------------------------------------------------------------- helpers
    def _post(self, file_path: str) -> Post:
        path = abs_path(file_path)
        if not path.endswith(".md"):
            raise Unprocessable(f"{path} is not a Markdown file (.md).")
        p = self.state.posts.get(path)
        if p is None:
            raise NotFound(f"no content file {path}; find posts with find_posts_by_tag or validate_date_formats.")
        return p

    def _in(self, directory: str, recursive: bool) -> list[Post]:
        d = check_dir(directory, list(self.state.posts))
        return [p for path, p in sorted(self.state.posts.items()) if under(path, d, recursive)]

    def _fm(self, p: Post) -> dict[str, Any]:
        return p.front_matter.model_dump(exclude_none=True)

    def _set(self, file_path: str, field: str, value: Any) -> dict:
        p = self._post(file_path)
        setattr(p.front_matter, field, value)
        return {"file_path": p.file_path, "field": field, "value": value,
                "hugo_status": hugo_status(p.front_matter, self.today)}

    @staticmethod
    def _has_tag(fm: FrontMatter, tag: str) -> bool:
        return any(t.lower() == tag.lower() for t in fm.tags)

    def _row(self, p: Post) -> dict:
        fm = p.front_matter
        return {"file_path": p.file_path, "title": fm.title, "date": fm.date, "publishDate": fm.publishDate,
                "draft": fm.draft, "tags": fm.tags, "hugo_status": hugo_status(fm, self.today)}

    # ----------------------------------------------------------------- reads
    @tool(read_only=True)
    def get_frontmatter(self, file_path: Id("blog_post")) -> dict:
        """Reads and returns the entire YAML frontmatter from the specified Markdown file. Expects an absolute file path.

        Also gives what a build today does with the post (hugo_status).

        Args:
            file_path: absolute path of the .md file.
        """
        p = self._post(file_path)
        return {"file_path": p.file_path, "frontmatter": self._fm(p), "hugo_status": hugo_status(p.front_matter,
                                                                                                   self.today)}

    @tool(read_only=True)
    def get_field(self, file_path: Id("blog_post"), field_name: str) -> dict:
        """Retrieves the value of a specific field from the frontmatter of a file. Expects an absolute file path.

        Args:
            file_path: absolute path of the .md file.
            field_name: a front-matter key, e.g. publishDate.
        """
        fm = self._fm(self._post(file_path))
        if field_name not in fm:
            raise NotFound(f"the front matter has no {field_name!r}; its keys: {', '.join(fm)}.")
        return {"file_path": abs_path(file_path), "field_name": field_name, "value": fm[field_name]}

    @tool(read_only=True)
    def list_tags_in_directory(self, directory_path_str: str, recursive: bool = True) -> dict:
        """Scans .md files in a directory for 'tags' in their frontmatter and returns tag counts. Expects an absolute directory path.

        Args:
            directory_path_str: absolute directory, e.g. /srv/hugo/acme-blog/content.
            recursive: include subdirectories.
        """
        posts = self._in(directory_path_str, recursive)
        counts: dict[str, int] = {}
        for p in posts:
            for t in p.front_matter.tags:
                counts[t] = counts.get(t, 0) + 1
        return {"directory": abs_path(directory_path_str).rstrip("/"), "files_scanned": len(posts),
                "tags": dict(sorted(counts.items(), key=lambda kv: (-kv[1], kv[0])))}

    @tool(read_only=True)
    def find_posts_by_tag(self, directory_path_str: str, tag_to_find: str = Field(min_length=1),
                          recursive: bool = True) -> list[dict]:
        """Finds all posts containing a specific tag. Expects an absolute directory path.

        Tags match case-insensitively (Hugo's taxonomy terms do).

        Args:
            directory_path_str: absolute directory.
            tag_to_find: the tag.
            recursive: include subdirectories.
        """
        return [self._row(p) for p in self._in(directory_path_str, recursive) if self._has_tag(p.front_matter,
                                                                                                 tag_to_find)]

    @tool(read_only=True)
    def validate_date_formats(self, directory_path_str: str, field_name: str = "date",
                              expected_format_str: str = "%Y-%m-%d", recursive: bool = True) -> dict:
        """Validates date formats in frontmatter. Expects an absolute directory path.

        Checks one date field of every post against a strftime format (real calendar days only).

        Args:
            directory_path_str: absolute directory.
            field_name: date, publishDate, expiryDate or lastmod.
            expected_format_str: strftime format, e.g. %Y-%m-%d.
            recursive: include subdirectories.
        """
        if field_name not in DATE_FIELDS:
            raise Unprocessable(f"{field_name!r} is not a date field; date fields: {', '.join(DATE_FIELDS)}.")
        if "%" not in expected_format_str:
            raise Unprocessable(f"{expected_format_str!r} is not a strftime format (e.g. %Y-%m-%d).")
        valid, invalid, missing = [], [], []
        posts = self._in(directory_path_str, recursive)
        for p in posts:
            value = getattr(p.front_matter, field_name)
            if value is None:
                missing.append(p.file_path)
                continue
            try:
                dt.datetime.strptime(value, expected_format_str)
                valid.append(p.file_path)
            except ValueError:
                invalid.append({"file_path": p.file_path, "value": value, "iso_8601": iso_date(value) is not None})
        return {"directory": abs_path(directory_path_str).rstrip("/"), "field_name": field_name,
                "expected_format": expected_format_str, "checked": len(posts), "valid": valid, "invalid": invalid,
                "missing": missing}

    # ---------------------------------------------------------------- fields
    @tool(read_only=False, idempotent=True)
    def set_title(self, file_path: Id("blog_post"), title: str = Field(min_length=1, max_length=200)) -> dict:
        """Sets the 'title' (string) in the frontmatter. Expects an absolute file path.

        Args:
            file_path: absolute path of the .md file.
            title: the new title.
        """
        if not title.strip():
            raise Unprocessable("a title needs some text.")
        return self._set(file_path, "title", title.strip())

    @tool(read_only=False, idempotent=True)
    def set_date(self, file_path: Id("blog_post"), date_value: str) -> dict:
        """Sets the 'date' (string, e.g., YYYY-MM-DD) in the frontmatter. Expects an absolute file path.

        Args:
            file_path: absolute path of the .md file.
            date_value: ISO-8601 date or date-time.
        """
        return self._set(file_path, "date", require_iso(date_value, "date"))

    @tool(read_only=False, idempotent=True)
    def set_publish_date(self, file_path: Id("blog_post"), publish_date_value: str) -> dict:
        """Sets the 'publishDate' (string, e.g., YYYY-MM-DD) in the frontmatter. Expects an absolute file path.

        A publishDate after today keeps a published post off the site until that day.

        Args:
            file_path: absolute path of the .md file.
            publish_date_value: ISO-8601 date or date-time.
        """
        return self._set(file_path, "publishDate", require_iso(publish_date_value, "publishDate"))

    @tool(read_only=False, idempotent=True)
    def set_description(self, file_path: Id("blog_post"), description: str = Field(max_length=500)) -> dict:
        """Sets the 'description' (string) in the frontmatter. Expects an absolute file path.

        Args:
            file_path: absolute path of the .md file.
            description: the summary (up to 500 characters).
        """
        return self._set(file_path, "description", description.strip())

    @tool(read_only=False, idempotent=True)
    def set_draft_status(self, file_path: Id("blog_post"), draft_status: bool) -> dict:
        """Sets the 'draft' status (boolean) in the frontmatter. Expects an absolute file path.

        A post leaves draft (false) only if every date field is valid ISO-8601 (Hugo would fail the build).

        Args:
            file_path: absolute path of the .md file.
            draft_status: true for draft, false to publish.
        """
        p = self._post(file_path)
        if not draft_status and bad_dates(p.front_matter):
            raise Unprocessable(f"{p.file_path} has dates Hugo cannot parse ({', '.join(bad_dates(p.front_matter))}); "
                                "fix them with set_date or set_publish_date before publishing.")
        return self._set(file_path, "draft", draft_status)

    # ------------------------------------------------------------- lists
    @tool(read_only=False)
    def add_tag(self, file_path: Id("blog_post"), tag_to_add: str = _TEXT) -> dict:
        """Adds a tag to the 'tags' list in the frontmatter. Expects an absolute file path.

        Args:
            file_path: absolute path of the .md file.
            tag_to_add: the tag (no duplicate, ignoring case).
        """
        p, tag = self._post(file_path), tag_to_add.strip()
        if not tag:
            raise Unprocessable("a tag needs some text.")
        if self._has_tag(p.front_matter, tag):
            raise Conflict(f"{p.file_path} is already tagged {tag!r} (tags ignore case): {p.front_matter.tags}.")
        p.front_matter.tags.append(tag)
        return {"file_path": p.file_path, "tags": p.front_matter.tags}

    @tool(read_only=False, destructive=True)
    def remove_tag(self, file_path: Id("blog_post"), tag_to_remove: str = _TEXT) -> dict:
        """Removes a tag from the 'tags' list in the frontmatter. Expects an absolute file path.

        Args:
            file_path: absolute path of the .md file.
            tag_to_remove: the tag (ignoring case).
        """
        p = self._post(file_path)
        if not self._has_tag(p.front_matter, tag_to_remove.strip()):
            raise NotFound(f"{p.file_path} has no tag {tag_to_remove!r}; its tags: {p.front_matter.tags}.")
        p.front_matter.tags = [t for t in p.front_matter.tags if t.lower() != tag_to_remove.strip().lower()]
        return {"file_path": p.file_path, "tags": p.front_matter.tags}

    @tool(read_only=False)
    def add_image(self, file_path: Id("blog_post"), image_path_to_add: str = _TEXT) -> dict:
        """Adds an image path to the 'images' list in the frontmatter. Expects an absolute file path for the post.

        Args:
            file_path: absolute path of the .md file.
            image_path_to_add: image path as the site serves it, e.g. /images/products/x.jpg.
        """
        p, img = self._post(file_path), image_path_to_add.strip()
        if not img.lower().endswith(IMAGE_EXT):
            raise Unprocessable(f"{img!r} is not an image ({', '.join(IMAGE_EXT)}).")
        if img in p.front_matter.images:
            raise Conflict(f"{p.file_path} already lists {img}.")
        p.front_matter.images.append(img)
        return {"file_path": p.file_path, "images": p.front_matter.images}

    @tool(read_only=False, destructive=True)
    def remove_image(self, file_path: Id("blog_post"), image_path_to_remove: str = _TEXT) -> dict:
        """Removes an image path from the 'images' list in the frontmatter. Expects an absolute file path for the post.

        Args:
            file_path: absolute path of the .md file.
            image_path_to_remove: the image path as listed.
        """
        p, img = self._post(file_path), image_path_to_remove.strip()
        if img not in p.front_matter.images:
            raise NotFound(f"{p.file_path} does not list {img!r}; its images: {p.front_matter.images}.")
        p.front_matter.images.remove(img)
        return {"file_path": p.file_path, "images": p.front_matter.images}

    @staticmethod
    def _renamed(tags: list[str], old: str, new: str) -> list[str]:
        """``tags`` with ``old`` (any case) renamed ``new``, each tag once (ignoring case)."""
        kept: list[str] = []
        for t in tags:
            t = new if t.lower() == old.lower() else t
            if all(k.lower() != t.lower() for k in kept):
                kept.append(t)
        return kept

    @tool(read_only=False)
    def rename_tag_in_directory(self, directory_path_str: str, old_tag: str = _TEXT, new_tag: str = _TEXT,
                                recursive: bool = True) -> dict:
        """Renames a tag in all posts within a directory. Expects absolute paths for directory and tags as non-empty strings.

        Matches the old tag ignoring case (renaming a tag to itself unifies its spellings); a post that
        already has the new tag keeps it once.

        Args:
            directory_path_str: absolute directory.
            old_tag: the tag to rename.
            new_tag: its new name.
            recursive: include subdirectories.
        """
        old, new = old_tag.strip(), new_tag.strip()
        if not old or not new:
            raise Unprocessable("old_tag and new_tag must be non-empty tags.")
        hits = [p for p in self._in(directory_path_str, recursive) if self._has_tag(p.front_matter, old)]
        if not hits:
            raise NotFound(f"no post under {directory_path_str} has the tag {old!r}; see list_tags_in_directory.")
        renamed = {p.file_path: self._renamed(p.front_matter.tags, old, new) for p in hits}
        hits = [p for p in hits if renamed[p.file_path] != p.front_matter.tags]
        if not hits:
            raise Unprocessable(f"renaming {old!r} to {new!r} changes no post; every match is already {new!r}.")
        for p in hits:
            p.front_matter.tags = renamed[p.file_path]
        return {"renamed": len(hits), "files": [p.file_path for p in hits], "old_tag": old, "new_tag": new}
