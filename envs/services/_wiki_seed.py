"""Seed content of the ``wiki`` service.

``SPACES``: (key, name, owning team). ``PAGES``: (space key, title, parent
title or None, labels, successive versions of the body); parents come first.
"""

from __future__ import annotations

SPACES: tuple[tuple[str, str, str], ...] = (
    ("OPS", "Operations", "support"),
    ("FIN", "Finance", "finance"),
    ("ENG", "Engineering", "engineering"),
)

PAGES: tuple[tuple[str, str, str | None, tuple[str, ...], tuple[str, ...]], ...] = (
    ("OPS", "Operations handbook", None, ("handbook",), (
        "# Operations handbook\n\nHow the operations team works.",)),
    ("OPS", "Escalation matrix", "Operations handbook", ("escalation", "process"), (
        "Billing disputes go to billing@company.example. VIP customers go to vip-desk@company.example.",
        "Billing disputes go to billing@company.example. VIP customers go to vip-desk@company.example. "
        "Security incidents go to account-security@company.example within 1 hour.")),
    ("OPS", "Weekly ops meeting 2026-01-12", "Operations handbook", ("meeting-notes",), (
        "Attendees: Luis Ortega, Grace Okafor, Ben Foster.\nDecisions: stock audit due 2026-01-20.",)),
    ("OPS", "Shipping delay playbook", "Operations handbook", ("playbook", "shipping"), (
        "Delays over 5 days: offer a $10 credit.",
        "Delays over 5 days: offer a $15 credit and notify logistics@company.example.")),
    ("FIN", "Refund approval process", None, ("process", "refunds"), (
        "Refunds above $500 need approval from the finance controller.",
        "Refunds above $500 need approval from finance-approvals@company.example.",
        "Refunds above $300 need approval from finance-approvals@company.example. Decision within 2 business days.")),
    ("FIN", "Month-end close checklist", None, ("checklist",), (
        "1. Reconcile payments\n2. Accrue invoices\n3. Report to the controller",)),
    ("FIN", "Vendor payment terms", None, ("vendors",), (
        "ParcelPro: net 30. DeskWorks: net 45.",)),
    ("ENG", "On-call guide", None, ("oncall", "process"), (
        "Page oncall@company.example. Post updates in #incidents every 30 minutes.",)),
    ("ENG", "Incident 2026-01-09 postmortem", "On-call guide", ("incident", "postmortem"), (
        "Checkout outage of 42 minutes caused by an expired certificate.",
        "Checkout outage of 42 minutes caused by an expired certificate. Action: automate renewals (Ben Foster).")),
    ("ENG", "Release calendar", None, ("releases",), (
        "Storefront releases every Tuesday. Freeze from Dec 20 to Jan 5.",)),
)
