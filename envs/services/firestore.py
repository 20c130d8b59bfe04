"""Firestore: documents by path in collections and subcollections, where-clause
queries, batched and transactional writes, and field transforms.

Follows the MCP server ``@devlimelabs_firestore-mcp`` (all 23 of its tool
names, parameters and JSON types). Behaviour follows the Cloud Firestore
API: a collection exists while it holds documents; ``create`` refuses an
existing id (409 ALREADY_EXISTS) and gives a 20-character id when none is
passed; ``update`` needs the document (404 NOT_FOUND) and treats dotted keys
as field paths into maps; ``delete`` of a missing document succeeds and
never deletes subcollections; a batch or transaction is atomic (one failing
operation changes nothing, at most 500 writes); increment, arrayUnion and
arrayRemove behave as the FieldValue transforms (a missing or non-numeric
field is set to the increment). Query rules are in ``_firestore_rules``.

Left out: ``firestore-transaction``'s ``conditionScript`` parameter (a
JavaScript condition: nothing here evaluates JavaScript; callers read in the
same transaction and decide). Seed data is described in ``_firestore_seed``
(customers keyed by email are the shared store customers).
"""

from __future__ import annotations

import datetime as dt
import random
from typing import Annotated, Any, Optional

from faker import Faker
from pydantic import Field

from compoworld_gym.envs.services._firestore_base import FirestoreBase
from compoworld_gym.envs.services._firestore_models import (
    ArrayRemoveOp, ArrayUnionOp, DeleteFieldOp, FieldOp, FsDocument, IncrementOp, OrderBy, QueryFilter,
    ServerTimestampOp, WriteOp,
)
from compoworld_gym.envs.services._firestore_rules import run_query, segments
from compoworld_gym.envs.services._firestore_seed import build_state
from compoworld_gym.service import tool

Data = dict[str, Any]


class Firestore(FirestoreBase):
    """A Cloud Firestore database of a mobile shop app."""

    name = "firestore"
    description = ("Cloud Firestore document database: collections and documents by path, where-clause queries, "
                   "batched writes, transactions and field transforms.")
    domain = "data"
    spec_source = "@devlimelabs_firestore-mcp"

    @classmethod
    def build_seed_state(cls, fake: Faker, rng: random.Random, today: dt.date):
        return build_state(fake, rng, today)

    # -------------------------------------------------------------- documents
    @tool(read_only=True, name="firestore-get-document", returns=FsDocument)
    def get_document(self, collectionId: str, documentId: str) -> dict:
        """Get a document of a root collection (customers are keyed by email).

        Args:
            collectionId: The ID of the collection
            documentId: The ID of the document
        """
        return self._view(self._doc(f"{collectionId}/{documentId}"))

    @tool(read_only=True, name="firestore-get-document-by-path", returns=FsDocument)
    def get_document_by_path(self, documentPath: str) -> dict:
        """Get a document by its full path (subcollections too).

        Args:
            documentPath: Full document path, e.g. 'customers/ann@example.com/devices/abc'
        """
        return self._view(self._doc(documentPath))

    @tool(read_only=False, name="firestore-create-document", returns=FsDocument)
    def create_document(self, collectionId: str, data: Data, documentId: Optional[str] = None) -> dict:
        """Create a document; refused (409) when the id exists. Without an id a 20-character id is made.

        Args:
            collectionId: The ID of the collection
            documentId: Optional document ID (auto-generated when omitted)
            data: The document's fields
        """
        return self._view(self._create(collectionId, data, documentId))

    @tool(read_only=False, name="firestore-create-document-by-path", returns=FsDocument)
    def create_document_by_path(self, collectionPath: str, data: Data, documentId: Optional[str] = None) -> dict:
        """Create a document in a collection given by full path; refused (409) when the id exists.

        Args:
            collectionPath: Full collection path
            data: The document's fields
            documentId: Optional document ID (auto-generated when omitted)
        """
        return self._view(self._create(collectionPath, data, documentId))

    @tool(read_only=False, idempotent=True, name="firestore-update-document", returns=FsDocument)
    def update_document(self, collectionId: str, documentId: str, data: Data) -> dict:
        """Update fields of an existing document (404 if missing); dotted keys reach into maps.

        Args:
            collectionId: The ID of the collection
            documentId: The ID of the document
            data: Fields to set, e.g. {"loyaltyTier": "gold", "address.city": "Austin"}
        """
        return self._view(self._update(f"{collectionId}/{documentId}", data))

    @tool(read_only=False, idempotent=True, name="firestore-update-document-by-path", returns=FsDocument)
    def update_document_by_path(self, documentPath: str, data: Data) -> dict:
        """Update fields of an existing document given by full path (404 if missing).

        Args:
            documentPath: Full document path
            data: Fields to set; dotted keys reach into maps
        """
        return self._view(self._update(documentPath, data))

    @tool(read_only=False, destructive=True, idempotent=True, name="firestore-delete-document")
    def delete_document(self, collectionId: str, documentId: str) -> dict:
        """Delete a document (a missing one is no error; subcollections stay, as in Firestore).

        Args:
            collectionId: The ID of the collection
            documentId: The ID of the document
        """
        return self._delete(f"{collectionId}/{documentId}")

    @tool(read_only=False, destructive=True, idempotent=True, name="firestore-delete-document-by-path")
    def delete_document_by_path(self, documentPath: str) -> dict:
        """Delete a document given by full path (a missing one is no error).

        Args:
            documentPath: Full document path
        """
        return self._delete(documentPath)

    # ---------------------------------------------------------------- queries
    @tool(read_only=True, name="firestore-query-collection", returns=list[FsDocument])
    def query_collection(self, collectionId: str, filters: list[QueryFilter],
                         limit: Optional[int] = Field(default=None, ge=1, le=1000),
                         orderBy: Optional[OrderBy] = None) -> list[dict]:
        """Query a root collection with where clauses (all must hold), optional order and limit.

        Args:
            collectionId: The ID of the collection
            filters: Where clauses: field, operator (==, !=, <, <=, >, >=, array-contains, in, array-contains-any, not-in), value
            limit: Maximum number of results to return
            orderBy: Order specification; documents lacking the field are left out
        """
        return [self._view(d) for d in run_query(self._in(collectionId), filters, orderBy, limit)]

    @tool(read_only=True, name="firestore-query-collection-by-path", returns=list[FsDocument])
    def query_collection_by_path(self, collectionPath: str, filters: list[QueryFilter],
                                 limit: Optional[int] = Field(default=None, ge=1, le=1000),
                                 orderBy: Optional[OrderBy] = None) -> list[dict]:
        """Query a collection given by full path with where clauses, optional order and limit.

        Args:
            collectionPath: Full collection path
            filters: Where clauses (field, operator, value); all must hold
            limit: Maximum number of results to return
            orderBy: Order specification; documents lacking the field are left out
        """
        return [self._view(d) for d in run_query(self._in(collectionPath), filters, orderBy, limit)]

    # -------------------------------------------------------- batches, txns
    @tool(read_only=False, destructive=True, name="firestore-batch-write")
    def batch_write(self, operations: list[WriteOp]) -> dict:
        """Apply create/update/delete operations atomically: one failing operation applies none.

        Args:
            operations: Array of write operations to execute (at most 500)
        """
        self._cap(operations)
        return {"success": True, "results": [self._write(op) for op in operations]}

    @tool(read_only=True, name="firestore-batch-read")
    def batch_read(self, documentPaths: list[str] = Field(min_length=1, max_length=500)) -> list[dict]:
        """Read several documents by full path; a missing one is reported with exists false.

        Args:
            documentPaths: Full document paths
        """
        out = []
        for path in documentPaths:
            doc = self.state.documents.get("/".join(segments(path, "document")))
            out.append({"path": path, "exists": doc is not None, **({"document": self._view(doc)} if doc else {})})
        return out

    @tool(read_only=False, destructive=True, name="firestore-transaction")
    # Not named `transaction`: Service.transaction is the class that makes calls atomic.
    def run_transaction(self, reads: list[str], operations: list[WriteOp]) -> dict:
        """Read documents and apply writes in one atomic transaction (reads see the state before the writes).

        Args:
            reads: Document paths to read in the transaction
            operations: Write operations to execute (at most 500)
        """
        self._cap(operations)
        snapshot = self.batch_read(reads) if reads else []
        return {"reads": snapshot, "results": [self._write(op) for op in operations]}

    # ------------------------------------------------------------- transforms
    @tool(read_only=False, name="firestore-increment-field", returns=FsDocument)
    def increment_field(self, documentPath: str, field: Annotated[str, Field(min_length=1)], incrementBy: float) -> dict:
        """Atomically add to a numeric field (a missing or non-numeric field becomes incrementBy).

        Args:
            documentPath: Full document path
            field: Field to increment (dots reach into maps)
            incrementBy: Amount to add (negative to subtract)
        """
        self._field_op(IncrementOp(type="increment", documentPath=documentPath, field=field, incrementBy=incrementBy))
        return self._view(self._doc(documentPath))

    @tool(read_only=False, idempotent=True, name="firestore-array-union", returns=FsDocument)
    def array_union(self, documentPath: str, field: str = Field(min_length=1), elements: list[Any] = Field(min_length=1)) -> dict:
        """Add elements to an array field, skipping ones already present.

        Args:
            documentPath: Full path to the document
            field: Array field name
            elements: Elements to add to the array
        """
        self._field_op(ArrayUnionOp(type="arrayUnion", documentPath=documentPath, field=field, elements=elements))
        return self._view(self._doc(documentPath))

    @tool(read_only=False, idempotent=True, name="firestore-array-remove", returns=FsDocument)
    def array_remove(self, documentPath: str, field: str = Field(min_length=1), elements: list[Any] = Field(min_length=1)) -> dict:
        """Remove every occurrence of the elements from an array field.

        Args:
            documentPath: Full path to the document
            field: Array field name
            elements: Elements to remove from the array
        """
        self._field_op(ArrayRemoveOp(type="arrayRemove", documentPath=documentPath, field=field, elements=elements))
        return self._view(self._doc(documentPath))

    @tool(read_only=False, name="firestore-server-timestamp", returns=FsDocument)
    def server_timestamp(self, documentPath: str, fields: list[str] = Field(min_length=1)) -> dict:
        """Set fields to the server's current time (ISO 8601, UTC).

        Args:
            documentPath: Full document path
            fields: Fields to set to the server timestamp
        """
        self._field_op(ServerTimestampOp(type="serverTimestamp", documentPath=documentPath, fields=fields))
        return self._view(self._doc(documentPath))

    @tool(read_only=False, destructive=True, idempotent=True, name="firestore-delete-field", returns=FsDocument)
    def delete_field(self, documentPath: str, fields: list[str] = Field(min_length=1)) -> dict:
        """Remove fields from a document (absent ones are ignored).

        Args:
            documentPath: Full document path
            fields: Fields to delete
        """
        self._field_op(DeleteFieldOp(type="deleteField", documentPath=documentPath, fields=fields))
        return self._view(self._doc(documentPath))

    @tool(read_only=False, destructive=True, name="firestore-field-value-batch")
    def field_value_batch(self, operations: list[FieldOp]) -> dict:
        """Apply field transforms (increment, arrayUnion, arrayRemove, serverTimestamp, deleteField) atomically.

        Args:
            operations: Array of field value operations to execute (at most 500)
        """
        self._cap(operations)
        return {"success": True, "results": [self._field_op(op) for op in operations]}
