"""Podcasts: shows, episodes with the publish workflow, download analytics and private subscribers.

No podcast-hosting server is in ``compoworld_gym/data/mcp_servers.jsonl``
(``spec_source = None``); the interface follows the Transistor.fm API:
``/v1/shows``; ``/v1/episodes`` with ``title``, ``summary``,
``description``, ``season``, ``number``, ``type`` (full/trailer/bonus),
``audio_url``, ``duration``, ``transcript_text``, ``keywords`` and
``published_at``; ``PATCH /v1/episodes/{id}/publish`` with ``status``
published, scheduled or draft; ``/v1/analytics/{show_id}`` and
``/v1/analytics/episodes/{episode_id}`` (downloads per day); and
``/v1/subscribers`` (private subscribers of a private show). Designed beyond
Transistor: the episode's staff host, guest (name, email, company) and
sponsor (company and fee), so a show lines up with the shared company.

Rules of the real product: an episode is published or scheduled only with
its audio uploaded (422); a scheduled time is in the future (422);
episode numbers are unique within a show's season (409); unpublishing
(status draft) takes a published or scheduled episode back to a draft and
clears its publish time; private subscribers exist only on private shows
(422), once per email (409). Analytics come from
:func:`~compoworld_gym.envs.services._podcasts_models.daily_downloads`.
Left out: audio upload authorisation (a URL stands for the uploaded file),
webhooks and show creation.
"""

from __future__ import annotations

import datetime as dt
import random
from typing import Optional

from faker import Faker
from pydantic import Field

from compoworld_gym.entities import CompanyName, Date, DateTime, Email, Id, Money, PersonName, Url
from compoworld_gym.envs.services._blocks import already, day_start
from compoworld_gym.envs.services._commerce import MONEY_MAX, money
from compoworld_gym.envs.services._podcasts_models import (
    Episode, EpisodeStatus, EpisodeType, PodcastsState, Show, Subscriber, daily_downloads,
)
from compoworld_gym.envs.services._podcasts_seed import build_state, share_url
from compoworld_gym.errors import Conflict, InvalidArgument, NotFound, Unprocessable
from compoworld_gym.service import Service, tool

#: Most days one analytics read covers.
MAX_RANGE_DAYS = 366


class Podcasts(Service):
    """Transistor-style podcast hosting: shows, episodes, publishing, analytics, private subscribers."""

    name = "podcasts"
    description = ("Podcast hosting (Transistor-style): shows, episodes (season/number, audio, transcript, host, "
                   "guest, sponsor) published or scheduled, downloads per day, private show subscribers.")
    domain = "media"
    spec_source = None
    State = PodcastsState

    # ---------------------------------------------------------------- helpers
    def _clock(self) -> dt.datetime:
        return day_start(self.today) + dt.timedelta(minutes=self.state.clock)

    def _show(self, show_id: str) -> Show:
        return self.lookup(self.state.shows, show_id, "show")

    def _episode(self, episode_id: str) -> Episode:
        return self.lookup(self.state.episodes, episode_id, "episode")

    def _private(self, show_id: str) -> Show:
        show = self._show(show_id)
        if not show.private:
            raise Unprocessable(f"show {show.id} is public; private subscribers exist only on private shows.")
        return show

    def _check_number(self, show_id: str, season: int, number: Optional[int], episode_id: str = "") -> None:
        if number is None:
            return
        taken = [e.id for e in self.state.episodes.values() if e.show_id == show_id and e.season == season
                 and e.number == number and e.id != episode_id]
        if taken:
            raise Conflict(f"season {season} of {show_id} already has episode number {number} ({taken[0]}); "
                           "pick another number.")

    def _view(self, e: Episode) -> dict:
        return {**e.model_dump(), "show_title": self.state.shows[e.show_id].title}

    def _range(self, start_date: Optional[dt.date], end_date: Optional[dt.date]) -> list[dt.date]:
        end = end_date or self.today - dt.timedelta(days=1)
        start = start_date or end - dt.timedelta(days=13)
        if start > end:
            raise Unprocessable(f"start_date {start} is after end_date {end}.")
        if (end - start).days >= MAX_RANGE_DAYS:
            raise Unprocessable(f"a range covers at most {MAX_RANGE_DAYS} days.")
        return [start + dt.timedelta(days=k) for k in range((end - start).days + 1)]

    # ------------------------------------------------------------------ shows
    @tool(read_only=True, returns=list[Show])
    def list_shows(self) -> list[dict]:
        """List the shows with their hosts and episode counts by status."""
        return [self.get_show(s) for s in self.state.shows]

    @tool(read_only=True, returns=Show)
    def get_show(self, show_id: Id("podcast_show")) -> dict:
        """Get a show with its hosts, episode counts by status and (private shows) subscriber count.

        Args:
            show_id: the show id, e.g. PSH-0001.
        """
        show = self._show(show_id)
        counts = {s: 0 for s in ("draft", "scheduled", "published")}
        for e in self.state.episodes.values():
            if e.show_id == show.id:
                counts[e.status] += 1
        subs = sum(1 for s in self.state.subscribers.values() if s.show_id == show.id)
        return {**show.model_dump(), "episode_counts": counts, "subscriber_count": subs if show.private else None}

    # --------------------------------------------------------------- episodes
    @tool(read_only=True, returns=list[Episode])
    def list_episodes(self, show_id: Optional[Id("podcast_show")] = None, status: Optional[EpisodeStatus] = None,
                      season: Optional[int] = Field(default=None, ge=1), sponsor: Optional[CompanyName] = None,
                      guest_email: Optional[Email] = None, query: Optional[str] = Field(default=None, min_length=1)
                      ) -> list[dict]:
        """List episodes, newest first, by show, status, season, sponsor, guest or title text.

        Args:
            show_id: only this show.
            status: draft, scheduled or published.
            season: only this season.
            sponsor: only episodes this company sponsors (case-insensitive).
            guest_email: only episodes with this guest.
            query: part of the title (case-insensitive).
        """
        if show_id is not None:
            self._show(show_id)
        rows = [e for e in self.state.episodes.values()
                if (show_id is None or e.show_id == show_id) and (status is None or e.status == status)
                and (season is None or e.season == season)
                and (sponsor is None or (e.sponsor or "").lower() == sponsor.lower())
                and (guest_email is None or (e.guest_email or "").lower() == guest_email.lower())
                and (query is None or query.lower() in e.title.lower())]
        rows.sort(key=lambda e: (e.published_at or e.created_at, e.id), reverse=True)
        return [self._view(e) for e in rows]

    @tool(read_only=True, returns=Episode)
    def get_episode(self, episode_id: Id("podcast_episode")) -> dict:
        """Get an episode: status, season/number, audio, transcript, publish time, host, guest, sponsor.

        Args:
            episode_id: the episode id, e.g. PEP-0003.
        """
        return self._view(self._episode(episode_id))

    @tool(read_only=False, returns=Episode)
    def create_episode(self, show_id: Id("podcast_show"), title: str = Field(min_length=1, max_length=200),
                       host_email: Optional[Email] = None, summary: str = Field(default="", max_length=1000),
                       description: str = Field(default="", max_length=10000), season: int = Field(default=1, ge=1),
                       number: Optional[int] = Field(default=None, ge=1), type: EpisodeType = "full",
                       audio_url: Optional[Url] = Field(default=None, pattern=r"^https?://\S+$"),
                       duration: Optional[int] = Field(default=None, ge=1, le=86400),
                       transcript_text: Optional[str] = Field(default=None, max_length=100000),
                       keywords: str = Field(default="", max_length=300), explicit: bool = False,
                       guest_name: Optional[PersonName] = None, guest_email: Optional[Email] = None,
                       guest_company: Optional[CompanyName] = None, sponsor: Optional[CompanyName] = None,
                       sponsor_fee: Optional[Money] = Field(default=None, ge=0, le=MONEY_MAX)) -> dict:
        """Create a draft episode of a show.

        Args:
            show_id: the show.
            title: episode title.
            host_email: the staff host (one of the show's hosts; default its first).
            summary: one-paragraph summary.
            description: show notes.
            season: season number.
            number: episode number, unique within the season.
            type: full, trailer or bonus.
            audio_url: URL of the uploaded audio (needed to publish).
            duration: audio length in seconds.
            transcript_text: the transcript.
            keywords: comma-separated keywords.
            explicit: explicit content.
            guest_name: guest's name.
            guest_email: guest's email.
            guest_company: guest's company.
            sponsor: sponsoring company.
            sponsor_fee: sponsorship fee (USD); needs a sponsor.
        """
        show = self._show(show_id)
        host = (host_email or show.hosts[0]).lower()
        if host not in [h.lower() for h in show.hosts]:
            raise Unprocessable(f"{host_email} does not host {show.id}; its hosts are {', '.join(show.hosts)}.")
        if sponsor_fee is not None and not sponsor:
            raise Unprocessable("a sponsor_fee needs the sponsor company.")
        self._check_number(show.id, season, number)
        eid, now = self.new_id("PEP"), self.now()
        ep = Episode(id=eid, show_id=show.id, title=title, summary=summary, description=description, status="draft",
                     type=type, season=season, number=number, audio_url=audio_url, duration=duration,
                     transcript_text=transcript_text, keywords=keywords, explicit=explicit, host_email=host,
                     guest_name=guest_name, guest_email=guest_email, guest_company=guest_company, sponsor=sponsor,
                     sponsor_fee=money(sponsor_fee) if sponsor_fee is not None else None, share_url=share_url(eid),
                     created_at=now, updated_at=now)
        self.state.episodes[eid] = ep
        return self._view(ep)

    @tool(read_only=False, returns=Episode)
    def update_episode(self, episode_id: Id("podcast_episode"),
                       title: Optional[str] = Field(default=None, min_length=1, max_length=200),
                       summary: Optional[str] = Field(default=None, max_length=1000),
                       description: Optional[str] = Field(default=None, max_length=10000),
                       season: Optional[int] = Field(default=None, ge=1),
                       number: Optional[int] = Field(default=None, ge=1), type: Optional[EpisodeType] = None,
                       audio_url: Optional[Url] = Field(default=None, pattern=r"^https?://\S+$"),
                       duration: Optional[int] = Field(default=None, ge=1, le=86400),
                       transcript_text: Optional[str] = Field(default=None, max_length=100000),
                       keywords: Optional[str] = Field(default=None, max_length=300),
                       sponsor: Optional[CompanyName] = None,
                       sponsor_fee: Optional[Money] = Field(default=None, ge=0, le=MONEY_MAX)) -> dict:
        """Change an episode's fields (any status); season and number stay unique within the show.

        Args:
            episode_id: the episode.
            title: episode title.
            summary: summary.
            description: show notes.
            season: season number.
            number: episode number in the season.
            type: full, trailer or bonus.
            audio_url: URL of the uploaded audio.
            duration: audio length in seconds.
            transcript_text: the transcript.
            keywords: comma-separated keywords.
            sponsor: sponsoring company.
            sponsor_fee: sponsorship fee (USD).
        """
        ep = self._episode(episode_id)
        changes = {k: v for k, v in (("title", title), ("summary", summary), ("description", description),
                                     ("season", season), ("number", number), ("type", type),
                                     ("audio_url", audio_url), ("duration", duration),
                                     ("transcript_text", transcript_text), ("keywords", keywords),
                                     ("sponsor", sponsor)) if v is not None}
        if sponsor_fee is not None:
            changes["sponsor_fee"] = money(sponsor_fee)
        if not changes:
            raise InvalidArgument("give at least one field to change.")
        if "sponsor_fee" in changes and not (sponsor or ep.sponsor):
            raise Unprocessable("a sponsor_fee needs the sponsor company.")
        self._check_number(ep.show_id, changes.get("season", ep.season), changes.get("number", ep.number), ep.id)
        for k, v in changes.items():
            setattr(ep, k, v)
        ep.updated_at = self.now()
        return self._view(ep)

    @tool(read_only=False, returns=Episode)
    def publish_episode(self, episode_id: Id("podcast_episode"), status: EpisodeStatus,
                        published_at: Optional[DateTime] = None) -> dict:
        """Publish an episode now, schedule it, or unpublish it back to a draft.

        published and scheduled need the audio uploaded (422); scheduled needs a
        future published_at (422); draft unpublishes a published or scheduled
        episode and clears its publish time.

        Args:
            episode_id: the episode.
            status: published (live now), scheduled (live at published_at) or draft (unpublish).
            published_at: for scheduled: when it goes live (ISO date-time, in the future).
        """
        ep = self._episode(episode_id)
        now = self._clock()
        when = published_at.replace(tzinfo=None) if published_at is not None else None
        if status == ep.status and status != "scheduled":
            raise already("episode", ep.id, status)
        if status == "draft":
            ep.status, ep.published_at = "draft", None
        else:
            if ep.status == "published" and status == "scheduled":
                raise Conflict(f"episode {ep.id} is already live; unpublish it (status draft) before scheduling.")
            if not ep.audio_url:
                raise Unprocessable(f"episode {ep.id} has no audio; set its audio_url before publishing.")
            if status == "scheduled":
                if when is None or when <= now:
                    raise Unprocessable(f"a scheduled episode needs a published_at after now ({now.isoformat()}).")
                ep.status, ep.published_at = "scheduled", when
            else:
                if when is not None:
                    raise InvalidArgument("published goes live now; give published_at only with status scheduled.")
                ep.status, ep.published_at = "published", self.now()
        ep.updated_at = self.now()
        return self._view(ep)

    # -------------------------------------------------------------- analytics
    @tool(read_only=True)
    def get_episode_analytics(self, episode_id: Id("podcast_episode"), start_date: Optional[Date] = None,
                              end_date: Optional[Date] = None) -> dict:
        """Downloads of an episode per day (default: the 14 days up to yesterday).

        Args:
            episode_id: the episode.
            start_date: first day (YYYY-MM-DD).
            end_date: last day (YYYY-MM-DD).
        """
        ep = self._episode(episode_id)
        base = self.state.shows[ep.show_id].baseline_downloads
        days = [{"date": d, "downloads": daily_downloads(ep, base, d)} for d in self._range(start_date, end_date)]
        return {"episode_id": ep.id, "start_date": days[0]["date"], "end_date": days[-1]["date"],
                "downloads": days, "total_downloads": sum(d["downloads"] for d in days)}

    @tool(read_only=True)
    def get_show_analytics(self, show_id: Id("podcast_show"), start_date: Optional[Date] = None,
                           end_date: Optional[Date] = None) -> dict:
        """Downloads of all a show's episodes per day, and the total per episode (default: 14 days to yesterday).

        Args:
            show_id: the show.
            start_date: first day (YYYY-MM-DD).
            end_date: last day (YYYY-MM-DD).
        """
        show = self._show(show_id)
        days = self._range(start_date, end_date)
        eps = [e for e in self.state.episodes.values() if e.show_id == show.id and e.status == "published"]
        per = {e.id: [daily_downloads(e, show.baseline_downloads, d) for d in days] for e in eps}
        return {"show_id": show.id, "start_date": days[0], "end_date": days[-1],
                "downloads": [{"date": d, "downloads": sum(v[k] for v in per.values())} for k, d in enumerate(days)],
                "episodes": [{"episode_id": e.id, "title": e.title, "downloads": sum(per[e.id])} for e in eps],
                "total_downloads": sum(sum(v) for v in per.values())}

    # ------------------------------------------------------------ subscribers
    @tool(read_only=True, returns=list[Subscriber])
    def list_subscribers(self, show_id: Id("podcast_show")) -> list[dict]:
        """The private subscribers of a private show.

        Args:
            show_id: a private show.
        """
        show = self._private(show_id)
        return [s.model_dump() for s in self.state.subscribers.values() if s.show_id == show.id]

    @tool(read_only=False, returns=Subscriber)
    def add_subscriber(self, show_id: Id("podcast_show"), email: Email) -> dict:
        """Add a private subscriber to a private show (their private feed link goes to the email).

        Args:
            show_id: a private show.
            email: the subscriber's email.
        """
        show = self._private(show_id)
        if any(s.show_id == show.id and s.email.lower() == email.lower() for s in self.state.subscribers.values()):
            raise Conflict(f"{email} already subscribes to {show.id}.")
        sub = Subscriber(id=self.new_id("PSB"), show_id=show.id, email=email, created_at=self.now())
        self.state.subscribers[sub.id] = sub
        return sub.model_dump()

    @tool(read_only=False, destructive=True, returns=Subscriber)
    def remove_subscriber(self, show_id: Id("podcast_show"), email: Email) -> dict:
        """Remove a private subscriber from a private show (their feed stops working).

        Args:
            show_id: a private show.
            email: the subscriber's email.
        """
        show = self._private(show_id)
        hit = next((s for s in self.state.subscribers.values()
                    if s.show_id == show.id and s.email.lower() == email.lower()), None)
        if hit is None:
            raise NotFound(f"{email} does not subscribe to {show.id}; call list_subscribers.")
        del self.state.subscribers[hit.id]
        return hit.model_dump()

    # ------------------------------------------------------------------ seeds
    @classmethod
    def build_seed_state(cls, fake: Faker, rng: random.Random, today: dt.date) -> PodcastsState:
        return build_state(fake, rng, today)


__all__ = ["Podcasts"]
