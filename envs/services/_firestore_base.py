"""The shared part of the firestore service: helpers (create, update, delete,
field transforms) and the collection listing tools; ``firestore.py`` holds the
document, query, batch and transform tools and documents the behaviour.
"""

from __future__ import annotations

from typing import Any, Optional

from compoworld_gym.envs.services._firestore_models import (
    ArrayRemoveOp, ArrayUnionOp, CreateOp, DeleteOp, FirestoreState, FsDocument, IncrementOp, ServerTimestampOp,
    UpdateOp,
)
from compoworld_gym.envs.services._firestore_rules import delete_field, get_field, segments, set_field
from compoworld_gym.envs.services._firestore_seed import auto_id
from compoworld_gym.errors import Conflict, InvalidArgument, NotFound
from compoworld_gym.service import Service, tool

#: Most writes one batch or transaction may hold (Firestore's limit).
MAX_BATCH = 500


class FirestoreBase(Service, register=False):
    """Helpers of the firestore tools, and its collection listing tools."""

    State = FirestoreState

    # ---------------------------------------------------------------- helpers
    @staticmethod
    def _view(doc: FsDocument) -> dict[str, Any]:
        return doc.model_dump(include={"id", "path", "data", "createTime", "updateTime"})

    def _doc(self, path: str) -> FsDocument:
        path = "/".join(segments(path, "document"))
        doc = self.state.documents.get(path)
        if doc is None:
            raise NotFound(f"NOT_FOUND: no document at {path!r}; list its collection to find valid ids.")
        return doc

    def _in(self, collection_path: str) -> list[FsDocument]:
        path = "/".join(segments(collection_path, "collection"))
        return sorted((d for d in self.state.documents.values() if d.collectionPath == path), key=lambda d: d.id)

    def _create(self, collection_path: str, data: dict[str, Any], doc_id: Optional[str]) -> FsDocument:
        parts = segments(collection_path, "collection")
        doc_id_given = doc_id
        while doc_id is None or (doc_id_given is None and "/".join([*parts, doc_id]) in self.state.documents):
            n = self.state.counters.get("auto", 1)
            self.state.counters["auto"] = n + 1
            doc_id = auto_id(f"auto:{'/'.join(parts)}:{n}")  # drawn again on the (unlikely) clash with a seeded id
        path = "/".join(segments("/".join([*parts, doc_id]), "document"))
        if path in self.state.documents:
            raise Conflict(f"ALREADY_EXISTS: document {path!r} already exists; update it instead.")
        when = self.now()
        doc = FsDocument(path=path, id=doc_id, collectionPath="/".join(parts), data=dict(data), createTime=when,
                         updateTime=when)
        self.state.documents[path] = doc
        return doc

    def _touch(self, doc: FsDocument) -> FsDocument:
        doc.updateTime = self.now()
        doc.data = dict(doc.data)  # re-validated with the state, so a non-JSON value is refused
        return doc

    def _update(self, path: str, data: dict[str, Any]) -> FsDocument:
        doc = self._doc(path)
        for key, value in data.items():
            set_field(doc.data, key, value)
        return self._touch(doc)

    def _delete(self, path: str) -> dict[str, Any]:
        path = "/".join(segments(path, "document"))
        existed = self.state.documents.pop(path, None) is not None
        return {"path": path, "deleted": existed}

    def _write(self, op: CreateOp | UpdateOp | DeleteOp) -> dict[str, Any]:
        if isinstance(op, CreateOp):
            return {"type": "create", "path": self._create(op.collectionPath, op.data, op.documentId).path}
        if isinstance(op, UpdateOp):
            return {"type": "update", "path": self._update(op.documentPath, op.data).path}
        return {"type": "delete", **self._delete(op.documentPath)}

    def _field_op(self, op: Any) -> dict[str, Any]:
        doc = self._doc(op.documentPath)
        if isinstance(op, IncrementOp):
            have = get_field(doc.data, op.field)
            number = isinstance(have, (int, float)) and not isinstance(have, bool)
            total = have + op.incrementBy if number else op.incrementBy
            set_field(doc.data, op.field, int(total) if float(total).is_integer() else total)
        elif isinstance(op, (ArrayUnionOp, ArrayRemoveOp)):
            have = get_field(doc.data, op.field)
            items = list(have) if isinstance(have, list) else []
            if isinstance(op, ArrayUnionOp):
                for e in op.elements:
                    if e not in items:
                        items.append(e)
            else:
                items = [x for x in items if x not in op.elements]
            set_field(doc.data, op.field, items)
        elif isinstance(op, ServerTimestampOp):
            stamp = self.now().isoformat() + "Z"
            for f in op.fields:
                set_field(doc.data, f, stamp)
        else:
            for f in op.fields:
                delete_field(doc.data, f)
        return {"type": op.type, "path": self._touch(doc).path}

    @staticmethod
    def _cap(ops: list[Any]) -> None:
        if not ops or len(ops) > MAX_BATCH:
            raise InvalidArgument(f"INVALID_ARGUMENT: a batch needs 1 to {MAX_BATCH} operations, got {len(ops)}.")

    # ------------------------------------------------------------ collections
    @tool(read_only=True, name="firestore-list-collections")
    def list_collections(self) -> list[dict]:
        """List the root collections with their document counts."""
        counts: dict[str, int] = {}
        for d in self.state.documents.values():
            if "/" not in d.collectionPath:
                counts[d.collectionPath] = counts.get(d.collectionPath, 0) + 1
        return [{"id": c, "path": c, "documentCount": n} for c, n in sorted(counts.items())]

    @tool(read_only=True, name="firestore-get-collection", returns=list[FsDocument])
    def get_collection(self, collectionId: str) -> list[dict]:
        """Get the documents of a root collection, by document id.

        Args:
            collectionId: The ID of the collection, e.g. 'customers'
        """
        return [self._view(d) for d in self._in(collectionId)]

    @tool(read_only=True, name="firestore-get-collection-by-path", returns=list[FsDocument])
    def get_collection_by_path(self, collectionPath: str) -> list[dict]:
        """Get the documents of a collection by its full path (subcollections too).

        Args:
            collectionPath: Full collection path, e.g. 'customers/ann@example.com/devices'
        """
        return [self._view(d) for d in self._in(collectionPath)]

    @tool(read_only=True, name="firestore-list-subcollections")
    def list_subcollections(self, documentPath: str) -> list[dict]:
        """List the subcollections under a document (they may exist even when the document does not).

        Args:
            documentPath: Full document path, e.g. 'customers/ann@example.com'
        """
        base = "/".join(segments(documentPath, "document")) + "/"
        found = sorted({d.collectionPath for d in self.state.documents.values()
                        if d.collectionPath.startswith(base) and "/" not in d.collectionPath[len(base):]})
        return [{"id": c.rsplit("/", 1)[1], "path": c} for c in found]
