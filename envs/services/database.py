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
import re
import sqlite3
import weakref
from typing import Any, Literal, Optional, Union

from faker import Faker
from pydantic import BaseModel, ConfigDict, Field, model_validator

from compoworld_gym.entities import Date, Email, Id, Money
from compoworld_gym.envs.services._commerce import CUSTOMERS, PRODUCTS, order_book
from compoworld_gym.envs.services._company import STAFF
from compoworld_gym.errors import Conflict, InvalidArgument, NotFound, Unprocessable
from compoworld_gym.service import DAY_START, Record, Service, ServiceState, tool

Scalar = Union[int, float, str, None]
ColumnType = Literal["INTEGER", "REAL", "TEXT"]
_IDENT = r"^[A-Za-z_][A-Za-z0-9_]{0,62}$"
_STRICT = " STRICT" if sqlite3.sqlite_version_info >= (3, 37) else ""
#: Most columns create_table accepts (SQLite's own limit is 2000).
MAX_COLUMNS = 100
#: Most SQLite VM steps one statement may run, in thousands: a runaway recursive CTE is
#: stopped after this much work (counted, not timed, so the cut-off is reproducible).
MAX_STEPS_K = 10_000
#: Longest string or blob a statement may build (characters/bytes), e.g. zeroblob(1e9).
MAX_VALUE_LENGTH = 1_000_000
#: Integers SQLite can store (64-bit signed); Python ints beyond raise OverflowError in sqlite3.
INT64 = (-(2**63), 2**63 - 1)
_CLOCK_FUNCS = ("date", "time", "datetime", "julianday", "strftime")
_CURRENT = re.compile(r"'(?:[^']|'')*'|\"(?:[^\"]|\"\")*\"|\bCURRENT_(DATE|TIMESTAMP|TIME)\b", re.I)
_RANDOM = re.compile(r"\brandom(blob)?\s*\(", re.I)
_READ_ACTIONS = frozenset({sqlite3.SQLITE_SELECT, sqlite3.SQLITE_READ, sqlite3.SQLITE_FUNCTION,
                           sqlite3.SQLITE_RECURSIVE})
#: Most rows one ``query`` returns.
MAX_ROWS = 200
_WRITE_ACTIONS = {sqlite3.SQLITE_INSERT, sqlite3.SQLITE_UPDATE, sqlite3.SQLITE_DELETE}


class Column(Record):
    """One column of a table."""

    name: str = Field(pattern=_IDENT, description="Column name (letters, digits, underscore).")
    type: ColumnType = Field(description="Storage type; dates are TEXT in YYYY-MM-DD form.")
    primary_key: bool = Field(default=False, description="True for the (single) primary-key column.")
    not_null: bool = Field(default=False, description="True if NULL is rejected.")


class Table(Record):
    """A table: its schema and its rows (each row maps every column to a value)."""

    name: Id("table") = Field(pattern=_IDENT, description="Table name, e.g. 'support_cases'.")
    columns: list[Column] = Field(min_length=1, description="Columns in declaration order.")
    rows: list[dict[str, Scalar]] = Field(default_factory=list, description="Rows in insertion (rowid) order.")

    @model_validator(mode="after")
    def _rows_match_columns(self) -> "Table":
        names = [c.name for c in self.columns]
        # SQLite compares identifiers case-insensitively: "a" and "A" are one column.
        if len({n.lower() for n in names}) != len(names) or sum(c.primary_key for c in self.columns) > 1:
            raise ValueError(f"table {self.name}: duplicate column names or several primary keys")
        keys = set(names)
        for row in self.rows:
            if row.keys() != keys:
                raise ValueError(f"table {self.name}: a row's keys differ from its columns")
        return self


class DatabaseState(ServiceState):
    """Every table of the database."""

    tables: dict[str, Table] = Field(default_factory=dict, description="Tables by name.")
    revision: int = Field(default=0, ge=0, description="Number of successful writes so far.")


class BusinessRow(Record):
    """The facts rows of the seeded business tables carry (customers, orders,
    support cases): used only to declare what ``query`` can produce."""

    customer_id: Optional[Id("customer")] = Field(default=None, description="Customer id, e.g. CUS-0001.")
    email: Optional[Email] = Field(default=None, description="Customer email.")
    order_id: Optional[Id("order")] = Field(default=None, description="Order id, e.g. ORD-0001.")
    total: Optional[Money] = Field(default=None, description="Order total in USD.")
    owner_email: Optional[Email] = Field(default=None, description="Staff owner of a support case.")
    due_date: Optional[Date] = Field(default=None, description="Support case due date.")


class _ColumnIn(BaseModel):
    model_config = ConfigDict(extra="forbid")
    name: str = Field(pattern=_IDENT, description="Column name.")
    type: ColumnType = Field(description="INTEGER, REAL or TEXT (dates as TEXT YYYY-MM-DD).")
    primary_key: bool = Field(default=False, description="Make this the primary-key column.")
    not_null: bool = Field(default=False, description="Reject NULL values.")


def _check_ints(where: str, values: Any) -> None:
    """400 naming the place of the first integer SQLite cannot store (outside 64 bits).

    Args:
        where: the argument path, e.g. ``"params"`` or ``"rows.0"``.
        values: a list (indexed) or dict (keyed) of scalars.
    """
    items = values.items() if isinstance(values, dict) else enumerate(values)
    for key, v in items:
        if isinstance(v, int) and not isinstance(v, bool) and not INT64[0] <= v <= INT64[1]:
            raise InvalidArgument(f"invalid argument '{where}.{key}': {v} is outside SQLite's 64-bit integer "
                                  f"range [{INT64[0]}, {INT64[1]}]; store it as REAL or TEXT.")


def _q(ident: str) -> str:
    return '"' + ident.replace('"', '""') + '"'


def _ddl(t: Table) -> str:
    cols = ", ".join(f"{_q(c.name)} {c.type}{' PRIMARY KEY' if c.primary_key else ''}"
                     f"{' NOT NULL' if c.not_null else ''}" for c in t.columns)
    return f"CREATE TABLE {_q(t.name)} ({cols}){_STRICT}"


def _sql_error(exc: sqlite3.Error) -> Exception:
    msg = str(exc)
    if msg == "interrupted":  # by Database._tick
        return Unprocessable(f"the statement was stopped after {MAX_STEPS_K * 1000} SQLite steps; "
                             "bound recursive CTEs (e.g. WHERE x < 1000) and add LIMIT.")
    if isinstance(exc, sqlite3.IntegrityError) and ("UNIQUE" in msg or "PRIMARY KEY" in msg):
        return Conflict(f"SQL constraint failed: {msg}; the key already exists.")
    return InvalidArgument(f"SQL error: {msg}.")


def _tick_of(ref: "weakref.ref[Database]") -> int:
    db = ref()
    return 1 if db is None else db._tick()


def _clock_func(ref: "weakref.ref[Database]", name: str) -> Any:
    # Built-in clock functions are overridden; the real one runs on a
    # separate connection with 'now' replaced by the logical clock.
    def fn(*args: Any) -> Any:
        db = ref()
        if db is None:
            raise sqlite3.OperationalError("the database service is gone")
        # 'localtime'/'utc' modifiers would read the machine's time zone: dropped.
        args = tuple(db._now if isinstance(a, str) and a.lower() == "now" else a for i, a in enumerate(args)
                     if not (i and isinstance(a, str) and a.lower() in ("localtime", "utc")))
        if not args and name != "strftime":
            args = (db._now,)
        return db._clock.execute(f"SELECT {name}({','.join('?' * len(args))})", args).fetchone()[0]
    return fn


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
        conn = sqlite3.connect(":memory:", isolation_level=None, check_same_thread=False)
        if hasattr(conn, "setlimit"):  # Python >= 3.11
            conn.setlimit(sqlite3.SQLITE_LIMIT_LENGTH, MAX_VALUE_LENGTH)
        # Callbacks hold the service only weakly: sqlite3 hides the references it
        # keeps from the garbage collector, so a bound method here made every
        # Database (and its in-memory engine) immortal, ~50 KB a generated task.
        ref = weakref.ref(self)
        conn.set_progress_handler(lambda: _tick_of(ref), 1000)
        self._steps = 0  # each phase (rebuild, statement, sync) gets its own step budget
        for name in _CLOCK_FUNCS:
            conn.create_function(name, -1, _clock_func(ref, name), deterministic=True)
        for name in ("random", "randomblob"):
            conn.create_function(name, -1, _no_random)
        for t in self.state.tables.values():
            conn.execute(_ddl(t))
            cols = [c.name for c in t.columns]
            conn.executemany(f"INSERT INTO {_q(t.name)} VALUES ({','.join('?' * len(cols))})",
                             [[r[c] for c in cols] for r in t.rows])
        self._conn, self._conn_rev = conn, self.state.revision
        return conn

    def _prepare(self, sql: str) -> str:
        if _RANDOM.search(sql):
            raise InvalidArgument("random() is not available: results must be reproducible.")
        values = {"date": f"'{self.today.isoformat()}'", "time": f"'{DAY_START.isoformat()}'",
                  "timestamp": f"'{self._now}'"}
        return _CURRENT.sub(lambda m: values[m.group(1).lower()] if m.group(1) else m.group(0), sql)

    def _run(self, sql: str, params: list[Scalar], allowed: frozenset[int] | set[int],
             written: Optional[set[str]] = None) -> sqlite3.Cursor:
        conn = self._engine()

        def authorize(action: int, arg1: Any, arg2: Any, dbname: Any, source: Any) -> int:
            if action in _WRITE_ACTIONS and written is not None and arg1 in self.state.tables:
                written.add(arg1)
                return sqlite3.SQLITE_OK
            return sqlite3.SQLITE_OK if action in allowed else sqlite3.SQLITE_DENY

        conn.set_authorizer(authorize)
        _check_ints("params", params)
        self._steps = 0
        try:
            return conn.execute(self._prepare(sql), params)
        except sqlite3.DatabaseError as exc:
            if str(exc) == "not authorized":
                what = "read-only SELECT" if written is None else "INSERT, UPDATE or DELETE on existing tables"
                raise InvalidArgument(f"this tool only runs {what} statements; use query for reads, execute "
                                      "for writes, create_table/drop_table for schema changes.") from None
            raise _sql_error(exc) from None
        except sqlite3.Error as exc:
            raise _sql_error(exc) from None
        finally:
            conn.set_authorizer(None)

    def _sync(self, tables: set[str]) -> None:
        """Copy the named tables back from the engine into the state."""
        conn = self._engine()
        self._steps = 0
        for name in sorted(tables):
            t = self.state.tables[name]
            cols = [c.name for c in t.columns]
            cur = conn.execute(f"SELECT {','.join(map(_q, cols))} FROM {_q(name)} ORDER BY rowid")
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
        cur = self._run(sql, params, _READ_ACTIONS, written)
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
        cur = self._run(sql, [], _READ_ACTIONS)
        cols = [d[0] for d in cur.description or ()]
        try:  # rows are computed while fetched: the step budget and SQL errors apply here too
            rows = cur.fetchmany(MAX_ROWS + 1)
        except sqlite3.Error as exc:
            raise _sql_error(exc) from None
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
            _check_ints(f"rows.{i}", row)
        conn = self._begin_write()
        sql = f"INSERT INTO {_q(table)} ({','.join(map(_q, cols))}) VALUES ({','.join('?' * len(cols))})"
        self._steps = 0
        try:
            conn.executemany(sql, [[r.get(c) for c in cols] for r in rows])
        except sqlite3.Error as exc:
            raise _sql_error(exc) from None
        self._sync({table})
        return {"table": table, "rows_inserted": len(rows), "row_count": len(t.rows)}

    def _where(self, t: Table, where: dict[str, Scalar], arg: str = "where") -> tuple[str, list[Scalar]]:
        cols = {c.name for c in t.columns}
        if not where:
            raise InvalidArgument(f"{arg} is empty; give at least one column = value condition.")
        bad = sorted(set(where) - cols)
        if bad:
            raise InvalidArgument(f"unknown column(s) {bad} for table {t.name}; columns: {sorted(cols)}.")
        _check_ints(arg, where)
        clause = " AND ".join(f"{_q(k)} IS ?" for k in where)
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
        sets = ", ".join(f"{_q(k)} = ?" for k in values)
        return self._write(f"UPDATE {_q(table)} SET {sets} WHERE {clause}", list(values.values()) + params)

    @tool(read_only=False, destructive=True)
    def delete_rows(self, table: Id("table"), where: dict[str, Scalar]) -> dict:
        """Delete every row whose columns equal all of ``where``.

        Args:
            table: the table name.
            where: column name -> value that must match (all must match).
        """
        clause, params = self._where(self._table(table), where)
        return self._write(f"DELETE FROM {_q(table)} WHERE {clause}", params)

    @tool(read_only=False)
    def create_table(self, table: str = Field(pattern=_IDENT),
                     columns: list[_ColumnIn] = Field(min_length=1, max_length=MAX_COLUMNS)) -> dict:
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
        return DatabaseState(tables={t.name: t for t in _seed_tables(rng, today)})


def _no_random(*args: Any) -> Any:
    raise ValueError("random() is disabled")


def _cols(spec: str) -> list[Column]:
    out = []
    for part in spec.split(","):
        name, typ, *flags = part.split()
        out.append(Column(name=name, type=typ, primary_key="pk" in flags, not_null="pk" in flags or "nn" in flags))
    return out


_CASE_SUBJECTS = ("Refund not received", "Wrong item delivered", "Invoice address change",
                  "Damaged on arrival", "Missing package", "Warranty claim", "Double charge",
                  "Order stuck in processing", "Return label request", "Account email change")


def _seed_tables(rng: random.Random, today: dt.date) -> list[Table]:
    cust_ids = {c.email: f"CUS-{i:04d}" for i, c in enumerate(CUSTOMERS, start=1)}
    customers = Table(name="customers", columns=_cols(
        "id TEXT pk,name TEXT nn,email TEXT nn,city TEXT,country TEXT,tier TEXT nn,created_on TEXT nn"),
        rows=[{"id": cust_ids[c.email], "name": c.name, "email": c.email, "city": c.city, "country": c.country,
               "tier": rng.choice(("standard", "standard", "gold", "platinum")),
               "created_on": (today - dt.timedelta(days=rng.randint(60, 900))).isoformat()} for c in CUSTOMERS])
    orders = Table(name="orders", columns=_cols(
        "id TEXT pk,customer_id TEXT nn,total REAL nn,status TEXT nn,shipping_method TEXT,placed_on TEXT nn"),
        rows=[{"id": o.id, "customer_id": cust_ids[o.customer.email], "total": o.total, "status": o.status,
               "shipping_method": o.shipping_method, "placed_on": o.placed_on.isoformat()} for o in order_book(today)])
    products = Table(name="products", columns=_cols("sku TEXT pk,name TEXT nn,category TEXT,price REAL nn,stock INTEGER nn"),
                     rows=[{"sku": p.sku, "name": p.name, "category": p.category, "price": p.price,
                            "stock": rng.randint(0, 60)} for p in PRODUCTS])
    cases = Table(name="support_cases", columns=_cols(
        "id TEXT pk,customer_id TEXT nn,order_id TEXT,subject TEXT nn,status TEXT nn,priority TEXT nn,"
        "owner_email TEXT,opened_on TEXT nn,due_date TEXT nn"))
    book = order_book(today)
    statuses = ["pending", "pending", "open", "escalated", "resolved", "resolved", "pending", "open",
                "resolved", "pending"]
    rng.shuffle(statuses)
    for i, status in enumerate(statuses, start=1):
        order = book[rng.randrange(len(book))]
        opened = today - dt.timedelta(days=rng.randint(2, 25))
        # Every second case is already past due, so "overdue" queries always find some.
        due = today - dt.timedelta(days=rng.randint(1, 5)) if i % 2 else today + dt.timedelta(days=rng.randint(1, 10))
        cases.rows.append({"id": f"CASE-{i:04d}", "customer_id": cust_ids[order.customer.email], "order_id": order.id,
                           "subject": _CASE_SUBJECTS[i - 1], "status": status,
                           "priority": rng.choice(("low", "normal", "high", "urgent")),
                           "owner_email": rng.choice(STAFF).email, "opened_on": opened.isoformat(),
                           "due_date": max(due, opened).isoformat()})
    return [customers, orders, products, cases]
