"""Superset in chained tasks: a client's "Account review" dashboard names the
customer company it reports on and its owner (the account owner, a staff
email); a company's published account review is found by the company name.
The case's dashboard is handed to the owner a policy names, or certified
with a note quoting a discovered value."""

from __future__ import annotations

from typing import Any

from compoworld_gym.checks import OnlyChanged, RecordMatches
from compoworld_gym.envs.services._company import STAFF
from compoworld_gym.envs.services._superset_models import BASE_URL, Dashboard, SupersetUser, owner_of
from compoworld_gym.envs.services._superset_rules import next_int_id
from compoworld_gym.envs.services._superset_seed import ACCOUNT_REVIEW
from compoworld_gym.generation.context import Ctx, call
from compoworld_gym.generation.hooks.crm import staff_email
from compoworld_gym.generation.links import (
    Action, Found, Give, Need, Reader, Relay, ServiceLinks, SolveError, Write, pick,
)

SERVICE = "superset"
#: Who certifies dashboards checked against another system of record.
CERTIFIER = "Operations"
_COMPANY_RX = r"(?<=^Account review: ).+"


def ensure_user(state: dict[str, Any], email: str) -> dict[str, Any]:
    """The Superset user with ``email``, added (validated, role Alpha) if missing."""
    for user in state["users"].values():
        if user["email"].lower() == email.lower():
            return user
    uid = max(int(k) for k in state["users"]) + 1
    local = email.split("@")[0]
    first, _, last = local.replace("_", ".").partition(".")
    user = SupersetUser(id=uid, first_name=first.title(), last_name=(last or first).replace(".", " ").title(),
                        email=email, username=local, roles=["Alpha"])
    state["users"][str(uid)] = user.model_dump(mode="json")
    return state["users"][str(uid)]


def next_dashboard_id(state: dict[str, Any]) -> int:
    """Take the next free dashboard id from the instance's counters."""
    return next_int_id(state["counters"], "dashboard", state["dashboards"])


def plant_dashboard(state: dict[str, Any], dashboard_id: int, **fields: Any) -> int:
    """Add a :class:`Dashboard` (validated) under ``dashboard_id``; ``owner_email``
    (a user, added if missing) becomes its one owner. Returns the id.

    Raises:
        pydantic.ValidationError: the fields do not make a valid dashboard.
    """
    owner = ensure_user(state, fields.pop("owner_email"))
    base = {"url": f"{BASE_URL}/superset/dashboard/{dashboard_id}/", "published": True, "json_metadata": {},
            "owners": [owner_of(SupersetUser.model_validate(owner)).model_dump(mode="json")]}
    record = Dashboard.model_validate({**base, **fields, "id": dashboard_id})
    state["dashboards"][str(dashboard_id)] = record.model_dump(mode="json")
    return dashboard_id


def _plant(ctx: Ctx, key: Any, outs: dict[str, Any], stale: bool, by_id: bool) -> int:
    state = ctx.state(SERVICE)
    did = key if by_id else next_dashboard_id(state)
    company = (outs.get("company") or ctx.fresh("company")) if by_id else str(key)
    owner = outs.get("email") or staff_email(ctx)
    meta = {"native_filter_configuration": [{"column": "company", "value": company}]}
    return plant_dashboard(state, did, dashboard_title=f"{ACCOUNT_REVIEW}{company}", owner_email=owner,
                           published=not stale, json_metadata=meta, changed_on=ctx.at(-9 if stale else -2, 15))


def _by_id(reader: Reader, key: Any) -> dict[str, Any]:
    return reader.read(SERVICE, "superset_dashboard_get_by_id", dashboard_id=key)["result"]


def _of_company(reader: Reader, key: Any) -> dict[str, Any]:
    rows = reader.read(SERVICE, "superset_dashboard_list")["result"]
    board = pick([r for r in rows if r["published"]], dashboard_title=f"{ACCOUNT_REVIEW}{key}")
    return _by_id(reader, board["id"])


_OWNER = Give("email", "owners.0.email", "the account owner's email address", "the account owner", draw=staff_email)

DASHBOARD = Relay(
    service=SERVICE, name="account review dashboard", key="dashboard_id",
    gives=(_OWNER, Give("company", "dashboard_title", "the customer company it reports on", pattern=_COMPANY_RX,
                        party="customer"),
           Give("dashboard_id", "id", "the account review dashboard")),
    plant=lambda ctx, key, outs, stale: _plant(ctx, key, outs, stale, True), find=_by_id,
    where="Each Superset 'Account review' dashboard names the customer company in its title; its owner is the "
          "account owner.",
    alloc=lambda ctx: next_dashboard_id(ctx.state(SERVICE)), entry=lambda key: f"Superset dashboard {key}")

COMPANY_DASHBOARD = Relay(
    service=SERVICE, name="company's account review dashboard", key="company", key_party="customer",
    gives=(Give("dashboard_id", "id", "the company's account review dashboard"), _OWNER),
    plant=lambda ctx, key, outs, stale: _plant(ctx, key, outs, stale, False), find=_of_company,
    where="Superset has an 'Account review: <company>' dashboard per client company, owned by its account owner.",
    entry=lambda key: f"the account review dashboard of {key}",
    truth="A draft (unpublished) dashboard is work in progress; only the published account review counts.")


def _scope(did: int) -> list[OnlyChanged]:
    return [OnlyChanged(id="_", service=SERVICE, collection="dashboards", allow_ids=[str(did)],
                        description="No other dashboard was changed or created.")]


def _hand_over(reader: Reader, args: dict[str, Found]) -> Write:
    did, owner = args["dashboard"].value, args["owner"].value
    if not isinstance(did, int):
        raise SolveError(f"dashboard id {did!r} is not an integer")
    _by_id(reader, did)
    return Write(
        calls=[call("superset_dashboard_update", dashboard_id=did, data={"owners": [owner]})],
        checks=[RecordMatches(id="_", service=SERVICE, collection="dashboards", record_id=str(did),
                              where={"owners": {"$len": 1, "$any": {"email": {"$ieq": owner}}}},
                              description="The dashboard's only owner is the right person.")],
        scope=_scope(did), tool="superset_dashboard_update", where={"dashboard_id": did},
        label="the dashboard hand-over")


def _certify(reader: Reader, args: dict[str, Found]) -> Write:
    did, mention = args["dashboard"].value, args["mention"]
    _by_id(reader, did)
    details = f"{args['case'].value}: {mention.noun} is {mention.display}"
    if len(details) > 1000:
        raise SolveError("the certification note is too long")
    return Write(
        calls=[call("superset_dashboard_update", dashboard_id=did,
                    data={"certified_by": CERTIFIER, "certification_details": details})],
        checks=[RecordMatches(id="_", service=SERVICE, collection="dashboards", record_id=str(did),
                              where={"certified_by": CERTIFIER,
                                     "certification_details": {"$contains": mention.display}},
                              description="The dashboard is certified by Operations, quoting the right value.")],
        scope=_scope(did), tool="superset_dashboard_update", where={"dashboard_id": did},
        label="the dashboard certification")


def _owners(ctx: Ctx) -> tuple[str, str]:
    """Two account managers a policy can give a client dashboard to."""
    pool = sorted(s.email for s in STAFF if s.team in ("customer_success", "billing"))
    a, b = ctx.rng.sample(pool, 2)
    return a, b


LINKS = ServiceLinks(
    service=SERVICE, label="Superset",
    relays=(DASHBOARD, COMPANY_DASHBOARD),
    actions=(
        # Only a policy names the new owner: no record says who should take a dashboard over.
        Action(service=SERVICE, name="hand_over",
               needs=(Need("owner", "email", ("the new dashboard owner",), "owner"),
                      Need("dashboard", "dashboard_id")),
               build=_hand_over, goal="make {owner} the only owner of the Superset dashboard", routable=True),
        Action(service=SERVICE, name="certify", needs=(Need("dashboard", "dashboard_id"),), build=_certify,
               goal=f"certify the Superset dashboard as {CERTIFIER}, its certification details quoting {{mention}}"),
    ),
    route_values={"email": _owners},
)

__all__ = ["CERTIFIER", "LINKS", "ensure_user", "next_dashboard_id", "plant_dashboard"]
