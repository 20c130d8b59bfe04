"""Business rules of the Superset service (see ``superset.py``): ids, owners, metrics and views.

Pure functions of the state: each reads (or, for :func:`next_int_id`, advances a
counter of) a :class:`SupersetState` and raises the tool's error for a broken rule.
"""

from __future__ import annotations

from typing import Any

from compoworld_gym.envs.services._superset_models import Dashboard, Dataset, Owner, SupersetState, UserRef, owner_of
from compoworld_gym.errors import InvalidArgument, NotFound, Unprocessable


def next_int_id(counters: dict[str, int], kind: str, collection: dict[str, Any]) -> int:
    """Take the next integer id of ``collection`` (keyed by ``str(id)``) from
    ``counters[kind]``: never a used id, and a counter the task generator may
    advance so that new ids vary between tasks."""
    n = max(counters.get(kind, 1), max((int(k) for k in collection), default=0) + 1)
    counters[kind] = n + 1
    return n


def listing(rows: list[Any]) -> dict:
    """Superset's list answer: ``{"count": n, "result": [record as JSON, ...]}``."""
    return {"count": len(rows), "result": [r.model_dump(mode="json") for r in rows]}


def find_user(state: SupersetState, ref: UserRef) -> Owner:
    """The owner view of the user with id ``ref`` (an int) or email ``ref`` (a str, any case).

    Raises:
        NotFound: 404 when no user matches.
    """
    for u in state.users.values():
        if (isinstance(ref, int) and u.id == ref) or (isinstance(ref, str) and u.email.lower() == ref.lower()):
            return owner_of(u)
    raise NotFound(f"no Superset user {ref!r}; owners are user ids or emails of existing users "
                   "(see the owners of superset_dashboard_list).")


def owners_of(state: SupersetState, refs: list[UserRef]) -> list[Owner]:
    """The owners ``refs`` name, in order without repeats.

    Raises:
        Unprocessable: 422 for an empty list (an object keeps at least one owner).
        NotFound: 404 for an unknown user.
    """
    if not refs:
        raise Unprocessable("an object needs at least one owner.")
    out: list[Owner] = []
    for ref in refs:
        o = find_user(state, ref)
        if all(o.id != x.id for x in out):
            out.append(o)
    return out


def current_owner(state: SupersetState) -> Owner:
    """The owner view of the user the API acts as."""
    return owner_of(state.users[str(state.current_user_id)])


def check_metrics(dataset: Dataset, params: dict[str, Any]) -> None:
    """Refuse chart form data whose ``metrics`` are not the dataset's own.

    Raises:
        InvalidArgument: 400 when ``params["metrics"]`` is not a list of names.
        Unprocessable: 422 naming the unknown metrics and the dataset's metrics.
    """
    metrics = params.get("metrics", [])
    if not isinstance(metrics, list) or not all(isinstance(m, str) for m in metrics):
        raise InvalidArgument("params.metrics must be a list of metric names.")
    unknown = [m for m in metrics if m not in dataset.metrics]
    if unknown:
        raise Unprocessable(f"dataset {dataset.id} ({dataset.table_name}) has no metric {', '.join(unknown)}; "
                            f"its metrics are {', '.join(dataset.metrics)}.")


def dashboard_view(state: SupersetState, d: Dashboard) -> dict:
    """A dashboard as JSON with its ``charts`` (``[{id, slice_name}]``) and tag names (``tags``)."""
    charts = [{"id": c.id, "slice_name": c.slice_name} for c in state.charts.values() if d.id in c.dashboards]
    tags = [t.name for t in state.tags.values() if ("dashboard", d.id) in t.objects]
    return {**d.model_dump(mode="json"), "charts": charts, "tags": tags}


def tagged_objects(state: SupersetState) -> list[dict]:
    """Every tagged object as ``{type, id, name, tags}``, sorted by (type, id)."""
    names = {"dashboard": (state.dashboards, "dashboard_title"), "chart": (state.charts, "slice_name"),
             "saved_query": (state.saved_queries, "label"), "dataset": (state.datasets, "table_name")}
    found: dict[tuple[str, int], list[str]] = {}
    for t in state.tags.values():
        for obj in t.objects:
            found.setdefault(obj, []).append(t.name)
    return [{"type": k, "id": i, "name": getattr(names[k][0][str(i)], names[k][1]), "tags": tags}
            for (k, i), tags in sorted(found.items())]
