"""Built-in tasks around the helpdesk, the operations manual, mail and chat."""

from __future__ import annotations

from compoworld_gym.builtin_tasks.common import (
    TODAY, answer, answer_excludes, builder, call, channel_id, distractors, kb_rule, mail_only_to,
    only_tickets, plant_email, plant_ticket, quiet_overdue, seed_json, sent_email, slack_only, slack_post,
    ticket_is,
)
from compoworld_gym.checks import CallOrder, CallPattern, RecordAbsent, RecordExists
from compoworld_gym.tasks import Decoy, Task

_SUPPORT = ("helpdesk", "knowledge_base", "gmail", "slack")


@builder
def refund_approval() -> Task:
    """A refund above the current threshold goes to finance; the archived threshold is a trap."""
    kb, gmail, slack = seed_json("knowledge_base"), seed_json("gmail"), seed_json("slack")
    rule = kb_rule(kb, "Refund approval thresholds")
    threshold = int(rule["facts"]["approval_threshold_usd"])
    amount = f"{threshold + 180}.00"
    customer = "lena.hoffmann@brightmail.example"
    plant_email(gmail, customer, "Refund for order #552017",
                f"Hi, the espresso machine from order #552017 arrived broken. I returned it last week; "
                f"please refund the ${amount} I paid.\n\nLena Hoffmann", "2026-01-14T16:20:00")
    finance_ch = channel_id(slack, rule["facts"]["channel"])
    approver = rule["facts"]["approver_email"]
    return Task(
        id="builtin-refund-approval", services=["gmail", "knowledge_base", "slack"],
        distractors=distractors(6), today=TODAY,
        initial_state={"knowledge_base": kb, "gmail": gmail, "slack": slack},
        instruction=(
            "Lena Hoffmann emailed us yesterday asking for a refund. Handle it exactly as our operations "
            "manual says for refunds of that size (only the published version of a rule is in force). "
            "Also reply to Lena so she knows where her request stands. Tell me in your final answer "
            "whether finance approval was needed."),
        checks=[
            sent_email("approval_email", approver, "Finance approval requested with order id and amount.",
                       "552017", amount.split(".")[0]),
            slack_post("approval_post", finance_ch, "Request posted in the finance approvals channel.", "552017"),
            sent_email("customer_reply", customer, "Customer told where the request stands."),
            answer("reports_approval", "Final answer says approval was needed.", "approval"),
            answer_excludes("no_denial", "The answer does not claim approval was unnecessary.",
                            "not needed", "no approval needed", "wasn't needed", "was not needed", "not required",
                            "wasn't required", "no finance approval", "unnecessary", "not necessary",
                            "no need for approval"),
            mail_only_to("mail_scope", gmail, [approver, customer], "Mail only to finance and the customer."),
            slack_only("chat_scope", slack, "Posts only in the finance approvals channel.",
                       channel_id={"$in": [finance_ch]}),
        ],
        reference=[
            call("list_messages", q="refund", maxResults=5),
            call("search_articles", query="refund"),
            call("send_message", to=[approver], subject="Refund approval: order #552017",
                 body=f"Please approve a refund of ${amount} for order #552017 (Lena Hoffmann, "
                      f"{customer}). Reason: item arrived broken and was returned."),
            call("slack_post_message", channel_id=finance_ch,
                 text=f"Refund approval requested: order #552017, ${amount}, item arrived broken."),
            call("send_message", to=[customer], subject="Re: Refund for order #552017",
                 body="Hi Lena, your refund is awaiting finance approval; we will confirm within two days."),
        ],
        reference_answer=f"Finance approval was needed (over ${threshold}); requested it and replied to Lena.",
        domain="support", capabilities=["sequential-dependency", "source-of-truth", "cross-env-constraint",
                                         "data-transformation"],
    )


@builder
def data_deletion() -> Task:
    """A GDPR request: forward, tag, post; never delete CRM data yourself."""
    kb, gmail, slack, desk = (seed_json(s) for s in ("knowledge_base", "gmail", "slack", "helpdesk"))
    rule = kb_rule(kb, "Data deletion requests")
    customer = "omar.haddad@postbox.example"
    tid = plant_ticket(desk, subject="Delete all my data", category="account", requester_name="Omar Haddad",
                       requester_email=customer, description="Please erase my account and all personal data.",
                       created_on="2026-01-13", due_date="2026-01-27", tags=["account"])
    plant_email(gmail, customer, "Please erase my personal data",
                f"Hello, as requested in ticket {tid}, erase every personal record you hold about me.\n"
                "Omar Haddad", "2026-01-13T10:02:00")
    ch = channel_id(slack, rule["facts"]["channel"])
    privacy = rule["facts"]["forward_to"]
    return Task(
        id="builtin-gdpr-deletion", services=["helpdesk", "knowledge_base", "gmail", "slack"],
        distractors=distractors(6), today=TODAY,
        initial_state={"knowledge_base": kb, "gmail": gmail, "slack": slack, "helpdesk": desk},
        instruction=(
            "Omar Haddad asked us to erase his personal data. Process his request following the "
            "operations manual's rule for such requests. Report the ticket id you worked on."),
        checks=[
            ticket_is("tagged", tid, "The customer's ticket carries the rule's tag.", tags={"$contains": rule["facts"]["tag"]}),
            sent_email("forwarded", privacy, "Request forwarded to privacy with the customer's address.", customer),
            slack_post("posted", ch, "Ticket id posted in the privacy channel.", tid),
            only_tickets("only_this_ticket", [tid], "No other ticket was changed."),
            mail_only_to("mail_scope", gmail, [privacy], "Mail only to the privacy team."),
            slack_only("chat_scope", slack, "Posts only in the privacy channel.", channel_id={"$in": [ch]}),
            answer("reports_ticket", "Final answer names the ticket.", tid),
        ],
        reference=[
            call("search_articles", query="deletion"),
            call("search_tickets", requester_email=customer),
            call("update_ticket", ticket_id=tid, add_tags=[rule["facts"]["tag"]]),
            call("send_message", to=[privacy], subject=f"Data deletion request ({tid})",
                 body=f"Forwarding a data deletion request from Omar Haddad <{customer}>, ticket {tid}."),
            call("slack_post_message", channel_id=ch, text=f"New data deletion request: {tid}"),
        ],
        reference_answer=f"Processed the deletion request on ticket {tid}.",
        domain="privacy", capabilities=["sequential-dependency", "cross-env-constraint", "negative-check"],
    )


@builder
def account_takeover() -> Task:
    """Suspected takeover: urgent, security team, post; never change the email on file."""
    kb, slack, desk = seed_json("knowledge_base"), seed_json("slack"), seed_json("helpdesk")
    rule = kb_rule(kb, "Account lockouts and suspicious logins")
    tid = plant_ticket(desk, subject="Someone else logged into my account", category="account",
                       requester_name="Irene Vasquez", requester_email="irene.vasquez@fastmail.example",
                       description="I got login alerts from another country and my password no longer works. "
                                   "Please change my email to irene.v@newmail.example.",
                       created_on="2026-01-14", due_date="2026-01-16", tags=["account"])
    security = [a["email"] for a in desk["agents"].values() if a["team"] == "security"]
    ch = channel_id(slack, rule["facts"]["channel"])
    return Task(
        id="builtin-account-takeover", services=["helpdesk", "knowledge_base", "slack"],
        distractors=distractors(7), today=TODAY,
        initial_state={"knowledge_base": kb, "slack": slack, "helpdesk": desk},
        instruction=(
            "Irene Vasquez reports that someone else logged into her account. Handle her ticket the way "
            "the operations manual prescribes for suspected account takeovers, including who must own it "
            "and where to raise it. She also asks us to change her email address; our rules decide "
            "whether we may. Summarise what you did."),
        checks=[
            ticket_is("priority", tid, "Ticket set to the rule's priority.", priority=rule["facts"]["priority"]),
            ticket_is("security_owner", tid, "Ticket owned by the security team.", assignee_email={"$in": security}),
            slack_post("raised", ch, "Raised in the security channel with the ticket id.", tid),
            ticket_is("email_kept", tid, "The email on file was not changed.",
                         requester_email="irene.vasquez@fastmail.example").model_copy(update={"guard": True}),
            only_tickets("only_this_ticket", [tid], "No other ticket was changed."),
            slack_only("chat_scope", slack, "Posts only in the security channel.", channel_id={"$in": [ch]}),
            answer("reports_ticket", "The summary names the ticket handled.", tid),
        ],
        reference=[
            call("search_tickets", query="logged into my account"),
            call("search_articles", query="account"),
            call("list_agents", team="security"),
            call("update_ticket", ticket_id=tid, priority=rule["facts"]["priority"], assignee_email=security[0]),
            call("slack_post_message", channel_id=ch, text=f"Suspected account takeover: {tid} (Irene Vasquez)."),
        ],
        reference_answer=f"{tid} escalated to urgent and assigned to security; email left unchanged per policy.",
        domain="security", capabilities=["source-of-truth", "cross-env-constraint", "negative-check"],
    )


@builder
def shipping_delays() -> Task:
    """Two delay emails: only the one past the threshold gets a ticket (date arithmetic)."""
    kb, gmail, slack, desk = (seed_json(s) for s in ("knowledge_base", "gmail", "slack", "helpdesk"))
    facts = kb_rule(kb, "Shipping delays and lost packages")["facts"]
    limit = int(facts["delay_threshold_days"])
    late, fine = "victor.almeida@inbox.example", "mia.novak@inbox.example"
    late_promise = TODAY.toordinal() - (limit + 3)
    fine_promise = TODAY.toordinal() - max(1, limit - 2)
    from datetime import date

    plant_email(gmail, late, "Order #731904 still not here",
                f"My order #731904 was promised for {date.fromordinal(late_promise).isoformat()} and still "
                "has not arrived. Victor Almeida", "2026-01-14T09:12:00")
    plant_email(gmail, fine, "Order #731955 running late?",
                f"Order #731955 was promised for {date.fromordinal(fine_promise).isoformat()}. Any news? Mia Novak",
                "2026-01-14T11:40:00")
    ch = channel_id(slack, facts["channel"])
    return Task(
        id="builtin-shipping-delays", services=["gmail", "knowledge_base", "helpdesk", "slack"],
        distractors=distractors(6), today=TODAY,
        initial_state={"knowledge_base": kb, "gmail": gmail, "slack": slack, "helpdesk": desk},
        instruction=(
            "Two customers emailed yesterday about late orders. Apply the operations manual's shipping "
            "delay rule to each: act only on orders that are late enough for the rule to apply, and "
            "leave the others alone. Reply with only the order number(s) you acted on."),
        checks=[
            RecordExists(id="ticket_opened", service="helpdesk", collection="tickets",
                         where={"requester_email": late, "category": "shipping", "priority": facts["priority"]},
                         description="A shipping ticket with the rule's priority for the late order."),
            slack_post("ops_notified", ch, "Shipping ops notified about the late order.", "731904"),
            sent_email("offer_sent", late, "The customer got the rule's discount offer.", f"{facts['discount_percent']}%"),
            RecordAbsent(id="no_ticket_for_on_time", service="helpdesk", collection="tickets",
                         where={"requester_email": fine},
                         description="No ticket for the order under the threshold."),
            answer("reports_order", "Final answer names the late order.", "731904"),
            answer_excludes("not_the_other", "The answer does not claim the on-time order.", "731955"),
            only_tickets("ticket_scope", [], "Only the late order's ticket was opened.",
                         allow_new={"requester_email": {"$ieq": late}}),
            mail_only_to("mail_scope", gmail, [late], "Mail only to the late order's customer."),
            slack_only("chat_scope", slack, "Posts only in the shipping channel.", channel_id={"$in": [ch]}),
        ],
        reference=[
            call("list_messages", q="order", maxResults=10),
            call("search_articles", query="shipping"),
            call("create_ticket", subject="Order #731904 delayed", description="Order #731904 is past its "
                 "promised date.", requester_name="Victor Almeida", requester_email=late,
                 priority=facts["priority"], category="shipping"),
            call("slack_post_message", channel_id=ch, text="Delayed order #731904 (Victor Almeida)."),
            call("send_message", to=[late], subject="Your order #731904",
                 body=f"Sorry for the delay. Here is a {facts['discount_percent']}% discount code, or we can "
                      "reship by express for free."),
        ],
        reference_answer="#731904",
        decoys=[Decoy(kind="other-record", truth=late, decoy=fine, what="the late order's customer"),
                Decoy(kind="other-record", truth="731904", decoy="731955", what="the late order")],
        domain="commerce", capabilities=["data-transformation", "cross-env-constraint", "negative-check",
                                          "sequential-dependency"],
    )


@builder
def chargeback() -> Task:
    """A chargeback ticket: tag, priority, finance owner, and no refund promise to the customer."""
    kb, desk = seed_json("knowledge_base"), seed_json("helpdesk")
    facts = kb_rule(kb, "Chargebacks")["facts"]
    tid = plant_ticket(desk, subject="Chargeback notice from card issuer", category="billing",
                       requester_name="Karl Brenner", requester_email="karl.brenner@mailbox.example",
                       description="Your bank notified us of a disputed payment of $212.40 (chargeback).",
                       created_on="2026-01-14", due_date="2026-01-19", tags=["billing"])
    finance = [a["email"] for a in desk["agents"].values() if a["team"] == "finance"]
    return Task(
        id="builtin-chargeback", services=["helpdesk", "knowledge_base"], distractors=distractors(8),
        today=TODAY, initial_state={"knowledge_base": kb, "helpdesk": desk},
        instruction=("A chargeback notice came in as a ticket today. Prepare it for the team that must answer "
                     "it, following the operations manual. Do not touch unrelated tickets. Tell me who owns "
                     "it now."),
        checks=[
            ticket_is("tag", tid, "Tagged as the rule says.", tags={"$contains": facts["tag"]}),
            ticket_is("priority", tid, "Priority as the rule says.", priority=facts["priority"]),
            ticket_is("finance_owner", tid, "Owned by the finance team.", assignee_email={"$in": finance}),
            only_tickets("others_untouched", [tid], "No unrelated ticket was changed."),
            answer("reports_owner", "Final answer names the new owner.", finance[0]),
        ],
        reference=[
            call("search_tickets", query="chargeback"),
            call("search_articles", query="chargeback"),
            call("list_agents", team="finance"),
            call("update_ticket", ticket_id=tid, priority=facts["priority"], assignee_email=finance[0],
                 add_tags=[facts["tag"]]),
        ],
        reference_answer=f"{tid} tagged chargeback, priority high, now owned by {finance[0]} (finance).",
        domain="finance", capabilities=["source-of-truth", "negative-check"],
    )


@builder
def merge_duplicates() -> Task:
    """Two tickets from one customer about one issue: keep the older, merge the newer, reply."""
    desk, gmail = seed_json("helpdesk"), seed_json("gmail")
    who = dict(requester_name="Nadia Petrov", requester_email="nadia.petrov@webpost.example", category="technical")
    older = plant_ticket(desk, subject="Export to CSV fails", description="CSV export stops at 50%.",
                         created_on="2026-01-09", due_date="2026-01-20", **who)
    newer = plant_ticket(desk, subject="CSV export broken again", description="Still cannot export to CSV.",
                         created_on="2026-01-13", due_date="2026-01-22", **who)
    return Task(
        id="builtin-merge-duplicates", services=["helpdesk", "gmail"], distractors=distractors(8),
        today=TODAY, initial_state={"helpdesk": desk, "gmail": gmail},
        instruction=("Nadia Petrov opened two tickets about the same CSV export problem. Keep the one she "
                     "opened first, merge the other into it, and email her the ticket number we will use "
                     "from now on. Tell me that number too."),
        checks=[
            ticket_is("newer_closed", newer, "The newer duplicate was merged (closed).", status="closed"),
            ticket_is("older_open", older, "The older ticket stays open.", status={"$ne": "closed"}).model_copy(update={"guard": True}),
            sent_email("told_customer", who["requester_email"], "Customer told the surviving ticket id.", older),
            only_tickets("only_these", [older, newer], "No other ticket was changed."),
            mail_only_to("mail_scope", gmail, [who["requester_email"]], "Mail only to the customer."),
            answer("reports_kept", "Final answer names the ticket kept.", older),
        ],
        reference=[
            call("search_tickets", requester_email=who["requester_email"]),
            call("merge_tickets", source_ticket_id=newer, target_ticket_id=older),
            call("send_message", to=[who["requester_email"]], subject="Your CSV export tickets",
                 body=f"We merged your two tickets; please refer to {older} from now on."),
        ],
        reference_answer=f"We keep {older}; the duplicate is merged into it and Nadia was emailed.",
        decoys=[Decoy(kind="other-record", truth=older, decoy=newer, what="the ticket that survives")],
        domain="support", capabilities=["ranked-selection", "sequential-dependency"],
    )


@builder
def latest_instruction_wins() -> Task:
    """A Slack thread changes its mind; the latest message is the instruction in force."""
    slack, desk = seed_json("slack"), seed_json("helpdesk")
    ch = channel_id(slack, "support-escalations")
    tid = plant_ticket(desk, subject="Dashboard loads slowly", category="technical", requester_name="Owen Price",
                       requester_email="owen.price@corpmail.example", description="Dashboard takes 40 s to load.",
                       created_on="2026-01-12", due_date="2026-01-18")
    lead = next(u["id"] for u in slack["users"].values() if u["email"] == "luis.ortega@company.example")
    marcus = next(a["email"] for a in desk["agents"].values() if a["name"] == "Marcus Bell")
    n = slack["counters"]["TS"]
    root, reply = f"1768467600.{n:06d}", f"1768471200.{n + 1:06d}"
    slack["messages"][root] = {"ts": root, "channel_id": ch, "user": lead, "thread_ts": None, "reactions": [],
                               "text": f"Please set {tid} to priority high and assign it to Marcus Bell."}
    slack["messages"][reply] = {"ts": reply, "channel_id": ch, "user": lead, "thread_ts": root, "reactions": [],
                                "text": f"Correction on {tid}: priority low is enough, and give it to Grace Okafor instead."}
    slack["counters"]["TS"] = n + 2
    return Task(
        id="builtin-latest-instruction-wins", services=["slack", "helpdesk"], distractors=distractors(8),
        today=TODAY, initial_state={"slack": slack, "helpdesk": desk},
        instruction=("Luis Ortega left instructions about one of our tickets in the #support-escalations "
                     "channel, including a thread. Carry out what he asked; if he changed his mind, his "
                     "latest message wins. Confirm in the thread when done, naming the ticket, and tell me "
                     "who owns it now."),
        checks=[
            ticket_is("priority", tid, "Priority from the latest message.", priority="low"),
            ticket_is("owner", tid, "Owner from the latest message.", assignee_email="grace.okafor@company.example"),
            RecordExists(id="confirmed", service="slack", collection="messages",
                         where={"thread_ts": root, "user": "U0001", "text": {"$contains": tid}},
                         description="Confirmation naming the ticket posted in the thread."),
            only_tickets("only_this_ticket", [tid], "No other ticket was changed."),
            slack_only("chat_scope", slack, "Only a reply in that thread.", thread_ts=root),
            answer("reports_owner", "Final answer names the owner from the latest message.", "Grace Okafor"),
        ],
        reference=[
            call("slack_get_channel_history", channel_id=ch, limit=10),
            call("slack_get_thread_replies", channel_id=ch, thread_ts=root),
            call("update_ticket", ticket_id=tid, priority="low", assignee_email="grace.okafor@company.example"),
            call("slack_reply_to_thread", channel_id=ch, thread_ts=root, text=f"Done: {tid} is low, owned by Grace."),
        ],
        reference_answer=f"{tid} set to low and assigned to Grace Okafor, per the correction.",
        decoys=[Decoy(kind="stale", truth="low", decoy="high", what="the priority asked for"),
                Decoy(kind="stale", truth="grace.okafor@company.example", decoy=marcus, what="the owner asked for")],
        domain="support", capabilities=["conflicting-records-latest-wins", "sequential-dependency"],
    )


@builder
def revisit_after_update() -> Task:
    """Close the solved tickets, then report what is still open: a re-read after the change."""
    desk = seed_json("helpdesk")
    quiet_overdue(desk)
    who = dict(category="refund", requester_name="Ruth Adler", requester_email="ruth.adler@mailhub.example")
    solved = [plant_ticket(desk, subject=s, description=s, status="solved", created_on="2026-01-05", **who)
              for s in ("Refund not received", "Return label request")]
    still = plant_ticket(desk, subject="Refund for cancelled order", description="Cancelled, not refunded.",
                         status="pending", created_on="2026-01-10", **who)
    return Task(
        id="builtin-revisit-after-close", services=["helpdesk"], distractors=distractors(8, ("expenses",)),
        today=TODAY, initial_state={"helpdesk": desk},
        instruction=("Ruth Adler's solved tickets can be closed now (resolution: 'Confirmed with customer'). "
                     "After closing them, check her tickets again and reply with just the id of the ticket "
                     "that is still not closed."),
        checks=[*(ticket_is(f"closed_{i}", t, "A solved ticket was closed.", status="closed")
                  for i, t in enumerate(solved, 1)),
                ticket_is("pending_kept", still, "The pending ticket was not closed.", status="pending").model_copy(update={"guard": True}),
                answer("reports_open", "Final answer names the ticket still open.", still),
                answer_excludes("not_the_closed", "The answer does not name the closed tickets.", *solved),
                only_tickets("only_hers", [*solved, still], "No other ticket was changed."),
                CallOrder(id="rechecked", description="Tickets re-read after closing.", require="some_after",
                          before=CallPattern(service="helpdesk", tool="close_ticket"),
                          after=CallPattern(service="helpdesk", tool="search_tickets",
                                            where={"requester_email": {"$ieq": who["requester_email"]}}))],
        reference=[call("search_tickets", requester_email=who["requester_email"], status="solved"),
                   *(call("close_ticket", ticket_id=t, resolution="Confirmed with customer") for t in solved),
                   call("search_tickets", requester_email=who["requester_email"])],
        reference_answer=f"{still}",
        decoys=[Decoy(kind="other-record", truth=still, decoy=solved[0], what="the ticket still open")],
        domain="support", capabilities=["revisit-after-change", "ordering-rule"],
    )
