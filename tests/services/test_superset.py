"""Tests of the Superset service."""

from __future__ import annotations

import pytest
from _svc_asserts import code, error, ok

from compoworld_gym.envs.services.superset import Superset

ELENA, JAMAL, HANNAH = "elena.petrova@company.example", "jamal.wright@company.example", "hannah.kovacs@company.example"


@pytest.fixture
def svc(make_service):
    return make_service(Superset)


def test_seeded_state_is_consistent(svc):
    st = svc.state
    assert st.users["1"].email == "ops@company.example" and st.users["1"].roles == ["Admin"]
    assert len(st.users) == 15  # ops + 12 staff + 2 data engineers
    for chart in st.charts.values():  # every chart's dataset and dashboards exist, metrics are the dataset's
        ds = st.datasets[str(chart.datasource_id)]
        assert set(chart.params["metrics"]) <= set(ds.metrics)
        assert all(str(b) in st.dashboards for b in chart.dashboards)
    reviews = [d for d in st.dashboards.values() if d.dashboard_title.startswith("Account review: ")]
    assert len(reviews) == 4 and sum(d.published for d in reviews) == 3
    assert {d.owners[0].email for d in reviews} <= {JAMAL, HANNAH}
    assert Superset.seeded(0, svc.today).state_dict() == svc.state_dict()
    assert Superset.seeded(1, svc.today).state_dict() != svc.state_dict()


def test_dashboard_reads(svc):
    listing = ok(svc, "superset_dashboard_list")
    assert listing["count"] == 9 and listing["result"][0]["dashboard_title"] == "Revenue Overview"
    d = ok(svc, "superset_dashboard_get_by_id", {"dashboard_id": 1})["result"]
    assert (d["owners"][0]["email"], d["certified_by"], d["url"]) == (
        ELENA, "Finance", "https://superset.company.example/superset/dashboard/revenue/")
    assert [c["slice_name"] for c in d["charts"]] == ["Monthly revenue", "Orders by status", "Open invoice amount"]
    assert d["tags"] == ["certified-metrics", "finance"]
    assert "not found" in error(svc, "superset_dashboard_get_by_id", {"dashboard_id": 99})["message"]
    assert code(svc, "superset_dashboard_get_by_id", {"dashboard_id": "one"}) == 400


def test_dashboard_create_update_delete(svc):
    new = ok(svc, "superset_dashboard_create", {"dashboard_title": "Churn watch"})
    assert new["id"] == 10 and new["result"]["published"] is False
    assert new["result"]["owners"][0]["email"] == "ops@company.example"
    up = ok(svc, "superset_dashboard_update", {"dashboard_id": 10, "data": {
        "slug": "churn", "owners": [JAMAL, 10], "published": True}})["result"]
    assert [o["email"] for o in up["owners"]] == [JAMAL, HANNAH]
    assert up["url"].endswith("/dashboard/churn/") and up["published"] is True
    assert code(svc, "superset_dashboard_update", {"dashboard_id": 10, "data": {"slug": "revenue"}}) == 409
    assert code(svc, "superset_dashboard_update", {"dashboard_id": 10, "data": {"owners": []}}) == 422
    assert code(svc, "superset_dashboard_update", {"dashboard_id": 10, "data": {"owners": [999]}}) == 404
    assert code(svc, "superset_dashboard_update", {"dashboard_id": 10, "data": {"colour": "red"}}) == 400
    assert code(svc, "superset_dashboard_update", {"dashboard_id": 10, "data": {"slug": "Bad Slug"}}) == 400
    assert code(svc, "superset_dashboard_update", {"dashboard_id": 10,
                                                   "data": {"certification_details": "checked"}}) == 422
    cert = ok(svc, "superset_dashboard_update", {"dashboard_id": 10, "data": {
        "certified_by": "Operations", "certification_details": "case AB-1234: checked"}})["result"]
    assert (cert["certified_by"], cert["certification_details"]) == ("Operations", "case AB-1234: checked")
    cleared = ok(svc, "superset_dashboard_update", {"dashboard_id": 10, "data": {"certified_by": ""}})["result"]
    assert (cleared["certified_by"], cleared["certification_details"]) == (None, None)
    assert ok(svc, "superset_dashboard_delete", {"dashboard_id": 2}) == {"message": "OK", "id": 2}
    assert all(2 not in c.dashboards for c in svc.state.charts.values())
    assert ("dashboard", 2) not in svc.state.tags["2"].objects
    assert code(svc, "superset_dashboard_delete", {"dashboard_id": 2}) == 404


def test_charts(svc):
    c = ok(svc, "superset_chart_get_by_id", {"chart_id": 3})["result"]
    assert (c["slice_name"], c["datasource_id"], c["params"]["metrics"]) == ("Open invoice amount", 2, ["sum__amount"])
    assert ok(svc, "superset_chart_list")["count"] == 10
    args = {"slice_name": "Refunds", "datasource_id": 3, "datasource_type": "table", "viz_type": "bar",
            "params": {"metrics": ["sum__amount"], "groupby": ["method"]}}
    made = ok(svc, "superset_chart_create", args)
    assert made["id"] == 11 and made["result"]["owners"][0]["id"] == 1
    assert code(svc, "superset_chart_create", {**args, "datasource_id": 42}) == 404
    assert code(svc, "superset_chart_create", {**args, "params": {"metrics": ["avg__score"]}}) == 422
    assert code(svc, "superset_chart_create", {**args, "datasource_type": "query"}) == 400
    assert code(svc, "superset_chart_create", {**args, "viz_type": "sankey"}) == 400
    up = ok(svc, "superset_chart_update", {"chart_id": 11, "data": {"dashboards": [2, 1], "description": "x"}})
    assert up["result"]["dashboards"] == [1, 2] and up["result"]["description"] == "x"
    assert code(svc, "superset_chart_update", {"chart_id": 11, "data": {"dashboards": [77]}}) == 404
    assert code(svc, "superset_chart_update", {"chart_id": 11, "data": {"params": {"metrics": ["nope"]}}}) == 422
    assert ok(svc, "superset_chart_delete", {"chart_id": 1})["id"] == 1
    assert ("chart", 1) not in svc.state.tags["1"].objects


def test_databases_and_datasets(svc):
    dbs = ok(svc, "superset_database_list")["result"]
    assert [d["database_name"] for d in dbs] == ["analytics-warehouse", "support-replica", "events-lake"]
    assert "XXXXXXXXXX" in ok(svc, "superset_database_get_by_id", {"database_id": 1})["result"]["sqlalchemy_uri"]
    tables = ok(svc, "superset_database_get_tables", {"database_id": 3})["result"]
    assert [(t["schema"], t["value"]) for t in tables] == [("events", "page_views"), ("events", "signups")]
    rel = ok(svc, "superset_database_get_related_objects", {"database_id": 2})
    assert rel["charts"]["count"] == 4 and {d["id"] for d in rel["dashboards"]["result"]} >= {4, 5}
    ds = ok(svc, "superset_dataset_get_by_id", {"dataset_id": 5})["result"]
    assert (ds["table_name"], ds["schema_name"], ds["owners"][0]["email"]) == (
        "tickets", "support", "luis.ortega@company.example")
    new = ok(svc, "superset_dataset_create", {"table_name": "refunds", "database_id": 1, "owners": [4]})["result"]
    assert (new["id"], new["schema_name"], new["owners"][0]["email"]) == (7, "finance", ELENA)
    assert code(svc, "superset_dataset_create", {"table_name": "refunds", "database_id": 1}) == 422
    assert code(svc, "superset_dataset_create", {"table_name": "nope", "database_id": 1}) == 422
    assert code(svc, "superset_dataset_create", {"table_name": "refunds", "database_id": 9}) == 404
    assert code(svc, "superset_database_delete", {"database_id": 2}) == 409
    assert ok(svc, "superset_database_delete", {"database_id": 3}) == {"message": "OK", "id": 3}
    assert ok(svc, "superset_dataset_list")["count"] == 7


def test_saved_queries_users_tags(svc):
    qs = ok(svc, "superset_sqllab_get_saved_queries")["result"]
    assert [q["label"] for q in qs][0] == "Overdue invoices"
    q = ok(svc, "superset_saved_query_get_by_id", {"query_id": 3})["result"]
    assert q["created_by"]["email"] == JAMAL and "csat_responses" in q["sql"]
    made = ok(svc, "superset_saved_query_create", {"query_data": {
        "db_id": 2, "sql": "SELECT 1", "label": "Ping", "schema": "support"}})["result"]
    assert (made["id"], made["schema_name"], made["created_by"]["id"]) == (4, "support", 1)
    assert code(svc, "superset_saved_query_create", {"query_data": {"db_id": 3, "sql": "SELECT 1",
                                                                     "label": "Lake"}}) == 422
    assert code(svc, "superset_saved_query_create", {"query_data": {"sql": "SELECT 1", "label": "x"}}) == 400
    assert ok(svc, "superset_user_get_current")["result"]["username"] == "ops"
    assert ok(svc, "superset_tag_create", {"name": "churn-risk"})["id"] == 4
    assert code(svc, "superset_tag_create", {"name": "Finance"}) == 409
    assert code(svc, "superset_tag_create", {"name": "a:b"}) == 400
    ok(svc, "superset_tag_object_add", {"object_type": "dashboard", "object_id": 6, "tag_name": "churn-risk"})
    again = ok(svc, "superset_tag_object_add", {"object_type": "dashboard", "object_id": 6, "tag_name": "churn-risk"})
    assert again["tag"] == "churn-risk" and svc.state.tags["4"].objects == [("dashboard", 6)]
    ok(svc, "superset_tag_object_add", {"object_type": "chart", "object_id": 2, "tag_name": "brand-new"})
    assert svc.state.tags["5"].name == "brand-new"
    assert code(svc, "superset_tag_object_add", {"object_type": "chart", "object_id": 99, "tag_name": "x"}) == 404
    objs = ok(svc, "superset_tag_objects")["result"]
    assert {"type": "dashboard", "id": 1, "name": "Revenue Overview", "tags": ["certified-metrics", "finance"]} in objs
    assert ok(svc, "superset_tag_list")["count"] == 5


def test_new_ids_follow_the_counter(svc):
    svc.state.counters["dashboard"] = 40  # the task generator may advance counters
    assert ok(svc, "superset_dashboard_create", {"dashboard_title": "x"})["id"] == 40
    assert ok(svc, "superset_dashboard_create", {"dashboard_title": "y"})["id"] == 41


def test_failed_write_rolls_back(svc):
    before = svc.state_dict()
    res = svc.call("superset_dashboard_update", {"dashboard_id": 1, "data": {
        "dashboard_title": "Renamed", "certified_by": None, "certification_details": "orphan"}})
    assert res["error"]["code"] == 422  # a late refusal, after fields were set
    assert svc.state_dict() == before
