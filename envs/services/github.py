"""GitHub: repositories with files and branches, issues and pull requests.

Follows the official Model Context Protocol reference server ``github``
(slug ``modelcontextprotocol-github``): same tool names, parameter names,
types, enums and required sets for the 21 tools implemented. Left out:
``fork_repository``, ``search_code``, ``get_pull_request_status``,
``update_pull_request_branch``, ``get_pull_request_comments`` (line review
comments) and the ``milestone`` parameter. File contents are returned as
UTF-8 text rather than base64. The authenticated user is ``ops-bot``.

The repository, file, branch and commit tools (and the record lookups) are
in :mod:`._github_repos`; this file adds issues and pull requests.
"""

from __future__ import annotations

import datetime as dt
import random
from typing import Literal, Optional

from faker import Faker
from pydantic import Field

from compoworld_gym.entities import DateTime, RepoName, Username
from compoworld_gym.envs.services import _github_seed as seed
from compoworld_gym.envs.services._blocks import eq, has, next_number, paginate, select, text_in_any
from compoworld_gym.envs.services._github_git import file_stats
from compoworld_gym.envs.services._github_models import (
    Branch, GitHubState, GitUser, Issue, IssueComment, IssueNumber, PullNumber, PullRequest, Review, issue_view,
    pr_view,
)
from compoworld_gym.envs.services._github_repos import Direction, GitHubRepos, PerPage
from compoworld_gym.envs.services._github_search import parse_search, search_match
from compoworld_gym.errors import Conflict, InvalidArgument, Unprocessable
from compoworld_gym.service import tool


class GitHub(GitHubRepos):
    """Code hosting: repositories, files, branches, issues and pull requests."""

    name = "github"
    description = "GitHub code hosting: repositories, files, branches, commits, issues and pull requests."
    domain = "engineering"
    spec_source = "modelcontextprotocol-github"
    State = GitHubState

    # ------------------------------------------------------------------ issues
    @tool(read_only=False, returns=Issue)
    def create_issue(self, owner: Username, repo: RepoName, title: str = Field(min_length=1), body: str = "",
                     assignees: list[Username] = Field(default_factory=list),
                     labels: list[str] = Field(default_factory=list)) -> dict:
        """Open a new issue.

        Args:
            owner: repository owner.
            repo: repository name.
            title: issue title.
            body: markdown body.
            assignees: logins to assign.
            labels: label names.
        """
        r = self._repo(owner, repo)
        self._check_users(assignees)
        when = self.now()
        issue = Issue(repo=r.full_name, number=self._next_number(r.full_name), title=title, body=body, state="open",
                      user=self.state.viewer, labels=list(dict.fromkeys(labels)), assignees=list(dict.fromkeys(assignees)),
                      created_at=when, updated_at=when)
        self.state.issues[f"{r.full_name}#{issue.number}"] = issue
        return issue_view(issue)

    @tool(read_only=True, returns=list[Issue])
    def list_issues(self, owner: Username, repo: RepoName, direction: Direction = "desc",
                    labels: list[str] = Field(default_factory=list), page: int = Field(default=1, ge=1),
                    per_page: int = PerPage, since: Optional[DateTime] = None,
                    sort: Literal["created", "updated", "comments"] = "created",
                    state: Literal["open", "closed", "all"] = "open") -> list[dict]:
        """List a repository's issues, filtered by state, labels and update time.

        Args:
            owner: repository owner.
            repo: repository name.
            direction: sort direction.
            labels: only issues carrying all of these labels.
            page: page number (1-based).
            per_page: results per page (max 100).
            since: only issues updated at or after this time (ISO 8601).
            sort: sort key.
            state: open, closed or all.
        """
        full = self._repo(owner, repo).full_name
        cutoff = None if since is None else since.replace(tzinfo=None)
        hits = select(self.state.issues.values(), eq("repo", full), None if state == "all" else eq("state", state),
                      *(has("labels", lb) for lb in labels),
                      None if cutoff is None else (lambda i: i.updated_at >= cutoff))
        key = {"created": lambda i: (i.created_at, i.number), "updated": lambda i: (i.updated_at, i.number),
               "comments": lambda i: (len(i.comments), i.number)}[sort]
        hits.sort(key=key, reverse=direction == "desc")
        return [issue_view(i) for i in paginate(hits, page, per_page)]

    @tool(read_only=False, returns=Issue)
    def update_issue(self, owner: Username, repo: RepoName, issue_number: IssueNumber, title: Optional[str] = None,
                     body: Optional[str] = None, assignees: Optional[list[Username]] = None,
                     labels: Optional[list[str]] = None, state: Optional[Literal["open", "closed"]] = None) -> dict:
        """Change an issue's title, body, assignees, labels or state (lists replace the old ones).

        Args:
            owner: repository owner.
            repo: repository name.
            issue_number: the issue number.
            title: new title.
            body: new body.
            assignees: new full list of assignee logins.
            labels: new full list of labels.
            state: open or closed.
        """
        i = self._issue(owner, repo, issue_number)
        if all(v is None for v in (title, body, assignees, labels, state)):
            raise InvalidArgument("nothing to update: give title, body, assignees, labels or state.")
        if assignees is not None:
            self._check_users(assignees)
            i.assignees = list(dict.fromkeys(assignees))
        if labels is not None:
            i.labels = list(dict.fromkeys(labels))
        i.title, i.body, i.state = title or i.title, i.body if body is None else body, state or i.state
        i.updated_at = self.now()
        return issue_view(i)

    @tool(read_only=False, returns=IssueComment)
    def add_issue_comment(self, owner: Username, repo: RepoName, issue_number: IssueNumber,
                          body: str = Field(min_length=1)) -> dict:
        """Comment on an issue or pull request (both share numbers).

        Args:
            owner: repository owner.
            repo: repository name.
            issue_number: issue (or pull request) number.
            body: markdown text.
        """
        self._repo(owner, repo)
        key = f"{owner}/{repo}#{issue_number}"
        target = self.state.issues.get(key)
        if target is None:
            self.lookup(self.state.pull_requests, key, "issue")
            raise Unprocessable(f"#{issue_number} is a pull request; review it with create_pull_request_review.")
        c = IssueComment(id=next_number(self.state.counters, "comment"), user=self.state.viewer, body=body,
                         created_at=self.now())
        target.comments.append(c)
        target.updated_at = c.created_at
        return c.model_dump()

    @tool(read_only=True, returns=Issue)
    def get_issue(self, owner: Username, repo: RepoName, issue_number: IssueNumber) -> dict:
        """Get one issue with its comments.

        Args:
            owner: repository owner.
            repo: repository name.
            issue_number: the issue number.
        """
        return self._issue(owner, repo, issue_number).model_dump()

    @tool(read_only=True, returns=list[Issue])
    def search_issues(self, q: str, order: Direction = "desc",
                      sort: Literal["comments", "created", "updated"] = "created",
                      page: int = Field(default=1, ge=1), per_page: int = PerPage) -> dict:
        """Search issues and pull requests across repositories.

        Qualifiers: repo:OWNER/NAME, is:issue, is:pr, is:open, is:closed, is:merged,
        label:NAME, assignee:LOGIN, author:LOGIN; other words must appear in title or body.

        Args:
            q: search query with optional qualifiers.
            order: sort direction.
            sort: sort key.
            page: page number (1-based).
            per_page: results per page (max 100).
        """
        quals, words = parse_search(q)
        items = [(i, False) for i in self.state.issues.values()] + [(p, True) for p in self.state.pull_requests.values()]
        hits = [(x, is_pr) for x, is_pr in items if search_match(x, is_pr, quals, words)]
        key = {"created": lambda h: h[0].created_at, "updated": lambda h: h[0].updated_at,
               "comments": lambda h: len(getattr(h[0], "comments", []))}[sort]
        hits.sort(key=key, reverse=order == "desc")
        out = [{**(pr_view(x) if is_pr else issue_view(x)), "is_pull_request": is_pr} for x, is_pr in hits]
        return {"total_count": len(out), "items": paginate(out, page, per_page)}

    @tool(read_only=True, returns=list[GitUser])
    def search_users(self, q: str, page: int = Field(default=1, ge=1), per_page: int = PerPage) -> dict:
        """Search users by login, name or email.

        Args:
            q: text to find.
            page: page number (1-based).
            per_page: results per page (max 100).
        """
        users = select(self.state.users.values(), text_in_any(q.strip(), "login", "name", "email"))
        hits = [u.model_dump() for u in users]
        return {"total_count": len(hits), "items": paginate(hits, page, per_page)}

    # ----------------------------------------------------------- pull requests
    @tool(read_only=False, returns=PullRequest)
    def create_pull_request(self, owner: Username, repo: RepoName, title: str = Field(min_length=1),
                            head: Branch = Field(min_length=1), base: Branch = Field(min_length=1), body: str = "",
                            draft: bool = False, maintainer_can_modify: bool = True) -> dict:
        """Open a pull request merging branch head into branch base.

        Args:
            owner: repository owner.
            repo: repository name.
            title: pull request title.
            head: branch with the changes.
            base: branch to merge into.
            body: description.
            draft: open as a draft.
            maintainer_can_modify: maintainers may push to head.
        """
        r = self._repo(owner, repo)
        self._branch(r, head), self._branch(r, base)
        if head == base:
            raise Unprocessable("head and base are the same branch.")
        if any(p.repo == r.full_name and p.head == head and p.base == base and p.state == "open"
               for p in self.state.pull_requests.values()):
            raise Unprocessable(f"an open pull request from {head} into {base} already exists.")
        if not self._changes(r.full_name, head, base)[0]:
            raise Unprocessable(f"no changes between {base} and {head}; push commits to {head} first.")
        when = self.now()
        pr = PullRequest(repo=r.full_name, number=self._next_number(r.full_name), title=title, body=body, state="open",
                         draft=draft, user=self.state.viewer, head=head, base=base,
                         maintainer_can_modify=maintainer_can_modify, created_at=when, updated_at=when)
        self.state.pull_requests[f"{r.full_name}#{pr.number}"] = pr
        return pr_view(pr)

    @tool(read_only=True, returns=PullRequest)
    def get_pull_request(self, owner: Username, repo: RepoName, pull_number: PullNumber) -> dict:
        """Get one pull request.

        Args:
            owner: repository owner.
            repo: repository name.
            pull_number: pull request number.
        """
        p = self._pr(owner, repo, pull_number)
        changed, conflicts = self._changes(p.repo, p.head, p.base)
        return {**pr_view(p), "changed_files": len(changed), "mergeable": p.state == "open" and not conflicts}

    @tool(read_only=True, returns=list[PullRequest])
    def list_pull_requests(self, owner: Username, repo: RepoName, state: Literal["open", "closed", "all"] = "open",
                           head: Optional[Branch] = None, base: Optional[Branch] = None,
                           sort: Literal["created", "updated", "popularity", "long-running"] = "created",
                           direction: Direction = "desc", per_page: int = PerPage,
                           page: int = Field(default=1, ge=1)) -> list[dict]:
        """List a repository's pull requests, filtered by state, head and base branch.

        Args:
            owner: repository owner.
            repo: repository name.
            state: open, closed or all.
            head: only PRs from this branch.
            base: only PRs into this branch.
            sort: sort key (popularity sorts by number of reviews; long-running by age).
            direction: sort direction.
            per_page: results per page (max 100).
            page: page number (1-based).
        """
        full = self._repo(owner, repo).full_name
        hits = select(self.state.pull_requests.values(), eq("repo", full),
                      None if state == "all" else eq("state", state), eq("head", head), eq("base", base))
        key = {"created": lambda p: p.created_at, "updated": lambda p: p.updated_at,
               "popularity": lambda p: len(p.reviews), "long-running": lambda p: -p.created_at.timestamp()}[sort]
        hits.sort(key=key, reverse=direction == "desc")
        return [pr_view(p) for p in paginate(hits, page, per_page)]

    @tool(read_only=False, returns=Review)
    def create_pull_request_review(self, owner: Username, repo: RepoName, pull_number: PullNumber, body: str,
                                   event: Literal["APPROVE", "REQUEST_CHANGES", "COMMENT"],
                                   commit_id: Optional[str] = None) -> dict:
        """Review a pull request: approve, request changes or comment.

        Args:
            owner: repository owner.
            repo: repository name.
            pull_number: pull request number.
            body: review text.
            event: APPROVE, REQUEST_CHANGES or COMMENT.
            commit_id: head commit sha being reviewed (default: the current head).
        """
        p = self._pr(owner, repo, pull_number)
        if p.state != "open":
            raise Unprocessable(f"pull request #{pull_number} is closed; it can no longer be reviewed.")
        if event != "COMMENT" and p.user == self.state.viewer:
            raise Unprocessable("you cannot approve or request changes on your own pull request.")
        head = self.state.repositories[p.repo].branches[p.head].commits
        n = next_number(self.state.counters, "review")
        verdict = {"APPROVE": "APPROVED", "REQUEST_CHANGES": "CHANGES_REQUESTED", "COMMENT": "COMMENTED"}[event]
        rv = Review(id=n, user=self.state.viewer, body=body, state=verdict,
                    commit_id=commit_id or (head[-1].sha if head else ""), submitted_at=self.now())
        p.reviews.append(rv)
        p.updated_at = rv.submitted_at
        return rv.model_dump()

    @tool(read_only=False)
    def merge_pull_request(self, owner: Username, repo: RepoName, pull_number: PullNumber,
                           commit_title: Optional[str] = None, commit_message: Optional[str] = None,
                           merge_method: Literal["merge", "squash", "rebase"] = "merge") -> dict:
        """Merge an open, non-draft pull request into its base branch.

        Args:
            owner: repository owner.
            repo: repository name.
            pull_number: pull request number.
            commit_title: title of the merge commit.
            commit_message: extra text appended to the merge commit message.
            merge_method: merge, squash or rebase.
        """
        p = self._pr(owner, repo, pull_number)
        if p.state != "open":
            raise Conflict(f"pull request #{pull_number} is already {'merged' if p.merged else 'closed'}.")
        if p.draft:
            raise Conflict(f"pull request #{pull_number} is a draft; mark it ready for review first.")
        if any(rv.state == "CHANGES_REQUESTED" for rv in p.reviews[-1:]):
            raise Conflict("the latest review requests changes; resolve them before merging.")
        title = commit_title or (f"Merge pull request #{p.number} from {p.head}" if merge_method == "merge"
                                 else f"{p.title} (#{p.number})")
        changed, conflicts = self._changes(p.repo, p.head, p.base)
        if conflicts:
            raise Conflict(f"merge conflict: {p.base} also changed {conflicts}; update {p.head} first.")
        base = self.state.repositories[p.repo].branches[p.base]
        commit = self._commit(base, title + (f"\n\n{commit_message}" if commit_message else ""), changed)
        p.state, p.merged, p.merge_commit_sha, p.updated_at = "closed", True, commit.sha, commit.date
        return {"merged": True, "sha": commit.sha, "message": "Pull Request successfully merged"}

    @tool(read_only=True)
    def get_pull_request_files(self, owner: Username, repo: RepoName, pull_number: PullNumber) -> list[dict]:
        """List the files a pull request adds or modifies, with line counts.

        Args:
            owner: repository owner.
            repo: repository name.
            pull_number: pull request number.
        """
        p = self._pr(owner, repo, pull_number)
        return file_stats(self.state.repositories[p.repo].branches[p.base].files,
                          self._changes(p.repo, p.head, p.base)[0])

    @tool(read_only=True, returns=list[Review])
    def get_pull_request_reviews(self, owner: Username, repo: RepoName, pull_number: PullNumber) -> list[dict]:
        """List the reviews of a pull request, oldest first.

        Args:
            owner: repository owner.
            repo: repository name.
            pull_number: pull request number.
        """
        return [r.model_dump() for r in self._pr(owner, repo, pull_number).reviews]

    # ------------------------------------------------------------------ seeds
    @classmethod
    def build_seed_state(cls, fake: Faker, rng: random.Random, today: dt.date) -> GitHubState:
        return GitHubState.model_validate(seed.build_state(rng, today))
