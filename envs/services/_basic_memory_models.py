"""Records and markdown parsing of the basic_memory service.

Basic Memory keeps a knowledge base of markdown files per project. Each
note has a title, a folder, and a permalink derived from folder and title
(``customers/olivia-martinez``). Its body carries the semantic graph:
observations are list items ``- [category] text #tag (context)`` and
relations are list items ``- relation_type [[Other Note]]``; any other
``[[Wiki Link]]`` in the text is a ``links_to`` relation. Canvas files are
Obsidian JSON canvases stored beside the notes.
"""

from __future__ import annotations

import re
from typing import Literal, Optional

from pydantic import Field

from compoworld_gym.entities import DateTime, FilePath, Id
from compoworld_gym.service import Record, ServiceState

_OBS = re.compile(r"^\s*[-*]\s+\[([^\]\n]+)\]\s+(.+?)\s*$")
_REL = re.compile(r"^\s*[-*]\s+([A-Za-z_][\w -]*?)\s+\[\[([^\]\n]+)\]\]")
_LINK = re.compile(r"\[\[([^\]\n]+)\]\]")
_TAG = re.compile(r"(?<![\w&])#([A-Za-z][\w/-]*)")
_CONTEXT = re.compile(r"\s*\(([^()]*)\)\s*$")


class Observation(Record):
    """A categorized fact from a ``- [category] text #tag (context)`` line."""

    category: str = Field(description="The bracketed category, e.g. contact, order, decision.")
    content: str = Field(description="The fact's text (tags and context removed).")
    tags: list[str] = Field(default_factory=list, description="Its #tags, without '#'.")
    context: Optional[str] = Field(default=None, description="Trailing parenthesised context, if any.")


class Relation(Record):
    """A typed link from a note to another note by title (``- works_at [[Globex Corporation]]``)."""

    relation_type: str = Field(description="e.g. relates_to, purchased, links_to.")
    target: str = Field(description="Title (or permalink) of the note linked to.")


class Project(Record):
    """A Basic Memory project: a named directory of notes."""

    name: str = Field(description="Project name, e.g. company.")
    path: FilePath = Field(description="Directory the project's files live in.")
    is_default: bool = Field(default=False, description="The project used when the server starts.")


class Note(Record):
    """A markdown note (or a canvas file) of a project."""

    id: Id("memory_note") = Field(description="Entity id, e.g. MN-0001.")
    project: str = Field(description="Project the note belongs to.")
    title: str = Field(description="Note title.")
    folder: str = Field(description="Folder inside the project ('' for the root).")
    permalink: str = Field(description="Stable path-like id: folder/slug-of-title.")
    file_path: FilePath = Field(description="File inside the project, e.g. customers/Olivia Martinez.md.")
    kind: Literal["markdown", "canvas"] = Field(default="markdown", description="markdown note or canvas file.")
    entity_type: str = Field(default="note", description="Frontmatter type, e.g. note, customer, runbook.")
    tags: list[str] = Field(default_factory=list, description="Frontmatter tags.")
    content: str = Field(description="Markdown body (canvas: the JSON text).")
    observations: list[Observation] = Field(default_factory=list, description="Parsed observations.")
    relations: list[Relation] = Field(default_factory=list, description="Parsed relations.")
    created_at: DateTime = Field(description="Created (logical clock).")
    updated_at: DateTime = Field(description="Last modified (logical clock).")


class BasicMemoryState(ServiceState):
    """Projects, the session's current project and every project's notes."""

    projects: dict[str, Project] = Field(default_factory=dict, description="Projects by name.")
    current_project: str = Field(default="", description="The active project of this session.")
    notes: dict[str, Note] = Field(default_factory=dict, description="Notes and canvases by entity id.")


def slug(text: str) -> str:
    """A permalink segment: lower case, runs of other characters as one '-'.

    Example:
        >>> slug("Olivia Martinez's Account")
        'olivia-martinezs-account'
    """
    return re.sub(r"[^a-z0-9]+", "-", text.lower().replace("'", "")).strip("-")


def permalink_for(folder: str, stem: str) -> str:
    """``folder/slug(stem)`` with every folder segment slugged too."""
    parts = [slug(p) for p in folder.split("/") if p.strip()] + [slug(stem)]
    return "/".join(p for p in parts if p)


def parse(content: str) -> tuple[list[Observation], list[Relation]]:
    """The observations and relations a markdown body declares (see the module docstring)."""
    observations, relations = [], []
    for line in content.splitlines():
        rel = _REL.match(line)
        if rel and not _OBS.match(line):
            relations.append(Relation(relation_type=rel.group(1).strip().replace(" ", "_").lower(),
                                      target=rel.group(2).strip()))
            continue
        obs = _OBS.match(line)
        if obs:
            text = obs.group(2)
            ctx = _CONTEXT.search(text)
            context = ctx.group(1).strip() if ctx else None
            text = text[:ctx.start()] if ctx else text
            tags = _TAG.findall(text)
            body = _TAG.sub("", text).strip()
            observations.append(Observation(category=obs.group(1).strip(), content=re.sub(r"\s{2,}", " ", body),
                                            tags=tags, context=context))
        for target in _LINK.findall(line):
            relations.append(Relation(relation_type="links_to", target=target.strip()))
    return observations, relations
