"""Quality management: nonconformance reports (NCRs) on parts, lots and manufacturing orders, and CAPAs.

No quality-management server is in ``compoworld_gym/data/mcp_servers.jsonl``
(``spec_source = None``); the interface follows the ETQ Reliance and Qualio
quality modules: the Nonconformance form (part number, lot, manufacturing
order, quantity affected, source, severity, owner, the material review
board's disposition: use as is, rework, scrap or return to vendor, with its
approver, cost of the nonconformance, comments) moving Initiation ->
Investigation -> Disposition -> Closed (or Void), and the CAPA form
(corrective or preventive, problem statement, owner, due date, root cause,
action plan, implementation, effectiveness checks, closure, due-date
extensions). Parts are the MRP's (manufacturing) SKUs with their suppliers.

Rules of the real products: an NCR closes only once it is dispositioned,
and a critical one only once a CAPA addresses it; return-to-vendor needs a
bought-in material with a supplier; a critical nonconformance cannot be used
as is; major and critical dispositions are approved by a material review
board member; a void NCR takes nothing more. A CAPA is due in the future;
its actions are implemented only with a root cause and an action plan; its
effectiveness is verified by someone other than its owner; it closes only
after an effectiveness check found it effective, and a not-effective check
sends it back to in-progress; without a given due date a CAPA is due in
14, 30 or 60 days by its most severe NCR (critical, major, minor). Left
out: document control, training records, audits, supplier scorecards,
e-signatures (21 CFR Part 11) and attachments.
"""

from __future__ import annotations

import datetime as dt
import random
from typing import Optional

from faker import Faker
from pydantic import Field

from compoworld_gym.entities import CompanyName, Email, Id, Money, Sku
from compoworld_gym.envs.services._blocks import eq, ieq, select
from compoworld_gym.envs.services._commerce import MONEY_MAX, money
from compoworld_gym.envs.services._quality_management_capa import CapaMixin
from compoworld_gym.envs.services._quality_management_models import (
    LIVE_NCR, Disposition, Ncr, NcrSource, NcrStatus, Part, QualityManagementState, QualityUser, Severity,
)
from compoworld_gym.envs.services._quality_management_rules import NCR, check_closable, check_disposition, value_at_risk
from compoworld_gym.envs.services._quality_management_seed import build_state
from compoworld_gym.errors import Conflict, NotFound
from compoworld_gym.service import Service, tool


class QualityManagement(CapaMixin, Service):
    """ETQ / Qualio-style quality system: NCRs with MRB dispositions, and CAPAs with effectiveness checks."""

    name = "quality_management"
    description = ("Quality management (ETQ/Qualio): nonconformance reports on parts, lots and manufacturing "
                   "orders with material-review dispositions, and CAPAs with owners, due dates and effectiveness "
                   "checks.")
    domain = "manufacturing"
    spec_source = None
    State = QualityManagementState

    # ---------------------------------------------------------------- helpers
    def _ncr(self, ncr_id: str) -> Ncr:
        return self.lookup(self.state.ncrs, ncr_id, "NCR")

    def _user(self, email: str, what: str = "user") -> QualityUser:
        hit = next((u for u in self.state.users.values() if u.email.lower() == email.lower()), None)
        if hit is None:
            raise NotFound(f"no quality user has email {email!r}; call list_quality_users.")
        if not hit.active:
            raise Conflict(f"{hit.name} is inactive and cannot be the {what}.")
        return hit

    # ------------------------------------------------------------------ reads
    @tool(read_only=True, returns=list[QualityUser])
    def list_quality_users(self, mrb_member: Optional[bool] = None, active: Optional[bool] = None) -> list[dict]:
        """List the quality system's users (owners and material review board members).

        Args:
            mrb_member: only material review board members (true) or others (false).
            active: only active (true) or inactive (false) users.
        """
        return [u.model_dump() for u in select(self.state.users.values(), eq("mrb_member", mrb_member),
                                               eq("active", active))]

    @tool(read_only=True, returns=list[Part])
    def list_parts(self, kind: Optional[str] = Field(default=None, pattern=r"^(product|material)$"),
                   supplier: Optional[CompanyName] = None) -> list[dict]:
        """List controlled parts (the MRP's SKUs) with standard cost and supplier.

        Args:
            kind: product or material.
            supplier: only parts of this supplier (case-insensitive).
        """
        sup = (lambda p: (p.supplier or "").lower() == supplier.lower()) if supplier else None
        return [p.model_dump() for p in select(self.state.parts.values(), eq("kind", kind), sup)]

    @tool(read_only=True, returns=list[Ncr])
    def list_ncrs(self, status: Optional[NcrStatus] = None, severity: Optional[Severity] = None,
                  sku: Optional[Sku] = None, manufacturing_order_id: Optional[Id("manufacturing_order")] = None,
                  supplier: Optional[CompanyName] = None, lot_number: Optional[str] = Field(default=None, max_length=40),
                  owner_email: Optional[Email] = None, open_only: bool = False,
                  limit: int = Field(default=50, ge=1, le=200)) -> list[dict]:
        """List NCRs, newest first, by status, severity, part, MO, supplier, lot or owner.

        Args:
            status: open, investigation, dispositioned, closed or void.
            severity: minor, major or critical.
            sku: the part number (case-insensitive).
            manufacturing_order_id: the manufacturing order it was found on, e.g. MO-0002.
            supplier: the material's supplier (case-insensitive).
            lot_number: the lot (case-insensitive).
            owner_email: the quality owner.
            open_only: only NCRs still being worked (open, investigation, dispositioned).
            limit: maximum number of NCRs (1-200).
        """
        live = (lambda n: n.status in LIVE_NCR) if open_only else None
        sup = (lambda n: (n.supplier or "").lower() == supplier.lower()) if supplier else None
        own = (lambda n: (n.owner_email or "").lower() == owner_email.lower()) if owner_email else None
        rows = select(sorted(self.state.ncrs.values(), key=lambda n: (n.reported_on, n.id), reverse=True),
                      eq("status", status), eq("severity", severity), ieq("sku", sku),
                      eq("manufacturing_order_id", manufacturing_order_id), sup, ieq("lot_number", lot_number), own,
                      live, limit=limit)
        return [n.model_dump() for n in rows]

    @tool(read_only=True, returns=Ncr)
    def get_ncr(self, ncr_id: Id("nonconformance")) -> dict:
        """Get one NCR with the status of the CAPAs addressing it.

        Args:
            ncr_id: the NCR number, e.g. NCR-0002.
        """
        n = self._ncr(ncr_id)
        return {**n.model_dump(), "capas": [{"id": c, "status": self.state.capas[c].status} for c in n.capa_ids]}

    # ----------------------------------------------------------------- writes
    @tool(read_only=False, returns=Ncr)
    def create_ncr(self, title: str = Field(min_length=5, max_length=160), source: NcrSource = Field(),
                   sku: Sku = Field(), lot_number: str = Field(min_length=2, max_length=40),
                   quantity_affected: float = Field(gt=0, le=1_000_000), severity: Severity = Field(),
                   reported_by: Email = Field(), description: str = Field(default="", max_length=2000),
                   manufacturing_order_id: Optional[Id("manufacturing_order")] = None,
                   cost: Optional[Money] = Field(default=None, ge=0, le=MONEY_MAX)) -> dict:
        """Raise an NCR (status open) on a part and lot; its cost defaults to the units' standard cost.

        Args:
            title: short statement of the nonconformance.
            source: incoming_inspection, in_process, final_inspection, customer_complaint or audit.
            sku: the part number (list_parts).
            lot_number: lot or batch of the nonconforming units.
            quantity_affected: units affected (in the part's unit of measure).
            severity: minor, major or critical.
            reported_by: who found it (a quality user).
            description: what was observed against which requirement.
            manufacturing_order_id: the manufacturing order it was found on.
            cost: estimated cost of the nonconformance (USD); default the value at risk.
        """
        part = self.lookup(self.state.parts, sku.upper(), "part")
        who = self._user(reported_by, "reporter")
        n = Ncr(id=self.new_id("NCR"), title=title, description=description, source=source, sku=part.sku,
                part_name=part.name, lot_number=lot_number.strip().upper(),
                manufacturing_order_id=manufacturing_order_id, quantity_affected=quantity_affected,
                supplier=part.supplier, severity=severity, status="open", reported_by=who.email,
                reported_on=self.today, cost=money(cost) if cost is not None else value_at_risk(part, quantity_affected))
        self.state.ncrs[n.id] = n
        return n.model_dump()

    @tool(read_only=False, returns=Ncr)
    def start_investigation(self, ncr_id: Id("nonconformance"), owner_email: Email) -> dict:
        """Assign an open NCR to its quality owner and start the investigation.

        Args:
            ncr_id: an open NCR.
            owner_email: the active quality user who investigates it.
        """
        n = self._ncr(ncr_id)
        owner = self._user(owner_email, "owner")
        NCR.check(n.id, n.status, "start the investigation")
        n.status, n.owner_name, n.owner_email = "investigation", owner.name, owner.email
        return n.model_dump()

    @tool(read_only=False, returns=Ncr)
    def set_disposition(self, ncr_id: Id("nonconformance"), disposition: Disposition,
                        notes: str = Field(min_length=3, max_length=1000),
                        approved_by: Optional[Email] = None) -> dict:
        """Record the material review board's disposition of an NCR under investigation.

        Args:
            ncr_id: an NCR in investigation.
            disposition: use_as_is, rework, scrap or return_to_vendor.
            notes: the reasoning (and any instructions for the floor).
            approved_by: the approver (default: the NCR's owner); a board member for major or critical NCRs.
        """
        n = self._ncr(ncr_id)
        NCR.check(n.id, n.status, "disposition")
        approver = self._user(approved_by or n.owner_email or "", "approver")
        check_disposition(n, disposition, approver)
        n.status, n.disposition, n.disposition_notes = "dispositioned", disposition, notes
        n.disposition_approved_by, n.dispositioned_on = approver.email, self.today
        return n.model_dump()

    @tool(read_only=False, returns=Ncr)
    def close_ncr(self, ncr_id: Id("nonconformance")) -> dict:
        """Close a dispositioned NCR (a critical one needs a CAPA).

        Args:
            ncr_id: the NCR.
        """
        n = self._ncr(ncr_id)
        if n.status in ("closed", "void"):
            raise Conflict(f"NCR {n.id} is already {n.status}.")
        check_closable(n)
        NCR.check(n.id, n.status, "close")
        n.status, n.closed_on = "closed", self.today
        return n.model_dump()

    @tool(read_only=False, destructive=True, returns=Ncr)
    def void_ncr(self, ncr_id: Id("nonconformance"), reason: str = Field(min_length=3, max_length=300)) -> dict:
        """Void an NCR raised in error or as a duplicate (only before its disposition).

        Args:
            ncr_id: an open NCR or one in investigation.
            reason: why it is void.
        """
        n = self._ncr(ncr_id)
        NCR.check(n.id, n.status, "void")
        n.status, n.void_reason = "void", reason
        return n.model_dump()

    @tool(read_only=False, returns=Ncr)
    def add_ncr_comment(self, ncr_id: Id("nonconformance"), comment: str = Field(min_length=1, max_length=1000)) -> dict:
        """Add a comment to an NCR still being worked.

        Args:
            ncr_id: the NCR.
            comment: the comment text.
        """
        n = self._ncr(ncr_id)
        NCR.check(n.id, n.status, "comment")
        n.comments.append(comment)
        return n.model_dump()

    # ------------------------------------------------------------------ seeds
    @classmethod
    def build_seed_state(cls, fake: Faker, rng: random.Random, today: dt.date) -> QualityManagementState:
        return build_state(rng, today)


__all__ = ["QualityManagement"]
