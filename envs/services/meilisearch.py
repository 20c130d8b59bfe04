"""Meilisearch: indexes, documents, filtered search, settings, tasks and API keys.

Follows the MCP server ``@devlimelabs_meilisearch-ts-mcp`` (tool names,
parameters and JSON types as it defines them; list-valued arguments such as
``documents`` or ``value`` are JSON text, as in that server). Behaviour
follows the Meilisearch REST API: an index has a primary key (set at
creation, or inferred from the first documents as the one attribute ending
in ``id``) and settings; adding documents to a missing index creates it;
``filter`` and ``facets`` may only use ``filterableAttributes`` and ``sort``
only ``sortableAttributes`` (else 400 ``invalid_search_filter`` /
``invalid_search_sort``); every write enqueues a task and answers with its
summary (``status: enqueued``); the queue is processed at once, so
``get-task`` shows it ``succeeded``. Where the real server would let such a
task fail later (a document without its primary key, a primary-key change on
an index holding documents), this service refuses the call itself (422/409)
and changes nothing.

The seed holds a ``products`` index (the shared catalog's SKUs) and a
``help-centre`` index (the operations manual's published articles under their
knowledge_base ids); see ``_meilisearch_seed``.

Implemented: list-indexes, get-index, create-index, update-index,
delete-index, get-documents, get-document, add-documents, update-documents,
delete-document, delete-documents, delete-all-documents, search,
facet-search, get-settings, update-settings, get/update of the searchable,
filterable and sortable attributes, stats, list-tasks, get-task,
wait-for-task; designed beyond the spec: list-keys and create-key (the spec
has no key tools). Left out, as they hold no records this service keeps or
only repeat the above: vector search and embedders (no vectors are stored),
experimental features, health/version/info, multi-search and swap-indexes,
the reset-* tools and the settings without a rule here (ranking rules, stop
words, synonyms, typo tolerance, faceting, pagination, distinct and displayed
attributes are reported by get-settings and set by update-settings),
get-tasks, delete-tasks and cancel-tasks (tasks finish at once, so there is
nothing to cancel). ``list-tasks`` omits the spec's ``from`` cursor (a Python
keyword); it pages with ``limit`` newest first.
"""

from __future__ import annotations

import datetime as dt
import random
from typing import Optional

from faker import Faker
from pydantic import Field

from compoworld_gym.envs.services._meilisearch_base import IndexUid, MeilisearchBase, _doc_id, _json
from compoworld_gym.envs.services._meilisearch_filter import compile_filter
from compoworld_gym.envs.services._meilisearch_models import Index, MeilisearchState
from compoworld_gym.envs.services._meilisearch_search import facet_distribution, match, project, sort_docs
from compoworld_gym.envs.services._meilisearch_seed import build_state, document_key
from compoworld_gym.errors import Conflict, NotFound
from compoworld_gym.service import tool


class Meilisearch(MeilisearchBase):
    """A Meilisearch instance: indexes, documents, search, settings, tasks and keys."""

    name = "meilisearch"
    description = ("Meilisearch search engine: indexes with primary keys and settings, documents, filtered and "
                   "faceted search, asynchronous tasks and API keys.")
    domain = "data"
    spec_source = "@devlimelabs_meilisearch-ts-mcp"
    designed_tools = frozenset({"list-keys", "create-key"})

    @classmethod
    def build_seed_state(cls, fake: Faker, rng: random.Random, today: dt.date) -> MeilisearchState:
        return build_state(rng, today)

    # ---------------------------------------------------------------- indexes
    @tool(read_only=True, name="list-indexes", returns=list[Index])
    def list_indexes(self, limit: int = Field(default=20, ge=1, le=100), offset: int = Field(default=0, ge=0)) -> dict:
        """List all indexes with their primary key and dates.

        Args:
            limit: Maximum number of indexes to return
            offset: Number of indexes to skip
        """
        rows = sorted(self.state.indexes.values(), key=lambda i: i.uid)
        return {"results": [self._index_view(i) for i in rows[offset:offset + limit]], "offset": offset,
                "limit": limit, "total": len(rows)}

    @tool(read_only=True, name="get-index", returns=Index)
    def get_index(self, indexUid: IndexUid) -> dict:
        """Get an index: uid, primary key, creation and update times.

        Args:
            indexUid: Unique identifier of the index
        """
        return self._index_view(self._index(indexUid))

    @tool(read_only=False, name="create-index")
    def create_index(self, indexUid: IndexUid, primaryKey: Optional[str] = None) -> dict:
        """Create an empty index, optionally with its primary key. Enqueues a task.

        Args:
            indexUid: Unique identifier for the new index (letters, digits, '-' and '_')
            primaryKey: Primary key for the index; inferred from the first documents when omitted
        """
        if indexUid in self.state.indexes:
            raise Conflict(f"index_already_exists: Index `{indexUid}` already exists.")
        self._new_index(indexUid, primaryKey)
        return self._enqueue(indexUid, "indexCreation", {"primaryKey": primaryKey})

    @tool(read_only=False, idempotent=True, name="update-index")
    def update_index(self, indexUid: IndexUid, primaryKey: str = Field(min_length=1)) -> dict:
        """Change the primary key of an index; refused (409) once the index holds documents. Enqueues a task.

        Args:
            indexUid: Unique identifier of the index
            primaryKey: New primary key for the index
        """
        index = self._index(indexUid)
        if index.primaryKey != primaryKey and self._docs(indexUid):
            raise Conflict(f"index_primary_key_already_exists: index `{indexUid}` holds documents; its primary key "
                           f"`{index.primaryKey}` can no longer change.")
        index.primaryKey = primaryKey
        return self._enqueue(indexUid, "indexUpdate", {"primaryKey": primaryKey})

    @tool(read_only=False, destructive=True, name="delete-index")
    def delete_index(self, indexUid: IndexUid) -> dict:
        """Delete an index with all its documents and settings. Enqueues a task.

        Args:
            indexUid: Unique identifier of the index to delete
        """
        self._index(indexUid)
        gone = [k for k, d in self.state.documents.items() if d.indexUid == indexUid]
        for k in gone:
            del self.state.documents[k]
        del self.state.indexes[indexUid]
        return self._enqueue(indexUid, "indexDeletion", {"deletedDocuments": len(gone)})

    # -------------------------------------------------------------- documents
    @tool(read_only=True, name="get-documents")
    def get_documents(self, indexUid: IndexUid, limit: int = Field(default=20, ge=1, le=1000),
                      offset: int = Field(default=0, ge=0), fields: Optional[list[str]] = None,
                      filter: Optional[str] = None) -> dict:
        """Browse the documents of an index, optionally filtered (filterable attributes only).

        Args:
            indexUid: Unique identifier of the index
            limit: Maximum number of documents to return (default: 20)
            offset: Number of documents to skip (default: 0)
            fields: Fields to return in the documents
            filter: Filter query to apply, e.g. "category = furniture AND price < 300"
        """
        index = self._index(indexUid)
        docs = self._docs(indexUid)
        if filter:
            keep = compile_filter(filter, index.settings.filterableAttributes)
            docs = [d for d in docs if keep(d.fields)]
        page = docs[offset:offset + limit]
        return {"results": [project(d.fields, fields, ["*"]) for d in page], "offset": offset, "limit": limit,
                "total": len(docs)}

    @tool(read_only=True, name="get-document")
    def get_document(self, indexUid: IndexUid, documentId: str, fields: Optional[list[str]] = None) -> dict:
        """Get one document by its primary-key value.

        Args:
            indexUid: Unique identifier of the index
            documentId: ID of the document to retrieve (e.g. a SKU in the products index)
            fields: Fields to return in the document
        """
        self._index(indexUid)
        doc = self.state.documents.get(document_key(indexUid, documentId))
        if doc is None:
            raise NotFound(f"document_not_found: Document `{documentId}` not found in index `{indexUid}`; "
                           "call search or get-documents to find valid ids.")
        return project(doc.fields, fields, ["*"])

    @tool(read_only=False, idempotent=True, name="add-documents")
    def add_documents(self, indexUid: IndexUid, documents: str, primaryKey: Optional[str] = None) -> dict:
        """Add or replace documents (a document with an existing id is replaced whole). Creates a missing index.

        Args:
            indexUid: Unique identifier of the index
            documents: JSON array of documents to add
            primaryKey: Primary key for the documents (only when the index has none yet)
        """
        return self._write_docs(indexUid, documents, primaryKey, merge=False)

    @tool(read_only=False, idempotent=True, name="update-documents")
    def update_documents(self, indexUid: IndexUid, documents: str, primaryKey: Optional[str] = None) -> dict:
        """Add or partially update documents: given attributes are merged into an existing document.

        Args:
            indexUid: Unique identifier of the index
            documents: JSON array of documents (each with its primary key) to update
            primaryKey: Primary key for the documents (only when the index has none yet)
        """
        return self._write_docs(indexUid, documents, primaryKey, merge=True)

    def _delete(self, uid: str, ids: list[str]) -> dict:
        self._index(uid)
        keys = [document_key(uid, i) for i in dict.fromkeys(ids) if document_key(uid, i) in self.state.documents]
        for k in keys:
            del self.state.documents[k]
        return self._enqueue(uid, "documentDeletion", {"providedIds": len(ids), "deletedDocuments": len(keys)})

    @tool(read_only=False, destructive=True, idempotent=True, name="delete-document")
    def delete_document(self, indexUid: IndexUid, documentId: str) -> dict:
        """Delete one document by id (an unknown id deletes nothing, as in Meilisearch). Enqueues a task.

        Args:
            indexUid: Unique identifier of the index
            documentId: ID of the document to delete
        """
        return self._delete(indexUid, [documentId])

    @tool(read_only=False, destructive=True, idempotent=True, name="delete-documents")
    def delete_documents(self, indexUid: IndexUid, documentIds: str) -> dict:
        """Delete several documents by id. Enqueues a task.

        Args:
            indexUid: Unique identifier of the index
            documentIds: JSON array of document IDs to delete
        """
        ids = _json(documentIds, "documentIds", list)
        return self._delete(indexUid, [_doc_id(i, "documentIds") for i in ids])

    @tool(read_only=False, destructive=True, idempotent=True, name="delete-all-documents")
    def delete_all_documents(self, indexUid: IndexUid) -> dict:
        """Delete every document of an index, keeping the index and its settings. Enqueues a task.

        Args:
            indexUid: Unique identifier of the index
        """
        return self._delete(indexUid, [d.id for d in self._docs(indexUid)])

    # ----------------------------------------------------------------- search
    @tool(read_only=True, name="search")
    def search(self, indexUid: IndexUid, q: str, limit: int = Field(default=20, ge=1, le=1000),
               offset: int = Field(default=0, ge=0), filter: Optional[str] = None, sort: Optional[list[str]] = None,
               facets: Optional[list[str]] = None, attributesToRetrieve: Optional[list[str]] = None,
               matchingStrategy: str = "last") -> dict:
        """Search an index: words of q match searchable attributes by prefix; filter, sort and facets as in Meilisearch.

        Args:
            indexUid: Unique identifier of the index
            q: Search query ("" returns every document)
            limit: Maximum number of results to return (default: 20)
            offset: Number of results to skip (default: 0)
            filter: Filter on filterable attributes, e.g. "category IN [electronics] AND price < 100"
            sort: Sortable attributes to sort by, e.g. ["price:asc"]
            facets: Filterable attributes whose value counts to return
            attributesToRetrieve: Attributes to include in results
            matchingStrategy: Matching strategy: 'all' or 'last'
        """
        index = self._index(indexUid)
        settings = index.settings
        docs = self._docs(indexUid)
        if filter:
            keep = compile_filter(filter, settings.filterableAttributes)
            docs = [d for d in docs if keep(d.fields)]
        hits = sort_docs(match(docs, q, settings, matchingStrategy), sort, settings.sortableAttributes)
        out = {"hits": [project(d.fields, attributesToRetrieve, settings.displayedAttributes)
                        for d in hits[offset:offset + limit]],
               "query": q, "processingTimeMs": 0, "limit": limit, "offset": offset, "estimatedTotalHits": len(hits)}
        if facets:
            out["facetDistribution"] = facet_distribution(hits, facets, settings.filterableAttributes)
        return out

    @tool(read_only=True, name="facet-search")
    def facet_search(self, indexUid: IndexUid, facetName: str, facetQuery: Optional[str] = None,
                     filter: Optional[str] = None) -> dict:
        """Values of a filterable attribute with their document counts, optionally those starting with facetQuery.

        Args:
            indexUid: Unique identifier of the index
            facetName: Name of the facet (a filterable attribute)
            facetQuery: Only facet values starting with this text (case-insensitive)
            filter: Filter on filterable attributes applied before counting
        """
        index = self._index(indexUid)
        docs = self._docs(indexUid)
        if filter:
            keep = compile_filter(filter, index.settings.filterableAttributes)
            docs = [d for d in docs if keep(d.fields)]
        counts = facet_distribution(docs, [facetName], index.settings.filterableAttributes)[facetName]
        prefix = (facetQuery or "").casefold()
        return {"facetHits": [{"value": v, "count": n} for v, n in counts.items() if v.casefold().startswith(prefix)],
                "facetQuery": facetQuery, "processingTimeMs": 0}

    @tool(read_only=True, name="stats")
    def stats(self, indexUid: Optional[IndexUid] = None) -> dict:
        """Document counts and field distribution of one index, or of every index.

        Args:
            indexUid: Unique identifier of the index (omit for all indexes)
        """
        uids = [self._index(indexUid).uid] if indexUid else sorted(self.state.indexes)
        out = {}
        for uid in uids:
            docs = self._docs(uid)
            dist: dict[str, int] = {}
            for d in docs:
                for f in d.fields:
                    dist[f] = dist.get(f, 0) + 1
            out[uid] = {"numberOfDocuments": len(docs), "isIndexing": False, "fieldDistribution": dict(sorted(dist.items()))}
        if indexUid:
            return out[indexUid]
        return {"indexes": out, "lastUpdate": max((i.updatedAt for i in self.state.indexes.values()), default=None)}
