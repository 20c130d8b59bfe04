"""Chained tasks: every service's answer matters, the policy decides, the
instruction gives no value away, and a wrong reading of any record fails."""

from __future__ import annotations

import random
import re

import pytest
from faker import Faker

from compoworld_gym.generation import GenerationConfig, generate_tasks
from compoworld_gym.generation.chain import ActionSpec, ChainSpec, HopSpec, materialize
from compoworld_gym.generation.config import TODAY
from compoworld_gym.generation.context import Ctx
from compoworld_gym.generation.counterfactual import counterfactual
from compoworld_gym.generation.design import DesignError, design
from compoworld_gym.generation.explore import explore_states
from compoworld_gym.generation.hooks import available_links
from compoworld_gym.generation.metrics import chain_metrics, trace, trace_calls
from compoworld_gym.generation.plan import PlanError, plan
from compoworld_gym.generation.solve import solve
from compoworld_gym.generation.wording import render
from compoworld_gym.metatools import dispatch
from compoworld_gym.episode import evaluate, mount, score, state_check_services

LINKS = available_links()
#: Every action's goal phrase: the fixed parameters it names are the goal's, not discovered values.
_GOALS = " ".join(a.goal for links in LINKS.values() for a in links.actions).casefold()


@pytest.fixture(scope="module")
def tasks():
    # The full library: gen-s11-00006 (a vault path built from an APISIX app label) and gen-s11-00029 (a SQL
    # query on a loan's borrower email) chain only by quoting a value, which the trace must see.
    return generate_tasks(30, seed=11)


def _spec(actions: list[ActionSpec], hops: list[HopSpec], key: str = "t") -> ChainSpec:
    ctx = Ctx(random.Random(key), Faker(), TODAY, {})
    return ChainSpec(seed_key=key, hops=hops, rule=None, actions=actions, report=actions[0].mention,
                     case=ctx.case(), links=LINKS)


def test_counterfactual_rejects_a_service_nothing_uses() -> None:
    # ticket -> order, but the email goes to the address on the *ticket* and
    # quotes the ticket's name: nothing the order system says matters.
    ticket, order = LINKS["helpdesk"].relays[0], LINKS["orders"].relays[0]
    email = LINKS["gmail"].actions[0]
    hops = [HopSpec(ticket, {"email": "ann.lee42@example.org", "person_name": "Ann Lee"}),
            HopSpec(order, {"email": "ann.lee42@example.org", "person_name": "Ann Lee", "money": 412.5,
                            "tracking_number": "1Z1234567890"})]
    lazy = _spec([ActionSpec(email, {"to": ("hop", 0, "email")}, ("hop", 0, "person_name"))], hops)
    base = explore_states(lazy.services, 0, TODAY)
    planted = materialize(lazy, base, TODAY, Faker())
    reason, verdicts, _ = counterfactual(lazy, base, TODAY, Faker(), planted, solve(lazy, planted, TODAY))
    assert verdicts["orders"] == "not-needed" and reason == "counterfactual: orders not needed"
    # Quoting the order total makes the order system needed.
    used = _spec([ActionSpec(email, {"to": ("hop", 0, "email")}, ("hop", 1, "money"))], hops)
    planted = materialize(used, base, TODAY, Faker())
    reason, verdicts, _ = counterfactual(used, base, TODAY, Faker(), planted, solve(used, planted, TODAY))
    assert reason is None and verdicts["orders"] == "changes:money" and verdicts["helpdesk"].startswith("changes:")


def test_materialize_is_deterministic_and_overrides_change_one_record() -> None:
    rng = random.Random(5)
    spec = plan(rng, Ctx(rng, Faker(), TODAY, {}), LINKS, length=3, p_rule=1.0, p_stale=1.0, max_actions=2,
                seed_key="k5")
    base = explore_states(spec.services, 0, TODAY)
    a, b = materialize(spec, base, TODAY, Faker()), materialize(spec, base, TODAY, Faker())
    assert a.states == b.states and a.keys == b.keys
    assert base == explore_states(spec.services, 0, TODAY), "planting must not touch the base states"


def _calls(solution) -> list:
    return [(svc, mc.arguments) for svc, w in solution.writes for mc in w.calls]


def _wrong_world_scores(seed: int) -> list[float]:
    """Scores of agents that read one record wrongly: each counterfactual
    world's writes, replayed on the real task."""
    rng = random.Random(f"w{seed}")
    fake = Faker()
    try:  # a walk that finds nothing to act on, or a design that fails, is a rejected attempt
        spec = plan(rng, Ctx(rng, fake, TODAY, {}), LINKS, length=rng.choice((2, 3, 4)), p_rule=0.8, p_stale=0.5,
                    max_actions=2, seed_key=f"w{seed}")
        base = explore_states(spec.services, 0, TODAY)
        d = design(spec, base, TODAY, fake, rng, render, {}, [])
    except (PlanError, DesignError):
        return []
    from compoworld_gym.generation.submit import build_task

    task = build_task(d, task_id="t", seed=0, today=TODAY, stage_stats={})
    planted = materialize(spec, base, TODAY, fake)
    right = solve(spec, planted, TODAY)
    overrides = [{"threshold": spec.rule.stale_threshold}] if spec.rule else []
    overrides += [{slot: v} for slot, v in planted.alt_values.items() if slot[2] in ("email", "money")]
    out = []
    for ov in overrides:
        try:
            wrong = solve(spec, materialize(spec, base, TODAY, fake, ov), TODAY)
        except Exception:
            continue
        if _calls(wrong) == _calls(right):
            # A value no call carries (a payment plan's total is the server's sum of the balance):
            # misreading it changes nothing the agent does.
            continue
        world = mount(task)
        for svc, w in wrong.writes:
            for mc in w.calls:
                dispatch(world, "call_tool", {"tool_name": _exposed(world, svc, mc.arguments["tool_name"]),
                                              "arguments": mc.arguments["arguments"]})
        out.append(score(evaluate(task, world.states(state_check_services(task)), task.reference_answer, world.call_log)))
    return out


def _exposed(world, service: str, tool: str) -> str:
    return world.exposed_name(service, tool)


def test_an_agent_misreading_any_record_or_the_stale_policy_fails() -> None:
    scores = [s for seed in range(12) for s in _wrong_world_scores(seed)]
    assert len(scores) >= 10
    assert max(scores) < 1.0, scores


def test_tasks_chain_and_decide(tasks) -> None:
    m = chain_metrics(tasks)
    assert m["chained_share"] >= 0.8 and m["median_depth"] >= 3, m
    assert m["rule_share"] >= 0.5 and m["tool_name_leaks"] == 0, m
    assert m["median_instruction_chars"] <= 1200, m
    for t in tasks:
        assert all(v != "not-needed" for v in t.meta["counterfactual"].values()), t.id
        assert len(t.meta["chain"]) <= 1 or trace(t)["chained_reads"] >= 1, t.id


def test_instruction_states_no_value_a_check_expects(tasks) -> None:
    for t in tasks:
        low = t.instruction.casefold()
        for chk in t.checks:
            if chk.is_guard or chk.kind == "answer_excludes":
                continue
            values = list(getattr(chk, "values", [])) + [str(getattr(chk, "record_id", "") or "")]
            values += [str(v) for v in _leaf_values(getattr(chk, "where", {}))]
            for v in values:
                # Discovered values are ids, amounts, dates and addresses; fixed
                # parameters the goal names ("exception", "beta-testers", CPT 99214) are not.
                if len(v) >= 5 and v not in (t.meta["entry"], t.meta["case"]) and re.search(r"[\d@]", v) \
                        and v.casefold() not in _GOALS:
                    assert v.casefold() not in low, (t.id, chk.id, v)


def _leaf_values(node):
    if isinstance(node, dict):
        for v in node.values():
            yield from _leaf_values(v)
    elif isinstance(node, list):
        for v in node:
            yield from _leaf_values(v)
    elif isinstance(node, (str, int, float)) and not isinstance(node, bool):
        yield node


def test_config_checks_its_fields() -> None:
    from compoworld_gym.generation import ConfigError

    for bad in ({"services": (1, 3)}, {"p_rule": 1.5}, {"chain_lengths": {1: 1.0}}, {"max_actions": 0}):
        with pytest.raises(ConfigError):
            GenerationConfig(**bad)


def test_an_outside_professional_links_only_within_their_domain() -> None:
    from compoworld_gym.generation.plan import linkable

    prescription = LINKS["pharmacy"].relays[0]  # gives the prescriber's email (a clinic's doctor)
    employee = next(r for r in LINKS["hr_directory"].relays if r.key == "email")
    report = next(r for r in LINKS["expenses"].relays if r.key == "email")
    assert prescription.give("email").who == "the prescriber"
    assert not linkable(prescription, employee) and not linkable(prescription, report)
    # The company's own staff still cross domains: the engineer who deployed has an employee record.
    deployment = next(r for r in LINKS["deployments"].relays if r.give("email") is not None)
    assert linkable(deployment, employee)


def test_a_candidate_is_nobodys_staff_even_in_hr() -> None:
    from compoworld_gym.generation.plan import linkable

    # A pending offer's candidate has no HR directory entry, no timesheet, no offers to hire for.
    report = next(r for r in LINKS["background_checks"].relays if r.give("email") is not None)
    assert report.give("email").who == "the candidate"
    staff = [r for s in ("hr_directory", "timesheets", "recruiting") for r in LINKS[s].relays if r.key == "email"]
    assert staff and not any(linkable(report, r) for r in staff)


def test_an_academy_deck_is_maintained_by_its_teachers_only() -> None:
    from compoworld_gym.generation.plan import linkable

    deck = next(r for r in LINKS["flashcards"].relays if r.key == "email")
    course = next(r for r in LINKS["learning_management"].relays if r.give("email") is not None
                  and r.give("email").who == "the instructor")
    deployment = next(r for r in LINKS["deployments"].relays if r.give("email") is not None)
    officer = next(r for r in LINKS["admissions"].relays if r.give("email") is not None
                   and r.give("email").who == "the admission officer")
    assert linkable(course, deck) and not linkable(deployment, deck) and not linkable(officer, deck)


def test_mention_never_quotes_the_entry_records_own_id() -> None:
    from compoworld_gym.generation.plan import _mention, _slots

    # The expense report is found by its id and also gives it as a field: stating it proves nothing.
    first = next(r for r in LINKS["expenses"].relays if r.key == "expense_id")
    assert first.give("expense_id") is not None
    employee = next(r for r in LINKS["hr_directory"].relays if r.key == "email")
    slots = _slots([HopSpec(first, {}), HopSpec(employee, {})])
    assert ("hop", 0, "expense_id") in [s for s, _, _ in slots]
    assert all(_mention(slots, {}, random.Random(k), "expense_id") != ("hop", 0, "expense_id") for k in range(50))


def test_no_task_both_winds_its_matter_down_and_moves_it_on() -> None:
    from compoworld_gym.generation.effects import effect_of, undoes
    from compoworld_gym.generation.plan import RelayGraph

    acts = {f"{s}.{a.name}": a for s, sl in LINKS.items() for a in sl.actions}
    assert effect_of(acts["pharmacy.cancel"]) == "ends" and effect_of(acts["prior_auth.resubmit"]) == "advances"
    assert effect_of(acts["inventory.write_off"]) == "ends" and effect_of(acts["pharmacy.note"]) is None
    assert undoes(acts["prior_auth.resubmit"], [acts["pharmacy.cancel"]])
    assert not undoes(acts["pharmacy.note"], [acts["pharmacy.cancel"]])
    graph, planned = RelayGraph(LINKS), 0
    for i in range(300):  # 82 of 581 such plans mixed the two before the rule
        rng = random.Random(i)
        try:
            spec = plan(rng, Ctx(rng, Faker(), TODAY, {}), LINKS, length=4, p_rule=0.75, p_stale=0.5,
                        max_actions=2, seed_key=str(i), graph=graph)
        except PlanError:
            continue
        planned += 1
        effects = {effect_of(a.action) for a in spec.actions}
        assert not {"ends", "advances"} <= effects, [a.action.name for a in spec.actions]
    assert planned >= 250


def _assignments(*rows: tuple[str, str]) -> dict:
    return {"roleAssignments": [{"id": f"ra-{i:04d}", "principalName": who, "scope": scope}
                                for i, (who, scope) in enumerate(rows)]}


@pytest.mark.parametrize(("picked_scope", "chained"), [("/rg/catalog-sync-prod", 1), ("/rg/billing-prod", 0)])
def test_trace_sees_a_record_picked_out_by_an_earlier_value(picked_scope, chained) -> None:
    # Azure's list-role-assignments takes only a scope: the agent finds the on-call engineer's row by
    # email and names that row's resource group next. A next call on another row's scope owes nothing
    # to the on-call answer.
    instruction = "Remove the on-call engineer's Contributor assignment for warehouse-worker."
    calls = [
        ("on_call", True, {"warehouse-worker"}, {"oncalls": [{"email": "oscar.lindgren@company.example"}]}),
        ("azure", True, {"/subscriptions/sub-1"}, _assignments(
            ("oscar.lindgren@company.example", "/rg/catalog-sync-prod"),
            ("mia.berg@company.example", "/rg/billing-prod"))),
        ("azure", True, {picked_scope}, {"roleAssignments": []}),
    ]
    assert trace_calls(calls, instruction)["chained_reads"] == chained


def test_trace_sees_a_record_picked_out_by_a_value_an_earlier_answer_quotes() -> None:
    # The customer's forum post names the order in its text; the failed sync run holding that order gives
    # the email the next step writes to.
    calls = [
        ("discord", True, {"146125961"}, {"content": "Nobody got back to me about my order ORD-0060. Help?"}),
        ("workflow_automation", True, {"wf-0002"}, {"runs": [
            {"order_id": "ORD-0061", "email": "ann.lee@ware.com"},
            {"order_id": "ORD-0060", "email": "paul.adams@ware.com"}]}),
        ("gmail", False, {"paul.adams@ware.com"}, {"id": "MSG-0001"}),
    ]
    assert trace_calls(calls, "Start from Discord forum post 146125961.")["chained_reads"] == 1
    calls[2] = ("gmail", False, {"ann.lee@ware.com"}, {"id": "MSG-0001"})
    assert trace_calls(calls, "Start from Discord forum post 146125961.")["chained_reads"] == 0


def test_an_action_may_declare_its_effect() -> None:
    from compoworld_gym.generation.effects import effect_of

    acts = {f"{s}.{a.name}": a for s, sl in LINKS.items() for a in sl.actions}
    # "return_to_vendor" has no telling verb: it declares that it ends the matter.
    assert acts["quality_management.return_to_vendor"].effect == "ends"
    assert effect_of(acts["quality_management.return_to_vendor"]) == "ends"
    assert effect_of(acts["quality_management.scrap"]) == "ends" and effect_of(acts["quality_management.close"]) is None


def test_a_supplier_never_leads_to_a_customer_account() -> None:
    from compoworld_gym.generation.plan import linkable

    ncr = next(r for r in LINKS["quality_management"].relays if r.give("company") is not None)
    court_case = next(r for r in LINKS["court_filings"].relays if r.key == "company")
    vendor_payment = next(r for r in LINKS["treasury"].relays if r.key == "company")
    contract = next(r for r in LINKS["contracts"].relays if r.give("company") is not None)
    assert ncr.give("company").party == "vendor" and court_case.key_party == "customer"
    assert not linkable(ncr, court_case) and linkable(ncr, vendor_payment)
    assert not linkable(contract, vendor_payment) and linkable(contract, court_case)


def test_a_customers_refund_request_asks_for_an_amount_on_the_customers_record() -> None:
    from compoworld_gym.generation.plan import _bindable, _slots

    refund = next(a for a in LINKS["forms"].actions if a.name == "file")
    loan = next(r for r in LINKS["library_circulation"].relays if r.give("email") is not None)
    report = next(r for r in LINKS["expenses"].relays if r.key == "expense_id")
    # The expense report's total is no amount the customer paid: a refund request cannot ask for it.
    hops = [HopSpec(loan, {"email": "ann.lee42@example.org", "money": 4.5}),
            HopSpec(report, {"money": 812.4, "email": "ben.foster@company.example"})]
    bind = _bindable(refund, _slots(hops), False)
    assert bind == {"customer": ("hop", 0, "email"), "amount": ("hop", 0, "money")}
