"""Wiki: team spaces of pages with a parent tree, versions, labels and comments.

No Confluence or Notion server is in ``compoworld_gym/data/mcp_servers.jsonl``;
the interface is modelled on Confluence (and the open-source
``mcp-atlassian`` Confluence tools' parameter names: ``page_id``,
``space_key``, ``title``, ``content``, ``parent_id``, ``version_comment``):
every edit stores a new version with its author, ``update_page`` takes the
version number being edited (optimistic locking, 409 on a stale edit), and
old versions can be read and restored.
"""

from __future__ import annotations

import datetime as dt
import random
from typing import Optional

from faker import Faker
from pydantic import Field

from compoworld_gym.entities import DateTime, Email, Id, PersonName
from compoworld_gym.envs.services._company import OPS_EMAIL, STAFF, TEAMS
from compoworld_gym.errors import Conflict, InvalidArgument, NotFound
from compoworld_gym.service import Record, Service, ServiceState, tool


class Space(Record):
    """A space: the pages of one team."""

    key: str = Field(pattern=r"^[A-Z][A-Z0-9]{1,9}$", description="Space key, e.g. 'OPS'.")
    name: str = Field(description="Space name.")
    owner_email: Email = Field(description="Space administrator.")


class PageVersion(Record):
    """One saved version of a page."""

    number: int = Field(ge=1, description="Version number, 1 for the first.")
    title: str = Field(description="Title at this version.")
    content: str = Field(description="Body at this version (markdown).")
    author_email: Email = Field(description="Who saved it.")
    saved_at: DateTime = Field(description="When it was saved.")
    comment: str = Field(default="", description="Version comment.")


class PageComment(Record):
    """A comment on a page."""

    id: Id("comment") = Field(description="Comment id.")
    author_email: Email = Field(description="Author.")
    body: str = Field(description="Text.")
    created_at: DateTime = Field(description="When it was posted.")


class Page(Record):
    """A page; ``versions[-1]`` is the current title and content."""

    id: Id("page") = Field(description="Page id, e.g. PG-0004.")
    space_key: str = Field(description="Space the page lives in.")
    parent_id: Optional[Id("page")] = Field(default=None, description="Parent page (None = top level).")
    author_email: Email = Field(description="Creator.")
    author_name: PersonName = Field(description="Creator's name.")
    labels: list[str] = Field(default_factory=list, description="Labels.")
    versions: list[PageVersion] = Field(min_length=1, description="All versions, oldest first.")
    comments: list[PageComment] = Field(default_factory=list, description="Comments, oldest first.")


class WikiState(ServiceState):
    """Spaces and pages."""

    spaces: dict[str, Space] = Field(default_factory=dict, description="Spaces by key.")
    pages: dict[str, Page] = Field(default_factory=dict, description="Pages by id.")


def _view(p: Page, content: bool = True) -> dict:
    v = p.versions[-1]
    out = {"id": p.id, "space_key": p.space_key, "parent_id": p.parent_id, "title": v.title,
           "version": v.number, "author_email": p.author_email, "last_editor_email": v.author_email,
           "updated_at": v.saved_at, "labels": list(p.labels)}
    if content:
        out["content"] = v.content
    return out


class Wiki(Service):
    """Team wiki: spaces, a page tree, page versions, labels and comments."""

    name = "wiki"
    description = "Team wiki (Confluence-like): spaces, pages in a tree, version history, labels and comments."
    domain = "knowledge"
    spec_source = None
    State = WikiState

    def _page(self, page_id: str) -> Page:
        return self.lookup(self.state.pages, page_id, "page")

    def _space(self, key: str) -> Space:
        return self.lookup(self.state.spaces, key, "space")

    def _title_free(self, space_key: str, title: str, except_id: Optional[str] = None) -> None:
        for p in self.state.pages.values():
            if p.space_key == space_key and p.id != except_id and p.versions[-1].title.lower() == title.lower():
                raise Conflict(f"space {space_key} already has a page titled {title!r} ({p.id}).")

    # ------------------------------------------------------------------ reads
    @tool(read_only=True, returns=list[Space])
    def list_spaces(self) -> list[dict]:
        """List the wiki spaces with their page counts."""
        return [{**s.model_dump(), "pages": sum(p.space_key == s.key for p in self.state.pages.values())}
                for s in self.state.spaces.values()]

    @tool(read_only=True, returns=list[Page])
    def search_pages(self, query: Optional[str] = None, space_key: Optional[str] = None, label: Optional[str] = None,
                     author_email: Optional[Email] = None, limit: int = Field(default=20, ge=1, le=100)) -> list[dict]:
        """Search current pages by text (title or content), space, label or creator.

        Args:
            query: case-insensitive text to find in the title or content.
            space_key: only pages of this space.
            label: only pages with this label.
            author_email: only pages created by this person.
            limit: maximum number of results.
        """
        q = query.lower() if query else None
        out = []
        for p in self.state.pages.values():
            v = p.versions[-1]
            if space_key not in (None, p.space_key) or (label and label not in p.labels):
                continue
            if author_email and p.author_email.lower() != author_email.lower():
                continue
            if q and q not in v.title.lower() and q not in v.content.lower():
                continue
            snippet = v.content[:120]
            out.append({**_view(p, content=False), "snippet": snippet})
        return out[:limit]

    @tool(read_only=True, returns=Page)
    def get_page(self, page_id: Id("page"), version: Optional[int] = Field(default=None, ge=1)) -> dict:
        """Get a page's current content, or an older version's.

        Args:
            page_id: the page id.
            version: a version number to read instead of the current one.
        """
        p = self._page(page_id)
        out = _view(p)
        if version is not None:
            if version > len(p.versions):
                raise NotFound(f"page {page_id} has {len(p.versions)} versions; see get_page_history.")
            v = p.versions[version - 1]
            out.update(title=v.title, content=v.content, version=v.number, last_editor_email=v.author_email,
                       updated_at=v.saved_at)
        return out

    @tool(read_only=True, returns=list[Page])
    def get_page_children(self, parent_id: Id("page")) -> list[dict]:
        """List the direct child pages of a page.

        Args:
            parent_id: the parent page id.
        """
        self._page(parent_id)
        return [_view(p, content=False) for p in self.state.pages.values() if p.parent_id == parent_id]

    @tool(read_only=True, returns=list[PageVersion])
    def get_page_history(self, page_id: Id("page")) -> list[dict]:
        """List every version of a page (number, title, author, time, comment), newest first.

        Args:
            page_id: the page id.
        """
        return [v.model_dump(exclude={"content"}) for v in reversed(self._page(page_id).versions)]

    @tool(read_only=True, returns=list[PageComment])
    def get_comments(self, page_id: Id("page")) -> list[dict]:
        """List the comments on a page, oldest first.

        Args:
            page_id: the page id.
        """
        return [c.model_dump() for c in self._page(page_id).comments]

    # ----------------------------------------------------------------- writes
    @tool(read_only=False, returns=Page)
    def create_page(self, space_key: str, title: str = Field(min_length=1, max_length=255), content: str = "",
                    parent_id: Optional[Id("page")] = None, labels: list[str] = Field(default_factory=list)) -> dict:
        """Create a page (version 1) in a space, optionally under a parent page.

        Args:
            space_key: the space, e.g. 'OPS'.
            title: page title (unique within the space).
            content: page body (markdown).
            parent_id: parent page id (must be in the same space).
            labels: labels to attach.
        """
        self._space(space_key)
        if parent_id is not None and self._page(parent_id).space_key != space_key:
            raise InvalidArgument(f"parent page {parent_id} is in another space.")
        self._title_free(space_key, title)
        v = PageVersion(number=1, title=title, content=content, author_email=OPS_EMAIL, saved_at=self.now())
        p = Page(id=self.new_id("PG"), space_key=space_key, parent_id=parent_id, author_email=OPS_EMAIL,
                 author_name="Operations Bot", labels=list(dict.fromkeys(labels)), versions=[v])
        self.state.pages[p.id] = p
        return _view(p)

    @tool(read_only=False, returns=Page)
    def update_page(self, page_id: Id("page"), version: int = Field(ge=1), title: Optional[str] = None,
                    content: Optional[str] = None, version_comment: str = "") -> dict:
        """Save a new version of a page; ``version`` must be the current version number.

        Args:
            page_id: the page to edit.
            version: the version you read (409 if someone saved a newer one since).
            title: new title (default: unchanged).
            content: new body (default: unchanged).
            version_comment: note stored with the version.
        """
        p = self._page(page_id)
        cur = p.versions[-1]
        if version != cur.number:
            raise Conflict(f"page {page_id} is at version {cur.number}, not {version}; re-read it and retry.")
        if title is None and content is None:
            raise InvalidArgument("nothing to update: give title and/or content.")
        if title is not None:
            self._title_free(p.space_key, title, except_id=page_id)
        p.versions.append(PageVersion(number=cur.number + 1, title=title or cur.title,
                                      content=cur.content if content is None else content, author_email=OPS_EMAIL,
                                      saved_at=self.now(), comment=version_comment))
        return _view(p)

    @tool(read_only=False, returns=Page)
    def restore_page_version(self, page_id: Id("page"), version: int = Field(ge=1)) -> dict:
        """Restore an old version: saves its title and content as a new current version.

        Args:
            page_id: the page.
            version: the version number to restore.
        """
        p = self._page(page_id)
        if version >= len(p.versions):
            raise InvalidArgument(f"version {version} is not an older version (current is {len(p.versions)}).")
        old = p.versions[version - 1]
        self._title_free(p.space_key, old.title, except_id=page_id)
        p.versions.append(PageVersion(number=len(p.versions) + 1, title=old.title, content=old.content,
                                      author_email=OPS_EMAIL, saved_at=self.now(), comment=f"Restored version {version}"))
        return _view(p)

    @tool(read_only=False, destructive=True)
    def delete_page(self, page_id: Id("page")) -> dict:
        """Delete a page that has no child pages.

        Args:
            page_id: the page to delete.
        """
        self._page(page_id)
        kids = [p.id for p in self.state.pages.values() if p.parent_id == page_id]
        if kids:
            raise Conflict(f"page {page_id} has child pages {kids}; delete or move them first.")
        del self.state.pages[page_id]
        return {"page_id": page_id, "deleted": True}

    @tool(read_only=False, idempotent=True)
    def add_label(self, page_id: Id("page"), name: str = Field(pattern=r"^[a-z0-9][a-z0-9_-]{0,49}$")) -> dict:
        """Add a label to a page (lower-case, no spaces); adding an existing label changes nothing.

        Args:
            page_id: the page.
            name: the label.
        """
        p = self._page(page_id)
        if name not in p.labels:
            p.labels.append(name)
        return {"page_id": page_id, "labels": list(p.labels)}

    @tool(read_only=False, destructive=True)
    def remove_label(self, page_id: Id("page"), name: str) -> dict:
        """Remove a label from a page.

        Args:
            page_id: the page.
            name: the label to remove.
        """
        p = self._page(page_id)
        if name not in p.labels:
            raise NotFound(f"page {page_id} has no label {name!r}; labels: {p.labels}.")
        p.labels.remove(name)
        return {"page_id": page_id, "labels": list(p.labels)}

    @tool(read_only=False, returns=PageComment)
    def add_comment(self, page_id: Id("page"), content: str = Field(min_length=1)) -> dict:
        """Comment on a page.

        Args:
            page_id: the page.
            content: the comment text.
        """
        p = self._page(page_id)
        c = PageComment(id=self.new_id("CMT"), author_email=OPS_EMAIL, body=content, created_at=self.now())
        p.comments.append(c)
        return {"page_id": page_id, **c.model_dump()}

    # ------------------------------------------------------------------ seeds
    @classmethod
    def build_seed_state(cls, fake: Faker, rng: random.Random, today: dt.date) -> WikiState:
        from compoworld_gym.envs.services._wiki_seed import PAGES, SPACES

        state = WikiState()
        for key, name, team in SPACES:
            state.spaces[key] = Space(key=key, name=name, owner_email=TEAMS[team].email)
        ids: dict[str, str] = {}
        for n, (key, title, parent, labels, bodies) in enumerate(PAGES, start=1):
            team = next(t for k, _, t in SPACES if k == key)
            people = [s for s in STAFF if s.team == team] or list(STAFF)
            author = rng.choice(people)
            day = today - dt.timedelta(days=rng.randint(20, 60))
            versions = []
            for i, body in enumerate(bodies, start=1):
                editor = author if i == 1 else rng.choice(STAFF)
                day += dt.timedelta(days=rng.randint(1, 6))
                versions.append(PageVersion(number=i, title=title, content=body, author_email=editor.email,
                                            saved_at=dt.datetime.combine(day, dt.time(rng.randint(9, 17), 0)),
                                            comment="" if i == 1 else "Updated"))
            pid = f"PG-{n:04d}"
            ids[title] = pid
            state.pages[pid] = Page(id=pid, space_key=key, parent_id=ids.get(parent) if parent else None,
                                    author_email=author.email, author_name=author.name, labels=list(labels),
                                    versions=versions)
        state.counters["PG"] = len(PAGES) + 1
        return state
