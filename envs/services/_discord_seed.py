"""Seed of the discord service: the store's community server and its partner server.

Members are the shared rosters: the store's customers (``_commerce.CUSTOMERS``)
and staff (``_company.STAFF``) in the community server, the business accounts'
contacts (``_accounts.ACCOUNTS``) in the partner server. Help-desk forum posts
are written by the customers of the shared order book about their own orders
(same order ids, products and statuses as the orders service).
"""

from __future__ import annotations

import datetime as dt
import random
import re
from typing import Optional

from faker import Faker

from compoworld_gym.envs.services._accounts import ACCOUNTS
from compoworld_gym.envs.services._commerce import CUSTOMERS, PRODUCTS, PRODUCTS_BY_SKU, order_book
from compoworld_gym.envs.services._company import STAFF
from compoworld_gym.envs.services._discord_models import (
    Channel, DiscordState, Emoji, ForumPost, ForumTag, Guild, GuildMember, Message, Reaction, Role, User,
    Webhook, snowflake,
)
from compoworld_gym.envs.services._discord_rules import webhook_token

#: The configured bot token (what ``discord_login`` accepts).
BOT_TOKEN = "MTQ2MTI4Mzc2OTU0ODgwMDAwNw.GbQx3k.acme-helper-bot-token-2026"
BOT_NAME = "acme_helper"
COMMUNITY, PARTNERS = "Acme Store Community", "Acme Partners"
SUPPORT_FORUM = "help-desk"
#: Staff-only channels of the community server (where escalations are posted).
STAFF_CHANNELS = ("mod-escalations", "refund-requests", "bug-triage", "community-team")
RESOLVED = "Resolved"
_HELP_TAGS = ("Order issue", "Shipping", "Refund", "Product question", RESOLVED)


def username_of(name: str) -> str:
    """The Discord username a person called ``name`` uses (lower-case letters, digits, '.')."""
    return re.sub(r"[^a-z0-9.]", "", name.lower().replace(" ", "."))


class _Seeder:
    """Builds the state in creation order, numbering snowflakes as the service goes on."""

    def __init__(self, today: dt.date, rng: random.Random) -> None:
        self.state, self.today, self.rng = DiscordState(), today, rng
        self.state.counters["SNOWFLAKE"] = 1

    def sid(self, at: dt.datetime) -> str:
        n = self.state.counters["SNOWFLAKE"]
        self.state.counters["SNOWFLAKE"] = n + 1
        return snowflake(at, n)

    def at(self, days_ago: int) -> dt.datetime:
        return dt.datetime.combine(self.today - dt.timedelta(days=days_ago),
                                   dt.time(self.rng.randint(8, 21), self.rng.randint(0, 59)))

    def user(self, name: str, bot: bool = False) -> str:
        uid = self.sid(self.at(self.rng.randint(500, 1500)))
        self.state.users[uid] = User(id=uid, username=BOT_NAME if bot else username_of(name), global_name=name,
                                     bot=bot)
        return uid

    def channel(self, gid: str, kind: str, name: str, pos: int, parent: Optional[str] = None,
                topic: Optional[str] = None, tags: tuple[str, ...] = ()) -> str:
        at = self.at(300 - pos)
        cid = self.sid(at)
        self.state.channels[cid] = Channel(id=cid, guild_id=gid, type=kind, name=name, position=pos, parent_id=parent,
                                           topic=topic, created_at=at,
                                           available_tags=[ForumTag(id=self.sid(at), name=t) for t in tags])
        return cid

    def message(self, cid: str, gid: str, author: str, content: str, days_ago: int,
                reactions: tuple[tuple[str, tuple[str, ...]], ...] = (), mid: Optional[str] = None,
                at: Optional[dt.datetime] = None, webhook: Optional[Webhook] = None) -> str:
        at = at or self.at(days_ago)
        mid = mid or self.sid(at)
        name = webhook.name if webhook else self.state.users[author].global_name or self.state.users[author].username
        self.state.messages[mid] = Message(
            id=mid, channel_id=cid, guild_id=gid, author_id=webhook.id if webhook else author, author_name=name,
            content=content, created_at=at, webhook_id=webhook.id if webhook else None,
            reactions=[Reaction(emoji=e, user_ids=list(who)) for e, who in reactions])
        return mid

    def post(self, forum: str, gid: str, author: str, title: str, content: str, days_ago: int, tags: list[str],
             replies: tuple[tuple[str, str], ...] = (), closed: bool = False) -> str:
        at = self.at(days_ago)
        pid = self.sid(at)
        self.state.posts[pid] = ForumPost(id=pid, guild_id=gid, parent_id=forum, name=title, owner_id=author,
                                          applied_tags=tags + ([RESOLVED] if closed else []), archived=closed,
                                          locked=closed, created_at=at)
        self.message(pid, gid, author, content, days_ago, mid=pid, at=at)
        for n, (who, text) in enumerate(replies, start=1):
            self.message(pid, gid, who, text, 0, at=at + dt.timedelta(hours=2 * n + self.rng.randint(0, 1)))
        return pid

    def webhook(self, gid: str, cid: str, name: str, by: str) -> Webhook:
        at = self.at(200)
        wid = self.sid(at)
        avatar = f"https://cdn.company.example/avatars/{name.lower().replace(' ', '-')}.png"
        hook = Webhook(id=wid, token=webhook_token(wid), guild_id=gid, channel_id=cid, name=name, created_by=by,
                       created_at=at, avatar=avatar)
        self.state.webhooks[wid] = hook
        return hook


def _help_posts(s: _Seeder, gid: str, forum: str, people: dict[str, str], staff: list[str]) -> None:
    """Customers' help-desk posts about their own orders of the shared book."""
    book = {o.id: o for o in order_book(s.today)}
    name = lambda sku: PRODUCTS_BY_SKU[sku].name  # noqa: E731
    rows = (
        ("ORD-0001", "Standing desk frame wobbles", "The {p} from order {o} wobbles at full height even with "
         "every bolt tight. Is there a stabiliser kit?", ["Product question"], False, 0),
        ("ORD-0003", "Where is my webcam?", "Order {o} shows fulfilled for days but the tracking has not moved. "
         "Can someone check the parcel?", ["Shipping", "Order issue"], False, 1),
        ("ORD-0008", "Payment stuck on pending", "My order {o} has been pending since checkout and the {p} is "
         "still not shipped. Was the card declined?", ["Order issue"], False, 0),
        ("ORD-0011", "Refund for returned keyboard", "I returned order {o} ({p}). Has the refund gone through?",
         ["Refund"], True, 1),
        ("ORD-0004", "Chair arrived with a scuffed base", "The {p} in order {o} came with a scuffed base. "
         "Photos attached, what are my options?", ["Order issue"], False, 2),
    )
    for oid, title, body, tags, closed, helper in rows:
        order = book[oid]
        author = people[order.customer.name]
        days = max(1, (s.today - order.placed_on).days - s.rng.randint(1, 5))
        first = staff[helper % len(staff)]
        replies = [(first, f"Thanks for the report about {oid}, looking into it now.")]
        if closed:
            replies.append((first, f"The refund for {oid} was issued; marking this resolved."))
        s.post(forum, gid, author, title, body.format(o=oid, p=name(order.lines[0].sku)), days, tags,
               tuple(replies), closed)


def _community(s: _Seeder, bot: str, people: dict[str, str], staff_ids: dict[str, str]) -> None:
    support = [staff_ids[x.name] for x in STAFF if x.team in ("support", "customer_success")]
    owner = staff_ids["Luis Ortega"]
    gid = s.sid(s.at(900))
    roles = [Role(id=s.sid(s.at(899)), name=n, color=c) for n, c in
             (("Staff", "#E67E22"), ("Moderator", "#3498DB"), ("Customer", "#2ECC71"), ("Bots", "#95A5A6"))]
    members = [GuildMember(user_id=bot, roles=["Bots"], joined_at=s.at(880))]
    mods = ("Luis Ortega", "Jamal Wright")
    members += [GuildMember(user_id=uid, roles=["Staff", "Moderator"] if name in mods else ["Staff"],
                            joined_at=s.at(700 - 10 * n)) for n, (name, uid) in enumerate(staff_ids.items())]
    members += [GuildMember(user_id=uid, roles=["Customer"], joined_at=s.at(400 - 20 * n))
                for n, uid in enumerate(people.values())]
    s.state.guilds[gid] = Guild(id=gid, name=COMMUNITY, description="Official community of the Acme online store: "
                                "product talk, setup photos and help with orders.", owner_id=owner,
                                created_at=s.at(900), roles=roles, members=members,
                                emojis=[Emoji(id=s.sid(s.at(850)), name=n) for n in ("acme_heart", "shipit")])
    info, comm, supp, staff = (s.channel(gid, "category", n, p) for p, n in
                               enumerate(("INFORMATION", "COMMUNITY", "SUPPORT", "STAFF")))
    news = s.channel(gid, "text", "announcements", 0, info, "Product launches and store news.")
    s.channel(gid, "text", "rules", 1, info, "Be kind. No order numbers with payment details.")
    general = s.channel(gid, "text", "general", 0, comm, "Chat about anything desk-related.")
    s.channel(gid, "text", "show-your-setup", 1, comm, "Photos of your workspace.")
    feedback = s.channel(gid, "forum", "product-feedback", 2, comm, "Ideas and bugs, one post per idea.",
                         ("Feature request", "Praise", "Bug"))
    forum = s.channel(gid, "forum", SUPPORT_FORUM, 0, supp, "One post per order problem; quote your order id.",
                      _HELP_TAGS)
    chat = s.channel(gid, "text", "support-chat", 1, supp, "Quick questions; order problems go to #help-desk.")
    staff_rooms = {n: s.channel(gid, "text", n, p, staff, "Staff only.") for p, n in enumerate(STAFF_CHANNELS)}
    release = s.webhook(gid, news, "Release Notes", owner)
    s.webhook(gid, chat, "Status Updates", owner)
    fans = list(people.values())
    heart = "acme_heart:" + s.state.guilds[gid].emojis[0].id
    for n, product in enumerate(s.rng.sample(PRODUCTS, 2)):
        s.message(news, gid, owner, f"New in store: the {product.name} ({product.sku}) at ${product.price:.2f}.",
                  20 - 8 * n, (("🎉", tuple(s.rng.sample(fans, 3))), (heart, (fans[n],))), webhook=release)
    for n, line in enumerate(("Anyone tried the standing desk with a 4K monitor arm?",
                              "Mine works fine, the frame is rock solid.", "Gel pens are back in stock!")):
        s.message(general, gid, fans[(n * 3) % len(fans)], line, 9 - 3 * n, (("👍", (fans[(n + 1) % len(fans)],)),))
    s.message(chat, gid, fans[4], "Do you ship to Canada?", 3)
    s.message(chat, gid, support[0], "Not yet, only US, Germany and France for now.", 3)
    s.message(staff_rooms["mod-escalations"], gid, owner, "Reminder: escalate order disputes here with the order id.",
              15)
    _help_posts(s, gid, forum, people, support)
    s.post(feedback, gid, fans[2], "Darker colour for the felt desk mat", "Would love the Felt Desk Mat in charcoal.",
           12, ["Feature request"], ((support[0], "Passed on to the product team, thanks!"),))


def _partners(s: _Seeder, bot: str, staff_ids: dict[str, str]) -> None:
    owner = staff_ids["Jamal Wright"]
    contacts = {a.company: s.user(a.contact_name) for a in ACCOUNTS}
    gid = s.sid(s.at(600))
    s.state.guilds[gid] = Guild(
        id=gid, name=PARTNERS, description="Private server for business customers and their account managers.",
        owner_id=owner, created_at=s.at(600), roles=[Role(id=s.sid(s.at(600)), name="Partner", color="#9B59B6"),
                                                     Role(id=s.sid(s.at(600)), name="Account Manager")],
        members=[GuildMember(user_id=bot, roles=[], joined_at=s.at(590))]
        + [GuildMember(user_id=staff_ids[x.name], roles=["Account Manager"], joined_at=s.at(580))
           for x in STAFF if x.team == "customer_success"]
        + [GuildMember(user_id=uid, nick=f"{s.state.users[uid].global_name} ({company})", roles=["Partner"],
                       joined_at=s.at(500 - 15 * n)) for n, (company, uid) in enumerate(contacts.items())])
    cat = s.channel(gid, "category", "PARTNERS", 0)
    news = s.channel(gid, "text", "partner-announcements", 0, cat, "Price lists and programme news.")
    s.channel(gid, "text", "general", 1, cat)
    forum = s.channel(gid, "forum", "integration-help", 2, cat, "Ordering API and invoicing questions.",
                      ("API", "Billing", "Onboarding", RESOLVED))
    s.webhook(gid, news, "Partner Feed", owner)
    s.message(news, gid, owner, "Volume pricing for 2026 is live: 8% off orders above $5,000.", 25)
    s.post(forum, gid, contacts["Initech"], "API key for the ordering integration",
           "Our old API key stopped working after the migration. Who can issue a new one?", 6, ["API"],
           ((owner, "I have asked engineering, you will hear back today."),))
    s.post(forum, gid, contacts["Globex Corporation"], "Invoice address change",
           "Please send invoices to accounts payable from February on.", 14, ["Billing"],
           ((owner, "Updated on our side."),), closed=True)


def build_state(fake: Faker, rng: random.Random, today: dt.date) -> DiscordState:
    """The bot, two servers, their channels, forum posts, messages, reactions and webhooks."""
    s = _Seeder(today, rng)
    bot = s.user("Acme Helper", bot=True)
    s.state.session.user_id, s.state.session.token = bot, BOT_TOKEN
    staff_ids = {x.name: s.user(x.name) for x in STAFF}
    people = {c.name: s.user(c.name) for c in CUSTOMERS}
    _community(s, bot, people, staff_ids)
    _partners(s, bot, staff_ids)
    return s.state
