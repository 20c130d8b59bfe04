"""The fixed home sales shared by the listings and mortgage_loans seeds.

Each service seeds from its own random stream, so the MLS and the lender
could never agree on a generated sale. The few sales under contract (and one
closed) are therefore fixed and seed-independent, dates relative to
``today``: the buyer of an accepted offer in ``listings`` is a store customer
of the shared book (``_commerce.CUSTOMERS``) and has a loan in
``mortgage_loans`` on the same street address, for the contract price and
the same closing day.
"""

from __future__ import annotations

from typing import NamedTuple

from compoworld_gym.envs.services._commerce import CUSTOMERS_BY_EMAIL, Customer


class Deal(NamedTuple):
    """One sale: the home, its prices, the buyer and the loan that finances it.

    ``close_offset`` is the closing day relative to today (negative: closed);
    ``contract_offset`` the day the offer was accepted; ``loan_ltv`` the
    loan amount as a percent of the price; ``milestone`` where the loan is.
    """

    key: str
    address: str
    city: str
    state: str
    postal_code: str
    sub_type: str
    beds: int
    baths: int
    living_area: int
    year_built: int
    list_price: float
    price: float
    buyer: Customer
    financing: str
    close_offset: int
    contract_offset: int
    loan_ltv: float
    milestone: str


DEALS: tuple[Deal, ...] = (
    Deal("LST-0001", "2714 SE Clinton Street", "Portland", "OR", "97202", "Single Family Residence", 3, 2, 1680, 1926,
         615000.0, 605000.0, CUSTOMERS_BY_EMAIL["olivia.martinez@gmail.com"], "Conventional", 21, -9, 80.0,
         "Cond. Approval"),
    Deal("LST-0002", "5608 Shoal Creek Boulevard", "Austin", "TX", "78756", "Single Family Residence", 4, 3, 2350,
         1998, 789000.0, 775000.0, CUSTOMERS_BY_EMAIL["liam.patel@gmail.com"], "Conventional", 28, -12, 90.0,
         "Approval"),
    Deal("LST-0003", "1187 Vine Street", "Denver", "CO", "80206", "Condominium", 2, 2, 1120, 2008, 459000.0, 452000.0,
         CUSTOMERS_BY_EMAIL["ava.nguyen@hotmail.com"], "FHA", 4, -30, 96.5, "Docs Out"),
    Deal("LST-0004", "4410 Burke Avenue N", "Seattle", "WA", "98103", "Single Family Residence", 3, 2, 1890, 1931,
         925000.0, 940000.0, CUSTOMERS_BY_EMAIL["james.oconnor@icloud.com"], "Conventional", -12, -47, 80.0,
         "Completion"),
)
