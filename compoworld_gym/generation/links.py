"""What a service offers to a chained task: relays, rule holders and actions.

A generated task follows one business case through several services (paper
§2.4, and the published legal-ops sample: a matter code names a project, a
branch of the project names the payee, the payee's profile names the ledger,
...). Each service declares, in the shared entity vocabulary of
:mod:`compoworld_gym.entities`, what it can contribute:

* a :class:`Relay` is a kind of record that is found by a *key* of one
  entity type (an order by its ``order_id``, a CRM contact by ``email``) and
  that *gives* values of other types (the order's customer email and total,
  the contact's account owner). A value one relay gives is the key of the next
  relay, on another service: a chained lookup the agent can only make after
  reading the previous record.
* a :class:`RuleHolder` is where house policies live (an operations-manual
  article, a wiki page, a memo in the mailbox). The generator plants a policy
  whose condition is on a discovered value, and a stale version of it whose
  condition would pick the other branch.
* an :class:`Action` is a write that uses discovered values (email the
  customer, post in the channel the policy names, set the ticket's owner).

Relays, rule holders and actions look records up through a :class:`Reader`
(real read calls on the mounted services): the generator derives a task's
reference solution and expected end state by really reading the planted
state, and derives them again on re-planted (counterfactual) states.

Declarations live in ``generation/hooks/<service>.py`` as ``HOOK =
ServiceLinks(...)``; they are validated against the service's real tool
specs (:mod:`compoworld_gym.generation.hooks`).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any, Callable, Literal, Optional, Protocol, Sequence

from compoworld_gym.checks import Check, OnlyChanged
from compoworld_gym.tasks import MetaCall


class SolveError(RuntimeError):
    """A chain could not be followed on the planted state (a read failed, or a
    record the chain needs is not where the declaration says)."""


class Reader(Protocol):
    """Real read calls on the mounted services, recorded as reference steps."""

    def read(self, service: str, tool: str, /, **arguments: Any) -> Any:
        """Call a read tool; its result ``data``.

        Raises:
            SolveError: the tool is not a read tool, or the call failed.
        """


@dataclass(frozen=True)
class Found:
    """A value discovered while following the chain.

    Attributes:
        type: entity type, e.g. ``"email"``.
        value: the JSON value.
        noun: what it is, for people ("the customer's email address").
        who: for an email, handle or name: whom it reaches ("the account owner").
        service: where it was read.
    """

    type: str
    value: Any
    noun: str
    who: str = ""
    service: str = ""

    @property
    def display(self) -> str:
        """The value as written in text (amounts with two decimals)."""
        return f"{self.value:.2f}" if isinstance(self.value, float) else str(self.value)


#: Which side of the business a company is on (see :attr:`Give.party`).
Party = Literal["customer", "vendor"]


@dataclass(frozen=True)
class Give:
    """A value a relay's record gives.

    Attributes:
        type: entity type of the value.
        field: dotted path of the value in the found record.
        noun: what it is ("the account owner's email address").
        who: whom the value reaches, for people and addresses ("the account owner").
        pattern: a regular expression: the value is its first match inside the
            field's text (an order number quoted in a ticket's description).
        draw: ``ctx -> value`` for values from a fixed vocabulary (a staff
            email); default ``ctx.fresh(type)``.
        party: for a company, which side of the business it is on:
            ``"customer"`` (an account, a client, a sponsor) or ``"vendor"``
            (a supplier, a payee, a contractor); None: either.
    """

    type: str
    field: str
    noun: str
    who: str = ""
    pattern: Optional[str] = None
    draw: Optional[Callable[[Any], Any]] = None
    party: Optional[Party] = None


#: ``plant(ctx, key, outs, stale) -> record id``: add one record found by
#: ``key`` and carrying ``outs`` (``{entity type: value}``, one per give) to the
#: working state. ``stale=True`` plants a look-alike that the relay's ``find``
#: must pass over (a closed ticket, a cancelled order, an older note).
PlantFn = Callable[[Any, Any, dict[str, Any], bool], str]
#: ``find(reader, key) -> record``: look the record up by real read calls and
#: return the authoritative one (as the read tool returned it).
FindFn = Callable[[Reader, Any], dict[str, Any]]


@dataclass(frozen=True)
class Relay:
    """A kind of record the chain can pass through.

    Attributes:
        service: the service holding the records.
        name: the record kind, e.g. ``"order"``.
        key: entity type of the lookup key.
        gives: the values a record gives (one per entity type).
        plant: adds a record (see :data:`PlantFn`).
        find: finds it again by real reads (see :data:`FindFn`).
        where: house rule saying where these records live and what they hold,
            with no value ("Orders, with the customer's email, are in the order system.").
        alloc: ``ctx -> key`` for keys that are the record's own id (an order id);
            None when the key is a value another record gives (an email).
        entry: ``key -> phrase`` naming a record in the instruction when the
            chain starts here ("ticket TCK-0042"); None: never a chain's start.
        truth: which record wins when a stale look-alike is planted; empty
            when the relay plants none.
        key_role: whose address, phone or name the key is, for person keys
            (email, phone, person_name, username): ``"customer"``, ``"staff"``
            or ``"any"``. A chain never looks a customer's orders up by the
            account owner's email.
        key_who: when set, the only :attr:`Give.who` a person key may come
            from (an academy deck's maintainer is a teacher or instructor, not
            any member of staff).
        key_party: for a company key, the :attr:`Give.party` it takes: a
            supplier's NCR is found by a vendor, never by a customer account.
    """

    service: str
    name: str
    key: str
    gives: tuple[Give, ...]
    plant: PlantFn
    find: FindFn
    where: str
    alloc: Optional[Callable[[Any], Any]] = None
    entry: Optional[Callable[[Any], str]] = None
    truth: str = ""
    key_role: str = "customer"
    key_who: frozenset[str] = frozenset()
    key_party: Optional[Party] = None

    def give(self, etype: str) -> Optional[Give]:
        """The give of entity type ``etype``, or None."""
        return next((g for g in self.gives if g.type == etype), None)


#: ``plant(ctx, topic, text, stale) -> record id``: add a policy record.
#: ``stale=True`` plants the superseded version (archived, or older).
RulePlantFn = Callable[[Any, str, str, bool], str]
#: ``find(reader, topic) -> text``: the text of the policy in force.
RuleFindFn = Callable[[Reader, str], str]


@dataclass(frozen=True)
class RuleHolder:
    """A place where house policies live.

    Attributes:
        service: the service.
        plant: adds the policy (see :data:`RulePlantFn`).
        find: reads the policy in force (see :data:`RuleFindFn`).
        where: house rule naming where policies live and which version
            counts, with ``{topic}`` ("The '{topic}' policy is in the
            operations manual; only the published version is in force.").
    """

    service: str
    plant: RulePlantFn
    find: RuleFindFn
    where: str


@dataclass
class Write:
    """The reference write of an action and what the end state must show.

    Attributes:
        calls: the write calls (and any lookups a :class:`Reader` did not
            record), in order.
        checks: typed rubric items the end state must pass (work to do; they
            fail on the initial state).
        scope: ``only_changed`` guards of the collections the write touches,
            allowing exactly this write (ids are filled in by the generator).
        tool: the write tool, for ordering rules on the call log.
        where: call-log argument pattern of the write.
        label: short noun phrase, e.g. "the refund on the order".
    """

    calls: list[MetaCall]
    checks: list[Check]
    scope: list[OnlyChanged]
    tool: str
    where: dict[str, Any]
    label: str
    moves_money: bool = False


#: ``build(reader, args, ctx) -> Write``: ``args`` holds one :class:`Found`
#: per need, plus ``"case"`` (a Found of type ``case`` with the case
#: reference) and ``"mention"`` (the discovered value the write must quote).
BuildFn = Callable[[Reader, dict[str, Found]], Write]
#: ``prepare(ctx, values) -> None``: plant what the write needs in its own
#: service (a channel to post in, the record to update), before solving.
PrepareFn = Callable[[Any, dict[str, Any]], None]


@dataclass(frozen=True)
class Need:
    """A parameter an action takes from the chain.

    Attributes:
        param: the parameter name used in ``build`` args and ``goal``.
        type: its entity type.
        who: only values whose :attr:`Give.who` is one of these (e.g. staff
            roles for an assignee); empty accepts any value of the type.
        noun: what a policy-chosen value is called ("channel", "agent").
        same_record_as: another need's ``param``: this value must come from
            the record that gave that one (a customer's refund request asks
            for an amount on the customer's own order, not an expense total).
    """

    param: str
    type: str
    who: tuple[str, ...] = ()
    noun: str = "team"
    same_record_as: str = ""


@dataclass(frozen=True)
class Action:
    """A write that uses discovered values.

    Attributes:
        service: the written service.
        name: e.g. ``"email"``.
        needs: the discovered values it takes.
        build: the write for given values (see :data:`BuildFn`).
        goal: the goal phrase, with ``{param}`` replaced by what the value
            reaches or is ("let {to} know by email, quoting {mention}").
        prepare: plants what the write needs in its service (optional).
        routable: a policy may choose its ``needs[0]`` value (a channel, a
            recipient); the phrase then names "the team the policy names".
        effect: ``"ends"``, ``"advances"`` or ``"neither"`` where the verbs of
            ``name`` do not say it (see :mod:`compoworld_gym.generation.effects`):
            sending nonconforming stock back to its supplier ends the order;
            None: read from the name.
    """

    service: str
    name: str
    needs: tuple[Need, ...]
    build: BuildFn
    goal: str
    prepare: Optional[PrepareFn] = None
    routable: bool = False
    effect: Optional[Literal["ends", "advances", "neither"]] = None


@dataclass(frozen=True)
class ServiceLinks:
    """Everything one service offers to chained tasks.

    Attributes:
        service: the service name.
        label: how instructions name it ("the order system").
        relays: record kinds the chain can pass through.
        rules: places where policies live (most services have none).
        actions: writes that use discovered values.
        route_values: ``{entity type: ctx -> (value, value)}``: two values a
            policy can choose between for this service's routable action (two
            channels, two team addresses).
    """

    service: str
    label: str
    relays: Sequence[Relay] = ()
    rules: Sequence[RuleHolder] = ()
    actions: Sequence[Action] = ()
    route_values: dict[str, Callable[[Any], tuple[Any, Any]]] = field(default_factory=dict)


#: Entity types that belong to a person, so a key of one has a role.
PERSON_KEYS = frozenset({"email", "phone", "person_name", "username"})
#: ``Give.who`` values of the customer side; every other non-empty ``who`` is staff.
CUSTOMER_WHO = frozenset({"the customer", "the site contact", "the guest", "the traveller"})
#: ``Give.who`` values of people outside the company's staff who are not its customers
#: either: another organisation's professionals (a pharmacy's prescriber, a school's
#: teacher, the MLS listing agent), a job candidate, a shared queue's address. They
#: are staff to no service of another domain: a prescriber has no expense report.
EXTERNAL_WHO = frozenset({
    "the prescriber", "the ordering practitioner", "the listing agent", "the loan officer", "the candidate",
    "the homeroom teacher", "the course teacher", "the section teacher", "the student", "the case queue"})

#: Of :data:`EXTERNAL_WHO`, those who are nobody's staff even within their own domain:
#: a candidate with an offer pending has no timesheet and no HR directory entry yet.
NEVER_STAFF = frozenset({"the candidate", "the student", "the case queue"})


def role_of(who: str) -> Optional[str]:
    """``"customer"``, ``"staff"``, ``"external"`` (see :data:`EXTERNAL_WHO`) or None
    (unknown) for a :attr:`Give.who`."""
    if not who:
        return None
    if who in EXTERNAL_WHO:
        return "external"
    return "customer" if who in CUSTOMER_WHO else "staff"


def next_id(state: dict[str, Any], prefix: str, width: int = 4, start: int = 1) -> str:
    """Take the next free id ``<prefix>-<n>`` from a state's ``counters``, as
    :meth:`compoworld_gym.service.Service.new_id` does (``start`` when the
    counter is unset)."""
    n = state["counters"].get(prefix, start)
    state["counters"][prefix] = n + 1
    return f"{prefix}-{n:0{width}d}"


def pick(records: Any, **where: Any) -> dict[str, Any]:
    """The one record of ``records`` (a list, or a dict keyed by id) whose
    fields equal ``where`` (strings compared case-blind).

    Raises:
        SolveError: none, or more than one, matches.
    """
    rows = list(records.values()) if isinstance(records, dict) else list(records or [])
    hits = [r for r in rows if isinstance(r, dict) and all(_same(r.get(k), v) for k, v in where.items())]
    if len(hits) != 1:
        raise SolveError(f"{len(hits)} records match {where}")
    return hits[0]


def latest(records: Any, by: str, **where: Any) -> dict[str, Any]:
    """The record matching ``where`` with the greatest ``by`` field.

    Raises:
        SolveError: no record matches.
    """
    rows = list(records.values()) if isinstance(records, dict) else list(records or [])
    hits = [r for r in rows if isinstance(r, dict) and all(_same(r.get(k), v) for k, v in where.items())]
    if not hits:
        raise SolveError(f"no record matches {where}")
    return max(hits, key=lambda r: str(r.get(by)))


def _same(a: Any, b: Any) -> bool:
    if isinstance(a, str) and isinstance(b, str):
        return a.casefold() == b.casefold()
    return a == b


def give_value(record: dict[str, Any], give: Give) -> Any:
    """The value ``give`` takes from a found record.

    Raises:
        SolveError: the field is missing, or its text has no match of ``give.pattern``.
    """
    value = get_field(record, give.field)
    if give.pattern is None:
        return value
    m = re.search(give.pattern, str(value))
    if m is None:
        raise SolveError(f"{give.field!r} quotes no {give.type}")
    return m.group(0)


def get_field(record: dict[str, Any], path: str) -> Any:
    """The value at a dotted ``path`` of a found record.

    Raises:
        SolveError: the path is missing.
    """
    node: Any = record
    for part in path.split("."):
        if isinstance(node, dict) and part in node:
            node = node[part]
        elif isinstance(node, list) and part.isdigit() and int(part) < len(node):
            node = node[int(part)]
        else:
            raise SolveError(f"found record has no field {path!r}")
    return node


__all__ = ["Action", "BuildFn", "EXTERNAL_WHO", "FindFn", "Found", "Give", "NEVER_STAFF", "Need", "PERSON_KEYS", "Party", "PlantFn", "PrepareFn", "Reader", "Relay",
           "RuleHolder", "ServiceLinks", "SolveError", "Write", "get_field", "role_of", "give_value", "latest", "pick"]
