"""Seed data of the ``github`` service: users, repositories with files,
branches, issues and pull requests of the company's GitHub organisation.

Staff come from the shared company roster (:mod:`._company`), so an issue
assignee here is the same person (same email) as in the mailbox or Slack.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import random

from compoworld_gym.envs.services._blocks import stamp
from compoworld_gym.envs.services._company import OPS_EMAIL, STAFF

ORG = "company-example"
VIEWER = "ops-bot"

FILES: dict[str, dict[str, str]] = {
    "storefront": {
        "README.md": "# Storefront\n\nThe customer web shop (cart, checkout, order history).\n",
        "src/cart.py": "def cart_total(lines):\n    return sum(l.price * l.qty for l in lines)\n",
        "src/checkout.py": "SHIPPING = {'standard': 5.99, 'express': 14.99}\n\n"
                           "def order_total(subtotal, method):\n    return subtotal + SHIPPING[method]\n",
        "docs/SETUP.md": "# Setup\n\n1. Install Python 3.11\n2. Run `make dev`\n",
    },
    "billing-service": {
        "README.md": "# Billing service\n\nIssues invoices and reconciles payments.\n",
        "billing/invoice.py": "def invoice_due_date(issued, terms_days=30):\n    return issued + terms_days\n",
        "config/settings.yaml": "currency: USD\nreminder_days: 7\nlate_fee_percent: 1.5\n",
    },
    "ops-runbooks": {
        "README.md": "# Ops runbooks\n\nStep-by-step procedures for the on-call team.\n",
        "runbooks/refunds.md": "# Refunds\n\nRefunds above $500 need approval from finance-approvals@company.example.\n",
        "runbooks/incidents.md": "# Incidents\n\nPage #incidents, then open an issue labelled `incident`.\n",
    },
}
DESCRIPTIONS = {"storefront": "Customer-facing web shop", "billing-service": "Invoicing and payment reconciliation",
                "ops-runbooks": "Operational procedures and checklists"}

BRANCH_CHANGES: dict[tuple[str, str], dict[str, str]] = {
    ("storefront", "fix/checkout-rounding"): {
        "src/checkout.py": "SHIPPING = {'standard': 5.99, 'express': 14.99}\n\n"
                           "def order_total(subtotal, method):\n    return round(subtotal + SHIPPING[method], 2)\n"},
    ("billing-service", "feature/late-fee-cap"): {
        "config/settings.yaml": "currency: USD\nreminder_days: 7\nlate_fee_percent: 1.5\nlate_fee_cap: 50\n",
        "billing/late_fee.py": "def late_fee(amount, percent, cap):\n    return min(amount * percent / 100, cap)\n"},
    ("ops-runbooks", "docs/refund-threshold"): {
        "runbooks/refunds.md": "# Refunds\n\nRefunds above $300 need approval from finance-approvals@company.example.\n"},
}

ISSUES: tuple[tuple[str, str, str, tuple[str, ...]], ...] = (
    ("storefront", "Checkout total shows 3 decimals for express shipping",
     "Customers see totals like 104.98999 at checkout.", ("bug", "customer-report")),
    ("storefront", "Cart badge does not update after removing an item", "Steps: add two items, remove one.", ("bug",)),
    ("storefront", "Add order history export to CSV", "Requested by several B2B customers.", ("enhancement",)),
    ("storefront", "Broken link to returns policy in footer", "The footer link returns 404.", ("bug", "good first issue")),
    ("billing-service", "Late fee applied twice on overdue invoices", "Invoice reminders add the fee again.",
     ("bug", "customer-report")),
    ("billing-service", "Cap late fees at $50", "Finance asked for a cap on late fees.", ("enhancement",)),
    ("billing-service", "Reconciliation job times out at month end", "The nightly job ran 3 hours.", ("incident",)),
    ("ops-runbooks", "Update refund approval threshold", "Finance lowered the threshold to $300.", ("documentation",)),
    ("ops-runbooks", "Document the VIP escalation path", "Link the #vip-accounts channel.", ("documentation",)),
    ("ops-runbooks", "Runbook for payment provider outage", "We had no checklist last time.", ("incident",)),
)


def login_of(name: str) -> str:
    """GitHub login of a staff member: lower-case name with dashes."""
    return name.lower().replace(" ", "-").replace("'", "")


def users() -> list[dict]:
    """Viewer plus every staff member: ``{login, name, email}``."""
    out = [{"login": VIEWER, "name": "Operations Bot", "email": OPS_EMAIL}]
    out += [{"login": login_of(s.name), "name": s.name, "email": s.email} for s in STAFF]
    return out


def _commit(branch: dict, message: str, files: dict[str, str], author: str, when: dt.datetime) -> None:
    parent = branch["commits"][-1]["sha"] if branch["commits"] else ""
    digest = "\n".join([parent, message, when.isoformat()] + sorted(f"{p}:{c}" for p, c in files.items()))
    branch["files"].update(files)
    branch["commits"].append({"sha": hashlib.sha1(digest.encode()).hexdigest(), "message": message,
                              "author": author, "date": when, "files": sorted(files)})


def build_state(rng: random.Random, today: dt.date) -> dict:
    """The seeded state of the github service as plain data (validated by the caller)."""
    people = users()
    staff = [u["login"] for u in people[1:]]
    repos, counters = {}, {}
    for name, files in FILES.items():
        main = {"files": {}, "commits": []}
        _commit(main, "Initial commit", dict(files), rng.choice(staff), stamp(today, 120, rng))
        branches = {"main": main}
        for (repo, branch), changes in BRANCH_CHANGES.items():
            if repo == name:
                b = {"files": dict(main["files"]), "commits": list(main["commits"])}
                _commit(b, f"Work on {branch}", changes, rng.choice(staff), stamp(today, 6, rng))
                branches[branch] = b
        full = f"{ORG}/{name}"
        repos[full] = {"full_name": full, "owner": ORG, "name": name, "description": DESCRIPTIONS[name],
                       "private": name != "storefront", "branches": branches}
        counters[full] = 1
    issues = {}
    for repo, title, body, labels in ISSUES:
        full = f"{ORG}/{repo}"
        n = counters[full]
        counters[full] = n + 1
        created = stamp(today, rng.randint(3, 40), rng)
        comments = []
        if rng.random() < 0.5:
            comments.append({"id": len(issues) + 1, "user": rng.choice(staff), "body": "I can reproduce this.",
                             "created_at": created + dt.timedelta(hours=5)})
        issues[f"{full}#{n}"] = {
            "repo": full, "number": n, "title": title, "body": body,
            "state": "closed" if rng.random() < 0.2 else "open", "user": rng.choice(staff), "labels": list(labels),
            "assignees": rng.sample(staff, rng.randint(0, 1)), "created_at": created,
            "updated_at": comments[-1]["created_at"] if comments else created, "comments": comments}
    prs = {}
    for (repo, branch), _ in BRANCH_CHANGES.items():
        full = f"{ORG}/{repo}"
        n = counters[full]
        counters[full] = n + 1
        created = stamp(today, rng.randint(1, 5), rng)
        prs[f"{full}#{n}"] = {"repo": full, "number": n, "title": branch.split("/", 1)[1].replace("-", " ").capitalize(),
                              "body": f"Changes from {branch}.", "state": "open", "user": rng.choice(staff),
                              "head": branch, "base": "main", "created_at": created, "updated_at": created}
    counters["comment"] = len(issues) + 1
    return {"users": {u["login"]: u for u in people}, "repositories": repos, "issues": issues,
            "pull_requests": prs, "counters": counters}
