"""Marketing: audience lists, subscribers and email campaigns.

No email-marketing server is in ``compoworld_gym/data/mcp_servers.jsonl``; the
interface is designed the way Mailchimp's Marketing API looks: audiences
(lists) hold members keyed by email with status ``subscribed``,
``unsubscribed``, ``cleaned`` or ``pending`` and tags; campaigns target one
list (optionally a tag segment or a static list of emails), move
``save → schedule → sent`` and have a report once sent. As in Mailchimp,
an unsubscribed member cannot be re-subscribed by the sender (409), and a
campaign that names an unsubscribed or cleaned address is refused (409):
unsubscribed people are never emailed.
"""

from __future__ import annotations

import datetime as dt
import random
from typing import Literal, Optional

from faker import Faker
from pydantic import Field

from compoworld_gym.entities import CompanyName, Date, DateTime, Email, Id, PersonName
from compoworld_gym.envs.services._accounts import ACCOUNTS
from compoworld_gym.envs.services._commerce import CUSTOMERS
from compoworld_gym.envs.services._common import email_for
from compoworld_gym.envs.services._company import DOMAIN, staff_of
from compoworld_gym.errors import Conflict, InvalidArgument, Unprocessable
from compoworld_gym.service import DAY_START, Record, Service, ServiceState, tool

MemberStatus = Literal["subscribed", "unsubscribed", "cleaned", "pending"]
CampaignStatus = Literal["save", "schedule", "sent"]


class AudienceList(Record):
    """An audience (Mailchimp 'list')."""

    id: Id("list") = Field(description="List id, e.g. LST-0001.")
    name: str = Field(description="List name.")
    company: CompanyName = Field(description="Sender company shown in the footer.")
    from_email: Email = Field(description="Default sender address.")
    permission_reminder: str = Field(description="Why members receive these emails.")
    created_on: Date = Field(description="Creation date.")


class Member(Record):
    """A list member (a subscriber record)."""

    list_id: Id("list") = Field(description="List the member belongs to.")
    email: Email = Field(description="Member email.")
    full_name: PersonName = Field(description="Member's name.")
    status: MemberStatus = Field(description="subscribed, unsubscribed, cleaned (bounced) or pending (unconfirmed).")
    tags: list[str] = Field(default_factory=list, description="Tags used for segments.")
    opted_in_on: Date = Field(description="Date the member joined.")
    unsubscribed_on: Optional[Date] = Field(default=None, description="Date the member unsubscribed.")


class Report(Record):
    """Results of a sent campaign."""

    emails_sent: int = Field(ge=0, description="Recipients.")
    opens: int = Field(ge=0, description="Unique opens.")
    clicks: int = Field(ge=0, description="Unique clicks.")
    unsubscribes: int = Field(ge=0, description="Unsubscribes caused.")


class Campaign(Record):
    """An email campaign."""

    id: Id("campaign") = Field(description="Campaign id, e.g. CMP-0001.")
    title: str = Field(description="Internal title.")
    subject_line: str = Field(description="Email subject.")
    from_name: str = Field(description="Sender name.")
    reply_to: Email = Field(description="Reply-to address.")
    list_id: Id("list") = Field(description="Audience list.")
    segment_tag: Optional[str] = Field(default=None, description="Only subscribed members with this tag.")
    recipient_emails: list[Email] = Field(default_factory=list,
                                          description="Static segment; when set, only these members get it.")
    status: CampaignStatus = Field(description="save (draft), schedule (scheduled) or sent.")
    send_time: Optional[DateTime] = Field(default=None, description="Scheduled or actual send time.")
    sent_to: list[Email] = Field(default_factory=list, description="Addresses it was sent to.")
    created_by: Email = Field(description="Marketer who created it.")
    report: Optional[Report] = Field(default=None, description="Results, once sent.")


class MarketingState(ServiceState):
    """Lists, members and campaigns."""

    lists: dict[str, AudienceList] = Field(default_factory=dict, description="Lists by id.")
    members: dict[str, Member] = Field(default_factory=dict,
                                       description="Members by '<list_id>:<lowercase email>'.")
    campaigns: dict[str, Campaign] = Field(default_factory=dict, description="Campaigns by id.")


def _key(list_id: str, email: str) -> str:
    return f"{list_id}:{email.lower()}"


class Marketing(Service):
    """Mailchimp-style audiences, subscribers and campaigns."""

    name = "marketing"
    description = ("Email marketing (Mailchimp-style): audience lists, subscribers and their consent status, "
                   "tags, campaigns, scheduling, sending and reports.")
    domain = "marketing"
    spec_source = None
    State = MarketingState

    # ---------------------------------------------------------------- helpers
    def _member(self, list_id: str, email: str) -> Member:
        self.lookup(self.state.lists, list_id, "list")
        return self.lookup(self.state.members, _key(list_id, email), f"member of {list_id}")

    def _campaign(self, campaign_id: str, *statuses: str) -> Campaign:
        c = self.lookup(self.state.campaigns, campaign_id, "campaign")
        if statuses and c.status not in statuses:
            raise Conflict(f"campaign {campaign_id} is '{c.status}'; this needs status {' or '.join(statuses)}.")
        return c

    def _recipients(self, c: Campaign) -> list[str]:
        """The addresses ``c`` would go to; 409 if a static recipient may not be emailed."""
        if c.recipient_emails:
            blocked = [f"{e} ({self.state.members[_key(c.list_id, e)].status})" for e in c.recipient_emails
                       if self.state.members[_key(c.list_id, e)].status != "subscribed"]
            if blocked:
                raise Conflict(f"campaign {c.id} names members who may not be emailed: {', '.join(blocked)}; "
                               "remove them with update_campaign.")
            return list(c.recipient_emails)
        return [m.email for m in self.state.members.values() if m.list_id == c.list_id
                and m.status == "subscribed" and (c.segment_tag is None or c.segment_tag in m.tags)]

    def _check_static(self, list_id: str, emails: list[str]) -> None:
        missing = [e for e in emails if _key(list_id, e) not in self.state.members]
        if missing:
            raise Unprocessable(f"not members of {list_id}: {', '.join(missing)}.")

    # ------------------------------------------------------------------ reads
    @tool(read_only=True, returns=list[AudienceList])
    def list_audiences(self) -> list[dict]:
        """List audience lists with member counts per status."""
        out = []
        for lst in self.state.lists.values():
            counts = {s: 0 for s in ("subscribed", "unsubscribed", "cleaned", "pending")}
            for m in self.state.members.values():
                if m.list_id == lst.id:
                    counts[m.status] += 1
            out.append({**lst.model_dump(), "member_counts": counts})
        return out

    @tool(read_only=True, returns=list[Member])
    def list_members(self, list_id: Id("list"), status: Optional[MemberStatus] = None, tag: Optional[str] = None,
                     limit: int = Field(default=100, ge=1, le=500)) -> list[dict]:
        """List a list's members, optionally by status or tag.

        Args:
            list_id: the list, e.g. LST-0001.
            status: only members with this status.
            tag: only members with this tag.
            limit: maximum number of members (1-500).
        """
        self.lookup(self.state.lists, list_id, "list")
        return [m.model_dump() for m in self.state.members.values() if m.list_id == list_id
                and (status is None or m.status == status) and (tag is None or tag in m.tags)][:limit]

    @tool(read_only=True, returns=Member)
    def get_member(self, list_id: Id("list"), email: Email) -> dict:
        """Get one member of a list by email (its consent status and tags).

        Args:
            list_id: the list.
            email: the member's email (case-insensitive).
        """
        return self._member(list_id, email).model_dump()

    @tool(read_only=True, returns=list[Campaign])
    def list_campaigns(self, status: Optional[CampaignStatus] = None,
                       list_id: Optional[Id("list")] = None) -> list[dict]:
        """List campaigns (without recipient lists).

        Args:
            status: only campaigns with this status (save, schedule, sent).
            list_id: only campaigns to this list.
        """
        return [c.model_dump(exclude={"sent_to", "recipient_emails"}) for c in self.state.campaigns.values()
                if (status is None or c.status == status) and (list_id is None or c.list_id == list_id)]

    @tool(read_only=True, returns=Campaign)
    def get_campaign(self, campaign_id: Id("campaign")) -> dict:
        """Get a campaign with its static recipients and, once sent, who got it.

        Args:
            campaign_id: the campaign id, e.g. CMP-0001.
        """
        return self._campaign(campaign_id).model_dump()

    @tool(read_only=True, returns=Report)
    def get_campaign_report(self, campaign_id: Id("campaign")) -> dict:
        """Get the results of a sent campaign (409 if not sent yet).

        Args:
            campaign_id: the campaign.
        """
        c = self._campaign(campaign_id, "sent")
        r = c.report
        return {"campaign_id": c.id, **r.model_dump(),
                "open_rate": round(r.opens / r.emails_sent, 4) if r.emails_sent else 0.0,
                "click_rate": round(r.clicks / r.emails_sent, 4) if r.emails_sent else 0.0}

    # ----------------------------------------------------------------- writes
    @tool(read_only=False, returns=Member)
    def add_member(self, list_id: Id("list"), email: Email, full_name: PersonName = Field(min_length=1),
                   status: Literal["subscribed", "pending"] = "subscribed",
                   tags: list[str] = Field(default_factory=list)) -> dict:
        """Add a person to a list.

        409 if the email is already on the list; an unsubscribed member must
        re-subscribe themselves and cannot be re-added by the sender.

        Args:
            list_id: the list.
            email: the person's email.
            full_name: the person's name.
            status: subscribed, or pending to send a confirmation first.
            tags: tags to set.
        """
        self.lookup(self.state.lists, list_id, "list")
        existing = self.state.members.get(_key(list_id, email))
        if existing is not None:
            hint = (" They unsubscribed; only they can re-subscribe." if existing.status == "unsubscribed" else "")
            raise Conflict(f"{email} is already on {list_id} with status {existing.status}.{hint}")
        m = Member(list_id=list_id, email=email, full_name=full_name, status=status,
                   tags=list(dict.fromkeys(tags)), opted_in_on=self.today)
        self.state.members[_key(list_id, email)] = m
        return m.model_dump()

    @tool(read_only=False, returns=Member)
    def update_member_tags(self, list_id: Id("list"), email: Email,
                           add_tags: list[str] = Field(default_factory=list),
                           remove_tags: list[str] = Field(default_factory=list)) -> dict:
        """Add or remove tags on a member.

        Args:
            list_id: the list.
            email: the member's email.
            add_tags: tags to add.
            remove_tags: tags to remove.
        """
        m = self._member(list_id, email)
        if not add_tags and not remove_tags:
            raise InvalidArgument("nothing to update: give add_tags or remove_tags.")
        m.tags = [t for t in m.tags if t not in remove_tags] + [t for t in dict.fromkeys(add_tags)
                                                                 if t not in m.tags]
        return m.model_dump()

    @tool(read_only=False, returns=Member)
    def unsubscribe_member(self, list_id: Id("list"), email: Email) -> dict:
        """Unsubscribe a member (e.g. on their request); they get no further campaigns.

        Args:
            list_id: the list.
            email: the member's email.
        """
        m = self._member(list_id, email)
        if m.status == "unsubscribed":
            raise Conflict(f"{email} is already unsubscribed from {list_id}.")
        m.status, m.unsubscribed_on = "unsubscribed", self.today
        return m.model_dump()

    @tool(read_only=False, returns=Campaign)
    def create_campaign(self, list_id: Id("list"), title: str = Field(min_length=1, max_length=200),
                        subject_line: str = Field(min_length=1, max_length=150),
                        from_name: str = Field(min_length=1, max_length=100), reply_to: Email = Field(min_length=3),
                        created_by: Email = Field(min_length=3), segment_tag: Optional[str] = None,
                        recipient_emails: list[Email] = Field(default_factory=list)) -> dict:
        """Create a draft campaign (status 'save') to a list, a tag segment or named members.

        Args:
            list_id: the audience list.
            title: internal title.
            subject_line: email subject.
            from_name: sender name.
            reply_to: reply-to address.
            created_by: marketer creating it.
            segment_tag: only subscribed members with this tag.
            recipient_emails: static segment of list members (each must be subscribed, else 409).
        """
        self.lookup(self.state.lists, list_id, "list")
        if segment_tag and recipient_emails:
            raise InvalidArgument("give segment_tag or recipient_emails, not both.")
        self._check_static(list_id, recipient_emails)
        c = Campaign(id=self.new_id("CMP"), title=title, subject_line=subject_line, from_name=from_name,
                     reply_to=reply_to, list_id=list_id, segment_tag=segment_tag,
                     recipient_emails=list(dict.fromkeys(recipient_emails)), status="save", created_by=created_by)
        self._recipients(c)
        self.state.campaigns[c.id] = c
        return c.model_dump()

    @tool(read_only=False, returns=Campaign)
    def update_campaign(self, campaign_id: Id("campaign"), subject_line: Optional[str] = None,
                        segment_tag: Optional[str] = None, recipient_emails: Optional[list[Email]] = None) -> dict:
        """Edit a draft campaign's subject, tag segment or static recipients (409 unless draft).

        Args:
            campaign_id: the draft campaign.
            subject_line: new subject.
            segment_tag: new tag segment ('' clears it).
            recipient_emails: new static recipients ([] clears them).
        """
        c = self._campaign(campaign_id, "save")
        if subject_line is None and segment_tag is None and recipient_emails is None:
            raise InvalidArgument("nothing to update: give subject_line, segment_tag or recipient_emails.")
        if subject_line is not None:
            c.subject_line = subject_line
        if segment_tag is not None:
            c.segment_tag = segment_tag or None
        if recipient_emails is not None:
            self._check_static(c.list_id, recipient_emails)
            c.recipient_emails = list(dict.fromkeys(recipient_emails))
        if c.segment_tag and c.recipient_emails:
            raise InvalidArgument("a campaign has a segment_tag or recipient_emails, not both.")
        return c.model_dump()

    @tool(read_only=False, returns=Campaign)
    def schedule_campaign(self, campaign_id: Id("campaign"), schedule_time: DateTime) -> dict:
        """Schedule a draft campaign to send later (409 if it would email someone unsubscribed).

        Args:
            campaign_id: the draft campaign.
            schedule_time: when to send (YYYY-MM-DDTHH:MM:SS), in the future.
        """
        c = self._campaign(campaign_id, "save")
        when = schedule_time.replace(tzinfo=None)
        now = self.now()
        if when <= now:
            raise Unprocessable(f"schedule_time {when} is not in the future (now is {now}).")
        if not self._recipients(c):
            raise Unprocessable(f"campaign {campaign_id} has no subscribed recipients.")
        c.status, c.send_time = "schedule", when
        return c.model_dump()

    @tool(read_only=False, returns=Campaign)
    def unschedule_campaign(self, campaign_id: Id("campaign")) -> dict:
        """Return a scheduled campaign to draft.

        Args:
            campaign_id: the scheduled campaign.
        """
        c = self._campaign(campaign_id, "schedule")
        c.status, c.send_time = "save", None
        return c.model_dump()

    @tool(read_only=False, returns=Campaign)
    def send_campaign(self, campaign_id: Id("campaign")) -> dict:
        """Send a draft or scheduled campaign now to its subscribed recipients.

        409 if already sent or if a named recipient is not subscribed; 422 if
        nobody would receive it.

        Args:
            campaign_id: the campaign to send.
        """
        c = self._campaign(campaign_id, "save", "schedule")
        to = self._recipients(c)
        if not to:
            raise Unprocessable(f"campaign {campaign_id} has no subscribed recipients.")
        c.status, c.send_time, c.sent_to = "sent", self.now(), to
        c.report = Report(emails_sent=len(to), opens=0, clicks=0, unsubscribes=0)
        return c.model_dump()

    # ------------------------------------------------------------------ seeds
    @classmethod
    def build_seed_state(cls, fake: Faker, rng: random.Random, today: dt.date) -> MarketingState:
        state = MarketingState()
        marketer = staff_of("customer_success")[0].email
        specs = (("Acme Store Newsletter", "You bought from or signed up at the Acme online store.",
                  [(c.name, c.email) for c in CUSTOMERS], ("furniture", "electronics", "vip")),
                 ("Business Customers", "You are a contact at an Acme business account.",
                  [(a.contact_name, a.contact_email) for a in ACCOUNTS], ("enterprise", "renewal-2026", "beta")),
                 ("Product Beta Program", "You joined the Acme beta programme.",
                  [(n, email_for(n, fake.free_email_domain())) for n in (fake.name() for _ in range(6))],
                  ("beta", "mobile")))
        for n, (name, why, people, tags) in enumerate(specs, start=1):
            lid = f"LST-{n:04d}"
            state.lists[lid] = AudienceList(id=lid, name=name, company="Acme Inc.", from_email=f"news@{DOMAIN}",
                                            permission_reminder=why, created_on=today - dt.timedelta(days=400 - n))
            for k, (person, email) in enumerate(people):
                status = rng.choices(("subscribed", "unsubscribed", "cleaned", "pending"), (70, 18, 6, 6))[0]
                if n == 2 and k == 2:  # the renewal draft below names this opted-out contact
                    status = "unsubscribed"
                joined = today - dt.timedelta(days=rng.randint(20, 380))
                state.members[_key(lid, email)] = Member(
                    list_id=lid, email=email, full_name=person, status=status,
                    tags=sorted(rng.sample(tags, rng.randint(0, 2))), opted_in_on=joined,
                    unsubscribed_on=(joined + dt.timedelta(days=rng.randint(1, 19))
                                     if status == "unsubscribed" else None))
        start = dt.datetime.combine(today, DAY_START)
        drafts = (("LST-0001", "December gift guide", "Gifts for the home office", "sent", None),
                  ("LST-0002", "Q4 product update", "What shipped in Q4", "sent", None),
                  ("LST-0001", "Winter furniture sale", "20% off furniture this week", "schedule", "furniture"),
                  ("LST-0002", "Renewal webinar invite", "Join our 2026 roadmap webinar", "save", None),
                  ("LST-0003", "Beta feedback survey", "Tell us about the new mobile app", "save", "beta"))
        for n, (lid, title, subject, status, tag) in enumerate(drafts, start=1):
            cid = f"CMP-{n:04d}"
            c = Campaign(id=cid, title=title, subject_line=subject, from_name="Acme", reply_to=f"news@{DOMAIN}",
                         list_id=lid, segment_tag=tag, status=status, created_by=marketer)
            if status == "sent":
                c.send_time = start - dt.timedelta(days=20 + 5 * n)
                day = c.send_time.date()
                got = [m for m in state.members.values() if m.list_id == lid and m.opted_in_on <= day and
                       (m.status == "subscribed" or (m.unsubscribed_on and m.unsubscribed_on > day))]
                c.sent_to = [m.email for m in got]
                sent = len(got)
                c.report = Report(emails_sent=sent, opens=rng.randint(sent // 4, sent // 2 + 1) if sent else 0,
                                  clicks=rng.randint(0, sent // 4) if sent else 0,
                                  unsubscribes=sum(m.status == "unsubscribed" for m in got))
            elif status == "schedule":
                c.send_time = start + dt.timedelta(days=2, hours=1)
            if title.startswith("Renewal"):  # a static segment naming every contact, unsubscribed ones too
                c.recipient_emails = [m.email for m in state.members.values() if m.list_id == lid][:6]
            state.campaigns[cid] = c
        state.counters["CMP"] = len(drafts) + 1
        return state
