"""Task hook of the knowledge base: rule owners as facts, new articles as sinks."""

from __future__ import annotations

from typing import Any

from compoworld_gym.generation.context import Ctx, Fact, SinkStep, call
from compoworld_gym.generation.hooks._base import RecordSource, ServiceHook

_TEAMS = ("billing", "support", "logistics", "privacy")


def _plant(ctx: Ctx, value: Any, cue: str, opts: dict[str, Any]) -> tuple[str, dict[str, Any]]:
    aid = ctx.new_id("knowledge_base", "KB")
    team = ctx.rng.choice(_TEAMS)
    rank = opts.get("rank", 1)
    return aid, {
        "id": aid, "title": f"Handling {cue}", "category": "general",
        "body": f"Procedure for {cue}. Contact the article owner before changing anything.",
        "tags": [cue.lower()], "owner_team": team, "owner_email": value,
        "updated_on": ctx.day(-opts.get("when", 2) * 10), "status": "archived" if opts.get("closed") else "published",
        "version": rank + 1, "superseded_by": None, "facts": {},
    }


def _sink_email(ctx: Ctx, fact: Fact) -> SinkStep:
    title = f"Runbook for {ctx.case()}"

    def checks(value: Any) -> list[dict[str, Any]]:
        return [{"kind": "record_exists", "service": "knowledge_base", "collection": "articles",
                 "where": {"title": {"$ieq": title}, "owner_email": ctx.matcher("email", value)},
                 "description": f"Article '{title}' exists with the right owner."}]

    return SinkStep(
        service="knowledge_base", tool="create_article", value_arg="owner_email",
        calls=[call("create_article", title=title, body=f"How to handle cases like {title}.",
                    owner_team="support", owner_email=fact.value)],
        phrase=f"create a knowledge-base article titled '{title}' (team support) owned by {{ref}}",
        label=f"the '{title}' article", checks=checks, where={"title": {"$ieq": title}})


HOOK = ServiceHook(
    service="knowledge_base",
    label="the knowledge base",
    sources={"email": RecordSource(
        type="email", tool="search_articles", collection="articles", noun="the owner's email address",
        locate="of the knowledge-base article on handling {cue}", plant=_plant,
        read_args=lambda cue: {"query": cue}, cue=lambda ctx: f"case {ctx.code()}",
        variants=frozenset({"latest", "decoy", "ranked"}),
        decoy_rule="Archived articles are outdated; the published article on {cue} is the source of truth.",
        rank_rule="the one with the highest version number", plural="articles")},
    sinks={"email": ("create_article", _sink_email)},
)
