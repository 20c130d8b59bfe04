"""Corporate cards: staff cards, their spend limits, card transactions, memos and receipts.

No corporate-card server is in ``compoworld_gym/data/mcp_servers.jsonl`` (``spec_source = None``); the
interface follows the Ramp Developer API: ``/users`` (``first_name``, ``last_name``, ``email``, ``role``,
``department``, ``employee_id``), ``/spend-programs`` (the template a card is issued from), ``/cards``
(``display_name``, ``last_four``, ``cardholder_id``, ``is_physical``, ``state`` ACTIVE / SUSPENDED /
TERMINATED, ``spending_restrictions`` with ``amount``, ``interval``, ``transaction_amount_limit``,
``blocked_categories``; ``POST /cards/deferred/virtual``, ``PATCH /cards/{id}`` and the
``/deferred/suspension``, ``/unsuspension`` and ``/termination`` actions), ``/limits`` (a card's limit with
what is spent, cleared and pending in the interval, and what remains), ``/transactions`` (``card_id``,
``merchant_name``, ``amount``, ``state`` PENDING / CLEARED / DECLINED, ``user_transaction_time``, ``memo``,
``receipts``; filters ``from_date``, ``to_date``, ``min_amount``, ``max_amount``, ``has_no_receipts``),
``/memos`` (a transaction's memo) and ``/receipts`` (an image attached to a transaction). Cardholders are
the company's staff (the shared workforce roster), so a cardholder's email reaches HR, expenses and Slack.

Rules of the real product: a card spends against its limit over the interval (PENDING and CLEARED count,
DECLINED does not); an authorization over what remains, over the per-transaction limit, in a blocked
category or on a locked (SUSPENDED) or TERMINATED card is declined and recorded as DECLINED; a terminated
card is closed for good (no unlock, no limit change); a per-transaction limit is at most the limit; a
declined transaction takes no memo or receipt and cannot be flagged (it moved no money); a receipt is a
PDF or image, one file name per transaction; a flag is raised once. Authorizations come from the sandbox
(``simulate_authorization``); the review flag is Ramp's in-app flag. Left out: departments, locations,
entities, reimbursements, bills, accounting sync, disputes and physical-card shipping.
"""

from __future__ import annotations

import datetime as dt
import random
from typing import Optional

from faker import Faker
from pydantic import Field

from compoworld_gym.entities import CompanyName, Date, Email, Id, Money
from compoworld_gym.envs.services._blocks import eq, ieq, select, text
from compoworld_gym.envs.services._commerce import MONEY_MAX, money
from compoworld_gym.envs.services._corporate_cards_models import (
    Card, CardState, CardTransaction, Category, CorporateCardsState, Interval, Receipt, SpendProgram,
    TransactionState, User, UserRole,
)
from compoworld_gym.envs.services._corporate_cards_rules import (
    check_receipt_name, decline_reason, limit_view, spent, window,
)
from compoworld_gym.envs.services._corporate_cards_seed import build_cards, issue_card
from compoworld_gym.envs.services._workforce import roster
from compoworld_gym.errors import Conflict, InvalidArgument, Unprocessable
from compoworld_gym.service import Service, tool

Limit = Field(default=50, ge=1, le=200)


class CorporateCards(Service):
    """Ramp-style corporate cards: users, cards and limits, transactions, memos and receipts."""

    name = "corporate_cards"
    description = ("Corporate cards (Ramp): staff cards with spend limits, card transactions with memos and "
                   "receipts, and locking, unlocking or terminating a card.")
    domain = "finance"
    spec_source = None
    State = CorporateCardsState

    # ---------------------------------------------------------------- helpers
    def _card(self, card_id: str) -> Card:
        return self.lookup(self.state.cards, card_id, "card")

    def _txn(self, transaction_id: str) -> CardTransaction:
        return self.lookup(self.state.transactions, transaction_id, "card transaction")

    def _card_view(self, c: Card) -> dict:
        return {**c.model_dump(), "limit": limit_view(c, self.state.transactions.values(), self.today)}

    def _settled(self, t: CardTransaction, what: str) -> None:
        if t.state == "DECLINED":
            raise Unprocessable(f"transaction {t.id} was declined ({t.decline_reason}); it moved no money and "
                                f"takes no {what}.")

    # ------------------------------------------------------------------ reads
    @tool(read_only=True, returns=list[User])
    def list_users(self, email: Optional[Email] = None, department_name: Optional[str] = None,
                   role: Optional[UserRole] = None, limit: int = Limit) -> list[dict]:
        """List Ramp users (the company's staff) by work email, department or role.

        Args:
            email: the user's work email (case-insensitive).
            department_name: the department, e.g. Finance (case-insensitive).
            role: BUSINESS_OWNER, BUSINESS_ADMIN, BUSINESS_BOOKKEEPER or BUSINESS_USER.
            limit: maximum number of users (1-200).
        """
        return [u.model_dump() for u in select(self.state.users.values(), ieq("email", email),
                                                ieq("department_name", department_name), eq("role", role),
                                                limit=limit)]

    @tool(read_only=True, returns=User)
    def get_user(self, user_id: Id("user")) -> dict:
        """Get one user.

        Args:
            user_id: the user id, e.g. USR-0003.
        """
        return self.lookup(self.state.users, user_id, "user").model_dump()

    @tool(read_only=True, returns=list[SpendProgram])
    def list_spend_programs(self) -> list[dict]:
        """The spend programs cards are issued from, with their default limits."""
        return [p.model_dump() for p in self.state.spend_programs.values()]

    @tool(read_only=True, returns=list[Card])
    def list_cards(self, cardholder_email: Optional[Email] = None, user_id: Optional[Id("user")] = None,
                   state: Optional[CardState] = None, spend_program_id: Optional[str] = None,
                   limit: int = Limit) -> list[dict]:
        """List cards by cardholder (email or user id), state or spend program.

        Args:
            cardholder_email: the cardholder's work email (case-insensitive).
            user_id: the cardholder's user id.
            state: ACTIVE, SUSPENDED or TERMINATED.
            spend_program_id: the spend program, e.g. SPR-0002.
            limit: maximum number of cards (1-200).
        """
        rows = select(self.state.cards.values(), ieq("cardholder_email", cardholder_email),
                      eq("cardholder_id", user_id), eq("state", state), eq("spend_program_id", spend_program_id),
                      limit=limit)
        return [self._card_view(c) for c in rows]

    @tool(read_only=True, returns=Card)
    def get_card(self, card_id: Id("card")) -> dict:
        """Get one card with its limit: spent, pending and remaining in the current interval.

        Args:
            card_id: the card id, e.g. CARD-0002.
        """
        return self._card_view(self._card(card_id))

    @tool(read_only=True)
    def get_card_limit(self, card_id: Id("card")) -> dict:
        """A card's spend limit (Ramp /limits): amount, interval, what is spent, cleared and pending, what remains.

        Args:
            card_id: the card id.
        """
        return limit_view(self._card(card_id), self.state.transactions.values(), self.today)

    @tool(read_only=True, returns=list[CardTransaction])
    def list_transactions(self, card_id: Optional[Id("card")] = None, cardholder_email: Optional[Email] = None,
                          state: Optional[TransactionState] = None,
                          merchant_name: Optional[CompanyName] = None, memo: Optional[str] = None,
                          from_date: Optional[Date] = None, to_date: Optional[Date] = None,
                          min_amount: Optional[Money] = Field(default=None, ge=0, le=MONEY_MAX),
                          max_amount: Optional[Money] = Field(default=None, ge=0, le=MONEY_MAX),
                          has_no_receipts: Optional[bool] = None, flagged: Optional[bool] = None,
                          limit: int = Limit) -> list[dict]:
        """List card transactions, newest first, by card, cardholder, state, merchant, memo, dates and amounts.

        Args:
            card_id: the card charged.
            cardholder_email: the cardholder's work email (case-insensitive).
            state: PENDING, CLEARED or DECLINED.
            merchant_name: the merchant (case-insensitive), e.g. Delta Air Lines.
            memo: text the memo contains (case-insensitive), e.g. an expense report id.
            from_date: first day (inclusive) of the transaction time.
            to_date: last day (inclusive) of the transaction time.
            min_amount: smallest amount (USD).
            max_amount: largest amount (USD).
            has_no_receipts: true for transactions without any receipt.
            flagged: only flagged (true) or unflagged (false) transactions.
            limit: maximum number of transactions (1-200).
        """
        if from_date and to_date and from_date > to_date:
            raise InvalidArgument("from_date is after to_date.")
        keep = window(from_date, to_date, min_amount, max_amount, has_no_receipts)
        rows = sorted(self.state.transactions.values(), key=lambda t: (t.user_transaction_time, t.id), reverse=True)
        return [t.model_dump() for t in select(rows, eq("card_id", card_id), ieq("cardholder_email", cardholder_email),
                                               eq("state", state), ieq("merchant_name", merchant_name),
                                               text(memo, "memo"), eq("flagged", flagged), keep, limit=limit)]

    @tool(read_only=True, returns=CardTransaction)
    def get_transaction(self, transaction_id: Id("card_transaction")) -> dict:
        """Get one card transaction with its memo, receipts and flag.

        Args:
            transaction_id: the transaction id, e.g. CTX-0006.
        """
        return self._txn(transaction_id).model_dump()

    @tool(read_only=True)
    def list_memos(self, card_id: Optional[Id("card")] = None, limit: int = Limit) -> list[dict]:
        """Memos of card transactions (Ramp /memos), newest first, optionally of one card.

        Args:
            card_id: only memos of this card's transactions.
            limit: maximum number of memos (1-200).
        """
        rows = sorted((t for t in self.state.transactions.values() if t.memo and (card_id is None or t.card_id == card_id)),
                      key=lambda t: (t.user_transaction_time, t.id), reverse=True)[:limit]
        return [{"transaction_id": t.id, "card_id": t.card_id, "memo": t.memo} for t in rows]

    @tool(read_only=True, returns=list[Receipt])
    def list_receipts(self, transaction_id: Optional[Id("card_transaction")] = None,
                      user_id: Optional[Id("user")] = None, limit: int = Limit) -> list[dict]:
        """List receipts, by transaction or uploader.

        Args:
            transaction_id: the transaction the receipt documents.
            user_id: the user who uploaded it.
            limit: maximum number of receipts (1-200).
        """
        return [r.model_dump() for r in select(self.state.receipts.values(), eq("transaction_id", transaction_id),
                                                eq("user_id", user_id), limit=limit)]

    # ----------------------------------------------------------------- writes
    @tool(read_only=False, returns=Card)
    def create_card(self, user_id: Id("user"), spend_program_id: str, display_name: Optional[str] = Field(
                        default=None, min_length=2, max_length=80),
                    amount: Optional[Money] = Field(default=None, gt=0, le=MONEY_MAX),
                    interval: Optional[Interval] = None) -> dict:
        """Issue a virtual card to a user from a spend program (its limit unless amount/interval are given).

        Args:
            user_id: the active user who gets the card.
            spend_program_id: the spend program, e.g. SPR-0001.
            display_name: the card's name (default: program - cardholder).
            amount: the limit per interval (USD), instead of the program's.
            interval: DAILY, MONTHLY, QUARTERLY, YEARLY or TOTAL, instead of the program's.
        """
        user = self.lookup(self.state.users, user_id, "user")
        sp = self.lookup(self.state.spend_programs, spend_program_id, "spend program")
        if user.status != "USER_ACTIVE":
            raise Conflict(f"user {user.id} is suspended; cards are issued to active users only.")
        c = issue_card(self.new_id("CARD"), user, sp, display_name, amount and money(amount), interval,
                       len(self.state.cards) + 1, self.today, self.now())
        self.state.cards[c.id] = c
        return self._card_view(c)

    @tool(read_only=False, returns=Card)
    def update_card(self, card_id: Id("card"), display_name: Optional[str] = Field(default=None, min_length=2,
                                                                                     max_length=80),
                    amount: Optional[Money] = Field(default=None, gt=0, le=MONEY_MAX),
                    interval: Optional[Interval] = None,
                    transaction_amount_limit: Optional[Money] = Field(default=None, gt=0, le=MONEY_MAX)) -> dict:
        """Change a card's name or spend limit (amount per interval, per-transaction limit).

        A limit below what the card has already spent this interval leaves nothing to spend.

        Args:
            card_id: a card that is not terminated.
            display_name: the new name.
            amount: the new limit per interval (USD).
            interval: the new interval.
            transaction_amount_limit: the new per-transaction limit (at most the limit).
        """
        c = self._card(card_id)
        if display_name is None and amount is None and interval is None and transaction_amount_limit is None:
            raise InvalidArgument("give at least one of display_name, amount, interval or transaction_amount_limit.")
        if c.state == "TERMINATED":
            raise Conflict(f"card {c.id} is terminated; a terminated card cannot be changed.")
        r = c.spending_restrictions
        new_amount = r.amount if amount is None else money(amount)
        per = r.transaction_amount_limit if transaction_amount_limit is None else money(transaction_amount_limit)
        if per is not None and per > new_amount:
            if transaction_amount_limit is not None:
                raise Unprocessable(f"the per-transaction limit {per:,.2f} is over the card's limit {new_amount:,.2f}.")
            per = new_amount
        c.display_name = display_name or c.display_name
        r.amount, r.interval, r.transaction_amount_limit = new_amount, interval or r.interval, per
        return self._card_view(c)

    @tool(read_only=False, returns=Card)
    def lock_card(self, card_id: Id("card")) -> dict:
        """Lock (suspend) an active card: every authorization is declined until it is unlocked.

        Args:
            card_id: an ACTIVE card.
        """
        c = self._card(card_id)
        if c.state != "ACTIVE":
            raise Conflict(f"card {c.id} is {c.state}; only an ACTIVE card can be locked.")
        c.state, c.suspended_at = "SUSPENDED", self.now()
        return self._card_view(c)

    @tool(read_only=False, returns=Card)
    def unlock_card(self, card_id: Id("card")) -> dict:
        """Unlock a locked (SUSPENDED) card; a terminated card can never be unlocked.

        Args:
            card_id: a SUSPENDED card.
        """
        c = self._card(card_id)
        if c.state == "TERMINATED":
            raise Conflict(f"card {c.id} is terminated for good; issue a new card instead.")
        if c.state != "SUSPENDED":
            raise Conflict(f"card {c.id} is ACTIVE; only a locked card can be unlocked.")
        c.state = "ACTIVE"
        return self._card_view(c)

    @tool(read_only=False, destructive=True, returns=Card)
    def terminate_card(self, card_id: Id("card")) -> dict:
        """Terminate a card for good (it cannot be unlocked or used again).

        Args:
            card_id: an ACTIVE or SUSPENDED card.
        """
        c = self._card(card_id)
        if c.state == "TERMINATED":
            raise Conflict(f"card {c.id} is already terminated.")
        c.state, c.terminated_at = "TERMINATED", self.now()
        return self._card_view(c)

    @tool(read_only=False, returns=CardTransaction)
    def simulate_authorization(self, card_id: Id("card"), merchant_name: CompanyName = Field(min_length=2,
                                                                                               max_length=80),
                               amount: Money = Field(gt=0, le=MONEY_MAX),
                               merchant_category: Category = "OFFICE_SUPPLIES") -> dict:
        """Sandbox: authorize a charge on a card; it is PENDING, or DECLINED with the reason (limit, lock).

        Args:
            card_id: the card charged.
            merchant_name: the merchant, e.g. Staples.
            amount: the amount (USD).
            merchant_category: the merchant's category.
        """
        c = self._card(card_id)
        amt = money(amount)
        reason = decline_reason(c, amt, merchant_category, spent(c, self.state.transactions.values(), self.today))
        t = CardTransaction(id=self.new_id("CTX"), card_id=c.id, cardholder_id=c.cardholder_id,
                            cardholder_name=c.cardholder_name, cardholder_email=c.cardholder_email,
                            merchant_name=merchant_name, merchant_category=merchant_category, amount=amt,
                            state="DECLINED" if reason else "PENDING", decline_reason=reason,
                            user_transaction_time=self.now())
        self.state.transactions[t.id] = t
        return {**t.model_dump(), "remaining": limit_view(c, self.state.transactions.values(), self.today)["remaining"]}

    @tool(read_only=False, returns=CardTransaction)
    def update_memo(self, transaction_id: Id("card_transaction"), memo: str = Field(min_length=1,
                                                                                      max_length=500)) -> dict:
        """Set a transaction's memo (Ramp /memos), replacing any earlier memo.

        Args:
            transaction_id: a PENDING or CLEARED transaction.
            memo: the memo text, e.g. the business purpose and any case reference.
        """
        t = self._txn(transaction_id)
        self._settled(t, "memo")
        t.memo = memo.strip()
        return t.model_dump()

    @tool(read_only=False, returns=Receipt)
    def upload_receipt(self, transaction_id: Id("card_transaction"), filename: str = Field(min_length=5,
                                                                                            max_length=130),
                       user_id: Optional[Id("user")] = None) -> dict:
        """Attach a receipt (PDF or image) to a transaction.

        Args:
            transaction_id: a PENDING or CLEARED transaction.
            filename: the file name, e.g. 'delta-0114.pdf'.
            user_id: who uploads it (default: the cardholder).
        """
        t = self._txn(transaction_id)
        uploader = self.lookup(self.state.users, user_id, "user").id if user_id else t.cardholder_id
        name = check_receipt_name(filename)
        self._settled(t, "receipt")
        if any(self.state.receipts[r].filename.lower() == name.lower() for r in t.receipts):
            raise Conflict(f"transaction {t.id} already has receipt {name!r}.")
        rc = Receipt(id=self.new_id("RCT"), transaction_id=t.id, user_id=uploader, filename=name,
                     created_at=self.now())
        self.state.receipts[rc.id] = rc
        t.receipts.append(rc.id)
        return rc.model_dump()

    @tool(read_only=False, returns=CardTransaction)
    def flag_transaction(self, transaction_id: Id("card_transaction"),
                         reason: str = Field(min_length=3, max_length=500)) -> dict:
        """Flag a transaction for finance review, with the reason.

        Args:
            transaction_id: a PENDING or CLEARED transaction not yet flagged.
            reason: why it needs review.
        """
        t = self._txn(transaction_id)
        self._settled(t, "flag")
        if t.flagged:
            raise Conflict(f"transaction {t.id} is already flagged: {t.flag_reason}")
        t.flagged, t.flag_reason = True, reason.strip()
        return t.model_dump()

    # ------------------------------------------------------------------ seeds
    @classmethod
    def seed_state(cls, seed: int, today: dt.date) -> CorporateCardsState:
        """Seeded state on the shared workforce roster for the same seed (same people as HR)."""
        return build_cards(roster(seed, today), random.Random(f"{cls.name}:{seed}"), today)

    @classmethod
    def build_seed_state(cls, fake: Faker, rng: random.Random, today: dt.date) -> CorporateCardsState:
        return build_cards(roster(rng.randrange(2**31), today), rng, today)


__all__ = ["CorporateCards"]
