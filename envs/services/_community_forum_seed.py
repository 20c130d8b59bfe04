"""Seed data of the community_forum service: the store's Discourse community.

Users: the store customers of the shared roster (``_commerce.py``; the forum
email is the customer's email) and support staff of the shared company roster
as moderators. Each customer opens a topic in Support naming their latest
order of the shared order book (its ORD id and the product's SKU); some are
solved, one closed, one archived. Flags wait in the review queue (and one was
already agreed).
"""

from __future__ import annotations

import datetime as dt
import random

from compoworld_gym.envs.services._blocks import stamp
from compoworld_gym.envs.services._commerce import CUSTOMERS, PRODUCTS_BY_SKU, order_book
from compoworld_gym.envs.services._community_forum_models import Category, Flag, ForumState, Post, Topic, User
from compoworld_gym.envs.services._company import STAFF

STAFF_USERS = ("Luis Ortega", "Hannah Kovacs", "Jamal Wright")


def username(name: str) -> str:
    """Discourse username of a person: lower-case name, spaces as underscores."""
    return name.lower().replace("'", "").replace(" ", "_")


def _next(state: ForumState, prefix: str) -> str:
    n = state.counters.get(prefix, 1)
    state.counters[prefix] = n + 1
    return f"{prefix}-{n:04d}"


def add_post(state: ForumState, topic: Topic, user: str, raw: str, at: dt.datetime,
             reply_to: int | None = None) -> Post:
    """Append a post to ``topic`` with the next id and post number."""
    number = 1 + sum(1 for p in state.posts.values() if p.topic_id == topic.id)
    post = Post(id=_next(state, "POST"), topic_id=topic.id, post_number=number, username=user, raw=raw,
                reply_to_post_number=reply_to, created_at=at)
    state.posts[post.id] = post
    topic.last_posted_at = max(topic.last_posted_at, at)
    return post


def _users(state: ForumState, rng: random.Random, today: dt.date) -> None:
    for k, c in enumerate(CUSTOMERS):
        u = User(username=username(c.name), name=c.name, email=c.email, trust_level=1 + k % 3,
                 created_at=stamp(today, 300 - 20 * k, rng), suspended=k == 9)
        state.users[u.username] = u
    for k, s in enumerate(s for s in STAFF if s.name in STAFF_USERS):
        state.users[username(s.name)] = User(username=username(s.name), name=s.name, email=s.email, trust_level=4,
                                             moderator=True, admin=k == 1, created_at=stamp(today, 600, rng))


_CATS = (("support", "Support", "Questions about orders, deliveries and products.", True),
         ("announcements", "Announcements", "News from the store team.", False),
         ("feature-requests", "Feature Requests", "Ideas for new products and features.", False),
         ("show-and-tell", "Show and Tell", "Share your desk setup.", False))


def _topics(state: ForumState, rng: random.Random, today: dt.date) -> None:
    book = order_book(today)
    for k, c in enumerate(CUSTOMERS[:9]):
        orders = [o for o in book if o.customer.email == c.email]
        at = stamp(today, 12 - k, rng)
        user = username(c.name)
        if orders:
            o = orders[-1]
            sku = o.lines[0].sku
            title = f"Question about order {o.id}: {PRODUCTS_BY_SKU[sku].name}"
            raw = (f"Hi all, my order {o.id} ({PRODUCTS_BY_SKU[sku].name}, SKU {sku}) shows as {o.status}. "
                   "Has anyone had the same?")
            tags = ["orders", o.status]
        else:
            title, tags = "Which monitor arm fits a 34 inch screen?", ["advice"]
            raw = "Looking for advice before I buy."
        t = Topic(id=_next(state, "TOP"), title=title, category="support", username=user, tags=tags,
                  created_at=at, last_posted_at=at)
        state.topics[t.id] = t
        add_post(state, t, user, raw, at)
        if k % 3 == 1:
            answer = add_post(state, t, "luis_ortega", f"Thanks {c.name.split()[0]}, I checked it for you: it is "
                                                       "on its way, you'll get an email from the carrier.",
                              at + dt.timedelta(hours=3), reply_to=1)
            t.accepted_answer_post_id = answer.id
        t.closed, t.archived = k == 5, k == 8
    announce = Topic(id=_next(state, "TOP"), title="Holiday shipping cut-off dates", category="announcements",
                     username="hannah_kovacs", tags=["shipping"], created_at=stamp(today, 30, rng),
                     last_posted_at=stamp(today, 30, rng), closed=True)
    state.topics[announce.id] = announce
    add_post(state, announce, "hannah_kovacs", "Order by December 18 for standard delivery before the holidays.",
             announce.created_at)
    show = Topic(id=_next(state, "TOP"), title="My standing desk setup", category="show-and-tell",
                 username="ethan_brooks", tags=["setup"], created_at=stamp(today, 9, rng),
                 last_posted_at=stamp(today, 9, rng))
    state.topics[show.id] = show
    add_post(state, show, "ethan_brooks", "Finally finished my home office. Photos below!", show.created_at)
    add_post(state, show, "james_oconnor", "Buy cheap watches at best-watch-deals dot example!!!",
             show.created_at + dt.timedelta(hours=1))
    add_post(state, show, "mia_schneider", "Love the cable tray. Which one is it?",
             show.created_at + dt.timedelta(hours=2))


def _flags(state: ForumState, rng: random.Random, today: dt.date) -> None:
    spam = next(p for p in state.posts.values() if p.username == "james_oconnor")
    for who, kind, status in (("ethan_brooks", "spam", "pending"), ("mia_schneider", "spam", "pending")):
        f = Flag(id=_next(state, "FLG"), post_id=spam.id, topic_id=spam.topic_id, flag_type=kind, flagged_by=who,
                 status=status, created_at=stamp(today, 2, rng))
        state.flags[f.id] = f
    target = next(p for p in state.posts.values() if p.username == "mia_schneider")
    state.flags[_next(state, "FLG")] = Flag(id="FLG-0003", post_id=target.id, topic_id=target.topic_id,
                                            flag_type="off_topic", flagged_by="liam_patel", status="rejected",
                                            reviewed_by="luis_ortega", created_at=stamp(today, 5, rng))
    state.flags[_next(state, "FLG")] = Flag(id="FLG-0004", post_id=spam.id, topic_id=spam.topic_id,
                                            flag_type="notify_moderators", flagged_by="olivia_martinez",
                                            message="This account is posting ads in several topics.",
                                            status="pending", created_at=stamp(today, 1, rng))


def build_state(rng: random.Random, today: dt.date) -> ForumState:
    state = ForumState()
    _users(state, rng, today)
    for slug, name, about, solved in _CATS:
        state.categories[slug] = Category(slug=slug, name=name, description=about, solved_enabled=solved)
    _topics(state, rng, today)
    _flags(state, rng, today)
    return state
