"""Issue tracker tools on cycles, relations and links (Linear ``issueUpdate(cycleId)``,
``issueRelations``, ``issueRelationCreate``/``issueRelationDelete``, ``attachmentLinkURL``).

A mixin of :class:`compoworld_gym.envs.services.issue_tracker.IssueTracker`: it uses
that class's helpers (``_issue``, ``_editable``, ``_open_cycle``, ``_view``).
"""

from __future__ import annotations

from compoworld_gym.entities import Id, Url
from compoworld_gym.envs.services._issue_tracker_models import Attachment, Issue, IssueRelation, RelationType
from compoworld_gym.errors import Conflict, InvalidArgument, Unprocessable
from compoworld_gym.envs.services._issue_tracker_rules import move
from compoworld_gym.service import tool
from pydantic import Field


class RelationTools:
    """Cycle planning, issue relations and linked URLs."""

    @tool(read_only=True, returns=list[IssueRelation])
    def list_issue_relations(self, issue_id: Id("linear_issue")) -> list[dict]:
        """List the relations an issue takes part in (either side).

        Args:
            issue_id: the issue identifier.
        """
        i = self._issue(issue_id)
        return [r.model_dump() for r in self.state.relations.values() if i.id in (r.issue_id, r.related_issue_id)]

    @tool(read_only=False, returns=Issue)
    def add_issue_to_cycle(self, issue_id: Id("linear_issue"), cycle_id: Id("cycle")) -> dict:
        """Plan an issue into an active or upcoming cycle of its own team.

        Args:
            issue_id: the issue identifier.
            cycle_id: the cycle, e.g. CYC-0005.
        """
        i = self._editable(issue_id)
        c = self._open_cycle(self.state.teams[i.team_id], cycle_id)
        if i.cycle_id == c.id:
            raise Conflict(f"issue {i.id} is already in cycle {c.id}.")
        if i.state_type in ("completed", "canceled"):
            raise Unprocessable(f"issue {i.id} is {i.state_name}; a closed issue is not planned into a cycle.")
        i.cycle_id, i.updated_at = c.id, self.now()
        return self._view(i)

    @tool(read_only=False, returns=IssueRelation)
    def create_issue_relation(self, issue_id: Id("linear_issue"), related_issue_id: Id("linear_issue"),
                              type: RelationType = "related") -> dict:
        """Relate two issues: issue blocks / duplicates / relates to related issue. A duplicate is moved to its
        team's Duplicate (canceled) state.

        Args:
            issue_id: the issue the relation is from (the blocker, or the duplicate).
            related_issue_id: the issue it points to (the blocked one, or the original).
            type: blocks, duplicate or related.
        """
        a, b = self._editable(issue_id), self._issue(related_issue_id)
        if a.id == b.id:
            raise InvalidArgument("an issue cannot relate to itself.")
        same = [r for r in self.state.relations.values() if {r.issue_id, r.related_issue_id} == {a.id, b.id}]
        if same:
            raise Conflict(f"{a.id} and {b.id} are already related ({same[0].type}, {same[0].id}).")
        dup_state = None
        if type == "duplicate":
            if b.state_id.endswith("-duplicate"):
                raise Unprocessable(f"{b.id} is itself a duplicate; mark {a.id} a duplicate of the original.")
            dup_state = next((s for s in self.state.workflow_states.values() if s.team_id == a.team_id
                              and s.type == "canceled" and s.name == "Duplicate"), None)
        at = self.now()
        r = IssueRelation(id=self.new_id("REL"), type=type, issue_id=a.id, related_issue_id=b.id, created_at=at)
        self.state.relations[r.id] = r
        if dup_state is not None:
            move(a, dup_state, at)
        return r.model_dump()

    @tool(read_only=False, destructive=True, returns=IssueRelation)
    def delete_issue_relation(self, relation_id: str) -> dict:
        """Delete an issue relation.

        Args:
            relation_id: the relation id, e.g. REL-0002.
        """
        r = self.lookup(self.state.relations, relation_id, "issue relation")
        del self.state.relations[r.id]
        return r.model_dump()

    @tool(read_only=False, returns=Issue)
    def create_attachment(self, issue_id: Id("linear_issue"), url: Url, title: str = Field(min_length=1,
                                                                                            max_length=255)) -> dict:
        """Link a URL to an issue (attachmentLinkURL): a GitHub pull request, an error report, an incident.

        Args:
            issue_id: the issue identifier.
            url: the https URL to link.
            title: the link's title.
        """
        i = self._editable(issue_id)
        if not url.startswith("https://"):
            raise InvalidArgument("url must be an https URL.")
        if any(a.url == url for a in i.attachments):
            raise Conflict(f"{url} is already linked to {i.id}.")
        kind = "github" if "github.com/" in url else "sentry" if "sentry" in url else "other"
        i.attachments.append(Attachment(title=title, url=url, source_type=kind))
        i.updated_at = self.now()
        return self._view(i)
