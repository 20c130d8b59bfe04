"""Seed data of the lab orders service: the clinic registry's patients and eleven lab orders in
every status, with specimens, results and reports.

Orders, results and their ids are fixed, because ``pharmacy`` points at them:
its metformin, atorvastatin and levothyroxine prescriptions were written for
the abnormal results ``OBS-0001`` (HbA1c), ``OBS-0003`` (LDL) and
``OBS-0007`` (TSH). The performing lab, the phlebotomist and the draw times
vary per seed.
"""

from __future__ import annotations

import datetime as dt
import random
from typing import NamedTuple, get_args

from compoworld_gym.envs.services._lab_orders_models import (
    DiagnosticReport, Lab, LabOrder, LabOrdersState, LabPatient, LabResult, Specimen,
)
from compoworld_gym.envs.services._lab_orders_rules import (
    ANALYTES, COLLECTORS, CONTAINERS, interpret, specimen_types,
)
from compoworld_gym.envs.services._patient_scheduling_seed import PATIENTS, PRACTITIONERS

#: Performing laboratories orders are routed to.
LABS: tuple[str, ...] = get_args(Lab)


class SeedOrder(NamedTuple):
    """A seeded order: patient, requester, tests, priority, status, days ago ordered,
    whether specimens were drawn, results {analyte: value}, ICD-10 reason, conclusion or revoke reason."""

    patient: str
    requester: str
    tests: tuple[str, ...]
    priority: str
    status: str
    ago: int
    drawn: bool
    results: tuple[tuple[str, float], ...]
    reason: str
    text: str = ""


ORDERS: tuple[SeedOrder, ...] = (
    SeedOrder("PAT-0002", "PRA-0002", ("4548-4",), "routine", "completed", 22, True, (("4548-4", 8.4),), "E11.9",
              "HbA1c 8.4%: above goal, poorly controlled type 2 diabetes."),
    SeedOrder("PAT-0006", "PRA-0004", ("57698-3",), "routine", "completed", 15, True,
              (("2093-3", 251), ("13457-7", 178), ("2085-9", 38), ("2571-8", 175)), "E78.5",
              "Mixed hyperlipidemia: LDL 178 mg/dL, HDL low."),
    SeedOrder("PAT-0010", "PRA-0004", ("6301-6",), "stat", "completed", 3, True, (("6301-6", 3.6),), "I48.91",
              "INR 3.6, above the 2.0-3.0 therapeutic range on warfarin."),
    SeedOrder("PAT-0012", "PRA-0001", ("3016-3",), "routine", "completed", 8, True, (("3016-3", 7.9),), "R53.83",
              "TSH 7.9 mIU/L: primary hypothyroidism."),
    SeedOrder("PAT-0004", "PRA-0002", ("24323-8",), "urgent", "active", 2, True,
              (("2345-7", 104), ("2951-2", 139), ("2823-3", 5.8)), "N18.3"),
    SeedOrder("PAT-0001", "PRA-0001", ("58410-2",), "routine", "active", 1, False, (), "R53.83"),
    SeedOrder("PAT-0009", "PRA-0001", ("3016-3",), "routine", "draft", 0, False, (), "E03.9"),
    SeedOrder("PAT-0013", "PRA-0006", ("58410-2",), "routine", "revoked", 6, False, (), "M25.561",
              "Duplicate of an outside lab draw."),
    SeedOrder("PAT-0003", "PRA-0001", ("57698-3",), "routine", "completed", 30, True,
              (("2093-3", 172), ("13457-7", 88), ("2085-9", 61), ("2571-8", 110)), "Z13.220", "Lipids normal."),
    SeedOrder("PAT-0015", "PRA-0003", ("58410-2",), "routine", "completed", 5, True, (("718-7", 10.9), ("6690-2", 7.2)),
              "D64.9", "Mild anemia, hemoglobin 10.9 g/dL."),
    SeedOrder("PAT-0014", "PRA-0002", ("24323-8", "4548-4"), "routine", "active", 4, True, (), "E11.9"),
)


def seed_lab_orders(state: LabOrdersState, rng: random.Random, today: dt.date) -> None:
    """Fill a ``LabOrdersState``: registry patients, the fixed orders, a specimen per type drawn the
    day after ordering, results recorded six hours after the draw, and a report per resulted order."""
    for p in PATIENTS:
        state.patients[p.id] = LabPatient(id=p.id, name=p.name, birth_date=p.birth_date, gender=p.gender)
    docs = {d.id: d for d in PRACTITIONERS}
    n_spc = n_obs = n_rpt = 0
    for n, s in enumerate(ORDERS, start=1):
        doc, pat = docs[s.requester], state.patients[s.patient]
        day = today - dt.timedelta(days=s.ago)
        order = LabOrder(id=f"LAB-{n:04d}", status=s.status, priority=s.priority, patient_id=pat.id,
                         patient_name=pat.name, requester_id=doc.id, requester_name=doc.name,
                         requester_email=doc.email, test_codes=list(s.tests), reason_code=s.reason,
                         performer=rng.choice(LABS), authored_on=day,
                         completed_on=day + dt.timedelta(days=2) if s.status == "completed" else None,
                         revoked_reason=s.text if s.status == "revoked" else None)
        state.orders[order.id] = order
        if not s.drawn:
            continue
        drawn_at = dt.datetime.combine(day + dt.timedelta(days=1), dt.time(8, rng.randrange(0, 55, 5)))
        by_type = {}
        for kind in specimen_types(order.test_codes):
            n_spc += 1
            by_type[kind] = f"SPC-{n_spc:04d}"
            state.specimens[by_type[kind]] = Specimen(id=by_type[kind], order_id=order.id, patient_id=pat.id,
                                                      type=kind, container=CONTAINERS[kind], collected_at=drawn_at,
                                                      collector=rng.choice(COLLECTORS))
        if not s.results:
            continue
        issued = drawn_at + dt.timedelta(hours=6)
        final = s.status == "completed"
        ids = []
        for code, value in s.results:
            a, n_obs = ANALYTES[code], n_obs + 1
            low, high = a.range_for(pat.gender)
            ids.append(f"OBS-{n_obs:04d}")
            state.results[ids[-1]] = LabResult(
                id=ids[-1], order_id=order.id, patient_id=pat.id, specimen_id=by_type[a.specimen], code=code,
                display=a.display, value=value, unit=a.unit, reference_low=low, reference_high=high,
                interpretation=interpret(a, value, pat.gender), status="final" if final else "preliminary",
                effective_at=drawn_at, issued=issued)
        n_rpt += 1
        state.reports[f"RPT-{n_rpt:04d}"] = DiagnosticReport(
            id=f"RPT-{n_rpt:04d}", order_id=order.id, patient_id=pat.id, status="final" if final else "preliminary",
            result_ids=ids, conclusion=s.text if final else "", issued=issued)
    # PAT: the clinic registry's next patient number (the task generator allocates patients from it).
    state.counters.update({"LAB": len(ORDERS) + 1, "SPC": n_spc + 1, "OBS": n_obs + 1, "RPT": n_rpt + 1,
                           "PAT": len(PATIENTS) + 1})
