"""The curated handling rules that seed the knowledge base.

Each rule has one or more versions, oldest first; all but the newest are
seeded as archived articles. Thresholds and deadlines are drawn from the
seed's ``random.Random``, so an agent must read the article in force rather
than remember a constant, and an archived version always disagrees with the
current one on at least one fact.
"""

from __future__ import annotations

import random
from typing import NamedTuple

from compoworld_gym.envs.services._company import TEAMS


class Rule(NamedTuple):
    """One rule: title, category, owning team key, tags, status of the newest
    version, and ``versions`` as ``[(body, facts), ...]`` oldest first."""

    title: str
    category: str
    team: str
    tags: tuple[str, ...]
    status: str
    versions: list[tuple[str, dict[str, str]]]


def _ch(team: str) -> str:
    return TEAMS[team].channel


def _overdue_billing(rng: random.Random) -> Rule:
    days = rng.choice((2, 3))
    old = (f"Billing tickets that are past their due date must be escalated to priority urgent and "
           f"posted in #{_ch('support')}. Reply to the customer within 5 business days.")
    new = (f"Billing tickets that are past their due date must be escalated to priority high and assigned "
           f"to the billing team. Notify the account owner by email and send the customer an apology with "
           f"a new response date no more than {days} business days away. Post a one-line summary in "
           f"#{_ch('billing')}. The team inbox is {TEAMS['billing'].email}.")
    return Rule("Overdue billing tickets", "billing", "billing", ("overdue", "escalation", "billing"),
                "published", [
                    (old, {"priority": "urgent", "channel": _ch("support"), "reply_within_days": "5"}),
                    (new, {"priority": "high", "team": "billing", "channel": _ch("billing"),
                           "notify": "account owner, customer", "reply_within_days": str(days),
                           "team_email": TEAMS["billing"].email}),
                ])


def _refunds(rng: random.Random) -> Rule:
    limit = rng.choice((300, 500, 750))
    old_limit = limit * 2
    body = (f"Refunds over ${limit} require finance approval before any money moves: email "
            f"{TEAMS['finance'].email} with the order id, amount and reason, and post the request in "
            f"#{_ch('finance')}. Refunds of ${limit} or less may be issued directly by the support agent. "
            f"Refunds always go to the original payment method.")
    old = (f"Refunds over ${old_limit} require approval from the finance controller. Smaller refunds "
           f"may be issued directly.")
    return Rule("Refund approval thresholds", "refunds", "finance", ("refund", "approval", "finance"),
                "published", [
                    (old, {"approval_threshold_usd": str(old_limit)}),
                    (body, {"approval_threshold_usd": str(limit), "approver_email": TEAMS["finance"].email,
                            "channel": _ch("finance"), "refund_method": "original payment method"}),
                ])


def _shipping(rng: random.Random) -> Rule:
    days = rng.choice((3, 5, 7))
    pct = rng.choice((10, 15))
    body = (f"A shipment delayed more than {days} days past its promised date: open a ticket in category "
            f"shipping with priority normal, offer the customer a {pct}% discount code or a free expedited "
            f"reshipment, and notify #{_ch('logistics')}. A package with no carrier scan for 10 days is lost: "
            f"reship at no cost and email {TEAMS['logistics'].email} to file the carrier claim.")
    return Rule("Shipping delays and lost packages", "shipping", "logistics", ("shipping", "delay", "lost"),
                "published", [(body, {"delay_threshold_days": str(days), "discount_percent": str(pct),
                                      "priority": "normal", "channel": _ch("logistics"),
                                      "claims_email": TEAMS["logistics"].email, "lost_after_days": "10"})])


def _lockouts(rng: random.Random) -> Rule:
    attempts = rng.choice((5, 6))
    minutes = rng.choice((15, 30))
    body = (f"After {attempts} failed login attempts an account locks for {minutes} minutes. Support may unlock "
            f"it early only after verifying identity through the email address on file; never change the "
            f"email on file in the same ticket. Suspected account takeover: set priority urgent, assign to "
            f"the security team ({TEAMS['security'].email}) and post in #{_ch('security')}.")
    return Rule("Account lockouts and suspicious logins", "accounts", "security",
                ("lockout", "login", "security"), "published",
                [(body, {"failed_attempts": str(attempts), "lock_minutes": str(minutes), "priority": "urgent",
                         "team_email": TEAMS["security"].email, "channel": _ch("security")})])


def _vip(rng: random.Random) -> Rule:
    hours = rng.choice((2, 4))
    revenue = rng.choice((1_000_000, 5_000_000))
    old = (f"VIP customers get a first response within 8 hours. Notify #{_ch('support')}.")
    body = (f"A VIP is a CRM company with lifecycle stage customer and annual revenue of at least "
            f"${revenue:,}. VIP tickets get priority urgent and a first response within {hours} hours. "
            f"CC the account owner on every email to a VIP contact and post in #{_ch('customer_success')}. "
            f"Never send automated satisfaction surveys to VIP contacts.")
    return Rule("VIP customer handling", "vip", "customer_success", ("vip", "priority", "enterprise"),
                "published", [
                    (old, {"first_response_hours": "8", "channel": _ch("support")}),
                    (body, {"revenue_threshold_usd": str(revenue), "first_response_hours": str(hours),
                            "priority": "urgent", "cc": "account owner", "channel": _ch("customer_success")}),
                ])


def _privacy(rng: random.Random) -> Rule:
    days = rng.choice((14, 30))
    body = (f"Data deletion requests must be completed within {days} days of receipt. Forward the request to "
            f"{TEAMS['privacy'].email}, tag the ticket 'gdpr', and do not delete CRM records yourself. "
            f"Post the ticket id in #{_ch('privacy')}.")
    return Rule("Data deletion requests", "privacy", "privacy", ("gdpr", "privacy", "deletion"), "published",
                [(body, {"deadline_days": str(days), "forward_to": TEAMS["privacy"].email, "tag": "gdpr",
                         "channel": _ch("privacy")})])


def _incidents(rng: random.Random) -> Rule:
    minutes = rng.choice((15, 30))
    days = rng.choice((2, 3))
    body = (f"Severity 1 incidents: post an update in #{_ch('engineering')} within {minutes} minutes and "
            f"email {TEAMS['engineering'].email}. Schedule a 60-minute post-mortem meeting within {days} "
            f"business days with the on-call engineer and the support team lead.")
    return Rule("Incident communication", "incidents", "engineering", ("incident", "sev1", "postmortem"),
                "published", [(body, {"update_within_minutes": str(minutes), "channel": _ch("engineering"),
                                      "email": TEAMS["engineering"].email, "postmortem_minutes": "60",
                                      "postmortem_within_days": str(days)})])


def _chargebacks(rng: random.Random) -> Rule:
    days = rng.choice((5, 7))
    body = (f"Chargeback notices must be answered within {days} days by the finance team. Tag the ticket "
            f"'chargeback', set priority high, and do not issue a separate refund for a disputed payment.")
    return Rule("Chargebacks", "billing", "finance", ("chargeback", "dispute", "billing"), "published",
                [(body, {"respond_within_days": str(days), "tag": "chargeback", "priority": "high"})])


def _escalation_call(rng: random.Random) -> Rule:
    minutes = rng.choice((30, 45))
    body = (f"An enterprise customer escalation needs a {minutes}-minute call with the customer and their "
            f"account owner within 2 business days; put it on the calendar and invite both. Log a CRM note "
            f"on the contact summarising the call.")
    return Rule("Enterprise escalation calls", "vip", "customer_success", ("escalation", "meeting", "crm"),
                "published", [(body, {"meeting_minutes": str(minutes), "within_days": "2",
                                      "attendees": "customer, account owner", "crm": "note on contact"})])


def _loyalty_draft(rng: random.Random) -> Rule:
    credit = rng.choice((20, 25))
    body = (f"DRAFT, not in force: customers with three delayed orders in 90 days receive a ${credit} "
            f"store credit.")
    return Rule("Loyalty credit for repeated delays", "shipping", "customer_success", ("loyalty", "credit"),
                "draft", [(body, {"credit_usd": str(credit)})])


def seed_rules(rng: random.Random) -> list[Rule]:
    """The seed's rules, in a fixed order (values drawn from ``rng``)."""
    makers = (_overdue_billing, _refunds, _shipping, _lockouts, _vip, _privacy, _incidents, _chargebacks,
              _escalation_call, _loyalty_draft)
    return [make(rng) for make in makers]
