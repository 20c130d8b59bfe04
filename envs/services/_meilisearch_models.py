"""Records and state of the meilisearch service (see ``meilisearch.py``).

Field names follow the Meilisearch REST API's JSON (camelCase), so what a
tool returns reads as the real server's responses do.
"""

from __future__ import annotations

from typing import Any, Literal, Optional

from pydantic import Field

from compoworld_gym.entities import DateTime, Id
from compoworld_gym.service import Record, ServiceState

#: Meilisearch's default ranking rules, in order.
DEFAULT_RANKING_RULES = ("words", "typo", "proximity", "attribute", "sort", "exactness")
TaskStatus = Literal["enqueued", "processing", "succeeded", "failed", "canceled"]
TaskType = Literal["indexCreation", "indexUpdate", "indexDeletion", "documentAdditionOrUpdate", "documentDeletion",
                   "settingsUpdate", "dumpCreation", "taskCancelation"]
#: Actions an API key may be granted (a subset of Meilisearch's).
KeyAction = Literal["*", "search", "documents.add", "documents.get", "documents.delete", "indexes.create",
                    "indexes.get", "indexes.update", "indexes.delete", "settings.get", "settings.update",
                    "tasks.get", "stats.get"]


class IndexSettings(Record):
    """The settings of one index that this service enforces or reports."""

    searchableAttributes: list[str] = Field(default_factory=lambda: ["*"],
                                            description="Attributes searched by q, ['*'] = all.")
    displayedAttributes: list[str] = Field(default_factory=lambda: ["*"],
                                           description="Attributes returned in hits, ['*'] = all.")
    filterableAttributes: list[str] = Field(default_factory=list,
                                            description="Attributes usable in filter and facets.")
    sortableAttributes: list[str] = Field(default_factory=list, description="Attributes usable in sort.")
    rankingRules: list[str] = Field(default_factory=lambda: list(DEFAULT_RANKING_RULES),
                                    description="Ranking rules, in order.")
    stopWords: list[str] = Field(default_factory=list, description="Words ignored in queries.")
    synonyms: dict[str, list[str]] = Field(default_factory=dict, description="Word -> its synonyms.")
    distinctAttribute: Optional[str] = Field(default=None, description="At most one hit per value of it.")


class Index(Record):
    """An index: a named set of documents sharing a primary key and settings."""

    uid: Id("search_index") = Field(description="Index uid, e.g. 'products'.")
    primaryKey: Optional[str] = Field(default=None, description="Document attribute that identifies a document.")
    createdAt: DateTime = Field(description="Creation time.")
    updatedAt: DateTime = Field(description="Last change to the index, its settings or documents.")
    settings: IndexSettings = Field(default_factory=IndexSettings, description="Index settings.")


class Document(Record):
    """One stored document; stored under the key ``"<indexUid>/<document id>"``."""

    indexUid: Id("search_index") = Field(description="Index holding the document.")
    id: str = Field(description="Value of the index's primary key, as a string.")
    fields: dict[str, Any] = Field(description="The document's attributes (JSON values), primary key included.")


class Task(Record):
    """An asynchronous operation; writes enqueue one, processed in order."""

    uid: int = Field(ge=0, description="Task uid, increasing from 0.")
    indexUid: Optional[Id("search_index")] = Field(default=None, description="Index the task acts on.")
    status: TaskStatus = Field(description="enqueued, processing, succeeded, failed or canceled.")
    type: TaskType = Field(description="Operation kind.")
    details: dict[str, Any] = Field(default_factory=dict, description="Operation details (counts, settings).")
    error: Optional[dict[str, str]] = Field(default=None, description="For a failed task: message, code, type.")
    enqueuedAt: DateTime = Field(description="When it was enqueued.")
    startedAt: Optional[DateTime] = Field(default=None, description="When processing started.")
    finishedAt: Optional[DateTime] = Field(default=None, description="When it finished.")


class ApiKey(Record):
    """An API key with the actions and indexes it may use."""

    uid: str = Field(description="Key uid (a UUID).")
    key: str = Field(description="The key value sent in the Authorization header.")
    name: str = Field(description="Human-readable name.")
    description: str = Field(default="", description="What the key is for.")
    actions: list[KeyAction] = Field(min_length=1, description="Allowed actions.")
    indexes: list[str] = Field(min_length=1, description="Index uids it may act on, ['*'] = all.")
    expiresAt: Optional[DateTime] = Field(default=None, description="Expiry, None = never.")
    createdAt: DateTime = Field(description="Creation time.")


class MeilisearchState(ServiceState):
    """Indexes, documents, the task queue and API keys."""

    indexes: dict[str, Index] = Field(default_factory=dict, description="Indexes by uid.")
    documents: dict[str, Document] = Field(default_factory=dict, description="Documents by 'indexUid/id'.")
    tasks: dict[str, Task] = Field(default_factory=dict, description="Tasks by uid (as text).")
    keys: dict[str, ApiKey] = Field(default_factory=dict, description="API keys by uid.")
