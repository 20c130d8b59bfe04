"""Lab orders: laboratory ordering and results after the Health Gorilla FHIR R4 API.

No lab-ordering server is in ``compoworld_gym/data/mcp_servers.jsonl``
(``spec_source = None``); the interface follows the resources Health
Gorilla's FHIR API exposes for lab orders and results: ``ServiceRequest``
(``subject``, ``requester``, ``encounter``, ``code`` with LOINC test codes
from the lab compendium, ``priority`` routine / urgent / asap / stat,
``status`` draft -> active -> completed or revoked, ``reasonCode``,
``performer``), ``Specimen`` (``type``, ``container``,
``collection.collectedDateTime``, ``request``), ``Observation`` (``basedOn``,
``specimen``, ``valueQuantity``, ``referenceRange`` low/high,
``interpretation`` N / L / H / LL / HH computed from the value against the
range, status preliminary -> final, or corrected) and ``DiagnosticReport``
(``result``, ``conclusion``, status preliminary -> final). The rules are in
``_lab_orders_rules``. Patients and practitioners are the clinic registry
shared with ``patient_scheduling``; ``appointment_id`` is the visit an order
was placed at. Left out: HL7 v2 transport, requisition PDFs, lab
connectivity and billing (patient / client / third party), which need the
outside labs.
"""

from __future__ import annotations

import datetime as dt
import random
from typing import Optional

from faker import Faker
from pydantic import Field

from compoworld_gym.entities import Id
from compoworld_gym.envs.services import _lab_orders_rules as rules
from compoworld_gym.envs.services._blocks import eq, select
from compoworld_gym.envs.services._lab_orders_models import (
    DiagnosticReport, Lab, LabOrder, LabOrdersState, LabPatient, LabResult, OrderStatus, Priority, Specimen,
    SpecimenType,
)
from compoworld_gym.envs.services._lab_orders_rules import ANALYTES, COLLECTORS, CONTAINERS, TESTS
from compoworld_gym.envs.services._lab_orders_seed import seed_lab_orders
from compoworld_gym.envs.services._patient_scheduling_seed import PRACTITIONERS
from compoworld_gym.errors import Conflict, NotFound, Unprocessable
from compoworld_gym.service import Service, tool

_ICD10 = r"^[A-Z][0-9][0-9A-Z](\.[0-9A-Z]{1,4})?$"
_DOCTORS = {d.id: d for d in PRACTITIONERS}
#: Values beyond these are not physiological for any analyte here.
_VALUE_MAX = 100_000.0


class LabOrders(Service):
    """Lab ordering: test compendium, orders, specimen collection, results with flags, reports."""

    name = "lab_orders"
    description = ("Lab orders and results (FHIR ServiceRequest/Specimen/Observation/DiagnosticReport): LOINC "
                   "test orders, specimen collection, results flagged against reference ranges, lab reports.")
    domain = "healthcare"
    spec_source = None
    State = LabOrdersState

    # ---------------------------------------------------------------- helpers
    def _patient(self, patient_id: str) -> LabPatient:
        return self.lookup(self.state.patients, patient_id, "patient")

    def _order(self, order_id: str, action: Optional[str] = None) -> LabOrder:
        """The order, checked against ``action``'s statuses in :data:`rules.ORDER` when given (409)."""
        o = self.lookup(self.state.orders, order_id, "lab order")
        if action is not None:
            rules.ORDER.check(o.id, o.status, action)
        return o

    def _of(self, collection: dict, order_id: str) -> list:
        return [r for r in collection.values() if r.order_id == order_id]

    def _report(self, order_id: str) -> Optional[DiagnosticReport]:
        return next(iter(self._of(self.state.reports, order_id)), None)

    def _pending(self, o: LabOrder) -> list[str]:
        done = {r.code for r in self._of(self.state.results, o.id)}
        return [a for a in rules.analytes_of(o.test_codes) if a not in done]

    def _view(self, o: LabOrder) -> dict:
        report = self._report(o.id)
        return {**o.model_dump(), "tests": [{"code": c, "display": TESTS[c].display} for c in o.test_codes],
                "specimens_needed": rules.specimen_types(o.test_codes),
                "specimens": [s.model_dump() for s in self._of(self.state.specimens, o.id)],
                "results": [r.model_dump() for r in self._of(self.state.results, o.id)],
                "pending_analytes": self._pending(o), "report": report.model_dump() if report else None}

    def _touch_report(self, o: LabOrder, result_id: Optional[str] = None) -> DiagnosticReport:
        """The order's report (opened preliminary on its first result), with ``result_id`` added."""
        rep = self._report(o.id)
        if rep is None:
            rep = DiagnosticReport(id=self.new_id("RPT"), order_id=o.id, patient_id=o.patient_id,
                                   status="preliminary", issued=self.now())
            self.state.reports[rep.id] = rep
        else:
            rep.issued = self.now()
        if result_id is not None:
            rep.result_ids.append(result_id)
        return rep

    # ------------------------------------------------------------------ reads
    @tool(read_only=True)
    def list_lab_tests(self) -> list[dict]:
        """The orderable tests (LOINC) with their analytes, units, reference ranges and specimen types."""
        return [{"code": t.code, "display": t.display,
                 "analytes": [ANALYTES[a]._asdict() for a in t.analytes]} for t in TESTS.values()]

    @tool(read_only=True, returns=list[LabOrder])
    def search_lab_orders(self, patient_id: Optional[Id("patient")] = None, status: Optional[OrderStatus] = None,
                          requester_id: Optional[Id("practitioner")] = None,
                          appointment_id: Optional[Id("appointment")] = None,
                          limit: int = Field(default=50, ge=1, le=200)) -> list[dict]:
        """Find lab orders by patient, status, ordering practitioner or the visit they were placed at.

        Args:
            patient_id: only this patient's orders, e.g. PAT-0002.
            status: draft, active, completed or revoked.
            requester_id: only orders by this practitioner, e.g. PRA-0002.
            appointment_id: only orders placed at this visit, e.g. APT-0003.
            limit: maximum number of orders (1-200).
        """
        rows = select(self.state.orders.values(), eq("patient_id", patient_id), eq("status", status),
                      eq("requester_id", requester_id), eq("appointment_id", appointment_id), limit=limit)
        return [o.model_dump() for o in rows]

    @tool(read_only=True, returns=LabOrder)
    def get_lab_order(self, lab_order_id: Id("lab_order")) -> dict:
        """One lab order with its tests, specimens, results, analytes still pending and report.

        Args:
            lab_order_id: the order id, e.g. LAB-0001.
        """
        return self._view(self._order(lab_order_id))

    @tool(read_only=True, returns=list[LabResult])
    def list_lab_results(self, patient_id: Optional[Id("patient")] = None,
                         lab_order_id: Optional[Id("lab_order")] = None, code: Optional[str] = None,
                         abnormal_only: bool = False) -> list[dict]:
        """List results (Observations) of a patient or order, optionally one analyte or only flagged ones.

        Args:
            patient_id: only this patient's results.
            lab_order_id: only this order's results.
            code: only this analyte (LOINC), e.g. 13457-7.
            abnormal_only: only results flagged L, H, LL or HH.
        """
        flagged = (lambda r: r.interpretation != "N") if abnormal_only else None
        return [r.model_dump() for r in select(self.state.results.values(), eq("patient_id", patient_id),
                                               eq("order_id", lab_order_id), eq("code", code), flagged)]

    @tool(read_only=True, returns=LabResult)
    def get_lab_result(self, lab_result_id: Id("lab_result")) -> dict:
        """One result with its reference range, flag and the order it belongs to.

        Args:
            lab_result_id: the result id, e.g. OBS-0001.
        """
        r = self.lookup(self.state.results, lab_result_id, "lab result")
        o = self.state.orders[r.order_id]
        return {**r.model_dump(), "requester_id": o.requester_id, "requester_email": o.requester_email,
                "appointment_id": o.appointment_id}

    # ----------------------------------------------------------------- writes
    @tool(read_only=False, returns=LabOrder)
    def create_lab_order(self, patient_id: Id("patient"), requester_id: Id("practitioner"),
                         test_codes: list[str] = Field(min_length=1, max_length=6), priority: Priority = "routine",
                         reason_code: Optional[str] = Field(default=None, pattern=_ICD10),
                         appointment_id: Optional[Id("appointment")] = None,
                         performer: Lab = "Quest Diagnostics") -> dict:
        """Start a draft lab order (ServiceRequest) for compendium tests; activate it to send it to the lab.

        Args:
            patient_id: the patient.
            requester_id: the ordering practitioner, e.g. PRA-0002.
            test_codes: LOINC codes from list_lab_tests, e.g. ["57698-3"].
            priority: routine, urgent, asap or stat.
            reason_code: ICD-10 code of the reason, e.g. E11.9.
            appointment_id: the visit it is ordered at.
            performer: the performing lab.
        """
        p = self._patient(patient_id)
        doc = _DOCTORS.get(requester_id)
        if doc is None:
            raise NotFound(f"no practitioner {requester_id!r}; practitioners are {', '.join(_DOCTORS)}.")
        unknown = [c for c in test_codes if c not in TESTS]
        if unknown:
            raise Unprocessable(f"unknown test code(s) {unknown}; call list_lab_tests.")
        if len(set(test_codes)) != len(test_codes):
            raise Unprocessable("a test is listed twice in test_codes.")
        o = LabOrder(id=self.new_id("LAB"), status="draft", priority=priority, patient_id=p.id, patient_name=p.name,
                     requester_id=doc.id, requester_name=doc.name, requester_email=doc.email,
                     appointment_id=appointment_id, test_codes=test_codes, reason_code=reason_code,
                     performer=performer, authored_on=self.today)
        self.state.orders[o.id] = o
        return self._view(o)

    @tool(read_only=False, returns=LabOrder)
    def activate_lab_order(self, lab_order_id: Id("lab_order")) -> dict:
        """Send a draft order to the lab (draft -> active).

        Args:
            lab_order_id: the draft order.
        """
        o = self._order(lab_order_id, "activation")
        o.status = "active"
        return self._view(o)

    @tool(read_only=False, destructive=True, returns=LabOrder)
    def revoke_lab_order(self, lab_order_id: Id("lab_order"), reason: str = Field(min_length=3, max_length=300)
                         ) -> dict:
        """Revoke a draft or active order (a completed order cannot be revoked: 409).

        Args:
            lab_order_id: the order.
            reason: why it is revoked.
        """
        o = self._order(lab_order_id, "revocation")
        o.status, o.revoked_reason = "revoked", reason
        return self._view(o)

    @tool(read_only=False, returns=Specimen)
    def collect_specimen(self, lab_order_id: Id("lab_order"), specimen_type: SpecimenType,
                         collector: Optional[str] = None) -> dict:
        """Record the draw of a specimen for an active order, of a type its tests need (one per type).

        Args:
            lab_order_id: the active order.
            specimen_type: serum, whole blood or plasma (see the order's specimens_needed).
            collector: the phlebotomist; default the one on duty.
        """
        o = self._order(lab_order_id, "specimen collection")
        needed = rules.specimen_types(o.test_codes)
        if specimen_type not in needed:
            raise Unprocessable(f"order {o.id} needs {', '.join(needed)} specimens, not {specimen_type}.")
        if any(s.type == specimen_type for s in self._of(self.state.specimens, o.id)):
            raise Conflict(f"a {specimen_type} specimen of order {o.id} is already collected.")
        if collector is not None and collector not in COLLECTORS:
            raise NotFound(f"no phlebotomist {collector!r}; phlebotomists: {', '.join(COLLECTORS)}.")
        sid = self.new_id("SPC")
        s = Specimen(id=sid, order_id=o.id, patient_id=o.patient_id, type=specimen_type,
                     container=CONTAINERS[specimen_type], collected_at=self.now(),
                     collector=collector or COLLECTORS[int(sid.split("-")[1]) % len(COLLECTORS)])
        self.state.specimens[sid] = s
        return s.model_dump()

    @tool(read_only=False, returns=LabResult)
    def record_lab_result(self, lab_order_id: Id("lab_order"), code: str,
                          value: float = Field(ge=0, le=_VALUE_MAX), note: str = Field(default="", max_length=300)
                          ) -> dict:
        """Record one analyte's result for an active order; its flag (N, L, H, LL, HH) is computed from
        the reference range. Only once a specimen of the analyte's type is collected (422).

        Args:
            lab_order_id: the active order.
            code: LOINC code of an analyte of the order's tests, e.g. 2823-3.
            value: the measured value, in the analyte's unit.
            note: the lab's comment.
        """
        o = self._order(lab_order_id, "recording a result")
        if code not in rules.analytes_of(o.test_codes):
            raise Unprocessable(f"order {o.id} measures {', '.join(rules.analytes_of(o.test_codes))}, not {code}.")
        a = ANALYTES[code]
        spec = next((s for s in self._of(self.state.specimens, o.id) if s.type == a.specimen), None)
        if spec is None:
            raise Unprocessable(f"{a.display} needs a {a.specimen} specimen and none is collected for {o.id}; "
                                "results are recorded only for collected specimens (collect_specimen).")
        if any(r.code == code for r in self._of(self.state.results, o.id)):
            raise Conflict(f"order {o.id} already has a {code} result; use correct_lab_result.")
        gender = self._patient(o.patient_id).gender
        low, high = a.range_for(gender)
        r = LabResult(id=self.new_id("OBS"), order_id=o.id, patient_id=o.patient_id, specimen_id=spec.id, code=code,
                      display=a.display, value=value, unit=a.unit, reference_low=low, reference_high=high,
                      interpretation=rules.interpret(a, value, gender), status="preliminary",
                      effective_at=spec.collected_at, issued=self.now(), note=note)
        self.state.results[r.id] = r
        self._touch_report(o, r.id)
        return r.model_dump()

    @tool(read_only=False, returns=LabResult)
    def correct_lab_result(self, lab_result_id: Id("lab_result"), value: float = Field(ge=0, le=_VALUE_MAX),
                           reason: str = Field(min_length=3, max_length=300)) -> dict:
        """Correct a result's value (status corrected); its flag is computed again.

        Args:
            lab_result_id: the result.
            value: the corrected value.
            reason: why it was corrected.
        """
        r = self.lookup(self.state.results, lab_result_id, "lab result")
        o = self._order(r.order_id, "a correction")
        if value == r.value:
            raise Conflict(f"result {r.id} already reads {value} {r.unit}.")
        a = ANALYTES[r.code]
        r.value, r.status, r.note = value, "corrected", f"Corrected from {r.value}: {reason}"
        r.interpretation = rules.interpret(a, value, self._patient(o.patient_id).gender)
        r.issued = self.now()
        self._touch_report(o)
        return r.model_dump()

    @tool(read_only=False, returns=DiagnosticReport)
    def release_report(self, lab_order_id: Id("lab_order"), conclusion: str = Field(min_length=3, max_length=1000)
                       ) -> dict:
        """Release the final report of an active order once every analyte has a result (422 otherwise);
        the order is completed and its preliminary results become final.

        Args:
            lab_order_id: the active order.
            conclusion: the report's conclusion.
        """
        o = self._order(lab_order_id, "release")
        pending = self._pending(o)
        if pending:
            raise Unprocessable(f"order {o.id} still has no result for {', '.join(pending)}.")
        rep = self._touch_report(o)
        rep.status, rep.conclusion = "final", conclusion
        for r in self._of(self.state.results, o.id):
            if r.status == "preliminary":
                r.status = "final"
        o.status, o.completed_on = "completed", self.today
        return rep.model_dump()

    @tool(read_only=False, returns=LabOrder)
    def add_lab_order_note(self, lab_order_id: Id("lab_order"), note: str = Field(min_length=1, max_length=500)
                           ) -> dict:
        """Add a note to a lab order (any status).

        Args:
            lab_order_id: the order.
            note: the note text.
        """
        o = self._order(lab_order_id)
        o.notes.append(note)
        return self._view(o)

    # ------------------------------------------------------------------ seeds
    @classmethod
    def build_seed_state(cls, fake: Faker, rng: random.Random, today: dt.date) -> LabOrdersState:
        state = LabOrdersState()
        seed_lab_orders(state, rng, today)
        return state
