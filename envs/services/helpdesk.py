"""Helpdesk: a customer-support ticket database.

No helpdesk server is in ``compoworld_gym/data/mcp_servers.jsonl``; the interface is
designed the way Zendesk's ticket API looks (tickets with requester,
assignee, status ``new/open/pending/solved/closed``, priority, due date,
tags and public/internal comments).
"""

from __future__ import annotations

import datetime as dt
import random
from typing import Literal, Optional

from faker import Faker
from pydantic import Field

from compoworld_gym.entities import Date, DateTime, Email, Id, PersonName
from compoworld_gym.errors import Conflict, InvalidArgument
from compoworld_gym.envs.services._common import email_for
from compoworld_gym.envs.services._company import STAFF
from compoworld_gym.service import Record, Service, ServiceState, tool

TicketStatus = Literal["new", "open", "pending", "solved", "closed"]
Priority = Literal["low", "normal", "high", "urgent"]
CATEGORIES = ("billing", "shipping", "account", "technical", "refund")
#: Realistic subject lines per category (seed data).
SUBJECTS = {
    "billing": ("Charged twice this month", "Invoice shows the wrong plan", "Card declined at renewal",
                "Need a VAT invoice", "Unexpected late fee"),
    "shipping": ("Package not delivered yet", "Tracking has not updated in a week", "Wrong item received",
                 "Box arrived damaged", "Need to change delivery address"),
    "account": ("Locked out after password reset", "Cannot change account email", "Two-factor codes not arriving",
                "Please merge my two accounts", "Close my account"),
    "technical": ("Export to CSV fails", "App crashes on login", "Sync stuck at 90%",
                  "API returns 500 on orders endpoint", "Dashboard loads slowly"),
    "refund": ("Refund not received", "Return label request", "Refund for cancelled order",
               "Partial refund for missing item", "Refund to a closed card"),
}


class Comment(Record):
    """A comment on a ticket."""

    author_email: Email = Field(description="Who wrote the comment.")
    body: str = Field(description="Comment text.")
    public: bool = Field(description="True if visible to the requester, False for internal notes.")
    created_at: DateTime = Field(description="When the comment was added (logical clock).")


class Agent(Record):
    """A support agent who can own tickets."""

    id: Id("user") = Field(description="Agent id, e.g. AGT-0001.")
    name: PersonName = Field(description="Agent's full name.")
    email: Email = Field(description="Agent's work email.")
    team: str = Field(description="Support team, e.g. 'billing'.")


class Ticket(Record):
    """A support ticket."""

    id: Id("ticket") = Field(description="Ticket id, e.g. TCK-0001.")
    subject: str = Field(description="One-line summary.")
    description: str = Field(description="The requester's original message.")
    status: TicketStatus = Field(description="Lifecycle status.")
    priority: Priority = Field(description="Urgency.")
    category: str = Field(description="Topic, e.g. 'billing'.")
    requester_name: PersonName = Field(description="Customer who opened the ticket.")
    requester_email: Email = Field(description="Customer's email.")
    assignee_email: Optional[Email] = Field(default=None, description="Owning agent's email, if assigned.")
    created_on: Date = Field(description="Date the ticket was opened.")
    due_date: Optional[Date] = Field(default=None, description="Date a response is due (SLA).")
    tags: list[str] = Field(default_factory=list, description="Free-form tags.")
    comments: list[Comment] = Field(default_factory=list, description="Comments, oldest first.")


class HelpdeskState(ServiceState):
    """All tickets and agents of the helpdesk."""

    tickets: dict[str, Ticket] = Field(default_factory=dict, description="Tickets by id.")
    agents: dict[str, Agent] = Field(default_factory=dict, description="Agents by id.")


def _summary(t: Ticket) -> dict:
    return t.model_dump(exclude={"comments", "description"})


class Helpdesk(Service):
    """Customer-support tickets: search, read, create, update and comment."""

    name = "helpdesk"
    description = "Customer support ticket system: tickets, their status, owners, due dates and comments."
    domain = "support"
    spec_source = None
    State = HelpdeskState

    # ------------------------------------------------------------------ reads
    @tool(read_only=True, returns=list[Ticket])
    def search_tickets(
        self,
        status: Optional[TicketStatus] = None,
        priority: Optional[Priority] = None,
        assignee_email: Optional[Email] = None,
        requester_email: Optional[Email] = None,
        due_before: Optional[Date] = None,
        tag: Optional[str] = None,
        query: Optional[str] = None,
        limit: int = Field(default=50, ge=1, le=200),
    ) -> list[dict]:
        """Search tickets by status, priority, people, due date, tag or text.

        Args:
            status: only tickets with this status.
            priority: only tickets with this priority.
            assignee_email: only tickets owned by this agent.
            requester_email: only tickets opened by this customer.
            due_before: only tickets due strictly before this date (YYYY-MM-DD).
            tag: only tickets carrying this tag.
            query: case-insensitive text to find in subject or description.
            limit: maximum number of tickets to return (1-200).
        """
        out = []
        q = query.lower() if query else None
        for t in self.state.tickets.values():
            if status and t.status != status:
                continue
            if priority and t.priority != priority:
                continue
            if assignee_email and (t.assignee_email or "").lower() != assignee_email.lower():
                continue
            if requester_email and t.requester_email.lower() != requester_email.lower():
                continue
            if due_before and not (t.due_date and t.due_date < due_before):
                continue
            if tag and tag not in t.tags:
                continue
            if q and q not in t.subject.lower() and q not in t.description.lower():
                continue
            out.append(_summary(t))
        return out[:limit]

    @tool(read_only=True, returns=Ticket)
    def get_ticket(self, ticket_id: Id("ticket")) -> dict:
        """Get one ticket with its description and all comments.

        Args:
            ticket_id: the ticket id, e.g. TCK-0001.
        """
        return self.lookup(self.state.tickets, ticket_id, "ticket").model_dump()

    @tool(read_only=True, returns=list[Agent])
    def list_agents(self, team: Optional[str] = None) -> list[dict]:
        """List support agents, optionally only one team.

        Args:
            team: only agents of this team, e.g. 'billing'.
        """
        return [a.model_dump() for a in self.state.agents.values() if team is None or a.team == team]

    # ----------------------------------------------------------------- writes
    @tool(read_only=False, returns=Ticket)
    def create_ticket(
        self,
        subject: str = Field(min_length=1, max_length=200),
        description: str = Field(min_length=1, max_length=5000),
        requester_name: PersonName = Field(min_length=1),
        requester_email: Email = Field(min_length=3),
        priority: Priority = "normal",
        category: str = "technical",
        due_date: Optional[Date] = None,
        tags: list[str] = Field(default_factory=list),
    ) -> dict:
        """Open a new ticket with status 'new'.

        Args:
            subject: one-line summary.
            description: the customer's message.
            requester_name: customer's full name.
            requester_email: customer's email address.
            priority: low, normal, high or urgent.
            category: topic, e.g. billing or shipping.
            due_date: response due date (YYYY-MM-DD).
            tags: free-form tags.
        """
        ticket = Ticket(
            id=self.new_id("TCK"), subject=subject, description=description, status="new",
            priority=priority, category=category, requester_name=requester_name,
            requester_email=requester_email, created_on=self.today, due_date=due_date, tags=list(tags),
        )
        self.state.tickets[ticket.id] = ticket
        return _summary(ticket)

    @tool(read_only=False, returns=Ticket)
    def update_ticket(
        self,
        ticket_id: Id("ticket"),
        status: Optional[TicketStatus] = None,
        priority: Optional[Priority] = None,
        assignee_email: Optional[Email] = None,
        due_date: Optional[Date] = None,
        add_tags: list[str] = Field(default_factory=list),
    ) -> dict:
        """Change a ticket's status, priority, owner, due date or tags.

        A closed ticket cannot be changed (409); reopen by creating a new one.

        Args:
            ticket_id: the ticket to change.
            status: new status.
            priority: new priority.
            assignee_email: email of the agent who will own the ticket.
            due_date: new due date (YYYY-MM-DD).
            add_tags: tags to add (existing tags are kept).
        """
        t = self.lookup(self.state.tickets, ticket_id, "ticket")
        if t.status == "closed":
            raise Conflict(f"ticket {ticket_id} is closed and cannot be changed.")
        if all(v is None for v in (status, priority, assignee_email, due_date)) and not add_tags:
            raise InvalidArgument("nothing to update: give at least one of status, priority, "
                                  "assignee_email, due_date, add_tags.")
        if assignee_email is not None:
            agent_emails = {a.email.lower() for a in self.state.agents.values()}
            if assignee_email.lower() not in agent_emails:
                raise InvalidArgument(f"assignee_email {assignee_email!r} is not a support agent; "
                                      "call list_agents for valid emails.")
            t.assignee_email = assignee_email
        if status is not None:
            t.status = status
        if priority is not None:
            t.priority = priority
        if due_date is not None:
            t.due_date = due_date
        for tag in add_tags:
            if tag not in t.tags:
                t.tags.append(tag)
        return _summary(t)

    @tool(read_only=False, returns=Comment)
    def add_comment(
        self,
        ticket_id: Id("ticket"),
        body: str = Field(min_length=1, max_length=5000),
        author_email: Email = "support@company.example",
        public: bool = True,
    ) -> dict:
        """Add a public reply or an internal note to a ticket.

        Args:
            ticket_id: the ticket to comment on.
            body: the comment text.
            author_email: who writes the comment.
            public: True for a reply the customer sees, False for an internal note.
        """
        t = self.lookup(self.state.tickets, ticket_id, "ticket")
        if t.status == "closed":
            raise Conflict(f"ticket {ticket_id} is closed; comments are no longer accepted.")
        comment = Comment(author_email=author_email, body=body, public=public, created_at=self.now())
        t.comments.append(comment)
        return {"ticket_id": ticket_id, **comment.model_dump()}

    @tool(read_only=True, returns=list[Comment])
    def list_comments(self, ticket_id: Id("ticket"), public_only: bool = False) -> list[dict]:
        """List a ticket's comments, oldest first.

        Args:
            ticket_id: the ticket id.
            public_only: True to hide internal notes.
        """
        t = self.lookup(self.state.tickets, ticket_id, "ticket")
        return [c.model_dump() for c in t.comments if c.public or not public_only]

    @tool(read_only=True, returns=list[Ticket])
    def list_overdue_tickets(self, as_of: Optional[Date] = None) -> list[dict]:
        """List unresolved tickets (new, open, pending) whose due date has passed, oldest due first.

        Args:
            as_of: the reference date (YYYY-MM-DD); defaults to today.
        """
        day = as_of or self.today
        late = [t for t in self.state.tickets.values()
                if t.status in ("new", "open", "pending") and t.due_date and t.due_date < day]
        return [_summary(t) for t in sorted(late, key=lambda t: (t.due_date, t.id))]

    @tool(read_only=False, destructive=True, returns=Ticket)
    def close_ticket(self, ticket_id: Id("ticket"), resolution: str = Field(min_length=1, max_length=2000)) -> dict:
        """Close a solved ticket for good, recording the resolution as an internal note.

        Only tickets with status 'solved' can be closed (409 otherwise); a
        closed ticket can no longer be changed.

        Args:
            ticket_id: the ticket to close.
            resolution: how the issue was resolved.
        """
        t = self.lookup(self.state.tickets, ticket_id, "ticket")
        if t.status != "solved":
            raise Conflict(f"ticket {ticket_id} is {t.status}; set status 'solved' before closing it.")
        t.comments.append(Comment(author_email="support@company.example", body=resolution, public=False,
                                  created_at=self.now()))
        t.status = "closed"
        return _summary(t)

    @tool(read_only=False, destructive=True, returns=Ticket)
    def merge_tickets(self, source_ticket_id: Id("ticket"), target_ticket_id: Id("ticket")) -> dict:
        """Merge a duplicate ticket into another: comments move to the target, the source is closed.

        Args:
            source_ticket_id: the duplicate ticket (will be closed).
            target_ticket_id: the ticket that stays open.
        """
        if source_ticket_id == target_ticket_id:
            raise InvalidArgument("source_ticket_id and target_ticket_id must differ.")
        src = self.lookup(self.state.tickets, source_ticket_id, "ticket")
        dst = self.lookup(self.state.tickets, target_ticket_id, "ticket")
        for t in (src, dst):
            if t.status == "closed":
                raise Conflict(f"ticket {t.id} is closed and cannot be merged.")
        dst.comments.extend(src.comments)
        note = f"Merged into {dst.id}."
        src.comments = [Comment(author_email="support@company.example", body=note, public=False,
                                created_at=self.now())]
        src.status = "closed"
        for tag in src.tags:
            if tag not in dst.tags:
                dst.tags.append(tag)
        return _summary(dst)

    # ------------------------------------------------------------------ seeds
    @classmethod
    def build_seed_state(cls, fake: Faker, rng: random.Random, today: dt.date) -> HelpdeskState:
        state = HelpdeskState()
        for i, person in enumerate(STAFF, 1):
            aid = f"AGT-{i:04d}"
            state.agents[aid] = Agent(id=aid, name=person.name, email=person.email, team=person.team)
        agents = [a for a in state.agents.values() if a.team in ("support", "billing", "logistics")]
        for i in range(1, 13):
            cat = rng.choice(CATEGORIES)
            requester = fake.name()
            created = today - dt.timedelta(days=rng.randint(1, 30))
            tid = f"TCK-{i:04d}"
            subject = rng.choice(SUBJECTS[cat])
            state.tickets[tid] = Ticket(
                id=tid, subject=subject,
                description=f"Hello, {subject[0].lower() + subject[1:]}. My reference is "
                            f"{rng.randint(10000, 99999)}. Can you help? Thanks, {requester}", status=rng.choice(("new", "open", "pending", "solved")),
                priority=rng.choice(("low", "normal", "high")), category=cat, requester_name=requester,
                requester_email=email_for(requester, fake.free_email_domain()),
                assignee_email=rng.choice(agents).email, created_on=created,
                due_date=created + dt.timedelta(days=rng.randint(2, 20)), tags=[cat],
            )
        state.counters["TCK"] = 13
        return state

