"""The read half of the referrals service: lookups shared by its tools and the read tools (patients,
specialists, referrals and their tasks).

:class:`ReferralReads` does not register; :class:`~compoworld_gym.envs.services.referrals.Referrals`
adds the tools that write.
"""

from __future__ import annotations

import datetime as dt
from typing import Optional

from pydantic import Field

from compoworld_gym.entities import Id
from compoworld_gym.envs.services import _referrals_rules as rules
from compoworld_gym.envs.services._blocks import eq, select
from compoworld_gym.envs.services._referrals_models import (
    Referral, ReferralPatient, ReferralStatus, ReferralTask, Specialist, TaskStatus,
)
from compoworld_gym.service import DAY_START, Service, tool


class ReferralReads(Service, register=False):
    """Lookups and read tools of referral management."""

    # ---------------------------------------------------------------- helpers
    def _referral(self, referral_id: str, action: Optional[str] = None) -> Referral:
        r = self.lookup(self.state.referrals, referral_id, "referral")
        if action is not None:
            rules.REFERRAL.check(r.id, r.status, action)
        return r

    def _task(self, task_id: str, action: Optional[str] = None) -> ReferralTask:
        t = self.lookup(self.state.tasks, task_id, "task")
        if action is not None:
            rules.TASK.check(t.id, t.status, action)
        return t

    def _specialist(self, practitioner_id: str) -> Specialist:
        return self.lookup(self.state.specialists, practitioner_id, "specialist")

    def _tasks_of(self, referral_id: str) -> list[ReferralTask]:
        return [t for t in self.state.tasks.values() if t.referral_id == referral_id]

    def _view(self, r: Referral) -> dict:
        return {**r.model_dump(), "tasks": [t.model_dump() for t in self._tasks_of(r.id)]}

    def _clock(self) -> dt.datetime:
        return dt.datetime.combine(self.today, DAY_START) + dt.timedelta(minutes=self.state.clock)

    def _send(self, r: Referral, doc: Specialist) -> ReferralTask:
        now = self.now()
        t = ReferralTask(id=self.new_id("TSK"), referral_id=r.id, owner_id=doc.id, owner_name=doc.name,
                         status="requested", business_status="Awaiting review", authored_on=now, last_modified=now)
        self.state.tasks[t.id] = t
        return t

    # ------------------------------------------------------------------ reads
    @tool(read_only=True, returns=ReferralPatient)
    def get_patient(self, patient_id: Id("patient")) -> dict:
        """Get a patient with the coverage referrals are checked against (payer, plan, policy).

        Args:
            patient_id: the clinic's patient id, e.g. PAT-0002.
        """
        return self.lookup(self.state.patients, patient_id, "patient").model_dump()

    @tool(read_only=True, returns=list[Specialist])
    def list_specialists(self, specialty: Optional[str] = Field(default=None, max_length=60),
                         accepting_new_patients: Optional[bool] = None,
                         payer: Optional[str] = Field(default=None, max_length=60),
                         in_clinic: Optional[bool] = None) -> list[dict]:
        """List practitioners who receive referrals (PractitionerRole), by specialty, intake, network or clinic.

        Args:
            specialty: the specialty (case-insensitive), e.g. Endocrinology.
            accepting_new_patients: only those taking (true) or not taking (false) new referrals.
            payer: only those in this payer's network (case-insensitive), e.g. Aetna.
            in_clinic: only the clinic's own (true) or outside practices (false).
        """
        spec = (lambda d: d.specialty.lower() == specialty.strip().lower()) if specialty else None
        net = (lambda d: payer.strip().lower() in [p.lower() for p in d.network_payers]) if payer else None
        return [d.model_dump() for d in select(self.state.specialists.values(), spec, net,
                                               eq("accepting_new_patients", accepting_new_patients),
                                               eq("in_clinic", in_clinic))]

    @tool(read_only=True, returns=Specialist)
    def get_specialist(self, practitioner_id: Id("practitioner")) -> dict:
        """Get one receiving practitioner.

        Args:
            practitioner_id: the practitioner id, e.g. PRA-0104.
        """
        return self._specialist(practitioner_id).model_dump()

    @tool(read_only=True, returns=list[Referral])
    def search_service_requests(self, patient_id: Optional[Id("patient")] = None,
                                status: Optional[ReferralStatus] = None,
                                requester_id: Optional[Id("practitioner")] = None,
                                performer_id: Optional[Id("practitioner")] = None,
                                specialty: Optional[str] = Field(default=None, max_length=60),
                                appointment_id: Optional[Id("appointment")] = None,
                                prior_authorization_id: Optional[Id("prior_authorization")] = None,
                                limit: int = Field(default=50, ge=1, le=200)) -> list[dict]:
        """Search referrals (ServiceRequests), newest first.

        Args:
            patient_id: the patient referred.
            status: draft, active, completed or revoked.
            requester_id: the referring practitioner, e.g. PRA-0002.
            performer_id: the receiving practitioner.
            specialty: the specialty referred to (case-insensitive).
            appointment_id: the clinic visit it was written at.
            prior_authorization_id: the prior authorization request it waits on, e.g. PA-0009.
            limit: maximum number of referrals (1-200).
        """
        spec = (lambda r: r.specialty.lower() == specialty.strip().lower()) if specialty else None
        rows = sorted(select(self.state.referrals.values(), eq("patient_id", patient_id), eq("status", status),
                             eq("requester_id", requester_id), eq("performer_id", performer_id), spec,
                             eq("appointment_id", appointment_id), eq("prior_authorization_id", prior_authorization_id)),
                      key=lambda r: (r.authored_on, r.id), reverse=True)
        return [r.model_dump() for r in rows[:limit]]

    @tool(read_only=True, returns=Referral)
    def get_service_request(self, referral_id: Id("referral")) -> dict:
        """Get one referral with its tasks.

        Args:
            referral_id: the referral id, e.g. REF-0005.
        """
        return self._view(self._referral(referral_id))

    @tool(read_only=True, returns=list[ReferralTask])
    def list_tasks(self, referral_id: Optional[Id("referral")] = None, owner_id: Optional[Id("practitioner")] = None,
                   status: Optional[TaskStatus] = None, limit: int = Field(default=50, ge=1, le=200)) -> list[dict]:
        """List referral tasks by referral, receiving practitioner or status.

        Args:
            referral_id: the referral (focus).
            owner_id: the receiving practitioner.
            status: requested, accepted, rejected, in-progress, completed or cancelled.
            limit: maximum number of tasks (1-200).
        """
        return [t.model_dump() for t in select(self.state.tasks.values(), eq("referral_id", referral_id),
                                               eq("owner_id", owner_id), eq("status", status), limit=limit)]

    @tool(read_only=True, returns=ReferralTask)
    def get_task(self, task_id: str = Field(min_length=3, max_length=20)) -> dict:
        """Get one referral task.

        Args:
            task_id: the task id, e.g. TSK-0003.
        """
        return self._task(task_id).model_dump()
