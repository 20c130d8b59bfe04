"""Treasury: multi-currency balances, FX quotes, vendor recipient accounts and payout transfers.

No treasury / cross-border payout server is in
``compoworld_gym/data/mcp_servers.jsonl`` (``spec_source = None``); the
interface follows the Wise Platform API: ``/v4/profiles/{id}/balances``
(``currency``, ``amount``), ``/v1/rates`` (mid-market rate), ``/v3/profiles/
{id}/quotes`` (``sourceCurrency``, ``targetCurrency``, ``sourceAmount`` or
``targetAmount``, ``rate``, ``fee``, ``expirationTime``), ``/v1/accounts``
recipients (``accountHolderName``, ``currency``, ``type`` iban/aba,
``details.iban``/``abartn``/``accountNumber``), ``/v1/transfers``
(``targetAccount``, ``quoteUuid``, ``customerTransactionId``,
``details.reference``; status ``incoming_payment_waiting`` -> ``processing``
-> ``outgoing_payment_sent``, or ``cancelled``), funding by
``/transfers/{id}/payments`` of type BALANCE, balance conversions from a
quote, and the sandbox's transfer-status simulation. Recipients are
accounts payable's vendors; a transfer's reference names the bill it pays,
so a vendor's bill in EUR is paid here from the USD balance.

Rules of the real product: rates come from the day's (seeded) rate table,
a quote's rate is guaranteed for 24 hours and an expired quote can neither
start nor fund a transfer; a quote is used once; the recipient's currency
must be the quote's target currency; an IBAN must pass its country's length
and the mod-97 check (EUR to euro-area banks, GBP to GB), an ABA routing
number its checksum; funding needs the source balance to cover the quote's
source amount; a transfer is cancelled only until its payout is sent (a
funded one is refunded to the balance); customerTransactionId is unique.
Left out: profiles, webhooks, batch groups and card/bank-transfer pay-ins.
"""

from __future__ import annotations

import datetime as dt
import random
from typing import Optional

from faker import Faker
from pydantic import Field

from compoworld_gym.entities import CompanyName, Currency, Email, Id, Money
from compoworld_gym.envs.services._blocks import eq, ieq, select
from compoworld_gym.envs.services._commerce import MONEY_MAX, money
from compoworld_gym.envs.services._treasury_models import (
    CURRENCIES, PAYOUT_CURRENCIES, Balance, FxQuote, Recipient, RecipientType, Transfer, TransferStatus,
    TreasuryState,
)
from compoworld_gym.envs.services._treasury_rules import check_aba, check_iban, pair_rate, price
from compoworld_gym.envs.services._treasury_seed import (
    QUOTE_VALID_HOURS, build_state, make_quote, seed_for, transfer_from,
)
from compoworld_gym.envs.services.accounts_payable import AccountsPayable
from compoworld_gym.errors import Conflict, InvalidArgument, NotFound, Unprocessable
from compoworld_gym.service import DAY_START, Service, tool

#: An ISO 4217 currency code argument (case-insensitive).
CurrencyCode = Currency


class Treasury(Service):
    """Wise-style treasury: balances, quotes, recipients and transfers."""

    name = "treasury"
    description = ("Treasury (Wise business account): currency balances, FX quotes with guaranteed rates, vendor "
                   "recipient bank accounts and transfers funded from a balance.")
    domain = "finance"
    spec_source = None
    State = TreasuryState

    # ---------------------------------------------------------------- helpers
    def _clock(self) -> dt.datetime:
        """The logical time now, without advancing it."""
        return dt.datetime.combine(self.today, DAY_START) + dt.timedelta(minutes=self.state.clock)

    def _currency(self, code: str, what: str) -> str:
        c = code.strip().upper()
        if c not in CURRENCIES:
            raise NotFound(f"{what} {code!r} is not a currency of this account; use one of {', '.join(CURRENCIES)}.")
        return c

    def _quote(self, quote_id: str) -> FxQuote:
        return self.lookup(self.state.quotes, quote_id, "quote")

    def _transfer(self, transfer_id: str) -> Transfer:
        return self.lookup(self.state.transfers, transfer_id, "transfer")

    def _expired(self, q: FxQuote) -> bool:
        return q.expiration_time <= self._clock()

    def _view_quote(self, q: FxQuote) -> dict:
        return {**q.model_dump(), "expired": self._expired(q)}

    def _live_quote(self, q: FxQuote, action: str) -> None:
        if q.status != "pending":
            raise Conflict(f"quote {q.id} was already used; create a new quote for {action}.")
        if self._expired(q):
            raise Unprocessable(f"quote {q.id} expired at {q.expiration_time.isoformat()}; create a new quote.")

    def _debit(self, currency: str, amount: float, what: str) -> Balance:
        bal = self.state.balances.get(currency)
        have = bal.amount if bal else 0.0
        if have < amount:
            raise Unprocessable(f"the {currency} balance holds {have:,.2f}; {what} needs {amount:,.2f} {currency}. "
                                "Convert funds into it first (create_quote + convert_balance).")
        bal.amount = money(bal.amount - amount)
        return bal

    def _credit(self, currency: str, amount: float) -> Balance:
        bal = self.state.balances.get(currency)
        if bal is None:
            bal = Balance(id=self.new_id("BAL"), currency=currency, amount=0.0)
            self.state.balances[currency] = bal
        bal.amount = money(bal.amount + amount)
        return bal

    # ------------------------------------------------------------------ reads
    @tool(read_only=True)
    def get_exchange_rate(self, source: CurrencyCode, target: CurrencyCode) -> dict:
        """Today's mid-market rate from one currency to another (target units per source unit).

        Args:
            source: ISO 4217 code, e.g. USD.
            target: ISO 4217 code, e.g. EUR.
        """
        s, t = self._currency(source, "source"), self._currency(target, "target")
        return {"source": s, "target": t, "rate": pair_rate(self.state.rates, s, t), "time": self._clock()}

    @tool(read_only=True, returns=list[Balance])
    def list_balances(self) -> list[dict]:
        """The business profile's currency balances."""
        return [b.model_dump() for b in self.state.balances.values()]

    @tool(read_only=True, returns=FxQuote)
    def get_quote(self, quote_id: Id("fx_quote")) -> dict:
        """Get one quote, with whether its guaranteed rate has expired.

        Args:
            quote_id: the quote id, e.g. FXQ-0003.
        """
        return self._view_quote(self._quote(quote_id))

    @tool(read_only=True, returns=list[Recipient])
    def list_recipients(self, currency: Optional[CurrencyCode] = None,
                        account_holder_name: Optional[CompanyName] = None,
                        vendor_id: Optional[Id("vendor")] = None, active: Optional[bool] = None) -> list[dict]:
        """List recipient accounts by currency, holder name, vendor or active flag.

        Args:
            currency: only accounts receiving this currency.
            account_holder_name: the holder's name (case-insensitive), e.g. the vendor's company name.
            vendor_id: the accounts-payable vendor, e.g. VEN-0002.
            active: only active (true) or deactivated (false) accounts.
        """
        return [r.model_dump() for r in select(self.state.recipients.values(),
                                               eq("currency", currency.upper() if currency else None),
                                               ieq("account_holder_name", account_holder_name),
                                               eq("vendor_id", vendor_id), eq("active", active))]

    @tool(read_only=True, returns=Recipient)
    def get_recipient(self, recipient_id: Id("recipient")) -> dict:
        """Get one recipient account.

        Args:
            recipient_id: the recipient id, e.g. RCP-0001.
        """
        return self.lookup(self.state.recipients, recipient_id, "recipient").model_dump()

    @tool(read_only=True, returns=list[Transfer])
    def list_transfers(self, status: Optional[TransferStatus] = None, recipient_id: Optional[Id("recipient")] = None,
                       account_holder_name: Optional[CompanyName] = None,
                       reference: Optional[str] = Field(default=None, max_length=100),
                       limit: int = Field(default=50, ge=1, le=200)) -> list[dict]:
        """List transfers, newest first, by status, recipient, holder name or text in the reference.

        Args:
            status: incoming_payment_waiting, processing, outgoing_payment_sent or cancelled.
            recipient_id: the recipient account paid.
            account_holder_name: the recipient's holder name (case-insensitive).
            reference: text the payment reference contains (case-insensitive), e.g. a bill id.
            limit: maximum number of transfers (1-200).
        """
        ref = (lambda t: reference.lower() in t.reference.lower()) if reference else None
        rows = select(reversed(self.state.transfers.values()), eq("status", status), eq("target_account", recipient_id),
                      ieq("target_account_name", account_holder_name), ref, limit=limit)
        return [t.model_dump() for t in rows]

    @tool(read_only=True, returns=Transfer)
    def get_transfer(self, transfer_id: Id("transfer")) -> dict:
        """Get one transfer with its quote's expiry.

        Args:
            transfer_id: the transfer id, e.g. TRF-0003.
        """
        t = self._transfer(transfer_id)
        q = self.state.quotes[t.quote_id]
        return {**t.model_dump(), "quote_expiration_time": q.expiration_time, "quote_expired": self._expired(q)}

    # ----------------------------------------------------------------- writes
    @tool(read_only=False, returns=FxQuote)
    def create_quote(self, source_currency: CurrencyCode, target_currency: CurrencyCode,
                     source_amount: Optional[Money] = Field(default=None, ge=0.01, le=MONEY_MAX),
                     target_amount: Optional[Money] = Field(default=None, ge=0.01, le=MONEY_MAX)) -> dict:
        """Quote a conversion at today's rate with Wise's fee; the rate is guaranteed for 24 hours.

        Give exactly one of source_amount (what leaves the balance, fee included) or target_amount
        (what the recipient gets).

        Args:
            source_currency: the balance paid from, e.g. USD.
            target_currency: the currency delivered, e.g. EUR.
            source_amount: amount to send, fee included.
            target_amount: amount to deliver (e.g. a bill's amount in the vendor's currency).
        """
        s, t = self._currency(source_currency, "source_currency"), self._currency(target_currency, "target_currency")
        if (source_amount is None) == (target_amount is None):
            raise InvalidArgument("give exactly one of source_amount or target_amount.")
        if target_amount is not None:
            q = make_quote(self.state, self.new_id("FXQ"), s, t, target_amount, self.now())
        else:
            src, tgt, rate, fee = price(self.state.rates, s, t, source_amount=source_amount)
            made = self.now()
            q = FxQuote(id=self.new_id("FXQ"), source_currency=s, target_currency=t, source_amount=src,
                        target_amount=tgt, rate=rate, fee=fee, created_time=made,
                        expiration_time=made + dt.timedelta(hours=QUOTE_VALID_HOURS), status="pending")
            self.state.quotes[q.id] = q
        return self._view_quote(q)

    @tool(read_only=False, returns=Recipient)
    def create_recipient(self, account_holder_name: CompanyName = Field(min_length=2, max_length=120),
                         currency: CurrencyCode = "EUR", type: RecipientType = "iban",
                         iban: Optional[str] = Field(default=None, max_length=40),
                         bic: Optional[str] = Field(default=None, pattern=r"^[A-Za-z]{6}[A-Za-z0-9]{2}([A-Za-z0-9]{3})?$"),
                         abartn: Optional[str] = None, account_number: Optional[str] = None,
                         email: Optional[Email] = None, vendor_id: Optional[Id("vendor")] = None) -> dict:
        """Add a vendor's bank account: an IBAN for EUR (euro area) or GBP (GB), an ABA account for USD.

        Args:
            account_holder_name: the vendor's legal name as the bank holds it.
            currency: EUR, GBP or USD.
            type: iban (EUR, GBP) or aba (USD).
            iban: the IBAN, for type iban; it must pass the mod-97 check.
            bic: the bank's BIC, for type iban (optional).
            abartn: 9-digit ABA routing number, for type aba.
            account_number: the account number, for type aba.
            email: remittance email.
            vendor_id: the accounts-payable vendor this account pays, e.g. VEN-0001.
        """
        cur = self._currency(currency, "currency")
        if cur not in PAYOUT_CURRENCIES:
            raise Unprocessable(f"this account pays recipients in {', '.join(PAYOUT_CURRENCIES)} only.")
        if (type == "aba") != (cur == "USD"):
            raise Unprocessable(f"a {cur} account is of type {'aba' if cur == 'USD' else 'iban'}.")
        r = Recipient(id="RCP-0", account_holder_name=account_holder_name, currency=cur, type=type, country="US",
                      email=email, vendor_id=vendor_id)
        if type == "iban":
            if not iban:
                raise InvalidArgument("give the iban of an iban account.")
            r.iban, r.bic, r.country = check_iban(iban, cur), bic.upper() if bic else None, iban.strip()[:2].upper()
            same = [x for x in self.state.recipients.values() if x.active and x.iban == r.iban]
        else:
            if not (abartn and account_number):
                raise InvalidArgument("give abartn and account_number of an aba account.")
            r.abartn, r.account_number = check_aba(abartn, account_number)
            same = [x for x in self.state.recipients.values() if x.active and (x.abartn, x.account_number)
                    == (r.abartn, r.account_number)]
        if same:
            raise Conflict(f"these bank details are already recipient {same[0].id}.")
        r.id = self.new_id("RCP")
        self.state.recipients[r.id] = Recipient.model_validate(r.model_dump())
        return r.model_dump()

    @tool(read_only=False, destructive=True, returns=Recipient)
    def deactivate_recipient(self, recipient_id: Id("recipient")) -> dict:
        """Deactivate a recipient account (none of its transfers may still be waiting or processing).

        Args:
            recipient_id: the recipient.
        """
        r = self.lookup(self.state.recipients, recipient_id, "recipient")
        if not r.active:
            raise Conflict(f"recipient {r.id} is already deactivated.")
        busy = [t.id for t in self.state.transfers.values() if t.target_account == r.id
                and t.status in ("incoming_payment_waiting", "processing")]
        if busy:
            raise Conflict(f"recipient {r.id} has transfers under way ({', '.join(busy)}); cancel or finish them first.")
        r.active = False
        return r.model_dump()

    @tool(read_only=False, returns=Transfer)
    def create_transfer(self, target_account: Id("recipient"), quote_id: Id("fx_quote"),
                        customer_transaction_id: str = Field(min_length=6, max_length=64),
                        reference: str = Field(min_length=1, max_length=100)) -> dict:
        """Create a transfer to a recipient from a live quote; it waits for funds (fund_transfer).

        Args:
            target_account: the active recipient; its currency must be the quote's target currency.
            quote_id: a pending, unexpired quote.
            customer_transaction_id: your unique idempotency key (e.g. the bill id plus a suffix).
            reference: payment reference the vendor sees, e.g. the bill id and invoice number.
        """
        r = self.lookup(self.state.recipients, target_account, "recipient")
        q = self._quote(quote_id)
        if not r.active:
            raise Conflict(f"recipient {r.id} is deactivated; use the vendor's active account (list_recipients).")
        if r.currency != q.target_currency:
            raise Unprocessable(f"recipient {r.id} receives {r.currency} but quote {q.id} delivers {q.target_currency}; "
                                f"quote {r.currency} instead.")
        dup = next((t for t in self.state.transfers.values() if t.customer_transaction_id == customer_transaction_id),
                   None)
        if dup is not None:
            raise Conflict(f"customer_transaction_id {customer_transaction_id!r} was used by transfer {dup.id}.")
        self._live_quote(q, "a transfer")
        t = transfer_from(q, self.new_id("TRF"), r, reference, self.now())
        t.customer_transaction_id = customer_transaction_id
        self.state.transfers[t.id] = t
        return t.model_dump()

    @tool(read_only=False, returns=Transfer)
    def fund_transfer(self, transfer_id: Id("transfer")) -> dict:
        """Fund a waiting transfer from the balance of its source currency (payment type BALANCE).

        Args:
            transfer_id: a transfer in incoming_payment_waiting whose quote has not expired.
        """
        t = self._transfer(transfer_id)
        if t.status != "incoming_payment_waiting":
            raise Conflict(f"transfer {t.id} is {t.status}; only a transfer waiting for funds can be funded.")
        q = self.state.quotes[t.quote_id]
        if self._expired(q):
            raise Unprocessable(f"transfer {t.id}'s quote {q.id} expired at {q.expiration_time.isoformat()}; an "
                                "expired quote cannot fund: cancel this transfer and create a new quote and transfer.")
        bal = self._debit(t.source_currency, t.source_value, f"transfer {t.id}")
        t.status, t.funded_at = "processing", self.now()
        return {**t.model_dump(), "balance_after": bal.amount}

    @tool(read_only=False, destructive=True, returns=Transfer)
    def cancel_transfer(self, transfer_id: Id("transfer")) -> dict:
        """Cancel a transfer before its payout is sent; a funded one is refunded to its balance.

        Args:
            transfer_id: a transfer waiting for funds or processing.
        """
        t = self._transfer(transfer_id)
        if t.status not in ("incoming_payment_waiting", "processing"):
            raise Conflict(f"transfer {t.id} is {t.status}; only a transfer not yet sent can be cancelled.")
        if t.status == "processing":
            self._credit(t.source_currency, t.source_value)
            t.refunded = True
        t.status, t.cancelled_at = "cancelled", self.now()
        return t.model_dump()

    @tool(read_only=False, returns=Transfer)
    def simulate_transfer_status(self, transfer_id: Id("transfer"),
                                 status: TransferStatus = "outgoing_payment_sent") -> dict:
        """Sandbox: move a funded transfer on (processing -> outgoing_payment_sent, the payout left Wise).

        Args:
            transfer_id: a processing transfer.
            status: outgoing_payment_sent (the only simulated step; funding is fund_transfer).
        """
        t = self._transfer(transfer_id)
        if status != "outgoing_payment_sent":
            raise Unprocessable("only outgoing_payment_sent can be simulated; fund or cancel with their own tools.")
        if t.status != "processing":
            raise Conflict(f"transfer {t.id} is {t.status}; only a processing (funded) transfer can be sent.")
        t.status, t.sent_at = "outgoing_payment_sent", self.now()
        return t.model_dump()

    @tool(read_only=False, returns=list[Balance])
    def convert_balance(self, quote_id: Id("fx_quote")) -> list[dict]:
        """Convert between two balances at a live quote: its source amount out, its target amount in.

        Args:
            quote_id: a pending, unexpired quote.
        """
        q = self._quote(quote_id)
        self._live_quote(q, "a conversion")
        self._debit(q.source_currency, q.source_amount, f"converting quote {q.id}")
        self._credit(q.target_currency, q.target_amount)
        q.status = "accepted"
        return [b.model_dump() for b in self.state.balances.values()]

    # ------------------------------------------------------------------ seeds
    @classmethod
    def seed_state(cls, seed: int, today: dt.date) -> TreasuryState:
        """Seeded state on accounts payable's vendors and bills for the same seed."""
        return seed_for(seed, today)

    @classmethod
    def build_seed_state(cls, fake: Faker, rng: random.Random, today: dt.date) -> TreasuryState:
        return build_state(fake, rng, today, AccountsPayable.build_seed_state(fake, rng, today))


__all__ = ["Treasury"]
