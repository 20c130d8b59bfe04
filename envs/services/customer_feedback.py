"""Customer feedback: NPS/CSAT survey responses and product feedback notes.

No survey or feedback server is in ``compoworld_gym/data/mcp_servers.jsonl``; the
interface is designed the way Delighted's survey API (NPS 0-10 and CSAT 1-5
responses with comments, tags and per-survey metrics) and Productboard's
notes API (feedback items tied to a customer, tagged, triaged to an owner)
look. Responses and notes carry the customer's email and, where the
feedback came from support, the helpdesk ticket id, so a detractor can be
traced to their ticket, their contract or their marketing consent.
"""

from __future__ import annotations

import datetime as dt
import random
from typing import Literal, Optional

from faker import Faker
from pydantic import Field

from compoworld_gym.entities import CompanyName, Date, Email, Id, PersonName
from compoworld_gym.envs.services._accounts import ACCOUNTS
from compoworld_gym.envs.services._commerce import CUSTOMERS
from compoworld_gym.envs.services._company import staff_of
from compoworld_gym.errors import Conflict, InvalidArgument, Unprocessable
from compoworld_gym.service import Record, Service, ServiceState, tool

SurveyKind = Literal["nps", "csat"]
FollowUp = Literal["none", "needed", "in_progress", "done"]
NoteStatus = Literal["new", "reviewed", "planned", "closed"]
Source = Literal["email", "call", "ticket", "survey", "social"]
SCALE = {"nps": (0, 10), "csat": (1, 5)}


class Survey(Record):
    """A survey sent to customers."""

    id: Id("survey") = Field(description="Survey id, e.g. SRV-0001.")
    name: str = Field(description="Survey name.")
    kind: SurveyKind = Field(description="nps (0-10 likelihood to recommend) or csat (1-5 satisfaction).")
    channel: Literal["email", "in_app", "post_ticket"] = Field(description="How it was sent.")
    sent_on: Date = Field(description="Date it was sent.")


class Response(Record):
    """One customer's answer to a survey."""

    id: Id("response") = Field(description="Response id, e.g. RSP-0001.")
    survey_id: Id("survey") = Field(description="Survey answered.")
    customer_email: Email = Field(description="Respondent's email.")
    customer_name: PersonName = Field(description="Respondent's name.")
    company: Optional[CompanyName] = Field(default=None, description="Respondent's company (business customers).")
    score: int = Field(ge=0, le=10, description="Score on the survey's scale.")
    comment: str = Field(default="", description="Free-text comment.")
    ticket_id: Optional[Id("ticket")] = Field(default=None, description="Helpdesk ticket the response is about.")
    submitted_on: Date = Field(description="Date submitted.")
    tags: list[str] = Field(default_factory=list, description="Tags, e.g. 'pricing'.")
    follow_up_status: FollowUp = Field(description="none, needed, in_progress or done.")
    follow_up_owner: Optional[Email] = Field(default=None, description="Who follows up.")
    follow_up_note: str = Field(default="", description="Latest follow-up note.")


class FeedbackNote(Record):
    """A product feedback item (Productboard 'note')."""

    id: Id("note") = Field(description="Feedback id, e.g. FBK-0001.")
    title: str = Field(description="Short summary.")
    content: str = Field(description="The feedback in the customer's words.")
    customer_email: Email = Field(description="Customer who gave it.")
    company: Optional[CompanyName] = Field(default=None, description="Customer's company.")
    source: Source = Field(description="Where it came from.")
    ticket_id: Optional[Id("ticket")] = Field(default=None, description="Related helpdesk ticket.")
    response_id: Optional[Id("response")] = Field(default=None, description="Related survey response.")
    tags: list[str] = Field(default_factory=list, description="Tags, e.g. 'feature-request'.")
    status: NoteStatus = Field(description="new, reviewed, planned or closed (final).")
    owner_email: Optional[Email] = Field(default=None, description="Product owner triaging it.")
    created_on: Date = Field(description="Date captured.")


class CustomerFeedbackState(ServiceState):
    """Surveys, responses and feedback notes."""

    surveys: dict[str, Survey] = Field(default_factory=dict, description="Surveys by id.")
    responses: dict[str, Response] = Field(default_factory=dict, description="Responses by id.")
    notes: dict[str, FeedbackNote] = Field(default_factory=dict, description="Feedback notes by id.")


def _needs_follow_up(kind: str, score: int) -> bool:
    """Detractors (NPS 0-6) and dissatisfied customers (CSAT 1-2) need a follow-up."""
    return score <= 6 if kind == "nps" else score <= 2


class CustomerFeedback(Service):
    """Delighted/Productboard-style survey responses and feedback notes."""

    name = "customer_feedback"
    description = ("Customer feedback: NPS and CSAT survey responses with scores, comments, tags and "
                   "follow-ups, plus product feedback notes linked to customers and tickets.")
    domain = "support"
    spec_source = None
    State = CustomerFeedbackState

    # ------------------------------------------------------------------ reads
    @tool(read_only=True, returns=list[Survey])
    def list_surveys(self) -> list[dict]:
        """List surveys with their number of responses."""
        return [{**s.model_dump(), "responses": sum(r.survey_id == s.id for r in self.state.responses.values())}
                for s in self.state.surveys.values()]

    @tool(read_only=True, returns=list[Response])
    def search_responses(self, survey_id: Optional[Id("survey")] = None, customer_email: Optional[Email] = None,
                         company: Optional[CompanyName] = None, min_score: Optional[int] = None,
                         max_score: Optional[int] = None, follow_up_status: Optional[FollowUp] = None,
                         tag: Optional[str] = None, submitted_after: Optional[Date] = None,
                         limit: int = Field(default=50, ge=1, le=200)) -> list[dict]:
        """Search survey responses, newest first.

        Args:
            survey_id: only responses to this survey.
            customer_email: only this customer's responses.
            company: only responses from this company.
            min_score: only scores >= this.
            max_score: only scores <= this (e.g. 6 for NPS detractors).
            follow_up_status: only responses with this follow-up status.
            tag: only responses with this tag.
            submitted_after: only responses submitted on or after this date (YYYY-MM-DD).
            limit: maximum number of responses (1-200).
        """
        out = [r.model_dump() for r in sorted(self.state.responses.values(), key=lambda r: (r.submitted_on, r.id),
                                              reverse=True)
               if (survey_id is None or r.survey_id == survey_id)
               and (customer_email is None or r.customer_email.lower() == customer_email.lower())
               and (company is None or (r.company or "").lower() == company.lower())
               and (min_score is None or r.score >= min_score) and (max_score is None or r.score <= max_score)
               and (follow_up_status is None or r.follow_up_status == follow_up_status)
               and (tag is None or tag in r.tags) and (submitted_after is None or r.submitted_on >= submitted_after)]
        return out[:limit]

    @tool(read_only=True, returns=Response)
    def get_response(self, response_id: Id("response")) -> dict:
        """Get one survey response.

        Args:
            response_id: the response id, e.g. RSP-0001.
        """
        return self.lookup(self.state.responses, response_id, "response").model_dump()

    @tool(read_only=True)
    def get_survey_results(self, survey_id: Id("survey")) -> dict:
        """Aggregate results: NPS (promoters 9-10, passives 7-8, detractors 0-6, score =
        % promoters - % detractors) or CSAT (average, % satisfied = share of 4-5).

        Args:
            survey_id: the survey.
        """
        s = self.lookup(self.state.surveys, survey_id, "survey")
        scores = [r.score for r in self.state.responses.values() if r.survey_id == survey_id]
        n = len(scores)
        out: dict = {"survey_id": s.id, "kind": s.kind, "responses": n}
        if s.kind == "nps":
            pro, det = sum(x >= 9 for x in scores), sum(x <= 6 for x in scores)
            out.update(promoters=pro, passives=n - pro - det, detractors=det,
                       nps=round(100.0 * (pro - det) / n, 1) if n else None)
        else:
            out.update(average=round(sum(scores) / n, 2) if n else None,
                       satisfied_pct=round(100.0 * sum(x >= 4 for x in scores) / n, 1) if n else None)
        return out

    @tool(read_only=True, returns=list[FeedbackNote])
    def list_feedback(self, status: Optional[NoteStatus] = None, tag: Optional[str] = None,
                      customer_email: Optional[Email] = None, company: Optional[CompanyName] = None,
                      limit: int = Field(default=50, ge=1, le=200)) -> list[dict]:
        """List feedback notes.

        Args:
            status: only notes with this status.
            tag: only notes with this tag.
            customer_email: only notes from this customer.
            company: only notes from this company.
            limit: maximum number of notes (1-200).
        """
        return [n.model_dump() for n in self.state.notes.values()
                if (status is None or n.status == status) and (tag is None or tag in n.tags)
                and (customer_email is None or n.customer_email.lower() == customer_email.lower())
                and (company is None or (n.company or "").lower() == company.lower())][:limit]

    @tool(read_only=True, returns=FeedbackNote)
    def get_feedback(self, note_id: Id("note")) -> dict:
        """Get one feedback note.

        Args:
            note_id: the note id, e.g. FBK-0001.
        """
        return self.lookup(self.state.notes, note_id, "feedback note").model_dump()

    # ----------------------------------------------------------------- writes
    @tool(read_only=False, returns=Response)
    def record_response(self, survey_id: Id("survey"), customer_email: Email,
                        customer_name: PersonName = Field(min_length=1), score: int = Field(ge=0, le=10),
                        comment: str = Field(default="", max_length=5000), company: Optional[CompanyName] = None,
                        ticket_id: Optional[Id("ticket")] = None) -> dict:
        """Record a customer's survey answer (e.g. given on a call).

        Low scores (NPS 0-6, CSAT 1-2) are marked follow-up 'needed'. 422 if the
        score is off the survey's scale; 409 if the customer already answered.

        Args:
            survey_id: the survey answered.
            customer_email: respondent's email.
            customer_name: respondent's name.
            score: 0-10 for NPS, 1-5 for CSAT.
            comment: free-text comment.
            company: respondent's company.
            ticket_id: helpdesk ticket the answer is about.
        """
        s = self.lookup(self.state.surveys, survey_id, "survey")
        lo, hi = SCALE[s.kind]
        if not lo <= score <= hi:
            raise Unprocessable(f"{s.kind.upper()} scores run {lo}-{hi}; got {score}.")
        if any(r.survey_id == survey_id and r.customer_email.lower() == customer_email.lower()
               for r in self.state.responses.values()):
            raise Conflict(f"{customer_email} already answered {survey_id}; see search_responses.")
        r = Response(id=self.new_id("RSP"), survey_id=survey_id, customer_email=customer_email,
                     customer_name=customer_name, company=company, score=score, comment=comment, ticket_id=ticket_id,
                     submitted_on=self.today,
                     follow_up_status="needed" if _needs_follow_up(s.kind, score) else "none")
        self.state.responses[r.id] = r
        return r.model_dump()

    @tool(read_only=False, returns=Response)
    def tag_response(self, response_id: Id("response"), add_tags: list[str] = Field(default_factory=list),
                     remove_tags: list[str] = Field(default_factory=list)) -> dict:
        """Add or remove tags on a response.

        Args:
            response_id: the response.
            add_tags: tags to add.
            remove_tags: tags to remove.
        """
        r = self.lookup(self.state.responses, response_id, "response")
        if not add_tags and not remove_tags:
            raise InvalidArgument("nothing to update: give add_tags or remove_tags.")
        r.tags = [t for t in r.tags if t not in remove_tags] + [t for t in dict.fromkeys(add_tags) if t not in r.tags]
        return r.model_dump()

    @tool(read_only=False, returns=Response)
    def set_follow_up(self, response_id: Id("response"), status: FollowUp, owner_email: Optional[Email] = None,
                      note: str = Field(default="", max_length=2000)) -> dict:
        """Change a response's follow-up status, owner and note.

        'in_progress' needs an owner (given or already set); 'done' needs a note
        on the outcome; a 'done' follow-up is closed (409).

        Args:
            response_id: the response.
            status: none, needed, in_progress or done.
            owner_email: who follows up.
            note: what was done or agreed.
        """
        r = self.lookup(self.state.responses, response_id, "response")
        if r.follow_up_status == "done":
            raise Conflict(f"follow-up of {response_id} is done and closed.")
        if r.follow_up_status == status and owner_email is None and not note:
            raise Conflict(f"follow-up of {response_id} is already {status}.")
        if status == "in_progress" and owner_email is None and r.follow_up_owner is None:
            raise InvalidArgument("status in_progress needs owner_email: who is following up?")
        if status == "done" and not note:
            raise InvalidArgument("status done needs a note describing the outcome.")
        r.follow_up_status = status
        r.follow_up_owner = owner_email or r.follow_up_owner
        r.follow_up_note = note or r.follow_up_note
        return r.model_dump()

    @tool(read_only=False, returns=Response)
    def link_ticket(self, response_id: Id("response"), ticket_id: Id("ticket")) -> dict:
        """Link a response to the helpdesk ticket it is about (409 if linked to another).

        Args:
            response_id: the response.
            ticket_id: the helpdesk ticket id, e.g. TCK-0007.
        """
        r = self.lookup(self.state.responses, response_id, "response")
        if r.ticket_id is not None:
            raise Conflict(f"{response_id} is already linked to {r.ticket_id}.")
        r.ticket_id = ticket_id
        return r.model_dump()

    @tool(read_only=False, returns=FeedbackNote)
    def create_feedback(self, title: str = Field(min_length=1, max_length=200),
                        content: str = Field(min_length=1, max_length=10000),
                        customer_email: Email = Field(min_length=3),
                        source: Source = "email", company: Optional[CompanyName] = None,
                        tags: list[str] = Field(default_factory=list), ticket_id: Optional[Id("ticket")] = None,
                        response_id: Optional[Id("response")] = None) -> dict:
        """Capture a product feedback note (status 'new').

        Args:
            title: short summary.
            content: the feedback in the customer's words.
            customer_email: customer who gave it.
            source: email, call, ticket, survey or social.
            company: customer's company.
            tags: tags, e.g. feature-request.
            ticket_id: related helpdesk ticket.
            response_id: related survey response (must exist).
        """
        if response_id is not None:
            self.lookup(self.state.responses, response_id, "response")
        n = FeedbackNote(id=self.new_id("FBK"), title=title, content=content, customer_email=customer_email,
                         company=company, source=source, ticket_id=ticket_id, response_id=response_id,
                         tags=list(dict.fromkeys(tags)), status="new", created_on=self.today)
        self.state.notes[n.id] = n
        return n.model_dump()

    @tool(read_only=False, returns=FeedbackNote)
    def update_feedback(self, note_id: Id("note"), status: Optional[NoteStatus] = None,
                        owner_email: Optional[Email] = None, add_tags: list[str] = Field(default_factory=list)) -> dict:
        """Triage a feedback note: status, owner or tags (closed notes are final, 409).

        Args:
            note_id: the note.
            status: new, reviewed, planned or closed.
            owner_email: product owner.
            add_tags: tags to add.
        """
        n = self.lookup(self.state.notes, note_id, "feedback note")
        if n.status == "closed":
            raise Conflict(f"feedback {note_id} is closed.")
        if status is None and owner_email is None and not add_tags:
            raise InvalidArgument("nothing to update: give status, owner_email or add_tags.")
        n.status = status or n.status
        n.owner_email = owner_email or n.owner_email
        n.tags += [t for t in dict.fromkeys(add_tags) if t not in n.tags]
        return n.model_dump()

    # ------------------------------------------------------------------ seeds
    @classmethod
    def build_seed_state(cls, fake: Faker, rng: random.Random, today: dt.date) -> CustomerFeedbackState:
        state = CustomerFeedbackState()
        surveys = (("Q4 2025 relationship NPS", "nps", "email", 45), ("Support CSAT", "csat", "post_ticket", 30),
                   ("Business accounts NPS", "nps", "in_app", 20))
        for n, (name, kind, channel, ago) in enumerate(surveys, start=1):
            sid = f"SRV-{n:04d}"
            state.surveys[sid] = Survey(id=sid, name=name, kind=kind, channel=channel,
                                        sent_on=today - dt.timedelta(days=ago))
        owners = [s.email for s in staff_of("customer_success") + staff_of("support")]
        people = ([("SRV-0001", c.name, c.email, None) for c in CUSTOMERS[:7]]
                  + [("SRV-0002", c.name, c.email, None) for c in CUSTOMERS[3:9]]
                  + [("SRV-0003", a.contact_name, a.contact_email, a.company) for a in ACCOUNTS[:7]])
        for n, (sid, name, email, company) in enumerate(people, start=1):
            s = state.surveys[sid]
            lo, hi = SCALE[s.kind]
            score = rng.randint(lo, hi)
            band = "low" if _needs_follow_up(s.kind, score) else ("high" if score >= (9 if s.kind == "nps" else 4)
                                                                  else "mid")
            comment, tags = rng.choice(_COMMENTS[band])
            follow = "needed" if band == "low" else "none"
            owner = None
            if band == "low" and n % 2 == 0:
                follow, owner = "in_progress", rng.choice(owners)
            rid = f"RSP-{n:04d}"
            state.responses[rid] = Response(
                id=rid, survey_id=sid, customer_email=email, customer_name=name, company=company, score=score,
                comment=comment, ticket_id=f"TCK-{rng.randint(1, 12):04d}" if s.channel == "post_ticket" else None,
                submitted_on=s.sent_on + dt.timedelta(days=rng.randint(0, 10)), tags=list(tags),
                follow_up_status=follow, follow_up_owner=owner)
        for n, (title, tag) in enumerate(_NOTES, start=1):
            acct = ACCOUNTS[(n * 3) % len(ACCOUNTS)]
            fid = f"FBK-{n:04d}"
            state.notes[fid] = FeedbackNote(
                id=fid, title=title, content=f"{acct.contact_name} ({acct.contact_title}): {title.lower()}; "
                + fake.sentence(nb_words=10), customer_email=acct.contact_email, company=acct.company,
                source=rng.choice(("email", "call", "ticket")), tags=[tag],
                status=rng.choice(("new", "reviewed", "planned")),
                owner_email=rng.choice(owners) if n % 2 else None,
                ticket_id=f"TCK-{rng.randint(1, 12):04d}" if n % 3 == 0 else None,
                created_on=today - dt.timedelta(days=rng.randint(1, 60)))
        state.counters.update(RSP=len(people) + 1, FBK=len(_NOTES) + 1)
        return state


_COMMENTS = {
    "low": (("Delivery took two weeks and nobody answered my emails.", ("shipping", "support")),
            ("The price went up again without notice.", ("pricing",)),
            ("Refund still not processed after a month.", ("billing", "refund")),
            ("Your support closed my ticket without fixing anything.", ("support",))),
    "mid": (("Decent product, but the checkout is confusing.", ("checkout",)),
            ("Good value, delivery could be faster.", ("shipping",)),
            ("Fine overall, the invoices are hard to find.", ("billing",))),
    "high": (("Great quality and fast shipping!", ("shipping", "praise")),
             ("Support resolved my issue in minutes.", ("support", "praise")),
             ("Love the new dashboard.", ("product", "praise"))),
}
_NOTES = (("Export invoices as CSV", "feature-request"), ("SSO with Okta", "feature-request"),
          ("Bulk order upload is slow", "performance"), ("Dark mode for the admin portal", "feature-request"),
          ("Webhook when an order ships", "integration"), ("Search ignores product SKUs", "bug"),
          ("Multi-currency invoices", "feature-request"), ("Audit log for admin changes", "security"))
