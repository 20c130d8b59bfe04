"""Seed data of the court e-filing service: the firm's cases, envelopes, contacts, accounts and calendar.

The firm is the one of ``legal_matters`` (Harlow & Reed): its attorneys of
record are that roster's litigators, so a case's lead attorney is a user the
practice-management system knows. Clients and opposing parties are Faker
names; opposing counsel are the firm's EFM service contacts.
"""

from __future__ import annotations

import datetime as dt
import random

from faker import Faker

from compoworld_gym.envs.services._blocks import seed_id
from compoworld_gym.envs.services._commerce import money
from compoworld_gym.envs.services._common import email_for
from compoworld_gym.envs.services._court_filings_models import (
    COURTS, Attorney, CourtCase, CourtFilingsState, Filing, FilingDocument, Hearing, Party, PaymentAccount,
    ServiceContact, court_day_problem,
)
from compoworld_gym.envs.services._court_filings_rules import fee_lines, total
from compoworld_gym.envs.services._legal_matters_seed import FIRM_DOMAIN, USERS

FIRM = "Harlow & Reed LLP"
#: The firm's attorneys who appear in court, with their state bar numbers.
LITIGATORS: tuple[tuple[str, str, str], ...] = tuple(
    (u.name, u.email, f"{218000 + 1371 * k}") for k, u in enumerate(USERS)
    if u.role == "attorney" and u.email.endswith(FIRM_DOMAIN))

#: (court, case type, status, client is a company, client's side, attorney index, fee waiver,
#:  hearings as (type, court-day index, time, status), filings as (codes, status, days ago)).
_CASES = (
    ("riverton:cv", "Breach of Contract/Warranty", "open", True, "Plaintiff", 1, False,
     (("Case Management Conference", 4, "08:30", "scheduled"),),
     ((("Notice of Appearance",), "accepted", 30), (("Notice of Motion and Motion", "Declaration"), "submitted", 1))),
    ("riverton:cv", "Wrongful Termination", "open", True, "Defendant", 2, False,
     (("Motion Hearing", 7, "10:00", "scheduled"),), ((("Answer",), "accepted", 24),)),
    ("riverton:lc", "Collections", "open", True, "Plaintiff", 1, False,
     (("Status Conference", 2, "13:30", "scheduled"),), ((("Request for Dismissal",), "rejected", 3),)),
    ("marlow:cir", "Business Tort", "open", True, "Defendant", 0, False,
     (("Trial Setting Conference", 9, "08:30", "scheduled"), ("Motion Hearing", -1, "10:00", "held")),
     ((("Answer",), "accepted", 40), (("Stipulation and Proposed Order",), "rejected", 2))),
    ("riverton:cv", "Wrongful Termination", "open", False, "Plaintiff", 2, True,
     (("Case Management Conference", 4, "10:00", "scheduled"),), ((("Case Management Statement",), "accepted", 6),)),
    ("riverton:cv", "Intellectual Property", "closed", True, "Plaintiff", 3, False, (),
     ((("Request for Dismissal",), "accepted", 20),)),
    ("marlow:cir", "Employment Discrimination", "open", False, "Defendant", 2, False,
     (("Ex Parte Hearing", 1, "15:00", "scheduled"),), ((("Ex Parte Application", "Declaration"), "submitted", 0),)),
    ("riverton:lc", "Unlawful Detainer - Commercial", "closed", True, "Plaintiff", 4, False, (),
     ((("Status Report",), "accepted", 35),)),
    ("riverton:cv", "Breach of Contract/Warranty", "open", True, "Defendant", 1, False,
     (("Motion Hearing", 4, "08:30", "vacated"), ("Status Conference", 12, "13:30", "scheduled")),
     ((("Opposition", "Proof of Service"), "cancelled", 8),)),
)
_REJECTIONS = {"Request for Dismissal": "Form CIV-110 is not signed by the attorney of record; sign and resubmit.",
               "Stipulation and Proposed Order": "Proposed order must be submitted as a separate document."}


def court_day(today: dt.date, n: int) -> dt.date:
    """The ``n``-th court day after ``today`` (n >= 1), or the ``-n``-th before it (n <= -1)."""
    step, day, seen = (1 if n > 0 else -1), today, 0
    while seen < abs(n):
        day += dt.timedelta(days=step)
        if court_day_problem(day) is None:
            seen += 1
    return day


def _accounts(state: CourtFilingsState, today: dt.date) -> None:
    for name, kind, last4, expires, active in (
            ("Firm Visa (litigation)", "credit_card", "4417", dt.date(today.year + 1, 8, 31), True),
            ("Operating account ACH", "bank_account", "0932", None, True),
            ("Old Amex", "credit_card", "1008", dt.date(today.year - 1, 12, 31), True),
            ("Court-granted fee waiver", "fee_waiver", None, None, True),
            ("Retired Mastercard", "credit_card", "5520", dt.date(today.year + 2, 3, 31), False)):
        aid = seed_id(state, "PAY")
        state.payment_accounts[aid] = PaymentAccount(id=aid, name=name, type=kind, last4=last4, expires_on=expires,
                                                     active=active)


def _case_number(court: str, filed: dt.date, rng: random.Random) -> str:
    c = COURTS[court]
    if court.startswith("marlow"):
        return f"{filed.year}-{c.case_prefix}-{rng.randint(10000, 99999)}"
    return f"{filed.year % 100:02d}{c.case_prefix}{rng.randint(1000, 19999):06d}"


def build_state(fake: Faker, rng: random.Random, today: dt.date) -> CourtFilingsState:
    """Nine cases in three courts (open and closed), their envelopes in every status, hearings and contacts."""
    state = CourtFilingsState()
    _accounts(state, today)
    for n, (court, ctype, status, company, side, lawyer, waiver, hearings, filings) in enumerate(_CASES, start=1):
        c = COURTS[court]
        room = sorted(c.courtrooms)[n % len(c.courtrooms)]
        client = fake.company() if company else f"{fake.first_name()} {fake.last_name()}"
        other = fake.company()
        lead_name, lead_email, bar = LITIGATORS[lawyer % len(LITIGATORS)]
        first, last, partner = fake.first_name(), fake.last_name(), fake.last_name()
        counsel_name, counsel_firm = f"{first} {last}", f"{partner} & {fake.last_name()} LLP"
        counsel_email = email_for(f"{first[0]}{last}", f"{partner.lower().replace(chr(39), '')}law.example")
        sc = ServiceContact(id=seed_id(state, "SC"), name=counsel_name, email=counsel_email, firm=counsel_firm)
        state.service_contacts[sc.id] = sc
        plaintiff, defendant = (client, other) if side == "Plaintiff" else (other, client)
        filed = today - dt.timedelta(days=60 + 11 * n)
        cid = seed_id(state, "CASE")
        case = CourtCase(
            id=cid, case_number=_case_number(court, filed, rng), court=court, court_name=c.name, city=c.city,
            case_type=ctype, title=f"{plaintiff} v. {defendant}", status=status, filed_on=filed,
            closed_on=today - dt.timedelta(days=10 + n) if status == "closed" else None,
            disposition={"Intellectual Property": "Dismissed with prejudice",
                         "Unlawful Detainer - Commercial": "Judgment for plaintiff"}.get(ctype)
            if status == "closed" else None,
            courtroom=room, judge=c.courtrooms[room], client_name=client, client_company=client if company else None,
            amount_in_controversy=float(rng.randrange(25000, 900000, 500)), fee_waiver=waiver,
            parties=[Party(name=plaintiff, party_type="Plaintiff", is_organization=company or side != "Plaintiff",
                           attorney_email=lead_email if side == "Plaintiff" else counsel_email),
                     Party(name=defendant, party_type="Defendant", is_organization=company or side != "Defendant",
                           attorney_email=lead_email if side == "Defendant" else counsel_email)],
            attorneys=[Attorney(name=lead_name, email=lead_email, bar_number=bar, firm=FIRM, represents=client),
                       Attorney(name=counsel_name, email=counsel_email, bar_number=str(rng.randint(150000, 330000)),
                                firm=counsel_firm, represents=other)],
            lead_attorney_email=lead_email, service_contact_ids=[sc.id])
        state.cases[cid] = case
        for htype, index, time, hstatus in hearings:
            hid = seed_id(state, "HRG")
            state.hearings[hid] = Hearing(
                id=hid, case_id=cid, case_number=case.case_number, court=court, courtroom=room, judge=case.judge,
                hearing_type=htype, date=court_day(today, index), time=time, status=hstatus,
                note="Vacated: parties stipulated to continue." if hstatus == "vacated" else "")
        for codes, fstatus, ago in filings:
            _filing(state, case, codes, fstatus, today - dt.timedelta(days=ago), sc.id)
    return state


def _filing(state: CourtFilingsState, case: CourtCase, codes: tuple[str, ...], status: str, day: dt.date,
            served: str) -> None:
    lines = fee_lines(codes, case.fee_waiver)
    fid = seed_id(state, "FIL")
    docs = [FilingDocument(filing_code=code, title=code, file_name=f"{code.lower().replace(' ', '_')}.pdf",
                           fee=lines[k].amount) for k, code in enumerate(codes)]
    payment = "waived" if case.fee_waiver else {"accepted": "captured", "submitted": "authorized"}.get(status, "voided")
    state.filings[fid] = Filing(
        id=fid, envelope_number=str(24_310_000 + 17 * int(fid[4:])), case_id=case.id, case_number=case.case_number,
        filer_email=case.lead_attorney_email, documents=docs, fees=lines, total_fees=money(total(lines)),
        payment_account_id="PAY-0004" if case.fee_waiver else "PAY-0001", payment_status=payment, status=status,
        submitted_on=day, reviewed_on=day + dt.timedelta(days=1) if status in ("accepted", "rejected") else None,
        rejection_reason=_REJECTIONS.get(codes[0]) if status == "rejected" else None,
        client_reference=case.title.split(" v. ")[0][:40], served_contact_ids=[served])
