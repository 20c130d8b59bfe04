"""The read half of the patient billing service: lookups shared by its tools and the read tools
(patients and balances, charges, statements, payments, payment plans).

:class:`BillingReads` does not register; :class:`~compoworld_gym.envs.services.patient_billing.PatientBilling`
adds the tools that write.
"""

from __future__ import annotations

from typing import Optional

from pydantic import Field

from compoworld_gym.entities import Email, Id
from compoworld_gym.envs.services._blocks import eq, select
from compoworld_gym.envs.services._commerce import money
from compoworld_gym.envs.services._patient_billing_models import (
    Charge, ChargeKind, PatientAccount, Payment, PaymentPlan, PlanStatus, Statement, StatementStatus,
)
from compoworld_gym.envs.services._patient_billing_rules import collected, planned
from compoworld_gym.service import Service, tool

Limit = Field(default=50, ge=1, le=200)


class BillingReads(Service, register=False):
    """Lookups and read tools of patient billing."""

    # --------------------------------------------------------------- helpers
    def _account(self, patient_id: str) -> PatientAccount:
        return self.lookup(self.state.accounts, patient_id, "patient")

    def _charge(self, charge_id: str) -> Charge:
        return self.lookup(self.state.charges, charge_id, "charge")

    def _statement(self, statement_id: str) -> Statement:
        return self.lookup(self.state.statements, statement_id, "statement")

    def _payment(self, payment_id: str) -> Payment:
        return self.lookup(self.state.payments, payment_id, "payment")

    def _plan(self, plan_id: str) -> PaymentPlan:
        return self.lookup(self.state.plans, plan_id, "payment plan")

    def _balance(self, patient_id: str) -> dict:
        rows = [c for c in self.state.charges.values() if c.patient_id == patient_id and c.balance > 0]
        coll, plan = collected(self.state), planned(self.state)
        aging = {"current": 0.0, "days_31_60": 0.0, "days_61_90": 0.0, "days_over_90": 0.0}
        for c in rows:
            age = (self.today - c.service_date).days
            key = "current" if age <= 30 else "days_31_60" if age <= 60 else "days_61_90" if age <= 90 \
                else "days_over_90"
            aging[key] = money(aging[key] + c.balance)
        return {"patient_id": patient_id, "balance": money(sum(c.balance for c in rows)),
                "collections_balance": money(sum(c.balance for c in rows if c.id in coll)),
                "payment_plan_balance": money(sum(c.balance for c in rows if c.id in plan)),
                "open_charges": len(rows), "aging": aging}

    # ------------------------------------------------------------------ reads
    @tool(read_only=True, returns=list[PatientAccount])
    def search_patients(self, name: Optional[str] = Field(default=None, max_length=120),
                        email: Optional[Email] = None) -> list[dict]:
        """Find patient accounts by name text or email, each with its balance.

        Args:
            name: text in the patient's name (case-insensitive).
            email: the patient's email (case-insensitive).
        """
        keep = (lambda a: name.lower() in a.name.lower()) if name else None
        mail = (lambda a: (a.email or "").lower() == email.lower()) if email else None
        return [{**a.model_dump(), "balance": self._balance(a.id)["balance"]}
                for a in select(self.state.accounts.values(), keep, mail)]

    @tool(read_only=True)
    def get_patient_balance(self, patient_id: Id("patient")) -> dict:
        """A patient's balance: total owed, the part in collections or on a payment plan, and its aging.

        Args:
            patient_id: the clinic's patient id, e.g. PAT-0011.
        """
        a = self._account(patient_id)
        return {**self._balance(a.id), "name": a.name, "guarantor_name": a.guarantor_name}

    @tool(read_only=True, returns=list[Charge])
    def list_charges(self, patient_id: Optional[Id("patient")] = None, open_only: bool = False,
                     kind: Optional[ChargeKind] = None, appointment_id: Optional[Id("appointment")] = None,
                     claim_id: Optional[Id("claim")] = None, limit: int = Limit) -> list[dict]:
        """List patient charges, oldest service first.

        Args:
            patient_id: the patient.
            open_only: only charges with a balance.
            kind: copay, deductible, coinsurance, self_pay or no_show_fee.
            appointment_id: the clinic visit, e.g. APT-0006.
            claim_id: the insurance claim, e.g. CLM-0005.
            limit: maximum number of charges (1-200).
        """
        rows = sorted(select(self.state.charges.values(), eq("patient_id", patient_id), eq("kind", kind),
                             eq("appointment_id", appointment_id), eq("claim_id", claim_id),
                             (lambda c: c.balance > 0) if open_only else None), key=lambda c: (c.service_date, c.id))
        return [c.model_dump() for c in rows[:limit]]

    @tool(read_only=True, returns=list[Statement])
    def list_statements(self, patient_id: Optional[Id("patient")] = None, status: Optional[StatementStatus] = None,
                        email: Optional[Email] = None, limit: int = Limit) -> list[dict]:
        """List patient statements, newest first.

        Args:
            patient_id: the patient.
            status: draft, sent, paid, in_collections or void.
            email: the patient's email (case-insensitive).
            limit: maximum number of statements (1-200).
        """
        mail = (lambda s: (s.email or "").lower() == email.lower()) if email else None
        rows = sorted(select(self.state.statements.values(), eq("patient_id", patient_id), eq("status", status), mail),
                      key=lambda s: (s.statement_date, s.id), reverse=True)
        return [s.model_dump() for s in rows[:limit]]

    @tool(read_only=True, returns=Statement)
    def get_statement(self, statement_id: Id("patient_statement")) -> dict:
        """Get one statement with its charges.

        Args:
            statement_id: the statement id, e.g. STM-0002.
        """
        s = self._statement(statement_id)
        return {**s.model_dump(), "charges": [self.state.charges[c].model_dump() for c in s.charge_ids]}

    @tool(read_only=True, returns=list[Payment])
    def list_payments(self, patient_id: Optional[Id("patient")] = None,
                      statement_id: Optional[Id("patient_statement")] = None,
                      status: Optional[str] = Field(default=None, pattern="^(posted|voided)$"),
                      limit: int = Limit) -> list[dict]:
        """List payments (receipts), newest first.

        Args:
            patient_id: the patient.
            statement_id: the statement paid.
            status: posted or voided.
            limit: maximum number of payments (1-200).
        """
        rows = sorted(select(self.state.payments.values(), eq("patient_id", patient_id),
                             eq("statement_id", statement_id), eq("status", status)),
                      key=lambda p: (p.posted_at, p.id), reverse=True)
        return [p.model_dump() for p in rows[:limit]]

    @tool(read_only=True, returns=Payment)
    def get_payment(self, payment_id: Id("payment")) -> dict:
        """Get one payment (the receipt) with how it was applied.

        Args:
            payment_id: the payment id, e.g. PAY-0001.
        """
        return self._payment(payment_id).model_dump()

    @tool(read_only=True, returns=list[PaymentPlan])
    def list_payment_plans(self, patient_id: Optional[Id("patient")] = None,
                           status: Optional[PlanStatus] = None) -> list[dict]:
        """List payment plans by patient or status.

        Args:
            patient_id: the patient.
            status: active, completed or cancelled.
        """
        return [p.model_dump() for p in select(self.state.plans.values(), eq("patient_id", patient_id),
                                               eq("status", status))]

    @tool(read_only=True, returns=PaymentPlan)
    def get_payment_plan(self, payment_plan_id: str = Field(min_length=3, max_length=20)) -> dict:
        """Get one payment plan with its installments.

        Args:
            payment_plan_id: the plan id, e.g. PPL-0001.
        """
        return self._plan(payment_plan_id).model_dump()
