"""Rules of the treasury service: bank details, the rate table and quote pricing.

IBANs are checked as ISO 13616 says: the country's length, then the mod-97
check (the first four characters moved to the end, letters as 10-35, the
number mod 97 is 1). ABA routing numbers pass the 3-7-1 checksum. Quotes
price a conversion at the seeded mid-market rate with Wise's fee model: a
fixed fee in the source currency plus a percentage of the amount converted.
"""

from __future__ import annotations

import random
import re

from compoworld_gym.envs.services._commerce import money
from compoworld_gym.errors import InvalidArgument, Unprocessable

#: IBAN length by country (ISO 13616 registry).
IBAN_LENGTHS = {"DE": 22, "NL": 18, "FR": 27, "ES": 24, "IT": 27, "IE": 22, "BE": 16, "AT": 20, "PT": 25,
                "FI": 18, "GB": 22}
#: Countries whose IBAN accounts are paid in EUR (SEPA, euro area).
EURO_AREA = frozenset(IBAN_LENGTHS) - {"GB"}
#: Mid-market units per USD the seeded table starts from (a seed moves each by up to 0.4%).
BASE_RATES = {"USD": 1.0, "EUR": 0.9185, "GBP": 0.7870, "CAD": 1.3590, "MXN": 17.05, "JPY": 148.20, "INR": 83.10,
              "AUD": 1.5260, "CHF": 0.8720}
#: Wise's fixed fee per transfer, in the source currency.
FIXED_FEE = {"USD": 1.0, "EUR": 0.9, "GBP": 0.8}
#: Wise's variable fee: a share of the amount converted (none within one currency).
VARIABLE_FEE = 0.0045
_IBAN = re.compile(r"^[A-Z]{2}\d{2}[A-Z0-9]{10,30}$")


def _numeric(text: str) -> int:
    return int("".join(str(int(c, 36)) for c in text))


def make_iban(country: str, bban: str) -> str:
    """The IBAN of a domestic account number (BBAN) in ``country``, with its check digits."""
    check = 98 - _numeric(bban + country + "00") % 97
    return f"{country}{check:02d}{bban}"


def random_iban(country: str, rng: random.Random) -> str:
    """A valid IBAN of ``country`` with a seeded BBAN (bank code letters where the country uses them)."""
    length = IBAN_LENGTHS[country] - 4
    banks = {"NL": ("INGB", "ABNA", "RABO"), "IE": ("AIBK", "BOFI"), "GB": ("BARC", "NWBK", "HBUK")}
    head = rng.choice(banks[country]) if country in banks else ("X" if country == "IT" else "")
    return make_iban(country, head + "".join(str(rng.randrange(10)) for _ in range(length - len(head))))


def check_iban(iban: str, currency: str) -> str:
    """The IBAN without spaces, upper case, if it is valid and can receive ``currency``.

    Raises:
        InvalidArgument: 400, not shaped like an IBAN.
        Unprocessable: 422, unknown country, wrong length, failed mod-97 check, or a country that does not
            bank in ``currency`` (EUR: euro-area countries; GBP: GB).
    """
    v = iban.replace(" ", "").upper()
    if not _IBAN.match(v):
        raise InvalidArgument(f"iban {iban!r} is not an IBAN (country code, 2 check digits, account number).")
    country = v[:2]
    if country not in IBAN_LENGTHS:
        raise Unprocessable(f"IBANs of country {country} are not supported; supported: {', '.join(IBAN_LENGTHS)}.")
    if len(v) != IBAN_LENGTHS[country]:
        raise Unprocessable(f"a {country} IBAN has {IBAN_LENGTHS[country]} characters; {v} has {len(v)}.")
    if _numeric(v[4:] + v[:4]) % 97 != 1:
        raise Unprocessable(f"IBAN {v} fails the mod-97 check: a digit is wrong; ask the vendor for their details.")
    if (currency == "EUR" and country not in EURO_AREA) or (currency == "GBP" and country != "GB"):
        raise Unprocessable(f"a {country} IBAN cannot receive {currency}.")
    return v


def aba_checksum_ok(routing: str) -> bool:
    """Whether a 9-digit ABA routing number passes the 3-7-1 checksum."""
    d = [int(c) for c in routing]
    return (3 * (d[0] + d[3] + d[6]) + 7 * (d[1] + d[4] + d[7]) + d[2] + d[5] + d[8]) % 10 == 0


def random_aba(rng: random.Random) -> str:
    """A seeded routing number that passes the ABA checksum."""
    head = f"0{rng.randint(1, 9)}" + "".join(str(rng.randrange(10)) for _ in range(6))
    for last in range(10):
        if aba_checksum_ok(head + str(last)):
            return head + str(last)
    raise AssertionError("some check digit always completes an ABA number")


def check_aba(abartn: str, account_number: str) -> tuple[str, str]:
    """A valid (routing number, account number) pair.

    Raises:
        InvalidArgument: 400, not 9 digits / not 4-17 digits.
        Unprocessable: 422, the routing number fails its checksum.
    """
    if not re.fullmatch(r"\d{9}", abartn):
        raise InvalidArgument(f"abartn {abartn!r} must be the 9-digit ABA routing number.")
    if not re.fullmatch(r"\d{4,17}", account_number):
        raise InvalidArgument("account_number must be 4 to 17 digits.")
    if not aba_checksum_ok(abartn):
        raise Unprocessable(f"routing number {abartn} fails the ABA checksum; ask the vendor to confirm it.")
    return abartn, account_number


def seeded_rates(rng: random.Random) -> dict[str, float]:
    """The day's mid-market table: units per USD, each base rate moved by up to 0.4%."""
    out = {}
    for cur, base in BASE_RATES.items():
        places = 2 if base > 10 else 4
        out[cur] = 1.0 if cur == "USD" else round(base * (1 + rng.uniform(-0.004, 0.004)), places)
    return out


def pair_rate(rates: dict[str, float], source: str, target: str) -> float:
    """Target units per source unit (6 decimals)."""
    return round(rates[target] / rates[source], 6)


def price(rates: dict[str, float], source: str, target: str, *, source_amount: float | None = None,
          target_amount: float | None = None) -> tuple[float, float, float, float]:
    """``(source_amount, target_amount, rate, fee)`` of a quote fixed on one side.

    The fee is ``FIXED_FEE[source] + VARIABLE_FEE x amount converted`` (no variable part within one
    currency), paid in the source currency on top of the amount converted.

    Raises:
        Unprocessable: 422, a source amount that does not cover the fee.
    """
    rate, pct, fixed = pair_rate(rates, source, target), VARIABLE_FEE if source != target else 0.0, FIXED_FEE.get(
        source, 1.0)
    if target_amount is not None:
        converted = target_amount / rate
        fee = money(fixed + pct * converted)
        return money(converted + fee), money(target_amount), rate, fee
    converted = (source_amount - fixed) / (1 + pct)
    target = money(converted * rate)
    if converted <= 0 or target <= 0:
        raise Unprocessable(f"{source_amount:.2f} {source} does not cover the {fixed:.2f} {source} fee.")
    return money(source_amount), target, rate, money(source_amount - converted)
