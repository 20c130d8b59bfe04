"""Seed data of the video library: staff-owned customer videos and showcases."""

from __future__ import annotations

import datetime as dt
import random

from faker import Faker

from compoworld_gym.envs.services._blocks import seed_id, stamp
from compoworld_gym.envs.services._company import STAFF, staff_of
from compoworld_gym.envs.services._video_library_models import Showcase, Video, VideoComment, VideoLibraryState

#: Video kinds a B2B company's library holds, as title templates.
_KINDS = ("{c} customer story", "{c} onboarding walkthrough", "Product demo for {c}", "{c} case study interview",
          "Quarterly review recap: {c}")
#: (upload status, view privacy) of the seeded videos, in order: mostly live, some blockers.
_PLAN = (("available", "anybody"), ("available", "unlisted"), ("available", "anybody"), ("transcoding", "nobody"),
         ("available", "password"), ("available", "anybody"), ("error", "nobody"), ("available", "nobody"),
         ("available", "anybody"), ("uploading", "nobody"), ("available", "unlisted"), ("available", "anybody"))
_OWNERS = tuple(s.email for s in staff_of("customer_success") + staff_of("support"))


def _video(state: VideoLibraryState, fake: Faker, rng: random.Random, today: dt.date, status: str,
           privacy: str) -> Video:
    company = fake.company()
    vid = seed_id(state, "VID")
    done = status == "available"
    video = Video(id=vid, name=rng.choice(_KINDS).format(c=company), owner_email=rng.choice(_OWNERS),
                  description=fake.sentence(nb_words=10), client_company=company,
                  duration=rng.randint(45, 1800) if status in ("available", "transcoding") else 0,
                  upload_status=status, privacy_view=privacy,
                  password=f"{fake.word()}-{rng.randint(100, 999)}" if privacy == "password" else None,
                  tags=rng.sample(["customer", "demo", "onboarding", "webinar", "case-study"], 2),
                  link=f"https://vimeo.com/company/{vid.lower()}", created_time=stamp(today, rng.randint(2, 200), rng),
                  plays=rng.randint(20, 5000) if done and privacy != "nobody" else 0)
    if done and rng.random() < 0.4:
        site = "".join(ch for ch in company.lower() if ch.isalnum())[:20] + ".example"
        video.embed_privacy, video.embed_domains = "whitelist", ["www.company.example", f"www.{site}"]
    return video


def build_seed(fake: Faker, rng: random.Random, today: dt.date) -> VideoLibraryState:
    """The seeded library: 12 videos in mixed states, 3 showcases, a few comments.

    Args:
        fake: the service's seeded Faker (companies, descriptions).
        rng: the service's seeded random source.
        today: the task's date; every time is before 09:00 of it.
    """
    state = VideoLibraryState()
    for status, privacy in _PLAN:
        video = _video(state, fake, rng, today, status, privacy)
        state.videos[video.id] = video
    for video in list(state.videos.values())[:6]:
        if video.upload_status == "available" and video.privacy_view != "nobody":
            author = rng.choice(STAFF).email
            video.comments.append(VideoComment(id=seed_id(state, "CMT"), author_email=author,
                                               text=fake.sentence(nb_words=8),
                                               created_time=max(video.created_time, stamp(today, 1, rng))))
    live = [v.id for v in state.videos.values() if v.upload_status == "available"]
    public = [v for v in live if state.videos[v].privacy_view in ("anybody", "unlisted")]
    for name, privacy, ids in (("Customer stories", "anybody", public[:4]),
                               ("Sales enablement", "unlisted", live[:5]),
                               ("Internal reviews", "nobody", live[-3:])):
        sid = seed_id(state, "ALB")
        state.showcases[sid] = Showcase(id=sid, name=name, description=f"{name} curated by the team.",
                                        owner_email=_OWNERS[0], privacy_view=privacy, video_ids=list(ids),
                                        created_time=stamp(today, 250, rng))
    return state
