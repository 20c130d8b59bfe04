"""Records, state and pure rules of the video library (Vimeo API v3.4 shapes).

A video has a view privacy (Vimeo ``privacy.view``), an upload status
(``uploading`` -> ``transcoding`` -> ``available``, or ``error``), an embed
privacy with a whitelist of domains (``privacy.embed = "whitelist"``) and
comments; a showcase (Vimeo's album) groups videos under its own privacy.
"""

from __future__ import annotations

import re
from typing import Annotated, Literal, Optional

from pydantic import Field

from compoworld_gym.entities import CompanyName, DateTime, Email, Id, Url, entity
from compoworld_gym.errors import Conflict, InvalidArgument, Unprocessable
from compoworld_gym.service import Record, ServiceState

#: Vimeo ``privacy.view`` values this library supports.
ViewPrivacy = Literal["anybody", "unlisted", "password", "nobody", "disable"]
#: Vimeo showcase (album) ``privacy.view`` values.
ShowcasePrivacy = Literal["anybody", "unlisted", "password", "nobody"]
#: Vimeo ``privacy.embed`` values.
EmbedPrivacy = Literal["public", "whitelist", "private"]
UploadStatus = Literal["uploading", "transcoding", "available", "error"]
#: A bare host name, e.g. ``www.acme.example``.
Domain = Annotated[str, entity("domain", pattern=r"^[a-z0-9]([a-z0-9-]*[a-z0-9])?(\.[a-z0-9]([a-z0-9-]*[a-z0-9])?)+$")]

#: A domain as a tool takes it: a host name or a URL, normalised by :func:`normal_domain`.
DomainInput = Annotated[str, entity("domain")]

#: View privacies that hide a video from the public (cannot sit in a public showcase).
PRIVATE_VIEWS = frozenset({"password", "nobody", "disable"})
#: Most domains one video's embed whitelist may hold (Vimeo caps the list too).
MAX_EMBED_DOMAINS = 10
_DOMAIN = re.compile(r"^[a-z0-9]([a-z0-9-]*[a-z0-9])?(\.[a-z0-9]([a-z0-9-]*[a-z0-9])?)+$")


class VideoComment(Record):
    """A comment on a video."""

    id: str = Field(description="Comment id, e.g. CMT-0001.")
    author_email: Email = Field(description="Who wrote it.")
    text: str = Field(description="Comment text.")
    created_time: DateTime = Field(description="When it was posted.")


class Video(Record):
    """A video in the library."""

    id: Id("video") = Field(description="Video id, e.g. VID-0001.")
    name: str = Field(description="Title.")
    description: str = Field(default="", description="Description shown under the player.")
    owner_email: Email = Field(description="Staff member who owns the video.")
    client_company: Optional[CompanyName] = Field(default=None, description="Customer company the video features.")
    duration: int = Field(ge=0, description="Length in seconds (0 until the upload completes).")
    upload_status: UploadStatus = Field(description="uploading, transcoding, available or error.")
    privacy_view: ViewPrivacy = Field(description="Who may watch it (Vimeo privacy.view).")
    password: Optional[str] = Field(default=None, description="Viewing password when privacy_view is 'password'.")
    embed_privacy: EmbedPrivacy = Field(default="public", description="Where it may be embedded.")
    embed_domains: list[Domain] = Field(default_factory=list, description="Whitelisted embed domains.")
    comments_enabled: bool = Field(default=True, description="Whether viewers may comment.")
    tags: list[str] = Field(default_factory=list, description="Tags.")
    link: Url = Field(description="Public page of the video.")
    created_time: DateTime = Field(description="When the upload was created.")
    plays: int = Field(default=0, ge=0, description="Play count.")
    comments: list[VideoComment] = Field(default_factory=list, description="Comments, oldest first.")


class Showcase(Record):
    """A showcase (Vimeo album): an ordered, branded collection of videos."""

    id: Id("album") = Field(description="Showcase id, e.g. ALB-0001.")
    name: str = Field(description="Showcase name.")
    description: str = Field(default="", description="Description.")
    owner_email: Email = Field(description="Staff member who curates it.")
    privacy_view: ShowcasePrivacy = Field(description="Who may view the showcase.")
    password: Optional[str] = Field(default=None, description="Password when privacy_view is 'password'.")
    video_ids: list[Id("video")] = Field(default_factory=list, description="Videos, in display order.")
    created_time: DateTime = Field(description="When it was created.")


class VideoLibraryState(ServiceState):
    """Videos and showcases."""

    videos: dict[str, Video] = Field(default_factory=dict, description="Videos by id.")
    showcases: dict[str, Showcase] = Field(default_factory=dict, description="Showcases by id.")


def check_password(privacy: str, password: Optional[str]) -> None:
    """A password goes with, and only with, the 'password' privacy.

    Raises:
        Unprocessable: 422 for 'password' privacy without a password.
        InvalidArgument: 400 for a password with another privacy.
    """
    if privacy == "password" and not password:
        raise Unprocessable("privacy 'password' needs a password.")
    if privacy != "password" and password:
        raise InvalidArgument(f"a password only goes with privacy 'password', not {privacy!r}.")


def require_available(video: Video, action: str) -> None:
    """Refuse ``action`` on a video whose upload has not finished.

    Raises:
        Conflict: 409 naming the upload status.
    """
    if video.upload_status != "available":
        raise Conflict(f"video {video.id} is {video.upload_status}; {action} needs upload status available.")


def fits_showcase(video: Video, showcase: Showcase) -> None:
    """A private video cannot appear in a public showcase.

    Raises:
        Unprocessable: 422 when ``showcase`` is public and ``video`` is not viewable by anybody/unlisted.
    """
    if showcase.privacy_view == "anybody" and video.privacy_view in PRIVATE_VIEWS:
        raise Unprocessable(f"video {video.id} is {video.privacy_view}-private and showcase {showcase.id} is "
                            "public; change the video's privacy or the showcase's first.")


def normal_domain(domain: str) -> str:
    """``domain`` lower-cased, without scheme or path.

    Raises:
        InvalidArgument: 400 when it is not a host name (e.g. ``acme.example``).
    """
    host = re.sub(r"^https?://", "", domain.strip().lower()).split("/", 1)[0]
    if not _DOMAIN.match(host):
        raise InvalidArgument(f"{domain!r} is not a domain; give a host name such as 'www.acme.example'.")
    return host
