"""Knowledge base: the operations manual of handling rules.

No knowledge-base server in ``compoworld_gym/data/mcp_servers.jsonl`` fits, so the
interface is designed after Confluence / Zendesk Guide: articles with a
category, tags, an owning team and owner, a status
(``draft/published/archived``) and a version that every edit bumps. Old
versions of a rule stay as archived articles pointing at their successor, so
tasks can require "the latest published version wins".

Every rule body states concrete facts (a priority, a team, a dollar
threshold, a Slack channel, a deadline); ``facts`` repeats them as a flat map
so task designers can turn them into checks without parsing prose.
"""

from __future__ import annotations

import datetime as dt
import random
from typing import Literal, Optional

from faker import Faker
from pydantic import Field

from compoworld_gym.entities import Date, Email, Id
from compoworld_gym.envs.services._company import staff_of
from compoworld_gym.envs.services._kb_rules import seed_rules
from compoworld_gym.errors import Conflict, InvalidArgument
from compoworld_gym.service import Record, Service, ServiceState, tool

Category = Literal["billing", "refunds", "shipping", "accounts", "vip", "privacy", "incidents", "general"]
ArticleStatus = Literal["draft", "published", "archived"]
CATEGORIES: tuple[str, ...] = Category.__args__  # type: ignore[attr-defined]


class Article(Record):
    """One article (a handling rule) of the operations manual."""

    id: Id("article") = Field(description="Article id, e.g. KB-0001.")
    title: str = Field(description="Article title.")
    category: Category = Field(description="Manual section.")
    body: str = Field(description="The rule text.")
    tags: list[str] = Field(default_factory=list, description="Search tags.")
    owner_team: str = Field(description="Team responsible for the rule, e.g. 'billing'.")
    owner_email: Email = Field(description="Email of the person who owns the rule.")
    updated_on: Date = Field(description="Date of the last edit.")
    status: ArticleStatus = Field(description="draft (not in force), published (in force) or archived.")
    version: int = Field(ge=1, description="Edit counter; 1 for a new article, +1 per update.")
    superseded_by: Optional[Id("article")] = Field(
        default=None, description="For an archived old version: the article that replaced it.")
    facts: dict[str, str] = Field(
        default_factory=dict, description="The rule's key facts as name -> value (e.g. priority -> high).")


class KnowledgeBaseState(ServiceState):
    """All articles of the manual."""

    articles: dict[str, Article] = Field(default_factory=dict, description="Articles by id.")


def _summary(a: Article) -> dict:
    snippet = a.body if len(a.body) <= 160 else a.body[:157] + "..."
    return {**a.model_dump(exclude={"body", "facts"}), "snippet": snippet}


class KnowledgeBase(Service):
    """The operations manual: search, read, write and archive handling rules."""

    name = "knowledge_base"
    description = ("Operations manual / knowledge base: handling rules with owning team, owner, "
                   "status and version.")
    domain = "support"
    spec_source = None
    State = KnowledgeBaseState

    # ------------------------------------------------------------------ reads
    @tool(read_only=True, returns=list[Article])
    def search_articles(
        self,
        query: Optional[str] = None,
        category: Optional[Category] = None,
        tag: Optional[str] = None,
        status: Optional[ArticleStatus] = None,
        limit: int = Field(default=20, ge=1, le=100),
    ) -> list[dict]:
        """Search articles by words, category, tag or status; returns summaries without the body.

        Old versions of a rule are archived, so a search without ``status``
        may return several versions: the published one with the highest
        version is the rule in force.

        Args:
            query: words that must all appear (case-insensitive) in the title, body or tags.
            category: only this manual section.
            tag: only articles carrying this tag.
            status: only draft, published or archived articles (default: all).
            limit: maximum number of results (1-100).
        """
        words = query.lower().split() if query else []
        out = []
        for a in self.state.articles.values():
            if category and a.category != category:
                continue
            if tag and tag.lower() not in (t.lower() for t in a.tags):
                continue
            if status and a.status != status:
                continue
            text = " ".join((a.title, a.body, *a.tags)).lower()
            if any(w not in text for w in words):
                continue
            out.append(_summary(a))
        return out[:limit]

    @tool(read_only=True, returns=Article)
    def get_article(self, article_id: Id("article")) -> dict:
        """Get one article with its full body and key facts.

        Args:
            article_id: the article id, e.g. KB-0001.
        """
        return self.lookup(self.state.articles, article_id, "article").model_dump()

    @tool(read_only=True)
    def list_categories(self) -> list[dict]:
        """List the manual's sections with how many articles each holds.

        Returns one entry per category: ``{"category", "published", "total"}``.
        """
        out = []
        for cat in CATEGORIES:
            arts = [a for a in self.state.articles.values() if a.category == cat]
            out.append({"category": cat, "published": sum(a.status == "published" for a in arts),
                        "total": len(arts)})
        return out

    # ----------------------------------------------------------------- writes
    @tool(read_only=False, returns=Article)
    def create_article(
        self,
        title: str = Field(min_length=1, max_length=200),
        category: Category = "general",
        body: str = Field(min_length=1, max_length=10000),
        owner_team: str = Field(min_length=1),
        owner_email: Email = Field(min_length=3),
        tags: list[str] = Field(default_factory=list),
        status: Literal["draft", "published"] = "draft",
    ) -> dict:
        """Write a new article (version 1), as a draft or directly published.

        Args:
            title: article title; must differ from every non-archived article's title.
            category: manual section.
            body: the rule text.
            owner_team: responsible team, e.g. 'billing'.
            owner_email: email of the rule's owner.
            tags: search tags.
            status: 'draft' (default) or 'published'.
        """
        self._check_title_free(title, None)
        art = Article(id=self.new_id("KB"), title=title, category=category, body=body, tags=list(tags),
                      owner_team=owner_team, owner_email=owner_email, updated_on=self.today,
                      status=status, version=1)
        self.state.articles[art.id] = art
        return art.model_dump()

    @tool(read_only=False, returns=Article)
    def update_article(
        self,
        article_id: Id("article"),
        title: Optional[str] = Field(default=None, min_length=1, max_length=200),
        body: Optional[str] = Field(default=None, min_length=1, max_length=10000),
        tags: Optional[list[str]] = None,
        owner_team: Optional[str] = Field(default=None, min_length=1),
        owner_email: Optional[Email] = None,
        status: Optional[Literal["draft", "published"]] = None,
    ) -> dict:
        """Edit an article; the version goes up by one and updated_on becomes today.

        Archived articles cannot be edited (409): write a new article instead.

        Args:
            article_id: the article to edit.
            title: new title.
            body: new rule text (replaces the old text).
            tags: new tag list (replaces the old tags).
            owner_team: new responsible team.
            owner_email: new owner email.
            status: 'published' to put a draft in force, 'draft' to withdraw it.
        """
        art = self.lookup(self.state.articles, article_id, "article")
        if art.status == "archived":
            raise Conflict(f"article {article_id} is archived and cannot be edited; create a new article.")
        changes = {"title": title, "body": body, "tags": tags, "owner_team": owner_team,
                   "owner_email": owner_email, "status": status}
        changes = {k: v for k, v in changes.items() if v is not None}
        if not changes:
            raise InvalidArgument("nothing to update: give at least one of title, body, tags, "
                                  "owner_team, owner_email, status.")
        if title is not None:
            self._check_title_free(title, article_id)
        for key, value in changes.items():
            setattr(art, key, list(value) if key == "tags" else value)
        art.version += 1
        art.updated_on = self.today
        return art.model_dump()

    @tool(read_only=False, destructive=True, returns=Article)
    def archive_article(
        self,
        article_id: Id("article"),
        superseded_by: Optional[Id("article")] = None,
    ) -> dict:
        """Archive an article so it is no longer in force.

        Args:
            article_id: the article to archive.
            superseded_by: the non-archived article that replaces it, if any.
        """
        art = self.lookup(self.state.articles, article_id, "article")
        if art.status == "archived":
            raise Conflict(f"article {article_id} is already archived.")
        if superseded_by is not None:
            succ = self.lookup(self.state.articles, superseded_by, "article")
            if succ.id == art.id or succ.status == "archived":
                raise InvalidArgument("superseded_by must be another article that is not archived.")
        art.status = "archived"
        art.superseded_by = superseded_by
        art.updated_on = self.today
        return art.model_dump()

    def _check_title_free(self, title: str, own_id: Optional[str]) -> None:
        for a in self.state.articles.values():
            if a.id != own_id and a.status != "archived" and a.title.lower() == title.lower():
                raise Conflict(f"article {a.id} already has the title {title!r}; update it instead.")

    # ------------------------------------------------------------------ seeds
    @classmethod
    def build_seed_state(cls, fake: Faker, rng: random.Random, today: dt.date) -> KnowledgeBaseState:
        # The rules are curated text; the seed varies owners, dates and thresholds.
        state = KnowledgeBaseState()
        n = 0
        for rule in seed_rules(rng):
            owner = rng.choice(staff_of(rule.team)).email
            updated = today - dt.timedelta(days=rng.randint(3, 60))
            chain: list[Article] = []
            # Oldest first: each older version is archived and points at its successor.
            for k, (body, facts) in enumerate(rule.versions):
                n += 1
                newest = k == len(rule.versions) - 1
                age = (len(rule.versions) - 1 - k) * rng.randint(90, 200)
                chain.append(Article(
                    id=f"KB-{n:04d}", title=rule.title, category=rule.category, body=body,
                    tags=list(rule.tags), owner_team=rule.team, owner_email=owner,
                    updated_on=updated - dt.timedelta(days=age), version=k + 1,
                    status=rule.status if newest else "archived", facts=facts))
            for old, new in zip(chain, chain[1:]):
                old.superseded_by = new.id
            state.articles.update((a.id, a) for a in chain)
        state.counters["KB"] = n + 1
        return state
