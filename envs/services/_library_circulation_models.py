"""Records of the library_circulation service (FOLIO / Koha style circulation).

The shapes follow FOLIO's circulation APIs: users with a patron group
(``/users``, ``/groups``), inventory items with a barcode, an effective
location and an item status (``/inventory/items``), loans made by
check-out-by-barcode with a due date from the loan policy
(``/circulation/loans``), title-level hold requests with a queue position
(``/circulation/requests``) and fee/fine accounts with their payments
(``/accounts``, ``/feefineactions``). Overdue fines accrue while an item is
overdue, as Koha's nightly fines job keeps its ``UNRETURNED`` account lines.
"""

from __future__ import annotations

from typing import Literal, NamedTuple, Optional

from pydantic import Field

from compoworld_gym.entities import Date, DateTime, Email, Id, Money, Phone
from compoworld_gym.envs.services._blocks import OutboxMessage
from compoworld_gym.errors import Unprocessable
from compoworld_gym.service import Record, ServiceState

GroupName = Literal["student", "staff", "community"]
ItemStatus = Literal["available", "checked_out", "on_hold_shelf", "lost"]
MaterialType = Literal["book", "dvd", "audiobook"]
HoldStatus = Literal["open_not_yet_filled", "open_awaiting_pickup", "closed_filled", "closed_cancelled"]
FeeType = Literal["overdue_fine", "lost_item_fee", "lost_item_processing_fee"]
PaymentMethod = Literal["cash", "credit_card", "check", "online"]

#: Patrons owing more than this (USD) may not check out items or place holds (FOLIO patron block).
FINE_BLOCK = 10.0
#: Days an item waits on the hold shelf for the requester.
HOLD_SHELF_DAYS = 7
#: FOLIO's lost-item processing fee (USD), charged with the replacement cost.
LOST_PROCESSING_FEE = 10.0
#: Service points (pickup locations) and shelving locations.
LOCATIONS = ("Main Library - Stacks", "Main Library - Reference", "Main Library - Media Center",
             "Eastside Branch - Stacks", "Eastside Branch - Children's")
PICKUP_POINTS = ("Main Library Circulation Desk", "Eastside Branch Desk")


class Policy(NamedTuple):
    """A patron group's loan policy: limit, period, renewals and the overdue fine schedule."""

    group: str
    description: str
    loan_limit: int
    policy_name: str
    loan_period_days: int
    renewals_allowed: int
    fine_per_day: float
    max_fine: float


POLICIES: dict[str, Policy] = {p.group: p for p in (
    Policy("student", "Students of Riverside High School", 5, "Student 21-day loan", 21, 2, 0.25, 10.0),
    Policy("staff", "School staff and faculty", 15, "Staff 42-day loan", 42, 2, 0.10, 5.0),
    Policy("community", "Community members with a public library card", 3, "Community 14-day loan", 14, 2, 0.50,
           15.0),
)}


def isbn13_check_digit(stem: str) -> int:
    """The ISBN-13 check digit of a 12-digit ``stem`` (weights 1,3,1,3,...; mod 10).

    Example:
        >>> isbn13_check_digit("978030640615")
        7
    """
    total = sum(int(d) * (3 if i % 2 else 1) for i, d in enumerate(stem))
    return (10 - total % 10) % 10


def normalize_isbn(isbn: str) -> str:
    """``isbn`` as 13 bare digits, after checking prefix and check digit.

    Raises:
        Unprocessable: not 13 digits (hyphens and spaces allowed), not a 978/979
            prefix, or a wrong check digit (the message gives the right one).
    """
    digits = isbn.replace("-", "").replace(" ", "")
    if len(digits) != 13 or not digits.isdigit():
        raise Unprocessable(f"ISBN {isbn!r} is not an ISBN-13 (13 digits, hyphens allowed).")
    if digits[:3] not in ("978", "979"):
        raise Unprocessable(f"ISBN {isbn!r} must start with 978 or 979.")
    want = isbn13_check_digit(digits[:12])
    if int(digits[12]) != want:
        raise Unprocessable(f"ISBN {isbn!r} has check digit {digits[12]}, but {digits[:12]} needs {want}; "
                            "check the number on the title page.")
    return digits


class Patron(Record):
    """A library user (FOLIO ``user``) with a patron group."""

    id: Id("patron") = Field(description="Patron id, e.g. PAT-0001.")
    barcode: str = Field(description="Library card barcode (14 digits starting with 2).")
    first_name: str = Field(description="Given name.")
    last_name: str = Field(description="Family name.")
    email: Email = Field(description="The patron's email (notices go here).")
    phone: Optional[Phone] = Field(default=None, description="Phone number.")
    patron_group: GroupName = Field(description="student, staff or community: sets the loan limit and policy.")
    active: bool = Field(description="Whether the account is active.")
    expiration_date: Date = Field(description="Last day the library card is valid.")
    enrollment_date: Date = Field(description="Day the patron registered.")
    student_id: Optional[Id("student")] = Field(default=None, description="SIS student id (students only).")
    guardian_email: Optional[Email] = Field(default=None, description="Guardian (Koha guarantor) email, for minors.")


class Item(Record):
    """A circulating copy (FOLIO inventory ``item``)."""

    id: Id("library_item") = Field(description="Item id, e.g. ITM-0001.")
    barcode: str = Field(description="Item barcode (14 digits starting with 3).")
    title: str = Field(description="Title of the work.")
    author: str = Field(description="Author or director.")
    isbn: str = Field(description="ISBN-13, 13 digits.")
    call_number: str = Field(description="Shelf call number.")
    location: str = Field(description="Effective shelving location.")
    material_type: MaterialType = Field(description="book, dvd or audiobook.")
    status: ItemStatus = Field(description="available, checked_out, on_hold_shelf or lost.")
    replacement_cost: Money = Field(ge=0, description="Charged as the lost-item fee (USD).")


class Loan(Record):
    """A loan of one item to one patron (FOLIO ``loan``)."""

    id: Id("loan") = Field(description="Loan id, e.g. LN-0001.")
    patron_id: Id("patron") = Field(description="The borrower.")
    item_id: Id("library_item") = Field(description="The item lent.")
    loan_policy: str = Field(description="Name of the loan policy applied.")
    loan_date: Date = Field(description="Day of check-out.")
    due_date: Date = Field(description="Day the item is due back.")
    return_date: Optional[Date] = Field(default=None, description="Day it was checked in or declared lost.")
    status: Literal["open", "closed"] = Field(description="open while the item is out.")
    action: Literal["checked_out", "renewed", "checked_in", "declared_lost"] = Field(description="Last loan action.")
    renewal_count: int = Field(default=0, ge=0, description="Renewals so far.")


class Hold(Record):
    """A hold request in an item's queue (FOLIO ``request`` of type Hold)."""

    id: Id("hold") = Field(description="Hold id, e.g. HLD-0001.")
    item_id: Id("library_item") = Field(description="The item requested.")
    patron_id: Id("patron") = Field(description="The requester.")
    request_date: Date = Field(description="Day the hold was placed.")
    position: Optional[int] = Field(default=None, ge=1, description="Queue position while open (1 = next).")
    status: HoldStatus = Field(description="open_not_yet_filled, open_awaiting_pickup, closed_filled or "
                                           "closed_cancelled.")
    pickup_location: str = Field(description="Service point where the item is picked up.")
    hold_shelf_expiration: Optional[Date] = Field(default=None, description="Last pickup day while awaiting pickup.")
    cancellation_reason: Optional[str] = Field(default=None, description="Why it was cancelled.")


class FeePayment(Record):
    """One payment or waiver action on a fee (FOLIO ``feefineaction``)."""

    amount: Money = Field(ge=0, description="Amount (USD).")
    method: Literal["cash", "credit_card", "check", "online", "waive"] = Field(description="Payment method.")
    transaction_info: str = Field(default="", description="Receipt or reference text.")
    at: DateTime = Field(description="When (logical clock).")


class Fee(Record):
    """A fee/fine account of a patron (FOLIO ``account``; Koha account line)."""

    id: str = Field(description="Fee id, e.g. FEE-0001.")
    patron_id: Id("patron") = Field(description="Who owes it.")
    loan_id: Optional[Id("loan")] = Field(default=None, description="The loan it arose from.")
    item_id: Optional[Id("library_item")] = Field(default=None, description="The item concerned.")
    fee_type: FeeType = Field(description="overdue_fine, lost_item_fee or lost_item_processing_fee.")
    amount: Money = Field(ge=0, description="Amount billed (USD).")
    remaining: Money = Field(ge=0, description="Amount still owed (USD).")
    status: Literal["open", "closed"] = Field(description="open while anything is owed.")
    payment_status: Literal["outstanding", "paid_partially", "paid_fully", "waived"] = Field(
        description="Payment state.")
    accruing: bool = Field(default=False, description="True while the overdue item is still out (the fine grows "
                                                      "nightly up to the policy cap).")
    created_on: Date = Field(description="Day billed.")
    payments: list[FeePayment] = Field(default_factory=list, description="Payments and waivers, oldest first.")


class LibraryState(ServiceState):
    """Patrons, items, loans, hold requests, fees and sent notices."""

    patrons: dict[str, Patron] = Field(default_factory=dict, description="Patrons by id.")
    items: dict[str, Item] = Field(default_factory=dict, description="Items by id.")
    loans: dict[str, Loan] = Field(default_factory=dict, description="Loans by id.")
    holds: dict[str, Hold] = Field(default_factory=dict, description="Hold requests by id.")
    fees: dict[str, Fee] = Field(default_factory=dict, description="Fees/fines by id.")
    outbox: dict[str, OutboxMessage] = Field(default_factory=dict, description="Patron notices sent, by id.")
