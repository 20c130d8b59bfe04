"""Mortgage loans: a lender's loan pipeline, milestones, underwriting conditions and rate locks.

No mortgage server is in ``compoworld_gym/data/mcp_servers.jsonl``
(``spec_source = None``); the interface follows ICE Mortgage Technology's
Encompass Developer Connect API: ``loans`` (borrower, ``property``,
``loanAmount``, ``purchasePriceAmount``, ``propertyAppraisedValueAmount``,
``liabilities``, ``estimatedClosingDate``), the loan pipeline search, the
``milestones`` of the default template (Started -> Processing -> Submittal ->
Cond. Approval -> Resubmittal -> Approval -> Docs Out -> Funding ->
Completion), underwriting ``conditions`` (``priorTo`` Approval, Docs or
Funding; status Added, Requested, Received, Cleared or Waived) and the
buy-side ``ratelockRequests`` (``lockDate``, ``lockNumberOfDays``,
``lockExpirationDate``, extensions). Field names are the snake_case forms.

Rules of the real product: a loan moves one milestone at a time and cannot
enter Approval, Docs Out or Funding while conditions of that stage (or an
earlier one) are open; Approval also needs DTI within 50%; Funding needs an
unexpired rate lock; a loan amount over 97% LTV (of the lesser of price and
appraised value) is refused; a condition is cleared only once its documents
are received, and none is added for a stage already passed; an expired lock
cannot be extended (relock instead). Left out: fees, disclosures, pricing
engines and document ordering, which have no deterministic counterpart here.
"""

from __future__ import annotations

import datetime as dt
import random
from typing import Literal, Optional

from faker import Faker
from pydantic import Field

from compoworld_gym.entities import Address, City, Date, Email, Id, Money, PersonName, Phone
from compoworld_gym.envs.services._blocks import eq, ieq, select, text
from compoworld_gym.envs.services._commerce import MONEY_MAX, money
from compoworld_gym.envs.services._mortgage_loans_conditions import ConditionsLocksMixin
from compoworld_gym.envs.services._mortgage_loans_models import (
    MILESTONES, Borrower, Condition, ConditionStatus, Liability, LiabilityType, Loan, LoanPurpose, LoanStatus,
    LoanType, Milestone, MilestoneLog, MortgageLoansState, PriorTo, SubjectProperty,
)
from compoworld_gym.envs.services._mortgage_loans_rules import (
    check_enter, check_ltv, dti_percent, housing_payment, lock_state, ltv_percent, monthly_principal_interest,
)
from compoworld_gym.envs.services._mortgage_loans_seed import LOAN_OFFICERS, build_state, milestone_log
from compoworld_gym.errors import Conflict, NotFound, Unprocessable
from compoworld_gym.service import Service, tool


class MortgageLoans(ConditionsLocksMixin, Service):
    """Encompass-style loan origination: loans, milestones, conditions, rate locks."""

    name = "mortgage_loans"
    description = ("Mortgage loan origination: loan files with borrower, property and LTV/DTI, milestones from "
                   "Started to Completion, underwriting conditions and rate locks.")
    domain = "real_estate"
    spec_source = None
    State = MortgageLoansState

    # ---------------------------------------------------------------- helpers
    def _loan(self, loan_id: str) -> Loan:
        return self.lookup(self.state.loans, loan_id, "loan")

    def _active(self, loan_id: str) -> Loan:
        loan = self._loan(loan_id)
        if loan.status != "active":
            raise Conflict(f"loan {loan.id} is {loan.status}; only active loans can be changed.")
        return loan

    def _condition(self, condition_id: str) -> Condition:
        return self.lookup(self.state.conditions, condition_id, "condition")

    def _conditions_of(self, loan_id: str) -> list[Condition]:
        return [c for c in self.state.conditions.values() if c.loan_id == loan_id]

    def _view(self, loan: Loan) -> dict:
        pi = monthly_principal_interest(loan.loan_amount, loan.note_rate_percent, loan.loan_term_months)
        open_n = sum(c.status in ("Added", "Requested", "Received") for c in self._conditions_of(loan.id))
        return {**loan.model_dump(), "ltv_percent": ltv_percent(loan.loan_amount, loan.purchase_price_amount,
                                                                  loan.property_appraised_value_amount),
                "dti_percent": dti_percent(loan), "monthly_principal_interest": money(pi),
                "proposed_housing_payment": housing_payment(loan), "rate_lock_status": lock_state(loan, self.today),
                "open_conditions": open_n}

    # ------------------------------------------------------------------ reads
    @tool(read_only=True, returns=list[Loan])
    def search_loans(self, borrower_email: Optional[Email] = None, borrower_name: Optional[PersonName] = None,
                     property_address: Optional[Address] = None, milestone: Optional[Milestone] = None,
                     status: Optional[LoanStatus] = None, loan_officer_email: Optional[Email] = None,
                     limit: int = Field(default=50, ge=1, le=200)) -> list[dict]:
        """Search the loan pipeline; rows carry the borrower, property, amount, milestone, status and LTV.

        Args:
            borrower_email: the borrower's email (exact, case-insensitive).
            borrower_name: part of the borrower's name.
            property_address: part of the subject property's street address.
            milestone: the current milestone, e.g. 'Cond. Approval'.
            status: active, withdrawn, denied or completed.
            loan_officer_email: the loan officer's email.
            limit: maximum number of loans (1-200).
        """
        rows = select(self.state.loans.values(), ieq("borrower.email_address_text", borrower_email),
                      text(borrower_name, "borrower.full_name"), text(property_address, "subject_property.street_address"),
                      eq("current_milestone", milestone), eq("status", status),
                      ieq("loan_officer_email", loan_officer_email), limit=limit)
        return [{"id": r.id, "borrower": r.borrower.full_name, "borrower_email": r.borrower.email_address_text,
                 "street_address": r.subject_property.street_address, "city": r.subject_property.city,
                 "loan_amount": r.loan_amount, "current_milestone": r.current_milestone, "status": r.status,
                 "estimated_closing_date": r.estimated_closing_date, "loan_officer_email": r.loan_officer_email,
                 "ltv_percent": ltv_percent(r.loan_amount, r.purchase_price_amount, r.property_appraised_value_amount)}
                for r in rows]

    @tool(read_only=True, returns=Loan)
    def get_loan(self, loan_id: Id("loan_application")) -> dict:
        """Get a loan file with its computed LTV, DTI, housing payment, rate lock status and open condition count.

        Args:
            loan_id: the loan number, e.g. LN-0003.
        """
        return self._view(self._loan(loan_id))

    @tool(read_only=True, returns=list[MilestoneLog])
    def list_milestones(self, loan_id: Id("loan_application")) -> dict:
        """The loan's milestones in template order: start day, done indicator and the current one.

        Args:
            loan_id: the loan.
        """
        loan = self._loan(loan_id)
        return {"loan_id": loan.id, "current_milestone": loan.current_milestone,
                "milestones": [m.model_dump() for m in loan.milestones]}

    @tool(read_only=True, returns=list[Condition])
    def list_conditions(self, loan_id: Id("loan_application"), prior_to: Optional[PriorTo] = None,
                        status: Optional[ConditionStatus] = None) -> list[dict]:
        """The underwriting conditions of a loan, optionally of one stage or status.

        Args:
            loan_id: the loan.
            prior_to: Approval, Docs or Funding.
            status: Added, Requested, Received, Cleared or Waived.
        """
        loan = self._loan(loan_id)
        return [c.model_dump() for c in select(self._conditions_of(loan.id), eq("prior_to", prior_to),
                                               eq("status", status))]

    @tool(read_only=True, returns=Condition)
    def get_condition(self, condition_id: Id("loan_condition")) -> dict:
        """Get one underwriting condition.

        Args:
            condition_id: the condition id, e.g. COND-0002.
        """
        return self._condition(condition_id).model_dump()

    # ------------------------------------------------------------- loan file
    @tool(read_only=False, returns=Loan)
    def create_loan(self, borrower_name: PersonName, borrower_email: Email, borrower_phone: Phone,
                    total_monthly_income_amount: Money = Field(ge=1, le=MONEY_MAX),
                    street_address: Address = Field(min_length=5, max_length=120),
                    city: City = Field(min_length=2), state: str = Field(pattern=r"^[A-Z]{2}$"),
                    postal_code: str = Field(pattern=r"^\d{5}$"),
                    loan_amount: Money = Field(ge=1000, le=MONEY_MAX),
                    property_appraised_value_amount: Money = Field(ge=1000, le=MONEY_MAX),
                    estimated_closing_date: Date = Field(), loan_purpose: LoanPurpose = "Purchase",
                    purchase_price_amount: Optional[Money] = Field(default=None, ge=1000, le=MONEY_MAX),
                    loan_type: LoanType = "Conventional", note_rate_percent: float = Field(default=6.5, gt=0, le=20),
                    loan_term_months: Literal[180, 240, 360] = 360,
                    monthly_taxes_insurance_amount: Money = Field(default=0.0, ge=0, le=MONEY_MAX),
                    loan_officer_email: Optional[Email] = None) -> dict:
        """Start a loan application (milestone Started); LTV over 97% is refused (422).

        Args:
            borrower_name: borrower's full name.
            borrower_email: borrower's email.
            borrower_phone: borrower's phone.
            total_monthly_income_amount: gross monthly income (USD).
            street_address: subject property street address.
            city: its city.
            state: its state code, e.g. WA.
            postal_code: its ZIP code.
            loan_amount: base loan amount (USD).
            property_appraised_value_amount: estimated or appraised value (USD).
            estimated_closing_date: planned closing day, after today.
            loan_purpose: Purchase, NoCash-Out Refinance or Cash-Out Refinance.
            purchase_price_amount: contract price (USD); required for a purchase.
            loan_type: Conventional, FHA, VA or USDA.
            note_rate_percent: interest rate (percent a year).
            loan_term_months: 180, 240 or 360.
            monthly_taxes_insurance_amount: monthly tax, insurance and HOA (USD).
            loan_officer_email: the loan officer; default assigned in rotation.
        """
        if estimated_closing_date <= self.today:
            raise Unprocessable("give an estimated_closing_date after today.")
        if loan_purpose == "Purchase" and purchase_price_amount is None:
            raise Unprocessable("a purchase loan needs purchase_price_amount.")
        check_ltv(loan_amount, purchase_price_amount, property_appraised_value_amount)
        officers = dict((e, n) for n, e in LOAN_OFFICERS)
        if loan_officer_email is not None and loan_officer_email.lower() not in officers:
            raise NotFound(f"no loan officer {loan_officer_email}; loan officers are {', '.join(officers)}.")
        lid = self.new_id("LN")
        email = loan_officer_email.lower() if loan_officer_email else LOAN_OFFICERS[int(lid[3:]) % 3][1]
        loan = Loan(id=lid, borrower=Borrower(full_name=borrower_name, email_address_text=borrower_email,
                                              home_phone_number=borrower_phone,
                                              total_monthly_income_amount=money(total_monthly_income_amount)),
                    subject_property=SubjectProperty(street_address=street_address, city=city, state=state,
                                                     postal_code=postal_code, property_type="Detached",
                                                     occupancy="PrimaryResidence"),
                    loan_purpose=loan_purpose, loan_type=loan_type, loan_amount=money(loan_amount),
                    purchase_price_amount=money(purchase_price_amount) if purchase_price_amount else None,
                    property_appraised_value_amount=money(property_appraised_value_amount),
                    note_rate_percent=note_rate_percent, loan_term_months=loan_term_months,
                    monthly_taxes_insurance_amount=money(monthly_taxes_insurance_amount), loan_officer_email=email,
                    loan_officer_name=officers[email], application_date=self.today,
                    estimated_closing_date=estimated_closing_date, current_milestone="Started",
                    milestones=milestone_log("Started", self.today, self.today), status="active")
        self.state.loans[lid] = loan
        return self._view(loan)

    @tool(read_only=False, returns=Loan)
    def update_loan_terms(self, loan_id: Id("loan_application"),
                          loan_amount: Optional[Money] = Field(default=None, ge=1000, le=MONEY_MAX),
                          property_appraised_value_amount: Optional[Money] = Field(default=None, ge=1000, le=MONEY_MAX),
                          total_monthly_income_amount: Optional[Money] = Field(default=None, ge=1, le=MONEY_MAX),
                          note_rate_percent: Optional[float] = Field(default=None, gt=0, le=20),
                          estimated_closing_date: Optional[Date] = None) -> dict:
        """Change the amounts, rate or closing day of an active loan before Funding; LTV over 97% is refused (422).

        Args:
            loan_id: the loan.
            loan_amount: new base loan amount (USD).
            property_appraised_value_amount: new appraised value (USD).
            total_monthly_income_amount: corrected gross monthly income (USD).
            note_rate_percent: new interest rate (a locked loan keeps its locked rate: 409).
            estimated_closing_date: new planned closing day, after today.
        """
        loan = self._active(loan_id)
        if MILESTONES.index(loan.current_milestone) >= MILESTONES.index("Funding"):
            raise Conflict(f"loan {loan.id} is at {loan.current_milestone}; its terms are final.")
        amount = money(loan_amount) if loan_amount is not None else loan.loan_amount
        value = money(property_appraised_value_amount) if property_appraised_value_amount is not None \
            else loan.property_appraised_value_amount
        check_ltv(amount, loan.purchase_price_amount, value)
        if note_rate_percent is not None and lock_state(loan, self.today) == "Locked" \
                and note_rate_percent != loan.rate_lock.rate:
            raise Conflict(f"loan {loan.id} is locked at {loan.rate_lock.rate}%; cancel the lock to change the rate.")
        if estimated_closing_date is not None and estimated_closing_date <= self.today:
            raise Unprocessable("estimated_closing_date must be after today.")
        loan.loan_amount, loan.property_appraised_value_amount = amount, value
        if total_monthly_income_amount is not None:
            loan.borrower.total_monthly_income_amount = money(total_monthly_income_amount)
        if note_rate_percent is not None:
            loan.note_rate_percent = note_rate_percent
        if estimated_closing_date is not None:
            loan.estimated_closing_date = estimated_closing_date
        return self._view(loan)

    @tool(read_only=False, returns=Loan)
    def add_liability(self, loan_id: Id("loan_application"), holder_name: str = Field(min_length=2, max_length=80),
                      liability_type: LiabilityType = "Installment",
                      monthly_payment_amount: Money = Field(ge=0.01, le=MONEY_MAX),
                      unpaid_balance_amount: Money = Field(default=0.0, ge=0, le=MONEY_MAX)) -> dict:
        """Add a monthly debt found on the credit report (it raises the DTI).

        Args:
            loan_id: an active loan.
            holder_name: the creditor.
            liability_type: Installment, Revolving, StudentLoan, Lease or Other.
            monthly_payment_amount: monthly payment (USD).
            unpaid_balance_amount: balance owed (USD).
        """
        loan = self._active(loan_id)
        loan.liabilities.append(Liability(holder_name=holder_name, liability_type=liability_type,
                                          monthly_payment_amount=money(monthly_payment_amount),
                                          unpaid_balance_amount=money(unpaid_balance_amount)))
        return self._view(loan)

    @tool(read_only=False, returns=Loan)
    def complete_milestone(self, loan_id: Id("loan_application"), milestone: Milestone,
                           comments: Optional[str] = Field(default=None, max_length=500)) -> dict:
        """Finish the loan's current milestone and move it to the next one.

        ``milestone`` must be the current one (409). Entering Approval, Docs Out
        or Funding needs that stage's conditions cleared or waived (422);
        Approval also DTI within 50% (422); Funding an unexpired rate lock (422).
        Finishing Funding completes the loan.

        Args:
            loan_id: an active loan.
            milestone: the current milestone being finished.
            comments: a comment kept on the milestone.
        """
        loan = self._active(loan_id)
        if milestone != loan.current_milestone:
            raise Conflict(f"loan {loan.id} is at {loan.current_milestone}, not {milestone}; finish "
                           f"{loan.current_milestone} next.")
        k = MILESTONES.index(milestone)
        target = MILESTONES[k + 1]
        check_enter(loan, target, self._conditions_of(loan.id), self.today)
        done, nxt = loan.milestones[k], loan.milestones[k + 1]
        done.done_indicator, done.completed_date, done.comments = True, self.today, comments
        nxt.start_date, loan.current_milestone = self.today, target
        if target == "Completion":
            nxt.done_indicator, nxt.completed_date, loan.status = True, self.today, "completed"
        return self._view(loan)

    @tool(read_only=False, destructive=True, returns=Loan)
    def record_adverse_action(self, loan_id: Id("loan_application"), action: Literal["withdrawn", "denied"],
                              reason: str = Field(min_length=3, max_length=300)) -> dict:
        """Withdraw or deny an active loan before Funding (an active rate lock is cancelled).

        Args:
            loan_id: an active loan.
            action: withdrawn (by the borrower) or denied (by underwriting).
            reason: the reason, kept on the loan.
        """
        loan = self._active(loan_id)
        if MILESTONES.index(loan.current_milestone) >= MILESTONES.index("Funding"):
            raise Conflict(f"loan {loan.id} is at {loan.current_milestone}; a funded loan cannot be {action}.")
        loan.status, loan.adverse_action_reason = action, reason
        if loan.rate_lock is not None:
            loan.rate_lock.requested_status = "Cancelled"
        return self._view(loan)

    @tool(read_only=False, returns=Loan)
    def add_loan_note(self, loan_id: Id("loan_application"), note: str = Field(min_length=1, max_length=500)) -> dict:
        """Add a note to the loan's conversation log.

        Args:
            loan_id: the loan.
            note: the note.
        """
        loan = self._loan(loan_id)
        loan.notes.append(note)
        return self._view(loan)

    # ------------------------------------------------------------------ seeds
    @classmethod
    def build_seed_state(cls, fake: Faker, rng: random.Random, today: dt.date) -> MortgageLoansState:
        return build_state(fake, rng, today)
