"""Seed data of the product lifecycle service: the MRP's products and parts under revision control.

Items are the MRP's finished goods and their BOM materials (``_manufacturing_seed.BOMS`` and
``MATERIALS``: the same SKUs as item numbers, the same BOM quantities), sourced from the QMS's
approved suppliers (``_quality_management_seed.SUPPLIERS``); one superseded castor is Obsolete.
Approvers are the company roster's COO, fulfilment manager and engineers. Changes quote the QMS's
nonconformances: an implemented ECO after the keyboard NCR (NCR-0001), a submitted gas-lift ECO
(NCR-0002) half approved, an open mesh-fabric change (NCR-0003), an approved LED-strip change
waiting to be implemented (NCR-0004), a rejected one and a canceled one.
"""

from __future__ import annotations

import datetime as dt
import random

from compoworld_gym.envs.services._commerce import PRODUCTS_BY_SKU
from compoworld_gym.envs.services._manufacturing_seed import BOMS, MATERIALS
from compoworld_gym.envs.services._product_lifecycle_models import (
    AffectedItem, Approval, BomLine, ChangeOrder, FileRef, PlmItem, PlmUser, ProductLifecycleState, Sourcing,
)
from compoworld_gym.envs.services._product_lifecycle_rules import next_revision
from compoworld_gym.envs.services._quality_management_seed import SUPPLIERS
from compoworld_gym.envs.services._workforce import Person

_FG = ("KB-MECH-01", "CH-ERG-05", "DK-STD-06", "LP-LED-07")
#: Seeded changes: (title, NCR, item numbers, status, decisions of the approvers, new phase).
_CHANGES = (
    ("Switch plate stiffener against key chatter", "NCR-0001", ("KB-MECH-01",), "IMPLEMENTED", "AAA", None),
    ("Second source for the Class 4 gas lift", "NCR-0002", ("MAT-GASLIFT",), "SUBMITTED", "AP", None),
    ("Mesh fabric colour tolerance to Delta E 1.0", "NCR-0003", ("MAT-MESH-BLK",), "OPEN", "", None),
    ("LED strip driver frequency to 2 kHz", "NCR-0004", ("MAT-LED-STRIP",), "APPROVED", "AAA", None),
    ("Lift motor 24 V to 29 V", "", ("MAT-MOTOR-DC",), "REJECTED", "AR", None),
    ("Retire the felt mat packaging insert", "", ("MAT-PKG-BOX",), "CANCELED", "", None),
)


def approvers(people: tuple[Person, ...]) -> list[Person]:
    """Change approvers of the roster: the COO, the fulfilment manager and the engineers."""
    return [p for p in people if p.title == "Chief Operating Officer" or p.title == "Fulfilment Manager"
            or p.department == "Engineering"][:4]


def build_state(rng: random.Random, today: dt.date, people: tuple[Person, ...]) -> ProductLifecycleState:
    """Items, users and changes as of ``today``."""
    state = ProductLifecycleState()
    board = approvers(people)
    for p in board:
        state.users[p.email] = PlmUser(email=p.email, name=p.name, title=p.title)
    owner = next(p.email for p in board if "Engineer" in p.title)
    base = dt.datetime.combine(today, dt.time(9, 0))
    skus = list(_FG) + sorted({m for fg in _FG for m, _ in BOMS[fg]})
    by_number: dict[str, PlmItem] = {}
    for n, sku in enumerate(skus, start=1):
        if sku in PRODUCTS_BY_SKU:
            p = PRODUCTS_BY_SKU[sku]
            name, cat, uom, sources = p.name, "Finished Good", "pcs", []
        else:
            name, uom, _ = MATERIALS[sku]
            cat = "Packaging" if sku == "MAT-PKG-BOX" else "Purchased Part"
            sources = [Sourcing(supplier_name=SUPPLIERS[sku], supplier_part_number=f"{SUPPLIERS[sku][:3].upper()}-"
                                f"{rng.randint(1000, 9999)}", preferred=True)]
        item = PlmItem(id=f"ITM-{n:04d}", number=sku, name=name, category=cat, revision="A",
                       lifecycle_phase="Production", uom=uom, sourcing=sources, owner_email=owner,
                       files=[FileRef(name=f"{sku}_spec.pdf", edition=1)],
                       modified_at=base - dt.timedelta(days=rng.randint(60, 300)))
        state.items[item.id] = by_number[sku] = item
    for fg in _FG:
        by_number[fg].bom = [BomLine(line_number=k, item_id=by_number[m].id, item_number=m, quantity=q)
                             for k, (m, q) in enumerate(BOMS[fg], start=1)]
    old = PlmItem(id=f"ITM-{len(skus) + 1:04d}", number="MAT-CASTOR-40", name="40 mm castor (superseded)",
                  category="Purchased Part", revision="C", lifecycle_phase="Obsolete", uom="pcs", owner_email=owner,
                  sourcing=[Sourcing(supplier_name=SUPPLIERS["MAT-CASTOR"], supplier_part_number="APE-4040",
                                     status="Disqualified")],
                  modified_at=base - dt.timedelta(days=400))
    state.items[old.id] = old
    state.counters["ITM"] = len(skus) + 2
    for n, (title, ncr, numbers, status, decisions, phase) in enumerate(_CHANGES, start=1):
        made = base - dt.timedelta(days=30 - 4 * n)
        c = ChangeOrder(id=f"ECO-{n:04d}", title=title, status=status, reference=ncr, creator_email=owner,
                        description=f"{title}." + (f" Corrective action for nonconformance {ncr}." if ncr else ""),
                        created_at=made)
        for num in numbers:
            it = by_number[num]
            c.affected_items.append(AffectedItem(item_id=it.id, item_number=num, old_revision=it.revision,
                                                 new_revision=next_revision(it.revision), new_lifecycle_phase=phase))
        for k, p in enumerate(board[:3] if status != "OPEN" else board[:2]):
            d = {"A": "APPROVED", "R": "REJECTED"}.get(decisions[k] if k < len(decisions) else "", "PENDING")
            c.approvers.append(Approval(email=p.email, name=p.name, decision=d,
                                        decided_at=made + dt.timedelta(days=1, hours=k) if d != "PENDING" else None))
        if status != "OPEN":
            c.submitted_at = made + dt.timedelta(hours=3)
        if status == "IMPLEMENTED":
            c.implemented_at = made + dt.timedelta(days=2)
            for a in c.affected_items:
                by_number[a.item_number].revision = a.new_revision
                by_number[a.item_number].modified_at = c.implemented_at
        state.changes[c.id] = c
    state.counters["ECO"] = len(_CHANGES) + 1
    return state
