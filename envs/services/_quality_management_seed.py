"""Seed data of the quality_management service: NCRs and CAPAs on the MRP's parts and manufacturing orders.

The part list is the manufacturing service's products and materials (their
SKUs and standard costs, which are fixed), each material with its approved
supplier; NCRs are raised on the MRP's fixed manufacturing orders (MO-0001
to MO-0007) and on incoming lots, in every status: closed with a rework, a
critical gas-lift lot returned to its vendor under an overdue CAPA, a scrap
whose CAPA waits for its effectiveness check, investigations, a new one and
a void duplicate. The quality team is fixed (the company's domain).
"""

from __future__ import annotations

import datetime as dt
import random
from typing import NamedTuple, Optional

from compoworld_gym.envs.services._blocks import seed_id
from compoworld_gym.envs.services._commerce import PRODUCTS_BY_SKU
from compoworld_gym.envs.services._company import DOMAIN
from compoworld_gym.envs.services._manufacturing_seed import BOMS, MATERIALS
from compoworld_gym.envs.services._quality_management_models import (
    Capa, EffectivenessCheck, Ncr, Part, QualityManagementState, QualityUser,
)
from compoworld_gym.envs.services._quality_management_rules import value_at_risk

#: The quality team: (name, title, material review board member, active).
TEAM = (("Renee Alvarado", "Quality Manager", True, True), ("Samuel Okoye", "Quality Engineer", True, True),
        ("Lina Park", "Quality Engineer", False, True), ("Diego Marin", "Supplier Quality Engineer", True, True),
        ("Hannah Cole", "Manufacturing Engineer", True, True), ("Paul Brandt", "Quality Technician", False, False))
#: Approved supplier of each purchased material.
SUPPLIERS = {"MAT-PCB-KB": "Shenzhen Keytech Components", "MAT-SW-RED": "Shenzhen Keytech Components",
             "MAT-CAP-SET": "Shenzhen Keytech Components", "MAT-ALU-CASE": "Midwest Metal Fabrication",
             "MAT-USB-CBL": "Lumina Cable & LED Supply", "MAT-MESH-BLK": "Carolina Textile Mills",
             "MAT-GASLIFT": "Apex Motion Systems", "MAT-CASTOR": "Apex Motion Systems",
             "MAT-BASE-NYL": "Great Lakes Polymers", "MAT-MOTOR-DC": "Apex Motion Systems",
             "MAT-STL-LEG": "Midwest Metal Fabrication", "MAT-CTRL-BOX": "Apex Motion Systems",
             "MAT-LED-STRIP": "Lumina Cable & LED Supply", "MAT-ALU-ARM": "Midwest Metal Fabrication",
             "MAT-FELT-ROLL": "Carolina Textile Mills", "MAT-PKG-BOX": "Pacific Packaging Co."}


def email_of(name: str) -> str:
    """A team member's work email."""
    return f"{name.lower().replace(' ', '.')}@{DOMAIN}"


class _N(NamedTuple):
    title: str
    source: str
    sku: str
    mo: Optional[str]
    qty: float
    severity: str
    status: str
    owner: Optional[int]  # index into TEAM
    days_ago: int
    disposition: Optional[str]


_NCRS = (
    _N("Chattering keys on finished keyboards", "final_inspection", "KB-MECH-01", "MO-0001", 3, "major", "closed", 1,
       9, "rework"),
    _N("Gas lifts fail the BIFMA load test", "in_process", "MAT-GASLIFT", "MO-0002", 6, "critical", "dispositioned",
       3, 7, "return_to_vendor"),
    _N("Mesh fabric colour does not match the master sample", "incoming_inspection", "MAT-MESH-BLK", None, 24,
       "minor", "investigation", 2, 3, None),
    _N("LED strips flicker at low brightness", "incoming_inspection", "MAT-LED-STRIP", "MO-0005", 40, "major", "open",
       None, 1, None),
    _N("Castor wheel cracked in customer use", "customer_complaint", "CH-ERG-05", None, 2, "major", "dispositioned", 1,
       12, "scrap"),
    _N("Felt mats cut 2 mm under thickness", "in_process", "MT-FLT-14", "MO-0006", 15, "minor", "void", 2, 6, None),
    _N("Lift motor grinding noise above 50 dB", "incoming_inspection", "MAT-MOTOR-DC", "MO-0004", 4, "major",
       "investigation", 4, 4, None),
    _N("Shipping boxes crushed at the corners", "incoming_inspection", "MAT-PKG-BOX", None, 120, "minor", "closed", 2,
       15, "use_as_is"),
)
#: CAPAs: (title, NCR numbers, owner, status, days opened ago, due in days, checks).
_CAPAS = (("Keyboard switch soldering process", (1,), 1, "closed", 8, -1, ("effective",)),
          ("Gas-lift supplier load testing", (2,), 3, "in_progress", 6, -2, ()),
          ("Castor supplier material change", (5,), 1, "pending_verification", 11, 10, ()),
          ("Lift motor incoming inspection plan", (7,), 4, "open", 2, 20, ()),
          ("Preventive: receiving inspection sampling plan", (), 2, "pending_verification", 30, 5, ("not_effective",)))
_DESCRIPTIONS = {"KB-MECH-01": "Keys register twice per press; switch pins found cold-soldered.",
                 "MAT-GASLIFT": "Lifts sink under the 250 lb static load of the test.",
                 "MAT-MESH-BLK": "Shade is two grades lighter than the approved master sample.",
                 "MAT-LED-STRIP": "Visible flicker under 20% brightness on the incoming sample.",
                 "CH-ERG-05": "Castor housing cracked after two weeks; customer returned the chair.",
                 "MT-FLT-14": "Mats measure 1 mm against the 3 mm drawing.",
                 "MAT-MOTOR-DC": "Motors measured 56 dB at full load against the 50 dB specification.",
                 "MAT-PKG-BOX": "Corners crushed in transit; boxes still close and protect the product."}


def parts() -> dict[str, Part]:
    """The part list: the MRP's products and its purchased materials with their suppliers."""
    out = {}
    for sku in BOMS:
        p = PRODUCTS_BY_SKU[sku]
        out[sku] = Part(sku=sku, name=p.name, kind="product", unit_of_measure="pcs", unit_cost=p.cost)
    for sku, (name, uom, cost) in MATERIALS.items():
        out[sku] = Part(sku=sku, name=name, kind="material", unit_of_measure=uom, unit_cost=cost,
                        supplier=SUPPLIERS[sku])
    return out


def build_state(rng: random.Random, today: dt.date) -> QualityManagementState:
    """The team, the part list, eight NCRs and five CAPAs.

    Args:
        rng: seeded random stream (lot numbers).
        today: the task's date.
    """
    state = QualityManagementState(parts=parts())
    users = []
    for name, title, mrb, active in TEAM:
        u = QualityUser(id=seed_id(state, "USR"), name=name, email=email_of(name), title=title, mrb_member=mrb,
                        active=active)
        state.users[u.id] = u
        users.append(u)
    for n in _NCRS:
        part = state.parts[n.sku]
        day = today - dt.timedelta(days=n.days_ago)
        owner = users[n.owner] if n.owner is not None else None
        ncr = Ncr(id=seed_id(state, "NCR"), title=n.title, description=_DESCRIPTIONS[n.sku], source=n.source,
                  sku=n.sku, part_name=part.name, lot_number=f"LOT-{day:%y%m}-{rng.randint(100, 999)}",
                  manufacturing_order_id=n.mo, quantity_affected=n.qty, supplier=part.supplier, severity=n.severity,
                  status=n.status, owner_name=owner.name if owner else None, owner_email=owner.email if owner else None,
                  reported_by=users[4].email if n.source == "in_process" else users[2].email, reported_on=day,
                  cost=value_at_risk(part, n.qty))
        if n.disposition:
            approver = owner if owner.mrb_member else users[0]
            ncr.disposition, ncr.disposition_approved_by = n.disposition, approver.email
            ncr.dispositioned_on = day + dt.timedelta(days=2)
            ncr.disposition_notes = {"rework": "Reflow the switch joints and retest.",
                                     "return_to_vendor": "Return the lot to the supplier for credit.",
                                     "scrap": "Scrap the damaged castors.",
                                     "use_as_is": "Cosmetic only; boxes still protect the product."}[n.disposition]
        if n.status == "closed":
            ncr.closed_on = day + dt.timedelta(days=4)
        if n.status == "void":
            ncr.void_reason = "Duplicate of an NCR raised on the same lot by the night shift."
        state.ncrs[ncr.id] = ncr
    for title, ncrs, owner, status, ago, due, checks in _CAPAS:
        u = users[owner]
        ids = [f"NCR-{k:04d}" for k in ncrs]
        capa = Capa(id=seed_id(state, "CAPA"), title=title, type="corrective" if ids else "preventive",
                    problem_statement=state.ncrs[ids[0]].title if ids else "Receiving inspection misses supplier "
                                                                           "lots with defects.",
                    owner_name=u.name, owner_email=u.email, ncr_ids=ids, due_date=today + dt.timedelta(days=due),
                    status=status, created_on=today - dt.timedelta(days=ago))
        if status != "open":
            capa.root_cause = "Process control missing at the point the defect was made."
            capa.action_plan = "Add the control, train the operators and audit the first three lots."
        if status in ("pending_verification", "closed"):
            capa.actions_completed_on = today - dt.timedelta(days=max(1, ago // 3))
        for result in checks:
            capa.effectiveness_checks.append(EffectivenessCheck(
                result=result, checked_by=users[0].email, checked_on=today - dt.timedelta(days=1),
                notes="Three lots audited after the change." if result == "effective" else
                "Two defective lots still passed receiving; sampling plan to be tightened."))
        if status == "closed":
            capa.closed_on = today - dt.timedelta(days=1)
        state.capas[capa.id] = capa
        for k in ids:
            state.ncrs[k].capa_ids.append(capa.id)
    return state


__all__ = ["SUPPLIERS", "TEAM", "build_state", "email_of", "parts"]
