"""The shared part of the meilisearch service: its helpers and the settings,
task and key tools (the index, document and search tools are in
``meilisearch.py``, which documents the behaviour and the spec it follows).
"""

from __future__ import annotations

import datetime as dt
import json
import re
import uuid
from typing import Any, Optional

from pydantic import Field

from compoworld_gym.entities import Id
from compoworld_gym.envs.services._meilisearch_models import (
    ApiKey, Document, Index, IndexSettings, KeyAction, MeilisearchState, Task, TaskStatus, TaskType,
)
from compoworld_gym.envs.services._meilisearch_seed import document_key
from compoworld_gym.errors import Conflict, InvalidArgument, NotFound, Unprocessable
from compoworld_gym.service import Service, tool

_UID = re.compile(r"^[A-Za-z0-9_-]{1,400}$")
IndexUid = Id("search_index")


def _json(text: str, what: str, kind: type) -> Any:
    """Parse JSON-text argument ``what`` that must be a ``kind`` (list or dict); 400 otherwise."""
    try:
        value = json.loads(text)
    except json.JSONDecodeError as exc:
        raise InvalidArgument(f"{what} is not valid JSON ({exc.msg} at char {exc.pos}).") from None
    if not isinstance(value, kind):
        raise InvalidArgument(f"{what} must be a JSON {'array' if kind is list else 'object'}.")
    return value


def _names(text: str, what: str) -> list[str]:
    value = _json(text, what, list)
    if not all(isinstance(v, str) and v for v in value):
        raise InvalidArgument(f"{what} must be a JSON array of attribute names.")
    return list(dict.fromkeys(value))


def _doc_id(value: Any, key: str) -> str:
    """A document's primary-key value as text; 400 ``invalid_document_id`` for other values."""
    if isinstance(value, bool) or not isinstance(value, (str, int)) or not _UID.match(str(value)):
        raise InvalidArgument(f"invalid_document_id: document identifier `{value!r}` ({key}) must be an integer "
                              "or a string of letters, digits, '-' and '_'.")
    return str(value)


class MeilisearchBase(Service, register=False):
    """Helpers shared by the meilisearch tools, and its settings, task and key tools."""

    State = MeilisearchState

    # ---------------------------------------------------------------- helpers
    def _index(self, uid: str) -> Index:
        index = self.state.indexes.get(uid)
        if index is None:
            raise NotFound(f"index_not_found: Index `{uid}` not found; call list-indexes for valid uids.")
        return index

    def _docs(self, uid: str) -> list[Document]:
        return [d for d in self.state.documents.values() if d.indexUid == uid]

    def _enqueue(self, index_uid: Optional[str], kind: TaskType, details: dict[str, Any]) -> dict[str, Any]:
        """Record a task (processed at once) and answer with its enqueued summary, as the real API does."""
        uid = len(self.state.tasks)
        when = self.now()
        self.state.tasks[str(uid)] = Task(uid=uid, indexUid=index_uid, status="succeeded", type=kind,
                                          details=details, enqueuedAt=when, startedAt=when, finishedAt=when)
        if index_uid in self.state.indexes:
            self.state.indexes[index_uid].updatedAt = when
        return {"taskUid": uid, "indexUid": index_uid, "status": "enqueued", "type": kind, "enqueuedAt": when}

    def _new_index(self, uid: str, primary_key: Optional[str]) -> Index:
        if not _UID.match(uid):
            raise InvalidArgument(f"invalid_index_uid: `{uid}` is not a valid index uid; use letters, digits, "
                                  "'-' and '_' (at most 400).")
        when = self.now()
        index = Index(uid=uid, primaryKey=primary_key, createdAt=when, updatedAt=when)
        self.state.indexes[uid] = index
        return index

    def _primary_key(self, index: Index, given: Optional[str], docs: list[dict[str, Any]]) -> str:
        if index.primaryKey is not None:
            if given is not None and given != index.primaryKey:
                raise Conflict(f"index_primary_key_already_exists: index `{index.uid}` already has the primary "
                               f"key `{index.primaryKey}`.")
            return index.primaryKey
        if given is not None:
            return given
        candidates = sorted({k for d in docs[:1] for k in d if k.lower().endswith("id")})
        if len(candidates) != 1:
            raise Unprocessable(f"index_primary_key_{'no_candidate' if not candidates else 'multiple_candidates'}"
                                f"_found: cannot infer the primary key of `{index.uid}` "
                                f"(candidates {candidates}); pass primaryKey.")
        return candidates[0]

    def _write_docs(self, uid: str, documents: str, primary_key: Optional[str], merge: bool) -> dict[str, Any]:
        docs = _json(documents, "documents", list)
        if not docs or not all(isinstance(d, dict) for d in docs):
            raise InvalidArgument("documents must be a non-empty JSON array of objects.")
        index = self.state.indexes.get(uid) or self._new_index(uid, None)
        key = self._primary_key(index, primary_key, docs)
        for n, fields in enumerate(docs):
            if key not in fields:
                raise Unprocessable(f"missing_document_id: document {n} has no `{key}` attribute: {json.dumps(fields)}.")
            doc_id = _doc_id(fields[key], key)
            old = self.state.documents.get(document_key(uid, doc_id))
            merged = {**old.fields, **fields} if merge and old is not None else dict(fields)
            self.state.documents[document_key(uid, doc_id)] = Document(indexUid=uid, id=doc_id, fields=merged)
        index.primaryKey = key
        return self._enqueue(uid, "documentAdditionOrUpdate",
                             {"receivedDocuments": len(docs), "indexedDocuments": len(docs)})

    def _set_settings(self, uid: str, changes: dict[str, Any]) -> dict[str, Any]:
        index = self._index(uid)
        unknown = sorted(set(changes) - set(IndexSettings.model_fields))
        if unknown:
            raise InvalidArgument(f"bad_request: unknown setting(s) {unknown}; known: {sorted(IndexSettings.model_fields)}.")
        merged = {**index.settings.model_dump(), **changes}
        for name, value in changes.items():  # null resets a setting to its default, as in Meilisearch
            if value is None:
                merged[name] = IndexSettings.model_fields[name].get_default(call_default_factory=True)
        try:
            index.settings = IndexSettings.model_validate(merged)
        except ValueError as exc:
            raise InvalidArgument(f"invalid settings: {str(exc).splitlines()[-1].strip()}") from None
        return self._enqueue(uid, "settingsUpdate", changes)

    @staticmethod
    def _index_view(index: Index) -> dict[str, Any]:
        return index.model_dump(exclude={"settings"})

    # --------------------------------------------------------------- settings
    @tool(read_only=True, name="get-settings", returns=IndexSettings)
    def get_settings(self, indexUid: IndexUid) -> dict:
        """Get all settings of an index (searchable, filterable, sortable attributes, ranking rules, ...).

        Args:
            indexUid: Unique identifier of the index
        """
        return self._index(indexUid).settings.model_dump()

    @tool(read_only=False, idempotent=True, name="update-settings")
    def update_settings(self, indexUid: IndexUid, settings: str) -> dict:
        """Update settings of an index; only the settings given change (null resets one). Enqueues a task.

        Args:
            indexUid: Unique identifier of the index
            settings: JSON object of settings, e.g. {"filterableAttributes": ["category"]}
        """
        return self._set_settings(indexUid, _json(settings, "settings", dict))

    @tool(read_only=True, name="get-searchable-attributes")
    def get_searchable_attributes(self, indexUid: IndexUid) -> list[str]:
        """Get the attributes a search query is matched against (['*'] = all).

        Args:
            indexUid: Unique identifier of the index
        """
        return self._index(indexUid).settings.searchableAttributes

    @tool(read_only=True, name="get-filterable-attributes")
    def get_filterable_attributes(self, indexUid: IndexUid) -> list[str]:
        """Get the attributes that filters and facets may use.

        Args:
            indexUid: Unique identifier of the index
        """
        return self._index(indexUid).settings.filterableAttributes

    @tool(read_only=True, name="get-sortable-attributes")
    def get_sortable_attributes(self, indexUid: IndexUid) -> list[str]:
        """Get the attributes search results may be sorted by.

        Args:
            indexUid: Unique identifier of the index
        """
        return self._index(indexUid).settings.sortableAttributes

    @tool(read_only=False, idempotent=True, name="update-searchable-attributes")
    def update_searchable_attributes(self, indexUid: IndexUid, value: str) -> dict:
        """Set the searchable attributes of an index. Enqueues a task.

        Args:
            indexUid: Unique identifier of the index
            value: JSON array of attribute names, e.g. ["name", "category"]
        """
        return self._set_settings(indexUid, {"searchableAttributes": _names(value, "value")})

    @tool(read_only=False, idempotent=True, name="update-filterable-attributes")
    def update_filterable_attributes(self, indexUid: IndexUid, value: str) -> dict:
        """Set the filterable attributes of an index (what filter and facets may use). Enqueues a task.

        Args:
            indexUid: Unique identifier of the index
            value: JSON array of attribute names, e.g. ["category", "price"]
        """
        return self._set_settings(indexUid, {"filterableAttributes": _names(value, "value")})

    @tool(read_only=False, idempotent=True, name="update-sortable-attributes")
    def update_sortable_attributes(self, indexUid: IndexUid, value: str) -> dict:
        """Set the sortable attributes of an index. Enqueues a task.

        Args:
            indexUid: Unique identifier of the index
            value: JSON array of attribute names, e.g. ["price"]
        """
        return self._set_settings(indexUid, {"sortableAttributes": _names(value, "value")})

    # ------------------------------------------------------------------ tasks
    @tool(read_only=True, name="list-tasks", returns=list[Task])
    def list_tasks(self, limit: int = Field(default=20, ge=1, le=1000), statuses: Optional[list[TaskStatus]] = None,
                   types: Optional[list[TaskType]] = None, indexUids: Optional[list[str]] = None,
                   uids: Optional[list[int]] = None) -> dict:
        """List tasks, newest first, filtered by status, type, index or uid.

        Args:
            limit: Maximum number of tasks to return
            statuses: Only tasks with one of these statuses
            types: Only tasks of one of these types
            indexUids: Only tasks on one of these indexes
            uids: Only these task uids
        """
        rows = [t for t in reversed(list(self.state.tasks.values()))
                if (statuses is None or t.status in statuses) and (types is None or t.type in types)
                and (indexUids is None or t.indexUid in indexUids) and (uids is None or t.uid in uids)]
        return {"results": [t.model_dump() for t in rows[:limit]], "total": len(rows), "limit": limit}

    @tool(read_only=True, name="get-task", returns=Task)
    def get_task(self, taskUid: int = Field(ge=0)) -> dict:
        """Get one task with its status, details and, for a failed one, the error.

        Args:
            taskUid: Unique identifier of the task
        """
        task = self.state.tasks.get(str(taskUid))
        if task is None:
            raise NotFound(f"task_not_found: Task `{taskUid}` not found; call list-tasks for valid uids.")
        return task.model_dump()

    @tool(read_only=True, name="wait-for-task", returns=Task)
    def wait_for_task(self, taskUid: int = Field(ge=0), timeoutMs: int = Field(default=5000, ge=0),
                      intervalMs: int = Field(default=50, ge=1)) -> dict:
        """Wait until a task is finished and return it (tasks here finish as soon as they are enqueued).

        Args:
            taskUid: Unique identifier of the task
            timeoutMs: Maximum time to wait in milliseconds
            intervalMs: Polling interval in milliseconds
        """
        return self.get_task(taskUid)

    # ------------------------------------------------------------------- keys
    @tool(read_only=True, name="list-keys", returns=list[ApiKey])
    def list_keys(self) -> list[dict]:
        """List API keys with their actions, indexes and expiry."""
        return [k.model_dump() for k in self.state.keys.values()]

    @tool(read_only=False, name="create-key", returns=ApiKey)
    def create_key(self, name: str = Field(min_length=1, max_length=100), actions: list[KeyAction] = Field(min_length=1),
                   indexes: list[str] = Field(min_length=1), description: str = "",
                   expiresAt: Optional[dt.datetime] = None) -> dict:
        """Create an API key allowed the given actions on the given indexes (['*'] = all).

        Args:
            name: Human-readable key name
            actions: Allowed actions, e.g. ["search"] or ["documents.add", "documents.get"]
            indexes: Index uids the key may use, or ["*"]
            description: What the key is for
            expiresAt: Expiry time (ISO 8601); omit for a key that never expires
        """
        now = self.now()
        if expiresAt is not None and expiresAt.replace(tzinfo=None) <= now:
            raise Unprocessable(f"invalid_api_key_expires_at: expiresAt {expiresAt.isoformat()} is not in the future.")
        unknown = [i for i in indexes if i != "*" and i not in self.state.indexes]
        if unknown:
            raise NotFound(f"index_not_found: unknown index(es) {unknown}; call list-indexes for valid uids.")
        if any(k.name == name for k in self.state.keys.values()):
            raise Conflict(f"api_key_already_exists: a key named {name!r} already exists.")
        seq = len(self.state.keys) + 1
        uid = str(uuid.uuid5(uuid.NAMESPACE_URL, f"meilisearch-key:{seq}:{name}"))
        key = ApiKey(uid=uid, key=uuid.uuid5(uuid.NAMESPACE_OID, uid).hex * 2, name=name, description=description,
                     actions=list(dict.fromkeys(actions)), indexes=list(dict.fromkeys(indexes)),
                     expiresAt=expiresAt.replace(tzinfo=None) if expiresAt else None, createdAt=now)
        self.state.keys[uid] = key
        return key.model_dump()
