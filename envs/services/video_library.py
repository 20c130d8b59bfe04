"""Video library: the company's hosted videos, showcases, embed whitelists and comments.

No video-hosting server is in ``compoworld_gym/data/mcp_servers.jsonl``; the
interface follows the Vimeo API v3.4: videos (``/videos/{video_id}``) with an
owner, ``privacy.view`` (anybody, unlisted, password, nobody, disable), an
upload status (uploading -> transcoding -> available, or error), an embed
privacy with a domain whitelist (``/videos/{id}/privacy/domains/{domain}``)
and comments; showcases (``/me/albums``) with their own privacy. Rules the
real API enforces: only an available video can be published, embedded or
showcased (409); a private video cannot be added to a public showcase, and a
video in a public showcase cannot be made private (422); a password goes with
the 'password' privacy only. Owners are the fixed company roster.
"""

from __future__ import annotations

import datetime as dt
import random
from typing import Callable, Optional

from faker import Faker
from pydantic import Field

from compoworld_gym.entities import CompanyName, Email, Id
from compoworld_gym.envs.services._blocks import already, eq, ieq, paginate, select, text
from compoworld_gym.envs.services._video_library_models import (
    MAX_EMBED_DOMAINS, PRIVATE_VIEWS, DomainInput, EmbedPrivacy, Showcase, ShowcasePrivacy, UploadStatus, Video,
    VideoComment, VideoLibraryState, ViewPrivacy, check_password, fits_showcase, normal_domain, require_available,
)
from compoworld_gym.envs.services._video_library_seed import build_seed
from compoworld_gym.errors import Conflict, NotFound, Unprocessable
from compoworld_gym.service import Service, tool

_SUMMARY = {"comments"}


def _featuring(company: Optional[str]) -> Optional[Callable[[Video], bool]]:
    """Keep videos featuring ``company`` (case-blind; videos without a company never match); None: no filter."""
    if company is None:
        return None
    wanted = company.lower()
    return lambda v: (v.client_company or "").lower() == wanted


class VideoLibrary(Service):
    """Hosted videos and showcases, Vimeo style: privacy, upload status, embed whitelist, comments."""

    name = "video_library"
    description = ("Company video hosting (Vimeo style): videos with owner, privacy, upload status, embed "
                   "domain whitelist and comments; showcases of videos.")
    domain = "marketing"
    spec_source = None
    State = VideoLibraryState

    def _video(self, video_id: str) -> Video:
        return self.lookup(self.state.videos, video_id, "video")

    def _showcase(self, album_id: str) -> Showcase:
        return self.lookup(self.state.showcases, album_id, "showcase")

    def _in_public_showcases(self, video_id: str) -> list[str]:
        return [s.id for s in self.state.showcases.values() if s.privacy_view == "anybody" and video_id in s.video_ids]

    # ------------------------------------------------------------------ reads
    @tool(read_only=True, returns=list[Video])
    def list_videos(self, query: Optional[str] = None, owner_email: Optional[Email] = None,
                    client_company: Optional[CompanyName] = None, privacy_view: Optional[ViewPrivacy] = None,
                    upload_status: Optional[UploadStatus] = None, page: int = Field(default=1, ge=1),
                    per_page: int = Field(default=25, ge=1, le=100)) -> list[dict]:
        """List videos (without comments), newest first, filtered by text, owner, company, privacy or status.

        Args:
            query: text in the title, description or tags.
            owner_email: only this owner's videos.
            client_company: only videos featuring this customer company (case-blind).
            privacy_view: only videos with this view privacy.
            upload_status: only videos in this upload status.
            page: 1-based page number.
            per_page: videos per page (1-100).
        """
        rows = select(sorted(self.state.videos.values(), key=lambda v: (v.created_time, v.id), reverse=True),
                      text(query, "name", "description", "tags"), ieq("owner_email", owner_email),
                      _featuring(client_company),
                      eq("privacy_view", privacy_view), eq("upload_status", upload_status))
        return [v.model_dump(exclude=_SUMMARY) for v in paginate(rows, page, per_page)]

    @tool(read_only=True, returns=Video)
    def get_video(self, video_id: Id("video")) -> dict:
        """Get one video with its privacy, embed settings, comments and the showcases holding it.

        Args:
            video_id: the video id, e.g. VID-0001.
        """
        v = self._video(video_id)
        return {**v.model_dump(), "showcase_ids": [s.id for s in self.state.showcases.values() if v.id in s.video_ids]}

    @tool(read_only=True, returns=list[Showcase])
    def list_showcases(self, owner_email: Optional[Email] = None) -> list[dict]:
        """List showcases (Vimeo albums) with their privacy and video ids.

        Args:
            owner_email: only this curator's showcases.
        """
        return [s.model_dump() for s in select(self.state.showcases.values(), ieq("owner_email", owner_email))]

    @tool(read_only=True, returns=Showcase)
    def get_showcase(self, album_id: Id("album")) -> dict:
        """Get a showcase with a summary of each of its videos.

        Args:
            album_id: the showcase id, e.g. ALB-0001.
        """
        s = self._showcase(album_id)
        videos = [self.state.videos[v].model_dump(include={"id", "name", "privacy_view", "upload_status"})
                  for v in s.video_ids]
        return {**s.model_dump(), "videos": videos}

    # ----------------------------------------------------------- video writes
    @tool(read_only=False, returns=Video)
    def create_video(self, name: str = Field(min_length=1, max_length=128), owner_email: Email = ...,
                     description: str = "", client_company: Optional[CompanyName] = None,
                     privacy_view: ViewPrivacy = "nobody", password: Optional[str] = None) -> dict:
        """Create a video and its upload ticket (status 'uploading'); finish it with complete_upload.

        Args:
            name: the title.
            owner_email: the owning staff member's email.
            description: text under the player.
            client_company: the customer company it features, if any.
            privacy_view: who may watch it once available (default nobody).
            password: viewing password, required with privacy_view 'password'.
        """
        check_password(privacy_view, password)
        vid = self.new_id("VID")
        v = Video(id=vid, name=name, description=description, owner_email=owner_email.lower(),
                  client_company=client_company, duration=0, upload_status="uploading", privacy_view=privacy_view,
                  password=password, link=f"https://vimeo.com/company/{vid.lower()}", created_time=self.now())
        self.state.videos[vid] = v
        return {**v.model_dump(), "upload_link": f"https://upload.vimeo.example/{vid.lower()}"}

    @tool(read_only=False, returns=Video)
    def complete_upload(self, video_id: Id("video"), duration: int = Field(ge=1, le=43200)) -> dict:
        """Mark an upload finished; the video moves to 'transcoding' (Vimeo finishes it on its side).

        Args:
            video_id: a video in status uploading.
            duration: length of the uploaded file in seconds.
        """
        v = self._video(video_id)
        if v.upload_status != "uploading":
            raise Conflict(f"video {v.id} is {v.upload_status}; complete_upload needs upload status uploading.")
        v.upload_status, v.duration = "transcoding", duration
        return v.model_dump()

    @tool(read_only=False, idempotent=True, returns=Video)
    def edit_video(self, video_id: Id("video"), name: Optional[str] = Field(default=None, min_length=1, max_length=128),
                   description: Optional[str] = None, tags: Optional[list[str]] = None,
                   comments_enabled: Optional[bool] = None) -> dict:
        """Edit a video's title, description, tags or whether comments are allowed.

        Args:
            video_id: the video.
            name: new title.
            description: new description.
            tags: the complete new tag list.
            comments_enabled: allow or block new comments.
        """
        v = self._video(video_id)
        for field, value in (("name", name), ("description", description), ("tags", tags),
                             ("comments_enabled", comments_enabled)):
            if value is not None:
                setattr(v, field, value)
        return v.model_dump()

    @tool(read_only=False, idempotent=True, returns=Video)
    def set_video_privacy(self, video_id: Id("video"), privacy_view: ViewPrivacy,
                          password: Optional[str] = None) -> dict:
        """Set who may watch a video. Publishing (anybody/unlisted) needs an available video (409);
        a video in a public showcase cannot be made private (422).

        Args:
            video_id: the video.
            privacy_view: anybody, unlisted, password, nobody or disable.
            password: viewing password, required with 'password'.
        """
        v = self._video(video_id)
        check_password(privacy_view, password)
        if privacy_view in ("anybody", "unlisted"):
            require_available(v, "publishing")
        showcases = self._in_public_showcases(v.id)
        if privacy_view in PRIVATE_VIEWS and showcases:
            raise Unprocessable(f"video {v.id} is in public showcase(s) {showcases}; remove it there first.")
        v.privacy_view, v.password = privacy_view, password
        return v.model_dump()

    @tool(read_only=False, destructive=True, returns=Video)
    def delete_video(self, video_id: Id("video")) -> dict:
        """Delete a video; it is removed from every showcase too.

        Args:
            video_id: the video.
        """
        v = self.state.videos.pop(self._video(video_id).id)
        for s in self.state.showcases.values():
            if v.id in s.video_ids:
                s.video_ids.remove(v.id)
        return v.model_dump(exclude=_SUMMARY)

    # ------------------------------------------------------------------ embed
    @tool(read_only=False, idempotent=True, returns=Video)
    def set_embed_privacy(self, video_id: Id("video"), embed_privacy: EmbedPrivacy) -> dict:
        """Set where a video may be embedded: public (anywhere), whitelist (listed domains) or private.

        Args:
            video_id: the video.
            embed_privacy: public, whitelist or private.
        """
        v = self._video(video_id)
        if embed_privacy != "private":
            require_available(v, "embedding")
        v.embed_privacy = embed_privacy
        return v.model_dump(exclude=_SUMMARY)

    @tool(read_only=False, returns=Video)
    def add_embed_domain(self, video_id: Id("video"),
                         domain: DomainInput = Field(min_length=1, max_length=253)) -> dict:
        """Whitelist a domain for embedding an available video; embed privacy becomes 'whitelist'.

        Args:
            video_id: the video.
            domain: host name, e.g. www.acme.example (scheme and path are dropped).
        """
        v = self._video(video_id)
        host = normal_domain(domain)
        require_available(v, "embedding")
        if host in v.embed_domains:
            raise already("video", v.id, f"embeddable on {host}")
        if len(v.embed_domains) >= MAX_EMBED_DOMAINS:
            raise Unprocessable(f"video {v.id} already whitelists {MAX_EMBED_DOMAINS} domains; remove one first.")
        v.embed_domains.append(host)
        v.embed_privacy = "whitelist"
        return v.model_dump(exclude=_SUMMARY)

    @tool(read_only=False, destructive=True, returns=Video)
    def remove_embed_domain(self, video_id: Id("video"),
                            domain: DomainInput = Field(min_length=1, max_length=253)) -> dict:
        """Remove a domain from a video's embed whitelist.

        Args:
            video_id: the video.
            domain: a whitelisted host name.
        """
        v = self._video(video_id)
        host = normal_domain(domain)
        if host not in v.embed_domains:
            raise NotFound(f"{host} is not whitelisted on video {v.id}; get_video lists embed_domains.")
        v.embed_domains.remove(host)
        return v.model_dump(exclude=_SUMMARY)

    # --------------------------------------------------------------- comments
    @tool(read_only=False, returns=VideoComment)
    def add_video_comment(self, video_id: Id("video"), author_email: Email,
                          text: str = Field(min_length=1, max_length=2000)) -> dict:
        """Comment on an available video whose comments are enabled.

        Args:
            video_id: the video.
            author_email: the commenter's email.
            text: the comment.
        """
        v = self._video(video_id)
        require_available(v, "commenting")
        if not v.comments_enabled:
            raise Conflict(f"comments are disabled on video {v.id}; edit_video can enable them.")
        c = VideoComment(id=self.new_id("CMT"), author_email=author_email.lower(), text=text, created_time=self.now())
        v.comments.append(c)
        return {**c.model_dump(), "video_id": v.id}

    @tool(read_only=False, destructive=True)
    def delete_video_comment(self, video_id: Id("video"), comment_id: str) -> dict:
        """Delete a comment from a video.

        Args:
            video_id: the video.
            comment_id: the comment id, e.g. CMT-0003.
        """
        v = self._video(video_id)
        hit = next((c for c in v.comments if c.id == comment_id), None)
        if hit is None:
            raise NotFound(f"comment {comment_id!r} not found on video {v.id}; get_video lists its comments.")
        v.comments.remove(hit)
        return {"deleted": comment_id, "video_id": v.id}

    # -------------------------------------------------------------- showcases
    @tool(read_only=False, returns=Showcase)
    def create_showcase(self, name: str = Field(min_length=1, max_length=128), owner_email: Email = ...,
                        privacy_view: ShowcasePrivacy = "anybody", description: str = "",
                        password: Optional[str] = None) -> dict:
        """Create an empty showcase.

        Args:
            name: showcase name.
            owner_email: the curating staff member's email.
            privacy_view: anybody, unlisted, password or nobody.
            description: description.
            password: required with privacy 'password'.
        """
        check_password(privacy_view, password)
        if any(s.name.lower() == name.lower() for s in self.state.showcases.values()):
            raise Conflict(f"a showcase named {name!r} already exists; list_showcases shows it.")
        s = Showcase(id=self.new_id("ALB"), name=name, description=description, owner_email=owner_email.lower(),
                     privacy_view=privacy_view, password=password, created_time=self.now())
        self.state.showcases[s.id] = s
        return s.model_dump()

    @tool(read_only=False, returns=Showcase)
    def add_video_to_showcase(self, album_id: Id("album"), video_id: Id("video")) -> dict:
        """Append an available video to a showcase; a private video cannot join a public showcase (422).

        Args:
            album_id: the showcase.
            video_id: the video.
        """
        s, v = self._showcase(album_id), self._video(video_id)
        if v.id in s.video_ids:
            raise already("video", v.id, f"in showcase {s.id}")
        require_available(v, "showcasing")
        fits_showcase(v, s)
        s.video_ids.append(v.id)
        return s.model_dump()

    @tool(read_only=False, destructive=True, returns=Showcase)
    def remove_video_from_showcase(self, album_id: Id("album"), video_id: Id("video")) -> dict:
        """Remove a video from a showcase.

        Args:
            album_id: the showcase.
            video_id: a video in it.
        """
        s = self._showcase(album_id)
        if video_id not in s.video_ids:
            raise NotFound(f"video {video_id!r} is not in showcase {s.id}; get_showcase lists its videos.")
        s.video_ids.remove(video_id)
        return s.model_dump()

    @tool(read_only=False, idempotent=True, returns=Showcase)
    def set_showcase_privacy(self, album_id: Id("album"), privacy_view: ShowcasePrivacy,
                             password: Optional[str] = None) -> dict:
        """Set a showcase's privacy; it cannot become public while it holds private videos (422).

        Args:
            album_id: the showcase.
            privacy_view: anybody, unlisted, password or nobody.
            password: required with 'password'.
        """
        s = self._showcase(album_id)
        check_password(privacy_view, password)
        if privacy_view == "anybody":
            hidden = [v for v in s.video_ids if self.state.videos[v].privacy_view in PRIVATE_VIEWS]
            if hidden:
                raise Unprocessable(f"showcase {s.id} holds private video(s) {hidden}; it cannot be public.")
        s.privacy_view, s.password = privacy_view, password
        return s.model_dump()

    # ------------------------------------------------------------------ seeds
    @classmethod
    def build_seed_state(cls, fake: Faker, rng: random.Random, today: dt.date) -> VideoLibraryState:
        return build_seed(fake, rng, today)
