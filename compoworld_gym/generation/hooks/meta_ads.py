"""Meta Ads in chained tasks: a catalog sales campaign names the SKU it
promotes (in its name, "Sales | SKU-40213 | Winter push"), and a SKU's
running campaign is found from the SKU; the case's campaign is paused (an
out-of-stock or recalled product must stop being advertised)."""

from __future__ import annotations

from typing import Any

from compoworld_gym.checks import OnlyChanged, RecordMatches
from compoworld_gym.envs.services._company import DOMAIN
from compoworld_gym.envs.services._meta_ads_models import MetaAdsState
from compoworld_gym.envs.services._meta_ads_rules import next_object_id
from compoworld_gym.envs.services._meta_ads_seed import add_campaign
from compoworld_gym.generation.context import Ctx, call
from compoworld_gym.generation.links import Action, Found, Give, Need, Reader, Relay, ServiceLinks, SolveError, Write

SERVICE = "meta_ads"
#: The retail ad account, where catalog sales campaigns run.
RETAIL = "act_1029384756"
SKU_RX = r"SKU-\d+"
_THEMES = ("Winter", "Flash", "Weekend", "Clearance", "Back in stock", "Bundle")


def next_campaign_id(state: dict[str, Any]) -> str:
    """Take the next free Meta object id from the service's counters."""
    return next_object_id(state["counters"])


def plant_sales_campaign(ctx: Ctx, sku: str, *, status: str = "ACTIVE", campaign_id: str | None = None) -> str:
    """Add a catalog sales campaign for ``sku`` (validated, with its ad set, creative, ad and
    delivery stats) to the retail account; returns the campaign id."""
    state = ctx.state(SERVICE)
    model = MetaAdsState.model_validate(state)
    c = add_campaign(model, ctx.rng, ctx.today, account_id=RETAIL, campaign_id=campaign_id,
                     name=f"Sales | {sku} | {ctx.rng.choice(_THEMES)} push", objective="OUTCOME_SALES",
                     status=status, daily_budget=ctx.rng.choice((2500, 5000, 7500)),
                     started=-ctx.rng.randint(25, 40) if status != "ACTIVE" else -ctx.rng.randint(5, 20),
                     link=f"https://shop.{DOMAIN}/p/{sku.lower()}?utm_source=meta&utm_campaign=sales")
    state.clear()
    state.update(model.model_dump(mode="json"))
    return c.id


def _plant_by_id(ctx: Ctx, key: Any, outs: dict[str, Any], stale: bool) -> str:
    return plant_sales_campaign(ctx, outs.get("sku") or ctx.fresh("sku"), campaign_id=key)


def _plant_of_sku(ctx: Ctx, key: Any, outs: dict[str, Any], stale: bool) -> str:
    return plant_sales_campaign(ctx, str(key), status="PAUSED" if stale else "ACTIVE")


def _campaign(reader: Reader, key: Any) -> dict[str, Any]:
    return reader.read(SERVICE, "get_campaign_details", campaign_id=key)


def _of_sku(reader: Reader, key: Any) -> dict[str, Any]:
    rows = reader.read(SERVICE, "get_campaigns", account_id=RETAIL, limit=200, status_filter="ACTIVE")["data"]
    hits = [c for c in rows if f"| {str(key).upper()} |" in c["name"]]
    if len(hits) != 1:
        raise SolveError(f"{len(hits)} active campaigns promote {key}")
    return _campaign(reader, hits[0]["id"])


CAMPAIGN = Relay(
    service=SERVICE, name="Meta sales campaign", key="ad_campaign_id",
    gives=(Give("sku", "name", "the SKU the campaign promotes", pattern=SKU_RX),),
    plant=_plant_by_id, find=_campaign,
    where="Each Meta catalog sales campaign names the SKU it promotes in its name ('Sales | <SKU> | ...').",
    alloc=lambda ctx: next_campaign_id(ctx.state(SERVICE)), entry=lambda key: f"Meta ad campaign {key}")

SKU_CAMPAIGN = Relay(
    service=SERVICE, name="SKU's running Meta campaign", key="sku",
    gives=(Give("ad_campaign_id", "id", "the SKU's running Meta sales campaign"),),
    plant=_plant_of_sku, find=_of_sku,
    where="Meta catalog sales campaigns run in the retail ad account, named 'Sales | <SKU> | ...'.",
    truth="A paused Meta campaign is not running; only the SKU's ACTIVE campaign counts.")


def _pause(reader: Reader, args: dict[str, Found]) -> Write:
    cid = args["campaign"].value
    _campaign(reader, cid)
    return Write(
        calls=[call("update_campaign", campaign_id=cid, status="PAUSED")],
        checks=[RecordMatches(id="_", service=SERVICE, collection="campaigns", record_id=cid,
                              where={"status": "PAUSED"}, description="The campaign is paused.")],
        scope=[OnlyChanged(id="_", service=SERVICE, collection="campaigns", allow_ids=[cid],
                           description="No other campaign was changed or created."),
               OnlyChanged(id="_", service=SERVICE, collection="adsets",
                           description="No ad set was changed or created."),
               OnlyChanged(id="_", service=SERVICE, collection="ads", description="No ad was changed or created.")],
        tool="update_campaign", where={"campaign_id": cid}, label="the paused Meta campaign")


LINKS = ServiceLinks(
    service=SERVICE, label="Meta Ads",
    relays=(CAMPAIGN, SKU_CAMPAIGN),
    actions=(Action(service=SERVICE, name="pause", needs=(Need("campaign", "ad_campaign_id"),), build=_pause,
                    goal="pause the Meta ad campaign"),),
)

__all__ = ["LINKS", "RETAIL", "next_campaign_id", "plant_sales_campaign"]
