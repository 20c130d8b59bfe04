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
            fact.value = self._put(ctx, service, self._value(ctx), cue, {"when": 2})
        elif variant == "latest":
            old = self._put(ctx, service, self._value(ctx), cue, {"when": 9})
            fact.value = self._put(ctx, service, self._value(ctx), cue, {"when": 1})
            fact.wrong, fact.capabilities = [old], {"conflicting-records-latest-wins"}
            fact.rules.append(f"Two {self.plural} about {cue} disagree: the most recent one wins.")
        elif variant == "decoy":
            decoy_id, decoy = self._put_rid(ctx, service, self._value(ctx), cue, {"when": 4, "closed": True})
            fact.value = self._put(ctx, service, self._value(ctx), cue, {"when": 3})
            fact.wrong, fact.capabilities = [decoy], {"source-of-truth", "negative-check"}
            fact.rules.append(self.decoy_rule.format(cue=cue))
            fact.negatives.append({"kind": "record_unchanged", "service": service,
                                   "collection": self.collection, "record_id": decoy_id,
                                   "description": f"The archived record about {cue} is left alone."})
        elif variant == "ranked":
            others = [self._put(ctx, service, self._value(ctx), cue, {"when": 2 + r, "rank": r}) for r in (0, 1)]
            fact.value = self._put(ctx, service, self._value(ctx), cue, {"when": 4, "rank": 2})
            fact.wrong, fact.capabilities = others, {"ranked-selection"}
            fact.locate = f"{fact.locate} (several {self.plural} match: take {self.rank_rule})"
        else:  # sum: two records whose amounts must be added
            parts = [self._put(ctx, service, self._value(ctx), cue, {"when": w}) for w in (5, 2)]
            fact.value = round(sum(parts), 2)
            fact.wrong, fact.capabilities = parts, {"data-transformation"}
            fact.noun = f"the total of {self.noun.removeprefix('the ')} over both {self.plural} ({cue})"
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

    def source_variants(self, etype: str) -> tuple[str, ...]:
        """The variants the source of ``etype`` supports (``plain`` first)."""
        src = self.sources[etype]
        return ("plain", *[v for v in VARIANTS[1:] if v in src.variants])
