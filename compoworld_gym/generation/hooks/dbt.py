"""dbt in chained tasks: a dbt model whose last incremental build failed on
a schema change names its owner (meta.owner), the day it last built
successfully and the application that reads it (an exposure named after the
service); an application's key finds, through its exposure, the model it
reads. Write: the failed model and everything downstream of it are built
again (which takes a full refresh), and nothing else."""

from __future__ import annotations

import datetime as dt
from typing import Any

from compoworld_gym.checks import OnlyChanged, RecordMatches
from compoworld_gym.envs.services._blocks import day_start
from compoworld_gym.envs.services._dbt_models import DbtExposure, DbtModel, DbtRun, DbtState, DbtTest
from compoworld_gym.envs.services._dbt_rules import execute
from compoworld_gym.envs.services._dbt_select import Graph, resolve
from compoworld_gym.envs.services._engineering import team_engineers
from compoworld_gym.generation.context import Ctx, call
from compoworld_gym.generation.hooks.deployments import new_app_key
from compoworld_gym.generation.hooks.hr_directory import name_from_email
from compoworld_gym.generation.links import Action, Found, Give, Need, Reader, Relay, ServiceLinks, SolveError, Write

SERVICE = "dbt"
_SUBJECTS = ("loyalty_points", "gift_cards", "refund_events", "subscription_mrr", "warehouse_stock", "coupon_usage",
             "support_tickets", "ad_spend", "returns", "invoices", "shipments", "product_reviews", "price_changes")
_KINDS = ("fct", "int", "mart")


def owner_email(ctx: Ctx) -> str:
    """A data-team engineer (who owns dbt models)."""
    return ctx.rng.choice(team_engineers("data")).email


def new_model_name(ctx: Ctx) -> str:
    """A model name no model of the project uses yet, e.g. ``fct_gift_cards`` (reserved)."""
    taken = ctx.__dict__.setdefault("_dbt_models", set())
    taken |= set(ctx.state(SERVICE)["models"])
    name = ctx.rng.choice([f"{k}_{s}" for k in _KINDS for s in _SUBJECTS if f"{k}_{s}" not in taken])
    taken |= {name, f"{name}_daily"}
    return name


def _new_app(ctx: Ctx) -> str:
    exposures = ctx.state(SERVICE)["exposures"]
    while True:
        app = new_app_key(ctx)
        if app not in exposures:
            return app


def plant_failing_model(ctx: Ctx, name: str, owner: str, last_success: str, app: str) -> str:
    """Add an incremental model ``name`` (``on_schema_change: fail``) built successfully on
    ``last_success``, its daily rollup, a passing not_null test, the application exposure ``app``
    reading it, and this morning's scheduled run of ``name+``, which failed on a schema change
    (the rollup skipped). Every record is validated; returns ``name``."""
    state = DbtState.model_validate(ctx.state(SERVICE))
    day = dt.date.fromisoformat(last_success)
    built = dt.datetime.combine(day, dt.time(2, 0))
    key = f"{name.split('_', 1)[1].rstrip('s')}_id"
    sql = (f"{{{{ config(materialized='incremental', unique_key='{key}', on_schema_change='fail') }}}}\n"
           f"select {key}, customer_id, amount_usd, updated_at\nfrom {{{{ ref('stg_orders') }}}}\n"
           f"{{% if is_incremental() %}}where updated_at > (select max(updated_at) from {{{{ this }}}}){{% endif %}}")
    common = {"owner_email": owner, "relation_exists": True, "last_status": "success", "last_run_at": built,
              "last_success_on": day, "row_count": ctx.rng.randint(20_000, 600_000)}
    state.models[name] = DbtModel(name=name, path=f"models/marts/{name}.sql", schema_name="marts", raw_sql=sql,
                                  materialized="incremental", unique_key=key, on_schema_change="fail",
                                  tags=["hourly"], columns=[key, "customer_id", "amount_usd", "updated_at"],
                                  schema_drift=True, description=f"{name.replace('_', ' ')}.", **common,
                                  preview=[{key: f"{key[:3].upper()}-{ctx.rng.randint(10000, 99999)}",
                                            "amount_usd": round(ctx.rng.randint(500, 90000) / 100, 2)}])
    daily = f"{name}_daily"
    state.models[daily] = DbtModel(name=daily, path=f"models/marts/{daily}.sql", schema_name="marts",
                                   raw_sql=f"{{{{ config(materialized='table') }}}}\nselect date_trunc('day', "
                                           f"updated_at) as day, sum(amount_usd) as amount_usd\nfrom "
                                           f"{{{{ ref('{name}') }}}}\ngroup by 1",
                                   materialized="table", tags=["hourly"], columns=["day", "amount_usd"], **common)
    test = f"not_null_{name}_{key}"
    state.tests[test] = DbtTest(name=test, test_type="not_null", model=name, column=key, last_status="pass")
    state.exposures[app] = DbtExposure(name=app, type="application", owner_name=name_from_email(owner),
                                       owner_email=owner, url=f"https://github.com/acme/{app}", depends_on=[name],
                                       description=f"The {app} service reads {name}.")
    n = state.counters.get("RUN", 1)
    state.counters["RUN"] = n + 1
    at = day_start(ctx.today) - dt.timedelta(hours=ctx.rng.randint(2, 6), minutes=ctx.rng.randint(0, 59))
    run = DbtRun(id=f"RUN-{n:04d}", command="run", select=f"{name}+", invoked_by="scheduler:hourly", started_at=at,
                 status="success", elapsed=0.0)
    execute(state, Graph(state), run, at, resolve(state, f"{name}+", None, None))
    ctx.states[SERVICE] = state.model_dump(mode="json")
    return name


def _plant(ctx: Ctx, name: str, outs: dict[str, Any]) -> str:
    return plant_failing_model(ctx, name, outs.get("email") or owner_email(ctx),
                               outs.get("date") or ctx.day(-ctx.rng.randint(2, 6)),
                               outs.get("project_id") or _new_app(ctx))


def _model(reader: Reader, name: str) -> dict[str, Any]:
    rows = reader.read(SERVICE, "dbt_ls", models=name, resource_type="model", verbose=True)
    hits = [r for r in rows if r["name"] == name]
    if len(hits) != 1:
        raise SolveError(f"no dbt model {name}")
    return hits[0]


def _find_model(reader: Reader, key: Any) -> dict[str, Any]:
    node = _model(reader, str(key))
    apps = [e["name"] for e in reader.read(SERVICE, "dbt_ls", models=f"{key}+", resource_type="exposure",
                                           verbose=True) if e["type"] == "application"]
    return {**node, "application": apps[0] if len(apps) == 1 else None}


_OWNER = Give("email", "meta.owner", "the email address of the dbt model's owner", "the model owner", draw=owner_email)

MODEL = Relay(
    service=SERVICE, name="failed dbt model", key="dbt_model_id",
    gives=(_OWNER,
           Give("date", "last_run.last_success_on", "the day the model last built successfully", "the dbt model",
                draw=lambda ctx: ctx.day(-ctx.rng.randint(2, 6))),
           Give("project_id", "application", "the application that reads the model")),
    plant=lambda ctx, key, outs, stale: _plant(ctx, str(key), outs), find=_find_model,
    where="In the dbt project each model names its owner (meta.owner) and its latest build; exposures name the "
          "applications that read a model.",
    alloc=new_model_name, entry=lambda key: f"dbt model {key}")


def _find_app_model(reader: Reader, key: Any) -> dict[str, Any]:
    rows = reader.read(SERVICE, "dbt_ls", models=f"exposure:{key}", resource_type="exposure", verbose=True)
    hits = [r for r in rows if r["name"] == key]
    if len(hits) != 1 or len(hits[0]["depends_on"]["nodes"]) != 1:
        raise SolveError(f"no single model behind exposure {key}")
    name = hits[0]["depends_on"]["nodes"][0].rsplit(".", 1)[1]
    return {"id": name, **_model(reader, name)}


APP_MODEL = Relay(
    service=SERVICE, name="dbt model an application reads", key="project_id",
    gives=(Give("dbt_model_id", "id", "the dbt model the application reads"), _OWNER),
    plant=lambda ctx, key, outs, stale: plant_failing_model(
        ctx, new_model_name(ctx), outs.get("email") or owner_email(ctx), ctx.day(-ctx.rng.randint(2, 6)), str(key)),
    find=_find_app_model,
    where="dbt exposures record, for each application that reads the warehouse, the dbt model it reads (the "
          "exposure is named after the service); each model names its owner.",
    alloc=_new_app)


def _rebuild(reader: Reader, args: dict[str, Found]) -> Write:
    name = str(args["model"].value)
    _model(reader, name)
    down = [r["name"] for r in reader.read(SERVICE, "dbt_ls", models=f"{name}+", resource_type="model")]
    tests = [r["name"] for r in reader.read(SERVICE, "dbt_ls", models=f"{name}+", resource_type="test")]
    checks = [RecordMatches(id="_", service=SERVICE, collection="models", record_id=m,
                            where={"last_status": "success", "schema_drift": False},
                            description=f"dbt model {m} built successfully again.") for m in down]
    return Write(
        calls=[call("dbt_run", models=f"{name}+", full_refresh=True)],
        checks=checks,
        scope=[OnlyChanged(id="_", service=SERVICE, collection="models", allow_ids=down,
                           description="No model outside the failed one and its downstream was rebuilt."),
               OnlyChanged(id="_", service=SERVICE, collection="tests", allow_ids=tests,
                           description="Only the tests of those models ran."),
               OnlyChanged(id="_", service=SERVICE, collection="seeds",
                           description="No seed was reloaded.")],
        tool="dbt_run", where={"models": {"$contains": name}}, label="the rebuild of the failed dbt model")


def _prepare(ctx: Ctx, values: dict[str, Any]) -> None:
    if str(values["model"]) not in ctx.state(SERVICE)["models"]:
        _plant(ctx, str(values["model"]), {})


LINKS = ServiceLinks(
    service=SERVICE, label="the dbt analytics project",
    relays=(MODEL, APP_MODEL),
    actions=(Action(service=SERVICE, name="rebuild", needs=(Need("model", "dbt_model_id", noun="model"),),
                    build=_rebuild, prepare=_prepare,
                    goal="get {model} and every model downstream of it building successfully again (its last "
                         "incremental run failed), without rebuilding any other model"),),
)

__all__ = ["LINKS", "new_model_name", "owner_email", "plant_failing_model"]
