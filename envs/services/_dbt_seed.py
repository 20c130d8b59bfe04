"""Seed data of the dbt service: the company's analytics project.

Raw tables of the shop, the web tracker and Stripe feed staging views, an
ephemeral and a table in intermediate, and the marts the data team owns
(the engineers of the shared ``data`` team): orders (incremental), customers,
daily revenue, web sessions (incremental, ``on_schema_change: fail``),
channel performance and account health. Exposures name the dashboards and the
``reporting-etl`` application that read them. The history is three
invocations really executed by the engine: the seed load, the nightly build
two days ago (all green), and last night's build, after the web tracker
added a column (``fct_sessions`` fails on the schema change and
``mart_channel_performance`` is skipped) and a CRM column was dropped
(``mart_account_health`` fails on every build).
"""

from __future__ import annotations

import datetime as dt
import random

from faker import Faker

from compoworld_gym.envs.services._blocks import day_start
from compoworld_gym.envs.services._company import STAFF
from compoworld_gym.envs.services._dbt_models import (
    DbtExposure, DbtModel, DbtProject, DbtRun, DbtSeedFile, DbtSource, DbtState, DbtTest, Package,
)
from compoworld_gym.envs.services._dbt_rules import execute
from compoworld_gym.envs.services._dbt_select import Graph, resolve
from compoworld_gym.envs.services._engineering import team_engineers

VICTOR, INES = (e.email for e in team_engineers("data"))
_CFG = "{{{{ config(materialized='{m}'{extra}) }}}}\n"
#: name: (folder, materialized, config extras, sql body, tags, owner, columns)
_MODELS: dict[str, tuple[str, str, str, str, tuple[str, ...], str, tuple[str, ...]]] = {
    "stg_customers": ("staging", "view", "", "select id as customer_id, lower(email) as email, first_name, last_name,"
                      " country as country_code, created_at\nfrom {{ source('shop', 'customers') }}", (), INES,
                      ("customer_id", "email", "country_code", "created_at")),
    "stg_orders": ("staging", "view", "", "select id as order_id, customer_id, status, currency, amount as "
                   "amount_local, ordered_at\nfrom {{ source('shop', 'orders') }}", (), VICTOR,
                   ("order_id", "customer_id", "status", "currency", "amount_local", "ordered_at")),
    "stg_payments": ("staging", "view", "", "select id as payment_id, order_id, method, amount\nfrom "
                     "{{ source('shop', 'payments') }}", (), VICTOR, ("payment_id", "order_id", "method", "amount")),
    "stg_refunds": ("staging", "view", "", "select id as refund_id, metadata:order_id::string as order_id, "
                    "amount / 100 as amount, created as refunded_at\nfrom {{ source('stripe', 'refunds') }}", (),
                    VICTOR, ("refund_id", "order_id", "amount", "refunded_at")),
    "stg_web_sessions": ("staging", "view", "", "select session_id, anonymous_id, user_id as customer_id, utm_source,"
                         " started_at\nfrom {{ source('web', 'sessions') }}", (), INES,
                         ("session_id", "customer_id", "utm_source", "started_at")),
    "int_order_payments": ("intermediate", "ephemeral", "", "select order_id, sum(amount) as paid_amount, "
                           "count(*) as payment_count\nfrom {{ ref('stg_payments') }}\ngroup by 1", (), VICTOR,
                           ("order_id", "paid_amount", "payment_count")),
    "int_customer_orders": ("intermediate", "table", "", "select customer_id, count(*) as order_count, "
                            "min(ordered_at) as first_order_at, sum(amount_local) as lifetime_value\nfrom "
                            "{{ ref('stg_orders') }}\ngroup by 1", (), INES,
                            ("customer_id", "order_count", "first_order_at", "lifetime_value")),
    "fct_orders": ("marts/finance", "incremental", ", unique_key='order_id', on_schema_change='append_new_columns'",
                   "select o.order_id, o.customer_id, o.status, o.ordered_at, o.amount_local * fx.rate_to_usd as "
                   "amount_usd,\n  p.paid_amount, coalesce(r.amount, 0) as refunded_amount\nfrom "
                   "{{ ref('stg_orders') }}"
                   " o\nleft join {{ ref('int_order_payments') }} p using (order_id)\nleft join "
                   "{{ ref('stg_refunds') }} r using (order_id)\njoin {{ ref('fx_rates') }} fx on fx.currency = "
                   "o.currency\n{% if is_incremental() %}where o.ordered_at > (select max(ordered_at) from {{ this }})"
                   "{% endif %}", ("finance", "nightly"), VICTOR,
                   ("order_id", "customer_id", "status", "ordered_at", "amount_usd", "refunded_amount")),
    "dim_customers": ("marts/crm", "table", "", "select {{ dbt_utils.generate_surrogate_key(['c.customer_id']) }} as "
                      "customer_key, c.customer_id, c.email, cc.country_name, co.order_count, co.lifetime_value\nfrom "
                      "{{ ref('stg_customers') }} c\nleft join {{ ref('int_customer_orders') }} co using (customer_id)"
                      "\nleft join {{ ref('country_codes') }} cc using (country_code)", ("crm", "nightly"), INES,
                      ("customer_id", "email", "country_name", "order_count", "lifetime_value")),
    "fct_revenue_daily": ("marts/finance", "table", "", "select date_trunc('day', ordered_at) as order_date, "
                          "sum(amount_usd) as revenue_usd, sum(refunded_amount) as refunds_usd, count(*) as orders\n"
                          "from {{ ref('fct_orders') }}\ngroup by 1", ("finance", "nightly"), VICTOR,
                          ("order_date", "revenue_usd", "refunds_usd", "orders")),
    "fct_sessions": ("marts/marketing", "incremental", ", unique_key='session_id', on_schema_change='fail'",
                     "select s.session_id, s.customer_id, s.started_at, coalesce(mc.channel, 'other') as channel\n"
                     "from {{ ref('stg_web_sessions') }} s\nleft join {{ ref('marketing_channels') }} mc using "
                     "(utm_source)\n{% if is_incremental() %}where s.started_at > (select max(started_at) from "
                     "{{ this }}){% endif %}", ("marketing", "nightly"), INES,
                     ("session_id", "customer_id", "started_at", "channel")),
    "mart_channel_performance": ("marts/marketing", "table", "", "select s.channel, count(distinct s.session_id) as "
                                 "sessions, count(distinct o.order_id) as orders, sum(o.amount_usd) as revenue_usd\n"
                                 "from {{ ref('fct_sessions') }} s\nleft join {{ ref('fct_orders') }} o on "
                                 "o.customer_id = s.customer_id\ngroup by 1", ("marketing", "nightly"), INES,
                                 ("channel", "sessions", "orders", "revenue_usd")),
    "mart_account_health": ("marts/crm", "table", "", "select d.customer_id, d.email, d.lifetime_value, d.nps_score,"
                            " count(o.order_id) as orders_90d\nfrom {{ ref('dim_customers') }} d\nleft join "
                            "{{ ref('fct_orders') }} o using (customer_id)\ngroup by 1, 2, 3, 4", ("crm", "nightly"),
                            VICTOR, ("customer_id", "email", "lifetime_value", "nps_score", "orders_90d")),
}
_BI = "https://bi.company.example/superset/dashboard"
_CHANNELS = ("paid_search", "email", "organic", "social", "affiliate")
_STATUSES = ("placed", "shipped", "delivered", "returned", "cancelled")


def _cell(col: str, i: int, rng: random.Random, fake: Faker, today: dt.date) -> object:
    """A seeded preview value for a column, by its name."""
    if col.endswith("_id"):
        return f"{col[:3].upper()}-{rng.randint(10000, 99999)}"
    if col == "email":
        return fake.email()
    if col in ("status",):
        return _STATUSES[i % len(_STATUSES)]
    if col == "channel":
        return _CHANNELS[i % len(_CHANNELS)]
    if col.endswith(("_at", "_date")):
        return (today - dt.timedelta(days=i + 1)).isoformat()
    if col in ("currency",):
        return "USD"
    if col in ("country_code",):
        return rng.choice(("US", "GB", "DE", "CA"))
    if col in ("country_name",):
        return rng.choice(("United States", "United Kingdom", "Germany", "Canada"))
    if col.endswith(("_count", "orders", "sessions", "_90d")):
        return rng.randint(1, 400)
    if col == "utm_source":
        return rng.choice(("google", "newsletter", "instagram"))
    if col in ("method",):
        return rng.choice(("card", "paypal", "gift_card"))
    return round(rng.randint(1000, 900000) / 100, 2)


def _models(state: DbtState, rng: random.Random, fake: Faker, today: dt.date) -> None:
    for name, (folder, mat, extra, body, tags, owner, cols) in _MODELS.items():
        rows = (rng.randint(300, 1_500) if name.endswith("_daily") or name.startswith("mart_channel")
                else rng.randint(5_000, 80_000) if name.startswith(("mart_", "dim_", "int_"))
                else rng.randint(40_000, 900_000))
        preview = [{c: _cell(c, i, rng, fake, today) for c in cols} for i in range(5)]
        state.models[name] = DbtModel(
            name=name, path=f"models/{folder}/{name}.sql", schema_name=folder.split("/")[0],
            raw_sql=_CFG.format(m=mat, extra=extra) + body, materialized=mat, tags=list(tags), owner_email=owner,
            unique_key="order_id" if name == "fct_orders" else "session_id" if name == "fct_sessions" else None,
            on_schema_change="fail" if name == "fct_sessions" else "append_new_columns" if name == "fct_orders"
            else "ignore", columns=list(cols), relation_exists=False, row_count=rows,
            preview=[] if mat == "ephemeral" else preview, description=f"{name.replace('_', ' ')} ({folder}).")


def _sources_seeds_tests(state: DbtState, today: dt.date) -> None:
    loaded = day_start(today) - dt.timedelta(hours=8)
    for name, loader in (("shop.customers", "fivetran"), ("shop.orders", "fivetran"), ("shop.payments", "fivetran"),
                         ("stripe.refunds", "stripe"), ("web.sessions", "segment")):
        state.sources[name] = DbtSource(name=name, relation=f"raw.{name}", loader=loader, loaded_at=loaded)
    for name, cols, n, rows in (
            ("country_codes", ["country_code", "country_name", "region"], 249,
             [{"country_code": "US", "country_name": "United States", "region": "NA"},
              {"country_code": "GB", "country_name": "United Kingdom", "region": "EMEA"}]),
            ("marketing_channels", ["utm_source", "channel"], 42,
             [{"utm_source": "google", "channel": "paid_search"}, {"utm_source": "newsletter", "channel": "email"}]),
            ("fx_rates", ["currency", "rate_to_usd", "valid_from"], 180,
             [{"currency": "EUR", "rate_to_usd": 1.09, "valid_from": "2026-01-01"},
              {"currency": "GBP", "rate_to_usd": 1.27, "valid_from": "2026-01-01"}])):
        state.seeds[name] = DbtSeedFile(name=name, path=f"seeds/{name}.csv", columns=cols, row_count=n,
                                        loaded=False, preview=rows)
    for test_type, model, col, extra in (
            ("unique", "stg_orders", "order_id", {}), ("not_null", "stg_orders", "order_id", {}),
            ("accepted_values", "stg_orders", "status", {"values": list(_STATUSES)}),
            ("not_null", "stg_customers", "email", {"severity": "warn", "failures": 3}),
            ("unique", "dim_customers", "customer_id", {}),
            ("relationships", "fct_orders", "customer_id", {"to": "dim_customers", "field": "customer_id",
                                                            "severity": "warn", "failures": 2}),
            ("not_null", "fct_orders", "amount_usd", {}), ("unique", "fct_sessions", "session_id", {}),
            ("not_null", "fct_revenue_daily", "revenue_usd", {})):
        name = f"{test_type}_{model}_{col}" + (f"__{extra['to']}" if "to" in extra else "")
        state.tests[name] = DbtTest(name=name, test_type=test_type, model=model, column=col, **extra)


def _exposures(state: DbtState) -> None:
    elena = next(s for s in STAFF if s.name == "Elena Petrova")
    jamal = next(s for s in STAFF if s.name == "Jamal Wright")
    victor = team_engineers("data")[0]
    for name, kind, owner, email, url, deps in (
            ("weekly_revenue", "dashboard", elena.name, elena.email, f"{_BI}/41/", ["fct_revenue_daily"]),
            ("account_health", "dashboard", jamal.name, jamal.email, f"{_BI}/57/", ["mart_account_health"]),
            ("reporting-etl", "application", victor.name, victor.email, "https://github.com/acme/reporting-etl",
             ["fct_orders", "dim_customers"]),
            ("marketing_attribution", "notebook", INES.split("@")[0].replace(".", " ").title(), INES,
             "https://notebooks.company.example/attribution", ["mart_channel_performance"])):
        state.exposures[name] = DbtExposure(name=name, type=kind, owner_name=owner, owner_email=email, url=url,
                                            depends_on=deps, description=f"{name.replace('_', ' ')} ({kind}).")


def _history(state: DbtState, today: dt.date) -> None:
    """Three invocations really executed: seeds, a green nightly build, then last night's build."""
    start = day_start(today)
    for n, (cmd, when, job) in enumerate((("seed", start - dt.timedelta(days=20, hours=4), "scheduler:weekly_seeds"),
                                          ("build", start - dt.timedelta(days=2, hours=7), "scheduler:nightly"),
                                          ("build", start - dt.timedelta(hours=7), "scheduler:nightly")), start=1):
        if n == 3:  # what changed since: the tracker added a column, the CRM dropped nps_score
            state.models["fct_sessions"].schema_drift = True
            state.models["mart_account_health"].sql_error = ("000904 (42000): SQL compilation error: error line 1 "
                                                             "at position 48 invalid identifier 'D.NPS_SCORE'")
        run = DbtRun(id=f"RUN-{n:04d}", command=cmd, selector=None if cmd == "seed" else "nightly",
                     invoked_by=job, started_at=when, status="success", elapsed=0.0)
        nodes = set(state.seeds) if cmd == "seed" else resolve(state, None, "nightly", None)
        execute(state, Graph(state), run, when, nodes)
    state.counters["RUN"] = 4


def build_state(fake: Faker, rng: random.Random, today: dt.date) -> DbtState:
    """The analytics project: 14 models, 3 seeds, 5 sources, 9 tests, 4 exposures and 3 runs."""
    state = DbtState(project=DbtProject(
        packages=[Package(package="dbt-labs/dbt_utils", version="1.3.0"),
                  Package(package="calogica/dbt_expectations", version="0.10.4")],
        selectors={"nightly": "+tag:nightly", "finance": "+tag:finance", "marketing": "tag:marketing"}))
    _models(state, rng, fake, today)
    _sources_seeds_tests(state, today)
    _exposures(state)
    _history(state, today)
    return state
