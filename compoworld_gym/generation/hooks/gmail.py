"""Task hook of Gmail: senders of inbox mail as facts, sent mail as sinks."""

from __future__ import annotations

from typing import Any

from compoworld_gym.generation.context import Ctx, Fact, SinkStep, call
from compoworld_gym.generation.hooks._base import RecordSource, ServiceHook


def _plant(ctx: Ctx, value: Any, cue: str, opts: dict[str, Any]) -> tuple[str, dict[str, Any]]:
    mid, tid = ctx.new_id("gmail", "MSG"), ctx.new_id("gmail", "THR")
    labels = ["TRASH"] if opts.get("closed") else ["INBOX"]
    if opts.get("rank") == 2:
        labels.append("IMPORTANT")
    name = ctx.first_name()
    return mid, {
        "id": mid, "thread_id": tid, "sender": value, "to": ["ops@company.example"], "cc": [], "bcc": [],
        "subject": f"Question about {cue}", "body": f"Hello,\n\nCould you look into {cue}?\n\n{name}",
        "label_ids": labels, "date": ctx.at(-opts.get("when", 2), 8 + opts.get("rank", 1)),
    }


def _sink_email(ctx: Ctx, fact: Fact) -> SinkStep:
    subject = ctx.unique(f"Update on {ctx.case()}")

    def checks(value: Any) -> list[dict[str, Any]]:
        return [{"kind": "record_exists", "service": "gmail", "collection": "messages",
                 "where": {"subject": {"$ieq": subject}, "to": {"$contains": value}},
                 "description": f"An email '{subject}' went to the right address."}]

    return SinkStep(
        service="gmail", tool="send_message", value_arg="to",
        calls=[call("send_message", to=[fact.value], subject=subject, body=f"Hello, here is the update ({subject}).")],
        phrase=f"email {{ref}} from the ops mailbox with the subject '{subject}'",
        label=f"the '{subject}' email", checks=checks, where={"subject": {"$ieq": subject}}, list_arg=True,
        # One new message, to the one right address: no extra recipients, no CC/BCC, no other mail.
        scope={"messages": {"allow_new": {"subject": {"$ieq": subject}, "to": {"$subset": [fact.value]},
                                          "cc": {"$subset": []}, "bcc": {"$subset": []}}}})


HOOK = ServiceHook(
    service="gmail",
    label="the ops mailbox (Gmail)",
    sources={"email": RecordSource(
        type="email", tool="list_messages", collection="messages", noun="the sender's email address",
        locate="of the email asking about {cue}", plant=_plant,
        read_args=lambda cue: {"q": f'subject:"{cue}"'}, cue=lambda ctx: f"order {ctx.code()}",
        variants=frozenset({"latest", "ranked"}),
        rank_rule="the one marked important", plural="emails")},
    sinks={"email": ("send_message", _sink_email)},
)
