"""The database service: SQL over typed state, read-only query, writes, rollback."""

from __future__ import annotations

import pytest
from _svc_asserts import code, ok

from compoworld_gym.envs.services._commerce import order_book
from compoworld_gym.envs.services.database import Database


@pytest.fixture
def db(make_service):
    return make_service(Database)


def test_seed_tables(db, today):
    tables = {t["table"]: t for t in ok(db, "list_tables")}
    assert {n: t["row_count"] for n, t in tables.items()} == {
        "customers": 10, "orders": 12, "products": 14, "support_cases": 10}
    orders = db.state.tables["orders"].rows
    assert [(r["id"], r["total"], r["status"]) for r in orders] == [
        (o.id, o.total, o.status) for o in order_book(today)]


def test_overdue_pending_records(db, today):
    sql = ("SELECT id FROM support_cases WHERE status IN ('pending', 'open', 'escalated') "
           "AND due_date < date('now') ORDER BY id")
    expected = sorted(r["id"] for r in db.state.tables["support_cases"].rows
                      if r["status"] != "resolved" and r["due_date"] < today.isoformat())
    got = ok(db, "query", {"sql": sql})
    assert [r["id"] for r in got["rows"]] == expected and len(expected) >= 1
    assert got["columns"] == ["id"] and got["truncated"] is False


def test_query_clock_and_errors(db):
    row = ok(db, "query", {"sql": "SELECT CURRENT_DATE AS d, datetime('now', 'localtime') AS t, "
                                  "'CURRENT_DATE' AS s"})["rows"][0]
    assert row == {"d": "2026-01-15", "t": "2026-01-15 09:00:00", "s": "CURRENT_DATE"}
    assert code(db, "query", {"sql": "DELETE FROM orders"}) == 400
    assert code(db, "query", {"sql": "SELEC 1"}) == 400
    assert code(db, "query", {"sql": "SELECT random()"}) == 400
    assert code(db, "query", {"sql": "SELECT 1; SELECT 2"}) == 400
    assert code(db, "query", {"sql": "SELECT * FROM nope"}) == 400
    assert code(db, "query", {}) == 400


def test_query_truncates_at_200_rows(db):
    got = ok(db, "query", {"sql": "WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n "
                                  "WHERE i < 250) SELECT i FROM n"})
    assert got["row_count"] == 200 and got["truncated"] is True and got["rows"][-1] == {"i": 200}


def test_describe_and_get_row(db):
    d = ok(db, "describe_table", {"table": "orders"})
    assert d["columns"][0] == {"name": "id", "type": "TEXT", "primary_key": True, "not_null": True}
    assert ok(db, "get_row", {"table": "customers", "key": "CUS-0001"})["email"] == "olivia.martinez@gmail.com"
    assert code(db, "get_row", {"table": "customers", "key": "CUS-9999"}) == 404
    assert code(db, "describe_table", {"table": "nope"}) == 404


def test_execute_update_and_state_sync(db):
    out = ok(db, "execute", {"sql": "UPDATE support_cases SET status = ? WHERE id = ?",
                             "params": ["resolved", "CASE-0001"]})
    assert out == {"rows_affected": 1, "tables_changed": ["support_cases"]}
    assert db.state.tables["support_cases"].rows[0]["status"] == "resolved"
    assert ok(db, "query", {"sql": "SELECT status FROM support_cases WHERE id = 'CASE-0001'"})["rows"] == [
        {"status": "resolved"}]
    assert code(db, "execute", {"sql": "DROP TABLE orders"}) == 400
    assert code(db, "execute", {"sql": "UPDATE orders SET total = 'x' WHERE id = 'ORD-0001'"}) == 400


def test_insert_update_delete_rows(db):
    row = {"id": "CUS-0100", "name": "Zoe Park", "email": "zoe@park.example", "tier": "gold",
           "created_on": "2026-01-15"}
    assert ok(db, "insert_rows", {"table": "customers", "rows": [row]}) == {
        "table": "customers", "rows_inserted": 1, "row_count": 11}
    assert db.state.tables["customers"].rows[-1] == {**row, "city": None, "country": None}
    assert code(db, "insert_rows", {"table": "customers", "rows": [row]}) == 409
    assert code(db, "insert_rows", {"table": "customers", "rows": [{"id": "X", "bogus": 1}]}) == 400
    assert code(db, "insert_rows", {"table": "customers", "rows": [{"id": "CUS-0200"}]}) == 400  # NOT NULL
    assert ok(db, "update_rows", {"table": "customers", "values": {"tier": "platinum"},
                                  "where": {"id": "CUS-0100"}})["rows_affected"] == 1
    assert code(db, "update_rows", {"table": "customers", "values": {"tier": "x"}, "where": {}}) == 400
    assert ok(db, "delete_rows", {"table": "customers", "where": {"tier": "platinum", "id": "CUS-0100"}})[
        "rows_affected"] == 1
    assert len(db.state.tables["customers"].rows) == 10


def test_create_and_drop_table(db):
    cols = [{"name": "id", "type": "INTEGER", "primary_key": True}, {"name": "body", "type": "TEXT"}]
    ok(db, "create_table", {"table": "notes", "columns": cols})
    assert code(db, "create_table", {"table": "NOTES", "columns": cols}) == 409
    ok(db, "execute", {"sql": "INSERT INTO notes (body) VALUES (?)", "params": ["hello"]})
    assert db.state.tables["notes"].rows == [{"id": 1, "body": "hello"}]
    assert ok(db, "drop_table", {"table": "notes"}) == {"table": "notes", "rows_deleted": 1}
    assert code(db, "query", {"sql": "SELECT * FROM notes"}) == 400


def test_failed_write_rolls_back_engine_too(db):
    before = db.state_dict()
    res = db.call("execute", {"sql": "UPDATE orders SET id = 'ORD-0002' WHERE id = 'ORD-0001'"})
    assert res["error"]["code"] == 409 and db.state_dict() == before
    # The engine is rebuilt from the restored state, so reads see no trace of the failure.
    assert ok(db, "query", {"sql": "SELECT count(*) AS n FROM orders WHERE id = 'ORD-0001'"})["rows"] == [{"n": 1}]


def test_state_round_trip_rebuilds_engine(db, today):
    ok(db, "execute", {"sql": "DELETE FROM products WHERE stock >= 0"})
    copy = Database(db.state_dict(), today=today)
    assert ok(copy, "query", {"sql": "SELECT count(*) AS n FROM products"})["rows"] == [{"n": 0}]


@pytest.mark.parametrize("columns, where", [
    ([{"name": "Austin", "type": "INTEGER"}, {"name": "Austin", "type": "INTEGER"}], "columns.1.name"),
    ([{"name": "a", "type": "INTEGER"}, {"name": "A", "type": "TEXT"}], "columns.1.name"),  # SQLite: same column
    ([{"name": "a", "type": "TEXT", "primary_key": True}, {"name": "b", "type": "TEXT", "primary_key": True}],
     "'columns'"),
])
def test_create_table_with_clashing_columns_is_a_400(db, columns, where):
    from _svc_asserts import error

    err = error(db, "create_table", {"table": "Austin", "columns": columns})
    assert err["code"] == 400 and where in err["message"]
    assert ok(db, "query", {"sql": "SELECT count(*) AS n FROM customers"})["rows"] == [{"n": 10}]


def test_integers_beyond_64_bits_are_a_400_naming_the_value(db):
    from _svc_asserts import error

    big = 2**63
    calls = [("execute", {"sql": "UPDATE customers SET name = ? WHERE id = ?", "params": [big, "CUS-0001"]},
              "params.0"),
             ("insert_rows", {"table": "customers", "rows": [{"id": "C-1", "name": -big - 1, "email": "a@b.co",
                                                               "tier": "gold", "created_on": "2026-01-01"}]},
              "rows.0.name"),
             ("update_rows", {"table": "customers", "values": {"name": 10**30}, "where": {"id": "CUS-0001"}},
              "values.name"),
             ("delete_rows", {"table": "customers", "where": {"id": big}}, "where.id")]
    for tool, args, where in calls:
        err = error(db, tool, args)
        assert err["code"] == 400 and where in err["message"], err
    assert ok(db, "execute", {"sql": "UPDATE customers SET name = ? WHERE id = ?",
                              "params": [big - 1, "CUS-0001"]})["rows_affected"] == 1


def test_runaway_and_oversized_queries_are_refused_deterministically(db):
    from _svc_asserts import error

    endless = "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c) SELECT {} FROM c{}"
    for sql in (endless.format("count(*)", ""), endless.format("x", " ORDER BY x DESC")):
        err = error(db, "query", {"sql": sql})
        assert err["code"] == 422 and "steps" in err["message"]
    assert ok(db, "query", {"sql": endless.format("x", " LIMIT 3")})["rows"] == [{"x": 1}, {"x": 2}, {"x": 3}]
    assert error(db, "query", {"sql": "SELECT hex(zeroblob(100000000)) AS h"})["code"] == 400
    assert ok(db, "query", {"sql": "SELECT count(*) AS n FROM customers"})["rows"] == [{"n": 10}]


def test_a_used_database_is_freed(today):
    """sqlite3 hides the callbacks it holds from the garbage collector: a
    bound method there kept every Database and its engine alive (a generate
    run grew ~50 KB per task, a fuzz campaign ~2.7 MB/s)."""
    import gc
    import weakref

    db = Database(Database.seed_state(0, today).model_dump(mode="json"), today=today)
    out = db.call("query", {"sql": "SELECT date('now') AS d"})
    assert out["data"]["rows"] == [{"d": today.isoformat()}]
    ref = weakref.ref(db)
    del db, out
    gc.collect()
    assert ref() is None
