"""Records and state of the newsletters service (Mailchimp Marketing API v3 shapes; see ``newsletters.py``).

Records mirror Mailchimp's objects: audiences (``/lists``) with merge field
definitions, list members keyed by subscriber hash (the MD5 of the
lowercase email), member notes, segments (static or saved on a tag),
regular campaigns with ``recipients``, ``settings`` and ``content``, and the
report of a sent campaign. The rule helpers every tool shares (subscriber
hash, quarter-hour send times, the deterministic opens and clicks of a send)
live here too.
"""

from __future__ import annotations

import datetime as dt
import hashlib
from typing import Literal, Optional

from pydantic import Field

from compoworld_gym.entities import CompanyName, DateTime, Email, Id, Phone
from compoworld_gym.service import Record, ServiceState

MemberStatus = Literal["subscribed", "unsubscribed", "cleaned", "pending"]
CampaignStatus = Literal["save", "schedule", "sent"]
MergeType = Literal["text", "phone"]

#: Share of recipients who open a send, and of openers who click (deterministic per recipient).
OPEN_RATE = 0.42
CLICK_RATE = 0.35


def subscriber_hash(email: str) -> str:
    """Mailchimp's member id: the MD5 hex digest of the lowercase email.

    Example:
        >>> subscriber_hash("Olivia.Martinez@gmail.com") == subscriber_hash("olivia.martinez@gmail.com")
        True
    """
    return hashlib.md5(email.strip().lower().encode()).hexdigest()


def member_key(list_id: str, email: str) -> str:
    """The state key of a list member: ``"<list_id>:<subscriber hash>"``."""
    return f"{list_id}:{subscriber_hash(email)}"


def engagement(campaign_id: str, email: str) -> tuple[bool, bool]:
    """``(opened, clicked)`` of one recipient of one send, drawn from the MD5 of both ids (no randomness)."""
    digest = hashlib.md5(f"{campaign_id}:{email.lower()}".encode()).digest()
    opened = digest[0] < OPEN_RATE * 256
    return opened, opened and digest[1] < CLICK_RATE * 256


def on_quarter_hour(when: dt.datetime) -> bool:
    """Whether ``when`` is on :00, :15, :30 or :45 with no seconds (Mailchimp's scheduling rule)."""
    return when.minute % 15 == 0 and when.second == 0 and when.microsecond == 0


class MergeField(Record):
    """A merge field definition of an audience (``/lists/{list_id}/merge-fields``)."""

    tag: str = Field(description="Merge tag, e.g. FNAME.")
    name: str = Field(description="Label shown on forms, e.g. First Name.")
    type: MergeType = Field(description="text or phone.")
    required: bool = Field(default=False, description="Whether every member must have a value.")


class ListContact(Record):
    """The audience's required CAN-SPAM footer contact."""

    company: CompanyName = Field(description="Sender company.")
    address1: str = Field(description="Street address.")
    city: str = Field(description="City.")
    country: str = Field(description="ISO country code.")


class CampaignDefaults(Record):
    """Defaults for new campaigns to an audience."""

    from_name: str = Field(description="Default sender name.")
    from_email: Email = Field(description="Default sender (reply-to) address.")
    language: str = Field(default="en", description="Language code.")


class AudienceList(Record):
    """An audience (Mailchimp 'list')."""

    id: Id("newsletter_list") = Field(description="List id, e.g. NLS-0001.")
    name: str = Field(description="Audience name.")
    contact: ListContact = Field(description="Footer contact.")
    permission_reminder: str = Field(description="Why members get these emails.")
    campaign_defaults: CampaignDefaults = Field(description="Defaults for new campaigns.")
    merge_fields: list[MergeField] = Field(description="Merge field definitions, FNAME first.")
    date_created: DateTime = Field(description="When the audience was created.")


class MemberNote(Record):
    """A note on a member (``/lists/{list_id}/members/{subscriber_hash}/notes``)."""

    id: int = Field(ge=1, description="Note id (per service).")
    note: str = Field(description="Note text.")
    created_at: DateTime = Field(description="When it was written.")


class Member(Record):
    """A list member."""

    id: str = Field(description="Subscriber hash: MD5 of the lowercase email.")
    list_id: Id("newsletter_list") = Field(description="The audience.")
    email_address: Email = Field(description="Member email.")
    status: MemberStatus = Field(description="subscribed, unsubscribed, cleaned (hard bounce) or pending "
                                             "(awaiting double opt-in).")
    merge_fields: dict[str, str] = Field(default_factory=dict, description="Merge values by tag (FNAME, LNAME, ...).")
    tags: list[str] = Field(default_factory=list, description="Active tag names.")
    timestamp_opt: DateTime = Field(description="When the member opted in.")
    last_changed: DateTime = Field(description="Last change of the member.")
    unsubscribe_reason: Optional[str] = Field(default=None, description="Why the member unsubscribed.")
    notes: list[MemberNote] = Field(default_factory=list, description="Notes, oldest first.")


class MemberView(Member):
    """A member as the read tools give it: with ``full_name`` (FNAME LNAME)."""

    full_name: str = Field(description="FNAME and LNAME joined.")
    phone: Optional[Phone] = Field(default=None, description="The PHONE merge value.")
    company: Optional[CompanyName] = Field(default=None, description="The COMPANY merge value.")


class Segment(Record):
    """A segment of an audience: static (a fixed set of members) or saved (members with a tag)."""

    id: str = Field(description="Segment id, e.g. SEG-0001.")
    list_id: Id("newsletter_list") = Field(description="The audience.")
    name: str = Field(description="Segment name.")
    type: Literal["static", "saved"] = Field(description="static (fixed members) or saved (tag condition).")
    tag: Optional[str] = Field(default=None, description="Saved segments: members carrying this tag.")
    static_members: list[str] = Field(default_factory=list, description="Static segments: member subscriber hashes.")
    created_at: DateTime = Field(description="When it was created.")


class CampaignRecipients(Record):
    """Who a campaign goes to."""

    list_id: Id("newsletter_list") = Field(description="The audience.")
    segment_id: Optional[str] = Field(default=None, description="Only this segment of the audience.")


class CampaignSettings(Record):
    """A campaign's settings."""

    title: str = Field(description="Internal title.")
    subject_line: str = Field(default="", description="Email subject (needed to send).")
    preview_text: str = Field(default="", description="Inbox preview text.")
    from_name: str = Field(description="Sender name.")
    reply_to: Email = Field(description="Reply-to address.")


class CampaignContent(Record):
    """A campaign's email body (``/campaigns/{id}/content``)."""

    html: str = Field(default="", description="HTML body.")
    plain_text: str = Field(default="", description="Plain-text body.")


class Campaign(Record):
    """A regular email campaign."""

    id: Id("newsletter_campaign") = Field(description="Campaign id, e.g. NCP-0001.")
    type: Literal["regular"] = Field(default="regular", description="Campaign type (regular only).")
    status: CampaignStatus = Field(description="save (draft), schedule (scheduled) or sent.")
    recipients: CampaignRecipients = Field(description="Audience and segment.")
    settings: CampaignSettings = Field(description="Subject, sender, title.")
    content: CampaignContent = Field(default_factory=CampaignContent, description="Email body.")
    create_time: DateTime = Field(description="When it was created.")
    send_time: Optional[DateTime] = Field(default=None, description="Scheduled or actual send time.")
    emails_sent: int = Field(default=0, ge=0, description="Recipients of the send.")


class RecipientActivity(Record):
    """What one recipient did with a sent campaign."""

    email_address: Email = Field(description="Recipient.")
    opened: bool = Field(description="Opened the email.")
    clicked: bool = Field(description="Clicked a link.")


class Report(Record):
    """The report of a sent campaign (``/reports/{campaign_id}``)."""

    id: Id("newsletter_campaign") = Field(description="The campaign.")
    list_id: Id("newsletter_list") = Field(description="The audience.")
    subject_line: str = Field(description="Subject of the send.")
    send_time: DateTime = Field(description="When it went out.")
    emails_sent: int = Field(ge=0, description="Recipients.")
    unique_opens: int = Field(ge=0, description="Recipients who opened.")
    open_rate: float = Field(ge=0, le=1, description="unique_opens / emails_sent.")
    unique_clicks: int = Field(ge=0, description="Recipients who clicked.")
    click_rate: float = Field(ge=0, le=1, description="unique_clicks / emails_sent.")
    recipients: list[RecipientActivity] = Field(default_factory=list, description="Per-recipient activity.")


class NewslettersState(ServiceState):
    """Audiences, members, segments, campaigns and reports."""

    lists: dict[str, AudienceList] = Field(default_factory=dict, description="Audiences by id.")
    members: dict[str, Member] = Field(default_factory=dict, description="Members by '<list_id>:<subscriber hash>'.")
    segments: dict[str, Segment] = Field(default_factory=dict, description="Segments by id.")
    campaigns: dict[str, Campaign] = Field(default_factory=dict, description="Campaigns by id.")
    reports: dict[str, Report] = Field(default_factory=dict, description="Reports of sent campaigns by campaign id.")


def segment_members(state: "NewslettersState", segment: Segment) -> list[Member]:
    """The members of ``segment`` in any status, audience order."""
    return [m for m in state.members.values() if m.list_id == segment.list_id
            and (m.id in segment.static_members if segment.type == "static" else segment.tag in m.tags)]


def recipients_of(state: "NewslettersState", campaign: Campaign) -> list[Member]:
    """Who a send of ``campaign`` reaches: its audience (or segment) members whose status is subscribed.

    Unsubscribed, cleaned and pending members are never sent to, as in Mailchimp.
    """
    seg_id = campaign.recipients.segment_id
    pool = (segment_members(state, state.segments[seg_id]) if seg_id in state.segments
            else [m for m in state.members.values() if m.list_id == campaign.recipients.list_id])
    return [m for m in pool if m.status == "subscribed"]


def build_report(campaign: Campaign, recipients: list[str], sent: dt.datetime) -> Report:
    """The report of sending ``campaign`` to ``recipients`` (emails) at ``sent``; opens/clicks by :func:`engagement`."""
    acts = [RecipientActivity(email_address=e, opened=o, clicked=c)
            for e in recipients for o, c in [engagement(campaign.id, e)]]
    n = len(acts)
    opens, clicks = sum(a.opened for a in acts), sum(a.clicked for a in acts)
    return Report(id=campaign.id, list_id=campaign.recipients.list_id, subject_line=campaign.settings.subject_line,
                  send_time=sent, emails_sent=n, unique_opens=opens, open_rate=round(opens / n, 4) if n else 0.0,
                  unique_clicks=clicks, click_rate=round(clicks / n, 4) if n else 0.0, recipients=acts)
