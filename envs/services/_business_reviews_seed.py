"""Seed data of the business_reviews service: the store's Google Business Profile.

Three locations (the Portland showroom, the Austin pickup point and the online
store). Reviews come from the store customers of the shared roster
(``_commerce.py``) under their roster name (the API has no reviewer email);
a review names the customer's latest order of the shared order book where
they have one. Some reviews already carry an owner reply.
"""

from __future__ import annotations

import datetime as dt
import random

from compoworld_gym.envs.services._blocks import stamp
from compoworld_gym.envs.services._business_reviews_models import (
    Answer, BusinessReviewsState, Location, Question, Review, Reviewer, ReviewReply,
)
from compoworld_gym.envs.services._commerce import CUSTOMERS, order_book

ACCOUNT = "accounts/108234567890123456789"
_LOCS = (("Northwind Desk Co. Showroom", "PDX-01", "418 Burnside Street", "Portland", "+1-503-555-0100",
          "Office furniture store"),
         ("Northwind Desk Co. Pickup Point", "AUS-02", "1200 Congress Avenue", "Austin", "+1-512-555-0140",
          "Furniture store"),
         ("Northwind Desk Co. Online", "WEB-03", "77 Harbor Street", "Boston", "+1-617-555-0190",
          "Online retailer"))
_STARS = ("ONE", "TWO", "THREE", "FOUR", "FIVE")


def _text(status: str, order: str) -> tuple[str, str]:
    if status in ("delivered", "fulfilled"):
        return "FIVE", f"Order {order} arrived quickly and well packed. Great desk gear."
    if status == "refunded":
        return "THREE", f"Had to return order {order}; the refund took a while but came through."
    if status == "cancelled":
        return "ONE", f"My order {order} was cancelled without any explanation."
    return "TWO", f"Still waiting for order {order}, no update from the store so far."


def build_state(rng: random.Random, today: dt.date) -> BusinessReviewsState:
    state = BusinessReviewsState(account=ACCOUNT, account_name="Northwind Desk Co.")
    for k, (title, code, addr, city, phone, cat) in enumerate(_LOCS, start=1):
        lid = f"LOC-{k:04d}"
        state.locations[lid] = Location(id=lid, name=f"{ACCOUNT}/locations/{lid}", title=title, store_code=code,
                                        address=addr, city=city, primary_phone=phone,
                                        website_uri="https://shop.company.example", primary_category=cat)
    book = order_book(today)
    n = 0
    for k, c in enumerate(CUSTOMERS):
        orders = [o for o in book if o.customer.email == c.email]
        lid = "LOC-0003" if orders else ("LOC-0001" if k % 2 else "LOC-0002")
        if orders:
            stars, comment = _text(orders[-1].status, orders[-1].id)
        else:
            stars, comment = _STARS[2 + k % 3], "Friendly staff and a good range of desks to try."
        n += 1
        rid = f"REV-{n:04d}"
        at = stamp(today, 20 - k, rng)
        reply = None
        if stars in ("FIVE", "THREE") and k % 2 == 0:
            reply = ReviewReply(comment=f"Thank you, {c.name.split()[0]}! We're glad to help.",
                                update_time=at + dt.timedelta(days=1))
        state.reviews[rid] = Review(id=rid, location_id=lid, name=f"{ACCOUNT}/locations/{lid}/reviews/{rid}",
                                    reviewer=Reviewer(display_name=c.name), star_rating=stars, comment=comment,
                                    create_time=at, update_time=at, review_reply=reply)
    n += 1
    at = stamp(today, 15, rng)
    state.reviews[f"REV-{n:04d}"] = Review(
        id=f"REV-{n:04d}", location_id="LOC-0001", name=f"{ACCOUNT}/locations/LOC-0001/reviews/REV-{n:04d}",
        reviewer=Reviewer(display_name="A Google user", is_anonymous=True), star_rating="FOUR", comment="",
        create_time=at, update_time=at)
    state.counters["REV"] = n + 1
    qs = (("LOC-0001", "Emma Wilson", "Can I try the standing desks before buying?",
           "Yes, every desk on show can be tried; no appointment needed."),
          ("LOC-0002", "Liam Patel", "Is there parking at the pickup point?", None),
          ("LOC-0003", "Chloe Dubois", "Do you ship to France?", None))
    for k, (lid, who, text, ans) in enumerate(qs, start=1):
        at = stamp(today, 10 + k, rng)
        answers = [Answer(author="Northwind Desk Co.", author_type="MERCHANT", text=ans,
                          update_time=at + dt.timedelta(hours=4))] if ans else []
        state.questions[f"QST-{k:04d}"] = Question(id=f"QST-{k:04d}", location_id=lid, author=who, text=text,
                                                   create_time=at, answers=answers)
    state.counters["QST"] = len(qs) + 1
    return state
