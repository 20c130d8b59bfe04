"""Referrals: specialist referrals after HL7 FHIR R4 ServiceRequest + Task (Epic / athenahealth referral management).

No referral server is in ``compoworld_gym/data/mcp_servers.jsonl``
(``spec_source = None``); the interface follows FHIR R4 as EHR referral
modules expose it: a referral is a ``ServiceRequest`` (category referral,
intent order; ``status`` draft / active / completed / revoked, ``priority``
routine / urgent / asap / stat, ``subject`` the patient, ``requester`` the
referring practitioner, ``performerType`` the specialty and ``performer`` the
receiving ``PractitionerRole``, ``reasonCode`` ICD-10 and its text,
``encounter`` the visit it was written at, ``occurrence`` the date wanted,
``insurance`` the policy, and the payer's authorization as Epic's referral
authorization fields), carried to the receiving practice by a ``Task``
(``focus`` the ServiceRequest, ``owner`` the receiver, ``status`` requested /
accepted / rejected / in-progress / completed / cancelled, ``businessStatus``,
``statusReason``, ``output`` the booked specialist visit and the consult
report). The rules are in ``_referrals_rules``: the receiver practises the
specialty and accepts new patients, an HMO member is referred in network, a
referral the payer must authorize is sent only with its authorization, a
rejected referral is redirected, a completed one cannot be revoked, the
consult report comes after the specialist visit. Patients are the clinic
registry's with the claims clearinghouse's active policy; authorizations
name ``prior_auth``'s requests. Left out: FHIR search parameters beyond those
here, attachments (CDA / documents) and Direct messaging transport.
"""

from __future__ import annotations

import datetime as dt
import random
from typing import Optional

from faker import Faker
from pydantic import Field

from compoworld_gym.entities import Date, DateTime, Id
from compoworld_gym.envs.services import _referrals_rules as rules
from compoworld_gym.envs.services._patient_scheduling_seed import PRACTITIONERS
from compoworld_gym.envs.services._referrals_models import Priority, Referral, ReferralsState, ReferralTask
from compoworld_gym.envs.services._referrals_reads import ReferralReads
from compoworld_gym.envs.services._referrals_seed import build_state
from compoworld_gym.envs.services.patient_scheduling import PatientScheduling
from compoworld_gym.errors import Conflict, InvalidArgument, NotFound, Unprocessable
from compoworld_gym.service import tool

_REQUESTERS = {d.id: d for d in PRACTITIONERS}
Text = Field(min_length=3, max_length=500)


class Referrals(ReferralReads):
    """FHIR-style referral management: ServiceRequests to specialists and the Tasks that carry them."""

    name = "referrals"
    description = ("Specialist referrals (FHIR R4 ServiceRequest + Task, as in Epic / athenahealth): referring and "
                   "receiving practitioners, reason, payer authorization, sending, the receiving practice's "
                   "acceptance, booking and consult report, revocation.")
    domain = "healthcare"
    spec_source = None
    State = ReferralsState

    # ----------------------------------------------------------------- writes
    @tool(read_only=False, returns=Referral)
    def create_service_request(self, patient_id: Id("patient"), requester_id: Id("practitioner"),
                               specialty: str = Field(min_length=3, max_length=60),
                               reason_code: str = Field(pattern=r"^[A-Z]\d{2}(\.[0-9A-Z]{1,4})?$"),
                               reason: str = Text, performer_id: Optional[Id("practitioner")] = None,
                               priority: Priority = "routine", needed_by: Optional[Date] = None,
                               appointment_id: Optional[Id("appointment")] = None) -> dict:
        """Write a draft referral of a patient to a specialty (and, optionally, a receiving practitioner).

        Args:
            patient_id: the patient referred.
            requester_id: the referring clinic practitioner, e.g. PRA-0001.
            specialty: the specialty referred to, e.g. Gastroenterology (list_specialists).
            reason_code: ICD-10 code of the reason, e.g. K21.9.
            reason: why, in words.
            performer_id: the receiving practitioner (can be chosen later).
            priority: routine, urgent, asap or stat.
            needed_by: date the specialist visit is wanted by (default 45 days, 14 if not routine).
            appointment_id: the clinic visit the referral is written at.
        """
        pat = self.lookup(self.state.patients, patient_id, "patient")
        doc = _REQUESTERS.get(requester_id)
        if doc is None:
            raise NotFound(f"{requester_id} is not a clinic practitioner who can refer.")
        if not any(s.specialty.lower() == specialty.strip().lower() for s in self.state.specialists.values()):
            raise Unprocessable(f"no practitioner receives {specialty} referrals; see list_specialists.")
        name = next(s.specialty for s in self.state.specialists.values()
                    if s.specialty.lower() == specialty.strip().lower())
        to = None
        if performer_id is not None:
            to = self._specialist(performer_id)
            rules.check_performer(pat, to, name)
        wanted = needed_by or self.today + dt.timedelta(days=45 if priority == "routine" else 14)
        if not self.today < wanted <= self.today + dt.timedelta(days=rules.VALID_DAYS):
            raise Unprocessable(f"needed_by must fall within the referral's {rules.VALID_DAYS} days of validity.")
        r = Referral(id=self.new_id("REF"), status="draft", priority=priority, patient_id=pat.id, patient_name=pat.name,
                     requester_id=doc.id, requester_name=doc.name, requester_email=doc.email, specialty=name,
                     performer_id=to.id if to else None, performer_name=to.name if to else None,
                     performer_organization=to.organization if to else None, reason_code=reason_code,
                     reason=reason.strip(), appointment_id=appointment_id, authored_on=self.today, needed_by=wanted,
                     valid_until=self.today + dt.timedelta(days=rules.VALID_DAYS), payer=pat.payer,
                     policy_id=pat.policy_id, authorization_required=rules.needs_authorization(pat, name))
        self.state.referrals[r.id] = r
        return self._view(r)

    @tool(read_only=False, returns=Referral)
    def update_service_request(self, referral_id: Id("referral"), performer_id: Optional[Id("practitioner")] = None,
                               priority: Optional[Priority] = None, needed_by: Optional[Date] = None,
                               reason: Optional[str] = Field(default=None, min_length=3, max_length=500)) -> dict:
        """Change a draft referral's receiving practitioner, priority, date wanted or reason.

        Args:
            referral_id: a draft referral.
            performer_id: the receiving practitioner.
            priority: routine, urgent, asap or stat.
            needed_by: date the specialist visit is wanted by (within the referral's validity).
            reason: why, in words.
        """
        r = self._referral(referral_id, "editing")
        if all(v is None for v in (performer_id, priority, needed_by, reason)):
            raise InvalidArgument("give something to change.")
        if performer_id is not None:
            to = self._specialist(performer_id)
            rules.check_performer(self.state.patients[r.patient_id], to, r.specialty)
            r.performer_id, r.performer_name, r.performer_organization = to.id, to.name, to.organization
        if needed_by is not None:
            if not self.today < needed_by <= r.valid_until:
                raise Unprocessable(f"needed_by must fall between tomorrow and {r.valid_until}.")
            r.needed_by = needed_by
        r.priority, r.reason = priority or r.priority, reason.strip() if reason else r.reason
        return self._view(r)

    @tool(read_only=False, returns=Referral)
    def attach_authorization(self, referral_id: Id("referral"),
                             authorization_number: str = Field(min_length=4, max_length=30),
                             prior_authorization_id: Optional[Id("prior_authorization")] = None) -> dict:
        """Record the payer's authorization (or referral) number on a draft referral.

        Args:
            referral_id: a draft referral.
            authorization_number: the payer's number, e.g. AUTH-0002.
            prior_authorization_id: the prior authorization request that got it, e.g. PA-0006.
        """
        r = self._referral(referral_id, "authorization")
        if r.authorization_number:
            raise Conflict(f"referral {r.id} already carries authorization {r.authorization_number}.")
        r.authorization_number = authorization_number.strip().upper()
        r.prior_authorization_id = prior_authorization_id or r.prior_authorization_id
        return self._view(r)

    @tool(read_only=False, returns=Referral)
    def activate_service_request(self, referral_id: Id("referral")) -> dict:
        """Send a draft referral: it becomes active and a task goes to the receiving practitioner.

        Args:
            referral_id: a draft referral with a receiving practitioner (and the payer's authorization when needed).
        """
        r = self._referral(referral_id, "sending")
        if r.performer_id is None:
            raise Unprocessable(f"referral {r.id} has no receiving practitioner; set performer_id first.")
        if r.authorization_required and not r.authorization_number:
            raise Unprocessable(f"{r.payer or 'the payer'} must authorize referral {r.id} before it is sent "
                                "(attach_authorization).")
        if r.valid_until < self.today:
            raise Unprocessable(f"referral {r.id} expired on {r.valid_until}; write a new one.")
        to = self._specialist(r.performer_id)
        rules.check_performer(self.state.patients[r.patient_id], to, r.specialty)
        self._send(r, to)
        r.status = "active"
        return self._view(r)

    @tool(read_only=False, destructive=True, returns=Referral)
    def revoke_service_request(self, referral_id: Id("referral"), reason: str = Text) -> dict:
        """Revoke a draft or active referral; its open task is cancelled.

        Args:
            referral_id: the referral.
            reason: why it is revoked.
        """
        r = self._referral(referral_id, "revocation")
        now = self.now()
        for t in self._tasks_of(r.id):
            if t.status in ("requested", "accepted", "in-progress"):
                t.status, t.status_reason, t.last_modified = "cancelled", "Referral revoked", now
        r.status, r.revoked_reason = "revoked", reason.strip()
        return self._view(r)

    @tool(read_only=False, returns=Referral)
    def add_service_request_note(self, referral_id: Id("referral"),
                                 note: str = Field(min_length=1, max_length=1000)) -> dict:
        """Add a note to a referral.

        Args:
            referral_id: the referral.
            note: the note text.
        """
        r = self._referral(referral_id)
        r.notes.append(note.strip())
        return self._view(r)

    @tool(read_only=False, returns=Referral)
    def redirect_service_request(self, referral_id: Id("referral"), performer_id: Id("practitioner")) -> dict:
        """Send an active referral the receiving practice rejected to another practitioner (a new task).

        Args:
            referral_id: an active referral whose latest task was rejected.
            performer_id: the new receiving practitioner.
        """
        r = self._referral(referral_id, "redirection")
        tasks = self._tasks_of(r.id)
        if not tasks or tasks[-1].status != "rejected":
            raise Conflict(f"referral {r.id}'s task is {tasks[-1].status if tasks else 'missing'}; only a rejected "
                           "referral is redirected.")
        if performer_id == r.performer_id:
            raise Conflict(f"{r.performer_name} already rejected referral {r.id}.")
        to = self._specialist(performer_id)
        rules.check_performer(self.state.patients[r.patient_id], to, r.specialty)
        r.performer_id, r.performer_name, r.performer_organization = to.id, to.name, to.organization
        self._send(r, to)
        return self._view(r)

    @tool(read_only=False, returns=ReferralTask)
    def accept_task(self, task_id: str = Field(min_length=3, max_length=20),
                    note: str = Field(default="Accepted; calling the patient to book", max_length=200)) -> dict:
        """The receiving practice accepts a requested referral task.

        Args:
            task_id: a requested task.
            note: the business status to show.
        """
        t = self._task(task_id, "acceptance")
        t.status, t.business_status, t.last_modified = "accepted", note.strip(), self.now()
        return t.model_dump()

    @tool(read_only=False, returns=ReferralTask)
    def reject_task(self, task_id: str = Field(min_length=3, max_length=20), reason: str = Text) -> dict:
        """The receiving practice rejects a requested referral task (the referral stays active to redirect).

        Args:
            task_id: a requested task.
            reason: why (statusReason).
        """
        t = self._task(task_id, "rejection")
        t.status, t.status_reason, t.business_status, t.last_modified = ("rejected", reason.strip(), "Rejected",
                                                                          self.now())
        return t.model_dump()

    @tool(read_only=False, returns=ReferralTask)
    def schedule_task(self, specialist_visit: DateTime, task_id: str = Field(min_length=3, max_length=20)) -> dict:
        """Record the specialist visit booked for an accepted task (it is then in progress).

        Args:
            specialist_visit: the visit's date and time (after now, while the referral is valid).
            task_id: an accepted task.
        """
        t = self._task(task_id, "scheduling")
        r = self.state.referrals[t.referral_id]
        visit = specialist_visit.replace(tzinfo=None)
        if not self._clock() < visit or visit.date() > r.valid_until:
            raise Unprocessable(f"the visit must be after now and by {r.valid_until}, the referral's last valid day.")
        t.status, t.specialist_visit, t.business_status = "in-progress", visit, "Visit booked"
        t.last_modified = self.now()
        return t.model_dump()

    @tool(read_only=False, returns=ReferralTask)
    def complete_task(self, task_id: str = Field(min_length=3, max_length=20),
                      consult_summary: str = Text) -> dict:
        """Record the consult report of a visit that took place; the task and its referral are completed.

        Args:
            task_id: an in-progress task whose specialist visit has passed.
            consult_summary: the report's summary.
        """
        t = self._task(task_id, "completion")
        if t.specialist_visit is None or t.specialist_visit > self._clock():
            raise Unprocessable(f"the specialist visit of task {t.id} is {t.specialist_visit}; the consult report "
                                "comes after it.")
        r = self._referral(t.referral_id, "completion")
        t.status, t.consult_summary, t.business_status = "completed", consult_summary.strip(), "Consult report sent"
        t.last_modified = self.now()
        r.status, r.completed_on = "completed", self.today
        return t.model_dump()

    # ------------------------------------------------------------------ seeds
    @classmethod
    def seed_state(cls, seed: int, today: dt.date) -> ReferralsState:
        """Seeded state on the scheduled visits of the same seed."""
        return build_state(random.Random(f"{cls.name}:{seed}"), today, PatientScheduling.seed_state(seed, today))

    @classmethod
    def build_seed_state(cls, fake: Faker, rng: random.Random, today: dt.date) -> ReferralsState:
        return build_state(rng, today, PatientScheduling.build_seed_state(fake, rng, today))


__all__ = ["Referrals"]
