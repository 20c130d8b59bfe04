"""The memory graph in chained tasks: a customer's entity (by name) records
their email, phone and employer; a company's entity records
its account manager and main phone; the case's facts are added to the
customer's entity as an observation."""

from __future__ import annotations

from typing import Any

from compoworld_gym.checks import OnlyChanged, RecordMatches
from compoworld_gym.envs.services.memory_graph import Entity
from compoworld_gym.generation.context import Ctx, call
from compoworld_gym.generation.hooks.crm import staff_email
from compoworld_gym.generation.links import Action, Found, Give, Need, Reader, Relay, ServiceLinks, Write, pick


def plant_entity(state: dict[str, Any], name: str, entity_type: str, observations: list[str]) -> str:
    """Put an :class:`Entity` (validated) named ``name`` in the graph,
    replacing any entity of that name; returns the name."""
    state["entities"][name] = Entity(name=name, entityType=entity_type,
                                     observations=observations).model_dump(mode="json")
    return name


def _outdated(state: dict[str, Any], name: str, since: str, values: list[str]) -> str:
    """Append an observation marking old contact details of ``name`` as outdated."""
    state["entities"][name]["observations"].append(f"Outdated since {since}: {'; '.join(values)}")
    return name


def _plant_customer(ctx: Ctx, key: Any, outs: dict[str, Any], stale: bool) -> str:
    state = ctx.state("memory_graph")
    email, phone = outs.get("email") or ctx.person()[1], outs.get("phone") or ctx.fresh("phone")
    company = outs.get("company") or ctx.fresh("company")
    if stale and key in state["entities"]:
        return _outdated(state, key, ctx.day(-90), [f"email was {email}", f"phone was {phone}",
                                                    f"worked at {company}"])
    return plant_entity(state, key, "customer", [
        f"Email: {email}", f"Phone: {phone}", f"Works at {company}",
        f"Customer since {ctx.day(-ctx.rng.randint(60, 700))}"])


def _plant_org(ctx: Ctx, key: Any, outs: dict[str, Any], stale: bool) -> str:
    return plant_entity(ctx.state("memory_graph"), key, "organization", [
        f"Account manager: {outs.get('email') or staff_email(ctx)}",
        f"Main phone: {outs.get('phone') or ctx.fresh('phone')}", "Client since last year"])


def _open(reader: Reader, key: Any) -> dict[str, Any]:
    return pick(reader.read("memory_graph", "open_nodes", names=[key])["entities"], name=key)


CUSTOMER = Relay(
    service="memory_graph", name="customer entity", key="person_name",
    gives=(Give("email", "observations.0", "the customer's email address", "the customer", pattern=r"(?<=Email: ).+"),
           Give("phone", "observations.1", "the customer's phone number", pattern=r"(?<=Phone: ).+"),
           Give("company", "observations.2", "the customer's employer", pattern=r"(?<=Works at ).+", party="customer")),
    plant=_plant_customer, find=_open,
    where="The memory graph has an entity for each customer, by full name, with their email, phone "
          "and employer.",
    truth="Observations in the memory graph marked outdated are history; the current ones count.")

ORGANIZATION = Relay(
    service="memory_graph", name="organization entity", key="company", key_party="customer",
    gives=(Give("email", "observations.0", "the account manager's email address", "the account owner",
                pattern=r"(?<=Account manager: ).+", draw=staff_email),
           Give("phone", "observations.1", "the company's main phone number", pattern=r"(?<=Main phone: ).+")),
    plant=_plant_org, find=_open,
    where="The memory graph has an entity for each client company naming its account manager and main phone.")


def _prepare(ctx: Ctx, values: dict[str, Any]) -> None:
    """Add the customer's entity if the chain did not."""
    if values["customer"] not in ctx.state("memory_graph")["entities"]:
        _plant_customer(ctx, values["customer"], {}, False)


def _observe(reader: Reader, args: dict[str, Found]) -> Write:
    name, mention, case = args["customer"].value, args["mention"], args["case"].value
    _open(reader, name)
    text = f"{case}: {mention.noun} is {mention.display}."
    return Write(
        calls=[call("add_observations", observations=[{"entityName": name, "contents": [text]}])],
        checks=[RecordMatches(id="_", service="memory_graph", collection="entities", record_id=name,
                              where={"observations": {"$some": {"$all": [{"$contains": case},
                                                                         {"$contains": mention.display}]}}},
                              description="The customer's entity records the case with the right value.")],
        scope=[OnlyChanged(id="_", service="memory_graph", collection="entities", allow_ids=[name],
                           description="No other entity was changed or created.")],
        tool="add_observations", where={}, label="the observation on the customer's entity")


LINKS = ServiceLinks(
    service="memory_graph", label="the memory graph",
    relays=(CUSTOMER, ORGANIZATION),
    actions=(Action(service="memory_graph", name="observe", needs=(Need("customer", "person_name", ("the customer",)),),
                    build=_observe, prepare=_prepare,
                    goal="record {mention} as an observation on the customer's entity in the memory graph"),),
)

__all__ = ["LINKS", "plant_entity"]
