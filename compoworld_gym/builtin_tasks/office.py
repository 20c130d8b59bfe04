"""Built-in tasks that also need the CRM and the calendar, including the paper's opening example."""

from __future__ import annotations

from typing import Any

from compoworld_gym.builtin_tasks.common import (
    TODAY, answer, answer_excludes, builder, call, channel_id, distractors, kb_rule, mail_only_to,
    only_tickets, plant_ticket, quiet_overdue, seed_json, sent_email, slack_only, slack_post, ticket_is,
    unchanged,
)
from compoworld_gym.catalog import get_service
from compoworld_gym.checks import OnlyChanged, RecordAbsent, RecordExists, ToolCalled
from compoworld_gym.tasks import Decoy, Task


def plant_contact(crm: dict[str, Any], email: str, first: str, last: str, company: str, owner: str,
                  stage: str = "customer") -> str:
    """Add a CRM contact with the next free id; returns the id."""
    n = crm["counters"]["CON"]
    cid = f"CON-{n:04d}"
    crm["counters"]["CON"] = n + 1
    crm["contacts"][cid] = {
        "createdate": "2025-05-02T10:00:00", "lastmodifieddate": "2025-12-01T10:00:00", "archived": False,
        "id": cid, "email": email, "firstname": first, "lastname": last, "phone": "+1-555-0100",
        "company": company, "jobtitle": "Operations Manager", "lifecyclestage": stage, "hs_lead_status": None,
        "city": "Springfield", "country": "United States", "owner_email": owner,
    }
    return cid


def free_slots(cal: dict[str, Any], minutes: int, people: list[str]) -> list[dict[str, str]]:
    """The slots on 2026-01-16 when all ``people`` are free, first first (asks the calendar service itself)."""
    probe = get_service("calendar")(cal, today=TODAY).call(
        "find_free_slots", {"date": "2026-01-16", "duration_minutes": minutes, "attendees": people})
    return probe["data"]


def other_times(slots: list[dict[str, str]]) -> list[str]:
    """The start times (``HH:MM``) of every free slot but the first: a
    report that hedges between times names one of them."""
    return list(dict.fromkeys(s["start"][11:16] for s in slots[1:] if s["start"][11:16] != slots[0]["start"][11:16]))


def calendar_only_with(cid: str, people: list[str], desc: str) -> OnlyChanged:
    """Guard: no existing event changed; every new event invites only ``people``."""
    return OnlyChanged(id=cid, description=desc, service="calendar", collection="events",
                       allow_new={"attendees": {"$each": {"email": {"$in": people}}}})


def _by_email(email: str) -> dict[str, Any]:
    return {"filterGroups": [{"filters": [{"propertyName": "email", "operator": "EQ", "value": email}]}]}


@builder
def overdue_billing_escalation() -> Task:
    """The paper's opening example: overdue tickets → handling rule → notify owner and customer."""
    desk, kb, crm, gmail, slack = (seed_json(s) for s in ("helpdesk", "knowledge_base", "crm", "gmail", "slack"))
    quiet_overdue(desk)
    facts = kb_rule(kb, "Overdue billing tickets")["facts"]
    customers = [("alma.reyes@harborfoods.example", "Alma", "Reyes", "Harbor Foods", "jamal.wright@company.example"),
                 ("theo.grant@quillpress.example", "Theo", "Grant", "Quill Press", "hannah.kovacs@company.example")]
    late = []
    for (email, first, last, company, owner), (subject, due) in zip(
            customers, (("Charged twice this month", "2026-01-09"), ("Invoice shows the wrong plan", "2026-01-12"))):
        plant_contact(crm, email, first, last, company, owner)
        late.append(plant_ticket(desk, subject=subject, description=f"{subject}. Please fix.", category="billing",
                                 requester_name=f"{first} {last}", requester_email=email,
                                 assignee_email="luis.ortega@company.example", created_on="2026-01-02",
                                 due_date=due, tags=["billing"]))
    solved = plant_ticket(desk, subject="Need a VAT invoice", description="VAT invoice please.", category="billing",
                          status="solved", requester_name="Pia Lund", requester_email="pia.lund@nordic.example",
                          created_on="2026-01-03", due_date="2026-01-08")
    shipping = plant_ticket(desk, subject="Package not delivered yet", description="Still waiting.",
                            category="shipping", requester_name="Raj Patel", requester_email="raj.patel@mail.example",
                            created_on="2026-01-04", due_date="2026-01-10")
    billing_team = [a["email"] for a in desk["agents"].values() if a["team"] == "billing"]
    ch = channel_id(slack, facts["channel"])
    old_ch = channel_id(slack, "support-escalations")
    checks: list[dict[str, Any]] = []
    reference = [call("list_overdue_tickets"), call("search_articles", query="overdue billing")]
    for i, (tid, (email, first, _, _, owner)) in enumerate(zip(late, customers), 1):
        checks += [
            ticket_is(f"priority_{i}", tid, f"Overdue ticket {i} has the rule's priority.", priority=facts["priority"]),
            ticket_is(f"billing_owner_{i}", tid, f"Overdue ticket {i} is assigned to the billing team.",
                      assignee_email={"$in": billing_team}),
            sent_email(f"owner_notified_{i}", owner, f"Account owner {i} emailed about the ticket.", tid),
            sent_email(f"customer_apology_{i}", email, f"Customer {i} got an apology about the ticket.", tid),
            slack_post(f"summary_{i}", ch, f"Ticket {i} summarised in the billing escalations channel.", tid),
        ]
        reference += [
            call("crm_search_contacts", **_by_email(email)),
            call("update_ticket", ticket_id=tid, priority=facts["priority"], assignee_email=billing_team[0]),
            call("send_message", to=[owner], subject=f"Overdue billing ticket {tid}",
                 body=f"Your account {first}'s billing ticket {tid} is overdue; escalated to billing."),
            call("send_message", to=[email], subject=f"Your ticket {tid}",
                 body=f"Dear {first}, we apologise for the delay on {tid}. You will hear from us by 2026-01-19."),
            call("slack_post_message", channel_id=ch, text=f"{tid}: overdue billing ticket escalated to high."),
        ]
    checks += [
        unchanged("solved_untouched", "helpdesk", "tickets", solved, "The solved ticket was not touched."),
        unchanged("shipping_untouched", "helpdesk", "tickets", shipping, "The overdue non-billing ticket was not touched."),
        RecordAbsent(id="archived_rule_not_used", service="slack", collection="messages",
                     where={"channel_id": old_ch, "user": "U0001"},
                     description="Nothing posted where the archived version of the rule said."),
        answer("reports_ids", "Final answer lists both tickets.", *late),
        answer_excludes("no_extra_ids", "The answer does not list tickets outside the batch.", solved, shipping),
        only_tickets("batch_only", late, "No ticket outside the batch was changed."),
        mail_only_to("mail_scope", gmail, [c[0] for c in customers] + [c[4] for c in customers],
                     "Mail only to the batch's customers and account owners."),
        slack_only("chat_scope", slack, "Posts only in the billing escalations channel.", channel_id={"$in": [ch]}),
    ]
    return Task(
        id="builtin-overdue-billing-escalation",
        services=["helpdesk", "knowledge_base", "crm", "gmail", "slack"], distractors=distractors(10),
        today=TODAY, initial_state={"helpdesk": desk, "knowledge_base": kb, "crm": crm, "gmail": gmail, "slack": slack},
        instruction=(
            "Process today's batch of overdue billing tickets. Find the unresolved billing tickets that are "
            "past their due date, look up how the operations manual says to handle them, and do everything "
            "it requires, including notifying the right people. House rules: the operations manual is the "
            "source of truth and only its published version is in force; the CRM says who owns each "
            "customer account; do not touch tickets outside this batch. At the end, list the ticket ids "
            "you processed."),
        checks=checks, reference=reference,
        decoys=[Decoy(kind="archived", truth=facts["priority"], decoy="urgent", what="the rule's priority"),
                Decoy(kind="archived", truth=ch, decoy=old_ch, what="the rule's channel")],
        reference_answer=f"Processed {late[0]} and {late[1]}: escalated, assigned to billing, owners and customers "
                         "notified, summaries posted.",
        domain="support",
        capabilities=["sequential-dependency", "cross-env-constraint", "source-of-truth", "negative-check"],
    )


@builder
def vip_first_response() -> Task:
    """VIP status is decided by CRM revenue; the VIP gets urgent priority and an email with the owner in CC."""
    desk, kb, crm, gmail = (seed_json(s) for s in ("helpdesk", "knowledge_base", "crm", "gmail"))
    facts = kb_rule(kb, "VIP customer handling")["facts"]
    threshold = float(facts["revenue_threshold_usd"])
    n = crm["counters"]["COMP"]
    comp = f"COMP-{n:04d}"
    crm["counters"]["COMP"] = n + 1
    crm["companies"][comp] = {
        "createdate": "2024-02-01T10:00:00", "lastmodifieddate": "2025-11-20T10:00:00", "archived": False,
        "id": comp, "name": "Altamira Logistics", "domain": "altamira.example", "industry": "Logistics",
        "city": "Denver", "country": "United States", "phone": "+1-555-0199", "annualrevenue": threshold * 2.4,
        "numberofemployees": 800, "lifecyclestage": "customer", "owner_email": "jamal.wright@company.example"}
    email = "bea.santos@altamira.example"
    plant_contact(crm, email, "Bea", "Santos", "Altamira Logistics", "jamal.wright@company.example")
    tid = plant_ticket(desk, subject="API returns 500 on orders endpoint", category="technical",
                       requester_name="Bea Santos", requester_email=email, created_on="2026-01-15",
                       due_date="2026-01-19", description="Our integration fails since this morning.")
    return Task(
        id="builtin-vip-first-response", services=["helpdesk", "knowledge_base", "crm", "gmail"],
        distractors=distractors(8), today=TODAY,
        initial_state={"helpdesk": desk, "knowledge_base": kb, "crm": crm, "gmail": gmail},
        instruction=("Bea Santos opened a ticket this morning about API errors. Decide from the CRM whether her "
                     "company counts as a VIP under the operations manual, handle the ticket accordingly, and "
                     "send her a first response by email that follows the manual's rules for emails to such "
                     "customers. Tell me whether she is a VIP."),
        checks=[
            ticket_is("vip_priority", tid, "Ticket set to the VIP priority.", priority=facts["priority"]),
            sent_email("first_response", email, "First response emailed with the account owner in CC.",
                       cc="jamal.wright@company.example"),
            answer("says_vip", "Final answer says she is a VIP.", "VIP"),
            answer_excludes("no_denial", "The answer does not deny or doubt VIP status.", "not a VIP", "not VIP",
                            "isn't a VIP", "isn't VIP", "no VIP", "not considered a VIP", "does not qualify",
                            "doesn't qualify", "could not tell", "couldn't tell", "not sure", "unclear"),
            only_tickets("only_this_ticket", [tid], "No other ticket was changed."),
            mail_only_to("mail_scope", gmail, [email], "Mail only to Bea, CC only her account owner.",
                         cc=["jamal.wright@company.example"]),
        ],
        reference=[
            call("search_articles", query="VIP"),
            call("crm_search_contacts", **_by_email(email)),
            call("crm_get_company", companyId=comp),
            call("update_ticket", ticket_id=tid, priority=facts["priority"]),
            call("send_message", to=[email], cc=["jamal.wright@company.example"], subject=f"Re: {tid}",
                 body="Hi Bea, we are on your API errors now and will update you within two hours."),
        ],
        reference_answer="Yes, Altamira Logistics is a VIP; ticket set to urgent and first response sent.",
        domain="support", capabilities=["cross-env-constraint", "data-transformation", "sequential-dependency"],
    )


@builder
def incident_postmortem() -> Task:
    """Severity 1: post, email on-call, and schedule the post-mortem with the right people in a free slot."""
    kb, slack, gmail, cal = (seed_json(s) for s in ("knowledge_base", "slack", "gmail", "calendar"))
    facts = kb_rule(kb, "Incident communication")["facts"]
    ch = channel_id(slack, facts["channel"])
    people = ["ben.foster@company.example", "luis.ortega@company.example"]
    minutes = int(facts["postmortem_minutes"])
    slots = free_slots(cal, minutes, people)
    slot = slots[0]
    return Task(
        id="builtin-incident-postmortem", services=["knowledge_base", "slack", "gmail", "calendar"],
        distractors=distractors(8), today=TODAY,
        initial_state={"knowledge_base": kb, "slack": slack, "gmail": gmail, "calendar": cal},
        instruction=("Checkout has been failing for all customers since 08:40 today: treat it as a severity 1 "
                     "incident (call it INC-CHECKOUT). Do the communication the operations manual requires for "
                     "that severity, including the post-mortem meeting with the right people (the on-call "
                     "engineer is Ben Foster). Pick a time when they are free. Tell me when it is."),
        checks=[
            slack_post("incident_update", ch, "Update posted in the incidents channel.", "INC-CHECKOUT"),
            sent_email("oncall_emailed", facts["email"], "On-call emailed about the incident.", "INC-CHECKOUT"),
            RecordExists(id="postmortem_booked", service="calendar", collection="events",
                         where={"attendees": {"$all": [{"$any": {"email": p}} for p in people]},
                                "start": {"$gte": "2026-01-15T09:00:00", "$lt": "2026-01-17T23:59:59"}},
                         description="Post-mortem with on-call and support lead within 2 business days."),
            ToolCalled(id="checked_free_time", service="calendar", tool="find_free_slots",
                       description="Free time was checked before booking."),
            mail_only_to("mail_scope", gmail, [facts["email"]], "Mail only to on-call."),
            slack_only("chat_scope", slack, "Posts only in the incidents channel.", channel_id={"$in": [ch]}),
            calendar_only_with("calendar_scope", people, "No existing event changed; new events invite only the post-mortem people."),
            answer("reports_time", "Final answer gives the post-mortem time.", slot["start"][11:16]).model_copy(
                update={"candidates": other_times(slots)}),
        ],
        reference=[
            call("search_articles", query="incident"),
            call("slack_post_message", channel_id=ch, text="INC-CHECKOUT: checkout failing since 08:40, investigating."),
            call("send_message", to=[facts["email"]], subject="INC-CHECKOUT severity 1",
                 body="INC-CHECKOUT: checkout has been failing for all customers since 08:40."),
            call("find_free_slots", date="2026-01-16", duration_minutes=minutes, attendees=people),
            call("create_event", summary="INC-CHECKOUT post-mortem", start=slot["start"], end=slot["end"],
                 attendees=people, description="Post-mortem of the checkout outage."),
        ],
        reference_answer=f"Post-mortem booked on 2026-01-16 at {slot['start'][11:16]}.",
        domain="devops", capabilities=["sequential-dependency", "cross-env-constraint", "data-transformation"],
    )


@builder
def enterprise_escalation_call() -> Task:
    """Book the call the manual requires with customer + account owner, then log a CRM note on the contact."""
    kb, crm, cal = seed_json("knowledge_base"), seed_json("crm"), seed_json("calendar")
    facts = kb_rule(kb, "Enterprise escalation calls")["facts"]
    email, owner = "ivo.maric@stellarsteel.example", "hannah.kovacs@company.example"
    contact = plant_contact(crm, email, "Ivo", "Maric", "Stellar Steel", owner)
    minutes = int(facts["meeting_minutes"])
    people = [email, owner]
    slots = free_slots(cal, minutes, people)
    slot = slots[0]
    return Task(
        id="builtin-enterprise-escalation-call", services=["knowledge_base", "crm", "calendar"],
        distractors=distractors(8), today=TODAY, initial_state={"knowledge_base": kb, "crm": crm, "calendar": cal},
        instruction=("Ivo Maric (Stellar Steel) escalated a delivery dispute. Set up what the operations manual "
                     "requires for enterprise escalations: the right meeting with the right people, of the "
                     "right length, in time, plus the CRM record of it. Report the meeting time."),
        checks=[
            RecordExists(id="call_booked", service="calendar", collection="events",
                         where={"attendees": {"$all": [{"$any": {"email": p}} for p in people]},
                                "start": {"$gte": "2026-01-15T00:00:00", "$lt": "2026-01-17T23:59:59"}},
                         description="Call with customer and account owner within the rule's window."),
            RecordExists(id="crm_note", service="crm", collection="associations",
                         where={"from_type": "notes", "to_type": "contacts", "to_id": contact},
                         description="A CRM note is associated with the contact."),
            answer("reports_time", "Final answer gives the meeting time.", slot["start"][11:16]).model_copy(
                update={"candidates": other_times(slots)}),
            calendar_only_with("calendar_scope", people, "No existing event changed; new events invite only the customer and owner."),
        ],
        reference=[
            call("search_articles", query="enterprise escalation"),
            call("crm_search_contacts", **_by_email(email)),
            call("find_free_slots", date="2026-01-16", duration_minutes=minutes, attendees=people),
            call("create_event", summary="Stellar Steel escalation call", start=slot["start"], end=slot["end"],
                 attendees=people),
            call("notes_create", properties={"hs_note_body": f"Escalation call booked for {slot['start']}."},
                 associations=[{"to": {"id": contact},
                                "types": [{"associationCategory": "HUBSPOT_DEFINED", "associationTypeId": 202}]}]),
        ],
        reference_answer=f"Call booked on 2026-01-16 at {slot['start'][11:16]}.",
        domain="sales", capabilities=["sequential-dependency", "cross-env-constraint", "data-transformation"],
    )
