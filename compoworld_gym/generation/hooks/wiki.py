"""Task hook of the wiki: a page author's email as a fact; a comment on a
page as a free-text sink for short values."""

from __future__ import annotations

from typing import Any

from compoworld_gym.generation.context import Ctx, Fact, SinkStep, call
from compoworld_gym.generation.hooks._base import TEXT_FORMAT, RecordSource, ServiceHook, clone, record_sink, text_of


def _page(ctx: Ctx, title: str, author: str, opts: dict[str, Any]) -> tuple[str, dict[str, Any]]:
    pid = ctx.new_id("wiki", "PG")
    saved = f"{ctx.day(-opts.get('when', 2))}T09:00:00"
    return pid, clone(ctx, "wiki", "pages", pid, space_key="OPS", parent_id=None, author_email=author,
                      author_name=f"{ctx.first_name()} {ctx.last_name()}", labels=[],
                      versions=[{"number": 1, "title": title, "content": f"# {title}\n\nNotes.",
                                 "author_email": author, "saved_at": saved, "comment": ""}], comments=[])


def _plant(ctx: Ctx, value: Any, cue: str, opts: dict[str, Any]) -> tuple[str, dict[str, Any]]:
    return _page(ctx, f"Postmortem {cue}", value, opts)


def _sink_comment(ctx: Ctx, fact: Fact) -> SinkStep:
    title = ctx.unique(f"Notes on {ctx.case()}")
    pid, record = _page(ctx, title, "luis.ortega@company.example", {"when": 3})
    ctx.state("wiki")["pages"][pid] = record
    return record_sink(
        ctx, fact, service="wiki", tool="add_comment", value_arg="content", collection="pages",
        field_path="comments", nest="body", record_id=pid, where={"page_id": pid}, text=True,
        calls=[call("search_pages", query=title), call("add_comment", page_id=pid, content=text_of(fact.value))],
        phrase=f"comment {{ref}} on the wiki page '{title}'{TEXT_FORMAT.get(fact.type, '')}",
        label=f"the comment on '{title}'")


HOOK = ServiceHook(
    service="wiki",
    label="the wiki",
    sources={"email": RecordSource(
        type="email", tool="search_pages", collection="pages", noun="the author's email address",
        locate="of the wiki page 'Postmortem {cue}'", plant=_plant, read_args=lambda cue: {"query": cue},
        cue=lambda ctx: f"outage {ctx.code()}", plural="pages")},
    sinks={t: ("add_comment", _sink_comment) for t in ("date", "url", "person_name", "tracking_number")},
    free_text={"add_comment": "content"},
)
