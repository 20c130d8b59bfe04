"""Video library in chained tasks: a customer video, found by its id or by
the customer company it features, names its owner (a staff member) and the
company; the case's video gets a comment quoting a discovered value, or is
published into the public 'Customer stories' showcase (which a private video
may not join, so it must be made public first)."""

from __future__ import annotations

from typing import Any

from compoworld_gym.checks import OnlyChanged, RecordMatches
from compoworld_gym.envs.services._company import OPS_EMAIL, staff_of
from compoworld_gym.envs.services._video_library_models import Video
from compoworld_gym.generation.context import Ctx, call
from compoworld_gym.generation.links import (
    Action, Found, Give, Need, Reader, Relay, ServiceLinks, SolveError, Write, next_id, pick,
)

#: The public showcase every seeded library has.
SHOWCASE = "Customer stories"
_KINDS = ("customer story", "onboarding walkthrough", "case study interview", "product demo")


def video_owner(ctx: Ctx) -> str:
    """A customer-facing staff member's email (videos are owned by them)."""
    return ctx.rng.choice(staff_of("customer_success") + staff_of("support")).email


def next_video_id(state: dict[str, Any]) -> str:
    """Take the next free video id from the library's counters (as the service does)."""
    return next_id(state, "VID")


def plant_video(state: dict[str, Any], video_id: str, **fields: Any) -> str:
    """Add a :class:`Video` (validated) under ``video_id``; returns the id.

    Raises:
        pydantic.ValidationError: the fields do not make a valid video.
    """
    base = {"description": "", "duration": 600, "upload_status": "available", "privacy_view": "nobody",
            "link": f"https://vimeo.com/company/{video_id.lower()}", "tags": ["customer"]}
    state["videos"][video_id] = Video.model_validate({**base, **fields, "id": video_id}).model_dump(mode="json")
    return video_id


def _plant(ctx: Ctx, key: Any, outs: dict[str, Any], stale: bool, by_id: bool) -> str:
    state = ctx.state("video_library")
    vid = key if by_id else next_video_id(state)
    company = (outs.get("company") or ctx.fresh("company")) if by_id else key
    # A stale look-alike is a failed upload of the same company's video: never the one to use.
    return plant_video(state, vid, name=f"{company} {ctx.rng.choice(_KINDS)}", owner_email=outs.get("email")
                       or video_owner(ctx), client_company=company, duration=0 if stale else ctx.rng.randint(90, 1500),
                       upload_status="error" if stale else "available", created_time=ctx.at(-ctx.rng.randint(1, 9)),
                       description=f"Reviewed cut for {company}; publish once approved.")


def _by_id(reader: Reader, key: Any) -> dict[str, Any]:
    return reader.read("video_library", "get_video", video_id=key)


def _by_company(reader: Reader, key: Any) -> dict[str, Any]:
    rows = reader.read("video_library", "list_videos", client_company=key, upload_status="available", per_page=100)
    return pick(rows, client_company=key)


_OWNER = Give("email", "owner_email", "the video owner's email address", "the video owner", draw=video_owner)

VIDEO = Relay(
    service="video_library", name="video", key="video_id",
    gives=(_OWNER, Give("company", "client_company", "the customer company the video features", party="customer"),
           Give("video_id", "id", "the customer video")),
    plant=lambda ctx, key, outs, stale: _plant(ctx, key, outs, stale, True), find=_by_id,
    where="Each video in the video library names its owner and the customer company it features.",
    alloc=lambda ctx: next_video_id(ctx.state("video_library")), entry=lambda key: f"video {key}")

COMPANY_VIDEO = Relay(
    service="video_library", name="company's video", key="company", key_party="customer",
    gives=(Give("video_id", "id", "the company's customer video"), _OWNER),
    plant=lambda ctx, key, outs, stale: _plant(ctx, key, outs, stale, False), find=_by_company,
    where="Customer videos are filed in the video library under the company they feature, with their owner.",
    truth="A failed upload is not the company's video; only the available one counts.")


def _scope(vid: str) -> list[OnlyChanged]:
    return [OnlyChanged(id="_", service="video_library", collection="videos", allow_ids=[vid],
                        description="No other video was changed or created.")]


def _comment(reader: Reader, args: dict[str, Found]) -> Write:
    vid, mention = args["video"].value, args["mention"]
    _by_id(reader, vid)
    return Write(
        calls=[call("add_video_comment", video_id=vid, author_email=OPS_EMAIL,
                    text=f"{args['case'].value}: {mention.noun} is {mention.display}.")],
        checks=[RecordMatches(id="_", service="video_library", collection="videos", record_id=vid,
                              where={"comments": {"$any": {"text": {"$contains": mention.display}}}},
                              description="A comment on the video quotes the right value.")],
        scope=_scope(vid), tool="add_video_comment", where={"video_id": vid}, label="the comment on the video")


def _publish(reader: Reader, args: dict[str, Found]) -> Write:
    vid = args["video"].value
    video = _by_id(reader, vid)
    showcases = [s for s in reader.read("video_library", "list_showcases") if s["name"] == SHOWCASE]
    if len(showcases) != 1 or showcases[0]["privacy_view"] != "anybody":
        raise SolveError(f"no single public {SHOWCASE!r} showcase")
    alb = showcases[0]["id"]
    calls = [] if video["privacy_view"] == "anybody" else [
        call("set_video_privacy", video_id=vid, privacy_view="anybody")]
    return Write(
        calls=[*calls, call("add_video_to_showcase", album_id=alb, video_id=vid)],
        checks=[RecordMatches(id="_", service="video_library", collection="showcases", record_id=alb,
                              where={"video_ids": {"$contains": vid}},
                              description=f"The case's video is in the {SHOWCASE} showcase."),
                RecordMatches(id="_", service="video_library", collection="videos", record_id=vid,
                              where={"privacy_view": "anybody"}, description="The case's video is public.")],
        scope=[*_scope(vid), OnlyChanged(id="_", service="video_library", collection="showcases", allow_ids=[alb],
                                         description="No other showcase was changed or created.")],
        tool="add_video_to_showcase", where={"video_id": vid}, label="the video's publication")


LINKS = ServiceLinks(
    service="video_library", label="the video library",
    relays=(VIDEO, COMPANY_VIDEO),
    actions=(
        Action(service="video_library", name="comment", needs=(Need("video", "video_id"),), build=_comment,
               goal="leave a comment on the customer video quoting {mention}"),
        Action(service="video_library", name="publish", needs=(Need("video", "video_id"),), build=_publish,
               goal=f"publish the customer video to everyone and add it to the '{SHOWCASE}' showcase"),
    ),
)

__all__ = ["LINKS", "SHOWCASE", "next_video_id", "plant_video", "video_owner"]
