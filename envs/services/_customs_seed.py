"""Seed data of the customs service: the broker's importers and their entries in every status.

Entries are for the purchase orders the procurement book sends to suppliers
abroad (``PO-0005``, ``PO-0006``, ``PO-0009`` are the ones on order), carry
carrier tracking numbers in the shipping service's formats, and classify the
store's own products (``_commerce.PRODUCTS``) under the tariff table.
"""

from __future__ import annotations

import datetime as dt
import random

from faker import Faker

from compoworld_gym.envs.services._blocks import seed_id
from compoworld_gym.envs.services._customs_models import (
    HTS, PORTS, CustomsState, DutyPayment, Entry, Hold, Importer,
)
from compoworld_gym.envs.services._customs_rules import entry_number, make_line, recompute

#: The tariff line each product of the shared catalog is classified under.
PRODUCT_HTS: dict[str, str] = {
    "KB-MECH-01": "8471.60.2000", "MS-WL-02": "8471.60.9050", "HB-USBC-03": "8473.30.5100",
    "MN-27K-04": "8528.52.0000", "CH-ERG-05": "9401.30.8031", "DK-STD-06": "9403.20.0090",
    "LP-LED-07": "9405.21.8000", "NB-A5-08": "4820.10.2030", "PN-GEL-09": "9608.10.0000",
    "BP-LAP-10": "4202.92.3131", "CB-HDMI-11": "8544.42.9090", "WC-HD-12": "8525.89.5000",
    "HS-NC-13": "8518.30.2000", "MT-FLT-14": "6307.90.9891",
}
#: Entries: (mode, port, status, entry type, purchase order, lines as (sku, units, unit value, origin),
#:  holds as (type, reason, open), paid).
_ENTRIES = (
    ("ocean", "2704", "draft", "01", "PO-0005", (("KB-MECH-01", 400, 38.5, "CN"), ("HS-NC-13", 250, 66.0, "VN")),
     (), False),
    ("air", "4701", "draft", "11", None, (("WC-HD-12", 40, 21.0, "CN"),), (), False),
    ("ocean", "2709", "filed", "01", "PO-0006", (("CH-ERG-05", 120, 118.0, "CN"), ("LP-LED-07", 300, 11.9, "CN")),
     (), False),
    ("air", "2720", "filed", "01", None, (("BP-LAP-10", 500, 22.4, "VN"),), (), False),
    ("ocean", "4601", "under_review", "01", "PO-0009", (("MN-27K-04", 90, 198.0, "TW"),),
     (("Document review", "Commercial invoice values differ from the packing list.", False),), False),
    ("truck", "2304", "under_review", "01", None, (("DK-STD-06", 60, 210.0, "MX"),), (), True),
    ("ocean", "5301", "held", "01", None, (("HS-NC-13", 600, 64.5, "CN"), ("CB-HDMI-11", 2000, 2.3, "CN")),
     (("FCC review", "FCC Form 740 does not name the equipment authorization (FCC ID).", True),), False),
    ("air", "3901", "held", "01", None, (("PN-GEL-09", 5000, 0.92, "IN"),),
     (("CBP exam", "Intensive exam ordered: marking of country of origin.", True),), False),
    ("ocean", "2704", "released", "01", None, (("NB-A5-08", 3000, 1.85, "IN"), ("MT-FLT-14", 800, 5.6, "CN")),
     (), True),
    ("air", "2720", "released", "01", None, (("HB-USBC-03", 700, 15.2, "TW"),), (), False),
)
_CARRIER_PREFIX = {"ocean": "MAEU", "air": "176-", "truck": "LRD"}


def _tracking(mode: str, rng: random.Random) -> str:
    if mode == "air":
        return f"1ZCW{rng.randint(10**9, 10**10 - 1)}"
    if mode == "truck":  # the carrier's PRO number
        return f"PRO{rng.randint(10**8, 10**9 - 1)}"
    return f"{rng.choice(('MSCU', 'CMAU', 'MAEU'))}{rng.randint(10**6, 10**7 - 1)}"


def build_state(fake: Faker, rng: random.Random, today: dt.date) -> CustomsState:
    """Five importers of record and ten entries, from draft to released, with holds and documents."""
    state = CustomsState()
    for _ in range(5):
        iid = seed_id(state, "IMP")
        state.importers[iid] = Importer(id=iid, name=fake.company(),
                                        ior_number=f"{rng.randint(10, 99)}-{rng.randint(10**6, 10**7 - 1)}-00",
                                        bond_number=f"9{rng.randint(10**7, 10**8 - 1)}")
    importers = list(state.importers.values())
    for n, (mode, port, status, etype, po, lines, holds, paid) in enumerate(_ENTRIES, start=1):
        imp = importers[n % len(importers)]
        eid = seed_id(state, "ENT")
        arrived = today - dt.timedelta(days=max(0, 12 - n))
        entry = Entry(
            id=eid, entry_number=entry_number(int(eid[4:])), entry_type=etype, importer_id=imp.id,
            importer_name=imp.name, ior_number=imp.ior_number, mode=mode, port_code=port, port_name=PORTS[port].name,
            bill_of_lading=f"{_CARRIER_PREFIX[mode]}{rng.randint(10**7, 10**8 - 1)}",
            tracking_number=_tracking(mode, rng), purchase_order_id=po, supplier=fake.company(),
            country_of_export=lines[0][3], arrival_date=arrived, entered_value=0, duty=0, mpf=0, hmf=0, total_due=0,
            status=status, created_on=arrived - dt.timedelta(days=2),
            filed_on=arrived - dt.timedelta(days=1) if status != "draft" else None,
            released_on=arrived + dt.timedelta(days=1) if status == "released" else None)
        for k, (sku, units, unit_value, origin) in enumerate(lines, start=1):
            hts = HTS[PRODUCT_HTS[sku]]
            entry.lines.append(make_line(k, hts, f"{hts.description} ({sku})", origin, units, units * unit_value))
        recompute(entry)
        # Drafts still wait for paperwork (the second has none yet); every filed entry had it all.
        for k, doc in enumerate(entry.documents):
            if status != "draft" or (n == 1 and k < 2):
                doc.status, doc.file_name = "received", f"{eid.lower()}_{doc.document_type}.pdf"
        for htype, reason, is_open in holds:
            hid = seed_id(state, "HLD")
            entry.holds.append(Hold(id=hid, hold_type=htype, reason=reason, status="open" if is_open else "resolved",
                                    placed_on=arrived, resolved_on=None if is_open else arrived + dt.timedelta(days=1),
                                    resolution=None if is_open else "Corrected invoice received."))
        if paid:
            entry.payment = DutyPayment(amount=entry.total_due, method="daily_statement",
                                        reference=f"STMT-{arrived:%Y%m%d}", paid_on=arrived)
        state.entries[eid] = entry
    return state
