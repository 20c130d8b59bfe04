"""Rules of the customs service: classification, duty and fee arithmetic, required documents.

Duty is rate x entered value per line; the merchandise processing fee is
0.3464% of the entry's value within its minimum and maximum (a flat fee on an
informal entry); the harbor maintenance fee is 0.125% of the value of ocean
cargo. An entry needs its commercial invoice, packing list, its mode's
transport document and the partner-agency form of any flagged HTS line.
"""

from __future__ import annotations

import re
from typing import Iterable

from compoworld_gym.envs.services._commerce import money
from compoworld_gym.envs.services._customs_models import (
    AGENCY_DOCUMENT, HMF_RATE, HTS, MPF_INFORMAL, MPF_MAX, MPF_MIN, MPF_RATE, TRANSPORT_DOCUMENT, Entry,
    EntryDocument, EntryLine, HtsCode,
)
from compoworld_gym.errors import Conflict, Unprocessable

#: The broker's ABI filer code, the first part of every entry number.
FILER_CODE = "CW7"


def hts_code(raw: str) -> HtsCode:
    """The tariff line of ``raw`` (dots and spaces optional, e.g. ``8471602000`` or ``8471.60.2000``).

    Raises:
        Unprocessable: 422 when it is not 10 digits or not a line of the tariff table.
    """
    digits = re.sub(r"[\s.]", "", raw)
    if not re.fullmatch(r"\d{10}", digits):
        raise Unprocessable(f"HTS code {raw!r} must have 10 digits, e.g. 8471.60.2000; call search_hts.")
    code = f"{digits[:4]}.{digits[4:6]}.{digits[6:]}"
    if code not in HTS:
        raise Unprocessable(f"HTS code {code} is not a valid line of the tariff schedule; call search_hts to "
                            "classify the goods.")
    return HTS[code]


def make_line(number: int, hts: HtsCode, description: str, origin: str, quantity: float, value: float) -> EntryLine:
    """An entry line with its duty (value x general rate, to the cent)."""
    return EntryLine(line_number=number, hts_code=hts.code, description=description, country_of_origin=origin,
                     quantity=quantity, value=money(value), duty_rate=hts.rate, duty=money(value * hts.rate))


def fees(value: float, mode: str, entry_type: str) -> tuple[float, float]:
    """``(mpf, hmf)`` of an entry of ``value`` USD (see the module docstring)."""
    if not value:
        return 0.0, 0.0
    mpf = MPF_INFORMAL if entry_type == "11" else min(max(money(value * MPF_RATE), MPF_MIN), MPF_MAX)
    hmf = money(value * HMF_RATE) if mode == "ocean" else 0.0
    return mpf, hmf


def recompute(entry: Entry) -> None:
    """Set an entry's totals from its lines, and its required documents from its mode and lines."""
    entry.entered_value = money(sum(ln.value for ln in entry.lines))
    entry.duty = money(sum(ln.duty for ln in entry.lines))
    entry.mpf, entry.hmf = fees(entry.entered_value, entry.mode, entry.entry_type)
    entry.total_due = money(entry.duty + entry.mpf + entry.hmf)
    needed = required_documents(entry.mode, (ln.hts_code for ln in entry.lines))
    have = {d.document_type: d for d in entry.documents}
    kept = [d for d in entry.documents if d.document_type in needed or d.status == "received"]
    for d in kept:
        d.required = d.document_type in needed
    kept += [EntryDocument(document_type=t, required=True, status="missing") for t in needed if t not in have]
    entry.documents = kept


def required_documents(mode: str, codes: Iterable[str]) -> list[str]:
    """The documents an entry of ``mode`` with HTS lines ``codes`` cannot be filed without, in a fixed order."""
    out = ["commercial_invoice", "packing_list", TRANSPORT_DOCUMENT[mode]]
    for code in codes:
        doc = AGENCY_DOCUMENT.get(HTS[code].agency or "")
        if doc and doc not in out:
            out.append(doc)
    return out


def open_holds(entry: Entry) -> list[str]:
    """Ids of the entry's open holds."""
    return [h.id for h in entry.holds if h.status == "open"]


def require(entry: Entry, allowed: tuple[str, ...], action: str) -> None:
    """Refuse ``action`` on an entry whose status is not in ``allowed``.

    Raises:
        Conflict: 409 naming the statuses it needs.
    """
    if entry.status not in allowed:
        raise Conflict(f"entry {entry.id} is {entry.status}; {action} needs status {' or '.join(allowed)}.")


def check_file(entry: Entry, informal_limit: float) -> None:
    """Refuse to file an entry with no lines, missing documents or an informal entry over the limit.

    Raises:
        Unprocessable: 422 saying what is missing.
    """
    if not entry.lines:
        raise Unprocessable(f"entry {entry.id} has no lines; add HTS-classified lines with add_entry_line.")
    missing = [d.document_type for d in entry.documents if d.required and d.status == "missing"]
    if missing:
        raise Unprocessable(f"entry {entry.id} is missing required documents: {', '.join(missing)}; upload them "
                            "with upload_entry_document.")
    if entry.entry_type == "11" and entry.entered_value > informal_limit:
        raise Unprocessable(f"an informal entry (type 11) is limited to {informal_limit:.2f} USD; this one is "
                            f"{entry.entered_value:.2f}: make it a formal entry (type 01).")


def entry_number(n: int) -> str:
    """The CBP entry number of the broker's ``n``-th entry (ENT-000n): filer code, 7-digit serial, check digit."""
    body = f"{4100 + 37 * n:07d}"
    check = sum(int(c) * (2 if k % 2 else 1) for k, c in enumerate(body)) % 10
    return f"{FILER_CODE}-{body}-{check}"
