"""Community forum (Discourse) in chained tasks: a customer's email leads to
their forum account and their open support topic, whose opening post names
the order (and product SKU) it is about; staff then reply to that topic
quoting a discovered value, or mark the staff reply as the solution."""

from __future__ import annotations

from typing import Any

from compoworld_gym.checks import OnlyChanged, RecordExists, RecordMatches
from compoworld_gym.envs.services._community_forum_models import Post, Topic, User
from compoworld_gym.generation.context import Ctx, call
from compoworld_gym.generation.hooks.hr_directory import name_from_email
from compoworld_gym.generation.links import (
    Action, Found, Give, Need, Reader, Relay, ServiceLinks, SolveError, Write, next_id,
)

SERVICE = "community_forum"
STAFF_USER = "luis_ortega"
ORDER_RX = r"ORD-\d{4,}"


def plant_user(state: dict[str, Any], email: str, name: str, created: str) -> str:
    """The username of the forum user with ``email``, adding one when there is none."""
    for u in state["users"].values():
        if u["email"].lower() == email.lower():
            return u["username"]
    base = name.lower().replace("'", "").replace(" ", "_")
    user = base if base not in state["users"] else f"{base}_{len(state['users'])}"
    state["users"][user] = User(username=user, name=name, email=email, trust_level=1,
                                created_at=created).model_dump(mode="json")
    return user


def plant_topic(state: dict[str, Any], username: str, title: str, raw: str, at: str, *, closed: bool = False) -> str:
    """A support topic by ``username`` with ``raw`` as its opening post; returns the topic id."""
    tid = next_id(state, "TOP")
    state["topics"][tid] = Topic(id=tid, title=title, category="support", username=username, tags=["orders"],
                                 closed=closed, created_at=at, last_posted_at=at).model_dump(mode="json")
    pid = next_id(state, "POST")
    state["posts"][pid] = Post(id=pid, topic_id=tid, post_number=1, username=username, raw=raw,
                               created_at=at).model_dump(mode="json")
    return tid


def _plant(ctx: Ctx, key: Any, outs: dict[str, Any], stale: bool) -> str:
    state, email = ctx.state(SERVICE), str(key)
    user = plant_user(state, email, ctx.client() if "@" not in email else name_from_email(email), ctx.at(-200, 10))
    order = outs.get("order_id") or f"ORD-{ctx.rng.randint(2000, 9999)}"
    if stale:
        return plant_topic(state, user, f"Old question about order {order}", f"Sorted now, thanks: order {order} "
                           "arrived after all.", ctx.at(-40, 11), closed=True)
    return plant_topic(state, user, f"Still waiting on order {order}",
                       f"Hi all, my order {order} has not arrived yet and I have had no update. Any ideas?",
                       ctx.at(-2, 14))


def _find(reader: Reader, key: Any) -> dict[str, Any]:
    users = reader.read(SERVICE, "list_users", email=str(key))
    if len(users) != 1:
        raise SolveError(f"{len(users)} forum users have email {key}")
    topics = reader.read(SERVICE, "list_user_topics", username=users[0]["username"])["topic_list"]["topics"]
    live = [t for t in topics if t["category"] == "support" and not t["closed"] and not t["archived"]]
    if not live:
        raise SolveError(f"no open support topic for {key}")
    return reader.read(SERVICE, "get_topic", topic_id=live[0]["id"])


TOPIC = Relay(
    service=SERVICE, name="customer's forum topic", key="email",
    gives=(Give("order_id", "post_stream.posts.0.raw", "the order the customer's forum topic is about",
                pattern=ORDER_RX),
           Give("forum_topic_id", "id", "the customer's forum topic")),
    plant=_plant, find=_find,
    where="Customers ask for help in the Support category of the store's Discourse forum, under an account with "
          "their email; the opening post names the order.",
    truth="On the forum only the customer's open support topic counts; closed topics are settled.",
    entry=lambda key: f"the forum account with email {key}")


def _alloc(ctx: Ctx) -> str:
    """The id the next planted topic takes (the state's TOP counter, not advanced here)."""
    return f"TOP-{ctx.state(SERVICE)['counters'].get('TOP', 1):04d}"


def _plant_by_id(ctx: Ctx, key: Any, outs: dict[str, Any], stale: bool) -> str:
    state = ctx.state(SERVICE)
    name = outs.get("person_name") or ctx.client()
    user = plant_user(state, f"{name.lower().replace(' ', '.')}@example.com", name, ctx.at(-200, 10))
    order = outs.get("order_id") or f"ORD-{ctx.rng.randint(2000, 9999)}"
    state["counters"]["TOP"] = int(str(key).split("-")[1])  # plant_topic takes exactly this id
    return plant_topic(state, user, f"Still waiting on order {order}",
                       f"Hi all, my order {order} has not arrived yet and I have had no update. Any ideas?",
                       ctx.at(-2, 14))


TOPIC_BY_ID = Relay(
    service=SERVICE, name="forum topic", key="forum_topic_id",
    gives=(Give("person_name", "details.created_by.name", "the topic starter's name", "the customer"),
           Give("order_id", "post_stream.posts.0.raw", "the order the forum topic is about", pattern=ORDER_RX)),
    plant=_plant_by_id, alloc=_alloc,
    find=lambda reader, key: reader.read(SERVICE, "get_topic", topic_id=key),
    where="Each topic of the store's Discourse forum shows who started it; its opening post names the order.",
    entry=lambda key: f"forum topic {key}")


def _reply(reader: Reader, args: dict[str, Found]) -> Write:
    tid, mention, case = args["topic"].value, args["mention"], args["case"].value
    text = f"Hello, an update on {case}: {mention.noun} is {mention.display}."
    return Write(
        calls=[call("create_post", topic_id=tid, raw=text, username=STAFF_USER)],
        checks=[RecordExists(id="_", service=SERVICE, collection="posts",
                             where={"topic_id": tid, "username": STAFF_USER, "raw": {"$contains": mention.display}},
                             description="A staff reply in the customer's topic quotes the right value.")],
        scope=[OnlyChanged(id="_", service=SERVICE, collection="posts", allow_new={"topic_id": tid}, max_new=1,
                           description="No other post was written or changed."),
               OnlyChanged(id="_", service=SERVICE, collection="topics", allow_ids=[tid],
                           description="No other topic was changed.")],
        tool="create_post", where={"topic_id": tid}, label="the reply on the forum topic")


def _close(reader: Reader, args: dict[str, Found]) -> Write:
    tid = args["topic"].value
    return Write(
        calls=[call("update_topic_status", topic_id=tid, status="closed", enabled=True, username=STAFF_USER)],
        checks=[RecordMatches(id="_", service=SERVICE, collection="topics", record_id=tid, where={"closed": True},
                              description="The customer's forum topic is closed.")],
        scope=[OnlyChanged(id="_", service=SERVICE, collection="topics", allow_ids=[tid],
                           description="No other topic was changed.")],
        tool="update_topic_status", where={"topic_id": tid}, label="closing the forum topic")


LINKS = ServiceLinks(
    service=SERVICE, label="community forum (Discourse)",
    relays=(TOPIC, TOPIC_BY_ID),
    actions=(
        Action(service=SERVICE, name="reply", needs=(Need("topic", "forum_topic_id"),), build=_reply,
               goal=f"reply to the customer's forum topic as {STAFF_USER}, quoting {{mention}}"),
        Action(service=SERVICE, name="close", needs=(Need("topic", "forum_topic_id"),), build=_close,
               goal=f"close the customer's forum topic (as {STAFF_USER})", effect="ends"),
    ),
)

__all__ = ["LINKS", "plant_topic", "plant_user"]
