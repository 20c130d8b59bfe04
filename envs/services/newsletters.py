"""Newsletters: audiences, members, segments, regular campaigns and their reports.

No email-marketing server is in ``compoworld_gym/data/mcp_servers.jsonl``
(``spec_source = None``); the interface follows the Mailchimp Marketing API
v3: ``/lists`` (audiences with ``contact``, ``permission_reminder``,
``campaign_defaults``) and ``/lists/{list_id}/merge-fields`` (FNAME, LNAME,
COMPANY, PHONE); ``/lists/{list_id}/members/{subscriber_hash}`` where the
subscriber hash is the MD5 of the lowercase email (the tools also take the
email itself, as Mailchimp does), with ``status``
subscribed/unsubscribed/cleaned/pending, ``merge_fields``, ``tags``
(``/tags`` with active/inactive) and ``/notes``; ``/search-members``;
``/lists/{list_id}/segments`` (static or saved on a tag); ``/campaigns``
of type ``regular`` with ``recipients``, ``settings`` and ``/content``,
``/actions/schedule``, ``/actions/unschedule`` and ``/actions/send``;
``/reports/{campaign_id}`` with opens and clicks, computed deterministically
per recipient from the send.

Rules of the real product: a send reaches only subscribed members
(unsubscribed, cleaned and pending members never get email, and a campaign
with no subscribed recipient cannot go out); a campaign needs a subject line
and content to be scheduled or sent (the send checklist); a sent campaign
cannot be edited, a scheduled one must be unscheduled first; a schedule time
is in the future and on the quarter hour (:00/:15/:30/:45); an unsubscribed
or cleaned member cannot be re-subscribed directly (only back to pending,
which sends a double opt-in email); cleaned is set by bounces, never by the
API; merge values must fit the audience's merge fields (FNAME required).
Left out: automations, A/B and RSS campaigns, e-commerce stores, templates
and file manager (no deterministic behaviour worth the tools).
"""

from __future__ import annotations

import datetime as dt
import random
from typing import Literal, Optional

from faker import Faker
from pydantic import Field

from compoworld_gym.entities import DateTime, Email, Id
from compoworld_gym.envs.services._newsletters_audiences import NewsletterAudiences, TagChange
from compoworld_gym.envs.services._newsletters_models import (
    Campaign, CampaignRecipients, CampaignSettings, NewslettersState, Report, build_report, on_quarter_hour,
    recipients_of,
)
from compoworld_gym.envs.services._newsletters_seed import build_state
from compoworld_gym.errors import Conflict, InvalidArgument, NotFound, Unprocessable
from compoworld_gym.service import tool

__all__ = ["Newsletters", "TagChange"]


class Newsletters(NewsletterAudiences):
    """Mailchimp-style email newsletters: audiences, members, segments, campaigns, reports."""

    name = "newsletters"
    description = ("Email newsletters (Mailchimp-style): audiences with members by email and subscriber hash, merge "
                   "fields, tags, notes, segments, regular campaigns (content, schedule, send) and reports.")
    domain = "marketing"
    spec_source = None
    State = NewslettersState

    # ------------------------------------------------------- campaign helpers

    def _checklist(self, c: Campaign) -> list[str]:
        """What stops ``c`` from going out (empty when ready)."""
        problems = []
        if not c.settings.subject_line.strip():
            problems.append("the campaign has no subject line (update_campaign)")
        if not (c.content.html.strip() or c.content.plain_text.strip()):
            problems.append("the campaign has no content (set_campaign_content)")
        if not recipients_of(self.state, c):
            problems.append("no subscribed member is among its recipients")
        return problems

    def _campaign_view(self, c: Campaign) -> dict:
        problems = self._checklist(c) if c.status != "sent" else []
        checklist = None if c.status == "sent" else {"is_ready": not problems, "items": problems}
        return {**c.model_dump(), "recipient_count": len(recipients_of(self.state, c)), "send_checklist": checklist}

    def _editable(self, c: Campaign) -> None:
        if c.status == "sent":
            raise Conflict(f"campaign {c.id} was sent on {c.send_time:%Y-%m-%d}; a sent campaign cannot be edited. "
                           "Create a new campaign instead.")
        if c.status == "schedule":
            raise Conflict(f"campaign {c.id} is scheduled; unschedule_campaign it before editing.")

    def _ready(self, c: Campaign) -> None:
        problems = self._checklist(c)
        if problems:
            raise Unprocessable(f"campaign {c.id} is not ready to send: {'; '.join(problems)}.")

    # ------------------------------------------------------------ campaigns
    @tool(read_only=True, returns=list[Campaign])
    def list_campaigns(self, status: Optional[Literal["save", "schedule", "sent"]] = None,
                       list_id: Optional[Id("newsletter_list")] = None) -> list[dict]:
        """List campaigns (newest first) by status or audience.

        Args:
            status: save (draft), schedule (scheduled) or sent.
            list_id: only campaigns to this audience.
        """
        rows = [c for c in self.state.campaigns.values() if (status is None or c.status == status)
                and (list_id is None or c.recipients.list_id == list_id)]
        return [self._campaign_view(c) for c in reversed(rows)]

    @tool(read_only=True, returns=Campaign)
    def get_campaign(self, campaign_id: Id("newsletter_campaign")) -> dict:
        """Get a campaign with its settings, content, recipient count and send checklist.

        Args:
            campaign_id: the campaign id, e.g. NCP-0001.
        """
        return self._campaign_view(self._campaign(campaign_id))

    @tool(read_only=False, returns=Campaign)
    def create_campaign(self, list_id: Id("newsletter_list"), title: str = Field(min_length=1, max_length=150),
                        subject_line: str = Field(default="", max_length=150),
                        preview_text: str = Field(default="", max_length=150),
                        from_name: Optional[str] = Field(default=None, min_length=1, max_length=100),
                        reply_to: Optional[Email] = None, segment_id: Optional[str] = None) -> dict:
        """Create a regular campaign draft (status save) to an audience or one of its segments.

        Args:
            list_id: the audience.
            title: internal title.
            subject_line: email subject (needed before sending).
            preview_text: inbox preview text.
            from_name: sender name; default the audience's.
            reply_to: reply-to address; default the audience's.
            segment_id: only this segment of the audience.
        """
        lst = self._list(list_id)
        if segment_id is not None:
            self._segment(lst.id, segment_id)
        c = Campaign(id=self.new_id("NCP"), status="save",
                     recipients=CampaignRecipients(list_id=lst.id, segment_id=segment_id),
                     settings=CampaignSettings(title=title, subject_line=subject_line, preview_text=preview_text,
                                               from_name=from_name or lst.campaign_defaults.from_name,
                                               reply_to=reply_to or lst.campaign_defaults.from_email),
                     create_time=self.now())
        self.state.campaigns[c.id] = c
        return self._campaign_view(c)

    @tool(read_only=False, returns=Campaign)
    def update_campaign(self, campaign_id: Id("newsletter_campaign"),
                        title: Optional[str] = Field(default=None, min_length=1, max_length=150),
                        subject_line: Optional[str] = Field(default=None, max_length=150),
                        preview_text: Optional[str] = Field(default=None, max_length=150),
                        from_name: Optional[str] = Field(default=None, min_length=1, max_length=100),
                        reply_to: Optional[Email] = None, segment_id: Optional[str] = None) -> dict:
        """Change a draft campaign's settings or segment (not once sent; unschedule a scheduled one first).

        Args:
            campaign_id: the campaign.
            title: internal title.
            subject_line: email subject.
            preview_text: inbox preview text.
            from_name: sender name.
            reply_to: reply-to address.
            segment_id: send only to this segment of the audience.
        """
        c = self._campaign(campaign_id)
        changes = {k: v for k, v in (("title", title), ("subject_line", subject_line), ("preview_text", preview_text),
                                     ("from_name", from_name), ("reply_to", reply_to)) if v is not None}
        if not changes and segment_id is None:
            raise InvalidArgument("give at least one setting to change.")
        self._editable(c)
        if segment_id is not None:
            self._segment(c.recipients.list_id, segment_id)
            c.recipients.segment_id = segment_id
        c.settings = c.settings.model_copy(update=changes)
        return self._campaign_view(c)

    @tool(read_only=False, returns=Campaign)
    def set_campaign_content(self, campaign_id: Id("newsletter_campaign"),
                             html: str = Field(default="", max_length=20000),
                             plain_text: str = Field(default="", max_length=20000)) -> dict:
        """Set the body of a draft campaign (HTML and/or plain text).

        Args:
            campaign_id: the campaign.
            html: the HTML body.
            plain_text: the plain-text body.
        """
        c = self._campaign(campaign_id)
        if not (html.strip() or plain_text.strip()):
            raise InvalidArgument("give html or plain_text content.")
        self._editable(c)
        c.content.html, c.content.plain_text = html, plain_text
        return self._campaign_view(c)

    @tool(read_only=False, returns=Campaign)
    def schedule_campaign(self, campaign_id: Id("newsletter_campaign"), schedule_time: DateTime) -> dict:
        """Schedule a ready draft campaign: a future time on the quarter hour (:00, :15, :30 or :45).

        Args:
            campaign_id: the campaign (status save).
            schedule_time: when to send (ISO date-time, e.g. 2026-01-20T10:15:00).
        """
        c = self._campaign(campaign_id)
        when = schedule_time.replace(tzinfo=None)
        if c.status != "save":
            raise Conflict(f"campaign {c.id} is {c.status}; only a draft (save) campaign can be scheduled"
                           + ("; unschedule it to pick another time." if c.status == "schedule" else "."))
        if not on_quarter_hour(when):
            raise Unprocessable(f"{when:%H:%M:%S} is not on the quarter hour; use :00, :15, :30 or :45.")
        if when <= self._clock():
            raise Unprocessable(f"{when.isoformat()} is not in the future (now {self._clock().isoformat()}).")
        self._ready(c)
        c.status, c.send_time = "schedule", when
        return self._campaign_view(c)

    @tool(read_only=False, returns=Campaign)
    def unschedule_campaign(self, campaign_id: Id("newsletter_campaign")) -> dict:
        """Take a scheduled campaign off the schedule (back to a draft).

        Args:
            campaign_id: the campaign (status schedule).
        """
        c = self._campaign(campaign_id)
        if c.status != "schedule":
            raise Conflict(f"campaign {c.id} is {c.status}; only a scheduled campaign can be unscheduled.")
        c.status, c.send_time = "save", None
        return self._campaign_view(c)

    @tool(read_only=False, returns=Report)
    def send_campaign(self, campaign_id: Id("newsletter_campaign")) -> dict:
        """Send a ready draft campaign now to its subscribed recipients; returns its report.

        Args:
            campaign_id: the campaign (status save).
        """
        c = self._campaign(campaign_id)
        if c.status != "save":
            raise Conflict(f"campaign {c.id} is {c.status}; only a draft can be sent now"
                           + (" (unschedule it first)." if c.status == "schedule" else "."))
        self._ready(c)
        sent_to = [m.email_address for m in recipients_of(self.state, c)]
        when = self.now()
        c.status, c.send_time, c.emails_sent = "sent", when, len(sent_to)
        report = build_report(c, sent_to, when)
        self.state.reports[c.id] = report
        return report.model_dump()

    @tool(read_only=True, returns=Report)
    def get_campaign_report(self, campaign_id: Id("newsletter_campaign")) -> dict:
        """The report of a sent campaign: emails sent, unique opens and clicks, rates, per-recipient activity.

        Args:
            campaign_id: the campaign.
        """
        c = self._campaign(campaign_id)
        report = self.state.reports.get(c.id)
        if report is None:
            raise NotFound(f"campaign {c.id} is {c.status}, not sent; reports exist only for sent campaigns.")
        return report.model_dump()

    # ------------------------------------------------------------------ seeds
    @classmethod
    def build_seed_state(cls, fake: Faker, rng: random.Random, today: dt.date) -> NewslettersState:
        return build_state(fake, rng, today)
