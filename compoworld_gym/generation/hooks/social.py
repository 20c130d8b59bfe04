"""Social in chained tasks: a community post (by id, or the latest one a
customer signed with their name) quotes the order or hotel reservation it
complains about; a member's account (by username) names the person and their
email; the support account replies on the case's post."""

from __future__ import annotations

from typing import Any

from compoworld_gym.checks import OnlyChanged, RecordExists
from compoworld_gym.envs.services._social_models import Account, Post
from compoworld_gym.generation.context import Ctx, call
from compoworld_gym.generation.links import (
    Action, Found, Give, Need, Reader, Relay, ServiceLinks, Write, latest, next_id,
)

SUBREDDIT, SUPPORT = "acmestore", "acme_support"
#: Record ids a post may quote, by entity type: (how the post names it, pattern).
#: (No booking ids: flights and the room-booking system share that entity type.)
QUOTED = {"order_id": ("order", r"ORD-\d{4,}"), "reservation_id": ("hotel reservation", r"RSV-\d{4,}")}
_WORDS = (("quiet", "rusty", "lucky", "sunny", "brave", "cosmic", "urban", "tidy", "nimble", "velvet"),
          ("otter", "falcon", "maple", "pixel", "harbor", "comet", "cactus", "badger", "lantern", "walnut"))


def fresh_username(ctx: Ctx) -> str:
    """A community handle such as ``quiet_otter42`` (unused when the social state is loaded)."""
    taken = ctx.states["social"]["accounts"] if "social" in ctx.states else {}
    while True:
        name = f"{ctx.rng.choice(_WORDS[0])}_{ctx.rng.choice(_WORDS[1])}{ctx.rng.randint(10, 99)}"
        if name not in taken:
            return name


def plant_account(state: dict[str, Any], username: str, name: str, email: str, created_on: str) -> str:
    """Add an :class:`Account` (validated) unless ``username`` exists; returns the username."""
    if username not in state["accounts"]:
        acct = Account(username=username, display_name=name, email=email, karma=40, created_on=created_on)
        state["accounts"][username] = acct.model_dump(mode="json")
    return username


def next_post_id(state: dict[str, Any]) -> str:
    """Take the next free post id from the social counters (as ``new_id("PST")``)."""
    return next_id(state, "PST")


def plant_post(state: dict[str, Any], post_id: str, **fields: Any) -> str:
    """Add a published :class:`Post` (validated) in r/acmestore; returns the id."""
    base = {"subreddit": SUBREDDIT, "flair": "Support", "score": 3, "liked_by": [], "status": "published"}
    state["posts"][post_id] = Post.model_validate({**base, **fields, "id": post_id}).model_dump(mode="json")
    return post_id


def _plant_post(ctx: Ctx, key: Any, outs: dict[str, Any], stale: bool, by: str) -> str:
    state = ctx.state("social")
    pid = key if by == "id" else next_post_id(state)
    name = key if by == "name" else ctx.client()
    author = plant_account(state, fresh_username(ctx), name, ctx.person()[1], ctx.day(-400))
    quoted = [f"my {what} {outs[t]}" for t, (what, _) in QUOTED.items() if outs.get(t)]
    about = " and ".join(quoted) or "my last purchase"
    body = (f"Three emails and still nothing: {about} is still not sorted out. Can someone from support help?"
            if not stale else f"Earlier issue with {about}. Edit: sorted out now, thanks.")
    return plant_post(state, pid, author=author, title="Still waiting on support" if not stale else "Resolved, thanks",
                      body=f"{body}\n\n{name}", created_at=ctx.at(-20 if stale else -1, 8))


def _post(reader: Reader, pid: str) -> dict[str, Any]:
    return reader.read("social", "fetch_reddit_post_content", post_id=pid, comment_limit=50)


def _signed(reader: Reader, key: Any) -> dict[str, Any]:
    rows = reader.read("social", "search_posts", query=key, subreddit=SUBREDDIT, status="published", limit=50)
    signed = [r for r in rows if r["body"].rstrip().lower().endswith(str(key).lower())]
    return _post(reader, latest(signed, "created_at")["id"])


def _plant_member(ctx: Ctx, key: Any, outs: dict[str, Any], stale: bool) -> str:
    return plant_account(ctx.state("social"), key, outs.get("person_name") or ctx.client(),
                         outs.get("email") or ctx.person()[1], ctx.day(-ctx.rng.randint(60, 900)))


_QUOTES = tuple(Give(t, "body", f"the {what} the post is about", pattern=rx) for t, (what, rx) in QUOTED.items())

POST = Relay(
    service="social", name="community post", key="post_id",
    gives=(Give("post_id", "id", "the community post"), *_QUOTES),
    plant=lambda ctx, key, outs, stale: _plant_post(ctx, key, outs, stale, "id"), find=_post,
    where="A customer's community post says which order or hotel reservation it is about.",
    alloc=lambda ctx: next_post_id(ctx.state("social")), entry=lambda key: f"community post {key}")

SIGNED_POST = Relay(
    service="social", name="customer's community post", key="person_name",
    gives=(Give("post_id", "id", "the customer's latest community post"), *_QUOTES),
    plant=lambda ctx, key, outs, stale: _plant_post(ctx, key, outs, stale, "name"), find=_signed,
    where="Customers sign their posts in the store community with their full name; a post says which order "
          "or hotel reservation it is about.",
    truth="When a customer posted more than once, only their most recent post counts.")

MEMBER = Relay(
    service="social", name="community member", key="username",
    gives=(Give("email", "email", "the member's account email", "the customer"),
           Give("person_name", "display_name", "the member's name", "the customer")),
    plant=_plant_member, find=lambda reader, key: reader.read("social", "get_account", username=key),
    where="A community member's account, found by username, gives the person's name and account email.",
    alloc=fresh_username, entry=lambda key: f"the community member u/{key}")


def _reply(reader: Reader, args: dict[str, Found]) -> Write:
    pid, mention, case = args["post"].value, args["mention"], args["case"].value
    _post(reader, pid)
    body = f"Thanks for your patience. We are on it under {case}: {mention.noun} is {mention.display}."
    where = {"post_id": pid, "author": SUPPORT, "body": {"$all": [{"$contains": case}, {"$contains": mention.display}]}}
    return Write(
        calls=[call("add_comment", post_id=pid, author=SUPPORT, body=body)],
        checks=[RecordExists(id="_", service="social", collection="comments", where=where,
                             description="The support account replied on the post quoting the right value.")],
        scope=[OnlyChanged(id="_", service="social", collection="comments",
                           allow_new={"post_id": pid, "author": SUPPORT},
                           description="No other comment was made or changed.")],
        tool="add_comment", where={"post_id": pid}, label="the reply on the community post")


LINKS = ServiceLinks(
    service="social", label="the community",
    relays=(POST, SIGNED_POST, MEMBER),
    actions=(Action(service="social", name="reply", needs=(Need("post", "post_id"),), build=_reply,
                    goal="reply to the customer's community post from the support account, stating {mention}"),),
)

__all__ = ["LINKS", "fresh_username", "next_post_id", "plant_account", "plant_post"]
