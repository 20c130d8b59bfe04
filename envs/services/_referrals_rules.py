"""Rules of the referrals service: who may receive a referral, when the payer must authorize it, and the
statuses a referral (ServiceRequest) and its task move through.

A referral goes to a practitioner of the specialty asked for who accepts new
patients; an HMO member's referral must go to a practitioner in their payer's
network. The payer must authorize the referral before it is sent when the
patient's plan is an HMO or the specialty is one payers review
(:data:`AUTH_SPECIALTIES`). A referral is written as a draft, sent (active:
a task goes to the receiving practitioner), completed when the consult
report comes back, or revoked while draft or active (its open task is
cancelled). The task is requested, then accepted or rejected by the
receiving practice; an accepted task is in progress once the specialist
visit is booked and completed with the consult report. A rejected referral
is redirected to another practitioner (a new task). A referral is used
within :data:`VALID_DAYS` days of being written.
"""

from __future__ import annotations

from compoworld_gym.envs.services._blocks import Lifecycle
from compoworld_gym.envs.services._referrals_models import ReferralPatient, Specialist
from compoworld_gym.errors import Unprocessable

#: Specialties payers review before a referral is sent, whatever the plan.
AUTH_SPECIALTIES = frozenset({"Orthopedic Surgery", "Physical Therapy", "Sleep Medicine", "Neurosurgery"})
#: Days a referral may be used after it is written.
VALID_DAYS = 90

REFERRAL = Lifecycle("referral", {"editing": ("draft",), "authorization": ("draft",), "sending": ("draft",),
                                  "revocation": ("draft", "active"), "redirection": ("active",),
                                  "completion": ("active",)})
TASK = Lifecycle("task", {"acceptance": ("requested",), "rejection": ("requested",), "scheduling": ("accepted",),
                          "completion": ("in-progress",)})


def needs_authorization(patient: ReferralPatient, specialty: str) -> bool:
    """Whether the payer must authorize a referral of ``patient`` to ``specialty``."""
    return patient.insurance_type == "HMO" or specialty in AUTH_SPECIALTIES


def check_performer(patient: ReferralPatient, doc: Specialist, specialty: str) -> None:
    """``doc`` may receive ``patient``'s referral to ``specialty``.

    Raises:
        Unprocessable: 422 for another specialty, a practitioner not accepting new patients, or an HMO member's
            referral out of the payer's network.
    """
    if doc.specialty.lower() != specialty.lower():
        raise Unprocessable(f"{doc.name} practises {doc.specialty}, not {specialty}; list_specialists shows who does.")
    if not doc.accepting_new_patients:
        raise Unprocessable(f"{doc.name} is not accepting new patients; refer to another {specialty} practitioner.")
    if patient.insurance_type == "HMO" and patient.payer not in doc.network_payers:
        raise Unprocessable(f"{doc.name} is out of {patient.payer}'s network; an HMO member is referred in network.")
