"""Records of the treasury service (Wise Platform API style).

Multi-currency balances, quotes, recipient accounts and transfers keep
Wise's resource and field names, snake_cased (``sourceCurrency`` is
``source_currency``, ``targetAccount`` is ``target_account``, ``quoteUuid``
is ``quote_id``, ``customerTransactionId`` is ``customer_transaction_id``).
"""

from __future__ import annotations

from typing import Annotated, Literal, Optional

from pydantic import Field

from compoworld_gym.entities import CompanyName, Country, Currency, DateTime, Email, Id, Money, entity
from compoworld_gym.service import Record, ServiceState

Iban = Annotated[str, entity("iban")]
QuoteStatus = Literal["pending", "accepted"]
TransferStatus = Literal["incoming_payment_waiting", "processing", "outgoing_payment_sent", "cancelled"]
RecipientType = Literal["iban", "aba"]
#: Currencies the business account holds and converts between (ISO 4217).
CURRENCIES = ("USD", "EUR", "GBP", "CAD", "MXN", "JPY", "INR", "AUD", "CHF")
#: Currencies recipients can be paid in (the account's payout routes).
PAYOUT_CURRENCIES = ("USD", "EUR", "GBP")


class Balance(Record):
    """A currency balance of the business profile (Wise ``/v4/profiles/{id}/balances``)."""

    id: str = Field(description="Balance id, e.g. BAL-0001.")
    currency: Currency = Field(description="ISO 4217 currency.")
    amount: Money = Field(ge=0, description="Available amount in the balance's currency.")
    type: Literal["STANDARD"] = Field(default="STANDARD", description="Balance type.")


class FxQuote(Record):
    """A quote (Wise ``/v3/profiles/{id}/quotes``): a guaranteed rate and fee until ``expiration_time``."""

    id: Id("fx_quote") = Field(description="Quote id, e.g. FXQ-0001.")
    source_currency: Currency = Field(description="Currency paid from.")
    target_currency: Currency = Field(description="Currency the recipient gets.")
    source_amount: Money = Field(gt=0, description="Amount taken from the source balance, fee included.")
    target_amount: Money = Field(gt=0, description="Amount delivered in the target currency.")
    rate: float = Field(gt=0, description="Guaranteed rate: target per unit of source.")
    fee: Money = Field(ge=0, description="Wise fee, in the source currency (inside source_amount).")
    rate_type: Literal["FIXED"] = Field(default="FIXED", description="The rate is fixed until expiry.")
    pay_in: Literal["BALANCE"] = Field(default="BALANCE", description="Paid from a balance.")
    created_time: DateTime = Field(description="When quoted (logical clock).")
    expiration_time: DateTime = Field(description="Rate guaranteed until (logical clock).")
    status: QuoteStatus = Field(description="pending, or accepted once a transfer or conversion used it.")


class Recipient(Record):
    """A recipient account (Wise ``/v1/accounts``): a vendor's bank details in one currency."""

    id: Id("recipient") = Field(description="Recipient id, e.g. RCP-0001.")
    account_holder_name: CompanyName = Field(description="Account holder (the vendor's legal name).")
    currency: Currency = Field(description="Currency the account receives.")
    type: RecipientType = Field(description="iban (EUR, GBP) or aba (USD).")
    legal_type: Literal["BUSINESS", "PRIVATE"] = Field(default="BUSINESS", description="Holder type.")
    country: Country = Field(description="Bank country, ISO 3166 alpha-2.")
    iban: Optional[Iban] = Field(default=None, description="IBAN, for type iban.")
    bic: Optional[str] = Field(default=None, description="BIC/SWIFT of the bank, for type iban.")
    abartn: Optional[str] = Field(default=None, description="ABA routing number, for type aba.")
    account_number: Optional[str] = Field(default=None, description="Account number, for type aba.")
    email: Optional[Email] = Field(default=None, description="Remittance email.")
    vendor_id: Optional[Id("vendor")] = Field(default=None, description="The accounts-payable vendor paid.")
    active: bool = Field(default=True, description="Deactivated accounts receive no new transfers.")


class Transfer(Record):
    """A transfer (Wise ``/v1/transfers``) to a recipient, created from a quote and funded from a balance."""

    id: Id("transfer") = Field(description="Transfer id, e.g. TRF-0001.")
    target_account: Id("recipient") = Field(description="The recipient paid.")
    target_account_name: CompanyName = Field(description="The recipient's account holder name.")
    quote_id: Id("fx_quote") = Field(description="The quote the transfer was created from.")
    status: TransferStatus = Field(description="incoming_payment_waiting -> processing -> outgoing_payment_sent, "
                                               "or cancelled.")
    reference: str = Field(description="Payment reference the recipient sees (e.g. the bill and invoice number).")
    customer_transaction_id: str = Field(description="Caller's idempotency key, unique per transfer.")
    source_currency: Currency = Field(description="Currency paid from.")
    source_value: Money = Field(description="Amount taken from the balance, fee included.")
    target_currency: Currency = Field(description="Currency delivered.")
    target_value: Money = Field(description="Amount delivered.")
    rate: float = Field(description="Rate of the quote.")
    fee: Money = Field(description="Fee, source currency.")
    created: DateTime = Field(description="When created.")
    funded_at: Optional[DateTime] = Field(default=None, description="When funded from the balance.")
    sent_at: Optional[DateTime] = Field(default=None, description="When the payout left Wise.")
    cancelled_at: Optional[DateTime] = Field(default=None, description="When cancelled.")
    refunded: bool = Field(default=False, description="A funded transfer cancelled: its source value returned.")


class TreasuryState(ServiceState):
    """Balances, the rate table, quotes, recipients and transfers."""

    balances: dict[str, Balance] = Field(default_factory=dict, description="Balances by currency.")
    rates: dict[str, float] = Field(default_factory=dict, description="Mid-market units of each currency per USD.")
    quotes: dict[str, FxQuote] = Field(default_factory=dict, description="Quotes by id.")
    recipients: dict[str, Recipient] = Field(default_factory=dict, description="Recipients by id.")
    transfers: dict[str, Transfer] = Field(default_factory=dict, description="Transfers by id.")
