"""Seed data of the newsletters service (records in ``_newsletters_models``).

Three audiences of Acme Inc.: the monthly customer newsletter (the shared
store customers of ``_commerce.CUSTOMERS``), the business account updates
(the main contacts of the shared B2B ``_accounts.ACCOUNTS``, their company
in the COMPANY merge field) and events and webinars (a mix of both), each
with a few Faker subscribers; members in every status; segments; and
campaigns sent (with their reports), scheduled and in draft.
"""

from __future__ import annotations

import datetime as dt
import random

from faker import Faker

from compoworld_gym.envs.services._accounts import ACCOUNTS
from compoworld_gym.envs.services._blocks import day_start, fake_person
from compoworld_gym.envs.services._commerce import CUSTOMERS
from compoworld_gym.envs.services._company import DOMAIN
from compoworld_gym.envs.services._newsletters_models import (
    AudienceList, Campaign, CampaignContent, CampaignDefaults, CampaignRecipients, CampaignSettings, ListContact,
    Member, MemberNote, MergeField, NewslettersState, Segment, build_report, member_key, recipients_of, subscriber_hash,
)

#: The audience the store's customers subscribe to (generation hooks plant members there).
MAIN_LIST = "Monthly Customer Newsletter"
SENDER = f"newsletter@{DOMAIN}"
MERGE_FIELDS = (MergeField(tag="FNAME", name="First Name", type="text", required=True),
                MergeField(tag="LNAME", name="Last Name", type="text"),
                MergeField(tag="COMPANY", name="Company", type="text"),
                MergeField(tag="PHONE", name="Phone Number", type="phone"))
_LISTS = ((MAIN_LIST, "You signed up at the Acme online store or bought from us."),
          ("Business Account Updates", "You are the main contact of an Acme business account."),
          ("Events and Webinars", "You registered for an Acme event or webinar."))
#: Statuses of the shared customers on the main list, roster order.
_CUSTOMER_STATUS = ("subscribed", "subscribed", "unsubscribed", "subscribed", "cleaned", "subscribed", "pending",
                    "subscribed", "subscribed", "unsubscribed")
#: Account contacts who left the business list (by account id).
_ACCOUNT_STATUS = {"CUS-0010": "unsubscribed", "CUS-0008": "cleaned"}


def merge_values(name: str, company: str = "", phone: str = "") -> dict[str, str]:
    """FNAME/LNAME (first word, rest; no LNAME for one word) plus COMPANY and PHONE when given."""
    first, _, last = name.partition(" ")
    values = {"FNAME": first, "LNAME": last} if last else {"FNAME": first}
    if company:
        values["COMPANY"] = company
    if phone:
        values["PHONE"] = phone
    return values


def _member(st: NewslettersState, list_id: str, email: str, merge: dict[str, str], status: str,
            opted: dt.datetime, tags: list[str]) -> None:
    reason = "No longer interested" if status == "unsubscribed" else None
    st.members[member_key(list_id, email)] = Member(
        id=subscriber_hash(email), list_id=list_id, email_address=email, status=status, merge_fields=merge,
        tags=tags, timestamp_opt=opted, last_changed=opted + dt.timedelta(days=30 if reason else 0),
        unsubscribe_reason=reason)


def _lists(st: NewslettersState, fake: Faker, today: dt.date) -> list[str]:
    ids = []
    for n, (name, reminder) in enumerate(_LISTS, start=1):
        lid = f"NLS-{n:04d}"
        st.lists[lid] = AudienceList(
            id=lid, name=name, permission_reminder=reminder, merge_fields=list(MERGE_FIELDS),
            contact=ListContact(company="Acme Inc.", address1="100 Market Street", city="San Francisco", country="US"),
            campaign_defaults=CampaignDefaults(from_name="Acme Inc.", from_email=SENDER),
            date_created=day_start(today) - dt.timedelta(days=900 - 200 * n))
        ids.append(lid)
    return ids


def _members(st: NewslettersState, ids: list[str], fake: Faker, rng: random.Random, today: dt.date) -> None:
    main, business, events = ids
    start = day_start(today)
    for k, (c, status) in enumerate(zip(CUSTOMERS, _CUSTOMER_STATUS)):
        tags = sorted({*rng.sample(["electronics", "furniture"], rng.randint(0, 2)), *(["vip"] if k in (0, 8) else [])})
        _member(st, main, c.email, merge_values(c.name), status, start - dt.timedelta(days=rng.randint(60, 700)), tags)
    for a in ACCOUNTS:
        phone = f"+1-{rng.randint(200, 989)}-555-{rng.randint(1000, 9999)}"
        _member(st, business, a.contact_email, merge_values(a.contact_name, a.company, phone),
                _ACCOUNT_STATUS.get(a.id, "subscribed"), start - dt.timedelta(days=rng.randint(90, 800)),
                [a.industry.replace("/", "-")])
    for k, (name, email) in enumerate([(a.contact_name, a.contact_email) for a in ACCOUNTS[:4]]
                                      + [(c.name, c.email) for c in CUSTOMERS[:4]]):
        tags = ["summit-interest"] if k % 2 == 0 else ["webinar-2025"]
        _member(st, events, email, merge_values(name), "subscribed", start - dt.timedelta(days=rng.randint(20, 300)),
                tags)
    for lid in ids:
        for _ in range(2):
            p = fake_person(fake)
            _member(st, lid, p.email, merge_values(p.name), rng.choice(("subscribed", "subscribed", "pending")),
                    start - dt.timedelta(days=rng.randint(5, 400)), [])
    first = st.members[member_key(main, CUSTOMERS[0].email)]
    first.notes.append(MemberNote(id=1, note="Asked for fewer emails in December; moved to monthly only.",
                                  created_at=start - dt.timedelta(days=40)))
    st.counters["NOTE"] = 2


def _segments(st: NewslettersState, ids: list[str], today: dt.date) -> None:
    main, business, events = ids
    start = day_start(today)
    static = [subscriber_hash(a.contact_email) for a in (ACCOUNTS[0], ACCOUNTS[3], ACCOUNTS[6], ACCOUNTS[9])]
    for n, (lid, name, kind, tag, members) in enumerate((
            (main, "VIP customers", "saved", "vip", []),
            (business, "Early access accounts", "static", None, static),
            (events, "Summit prospects", "saved", "summit-interest", [])), start=1):
        sid = f"SEG-{n:04d}"
        st.segments[sid] = Segment(id=sid, list_id=lid, name=name, type=kind, tag=tag, static_members=members,
                                   created_at=start - dt.timedelta(days=50 - n))
    st.counters["SEG"] = 4


_HTML = "<h1>{title}</h1><p>Hello *|FNAME|*, {body}</p><p><a href=\"https://acme.example/{slug}\">Read more</a></p>"
#: (title, subject, list index, segment, status, day offset, has content)
_CAMPAIGNS = (("December Roundup", "Our favourite desk upgrades of the year", 0, None, "sent", -35, True),
              ("January Release Notes", "What's new for your account in January", 1, "SEG-0002", "sent", -9, True),
              ("Customer Summit Webinar", "Join the Customer Summit preview webinar", 2, None, "schedule", 4, True),
              ("February Newsletter", "Fresh picks for February", 0, None, "save", 0, True),
              ("Spring Sale Teaser", "Spring is coming: early sale access", 0, "SEG-0001", "save", 0, False),
              ("Q1 Account Review Invite", "", 1, None, "save", 0, True))


def _campaigns(st: NewslettersState, ids: list[str], today: dt.date) -> None:
    start = day_start(today)
    for n, (title, subject, li, seg, status, offset, content) in enumerate(_CAMPAIGNS, start=1):
        cid = f"NCP-{n:04d}"
        slug = title.lower().replace(" ", "-")
        body = CampaignContent(html=_HTML.format(title=title, body=subject or title, slug=slug),
                               plain_text=f"{title}\n\n{subject or title}\nhttps://acme.example/{slug}"
                               ) if content else CampaignContent()
        camp = Campaign(id=cid, status=status, recipients=CampaignRecipients(list_id=ids[li], segment_id=seg),
                        settings=CampaignSettings(title=title, subject_line=subject, from_name="Acme Inc.",
                                                  reply_to=SENDER, preview_text=subject[:40]),
                        content=body, create_time=start - dt.timedelta(days=abs(offset) + 6))
        if status == "schedule":
            camp.send_time = start + dt.timedelta(days=offset, hours=1)
        if status == "sent":
            camp.send_time = start + dt.timedelta(days=offset, hours=1)
            sent_to = [m.email_address for m in recipients_of(st, camp)]
            camp.emails_sent = len(sent_to)
            st.reports[cid] = build_report(camp, sent_to, camp.send_time)
        st.campaigns[cid] = camp
    st.counters["NCP"] = len(_CAMPAIGNS) + 1


def build_state(fake: Faker, rng: random.Random, today: dt.date) -> NewslettersState:
    """Three audiences (~40 members), three segments, six campaigns (2 sent with reports, 1 scheduled, 3 drafts)."""
    st = NewslettersState()
    ids = _lists(st, fake, today)
    _members(st, ids, fake, rng, today)
    _segments(st, ids, today)
    _campaigns(st, ids, today)
    st.counters["NLS"] = len(ids) + 1
    return st
