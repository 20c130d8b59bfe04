"""Seed of the word_documents service: the company's business documents.

Master services agreements with the shared business accounts
(``_accounts.ACCOUNTS``: company, contact, account manager), each with a
key-terms table (table 0) naming the customer, contact, account manager,
contract value and dates; a superseded agreement in ``contracts/archive``;
proposals pricing the shared product catalogue (``_commerce.PRODUCTS``);
policies (one protected); meeting notes. The contract and policy builders
are shared with the generation hook.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import random
from typing import Optional

from faker import Faker

from compoworld_gym.envs.services._accounts import ACCOUNTS
from compoworld_gym.envs.services._commerce import PRODUCTS, money
from compoworld_gym.envs.services._company import STAFF
from compoworld_gym.envs.services._word_documents_models import (
    Document, Note, Paragraph, Protection, Table, TextFormat, WordState,
)

CONTRACTS, ARCHIVE, POLICIES = "contracts", "contracts/archive", "policies"
#: Passwords of the seeded protected documents (the legal and HR teams hold them).
LEGAL_PASSWORD, HR_PASSWORD = "Acme-Legal-2026", "HR-Only-2026"
IMAGES = ("images/acme_logo.png", "images/org_chart.png", "images/signature_priya_raman.png",
          "images/globex_logo.jpg", "images/workspace_render.png")
#: The body paragraph of a contract that states its fees (footnotes about money go there).
FEES_HEADING = "3. Fees and Payment"
_NAMES = {s.email: s.name for s in STAFF}


def password_hash(password: str) -> str:
    """The stored form of a protection password (SHA-256 hex)."""
    return hashlib.sha256(password.encode()).hexdigest()


def contract_title(company: str) -> str:
    """The title of a company's master services agreement."""
    return f"Master Services Agreement — {company}"


def contract_filename(company: str, year: int, folder: str = CONTRACTS) -> str:
    """Where a company's agreement for ``year`` is filed."""
    return f"{folder}/{company.replace(' ', '_').replace('.', '')}_MSA_{year}.docx"


def _p(text: str, style: str = "Normal", **kw: object) -> Paragraph:
    return Paragraph(text=text, style=style, **kw)


def contract_document(filename: str, *, company: str, contact_name: str, contact_email: str, owner_email: str,
                      value: float, effective: dt.date, renewal: dt.date, at: dt.datetime,
                      terms: str = "Net 30") -> Document:
    """A master services agreement whose key-terms table (table 0) states the customer,
    contact, account manager, contract value (USD) and dates (ISO)."""
    owner = _NAMES.get(owner_email, owner_email)
    paras = [
        _p("Master Services Agreement", "Title"),
        _p(f'This Master Services Agreement is made between Acme Inc. ("Acme") and {company} ("Customer"), '
           f"effective {effective:%B %d, %Y}."),
        _p("1. Key Terms", "Heading 1"),
        _p("2. Services", "Heading 1"),
        _p("Acme supplies office equipment, furniture and accessories under order forms signed under this "
           "Agreement, with delivery to the Customer's sites."),
        _p(FEES_HEADING, "Heading 1"),
        _p(f"Customer pays the annual contract value of USD {value:,.2f} in four quarterly instalments, due "
           f"{terms.lower()} from invoice."),
        _p("4. Term and Renewal", "Heading 1"),
        _p(f"The Agreement runs until {renewal.isoformat()} and renews for one year unless either party gives "
           "60 days' written notice."),
        _p("5. Signatures", "Heading 1"),
        _p(f"Signed for Acme Inc.: {owner}. Signed for {company}: {contact_name}."),
    ]
    paras[6].formats.append(TextFormat(start=paras[6].text.index("USD"), end=paras[6].text.index(" in four"),
                                       bold=True))
    table = Table(position=3, has_header_row=True, cells=[
        ["Term", "Detail"], ["Customer", company], ["Customer contact", contact_email],
        ["Account manager", owner_email], ["Contract value", f"USD {value:,.2f}"], ["Payment terms", terms],
        ["Effective date", effective.isoformat()], ["Renewal date", renewal.isoformat()]])
    return Document(filename=filename, title=contract_title(company), author=owner, subject="Customer agreement",
                    created=at, modified=at, last_modified_by=owner, revision=3, paragraphs=paras, tables=[table],
                    footnotes=[Note(paragraph_index=6, text="Amounts exclude sales tax.")])


def policy_document(filename: str, title: str, body: list[str], at: dt.datetime, author: str = "Aisha Khan",
                    password: Optional[str] = None) -> Document:
    """A policy: its title, then one paragraph per rule, then who approved it."""
    paras = [_p(title, "Title"), *(_p(t) for t in body), _p("Approved by Operations. Questions go to "
                                                             "privacy@company.example.", "Quote")]
    prot = Protection(password_sha256=password_hash(password), protected_on=at) if password else None
    return Document(filename=filename, title=title, author=author, subject="Policy", created=at, modified=at,
                    last_modified_by=author, revision=2, paragraphs=paras, protection=prot)


def _proposal(company: str, contact: str, owner: str, rng: random.Random, at: dt.datetime) -> Document:
    items = rng.sample(PRODUCTS, 3)
    rows = [["SKU", "Product", "Quantity", "Unit price", "Line total"]]
    total = 0.0
    for p in items:
        qty = rng.choice((10, 20, 25, 40, 50))
        line = money(p.price * qty)
        total = money(total + line)
        rows.append([p.sku, p.name, str(qty), f"{p.price:.2f}", f"{line:.2f}"])
    paras = [_p(f"Workspace Refresh Proposal for {company}", "Title"),
             _p(f"Prepared for {contact} by {_NAMES.get(owner, owner)}.", "Subtitle"),
             _p("Scope", "Heading 1"), _p("Equipment for the new open-plan floor, delivered and assembled."),
             _p("Pricing", "Heading 1"),
             _p(f"Total before tax: USD {total:,.2f}. Prices hold for 30 days."),
             _p("", kind="picture", image_path="images/workspace_render.png", image_width=6.0)]
    return Document(filename=f"proposals/{company.replace(' ', '_')}_Workspace_Proposal.docx",
                    title=f"Workspace Refresh Proposal — {company}", author=_NAMES.get(owner, owner),
                    subject="Proposal", created=at, modified=at, revision=4, paragraphs=paras,
                    tables=[Table(position=5, cells=rows, has_header_row=True)])


def _policies(at: dt.datetime) -> list[Document]:
    return [
        policy_document(f"{POLICIES}/Refund_Policy.docx", "Refund Policy", [
            "Customers may return unused items within 30 days of delivery for a full refund.",
            "Damaged items are refunded or replaced at the customer's choice; no return is needed under USD 50.00.",
            "Refunds go back to the original payment method within 5 business days."], at),
        policy_document(f"{POLICIES}/Travel_and_Expense_Policy.docx", "Travel and Expense Policy", [
            "Book economy class for flights under six hours.",
            "Hotel nights are reimbursed up to USD 220.00 in major cities and USD 160.00 elsewhere."], at,
            author="Elena Petrova"),
        policy_document(f"{POLICIES}/Remote_Work_Policy.docx", "Remote Work Policy", [
            "Employees may work remotely up to three days a week with their manager's approval.",
            "Home-office equipment is ordered through the internal store with the REMOTE-2026 code."], at,
            author="Aisha Khan", password=HR_PASSWORD),
    ]


def _notes(at: dt.datetime) -> Document:
    paras = [_p("Weekly Ops Sync", "Title"), _p(f"{at:%B %d, %Y} — attendees: Priya Raman, Daniel Cho, Luis Ortega."),
             _p("Decisions", "Heading 1"),
             _p("Globex renewal pricing to be confirmed with finance before the account review.", "List Bullet"),
             _p("Refund backlog from the holiday peak to be cleared by Friday.", "List Bullet"),
             _p("Actions", "Heading 1"),
             _p("Daniel to check carrier delays on December orders.", "List Bullet")]
    return Document(filename="Weekly_Ops_Sync_Notes.docx", title="Weekly Ops Sync", author="Priya Raman",
                    created=at, modified=at, last_modified_by="Priya Raman", paragraphs=paras)


def build_state(fake: Faker, rng: random.Random, today: dt.date) -> WordState:
    """Five agreements (one protected), one superseded, two proposals, three policies, meeting notes."""
    state = WordState(images=list(IMAGES))
    stamp = lambda days: dt.datetime.combine(today - dt.timedelta(days=days),  # noqa: E731
                                             dt.time(rng.randint(9, 17), rng.randint(0, 59)))
    for n, acct in enumerate(ACCOUNTS[:5]):
        effective = today - dt.timedelta(days=rng.randint(30, 300))
        value = money(rng.randrange(24000, 180000, 250))
        doc = contract_document(contract_filename(acct.company, effective.year), company=acct.company,
                                contact_name=acct.contact_name, contact_email=acct.contact_email,
                                owner_email=acct.owner_email, value=value, effective=effective,
                                renewal=effective + dt.timedelta(days=364),
                                at=stamp(rng.randint(3, 25)))
        if acct.company == "Initech":  # executed and locked by legal
            doc.protection = Protection(password_sha256=password_hash(LEGAL_PASSWORD), protected_on=doc.modified)
        state.documents[doc.filename] = doc
    old = ACCOUNTS[0]
    start = today.replace(year=today.year - 2, month=2, day=1)
    doc = contract_document(contract_filename(old.company, start.year, ARCHIVE), company=old.company,
                            contact_name=old.contact_name, contact_email=old.contact_email,
                            owner_email=old.owner_email, value=money(rng.randrange(20000, 90000, 250)),
                            effective=start, renewal=start + dt.timedelta(days=364),
                            at=stamp(400))
    state.documents[doc.filename] = doc
    for acct in ACCOUNTS[6:8]:
        d = _proposal(acct.company, acct.contact_name, acct.owner_email, rng, stamp(rng.randint(2, 10)))
        state.documents[d.filename] = d
    for d in _policies(stamp(60)):
        state.documents[d.filename] = d
    notes = _notes(stamp(3))
    state.documents[notes.filename] = notes
    return state
