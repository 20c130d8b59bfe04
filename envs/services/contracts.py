"""Contracts: customer subscriptions with terms, renewals and notice rules.

No contract or subscription-management server is in
``compoworld_gym/data/mcp_servers.jsonl``; the interface is designed the way
Salesforce CPQ contracts and Chargebee subscriptions look: a contract
belongs to a customer company, has an account owner, start and end dates,
an annual value, auto-renewal with a price uplift, and a notice period.
The renewal notice rule is the one real contracts carry: a cancellation
notice counts only if it arrives on or before ``end_date - notice_period_days``
(the notice deadline); after that an auto-renewing contract renews.
"""

from __future__ import annotations

import datetime as dt
import random
from typing import Literal, Optional

from faker import Faker
from pydantic import Field

from compoworld_gym.entities import CompanyName, Currency, Date, DateTime, Email, Id, Money, PersonName
from compoworld_gym.envs.services._accounts import ACCOUNTS
from compoworld_gym.envs.services._commerce import MONEY_MAX, money
from compoworld_gym.errors import Conflict, InvalidArgument, Unprocessable
from compoworld_gym.service import Record, Service, ServiceState, tool

Plan = Literal["starter", "growth", "enterprise"]
ContractStatus = Literal["draft", "active", "notice_given", "renewed", "expired"]
#: List price per seat per month, USD.
SEAT_PRICE = {"starter": 25.0, "growth": 45.0, "enterprise": 80.0}


class Customer(Record):
    """A customer company."""

    id: Id("customer") = Field(description="Customer id, e.g. CUS-0001.")
    company: CompanyName = Field(description="Company name.")
    industry: str = Field(description="Industry.")
    contact_name: PersonName = Field(description="Main contact.")
    contact_email: Email = Field(description="Main contact's email (receives renewal notices).")
    owner_email: Email = Field(description="Account manager.")


class ContractNote(Record):
    """A note on a contract."""

    author_email: Email = Field(description="Who wrote it.")
    body: str = Field(description="Note text.")
    created_at: DateTime = Field(description="When (logical clock).")


class Contract(Record):
    """A subscription contract."""

    id: Id("subscription") = Field(description="Contract id, e.g. CTR-0001.")
    customer_id: Id("customer") = Field(description="Customer.")
    company: CompanyName = Field(description="Customer company name.")
    plan: Plan = Field(description="starter, growth or enterprise.")
    seats: int = Field(ge=1, description="Licensed seats.")
    annual_value: Money = Field(ge=0, description="Contract value per year.")
    currency: Currency = Field(description="ISO 4217 currency code.")
    start_date: Date = Field(description="First day of the term.")
    end_date: Date = Field(description="Last day of the term.")
    auto_renew: bool = Field(description="Renews automatically unless notice is given in time.")
    notice_period_days: int = Field(ge=0, le=365, description="Days before end_date a cancellation notice is due.")
    renewal_term_months: int = Field(ge=1, le=60, description="Length of a renewal term.")
    price_uplift_pct: float = Field(ge=0, le=50, description="Price increase applied on renewal, percent.")
    status: ContractStatus = Field(description="draft, active, notice_given, renewed or expired.")
    owner_email: Email = Field(description="Account manager responsible.")
    cancellation_notice_on: Optional[Date] = Field(default=None, description="Date the customer's notice arrived.")
    cancellation_reason: str = Field(default="", description="Reason given with the notice.")
    renewed_from: Optional[Id("subscription")] = Field(default=None, description="Contract this one renews.")
    renewed_to: Optional[Id("subscription")] = Field(default=None, description="Contract that renewed this one.")
    notes: list[ContractNote] = Field(default_factory=list, description="Notes, oldest first.")


class ContractsState(ServiceState):
    """Customers and their contracts."""

    customers: dict[str, Customer] = Field(default_factory=dict, description="Customers by id.")
    contracts: dict[str, Contract] = Field(default_factory=dict, description="Contracts by id.")


def notice_deadline(c: Contract) -> dt.date:
    """Last day a cancellation notice counts: ``end_date - notice_period_days``."""
    return c.end_date - dt.timedelta(days=c.notice_period_days)


def _add_months(d: dt.date, months: int) -> dt.date:
    y, m = divmod(d.month - 1 + months, 12)
    year, month = d.year + y, m + 1
    days = (dt.date(year + (month == 12), month % 12 + 1, 1) - dt.timedelta(days=1)).day
    return dt.date(year, month, min(d.day, days))


class Contracts(Service):
    """Customer contracts: terms, values, owners, renewals and cancellation notices."""

    name = "contracts"
    description = ("Customer contracts and subscriptions: terms, annual value, account owner, renewal dates, "
                   "auto-renewal and cancellation-notice deadlines.")
    domain = "sales"
    spec_source = None
    State = ContractsState

    def _view(self, c: Contract) -> dict:
        deadline = notice_deadline(c)
        return {**c.model_dump(exclude={"notes"}), "notice_deadline": deadline,
                "days_until_notice_deadline": (deadline - self.today).days,
                "days_until_end": (c.end_date - self.today).days}

    def _contract(self, contract_id: str, *statuses: str) -> Contract:
        c = self.lookup(self.state.contracts, contract_id, "contract")
        if statuses and c.status not in statuses:
            raise Conflict(f"contract {contract_id} is {c.status}; this needs status {' or '.join(statuses)}.")
        return c

    # ------------------------------------------------------------------ reads
    @tool(read_only=True, returns=list[Customer])
    def list_customers(self, query: Optional[str] = None, owner_email: Optional[Email] = None,
                       industry: Optional[str] = None) -> list[dict]:
        """List customer companies.

        Args:
            query: case-insensitive text to find in company or contact name.
            owner_email: only customers managed by this account manager.
            industry: only customers in this industry.
        """
        q = query.lower() if query else None
        return [c.model_dump() for c in self.state.customers.values()
                if (q is None or q in c.company.lower() or q in c.contact_name.lower())
                and (owner_email is None or c.owner_email.lower() == owner_email.lower())
                and (industry is None or c.industry == industry)]

    @tool(read_only=True, returns=Customer)
    def get_customer(self, customer_id: Id("customer")) -> dict:
        """Get a customer with all its contracts.

        Args:
            customer_id: the customer id, e.g. CUS-0001.
        """
        cust = self.lookup(self.state.customers, customer_id, "customer")
        return {**cust.model_dump(), "contracts": [self._view(c) for c in self.state.contracts.values()
                                                   if c.customer_id == customer_id]}

    @tool(read_only=True, returns=list[Contract])
    def search_contracts(self, status: Optional[ContractStatus] = None, customer_id: Optional[Id("customer")] = None,
                         company: Optional[CompanyName] = None, owner_email: Optional[Email] = None,
                         plan: Optional[Plan] = None, ends_before: Optional[Date] = None,
                         ends_after: Optional[Date] = None, auto_renew: Optional[bool] = None,
                         limit: int = Field(default=50, ge=1, le=200)) -> list[dict]:
        """Search contracts (with their notice deadline), soonest end first.

        Args:
            status: only contracts with this status.
            customer_id: only this customer's contracts.
            company: only contracts of this company (case-insensitive).
            owner_email: only contracts owned by this account manager.
            plan: only this plan.
            ends_before: only contracts ending strictly before this date (YYYY-MM-DD).
            ends_after: only contracts ending strictly after this date (YYYY-MM-DD).
            auto_renew: only auto-renewing (true) or non-renewing (false) contracts.
            limit: maximum number of contracts (1-200).
        """
        out = [self._view(c) for c in sorted(self.state.contracts.values(), key=lambda c: (c.end_date, c.id))
               if (status is None or c.status == status) and (customer_id is None or c.customer_id == customer_id)
               and (company is None or c.company.lower() == company.lower())
               and (owner_email is None or c.owner_email.lower() == owner_email.lower())
               and (plan is None or c.plan == plan) and (ends_before is None or c.end_date < ends_before)
               and (ends_after is None or c.end_date > ends_after)
               and (auto_renew is None or c.auto_renew == auto_renew)]
        return out[:limit]

    @tool(read_only=True, returns=Contract)
    def get_contract(self, contract_id: Id("subscription")) -> dict:
        """Get a contract with notes, notice deadline and days left.

        Args:
            contract_id: the contract id, e.g. CTR-0001.
        """
        c = self._contract(contract_id)
        return {**self._view(c), "notes": [n.model_dump() for n in c.notes]}

    @tool(read_only=True, returns=list[Contract])
    def list_upcoming_renewals(self, within_days: int = Field(default=90, ge=1, le=730),
                               owner_email: Optional[Email] = None) -> list[dict]:
        """Active contracts ending within ``within_days`` of today, by notice deadline.

        Each row adds ``renewal_value`` (annual value after the uplift) and
        ``notice_deadline_passed``.

        Args:
            within_days: look-ahead window in days (1-730).
            owner_email: only contracts owned by this account manager.
        """
        horizon = self.today + dt.timedelta(days=within_days)
        rows = [c for c in self.state.contracts.values() if c.status == "active" and self.today <= c.end_date <= horizon
                and (owner_email is None or c.owner_email.lower() == owner_email.lower())]
        return [{**self._view(c), "notice_deadline_passed": notice_deadline(c) < self.today,
                 "renewal_value": money(c.annual_value * (1 + c.price_uplift_pct / 100))}
                for c in sorted(rows, key=lambda c: (notice_deadline(c), c.id))]

    # ----------------------------------------------------------------- writes
    @tool(read_only=False, returns=Contract)
    def create_contract(self, customer_id: Id("customer"), plan: Plan, seats: int = Field(ge=1, le=100000),
                        annual_value: Money = Field(ge=0, le=MONEY_MAX),
                        start_date: Date = Field(), end_date: Date = Field(),
                        owner_email: Email = Field(min_length=3), auto_renew: bool = True,
                        notice_period_days: int = Field(default=60, ge=0, le=365),
                        price_uplift_pct: float = Field(default=0.0, ge=0, le=50),
                        currency: Currency = Field(default="USD", pattern=r"^[A-Z]{3}$")) -> dict:
        """Create a draft contract (activate it to start the term).

        Args:
            customer_id: the customer.
            plan: starter, growth or enterprise.
            seats: licensed seats.
            annual_value: value per year.
            start_date: first day (YYYY-MM-DD).
            end_date: last day (YYYY-MM-DD), after start_date.
            owner_email: account manager.
            auto_renew: renew automatically unless notice is given.
            notice_period_days: days before end_date a cancellation notice is due.
            price_uplift_pct: increase applied on renewal, percent.
            currency: ISO 4217 code, e.g. USD.
        """
        cust = self.lookup(self.state.customers, customer_id, "customer")
        if end_date <= start_date:
            raise Unprocessable(f"end_date {end_date} must be after start_date {start_date}.")
        if (end_date - start_date).days < notice_period_days:
            raise Unprocessable(f"the term is shorter than the {notice_period_days}-day notice period.")
        c = Contract(id=self.new_id("CTR"), customer_id=customer_id, company=cust.company, plan=plan, seats=seats,
                     annual_value=money(annual_value), currency=currency, start_date=start_date, end_date=end_date,
                     auto_renew=auto_renew, notice_period_days=notice_period_days, renewal_term_months=12,
                     price_uplift_pct=price_uplift_pct, status="draft", owner_email=owner_email)
        self.state.contracts[c.id] = c
        return self._view(c)

    @tool(read_only=False, returns=Contract)
    def activate_contract(self, contract_id: Id("subscription")) -> dict:
        """Activate a draft contract (409 if it overlaps another live contract of the customer).

        Args:
            contract_id: the draft contract.
        """
        c = self._contract(contract_id, "draft")
        for o in self.state.contracts.values():
            if (o.customer_id == c.customer_id and o.id != c.id and o.status in ("active", "notice_given")
                    and o.start_date <= c.end_date and c.start_date <= o.end_date):
                raise Conflict(f"{contract_id} overlaps {o.id} ({o.start_date} to {o.end_date}) of {c.company}; "
                               "renew or end that contract instead.")
        c.status = "active"
        return self._view(c)

    @tool(read_only=False, returns=Contract)
    def renew_contract(self, contract_id: Id("subscription"), actor_email: Email,
                       annual_value: Optional[Money] = Field(default=None, ge=0, le=MONEY_MAX),
                       term_months: Optional[int] = Field(default=None, ge=1, le=60)) -> dict:
        """Renew an active contract: a new active contract starts the day after it ends.

        The value defaults to the current value plus the price uplift; 409 if the
        customer gave notice or the contract is not active.

        Args:
            contract_id: the active contract.
            actor_email: who renews it.
            annual_value: new value per year (default: uplifted current value).
            term_months: new term length (default: the contract's renewal term).
        """
        c = self._contract(contract_id, "active")
        months = term_months or c.renewal_term_months
        try:
            start = c.end_date + dt.timedelta(days=1)
            end = _add_months(start, months) - dt.timedelta(days=1)
        except (OverflowError, ValueError):  # the renewal term would end after 9999-12-31
            raise Unprocessable(f"{contract_id} ends {c.end_date}; a {months}-month renewal would run past "
                                "9999-12-31, the last date that can be stored.") from None
        value = annual_value if annual_value is not None else c.annual_value * (1 + c.price_uplift_pct / 100)
        new = c.model_copy(update={
            "id": self.new_id("CTR"), "annual_value": money(value), "start_date": start,
            "end_date": end, "renewal_term_months": months,
            "status": "active", "renewed_from": c.id, "renewed_to": None, "cancellation_notice_on": None,
            "notes": [ContractNote(author_email=actor_email, body=f"Renewal of {c.id}.", created_at=self.now())]})
        c.status, c.renewed_to = "renewed", new.id
        self.state.contracts[new.id] = Contract.model_validate(new.model_dump())
        return self._view(self.state.contracts[new.id])

    @tool(read_only=False, returns=Contract)
    def record_cancellation_notice(self, contract_id: Id("subscription"), received_on: Date,
                                   reason: str = Field(min_length=1, max_length=1000)) -> dict:
        """Record a customer's notice not to renew.

        409 if it arrived after the notice deadline of an auto-renewing contract
        (the contract renews); 422 if ``received_on`` is in the future.

        Args:
            contract_id: the active contract.
            received_on: date the notice arrived (YYYY-MM-DD).
            reason: reason given by the customer.
        """
        c = self._contract(contract_id, "active")
        if received_on > self.today:
            raise Unprocessable(f"received_on {received_on} is in the future (today is {self.today}).")
        deadline = notice_deadline(c)
        if c.auto_renew and received_on > deadline:
            raise Conflict(f"notice for {contract_id} arrived {received_on}, after the deadline {deadline} "
                           f"({c.notice_period_days} days before {c.end_date}); the contract auto-renews.")
        c.status, c.cancellation_notice_on, c.cancellation_reason = "notice_given", received_on, reason
        return self._view(c)

    @tool(read_only=False, returns=Contract)
    def update_contract(self, contract_id: Id("subscription"), owner_email: Optional[Email] = None,
                        auto_renew: Optional[bool] = None, seats: Optional[int] = Field(default=None, ge=1, le=100000),
                        annual_value: Optional[Money] = Field(default=None, ge=0, le=MONEY_MAX),
                        price_uplift_pct: Optional[float] = Field(default=None, ge=0, le=50)) -> dict:
        """Change a draft or active contract's owner, auto-renewal, seats, value or uplift.

        Turning auto-renewal off after the notice deadline is refused (409).

        Args:
            contract_id: the contract.
            owner_email: new account manager.
            auto_renew: new auto-renewal setting.
            seats: new seat count.
            annual_value: new value per year.
            price_uplift_pct: new renewal uplift, percent.
        """
        c = self._contract(contract_id, "draft", "active")
        changes = {k: v for k, v in (("owner_email", owner_email), ("auto_renew", auto_renew), ("seats", seats),
                                     ("annual_value", annual_value), ("price_uplift_pct", price_uplift_pct))
                   if v is not None}
        if not changes:
            raise InvalidArgument("nothing to update: give at least one field.")
        if (auto_renew is False and c.auto_renew and c.status == "active"
                and notice_deadline(c) < self.today):
            raise Conflict(f"the notice deadline of {contract_id} ({notice_deadline(c)}) has passed; "
                           "auto-renewal can no longer be turned off.")
        for k, v in changes.items():
            setattr(c, k, money(v) if k == "annual_value" else v)
        return self._view(c)

    @tool(read_only=False, returns=ContractNote)
    def add_contract_note(self, contract_id: Id("subscription"), author_email: Email,
                          body: str = Field(min_length=1, max_length=5000)) -> dict:
        """Add a note to a contract.

        Args:
            contract_id: the contract.
            author_email: who writes it.
            body: the note.
        """
        c = self._contract(contract_id)
        c.notes.append(ContractNote(author_email=author_email, body=body, created_at=self.now()))
        return {"contract_id": contract_id, **c.notes[-1].model_dump()}

    # ------------------------------------------------------------------ seeds
    @classmethod
    def build_seed_state(cls, fake: Faker, rng: random.Random, today: dt.date) -> ContractsState:
        state = ContractsState()
        n = 0
        for i, a in enumerate(ACCOUNTS):
            state.customers[a.id] = Customer(id=a.id, company=a.company, industry=a.industry,
                                             contact_name=a.contact_name, contact_email=a.contact_email,
                                             owner_email=a.owner_email)
            plan = ("starter", "growth", "enterprise")[i % 3]
            seats = rng.choice((10, 25, 40, 60, 120, 250))
            notice = rng.choice((30, 60, 90))
            # end dates spread from 3 weeks to 10 months ahead, so some notice deadlines have passed
            end = today + dt.timedelta(days=rng.randint(20, 300))
            start = _add_months(end + dt.timedelta(days=1), -12)
            value = money(seats * SEAT_PRICE[plan] * 12 * rng.choice((0.8, 0.9, 1.0)))
            prev_id = None
            if i % 3 == 0:  # a renewed predecessor term
                n += 1
                prev_id = f"CTR-{n:04d}"
                state.contracts[prev_id] = Contract(
                    id=prev_id, customer_id=a.id, company=a.company, plan=plan, seats=seats,
                    annual_value=money(value / 1.05), currency="USD", start_date=_add_months(start, -12),
                    end_date=start - dt.timedelta(days=1), auto_renew=True, notice_period_days=notice,
                    renewal_term_months=12, price_uplift_pct=5.0, status="renewed", owner_email=a.owner_email)
            n += 1
            cid = f"CTR-{n:04d}"
            c = Contract(id=cid, customer_id=a.id, company=a.company, plan=plan, seats=seats, annual_value=value,
                         currency="USD", start_date=start, end_date=end, auto_renew=i % 4 != 3,
                         notice_period_days=notice, renewal_term_months=12,
                         price_uplift_pct=rng.choice((0.0, 3.0, 5.0)),
                         status="active", owner_email=a.owner_email, renewed_from=prev_id)
            if prev_id:
                state.contracts[prev_id].renewed_to = cid
            if i == 4 and notice_deadline(c) >= today - dt.timedelta(days=5):
                c.status = "notice_given"
                c.cancellation_notice_on = min(today, notice_deadline(c)) - dt.timedelta(days=3)
                c.cancellation_reason = "Consolidating vendors after a budget review."
            state.contracts[cid] = c
        n += 1
        a = ACCOUNTS[1]
        upsell = today + dt.timedelta(days=30)
        state.contracts[f"CTR-{n:04d}"] = Contract(
            id=f"CTR-{n:04d}", customer_id=a.id, company=a.company, plan="enterprise", seats=80,
            annual_value=money(80 * SEAT_PRICE["enterprise"] * 12 * 0.85), currency="USD", start_date=upsell,
            end_date=_add_months(upsell, 12) - dt.timedelta(days=1), auto_renew=True, notice_period_days=60,
            renewal_term_months=12, price_uplift_pct=5.0, status="draft", owner_email=a.owner_email)
        state.counters["CTR"] = n + 1
        return state
