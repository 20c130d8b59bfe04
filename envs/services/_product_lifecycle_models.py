"""Records of the product lifecycle service (Arena PLM REST API style).

Arena's ``Item`` (``number``, ``name``, ``revisionNumber``,
``lifecyclePhase``, ``category``, ``uom``, ``bom`` lines with ``lineNumber``,
``item.number``, ``quantity``, ``refDes``, ``files``, ``sourcing`` / AML with
supplier and supplier part number) and ``Change`` (``number``, ``title``,
``description``, ``category``, ``lifecycleStatus``, ``affectedItems`` with
``oldRevision``/``newRevision``/``newLifecyclePhase``, ``approvers`` routing
with decisions, ``effectivity`` / implementation), snake_cased.
"""

from __future__ import annotations

from typing import Literal, Optional

from pydantic import Field

from compoworld_gym.entities import CompanyName, DateTime, Email, Id, PersonName, Sku
from compoworld_gym.service import Record, ServiceState

Phase = Literal["In Design", "Prototype", "Production", "Obsolete"]
Category = Literal["Finished Good", "Purchased Part", "Packaging"]
ChangeStatus = Literal["OPEN", "SUBMITTED", "APPROVED", "REJECTED", "IMPLEMENTED", "CANCELED"]
Decision = Literal["PENDING", "APPROVED", "REJECTED"]
#: Change statuses still under way (an item sits on one such change at a time).
LIVE_CHANGE = ("OPEN", "SUBMITTED", "APPROVED")


class BomLine(Record):
    """One BOM line (Arena ``bom`` line)."""

    line_number: int = Field(ge=1, description="Line number.")
    item_id: Id("plm_item") = Field(description="The component item.")
    item_number: Sku = Field(description="The component's item number (SKU).")
    quantity: float = Field(gt=0, description="Quantity per parent unit.")
    ref_des: str = Field(default="", description="Reference designators / notes.")


class FileRef(Record):
    """A file on an item (Arena ``files``)."""

    name: str = Field(description="File name, e.g. a drawing.")
    edition: int = Field(ge=1, description="File edition.")


class Sourcing(Record):
    """An approved-manufacturer/supplier list entry (Arena ``sourcing``)."""

    supplier_name: CompanyName = Field(description="The supplier (a vendor of ours).")
    supplier_part_number: str = Field(description="The supplier's part number.")
    preferred: bool = Field(default=False, description="The preferred source.")
    status: Literal["Approved", "Disqualified"] = Field(default="Approved", description="Source status.")


class PlmItem(Record):
    """An item (Arena ``Item``): a part or product under revision control."""

    id: Id("plm_item") = Field(description="Item id, e.g. ITM-0001.")
    number: Sku = Field(description="Item number: the SKU the MRP and QMS use.")
    name: str = Field(description="Item name.")
    description: str = Field(default="", description="Description.")
    category: Category = Field(description="Finished Good, Purchased Part or Packaging.")
    revision: str = Field(description="Released revision letter (A, B, ...); '-' before the first release.")
    lifecycle_phase: Phase = Field(description="In Design, Prototype, Production or Obsolete.")
    uom: str = Field(description="Unit of measure.")
    bom: list[BomLine] = Field(default_factory=list, description="Bill of materials.")
    files: list[FileRef] = Field(default_factory=list, description="Files.")
    sourcing: list[Sourcing] = Field(default_factory=list, description="Approved suppliers (AML).")
    owner_email: Email = Field(description="Owning engineer.")
    modified_at: DateTime = Field(description="Last change.")


class AffectedItem(Record):
    """An item a change revises (Arena ``affectedItems``)."""

    item_id: Id("plm_item") = Field(description="The item.")
    item_number: Sku = Field(description="Its number.")
    old_revision: str = Field(description="Revision before the change.")
    new_revision: str = Field(description="Revision the change releases.")
    new_lifecycle_phase: Optional[Phase] = Field(default=None, description="Phase set on implementation.")


class Approval(Record):
    """One approver's decision on a change."""

    email: Email = Field(description="Approver's work email.")
    name: PersonName = Field(description="Approver's name.")
    decision: Decision = Field(default="PENDING", description="PENDING, APPROVED or REJECTED.")
    comment: str = Field(default="", description="Comment.")
    decided_at: Optional[DateTime] = Field(default=None, description="When decided.")


class ChangeOrder(Record):
    """A change (Arena ``Change``, an ECO) revising items."""

    id: Id("change_order") = Field(description="Change number, e.g. ECO-0001.")
    title: str = Field(description="Title.")
    description: str = Field(description="Reason and description of the change.")
    category: Literal["ECO", "Deviation", "Obsolescence"] = Field(default="ECO", description="Change category.")
    status: ChangeStatus = Field(description="OPEN -> SUBMITTED -> APPROVED -> IMPLEMENTED, or REJECTED/CANCELED.")
    reference: str = Field(default="", description="Reference, e.g. the nonconformance (NCR) that prompted it.")
    affected_items: list[AffectedItem] = Field(default_factory=list, description="Affected items.")
    approvers: list[Approval] = Field(default_factory=list, description="Approval routing.")
    creator_email: Email = Field(description="Who opened it.")
    created_at: DateTime = Field(description="When opened.")
    submitted_at: Optional[DateTime] = Field(default=None, description="When routed for approval.")
    implemented_at: Optional[DateTime] = Field(default=None, description="When released (effective).")


class PlmUser(Record):
    """A workspace user who may approve changes (from the company roster)."""

    email: Email = Field(description="Work email.")
    name: PersonName = Field(description="Full name.")
    title: str = Field(description="Job title.")
    can_approve: bool = Field(default=True, description="May sit on change approval routings.")


class ProductLifecycleState(ServiceState):
    """Items, changes and users."""

    items: dict[str, PlmItem] = Field(default_factory=dict, description="Items by id.")
    changes: dict[str, ChangeOrder] = Field(default_factory=dict, description="Changes by id.")
    users: dict[str, PlmUser] = Field(default_factory=dict, description="Users by email.")
