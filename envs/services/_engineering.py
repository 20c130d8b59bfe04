"""The fixed engineering roster and application catalog shared by the
engineering services (feature_flags, deployments, monitoring, status_page).

Each service seeds its state from its own random stream, so two services of
one composition could not agree on generated people or app names. The apps
and the engineers who own them are therefore fixed and seed-independent: an
alert in ``monitoring`` names the service ``checkout-api``, ``deployments``
has a project ``checkout-api`` whose live version can be rolled back, and
``status_page`` has the component "Checkout" backed by it; the on-call
engineer in ``monitoring`` is the same person who deploys in
``deployments``. Per-seed variation lives in each service's own records.
"""

from __future__ import annotations

from typing import NamedTuple

from compoworld_gym.envs.services._company import DOMAIN, STAFF


class Engineer(NamedTuple):
    """An engineer: full name, work email, team key."""

    name: str
    email: str
    team: str


class App(NamedTuple):
    """A production application.

    ``key`` is the deploy project / monitored service name, ``component`` the
    public status-page component it backs, ``team`` the owning team,
    ``repo`` the source repository (``org/name``).
    """

    key: str
    name: str
    component: str
    team: str
    repo: str


def _eng(name: str, team: str) -> Engineer:
    return Engineer(name, name.lower().replace(" ", ".") + f"@{DOMAIN}", team)


_SRE = next(s for s in STAFF if s.team == "engineering")

#: Engineers, roster order. The first of each team is its level-1 on-call.
ENGINEERS: tuple[Engineer, ...] = (
    Engineer(_SRE.name, _SRE.email, "platform"),
    _eng("Nadia Haddad", "platform"),
    _eng("Kenji Watanabe", "payments"),
    _eng("Rachel Adeyemi", "payments"),
    _eng("Oscar Lindgren", "storefront"),
    _eng("Maya Goldberg", "storefront"),
    _eng("Victor Santos", "data"),
    _eng("Ines Moreau", "data"),
)

#: The engineering manager who is the last escalation level everywhere.
ENG_MANAGER = _eng("Carla Jensen", "platform")

APPS: tuple[App, ...] = (
    App("checkout-api", "Checkout API", "Checkout", "payments", "acme/checkout-api"),
    App("payments-service", "Payments Service", "Payments", "payments", "acme/payments-service"),
    App("web-frontend", "Web Storefront", "Website", "storefront", "acme/web-frontend"),
    App("search-api", "Search API", "Product Search", "storefront", "acme/search-api"),
    App("auth-service", "Auth Service", "Login & Accounts", "platform", "acme/auth-service"),
    App("notifications-worker", "Notifications Worker", "Email Notifications", "platform",
        "acme/notifications-worker"),
    App("reporting-etl", "Reporting ETL", "Reports & Exports", "data", "acme/reporting-etl"),
)
APPS_BY_KEY: dict[str, App] = {a.key: a for a in APPS}


def team_engineers(team: str) -> list[Engineer]:
    """The engineers of ``team``, roster order (level-1 on-call first)."""
    return [e for e in ENGINEERS if e.team == team]
