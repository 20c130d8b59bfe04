"""Patient scheduling in chained tasks: an appointment names its patient
(id and name) and its day; a patient's record gives their email, name and
phone; a patient's upcoming appointment is found by their email. Writes:
cancel the appointment, or comment on it. Patient ids are shared with the
claims clearinghouse (``insurance_claims``), so both allocate them here."""

from __future__ import annotations

import datetime as dt
from typing import Any

from compoworld_gym.checks import OnlyChanged, RecordMatches
from compoworld_gym.envs.services._patient_scheduling_models import Appointment, Coverage, Patient, Slot
from compoworld_gym.envs.services._patient_scheduling_seed import PATIENTS, PRACTITIONERS, REASONS
from compoworld_gym.generation.context import Ctx, call
from compoworld_gym.generation.links import Action, Found, Give, Need, Reader, Relay, ServiceLinks, Write, next_id

SCHEDULING, CLAIMS = "patient_scheduling", "insurance_claims"
DATE_RX = r"\d{4}-\d{2}-\d{2}"
#: Practitioners planted appointments are with (adults only: not pediatrics).
_DOCTORS = [d for d in PRACTITIONERS if d.specialty != "Pediatrics"]


def shared_id(ctx: Ctx, prefix: str, start: int = len(PATIENTS) + 2) -> str:
    """The next id ``<prefix>-<n>`` free in both clinic services' states (patients and
    policies are one registry): the larger counter wins and both move past it."""
    present = [ctx.state(s) for s in (SCHEDULING, CLAIMS) if s in ctx.states]
    n = max([start] + [s["counters"].get(prefix, start) for s in present])
    for s in present:
        s["counters"][prefix] = n + 1
    return f"{prefix}-{n:04d}"


def patient_id(ctx: Ctx) -> str:
    """Allocate a new patient id shared by the scheduling and claims systems."""
    return shared_id(ctx, "PAT")


def plant_patient(ctx: Ctx, pid: str, *, name: str, email: str, phone: str) -> str:
    """Add patient ``pid`` to the scheduling system unless present; their coverage is the
    claims system's active policy for them, when one is planted. Returns the id."""
    state = ctx.state(SCHEDULING)
    if pid in state["patients"]:
        return pid
    cov = None
    for pol in ctx.states.get(CLAIMS, {}).get("policies", {}).values():
        if pol["patient_id"] == pid and pol["status"] == "active":
            cov = Coverage(payer=pol["payer"], member_id=pol["member_id"], policy_id=pol["id"])
    born = dt.date(ctx.rng.randint(1950, 2000), ctx.rng.randint(1, 12), ctx.rng.randint(1, 28))
    state["patients"][pid] = Patient(id=pid, name=name, birth_date=born, gender="unknown", email=email, phone=phone,
                                     coverage=cov).model_dump(mode="json")
    return pid


def plant_appointment(ctx: Ctx, aid: str, *, pid: str, name: str, day: str, cancelled: bool = False) -> str:
    """Add a booked (or cancelled) 30-minute appointment of patient ``pid`` on ``day`` in a new
    slot of an adult practitioner; returns the id.

    Raises:
        pydantic.ValidationError: the fields do not make valid records.
    """
    state = ctx.state(SCHEDULING)
    doc = ctx.rng.choice(_DOCTORS)
    start = dt.datetime.fromisoformat(f"{day}T{ctx.rng.choice((9, 10, 11, 14, 15, 16)):02d}:30:00")
    sid = next_id(state, "SLT")
    sch = next(s["id"] for s in state["schedules"].values() if s["practitioner_id"] == doc.id)
    state["slots"][sid] = Slot(id=sid, schedule_id=sch, practitioner_id=doc.id, start=start,
                               end=start + dt.timedelta(minutes=30),
                               status="free" if cancelled else "busy").model_dump(mode="json")
    state["appointments"][aid] = Appointment(
        id=aid, status="cancelled" if cancelled else "booked", slot_id=sid, patient_id=pid, patient_name=name,
        practitioner_id=doc.id, practitioner_email=doc.email, start=start, end=start + dt.timedelta(minutes=30),
        service_type="follow-up", reason=ctx.rng.choice(REASONS[doc.specialty]), created=ctx.day(-5),
        cancellation_reason="Rebooked by the patient" if cancelled else None).model_dump(mode="json")
    return aid


def _plant(ctx: Ctx, key: Any, outs: dict[str, Any], stale: bool, by: str) -> str:
    state = ctx.state(SCHEDULING)
    name = outs.get("person_name") or ctx.client()
    if by == "patient":
        return plant_patient(ctx, key, name=name, email=outs.get("email") or ctx.person()[1],
                             phone=outs.get("phone") or ctx.fresh("phone"))
    email = key if by == "email" else ctx.person()[1]
    known = [p["id"] for p in state["patients"].values() if by == "email" and (p.get("email") or "") == email]
    pid = outs.get("patient_id") or (known[0] if known else patient_id(ctx))
    plant_patient(ctx, pid, name=name, email=email, phone=ctx.fresh("phone"))
    name = state["patients"][pid]["name"]
    aid = key if by == "id" else next_id(state, "APT")
    day = outs.get("date") or ctx.day(ctx.rng.randint(2, 20))
    return plant_appointment(ctx, aid, pid=pid, name=name, day=day, cancelled=stale)


def _by_id(reader: Reader, key: Any) -> dict[str, Any]:
    return reader.read(SCHEDULING, "read_appointment", appointment_id=key)


def _upcoming(reader: Reader, key: Any) -> dict[str, Any]:
    from compoworld_gym.generation.links import pick

    patient = pick(reader.read(SCHEDULING, "search_patients", email=key), email=key)
    rows = reader.read(SCHEDULING, "search_appointments", patient_id=patient["id"], status="booked", limit=200)
    return _by_id(reader, pick(rows, patient_id=patient["id"])["id"])


_DAY = Give("date", "start", "the appointment date", pattern=DATE_RX)

APPOINTMENT = Relay(
    service=SCHEDULING, name="clinic appointment", key="appointment_id",
    gives=(Give("appointment_id", "id", "the clinic appointment"),
           Give("patient_id", "patient_id", "the patient's id"),
           Give("person_name", "patient_name", "the patient's name", "the customer"), _DAY),
    plant=lambda ctx, key, outs, stale: _plant(ctx, key, outs, stale, "id"), find=_by_id,
    where="Each clinic appointment names the patient (id and name) and the day of the visit.",
    alloc=lambda ctx: next_id(ctx.state(SCHEDULING), "APT"), entry=lambda key: f"clinic appointment {key}")

PATIENT = Relay(
    service=SCHEDULING, name="patient record", key="patient_id",
    gives=(Give("email", "email", "the patient's email address", "the customer"),
           Give("person_name", "name", "the patient's name", "the customer"),
           Give("phone", "phone", "the patient's phone number", "the customer")),
    plant=lambda ctx, key, outs, stale: _plant(ctx, key, outs, stale, "patient"),
    find=lambda reader, key: reader.read(SCHEDULING, "read_patient", patient_id=key),
    where="The clinic's patient record holds the patient's email address, name and phone number.",
    alloc=patient_id, entry=lambda key: f"patient {key}")

PATIENT_APPOINTMENT = Relay(
    service=SCHEDULING, name="patient's upcoming appointment", key="email",
    gives=(Give("appointment_id", "id", "the patient's upcoming appointment"),
           Give("patient_id", "patient_id", "the patient's id"), _DAY),
    plant=lambda ctx, key, outs, stale: _plant(ctx, key, outs, stale, "email"), find=_upcoming,
    where="Clinic patients are registered under their email address, with their appointments.",
    truth="A cancelled appointment is void; only the patient's booked appointment counts.")


def _scope(aid: str) -> list[OnlyChanged]:
    return [OnlyChanged(id="_", service=SCHEDULING, collection="appointments", allow_ids=[aid],
                        description="No other appointment was changed or booked.")]


def _cancel(reader: Reader, args: dict[str, Found]) -> Write:
    aid, mention, case = args["appointment"].value, args["mention"], args["case"].value
    _by_id(reader, aid)
    reason = f"{case}: {mention.noun} is {mention.display}"[:300]
    return Write(
        calls=[call("cancel_appointment", appointment_id=aid, reason=reason)],
        checks=[RecordMatches(id="_", service=SCHEDULING, collection="appointments", record_id=aid,
                              where={"status": "cancelled", "cancellation_reason": {"$contains": mention.display}},
                              description="The appointment is cancelled, the reason quoting the value.")],
        scope=_scope(aid), tool="cancel_appointment", where={"appointment_id": aid},
        label="the appointment cancellation")


def _comment(reader: Reader, args: dict[str, Found]) -> Write:
    aid, mention, case = args["appointment"].value, args["mention"], args["case"].value
    _by_id(reader, aid)
    return Write(
        calls=[call("add_appointment_comment", appointment_id=aid,
                    comment=f"{case}: {mention.noun} is {mention.display}.")],
        checks=[RecordMatches(id="_", service=SCHEDULING, collection="appointments", record_id=aid,
                              where={"comments": {"$some": {"$all": [{"$contains": case},
                                                                     {"$contains": mention.display}]}}},
                              description="A comment on the appointment quotes the case and the right value.")],
        scope=_scope(aid), tool="add_appointment_comment", where={"appointment_id": aid},
        label="the comment on the appointment")


LINKS = ServiceLinks(
    service=SCHEDULING, label="the clinic scheduling system",
    relays=(APPOINTMENT, PATIENT, PATIENT_APPOINTMENT),
    actions=(
        Action(service=SCHEDULING, name="cancel", needs=(Need("appointment", "appointment_id"),), build=_cancel,
               goal="cancel the patient's clinic appointment, the cancellation reason quoting {mention}"),
        Action(service=SCHEDULING, name="comment", needs=(Need("appointment", "appointment_id"),), build=_comment,
               goal="add a comment to the patient's clinic appointment stating {mention}"),
    ),
)

__all__ = ["LINKS", "patient_id", "plant_appointment", "plant_patient", "shared_id"]
