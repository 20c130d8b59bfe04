"""Business reviews (Google Business Profile) in chained tasks: a customer's
name leads to their review of the online store (the API gives reviewers by
display name only, no email), which names the order it is about; the owner
then replies to that review quoting a discovered value (a refund amount, a
replacement order id, a tracking number)."""

from __future__ import annotations

from typing import Any

from compoworld_gym.checks import OnlyChanged, RecordMatches
from compoworld_gym.envs.services._business_reviews_models import Review, Reviewer
from compoworld_gym.generation.context import Ctx, call
from compoworld_gym.generation.links import (
    Action, Found, Give, Need, Reader, Relay, ServiceLinks, SolveError, Write, next_id,
)

SERVICE = "business_reviews"
ONLINE = "LOC-0003"
ACCOUNT = "accounts/108234567890123456789"
ORDER_RX = r"ORD-\d{4,}"


def plant_review(state: dict[str, Any], name: str, stars: str, comment: str, at: str) -> str:
    """The customer's review of the online store: their earlier review there is rewritten (Google keeps
    one review per reviewer and location), else a new one is added. Returns the review id."""
    old = next((r for r in state["reviews"].values()
                if r["location_id"] == ONLINE and r["reviewer"]["display_name"] == name), None)
    rid = old["id"] if old else next_id(state, "REV")
    state["reviews"][rid] = Review(
        id=rid, location_id=ONLINE, name=f"{ACCOUNT}/locations/{ONLINE}/reviews/{rid}",
        reviewer=Reviewer(display_name=name), star_rating=stars, comment=comment,
        create_time=old["create_time"] if old else at, update_time=at).model_dump(mode="json")
    return rid


def _plant(ctx: Ctx, key: Any, outs: dict[str, Any], stale: bool) -> str:
    order = outs.get("order_id") or f"ORD-{ctx.rng.randint(2000, 9999)}"
    return plant_review(ctx.state(SERVICE), str(key), "TWO",
                        f"Order {order} still has not arrived and nobody has told me why.", ctx.at(-2, 13))


def _find(reader: Reader, key: Any) -> dict[str, Any]:
    rows = reader.read(SERVICE, "list_reviews", location_id=ONLINE)["reviews"]
    hits = [r for r in rows if r["reviewer"]["display_name"].lower() == str(key).lower()]
    if len(hits) != 1:
        raise SolveError(f"{len(hits)} reviews of the online store by {key}")
    return hits[0]


REVIEW = Relay(
    service=SERVICE, name="customer's Google review", key="person_name",
    gives=(Give("order_id", "comment", "the order the customer's review is about", pattern=ORDER_RX),
           Give("review_id", "id", "the customer's Google review")),
    plant=_plant, find=_find,
    where="Customers review the online store on its Google Business Profile under their own name; a review says "
          "which order it is about.",
    entry=lambda key: f"the Google review by {key} of the online store")


def _reply(reader: Reader, args: dict[str, Found]) -> Write:
    rid, mention = args["review"].value, args["mention"]
    text = f"We are sorry for the trouble. An update on your case: {mention.noun} is {mention.display}."
    return Write(
        calls=[call("update_reply", review_id=rid, comment=text)],
        checks=[RecordMatches(id="_", service=SERVICE, collection="reviews", record_id=rid,
                              where={"review_reply.comment": {"$contains": mention.display}},
                              description="The owner's reply to the review quotes the right value.")],
        scope=[OnlyChanged(id="_", service=SERVICE, collection="reviews", allow_ids=[rid],
                           description="No other review was replied to or changed.")],
        tool="update_reply", where={"review_id": rid}, label="the reply to the Google review")


LINKS = ServiceLinks(
    service=SERVICE, label="Google Business Profile",
    relays=(REVIEW,),
    actions=(Action(service=SERVICE, name="reply", needs=(Need("review", "review_id"),), build=_reply,
                    goal="reply to the customer's Google review as the business owner, quoting {mention}"),),
)

__all__ = ["LINKS", "plant_review"]
