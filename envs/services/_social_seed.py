"""Seed factory of the social service: the store's communities, their members, threads and
two scheduled announcements.

Customers of the shared commerce book post under their own email (so a
complaint can be traced to an order); the store's support lead and a
customer-success manager moderate the official communities.
"""

from __future__ import annotations

import datetime as dt
import random

from faker import Faker

from compoworld_gym.envs.services._commerce import CUSTOMERS, PRODUCTS
from compoworld_gym.envs.services._common import email_for
from compoworld_gym.envs.services._company import STAFF, TEAMS
from compoworld_gym.envs.services._social_models import Account, Comment, Post, SocialState, Subreddit
from compoworld_gym.service import DAY_START

_SUBS = (
    ("acmestore", "Acme Store community", "Official community of the Acme online store.", True),
    ("homeoffice", "Home office setups", "Desks, chairs, lighting and gear for working from home.", True),
    ("mechanicalkeyboards", "Mechanical keyboards", "Switches, keycaps and builds.", False),
    ("productivity", "Productivity", "Tools and habits for getting things done.", False),
)
_RULES = ("Be civil.", "No spam or self-promotion.", "No personal information (order numbers are fine).",
          "Use the right flair.")
_TITLES = (
    ("My {p} arrived damaged, what now?", "Support"),
    ("Is the {p} worth it?", "Question"),
    ("Review after 3 months with the {p}", "Review"),
    ("Still waiting for my {p} refund", "Support"),
    ("Show off: new setup with the {p}", "Showcase"),
    ("{p} stopped working after a week", "Support"),
)


def _username(name: str) -> str:
    return email_for(name, "x").split("@")[0].replace(".", "_").replace("-", "_")


def seed_social(fake: Faker, rng: random.Random, today: dt.date) -> SocialState:
    """Accounts, four communities, 14 published threads with comments and two scheduled posts.

    Args:
        fake: the seeded Faker for extra members' names and post text.
        rng: the seeded generator for karma, scores, authors and timing.
        today: the task's date; threads are from the ten days before 09:00 of it.
    """
    state = SocialState()
    users, mods = _members(state, fake, rng, today)
    _threads(state, fake, rng, today, users, mods)
    return state


def _members(state: SocialState, fake: Faker, rng: random.Random, today: dt.date) -> tuple[list[str], list[str]]:
    """Add accounts and communities; return the members' and the moderators' usernames."""
    people = [(c.name, c.email) for c in CUSTOMERS] + [
        (n, email_for(n, fake.free_email_domain())) for n in (fake.name() for _ in range(4))]
    mgr = next(s for s in STAFF if s.team == "customer_success")
    lead = next(s for s in STAFF if s.team == "support")
    state.accounts["acme_support"] = Account(username="acme_support", display_name=lead.name,
                                             email=TEAMS["support"].email, karma=5400,
                                             created_on=today - dt.timedelta(days=900))
    state.accounts[_username(mgr.name)] = Account(username=_username(mgr.name), display_name=mgr.name,
                                                  email=mgr.email, karma=2100,
                                                  created_on=today - dt.timedelta(days=700))
    for name, email in people:
        u = _username(name)
        state.accounts[u] = Account(username=u, display_name=name, email=email, karma=rng.randint(3, 4000),
                                    created_on=today - dt.timedelta(days=rng.randint(30, 2000)))
    mods = ["acme_support", _username(mgr.name)]
    for name, title, desc, sub_mods in _SUBS:
        state.subreddits[name] = Subreddit(name=name, title=title, description=desc, rules=list(_RULES),
                                           moderators=mods if sub_mods else [_username(people[-1][0])],
                                           subscribers=rng.randint(800, 90000))
    return [_username(n) for n, _ in people], mods


def _threads(state: SocialState, fake: Faker, rng: random.Random, today: dt.date, users: list[str],
             mods: list[str]) -> None:
    """Add 14 published threads (0-3 comments each, the third replying to the second) and two
    scheduled announcements in r/acmestore."""
    start = dt.datetime.combine(today, DAY_START)
    n_cmt = 0
    for n in range(1, 15):
        sub = _SUBS[n % len(_SUBS)][0]
        product = rng.choice(PRODUCTS)
        title, flair = rng.choice(_TITLES)
        author = rng.choice(users)
        when = start - dt.timedelta(hours=rng.randint(2, 240))
        pid = f"PST-{n:04d}"
        likers = rng.sample(users, rng.randint(0, 4))
        state.posts[pid] = Post(id=pid, subreddit=sub, author=author, title=title.format(p=product.name),
                                body=fake.paragraph(nb_sentences=3), flair=flair,
                                score=rng.randint(1, 250) + len(likers), liked_by=likers, status="published",
                                created_at=when)
        for k in range(rng.randint(0, 3)):
            n_cmt += 1
            cid = f"CMT-{n_cmt:04d}"
            parent = f"CMT-{n_cmt - 1:04d}" if k == 2 else None
            state.comments[cid] = Comment(id=cid, post_id=pid, parent_id=parent, author=rng.choice(users + mods),
                                          body=fake.sentence(nb_words=12), score=rng.randint(-3, 60),
                                          status="visible", created_at=when + dt.timedelta(minutes=30 * (k + 1)))
    for n, hours in ((15, 26), (16, 50)):
        pid = f"PST-{n:04d}"
        state.posts[pid] = Post(id=pid, subreddit="acmestore", author="acme_support",
                                title=("Scheduled maintenance this weekend" if n == 15 else
                                       "Winter sale: 20% off all furniture"), body=fake.paragraph(nb_sentences=2),
                                flair="Announcement", score=1, liked_by=["acme_support"], status="scheduled",
                                created_at=start - dt.timedelta(hours=3),
                                scheduled_for=start + dt.timedelta(hours=hours))
    state.counters.update(PST=17, CMT=n_cmt + 1)
