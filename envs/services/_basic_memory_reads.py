"""The read half of the basic_memory service: project and note lookups shared
by all its tools, and the read tools (notes, files, search, context, recent
activity, directories, sync status, projects).

:class:`MemoryReads` does not register; :class:`~compoworld_gym.envs.services.basic_memory.BasicMemory`
adds the tools that write. Tools are listed in definition order, these first.
"""

from __future__ import annotations

import datetime as dt
import difflib
import fnmatch
import re
from typing import Annotated, Optional, Union

from pydantic import Field

from compoworld_gym.entities import FilePath
from compoworld_gym.envs.services._basic_memory_models import Note, Project, permalink_for
from compoworld_gym.envs.services._basic_memory_rules import RESULT_TYPES, query_matcher, render, since, summary
from compoworld_gym.envs.services._blocks import paginate
from compoworld_gym.errors import Conflict, NotFound, Unprocessable
from compoworld_gym.service import DAY_START, Service, tool

Page = Field(default=1, ge=1)
PageSize = Field(default=10, ge=1, le=100)
_BAD_URL = re.compile(r"//|[<>\"'|]")


class MemoryReads(Service, register=False):
    """Lookups and read tools of the knowledge base."""

    # --------------------------------------------------------------- helpers
    def _clock(self) -> dt.datetime:
        """The logical time without advancing it (reads must not change state)."""
        return dt.datetime.combine(self.today, DAY_START) + dt.timedelta(minutes=self.state.clock)

    def _project(self, name: Optional[str]) -> Project:
        want = (name or self.state.current_project).strip().lower()
        hit = next((p for p in self.state.projects.values() if p.name.lower() == want), None)
        if hit is None:
            raise NotFound(f"project {name!r} not found; projects: {', '.join(sorted(self.state.projects))}.")
        return hit

    def _notes(self, project: Project) -> list[Note]:
        return [n for n in self.state.notes.values() if n.project == project.name]

    def _find(self, identifier: str, project: Optional[str]) -> Note:
        """A note by permalink, memory:// URL, file path, entity id or title (a title shared by several notes is
        refused)."""
        proj = self._project(project)
        ident = identifier.strip().removeprefix("memory://").strip("/")
        by_id = self.state.notes.get(ident)
        if by_id is not None and by_id.project == proj.name:
            return by_id
        notes, low = self._notes(proj), ident.lower()
        stem = ident.rsplit("/", 1)
        slugged = permalink_for(stem[0], stem[1]) if len(stem) == 2 else permalink_for("", ident)
        for key in (lambda n: n.permalink.lower() == low, lambda n: n.file_path.lower() == low,
                    lambda n: n.permalink == slugged):
            hits = [n for n in notes if key(n)]
            if hits:
                return hits[0]
        hits = [n for n in notes if n.title.lower() == low]
        if len(hits) > 1:
            raise Conflict(f"title {identifier!r} matches {len(hits)} notes ({', '.join(n.permalink for n in hits)}); "
                           "use the permalink.")
        if hits:
            return hits[0]
        close = difflib.get_close_matches(ident, [n.title for n in notes] + [n.permalink for n in notes], n=3)
        raise NotFound(f"note {identifier!r} not found in project {proj.name}"
                       + (f"; did you mean {', '.join(close)}?" if close else "; search_notes finds notes by content."))

    def _resolve(self, project: str, target: str) -> Optional[str]:
        """The permalink a relation target (title or permalink) points at, or None when unresolved."""
        low = target.lower()
        hits = [n for n in self.state.notes.values() if n.project == project
                and (n.title.lower() == low or n.permalink == low)]
        return sorted(hits, key=lambda n: (n.folder == "archive", n.permalink))[0].permalink if hits else None

    def _full(self, note: Note) -> dict:
        incoming = [{"relation_type": r.relation_type, "from": n.permalink} for n in self.state.notes.values()
                    if n.project == note.project and n.id != note.id for r in n.relations
                    if self._resolve(n.project, r.target) == note.permalink]
        return {**note.model_dump(exclude={"relations"}),
                "relations": [{**r.model_dump(), "resolved": self._resolve(note.project, r.target)}
                              for r in note.relations], "incoming_relations": incoming}

    def _items(self, note: Note, types: tuple[str, ...]) -> list[dict]:
        """The note's entity, observation and relation result items of ``types``."""
        out = [summary(note)] if "entity" in types else []
        if "observation" in types:
            out += [{"type": "observation", "title": note.title, "permalink": note.permalink,
                     "category": o.category, "content": o.content, "updated_at": note.updated_at}
                    for o in note.observations]
        if "relation" in types:
            out += [{"type": "relation", "title": note.title, "permalink": note.permalink,
                     "relation_type": r.relation_type, "target": r.target, "updated_at": note.updated_at}
                    for r in note.relations]
        return out

    @staticmethod
    def _types(value: Union[str, list[str], None], default: tuple[str, ...]) -> tuple[str, ...]:
        raw = [value] if isinstance(value, str) else list(value or [])
        wanted = tuple(dict.fromkeys(t.strip().lower().removesuffix("s").replace("entitie", "entity")
                                     for t in raw if t.strip()))
        bad = [t for t in wanted if t not in RESULT_TYPES]
        if bad:
            raise Unprocessable(f"unknown result type(s) {bad}; use {', '.join(RESULT_TYPES)}.")
        return wanted or default

    # ------------------------------------------------------------- notes
    @tool(read_only=True, returns=Note)
    def read_note(self, identifier: str, page: int = Page, page_size: int = PageSize,
                  project: Optional[str] = None) -> dict:
        """Read a markdown note by title or permalink.

        Returns the note with its parsed observations and relations (each relation
        with the permalink it resolves to) and the relations pointing at it.

        Args:
            identifier: title, permalink, file path, entity id (MN-0001) or memory:// URL of the note.
            page: page of results (for paged reads).
            page_size: results per page.
            project: project name (default: the current project).
        """
        return {**self._full(self._find(identifier, project)), "page": page, "page_size": page_size}

    @tool(read_only=True)
    def view_note(self, identifier: str, page: int = Page, page_size: int = PageSize,
                  project: Optional[str] = None) -> dict:
        """View a note as a formatted artifact for better readability.

        Args:
            identifier: title, permalink, file path, entity id (MN-0001) or memory:// URL of the note.
            page: page of results.
            page_size: results per page.
            project: project name (default: the current project).
        """
        note = self._find(identifier, project)
        return {"title": note.title, "permalink": note.permalink, "type": "text/markdown",
                "artifact": render(note)}

    @tool(read_only=True)
    def read_content(self, path: FilePath, project: Optional[str] = None) -> dict:
        """Read a file's raw content by path or permalink

        Args:
            path: file path in the project (e.g. customers/Olivia Martinez.md) or permalink.
            project: project name (default: the current project).
        """
        note = self._find(path, project)
        text = render(note)
        return {"file_path": note.file_path, "content_type": "application/json" if note.kind == "canvas"
                else "text/markdown", "size": len(text.encode()), "content": text}

    @tool(read_only=True)
    def search_notes(self, query: str, page: int = Page, page_size: int = PageSize, search_type: str = "text",
                     types: Optional[list[str]] = None, entity_types: Optional[list[str]] = None,
                     after_date: Optional[str] = None, project: Optional[str] = None) -> dict:
        """Search across all content in the knowledge base with advanced syntax support.

        text search matches titles and bodies (terms are ANDed; OR, NOT and "quoted
        phrases" work); title searches titles; permalink matches permalinks ('*' wildcards).

        Args:
            query: what to look for.
            page: page of results (1-based).
            page_size: results per page (max 100).
            search_type: text, title or permalink.
            types: result types: entity (default), observation, relation.
            entity_types: only notes of these frontmatter types, e.g. ['customer'].
            after_date: only notes updated since then (ISO date or a timeframe like '7d').
            project: project name (default: the current project).
        """
        proj = self._project(project)
        kinds = self._types(types, ("entity",))
        lo = since(after_date, self._clock()) if after_date else None
        if search_type not in ("text", "title", "permalink"):
            raise Unprocessable(f"search_type must be text, title or permalink, not {search_type!r}.")
        match = query_matcher(query) if search_type != "permalink" else (
            lambda s: int(fnmatch.fnmatch(s, query.strip().removeprefix("memory://").lower())))
        scored = []
        for note in self._notes(proj):
            if entity_types and note.entity_type not in entity_types or lo and note.updated_at < lo:
                continue
            hay = {"text": f"{note.title}\n{note.content}", "title": note.title, "permalink": note.permalink}
            score = match(hay[search_type])
            if score:
                scored.append((score, note))
        scored.sort(key=lambda x: (-x[0], -x[1].updated_at.timestamp(), x[1].permalink))
        rows = [{**item, "score": score} for score, note in scored for item in self._items(note, kinds)]
        return {"query": query, "results": paginate(rows, page, page_size), "current_page": page,
                "page_size": page_size, "total": len(rows)}

    @tool(read_only=True)
    def build_context(self, url: str = Field(min_length=1, max_length=2028), depth: Optional[int] = 1,
                      timeframe: Optional[str] = "7d", page: int = Page, page_size: int = PageSize,
                      max_related: int = Field(default=10, ge=0, le=100), project: Optional[str] = None) -> dict:
        """Build context from a memory:// URI to continue conversations naturally.

        The notes at ``url`` (a permalink, or a folder pattern like 'customers/*') with
        their observations, and the notes related to them through relations in either
        direction up to ``depth`` hops, updated within ``timeframe``.

        Args:
            url: memory://folder/note, folder/note or a pattern such as folder/*.
            depth: how many relation hops to follow (0-3).
            timeframe: related notes updated since then, e.g. '7d', '2 weeks ago', 'today'.
            page: page of primary results.
            page_size: primary results per page.
            max_related: most related notes returned per primary note.
            project: project name (default: the current project).
        """
        proj = self._project(project)
        path = url.strip().removeprefix("memory://").strip("/")
        if _BAD_URL.search(path) or not path:
            raise Unprocessable(f"invalid memory URL {url!r}: avoid //, <>, quotes and |.")
        depth = 1 if depth is None else depth
        if not 0 <= depth <= 3:
            raise Unprocessable("depth must be between 0 and 3.")
        lo = since(timeframe or "7d", self._clock())
        notes = self._notes(proj)
        primary = [n for n in notes if fnmatch.fnmatch(n.permalink, path.lower())] if "*" in path else \
            [self._find(path, proj.name)]
        if not primary:
            raise NotFound(f"no notes match {url!r}; search_notes finds permalinks.")
        by_link = {n.permalink: n for n in notes}
        results = []
        for note in paginate(primary, page, page_size):
            seen, frontier, related = {note.permalink}, [note], []
            for hop in range(depth):
                nxt = []
                for cur in frontier:
                    out = [self._resolve(proj.name, r.target) for r in cur.relations]
                    inc = [n.permalink for n in notes for r in n.relations
                           if self._resolve(proj.name, r.target) == cur.permalink]
                    for link in sorted({p for p in out + inc if p and p not in seen}):
                        seen.add(link)
                        nxt.append(by_link[link])
                        if by_link[link].updated_at >= lo:
                            related.append({**summary(by_link[link]), "depth": hop + 1})
                frontier = nxt
            results.append({"primary_result": summary(note),
                            "observations": [o.model_dump() for o in note.observations],
                            "related_results": related[:max_related]})
        return {"results": results, "metadata": {"uri": f"memory://{path}", "depth": depth, "timeframe": timeframe,
                                                 "since": lo, "primary_count": len(primary)}}

    @tool(read_only=True)
    def recent_activity(self, type: Union[str, list[str]] = "", depth: int = Field(default=1, ge=0, le=3),
                        timeframe: str = "7d", page: int = Page, page_size: int = PageSize,
                        max_related: int = Field(default=10, ge=0, le=100), project: Optional[str] = None) -> dict:
        """Get recent activity from across the knowledge base.

        Notes changed within ``timeframe``, newest first, as entity items (default) or their
        observation and relation items.

        Args:
            type: result type(s): entity, observation, relation (default entity).
            depth: relation depth (kept for compatibility; items are not expanded).
            timeframe: since when, e.g. '7d', '24h', 'yesterday', '2 weeks ago'.
            page: page of results.
            page_size: results per page.
            max_related: most related items (kept for compatibility).
            project: project name (default: the current project).
        """
        proj = self._project(project)
        kinds, lo = self._types(type, ("entity",)), since(timeframe, self._clock())
        notes = sorted((n for n in self._notes(proj) if n.updated_at >= lo),
                       key=lambda n: (n.updated_at, n.permalink), reverse=True)
        rows = [item for n in notes for item in self._items(n, kinds)]
        return {"project": proj.name, "timeframe": timeframe, "since": lo, "total": len(rows),
                "results": paginate(rows, page, page_size)}

    @tool(read_only=True)
    def list_directory(self, dir_name: str = "/", depth: int = Field(default=1, ge=1, le=10),
                       file_name_glob: Optional[str] = None, project: Optional[str] = None) -> dict:
        """List directory contents with filtering and depth control.

        Args:
            dir_name: folder to list, '/' for the project root.
            depth: how many folder levels to descend (1 = direct children).
            file_name_glob: only files whose name matches, e.g. '*.md' or 'Refund*'.
            project: project name (default: the current project).
        """
        proj = self._project(project)
        base = dir_name.strip().strip("/")
        entries: dict[str, dict] = {}
        for n in self._notes(proj):
            if base and not n.file_path.startswith(base + "/"):
                continue
            rest = n.file_path[len(base) + 1:] if base else n.file_path
            parts = rest.split("/")
            for level in range(min(len(parts) - 1, depth)):
                d = "/".join(filter(None, [base, *parts[:level + 1]]))
                entries.setdefault(d, {"type": "directory", "name": parts[level], "path": d})
            if len(parts) <= depth and (not file_name_glob or fnmatch.fnmatch(parts[-1], file_name_glob)):
                entries[n.file_path] = {"type": "file", "name": parts[-1], "path": n.file_path, "title": n.title,
                                        "permalink": n.permalink, "updated_at": n.updated_at}
        if base and not entries:
            raise NotFound(f"directory {dir_name!r} not found in project {proj.name}; list '/' to see the folders.")
        return {"directory": "/" + base, "entries": [entries[k] for k in sorted(entries)]}

    @tool(read_only=True)
    def sync_status(self, project: Optional[str] = None) -> dict:
        """Check the status of file synchronization and background operations.

        Every file is indexed when the service starts, so sync is complete; the counts
        per project are the indexed files.

        Args:
            project: only this project (default: all projects).
        """
        projects = [self._project(project)] if project else list(self.state.projects.values())
        return {"status": "completed", "is_ready": True,
                "projects": [{"name": p.name, "status": "watching", "files": len(self._notes(p))} for p in projects]}

    # ------------------------------------------------------------- projects
    @tool(read_only=True, returns=list[Project])
    def list_memory_projects(self, compatibility: Annotated[Optional[str], Field(alias="_compatibility")] = None
                             ) -> dict:
        """List all available projects with their status.

        Shows every project, which one is active in this session and which is the default.

        Args:
            compatibility: ignored (kept for older clients).
        """
        return {"projects": [{**p.model_dump(), "is_current": p.name == self.state.current_project,
                              "notes": len(self._notes(p))} for p in self.state.projects.values()]}

    @tool(read_only=True, returns=Project)
    def get_current_project(self, compatibility: Annotated[Optional[str], Field(alias="_compatibility")] = None
                            ) -> dict:
        """Show the currently active project and basic stats.

        Args:
            compatibility: ignored (kept for older clients).
        """
        p = self._project(None)
        notes = self._notes(p)
        return {**p.model_dump(), "notes": len(notes), "folders": sorted({n.folder for n in notes}),
                "last_updated": max((n.updated_at for n in notes), default=None)}
