"""Seed projects of the ``task_board`` service: (goal, owning team, [(title, description)])."""

from __future__ import annotations

PROJECTS: tuple[tuple[str, str, tuple[tuple[str, str], ...]], ...] = (
    ("Close the January billing cycle", "billing", (
        ("Reconcile December payments", "Match every December payment to an invoice."),
        ("Chase overdue invoices", "Email customers whose invoices are past due."),
        ("Review late-fee waivers", "Check waiver requests against the policy."),
        ("Publish billing summary", "Share totals with finance."),
    )),
    ("Q1 warehouse stock audit", "logistics", (
        ("Count electronics shelf", "Physical count of all electronics SKUs."),
        ("Count furniture bay", "Physical count of chairs, desks and lamps."),
        ("Investigate count mismatches", "Explain every difference above 2 units."),
    )),
    ("Migrate support macros", "support", (
        ("Export old macros", "Export all helpdesk macros to a spreadsheet."),
        ("Rewrite refund macros", "Align refund replies with the new policy."),
        ("Train the team", "30-minute walkthrough of the new macros."),
    )),
    ("Security access review", "security", (
        ("List admin accounts", "Pull every account with admin rights."),
        ("Revoke stale access", "Remove access unused for 90 days."),
    )),
)
