"""Pharmacy in chained tasks: a prescription names its patient, its prescriber's email, the quoted
price of a fill, its expiry date and the lab result it treats; a patient's active prescription is
found by their patient id, and the prescription written for a lab result by that result's id.
Writes: dispense the next fill, cancel the prescription, or note it.

The clinic's services share one patient registry, so this module also holds
the allocator of the ids they share (:func:`clinic_id`), the lookups of a
patient's name across them, and the planting of pharmacy patient profiles.
"""

from __future__ import annotations

import datetime as dt
from typing import Any, Optional

from compoworld_gym.checks import OnlyChanged, RecordExists, RecordMatches
from compoworld_gym.envs.services._pharmacy_models import Dispense, PatientProfile, Prescription
from compoworld_gym.envs.services._lab_orders_seed import ORDERS
from compoworld_gym.envs.services._pharmacy_rules import FORMULARY, PHARMACIES, SPECIALTY_PHARMACY
from compoworld_gym.envs.services._pharmacy_seed import PRESCRIPTIONS
from compoworld_gym.envs.services._patient_scheduling_seed import PATIENTS, PRACTITIONERS
from compoworld_gym.generation.context import Ctx, call
from compoworld_gym.generation.hooks.patient_scheduling import CLAIMS, SCHEDULING
from compoworld_gym.generation.links import (
    Action, Found, Give, Need, Reader, Relay, ServiceLinks, SolveError, Write, next_id, pick,
)

PHARMACY, LABS, PRIOR_AUTH = "pharmacy", "lab_orders", "prior_auth"
#: The services of the clinic registry: a patient, policy or visit id means one thing in all of them.
CLINIC = (SCHEDULING, CLAIMS, PHARMACY, LABS, PRIOR_AUTH, "insurance_eligibility", "patient_billing", "referrals")
#: Drugs planted prescriptions are for, by the analyte of the lab result they treat.
_FOR_ANALYTE = {"4548-4": "861007", "2345-7": "861007", "13457-7": "617310", "2093-3": "617310",
                "2571-8": "617310", "3016-3": "966222", "2823-3": "314076"}
_ROUTINE = ("617310", "314076", "861007", "966222")
#: First prescription and lab result numbers past the seeded ones (other services' seeds point at those).
RX_START, OBS_START = len(PRESCRIPTIONS) + 1, sum(len(o.results) for o in ORDERS) + 1


def clinic_id(ctx: Ctx, prefix: str, start: int = len(PATIENTS) + 2) -> str:
    """The next id ``<prefix>-<n>`` free in every mounted clinic service (as ``shared_id`` of the
    scheduling hook, over all of them): the largest counter wins and all move past it."""
    present = [ctx.state(s) for s in CLINIC if s in ctx.states]
    n = max([start] + [s.get("counters", {}).get(prefix, start) for s in present])
    for s in present:
        s.setdefault("counters", {})[prefix] = n + 1
    return f"{prefix}-{n:04d}"


def clinic_patient_id(ctx: Ctx) -> str:
    """Allocate a new patient id of the clinic registry."""
    return clinic_id(ctx, "PAT")


def patient_name(ctx: Ctx, pid: str) -> str:
    """The name the clinic's services already hold for patient ``pid``, else the task's client."""
    for svc, coll in ((SCHEDULING, "patients"), (PHARMACY, "patients"), (LABS, "patients")):
        rec = ctx.states.get(svc, {}).get(coll, {}).get(pid)
        if rec is not None:
            return rec["name"]
    for pol in ctx.states.get(PRIOR_AUTH, {}).get("coverages", {}).values():
        if pol["patient_id"] == pid:
            return pol["subscriber_name"]
    return ctx.client()


def birth_date(ctx: Ctx, pid: str) -> str:
    """Patient ``pid``'s birth date as scheduling holds it, else a seeded adult's (ISO)."""
    rec = ctx.states.get(SCHEDULING, {}).get("patients", {}).get(pid)
    if rec is not None:
        return rec["birth_date"]
    return dt.date(ctx.rng.randint(1950, 2000), ctx.rng.randint(1, 12), ctx.rng.randint(1, 28)).isoformat()


def practitioner_email(ctx: Ctx) -> str:
    """A clinic practitioner's work email (adult care: not pediatrics)."""
    return ctx.rng.choice([d.email for d in PRACTITIONERS if d.specialty != "Pediatrics"])


def practitioner(ctx: Ctx, email: Optional[str]) -> Any:
    """The registry practitioner with ``email`` (any adult-care one when None or unknown)."""
    doc = next((d for d in PRACTITIONERS if email is not None and d.email == email), None)
    if doc is None:
        email = practitioner_email(ctx)
        doc = next(d for d in PRACTITIONERS if d.email == email)
    return doc


def _profile(ctx: Ctx, pid: str) -> str:
    """Add patient ``pid``'s pharmacy profile unless present; returns their name."""
    patients = ctx.state(PHARMACY)["patients"]
    if pid not in patients:
        patients[pid] = PatientProfile(id=pid, name=patient_name(ctx, pid),
                                       birth_date=birth_date(ctx, pid)).model_dump(mode="json")
    return patients[pid]["name"]


def fill_price(ctx: Ctx) -> float:
    """A plausible quoted price of one fill (USD)."""
    return round(ctx.rng.randint(1800, 42000) / 100, 2)


def expiry(ctx: Ctx) -> str:
    """A prescription's last valid day, two to ten months ahead (ISO)."""
    return ctx.day(ctx.rng.randint(60, 300))


def plant_prescription(ctx: Ctx, rx_id: str, *, pid: str, email: Optional[str], price: float, until: str,
                       result_id: Optional[str] = None, code: Optional[str] = None,
                       cancelled: bool = False) -> str:
    """Add an active (or ``cancelled``) one-year prescription ``rx_id`` of patient ``pid`` by the
    prescriber with ``email``, valid until ``until`` (ISO), a fill quoted at ``price`` USD, written
    for lab result ``result_id``; drug ``code`` or one fitting the result. One fill is dispensed
    (none for a specialty drug, which waits for its prior authorization). Returns the id."""
    state = ctx.state(PHARMACY)
    name, doc = _profile(ctx, pid), practitioner(ctx, email)
    result = ctx.states.get(LABS, {}).get("results", {}).get(result_id or "")
    med = FORMULARY[code or (_FOR_ANALYTE.get(result["code"]) if result else None) or ctx.rng.choice(_ROUTINE)]
    last = dt.date.fromisoformat(until)
    written = last - dt.timedelta(days=365)
    pharmacy = SPECIALTY_PHARMACY if med.specialty else ctx.rng.choice(PHARMACIES)
    rx = Prescription(
        id=rx_id, status="cancelled" if cancelled else "active", patient_id=pid, patient_name=name,
        prescriber_id=doc.id, prescriber_name=doc.name, prescriber_email=email or doc.email,
        medication_code=med.code, medication_display=med.display, dosage_instruction="Take as directed daily",
        quantity=2 if med.specialty else 30, unit=med.form, days_supply=28 if med.specialty else 30,
        refills_allowed=5, fills=0 if med.specialty else 1, authored_on=written, valid_until=last,
        reason_reference=result_id, estimated_cost=price, prior_auth_required=med.specialty, pharmacy=pharmacy,
        status_reason="Replaced by a new prescription" if cancelled else None)
    state["prescriptions"][rx_id] = rx.model_dump(mode="json")
    if rx.fills:
        did = next_id(state, "MD")
        state["dispenses"][did] = Dispense(
            id=did, prescription_id=rx_id, patient_id=pid, medication_code=med.code, quantity=rx.quantity,
            fill_number=1, days_supply=rx.days_supply, handed_over_on=written + dt.timedelta(days=1),
            pharmacy=pharmacy).model_dump(mode="json")
    return rx_id


def make_specialty(ctx: Ctx, rx_id: str, code: str) -> None:
    """Turn planted prescription ``rx_id`` into one for specialty drug ``code`` (a prior authorization
    is being filed for it): two pens a fill, none dispensed yet, filled by the specialty pharmacy.
    Its patient, prescriber, price, expiry and reason stay as they were."""
    state = ctx.state(PHARMACY)
    med, rx = FORMULARY[code], state["prescriptions"][rx_id]
    rx.update(medication_code=med.code, medication_display=med.display, unit=med.form, quantity=2, days_supply=28,
              fills=0, prior_auth_required=True, prior_authorization_id=None, pharmacy=SPECIALTY_PHARMACY)
    state["prescriptions"][rx_id] = Prescription.model_validate(rx).model_dump(mode="json")
    for did in [d for d, rec in state["dispenses"].items() if rec["prescription_id"] == rx_id]:
        del state["dispenses"][did]


def _plant(ctx: Ctx, key: Any, outs: dict[str, Any], stale: bool, by: str) -> str:
    state = ctx.state(PHARMACY)
    rid = key if by == "id" else next_id(state, "RX")
    pid, code, result = outs.get("patient_id"), None, outs.get("lab_result_id")
    if by == "patient":
        pid = key
    if by == "result":
        result = key
        pid = ctx.states.get(LABS, {}).get("results", {}).get(key, {}).get("patient_id")
    if by == "id":  # a prior authorization filed for this prescription names the patient and the drug
        pa = next((r for r in ctx.states.get(PRIOR_AUTH, {}).get("requests", {}).values()
                   if r.get("prescription_id") == key), None)
        if pa is not None:
            pid, code = pid or pa["patient_id"], pa["code"] if pa["request_type"] == "medication" else None
    return plant_prescription(ctx, rid, pid=pid or clinic_patient_id(ctx), email=outs.get("email"),
                              price=outs.get("money") or fill_price(ctx), until=outs.get("date") or expiry(ctx),
                              result_id=result, code=code, cancelled=stale)


def _get(reader: Reader, key: Any) -> dict[str, Any]:
    return reader.read(PHARMACY, "get_prescription", prescription_id=key)


def _active(reader: Reader, **where: Any) -> dict[str, Any]:
    rows = reader.read(PHARMACY, "search_prescriptions", status="active", limit=200, **where)
    return _get(reader, pick(rows, **where)["id"])


_PRESCRIBER = Give("email", "prescriber_email", "the prescriber's work email", "the prescriber",
                   draw=practitioner_email)
_PRICE = Give("money", "estimated_cost", "the quoted price of one fill", draw=fill_price)
_EXPIRY = Give("date", "valid_until", "the prescription's expiry date", "the prescription expiry", draw=expiry)
_TRUTH = "A cancelled prescription is void; only the active prescription counts."

PRESCRIPTION = Relay(
    service=PHARMACY, name="prescription", key="prescription_id",
    gives=(Give("patient_id", "patient_id", "the patient's id"), _PRESCRIBER, _PRICE, _EXPIRY,
           Give("lab_result_id", "reason_reference", "the lab result the prescription treats")),
    plant=lambda ctx, key, outs, stale: _plant(ctx, key, outs, stale, "id"), find=_get,
    where="Each prescription names the patient, the prescriber, the quoted price of a fill, its expiry "
          "date and the lab result it was written for.",
    alloc=lambda ctx: clinic_id(ctx, "RX", start=RX_START), entry=lambda key: f"prescription {key}")

PATIENT_PRESCRIPTION = Relay(
    service=PHARMACY, name="patient's active prescription", key="patient_id",
    gives=(Give("prescription_id", "id", "the patient's active prescription"), _PRESCRIBER, _PRICE, _EXPIRY),
    plant=lambda ctx, key, outs, stale: _plant(ctx, key, outs, stale, "patient"),
    find=lambda reader, key: _active(reader, patient_id=key),
    where="The e-prescribing system files prescriptions under the patient's id.", alloc=clinic_patient_id,
    truth=_TRUTH)

RESULT_PRESCRIPTION = Relay(
    service=PHARMACY, name="prescription for a lab result", key="lab_result_id",
    gives=(Give("prescription_id", "id", "the prescription written for the lab result"), _PRESCRIBER, _PRICE,
           _EXPIRY),
    plant=lambda ctx, key, outs, stale: _plant(ctx, key, outs, stale, "result"),
    find=lambda reader, key: _active(reader, reason_reference=key),
    where="A prescription written because of a lab result names that result as its reason.",
    alloc=lambda ctx: clinic_id(ctx, "OBS", start=OBS_START), truth=_TRUTH)


def _scope(rid: str) -> list[OnlyChanged]:
    return [OnlyChanged(id="_", service=PHARMACY, collection="prescriptions", allow_ids=[rid],
                        description="No other prescription was changed or written.")]


def _dispense(reader: Reader, args: dict[str, Found]) -> Write:
    rid, mention, case = args["prescription"].value, args["mention"], args["case"].value
    rx = _get(reader, rid)
    if rx["status"] != "active" or rx["expired"] or (rx["prior_auth_required"] and not rx["prior_authorization_id"]):
        raise SolveError(f"prescription {rid} cannot be dispensed")
    note = f"{case}: {mention.noun} is {mention.display}"[:300]
    where = {"prescription_id": rid, "quantity": rx["quantity"], "fill_number": rx["fills"] + 1,
             "note": {"$all": [{"$contains": case}, {"$contains": mention.display}]}}
    return Write(
        calls=[call("dispense_prescription", prescription_id=rid, quantity=rx["quantity"], note=note)],
        checks=[RecordExists(id="_", service=PHARMACY, collection="dispenses", where=where,
                             description="The next fill of the prescription is dispensed in full, the note "
                                         "quoting the case and the value.")],
        scope=_scope(rid) + [OnlyChanged(id="_", service=PHARMACY, collection="dispenses", max_new=1,
                                         allow_new={"prescription_id": rid},
                                         description="No other fill was dispensed.")],
        tool="dispense_prescription", where={"prescription_id": rid}, label="the prescription fill")


def _cancel(reader: Reader, args: dict[str, Found]) -> Write:
    rid, mention, case = args["prescription"].value, args["mention"], args["case"].value
    _get(reader, rid)
    return Write(
        calls=[call("cancel_prescription", prescription_id=rid, reason=f"{case}: {mention.noun} is {mention.display}"
                    [:300])],
        checks=[RecordMatches(id="_", service=PHARMACY, collection="prescriptions", record_id=rid,
                              where={"status": "cancelled", "status_reason": {"$contains": mention.display}},
                              description="The prescription is cancelled, the reason quoting the value.")],
        scope=_scope(rid) + [OnlyChanged(id="_", service=PHARMACY, collection="dispenses",
                                         description="Nothing was dispensed.")],
        tool="cancel_prescription", where={"prescription_id": rid}, label="the prescription cancellation")


def _note(reader: Reader, args: dict[str, Found]) -> Write:
    rid, mention, case = args["prescription"].value, args["mention"], args["case"].value
    _get(reader, rid)
    return Write(
        calls=[call("add_prescription_note", prescription_id=rid,
                    note=f"{case}: {mention.noun} is {mention.display}.")],
        checks=[RecordMatches(id="_", service=PHARMACY, collection="prescriptions", record_id=rid,
                              where={"notes": {"$some": {"$all": [{"$contains": case},
                                                                  {"$contains": mention.display}]}}},
                              description="A note on the prescription quotes the case and the right value.")],
        scope=_scope(rid), tool="add_prescription_note", where={"prescription_id": rid},
        label="the note on the prescription")


_RX = (Need("prescription", "prescription_id"),)

LINKS = ServiceLinks(
    service=PHARMACY, label="the e-prescribing system",
    relays=(PRESCRIPTION, PATIENT_PRESCRIPTION, RESULT_PRESCRIPTION),
    actions=(
        Action(service=PHARMACY, name="dispense", needs=_RX, build=_dispense,
               goal="dispense the next fill of the prescription in full, the pharmacist's note quoting {mention}"),
        Action(service=PHARMACY, name="cancel", needs=_RX, build=_cancel,
               goal="cancel the prescription, the cancellation reason quoting {mention}"),
        Action(service=PHARMACY, name="note", needs=_RX, build=_note,
               goal="add a note to the prescription stating {mention}"),
    ),
)

__all__ = ["CLINIC", "LINKS", "OBS_START", "RX_START", "birth_date", "clinic_id", "clinic_patient_id",
           "make_specialty", "patient_name", "plant_prescription", "practitioner", "practitioner_email"]
