"""Patient billing: patient statements, balances, payments and payment plans after athenahealth's patient billing.

No patient billing server is in ``compoworld_gym/data/mcp_servers.jsonl``
(``spec_source = None``); the interface follows athenahealth's patient
financial endpoints: the patient's balance (``GET /patients/{patientid}``
with ``showbalancedetails``: balance, collections balance, aging), patient
charges (the patient responsibility left after insurance, copays, self-pay
and no-show fees), ``POST /patients/{patientid}/recordpayment``
(``paymentmethod`` CASH / CHECK / CREDITCARD, ``amount``, ``checknumber``,
``appointmentid``) and its receipts (``/patients/{patientid}/receipts``),
patient statements (produced, sent by mail or e-statement, sent to a
collections agency) and payment plans (``/patients/{patientid}/paymentplans``:
installment amount, number of installments, start date, card on file), and
adjustments (small-balance write-off, hardship, prompt-pay discount). The
rules are in ``_patient_billing_rules``: a payment cannot exceed the balance
it pays, a payment plan's installments add up to the balance it covers, a
statement in collections cannot be edited, only statements 60 days past due
go to collections, only a same-day payment can be voided. Patients are the
clinic registry's (same names and emails as ``patient_scheduling``); charges
name the visit (``appointment_id``) and the claim (``claim_id``) they come
from. Left out: card tokenization and the payment processor, insurance-side
posting (``insurance_claims``), refunds and guarantor accounts shared by a
family.
"""

from __future__ import annotations

import datetime as dt
import random
from typing import Optional

from faker import Faker
from pydantic import Field

from compoworld_gym.entities import Date, Id, Money
from compoworld_gym.envs.services import _patient_billing_rules as rules
from compoworld_gym.envs.services._commerce import MONEY_MAX, money
from compoworld_gym.envs.services._patient_billing_models import (
    Adjustment, AdjustmentReason, Charge, ChargeKind, Installment, PatientBillingState, Payment, PaymentMethod,
    PaymentPlan, Statement,
)
from compoworld_gym.envs.services._patient_billing_reads import BillingReads
from compoworld_gym.envs.services._patient_billing_seed import build_state
from compoworld_gym.envs.services.insurance_claims import InsuranceClaims
from compoworld_gym.envs.services.insurance_eligibility import InsuranceEligibility
from compoworld_gym.envs.services.patient_scheduling import PatientScheduling
from compoworld_gym.errors import Conflict, InvalidArgument, NotFound, Unprocessable
from compoworld_gym.service import tool

Amount = Field(ge=0.01, le=MONEY_MAX)
Last4 = Field(default=None, pattern=r"^\d{4}$")


class PatientBilling(BillingReads):
    """athenahealth-style patient billing: balances, charges, statements, payments, payment plans."""

    name = "patient_billing"
    description = ("Patient billing (athenahealth): patient balances and charges after insurance, statements and "
                   "collections, payments at check-in or on a statement, adjustments and payment plans.")
    domain = "healthcare"
    spec_source = None
    State = PatientBillingState

    @tool(read_only=False, returns=Charge)
    def post_patient_charge(self, patient_id: Id("patient"), kind: ChargeKind, amount: Money = Amount,
                            service_date: Optional[Date] = None,
                            description: Optional[str] = Field(default=None, max_length=200),
                            appointment_id: Optional[Id("appointment")] = None,
                            claim_id: Optional[Id("claim")] = None) -> dict:
        """Post a patient-responsibility charge: a visit copay, the patient's share of a claim, a self-pay
        balance or a no-show fee.

        Args:
            patient_id: the patient.
            kind: copay, deductible, coinsurance, self_pay or no_show_fee.
            amount: what the patient owes (USD).
            service_date: date of service (default today; not in the future).
            description: what it is for (default from the kind).
            appointment_id: the clinic visit (a copay or no-show fee names it).
            claim_id: the insurance claim (a deductible or coinsurance share names it).
        """
        self._account(patient_id)
        day = service_date or self.today
        if day > self.today:
            raise Unprocessable(f"service date {day} is in the future; post charges once the service took place.")
        if kind in ("copay", "no_show_fee") and appointment_id is None:
            raise InvalidArgument(f"a {kind} names the visit (appointment_id).")
        if kind in ("deductible", "coinsurance") and claim_id is None:
            raise InvalidArgument(f"a {kind} share names the insurance claim (claim_id).")
        for c in self.state.charges.values():
            if c.kind == kind and ((appointment_id and c.appointment_id == appointment_id)
                                   or (claim_id and c.claim_id == claim_id)):
                raise Conflict(f"charge {c.id} already bills the {kind.replace('_', ' ')} of "
                               f"{appointment_id or claim_id}.")
        text = description or {"copay": "Office visit copay", "deductible": "Deductible after insurance",
                               "coinsurance": "Coinsurance after insurance", "self_pay": "Self-pay balance",
                               "no_show_fee": "Missed appointment fee"}[kind]
        c = Charge(id=self.new_id("CHG"), patient_id=patient_id, kind=kind, description=text.strip(),
                   service_date=day, appointment_id=appointment_id, claim_id=claim_id, amount=money(amount),
                   balance=money(amount), posted_on=self.today)
        self.state.charges[c.id] = c
        return c.model_dump()

    @tool(read_only=False, returns=Charge)
    def post_adjustment(self, charge_id: str = Field(min_length=3, max_length=20), amount: Money = Amount,
                        reason: AdjustmentReason = "billing_error",
                        note: str = Field(default="", max_length=300)) -> dict:
        """Take an amount off a charge (a write-off or discount); never more than its balance.

        Args:
            charge_id: the charge, e.g. CHG-0003.
            amount: amount to take off (USD).
            reason: small_balance (at most $10), financial_hardship, prompt_pay_discount or billing_error.
            note: why.
        """
        c = self._charge(charge_id)
        if c.id in rules.collected(self.state):
            raise Conflict(f"charge {c.id} is on a statement in collections; the agency holds it.")
        if money(amount) > c.balance:
            raise Unprocessable(f"charge {c.id} has ${c.balance:,.2f} open; an adjustment cannot exceed it.")
        if reason == "small_balance" and amount > 10:
            raise Unprocessable("a small-balance write-off is at most $10.00.")
        c.adjustments.append(Adjustment(amount=money(amount), reason=reason, note=note.strip(), posted_on=self.today))
        c.adjusted = money(c.adjusted + amount)
        c.balance = money(c.amount - c.paid - c.adjusted)
        rules.refresh(self.state)
        return c.model_dump()

    @tool(read_only=False, returns=Payment)
    def record_payment(self, patient_id: Id("patient"), amount: Money = Amount, method: PaymentMethod = "credit_card",
                       statement_id: Optional[Id("patient_statement")] = None,
                       payment_plan_id: Optional[str] = Field(default=None, max_length=20),
                       appointment_id: Optional[Id("appointment")] = None,
                       check_number: Optional[str] = Field(default=None, pattern=r"^\d{3,10}$"),
                       card_last4: Optional[str] = Last4, memo: str = Field(default="", max_length=200)) -> dict:
        """Record a patient payment on a statement, a payment plan, a visit (at check-in) or the account;
        it never exceeds that balance and pays the oldest charges first.

        Args:
            patient_id: the patient.
            amount: amount paid (USD).
            method: cash, check, credit_card or hsa_card.
            statement_id: the sent statement paid (or one in collections).
            payment_plan_id: the active payment plan paid (its next installments).
            appointment_id: the visit whose charges (e.g. the copay) are paid at check-in.
            check_number: the check number, for a check.
            card_last4: last four digits of the card, for a card.
            memo: receipt memo.
        """
        self._account(patient_id)
        rules.check_method(method, check_number, card_last4)
        if sum(x is not None for x in (statement_id, payment_plan_id, appointment_id)) > 1:
            raise InvalidArgument("pay one of statement_id, payment_plan_id or appointment_id (or none: the account).")
        plan = None
        if statement_id is not None:
            s = self._statement(statement_id)
            if s.patient_id != patient_id:
                raise InvalidArgument(f"statement {s.id} is patient {s.patient_id}'s, not {patient_id}'s.")
            if s.status not in ("sent", "in_collections"):
                raise Conflict(f"statement {s.id} is {s.status}; payments go on a sent statement.")
            charges, what = rules.open_charges(self.state, patient_id, s.charge_ids), f"statement {s.id}"
        elif payment_plan_id is not None:
            plan = self._plan(payment_plan_id)
            if plan.patient_id != patient_id:
                raise InvalidArgument(f"payment plan {plan.id} is patient {plan.patient_id}'s, not {patient_id}'s.")
            if plan.status != "active":
                raise Conflict(f"payment plan {plan.id} is {plan.status}; payments go on an active plan.")
            charges, what = rules.open_charges(self.state, patient_id, plan.charge_ids), f"payment plan {plan.id}"
        elif appointment_id is not None:
            ids = [c.id for c in self.state.charges.values() if c.appointment_id == appointment_id]
            charges, what = rules.open_charges(self.state, patient_id, ids), f"visit {appointment_id}"
        else:
            charges, what = rules.open_charges(self.state, patient_id), f"patient {patient_id}'s account"
        owed = money(sum(c.balance for c in charges))
        if owed <= 0:
            raise Unprocessable(f"{what} has nothing owed; post the charge first (post_patient_charge).")
        if money(amount) > owed:
            raise Unprocessable(f"{what} has ${owed:,.2f} owed; a payment of ${amount:,.2f} would exceed the balance.")
        p = Payment(id=self.new_id("PAY"), patient_id=patient_id, amount=money(amount), method=method,
                    check_number=check_number, card_last4=card_last4, statement_id=statement_id,
                    payment_plan_id=payment_plan_id, appointment_id=appointment_id,
                    applied=rules.apply(charges, amount), status="posted", posted_at=self.now(), memo=memo.strip())
        if plan is not None:
            rules.pay_installments(plan.installments, amount)
        self.state.payments[p.id] = p
        rules.refresh(self.state)
        return p.model_dump()

    @tool(read_only=False, destructive=True, returns=Payment)
    def void_payment(self, payment_id: Id("payment"), reason: str = Field(min_length=3, max_length=300)) -> dict:
        """Void a payment posted today (its amounts go back on the charges); older payments are refunded instead.

        Args:
            payment_id: a posted payment.
            reason: why it is voided.
        """
        p = self._payment(payment_id)
        if p.status != "posted":
            raise Conflict(f"payment {p.id} is already voided.")
        if p.posted_at.date() != self.today:
            raise Conflict(f"payment {p.id} was posted {p.posted_at.date()}; only a same-day payment can be voided "
                           "(refund it through the card processor).")
        rules.unapply(self.state, p.applied)
        if p.payment_plan_id:
            rules.unpay_installments(self.state.plans[p.payment_plan_id].installments, p.amount)
        p.status, p.memo = "voided", f"{p.memo} Voided: {reason.strip()}".strip()
        rules.refresh(self.state)
        return p.model_dump()

    @tool(read_only=False, returns=Statement)
    def create_statement(self, patient_id: Id("patient"), message: str = Field(default="", max_length=500),
                         due_date: Optional[Date] = None) -> dict:
        """Produce a draft statement of the patient's open charges not yet on an open statement or a plan.

        Args:
            patient_id: the patient.
            message: message printed on the statement.
            due_date: payment due date (default 30 days from today).
        """
        a = self._account(patient_id)
        taken = rules.planned(self.state)
        rows = [c for c in rules.open_charges(self.state, patient_id) if c.id not in taken
                and rules.holder(self.state, c.id) is None]
        if not rows:
            raise Unprocessable(f"patient {patient_id} has no open charges left to bill on a statement.")
        due = due_date or self.today + dt.timedelta(days=rules.TERMS_DAYS)
        if due <= self.today:
            raise Unprocessable("a statement's due date must be after today.")
        total = money(sum(c.balance for c in rows))
        s = Statement(id=self.new_id("STM"), patient_id=a.id, patient_name=a.name, email=a.email, status="draft",
                      statement_date=self.today, due_date=due, charge_ids=[c.id for c in rows], amount_due=total,
                      balance=total, message=message.strip())
        self.state.statements[s.id] = s
        return s.model_dump()

    @tool(read_only=False, returns=Statement)
    def update_statement(self, statement_id: Id("patient_statement"),
                         message: Optional[str] = Field(default=None, max_length=500),
                         due_date: Optional[Date] = None) -> dict:
        """Change a draft or sent statement's message or due date (a statement in collections cannot be edited).

        Args:
            statement_id: the statement.
            message: new message printed on the statement.
            due_date: new due date (after the statement date).
        """
        s = self._statement(statement_id)
        if s.status == "in_collections":
            raise Conflict(f"statement {s.id} is in collections with {s.collections_agency}; it cannot be edited.")
        rules.STATEMENT.check(s.id, s.status, "editing")
        if message is None and due_date is None:
            raise InvalidArgument("give a message or a due_date to change.")
        if due_date is not None and due_date <= s.statement_date:
            raise Unprocessable(f"the due date must be after the statement date {s.statement_date}.")
        s.message = message.strip() if message is not None else s.message
        s.due_date = due_date or s.due_date
        return s.model_dump()

    @tool(read_only=False, returns=Statement)
    def send_statement(self, statement_id: Id("patient_statement"),
                       delivery: Optional[str] = Field(default=None, pattern="^(email|mail)$")) -> dict:
        """Send a draft statement by e-statement or mail (default: the account's preference).

        Args:
            statement_id: a draft statement.
            delivery: email or mail.
        """
        s = self._statement(statement_id)
        rules.STATEMENT.check(s.id, s.status, "sending")
        how = delivery or self._account(s.patient_id).statement_delivery
        if how == "email" and not s.email:
            raise Unprocessable(f"patient {s.patient_id} has no email on file; send statement {s.id} by mail.")
        s.status, s.delivery, s.sent_on = "sent", how, self.today
        rules.refresh(self.state)
        return s.model_dump()

    @tool(read_only=False, destructive=True, returns=Statement)
    def void_statement(self, statement_id: Id("patient_statement"),
                       reason: str = Field(min_length=3, max_length=300)) -> dict:
        """Void a draft or sent statement (its charges can go on a new one); not one in collections.

        Args:
            statement_id: the statement.
            reason: why it is voided.
        """
        s = self._statement(statement_id)
        if s.status == "in_collections":
            raise Conflict(f"statement {s.id} is in collections with {s.collections_agency}; it cannot be voided.")
        rules.STATEMENT.check(s.id, s.status, "voiding")
        s.status, s.void_reason = "void", reason.strip()
        return s.model_dump()

    @tool(read_only=False, destructive=True, returns=Statement)
    def send_statement_to_collections(self, statement_id: Id("patient_statement"),
                                      agency: str = Field(min_length=3, max_length=80)) -> dict:
        """Place a sent statement at least 60 days past due with a collections agency.

        Args:
            statement_id: a sent statement.
            agency: Transworld Systems, Credit Control Services or Medical Revenue Recovery.
        """
        s = self._statement(statement_id)
        rules.STATEMENT.check(s.id, s.status, "placing in collections")
        name = next((a for a in rules.AGENCIES if a.lower() == agency.strip().lower()), None)
        if name is None:
            raise NotFound(f"{agency!r} is not an agency the practice uses: {', '.join(rules.AGENCIES)}.")
        late = (self.today - s.due_date).days
        if late < rules.COLLECTIONS_DAYS:
            raise Unprocessable(f"statement {s.id} is {max(late, 0)} days past due; collections need "
                                f"{rules.COLLECTIONS_DAYS}.")
        s.status, s.collections_agency, s.collections_on = "in_collections", name, self.today
        return s.model_dump()

    @tool(read_only=False, returns=PaymentPlan)
    def create_payment_plan(self, patient_id: Id("patient"),
                            number_of_installments: Optional[int] = Field(default=None, ge=1, le=60),
                            installment_amount: Optional[Money] = Field(default=None, ge=0.01, le=MONEY_MAX),
                            start_date: Optional[Date] = None, card_last4: Optional[str] = Last4) -> dict:
        """Split the patient's open balance (outside collections) into monthly installments that add up to it.

        Give exactly one of number_of_installments or installment_amount.

        Args:
            patient_id: the patient (one active plan at a time).
            number_of_installments: how many monthly installments (2-24).
            installment_amount: the monthly amount (at least $25); the last installment takes the rest.
            start_date: first installment's due date (today to 30 days ahead; default today).
            card_last4: card on file for automatic payments.
        """
        self._account(patient_id)
        live = [p.id for p in self.state.plans.values() if p.patient_id == patient_id and p.status == "active"]
        if live:
            raise Conflict(f"patient {patient_id} already has active payment plan {live[0]}.")
        skip = rules.collected(self.state)
        rows = [c for c in rules.open_charges(self.state, patient_id) if c.id not in skip]
        total = money(sum(c.balance for c in rows))
        if total <= 0:
            raise Unprocessable(f"patient {patient_id} has no open balance outside collections to put on a plan.")
        start = start_date or self.today
        if not self.today <= start <= self.today + dt.timedelta(days=30):
            raise Unprocessable("the first installment is due between today and 30 days from today.")
        amounts = rules.split(total, number_of_installments, installment_amount)
        plan = PaymentPlan(id=self.new_id("PPL"), patient_id=patient_id, status="active", total=total,
                           remaining=total, charge_ids=[c.id for c in rows], start_date=start, card_last4=card_last4,
                           created_on=self.today,
                           installments=[Installment(number=i + 1, due_date=rules.add_months(start, i), amount=a,
                                                     status="scheduled") for i, a in enumerate(amounts)])
        self.state.plans[plan.id] = plan
        return plan.model_dump()

    @tool(read_only=False, destructive=True, returns=PaymentPlan)
    def cancel_payment_plan(self, payment_plan_id: str = Field(min_length=3, max_length=20),
                            reason: str = Field(min_length=3, max_length=300)) -> dict:
        """Cancel an active payment plan; what is left goes back on the account balance.

        Args:
            payment_plan_id: the active plan.
            reason: why it is cancelled.
        """
        p = self._plan(payment_plan_id)
        if p.status != "active":
            raise Conflict(f"payment plan {p.id} is {p.status}; only an active plan can be cancelled.")
        p.status, p.cancel_reason = "cancelled", reason.strip()
        return p.model_dump()

    # ------------------------------------------------------------------ seeds
    @classmethod
    def seed_state(cls, seed: int, today: dt.date) -> PatientBillingState:
        """Seeded state on the claims, eligibility and scheduling records of the same seed."""
        rng = random.Random(f"{cls.name}:{seed}")
        return build_state(rng, today, InsuranceClaims.seed_state(seed, today),
                           InsuranceEligibility.seed_state(seed, today), PatientScheduling.seed_state(seed, today))

    @classmethod
    def build_seed_state(cls, fake: Faker, rng: random.Random, today: dt.date) -> PatientBillingState:
        return build_state(rng, today, InsuranceClaims.build_seed_state(fake, rng, today),
                           InsuranceEligibility.build_seed_state(fake, rng, today),
                           PatientScheduling.build_seed_state(fake, rng, today))


__all__ = ["PatientBilling"]
