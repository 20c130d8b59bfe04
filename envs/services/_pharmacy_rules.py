"""Business rules of the pharmacy service: the formulary, DEA limits, drug-utilization review and dispensing.

Rules (as e-prescribing networks and US federal law apply them):

* a prescription is valid 365 days; a schedule III-V one 180 days with at
  most 5 refills; a schedule II one 90 days with no refills at all (422);
* only a prescriber with a DEA registration writes controlled substances (422);
* drug-utilization review: an allergy on file matching the drug's ingredient
  or class, or an interaction with one of the patient's active prescriptions,
  raises an alert; a prescription with alerts needs an override reason (422);
* a fill is dispensed only from an active prescription (409), on or before
  its last valid day, for at most the prescribed quantity, while a fill
  remains (the first fill plus the refills allowed), and for a specialty
  drug only with a prior authorization on file (422).
"""

from __future__ import annotations

import datetime as dt
from typing import NamedTuple, Optional

from compoworld_gym.envs.services._blocks import Lifecycle
from compoworld_gym.envs.services._pharmacy_models import DrugAlert, Medication, PatientProfile, Prescription
from compoworld_gym.envs.services._patient_scheduling_seed import PRACTITIONERS
from compoworld_gym.errors import Unprocessable


def _med(code: str, display: str, ingredient: str, drug_class: str, form: str, price: float,
         schedule: Optional[str] = None, specialty: bool = False) -> Medication:
    return Medication(code=code, display=display, ingredient=ingredient, drug_class=drug_class, form=form,
                      unit_price=price, schedule=schedule, specialty=specialty)


#: The formulary by RxNorm-style code.
FORMULARY: dict[str, Medication] = {m.code: m for m in (
    _med("617310", "Atorvastatin 20 MG Oral Tablet", "atorvastatin", "statin", "tablet", 0.35),
    _med("314076", "Lisinopril 10 MG Oral Tablet", "lisinopril", "ace inhibitor", "tablet", 0.12),
    _med("861007", "Metformin Hydrochloride 500 MG Oral Tablet", "metformin", "biguanide", "tablet", 0.09),
    _med("966222", "Levothyroxine Sodium 0.05 MG Oral Tablet", "levothyroxine", "thyroid hormone", "tablet", 0.28),
    _med("855332", "Warfarin Sodium 5 MG Oral Tablet", "warfarin", "anticoagulant", "tablet", 0.21),
    _med("308191", "Amoxicillin 500 MG Oral Capsule", "amoxicillin", "penicillin", "capsule", 0.18),
    _med("198335", "Sulfamethoxazole 800 MG / Trimethoprim 160 MG Oral Tablet", "sulfamethoxazole",
         "sulfonamide", "tablet", 0.31),
    _med("308460", "Azithromycin 250 MG Oral Tablet", "azithromycin", "macrolide", "tablet", 1.10),
    _med("197806", "Ibuprofen 600 MG Oral Tablet", "ibuprofen", "nsaid", "tablet", 0.10),
    _med("745679", "Albuterol 0.09 MG/ACTUAT Metered Dose Inhaler", "albuterol", "bronchodilator", "inhaler", 38.5),
    _med("1049621", "Oxycodone Hydrochloride 5 MG Oral Tablet", "oxycodone", "opioid", "tablet", 0.65, "II"),
    _med("308048", "Alprazolam 0.5 MG Oral Tablet", "alprazolam", "benzodiazepine", "tablet", 0.24, "IV"),
    _med("1049221", "Tramadol Hydrochloride 50 MG Oral Tablet", "tramadol", "opioid", "tablet", 0.19, "IV"),
    _med("1991306", "Semaglutide 1 MG/DOSE Pen Injector", "semaglutide", "glp-1 agonist", "pen", 997.58,
         specialty=True),
    _med("2002419", "Adalimumab 40 MG/0.4 ML Pen Injector", "adalimumab", "tnf blocker", "pen", 3461.0,
         specialty=True),
    _med("1876376", "Dupilumab 300 MG/2 ML Pen Injector", "dupilumab", "interleukin blocker", "pen", 1893.0,
         specialty=True),
)}


class Interaction(NamedTuple):
    """A drug-class interaction: severity and the alert text."""

    severity: str
    message: str


#: Interactions between drug classes (either order).
INTERACTIONS: dict[frozenset[str], Interaction] = {
    frozenset({"anticoagulant", "nsaid"}): Interaction("high", "NSAIDs with warfarin raise the risk of bleeding"),
    frozenset({"anticoagulant", "sulfonamide"}): Interaction("high", "sulfamethoxazole raises warfarin's INR"),
    frozenset({"anticoagulant", "macrolide"}): Interaction("moderate", "macrolides may raise warfarin's INR"),
    frozenset({"opioid", "benzodiazepine"}): Interaction(
        "high", "opioids with benzodiazepines risk profound sedation and respiratory depression"),
    frozenset({"statin", "macrolide"}): Interaction("moderate", "macrolides raise statin levels (myopathy risk)"),
    frozenset({"ace inhibitor", "nsaid"}): Interaction("moderate",
                                                       "NSAIDs blunt ACE inhibitors and strain the kidneys"),
}


class Prescriber(NamedTuple):
    """A clinic practitioner as a prescriber: registry id, name, email, specialty, DEA number (or "")."""

    id: str
    name: str
    email: str
    specialty: str
    dea_number: str


#: DEA registrations of the clinic's practitioners (dermatology holds none).
_DEA = {"PRA-0001": "BM4127735", "PRA-0002": "BO2285416", "PRA-0003": "BF3390128", "PRA-0004": "BA5512093",
        "PRA-0006": "BL6604481"}
PRESCRIBERS: dict[str, Prescriber] = {
    p.id: Prescriber(p.id, p.name, p.email, p.specialty, _DEA.get(p.id, "")) for p in PRACTITIONERS}
#: Retail and specialty pharmacies prescriptions are routed to.
PHARMACIES: tuple[str, ...] = ("Riverside Community Pharmacy", "CVS Pharmacy #4821", "Walgreens #10377")
SPECIALTY_PHARMACY = "Accredo Specialty Pharmacy"
#: Days a prescription stays valid, by DEA schedule (None: not controlled).
VALID_DAYS: dict[Optional[str], int] = {None: 365, "II": 90, "III": 180, "IV": 180, "V": 180}
#: Most refills by DEA schedule.
MAX_REFILLS: dict[Optional[str], int] = {None: 11, "II": 0, "III": 5, "IV": 5, "V": 5}

#: Statuses each prescription action starts from (409 otherwise).
PRESCRIPTION = Lifecycle("prescription", {
    "dispensing": ("active",), "a refill request": ("active",), "cancellation": ("active",),
    "attaching a prior authorization": ("active",),
})


def check_limits(med: Medication, prescriber: Prescriber, refills: int) -> None:
    """The DEA rules for writing ``med`` with ``refills`` refills.

    Raises:
        Unprocessable: 422 naming the broken rule.
    """
    if med.schedule and not prescriber.dea_number:
        raise Unprocessable(f"{prescriber.name} has no DEA registration and cannot prescribe schedule "
                            f"{med.schedule} drugs; ask a prescriber with one (list_prescribers).")
    most = MAX_REFILLS[med.schedule]
    if refills > most:
        what = f"schedule {med.schedule} drugs" if med.schedule else "a prescription"
        raise Unprocessable(f"{what} allow at most {most} refills; {refills} were asked"
                            + (" (a schedule II drug needs a new prescription each fill)." if med.schedule == "II"
                               else "."))


def screen(med: Medication, patient: PatientProfile, active: list[Prescription]) -> list[DrugAlert]:
    """The DUR alerts of prescribing ``med`` to ``patient``, who takes the ``active`` prescriptions."""
    alerts = []
    for a in patient.allergies:
        if a.substance in (med.ingredient, med.drug_class):
            alerts.append(DrugAlert(kind="allergy", severity="high" if a.criticality == "high" else "moderate",
                                    message=f"{patient.name} is allergic to {a.substance} ({a.reaction}); "
                                            f"{med.display} is {med.ingredient} ({med.drug_class})."))
    for rx in active:
        other = FORMULARY.get(rx.medication_code)
        hit = INTERACTIONS.get(frozenset({med.drug_class, other.drug_class})) if other else None
        if hit is not None:
            alerts.append(DrugAlert(kind="interaction", severity=hit.severity, other_prescription_id=rx.id,
                                    message=f"{med.ingredient} with {other.ingredient} ({rx.id}): {hit.message}."))
    return alerts


def refills_remaining(rx: Prescription) -> int:
    """Refills still available: the fills allowed (first plus refills) not yet dispensed, less the first."""
    return max(0, min(rx.refills_allowed, rx.refills_allowed + 1 - rx.fills))


def check_fill(rx: Prescription, quantity: int, today: dt.date) -> None:
    """Whether one more fill of ``quantity`` units may be dispensed from active prescription ``rx`` today.

    Raises:
        Unprocessable: 422 for an expired prescription, an over-quantity fill, no fill left, or a
            specialty drug without a prior authorization on file.
    """
    if today > rx.valid_until:
        raise Unprocessable(f"prescription {rx.id} expired on {rx.valid_until}; the prescriber must write a new one.")
    if quantity > rx.quantity:
        raise Unprocessable(f"prescription {rx.id} is for {rx.quantity} {rx.unit}(s) a fill; "
                            f"{quantity} cannot be dispensed.")
    if rx.fills >= rx.refills_allowed + 1:
        raise Unprocessable(f"prescription {rx.id} has no refills left ({rx.refills_allowed} allowed, all used); "
                            "the prescriber must write a new one.")
    if rx.prior_auth_required and rx.prior_authorization_id is None:
        raise Unprocessable(f"{rx.medication_display} is a specialty drug: attach the payer's approved prior "
                            f"authorization to {rx.id} (attach_prior_authorization) before dispensing.")


def check_refillable(rx: Prescription, today: dt.date) -> None:
    """Whether a refill of ``rx`` may be requested today (first fill made, a refill left, valid, not schedule II).

    Raises:
        Unprocessable: 422 naming the broken rule.
    """
    if rx.schedule == "II":
        raise Unprocessable(f"{rx.medication_display} is schedule II: it cannot be refilled; "
                            "the prescriber must write a new prescription.")
    if rx.fills == 0:
        raise Unprocessable(f"prescription {rx.id} has not had its first fill; dispense it instead.")
    if today > rx.valid_until:
        raise Unprocessable(f"prescription {rx.id} expired on {rx.valid_until}; no refill is possible.")
    if refills_remaining(rx) == 0:
        raise Unprocessable(f"prescription {rx.id} has no refills left ({rx.refills_allowed} allowed, all used).")
