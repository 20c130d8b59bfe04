"""The business database in chained tasks: a customer, found by email, has a
name, a city and a lifetime order total (a SQL sum); a customer's open
support case names the team queue holding it, its due date and its order.
Cases are assigned to a person or logged."""

from __future__ import annotations

from typing import Any

from compoworld_gym.checks import OnlyChanged, RecordMatches
from compoworld_gym.envs.services._company import STAFF, TEAMS
from compoworld_gym.envs.services._database_models import Table
from compoworld_gym.generation.context import Ctx, call
from compoworld_gym.generation.hooks.helpdesk import STAFF_ROLES
from compoworld_gym.generation.links import Action, Found, Give, Need, Reader, Relay, ServiceLinks, SolveError, Write

#: Cases wait in a team's queue (owned by its inbox) until a person takes
#: them, so assigning a case to a staff member always changes its owner.
_QUEUES = tuple(TEAMS[t].email for t in ("billing", "logistics", "support", "customer_success"))
_DESKS = tuple(s for s in STAFF if s.team in ("support", "customer_success"))
_SUBJECTS = ("Refund not received", "Damaged on arrival", "Double charge", "Missing package", "Warranty claim")


def case_queue(ctx: Ctx) -> str:
    """The inbox of a team whose queue holds support cases."""
    return ctx.rng.choice(_QUEUES)


def _next(table: dict[str, Any], prefix: str, key: str = "id") -> str:
    n = max((int(r[key].split("-")[1]) for r in table["rows"] if str(r[key]).startswith(prefix)), default=0)
    return f"{prefix}-{n + 1:04d}"


def plant_row(state: dict[str, Any], table: str, **values: Any) -> None:
    """Append a row to ``table``, missing columns NULL; the table is validated
    (:class:`Table`) with it."""
    t = state["tables"][table]
    t["rows"].append({c["name"]: values.get(c["name"]) for c in t["columns"]})
    state["tables"][table] = Table.model_validate(t).model_dump(mode="json")


def ensure_customer(ctx: Ctx, email: str, name: str | None = None, city: str | None = None) -> str:
    """The id of the customer row with ``email``, added if missing; returns it."""
    t = ctx.state("database")["tables"]["customers"]
    found = next((r["id"] for r in t["rows"] if r["email"].lower() == email.lower()), None)
    if found:
        return found
    cid = _next(t, "CUS")
    plant_row(ctx.state("database"), "customers", id=cid, name=name or ctx.client(), email=email,
              city=city or ctx.fresh("city"), country="US", tier=ctx.rng.choice(("standard", "gold", "platinum")),
              created_on=ctx.day(-ctx.rng.randint(90, 700)))
    return cid


def _order(ctx: Ctx, cid: str, total: float, status: str, days_ago: int) -> None:
    state = ctx.state("database")
    plant_row(state, "orders", id=_next(state["tables"]["orders"], "ORD"), customer_id=cid, total=total,
              status=status, shipping_method="standard", placed_on=ctx.day(-days_ago))


def _plant_account(ctx: Ctx, key: Any, outs: dict[str, Any], stale: bool) -> str:
    cid = ensure_customer(ctx, key, outs.get("person_name"), outs.get("city"))
    total = outs.get("money") or round(ctx.rng.randint(12000, 90000) / 100, 2)
    if stale:  # a cancelled order: no part of the lifetime total
        _order(ctx, cid, total, "cancelled", 20)
        return cid
    first = round(total * ctx.rng.uniform(0.3, 0.7), 2)
    _order(ctx, cid, first, "delivered", ctx.rng.randint(60, 200))
    _order(ctx, cid, round(total - first, 2), "delivered", ctx.rng.randint(5, 40))
    return cid


def _sql(value: str) -> str:
    return "'" + value.replace("'", "''") + "'"


def _one(reader: Reader, sql: str, what: str) -> dict[str, Any]:
    rows = reader.read("database", "query", sql=sql)["rows"]
    if len(rows) != 1:
        raise SolveError(f"{len(rows)} rows for {what}")
    return rows[0]


def _account(reader: Reader, key: Any) -> dict[str, Any]:
    return _one(reader, "SELECT c.id, c.name, c.email, c.city, c.tier, ROUND(SUM(o.total), 2) AS lifetime_total "
                "FROM customers c JOIN orders o ON o.customer_id = c.id "
                f"WHERE lower(c.email) = lower({_sql(key)}) AND o.status != 'cancelled' GROUP BY c.id", key)


def _plant_case(ctx: Ctx, key: Any, outs: dict[str, Any], stale: bool) -> str:
    state = ctx.state("database")
    cid, case = ensure_customer(ctx, key), _next(state["tables"]["support_cases"], "CASE")
    plant_row(state, "support_cases", id=case, customer_id=cid, order_id=outs.get("order_id"),
              subject=ctx.rng.choice(_SUBJECTS), status="resolved" if stale else ctx.rng.choice(("open", "pending")),
              priority=ctx.rng.choice(("normal", "high")), owner_email=outs.get("email") or case_queue(ctx),
              opened_on=ctx.day(-30 if stale else -3), due_date=outs.get("date") or ctx.day(4))
    return case


def _open_case(reader: Reader, key: Any) -> dict[str, Any]:
    return _one(reader, "SELECT s.*, c.email AS customer_email FROM support_cases s JOIN customers c "
                f"ON c.id = s.customer_id WHERE lower(c.email) = lower({_sql(key)}) AND s.status != 'resolved'",
                f"the open case of {key}")


ACCOUNT = Relay(
    service="database", name="customer account", key="email",
    gives=(Give("person_name", "name", "the customer's name", "the customer"),
           Give("money", "lifetime_total", "the customer's lifetime order total"),
           Give("city", "city", "the customer's city")),
    plant=_plant_account, find=_account,
    where="The database's customers and orders tables give each customer's name and city, and their lifetime "
          "order total: the sum of all their orders that were not cancelled.",
    truth="Cancelled orders do not count toward a customer's lifetime order total.")

SUPPORT_CASE = Relay(
    service="database", name="support case", key="email",
    gives=(Give("email", "owner_email", "the email address of the team queue holding the case", "the case queue",
                draw=case_queue),
           Give("date", "due_date", "the support case's due date"),
           Give("order_id", "order_id", "the order the support case is about")),
    plant=_plant_case, find=_open_case,
    where="Support cases in the database are filed under the customer and name the team queue holding the case, "
          "the due date and the order concerned.",
    truth="A resolved support case is history; only the customer's open case counts.")

_SCOPE = [OnlyChanged(id="_", service="database", collection="tables", allow_ids=["support_cases"],
                      description="No other table was changed.")]


def _rows_where(**where: Any) -> dict[str, Any]:
    return {"rows": {"$any": where}}


def _assign(reader: Reader, args: dict[str, Found]) -> Write:
    owner, case = args["owner"].value, _open_case(reader, args["customer"].value)["id"]
    return Write(
        calls=[call("update_rows", table="support_cases", values={"owner_email": owner}, where={"id": case})],
        checks=[RecordMatches(id="_", service="database", collection="tables", record_id="support_cases",
                              where=_rows_where(id=case, owner_email={"$ieq": owner}),
                              description="The customer's open support case has the right owner.")],
        scope=_SCOPE, tool="update_rows", where={"table": "support_cases"}, label="the support case assignment")


def _log(reader: Reader, args: dict[str, Found]) -> Write:
    mention, email = args["mention"], args["customer"].value
    cid = _one(reader, f"SELECT id FROM customers WHERE lower(email) = lower({_sql(email)})", email)["id"]
    last = reader.read("database", "query", sql="SELECT id, date('now') AS today, date('now', '+3 day') AS due "
                       "FROM support_cases ORDER BY id DESC LIMIT 1")["rows"][0]
    row = {"id": f"CASE-{int(last['id'].split('-')[1]) + 1:04d}", "customer_id": cid,
           "subject": f"{args['case'].value}: {mention.noun} is {mention.display}", "status": "open",
           "priority": "normal", "opened_on": last["today"], "due_date": last["due"]}
    return Write(
        calls=[call("insert_rows", table="support_cases", rows=[row])],
        checks=[RecordMatches(id="_", service="database", collection="tables", record_id="support_cases",
                              where=_rows_where(customer_id=cid, status="open", subject={"$contains": mention.display}),
                              description="An open support case for the customer quotes the right value.")],
        scope=_SCOPE, tool="insert_rows", where={"table": "support_cases"}, label="the new support case")


def _prepare_assign(ctx: Ctx, values: dict[str, Any]) -> None:
    cid = ensure_customer(ctx, values["customer"])
    rows = ctx.state("database")["tables"]["support_cases"]["rows"]
    if not any(r["customer_id"] == cid and r["status"] != "resolved" for r in rows):
        _plant_case(ctx, values["customer"], {}, False)


def _prepare_log(ctx: Ctx, values: dict[str, Any]) -> None:
    ensure_customer(ctx, values["customer"])


def _desks(ctx: Ctx) -> tuple[str, str]:
    a, b = ctx.rng.sample(_DESKS, 2)
    return a.email, b.email


_CUSTOMER = Need("customer", "email", ("the customer",))

LINKS = ServiceLinks(
    service="database", label="the database",
    relays=(ACCOUNT, SUPPORT_CASE),
    actions=(
        Action(service="database", name="assign case",
               needs=(Need("owner", "email", (*STAFF_ROLES, "the account manager"), "case owner"), _CUSTOMER),
               build=_assign, prepare=_prepare_assign, routable=True,
               goal="make {owner} the owner of the customer's open support case in the database"),
        Action(service="database", name="log case", needs=(_CUSTOMER,), build=_log,
               prepare=_prepare_log,
               goal="log a new open support case in the database for {customer}, with {mention} in its subject"),
    ),
    route_values={"email": _desks},
)

__all__ = ["LINKS", "case_queue", "ensure_customer", "plant_row"]
