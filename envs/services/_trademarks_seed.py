"""Seed data of the trademarks service: the company's own trademark portfolio.

The owner is the company (Acme Inc.); the marks are its product brands (the
shared catalogue's SKUs in ``_commerce``). Outside counsel of record is the
IP attorney of the law firm the legal services share (``_legal_matters_seed``:
Harlow Reed, Nathan Brooks); the in-house docket contact is the company's
counsel from the ``_company`` roster. Dates are relative to ``today``, so
every rule has a live case: office actions due soon, overdue, extended,
answered; abandoned applications inside and past the revival period; and
registrations before, inside and after their Section 8 window.
"""

from __future__ import annotations

import datetime as dt
import random

from compoworld_gym.envs.services._company import STAFF
from compoworld_gym.envs.services._legal_matters_seed import USERS
from compoworld_gym.envs.services._trademarks_models import (
    DocketEntry, Filing, GoodsServices, HistoryEntry, OfficeAction, TrademarkApplication, TrademarksState,
)
from compoworld_gym.envs.services._trademarks_rules import FEES, add_months, add_years

OWNER = "Acme Inc."
OWNER_ADDRESS = "100 Market Street, San Francisco, CA 94105"
ATTORNEY = next(u for u in USERS if u.practice_area == "Intellectual Property")
COUNSEL = next(s for s in STAFF if s.team == "privacy")
#: First serial number handed to a new application.
FIRST_NEW_SERIAL = 98600001
EXAMINERS = (("Caroline Weiss", "Law Office 118"), ("Jared Holloway", "Law Office 104"),
             ("Monique Alvarez", "Law Office 127"), ("Peter Sung", "Law Office 112"))

#: (serial, mark, sku, class, goods, basis, scenario, registration number)
PORTFOLIO = (
    ("97412236", "ACME", None, 35, "Online retail store services featuring computer peripherals and office "
     "furniture", "1(a)", "sec8_open", "6512345"),
    ("88154021", "KEYFORGE", "KB-MECH-01", 9, "Computer keyboards", "1(a)", "sec8_grace", "6012877"),
    ("86733190", "ERGOLINE", "CH-ERG-05", 20, "Office chairs", "1(a)", "sec8_done", "5034412"),
    ("90877310", "LUMADESK", "LP-LED-07", 11, "LED desk lamps", "1(a)", "registered_young", "6890021"),
    ("98221457", "HUBLINE", "HB-USBC-03", 9, "USB hubs", "1(a)", "oa_new", None),
    ("98310842", "QUIETWAVE", "HS-NC-13", 9, "Noise-cancelling headsets", "1(a)", "oa_due_soon", None),
    ("98054117", "STANDRISE", "DK-STD-06", 20, "Standing desk frames", "1(a)", "final_extended", None),
    ("97988655", "CLEARVIEW 4K", "MN-27K-04", 9, "Computer monitors", "1(a)", "oa_overdue", None),
    ("97650981", "PAGECRAFT", "NB-A5-08", 16, "Paper notebooks", "1(b)", "abandoned_recent", None),
    ("97500234", "TRAILPACK", "BP-LAP-10", 18, "Backpacks for laptops", "1(a)", "abandoned_old", None),
    ("98411276", "CAMSHARP", "WC-HD-12", 9, "Web cameras", "1(a)", "published", None),
    ("98502219", "DESKFELT", "MT-FLT-14", 16, "Felt desk pads", "1(b)", "new", None),
    ("98176540", "GELFLOW", "PN-GEL-09", 16, "Gel ink pens", "1(a)", "responded", None),
)
_ISSUES = {
    "HUBLINE": ["Section 2(d) refusal: likelihood of confusion with Reg. No. 5871203 (HUBLYNE)",
                "Identification of goods indefinite: specify 'USB hubs' as computer hardware"],
    "QUIETWAVE": ["Section 2(e)(1) refusal: merely descriptive of a feature of the goods",
                  "Specimen does not show the mark in use on the goods"],
    "STANDRISE": ["Final refusal under Section 2(d): likelihood of confusion with Reg. No. 6244190 (STAND-RISE)"],
    "CLEARVIEW 4K": ["Disclaimer required: '4K'", "Section 2(d) refusal: prior pending Serial No. 97102554"],
    "PAGECRAFT": ["Identification of goods indefinite: 'paper notebooks' must name the paper type"],
    "TRAILPACK": ["Section 2(d) refusal: likelihood of confusion with Reg. No. 4477120 (TRAIL PAK)"],
    "GELFLOW": ["Disclaimer required: 'GEL'"],
}


class _Builder:
    def __init__(self, rng: random.Random, today: dt.date) -> None:
        self.rng, self.today, self.st = rng, today, TrademarksState()
        self.n_oa = self.n_fil = self.n_dkt = 1

    def day(self, months: int = 0, days: int = 0) -> dt.date:
        return add_months(self.today, months) + dt.timedelta(days=days)

    def at(self, d: dt.date) -> dt.datetime:
        return dt.datetime.combine(d, dt.time(10 + self.rng.randint(0, 6), self.rng.choice((0, 15, 30, 45))))

    def history(self, app: TrademarkApplication, d: dt.date, code: str, text: str) -> None:
        app.history.append(HistoryEntry(entry_number=len(app.history) + 1, date=d, code=code, description=text))

    def action(self, app: TrademarkApplication, kind: str, issued: dt.date, status: str = "open",
               extended: bool = False) -> OfficeAction:
        name, office = EXAMINERS[(self.n_oa - 1) % len(EXAMINERS)]
        deadline = add_months(issued, 3 + (3 if extended else 0))
        oa = OfficeAction(id=f"OA-{self.n_oa:04d}", serial_number=app.id, action_type=kind, issued_on=issued,
                          response_deadline=deadline, extended=extended, examining_attorney=name, law_office=office,
                          issues=_ISSUES[app.mark_literal], status=status)
        self.n_oa += 1
        self.st.office_actions[oa.id] = oa
        self.history(app, issued, "GNRN" if kind == "non_final" else "GNFR",
                     f"{'Non-final action' if kind == 'non_final' else 'Final refusal'} e-mailed ({oa.id}, {name})")
        return oa

    def filing(self, app: TrademarkApplication, kind: str, on: dt.date, text: str = "", oa: str | None = None,
               fee: float | None = None) -> Filing:
        f = Filing(id=f"TC-{self.n_fil:04d}", serial_number=app.id, filing_type=kind, office_action_id=oa,
                   filed_at=self.at(on), text=text, signatory_email=ATTORNEY.email,
                   classes=[g.nice_class for g in app.goods_services],
                   fee=FEES[kind] * len(app.goods_services) if fee is None else fee)
        self.n_fil += 1
        self.st.filings[f.id] = f
        return f

    def docket(self, app: TrademarkApplication, note: str, due: dt.date | None, oa: str | None = None) -> None:
        e = DocketEntry(id=f"DKT-{self.n_dkt:04d}", serial_number=app.id, office_action_id=oa, note=note,
                        due_date=due, author_email=COUNSEL.email, created_at=self.at(self.day(days=-3)))
        self.n_dkt += 1
        self.st.docket[e.id] = e

    def build(self, serial, mark, sku, nice, goods, basis, scenario, reg_no) -> None:
        ago = {"sec8_open": 64, "sec8_grace": 75, "sec8_done": 121, "registered_young": 36}.get(scenario)
        reg = self.day(months=-ago) if ago else None
        filed = add_months(reg, -14) if reg else self.day(months=-{"new": 0}.get(scenario, 9), days=-10)
        app = TrademarkApplication(
            id=serial, registration_number=reg_no, mark_literal=mark, mark_type="standard_characters",
            owner_name=OWNER, owner_address=OWNER_ADDRESS, attorney_name=ATTORNEY.name, attorney_email=ATTORNEY.email,
            docket_contact_email=COUNSEL.email, product_sku=sku,
            goods_services=[GoodsServices(nice_class=nice, description=goods)], filing_basis=basis,
            filing_date=filed, status_code="630", status_date=filed)
        self.history(app, filed, "NWAP", "New application entered")
        if reg:
            app.publication_date = add_months(reg, -3)
            self.history(app, app.publication_date, "NPUB", "Published for opposition")
            self.history(app, reg, "R.PR", "Registered - principal register")
            app.registration_date, app.status_code, app.status_date = reg, "700", reg
        if scenario == "sec8_open":
            self.docket(app, "Section 8 window is open; collect a current specimen from the storefront.",
                        add_years(reg, 6))
        elif scenario == "sec8_grace":
            self.docket(app, "Section 8 deadline passed; file in the grace period with the surcharge.",
                        add_months(add_years(reg, 6), 6))
        elif scenario == "sec8_done":
            on = add_years(reg, 5) + dt.timedelta(days=40)
            self.filing(app, "section_8", on, "Specimen: product page showing ERGOLINE on the chair listing.")
            self.filing(app, "section_15", on, "Five years of continuous use since registration.")
            app.section_8_filed_on, app.section_15_filed_on = on, on
            self.history(app, on + dt.timedelta(days=60), "E8AC", "Sec. 8 accepted and Sec. 15 acknowledged")
            app.status_code, app.status_date = "702", on + dt.timedelta(days=60)
        elif scenario in ("oa_new", "oa_due_soon", "oa_overdue", "responded"):
            months, days = {"oa_new": (-1, 0), "oa_due_soon": (-3, 10), "oa_overdue": (-3, -10),
                            "responded": (-2, 0)}[scenario]
            oa = self.action(app, "non_final", self.day(months, days))
            app.status_code, app.status_date = "641", oa.issued_on
            if scenario == "responded":
                on = oa.issued_on + dt.timedelta(days=35)
                f = self.filing(app, "response", on, "Disclaimer entered: No claim is made to the exclusive right to "
                                "use GEL apart from the mark as shown.", oa.id, 0.0)
                oa.status, oa.responded_on, oa.response_filing_id = "responded", on, f.id
                self.history(app, on, "TEME", "Response after non-final action entered")
                app.status_code, app.status_date = "661", on
            elif scenario != "oa_overdue":
                self.docket(app, f"Response to {oa.id} due; arguments with Harlow Reed.", oa.response_deadline, oa.id)
        elif scenario == "final_extended":
            first = self.action(app, "non_final", self.day(-9))
            first.status, first.responded_on = "responded", first.issued_on + dt.timedelta(days=60)
            self.history(app, first.responded_on, "TEME", "Response after non-final action entered")
            oa = self.action(app, "final", self.day(-4), extended=True)
            f = self.filing(app, "extension_request", oa.issued_on + dt.timedelta(days=80), oa=oa.id, fee=125.0)
            self.history(app, f.filed_at.date(), "EXT3", f"Extension of time to respond to {oa.id} granted")
            app.status_code, app.status_date = "644", oa.issued_on
            self.docket(app, f"Final refusal {oa.id}: extended once; respond or appeal.", oa.response_deadline, oa.id)
        elif scenario in ("abandoned_recent", "abandoned_old"):
            gone = self.day(days=-20) if scenario == "abandoned_recent" else self.day(-5)
            oa = self.action(app, "non_final", add_months(gone, -3) - dt.timedelta(days=5), status="abandoned")
            self.history(app, gone, "MAB6", f"Notice of abandonment: no response to {oa.id}")
            app.status_code, app.status_date, app.abandoned_on = "602", gone, gone
        elif scenario == "published":
            app.publication_date = self.day(days=-14)
            self.history(app, app.publication_date, "NPUB", "Published for opposition")
            app.status_code, app.status_date = "686", app.publication_date
        elif scenario == "new":
            self.filing(app, "application", filed, f"Intent-to-use application for {mark}.")
        self.st.applications[serial] = app


def build_state(rng: random.Random, today: dt.date) -> TrademarksState:
    """The seeded portfolio (fixed content; ``rng`` only picks times of day)."""
    b = _Builder(rng, today)
    for row in PORTFOLIO:
        b.build(*row)
    b.st.counters.update({"OA": b.n_oa, "TC": b.n_fil, "DKT": b.n_dkt, "SN": FIRST_NEW_SERIAL})
    return b.st
