"""Seed data of the podcasts service (records in ``_podcasts_models``).

Three shows of Acme Inc., hosted by staff of the shared roster
(``_company.STAFF``): two public shows and a private partner briefing whose
private subscribers are the main contacts of the shared B2B accounts
(``_accounts.ACCOUNTS``). Guests are those contacts (name, email, company)
and sponsors are the account companies, each with a fee.
"""

from __future__ import annotations

import datetime as dt
import random

from faker import Faker

from compoworld_gym.envs.services._accounts import ACCOUNTS
from compoworld_gym.envs.services._blocks import day_start
from compoworld_gym.envs.services._podcasts_models import Episode, PodcastsState, Show, Subscriber

_HOSTS = {"PSH-0001": ("jamal.wright@company.example", "hannah.kovacs@company.example"),
          "PSH-0002": ("ben.foster@company.example",),
          "PSH-0003": ("luis.ortega@company.example",)}
#: (title, slug, category, private, baseline downloads, description)
_SHOWS = (("The Operations Hour", "operations-hour", "Business > Management", False, 420,
           "Operators from our customers on running supply chains, service desks and teams."),
          ("Ship It Weekly", "ship-it-weekly", "Technology", False, 260,
           "Engineering leaders on shipping software safely."),
          ("Acme Partner Briefing", "partner-briefing", "Business", True, 60,
           "Private monthly briefing for Acme business account contacts."))
#: (show, season, number, title, type, status, day offset, audio, guest account index, sponsor index, fee)
_EPISODES = (
    ("PSH-0001", 1, 1, "Running lean warehouses", "full", "published", -120, True, 0, 3, 1800.0),
    ("PSH-0001", 1, 2, "Forecasting demand without tears", "full", "published", -90, True, 5, None, None),
    ("PSH-0001", 2, 1, "What we learned from peak season", "full", "published", -21, True, 3, 0, 2500.0),
    ("PSH-0001", 2, 2, "Procurement playbooks", "full", "published", -7, True, 2, 1, 2200.0),
    ("PSH-0001", 2, 3, "Hospitality at scale", "full", "scheduled", 6, True, 4, 6, 2400.0),
    ("PSH-0001", 2, 4, "Airline operations after the storm", "full", "draft", 0, False, 8, 9, 1500.0),
    ("PSH-0002", 1, None, "Welcome to Ship It Weekly", "trailer", "published", -70, True, None, None, None),
    ("PSH-0002", 1, 1, "Zero-downtime deploys", "full", "published", -60, True, 1, 7, 1200.0),
    ("PSH-0002", 1, 2, "Data platforms that last", "full", "published", -14, True, 6, None, None),
    ("PSH-0002", 1, 3, "Robots in the pipeline", "full", "draft", 0, True, 7, None, None),
    ("PSH-0003", 1, 1, "Q1 roadmap for partners", "full", "published", -10, True, None, None, None),
    ("PSH-0003", 1, 2, "Billing changes in February", "full", "scheduled", 3, True, None, None, None),
)
#: Accounts whose contacts subscribe to the private show.
_SUBSCRIBERS = (0, 1, 2, 3, 6, 9)


def audio_url(show_slug: str, episode_id: str) -> str:
    """Where an episode's audio file lives on the media host."""
    return f"https://media.transistor.fm/{show_slug}/{episode_id.lower()}.mp3"


def share_url(episode_id: str) -> str:
    """The public share page of an episode."""
    return f"https://share.transistor.fm/s/{episode_id.lower()}"


def _shows(st: PodcastsState, today: dt.date) -> dict[str, str]:
    slugs = {}
    for n, (title, slug, category, private, base, desc) in enumerate(_SHOWS, start=1):
        sid = f"PSH-{n:04d}"
        feed = f"https://feeds.transistor.fm/{slug}" + ("/private" if private else "")
        st.shows[sid] = Show(id=sid, title=title, author="Acme Inc.", description=desc,
                             website=f"https://acme.example/podcasts/{slug}", category=category, private=private,
                             hosts=list(_HOSTS[sid]), feed_url=feed, baseline_downloads=base,
                             created_at=day_start(today) - dt.timedelta(days=400 - 60 * n))
        slugs[sid] = slug
    return slugs


def build_state(fake: Faker, rng: random.Random, today: dt.date) -> PodcastsState:
    """Three shows, twelve episodes (8 published, 2 scheduled, 2 drafts), six private subscribers."""
    st = PodcastsState()
    slugs = _shows(st, today)
    start = day_start(today)
    for n, (show, season, number, title, kind, status, offset, audio, guest, sponsor, fee) in enumerate(_EPISODES, 1):
        eid = f"PEP-{n:04d}"
        hosts = _HOSTS[show]
        g = ACCOUNTS[guest] if guest is not None else None
        created = start - dt.timedelta(days=max(0, -offset) + rng.randint(10, 25))
        live = start.replace(hour=6) + dt.timedelta(days=offset) if status != "draft" else None
        notes = f"{title}." + (f" With {g.contact_name}, {g.contact_title} at {g.company}." if g else "")
        if sponsor is not None:
            notes += f" Sponsored by {ACCOUNTS[sponsor].company}."
        st.episodes[eid] = Episode(
            id=eid, show_id=show, title=title, summary=notes.split(".")[0] + ".", description=notes, status=status,
            type=kind, season=season, number=number, audio_url=audio_url(slugs[show], eid) if audio else None,
            duration=rng.randint(25, 60) * 60 + rng.randint(0, 59) if audio else None,
            transcript_text=f"[00:00] Welcome to {st.shows[show].title}. Today: {title.lower()}." if status ==
            "published" else None, keywords=", ".join(w for w in title.lower().split() if len(w) > 4)[:120],
            published_at=live, host_email=hosts[n % len(hosts)], guest_name=g.contact_name if g else None,
            guest_email=g.contact_email if g else None, guest_company=g.company if g else None,
            sponsor=ACCOUNTS[sponsor].company if sponsor is not None else None, sponsor_fee=fee,
            share_url=share_url(eid), created_at=created, updated_at=live if live and live < start else created)
    for n, idx in enumerate(_SUBSCRIBERS, start=1):
        sid = f"PSB-{n:04d}"
        st.subscribers[sid] = Subscriber(id=sid, show_id="PSH-0003", email=ACCOUNTS[idx].contact_email,
                                         created_at=start - dt.timedelta(days=rng.randint(15, 200)))
    st.counters.update(PSH=len(_SHOWS) + 1, PEP=len(_EPISODES) + 1, PSB=len(_SUBSCRIBERS) + 1)
    return st
