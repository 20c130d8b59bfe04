"""Gmail in chained tasks: a customer's mail quotes their order; a memo in the
mailbox can hold a policy; the case's people are emailed."""

from __future__ import annotations

from typing import Any

from compoworld_gym.checks import OnlyChanged, RecordExists
from compoworld_gym.envs.services._gmail_models import Message
from compoworld_gym.generation.context import Ctx, call
from compoworld_gym.generation.links import (
    Action, Found, Give, Need, Reader, Relay, RuleHolder, ServiceLinks, SolveError, Write, latest,
)

ORDER_RX = r"ORD-\d{4,}"


def plant_message(state: dict[str, Any], sender: str, subject: str, body: str, date: str,
                  labels: tuple[str, ...] = ("INBOX", "UNREAD")) -> str:
    """Add an inbound :class:`Message` (validated, its own thread); returns the id.
    Shared by hooks and built-in tasks."""
    n, t = state["counters"].get("MSG", 1), state["counters"].get("THR", 1)
    mid, tid = f"MSG-{n:04d}", f"THR-{t:04d}"
    state["counters"]["MSG"], state["counters"]["THR"] = n + 1, t + 1
    msg = Message(id=mid, thread_id=tid, sender=sender, to=[state["email_address"]], subject=subject, body=body,
                  label_ids=list(labels), date=date)
    state["messages"][mid] = msg.model_dump(mode="json")
    return mid


def _plant_mail(ctx: Ctx, key: Any, outs: dict[str, Any], stale: bool) -> str:
    order = outs.get("order_id", "")
    when = ctx.at(-9 if stale else -1, 11 if stale else 15)
    body = (f"Hello, this is about my order {order}. It has not been resolved yet; please help.\n\n{key}"
            if not stale else f"Hello, a while ago I asked about order {order}. Never mind, it is solved.\n\n{key}")
    return plant_message(ctx.state("gmail"), outs.get("email", ctx.person()[1]),
                         f"{'Resolved' if stale else 'Problem'} with my order", body, when)


def _find_mail(reader: Reader, key: Any) -> dict[str, Any]:
    rows = reader.read("gmail", "list_messages", q=f'"{key}"', maxResults=20)["messages"]
    msg = latest(rows, "date")
    return reader.read("gmail", "get_message", id=msg["id"])


CUSTOMER_MAIL = Relay(
    service="gmail", name="customer's email", key="person_name",
    gives=(Give("email", "sender", "the customer's email address", "the customer"),
           Give("order_id", "body", "the order the customer writes about", pattern=ORDER_RX)),
    plant=_plant_mail, find=_find_mail,
    where="The customer's latest email in the mailbox says which order this is about.",
    truth="When the customer wrote more than once, the most recent email wins.",
    entry=lambda key: f"the latest email from {key}")


def _plant_memo(ctx: Ctx, topic: str, text: str, stale: bool) -> str:
    return plant_message(ctx.state("gmail"), "operations@company.example", f"Policy: {topic}", text,
                         ctx.at(-40 if stale else -3, 9), labels=("INBOX",))


def _find_memo(reader: Reader, topic: str) -> str:
    rows = reader.read("gmail", "list_messages", q=f'subject:"{topic}"', maxResults=20)["messages"]
    if not rows:
        raise SolveError(f"no memo about {topic!r}")
    return reader.read("gmail", "get_message", id=latest(rows, "date")["id"])["body"]


MEMO = RuleHolder(service="gmail", plant=_plant_memo, find=_find_memo,
                  where="The '{topic}' policy is a memo from operations in the mailbox; the most recent memo wins.")


def _send(reader: Reader, args: dict[str, Found]) -> Write:
    to, mention, case = args["to"].value, args["mention"], args["case"].value
    subject = f"Update on {case}"
    body = f"Hello,\n\nAbout {case}: {mention.noun} is {mention.display}.\n\nBest regards,\nOperations"
    where = {"label_ids": {"$contains": "SENT"}, "to": {"$contains": to}, "body": {"$contains": mention.display}}
    return Write(
        calls=[call("send_message", to=[to], subject=subject, body=body)],
        checks=[RecordExists(id="_", service="gmail", collection="messages", where=where,
                             description="The right person got an email quoting the right value.")],
        scope=[OnlyChanged(id="_", service="gmail", collection="messages",
                           allow_new={"to": {"$subset": [to]}, "cc": {"$subset": []}, "bcc": {"$subset": []}},
                           description="No email went to anyone else.")],
        tool="send_message", where={"to": {"$contains": to}}, label=f"the email to {args['to'].who or 'them'}")


LINKS = ServiceLinks(
    service="gmail", label="the mailbox",
    relays=(CUSTOMER_MAIL,), rules=(MEMO,),
    actions=(Action(service="gmail", name="email", needs=(Need("to", "email"),), build=_send,
                    goal="email {to}, quoting {mention}", routable=True),),
)

__all__ = ["LINKS", "plant_message"]
