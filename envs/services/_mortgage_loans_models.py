"""Records of the mortgage_loans service (Encompass Developer Connect resources).

Field names are the snake_case forms of the Encompass loan fields
(``loanAmount`` -> ``loan_amount``, ``emailAddressText`` ->
``email_address_text``, ``lockExpirationDate`` -> ``lock_expiration_date``);
milestone names, condition ``prior_to`` stages and condition statuses are
Encompass's own values.
"""

from __future__ import annotations

from typing import Literal, Optional

from pydantic import Field

from compoworld_gym.entities import Address, City, Date, Email, Id, Money, PersonName, Phone
from compoworld_gym.service import Record, ServiceState

Milestone = Literal["Started", "Processing", "Submittal", "Cond. Approval", "Resubmittal", "Approval", "Docs Out",
                    "Funding", "Completion"]
#: The default Encompass milestone template, in order.
MILESTONES: tuple[str, ...] = ("Started", "Processing", "Submittal", "Cond. Approval", "Resubmittal", "Approval",
                               "Docs Out", "Funding", "Completion")
LoanStatus = Literal["active", "withdrawn", "denied", "completed"]
LoanPurpose = Literal["Purchase", "NoCash-Out Refinance", "Cash-Out Refinance"]
LoanType = Literal["Conventional", "FHA", "VA", "USDA"]
PriorTo = Literal["Approval", "Docs", "Funding"]
ConditionStatus = Literal["Added", "Requested", "Received", "Cleared", "Waived"]
ConditionCategory = Literal["Assets", "Credit", "Income", "Property", "Legal", "Misc"]
LiabilityType = Literal["Installment", "Revolving", "StudentLoan", "Lease", "Other"]
#: Condition statuses that still block their stage.
OPEN_CONDITION = ("Added", "Requested", "Received")


class Borrower(Record):
    """The borrower of a loan application (Encompass ``applications[0].borrower``)."""

    full_name: PersonName = Field(description="Borrower's full name.")
    email_address_text: Email = Field(description="Borrower's email.")
    home_phone_number: Phone = Field(description="Borrower's phone.")
    total_monthly_income_amount: Money = Field(gt=0, description="Gross monthly income (USD).")


class SubjectProperty(Record):
    """The property the loan is secured by (Encompass ``property``)."""

    street_address: Address = Field(description="Street address.")
    city: City = Field(description="City.")
    state: str = Field(description="US state code.")
    postal_code: str = Field(description="ZIP code.")
    property_type: Literal["Detached", "Condominium", "Townhouse"] = Field(description="Kind of dwelling.")
    occupancy: Literal["PrimaryResidence", "SecondHome", "Investor"] = Field(description="How it will be occupied.")


class Liability(Record):
    """A debt the borrower pays monthly (Encompass ``liabilities``)."""

    holder_name: str = Field(description="Creditor.")
    liability_type: LiabilityType = Field(description="Kind of debt.")
    monthly_payment_amount: Money = Field(gt=0, description="Monthly payment (USD).")
    unpaid_balance_amount: Money = Field(ge=0, description="Balance owed (USD).")


class MilestoneLog(Record):
    """One milestone of the loan's template (Encompass ``milestones``)."""

    milestone_name: Milestone = Field(description="The milestone.")
    start_date: Optional[Date] = Field(default=None, description="Day the loan reached it (None: not yet).")
    done_indicator: bool = Field(default=False, description="True once it is finished.")
    completed_date: Optional[Date] = Field(default=None, description="Day it was finished.")
    comments: Optional[str] = Field(default=None, description="Comment entered when it was finished.")


class RateLock(Record):
    """The loan's rate lock (Encompass ``ratelockRequests``, buy side)."""

    id: str = Field(description="Lock request id, e.g. LCK-0001.")
    lock_date: Date = Field(description="Day the rate was locked.")
    lock_number_of_days: int = Field(ge=1, description="Days locked, extensions included.")
    lock_expiration_date: Date = Field(description="Last day the locked rate holds; funding needs it not passed.")
    rate: float = Field(gt=0, lt=25, description="Locked note rate (percent).")
    requested_status: Literal["Locked", "Cancelled"] = Field(description="Locked or Cancelled (an expired lock "
                                                                          "stays Locked; see lock_expiration_date).")
    extension_days: int = Field(default=0, ge=0, description="Days added by extensions.")


class Loan(Record):
    """A loan file (Encompass ``loan``)."""

    id: Id("loan_application") = Field(description="Loan number, e.g. LN-0001.")
    borrower: Borrower = Field(description="The borrower.")
    subject_property: SubjectProperty = Field(description="The property securing the loan.")
    loan_purpose: LoanPurpose = Field(description="Purchase or refinance.")
    loan_type: LoanType = Field(description="Mortgage type (program family).")
    loan_amount: Money = Field(gt=0, description="Base loan amount (USD).")
    purchase_price_amount: Optional[Money] = Field(default=None, description="Contract price (USD, purchases).")
    property_appraised_value_amount: Money = Field(gt=0, description="Appraised value (USD).")
    note_rate_percent: float = Field(gt=0, lt=25, description="Interest rate (percent a year).")
    loan_term_months: Literal[180, 240, 360] = Field(description="Amortization term in months.")
    monthly_taxes_insurance_amount: Money = Field(ge=0, description="Monthly property tax, insurance and HOA (USD).")
    liabilities: list[Liability] = Field(default_factory=list, description="The borrower's monthly debts.")
    loan_officer_name: PersonName = Field(description="Loan officer.")
    loan_officer_email: Email = Field(description="Loan officer's work email.")
    application_date: Date = Field(description="Day the application was taken.")
    estimated_closing_date: Date = Field(description="Planned closing day.")
    current_milestone: Milestone = Field(description="The milestone the loan is in.")
    milestones: list[MilestoneLog] = Field(description="The milestone template with progress, in order.")
    status: LoanStatus = Field(description="active, withdrawn or denied (adverse action), or completed.")
    adverse_action_reason: Optional[str] = Field(default=None, description="Why it was withdrawn or denied.")
    rate_lock: Optional[RateLock] = Field(default=None, description="The rate lock, if any.")
    notes: list[str] = Field(default_factory=list, description="Loan notes (conversation log), oldest first.")


class Condition(Record):
    """An underwriting condition (Encompass ``conditions/underwriting``)."""

    id: Id("loan_condition") = Field(description="Condition id, e.g. COND-0001.")
    loan_id: Id("loan_application") = Field(description="The loan.")
    title: str = Field(description="What is needed.")
    description: str = Field(default="", description="Details for the borrower or processor.")
    category: ConditionCategory = Field(description="Assets, Credit, Income, Property, Legal or Misc.")
    prior_to: PriorTo = Field(description="The stage it must be cleared before: Approval, Docs or Funding.")
    status: ConditionStatus = Field(description="Added, Requested, Received, Cleared or Waived.")
    added_date: Date = Field(description="Day it was added.")
    status_date: Date = Field(description="Day of the last status change.")
    comments: list[str] = Field(default_factory=list, description="Comments, oldest first.")


class MortgageLoansState(ServiceState):
    """Loans and their underwriting conditions."""

    loans: dict[str, Loan] = Field(default_factory=dict, description="Loans by loan number.")
    conditions: dict[str, Condition] = Field(default_factory=dict, description="Conditions by id.")
