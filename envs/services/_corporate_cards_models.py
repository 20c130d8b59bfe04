"""Records of the corporate cards service (Ramp Developer API style).

Ramp's resources and field names, snake_cased: users (``/users``), spend
programs (``/spend-programs``), cards (``/cards``, with their
``spending_restrictions``), card transactions (``/transactions``, with the
``memo`` of ``/memos``) and receipts (``/receipts``).
"""

from __future__ import annotations

from typing import Literal, Optional

from pydantic import Field

from compoworld_gym.entities import CompanyName, Date, DateTime, Email, Id, Money, PersonName
from compoworld_gym.service import Record, ServiceState

CardState = Literal["ACTIVE", "SUSPENDED", "TERMINATED"]
TransactionState = Literal["PENDING", "CLEARED", "DECLINED"]
Interval = Literal["DAILY", "MONTHLY", "QUARTERLY", "YEARLY", "TOTAL"]
UserRole = Literal["BUSINESS_OWNER", "BUSINESS_ADMIN", "BUSINESS_BOOKKEEPER", "BUSINESS_USER"]
Category = Literal["SOFTWARE", "TRAVEL", "MEALS", "LODGING", "OFFICE_SUPPLIES", "SHIPPING", "ADVERTISING",
                   "EVENTS"]
DeclineReason = Literal["INSUFFICIENT_LIMIT", "TRANSACTION_AMOUNT_LIMIT", "BLOCKED_CATEGORY", "CARD_SUSPENDED",
                        "CARD_TERMINATED"]


class User(Record):
    """A Ramp user: an employee of the company (``/users``)."""

    id: Id("user") = Field(description="Ramp user id, e.g. USR-0001.")
    employee_id: Optional[Id("employee")] = Field(default=None, description="The HR employee id, e.g. EMP-0004.")
    first_name: str = Field(description="First name.")
    last_name: str = Field(description="Last name.")
    name: PersonName = Field(description="Full name.")
    email: Email = Field(description="Work email.")
    department_name: str = Field(description="Department.")
    location_name: str = Field(description="Office city.")
    role: UserRole = Field(description="Ramp role.")
    status: Literal["USER_ACTIVE", "USER_SUSPENDED"] = Field(default="USER_ACTIVE", description="Account status.")


class SpendingRestrictions(Record):
    """A card's spend limit (``spending_restrictions``): amount per interval and per transaction."""

    amount: Money = Field(gt=0, description="Most the card may spend in one interval (USD).")
    interval: Interval = Field(description="DAILY, MONTHLY, QUARTERLY, YEARLY or TOTAL (lifetime).")
    transaction_amount_limit: Optional[Money] = Field(default=None, description="Most one transaction may be.")
    blocked_categories: list[Category] = Field(default_factory=list, description="Merchant categories refused.")


class SpendProgram(Record):
    """A spend program (``/spend-programs``): the template cards are issued from."""

    id: str = Field(description="Spend program id, e.g. SPR-0001.")
    display_name: str = Field(description="Program name, e.g. 'Software subscriptions'.")
    description: str = Field(description="What the program pays for.")
    restrictions: SpendingRestrictions = Field(description="The default spend limit of its cards.")


class Card(Record):
    """A corporate card (``/cards``) issued to one user."""

    id: Id("card") = Field(description="Card id, e.g. CARD-0001.")
    display_name: str = Field(description="Card name, e.g. 'Travel - Grace Okafor'.")
    last_four: str = Field(pattern=r"^\d{4}$", description="Last four digits of the card number.")
    cardholder_id: Id("user") = Field(description="The user the card is issued to.")
    cardholder_name: PersonName = Field(description="The cardholder's full name.")
    cardholder_email: Email = Field(description="The cardholder's work email.")
    spend_program_id: Optional[str] = Field(default=None, description="The spend program it was issued from.")
    is_physical: bool = Field(description="Physical (true) or virtual card.")
    state: CardState = Field(description="ACTIVE, SUSPENDED (locked) or TERMINATED (closed for good).")
    spending_restrictions: SpendingRestrictions = Field(description="The card's spend limit.")
    expiration: str = Field(pattern=r"^\d{2}/\d{2}$", description="Expiry MM/YY.")
    created_at: DateTime = Field(description="When issued.")
    suspended_at: Optional[DateTime] = Field(default=None, description="When last locked.")
    terminated_at: Optional[DateTime] = Field(default=None, description="When terminated.")


class CardTransaction(Record):
    """A card transaction (``/transactions``): an authorization, settled or declined."""

    id: Id("card_transaction") = Field(description="Transaction id, e.g. CTX-0001.")
    card_id: Id("card") = Field(description="The card charged.")
    cardholder_id: Id("user") = Field(description="The cardholder's user id.")
    cardholder_name: PersonName = Field(description="The cardholder's name.")
    cardholder_email: Email = Field(description="The cardholder's work email.")
    merchant_name: CompanyName = Field(description="The merchant as it appears on the statement.")
    merchant_category: Category = Field(description="Merchant category.")
    amount: Money = Field(gt=0, description="Amount in USD.")
    currency_code: Literal["USD"] = Field(default="USD", description="Currency.")
    state: TransactionState = Field(description="PENDING (authorized), CLEARED (settled) or DECLINED.")
    decline_reason: Optional[DeclineReason] = Field(default=None, description="Why a DECLINED one was refused.")
    user_transaction_time: DateTime = Field(description="When the card was used.")
    settlement_date: Optional[Date] = Field(default=None, description="When it cleared.")
    memo: Optional[str] = Field(default=None, description="The cardholder's or reviewer's memo.")
    receipts: list[str] = Field(default_factory=list, description="Ids of the receipts attached.")
    flagged: bool = Field(default=False, description="Flagged for finance review.")
    flag_reason: Optional[str] = Field(default=None, description="Why it was flagged.")


class Receipt(Record):
    """A receipt image attached to a transaction (``/receipts``)."""

    id: str = Field(description="Receipt id, e.g. RCT-0001.")
    transaction_id: Id("card_transaction") = Field(description="The transaction it documents.")
    user_id: Id("user") = Field(description="Who uploaded it.")
    filename: str = Field(description="File name, e.g. 'aws-jan.pdf'.")
    created_at: DateTime = Field(description="When uploaded.")


class CorporateCardsState(ServiceState):
    """Users, spend programs, cards, transactions and receipts."""

    users: dict[str, User] = Field(default_factory=dict, description="Users by id.")
    spend_programs: dict[str, SpendProgram] = Field(default_factory=dict, description="Spend programs by id.")
    cards: dict[str, Card] = Field(default_factory=dict, description="Cards by id.")
    transactions: dict[str, CardTransaction] = Field(default_factory=dict, description="Transactions by id.")
    receipts: dict[str, Receipt] = Field(default_factory=dict, description="Receipts by id.")
