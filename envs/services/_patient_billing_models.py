"""Records and state of the patient billing service (athenahealth patient billing shapes; see ``patient_billing.py``).

``PatientAccount`` (the guarantor account of a clinic patient), ``Charge``
(a patient-responsibility line: a copay, the deductible or coinsurance left
after insurance, a self-pay balance or a no-show fee), ``Statement`` (a
patient statement over open charges), ``Payment`` (a receipt, applied to
charges) and ``PaymentPlan`` (a balance split into monthly installments).
"""

from __future__ import annotations

from typing import Literal, Optional

from pydantic import Field

from compoworld_gym.entities import Date, DateTime, Email, Id, Money, PersonName, Phone
from compoworld_gym.service import Record, ServiceState

ChargeKind = Literal["copay", "deductible", "coinsurance", "self_pay", "no_show_fee"]
StatementStatus = Literal["draft", "sent", "paid", "in_collections", "void"]
PaymentMethod = Literal["cash", "check", "credit_card", "hsa_card"]
PlanStatus = Literal["active", "completed", "cancelled"]
AdjustmentReason = Literal["small_balance", "financial_hardship", "prompt_pay_discount", "billing_error"]


class PatientAccount(Record):
    """A patient's guarantor account."""

    id: Id("patient") = Field(description="The clinic's patient id, e.g. PAT-0001.")
    name: PersonName = Field(description="Patient's full name.")
    email: Optional[Email] = Field(default=None, description="Email statements go to.")
    phone: Optional[Phone] = Field(default=None, description="Contact phone.")
    guarantor_name: PersonName = Field(description="Who is responsible for the bill (a parent for a minor).")
    statement_delivery: Literal["email", "mail"] = Field(description="How statements are delivered.")


class Adjustment(Record):
    """An adjustment (write-off or discount) on a charge."""

    amount: Money = Field(description="Amount taken off (USD).")
    reason: AdjustmentReason = Field(description="small_balance, financial_hardship, prompt_pay_discount or "
                                                 "billing_error.")
    note: str = Field(default="", description="Why.")
    posted_on: Date = Field(description="Date posted.")


class Charge(Record):
    """A patient-responsibility charge."""

    id: str = Field(description="Charge id, e.g. CHG-0001.")
    patient_id: Id("patient") = Field(description="The patient.")
    kind: ChargeKind = Field(description="copay, deductible, coinsurance, self_pay or no_show_fee.")
    description: str = Field(description="What it is for, e.g. Office visit copay.")
    service_date: Date = Field(description="Date of service.")
    appointment_id: Optional[Id("appointment")] = Field(default=None, description="The clinic visit.")
    claim_id: Optional[Id("claim")] = Field(default=None, description="The insurance claim whose patient share "
                                                                      "this is.")
    amount: Money = Field(description="Patient responsibility (USD).")
    paid: Money = Field(default=0.0, description="Payments applied (USD).")
    adjusted: Money = Field(default=0.0, description="Adjustments taken off (USD).")
    balance: Money = Field(description="Still owed: amount - paid - adjusted (USD).")
    adjustments: list[Adjustment] = Field(default_factory=list, description="Adjustments, oldest first.")
    posted_on: Date = Field(description="Date posted to the account.")


class Statement(Record):
    """A patient statement over open charges."""

    id: Id("patient_statement") = Field(description="Statement id, e.g. STM-0001.")
    patient_id: Id("patient") = Field(description="The patient.")
    patient_name: PersonName = Field(description="The patient's name.")
    email: Optional[Email] = Field(default=None, description="The patient's email the statement goes to.")
    status: StatementStatus = Field(description="draft, sent, paid, in_collections or void.")
    statement_date: Date = Field(description="Date the statement was produced.")
    due_date: Date = Field(description="Payment due date.")
    charge_ids: list[str] = Field(description="Charges on the statement.")
    amount_due: Money = Field(description="Total of the charges' balances when produced (USD).")
    balance: Money = Field(description="What is still owed on the statement's charges (USD).")
    message: str = Field(default="", description="Message printed on the statement.")
    delivery: Optional[Literal["email", "mail"]] = Field(default=None, description="How it was sent.")
    sent_on: Optional[Date] = Field(default=None, description="Date sent.")
    collections_agency: Optional[str] = Field(default=None, description="Agency the debt was placed with.")
    collections_on: Optional[Date] = Field(default=None, description="Date placed in collections.")
    void_reason: Optional[str] = Field(default=None, description="Why it was voided.")


class Application(Record):
    """The part of a payment applied to one charge."""

    charge_id: str = Field(description="The charge.")
    amount: Money = Field(description="Amount applied (USD).")


class Payment(Record):
    """A patient payment (a receipt)."""

    id: Id("payment") = Field(description="Payment id, e.g. PAY-0001.")
    patient_id: Id("patient") = Field(description="The patient.")
    amount: Money = Field(description="Amount paid (USD).")
    method: PaymentMethod = Field(description="cash, check, credit_card or hsa_card.")
    check_number: Optional[str] = Field(default=None, description="Check number, for a check.")
    card_last4: Optional[str] = Field(default=None, description="Last four digits of the card.")
    statement_id: Optional[Id("patient_statement")] = Field(default=None, description="The statement paid.")
    payment_plan_id: Optional[str] = Field(default=None, description="The payment plan paid.")
    appointment_id: Optional[Id("appointment")] = Field(default=None, description="The visit paid at check-in.")
    applied: list[Application] = Field(default_factory=list, description="How it was applied to charges.")
    status: Literal["posted", "voided"] = Field(description="posted or voided.")
    posted_at: DateTime = Field(description="When posted (logical clock).")
    memo: str = Field(default="", description="Receipt memo.")


class Installment(Record):
    """One installment of a payment plan."""

    number: int = Field(ge=1, description="1 for the first.")
    due_date: Date = Field(description="Due date.")
    amount: Money = Field(description="Amount due (USD).")
    paid: Money = Field(default=0.0, description="Amount paid (USD).")
    status: Literal["scheduled", "paid"] = Field(description="scheduled or paid.")


class PaymentPlan(Record):
    """A patient balance split into monthly installments."""

    id: str = Field(description="Plan id, e.g. PPL-0001.")
    patient_id: Id("patient") = Field(description="The patient.")
    status: PlanStatus = Field(description="active, completed or cancelled.")
    total: Money = Field(description="The balance the plan covers (USD).")
    remaining: Money = Field(description="What is still to pay on the plan (USD).")
    charge_ids: list[str] = Field(description="Charges the plan covers.")
    installments: list[Installment] = Field(description="Monthly installments; they add up to the total.")
    start_date: Date = Field(description="First installment's due date.")
    card_last4: Optional[str] = Field(default=None, description="Card on file for automatic payments.")
    created_on: Date = Field(description="Date set up.")
    cancel_reason: Optional[str] = Field(default=None, description="Why it was cancelled.")


class PatientBillingState(ServiceState):
    """Accounts, charges, statements, payments and payment plans."""

    accounts: dict[str, PatientAccount] = Field(default_factory=dict, description="Accounts by patient id.")
    charges: dict[str, Charge] = Field(default_factory=dict, description="Charges by id.")
    statements: dict[str, Statement] = Field(default_factory=dict, description="Statements by id.")
    payments: dict[str, Payment] = Field(default_factory=dict, description="Payments by id.")
    plans: dict[str, PaymentPlan] = Field(default_factory=dict, description="Payment plans by id.")
