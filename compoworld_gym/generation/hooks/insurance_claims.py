"""Insurance claims in chained tasks: a claim names the patient, its billed
charges and its date of service; a policy names its patient and the
deductible still to meet; a patient's active policy and open claim are found
by the patient id the clinic's scheduling system uses. Writes: verify a
policy's coverage for a visit day (270/271), note a claim, pay it (835), or
(by policy) assign it to a claims examiner."""

from __future__ import annotations

from typing import Any

from compoworld_gym.checks import OnlyChanged, RecordExists, RecordMatches
from compoworld_gym.envs.services._insurance_claims_models import Claim, ClaimLine, Policy
from compoworld_gym.envs.services._insurance_claims_rules import FEE_SCHEDULE, adjudicate
from compoworld_gym.envs.services._insurance_claims_seed import EXAMINERS, PLANS
from compoworld_gym.envs.services._patient_scheduling_seed import CLINIC_NPI, PAYERS
from compoworld_gym.generation.context import Ctx, call
from compoworld_gym.generation.hooks.patient_scheduling import CLAIMS, SCHEDULING, patient_id, shared_id
from compoworld_gym.generation.links import (
    Action, Found, Give, Need, Reader, Relay, ServiceLinks, SolveError, Write, next_id, pick,
)


def plant_policy(ctx: Ctx, pol_id: str, pid: str, *, remaining: float, terminated: bool = False) -> str:
    """Add policy ``pol_id`` of patient ``pid`` with ``remaining`` USD of its deductible still to
    meet (terminated last year when ``terminated``); an active one becomes the patient's coverage
    in the scheduling system when that holds the patient. Returns the id."""
    state = ctx.state(CLAIMS)
    plan, deductible, coins = ctx.rng.choice([p for p in PLANS if p[1] >= remaining] or [PLANS[-1]])
    deductible = max(deductible, remaining)
    payer = ctx.rng.choice(PAYERS)
    patient = ctx.states.get(SCHEDULING, {}).get("patients", {}).get(pid)
    name = patient["name"] if patient else ctx.client()
    member = f"{payer[:1]}{payer.split()[-1][:1]}{ctx.rng.randint(10**7, 10**8 - 1)}"
    year = ctx.today.replace(month=1, day=1)
    state["policies"][pol_id] = Policy(
        id=pol_id, patient_id=pid, subscriber_name=name, member_id=member, payer=payer, plan_name=plan,
        group_number=f"GRP-{ctx.rng.randint(4000, 9999)}", status="terminated" if terminated else "active",
        coverage_start=year.replace(year=year.year - 2), coverage_end=year.replace(year=year.year - 1, month=12, day=31)
        if terminated else None, deductible=deductible, deductible_met=round(deductible - remaining, 2),
        coinsurance_pct=coins).model_dump(mode="json")
    if patient is not None and not terminated:
        patient["coverage"] = {"payer": payer, "member_id": member, "policy_id": pol_id}
    return pol_id


def _active_policy(ctx: Ctx, pid: str) -> str:
    for pol in ctx.state(CLAIMS)["policies"].values():
        if pol["patient_id"] == pid and pol["status"] == "active":
            return pol["id"]
    return plant_policy(ctx, shared_id(ctx, "POL"), pid, remaining=0.0)


def plant_claim(ctx: Ctx, claim_id: str, pid: str, *, charge: float, day: str, status: str = "submitted") -> str:
    """Add a one-line office-visit claim of patient ``pid`` (on their active policy, planted
    if missing) billing ``charge`` USD for date of service ``day``; returns the id."""
    pol = _active_policy(ctx, pid)
    code = "99214" if charge >= FEE_SCHEDULE["99214"].allowed else "99213"
    line = ClaimLine(cpt_code=code, description=FEE_SCHEDULE[code].description, units=1, charge=charge)
    c = Claim(id=claim_id, policy_id=pol, patient_id=pid, provider_npi=CLINIC_NPI, service_date=day,
              diagnosis_codes=[ctx.rng.choice(("I10", "E11.9", "J20.9", "M25.561"))], lines=[line],
              total_charge=charge, status=status, created_on=day, submitted_on=None if status == "draft" else day)
    ctx.state(CLAIMS)["claims"][claim_id] = c.model_dump(mode="json")
    return claim_id


def service_day(ctx: Ctx) -> str:
    """A recent past date of service (ISO)."""
    return ctx.day(-ctx.rng.randint(3, 40))


def _charge(ctx: Ctx) -> float:
    return round(ctx.rng.randint(16000, 64000) / 100, 2)


def _plant(ctx: Ctx, key: Any, outs: dict[str, Any], stale: bool, by: str) -> str:
    state = ctx.state(CLAIMS)
    if by in ("policy", "patient_policy"):
        pid = key if by == "patient_policy" else outs.get("patient_id") or patient_id(ctx)
        live = [p["id"] for p in state["policies"].values() if p["patient_id"] == pid and p["status"] == "active"]
        # One active policy per patient: a claim planted earlier may have opened it already.
        pol = key if by == "policy" else live[0] if live and not stale else shared_id(ctx, "POL")
        remaining = outs.get("money") if outs.get("money") is not None else round(ctx.rng.randint(0, 150000) / 100, 2)
        return plant_policy(ctx, pol, pid, remaining=remaining, terminated=stale)
    pid = key if by == "patient" else outs.get("patient_id") or patient_id(ctx)
    cid = key if by == "id" else next_id(state, "CLM")
    charge, day = outs.get("money") or _charge(ctx), outs.get("date") or service_day(ctx)
    return plant_claim(ctx, cid, pid, charge=charge, day=day, status="void" if stale else "submitted")


def _claim(reader: Reader, key: Any) -> dict[str, Any]:
    return reader.read(CLAIMS, "get_claim", claim_id=key)


def _patient_policy(reader: Reader, key: Any) -> dict[str, Any]:
    pol = pick(reader.read(CLAIMS, "search_policies", patient_id=key, status="active"), patient_id=key)
    return reader.read(CLAIMS, "get_policy", policy_id=pol["id"])


def _patient_claim(reader: Reader, key: Any) -> dict[str, Any]:
    rows = reader.read(CLAIMS, "list_claims", patient_id=key, limit=200)
    return _claim(reader, pick([r for r in rows if r["status"] in ("submitted", "adjudicated")], patient_id=key)["id"])


_CHARGES = Give("money", "total_charge", "the claim's billed charges", draw=_charge)
_SERVICE_DAY = Give("date", "service_date", "the claim's date of service", "the date of service", draw=service_day)
#: ``Give.who`` of the deductible still to meet: one figure of the policy, which the payer's
#: eligibility check answers too; no other money of the case (a claim's charges are not it).
DEDUCTIBLE = "the deductible remaining"
_DEDUCTIBLE = Give("money", "deductible_remaining", "the deductible still to meet on the policy", DEDUCTIBLE)

CLAIM = Relay(
    service=CLAIMS, name="insurance claim", key="claim_id",
    gives=(Give("claim_id", "id", "the insurance claim"), Give("patient_id", "patient_id", "the patient's id"),
           _CHARGES, _SERVICE_DAY),
    plant=lambda ctx, key, outs, stale: _plant(ctx, key, outs, stale, "id"), find=_claim,
    where="Each insurance claim names the patient's id, the billed charges and the date of service.",
    alloc=lambda ctx: next_id(ctx.state(CLAIMS), "CLM"), entry=lambda key: f"insurance claim {key}")

POLICY = Relay(
    service=CLAIMS, name="insurance policy", key="insurance_policy_id",
    gives=(Give("patient_id", "patient_id", "the insured patient's id"), _DEDUCTIBLE),
    plant=lambda ctx, key, outs, stale: _plant(ctx, key, outs, stale, "policy"),
    find=lambda reader, key: reader.read(CLAIMS, "get_policy", policy_id=key),
    where="Each insurance policy names the insured patient's id and the deductible still to meet.",
    alloc=lambda ctx: shared_id(ctx, "POL"), entry=lambda key: f"insurance policy {key}")

PATIENT_POLICY = Relay(
    service=CLAIMS, name="patient's insurance policy", key="patient_id",
    gives=(Give("insurance_policy_id", "id", "the patient's active insurance policy"), _DEDUCTIBLE),
    plant=lambda ctx, key, outs, stale: _plant(ctx, key, outs, stale, "patient_policy"), find=_patient_policy,
    where="The claims clearinghouse files insurance policies under the patient's id.",
    alloc=patient_id, truth="A terminated insurance policy no longer covers; only the patient's active policy counts.")

PATIENT_CLAIM = Relay(
    service=CLAIMS, name="patient's open claim", key="patient_id",
    gives=(Give("claim_id", "id", "the patient's open insurance claim"), _CHARGES, _SERVICE_DAY),
    plant=lambda ctx, key, outs, stale: _plant(ctx, key, outs, stale, "patient"), find=_patient_claim,
    where="The claims clearinghouse files claims under the patient's id.", alloc=patient_id,
    truth="A voided insurance claim was withdrawn; only the patient's open claim counts.")


def _scope(collection: str, ids: list[str], **new: Any) -> list[OnlyChanged]:
    return [OnlyChanged(id="_", service=CLAIMS, collection=collection, allow_ids=ids, allow_new=new or None,
                        description=f"No other {collection.replace('_', ' ')} were changed or created.")]


def _note(reader: Reader, args: dict[str, Found]) -> Write:
    cid, mention, case = args["claim"].value, args["mention"], args["case"].value
    _claim(reader, cid)
    return Write(
        calls=[call("add_claim_note", claim_id=cid, note=f"{case}: {mention.noun} is {mention.display}.")],
        checks=[RecordMatches(id="_", service=CLAIMS, collection="claims", record_id=cid,
                              where={"notes": {"$some": {"$all": [{"$contains": case},
                                                                  {"$contains": mention.display}]}}},
                              description="A note on the claim quotes the case and the right value.")],
        scope=_scope("claims", [cid]), tool="add_claim_note", where={"claim_id": cid}, label="the note on the claim")


def _prepare_pay(ctx: Ctx, values: dict[str, Any]) -> None:
    """The payer adjudicated the case's claim yesterday (so it can be paid), on a met deductible."""
    state = ctx.state(CLAIMS)
    raw = state["claims"].get(values["claim"])
    if raw is None or raw["status"] != "submitted":
        return
    c, p = Claim.model_validate(raw), Policy.model_validate(state["policies"][raw["policy_id"]])
    p.deductible_met = p.deductible  # a claim with nothing for the plan to pay would not be paid
    adjudicate(c, p, ctx.today.fromordinal(ctx.today.toordinal() - 1))
    state["claims"][c.id], state["policies"][p.id] = c.model_dump(mode="json"), p.model_dump(mode="json")


def _pay(reader: Reader, args: dict[str, Found]) -> Write:
    cid, case = args["claim"].value, args["case"].value
    claim = _claim(reader, cid)
    if claim["status"] != "adjudicated" or not claim["payable"]:
        raise SolveError(f"claim {cid} has nothing adjudicated to pay")
    trace = f"EFT {case}"[:60]
    return Write(
        calls=[call("pay_claim", claim_id=cid, amount=claim["payable"], trace_number=trace)],
        checks=[RecordMatches(id="_", service=CLAIMS, collection="claims", record_id=cid,
                              where={"status": "paid", "paid_amount": claim["payable"]},
                              description="The claim is paid exactly the plan's share of the allowed amount.")],
        scope=_scope("claims", [cid]) + _scope("remittances", [], claim_id=cid), tool="pay_claim",
        where={"claim_id": cid}, label="the claim payment", moves_money=True)


def _verify(reader: Reader, args: dict[str, Found]) -> Write:
    pol, day, mention, case = args["policy"].value, args["day"].value, args["mention"], args["case"].value
    reader.read(CLAIMS, "get_policy", policy_id=pol)
    ref = f"{case}: {mention.display}"[:120]
    where = {"policy_id": pol, "service_date": day, "reference": {"$all": [{"$contains": case},
                                                                            {"$contains": mention.display}]}}
    return Write(
        calls=[call("check_eligibility", policy_id=pol, service_date=day, reference=ref)],
        checks=[RecordExists(id="_", service=CLAIMS, collection="eligibility_checks", where=where,
                             description="Coverage is verified on the right policy for the visit day, "
                                         "the reference quoting the case and the value.")],
        scope=_scope("eligibility_checks", [], policy_id=pol), tool="check_eligibility", where={"policy_id": pol},
        label="the eligibility check")


def _assign(reader: Reader, args: dict[str, Found]) -> Write:
    cid, who = args["claim"].value, args["examiner"].value
    _claim(reader, cid)
    return Write(
        calls=[call("assign_claim", claim_id=cid, examiner_email=who)],
        checks=[RecordMatches(id="_", service=CLAIMS, collection="claims", record_id=cid,
                              where={"assigned_to": {"$ieq": who}},
                              description="The claim is assigned to the examiner the policy names.")],
        scope=_scope("claims", [cid]), tool="assign_claim", where={"claim_id": cid}, label="the claim assignment")


def _examiners(ctx: Ctx) -> tuple[str, str]:
    a, b = ctx.rng.sample(EXAMINERS, 2)
    return a, b


LINKS = ServiceLinks(
    service=CLAIMS, label="the claims clearinghouse",
    relays=(CLAIM, POLICY, PATIENT_POLICY, PATIENT_CLAIM),
    actions=(
        Action(service=CLAIMS, name="verify coverage",
               needs=(Need("policy", "insurance_policy_id"), Need("day", "date", ("",))), build=_verify,
               goal="verify the patient's insurance coverage for {day}, the inquiry's reference quoting {mention}"),
        Action(service=CLAIMS, name="note", needs=(Need("claim", "claim_id"),), build=_note,
               goal="add a note to the insurance claim stating {mention}"),
        Action(service=CLAIMS, name="pay", needs=(Need("claim", "claim_id"),), build=_pay, prepare=_prepare_pay,
               goal="pay the adjudicated insurance claim what the plan owes"),
        # Only a policy names the examiner: no record says who should review a claim.
        Action(service=CLAIMS, name="assign",
               needs=(Need("examiner", "email", ("the claims examiner",), "examiner"), Need("claim", "claim_id")),
               build=_assign, goal="assign the insurance claim to {examiner}", routable=True),
    ),
    route_values={"email": _examiners},
)

__all__ = ["DEDUCTIBLE", "LINKS", "plant_claim", "plant_policy", "service_day"]
