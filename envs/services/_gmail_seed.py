"""Seed mailbox of the gmail service: labels and realistic support and internal threads.

Customers are Faker people; colleagues come from the fixed company roster
(:mod:`._company`), so their addresses match the other office services.
"""

from __future__ import annotations

import datetime as dt
import random
from typing import Any

from faker import Faker

from compoworld_gym.envs.services._common import email_for
from compoworld_gym.envs.services._company import OPS_EMAIL, STAFF, TEAMS
from compoworld_gym.envs.services._gmail_models import SYSTEM_LABELS, Draft, GmailState, Label, LabelColor, Message

_BY_NAME = {s.name: s for s in STAFF}


class _Box:
    """Accumulates seed messages with sequential ids and thread ids."""

    def __init__(self, rng: random.Random, today: dt.date, owner: str) -> None:
        self.rng, self.today, self.owner = rng, today, owner
        self.messages: list[dict[str, Any]] = []
        self.threads = 0

    def when(self, days_ago: int) -> dt.datetime:
        return dt.datetime.combine(self.today - dt.timedelta(days=days_ago),
                                   dt.time(self.rng.randint(7, 18), self.rng.choice((0, 12, 25, 41, 53))))

    def thread(self) -> str:
        self.threads += 1
        return f"THR-{self.threads:04d}"

    def add(self, thread: str, sender: str, subject: str, body: str, labels: list[str], date: dt.datetime,
            to: list[str] | None = None, cc: list[str] | None = None) -> None:
        self.messages.append({
            "id": f"MSG-{len(self.messages) + 1:04d}", "thread_id": thread, "sender": sender,
            "to": to or [self.owner], "cc": cc or [], "subject": subject, "body": body,
            "label_ids": labels, "date": date})


def _customer(fake: Faker) -> tuple[str, str]:
    name = fake.name()
    return name, email_for(name, fake.free_email_domain())


def _customer_threads(box: _Box, fake: Faker, rng: random.Random) -> None:
    name, addr = _customer(fake)
    inv = f"INV-{rng.randint(1000, 9999)}"
    t = box.thread()
    box.add(t, addr, f"Invoice {inv} marked overdue but already paid",
            f"Hello,\n\nI received a reminder that invoice {inv} (${rng.randint(120, 900)}.00) is overdue, but "
            f"I paid it on {(box.today - dt.timedelta(days=12)).isoformat()}. Please check and confirm.\n\n{name}",
            ["INBOX", "UNREAD", "IMPORTANT", "LBL-0001"], box.when(2))

    name, addr = _customer(fake)
    order, amount = rng.randint(100000, 999999), rng.choice((180, 340, 620, 880, 1250))
    t = box.thread()
    box.add(t, addr, f"Refund request for order #{order}",
            f"Hi, the blender from order #{order} arrived broken. I would like a full refund of ${amount}.00 "
            f"to my card.\n\nThanks,\n{name}", ["INBOX"], box.when(6))
    box.add(t, box.owner, f"Re: Refund request for order #{order}",
            f"Hi {name.split()[0]}, thanks for the photos. We are reviewing the refund and will reply shortly.",
            ["SENT"], box.when(5), to=[addr])
    box.add(t, addr, f"Re: Refund request for order #{order}",
            f"Any news on my refund of ${amount}.00? It has been several days.\n\n{name}",
            ["INBOX", "UNREAD"], box.when(1))

    name, addr = _customer(fake)
    order, track = rng.randint(100000, 999999), f"1Z{rng.randint(10**15, 10**16 - 1)}"
    box.add(box.thread(), addr, f"Where is my package? Order #{order}",
            f"My order #{order} was promised {rng.randint(6, 9)} days ago. Tracking {track} has not moved. "
            f"Can you help?\n\n{name}", ["INBOX", "UNREAD"], box.when(1))

    name, addr = _customer(fake)
    box.add(box.thread(), addr, "Locked out of my account",
            f"I tried to log in several times and now my account is locked. My username is "
            f"{fake.user_name()}. Please unlock it.\n\n{name}", ["INBOX"], box.when(3))

    name, addr = _customer(fake)
    box.add(box.thread(), addr, "Please delete my personal data",
            f"Under GDPR I request deletion of all personal data you hold about me ({addr}).\n\n{name}",
            ["INBOX", "UNREAD", "IMPORTANT"], box.when(4))


def _internal_threads(box: _Box, fake: Faker, rng: random.Random) -> None:
    priya, elena = _BY_NAME["Priya Raman"], _BY_NAME["Elena Petrova"]
    jamal, hannah = _BY_NAME["Jamal Wright"], _BY_NAME["Hannah Kovacs"]
    invoices = ", ".join(f"INV-{rng.randint(1000, 9999)}" for _ in range(3))
    box.add(box.thread(), priya.email, "Weekly overdue invoices report",
            f"Team, these invoices are past due this week: {invoices}. Follow the overdue billing rule in the "
            f"operations manual.\n\n{priya.name}", ["INBOX", "LBL-0001"], box.when(7))
    box.add(box.thread(), elena.email, "Refund approvals this week",
            f"Reminder: large refunds need approval from {TEAMS['finance'].email} before payment.\n\n{elena.name}",
            ["INBOX", "STARRED"], box.when(8))
    company = fake.company()
    box.add(box.thread(), jamal.email, f"VIP renewal: {company}",
            f"{company} renews next month; please keep {hannah.name} in the loop on any ticket from them.\n\n"
            f"{jamal.name}", ["INBOX", "UNREAD", "LBL-0002"], box.when(2), cc=[hannah.email])
    vendor = fake.company()
    vendor_addr = f"rates@{vendor.split()[0].lower().strip(',')}-freight.example"
    box.add(box.thread(), vendor_addr, "Updated carrier rates for next quarter",
            f"Dear customer, attached are the updated rates from {vendor}. Ground shipping rises by "
            f"{rng.randint(2, 6)}%.", ["INBOX", "LBL-0003"], box.when(9))
    order = rng.randint(100000, 999999)
    box.add(box.thread(), box.owner, f"Carrier claim for order #{order}",
            f"Please file a carrier claim for order #{order}: no scan for 11 days.",
            ["SENT"], box.when(5), to=[TEAMS["logistics"].email])
    box.add(box.thread(), f"promo@{fake.domain_word()}-deals.example", "You have won a $500 gift card!!!",
            "Click here to claim your prize.", ["SPAM", "UNREAD"], box.when(3))
    box.add(box.thread(), f"news@{fake.domain_word()}.example", "Your monthly newsletter",
            "This month's product updates.", ["TRASH"], box.when(10))


def seed_mailbox(fake: Faker, rng: random.Random, today: dt.date, owner: str
                 ) -> tuple[list[dict], list[dict], dict[str, int]]:
    """Seed messages, drafts and id counters for the mailbox of ``owner``.

    Returns:
        ``(messages, drafts, counters)``: message and draft field dicts, and
        the next number for the ``MSG``, ``THR`` and ``DRF`` id prefixes.
    """
    box = _Box(rng, today, owner)
    _customer_threads(box, fake, rng)
    _internal_threads(box, fake, rng)
    refund = box.messages[1]
    drafts = [
        {"id": "DRF-0001", "thread_id": refund["thread_id"], "to": [refund["sender"]], "cc": [], "bcc": [],
         "subject": refund["subject"] if refund["subject"].startswith("Re:") else f"Re: {refund['subject']}",
         "body": "Hi, your refund has been approved and will reach your card in 5-7 business days.",
         "updated_at": box.when(1)},
        {"id": "DRF-0002", "thread_id": None, "to": [], "cc": [], "bcc": [], "subject": "Notes for Q1 review",
         "body": "Ideas: faster refund approvals; fewer overdue invoices.", "updated_at": box.when(4)},
    ]
    counters = {"MSG": len(box.messages) + 1, "THR": box.threads + 1, "DRF": 3}
    return box.messages, drafts, counters


def seed_gmail(fake: Faker, rng: random.Random, today: dt.date) -> GmailState:
    """The operations mailbox: the system labels, four coloured user labels and the seed threads and drafts.

    Args:
        fake: the seeded Faker for customers' names and text.
        rng: the seeded generator behind :func:`seed_mailbox`.
        today: the task's date; mail is dated before it.
    """
    state = GmailState()
    for lid in SYSTEM_LABELS:
        state.labels[lid] = Label(id=lid, name=lid, type="system")
    for i, (name, bg) in enumerate((("Billing", "#fb4c2f"), ("Escalations", "#ffad47"),
                                    ("Vendors", "#16a766"), ("Follow-up", "#4a86e8")), start=1):
        lid = f"LBL-{i:04d}"
        state.labels[lid] = Label(id=lid, name=name, type="user",
                                  color=LabelColor(textColor="#ffffff", backgroundColor=bg))
    state.counters["LBL"] = 5
    messages, drafts, counters = seed_mailbox(fake, rng, today, OPS_EMAIL)
    state.messages = {m["id"]: Message(**m) for m in messages}
    state.drafts = {d["id"]: Draft(**d) for d in drafts}
    state.counters.update(counters)
    return state
