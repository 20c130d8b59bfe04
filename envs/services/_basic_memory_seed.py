"""Seed data of the basic_memory service: the operations team's knowledge base.

Two projects. ``company`` (the default) has a note per store customer of the
shared roster naming their latest order of the shared order book (the same
ORD id the order system has), a note per B2B account of the shared book of
business with its main contact and account manager, product notes by SKU,
runbooks (with a superseded version in ``archive/``) and a meeting note;
``engineering`` has a note per application of the engineering catalog and a
postmortem. Notes link to each other with relations, so build_context has a
graph to follow.
"""

from __future__ import annotations

import datetime as dt
import random

from compoworld_gym.envs.services._accounts import ACCOUNTS
from compoworld_gym.envs.services._basic_memory_models import BasicMemoryState, Note, Project, parse, permalink_for
from compoworld_gym.envs.services._blocks import stamp
from compoworld_gym.envs.services._commerce import CUSTOMERS, PRODUCTS, order_book
from compoworld_gym.envs.services._company import TEAMS
from compoworld_gym.envs.services._engineering import APPS, team_engineers

HOME = "/home/ops/basic-memory"
_OPEN = ("pending", "paid", "fulfilled")


def add_note(state: BasicMemoryState, project: str, folder: str, title: str, content: str, *, entity_type: str = "note",
             tags: tuple[str, ...] = (), created: dt.datetime, updated: dt.datetime | None = None) -> Note:
    """Add a markdown note with the next ``MN`` id, parsing its observations and relations."""
    n = state.counters.get("MN", 1)
    state.counters["MN"] = n + 1
    observations, relations = parse(content)
    note = Note(id=f"MN-{n:04d}", project=project, title=title, folder=folder, permalink=permalink_for(folder, title),
                file_path=f"{folder}/{title}.md" if folder else f"{title}.md", entity_type=entity_type,
                tags=list(tags), content=content, observations=observations, relations=relations, created_at=created,
                updated_at=updated or created)
    state.notes[note.id] = note
    return note


def _customers(state: BasicMemoryState, rng: random.Random, today: dt.date) -> None:
    book = order_book(today)
    names = {p.sku: p.name for p in PRODUCTS}
    for k, c in enumerate(CUSTOMERS[:8]):
        orders = [o for o in book if o.customer.email == c.email]
        lines = [f"# {c.name}", "", "## Contact", f"- [email] {c.email}", f"- [address] {c.address}, {c.city}"]
        if orders:
            o = orders[-1]
            state_tag = "open" if o.status in _OPEN else o.status
            lines += ["", "## Orders", f"- [order] Latest order {o.id}, {o.status}, total ${o.total:.2f} "
                                       f"#{state_tag} (placed {o.placed_on})"]
            lines += [f"- purchased [[{names[ln.sku]}]]" for ln in o.lines]
        lines += ["", "## Notes", f"- [preference] Prefers {rng.choice(('email', 'phone', 'chat'))} contact",
                  "- handled_by [[Customer Support Playbook]]"]
        days = 2 + k if orders else 30 + k
        add_note(state, "company", "customers", c.name, "\n".join(lines) + "\n", entity_type="customer",
                 tags=("customer",), created=stamp(today, 200 + k, rng), updated=stamp(today, days, rng))


def _accounts(state: BasicMemoryState, rng: random.Random, today: dt.date) -> None:
    for k, a in enumerate(ACCOUNTS[:6]):
        renewal = today + dt.timedelta(days=20 + 17 * k)
        body = (f"# {a.company}\n\n## Account\n- [industry] {a.industry.capitalize()}\n"
                f"- [contact] {a.contact_name}, {a.contact_title} ({a.contact_email})\n"
                f"- [account_manager] Account manager: {a.owner_email}\n"
                f"- [renewal] Renewal date: {renewal.isoformat()} #renewal\n\n"
                f"- managed_by [[Account Management Playbook]]\n")
        add_note(state, "company", "accounts", a.company, body, entity_type="account", tags=("account", a.industry),
                 created=stamp(today, 300 + k, rng), updated=stamp(today, 10 + 3 * k, rng))


def _products(state: BasicMemoryState, rng: random.Random, today: dt.date) -> None:
    for k, p in enumerate(PRODUCTS):
        body = (f"# {p.name}\n\n- [sku] {p.sku}\n- [price] ${p.price:.2f} #{p.category}\n"
                f"- [shipping] {p.weight_kg} kg shipping weight\n- supported_by [[Returns Runbook]]\n")
        add_note(state, "company", "products", p.name, body, entity_type="product", tags=("product", p.category),
                 created=stamp(today, 400, rng), updated=stamp(today, 60 + k, rng))


_RUNBOOKS = (
    ("Refund Approvals", f"Refunds above $500 need approval from {TEAMS['finance'].email} before money moves.",
     f"Refunds above $300 need approval from {TEAMS['finance'].email}."),
    ("Returns Runbook", "Returns are accepted within 30 days of delivery; the customer pays return shipping "
                        "unless the item arrived damaged.", "Returns are accepted within 14 days of delivery."),
    ("Customer Support Playbook", f"Escalate VIP customers to {TEAMS['customer_success'].email} and "
                                  f"#{TEAMS['customer_success'].channel}.", None),
    ("Account Management Playbook", "Renewals are prepared 30 days before the renewal date by the account manager.",
     None),
)


def _runbooks(state: BasicMemoryState, rng: random.Random, today: dt.date) -> None:
    for k, (title, text, old) in enumerate(_RUNBOOKS):
        body = f"# {title}\n\n## Policy\n- [policy] {text}\n\n## Related\n- relates_to [[Incident Response]]\n"
        add_note(state, "company", "runbooks", title, body, entity_type="runbook", tags=("runbook",),
                 created=stamp(today, 500, rng), updated=stamp(today, 5 + 6 * k, rng))
        if old:
            add_note(state, "company", "archive", title, f"# {title} (superseded)\n\n- [policy] {old}\n",
                     entity_type="runbook", tags=("archived",), created=stamp(today, 700, rng))
    add_note(state, "company", "runbooks", "Incident Response",
             f"# Incident Response\n\n- [step] Page {TEAMS['engineering'].email} and post in "
             f"#{TEAMS['engineering'].channel} #oncall\n- [step] Open a status page incident within 15 minutes\n",
             entity_type="runbook", tags=("runbook", "incident"), created=stamp(today, 500, rng),
             updated=stamp(today, 1, rng))
    add_note(state, "company", "meetings", f"Weekly Ops Sync {today - dt.timedelta(days=3)}",
             "# Weekly Ops Sync\n\n- [decision] Lower the refund approval threshold review to Q2 #refunds\n"
             "- [action] Update the [[Returns Runbook]] with damaged-item photos (owner: support)\n"
             "- discussed [[Refund Approvals]]\n", entity_type="meeting", tags=("meeting",),
             created=stamp(today, 3, rng))


def _engineering(state: BasicMemoryState, rng: random.Random, today: dt.date) -> None:
    for k, app in enumerate(APPS):
        owner = team_engineers(app.team)[0]
        body = (f"# {app.name}\n\n- [service] Deploy project {app.key} #{app.team}\n- [repo] {app.repo}\n"
                f"- [owner] {owner.name} ({owner.email})\n- [status_page] Component {app.component}\n"
                f"- runbook [[Incident Response]]\n")
        add_note(state, "engineering", "services", app.name, body, entity_type="service", tags=("service", app.team),
                 created=stamp(today, 365, rng), updated=stamp(today, 8 + k, rng))
    app = APPS[0]
    add_note(state, "engineering", "postmortems", f"{app.name} timeouts postmortem",
             f"# {app.name} timeouts postmortem\n\n- [cause] Upstream client timeout of 5s was too short #timeouts\n"
             f"- [fix] Raise the timeout to 10s on branch fix/{app.key}-timeouts\n- about [[{app.name}]]\n",
             entity_type="postmortem", tags=("postmortem",), created=stamp(today, 6, rng))


def build_state(rng: random.Random, today: dt.date) -> BasicMemoryState:
    """The two projects and their notes."""
    state = BasicMemoryState(current_project="company", projects={
        "company": Project(name="company", path=f"{HOME}/company", is_default=True),
        "engineering": Project(name="engineering", path=f"{HOME}/engineering")})
    _customers(state, rng, today)
    _accounts(state, rng, today)
    _products(state, rng, today)
    _runbooks(state, rng, today)
    _engineering(state, rng, today)
    return state
