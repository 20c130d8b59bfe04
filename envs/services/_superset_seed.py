"""Seed data of the Superset service (see ``superset.py``; records in ``_superset_models``).

The people are the fixed company roster (``_company.STAFF``) plus the data
engineers of ``_engineering``, each a Superset user with an integer id, so a
dashboard's owner is an address the mailbox, Slack and the HR directory
know. The operations mailbox (``ops@company.example``) is the Admin the agent
acts as. Databases, datasets, charts and dashboards are a plausible
analytics deployment: a warehouse, a support replica and an unused lake;
client "Account review" dashboards name the customer company they report on.
"""

from __future__ import annotations

import datetime as dt
import random
from faker import Faker

from compoworld_gym.entities import CompanyName
from compoworld_gym.envs.services._company import DOMAIN, OPS_EMAIL, STAFF
from compoworld_gym.envs.services._engineering import ENGINEERS
from compoworld_gym.envs.services._superset_models import (
    BASE_URL, Chart, Dashboard, Database, Dataset, Owner, SavedQuery, SupersetState, SupersetUser, TableRef, Tag,
    owner_of,
)
from compoworld_gym.envs.services._superset_rules import next_int_id
from compoworld_gym.service import DAY_START

#: Prefix of the client dashboards that report on one customer company.
ACCOUNT_REVIEW = "Account review: "


def _users() -> list[SupersetUser]:
    people = [("Operations", "Desk", OPS_EMAIL, ["Admin"])]
    people += [(*s.name.split(" ", 1), s.email, ["Alpha"]) for s in STAFF]
    known = {p[2] for p in people}
    people += [(*e.name.split(" ", 1), e.email, ["Alpha"]) for e in ENGINEERS if e.team == "data" and e.email not in known]
    return [SupersetUser(id=i, first_name=f, last_name=last, email=em, username=em.split("@")[0], roles=roles)
            for i, (f, last, em, roles) in enumerate(people, start=1)]


_DATABASES = (
    ("analytics-warehouse", "postgresql", f"postgresql://superset:XXXXXXXXXX@warehouse.internal.{DOMAIN}:5432/analytics",
     True, (("public", "orders"), ("public", "customers"), ("finance", "invoices"), ("finance", "payments"),
            ("finance", "refunds"), ("logistics", "shipments"))),
    ("support-replica", "mysql", f"mysql://readonly:XXXXXXXXXX@support-db.internal.{DOMAIN}:3306/support",
     True, (("support", "tickets"), ("support", "csat_responses"), ("support", "agent_shifts"))),
    ("events-lake", "trino", f"trino://etl@lake.internal.{DOMAIN}:8080/hive", False,
     (("events", "page_views"), ("events", "signups"))),
)
#: (table, database id, owner email, columns, metrics)
_DATASETS = (
    ("orders", 1, "priya.raman", ("order_id", "customer_id", "order_date", "status", "total"),
     ("count", "sum__total", "avg__total")),
    ("invoices", 1, "elena.petrova", ("invoice_id", "customer_id", "issued_on", "due_on", "amount", "status"),
     ("count", "sum__amount")),
    ("payments", 1, "tomas.lindqvist", ("payment_id", "invoice_id", "paid_on", "amount", "method"),
     ("count", "sum__amount")),
    ("shipments", 1, "daniel.cho", ("shipment_id", "order_id", "carrier", "shipped_on", "delivered_on", "late"),
     ("count", "count_late")),
    ("tickets", 2, "luis.ortega", ("ticket_id", "opened_at", "priority", "status", "company", "first_response_min"),
     ("count", "avg__first_response_min")),
    ("csat_responses", 2, "jamal.wright", ("response_id", "ticket_id", "score", "company", "answered_on"),
     ("count", "avg__score")),
)
#: (title, dataset index, viz type, metric, groupby, dashboard keys)
_CHARTS = (
    ("Monthly revenue", 0, "line", "sum__total", [], ("revenue",)),
    ("Orders by status", 0, "pie", "count", ["status"], ("revenue", "billing")),
    ("Open invoice amount", 1, "big_number_total", "sum__amount", [], ("billing", "revenue")),
    ("Payments by method", 2, "bar", "sum__amount", ["method"], ("billing",)),
    ("Late shipments", 3, "big_number", "count_late", [], ("logistics",)),
    ("Shipments by carrier", 3, "bar", "count", ["carrier"], ("logistics",)),
    ("Tickets by priority", 4, "bar", "count", ["priority"], ("support",)),
    ("First response time", 4, "line", "avg__first_response_min", [], ("support",)),
    ("CSAT trend", 5, "line", "avg__score", [], ("support", "renewals")),
    ("Tickets per account", 4, "table", "count", ["company"], ("renewals",)),
)
#: (key, title, owner email local part, published)
_DASHBOARDS = (("revenue", "Revenue Overview", "elena.petrova", True),
               ("billing", "Billing Operations", "priya.raman", True),
               ("logistics", "Logistics SLA", "daniel.cho", True),
               ("support", "Support Health", "luis.ortega", True),
               ("renewals", "Customer Success: Renewals", "jamal.wright", True))
_ACCOUNT_MANAGERS = tuple(s.email for s in STAFF if s.team == "customer_success")


def _when(today: dt.date, rng: random.Random, lo: int, hi: int) -> dt.datetime:
    return dt.datetime.combine(today - dt.timedelta(days=rng.randint(lo, hi)), DAY_START) + dt.timedelta(
        minutes=rng.randint(0, 480))


def build_state(fake: Faker, rng: random.Random, today: dt.date) -> SupersetState:
    """The seeded Superset instance (see the module docstring)."""
    st = SupersetState()
    users = {u.email: u for u in _users()}
    st.users = {str(u.id): u for u in users.values()}
    own = {u.email.split("@")[0]: owner_of(u) for u in users.values()}
    for i, (name, backend, uri, sqllab, tables) in enumerate(_DATABASES, start=1):
        st.databases[str(i)] = Database(id=i, database_name=name, backend=backend, sqlalchemy_uri=uri,
                                        expose_in_sqllab=sqllab,
                                        tables=[TableRef(schema_name=s, table=t) for s, t in tables])
    for i, (table, db, who, cols, metrics) in enumerate(_DATASETS, start=1):
        schema = next(t.schema_name for t in st.databases[str(db)].tables if t.table == table)
        st.datasets[str(i)] = Dataset(id=i, table_name=table, schema_name=schema, database_id=db,
                                      description=f"One row per {table.rstrip('s').replace('_', ' ')}.",
                                      owners=[own[who]], columns=list(cols), metrics=list(metrics),
                                      changed_on=_when(today, rng, 20, 90))
    board_ids: dict[str, int] = {}
    for i, (key, title, who, published) in enumerate(_DASHBOARDS, start=1):
        board_ids[key] = i
        st.dashboards[str(i)] = Dashboard(
            id=i, dashboard_title=title, slug=key, url=f"{BASE_URL}/superset/dashboard/{key}/", published=published,
            owners=[own[who]], json_metadata={"refresh_frequency": rng.choice((0, 300, 3600))},
            certified_by="Finance" if key == "revenue" else None,
            certification_details="Reconciled monthly against the ledger." if key == "revenue" else None,
            changed_on=_when(today, rng, 1, 40))
    for i, (title, ds, viz, metric, groupby, boards) in enumerate(_CHARTS, start=1):
        dataset = st.datasets[str(ds + 1)]
        st.charts[str(i)] = Chart(id=i, slice_name=title, viz_type=viz, datasource_id=dataset.id,
                                  params={"metrics": [metric], "groupby": groupby,
                                          "time_range": rng.choice(("Last quarter", "Last month", "Last year"))},
                                  owners=list(dataset.owners), dashboards=[board_ids[b] for b in boards],
                                  changed_on=_when(today, rng, 5, 60))
    _account_reviews(st, fake, rng, today, own)
    _queries_and_tags(st, rng, today, own)
    return st


def _account_reviews(st: SupersetState, fake: Faker, rng: random.Random, today: dt.date,
                     own: dict[str, Owner]) -> None:
    """Published client dashboards (one per customer company), plus one draft."""
    companies = sorted({fake.company() for _ in range(6)})[:4]
    for k, company in enumerate(companies):
        add_account_review(st, company, rng.choice(_ACCOUNT_MANAGERS), published=k < 3,
                           changed_on=_when(today, rng, 2, 30), own=own)


def add_account_review(st: SupersetState, company: CompanyName, owner_email: str, *, published: bool,
                       changed_on: dt.datetime, own: dict[str, Owner] | None = None) -> Dashboard:
    """Add an "Account review: <company>" dashboard owned by ``owner_email`` with
    the two account charts on it; returns it.

    Raises:
        KeyError: ``owner_email`` is not a Superset user.
    """
    owners = own or {u.email.split("@")[0]: owner_of(u) for u in st.users.values()}
    did = next_int_id(st.counters, "dashboard", st.dashboards)
    board = Dashboard(id=did, dashboard_title=f"{ACCOUNT_REVIEW}{company}", slug=None,
                      url=f"{BASE_URL}/superset/dashboard/{did}/", published=published,
                      owners=[owners[owner_email.split("@")[0]]],
                      json_metadata={"native_filter_configuration": [{"column": "company", "value": company}]},
                      changed_on=changed_on)
    st.dashboards[str(did)] = board
    for chart in st.charts.values():
        if chart.slice_name in ("Tickets per account", "CSAT trend"):
            chart.dashboards.append(did)
    return board


def _queries_and_tags(st: SupersetState, rng: random.Random, today: dt.date, own: dict[str, Owner]) -> None:
    queries = (("Overdue invoices", 1, "finance", "SELECT invoice_id, customer_id, amount FROM finance.invoices "
                "WHERE status = 'open' AND due_on < CURRENT_DATE", "elena.petrova"),
               ("Late shipments this week", 1, "logistics", "SELECT * FROM logistics.shipments WHERE late "
                "AND shipped_on >= CURRENT_DATE - 7", "daniel.cho"),
               ("Low CSAT accounts", 2, "support", "SELECT company, AVG(score) FROM support.csat_responses "
                "GROUP BY company HAVING AVG(score) < 3.5", "jamal.wright"))
    for i, (label, db, schema, sql, who) in enumerate(queries, start=1):
        st.saved_queries[str(i)] = SavedQuery(id=i, label=label, db_id=db, schema_name=schema, sql=sql,
                                              created_by=own[who], changed_on=_when(today, rng, 3, 50))
    st.tags["1"] = Tag(id=1, name="certified-metrics", objects=[("dashboard", 1), ("chart", 1)])
    st.tags["2"] = Tag(id=2, name="finance", objects=[("dashboard", 1), ("dashboard", 2), ("saved_query", 1)])
    st.tags["3"] = Tag(id=3, name="quarterly-review", objects=[("dashboard", 5)])
