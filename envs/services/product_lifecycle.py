"""Product lifecycle: items under revision control, BOMs, approved suppliers and engineering changes.

No PLM server is in ``compoworld_gym/data/mcp_servers.jsonl`` (``spec_source =
None``); the interface follows the Arena PLM REST API: ``GET /items``
(``number``, ``name``, ``category``, ``lifecyclePhase``), ``GET /items/{guid}``
(``revisionNumber``, ``files``), ``GET /items/{guid}/bom`` and
``/whereused``, ``POST``/``DELETE /items/{guid}/bom`` (``item``,
``quantity``, ``refDes``), ``PUT /items/{guid}`` (working-revision
attributes), ``POST /items/{guid}/sourcing`` (supplier, supplier part
number), ``GET``/``POST /changes`` (``title``, ``description``,
``category``, ``affectedItems`` with ``newRevisionNumber`` and
``newLifecyclePhase``, approvers), ``PUT /changes/{guid}/status``
(SUBMITTED, CANCELED, implementation/effectivity) and the routing
decisions of ``/changes/{guid}/approvers``. Item numbers are the MRP's SKUs;
suppliers are the QMS's approved suppliers; approvers come from the
company roster; changes quote the QMS nonconformance they answer.

Rules of the real product: an item in Production or Obsolete is changed
only through a change (no direct edits, no BOM edits); an item is on one
live change at a time; a change is submitted with affected items and
approvers; it is APPROVED only once every approver approved, and one
rejection rejects it; implementing an approved change releases each
affected item at its next revision (A -> B) and new lifecycle phase; an
Obsolete item cannot go on a new BOM line; only listed approvers decide,
once. Left out: GUIDs, file content, quality processes, requests,
effectivity dates in the future and redlines beyond phase and revision.
"""

from __future__ import annotations

import datetime as dt
import random
from typing import Optional

from faker import Faker
from pydantic import Field

from compoworld_gym.entities import CompanyName, Email, Id, Sku
from compoworld_gym.envs.services._blocks import eq, ieq, select
from compoworld_gym.envs.services._product_lifecycle_models import (
    AffectedItem, Approval, BomLine, Category, ChangeOrder, ChangeStatus, Phase, PlmItem, PlmUser,
    ProductLifecycleState, Sourcing,
)
from compoworld_gym.envs.services._product_lifecycle_rules import (
    next_revision, require_component, require_editable, require_free, require_status,
)
from compoworld_gym.envs.services._product_lifecycle_seed import build_state
from compoworld_gym.envs.services._workforce import roster
from compoworld_gym.errors import Conflict, InvalidArgument, NotFound, Unprocessable
from compoworld_gym.service import Service, tool


class ProductLifecycle(Service):
    """Arena-style PLM: items, BOMs, sourcing and change orders."""

    name = "product_lifecycle"
    description = ("Product lifecycle (Arena PLM): part and product items with revisions, lifecycle phases, BOMs "
                   "and approved suppliers, and engineering change orders routed to approvers and released.")
    domain = "manufacturing"
    spec_source = None
    State = ProductLifecycleState

    # ---------------------------------------------------------------- helpers
    def _item(self, item_id: str) -> PlmItem:
        return self.lookup(self.state.items, item_id, "item")

    def _change(self, change_id: str) -> ChangeOrder:
        return self.lookup(self.state.changes, change_id, "change")

    def _by_number(self, number: str) -> PlmItem:
        it = next((i for i in self.state.items.values() if i.number.lower() == number.lower()), None)
        if it is None:
            raise NotFound(f"no item has number {number!r}.")
        return it

    def _approver(self, email: str) -> PlmUser:
        u = self.state.users.get(email.lower())
        if u is None or not u.can_approve:
            raise Unprocessable(f"{email} is not a change approver of this workspace (list_users).")
        return u

    # ------------------------------------------------------------------ reads
    @tool(read_only=True, returns=list[PlmUser])
    def list_users(self) -> list[dict]:
        """List the workspace users who may approve changes."""
        return [u.model_dump() for u in self.state.users.values()]

    @tool(read_only=True, returns=list[PlmItem])
    def search_items(self, number: Optional[Sku] = None, name: Optional[str] = Field(default=None, max_length=120),
                     category: Optional[Category] = None, lifecycle_phase: Optional[Phase] = None,
                     supplier_name: Optional[CompanyName] = None,
                     limit: int = Field(default=50, ge=1, le=200)) -> list[dict]:
        """Search items by exact number (SKU), text in the name, category, phase or approved supplier.

        Args:
            number: the item number (case-insensitive), e.g. MAT-GASLIFT.
            name: text the name contains (case-insensitive).
            category: Finished Good, Purchased Part or Packaging.
            lifecycle_phase: In Design, Prototype, Production or Obsolete.
            supplier_name: an approved supplier on the item's AML (case-insensitive).
            limit: maximum number of items (1-200).
        """
        named = (lambda i: name.lower() in i.name.lower()) if name else None
        sourced = (lambda i: any(s.supplier_name.lower() == supplier_name.lower() for s in i.sourcing)) \
            if supplier_name else None
        rows = select(self.state.items.values(), ieq("number", number), eq("category", category),
                      eq("lifecycle_phase", lifecycle_phase), named, sourced, limit=limit)
        return [i.model_dump() for i in rows]

    @tool(read_only=True, returns=PlmItem)
    def get_item(self, item_id: Id("plm_item")) -> dict:
        """Get one item with its revision, phase, BOM, files, AML and the live change it is on.

        Args:
            item_id: the item id, e.g. ITM-0001.
        """
        it = self._item(item_id)
        live = [c.id for c in self.state.changes.values() if c.status in ("OPEN", "SUBMITTED", "APPROVED")
                and any(a.item_id == it.id for a in c.affected_items)]
        preferred = next((s.supplier_name for s in it.sourcing if s.preferred and s.status == "Approved"), None)
        return {**it.model_dump(), "preferred_supplier": preferred, "live_change_ids": live}

    @tool(read_only=True, returns=list[PlmItem])
    def get_item_where_used(self, item_id: Id("plm_item")) -> list[dict]:
        """The items whose BOM uses this item.

        Args:
            item_id: the component item.
        """
        it = self._item(item_id)
        return [{"id": p.id, "number": p.number, "name": p.name, "revision": p.revision,
                 "quantity": next(ln.quantity for ln in p.bom if ln.item_id == it.id)}
                for p in self.state.items.values() if any(ln.item_id == it.id for ln in p.bom)]

    @tool(read_only=True, returns=list[ChangeOrder])
    def search_changes(self, status: Optional[ChangeStatus] = None, item_number: Optional[Sku] = None,
                       reference: Optional[str] = Field(default=None, max_length=60),
                       limit: int = Field(default=50, ge=1, le=200)) -> list[dict]:
        """Search changes, newest first, by status, affected item number or reference (e.g. an NCR).

        Args:
            status: OPEN, SUBMITTED, APPROVED, REJECTED, IMPLEMENTED or CANCELED.
            item_number: an affected item's number.
            reference: text the reference or description contains (case-insensitive), e.g. NCR-0002.
            limit: maximum number of changes (1-200).
        """
        on = (lambda c: any(a.item_number.lower() == item_number.lower() for a in c.affected_items)) \
            if item_number else None
        ref = (lambda c: reference.lower() in f"{c.reference} {c.description}".lower()) if reference else None
        rows = select(reversed(self.state.changes.values()), eq("status", status), on, ref, limit=limit)
        return [c.model_dump() for c in rows]

    @tool(read_only=True, returns=ChangeOrder)
    def get_change(self, change_id: Id("change_order")) -> dict:
        """Get one change with its affected items and approval routing.

        Args:
            change_id: the change number, e.g. ECO-0002.
        """
        return self._change(change_id).model_dump()

    # ----------------------------------------------------------- item writes
    @tool(read_only=False, returns=PlmItem)
    def create_item(self, number: Sku = Field(min_length=3, max_length=40),
                    name: str = Field(min_length=2, max_length=120), category: Category = "Purchased Part",
                    uom: str = Field(default="pcs", max_length=10), owner_email: Optional[Email] = None) -> dict:
        """Create an item In Design at revision '-' (unreleased).

        Args:
            number: a unique item number (SKU).
            name: item name.
            category: Finished Good, Purchased Part or Packaging.
            uom: unit of measure.
            owner_email: owning engineer; default the first approver.
        """
        if any(i.number.lower() == number.lower() for i in self.state.items.values()):
            raise Conflict(f"item number {number} already exists.")
        it = PlmItem(id=self.new_id("ITM"), number=number, name=name, category=category, revision="-",
                     lifecycle_phase="In Design", uom=uom, owner_email=owner_email or next(iter(self.state.users)),
                     modified_at=self.now())
        self.state.items[it.id] = it
        return it.model_dump()

    @tool(read_only=False, returns=PlmItem)
    def update_item(self, item_id: Id("plm_item"), name: Optional[str] = Field(default=None, max_length=120),
                    description: Optional[str] = Field(default=None, max_length=1000),
                    lifecycle_phase: Optional[Phase] = None) -> dict:
        """Edit an unreleased (In Design or Prototype) item; Production items change only through a change.

        Args:
            item_id: the item.
            name: new name.
            description: new description.
            lifecycle_phase: In Design or Prototype (release to Production goes through a change).
        """
        it = self._item(item_id)
        require_editable(it)
        if lifecycle_phase in ("Production", "Obsolete"):
            raise Unprocessable(f"moving an item to {lifecycle_phase} needs a change order.")
        if name is None and description is None and lifecycle_phase is None:
            raise InvalidArgument("give name, description or lifecycle_phase to change.")
        it.name, it.description = name or it.name, description if description is not None else it.description
        it.lifecycle_phase, it.modified_at = lifecycle_phase or it.lifecycle_phase, self.now()
        return it.model_dump()

    @tool(read_only=False, returns=PlmItem)
    def add_bom_line(self, item_id: Id("plm_item"), component_number: Sku,
                     quantity: float = Field(gt=0, le=100000),
                     ref_des: str = Field(default="", max_length=120)) -> dict:
        """Add a component line to an unreleased item's BOM (never an Obsolete component).

        Args:
            item_id: the parent item (In Design or Prototype).
            component_number: the component's item number.
            quantity: quantity per parent unit.
            ref_des: reference designators or notes.
        """
        it, comp = self._item(item_id), self._by_number(component_number)
        require_editable(it)
        require_component(comp)
        if comp.id == it.id or any(ln.item_id == comp.id for ln in it.bom):
            raise Conflict(f"{comp.number} is already on the BOM of {it.number} (or is the item itself).")
        it.bom.append(BomLine(line_number=max((ln.line_number for ln in it.bom), default=0) + 1, item_id=comp.id,
                              item_number=comp.number, quantity=quantity, ref_des=ref_des))
        it.modified_at = self.now()
        return it.model_dump()

    @tool(read_only=False, destructive=True, returns=PlmItem)
    def remove_bom_line(self, item_id: Id("plm_item"), line_number: int = Field(ge=1)) -> dict:
        """Remove a line from an unreleased item's BOM.

        Args:
            item_id: the parent item (In Design or Prototype).
            line_number: the BOM line.
        """
        it = self._item(item_id)
        require_editable(it)
        if not any(ln.line_number == line_number for ln in it.bom):
            raise NotFound(f"{it.number} has no BOM line {line_number}.")
        it.bom = [ln for ln in it.bom if ln.line_number != line_number]
        it.modified_at = self.now()
        return it.model_dump()

    @tool(read_only=False, returns=PlmItem)
    def add_item_sourcing(self, item_id: Id("plm_item"), supplier_name: CompanyName = Field(min_length=2),
                          supplier_part_number: str = Field(min_length=2, max_length=40),
                          preferred: bool = False) -> dict:
        """Add an approved supplier to an item's AML (a preferred one replaces the old preferred source).

        Args:
            item_id: a purchased part or packaging item.
            supplier_name: the supplier.
            supplier_part_number: the supplier's part number.
            preferred: make it the preferred source.
        """
        it = self._item(item_id)
        if it.category == "Finished Good":
            raise Unprocessable(f"{it.number} is a finished good made in house; it has no suppliers.")
        if any(s.supplier_name.lower() == supplier_name.lower() and s.status == "Approved" for s in it.sourcing):
            raise Conflict(f"{supplier_name} is already an approved source of {it.number}.")
        if preferred:
            for s in it.sourcing:
                s.preferred = False
        it.sourcing.append(Sourcing(supplier_name=supplier_name, supplier_part_number=supplier_part_number,
                                    preferred=preferred or not it.sourcing))
        it.modified_at = self.now()
        return it.model_dump()

    # --------------------------------------------------------- change writes
    @tool(read_only=False, returns=ChangeOrder)
    def create_change(self, title: str = Field(min_length=3, max_length=160),
                      description: str = Field(min_length=3, max_length=2000),
                      affected_item_ids: list[Id("plm_item")] = Field(min_length=1, max_length=20),
                      approver_emails: list[Email] = Field(default_factory=list, max_length=8),
                      reference: str = Field(default="", max_length=60),
                      new_lifecycle_phase: Optional[Phase] = None) -> dict:
        """Open a change (ECO) on items, each to be released at its next revision; OPEN until submitted.

        Args:
            title: title.
            description: reason and description (quote the nonconformance it answers).
            affected_item_ids: the items it revises; none may be on another live change.
            approver_emails: the approval routing (workspace approvers).
            reference: reference, e.g. the NCR number.
            new_lifecycle_phase: phase to set on every affected item when implemented (e.g. Obsolete).
        """
        items = [self._item(i) for i in dict.fromkeys(affected_item_ids)]
        for it in items:
            require_free(it, self.state.changes)
        users = [self._approver(e) for e in dict.fromkeys(e.lower() for e in approver_emails)]
        c = ChangeOrder(id=self.new_id("ECO"), title=title, description=description, status="OPEN",
                        reference=reference, creator_email=next(iter(self.state.users)), created_at=self.now(),
                        category="Obsolescence" if new_lifecycle_phase == "Obsolete" else "ECO",
                        affected_items=[AffectedItem(item_id=it.id, item_number=it.number, old_revision=it.revision,
                                                     new_revision=next_revision(it.revision),
                                                     new_lifecycle_phase=new_lifecycle_phase) for it in items],
                        approvers=[Approval(email=u.email, name=u.name) for u in users])
        self.state.changes[c.id] = c
        return c.model_dump()

    @tool(read_only=False, returns=ChangeOrder)
    def submit_change(self, change_id: Id("change_order")) -> dict:
        """Submit an OPEN change for approval (it needs affected items and approvers).

        Args:
            change_id: the change.
        """
        c = self._change(change_id)
        require_status(c, ("OPEN",), "submitting")
        if not c.affected_items or not c.approvers:
            raise Unprocessable(f"change {c.id} needs at least one affected item and one approver to submit.")
        c.status, c.submitted_at = "SUBMITTED", self.now()
        return c.model_dump()

    @tool(read_only=False, returns=ChangeOrder)
    def decide_change(self, change_id: Id("change_order"), approver_email: Email,
                      decision: str = Field(pattern="^(APPROVED|REJECTED)$"),
                      comment: str = Field(default="", max_length=500)) -> dict:
        """Record an approver's decision on a SUBMITTED change; all approvals approve it, one rejection rejects it.

        Args:
            change_id: the change.
            approver_email: an approver on its routing who has not decided yet.
            decision: APPROVED or REJECTED.
            comment: the approver's comment.
        """
        c = self._change(change_id)
        require_status(c, ("SUBMITTED",), "a decision")
        a = next((x for x in c.approvers if x.email.lower() == approver_email.lower()), None)
        if a is None:
            raise Unprocessable(f"{approver_email} is not on the approval routing of {c.id}.")
        if a.decision != "PENDING":
            raise Conflict(f"{a.email} already {a.decision.lower()} change {c.id}.")
        a.decision, a.comment, a.decided_at = decision, comment, self.now()
        if decision == "REJECTED":
            c.status = "REJECTED"
        elif all(x.decision == "APPROVED" for x in c.approvers):
            c.status = "APPROVED"
        return c.model_dump()

    @tool(read_only=False, returns=ChangeOrder)
    def implement_change(self, change_id: Id("change_order")) -> dict:
        """Implement (release) an APPROVED change: each affected item moves to its new revision and phase.

        Args:
            change_id: an APPROVED change.
        """
        c = self._change(change_id)
        require_status(c, ("APPROVED",), "implementation")
        now = self.now()
        for a in c.affected_items:
            it = self.state.items[a.item_id]
            it.revision, it.modified_at = a.new_revision, now
            it.lifecycle_phase = a.new_lifecycle_phase or ("Production" if it.lifecycle_phase in ("In Design",
                                                                                                  "Prototype")
                                                           else it.lifecycle_phase)
        c.status, c.implemented_at = "IMPLEMENTED", now
        return c.model_dump()

    @tool(read_only=False, destructive=True, returns=ChangeOrder)
    def cancel_change(self, change_id: Id("change_order")) -> dict:
        """Cancel a change not yet implemented (OPEN, SUBMITTED or APPROVED).

        Args:
            change_id: the change.
        """
        c = self._change(change_id)
        require_status(c, ("OPEN", "SUBMITTED", "APPROVED"), "cancelling")
        c.status = "CANCELED"
        return c.model_dump()

    # ------------------------------------------------------------------ seeds
    @classmethod
    def seed_state(cls, seed: int, today: dt.date) -> ProductLifecycleState:
        """Seeded state on the company roster for the same seed."""
        return build_state(random.Random(f"product_lifecycle:{seed}"), today, roster(seed, today))

    @classmethod
    def build_seed_state(cls, fake: Faker, rng: random.Random, today: dt.date) -> ProductLifecycleState:
        return build_state(rng, today, roster(0, today))


__all__ = ["ProductLifecycle"]
