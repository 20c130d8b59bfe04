"""Basic Memory: a markdown knowledge base of projects, notes, observations and relations.

Follows the MCP server ``basic-memory`` (all 19 of its tools, with their
parameter names). Notes are markdown files in a project's folders; the
title and folder give the permalink (``customers/olivia-martinez``);
observations (``- [category] text #tag (context)``) and relations
(``- relation_type [[Other Note]]``, any other ``[[link]]`` is
``links_to``) are parsed from the body on every write, so search, recent
activity and build_context see them at once. Times are the logical clock.

Rules of the real server kept here: write_note creates or replaces the note
at its permalink; edit_note appends, prepends, replaces text (the count of
matches must equal ``expected_replacements``) or replaces a section under a
header; move_note keeps the note and its links, moving its file and
permalink (no overwrite); a title shared by several notes must be given as
a permalink; canvases are Obsidian JSON with edges between existing nodes;
project names are unique and the default project cannot be deleted.
Departure: the server's background file watcher is not modelled (every
write is indexed at once, so sync_status is always complete).
"""

from __future__ import annotations

import datetime as dt
import json
import random
import re
from typing import Any, Literal, Optional

from faker import Faker
from pydantic import Field

from compoworld_gym.entities import FilePath
from compoworld_gym.envs.services._basic_memory_models import BasicMemoryState, Note, Project, parse, permalink_for
from compoworld_gym.envs.services._basic_memory_reads import MemoryReads
from compoworld_gym.envs.services._basic_memory_rules import checksum, replace_section
from compoworld_gym.envs.services._basic_memory_seed import build_state
from compoworld_gym.errors import Conflict, Unprocessable
from compoworld_gym.service import tool

_PROJECT_NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9 _.-]{0,59}$")
_NODE_TYPES = ("text", "file", "link", "group")


def _folder(folder: str) -> str:
    clean = folder.strip().strip("/")
    if ".." in clean.split("/"):
        raise Unprocessable(f"folder {folder!r} may not contain '..'.")
    return clean


def _tags(tags: Any) -> list[str]:
    if tags is None:
        return []
    raw = re.split(r"[,\s]+", tags) if isinstance(tags, str) else tags
    if not isinstance(raw, list) or not all(isinstance(t, str) for t in raw):
        raise Unprocessable("tags must be a list of strings or a comma-separated string.")
    return list(dict.fromkeys(t.strip().lstrip("#") for t in raw if t.strip().lstrip("#")))


class BasicMemory(MemoryReads):
    """Basic Memory knowledge base: projects, markdown notes, observations, relations."""

    name = "basic_memory"
    description = ("Basic Memory knowledge base: markdown notes per project with observations and [[relations]] "
                   "about customers, accounts, products and runbooks; search, context and recent activity.")
    domain = "knowledge"
    spec_source = "basic-memory"
    State = BasicMemoryState

    # --------------------------------------------------------------- helpers
    def _reindex(self, note: Note, content: str) -> None:
        note.content = content
        note.observations, note.relations = parse(content)
        note.updated_at = self.now()

    def _report(self, note: Note, action: str) -> dict:
        counts: dict[str, int] = {}
        for o in note.observations:
            counts[o.category] = counts.get(o.category, 0) + 1
        rels = [{**r.model_dump(), "resolved": self._resolve(note.project, r.target)} for r in note.relations]
        return {"action": action, "id": note.id, "title": note.title, "project": note.project,
                "file_path": note.file_path, "permalink": note.permalink, "checksum": checksum(note.content),
                "tags": note.tags, "observations": counts, "relations": rels,
                "unresolved_relations": [r["target"] for r in rels if r["resolved"] is None]}

    def _at(self, project: str, permalink: str) -> Optional[Note]:
        return next((n for n in self.state.notes.values() if n.project == project and n.permalink == permalink), None)

    # ----------------------------------------------------------------- notes
    @tool(read_only=False, destructive=True)
    def delete_note(self, identifier: str, project: Optional[str] = None) -> dict:
        """Delete a note by title or permalink

        Args:
            identifier: title, permalink or file path of the note.
            project: project name (default: the current project).
        """
        note = self._find(identifier, project)
        del self.state.notes[note.id]
        return {"deleted": True, "permalink": note.permalink, "file_path": note.file_path}

    @tool(read_only=False)
    def write_note(self, title: str = Field(min_length=1, max_length=200), content: str = Field(max_length=20000),
                   folder: str = Field(max_length=200), tags: Any = None, entity_type: str = "note",
                   project: Optional[str] = None) -> dict:
        """Create or update a markdown note. Returns a markdown formatted summary of the semantic content.

        The permalink is folder/slug-of-title; writing a title that exists at that permalink
        replaces the note's content. Observations and relations are parsed from ``content``.

        Args:
            title: note title (no '/').
            content: markdown body; '- [category] text #tag' lines are observations,
                '- relation_type [[Other Note]]' lines are relations.
            folder: folder in the project, e.g. customers ('' or '/' for the root).
            tags: tags, a list or a comma-separated string.
            entity_type: frontmatter type, e.g. note, customer, runbook.
            project: project name (default: the current project).
        """
        proj = self._project(project)
        if "/" in title or not title.strip():
            raise Unprocessable("a title may not be blank or contain '/'; put the path in folder.")
        folder, tag_list = _folder(folder), _tags(tags)
        link = permalink_for(folder, title)
        note = self._at(proj.name, link)
        if note is not None and note.kind == "canvas":
            raise Conflict(f"{link} is a canvas; write the note under another title or folder.")
        if note is None:
            now = self.now()
            note = Note(id=self.new_id("MN"), project=proj.name, title=title.strip(), folder=folder, permalink=link,
                        file_path=f"{folder}/{title.strip()}.md" if folder else f"{title.strip()}.md",
                        entity_type=entity_type, tags=tag_list, content=content, created_at=now, updated_at=now)
            note.observations, note.relations = parse(content)
            self.state.notes[note.id] = note
            return self._report(note, "created")
        note.entity_type = entity_type
        if tags is not None:
            note.tags = tag_list
        self._reindex(note, content)
        return self._report(note, "updated")

    @tool(read_only=False)
    def canvas(self, nodes: list[dict[str, Any]] = Field(max_length=200),
               edges: list[dict[str, Any]] = Field(max_length=400), title: str = Field(min_length=1, max_length=200),
               folder: str = Field(max_length=200), project: Optional[str] = None) -> dict:
        """Create an Obsidian canvas file to visualize concepts and connections.

        Nodes need id, type (text, file, link, group), x, y, width and height; a file node's
        ``file`` must be a file of the project; edges need id, fromNode and toNode of existing nodes.

        Args:
            nodes: canvas nodes.
            edges: canvas edges.
            title: canvas title (file title.canvas).
            folder: folder in the project.
            project: project name (default: the current project).
        """
        proj = self._project(project)
        folder = _folder(folder)
        files = {n.file_path for n in self._notes(proj)}
        ids = [n.get("id") for n in nodes]
        if any(not isinstance(i, str) or not i for i in ids) or len(set(ids)) != len(ids):
            raise Unprocessable("every node needs a unique string id.")
        for n in nodes:
            if n.get("type") not in _NODE_TYPES:
                raise Unprocessable(f"node {n['id']!r} has type {n.get('type')!r}; use one of "
                                    f"{', '.join(_NODE_TYPES)}.")
            if not all(isinstance(n.get(k), (int, float)) and not isinstance(n.get(k), bool)
                       for k in ("x", "y", "width", "height")):
                raise Unprocessable(f"node {n['id']!r} needs numeric x, y, width and height.")
            if n["type"] == "file" and n.get("file") not in files:
                raise Unprocessable(f"file node {n['id']!r} points at {n.get('file')!r}, not a file of project "
                                    f"{proj.name}.")
        for e in edges:
            if not isinstance(e.get("id"), str) or e.get("fromNode") not in ids or e.get("toNode") not in ids:
                raise Unprocessable(f"edge {e.get('id')!r} needs an id and fromNode/toNode among the node ids.")
        text = json.dumps({"nodes": nodes, "edges": edges}, indent=2, sort_keys=True)
        link = permalink_for(folder, title)
        note = self._at(proj.name, link)
        if note is not None and note.kind != "canvas":
            raise Conflict(f"{link} is a markdown note; give the canvas another title or folder.")
        if note is None:
            now = self.now()
            note = Note(id=self.new_id("MN"), project=proj.name, title=title, folder=folder, permalink=link,
                        file_path=f"{folder}/{title}.canvas" if folder else f"{title}.canvas", kind="canvas",
                        entity_type="canvas", content=text, created_at=now, updated_at=now)
            self.state.notes[note.id] = note
            action = "created"
        else:
            note.content, note.updated_at, action = text, self.now(), "updated"
        return {"action": action, "id": note.id, "file_path": note.file_path, "permalink": note.permalink,
                "nodes": len(nodes), "edges": len(edges)}

    @tool(read_only=False)
    def edit_note(self, identifier: str, operation: Literal["append", "prepend", "find_replace", "replace_section"],
                  content: str = Field(max_length=20000), section: Optional[str] = None,
                  find_text: Optional[str] = None, expected_replacements: int = Field(default=1, ge=1),
                  project: Optional[str] = None) -> dict:
        """Edit an existing markdown note using various operations like append, prepend, find_replace, or replace_section.

        Args:
            identifier: title, permalink or file path of the note.
            operation: append, prepend, find_replace or replace_section.
            content: the text to add or put in place.
            section: header of the section to replace (replace_section), e.g. '## Orders'.
            find_text: text to replace (find_replace).
            expected_replacements: how many times find_text must occur (find_replace).
            project: project name (default: the current project).
        """
        note = self._find(identifier, project)
        if note.kind == "canvas":
            raise Unprocessable(f"{note.file_path} is a canvas; rewrite it with the canvas tool.")
        body = note.content
        if operation == "append":
            new = body.rstrip("\n") + "\n" + content.rstrip("\n") + "\n"
        elif operation == "prepend":
            new = content.rstrip("\n") + "\n" + body
        elif operation == "find_replace":
            if not find_text:
                raise Unprocessable("find_replace needs find_text.")
            found = body.count(find_text)
            if found != expected_replacements:
                raise Unprocessable(f"found {found} occurrence(s) of {find_text!r}, expected {expected_replacements}; "
                                    "nothing was changed.")
            new = body.replace(find_text, content)
        else:
            if not section or not section.lstrip("#").strip():
                raise Unprocessable("replace_section needs the section header, e.g. '## Orders'.")
            new = replace_section(body, section, content)
        self._reindex(note, new)
        return self._report(note, f"edited ({operation})")

    @tool(read_only=False)
    def move_note(self, identifier: str, destination_path: FilePath, project: Optional[str] = None) -> dict:
        """Move a note to a new location, updating database and maintaining links.

        The file moves and the permalink follows the new path; links written as the old
        permalink are rewritten. An existing file at the destination is not overwritten (409).

        Args:
            identifier: title, permalink or file path of the note.
            destination_path: new file path in the project, e.g. archive/Old Note.md.
            project: project name (default: the current project).
        """
        note = self._find(identifier, project)
        dest = destination_path.strip().strip("/")
        ext = ".canvas" if note.kind == "canvas" else ".md"
        if not dest.endswith(ext) or ".." in dest.split("/") or dest == ext:
            raise Unprocessable(f"destination_path must be a file path ending in {ext} inside the project.")
        folder, _, name = dest.rpartition("/")
        link = permalink_for(folder, name[: -len(ext)])
        clash = next((n for n in self._notes(self._project(note.project))
                      if n.id != note.id and (n.file_path.lower() == dest.lower() or n.permalink == link)), None)
        if clash is not None:
            raise Conflict(f"{clash.file_path} already exists at that location; choose another destination.")
        if dest == note.file_path:
            raise Conflict(f"{note.file_path} is already there.")
        old = note.permalink
        note.folder, note.file_path, note.permalink, note.updated_at = folder, dest, link, self.now()
        for other in self._notes(self._project(note.project)):
            if f"[[{old}]]" in other.content:
                self._reindex(other, other.content.replace(f"[[{old}]]", f"[[{link}]]"))
        return {"moved": True, "from": old, "file_path": dest, "permalink": link}

    # -------------------------------------------------------------- projects
    @tool(read_only=False)
    def switch_project(self, project_name: str) -> dict:
        """Switch to a different project context.

        Changes the active project context for all subsequent tool calls.

        Args:
            project_name: Name of the project to switch to
        """
        p = self._project(project_name)
        self.state.current_project = p.name
        notes = sorted(self._notes(p), key=lambda n: n.updated_at, reverse=True)
        return {"current_project": p.name, "path": p.path, "notes": len(notes),
                "recent": [n.permalink for n in notes[:3]]}

    @tool(read_only=False)
    def set_default_project(self, project_name: str) -> dict:
        """Set default project in config. Requires restart to take effect.

        Args:
            project_name: Name of the project to set as default
        """
        p = self._project(project_name)
        for other in self.state.projects.values():
            other.is_default = other.name == p.name
        return {"default_project": p.name, "restart_required": True, "current_project": self.state.current_project}

    @tool(read_only=False)
    def create_memory_project(self, project_name: str, project_path: FilePath, set_default: bool = False) -> dict:
        """Create a new Basic Memory project.

        Args:
            project_name: Name for the new project (must be unique)
            project_path: File system path where the project will be stored
            set_default: Whether to set this project as the default (optional, defaults to False)
        """
        if not _PROJECT_NAME.match(project_name):
            raise Unprocessable("a project name is 1-60 letters, digits, spaces, '_', '.' or '-'.")
        if any(p.name.lower() == project_name.lower() for p in self.state.projects.values()):
            raise Conflict(f"project {project_name!r} already exists.")
        path = project_path.strip().rstrip("/")
        if not path:
            raise Unprocessable("project_path is empty.")
        used = next((p for p in self.state.projects.values() if p.path == path), None)
        if used is not None:
            raise Conflict(f"{path} is already the directory of project {used.name}.")
        if set_default:
            for other in self.state.projects.values():
                other.is_default = False
        self.state.projects[project_name] = Project(name=project_name, path=path, is_default=set_default)
        return {"project": project_name, "path": path, "is_default": set_default}

    @tool(read_only=False, destructive=True)
    def delete_project(self, project_name: str) -> dict:
        """Delete a Basic Memory project.

        Removes the project and its notes from Basic Memory (files on disk are untouched).
        The default project cannot be deleted (409); deleting the current project
        switches the session to the default one.

        Args:
            project_name: Name of the project to delete
        """
        p = self._project(project_name)
        if p.is_default:
            raise Conflict(f"{p.name} is the default project; set another default first (set_default_project).")
        gone = [n.id for n in self._notes(p)]
        for nid in gone:
            del self.state.notes[nid]
        del self.state.projects[p.name]
        if self.state.current_project == p.name:
            self.state.current_project = next(q.name for q in self.state.projects.values() if q.is_default)
        return {"deleted": p.name, "notes_removed": len(gone), "current_project": self.state.current_project}

    # ------------------------------------------------------------------ seeds
    @classmethod
    def build_seed_state(cls, fake: Faker, rng: random.Random, today: dt.date) -> BasicMemoryState:
        return build_state(rng, today)
