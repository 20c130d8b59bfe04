"""Records, state and pure rules of the bank_feeds service (Plaid Transactions API + a reconciliation ledger).

Field names are Plaid's (``account_id``, ``mask``, ``type`` / ``subtype``,
``balances.available / current / limit``, ``transaction_id``, ``amount``,
``iso_currency_code``, ``date``, ``authorized_date``, ``name``,
``merchant_name``, ``payment_channel``, ``pending``,
``personal_finance_category.primary / detailed``). Plaid's sign convention
holds: a positive ``amount`` is money out of the account, a negative one
money in. Balances are never stored: they are computed from the account's
opening balance and its transactions (:func:`balances`).
"""

from __future__ import annotations

from typing import Literal, Optional

from pydantic import Field

from compoworld_gym.entities import CompanyName, Date, Email, Id, Money
from compoworld_gym.envs.services._commerce import money
from compoworld_gym.service import Record, ServiceState

AccountSubtype = Literal["checking", "savings", "credit card"]
RecordType = Literal["bill", "invoice", "expense"]
PaymentChannel = Literal["online", "in store", "other"]

#: Plaid personal finance categories used here: detailed -> primary.
CATEGORIES: dict[str, str] = {
    "GENERAL_SERVICES_OTHER_GENERAL_SERVICES": "GENERAL_SERVICES",
    "GENERAL_SERVICES_ACCOUNTING_AND_FINANCIAL_PLANNING": "GENERAL_SERVICES",
    "GENERAL_MERCHANDISE_OFFICE_SUPPLIES": "GENERAL_MERCHANDISE",
    "RENT_AND_UTILITIES_RENT": "RENT_AND_UTILITIES",
    "TRANSFER_OUT_ACCOUNT_TRANSFER": "TRANSFER_OUT",
    "TRANSFER_IN_ACCOUNT_TRANSFER": "TRANSFER_IN",
    "TRANSFER_IN_DEPOSIT": "TRANSFER_IN",
    "INCOME_INTEREST_EARNED": "INCOME",
    "INCOME_WAGES": "INCOME",
    "LOAN_PAYMENTS_CREDIT_CARD_PAYMENT": "LOAN_PAYMENTS",
    "TRAVEL_FLIGHTS": "TRAVEL",
    "FOOD_AND_DRINK_RESTAURANT": "FOOD_AND_DRINK",
    "BANK_FEES_OTHER_BANK_FEES": "BANK_FEES",
}
DetailedCategory = Literal[
    "GENERAL_SERVICES_OTHER_GENERAL_SERVICES", "GENERAL_SERVICES_ACCOUNTING_AND_FINANCIAL_PLANNING",
    "GENERAL_MERCHANDISE_OFFICE_SUPPLIES", "RENT_AND_UTILITIES_RENT", "TRANSFER_OUT_ACCOUNT_TRANSFER",
    "TRANSFER_IN_ACCOUNT_TRANSFER", "TRANSFER_IN_DEPOSIT", "INCOME_INTEREST_EARNED", "INCOME_WAGES",
    "LOAN_PAYMENTS_CREDIT_CARD_PAYMENT", "TRAVEL_FLIGHTS", "FOOD_AND_DRINK_RESTAURANT", "BANK_FEES_OTHER_BANK_FEES"]
#: Which way the money of a matched record goes: bills and expense payouts leave, invoices are paid in.
MONEY_OUT: dict[str, bool] = {"bill": True, "expense": True, "invoice": False}
#: Id prefix of each kind of matched record (the accounts payable, invoicing and expenses ids).
RECORD_PREFIX: dict[str, str] = {"bill": "BIL-", "invoice": "INV-", "expense": "EXP-"}


class BankAccount(Record):
    """A linked bank account (Plaid ``account``)."""

    account_id: Id("bank_account") = Field(description="Account id, e.g. BA-0001.")
    name: str = Field(description="Account name, e.g. 'Business Checking'.")
    official_name: str = Field(description="The bank's name for the product.")
    institution: str = Field(description="The bank.")
    mask: str = Field(pattern=r"^\d{4}$", description="Last four digits of the account number.")
    type: Literal["depository", "credit"] = Field(description="depository (checking, savings) or credit.")
    subtype: AccountSubtype = Field(description="checking, savings or credit card.")
    opening_balance: Money = Field(description="Balance before the first transaction of the feed (USD; owed, "
                                                "for a card).")
    opening_date: Date = Field(description="Day of the opening balance.")
    limit: Optional[Money] = Field(default=None, ge=0, description="Credit limit of a card (USD).")
    iso_currency_code: str = Field(default="USD", description="ISO 4217 currency.")


class Category(Record):
    """Plaid ``personal_finance_category``."""

    primary: str = Field(description="Primary category, e.g. GENERAL_SERVICES.")
    detailed: DetailedCategory = Field(description="Detailed category, e.g. RENT_AND_UTILITIES_RENT.")


class Match(Record):
    """The reconciliation of a transaction to a record of the books."""

    record_type: RecordType = Field(description="bill (accounts payable), invoice (invoicing) or expense.")
    record_id: str = Field(description="The record's id, e.g. BIL-0004, INV-0012, EXP-0007.")
    amount: Money = Field(gt=0, description="The matched record's amount (USD), equal to the transaction's.")
    reconciled_on: Date = Field(description="Date reconciled.")
    reconciled_by: Email = Field(description="Who reconciled it.")
    note: str = Field(default="", description="Reconciliation note.")


class BankTransaction(Record):
    """One transaction of the feed (Plaid ``transaction``) with its ledger state."""

    transaction_id: Id("bank_transaction") = Field(description="Transaction id, e.g. BTX-0001.")
    account_id: Id("bank_account") = Field(description="The account.")
    amount: Money = Field(description="Plaid sign: positive = money out of the account, negative = money in (USD).")
    iso_currency_code: str = Field(default="USD", description="ISO 4217 currency.")
    date: Date = Field(description="Posting date (for a pending transaction, the day it was seen).")
    authorized_date: Optional[Date] = Field(default=None, description="Day the transaction was authorised.")
    name: str = Field(description="The bank's description of the transaction.")
    merchant_name: Optional[CompanyName] = Field(default=None, description="The counterparty, when known.")
    payment_channel: PaymentChannel = Field(description="online, in store or other.")
    pending: bool = Field(description="True until the transaction posts.")
    personal_finance_category: Category = Field(description="Plaid category.")
    category_source: Literal["plaid", "user"] = Field(default="plaid", description="Who set the category.")
    match: Optional[Match] = Field(default=None, description="Its reconciliation, once reconciled.")
    flagged: bool = Field(default=False, description="Flagged for review.")
    flag_reason: Optional[str] = Field(default=None, description="Why it is flagged.")


class BankFeedsState(ServiceState):
    """Linked accounts and their transactions (in the order the feed delivered them)."""

    accounts: dict[str, BankAccount] = Field(default_factory=dict, description="Accounts by id.")
    transactions: dict[str, BankTransaction] = Field(default_factory=dict, description="Transactions by id, in "
                                                                                       "feed order.")


def category(detailed: str) -> Category:
    """The :class:`Category` of a detailed category."""
    return Category(primary=CATEGORIES[detailed], detailed=detailed)


def balances(account: BankAccount, txns: list[BankTransaction]) -> dict:
    """Plaid ``balances`` of ``account`` from its transactions (USD).

    Depository: ``current`` is the opening balance less posted amounts (money
    out is positive), ``available`` also less pending debits. Credit card:
    ``current`` is what is owed (opening plus posted amounts), ``available``
    the limit less what is owed and pending charges.
    """
    mine = [t for t in txns if t.account_id == account.account_id]
    posted = sum(t.amount for t in mine if not t.pending)
    held = sum(t.amount for t in mine if t.pending and t.amount > 0)
    if account.type == "credit":
        current = money(account.opening_balance + posted)
        available = money((account.limit or 0.0) - current - held)
    else:
        current = money(account.opening_balance - posted)
        available = money(current - held)
    return {"available": available, "current": current, "limit": account.limit,
            "iso_currency_code": account.iso_currency_code}


__all__ = ["BankAccount", "BankFeedsState", "BankTransaction", "CATEGORIES", "Category", "DetailedCategory",
           "MONEY_OUT", "Match", "PaymentChannel", "RECORD_PREFIX", "RecordType", "balances", "category"]
