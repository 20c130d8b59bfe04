"""Records of the business_reviews service (Google Business Profile).

An account holds locations (the store's shops and its online storefront);
a location has reviews (reviewer display name, star rating ONE..FIVE, comment,
and at most one owner reply) and customer questions with answers. The real
API gives a reviewer's display name only (no email), so reviews line up with
customers by name.
"""

from __future__ import annotations

from typing import Literal, Optional

from pydantic import Field

from compoworld_gym.entities import Address, City, DateTime, Id, PersonName, Phone, Url
from compoworld_gym.service import Record, ServiceState

StarRating = Literal["ONE", "TWO", "THREE", "FOUR", "FIVE"]
STARS: dict[str, int] = {"ONE": 1, "TWO": 2, "THREE": 3, "FOUR": 4, "FIVE": 5}


class Location(Record):
    """A business location of the account."""

    id: Id("business_location") = Field(description="Location id, e.g. LOC-0001.")
    name: str = Field(description="Resource name: accounts/{account}/locations/{location}.")
    title: str = Field(description="Business name shown on Google.")
    store_code: str = Field(description="The business's own code for the location.")
    address: Address = Field(description="Street address.")
    city: City = Field(description="City.")
    primary_phone: Phone = Field(description="Main phone number.")
    website_uri: Url = Field(description="Website.")
    primary_category: str = Field(description="Primary business category.")


class Reviewer(Record):
    """Who wrote a review (display name only: the API has no email)."""

    display_name: PersonName = Field(description="Reviewer's Google display name.")
    is_anonymous: bool = Field(default=False, description="True when the reviewer chose to stay anonymous.")


class ReviewReply(Record):
    """The owner's reply to a review (one per review)."""

    comment: str = Field(max_length=4096, description="Reply text, up to 4096 characters.")
    update_time: DateTime = Field(description="When the reply was last written.")


class Review(Record):
    """A customer review of a location."""

    id: Id("review") = Field(description="Review id, e.g. REV-0003.")
    location_id: Id("business_location") = Field(description="Location reviewed.")
    name: str = Field(description="Resource name: accounts/{a}/locations/{l}/reviews/{review}.")
    reviewer: Reviewer = Field(description="Who wrote it.")
    star_rating: StarRating = Field(description="ONE to FIVE stars.")
    comment: str = Field(default="", description="Review text (may be empty: a rating only).")
    create_time: DateTime = Field(description="When it was posted.")
    update_time: DateTime = Field(description="When it was last edited.")
    review_reply: Optional[ReviewReply] = Field(default=None, description="The owner's reply, if any.")


class Answer(Record):
    """An answer to a customer question."""

    author: str = Field(description="Author display name (the merchant for owner answers).")
    author_type: Literal["MERCHANT", "REGULAR_USER", "LOCAL_GUIDE"] = Field(description="Kind of author.")
    text: str = Field(max_length=4096, description="Answer text.")
    update_time: DateTime = Field(description="When it was written.")


class Question(Record):
    """A customer question on a location (Q&A)."""

    id: str = Field(description="Question id, e.g. QST-0002.")
    location_id: Id("business_location") = Field(description="Location asked about.")
    author: PersonName = Field(description="Asker's display name.")
    text: str = Field(description="Question text.")
    create_time: DateTime = Field(description="When it was asked.")
    answers: list[Answer] = Field(default_factory=list, description="Answers (at most one by the merchant).")


class BusinessReviewsState(ServiceState):
    """The account, its locations, reviews and questions."""

    account: str = Field(default="", description="Account resource name, accounts/{id}.")
    account_name: str = Field(default="", description="Account display name.")
    locations: dict[str, Location] = Field(default_factory=dict, description="Locations by id.")
    reviews: dict[str, Review] = Field(default_factory=dict, description="Reviews by id.")
    questions: dict[str, Question] = Field(default_factory=dict, description="Questions by id.")
