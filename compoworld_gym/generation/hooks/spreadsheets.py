"""Spreadsheets in chained tasks: the customer accounts sheet has one row per
customer (email, name, company, account owner, balance due), found by the
customer's email or by the company; the case is logged as a row of the case
log spreadsheet."""

from __future__ import annotations

from typing import Any

from compoworld_gym.checks import OnlyChanged, RecordMatches
from compoworld_gym.envs.services._company import OPS_EMAIL
from compoworld_gym.envs.services.spreadsheets import Spreadsheet
from compoworld_gym.generation.context import Ctx, call
from compoworld_gym.generation.hooks.crm import staff_email
from compoworld_gym.generation.links import (
    Action, Found, Give, Need, Reader, Relay, ServiceLinks, SolveError, Write, pick,
)

ACCOUNTS, ACCOUNTS_SHEET = "Customer accounts", "Accounts"
ACCOUNT_HEADER = ["Customer Email", "Customer Name", "Company", "Account Owner", "Balance Due", "Status"]
CASE_LOG, LOG_SHEET = "Case log", "Log"
LOG_HEADER = ["Case", "Customer Email", "Detail", "Value"]


def plant_spreadsheet(state: dict[str, Any], title: str, sheets: dict[str, list[list[Any]]], when: str) -> str:
    """Add a :class:`Spreadsheet` (validated, owned by ops) with the next free id; returns the id."""
    n = state["counters"].get("SS", 1)
    state["counters"]["SS"] = n + 1
    sid = f"SS-{n:04d}"
    book = Spreadsheet.model_validate({
        "id": sid, "title": title, "owner_email": OPS_EMAIL, "modified_time": when,
        "sheets": [{"sheet_id": i, "title": t, "rows": rows} for i, (t, rows) in enumerate(sheets.items())]})
    state["spreadsheets"][sid] = book.model_dump(mode="json")
    return sid


def book_id(state: dict[str, Any], title: str, sheet: str, header: list[str], when: str) -> str:
    """The id of the spreadsheet titled ``title``, planted with one ``sheet`` if missing."""
    for sid, book in state["spreadsheets"].items():
        if book["title"] == title:
            return sid
    return plant_spreadsheet(state, title, {sheet: [list(header)]}, when)


def plant_account_row(state: dict[str, Any], row: list[Any], when: str) -> str:
    """Append a row (validated with the whole spreadsheet) to the customer
    accounts sheet; returns the row's A1 address, e.g. ``SS-0004!A3``."""
    sid = book_id(state, ACCOUNTS, ACCOUNTS_SHEET, ACCOUNT_HEADER, when)
    book = state["spreadsheets"][sid]
    rows = book["sheets"][0]["rows"]
    rows.append(row)
    state["spreadsheets"][sid] = Spreadsheet.model_validate(book).model_dump(mode="json")
    return f"{sid}!A{len(rows)}"


def _plant(ctx: Ctx, key: Any, outs: dict[str, Any], stale: bool, column: str) -> str:
    row = {"Customer Email": outs.get("email") or ctx.person()[1],
           "Customer Name": outs.get("person_name") or ctx.client(),
           "Company": outs.get("company") or ctx.fresh("company"), "Account Owner": staff_email(ctx),
           "Balance Due": outs.get("money") or round(ctx.rng.randint(5000, 300000) / 100, 2),
           "Status": "Closed" if stale else "Active"}
    if column == "Customer Email":
        row["Account Owner"] = outs.get("email") or row["Account Owner"]
    row[column] = key
    return plant_account_row(ctx.state("spreadsheets"), [row[h] for h in ACCOUNT_HEADER], ctx.at(-3, 17))


def _sheet_id(reader: Reader, title: str) -> str:
    return pick(reader.read("spreadsheets", "list_spreadsheets", query=title), title=title)["id"]


def _find(reader: Reader, column: str, key: Any) -> dict[str, Any]:
    rows = reader.read("spreadsheets", "find_rows", spreadsheet_id=_sheet_id(reader, ACCOUNTS), column=column,
                       value=key, sheet=ACCOUNTS_SHEET, limit=50)
    live = [r for r in rows if str(r["values"].get("Status", "")).lower() != "closed"]
    if len(live) != 1:
        raise SolveError(f"{len(live)} active account rows have {column} = {key!r}")
    return live[0]


_MONEY = Give("money", "values.Balance Due", "the customer's balance due")
_NAME = Give("person_name", "values.Customer Name", "the customer's name", "the customer")
_TRUTH = "Closed rows of the customer accounts spreadsheet are history; only the active row counts."

ACCOUNT_ROW = Relay(
    service="spreadsheets", name="customer account row", key="email",
    gives=(Give("email", "values.Account Owner", "the account owner's email address", "the account owner",
                draw=staff_email),
           Give("company", "values.Company", "the customer's company", party="customer"), _NAME, _MONEY),
    plant=lambda ctx, key, outs, stale: _plant(ctx, key, outs, stale, "Customer Email"),
    find=lambda reader, key: _find(reader, "Customer Email", key),
    where="The customer accounts spreadsheet has one row per customer email with the company, the account owner "
          "and the balance due.", truth=_TRUTH)

COMPANY_ROW = Relay(
    service="spreadsheets", name="company account row", key="company", key_party="customer",
    gives=(Give("email", "values.Customer Email", "the customer's email address", "the customer"), _NAME, _MONEY),
    plant=lambda ctx, key, outs, stale: _plant(ctx, key, outs, stale, "Company"),
    find=lambda reader, key: _find(reader, "Company", key),
    where="The customer accounts spreadsheet lists each client company with its contact's email and the "
          "balance due.", truth=_TRUTH)


def _prepare(ctx: Ctx, values: dict[str, Any]) -> None:
    """Plant the case log spreadsheet if it is missing."""
    book_id(ctx.state("spreadsheets"), CASE_LOG, LOG_SHEET, LOG_HEADER, ctx.at(-10, 9))


def _log(reader: Reader, args: dict[str, Found]) -> Write:
    email, mention, case = args["customer"].value, args["mention"], args["case"].value
    sid = _sheet_id(reader, CASE_LOG)
    row_match = {"$all": [{"$contains": email}, {"$contains": mention.value}]}
    return Write(
        calls=[call("append_rows", spreadsheet_id=sid, sheet=LOG_SHEET,
                    data=[[case, email, mention.noun, mention.value]])],
        checks=[RecordMatches(id="_", service="spreadsheets", collection="spreadsheets", record_id=sid,
                              where={"sheets": {"$any": {"title": LOG_SHEET, "rows": {"$some": row_match}}}},
                              description="The case log has a row with the customer's email and the right value.")],
        scope=[OnlyChanged(id="_", service="spreadsheets", collection="spreadsheets", allow_ids=[sid],
                           description="No other spreadsheet was changed or created.")],
        tool="append_rows", where={"spreadsheet_id": sid}, label="the case log row")


LINKS = ServiceLinks(
    service="spreadsheets", label="the spreadsheets",
    relays=(ACCOUNT_ROW, COMPANY_ROW),
    actions=(Action(service="spreadsheets", name="log", needs=(Need("customer", "email", ("the customer",)),),
                    build=_log, prepare=_prepare,
                    goal="add a row to the case log spreadsheet with the case, "
                         "the email of {customer} and {mention}"),),
)

__all__ = ["LINKS", "book_id", "plant_account_row", "plant_spreadsheet"]
