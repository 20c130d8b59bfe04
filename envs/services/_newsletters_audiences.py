"""Audiences, members and segments of the newsletters service (see ``newsletters.py``).

:class:`NewsletterAudiences` sets no ``name``, so it is not a service of its
own; :class:`~compoworld_gym.envs.services.newsletters.Newsletters` adds the
campaign tools and the seed.
"""

from __future__ import annotations

import datetime as dt
from typing import Literal, Optional

from pydantic import Field

from compoworld_gym.entities import Email, Id
from compoworld_gym.envs.services._blocks import already, day_start
from compoworld_gym.envs.services._newsletters_models import (
    AudienceList, Campaign, Member, MemberNote, MemberStatus, MemberView, NewslettersState, Segment, member_key,
    segment_members, subscriber_hash,
)
from compoworld_gym.errors import Conflict, InvalidArgument, NotFound, Unprocessable
from compoworld_gym.service import Record, Service, tool


class TagChange(Record):
    """One tag to add (active) or remove (inactive)."""

    name: str = Field(min_length=1, max_length=100, description="Tag name.")
    status: Literal["active", "inactive"] = Field(description="active adds the tag, inactive removes it.")


class NewsletterAudiences(Service):
    """Mailchimp-style audiences: lists, merge fields, members, tags, notes and segments."""

    State = NewslettersState

    # ---------------------------------------------------------------- helpers
    def _clock(self) -> dt.datetime:
        """The logical time now, without advancing it."""
        return day_start(self.today) + dt.timedelta(minutes=self.state.clock)

    def _list(self, list_id: str) -> AudienceList:
        return self.lookup(self.state.lists, list_id, "audience list")

    def _member(self, list_id: str, subscriber_hash_or_email: str) -> Member:
        lst = self._list(list_id)
        key = subscriber_hash_or_email.strip().lower()
        if "@" in key:
            key = subscriber_hash(key)
        member = self.state.members.get(f"{lst.id}:{key}")
        if member is None:
            raise NotFound(f"{subscriber_hash_or_email!r} is not a member of {lst.id}; search members with "
                           "search_members or list_members.")
        return member

    def _segment(self, list_id: str, segment_id: str) -> Segment:
        seg = self.state.segments.get(segment_id)
        if seg is None or seg.list_id != list_id:
            raise NotFound(f"segment {segment_id!r} is not a segment of {list_id}; call list_segments.")
        return seg

    @staticmethod
    def _view(m: Member) -> dict:
        name = " ".join(v for v in (m.merge_fields.get("FNAME", ""), m.merge_fields.get("LNAME", "")) if v)
        return MemberView(**m.model_dump(), full_name=name, phone=m.merge_fields.get("PHONE"),
                          company=m.merge_fields.get("COMPANY")).model_dump()

    def _list_view(self, lst: AudienceList) -> dict:
        counts = {s: 0 for s in ("subscribed", "unsubscribed", "cleaned", "pending")}
        for m in self.state.members.values():
            if m.list_id == lst.id:
                counts[m.status] += 1
        return {**lst.model_dump(), "stats": {"member_count": counts["subscribed"],
                                              "unsubscribe_count": counts["unsubscribed"],
                                              "cleaned_count": counts["cleaned"], "pending_count": counts["pending"]}}

    def _merge(self, lst: AudienceList, current: dict[str, str], changes: dict[str, str]) -> dict[str, str]:
        known = {f.tag for f in lst.merge_fields}
        unknown = sorted(set(k.upper() for k in changes) - known)
        if unknown:
            raise Unprocessable(f"{lst.id} has no merge field(s) {unknown}; its merge fields are "
                                f"{', '.join(f.tag for f in lst.merge_fields)}.")
        merged = {**current, **{k.upper(): v.strip() for k, v in changes.items()}}
        missing = [f.tag for f in lst.merge_fields if f.required and not merged.get(f.tag)]
        if missing:
            raise Unprocessable(f"merge field(s) {missing} are required in {lst.id}.")
        return {k: v for k, v in merged.items() if v}

    def _campaign(self, campaign_id: str) -> Campaign:
        return self.lookup(self.state.campaigns, campaign_id, "campaign")

    # ------------------------------------------------------------ audiences
    @tool(read_only=True, returns=list[AudienceList])
    def get_lists(self) -> list[dict]:
        """List the audiences with their member counts (subscribed, unsubscribed, cleaned, pending)."""
        return [self._list_view(lst) for lst in self.state.lists.values()]

    @tool(read_only=True, returns=AudienceList)
    def get_list(self, list_id: Id("newsletter_list")) -> dict:
        """Get one audience with its contact, campaign defaults, merge fields and stats.

        Args:
            list_id: the audience id, e.g. NLS-0001.
        """
        return self._list_view(self._list(list_id))

    @tool(read_only=True)
    def get_list_merge_fields(self, list_id: Id("newsletter_list")) -> list[dict]:
        """The merge fields of an audience (tag, name, type, required).

        Args:
            list_id: the audience.
        """
        return [f.model_dump() for f in self._list(list_id).merge_fields]

    # -------------------------------------------------------------- members
    @tool(read_only=True, returns=list[MemberView])
    def list_members(self, list_id: Id("newsletter_list"), status: Optional[MemberStatus] = None,
                     tag: Optional[str] = None, count: int = Field(default=50, ge=1, le=1000),
                     offset: int = Field(default=0, ge=0)) -> dict:
        """List the members of an audience, optionally by status or tag.

        Args:
            list_id: the audience.
            status: subscribed, unsubscribed, cleaned or pending.
            tag: only members carrying this tag.
            count: page size (1-1000).
            offset: members to skip.
        """
        lst = self._list(list_id)
        rows = [m for m in self.state.members.values() if m.list_id == lst.id and (status is None or m.status == status)
                and (tag is None or tag in m.tags)]
        return {"list_id": lst.id, "total_items": len(rows),
                "members": [self._view(m) for m in rows[offset:offset + count]]}

    @tool(read_only=True, returns=MemberView)
    def get_list_member(self, list_id: Id("newsletter_list"), subscriber_hash: str = Field(min_length=3)) -> dict:
        """Get one member of an audience, with merge fields, tags and notes.

        Args:
            list_id: the audience.
            subscriber_hash: the MD5 hash of the lowercase email, or the email address itself.
        """
        return self._view(self._member(list_id, subscriber_hash))

    @tool(read_only=True, returns=list[MemberView])
    def search_members(self, query: str = Field(min_length=2, max_length=200),
                       list_id: Optional[Id("newsletter_list")] = None) -> dict:
        """Search members of every audience (or one) by email or name.

        Args:
            query: an email address (exact matches) or part of an email or name (full search).
            list_id: only this audience.
        """
        if list_id is not None:
            self._list(list_id)
        q = query.strip().lower()
        pool = [self._view(m) for m in self.state.members.values() if list_id is None or m.list_id == list_id]
        exact = [m for m in pool if m["email_address"].lower() == q]
        full = [m for m in pool if m not in exact and (q in m["email_address"].lower() or q in m["full_name"].lower())]
        return {"exact_matches": {"members": exact, "total_items": len(exact)},
                "full_search": {"members": full, "total_items": len(full)}}

    @tool(read_only=False, returns=MemberView)
    def add_list_member(self, list_id: Id("newsletter_list"), email_address: Email,
                        status: Literal["subscribed", "pending"] = "subscribed",
                        merge_fields: dict[str, str] = Field(default_factory=dict, max_length=10),
                        tags: list[str] = Field(default_factory=list, max_length=20)) -> dict:
        """Add a member to an audience (pending sends a double opt-in email first).

        Args:
            list_id: the audience.
            email_address: the member's email.
            status: subscribed or pending.
            merge_fields: values by merge tag, e.g. {"FNAME": "Ann", "LNAME": "Lee"} (FNAME is required).
            tags: tag names to apply.
        """
        lst = self._list(list_id)
        key = member_key(lst.id, email_address)
        if key in self.state.members:
            raise Conflict(f"{email_address} is already a member of {lst.id} "
                           f"({self.state.members[key].status}); use update_list_member.")
        merged = self._merge(lst, {}, merge_fields)
        now = self.now()
        m = Member(id=subscriber_hash(email_address), list_id=lst.id, email_address=email_address.strip(),
                   status=status, merge_fields=merged, tags=sorted({t.strip() for t in tags if t.strip()}),
                   timestamp_opt=now, last_changed=now)
        self.state.members[key] = m
        return self._view(m)

    @tool(read_only=False, returns=MemberView)
    def update_list_member(self, list_id: Id("newsletter_list"), subscriber_hash: str = Field(min_length=3),
                           status: Optional[Literal["subscribed", "unsubscribed", "pending"]] = None,
                           merge_fields: Optional[dict[str, str]] = Field(default=None, max_length=10),
                           unsubscribe_reason: Optional[str] = Field(default=None, max_length=300)) -> dict:
        """Change a member's status (e.g. unsubscribe them) or merge fields.

        Unsubscribed or cleaned members cannot be set back to subscribed (409):
        set them to pending, which emails a re-confirmation.

        Args:
            list_id: the audience.
            subscriber_hash: MD5 hash of the lowercase email, or the email.
            status: subscribed, unsubscribed or pending (cleaned is set only by bounces).
            merge_fields: merge values to change, by tag.
            unsubscribe_reason: why, when unsubscribing.
        """
        if status is None and merge_fields is None:
            raise InvalidArgument("give a status or merge_fields to change.")
        if unsubscribe_reason and status != "unsubscribed":
            raise InvalidArgument("unsubscribe_reason goes with status unsubscribed.")
        m = self._member(list_id, subscriber_hash)
        merged = self._merge(self.state.lists[m.list_id], m.merge_fields, merge_fields or {})
        if status is not None and status == m.status:
            raise already("member", m.email_address, f"{status} in {m.list_id}")
        if status == "subscribed" and m.status in ("unsubscribed", "cleaned"):
            raise Conflict(f"{m.email_address} is {m.status} in {m.list_id} and cannot be re-subscribed directly; "
                           "set status pending to send them a re-confirmation email.")
        m.merge_fields = merged
        if status is not None:
            m.status = status
            m.unsubscribe_reason = (unsubscribe_reason or "Unsubscribed on request") if status == "unsubscribed" \
                else None
        m.last_changed = self.now()
        return self._view(m)

    @tool(read_only=False, returns=MemberView)
    def update_list_member_tags(self, list_id: Id("newsletter_list"), subscriber_hash: str = Field(min_length=3),
                                tags: list[TagChange] = Field(min_length=1, max_length=20)) -> dict:
        """Add (status active) or remove (status inactive) tags of a member.

        Args:
            list_id: the audience.
            subscriber_hash: MD5 hash of the lowercase email, or the email.
            tags: e.g. [{"name": "vip", "status": "active"}].
        """
        m = self._member(list_id, subscriber_hash)
        current = set(m.tags)
        for t in tags:
            name = t.name.strip()
            if not name:
                raise InvalidArgument("a tag name cannot be blank.")
            (current.add if t.status == "active" else current.discard)(name)
        m.tags = sorted(current)
        m.last_changed = self.now()
        return self._view(m)

    @tool(read_only=False, returns=MemberNote)
    def create_list_member_note(self, list_id: Id("newsletter_list"), subscriber_hash: str = Field(min_length=3),
                                note: str = Field(min_length=1, max_length=1000)) -> dict:
        """Add a note to a member.

        Args:
            list_id: the audience.
            subscriber_hash: MD5 hash of the lowercase email, or the email.
            note: the note text.
        """
        m = self._member(list_id, subscriber_hash)
        n = self.state.counters.get("NOTE", 1)
        self.state.counters["NOTE"] = n + 1
        entry = MemberNote(id=n, note=note, created_at=self.now())
        m.notes.append(entry)
        return {**entry.model_dump(), "list_id": m.list_id, "email_address": m.email_address}

    # ------------------------------------------------------------- segments
    @tool(read_only=True, returns=list[Segment])
    def list_segments(self, list_id: Id("newsletter_list")) -> list[dict]:
        """The segments of an audience with their member counts.

        Args:
            list_id: the audience.
        """
        lst = self._list(list_id)
        return [{**s.model_dump(), "member_count": len(segment_members(self.state, s))}
                for s in self.state.segments.values() if s.list_id == lst.id]

    @tool(read_only=True, returns=list[MemberView])
    def get_segment_members(self, list_id: Id("newsletter_list"), segment_id: str) -> list[dict]:
        """The members of a segment (any status; only subscribed ones receive sends).

        Args:
            list_id: the audience.
            segment_id: the segment, e.g. SEG-0001.
        """
        self._list(list_id)
        return [self._view(m) for m in segment_members(self.state, self._segment(list_id, segment_id))]

    @tool(read_only=False, returns=Segment)
    def create_segment(self, list_id: Id("newsletter_list"), name: str = Field(min_length=1, max_length=100),
                       static_segment: list[Email] = Field(default_factory=list, max_length=500),
                       tag: Optional[str] = Field(default=None, min_length=1, max_length=100)) -> dict:
        """Create a static segment (fixed member emails) or a saved one (members carrying a tag).

        Args:
            list_id: the audience.
            name: segment name.
            static_segment: member emails of a static segment (each must be in the audience).
            tag: the tag of a saved segment.
        """
        lst = self._list(list_id)
        if bool(static_segment) == (tag is not None):
            raise InvalidArgument("give either static_segment emails or a tag, not both nor neither.")
        hashes = []
        for email in static_segment:
            if member_key(lst.id, email) not in self.state.members:
                raise Unprocessable(f"{email} is not a member of {lst.id}; add them first or drop them.")
            hashes.append(subscriber_hash(email))
        seg = Segment(id=self.new_id("SEG"), list_id=lst.id, name=name, type="saved" if tag else "static", tag=tag,
                      static_members=list(dict.fromkeys(hashes)), created_at=self.now())
        self.state.segments[seg.id] = seg
        return {**seg.model_dump(), "member_count": len(segment_members(self.state, seg))}

