"""Records and state of the podcasts service (Transistor.fm API shapes; see ``podcasts.py``).

Records mirror Transistor's resources: shows (public or private), episodes
(``status`` draft/scheduled/published, ``season``, ``number``, ``type``,
``audio_url``, ``duration`` in seconds, ``transcript_text``,
``published_at``) and the private subscribers of a private show. Analytics
are not stored: :func:`daily_downloads` derives an episode's downloads per
day from its id, its publish time and its show's baseline, so every read
gives the same numbers.
"""

from __future__ import annotations

import datetime as dt
import hashlib
from typing import Literal, Optional

from pydantic import Field

from compoworld_gym.entities import CompanyName, DateTime, Email, Id, Money, PersonName, Url
from compoworld_gym.service import Record, ServiceState

EpisodeStatus = Literal["draft", "scheduled", "published"]
EpisodeType = Literal["full", "trailer", "bonus"]


class Show(Record):
    """A podcast (Transistor 'show')."""

    id: Id("podcast_show") = Field(description="Show id, e.g. PSH-0001.")
    title: str = Field(description="Show title.")
    author: str = Field(description="Author shown in podcast apps.")
    description: str = Field(description="Show description.")
    website: Url = Field(description="Show website.")
    category: str = Field(description="Apple Podcasts category.")
    language: str = Field(default="en", description="Language code.")
    explicit: bool = Field(default=False, description="Explicit content flag.")
    show_type: Literal["episodic", "serial"] = Field(default="episodic", description="episodic or serial.")
    private: bool = Field(default=False, description="Private show: only its subscribers get the feed.")
    hosts: list[Email] = Field(min_length=1, description="Work emails of the staff who host it.")
    feed_url: Url = Field(description="RSS feed (public shows) or private feed base.")
    baseline_downloads: int = Field(ge=1, description="Downloads a new episode gets on its first day (analytics).")
    created_at: DateTime = Field(description="When the show was created.")


class Episode(Record):
    """An episode of a show."""

    id: Id("podcast_episode") = Field(description="Episode id, e.g. PEP-0001.")
    show_id: Id("podcast_show") = Field(description="The show.")
    title: str = Field(description="Episode title.")
    summary: str = Field(default="", description="One-paragraph summary.")
    description: str = Field(default="", description="Show notes.")
    status: EpisodeStatus = Field(description="draft, scheduled or published.")
    type: EpisodeType = Field(default="full", description="full, trailer or bonus.")
    season: int = Field(default=1, ge=1, description="Season number.")
    number: Optional[int] = Field(default=None, ge=1, description="Episode number in its season (unique).")
    audio_url: Optional[Url] = Field(default=None, description="Uploaded audio file (needed to publish).")
    duration: Optional[int] = Field(default=None, ge=1, description="Audio length in seconds.")
    transcript_text: Optional[str] = Field(default=None, description="Transcript.")
    keywords: str = Field(default="", description="Comma-separated keywords.")
    explicit: bool = Field(default=False, description="Explicit content flag.")
    published_at: Optional[DateTime] = Field(default=None, description="When it went (or goes) live.")
    host_email: Email = Field(description="The staff host of this episode.")
    guest_name: Optional[PersonName] = Field(default=None, description="Guest's name.")
    guest_email: Optional[Email] = Field(default=None, description="Guest's email.")
    guest_company: Optional[CompanyName] = Field(default=None, description="Guest's company.")
    sponsor: Optional[CompanyName] = Field(default=None, description="Sponsoring company of the episode.")
    sponsor_fee: Optional[Money] = Field(default=None, ge=0, description="Sponsorship fee (USD).")
    share_url: Url = Field(description="Public share page.")
    created_at: DateTime = Field(description="When it was created.")
    updated_at: DateTime = Field(description="Last change.")


class Subscriber(Record):
    """A private subscriber of a private show."""

    id: str = Field(description="Subscriber id, e.g. PSB-0001.")
    show_id: Id("podcast_show") = Field(description="The private show.")
    email: Email = Field(description="Subscriber's email (their private feed is sent there).")
    created_at: DateTime = Field(description="When they were added.")


class PodcastsState(ServiceState):
    """Shows, episodes and private subscribers."""

    shows: dict[str, Show] = Field(default_factory=dict, description="Shows by id.")
    episodes: dict[str, Episode] = Field(default_factory=dict, description="Episodes by id.")
    subscribers: dict[str, Subscriber] = Field(default_factory=dict, description="Private subscribers by id.")


def daily_downloads(episode: Episode, baseline: int, day: dt.date) -> int:
    """Downloads of a published ``episode`` on ``day``: the show's ``baseline`` on the first day,
    decaying as ``1 / (1 + 0.6 k)`` on day ``k``, times a factor 0.8-1.2 from the MD5 of id and day.
    Zero before it went live or while it is not published.

    Example:
        >>> ep = Episode(id="PEP-0001", show_id="PSH-0001", title="t", status="published", host_email="a@b.co",
        ...              published_at=dt.datetime(2026, 1, 1, 6), share_url="https://x.co/1",
        ...              created_at=dt.datetime(2025, 12, 1), updated_at=dt.datetime(2025, 12, 1))
        >>> daily_downloads(ep, 100, dt.date(2025, 12, 31)), daily_downloads(ep, 100, dt.date(2026, 1, 1)) > 0
        (0, True)
    """
    if episode.status != "published" or episode.published_at is None or day < episode.published_at.date():
        return 0
    k = (day - episode.published_at.date()).days
    jitter = 0.8 + 0.4 * hashlib.md5(f"{episode.id}:{day.isoformat()}".encode()).digest()[0] / 255
    return max(1, round(baseline / (1 + 0.6 * k) * jitter))
