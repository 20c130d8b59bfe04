"""Typed state of the ``database`` service: tables as their column list plus
rows as dicts (the source of truth the SQLite engine is rebuilt from), and
the argument model of ``create_table``."""

from __future__ import annotations

from typing import Literal, Optional, Union

from pydantic import BaseModel, ConfigDict, Field, model_validator

from compoworld_gym.entities import Date, Email, Id, Money
from compoworld_gym.service import Record, ServiceState

#: A cell value: what SQLite's INTEGER, REAL, TEXT and NULL hold.
Scalar = Union[int, float, str, None]
ColumnType = Literal["INTEGER", "REAL", "TEXT"]
#: Table and column names: an SQL identifier of at most 63 characters.
IDENT = r"^[A-Za-z_][A-Za-z0-9_]{0,62}$"


class Column(Record):
    """One column of a table."""

    name: str = Field(pattern=IDENT, description="Column name (letters, digits, underscore).")
    type: ColumnType = Field(description="Storage type; dates are TEXT in YYYY-MM-DD form.")
    primary_key: bool = Field(default=False, description="True for the (single) primary-key column.")
    not_null: bool = Field(default=False, description="True if NULL is rejected.")


class Table(Record):
    """A table: its schema and its rows (each row maps every column to a value)."""

    name: Id("table") = Field(pattern=IDENT, description="Table name, e.g. 'support_cases'.")
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


# A column as create_table takes it. No docstring: pydantic would put it into the tool schema.
class ColumnIn(BaseModel):
    model_config = ConfigDict(extra="forbid")
    name: str = Field(pattern=IDENT, description="Column name.")
    type: ColumnType = Field(description="INTEGER, REAL or TEXT (dates as TEXT YYYY-MM-DD).")
    primary_key: bool = Field(default=False, description="Make this the primary-key column.")
    not_null: bool = Field(default=False, description="Reject NULL values.")
