"""The fixed book of business (B2B) customer accounts shared by the
contracts, customer_feedback and marketing services.

Each service seeds its state from its own random stream, so two services of
one composition could not agree on generated companies. The accounts, their
main contacts and their account managers are therefore fixed and
seed-independent: a detractor in ``customer_feedback`` works at a company
whose renewal is due in ``contracts``, and is (or is not) subscribed to a
list in ``marketing``. Per-seed variation lives in each service's records.
"""

from __future__ import annotations

from typing import NamedTuple

from compoworld_gym.envs.services._common import email_for
from compoworld_gym.envs.services._company import staff_of


class Account(NamedTuple):
    """A customer company: id, name, email domain, industry, main contact
    (name, email, job title) and account manager email."""

    id: str
    company: str
    domain: str
    industry: str
    contact_name: str
    contact_email: str
    contact_title: str
    owner_email: str


_MANAGERS = [s.email for s in staff_of("customer_success")]


def _account(n: int, company: str, domain: str, industry: str, contact: str, title: str) -> Account:
    return Account(f"CUS-{n:04d}", company, domain, industry, contact, email_for(contact, domain), title,
                   _MANAGERS[n % len(_MANAGERS)])


ACCOUNTS: tuple[Account, ...] = (
    _account(1, "Globex Corporation", "globex.example", "manufacturing", "Hank Scorpio", "VP Operations"),
    _account(2, "Initech", "initech.example", "software", "Samir Nagheenanajar", "IT Director"),
    _account(3, "Umbrella Health", "umbrella.example", "healthcare", "Alice Abernathy", "Procurement Lead"),
    _account(4, "Stark Logistics", "starklogistics.example", "logistics", "Pepper Potts", "COO"),
    _account(5, "Wayne Hospitality", "waynehospitality.example", "hospitality", "Lucius Fox", "CTO"),
    _account(6, "Soylent Foods", "soylent.example", "food", "Sol Roth", "Head of Purchasing"),
    _account(7, "Tyrell Analytics", "tyrell.example", "software", "Rachael Rosen", "Data Platform Manager"),
    _account(8, "Cyberdyne Robotics", "cyberdyne.example", "manufacturing", "Miles Dyson", "Engineering Manager"),
    _account(9, "Oceanic Airlines", "oceanic.example", "travel", "Ana Lucia Cortez", "Finance Director"),
    _account(10, "Vandelay Industries", "vandelay.example", "import/export", "Art Vandelay", "Owner"),
)
ACCOUNTS_BY_ID: dict[str, Account] = {a.id: a for a in ACCOUNTS}
