"""Seed data of the presentations service: the company's open decks and the files on disk.

Open at the start (the session the server restored), each also saved under
``decks/``: the Q4 FY2025 quarterly business review (revenue chart, KPI
table, highlights), the January board update (financial summary, headcount
by team, risks) and three customer QBR decks for accounts of the shared
B2B roster (``_accounts``: the company, its main contact and account
manager), each with an account-summary table whose ``Open opportunity``
cell is still ``TBD``. ``decks/archive/`` holds last quarter's review,
which is not open. The Q4 review is the current presentation.
"""

from __future__ import annotations

import datetime as dt
import random
from typing import Any, Optional, Sequence

from faker import Faker

from compoworld_gym.envs.services._accounts import ACCOUNTS
from compoworld_gym.envs.services._blocks import day_start, seed_id
from compoworld_gym.envs.services._company import STAFF
from compoworld_gym.envs.services._presentations_models import (
    CoreProperties, Presentation, PresentationsState, SavedFile, Shape, Slide,
)
from compoworld_gym.envs.services._presentations_rules import (
    LAYOUTS, make_chart, make_table, placeholders, set_text,
)

#: Row of the account-summary table (slide 1, shape 1) that holds the open opportunity, and its value column.
OPPORTUNITY_ROW, VALUE_COL = 2, 1
QBR_SUMMARY_SLIDE, QBR_SUMMARY_SHAPE = 1, 1
_NAMES = {s.email: s.name for s in STAFF}


def presentation_id(n: int) -> str:
    """The id the server gives the ``n``-th presentation: ``presentation_<n>``."""
    return f"presentation_{n}"


def next_presentation_id(counters: dict[str, int]) -> str:
    """Take the next presentation id from a state's counters (JSON or model)."""
    n = counters.get("presentation", 1)
    counters["presentation"] = n + 1
    return presentation_id(n)


def _slide(state: PresentationsState, pid: str, n: int, layout_index: int, title: str) -> Slide:
    shapes = placeholders(layout_index)
    if shapes and shapes[0].placeholder_type == "title":
        set_text(shapes[0], [title])
    return Slide(id=seed_id(state, "SLD"), presentation_id=pid, slide_id=256 + n, layout_index=layout_index,
                 layout_name=LAYOUTS[layout_index][0], shapes=shapes)


def build_deck(state: PresentationsState, pid: str, props: CoreProperties, specs: Sequence[tuple],
               customer: Optional[str] = None, file_path: Optional[str] = None,
               saved_at: Optional[dt.datetime] = None) -> Presentation:
    """Add an open presentation ``pid`` from slide specs, and its saved file when ``file_path`` is given.

    A spec is ``("title", title, subtitle)``, ``("bullets", title, [bullets])``, ``("table", title, name,
    rows)`` or ``("chart", title, name, chart_type, categories, [(series, values)])``.
    """
    deck = Presentation(id=pid, file_path=file_path, core_properties=props, customer=customer)
    for n, spec in enumerate(specs):
        kind, title = spec[0], spec[1]
        s = _slide(state, pid, n, {"title": 0, "bullets": 1}.get(kind, 5), title)
        if kind == "title":
            set_text(s.shapes[1], [spec[2]])
        elif kind == "bullets":
            set_text(s.shapes[1], spec[2])
        elif kind == "table":
            rows = spec[3]
            s.shapes.append(Shape(shape_id=3, name=spec[2], shape_type="table", left=0.5, top=1.75, width=9.0,
                                  height=0.45 * len(rows),
                                  table=make_table(len(rows), len(rows[0]), rows, header_row=True)))
        else:
            s.shapes.append(Shape(shape_id=3, name=spec[2], shape_type="chart", left=0.5, top=1.75, width=9.0,
                                  height=5.0, chart=make_chart(spec[3], spec[4], spec[5], title=spec[2])))
        state.slides[s.id] = s
        deck.slide_ids.append(s.id)
    state.presentations[pid] = deck
    if file_path:
        state.files[file_path] = SavedFile(id=file_path, core_properties=props, customer=customer,
                                           slides=[state.slides[i].model_copy(deep=True) for i in deck.slide_ids],
                                           saved_at=saved_at or props.modified)
    return deck


def qbr_specs(company: str, contact: str, title: str, acv: float, renewal: str, manager: str,
              usage: Sequence[float], opportunity: str = "TBD") -> list[tuple]:
    """The slides of a customer QBR deck (the account summary is slide 1, its table shape 1)."""
    months = ["Aug", "Sep", "Oct", "Nov", "Dec", "Jan"]
    return [("title", f"{company}: Quarterly Business Review", f"Prepared for {contact}, {title}"),
            ("table", "Account summary", "Account summary",
             [["Metric", "Value"], ["Annual contract value", f"${acv:,.2f}"], ["Open opportunity", opportunity],
              ["Renewal date", renewal], ["Account manager", manager]]),
            ("chart", "Platform usage", "Monthly active users", "line", months, [("Active users", list(usage))]),
            ("bullets", "Next steps", ["Confirm renewal scope and timeline", "Expand to a second team",
                                       "Schedule an executive sponsor check-in"])]


def qbr_props(company: str, contact: str, email: str, author: str, when: dt.datetime) -> CoreProperties:
    """Core properties of a customer QBR deck: the company is the subject, the contact in the comments."""
    return CoreProperties(title=f"{company} Customer QBR", subject=company, author=author,
                          keywords="QBR, customer, renewal", comments=f"Customer contact: {contact} <{email}>",
                          last_modified_by=author, revision=3, created=when - dt.timedelta(days=6), modified=when)


def _money(rng: random.Random, lo: int, hi: int) -> float:
    return rng.randrange(lo, hi) * 100.0


def build_state(fake: Faker, rng: random.Random, today: dt.date) -> PresentationsState:
    """The decks described in the module docstring, figures drawn from ``rng``.

    Args:
        fake: seeded Faker (unused: people come from the shared rosters).
        rng: seeded random stream (revenue, headcount, contract values, usage).
        today: the task's date.
    """
    state = PresentationsState()
    start = day_start(today)
    quarters = ["Q1 FY25", "Q2 FY25", "Q3 FY25", "Q4 FY25"]
    revenue = [_money(rng, 16000, 19000)]
    for _ in range(3):
        revenue.append(round(revenue[-1] * rng.uniform(1.02, 1.09), -2))
    finance = "Elena Petrova"
    q4: list[Any] = [
        ("title", "Q4 FY2025 Quarterly Business Review", "Finance and Operations · January 2026"),
        ("chart", "Revenue by quarter", "Revenue by quarter", "column", quarters, [("Revenue (USD)", revenue)]),
        ("table", "KPI summary", "KPI summary",
         [["Metric", "Q3 FY25", "Q4 FY25"], ["Revenue", f"${revenue[2]:,.0f}", f"${revenue[3]:,.0f}"],
          ["Gross margin", f"{rng.randint(52, 58)}%", f"{rng.randint(55, 61)}%"],
          ["New customers", str(rng.randint(30, 45)), str(rng.randint(40, 60))],
          ["Net promoter score", str(rng.randint(38, 46)), str(rng.randint(42, 52))]]),
        ("bullets", "Highlights", ["Record holiday quarter in the online store",
                                   "Two enterprise renewals closed early", "Support backlog under 24 hours"])]
    when = start - dt.timedelta(days=2)
    build_deck(state, next_presentation_id(state.counters),
               CoreProperties(title="Q4 FY2025 Quarterly Business Review", subject="Quarterly business review",
                              author=finance, keywords="QBR, revenue, KPIs", last_modified_by=finance, revision=7,
                              created=when - dt.timedelta(days=12), modified=when),
               q4, file_path="decks/q4-fy2025-business-review.pptx")
    cash, burn = _money(rng, 42000, 56000), _money(rng, 3500, 5200)
    teams = ["Engineering", "Sales", "Customer Success", "Operations", "Finance"]
    board = [("title", "Board Update: January 2026", "Prepared by Finance for the board meeting"),
             ("table", "Financial summary", "Financial summary",
              [["Item", "Amount"], ["Cash on hand", f"${cash:,.2f}"], ["Monthly net burn", f"${burn:,.2f}"],
               ["Runway (months)", f"{cash / burn:.1f}"]]),
             ("chart", "Headcount by team", "Headcount by team", "bar", teams,
              [("Headcount", [float(rng.randint(4, 30)) for _ in teams])]),
             ("bullets", "Key risks", ["Carrier rate increases in Q1", "One enterprise renewal at risk",
                                       "Hiring plan behind by two roles"])]
    when = start - dt.timedelta(days=1, hours=3)
    build_deck(state, next_presentation_id(state.counters),
               CoreProperties(title="Board Update: January 2026", subject="Board update", author=finance,
                              keywords="board, finance", comments="Confidential: board members only.",
                              last_modified_by=finance, revision=4, created=when - dt.timedelta(days=5),
                              modified=when), board, file_path="decks/board-update-2026-01.pptx")
    for n, acct in enumerate(rng.sample(ACCOUNTS, 3)):
        manager = _NAMES.get(acct.owner_email, acct.owner_email)
        when = start - dt.timedelta(days=3 + n, hours=2)
        renewal = (today + dt.timedelta(days=rng.randint(40, 200))).isoformat()
        usage = [float(rng.randint(80, 400)) for _ in range(6)]
        specs = qbr_specs(acct.company, acct.contact_name, acct.contact_title, _money(rng, 300, 2400), renewal,
                          manager, usage)
        slug = acct.company.lower().replace(" ", "-")
        build_deck(state, next_presentation_id(state.counters),
                   qbr_props(acct.company, acct.contact_name, acct.contact_email, manager, when), specs,
                   customer=acct.company, file_path=f"decks/customers/{slug}-qbr.pptx")
    archive = CoreProperties(title="Q3 FY2025 Quarterly Business Review", subject="Quarterly business review",
                             author=finance, last_modified_by=finance, revision=9,
                             created=start - dt.timedelta(days=110), modified=start - dt.timedelta(days=95))
    q3 = [("title", "Q3 FY2025 Quarterly Business Review", "Finance and Operations · October 2025"), *q4[1:3]]
    old = build_deck(state, "archive", archive, q3, file_path="decks/archive/q3-fy2025-business-review.pptx")
    for sid in old.slide_ids:  # on disk only: not open
        del state.slides[sid]
    del state.presentations["archive"]
    state.current_presentation_id = presentation_id(1)
    return state
