"""Business reviews: the store's Google Business Profile (locations, reviews, owner replies, Q&A).

No bundled MCP spec covers it; the tools follow the Google Business Profile
APIs, translated to snake_case with their field names: ``accounts.list``
(list_accounts), ``accounts.locations.list`` / ``locations.get`` (list_locations,
get_location), ``accounts.locations.reviews.list`` / ``.get`` (list_reviews, with
``orderBy`` and the ``averageRating`` / ``totalReviewCount`` summary; get_review),
``reviews.updateReply`` / ``reviews.deleteReply`` (update_reply, delete_reply) and the
Q&A API's ``locations.questions.list`` and ``questions.answers.upsert`` / ``.delete``
(list_questions, upsert_answer, delete_answer).

Rules of the real product kept here: a review has at most one owner reply
(updateReply writes or replaces it; deleteReply removes it, 404 when there is
none); a reply or answer is at most 4096 characters and not blank; star
ratings are ONE to FIVE; the merchant has at most one answer per question
(upsert replaces it). The reviewer is a display name only (the real API
gives no email), so a review lines up with a customer by name. Left out:
review creation (only Google users post reviews), location editing, media,
posts, insights and notifications.
"""

from __future__ import annotations

import datetime as dt
import random
from typing import Literal, Optional

from faker import Faker
from pydantic import Field

from compoworld_gym.entities import Id
from compoworld_gym.envs.services._business_reviews_models import (
    STARS, Answer, BusinessReviewsState, Location, Question, Review, ReviewReply,
)
from compoworld_gym.envs.services._business_reviews_seed import build_state
from compoworld_gym.errors import Conflict, InvalidArgument, NotFound
from compoworld_gym.service import Service, tool

MERCHANT = "Northwind Desk Co."


class BusinessReviews(Service):
    """Google Business Profile: the store's locations, customer reviews, owner replies and Q&A."""

    name = "business_reviews"
    description = ("The store's Google Business Profile: locations, customer reviews with star ratings, owner "
                   "replies, and customer questions with answers.")
    domain = "social"
    spec_source = None
    State = BusinessReviewsState

    def _loc(self, location_id: str) -> Location:
        return self.lookup(self.state.locations, location_id, "location")

    def _review(self, review_id: str) -> Review:
        return self.lookup(self.state.reviews, review_id, "review")

    @staticmethod
    def _text(text: str, what: str) -> str:
        if not text.strip():
            raise InvalidArgument(f"the {what} may not be blank.")
        return text

    @tool(read_only=True)
    def list_accounts(self) -> dict:
        """The Business Profile accounts this login manages."""
        return {"accounts": [{"name": self.state.account, "accountName": self.state.account_name,
                              "type": "LOCATION_GROUP", "locations": len(self.state.locations)}]}

    @tool(read_only=True, returns=list[Location])
    def list_locations(self, city: Optional[str] = None) -> list[dict]:
        """The account's locations.

        Args:
            city: only locations in this city (case-insensitive).
        """
        return [loc.model_dump() for loc in self.state.locations.values()
                if city is None or loc.city.lower() == city.lower()]

    @tool(read_only=True)
    def get_location(self, location_id: Id("business_location")) -> dict:
        """A location with its review summary.

        Args:
            location_id: the location id, e.g. LOC-0001.
        """
        loc = self._loc(location_id)
        revs = [r for r in self.state.reviews.values() if r.location_id == loc.id]
        avg = round(sum(STARS[r.star_rating] for r in revs) / len(revs), 2) if revs else None
        return {**loc.model_dump(), "averageRating": avg, "totalReviewCount": len(revs)}

    @tool(read_only=True)
    def list_reviews(self, location_id: Id("business_location"),
                     order_by: Literal["updateTime desc", "rating", "rating desc"] = "updateTime desc",
                     page_size: int = Field(default=50, ge=1, le=50)) -> dict:
        """The reviews of a location, with the average rating and the review count.

        Args:
            location_id: the location id.
            order_by: updateTime desc (default), rating or rating desc.
            page_size: most reviews to return (the API's maximum is 50).
        """
        loc = self._loc(location_id)
        revs = [r for r in self.state.reviews.values() if r.location_id == loc.id]
        if order_by == "updateTime desc":
            revs.sort(key=lambda r: (r.update_time, r.id), reverse=True)
        else:
            revs.sort(key=lambda r: (STARS[r.star_rating], r.id), reverse=order_by == "rating desc")
        avg = round(sum(STARS[r.star_rating] for r in revs) / len(revs), 2) if revs else None
        return {"reviews": [r.model_dump() for r in revs[:page_size]], "averageRating": avg,
                "totalReviewCount": len(revs)}

    @tool(read_only=True)
    def get_review(self, review_id: Id("review")) -> dict:
        """One review with its owner reply.

        Args:
            review_id: the review id, e.g. REV-0003.
        """
        return self._review(review_id).model_dump()

    @tool(read_only=False)
    def update_reply(self, review_id: Id("review"), comment: str = Field(min_length=1, max_length=4096)) -> dict:
        """Write the owner's reply to a review, replacing the earlier reply if there is one.

        Args:
            review_id: the review id.
            comment: the reply text, up to 4096 characters.
        """
        rev = self._review(review_id)
        self._text(comment, "reply")
        replaced = rev.review_reply is not None
        rev.review_reply = ReviewReply(comment=comment, update_time=self.now())
        return {**rev.review_reply.model_dump(), "review_id": rev.id, "replaced": replaced}

    @tool(read_only=False, destructive=True)
    def delete_reply(self, review_id: Id("review")) -> dict:
        """Delete the owner's reply to a review.

        Args:
            review_id: the review id.
        """
        rev = self._review(review_id)
        if rev.review_reply is None:
            raise NotFound(f"review {rev.id} has no owner reply to delete.")
        rev.review_reply = None
        return {"review_id": rev.id, "deleted": True}

    @tool(read_only=True, returns=list[Question])
    def list_questions(self, location_id: Id("business_location"), unanswered_only: bool = False) -> list[dict]:
        """Customer questions on a location, newest first.

        Args:
            location_id: the location id.
            unanswered_only: only questions with no merchant answer.
        """
        loc = self._loc(location_id)
        qs = [q for q in self.state.questions.values() if q.location_id == loc.id
              and not (unanswered_only and any(a.author_type == "MERCHANT" for a in q.answers))]
        qs.sort(key=lambda q: (q.create_time, q.id), reverse=True)
        return [q.model_dump() for q in qs]

    @tool(read_only=False)
    def upsert_answer(self, question_id: str, text: str = Field(min_length=1, max_length=4096)) -> dict:
        """Answer a question as the merchant, replacing the merchant's earlier answer.

        Args:
            question_id: the question id, e.g. QST-0002.
            text: the answer, up to 4096 characters.
        """
        q = self.lookup(self.state.questions, question_id, "question")
        self._text(text, "answer")
        q.answers = [a for a in q.answers if a.author_type != "MERCHANT"]
        ans = Answer(author=MERCHANT, author_type="MERCHANT", text=text, update_time=self.now())
        q.answers.append(ans)
        return {"question_id": q.id, "answer": ans.model_dump()}

    @tool(read_only=False, destructive=True)
    def delete_answer(self, question_id: str) -> dict:
        """Delete the merchant's answer to a question.

        Args:
            question_id: the question id.
        """
        q = self.lookup(self.state.questions, question_id, "question")
        if not any(a.author_type == "MERCHANT" for a in q.answers):
            raise Conflict(f"question {q.id} has no answer by the merchant.")
        q.answers = [a for a in q.answers if a.author_type != "MERCHANT"]
        return {"question_id": q.id, "deleted": True}

    @classmethod
    def build_seed_state(cls, fake: Faker, rng: random.Random, today: dt.date) -> BusinessReviewsState:
        return build_state(rng, today)
