"""Typed state of imported services, inferred from the tools' schemas.

Each deterministic collection becomes a top-level ``dict[id, Record]``
field (the shape :mod:`compoworld_gym.transaction` journals). Record fields
come from the schemas of the tools that create and update the records;
extra fields are allowed only where those schemas allow additional
properties. Fields keep their original names (``projectId``, ``$type``...)
as aliases, so any name a server uses is a valid record field.
"""

from __future__ import annotations

from typing import Any, Optional

from pydantic import ConfigDict, Field, create_model

from compoworld_gym.importer.inference import field_for, id_kind
from compoworld_gym.importer.patterns import Collection
from compoworld_gym.service import Record, ServiceState

# Fields are stored under their original names (aliases); the Python names
# (cwf_0, cwf_id...) are also accepted because revalidating a record
# instance reads its attributes by name.
_RECORD_CONFIG = dict(revalidate_instances="always", strict=True, serialize_by_alias=True,
                      validate_by_alias=True, validate_by_name=True)


class ImportedRecord(Record):
    """A record of an imported collection: fixed fields only."""

    model_config = ConfigDict(extra="forbid", **_RECORD_CONFIG)


class OpenImportedRecord(Record):
    """A record of an imported collection whose schema allows additional properties."""

    model_config = ConfigDict(extra="allow", **_RECORD_CONFIG)


class Effect(Record):
    """The trace a simulated mutating tool leaves in the state.

    Attributes:
        tool: the simulated tool's name.
        arguments: the call's validated arguments.
        outcome: what the world model reported (JSON).
    """

    tool: str = Field(description="Simulated tool that caused the effect.")
    arguments: dict[str, Any] = Field(default_factory=dict, description="Arguments of the call.")
    outcome: Any = Field(default=None, description="What the world model reported.")


class ImportedState(ServiceState):
    """Base state of every imported service.

    Attributes:
        sim_seed: the task seed the world model is seeded with.
        effects: effects of simulated mutating tools, by id.
    """

    sim_seed: int = Field(default=0, description="Task seed for simulated tools.")
    effects: dict[str, Effect] = Field(default_factory=dict, description="Effects of simulated tools, by id.")


RESERVED_FIELDS = frozenset(ImportedState.model_fields)


def record_model(class_name: str, coll: Collection) -> type[Record]:
    """The pydantic model of one collection's records.

    Every record has ``id`` (str, or int for integer-id collections) and,
    unless a schema defines its own, ``created_at`` (ISO datetime string).
    """
    kind = id_kind(list(coll.noun))
    id_extra = {"x-entity": f"{kind}_id"} if kind else None
    fields: dict[str, Any] = {
        "cwf_id": (int if coll.integer_ids else str,
                 Field(alias="id", description="Record id.", json_schema_extra=id_extra)),
    }
    for i, (pname, schema) in enumerate(coll.properties.items()):
        fields[f"cwf_{i}"] = field_for(pname, schema, required=pname in coll.required, collection_kind=kind)
    if "created_at" not in coll.properties:
        fields["cwf_created_at"] = (Optional[str], Field(default=None, alias="created_at",
                                                       description="When the record was created."))
    base = OpenImportedRecord if coll.open else ImportedRecord
    return create_model(class_name, __base__=base, **fields)


def state_model(class_name: str, collections: dict[str, Collection],
                records: dict[str, type[Record]]) -> type[ImportedState]:
    """The service state: one ``dict[str, Record]`` field per collection."""
    fields = {
        coll.field: (dict[str, records[name]], Field(default_factory=dict, description=f"{coll.name} records by id."))
        for name, coll in collections.items()
    }
    return create_model(class_name, __base__=ImportedState, **fields)
