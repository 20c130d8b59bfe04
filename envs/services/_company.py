"""The fixed company directory shared by the built-in office services.

Each service seeds its state from its own random stream, so two services of
one composition cannot agree on generated people. Internal staff and teams
are therefore one fixed, seed-independent roster: a rule in the knowledge
base that names ``billing@company.example`` or ``#billing-escalations`` points
at an address the mailbox knows and a channel the Slack workspace has, in
every composition. Customers stay per-service Faker data.
"""

from __future__ import annotations

from typing import NamedTuple

#: The company's mail domain (the helpdesk uses ``support@company.example``).
DOMAIN = "company.example"
#: The mailbox the agent operates (Gmail ``me``) and the Slack bot's owner.
OPS_EMAIL = f"ops@{DOMAIN}"


class Team(NamedTuple):
    """An internal team: its shared inbox and its Slack channel (no ``#``)."""

    key: str
    name: str
    email: str
    channel: str


class Staff(NamedTuple):
    """One employee: full name, work email, team key and job title."""

    name: str
    email: str
    team: str
    title: str


TEAMS: dict[str, Team] = {t.key: t for t in (
    Team("billing", "Billing Operations", f"billing@{DOMAIN}", "billing-escalations"),
    Team("finance", "Finance", f"finance-approvals@{DOMAIN}", "finance-approvals"),
    Team("logistics", "Logistics", f"logistics@{DOMAIN}", "shipping-ops"),
    Team("security", "Account Security", f"account-security@{DOMAIN}", "account-security"),
    Team("customer_success", "Customer Success", f"vip-desk@{DOMAIN}", "vip-accounts"),
    Team("support", "Customer Support", f"support@{DOMAIN}", "support-escalations"),
    Team("privacy", "Privacy & Legal", f"privacy@{DOMAIN}", "privacy-requests"),
    Team("engineering", "Engineering On-call", f"oncall@{DOMAIN}", "incidents"),
)}


def _staff(name: str, team: str, title: str) -> Staff:
    return Staff(name, name.lower().replace(" ", ".") + f"@{DOMAIN}", team, title)


STAFF: tuple[Staff, ...] = (
    _staff("Priya Raman", "billing", "Billing Operations Lead"),
    _staff("Marcus Bell", "billing", "Billing Specialist"),
    _staff("Elena Petrova", "finance", "Finance Controller"),
    _staff("Tomas Lindqvist", "finance", "Accounts Payable Analyst"),
    _staff("Grace Okafor", "logistics", "Logistics Coordinator"),
    _staff("Daniel Cho", "logistics", "Fulfilment Manager"),
    _staff("Sofia Marin", "security", "Account Security Analyst"),
    _staff("Jamal Wright", "customer_success", "Senior Account Manager"),
    _staff("Hannah Kovacs", "customer_success", "Account Manager"),
    _staff("Luis Ortega", "support", "Support Team Lead"),
    _staff("Aisha Khan", "privacy", "Privacy Counsel"),
    _staff("Ben Foster", "engineering", "Site Reliability Engineer"),
)


def staff_of(team: str) -> list[Staff]:
    """The staff members of team ``team`` (a :data:`TEAMS` key), roster order."""
    return [s for s in STAFF if s.team == team]
