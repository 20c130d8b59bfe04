"""The reference's footprint, and the guards that hold an agent to it.

A task's reference solution changes a few records. Its *footprint* is, per
written collection, which records it changed, how many it created and how
many items it added to each list field of a changed record (a comment, a
note, a payment). :func:`fit_checks` turns the footprint into guards:

* each ``only_changed`` guard is capped: at most as many new records as the
  reference creates (``max_new``), list fields grown by at most as much
  (``max_added``), and in the records the reference changed nothing but the
  paths it changed (``allow_paths``; allowed records it left alone are no
  longer allowed), so sending the same message twice, creating a second
  matching record, adding a comment again, closing the ticket it only
  tagged or deleting the other rows of the table it updated breaks it;
* a written collection without an ``only_changed`` guard gets one;
* one ``writes_confined`` guard watches every mounted service: nothing
  outside the written collections may change (no write to a distractor).

An update that sets a field to the value it already has leaves the state as
it was, so it breaks none of these. Generated tasks are fitted from the
verify stage's reference run; built-in tasks when they are built.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Iterable

from compoworld_gym.checks import BOOKKEEPING, Check, OnlyChanged, WritesConfined
from compoworld_gym.state_diff import GONE, changed_paths, list_sizes
from compoworld_gym.matching import get_path, records
from compoworld_gym.tasks import Task

#: Id of the ``writes_confined`` guard :func:`fit_checks` adds.
CONFINED_ID = "confined"


@dataclass(frozen=True)
class Written:
    """What the reference did to one collection.

    Attributes:
        changed: ids of existing records it changed (or deleted).
        new: how many records it created.
        added: ``{list path: most items added to it in one changed record}``
            (paths of :func:`compoworld_gym.state_diff.list_sizes`).
        paths: ``{changed record id: the paths it changed}``
            (:func:`compoworld_gym.state_diff.changed_paths`; ``""``: deleted).
    """

    changed: tuple[str, ...] = ()
    new: int = 0
    added: dict[str, int] = field(default_factory=dict)
    paths: dict[str, tuple[str, ...]] = field(default_factory=dict)


#: ``{(service, collection): Written}``.
Footprint = dict[tuple[str, str], Written]


def _keyed(coll: Any) -> dict[str, Any]:
    if isinstance(coll, dict):
        return coll
    return {str(get_path(r, "id")): r for r in records(coll)}


def _added(before: Any, after: Any) -> dict[str, int]:
    was, now = list_sizes(before), list_sizes(after)
    return {path: n - was.get(path, 0) for path, n in now.items() if n > was.get(path, 0)}


def _written(before: Any, after: Any) -> Written:
    old, new = _keyed(before), _keyed(after)
    changed = sorted(k for k, rec in old.items() if new.get(k) != rec)
    added: dict[str, int] = {}
    for k in changed:
        for path, n in _added(old[k], new.get(k)).items():
            added[path] = max(added.get(path, 0), n)
    paths = {k: tuple(sorted(changed_paths(old[k], new[k] if k in new else GONE))) for k in changed}
    return Written(changed=tuple(changed), new=sum(1 for k in new if k not in old), added=added, paths=paths)


def footprint(initial: dict[str, Any], final: dict[str, Any]) -> Footprint:
    """The collections a run changed, from the states before and after it.

    Args:
        initial: ``{service: state JSON}`` before the run.
        final: ``{service: state JSON}`` after it (services absent from
            ``final`` are taken as unchanged).

    Returns:
        ``{(service, collection): Written}`` for every top-level state field
        that differs (bookkeeping, such as id counters, left out).
    """
    out: Footprint = {}
    for service, after in final.items():
        before = initial.get(service) or {}
        if after == before:
            continue
        for coll in sorted(before.keys() | after.keys()):
            if coll not in BOOKKEEPING and before.get(coll) != after.get(coll):
                out[(service, coll)] = _written(before.get(coll), after.get(coll))
    return out


def fit_checks(checks: Iterable[Check], fp: Footprint, services: Iterable[str]) -> list[Check]:
    """The checks with their guards fitted to the reference's footprint.

    Args:
        checks: the task's rubric items.
        fp: the reference's footprint (see :func:`footprint`).
        services: every mounted service (task services and distractors).

    Returns:
        The items in order, ``only_changed`` guards capped, one guard added
        per written collection that had none, and the ``writes_confined``
        guard (id :data:`CONFINED_ID`) last, replacing an earlier one.
    """
    out: list[Check] = []
    guarded = set()
    for c in checks:
        if isinstance(c, WritesConfined) and c.id == CONFINED_ID:
            continue
        if isinstance(c, OnlyChanged):
            w = fp.get((c.service, c.collection), Written())
            # Allowed: only the records the reference changed, and only where it changed them.
            ids = [i for i in c.allow_ids if i in w.paths]
            c = c.model_copy(update={"allow_ids": ids, "max_new": w.new, "max_added": dict(w.added),
                                     "allow_paths": {i: list(w.paths[i]) for i in ids}})
            guarded.add((c.service, c.collection))
        out.append(c)
    for (service, coll), w in sorted(fp.items()):
        if (service, coll) not in guarded and (w.changed or w.new):
            out.append(OnlyChanged(id=f"keep_{service}_{coll}", service=service, collection=coll,
                                   allow_ids=list(w.changed), allow_new={} if w.new else None, max_new=w.new,
                                   max_added=dict(w.added), allow_paths={i: list(p) for i, p in w.paths.items()},
                                   description=f"Only the task's records of {service} {coll} changed, once."))
    allow: dict[str, list[str]] = {}
    for service, coll in sorted(fp):
        allow.setdefault(service, []).append(coll)
    out.append(WritesConfined(id=CONFINED_ID, services=sorted(set(services)), allow=allow,
                              description="Nothing written outside the task's work (no other service or "
                                          "collection changed)."))
    return out


def run_reference(task: Task) -> tuple[dict[str, Any], dict[str, Any], list[Any]]:
    """Run ``task``'s reference on a fresh world.

    Returns:
        ``(initial states, final states, tool results)`` with the states of
        every mounted service and the ``data`` of each ``call_tool`` result.

    Raises:
        ValueError: a reference call failed.
    """
    from compoworld_gym.episode import mount
    from compoworld_gym.metatools import dispatch

    world = mount(task)
    names = [*task.services, *task.distractors]
    initial = world.states(names)
    seen = []
    for mc in task.reference:
        res = dispatch(world, mc.name, mc.arguments)
        if res.get("success") is False:
            raise ValueError(f"task {task.id}: reference call {mc.arguments} failed: {res['error']['message']}")
        if mc.name == "call_tool":
            seen.append(res.get("data"))
    return initial, world.states(names), seen


def fit_task(task: Task) -> Task:
    """``task`` with its guards fitted to its reference's footprint (see
    :func:`fit_checks`) and its answer items to what the reference saw (see
    :func:`compoworld_gym.answers.fit_answers`).

    Raises:
        ValueError: a reference call failed.
    """
    from compoworld_gym.answers import fit_answers, said_text

    initial, final, seen = run_reference(task)
    checks = fit_checks(task.checks, footprint(initial, final), [*task.services, *task.distractors])
    checks = fit_answers(checks, states=initial, seen=seen, decoys=task.decoys,
                         said=said_text(task.instruction, task.reference, task.reference_answer))
    return task.model_copy(update={"checks": checks})


__all__ = ["CONFINED_ID", "Footprint", "Written", "fit_checks", "fit_task", "footprint", "run_reference"]
