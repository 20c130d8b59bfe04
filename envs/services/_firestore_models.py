"""Records, state and operation shapes of the firestore service (see ``firestore.py``)."""

from __future__ import annotations

from typing import Annotated, Any, Literal, Optional, Union

from pydantic import BaseModel, ConfigDict, Field

from compoworld_gym.entities import DateTime
from compoworld_gym.service import Record, ServiceState

FilterOp = Literal["==", "!=", ">", ">=", "<", "<=", "array-contains", "in", "array-contains-any", "not-in"]


class FsDocument(Record):
    """One document, stored under its full path (``customers/ann@x.co`` or ``customers/ann@x.co/devices/d1``)."""

    path: str = Field(description="Full document path: collection/doc[/collection/doc...].")
    id: str = Field(description="Document id (the last path segment).")
    collectionPath: str = Field(description="Path of the collection holding it.")
    data: dict[str, Any] = Field(description="The document's fields (JSON values; maps nest).")
    createTime: DateTime = Field(description="When it was created.")
    updateTime: DateTime = Field(description="When it last changed.")


class FirestoreState(ServiceState):
    """All documents of the database by path; collections exist while they hold documents."""

    documents: dict[str, FsDocument] = Field(default_factory=dict, description="Documents by full path.")


class QueryFilter(Record):
    """One where clause: field path, operator, value."""

    field: str = Field(min_length=1, description="Field path to filter on (dots reach into maps).")
    operator: FilterOp = Field(description="Comparison operator.")
    value: Any = Field(default=None, description="Value to compare against (an array for in / not-in / -any).")


class OrderBy(Record):
    """Sort specification of a query."""

    field: str = Field(min_length=1, description="Field to order by.")
    direction: Literal["asc", "desc"] = Field(description="Sort direction.")


class _Op(BaseModel):
    model_config = ConfigDict(extra="forbid")


class CreateOp(_Op):
    type: Literal["create"]
    collectionPath: str
    documentId: Optional[str] = None
    data: dict[str, Any]


class UpdateOp(_Op):
    type: Literal["update"]
    documentPath: str
    data: dict[str, Any]


class DeleteOp(_Op):
    type: Literal["delete"]
    documentPath: str


WriteOp = Annotated[Union[CreateOp, UpdateOp, DeleteOp], Field(discriminator="type")]


class IncrementOp(_Op):
    type: Literal["increment"]
    documentPath: str
    field: str
    incrementBy: float


class ArrayUnionOp(_Op):
    type: Literal["arrayUnion"]
    documentPath: str
    field: str
    elements: list[Any]


class ArrayRemoveOp(_Op):
    type: Literal["arrayRemove"]
    documentPath: str
    field: str
    elements: list[Any]


class ServerTimestampOp(_Op):
    type: Literal["serverTimestamp"]
    documentPath: str
    fields: list[str]


class DeleteFieldOp(_Op):
    type: Literal["deleteField"]
    documentPath: str
    fields: list[str]


FieldOp = Annotated[Union[IncrementOp, ArrayUnionOp, ArrayRemoveOp, ServerTimestampOp, DeleteFieldOp],
                    Field(discriminator="type")]
