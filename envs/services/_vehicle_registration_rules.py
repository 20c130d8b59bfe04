"""DMV rules of the vehicle_registration service: VIN check digit, fee schedule, renewal checks.

Pure functions over records and dates, shared by the tools, the seed factory
and the generation hook (which plants a registration whose renewal costs a
given amount by solving the market value for the vehicle license fee).
"""

from __future__ import annotations

import datetime as dt
from typing import Literal

from pydantic import Field

from compoworld_gym.entities import Date, Id, Money
from compoworld_gym.envs.services._commerce import money
from compoworld_gym.envs.services._vehicle_registration_models import FeeLine, Hold, Registration, Vehicle
from compoworld_gym.errors import Conflict, Unprocessable
from compoworld_gym.service import Record

# ------------------------------------------------------------------ VIN (ISO 3779 / 49 CFR 565)
_TRANSLIT = {**{str(d): d for d in range(10)}, **dict(zip("ABCDEFGH", range(1, 9))),
             **dict(zip("JKLMN", range(1, 6))), "P": 7, "R": 9, **dict(zip("STUVWXYZ", range(2, 10)))}
_WEIGHTS = (8, 7, 6, 5, 4, 3, 2, 10, 0, 9, 8, 7, 6, 5, 4, 3, 2)
#: Position-10 model-year codes, 2010 first (the 30-year cycle).
_YEAR_CODES = "ABCDEFGHJKLMNPRSTVWXY123456789"


def check_digit(vin: str) -> str:
    """The check digit (position 9) a 17-character VIN must carry: the weighted sum mod 11, 10 as ``X``.

    Example:
        >>> check_digit("1M8GDM9AXKP042788")
        'X'
    """
    total = sum(_TRANSLIT[c] * w for c, w in zip(vin, _WEIGHTS))
    return "X" if total % 11 == 10 else str(total % 11)


def validate_vin(vin: str) -> None:
    """Refuse a VIN whose check digit is wrong.

    Raises:
        Unprocessable: 422 naming the digit the VIN should carry.
    """
    want = check_digit(vin)
    if vin[8] != want:
        raise Unprocessable(f"VIN {vin} fails the check-digit test: position 9 is {vin[8]!r}, the VIN's other "
                            f"characters give {want!r}. Re-read the VIN from the title or the dashboard plate.")


def model_year_code(year: int) -> str:
    """The position-10 code of model ``year`` (2010 = A, 2011 = B, ...)."""
    return _YEAR_CODES[(year - 2010) % 30]


# ------------------------------------------------------------------ fees (USD)
REGISTRATION_FEE = 70.0
CHP_FEE = 32.0
#: Vehicle license fee: this share of the market value.
VLF_RATE = 0.0065
#: Smog abatement fee, paid by vehicles still too new to need a smog check.
SMOG_ABATEMENT_FEE = 20.0
#: Road improvement fee of zero-emission vehicles of model year 2020 on.
ROAD_IMPROVEMENT_FEE = 118.0
#: Commercial weight fee by unladen weight: (up to lbs, fee); heavier pays the last fee.
WEIGHT_FEES: tuple[tuple[int, float], ...] = ((3000, 8.0), (4000, 25.0), (5000, 50.0), (6000, 100.0),
                                              (8000, 175.0), (10000, 250.0), (10**9, 400.0))
#: Late penalty after the expiration date: this share of REG + VLF + WGT, at least LATE_MIN.
LATE_RATE, LATE_MIN = 0.10, 10.0
#: A gasoline, diesel or hybrid car or truck this many model years old or more needs a smog check to renew.
SMOG_AGE_YEARS = 7
#: A passed smog certificate counts for this many days.
SMOG_VALID_DAYS = 90
#: Renewal opens this many days before the expiration date.
RENEWAL_OPENS_DAYS = 90
TRANSFER_FEE = 15.0
USE_TAX_RATE = 0.0725


def schedule() -> dict:
    """The fee schedule and terms, as list_fee_schedule shows them."""
    return {"registration_fee": REGISTRATION_FEE, "chp_fee": CHP_FEE, "vehicle_license_fee_rate": VLF_RATE,
            "smog_abatement_fee": SMOG_ABATEMENT_FEE, "road_improvement_fee_zev_2020_on": ROAD_IMPROVEMENT_FEE,
            "commercial_weight_fees": [{"up_to_lbs": w, "fee": f} for w, f in WEIGHT_FEES],
            "late_penalty": f"{LATE_RATE:.0%} of REG+VLF+WGT, at least {LATE_MIN:.2f}",
            "renewal_opens_days_before": RENEWAL_OPENS_DAYS, "smog_age_years": SMOG_AGE_YEARS,
            "smog_valid_days": SMOG_VALID_DAYS, "transfer_fee": TRANSFER_FEE, "use_tax_rate": USE_TAX_RATE}


def add_year(day: dt.date) -> dt.date:
    """The same day a year later (28 February for 29 February)."""
    try:
        return day.replace(year=day.year + 1)
    except ValueError:
        return day.replace(year=day.year + 1, day=28)


def next_expiration(expires_on: dt.date, today: dt.date) -> dt.date:
    """The expiration date after a renewal: a year past the old one (a late renewal keeps the
    anniversary), and after ``today``."""
    new = add_year(expires_on)
    while new <= today:
        new = add_year(new)
    return new


def weight_fee(weight_lbs: int) -> float:
    """The commercial weight fee for an unladen weight."""
    return next(fee for limit, fee in WEIGHT_FEES if weight_lbs <= limit)


def smog_required(v: Vehicle, today: dt.date) -> bool:
    """Whether renewing needs a smog certificate: a gasoline, diesel or hybrid passenger or commercial
    vehicle at least :data:`SMOG_AGE_YEARS` model years old."""
    return (v.vehicle_class in ("passenger", "commercial") and v.fuel != "electric"
            and today.year - v.year >= SMOG_AGE_YEARS)


def smog_certified(v: Vehicle, today: dt.date) -> bool:
    """Whether the vehicle's latest smog inspection passed within :data:`SMOG_VALID_DAYS` days."""
    if not v.smog_certificates:
        return False
    # The latest day wins; on one day, the retest recorded last.
    last = max(enumerate(v.smog_certificates), key=lambda ic: (ic[1].tested_on, ic[0]))[1]
    return last.result == "passed" and (today - last.tested_on).days <= SMOG_VALID_DAYS


def fee_lines(v: Vehicle, today: dt.date, expires_on: dt.date | None = None) -> list[FeeLine]:
    """The fees of registering ``v`` for a year on ``today`` (a renewal of a registration expiring on
    ``expires_on`` adds the late penalty when ``today`` is past it)."""
    lines = [FeeLine(code="REG", description="Registration fee", amount=REGISTRATION_FEE),
             FeeLine(code="CHP", description="California Highway Patrol fee", amount=CHP_FEE),
             FeeLine(code="VLF", description=f"Vehicle license fee ({VLF_RATE:.2%} of market value)",
                     amount=money(v.market_value * VLF_RATE))]
    if v.vehicle_class == "commercial":
        lines.append(FeeLine(code="WGT", description=f"Commercial weight fee ({v.unladen_weight_lbs} lbs unladen)",
                             amount=weight_fee(v.unladen_weight_lbs)))
    if v.vehicle_class in ("passenger", "commercial") and v.fuel != "electric" and not smog_required(v, today):
        lines.append(FeeLine(code="SMOG", description="Smog abatement fee", amount=SMOG_ABATEMENT_FEE))
    if v.fuel == "electric" and v.year >= 2020:
        lines.append(FeeLine(code="RIF", description="Road improvement fee (zero-emission vehicle)",
                             amount=ROAD_IMPROVEMENT_FEE))
    if expires_on is not None and today > expires_on:
        base = sum(x.amount for x in lines if x.code in ("REG", "VLF", "WGT"))
        lines.append(FeeLine(code="LATE", description="Late renewal penalty", amount=money(max(LATE_MIN,
                                                                                              base * LATE_RATE))))
    return lines


def value_for_vlf(vlf: float) -> float:
    """A whole-dollar market value whose vehicle license fee is exactly ``vlf`` USD (for planting).

    Raises:
        ValueError: ``vlf`` is below one cent.
    """
    cents = round(vlf * 100)
    if cents < 1:
        raise ValueError(f"a vehicle license fee of {vlf!r} USD has no market value")
    guess = round(cents / 0.65)
    for value in (guess, guess - 1, guess + 1):
        if money(value * VLF_RATE) == cents / 100:
            return float(value)
    raise ValueError(f"no whole-dollar market value gives a vehicle license fee of {vlf:.2f}")


# ------------------------------------------------------------------ renewal
class RenewalQuote(Record):
    """What renewing a registration costs today, and what blocks it."""

    registration_id: Id("vehicle_registration") = Field(description="The registration.")
    expires_on: Date = Field(description="Current expiration date.")
    renewal_opens: Date = Field(description="First day a renewal is accepted.")
    fees: list[FeeLine] = Field(description="Fee lines of a renewal today.")
    total_due: Money = Field(description="Amount renew_registration must be paid (USD).")
    new_expiration: Date = Field(description="Expiration date after a renewal today.")
    smog_required: bool = Field(description="Whether a smog certificate is needed to renew.")
    smog_certified: bool = Field(description="Whether a passed smog certificate from the last 90 days is on file.")
    open_holds: list[str] = Field(description="Ids of open parking/toll holds (each blocks renewal).")
    renewable: bool = Field(description="Whether renew_registration would accept it today.")
    blocked_by: Literal["", "cancelled", "too_early", "holds", "smog"] = Field(
        description="What blocks a renewal today ('' when nothing).")


def quote(reg: Registration, v: Vehicle, holds: list[Hold], today: dt.date) -> RenewalQuote:
    """The renewal quote of ``reg`` (vehicle ``v``, its ``holds``) on ``today``."""
    lines = fee_lines(v, today, reg.expires_on)
    opens = reg.expires_on - dt.timedelta(days=RENEWAL_OPENS_DAYS)
    open_holds = [h.id for h in holds if h.status == "open"]
    need, cert = smog_required(v, today), smog_certified(v, today)
    blocked = ("cancelled" if reg.status == "cancelled" else "too_early" if today < opens
               else "holds" if open_holds else "smog" if need and not cert else "")
    return RenewalQuote(registration_id=reg.id, expires_on=reg.expires_on, renewal_opens=opens, fees=lines,
                        total_due=money(sum(x.amount for x in lines)),
                        new_expiration=next_expiration(reg.expires_on, today),
                        smog_required=need, smog_certified=cert, open_holds=open_holds, renewable=not blocked,
                        blocked_by=blocked)


def check_renewable(q: RenewalQuote) -> None:
    """Refuse a renewal the quote blocks.

    Raises:
        Conflict: 409 for a cancelled registration or an open parking/toll hold.
        Unprocessable: 422 before the renewal opens, or without the smog certificate it needs.
    """
    if q.blocked_by == "cancelled":
        raise Conflict(f"registration {q.registration_id} is cancelled; register the vehicle again instead.")
    if q.blocked_by == "too_early":
        raise Unprocessable(f"registration {q.registration_id} expires on {q.expires_on}; renewal opens on "
                            f"{q.renewal_opens}.")
    if q.blocked_by == "holds":
        raise Conflict(f"registration {q.registration_id} has open holds {', '.join(q.open_holds)}; clear them "
                       "(pay_hold) before renewing.")
    if q.blocked_by == "smog":
        raise Unprocessable(f"registration {q.registration_id} needs a passed smog certificate from the last "
                            f"{SMOG_VALID_DAYS} days to renew; record_smog_certificate once the vehicle passes.")
