"""What a service contributes to task design: sources and sinks.

A *source* plants a record carrying a fact of one entity type into the
service's initial state, with a distinguishing cue the instruction can name
without revealing the value, and the read call that finds it. A generic
:class:`RecordSource` also builds the interaction variants (conflicting
records where the latest wins, an archived decoy versus the source of truth,
ranked selection, a sum over two records) from a hook's ``plant`` function.

A *sink* uses a fact through a write tool and says which declarative checks
verify the resulting state (:class:`~compoworld_gym.generation.context.SinkStep`).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable, Optional

import orjson

from compoworld_gym.generation.context import Ctx, Fact, SinkStep, call

#: ``plant(ctx, value, cue, opts) -> (record id, record)``; opts may hold
#: ``when`` (days before today, larger = older), ``closed`` (bool) and
#: ``rank`` (0, 1, 2; 2 ranks first).
PlantFn = Callable[[Ctx, Any, str, dict[str, Any]], tuple[str, dict[str, Any]]]
SinkFn = Callable[[Ctx, Fact], SinkStep]

VARIANTS = ("plain", "latest", "decoy", "ranked", "sum")


@dataclass
class RecordSource:
    """A fact of ``type`` stored in a record of ``collection``.

    Attributes:
        type: entity type of the fact.
        tool: the read tool that finds the record (must produce ``type``).
        collection: state collection (dict keyed by record id).
        noun: what the fact is, e.g. "the requester's email address".
        locate: where it is, with ``{cue}``, e.g. "on the ticket about '{cue}'".
        plant: builds the record (see :data:`PlantFn`).
        read_args: ``cue -> arguments`` of ``tool``.
        cue: ``ctx -> cue text`` (default: a reference code).
        value: ``ctx -> value``; None means the fact is the record id.
        variants: supported variants besides ``plain``.
        decoy_rule: house rule naming the source of truth (with ``{cue}``).
        rank_rule: which of several candidates counts, e.g. "the highest priority".
        plural: what several records are called, e.g. "tickets".
    """

    type: str
    tool: str
    collection: str
    noun: str
    locate: str
    plant: PlantFn
    read_args: Callable[[str], dict[str, Any]]
    cue: Optional[Callable[[Ctx], str]] = None
    value: Optional[Callable[[Ctx], Any]] = None
    variants: frozenset[str] = frozenset()
    decoy_rule: str = "Archived or closed records are history: only the active one counts."
    rank_rule: str = ""
    plural: str = "records"

    def _value(self, ctx: Ctx) -> Any:
        if self.value is not None:
            return self.value(ctx)
        return None if self.type.endswith("_id") else ctx.fresh(self.type)

    def _put(self, ctx: Ctx, service: str, value: Any, cue: str, opts: dict[str, Any]) -> Any:
        return self._put_rid(ctx, service, value, cue, opts)[1]

    def _put_rid(self, ctx: Ctx, service: str, value: Any, cue: str, opts: dict[str, Any]
                 ) -> tuple[str, Any]:
        """Plant one record; ``(record id, fact value)`` (the id when the fact is an id)."""
        if self.type.endswith("_id") and self.value is None:
            value = None
        rid, record = self.plant(ctx, value, cue, opts)
        ctx.state(service)[self.collection][rid] = record
        return rid, (rid if value is None else value)

    def build(self, ctx: Ctx, service: str, variant: str = "plain") -> Fact:
        """Plant the record(s) for ``variant`` and return the fact to find.

        Raises:
            ValueError: the variant is not supported by this source.
        """
        if variant != "plain" and variant not in self.variants:
            raise ValueError(f"source {service}/{self.type} has no variant {variant!r}")
        cue = self.cue(ctx) if self.cue else ctx.code()
        fact = Fact(type=self.type, value=None, service=service, noun=self.noun,
                    locate=self.locate.format(cue=cue), reads=[call(self.tool, **self.read_args(cue))])
        if variant == "plain":
            rid, fact.value = self._put_rid(ctx, service, self._value(ctx), cue, {"when": 2})
        elif variant == "latest":
            old = self._put(ctx, service, self._value(ctx), cue, {"when": 9})
            rid, fact.value = self._put_rid(ctx, service, self._value(ctx), cue, {"when": 1})
            fact.wrong, fact.capabilities = [old], {"conflicting-records-latest-wins"}
            fact.rules.append(f"Two {self.plural} about {cue} disagree: the most recent one wins.")
        elif variant == "decoy":
            decoy_id, decoy = self._put_rid(ctx, service, self._value(ctx), cue, {"when": 4, "closed": True})
            rid, fact.value = self._put_rid(ctx, service, self._value(ctx), cue, {"when": 3})
            fact.wrong, fact.capabilities = [decoy], {"source-of-truth", "negative-check"}
            fact.rules.append(self.decoy_rule.format(cue=cue))
            fact.negatives.append({"kind": "record_unchanged", "service": service,
                                   "collection": self.collection, "record_id": decoy_id,
                                   "description": f"The archived record about {cue} is left alone."})
        elif variant == "ranked":
            others = [self._put(ctx, service, self._value(ctx), cue, {"when": 2 + r, "rank": r}) for r in (0, 1)]
            rid, fact.value = self._put_rid(ctx, service, self._value(ctx), cue, {"when": 4, "rank": 2})
            fact.wrong, fact.capabilities = others, {"ranked-selection"}
            fact.locate = f"{fact.locate} (several {self.plural} match: take {self.rank_rule})"
        else:  # sum: two records whose amounts must be added
            planted = [self._put_rid(ctx, service, self._value(ctx), cue, {"when": w}) for w in (5, 2)]
            rid, parts = planted[0][0], [p for _, p in planted]
            fact.value = round(sum(parts), 2)
            fact.wrong, fact.capabilities = parts, {"data-transformation"}
            fact.noun = f"the total of {self.noun.removeprefix('the ')} over both {self.plural} ({cue})"
        fact.decoys, fact.origin = list(fact.wrong), (self.collection, rid)
        return fact


@dataclass
class ServiceHook:
    """The task-design knowledge of one service.

    Attributes:
        service: the service name.
        label: how the instruction names the service ("the helpdesk").
        sources: ``{entity type: RecordSource}``.
        sinks: ``{entity type: (write tool, sink function)}``.
    """

    service: str
    label: str
    sources: dict[str, RecordSource] = field(default_factory=dict)
    sinks: dict[str, tuple[str, SinkFn]] = field(default_factory=dict)
    #: ``{write tool: string parameter}`` of tools that take a fact inside free
    #: text (a chat post, a note): their sinks need not consume the entity type.
    free_text: dict[str, str] = field(default_factory=dict)

    def source_variants(self, etype: str) -> tuple[str, ...]:
        """The variants the source of ``etype`` supports (``plain`` first)."""
        src = self.sources[etype]
        return ("plain", *[v for v in VARIANTS[1:] if v in src.variants])


def clone(ctx: Ctx, service: str, collection: str, rid: str, **fields: Any) -> dict[str, Any]:
    """A fresh record for ``collection``: a deep copy of its first seeded
    record (so every required field has a valid value) with ``fields`` set.

    Args:
        ctx: the design context.
        service: the service whose working state holds the collection.
        collection: a dict collection keyed by id.
        rid: the new record's key; stored as ``id`` unless ``fields`` says otherwise.
        fields: fields to override.

    Raises:
        KeyError: the collection is empty (no template).
    """
    coll = ctx.state(service)[collection]
    template = coll[min(coll)]
    record = orjson.loads(orjson.dumps(template))
    if "id" in record:
        record["id"] = rid
    record.update(fields)
    return record


def text_of(value: Any) -> str:
    """How a fact is written inside free text (amounts with two decimals)."""
    return f"{value:.2f}" if isinstance(value, float) else str(value)


#: How free-text sinks ask for a value to be written, per entity type.
TEXT_FORMAT = {"date": " (write the date as YYYY-MM-DD)",
               "money": " (write the amount with two decimals and no thousands separator)"}


def record_sink(ctx: Ctx, fact: Fact, *, service: str, tool: str, value_arg: str, collection: str,
                field_path: str, calls: list, phrase: str, label: str, record_id: Optional[str] = None,
                where: Optional[dict[str, Any]] = None, key: Optional[dict[str, Any]] = None,
                list_arg: bool = False, text: bool = False, nest: Optional[str] = None) -> SinkStep:
    """A sink whose write leaves ``fact``'s value in one field of one record.

    Args:
        ctx: the design context.
        fact: the fact used.
        service: the written service.
        tool: the write tool.
        value_arg: the tool parameter carrying the value.
        collection: the collection holding the written record.
        field_path: the field (dotted path) that must hold the value.
        calls: the reference calls (lookups, then the write).
        phrase: the instruction sentence (``{ref}`` = the fact's reference).
        label: short noun phrase of the write.
        record_id: the written record (an update); None for a created
            record found by ``key``.
        where: call-log argument pattern identifying this write.
        key: where-clause identifying a created record.
        list_arg: the value sits in a list (recipients, attendees).
        text: the value sits inside free text (checked with ``$contains``).
        nest: ``field_path`` is a list of objects and the value is this key
            of one of them (an expense item's ``amount``).
    """
    def matcher(value: Any) -> Any:
        if text:
            m = {"$contains": text_of(value)}
        elif list_arg and nest is None:
            m = {"$contains": value}
        else:
            m = ctx.matcher(fact.type, value)
        return {"$any": {nest: m}} if nest else m

    def checks(value: Any) -> list[dict[str, Any]]:
        desc = f"{label[:1].upper()}{label[1:]} carries the right value."
        if record_id is not None:
            return [{"kind": "record_matches", "service": service, "collection": collection,
                     "record_id": record_id, "where": {field_path: matcher(value)}, "description": desc}]
        return [{"kind": "record_exists", "service": service, "collection": collection,
                 "where": {**(key or {}), field_path: matcher(value)}, "description": desc}]

    return SinkStep(service=service, tool=tool, value_arg=value_arg, calls=calls, phrase=phrase, label=label,
                    checks=checks, where=dict(where or {}), list_arg=list_arg or text)
