"""Library circulation: patrons, items, loans, holds and fees of a school and community library.

No circulation server is in ``compoworld_gym/data/mcp_servers.jsonl``
(``spec_source = None``); the interface follows the FOLIO circulation and
users APIs with Koha's fines behaviour: users with a patron group
(``/users``, ``/groups``: barcode, personal.email, patronGroup,
expirationDate, externalSystemId = the SIS student id), inventory items
(barcode, title, ISBN, effectiveLocation, status), check-out-by-barcode and
check-in-by-barcode (``/circulation/check-out-by-barcode``), loan renewal
(``/circulation/renew-by-id``), hold requests with a queue
(``/circulation/requests``, position, "Open - Awaiting pickup"), fee/fine
accounts and their pay/waive actions (``/accounts/{id}/pay``), and patron
notices (Koha ``message_queue``).

Rules of the real products: the loan policy of the patron's group sets the
loan period, renewal limit (2) and the overdue fine per day with a cap per
loan; no check-out over the group's loan limit, nor by a patron who is
inactive, expired or owes more than $10.00 (FOLIO automated patron block);
no renewal once the limit is reached, nor while someone is waiting for the
item; a returned item with a waiting hold goes to the hold shelf for the
first requester for seven days; holds are placed on items that are out;
ISBN-13s must carry the right check digit.
"""

from __future__ import annotations

import datetime as dt
import random
from typing import Optional

from faker import Faker
from pydantic import Field

from compoworld_gym.entities import Date, Email, Id, Money, Phone
from compoworld_gym.envs.services._commerce import MONEY_MAX, money
from compoworld_gym.envs.services._library_circulation_models import (
    LOCATIONS, LOST_PROCESSING_FEE, PICKUP_POINTS, POLICIES, Fee, FeePayment, GroupName, Hold, Item,
    LibraryState, Loan, MaterialType, Patron, PaymentMethod, normalize_isbn,
)
from compoworld_gym.envs.services._library_circulation_rules import (
    balance, check_in_good_standing, loan_view, next_for_shelf, open_loans, patron_view, queue, renumber,
    settle_overdue,
)
from compoworld_gym.envs.services._library_circulation_reads import LibraryReads
from compoworld_gym.envs.services._library_circulation_seed import build_state
from compoworld_gym.errors import Conflict, Unprocessable
from compoworld_gym.service import tool


class LibraryCirculation(LibraryReads):
    """FOLIO-style library circulation: patrons, items, loans, holds, fees."""

    name = "library_circulation"
    description = ("Library circulation (FOLIO/Koha): patrons by email, barcode or SIS student id, items, "
                   "check-out/check-in, renewals, hold queues, overdue fines and fee payments.")
    domain = "education"
    spec_source = None
    State = LibraryState

    # ----------------------------------------------------------------- writes
    @tool(read_only=False, returns=Patron)
    def create_patron(self, first_name: str = Field(min_length=1, max_length=60),
                      last_name: str = Field(min_length=1, max_length=60), email: Email = Field(max_length=120),
                      patron_group: GroupName = "community", phone: Optional[Phone] = None,
                      guardian_email: Optional[Email] = None, student_id: Optional[Id("student")] = None,
                      expiration_date: Optional[Date] = None) -> dict:
        """Register a patron; the card barcode is issued in sequence and the card is valid one year by default.

        Args:
            first_name: given name.
            last_name: family name.
            email: the patron's email (one active account per email).
            patron_group: student, staff or community.
            phone: phone number.
            guardian_email: a guardian's email (minors).
            student_id: the SIS student id (students).
            expiration_date: last valid day of the card (after today).
        """
        if any(p.active and p.email.lower() == email.lower() for p in self.state.patrons.values()):
            raise Conflict(f"an active patron already has email {email}; search_patrons to find it.")
        if expiration_date is not None and expiration_date <= self.today:
            raise Unprocessable("expiration_date must be after today.")
        if patron_group == "student" and not student_id:
            raise Unprocessable("a student patron needs the SIS student_id.")
        pid = self.new_id("PAT")
        p = Patron(id=pid, barcode=f"21000{int(pid[4:]):09d}", first_name=first_name, last_name=last_name, email=email,
                   phone=phone, patron_group=patron_group, active=True,
                   expiration_date=expiration_date or self.today + dt.timedelta(days=365),
                   enrollment_date=self.today, student_id=student_id, guardian_email=guardian_email)
        self.state.patrons[pid] = p
        return patron_view(self.state, p)

    @tool(read_only=False, returns=Patron)
    def update_patron(self, patron_id: Id("patron"), email: Optional[Email] = None, phone: Optional[Phone] = None,
                      patron_group: Optional[GroupName] = None, expiration_date: Optional[Date] = None,
                      active: Optional[bool] = None, guardian_email: Optional[Email] = None) -> dict:
        """Change a patron's contact details, group, card expiration or active flag (only the fields given).

        Args:
            patron_id: the patron.
            email: new email.
            phone: new phone.
            patron_group: new group (its loan limit and policy apply to new loans).
            expiration_date: new last valid day (after today).
            active: activate or deactivate (an account with items out cannot be deactivated).
            guardian_email: new guardian email.
        """
        p = self._patron(patron_id)
        if expiration_date is not None and expiration_date <= self.today:
            raise Unprocessable("expiration_date must be after today.")
        if active is False and open_loans(self.state, p.id):
            raise Conflict(f"patron {p.id} still has {len(open_loans(self.state, p.id))} item(s) out; check them "
                           "in first.")
        for field, value in (("email", email), ("phone", phone), ("patron_group", patron_group),
                             ("expiration_date", expiration_date), ("active", active),
                             ("guardian_email", guardian_email)):
            if value is not None:
                setattr(p, field, value)
        return patron_view(self.state, p)

    @tool(read_only=False, returns=Item)
    def add_item(self, title: str = Field(min_length=1, max_length=200),
                 isbn: str = Field(min_length=10, max_length=20),
                 location: str = LOCATIONS[0], author: str = Field(default="Unknown", max_length=120),
                 material_type: MaterialType = "book",
                 replacement_cost: Money = Field(default=25.0, ge=0, le=MONEY_MAX)) -> dict:
        """Add a copy to the catalog; the ISBN-13 check digit is validated and a barcode is issued.

        Args:
            title: title of the work.
            isbn: ISBN-13 (hyphens allowed); a wrong check digit is refused (422).
            location: a shelving location, e.g. 'Main Library - Stacks'.
            author: author or director.
            material_type: book, dvd or audiobook.
            replacement_cost: lost-item fee (USD).
        """
        digits = normalize_isbn(isbn)
        if location not in LOCATIONS:
            raise Unprocessable(f"unknown location {location!r}; locations are: {', '.join(LOCATIONS)}.")
        iid = self.new_id("ITM")
        item = Item(id=iid, barcode=f"31000{int(iid[4:]):09d}", title=title, author=author, isbn=digits,
                    call_number=f"{author.split()[-1][:3].upper()} {int(iid[4:])}", location=location,
                    material_type=material_type, status="available", replacement_cost=money(replacement_cost))
        self.state.items[iid] = item
        return item.model_dump()

    @tool(read_only=False, returns=Loan)
    def check_out_item(self, item_barcode: str, patron_barcode: str) -> dict:
        """Lend an item to a patron by barcodes; the due date comes from the patron group's loan policy.

        Refused (422) for an inactive or expired patron, one owing over $10.00, or one at their
        group's loan limit; (409) for an item already out, lost, or on the hold shelf for someone else.

        Args:
            item_barcode: the item's barcode.
            patron_barcode: the patron's card barcode.
        """
        item = self._by_barcode(self.state.items, item_barcode, "item")
        p = self._by_barcode(self.state.patrons, patron_barcode, "patron")
        check_in_good_standing(self.state, p, self.today, "checking out")
        policy = POLICIES[p.patron_group]
        if len(open_loans(self.state, p.id)) >= policy.loan_limit:
            raise Unprocessable(f"patron {p.id} has {policy.loan_limit} items out, the {p.patron_group} loan limit; "
                                "an item must be returned first.")
        hold = None
        if item.status == "checked_out":
            loan = self._open_loan_of(item.id)
            raise Conflict(f"item {item.barcode} is already checked out (loan {loan.id if loan else '?'}); place a "
                           "hold instead.")
        if item.status == "lost":
            raise Conflict(f"item {item.barcode} is declared lost and cannot circulate.")
        if item.status == "on_hold_shelf":
            hold = queue(self.state, item.id)[0]
            if hold.patron_id != p.id:
                raise Conflict(f"item {item.barcode} is on the hold shelf for another patron (hold {hold.id}).")
        lid = self.new_id("LN")
        loan = Loan(id=lid, patron_id=p.id, item_id=item.id, loan_policy=policy.policy_name, loan_date=self.today,
                    due_date=self.today + dt.timedelta(days=policy.loan_period_days), status="open",
                    action="checked_out")
        self.state.loans[lid] = loan
        item.status = "checked_out"
        if hold is not None:
            hold.status, hold.hold_shelf_expiration = "closed_filled", None
        return loan_view(self.state, loan, self.today)

    @tool(read_only=False, returns=Loan)
    def check_in_item(self, item_barcode: str) -> dict:
        """Return an item: the loan closes, an overdue fine stops accruing (or is billed), and the item goes to the
        hold shelf for the first waiting request (who is sent a pickup notice) or back on the shelf.

        Args:
            item_barcode: the item's barcode.
        """
        item = self._by_barcode(self.state.items, item_barcode, "item")
        loan = self._open_loan_of(item.id)
        if loan is None or item.status != "checked_out":
            raise Conflict(f"item {item.barcode} is {item.status}, not checked out; nothing to check in.")
        loan.status, loan.action, loan.return_date = "closed", "checked_in", self.today
        settle_overdue(self.state, loan, self.today, lambda: self.new_id("FEE"))
        hold = next_for_shelf(self.state, item, self.today)
        if hold is not None:
            who = self.state.patrons[hold.patron_id]
            self._notify(who, f"Hold ready: {item.title}",
                         f"{item.title} is waiting for you at {hold.pickup_location} until "
                         f"{hold.hold_shelf_expiration}.", hold.id)
        return {**loan_view(self.state, loan, self.today), "item_status": item.status,
                "hold_awaiting_pickup": hold.id if hold else None}

    @tool(read_only=False, returns=Loan)
    def renew_loan(self, loan_id: Id("loan")) -> dict:
        """Renew a loan: the new due date is today plus the policy's loan period.

        Refused (422) when the policy's renewal limit (2) is reached, when someone holds the
        item, or when renewing would not move the due date later.

        Args:
            loan_id: the open loan.
        """
        loan = self._loan(loan_id)
        if loan.status != "open":
            raise Conflict(f"loan {loan.id} is closed; only open loans can be renewed.")
        policy = POLICIES[self.state.patrons[loan.patron_id].patron_group]
        if loan.renewal_count >= policy.renewals_allowed:
            raise Unprocessable(f"loan {loan.id} was renewed {loan.renewal_count} times, the limit of "
                                f"{policy.policy_name}; the item must be returned.")
        waiting = queue(self.state, loan.item_id)
        if waiting:
            raise Unprocessable(f"item {loan.item_id} has {len(waiting)} hold request(s) waiting; it cannot be "
                                "renewed and must be returned by its due date.")
        due = self.today + dt.timedelta(days=policy.loan_period_days)
        if due <= loan.due_date:
            raise Unprocessable(f"loan {loan.id} is already due {loan.due_date}; renewing today would not extend it.")
        if (self.today - loan.due_date).days > 0:
            settle_overdue(self.state, loan, self.today, lambda: self.new_id("FEE"))
        loan.due_date, loan.action, loan.renewal_count = due, "renewed", loan.renewal_count + 1
        return loan_view(self.state, loan, self.today)

    @tool(read_only=False, returns=list[Fee])
    def declare_item_lost(self, loan_id: Id("loan")) -> dict:
        """Declare a borrowed item lost: the loan closes, the item is marked lost, and the patron is billed its
        replacement cost plus the $10.00 processing fee (an overdue fine stops accruing).

        Args:
            loan_id: the open loan.
        """
        loan = self._loan(loan_id)
        if loan.status != "open":
            raise Conflict(f"loan {loan.id} is closed; only an item out on loan can be declared lost.")
        item = self.state.items[loan.item_id]
        loan.status, loan.action, loan.return_date = "closed", "declared_lost", self.today
        settle_overdue(self.state, loan, self.today, lambda: self.new_id("FEE"))
        item.status = "lost"
        billed = []
        for kind, amount in (("lost_item_fee", item.replacement_cost), ("lost_item_processing_fee",
                                                                        LOST_PROCESSING_FEE)):
            f = Fee(id=self.new_id("FEE"), patron_id=loan.patron_id, loan_id=loan.id, item_id=item.id, fee_type=kind,
                    amount=amount, remaining=amount, status="open", payment_status="outstanding",
                    created_on=self.today)
            self.state.fees[f.id] = f
            billed.append(f.model_dump())
        for h in queue(self.state, item.id):  # nobody can receive a lost copy
            h.status, h.position, h.cancellation_reason = "closed_cancelled", None, "Item declared lost"
        return {"loan_id": loan.id, "item_status": item.status, "fees": billed,
                "total_owed": balance(self.state, loan.patron_id)}

    @tool(read_only=False, returns=Hold)
    def place_hold(self, item_id: Id("library_item"), patron_id: Id("patron"),
                   pickup_location: str = PICKUP_POINTS[0]) -> dict:
        """Place a hold on an item that is out; the patron joins the end of its queue.

        Refused (409) for an item on the shelf (check it out instead), a lost item, the patron's own
        loan or a second hold; (422) for a blocked, inactive or expired patron.

        Args:
            item_id: the item.
            patron_id: the requester.
            pickup_location: 'Main Library Circulation Desk' or 'Eastside Branch Desk'.
        """
        item, p = self._item(item_id), self._patron(patron_id)
        check_in_good_standing(self.state, p, self.today, "placing a hold")
        if pickup_location not in PICKUP_POINTS:
            raise Unprocessable(f"unknown pickup location {pickup_location!r}; use one of {', '.join(PICKUP_POINTS)}.")
        if item.status == "available":
            raise Conflict(f"item {item.id} is on the shelf; check it out instead of placing a hold.")
        if item.status == "lost":
            raise Conflict(f"item {item.id} is lost; holds cannot be placed on it.")
        loan = self._open_loan_of(item.id)
        if loan is not None and loan.patron_id == p.id:
            raise Conflict(f"patron {p.id} already has item {item.id} on loan ({loan.id}).")
        mine = next((h for h in queue(self.state, item.id) if h.patron_id == p.id), None)
        if mine is not None:
            raise Conflict(f"patron {p.id} already has hold {mine.id} on item {item.id}.")
        waiting = [h for h in queue(self.state, item.id) if h.status == "open_not_yet_filled"]
        hold = Hold(id=self.new_id("HLD"), item_id=item.id, patron_id=p.id, request_date=self.today,
                    position=len(waiting) + 1, status="open_not_yet_filled", pickup_location=pickup_location)
        self.state.holds[hold.id] = hold
        return hold.model_dump()

    @tool(read_only=False, returns=Hold)
    def cancel_hold(self, hold_id: Id("hold"), reason: str = Field(min_length=3, max_length=200)) -> dict:
        """Cancel an open hold; the queue closes up, and an item left on the hold shelf goes to the next requester
        or back on the shelf.

        Args:
            hold_id: the hold.
            reason: why it is cancelled.
        """
        hold = self.lookup(self.state.holds, hold_id, "hold")
        if not hold.status.startswith("open"):
            raise Conflict(f"hold {hold.id} is {hold.status}; only open holds can be cancelled.")
        was_on_shelf = hold.status == "open_awaiting_pickup"
        hold.status, hold.position, hold.cancellation_reason = "closed_cancelled", None, reason
        hold.hold_shelf_expiration = None
        renumber(self.state, hold.item_id)
        if was_on_shelf:
            nxt = next_for_shelf(self.state, self.state.items[hold.item_id], self.today)
            if nxt is not None:
                item = self.state.items[hold.item_id]
                self._notify(self.state.patrons[nxt.patron_id], f"Hold ready: {item.title}",
                             f"{item.title} is waiting for you at {nxt.pickup_location} until "
                             f"{nxt.hold_shelf_expiration}.", nxt.id)
        return hold.model_dump()

    @tool(read_only=False, returns=Fee)
    def pay_fee(self, fee_id: str, amount: Money = Field(ge=0.01, le=MONEY_MAX), payment_method: PaymentMethod = "cash",
                transaction_info: str = Field(default="", max_length=200)) -> dict:
        """Pay all or part of an open fee/fine; ``amount`` may not exceed what is owed on it (422).

        Args:
            fee_id: the fee, e.g. FEE-0002.
            amount: amount paid (USD).
            payment_method: cash, credit_card, check or online.
            transaction_info: receipt number or reference text.
        """
        fee = self.lookup(self.state.fees, fee_id, "fee")
        if fee.status != "open":
            raise Conflict(f"fee {fee.id} is closed ({fee.payment_status}); nothing is owed on it.")
        paid = money(amount)
        if paid > fee.remaining:
            raise Unprocessable(f"{paid:.2f} is more than the {fee.remaining:.2f} owed on fee {fee.id}.")
        fee.remaining = money(fee.remaining - paid)
        fee.payments.append(FeePayment(amount=paid, method=payment_method, transaction_info=transaction_info,
                                       at=self.now()))
        fee.payment_status = "paid_fully" if fee.remaining == 0 else "paid_partially"
        fee.status = "closed" if fee.remaining == 0 else "open"
        return {**fee.model_dump(), "patron_balance": balance(self.state, fee.patron_id)}

    @tool(read_only=False, returns=Fee)
    def waive_fee(self, fee_id: str, reason: str = Field(min_length=3, max_length=200)) -> dict:
        """Waive what is still owed on an open fee/fine (not an overdue fine still accruing while the item is out).

        Args:
            fee_id: the fee.
            reason: why it is waived.
        """
        fee = self.lookup(self.state.fees, fee_id, "fee")
        if fee.status != "open":
            raise Conflict(f"fee {fee.id} is closed ({fee.payment_status}); nothing is owed on it.")
        if fee.accruing:
            raise Conflict(f"fee {fee.id} is still accruing (the item is out); check the item in first.")
        fee.payments.append(FeePayment(amount=fee.remaining, method="waive", transaction_info=reason, at=self.now()))
        fee.remaining, fee.status, fee.payment_status = 0.0, "closed", "waived"
        return {**fee.model_dump(), "patron_balance": balance(self.state, fee.patron_id)}

    @tool(read_only=False)
    def send_patron_notice(self, patron_id: Id("patron"), subject: str = Field(min_length=1, max_length=150),
                           body: str = Field(min_length=1, max_length=2000),
                           loan_id: Optional[Id("loan")] = None) -> dict:
        """Email a notice to a patron (and to the guardian of a minor), optionally about one of their loans.

        Args:
            patron_id: the patron.
            subject: subject line.
            body: the message.
            loan_id: the patron's loan the notice is about.
        """
        p = self._patron(patron_id)
        if loan_id is not None and self._loan(loan_id).patron_id != p.id:
            raise Unprocessable(f"loan {loan_id} is not a loan of patron {p.id}.")
        return self._notify(p, subject, body, loan_id or p.id)

    # ------------------------------------------------------------------ seeds
    @classmethod
    def build_seed_state(cls, fake: Faker, rng: random.Random, today: dt.date) -> LibraryState:
        return build_state(fake, rng, today)
