"""Spreadsheets: workbooks of named sheets addressed in A1 notation.

No Google Sheets server is in ``compoworld_gym/data/mcp_servers.jsonl`` (the
``excel`` server there works on local file paths); the interface is designed
after the Google Sheets API and the open-source Google Sheets MCP servers'
tool names (``get_sheet_data``, ``update_cells``, ``append_rows``,
``share_spreadsheet``, ...): ranges such as ``A1:C10``, ``B:B``, ``2:5`` or
``Orders!A2:E``, values as rows of JSON scalars, appends after the last
non-empty row, and ``find_rows`` to look rows up by a column's header.
"""

from __future__ import annotations

import datetime as dt
import random
import re
from typing import Annotated, Literal, Optional, Union

from faker import Faker
from pydantic import BaseModel, ConfigDict, Field

from compoworld_gym.entities import DateTime, Email, Id
from compoworld_gym.envs.services._commerce import order_book
from compoworld_gym.envs.services._company import OPS_EMAIL, STAFF, TEAMS
from compoworld_gym.errors import Conflict, InvalidArgument, NotFound, Unprocessable
from compoworld_gym.service import Record, Service, ServiceState, tool

Cell = Union[bool, int, float, str, None]
Role = Literal["reader", "commenter", "writer"]
_REF = re.compile(r"^([A-Z]{0,3})(\d{0,7})$")
MAX_ROWS, MAX_COLS = 10_000, 200
#: A sheet (tab) name as a tool accepts it: what create_sheet allows.
SheetTitle = Annotated[str, Field(min_length=1, max_length=100)]


class Share(Record):
    """Someone the spreadsheet is shared with."""

    email_address: Email = Field(description="Grantee email.")
    role: Role = Field(description="reader, commenter or writer.")


class Sheet(Record):
    """One sheet (tab): a grid of values, row 1 first (ragged rows allowed)."""

    sheet_id: int = Field(ge=0, description="Numeric sheet id.")
    title: str = Field(min_length=1, description="Tab name.")
    rows: list[list[Cell]] = Field(default_factory=list, description="Cell values by row, then column.")


class Spreadsheet(Record):
    """A spreadsheet file."""

    id: Id("spreadsheet") = Field(description="Spreadsheet id, e.g. SS-0002.")
    title: str = Field(description="File title.")
    owner_email: Email = Field(description="Owner.")
    sheets: list[Sheet] = Field(min_length=1, description="Sheets in tab order.")
    shared_with: list[Share] = Field(default_factory=list, description="Sharing grants.")
    modified_time: DateTime = Field(description="Last change.")


class SpreadsheetsState(ServiceState):
    """All spreadsheets."""

    spreadsheets: dict[str, Spreadsheet] = Field(default_factory=dict, description="Spreadsheets by id.")


class Recipient(BaseModel):
    """A person to share with."""

    model_config = ConfigDict(extra="forbid")
    email_address: Email = Field(description="Email to share with.")
    role: Role = Field(default="writer", description="reader, commenter or writer.")


def col_letter(i: int) -> str:
    """0-based column index -> letters (0 -> A, 26 -> AA)."""
    s = ""
    i += 1
    while i:
        i, r = divmod(i - 1, 26)
        s = chr(65 + r) + s
    return s


def _col_index(letters: str) -> int:
    n = 0
    for ch in letters:
        n = n * 26 + ord(ch) - 64
    return n - 1


def parse_range(rng: str) -> tuple[Optional[str], int, int, Optional[int], Optional[int]]:
    """``'Sheet!A2:C'`` -> (sheet, row0, col0, row1 or None, col1 or None), 0-based inclusive.

    Raises:
        InvalidArgument: not A1 notation.
    """
    sheet, _, ref = rng.rpartition("!")
    sheet = sheet.strip("'") or None
    a, _, b = ref.upper().replace("$", "").partition(":")
    ma, mb = _REF.match(a), _REF.match(b or a)
    if not ma or not mb or not (a.strip() and (b or a).strip()):
        raise InvalidArgument(f"range {rng!r} is not A1 notation (e.g. A1, A1:C10, B:B, 2:5, Sheet1!A2:E).")
    c0 = _col_index(ma.group(1)) if ma.group(1) else 0
    r0 = int(ma.group(2)) - 1 if ma.group(2) else 0
    c1 = _col_index(mb.group(1)) if mb.group(1) else None
    r1 = int(mb.group(2)) - 1 if mb.group(2) else None
    if min(r0, c0) < 0 or (r1 is not None and r1 < r0) or (c1 is not None and c1 < c0):
        raise InvalidArgument(f"range {rng!r} is empty or reversed.")
    return sheet, r0, c0, r1, c1


def _trim(rows: list[list[Cell]]) -> None:
    for row in rows:
        while row and row[-1] in (None, ""):
            row.pop()
    while rows and not rows[-1]:
        rows.pop()


def _a1(r0: int, c0: int, r1: int, c1: int) -> str:
    return f"{col_letter(c0)}{r0 + 1}:{col_letter(c1)}{r1 + 1}"


class Spreadsheets(Service):
    """Spreadsheets with sheets and A1-range reads and writes."""

    name = "spreadsheets"
    description = "Google-Sheets-like spreadsheets: sheets, A1 range reads/writes, row appends, lookups and sharing."
    domain = "productivity"
    spec_source = None
    State = SpreadsheetsState

    def _book(self, spreadsheet_id: str) -> Spreadsheet:
        return self.lookup(self.state.spreadsheets, spreadsheet_id, "spreadsheet")

    def _sheet(self, book: Spreadsheet, sheet: Optional[str], rng: Optional[str] = None) -> Sheet:
        name = parse_range(rng)[0] if rng and "!" in rng else None
        name = name or sheet
        if name is None:
            return book.sheets[0]
        for s in book.sheets:
            if s.title.lower() == name.lower():
                return s
        raise NotFound(f"sheet {name!r} not found in {book.id}; sheets: {[s.title for s in book.sheets]}.")

    def _touch(self, book: Spreadsheet) -> None:
        book.modified_time = self.now()

    # ------------------------------------------------------------------ reads
    @tool(read_only=True, returns=list[Spreadsheet])
    def list_spreadsheets(self, query: Optional[str] = None) -> list[dict]:
        """List spreadsheets (id, title, owner, sheet names), optionally only titles containing query.

        Args:
            query: case-insensitive text to find in the title.
        """
        return [{"id": b.id, "title": b.title, "owner_email": b.owner_email, "sheets": [s.title for s in b.sheets],
                 "modified_time": b.modified_time} for b in self.state.spreadsheets.values()
                if not query or query.lower() in b.title.lower()]

    @tool(read_only=True, returns=Spreadsheet)
    def get_spreadsheet(self, spreadsheet_id: Id("spreadsheet")) -> dict:
        """Get a spreadsheet's sheets (with row/column counts and header row) and sharing.

        Args:
            spreadsheet_id: the spreadsheet id.
        """
        b = self._book(spreadsheet_id)
        sheets = [{"sheet_id": s.sheet_id, "title": s.title, "row_count": len(s.rows),
                   "column_count": max((len(r) for r in s.rows), default=0), "header": s.rows[0] if s.rows else []}
                  for s in b.sheets]
        return {**b.model_dump(exclude={"sheets"}), "sheets": sheets}

    @tool(read_only=True)
    def get_sheet_data(self, spreadsheet_id: Id("spreadsheet"), sheet: Optional[str] = None,
                       range: Optional[str] = None) -> dict:  # noqa: A002 - the API's name
        """Read values of a sheet, all of it or an A1 range; empty cells are null.

        Args:
            spreadsheet_id: the spreadsheet id.
            sheet: sheet name (default: the first sheet, or the one named in range).
            range: A1 range such as A1:C10, B:B, 2:5 or Orders!A2:E (default: everything).
        """
        s = self._sheet(self._book(spreadsheet_id), sheet, range)
        _, r0, c0, r1, c1 = parse_range(range) if range else (None, 0, 0, None, None)
        last_r = len(s.rows) - 1 if r1 is None else min(r1, len(s.rows) - 1)
        width = max((len(r) for r in s.rows), default=0)
        last_c = width - 1 if c1 is None else c1
        values = [[row[c] if c < len(row) else None for c in range_(c0, last_c + 1)] for row in s.rows[r0:last_r + 1]]
        shown = _a1(r0, c0, max(last_r, r0), max(last_c, c0))
        return {"sheet": s.title, "range": shown, "values": values}

    @tool(read_only=True)
    def find_rows(self, spreadsheet_id: Id("spreadsheet"), column: str, value: Cell, sheet: Optional[str] = None,
                  match: Literal["exact", "contains"] = "exact", limit: int = Field(default=50, ge=1, le=500)) -> list[dict]:
        """Find data rows whose cell in a column equals (or contains) a value; row 1 is the header.

        Args:
            spreadsheet_id: the spreadsheet id.
            column: header name (e.g. 'Status') or column letter (e.g. 'D').
            value: value to look for (text comparison ignores case).
            sheet: sheet name (default: the first sheet).
            match: exact or contains.
            limit: maximum number of rows returned.
        """
        s = self._sheet(self._book(spreadsheet_id), sheet)
        header = [str(h) if h is not None else "" for h in (s.rows[0] if s.rows else [])]
        lower = [h.lower() for h in header]
        if column.lower() in lower:
            ci = lower.index(column.lower())
        elif re.fullmatch(r"[A-Za-z]{1,3}", column):
            ci = _col_index(column.upper())
        else:
            raise NotFound(f"no column {column!r}; headers: {header}.")
        want = str(value).lower() if isinstance(value, str) else value
        out = []
        for i, row in enumerate(s.rows[1:], start=2):
            cell = row[ci] if ci < len(row) else None
            got = cell.lower() if isinstance(cell, str) else cell
            if (got == want) if match == "exact" else (isinstance(got, str) and str(want).lower() in got):
                out.append({"row": i, "values": {header[j] if j < len(header) and header[j] else col_letter(j): v
                                                  for j, v in enumerate(row)}})
        return out[:limit]

    # ----------------------------------------------------------------- writes
    @tool(read_only=False, returns=Spreadsheet)
    def create_spreadsheet(self, title: str = Field(min_length=1, max_length=200),
                           sheet_titles: list[SheetTitle] = Field(default_factory=lambda: ["Sheet1"], min_length=1,
                                                                  max_length=50)) -> dict:
        """Create an empty spreadsheet with the given sheets.

        Args:
            title: the file title.
            sheet_titles: names of the sheets to create, in order (1-100 characters each).
        """
        if len({t.lower() for t in sheet_titles}) != len(sheet_titles):
            raise InvalidArgument("sheet_titles must be unique.")
        b = Spreadsheet(id=self.new_id("SS"), title=title, owner_email=OPS_EMAIL, modified_time=self.now(),
                        sheets=[Sheet(sheet_id=i, title=t) for i, t in enumerate(sheet_titles)])
        self.state.spreadsheets[b.id] = b
        return {"id": b.id, "title": title, "sheets": list(sheet_titles)}

    @tool(read_only=False, destructive=True)
    def update_cells(self, spreadsheet_id: Id("spreadsheet"), range: str, data: list[list[Cell]] = Field(min_length=1),  # noqa: A002
                     sheet: Optional[str] = None) -> dict:
        """Write a block of values starting at the top-left cell of an A1 range (overwrites).

        Args:
            spreadsheet_id: the spreadsheet id.
            range: A1 range or start cell, e.g. B2 or Orders!D5:D5.
            data: rows of values to write.
            sheet: sheet name (default: the first sheet, or the one named in range).
        """
        b = self._book(spreadsheet_id)
        s = self._sheet(b, sheet, range)
        _, r0, c0, r1, c1 = parse_range(range)
        if ":" not in range:  # a single cell is where the block starts, not its size
            r1 = c1 = None
        height, width = len(data), max(len(r) for r in data)
        if (r1 is not None and height > r1 - r0 + 1) or (c1 is not None and width > c1 - c0 + 1):
            raise InvalidArgument(f"data is {height}x{width} but range {range!r} is smaller; widen the range.")
        if r0 + height > MAX_ROWS or c0 + width > MAX_COLS:
            raise Unprocessable(f"writes are limited to {MAX_ROWS} rows and {MAX_COLS} columns.")
        for i, values in enumerate(data):
            while len(s.rows) <= r0 + i:
                s.rows.append([])
            row = s.rows[r0 + i]
            row.extend([None] * (c0 + len(values) - len(row)))
            row[c0:c0 + len(values)] = values
        _trim(s.rows)
        self._touch(b)
        return {"sheet": s.title, "updated_range": _a1(r0, c0, r0 + height - 1, c0 + width - 1),
                "updated_cells": sum(len(r) for r in data)}

    @tool(read_only=False)
    def append_rows(self, spreadsheet_id: Id("spreadsheet"), data: list[list[Cell]] = Field(min_length=1),
                    sheet: Optional[str] = None) -> dict:
        """Append rows after the last non-empty row of a sheet, starting in column A.

        Args:
            spreadsheet_id: the spreadsheet id.
            data: rows of values to append.
            sheet: sheet name (default: the first sheet).
        """
        b = self._book(spreadsheet_id)
        s = self._sheet(b, sheet)
        start = len(s.rows)
        if start + len(data) > MAX_ROWS:
            raise Unprocessable(f"a sheet holds at most {MAX_ROWS} rows.")
        s.rows.extend([list(r) for r in data])
        _trim(s.rows)
        self._touch(b)
        width = max(len(r) for r in data) or 1
        return {"sheet": s.title, "updated_range": _a1(start, 0, start + len(data) - 1, width - 1),
                "first_row": start + 1, "rows_appended": len(data)}

    @tool(read_only=False, destructive=True)
    def clear_range(self, spreadsheet_id: Id("spreadsheet"), range: str, sheet: Optional[str] = None) -> dict:  # noqa: A002
        """Empty the cells of an A1 range (rows below do not move).

        Args:
            spreadsheet_id: the spreadsheet id.
            range: A1 range to clear.
            sheet: sheet name (default: the first sheet, or the one named in range).
        """
        b = self._book(spreadsheet_id)
        s = self._sheet(b, sheet, range)
        _, r0, c0, r1, c1 = parse_range(range)
        cleared = 0
        for row in s.rows[r0:None if r1 is None else r1 + 1]:
            for c in range_(c0, len(row) if c1 is None else min(c1 + 1, len(row))):
                cleared += row[c] is not None
                row[c] = None
        _trim(s.rows)
        self._touch(b)
        return {"sheet": s.title, "cleared_cells": cleared}

    @tool(read_only=False)
    def create_sheet(self, spreadsheet_id: Id("spreadsheet"), title: SheetTitle) -> dict:
        """Add an empty sheet at the end of a spreadsheet.

        Args:
            spreadsheet_id: the spreadsheet id.
            title: the new sheet's name.
        """
        b = self._book(spreadsheet_id)
        if any(s.title.lower() == title.lower() for s in b.sheets):
            raise Conflict(f"a sheet named {title!r} already exists.")
        s = Sheet(sheet_id=max(x.sheet_id for x in b.sheets) + 1, title=title)
        b.sheets.append(s)
        self._touch(b)
        return {"spreadsheet_id": b.id, "sheet_id": s.sheet_id, "title": title}

    @tool(read_only=False)
    def rename_sheet(self, spreadsheet_id: Id("spreadsheet"), sheet: str, new_title: SheetTitle) -> dict:
        """Rename a sheet.

        Args:
            spreadsheet_id: the spreadsheet id.
            sheet: current sheet name.
            new_title: the new name.
        """
        b = self._book(spreadsheet_id)
        s = self._sheet(b, sheet)
        if any(x is not s and x.title.lower() == new_title.lower() for x in b.sheets):
            raise Conflict(f"a sheet named {new_title!r} already exists.")
        s.title = new_title
        self._touch(b)
        return {"sheet_id": s.sheet_id, "title": new_title}

    @tool(read_only=False, destructive=True)
    def delete_sheet(self, spreadsheet_id: Id("spreadsheet"), sheet: str) -> dict:
        """Delete a sheet and its data (a spreadsheet keeps at least one sheet).

        Args:
            spreadsheet_id: the spreadsheet id.
            sheet: the sheet name.
        """
        b = self._book(spreadsheet_id)
        s = self._sheet(b, sheet)
        if len(b.sheets) == 1:
            raise Conflict("cannot delete the only sheet of a spreadsheet.")
        b.sheets.remove(s)
        self._touch(b)
        return {"deleted": s.title, "sheets": [x.title for x in b.sheets]}

    @tool(read_only=False, returns=list[Share])
    def share_spreadsheet(self, spreadsheet_id: Id("spreadsheet"), recipients: list[Recipient] = Field(min_length=1)) -> dict:
        """Share a spreadsheet with people; sharing again with someone changes their role.

        Args:
            spreadsheet_id: the spreadsheet id.
            recipients: people to share with, each with email_address and role.
        """
        b = self._book(spreadsheet_id)
        for r in recipients:
            email = r.email_address.lower()
            if email == b.owner_email:
                raise Conflict(f"{email} owns this spreadsheet.")
            cur = next((x for x in b.shared_with if x.email_address == email), None)
            if cur:
                cur.role = r.role
            else:
                b.shared_with.append(Share(email_address=email, role=r.role))
        return {"spreadsheet_id": b.id, "shared_with": [x.model_dump() for x in b.shared_with]}

    # ------------------------------------------------------------------ seeds
    @classmethod
    def build_seed_state(cls, fake: Faker, rng: random.Random, today: dt.date) -> SpreadsheetsState:
        when = dt.datetime.combine(today - dt.timedelta(days=2), dt.time(16, 30))
        orders = [["Order ID", "Customer Email", "Total", "Status", "Placed On"]] + [
            [o.id, o.customer.email, o.total, o.status, o.placed_on.isoformat()] for o in order_book(today)]
        roster = [["Name", "Email", "Team", "Title"]] + [[s.name, s.email, TEAMS[s.team].name, s.title] for s in STAFF]
        budget = [["Category", "Owner Email", "Budget", "Spent"]]
        for cat in ("Marketing", "Support tooling", "Travel", "Training", "Hardware", "Contractors"):
            planned = rng.randrange(2_000, 20_000, 500)
            budget.append([cat, rng.choice(STAFF).email, planned, round(planned * rng.uniform(0.2, 1.2), 2)])
        books = [("SS-0001", "Customer orders 2026", [("Orders", orders), ("Notes", [["Note"], ["Totals include shipping."]])]),
                 ("SS-0002", "Team roster", [("Staff", roster)]),
                 ("SS-0003", "Q1 budget", [("Budget", budget)])]
        state = SpreadsheetsState(counters={"SS": 4})
        for sid, title, sheets in books:
            state.spreadsheets[sid] = Spreadsheet(
                id=sid, title=title, owner_email=OPS_EMAIL, modified_time=when,
                sheets=[Sheet(sheet_id=i, title=t, rows=rows) for i, (t, rows) in enumerate(sheets)],
                shared_with=[Share(email_address=s.email, role=rng.choice(("reader", "writer"))) for s in rng.sample(STAFF, 2)])
        return state


range_ = range  # the tools shadow ``range`` with the API's parameter name
