"""The operations manual (knowledge base) in chained tasks: where policies live."""

from __future__ import annotations

from typing import Any

from compoworld_gym.envs.services.knowledge_base import Article
from compoworld_gym.generation.context import Ctx
from compoworld_gym.generation.links import Reader, RuleHolder, ServiceLinks, SolveError


def plant_article(state: dict[str, Any], **fields: Any) -> str:
    """Add an :class:`Article` (validated) with the next free id; returns the id.
    Shared by hooks and built-in tasks."""
    n = state["counters"].get("KB", 1)
    state["counters"]["KB"] = n + 1
    aid = f"KB-{n:04d}"
    base = {"category": "general", "tags": [], "owner_team": "operations", "owner_email": "ops.lead@company.example",
            "status": "published", "version": 1, "superseded_by": None, "facts": {}}
    state["articles"][aid] = Article.model_validate({**base, **fields, "id": aid}).model_dump(mode="json")
    return aid


def _plant(ctx: Ctx, topic: str, text: str, stale: bool) -> str:
    state = ctx.state("knowledge_base")
    aid = plant_article(state, title=topic, body=text, tags=["policy"], updated_on=ctx.day(-60 if stale else -4),
                        status="archived" if stale else "published", version=1 if stale else 2)
    if not stale:  # the archived version points at the one that replaced it
        for art in state["articles"].values():
            if art["title"] == topic and art["status"] == "archived" and art["superseded_by"] is None:
                art["superseded_by"] = aid
    return aid


def _find(reader: Reader, topic: str) -> str:
    rows = reader.read("knowledge_base", "search_articles", query=topic, status="published")
    hits = [r for r in rows if r["title"] == topic]
    if len(hits) != 1:
        raise SolveError(f"{len(hits)} published articles are titled {topic!r}")
    return reader.read("knowledge_base", "get_article", article_id=hits[0]["id"])["body"]


LINKS = ServiceLinks(
    service="knowledge_base", label="the operations manual",
    rules=(RuleHolder(service="knowledge_base", plant=_plant, find=_find,
                      where="The '{topic}' policy is in the operations manual; only the published version is in force."),),
)

__all__ = ["LINKS", "plant_article"]
