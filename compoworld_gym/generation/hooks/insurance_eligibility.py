"""Insurance eligibility in chained tasks: an eligibility check (an Availity coverage) names the patient,
the visit it was run for, the policy the payer matched and the in-network deductible still to meet; a
clinic visit leads to the check run for it (the copay to collect at the visit), and a patient to their
latest check showing active coverage (the out-of-pocket still to pay). A check that found the plan
inactive (an old card) is passed over. Writes: re-run the check with the payer today for the same day
of service, estimate the patient's cost of an office visit on it, or note it."""

from __future__ import annotations

import datetime as dt
from typing import Any, Optional

from compoworld_gym.checks import OnlyChanged, RecordCount, RecordExists, RecordMatches
from compoworld_gym.envs.services._commerce import money
from compoworld_gym.envs.services._insurance_eligibility_models import (
    CostEstimate, Coverage, InsuranceEligibilityState, MemberPlan, Provider,
)
from compoworld_gym.envs.services._insurance_eligibility_rules import PLAN_TERMS, estimate, is_specialist
from compoworld_gym.envs.services._insurance_eligibility_seed import PAYER_IDS, make_coverage, split_name
from compoworld_gym.envs.services._patient_scheduling_seed import CLINIC_NPI, PRACTITIONERS
from compoworld_gym.generation.context import Ctx, call
from compoworld_gym.generation.hooks.insurance_claims import DEDUCTIBLE
from compoworld_gym.generation.hooks.patient_scheduling import CLAIMS, SCHEDULING
from compoworld_gym.generation.hooks.pharmacy import birth_date, clinic_id, clinic_patient_id, patient_name
from compoworld_gym.generation.links import (
    Action, Found, Give, Need, Reader, Relay, ServiceLinks, SolveError, Write, latest, next_id,
)

SERVICE = "insurance_eligibility"
#: The CPT code the estimate action prices (an established patient's moderate office visit).
VISIT_CPT = "99214"
_NPIS = {d.id: d.npi for d in PRACTITIONERS}


def appointment_key(ctx: Ctx) -> str:
    """A visit id: the scheduling system's next one when it is mounted, else one past the seeded visits."""
    if SCHEDULING in ctx.states:
        return next_id(ctx.state(SCHEDULING), "APT")
    return clinic_id(ctx, "APT", start=60)


def _member_id(ctx: Ctx, payer: str) -> str:
    return f"{payer[:1]}{payer.split()[-1][:1]}{ctx.rng.randint(10**7, 10**8 - 1)}"


def _member(ctx: Ctx, state: InsuranceEligibilityState, pid: str, stale: bool,
            policy_id: Optional[str] = None) -> MemberPlan:
    """Patient ``pid``'s member plan at the payer, added unless present: policy ``policy_id`` when given,
    else their open plan here, else their active clearinghouse policy, else a new one; ``stale``: a plan
    at another payer that ended last year."""
    year = ctx.today.replace(month=1, day=1)
    policies = ctx.states.get(CLAIMS, {}).get("policies", {})
    if not stale:
        known = state.members.get(policy_id or "")
        if known is not None and known.expiration_date is None:
            return known
        for m in state.members.values():
            if policy_id is None and m.patient_id == pid and m.expiration_date is None:
                return m
        live = [p for p in policies.values() if p["id"] == policy_id or (
            policy_id is None and p["patient_id"] == pid and p["status"] == "active" and p["id"] not in state.members)]
        if live:
            p = live[0]
            payer, member_id, plan, pol = p["payer"], p["member_id"], p["plan_name"], p["id"]
            deductible, met = p["deductible"], p["deductible_met"]
        else:
            payer, plan, pol = ctx.rng.choice(sorted(PAYER_IDS)), ctx.rng.choice(sorted(PLAN_TERMS)), policy_id
            member_id, deductible, met = _member_id(ctx, payer), 1500.0, 0.0
    else:
        live = {m.payer_id for m in state.members.values() if m.patient_id == pid}
        payer = next(n for n in sorted(PAYER_IDS, key=lambda n: ctx.rng.random()) if PAYER_IDS[n] not in live)
        plan, pol, member_id, deductible, met = "PPO Gold", None, _member_id(ctx, payer), 500.0, 500.0
    terms = PLAN_TERMS.get(plan, PLAN_TERMS["PPO Silver"])
    first, last = split_name(patient_name(ctx, pid))
    m = MemberPlan(id=pol or clinic_id(ctx, "POL"), payer_id=PAYER_IDS[payer], member_id=member_id, patient_id=pid,
                   first_name=first, last_name=last, birth_date=birth_date(ctx, pid), plan_name=plan,
                   group_number=f"GRP-{ctx.rng.randint(4000, 9999)}",
                   effective_date=year.replace(year=year.year - (3 if stale else 1)),
                   expiration_date=year - dt.timedelta(days=1) if stale else None, deductible=deductible,
                   deductible_met=met, out_of_pocket_max=max(terms.out_of_pocket_max, deductible),
                   out_of_pocket_met=met, coinsurance_pct=20, insurance_type=terms.insurance_type,
                   pcp_copay=terms.pcp, specialist_copay=terms.specialist, urgent_care_copay=terms.urgent,
                   emergency_copay=terms.emergency)
    state.members[m.id] = m
    return m


def _provider(ctx: Ctx, state: InsuranceEligibilityState, aid: Optional[str], member: MemberPlan) -> Provider:
    """The visit's practitioner when scheduling holds the visit and they are in the payer's network, else the
    clinic's group NPI."""
    visit = ctx.states.get(SCHEDULING, {}).get("appointments", {}).get(aid or "")
    npi = _NPIS.get(visit["practitioner_id"]) if visit else None
    p = state.providers.get(npi or "")
    return p if p is not None and member.payer_id not in p.out_of_network_payers else state.providers[CLINIC_NPI]


def plant_coverage(ctx: Ctx, cid: str, *, pid: str, appointment_id: Optional[str] = None, day: Optional[str] = None,
                   policy_id: Optional[str] = None, copay: Optional[float] = None,
                   deductible_remaining: Optional[float] = None, oop_remaining: Optional[float] = None,
                   stale: bool = False) -> str:
    """Add coverage ``cid``: patient ``pid``'s all-benefits check run yesterday for visit ``appointment_id`` on
    ``day`` (the visit's day when scheduling holds it), the payer answering with the given visit copay,
    deductible and out-of-pocket still to pay, on policy ``policy_id`` when given; ``stale``: run on an old
    card, the plan inactive. Returns the id."""
    raw = ctx.state(SERVICE)
    state = InsuranceEligibilityState.model_validate(raw)
    m = _member(ctx, state, pid, stale, policy_id)
    provider = _provider(ctx, state, appointment_id, m)
    if deductible_remaining is not None:
        m.deductible = max(m.deductible, deductible_remaining)
        m.deductible_met = money(m.deductible - deductible_remaining)
    if oop_remaining is not None:
        m.out_of_pocket_max = max(m.out_of_pocket_max, oop_remaining, m.deductible)
        m.out_of_pocket_met = money(m.out_of_pocket_max - oop_remaining)
    if copay is not None:
        if is_specialist(provider):
            m.specialist_copay = copay
        else:
            m.pcp_copay = copay
    visit = ctx.states.get(SCHEDULING, {}).get("appointments", {}).get(appointment_id or "")
    as_of = dt.date.fromisoformat((visit["start"] if visit else day or ctx.day(ctx.rng.randint(1, 20)))[:10])
    asked = dt.datetime.combine(ctx.today - dt.timedelta(days=2 if stale else 1), dt.time(ctx.rng.randint(9, 16), 5))
    make_coverage(state, cid, m, npi=provider.npi, as_of=as_of, requested=asked, appointment_id=appointment_id)
    dumped = state.model_dump(mode="json")
    for coll in ("members", "coverages"):
        raw[coll] = dumped[coll]
    return cid


def _next_coverage(ctx: Ctx) -> str:
    return next_id(ctx.state(SERVICE), "COV")


#: ``Give.who`` of the copay: its own amount, not the case's other money (a copay is no statement
#: balance). The deductible still to meet is the one the claims clearinghouse shows too.
COPAY = "the visit copay"

#: The figure each relay's record gives (its money): by record id, by visit, by patient, by policy.
_FIGURES = {"id": "deductible_remaining", "visit": "copay", "patient": "oop_remaining", "policy": "copay"}


def _plant(ctx: Ctx, key: Any, outs: dict[str, Any], stale: bool, by: str) -> str:
    cid = key if by == "id" else _next_coverage(ctx)
    visit = ctx.states.get(SCHEDULING, {}).get("appointments", {}).get(key if by == "visit" else "")
    policy = ctx.states.get(CLAIMS, {}).get("policies", {}).get(key if by == "policy" else "")
    pid = (key if by == "patient" else outs.get("patient_id") or (
        visit["patient_id"] if visit else policy["patient_id"] if policy else clinic_patient_id(ctx)))
    aid = key if by == "visit" else outs.get("appointment_id") or (appointment_key(ctx) if by == "id" else None)
    pol = key if by == "policy" else outs.get("insurance_policy_id")
    money_out = outs.get("money")
    if money_out is None:
        money_out = _copay(ctx) if _FIGURES[by] == "copay" else round(ctx.rng.randint(0, 250000) / 100, 2)
    return plant_coverage(ctx, cid, pid=pid, appointment_id=aid, day=outs.get("date"), stale=stale,
                          policy_id=None if stale else pol, **{_FIGURES[by]: None if stale else money_out})


def _copay(ctx: Ctx) -> float:
    return float(ctx.rng.choice((15, 20, 25, 30, 35, 40, 50, 60)))


def _get(reader: Reader, key: Any) -> dict[str, Any]:
    return reader.read(SERVICE, "get_coverage", coverage_id=key)


def _active(reader: Reader, **where: Any) -> dict[str, Any]:
    rows = reader.read(SERVICE, "search_coverages", plan_status="active", limit=200, **where)
    if not rows:
        raise SolveError(f"no active coverage for {where}")
    return _get(reader, latest(rows, "requested_at")["id"])


_TRUTH = ("A check that found the plan inactive was run on an old insurance card; only the latest check showing "
          "active coverage counts.")
_POLICY = Give("insurance_policy_id", "policy_id", "the insurance policy the payer matched")

COVERAGE = Relay(
    service=SERVICE, name="eligibility check", key="coverage_id",
    gives=(Give("patient_id", "patient_id", "the patient's id"),
           Give("appointment_id", "appointment_id", "the clinic visit the check was run for"), _POLICY,
           Give("money", "deductible_remaining_in_network", "the in-network deductible still to meet", DEDUCTIBLE)),
    plant=lambda ctx, key, outs, stale: _plant(ctx, key, outs, stale, "id"), find=_get,
    where="Each eligibility check names the patient, the clinic visit it was run for, the insurance policy the "
          "payer matched and the in-network deductible still to meet.",
    alloc=_next_coverage, entry=lambda key: f"eligibility check {key}")

VISIT_COVERAGE = Relay(
    service=SERVICE, name="visit's eligibility check", key="appointment_id",
    gives=(Give("coverage_id", "id", "the eligibility check run for the visit"), _POLICY,
           Give("money", "visit_copay", "the copay to collect for the visit", COPAY, draw=_copay)),
    plant=lambda ctx, key, outs, stale: _plant(ctx, key, outs, stale, "visit"),
    find=lambda reader, key: _active(reader, appointment_id=key),
    where="The front desk runs an eligibility check with the payer for each clinic visit, under the visit's id; "
          "the payer's answer gives the copay to collect.", alloc=appointment_key, truth=_TRUTH,
    entry=lambda key: f"the eligibility check for clinic visit {key}")

PATIENT_COVERAGE = Relay(
    service=SERVICE, name="patient's eligibility check", key="patient_id",
    gives=(Give("coverage_id", "id", "the patient's latest eligibility check"), _POLICY,
           Give("money", "out_of_pocket_remaining_in_network", "the in-network out-of-pocket still to pay",
                "the out-of-pocket remaining")),
    plant=lambda ctx, key, outs, stale: _plant(ctx, key, outs, stale, "patient"),
    find=lambda reader, key: _active(reader, patient_id=key),
    where="Eligibility checks are kept under the patient's id.", alloc=clinic_patient_id, truth=_TRUTH,
    entry=lambda key: f"the latest eligibility check of patient {key}")

POLICY_COVERAGE = Relay(
    service=SERVICE, name="policy's eligibility check", key="insurance_policy_id",
    gives=(Give("coverage_id", "id", "the latest eligibility check on the policy"),
           Give("patient_id", "patient_id", "the patient's id"),
           Give("appointment_id", "appointment_id", "the clinic visit the check was run for"),
           Give("money", "visit_copay", "the office-visit copay the payer answered", COPAY, draw=_copay)),
    plant=lambda ctx, key, outs, stale: _plant(ctx, key, outs, stale, "policy"),
    find=lambda reader, key: _active(reader, policy_id=key),
    where="Each eligibility check names the insurance policy the payer matched it to.",
    alloc=lambda ctx: clinic_id(ctx, "POL"))


def _scope(collection: str, ids: list[str], **new: Any) -> list[OnlyChanged]:
    return [OnlyChanged(id="_", service=SERVICE, collection=collection, allow_ids=ids, allow_new=new or None,
                        description=f"No other {collection} were changed or created.")]


def _live(reader: Reader, cid: str) -> dict[str, Any]:
    cov = _get(reader, cid)
    if cov["plan_status"] != "active":
        raise SolveError(f"coverage {cid} shows the plan inactive")
    return cov


def _recheck(reader: Reader, args: dict[str, Found]) -> Write:
    cov = _live(reader, args["coverage"].value)
    argv = {"payer_id": cov["payer_id"], "member_id": cov["member_id"], "patient_last_name": cov["patient_last_name"],
            "provider_npi": cov["provider_npi"], "patient_birth_date": cov["patient_birth_date"],
            "as_of_date": cov["as_of_date"], "patient_id": cov["patient_id"], "appointment_id": cov["appointment_id"]}
    window = reader.read(SERVICE, "get_payer_configuration", payer_id=cov["payer_id"])
    if not str(window["earliest_as_of_date"]) <= str(cov["as_of_date"]) <= str(window["latest_as_of_date"]):
        raise SolveError(f"coverage {cov['id']}'s day of service is outside the payer's inquiry window")
    where = {"member_id": cov["member_id"], "as_of_date": cov["as_of_date"], "appointment_id": cov["appointment_id"]}
    before = reader.read(SERVICE, "search_coverages", member_id=cov["member_id"], as_of_date=cov["as_of_date"],
                         limit=200)
    n = sum(1 for c in before if c["appointment_id"] == cov["appointment_id"])
    return Write(
        calls=[call("create_coverage", **{k: v for k, v in argv.items() if v is not None})],
        checks=[RecordCount(id="_", service=SERVICE, collection="coverages", where=where, op="eq", value=n + 1,
                            description="Eligibility is re-checked with the payer today, for the same member, visit "
                                        "and day of service.")],
        scope=_scope("coverages", [], member_id=cov["member_id"]), tool="create_coverage",
        where={"member_id": cov["member_id"]}, label="the eligibility re-check")


def _estimate(reader: Reader, args: dict[str, Found]) -> Write:
    cov = _live(reader, args["coverage"].value)
    provider = next(p for p in reader.read(SERVICE, "list_providers") if p["npi"] == cov["provider_npi"])
    est = CostEstimate(id="EST-0", coverage_id=cov["id"], patient_id=cov["patient_id"], procedure_code=VISIT_CPT,
                       procedure_description="", units=1, service_type="30", in_network=True, allowed_amount=0.0,
                       copay=0.0, deductible_applied=0.0, coinsurance=0.0, patient_responsibility=0.0, plan_pays=0.0,
                       status="active", created_at=dt.datetime(2000, 1, 1))
    estimate(est, Coverage.model_validate(cov), is_specialist(Provider.model_validate(provider)))
    where = {"coverage_id": cov["id"], "procedure_code": VISIT_CPT, "status": "active",
             "patient_responsibility": est.patient_responsibility}
    return Write(
        calls=[call("create_cost_estimate", coverage_id=cov["id"], procedure_code=VISIT_CPT)],
        checks=[RecordExists(id="_", service=SERVICE, collection="estimates", where=where,
                             description="An office-visit cost estimate is made on the right coverage, with what "
                                         "the patient owes.")],
        scope=_scope("estimates", [], coverage_id=cov["id"]), tool="create_cost_estimate",
        where={"coverage_id": cov["id"]}, label="the cost estimate")


def _note(reader: Reader, args: dict[str, Found]) -> Write:
    cid, mention, case = args["coverage"].value, args["mention"], args["case"].value
    _get(reader, cid)
    return Write(
        calls=[call("add_coverage_note", coverage_id=cid, note=f"{case}: {mention.noun} is {mention.display}.")],
        checks=[RecordMatches(id="_", service=SERVICE, collection="coverages", record_id=cid,
                              where={"notes": {"$some": {"$all": [{"$contains": case},
                                                                  {"$contains": mention.display}]}}},
                              description="A note on the eligibility check quotes the case and the right value.")],
        scope=_scope("coverages", [cid]), tool="add_coverage_note", where={"coverage_id": cid},
        label="the note on the eligibility check")


_COVERAGE = (Need("coverage", "coverage_id"),)

LINKS = ServiceLinks(
    service=SERVICE, label="the eligibility and benefits portal",
    relays=(COVERAGE, VISIT_COVERAGE, PATIENT_COVERAGE, POLICY_COVERAGE),
    actions=(
        Action(service=SERVICE, name="recheck", needs=_COVERAGE, build=_recheck,
               goal="re-run the patient's eligibility check with the payer today for the same day of service"),
        Action(service=SERVICE, name="estimate", needs=_COVERAGE, build=_estimate,
               goal=f"estimate the patient's cost of an established-patient office visit (CPT {VISIT_CPT}) on the "
                    "eligibility check"),
        Action(service=SERVICE, name="note", needs=_COVERAGE, build=_note,
               goal="add a note to the eligibility check stating {mention}"),
    ),
)

__all__ = ["LINKS", "appointment_key", "plant_coverage"]
