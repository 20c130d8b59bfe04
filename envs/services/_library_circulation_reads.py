"""The read half of the library_circulation service: record lookups shared by
all its tools, and the read tools on patrons, items, loans, holds and fees.

:class:`LibraryReads` sets no ``name`` and does not register, so it is not a
service of its own; :class:`~compoworld_gym.envs.services.library_circulation.LibraryCirculation`
adds the circulation writes. Tools are listed in definition order, these first.
"""

from __future__ import annotations

from typing import Literal, Optional

from pydantic import Field

from compoworld_gym.entities import Email, Id
from compoworld_gym.envs.services._blocks import eq, ieq, select, send, text
from compoworld_gym.envs.services._library_circulation_models import (
    POLICIES, Fee, GroupName, Hold, HoldStatus, Item, ItemStatus, Loan, Patron,
)
from compoworld_gym.envs.services._library_circulation_rules import (
    balance, loan_view, open_loans, patron_view, queue,
)
from compoworld_gym.errors import NotFound
from compoworld_gym.service import Service, tool

Limit = Field(default=50, ge=1, le=200)


class LibraryReads(Service, register=False):
    """Patrons, items, loans, holds and fees: lookups and read tools."""

    # ---------------------------------------------------------------- helpers
    def _patron(self, patron_id: str) -> Patron:
        return self.lookup(self.state.patrons, patron_id, "patron")

    def _item(self, item_id: str) -> Item:
        return self.lookup(self.state.items, item_id, "library item")

    def _loan(self, loan_id: str) -> Loan:
        return self.lookup(self.state.loans, loan_id, "loan")

    def _by_barcode(self, collection: dict, barcode: str, kind: str):
        hit = next((r for r in collection.values() if r.barcode == barcode.strip()), None)
        if hit is None:
            raise NotFound(f"no {kind} with barcode {barcode!r}; search {kind}s to find the barcode.")
        return hit

    def _open_loan_of(self, item_id: str) -> Optional[Loan]:
        return next((ln for ln in self.state.loans.values() if ln.item_id == item_id and ln.status == "open"), None)

    def _notify(self, p: Patron, subject: str, body: str, about: str) -> dict:
        to = [p.email] + ([p.guardian_email] if p.guardian_email else [])
        return send(self, self.state.outbox, to=to, subject=subject, body=body, about=about).model_dump()

    # ------------------------------------------------------------------ reads
    @tool(read_only=True)
    def list_patron_groups(self) -> list[dict]:
        """The patron groups with their loan limit and loan policy (period, renewals, overdue fine per day and cap)."""
        return [p._asdict() for p in POLICIES.values()]

    @tool(read_only=True, returns=list[Patron])
    def search_patrons(self, query: Optional[str] = None, email: Optional[Email] = None,
                       guardian_email: Optional[Email] = None, barcode: Optional[str] = None,
                       student_id: Optional[Id("student")] = None, patron_group: Optional[GroupName] = None,
                       active: Optional[bool] = None, limit: int = Limit) -> list[dict]:
        """Search patrons by name, email, guardian's email, card barcode, SIS student id, group or active flag.

        Args:
            query: part of the name or email (case-insensitive).
            email: the patron's email.
            guardian_email: a guardian's email (finds the minors they are responsible for).
            barcode: the library card barcode.
            student_id: the SIS student id, e.g. STU-0004.
            patron_group: student, staff or community.
            active: only active (true) or inactive (false) accounts.
            limit: maximum number of patrons (1-200).
        """
        hits = select(self.state.patrons.values(), text(query, "first_name", "last_name", "email"), ieq("email", email),
                      None if guardian_email is None else
                      (lambda p: (p.guardian_email or "").lower() == guardian_email.lower()),
                      eq("barcode", barcode), eq("student_id", student_id), eq("patron_group", patron_group),
                      eq("active", active), limit=limit)
        return [patron_view(self.state, p) for p in hits]

    @tool(read_only=True, returns=Patron)
    def get_patron(self, patron_id: Id("patron")) -> dict:
        """One patron with their group's loan limit, loans out, balance owed and whether fines block them.

        Args:
            patron_id: the patron id, e.g. PAT-0001.
        """
        return patron_view(self.state, self._patron(patron_id))

    @tool(read_only=True)
    def get_patron_account(self, patron_id: Id("patron")) -> dict:
        """A patron's account: open loans, open holds and open fees with the total owed (USD).

        Args:
            patron_id: the patron.
        """
        p = self._patron(patron_id)
        return {"patron": patron_view(self.state, p),
                "loans": [loan_view(self.state, ln, self.today) for ln in open_loans(self.state, p.id)],
                "holds": [h.model_dump() for h in self.state.holds.values()
                          if h.patron_id == p.id and h.status.startswith("open")],
                "fees": [f.model_dump() for f in self.state.fees.values()
                         if f.patron_id == p.id and f.status == "open"],
                "total_owed": balance(self.state, p.id)}

    @tool(read_only=True, returns=list[Item])
    def search_items(self, query: Optional[str] = None, isbn: Optional[str] = None, barcode: Optional[str] = None,
                     status: Optional[ItemStatus] = None, location: Optional[str] = None,
                     limit: int = Limit) -> list[dict]:
        """Search items by title or author words, ISBN, barcode, status or location.

        Args:
            query: part of the title or author (case-insensitive).
            isbn: the ISBN-13 (hyphens allowed).
            barcode: the item barcode.
            status: available, checked_out, on_hold_shelf or lost.
            location: the shelving location (exact).
            limit: maximum number of items (1-200).
        """
        want = None if isbn is None else isbn.replace("-", "").replace(" ", "")
        return [i.model_dump() for i in select(self.state.items.values(), text(query, "title", "author"),
                                               eq("isbn", want), eq("barcode", barcode), eq("status", status),
                                               eq("location", location), limit=limit)]

    @tool(read_only=True, returns=Item)
    def get_item(self, item_id: Id("library_item")) -> dict:
        """One item with its current loan id and hold queue length.

        Args:
            item_id: the item id, e.g. ITM-0003.
        """
        item = self._item(item_id)
        loan = self._open_loan_of(item.id)
        return {**item.model_dump(), "current_loan_id": loan.id if loan else None,
                "due_date": loan.due_date if loan else None, "holds_in_queue": len(queue(self.state, item.id))}

    @tool(read_only=True, returns=list[Loan])
    def list_loans(self, patron_id: Optional[Id("patron")] = None, item_id: Optional[Id("library_item")] = None,
                   status: Optional[Literal["open", "closed"]] = None, overdue_only: bool = False,
                   limit: int = Limit) -> list[dict]:
        """Loans, oldest first, with title, borrower, days overdue and the overdue fine owed.

        Args:
            patron_id: only this patron's loans.
            item_id: only loans of this item.
            status: open (out) or closed (returned or lost).
            overdue_only: only open loans past their due date.
            limit: maximum number of loans (1-200).
        """
        rows = [loan_view(self.state, ln, self.today) for ln in select(
            self.state.loans.values(), eq("patron_id", patron_id), eq("item_id", item_id), eq("status", status))]
        return [r for r in rows if r["overdue"] or not overdue_only][:limit]

    @tool(read_only=True, returns=Loan)
    def get_loan(self, loan_id: Id("loan")) -> dict:
        """One loan with its item, borrower (and guardian), days overdue and the overdue fine owed (USD).

        Args:
            loan_id: the loan id, e.g. LN-0001.
        """
        return loan_view(self.state, self._loan(loan_id), self.today)

    @tool(read_only=True, returns=list[Hold])
    def list_holds(self, item_id: Optional[Id("library_item")] = None, patron_id: Optional[Id("patron")] = None,
                   status: Optional[HoldStatus] = None) -> list[dict]:
        """Hold requests; for an item, its queue in order (the one awaiting pickup first).

        Args:
            item_id: only this item's holds.
            patron_id: only this patron's holds.
            status: open_not_yet_filled, open_awaiting_pickup, closed_filled or closed_cancelled.
        """
        rows = select(self.state.holds.values(), eq("item_id", item_id), eq("patron_id", patron_id),
                      eq("status", status))
        return [h.model_dump() for h in sorted(rows, key=lambda h: (not h.status.startswith("open"),
                                                                   h.status != "open_awaiting_pickup",
                                                                   h.position or 0, h.id))]

    @tool(read_only=True, returns=list[Fee])
    def list_fees(self, patron_id: Optional[Id("patron")] = None, status: Optional[Literal["open", "closed"]] = None,
                  loan_id: Optional[Id("loan")] = None) -> list[dict]:
        """Fee/fine accounts with their payments.

        Args:
            patron_id: only this patron's fees.
            status: open (something owed) or closed.
            loan_id: only fees of this loan.
        """
        return [f.model_dump() for f in select(self.state.fees.values(), eq("patron_id", patron_id),
                                               eq("status", status), eq("loan_id", loan_id))]
