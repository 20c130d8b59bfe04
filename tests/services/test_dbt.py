"""Tests of the dbt service (the dbt CLI MCP server's interface, a deterministic dbt project)."""

from __future__ import annotations

import pytest
from _svc_asserts import code, error, ok

from compoworld_gym.envs.services.dbt import Dbt
from compoworld_gym.envs.services._dbt_models import PROJECT_DIR


@pytest.fixture
def svc(make_service):
    return make_service(Dbt)


def names(svc, **args):
    return ok(svc, "dbt_ls", {**args, "output_format": "name"})


def edited(make_service, change):
    """A service on the seeded state after ``change(state_dict)``."""
    state = make_service(Dbt).state_dict()
    change(state)
    return make_service(Dbt, state=state)


def test_ls_selection_syntax(svc):
    assert len(names(svc)) == 34  # 13 models, 3 seeds, 4 exposures, 5 sources, 9 tests
    assert names(svc, models="2+fct_revenue_daily", resource_type="model") == [
        "stg_orders", "stg_refunds", "int_order_payments", "fct_orders", "fct_revenue_daily"]
    assert names(svc, models="fct_sessions+") == ["fct_sessions", "mart_channel_performance", "marketing_attribution",
                                                  "unique_fct_sessions_session_id"]
    assert names(svc, models="marts.finance", resource_type="model") == ["fct_orders", "fct_revenue_daily"]
    assert names(svc, models="tag:nightly,config.materialized:table", resource_type="model") == [
        "dim_customers", "fct_revenue_daily", "mart_account_health", "mart_channel_performance"]
    assert names(svc, models="source:web+", resource_type="model") == ["stg_web_sessions", "fct_sessions",
                                                                     "mart_channel_performance"]
    assert names(svc, models="stg_*", exclude="stg_refunds stg_web_sessions", resource_type="model") == [
        "stg_customers", "stg_orders", "stg_payments"]
    assert names(svc, models="path:models/staging", resource_type="model")[0] == "stg_customers"
    assert "int_order_payments" in names(svc, models="@fct_sessions", resource_type="model")
    assert names(svc, models="+exposure:reporting-etl", resource_type="exposure") == ["reporting-etl"]
    assert names(svc, selector="marketing") == ["fct_sessions", "mart_channel_performance",
                                                "unique_fct_sessions_session_id"]
    assert ok(svc, "dbt_ls", {"models": "fct_orders", "resource_type": "model", "output_format": "selector"}) == [
        "acme_analytics.marts.finance.fct_orders"]
    assert ok(svc, "dbt_ls", {"models": "dim_customers", "resource_type": "model", "output_format": "path"}) == [
        "models/marts/crm/dim_customers.sql"]
    assert len(ok(svc, "dbt_ls", {"resource_type": "source"})) == 5


def test_ls_verbose_shows_owner_and_latest_build(svc):
    node = ok(svc, "dbt_ls", {"models": "fct_sessions", "resource_type": "model", "verbose": True})[0]
    assert node["meta"]["owner"] == "ines.moreau@company.example"
    assert (node["last_run"]["status"], node["last_run"]["run_id"], node["last_run"]["last_success_on"]) == (
        "error", "RUN-0003", "2026-01-13")
    assert node["depends_on"]["nodes"] == ["model.acme_analytics.stg_web_sessions",
                                           "seed.acme_analytics.marketing_channels"]
    app = ok(svc, "dbt_ls", {"models": "exposure:reporting-etl", "resource_type": "exposure", "verbose": True})[0]
    assert (app["type"], app["owner"]["email"]) == ("application", "victor.santos@company.example")


def test_ls_errors(svc):
    assert code(svc, "dbt_ls", {"models": "colour:red"}) == 400
    assert code(svc, "dbt_ls", {"models": "a", "selector": "nightly"}) == 400
    assert code(svc, "dbt_ls", {"models": "no_such_model"}) == 404
    assert code(svc, "dbt_ls", {"selector": "weekly"}) == 404
    assert code(svc, "dbt_ls", {"resource_type": "snapshot"}) == 400
    assert code(svc, "dbt_ls", {"output_format": "yaml"}) == 400


def test_seeded_history_and_run_results(svc):
    runs = ok(svc, "dbt_run_results", {"limit": 3})
    assert [(r["id"], r["command"], r["status"]) for r in runs] == [
        ("RUN-0003", "build", "error"), ("RUN-0002", "build", "success"), ("RUN-0001", "seed", "success")]
    last = {r["name"]: r["status"] for r in runs[0]["results"]}
    assert (last["fct_sessions"], last["mart_channel_performance"], last["mart_account_health"],
            last["unique_fct_sessions_session_id"], last["not_null_stg_customers_email"]) == (
        "error", "skipped", "error", "skipped", "warn")
    assert ok(svc, "dbt_run_results", {"run_id": "RUN-0001"})[0]["invoked_by"] == "scheduler:weekly_seeds"
    assert code(svc, "dbt_run_results", {"run_id": "RUN-0099"}) == 404


def test_schema_change_needs_full_refresh(svc):
    first = ok(svc, "dbt_run", {"models": "fct_sessions+"})
    assert (first["run_id"], first["status"]) == ("RUN-0004", "error")
    assert first["log"] == [
        "1 of 2 ERROR creating sql incremental model marts.fct_sessions ... [ERROR in 3.45s]",
        "2 of 2 SKIP relation marts.mart_channel_performance ... [SKIPPED in 0.00s]",
        "Done. PASS=0 WARN=0 ERROR=1 SKIP=1 TOTAL=2"]
    assert "full_refresh" in first["errors"][0]["message"]
    fixed = ok(svc, "dbt_run", {"models": "fct_sessions+", "full_refresh": True, "project_dir": PROJECT_DIR})
    assert (fixed["run_id"], fixed["status"], fixed["errors"]) == ("RUN-0005", "success", [])
    model = svc.state.models["fct_sessions"]
    assert (model.last_status, model.schema_drift, str(model.last_success_on)) == ("success", False, "2026-01-15")
    assert svc.state.models["mart_channel_performance"].last_run_id == "RUN-0005"
    assert svc.state.models["fct_orders"].last_run_id == "RUN-0003"  # not selected: untouched


def test_standing_sql_error_fails_every_build(svc):
    for refresh in (False, True):
        res = ok(svc, "dbt_run", {"models": "mart_account_health", "full_refresh": refresh})
        assert res["status"] == "error" and "NPS_SCORE" in res["errors"][0]["message"]


def test_missing_parent_relation_and_seed_load(make_service):
    def unload(state):
        state["seeds"]["marketing_channels"]["loaded"] = False
    svc = edited(make_service, unload)
    res = ok(svc, "dbt_run", {"models": "fct_sessions", "full_refresh": True})
    assert "ANALYTICS.SEEDS.MARKETING_CHANNELS' does not exist" in res["errors"][0]["message"]
    seeded = ok(svc, "dbt_seed", {"exclude": "country_codes"})
    assert seeded["log"][-1] == "Done. PASS=2 WARN=0 ERROR=0 SKIP=0 TOTAL=2"
    assert ok(svc, "dbt_run", {"models": "fct_sessions", "full_refresh": True})["status"] == "success"
    assert ok(svc, "dbt_seed", {"selector": "nightly"})["log"][-1] == "Done. PASS=3 WARN=0 ERROR=0 SKIP=0 TOTAL=3"
    assert code(svc, "dbt_seed", {"selector": "marketing"}) == 404  # tag:marketing selects no seed
    assert code(svc, "dbt_run", {"models": "country_codes"}) == 404  # no models in the selection


def test_build_skips_downstream_of_a_failed_test(make_service):
    def break_data(state):
        state["tests"]["not_null_fct_orders_amount_usd"]["failures"] = 4
    svc = edited(make_service, break_data)
    res = ok(svc, "dbt_build", {"models": "fct_orders+", "exclude": "mart_account_health"})
    status = {r["name"]: r["status"] for r in svc.state.runs[res["run_id"]].model_dump()["results"]}
    assert (status["fct_orders"], status["not_null_fct_orders_amount_usd"], status["fct_revenue_daily"]) == (
        "success", "fail", "skipped")
    assert status["relationships_fct_orders_customer_id__dim_customers"] == "warn"  # a warning skips nothing
    assert res["status"] == "error"


def test_tests_command(make_service, svc):
    res = ok(svc, "dbt_test", {"models": "stg_customers"})
    assert res["log"] == ["1 of 1 WARN 3 not_null_stg_customers_email ... [WARN in 0.35s]",
                          "Done. PASS=0 WARN=1 ERROR=0 SKIP=0 TOTAL=1"] and res["status"] == "success"
    assert ok(svc, "dbt_test", {})["log"][-1] == "Done. PASS=7 WARN=2 ERROR=0 SKIP=0 TOTAL=9"

    def drop(state):
        state["models"]["fct_revenue_daily"]["relation_exists"] = False
    broken = edited(make_service, drop)
    res = ok(broken, "dbt_test", {"models": "fct_revenue_daily"})
    assert res["status"] == "error" and "FCT_REVENUE_DAILY' does not exist" in res["errors"][0]["message"]
    assert code(svc, "dbt_test", {"models": "country_codes"}) == 404


def test_compile_renders_refs(svc):
    sql = ok(svc, "dbt_compile", {"models": "fct_orders"})[0]["compiled_sql"]
    assert "from analytics.staging.stg_orders o" in sql and "__dbt__cte__int_order_payments" in sql
    assert "analytics.seeds.fx_rates" in sql and "(select max(ordered_at) from analytics.marts.fct_orders)" in sql
    assert "config(" not in sql
    dim = ok(svc, "dbt_compile", {"models": "dim_customers"})[0]["compiled_sql"]
    assert dim.startswith("select md5(cast(coalesce(cast(c.customer_id as varchar)")
    assert [c["name"] for c in ok(svc, "dbt_compile", {"selector": "marketing"})] == ["fct_sessions",
                                                                                      "mart_channel_performance"]


def test_compile_unknown_ref(make_service):
    def bad_ref(state):
        state["models"]["fct_revenue_daily"]["raw_sql"] = "select * from {{ ref('fct_orderz') }}"
    assert code(edited(make_service, bad_ref), "dbt_compile", {"models": "fct_revenue_daily"}) == 422


def test_show(svc):
    rows = ok(svc, "dbt_show", {"models": "fct_orders", "limit": 2})
    assert rows["columns"][0] == "order_id" and rows["show"][0]["order_id"] == "ORD-72986" and len(rows["show"]) == 2
    hit = ok(svc, "dbt_show", {"models": "select * from {{ ref('fct_orders') }} where status = 'shipped'"})
    assert [r["order_id"] for r in hit["show"]] == ["ORD-57590"]
    seed = ok(svc, "dbt_show", {"models": 'select * from {{ ref("fx_rates") }} limit 1'})
    assert seed["show"] == [{"currency": "EUR", "rate_to_usd": 1.09, "valid_from": "2026-01-01"}]
    table = ok(svc, "dbt_show", {"models": "dim_customers", "output": "table", "limit": 1})["table"]
    assert table.splitlines()[0] == "| customer_id | email | country_name | order_count | lifetime_value |"
    assert error(svc, "dbt_show", {"models": "mart_account_health"})["code"] == 422
    assert code(svc, "dbt_show", {"models": "fx_rates"}) == 400
    assert code(svc, "dbt_show", {"models": "nope"}) == 404
    assert code(svc, "dbt_show", {"models": "fct_orders", "output": "csv"}) == 400


def test_deps_debug_and_paths(make_service, svc):
    def no_deps(state):
        state["project"]["deps_installed"] = False
    fresh = edited(make_service, no_deps)
    msg = error(fresh, "dbt_run", {})
    assert msg["code"] == 422 and "dbt_deps" in msg["message"]
    assert code(fresh, "dbt_ls", {}) == 422
    assert ok(fresh, "dbt_debug")["all_checks_passed"] is False
    assert ok(fresh, "dbt_deps")["installed"] == ["dbt-labs/dbt_utils@1.3.0", "calogica/dbt_expectations@0.10.4"]
    assert ok(fresh, "dbt_debug")["all_checks_passed"] is True
    assert ok(fresh, "dbt_run", {"models": "stg_orders"})["status"] == "success"
    assert code(svc, "dbt_ls", {"project_dir": "/Users/me/other"}) == 404
    assert code(svc, "dbt_debug", {"profiles_dir": "/etc/dbt"}) == 404
    assert ok(svc, "dbt_debug", {"project_dir": PROJECT_DIR + "/"})["connection"]["status"] == "OK connection ok"


def test_full_build_and_rollback(svc):
    before = svc.state_dict()
    assert svc.call("dbt_run", {"models": "nope+"})["success"] is False
    assert svc.call("dbt_build", {"models": "a", "selector": "nightly"})["success"] is False
    assert svc.state_dict() == before
    res = ok(svc, "dbt_build", {"selector": "nightly", "full_refresh": True})
    assert res["log"][-1] == "Done. PASS=21 WARN=2 ERROR=1 SKIP=0 TOTAL=24"  # only the SQL error is left


def test_seed_is_deterministic(make_service):
    assert make_service(Dbt, seed=1).state_dict() == make_service(Dbt, seed=1).state_dict()
