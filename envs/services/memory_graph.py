"""Memory graph: a knowledge graph of entities, observations and relations.

Implements all nine tools of the official Model Context Protocol reference
server ``memory`` (slug ``modelcontextprotocol-memory``) with its exact
names, parameters and semantics: creating an entity that already exists is
skipped, duplicate relations are skipped, deleting an entity also deletes
its relations, ``add_observations`` on an unknown entity fails, and
``search_nodes``/``open_nodes`` return the matching entities plus only the
relations *between* them.
"""

from __future__ import annotations

import datetime as dt
import random

from faker import Faker
from pydantic import BaseModel, ConfigDict, Field

from compoworld_gym.envs.services._company import DOMAIN, STAFF, TEAMS
from compoworld_gym.envs.services._commerce import CUSTOMERS
from compoworld_gym.errors import InvalidArgument, NotFound
from compoworld_gym.service import Record, Service, ServiceState, tool


class Entity(Record):
    """A node of the graph: a unique name, a type and free-text observations."""

    name: str = Field(min_length=1, description="Unique entity name, e.g. 'Priya Raman'.")
    entityType: str = Field(min_length=1, description="Entity type, e.g. 'person', 'company'.")  # noqa: N815
    observations: list[str] = Field(default_factory=list, description="Facts about the entity, oldest first.")


class Relation(Record):
    """A directed edge, phrased in active voice (``from`` works_at ``to``)."""

    # Stored and shown as "from" (the spec name); validation also accepts the field
    # name because pydantic revalidates stored instances by field name.
    model_config = ConfigDict(serialize_by_alias=True, validate_by_name=True, validate_by_alias=True)

    from_: str = Field(alias="from", description="Name of the entity where the relation starts.")
    to: str = Field(description="Name of the entity where the relation ends.")
    relationType: str = Field(min_length=1, description="Relation type, e.g. 'works_at'.")  # noqa: N815


class MemoryGraphState(ServiceState):
    """The whole graph."""

    entities: dict[str, Entity] = Field(default_factory=dict, description="Entities by name.")
    relations: list[Relation] = Field(default_factory=list, description="Relations, in creation order.")


class _EntityIn(BaseModel):
    model_config = ConfigDict(extra="forbid")
    name: str = Field(min_length=1, description="The name of the entity")
    entityType: str = Field(min_length=1, description="The type of the entity")  # noqa: N815
    observations: list[str] = Field(description="An array of observation contents associated with the entity")


class _RelationIn(BaseModel):
    model_config = ConfigDict(extra="forbid")
    from_: str = Field(alias="from", min_length=1, description="The name of the entity where the relation starts")
    to: str = Field(min_length=1, description="The name of the entity where the relation ends")
    relationType: str = Field(min_length=1, description="The type of the relation")  # noqa: N815


class _ObservationIn(BaseModel):
    model_config = ConfigDict(extra="forbid")
    entityName: str = Field(description="The name of the entity to add the observations to")  # noqa: N815
    contents: list[str] = Field(description="An array of observation contents to add")


class _DeletionIn(BaseModel):
    model_config = ConfigDict(extra="forbid")
    entityName: str = Field(description="The name of the entity containing the observations")  # noqa: N815
    observations: list[str] = Field(description="An array of observations to delete")


def _rel_key(r: Relation | _RelationIn) -> tuple[str, str, str]:
    return (r.from_, r.to, r.relationType)


class MemoryGraph(Service):
    """Knowledge-graph memory (the MCP reference ``memory`` server)."""

    name = "memory_graph"
    description = "Knowledge-graph memory: entities with observations and typed relations between them."
    domain = "knowledge"
    spec_source = "modelcontextprotocol-memory"
    State = MemoryGraphState

    def _subgraph(self, names: set[str]) -> dict:
        ents = [e.model_dump() for n, e in self.state.entities.items() if n in names]
        rels = [r.model_dump(by_alias=True) for r in self.state.relations if r.from_ in names and r.to in names]
        return {"entities": ents, "relations": rels}

    # ----------------------------------------------------------------- writes
    @tool(read_only=False, returns=list[Entity])
    def create_entities(self, entities: list[_EntityIn]) -> list[dict]:
        """Create multiple new entities in the knowledge graph; names that exist are skipped.

        Args:
            entities: the entities to create, each with name, entityType and observations.
        """
        created = []
        for e in entities:
            if e.name in self.state.entities:
                continue
            ent = Entity(name=e.name, entityType=e.entityType, observations=list(e.observations))
            self.state.entities[e.name] = ent
            created.append(ent.model_dump())
        return created

    @tool(read_only=False, returns=list[Relation])
    def create_relations(self, relations: list[_RelationIn]) -> list[dict]:
        """Create multiple new relations between entities (active voice); duplicates are skipped.

        Both ends must be existing entities (404 otherwise, nothing is created).

        Args:
            relations: the relations to create, each with from, to and relationType.
        """
        for r in relations:
            for end in (r.from_, r.to):
                if end not in self.state.entities:
                    raise NotFound(f"Entity with name {end!r} not found; create it with create_entities first.")
        existing = {_rel_key(r) for r in self.state.relations}
        created = []
        for r in relations:
            if _rel_key(r) in existing:
                continue
            existing.add(_rel_key(r))
            rel = Relation.model_validate({"from": r.from_, "to": r.to, "relationType": r.relationType})
            self.state.relations.append(rel)
            created.append(rel.model_dump(by_alias=True))
        return created

    @tool(read_only=False)
    def add_observations(self, observations: list[_ObservationIn]) -> list[dict]:
        """Add new observations to existing entities; observations already present are skipped.

        Args:
            observations: per entity, the entityName and the contents to add.
        """
        for o in observations:
            self.lookup(self.state.entities, o.entityName, "entity")
        results = []
        for o in observations:
            ent = self.state.entities[o.entityName]
            added = [c for c in dict.fromkeys(o.contents) if c not in ent.observations]
            ent.observations.extend(added)
            results.append({"entityName": o.entityName, "addedObservations": added})
        return results

    @tool(read_only=False, destructive=True, idempotent=True)
    def delete_entities(self, entityNames: list[str]) -> dict:  # noqa: N803
        """Delete multiple entities and every relation touching them; unknown names are ignored.

        Args:
            entityNames: the names of the entities to delete.
        """
        gone = [n for n in entityNames if self.state.entities.pop(n, None) is not None]
        names = set(entityNames)
        before = len(self.state.relations)
        self.state.relations = [r for r in self.state.relations if r.from_ not in names and r.to not in names]
        return {"deleted_entities": gone, "deleted_relations": before - len(self.state.relations)}

    @tool(read_only=False, destructive=True, idempotent=True)
    def delete_observations(self, deletions: list[_DeletionIn]) -> dict:
        """Delete specific observations from entities; unknown entities or texts are ignored.

        Args:
            deletions: per entity, the entityName and the exact observation texts to delete.
        """
        removed = 0
        for d in deletions:
            ent = self.state.entities.get(d.entityName)
            if ent is None:
                continue
            drop = set(d.observations)
            kept = [o for o in ent.observations if o not in drop]
            removed += len(ent.observations) - len(kept)
            ent.observations = kept
        return {"deleted_observations": removed}

    @tool(read_only=False, destructive=True, idempotent=True)
    def delete_relations(self, relations: list[_RelationIn]) -> dict:
        """Delete multiple relations (matched on from, to and relationType); unknown ones are ignored.

        Args:
            relations: the relations to delete.
        """
        drop = {_rel_key(r) for r in relations}
        before = len(self.state.relations)
        self.state.relations = [r for r in self.state.relations if _rel_key(r) not in drop]
        return {"deleted_relations": before - len(self.state.relations)}

    # ------------------------------------------------------------------ reads
    @tool(read_only=True)
    def read_graph(self) -> dict:
        """Read the entire knowledge graph: all entities and all relations."""
        return {"entities": [e.model_dump() for e in self.state.entities.values()],
                "relations": [r.model_dump(by_alias=True) for r in self.state.relations]}

    @tool(read_only=True)
    def search_nodes(self, query: str) -> dict:
        """Find entities whose name, type or any observation contains the query (case-insensitive).

        Returns the matching entities and the relations between them.

        Args:
            query: the text to match against entity names, types and observation content.
        """
        q = query.strip().lower()
        if not q:
            raise InvalidArgument("query is empty; give a word to search for, or call read_graph.")
        names = {n for n, e in self.state.entities.items()
                 if q in n.lower() or q in e.entityType.lower() or any(q in o.lower() for o in e.observations)}
        return self._subgraph(names)

    @tool(read_only=True)
    def open_nodes(self, names: list[str]) -> dict:
        """Open specific entities by exact name, with the relations between them; unknown names are skipped.

        Args:
            names: the entity names to retrieve.
        """
        return self._subgraph(set(names))

    # ------------------------------------------------------------------ seeds
    @classmethod
    def build_seed_state(cls, fake: Faker, rng: random.Random, today: dt.date) -> MemoryGraphState:
        state = MemoryGraphState()
        company = "Company Example Inc."
        state.entities[company] = Entity(name=company, entityType="organization",
                                         observations=[f"Mail domain {DOMAIN}", "Sells office electronics and furniture"])
        staff = rng.sample(STAFF, 7)
        rels = []
        for s in staff:
            team = TEAMS[s.team]
            state.entities[s.name] = Entity(name=s.name, entityType="person", observations=[
                f"Email: {s.email}", f"Job title: {s.title}", f"Team: {team.name}",
                f"Prefers {rng.choice(('email', 'Slack', 'phone calls'))} for urgent matters"])
            rels.append((s.name, company, "works_at"))
        for c in rng.sample(CUSTOMERS, 5):
            joined = today - dt.timedelta(days=rng.randint(30, 700))
            state.entities[c.name] = Entity(name=c.name, entityType="customer", observations=[
                f"Email: {c.email}", f"City: {c.city}", f"Customer since {joined.isoformat()}",
                f"Interested in {rng.choice(('monitors', 'standing desks', 'headsets', 'chairs'))}"])
            rels.append((rng.choice(staff).name, c.name, "manages_account_of"))
        for a, b in zip(staff, staff[1:4]):
            rels.append((b.name, a.name, "reports_to"))
        for a, b, t in rels:
            state.relations.append(Relation.model_validate({"from": a, "to": b, "relationType": t}))
        return state
