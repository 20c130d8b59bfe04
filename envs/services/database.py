"""Database: a small relational business database queried with real SQL.

``query`` follows the official MCP reference server ``postgres`` (slug
``modelcontextprotocol-postgres``: one tool, ``query(sql)``, read-only); the
other tools are designed the way database MCP servers usually extend it
(list/describe tables, parameter-bound inserts, updates and deletes, a
write-SQL ``execute``, table creation). SQL runs on a real in-memory SQLite
engine.

The typed state, not the engine, is the source of truth: every table is
stored as its column list plus its rows as dicts, so ``state_dict``,
rollback, state validation and rubric checks see plain data. The engine is
rebuilt from the state whenever the state's ``revision`` differs from the
engine's (after a rollback, a schema change, or a new instance) and reused
otherwise; code that edits the state directly must bump ``revision``.
SQLite's clock functions see the task's logical today (``date('now')`` and
``CURRENT_DATE`` are 09:00 of today), and ``random()`` is disabled, so the
same queries always give the same answers.
"""

from __future__ import annotations

import datetime as dt
import random
import sqlite3
import weakref
from typing import Any, Optional, Union

from faker import Faker
from pydantic import Field

from compoworld_gym.entities import Id
from compoworld_gym.envs.services import _database_seed as seed
from compoworld_gym.envs.services._blocks import keyed
from compoworld_gym.envs.services._database_engine import (
    CURRENT, MAX_COLUMNS, MAX_ROWS, MAX_STEPS_K, RANDOM, READ_ACTIONS, WRITE_ACTIONS, check_ints, open_engine, quote,
    sql_error,
)
from compoworld_gym.envs.services._database_models import (
    IDENT, BusinessRow, Column, ColumnIn, DatabaseState, Scalar, Table,
)
from compoworld_gym.errors import Conflict, InvalidArgument, NotFound
from compoworld_gym.service import DAY_START, Service, tool


class Database(Service):
    """A relational database (SQLite dialect) with business tables."""

    name = "database"
    description = ("Relational SQL database (SQLite dialect) with customers, orders, products and "
                   "support cases: read-only queries and parameter-bound writes.")
    domain = "data"
    spec_source = "modelcontextprotocol-postgres"
    designed_tools = ("list_tables", "describe_table", "get_row", "execute", "insert_rows", "update_rows",
                      "delete_rows", "create_table", "drop_table")
    State = DatabaseState

    def __init__(self, state: Any = None, *, today: dt.date) -> None:
        super().__init__(state, today=today)
        self._conn: Optional[sqlite3.Connection] = None
        self._conn_rev = -1
        self._clock = sqlite3.connect(":memory:", check_same_thread=False)
        self._now = f"{today.isoformat()} {DAY_START.isoformat()}"
        self._steps = 0

    def __getstate__(self) -> dict[str, Any]:
        # The SQLite engines are caches of ``state`` (rebuilt from it when its
        # revision moves) and cannot be pickled: a copy rebuilds them on first use.
        return {k: v for k, v in self.__dict__.items() if k not in ("_conn", "_clock")} | {"_conn_rev": -1}

    def __setstate__(self, state: dict[str, Any]) -> None:
        self.__dict__.update(state, _conn=None, _clock=sqlite3.connect(":memory:", check_same_thread=False))

    def _tick(self) -> int:
        """Progress handler: non-zero (interrupt) once a statement has run MAX_STEPS_K thousand VM steps."""
        self._steps += 1
        return int(self._steps > MAX_STEPS_K)

    # ---------------------------------------------------------------- engine
    def _engine(self) -> sqlite3.Connection:
        if self._conn is not None and self._conn_rev == self.state.revision:
            return self._conn
        if self._conn is not None:
            self._conn.close()
        self._steps = 0  # each phase (rebuild, statement, sync) gets its own step budget
        conn = open_engine(weakref.ref(self), list(self.state.tables.values()))
        self._conn, self._conn_rev = conn, self.state.revision
        return conn

    def _prepare(self, sql: str) -> str:
        if RANDOM.search(sql):
            raise InvalidArgument("random() is not available: results must be reproducible.")
        values = {"date": f"'{self.today.isoformat()}'", "time": f"'{DAY_START.isoformat()}'",
                  "timestamp": f"'{self._now}'"}
        return CURRENT.sub(lambda m: values[m.group(1).lower()] if m.group(1) else m.group(0), sql)

    def _run(self, sql: str, params: list[Scalar], allowed: frozenset[int] | set[int],
             written: Optional[set[str]] = None) -> sqlite3.Cursor:
        conn = self._engine()

        def authorize(action: int, arg1: Any, arg2: Any, dbname: Any, source: Any) -> int:
            if action in WRITE_ACTIONS and written is not None and arg1 in self.state.tables:
                written.add(arg1)
                return sqlite3.SQLITE_OK
            return sqlite3.SQLITE_OK if action in allowed else sqlite3.SQLITE_DENY

        conn.set_authorizer(authorize)
        check_ints("params", params)
        self._steps = 0
        try:
            return conn.execute(self._prepare(sql), params)
        except sqlite3.DatabaseError as exc:
            if str(exc) == "not authorized":
                what = "read-only SELECT" if written is None else "INSERT, UPDATE or DELETE on existing tables"
                raise InvalidArgument(f"this tool only runs {what} statements; use query for reads, execute "
                                      "for writes, create_table/drop_table for schema changes.") from None
            raise sql_error(exc) from None
        except sqlite3.Error as exc:
            raise sql_error(exc) from None
        finally:
            conn.set_authorizer(None)

    def _sync(self, tables: set[str]) -> None:
        """Copy the named tables back from the engine into the state."""
        conn = self._engine()
        self._steps = 0
        for name in sorted(tables):
            t = self.state.tables[name]
            cols = [c.name for c in t.columns]
            cur = conn.execute(f"SELECT {','.join(map(quote, cols))} FROM {quote(name)} ORDER BY rowid")
            t.rows = [dict(zip(cols, r)) for r in cur.fetchall()]

    def _begin_write(self) -> sqlite3.Connection:
        conn = self._engine()
        # Bump first: if anything fails, rollback restores the old revision and
        # the engine (which may hold the failed change) is rebuilt.
        self.state.revision += 1
        self._conn_rev = self.state.revision
        return conn

    def _write(self, sql: str, params: list[Scalar]) -> dict:
        written: set[str] = set()
        self._begin_write()
        cur = self._run(sql, params, READ_ACTIONS, written)
        count = cur.rowcount
        self._sync(written)
        return {"rows_affected": count, "tables_changed": sorted(written)}

    def _table(self, table: str) -> Table:
        return self.lookup(self.state.tables, table, "table")

    # ------------------------------------------------------------------ reads
    @tool(read_only=True, returns=list[BusinessRow])
    def query(self, sql: str) -> dict:
        """Run a read-only SQL query (SELECT or WITH ... SELECT, SQLite dialect).

        Dates are TEXT 'YYYY-MM-DD'; date('now') and CURRENT_DATE are today's date.
        At most 200 rows come back; 'truncated' says whether more matched.

        Args:
            sql: one SELECT statement.
        """
        cur = self._run(sql, [], READ_ACTIONS)
        cols = [d[0] for d in cur.description or ()]
        try:  # rows are computed while fetched: the step budget and SQL errors apply here too
            rows = cur.fetchmany(MAX_ROWS + 1)
        except sqlite3.Error as exc:
            raise sql_error(exc) from None
        return {"columns": cols, "rows": [dict(zip(cols, r)) for r in rows[:MAX_ROWS]],
                "row_count": min(len(rows), MAX_ROWS), "truncated": len(rows) > MAX_ROWS}

    @tool(read_only=True)
    def list_tables(self) -> list[dict]:
        """List the tables with their column names and row counts."""
        return [{"table": t.name, "columns": [c.name for c in t.columns], "row_count": len(t.rows)}
                for t in self.state.tables.values()]

    @tool(read_only=True)
    def describe_table(self, table: Id("table")) -> dict:
        """Describe one table: columns with type, primary key and NOT NULL, plus the row count.

        Args:
            table: the table name, e.g. 'orders'.
        """
        t = self._table(table)
        return {"table": t.name, "columns": [c.model_dump() for c in t.columns], "row_count": len(t.rows)}

    @tool(read_only=True, returns=BusinessRow)
    def get_row(self, table: Id("table"), key: Union[str, int]) -> dict:
        """Get one row of a table by its primary-key value.

        Args:
            table: the table name.
            key: the primary-key value, e.g. 'CUS-0003'.
        """
        t = self._table(table)
        pk = next((c.name for c in t.columns if c.primary_key), None)
        if pk is None:
            raise InvalidArgument(f"table {table} has no primary key; use query with a WHERE clause.")
        for row in t.rows:
            if row[pk] == key:
                return dict(row)
        raise NotFound(f"no row of {table} has {pk} = {key!r}; use query to search the table.")

    # ----------------------------------------------------------------- writes
    @tool(read_only=False)
    def execute(self, sql: str, params: list[Scalar] = Field(default_factory=list)) -> dict:
        """Run one INSERT, UPDATE or DELETE statement with ? placeholders bound to params.

        Schema changes are not allowed here (use create_table / drop_table).

        Args:
            sql: one INSERT, UPDATE or DELETE statement.
            params: values bound to the ? placeholders, in order.
        """
        return self._write(sql, params)

    @tool(read_only=False)
    def insert_rows(self, table: Id("table"), rows: list[dict[str, Scalar]] = Field(min_length=1, max_length=200)) -> dict:
        """Insert rows into a table; missing columns become NULL.

        Args:
            table: the table name.
            rows: the rows, each an object mapping column name to value.
        """
        t = self._table(table)
        cols = [c.name for c in t.columns]
        for i, row in enumerate(rows):
            unknown = sorted(set(row) - set(cols))
            if unknown:
                raise InvalidArgument(f"unknown column(s) {unknown} for table {table}; columns: {cols}.")
            check_ints(f"rows.{i}", row)
        conn = self._begin_write()
        sql = f"INSERT INTO {quote(table)} ({','.join(map(quote, cols))}) VALUES ({','.join('?' * len(cols))})"
        self._steps = 0
        try:
            conn.executemany(sql, [[r.get(c) for c in cols] for r in rows])
        except sqlite3.Error as exc:
            raise sql_error(exc) from None
        self._sync({table})
        return {"table": table, "rows_inserted": len(rows), "row_count": len(t.rows)}

    def _where(self, t: Table, where: dict[str, Scalar], arg: str = "where") -> tuple[str, list[Scalar]]:
        cols = {c.name for c in t.columns}
        if not where:
            raise InvalidArgument(f"{arg} is empty; give at least one column = value condition.")
        bad = sorted(set(where) - cols)
        if bad:
            raise InvalidArgument(f"unknown column(s) {bad} for table {t.name}; columns: {sorted(cols)}.")
        check_ints(arg, where)
        clause = " AND ".join(f"{quote(k)} IS ?" for k in where)
        return clause, list(where.values())

    @tool(read_only=False)
    def update_rows(self, table: Id("table"), values: dict[str, Scalar], where: dict[str, Scalar]) -> dict:
        """Set column values on every row whose columns equal all of ``where``.

        Args:
            table: the table name.
            values: column name -> new value.
            where: column name -> value that must match (all must match; null matches NULL).
        """
        t = self._table(table)
        if not values:
            raise InvalidArgument("values is empty; give at least one column to set.")
        clause, params = self._where(t, where)
        self._where(t, values, "values")  # same column and integer checks for the SET side
        sets = ", ".join(f"{quote(k)} = ?" for k in values)
        return self._write(f"UPDATE {quote(table)} SET {sets} WHERE {clause}", list(values.values()) + params)

    @tool(read_only=False, destructive=True)
    def delete_rows(self, table: Id("table"), where: dict[str, Scalar]) -> dict:
        """Delete every row whose columns equal all of ``where``.

        Args:
            table: the table name.
            where: column name -> value that must match (all must match).
        """
        clause, params = self._where(self._table(table), where)
        return self._write(f"DELETE FROM {quote(table)} WHERE {clause}", params)

    @tool(read_only=False)
    def create_table(self, table: str = Field(pattern=IDENT),
                     columns: list[ColumnIn] = Field(min_length=1, max_length=MAX_COLUMNS)) -> dict:
        """Create a new empty table.

        Args:
            table: the new table's name (letters, digits, underscore).
            columns: the columns (1-100), each with a distinct name (case-insensitive), a type and
                optional primary_key / not_null; at most one primary key.
        """
        seen: dict[str, int] = {}
        for i, c in enumerate(columns):
            if c.name.lower() in seen:
                raise InvalidArgument(f"invalid argument 'columns.{i}.name': {c.name!r} repeats the name of "
                                      f"columns.{seen[c.name.lower()]} (column names are case-insensitive); "
                                      "give every column a distinct name.")
            seen[c.name.lower()] = i
        keys = [i for i, c in enumerate(columns) if c.primary_key]
        if len(keys) > 1:
            raise InvalidArgument(f"invalid argument 'columns': columns {keys} all set primary_key; "
                                  "a table has at most one primary-key column.")
        if table.lower() in {n.lower() for n in self.state.tables} or table.lower().startswith("sqlite_"):
            raise Conflict(f"table {table!r} already exists (or is reserved); choose another name.")
        t = Table(name=table, columns=[Column(**c.model_dump()) for c in columns])
        self.state.tables[table] = t
        self.state.revision += 1
        return {"table": table, "columns": [c.model_dump() for c in t.columns]}

    @tool(read_only=False, destructive=True)
    def drop_table(self, table: Id("table")) -> dict:
        """Delete a table and all its rows.

        Args:
            table: the table name.
        """
        t = self._table(table)
        del self.state.tables[table]
        self.state.revision += 1
        return {"table": table, "rows_deleted": len(t.rows)}

    # ------------------------------------------------------------------ seeds
    @classmethod
    def build_seed_state(cls, fake: Faker, rng: random.Random, today: dt.date) -> DatabaseState:
        return DatabaseState(tables=keyed(seed.seed_tables(rng, today), key="name"))
