"""The base class of imported services and its seeded initial state."""

from __future__ import annotations

import datetime as dt
import random
from typing import Any, ClassVar

from faker import Faker
from pydantic import ValidationError

from compoworld_gym.errors import ToolError
from compoworld_gym.importer.engine import insert
from compoworld_gym.importer.patterns import Collection, ResourceOp
from compoworld_gym.importer.samples import sample_value
from compoworld_gym.service import Record, Service, ServiceState

#: Records per collection in a seeded state (inclusive range).
SEED_RECORDS = (2, 4)


class ImportedService(Service):
    """A service built by the importer from an MCP server's tool list.

    Class attributes set by :func:`compoworld_gym.importer.build.build_service`:

    Attributes:
        collections: ``{name: Collection}`` the resource engine keeps.
        record_models: ``{collection name: Record model}``.
        ops: ``{tool name: ResourceOp}`` of engine-run tools.
        output_schemas: ``{tool name: outputSchema}`` where the server gave one.
        world_model: the world model of this service's simulated tools
            (None: the process default, see ``compoworld_gym.world_model``).
        invalid_schemas: ``{tool name: problem}`` for tools with an invalid schema.
        simulated_reasons: ``{tool name: why the world model serves it}`` for
            every simulated tool (see ``ServerPlan.reasons``; ``invalid_schema``
            for a schema the engine cannot read).
        server: the server's display name.
    """

    collections: ClassVar[dict[str, Collection]] = {}
    record_models: ClassVar[dict[str, type[Record]]] = {}
    ops: ClassVar[dict[str, ResourceOp]] = {}
    output_schemas: ClassVar[dict[str, dict[str, Any]]] = {}
    world_model: ClassVar[Any] = None
    invalid_schemas: ClassVar[dict[str, str]] = {}
    simulated_reasons: ClassVar[dict[str, str]] = {}
    server: ClassVar[str] = ""

    @classmethod
    def seed_state(cls, seed: int, today: dt.date) -> ServiceState:
        """The seeded state; it records ``seed`` so simulations are seeded by the task seed."""
        state = super().seed_state(seed, today)
        state.sim_seed = seed
        return state

    @classmethod
    def build_seed_state(cls, fake: Faker, rng: random.Random, today: dt.date) -> ServiceState:
        """A few plausible records per collection (one for a singleton), drawn
        from the fields the tools' schemas give it (:mod:`~compoworld_gym.importer.resources`).

        Parent ids (``projectId`` of a task) point at seeded parents; the
        fields records are looked up by (``username``) are always drawn, and
        a draw that repeats another record's key is dropped (fewer records).
        """
        svc = cls(cls.State(), today=today)
        order = sorted(cls.collections.values(), key=lambda c: len(_parents_of(cls, c)))
        for coll in (c for c in order if not c.journal):
            parents = _parents_of(cls, coll)
            # Seeded records always carry the fields getters name them by, and a name.
            required = coll.required | {f for key in coll.unique for f in key}
            if coll.seeded and "name" in coll.properties:
                required.add("name")
            schema = {"type": "object", "properties": coll.properties, "required": sorted(required)}
            for _ in range(1 if coll.singleton else rng.randint(*SEED_RECORDS)):
                data = sample_value(schema, name=coll.name, fake=fake, rng=rng, today=today)
                if not isinstance(data, dict):
                    continue
                for param, target in parents.items():
                    keys = list(getattr(svc.state, cls.collections[target].field))
                    value = _typed_key(coll.properties[param], rng.choice(keys)) if keys else None
                    if value is not None:
                        data[param] = value
                    else:  # no parent, or its ids do not fit the field (an integer field, string ids)
                        data.pop(param, None)
                created = dt.datetime.combine(today - dt.timedelta(days=rng.randint(1, 60)), dt.time(9))
                try:
                    insert(svc, coll, data, created_at=created.isoformat())
                except (ToolError, ValidationError):
                    continue  # a schema the sampler cannot satisfy (e.g. a pattern): fewer seed records
        return svc.state


def _typed_key(schema: Any, key: str) -> Any:
    """``key`` as the field wants it (an int for integer/number fields), or None when it cannot be."""
    wants_int = isinstance(schema, dict) and schema.get("type") in ("integer", "number")
    if not wants_int:
        return key
    return int(key) if key.isdigit() else None


def _parents_of(cls: type[ImportedService], coll: Collection) -> dict[str, str]:
    found: dict[str, str] = {}
    for op in cls.ops.values():
        if op.collection == coll.name and (not coll.creators or op.verb in ("create", "send")):
            found.update({p: t for p, t in op.parents.items() if p in coll.properties and t != coll.name})
    return found
