"""Records of the quality_management service (ETQ Reliance / Qualio style).

A nonconformance report (NCR) keeps the fields of ETQ's Nonconformance
form, snake_cased: the part (``sku``) and ``lot_number``, the manufacturing
order it was found on, the ``quantity_affected``, the ``source`` (incoming,
in-process or final inspection, customer complaint, audit), ``severity``,
the owner investigating it, the material review board's ``disposition``
and the estimated ``cost`` of the nonconformance. A CAPA keeps the
corrective/preventive action form: problem statement, root cause, action
plan, owner, due date and the effectiveness checks that verify it worked.
"""

from __future__ import annotations

from typing import Literal, Optional

from pydantic import Field

from compoworld_gym.entities import CompanyName, Date, Email, Id, Money, PersonName, Sku
from compoworld_gym.service import Record, ServiceState

NcrStatus = Literal["open", "investigation", "dispositioned", "closed", "void"]
NcrSource = Literal["incoming_inspection", "in_process", "final_inspection", "customer_complaint", "audit"]
Severity = Literal["minor", "major", "critical"]
Disposition = Literal["use_as_is", "rework", "scrap", "return_to_vendor"]
CapaStatus = Literal["open", "in_progress", "pending_verification", "closed", "cancelled"]
CapaType = Literal["corrective", "preventive"]
CheckResult = Literal["effective", "not_effective"]
#: NCR statuses still being worked.
LIVE_NCR = ("open", "investigation", "dispositioned")


class QualityUser(Record):
    """A user of the quality system: an NCR or CAPA owner, or a material review board member."""

    id: Id("user") = Field(description="User id, e.g. USR-0001.")
    name: PersonName = Field(description="Full name.")
    email: Email = Field(description="Work email.")
    title: str = Field(description="Job title.")
    mrb_member: bool = Field(description="Sits on the material review board (approves major/critical dispositions).")
    active: bool = Field(default=True, description="Inactive users own nothing new.")


class Part(Record):
    """A controlled part of the quality system's part list (the MRP's products and purchased materials)."""

    sku: Sku = Field(description="Part number (the MRP SKU).")
    name: str = Field(description="Part name.")
    kind: Literal["product", "material"] = Field(description="product (made here) or material (bought in).")
    unit_of_measure: str = Field(description="pcs, m, kg ...")
    unit_cost: Money = Field(ge=0, description="Standard cost of one unit (USD).")
    supplier: Optional[CompanyName] = Field(default=None, description="Approved supplier of a purchased material.")


class Ncr(Record):
    """A nonconformance report: what was found wrong, on which part and lot, and what is done with it."""

    id: Id("nonconformance") = Field(description="NCR number, e.g. NCR-0001.")
    title: str = Field(description="Short statement of the nonconformance.")
    description: str = Field(default="", description="What was observed against which requirement.")
    source: NcrSource = Field(description="Where it was found.")
    sku: Sku = Field(description="Part number of the nonconforming item.")
    part_name: str = Field(description="Part name.")
    lot_number: str = Field(description="Lot or batch of the nonconforming units.")
    manufacturing_order_id: Optional[Id("manufacturing_order")] = Field(
        default=None, description="Manufacturing order it was found on (MRP MO id).")
    quantity_affected: float = Field(gt=0, description="Units (or unit-of-measure quantity) affected.")
    supplier: Optional[CompanyName] = Field(default=None, description="Supplier of the material, when bought in.")
    severity: Severity = Field(description="minor, major or critical.")
    status: NcrStatus = Field(description="open -> investigation -> dispositioned -> closed, or void.")
    owner_name: Optional[PersonName] = Field(default=None, description="Quality owner investigating it.")
    owner_email: Optional[Email] = Field(default=None, description="The owner's email.")
    reported_by: Email = Field(description="Who raised it.")
    reported_on: Date = Field(description="Day raised.")
    cost: Money = Field(ge=0, description="Estimated cost of the nonconformance (USD; default: value at risk).")
    disposition: Optional[Disposition] = Field(default=None, description="use_as_is, rework, scrap or "
                                                                           "return_to_vendor.")
    disposition_notes: str = Field(default="", description="The material review board's reasoning.")
    disposition_approved_by: Optional[Email] = Field(default=None, description="Who approved the disposition.")
    dispositioned_on: Optional[Date] = Field(default=None, description="Day dispositioned.")
    closed_on: Optional[Date] = Field(default=None, description="Day closed.")
    void_reason: Optional[str] = Field(default=None, description="Why it was voided.")
    capa_ids: list[Id("capa")] = Field(default_factory=list, description="CAPAs addressing it.")
    comments: list[str] = Field(default_factory=list, description="Comments, oldest first.")


class EffectivenessCheck(Record):
    """One effectiveness check of a CAPA: did the actions stop the problem recurring?"""

    result: CheckResult = Field(description="effective or not_effective.")
    checked_by: Email = Field(description="Who verified (not the CAPA owner).")
    checked_on: Date = Field(description="Day checked.")
    notes: str = Field(description="Evidence reviewed.")


class Capa(Record):
    """A corrective or preventive action with its owner, plan, due date and effectiveness checks."""

    id: Id("capa") = Field(description="CAPA number, e.g. CAPA-0001.")
    title: str = Field(description="Short title.")
    type: CapaType = Field(description="corrective (fix a found problem) or preventive.")
    problem_statement: str = Field(description="The problem to be eliminated.")
    owner_name: PersonName = Field(description="Owner responsible for the actions.")
    owner_email: Email = Field(description="The owner's email.")
    ncr_ids: list[Id("nonconformance")] = Field(default_factory=list, description="NCRs it addresses.")
    due_date: Date = Field(description="Day the actions are due.")
    root_cause: str = Field(default="", description="Root cause found.")
    action_plan: str = Field(default="", description="Actions to remove the cause.")
    status: CapaStatus = Field(description="open -> in_progress -> pending_verification -> closed, or cancelled.")
    created_on: Date = Field(description="Day opened.")
    actions_completed_on: Optional[Date] = Field(default=None, description="Day the actions were implemented.")
    effectiveness_checks: list[EffectivenessCheck] = Field(default_factory=list, description="Checks, oldest first.")
    closed_on: Optional[Date] = Field(default=None, description="Day closed.")
    extensions: list[str] = Field(default_factory=list, description="Due-date extensions with their reasons.")


class QualityManagementState(ServiceState):
    """Quality users, the part list, NCRs and CAPAs."""

    users: dict[str, QualityUser] = Field(default_factory=dict, description="Users by id.")
    parts: dict[str, Part] = Field(default_factory=dict, description="Parts by SKU.")
    ncrs: dict[str, Ncr] = Field(default_factory=dict, description="NCRs by id.")
    capas: dict[str, Capa] = Field(default_factory=dict, description="CAPAs by id.")
