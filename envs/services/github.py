"""GitHub: repositories with files and branches, issues and pull requests.

Follows the official Model Context Protocol reference server ``github``
(slug ``modelcontextprotocol-github``): same tool names, parameter names,
types, enums and required sets for the 21 tools implemented. Left out:
``fork_repository``, ``search_code``, ``get_pull_request_status``,
``update_pull_request_branch``, ``get_pull_request_comments`` (line review
comments) and the ``milestone`` parameter. File contents are returned as
UTF-8 text rather than base64. The authenticated user is ``ops-bot``.
"""

from __future__ import annotations

import datetime as dt
import difflib
import hashlib
import random
from typing import Literal, Optional

from faker import Faker
from pydantic import Field

from compoworld_gym.entities import DateTime, FilePath, RepoName, Username
from compoworld_gym.envs.services import _github_seed as seed
from compoworld_gym.envs.services._github_models import (
    Branch, BranchState, Commit, GitHubState, GitUser, Issue, IssueComment, IssueNumber, PullNumber,
    PullRequest, Repository, Review, FileIn, blob_sha,
)
from compoworld_gym.errors import Conflict, InvalidArgument, NotFound, Unprocessable
from compoworld_gym.service import Service, tool

Direction = Literal["asc", "desc"]

PerPage = Field(default=30, ge=1, le=100)


def _page(items: list, page: int, per_page: int) -> list:
    return items[(page - 1) * per_page: page * per_page]


def _issue_view(i: Issue) -> dict:
    return {**i.model_dump(exclude={"comments"}), "comments": len(i.comments)}


def _pr_view(p: PullRequest) -> dict:
    return p.model_dump(exclude={"reviews"})


class GitHub(Service):
    """Code hosting: repositories, files, branches, issues and pull requests."""

    name = "github"
    description = "GitHub code hosting: repositories, files, branches, commits, issues and pull requests."
    domain = "engineering"
    spec_source = "modelcontextprotocol-github"
    State = GitHubState

    # --------------------------------------------------------------- helpers
    def _repo(self, owner: str, repo: str) -> Repository:
        return self.lookup(self.state.repositories, f"{owner}/{repo}", "repository")

    def _branch(self, r: Repository, branch: Optional[str]) -> BranchState:
        name = branch or r.default_branch
        if name not in r.branches:
            raise NotFound(f"branch {name!r} not found in {r.full_name}; branches: {sorted(r.branches)}.")
        return r.branches[name]

    def _commit(self, b: BranchState, message: str, files: dict[str, str]) -> Commit:
        parent = b.commits[-1].sha if b.commits else ""
        when = self.now()
        digest = "\n".join([parent, message, when.isoformat()] + [f"{p}:{blob_sha(c)}" for p, c in sorted(files.items())])
        commit = Commit(sha=hashlib.sha1(digest.encode()).hexdigest(), message=message, author=self.state.viewer,
                        date=when, files=sorted(files))
        b.files.update(files)
        b.commits.append(commit)
        return commit

    def _next_number(self, full: str) -> int:
        n = self.state.counters.get(full, 1)
        self.state.counters[full] = n + 1
        return n

    def _check_users(self, logins: list[str]) -> None:
        unknown = [u for u in logins if u not in self.state.users]
        if unknown:
            raise Unprocessable(f"unknown user(s) {unknown}; use search_users to find valid logins.")

    def _issue(self, owner: str, repo: str, number: int) -> Issue:
        self._repo(owner, repo)
        return self.lookup(self.state.issues, f"{owner}/{repo}#{number}", "issue")

    def _pr(self, owner: str, repo: str, number: int) -> PullRequest:
        self._repo(owner, repo)
        return self.lookup(self.state.pull_requests, f"{owner}/{repo}#{number}", "pull request")

    def _changes(self, full: str, head: str, base: str) -> tuple[dict[str, str], list[str]]:
        """(files head changed since it forked from base, paths both sides changed differently)."""
        h, b = self.state.repositories[full].branches[head], self.state.repositories[full].branches[base]
        k = 0  # branches copy their history, so the shared commit prefix is the merge base
        for x, y in zip(h.commits, b.commits):
            if x.sha != y.sha:
                break
            k += 1
        ours = {f for c in h.commits[k:] for f in c.files}
        theirs = {f for c in b.commits[k:] for f in c.files}
        changed = {f: h.files[f] for f in sorted(ours) if b.files.get(f) != h.files[f]}
        return changed, sorted(f for f in changed if f in theirs)

    # ----------------------------------------------------------- repositories
    @tool(read_only=True, returns=list[Repository])
    def search_repositories(self, query: str, page: int = Field(default=1, ge=1), perPage: int = PerPage) -> dict:  # noqa: N803
        """Search repositories by words in name or description; 'user:LOGIN' or 'org:LOGIN' filters the owner.

        Args:
            query: search words, optionally with user:/org: qualifiers.
            page: page number (1-based).
            perPage: results per page (max 100).
        """
        owners = [t.split(":", 1)[1].lower() for t in query.split() if t.lower().startswith(("user:", "org:"))]
        words = [t.lower() for t in query.split() if ":" not in t]
        hits = [r for r in self.state.repositories.values()
                if all(o == r.owner.lower() for o in owners)
                and all(w in f"{r.full_name} {r.description}".lower() for w in words)]
        items = [r.model_dump(exclude={"branches"}) for r in hits]
        return {"total_count": len(items), "items": _page(items, page, perPage)}

    @tool(read_only=False, returns=Repository)
    def create_repository(self, name: str = Field(pattern=r"^[A-Za-z0-9._-]{1,100}$"), description: str = "",
                          private: bool = False, autoInit: bool = False) -> dict:  # noqa: N803
        """Create a new repository owned by the authenticated user.

        Args:
            name: repository name (letters, digits, '.', '_', '-').
            description: short description.
            private: whether the repository is private.
            autoInit: create an initial commit with README.md.
        """
        full = f"{self.state.viewer}/{name}"
        if full in self.state.repositories:
            raise Conflict(f"repository {full} already exists.")
        r = Repository(full_name=full, owner=self.state.viewer, name=name, description=description,
                       private=private, branches={"main": BranchState()})
        if autoInit:
            self._commit(r.branches["main"], "Initial commit", {"README.md": f"# {name}\n\n{description}\n"})
        self.state.repositories[full] = r
        return r.model_dump(exclude={"branches"})

    @tool(read_only=True)
    def get_file_contents(self, owner: Username, repo: RepoName, path: FilePath, branch: Optional[Branch] = None) -> dict | list:
        """Get a file's text content and sha, or list a directory ('' or '/' for the root).

        Args:
            owner: repository owner.
            repo: repository name.
            path: file or directory path.
            branch: branch to read (default: the repository's default branch).
        """
        b = self._branch(self._repo(owner, repo), branch)
        p = path.strip("/")
        if p in b.files:
            c = b.files[p]
            return {"type": "file", "name": p.rsplit("/", 1)[-1], "path": p, "sha": blob_sha(c),
                    "size": len(c.encode()), "encoding": "utf-8", "content": c}
        prefix = f"{p}/" if p else ""
        entries: dict[str, dict] = {}
        for f, c in sorted(b.files.items()):
            if f.startswith(prefix):
                head, _, rest = f[len(prefix):].partition("/")
                entries.setdefault(head, {"type": "dir" if rest else "file", "name": head, "path": prefix + head,
                                          "sha": None if rest else blob_sha(c)})
        if not entries:
            raise NotFound(f"path {path!r} not found on that branch; list the root with path ''.")
        return list(entries.values())

    @tool(read_only=False)
    def create_or_update_file(self, owner: Username, repo: RepoName, path: FilePath, content: str, message: str,
                              branch: Branch, sha: Optional[str] = None) -> dict:
        """Create or update one file in a single commit; updating needs the file's current sha.

        Args:
            owner: repository owner.
            repo: repository name.
            path: file path to write.
            content: the new full content.
            message: commit message.
            branch: branch to commit to.
            sha: current blob sha of the file (required when it already exists).
        """
        b = self._branch(self._repo(owner, repo), branch)
        p = path.strip("/")
        if p in b.files and sha != blob_sha(b.files[p]):
            raise Conflict(f"{p} exists on {branch}: pass its current sha {blob_sha(b.files[p])!r} "
                           "(from get_file_contents) to update it." if sha is None else
                           f"sha {sha!r} does not match the current sha of {p}; re-read the file.")
        commit = self._commit(b, message, {p: content})
        return {"content": {"path": p, "sha": blob_sha(content)}, "commit": commit.model_dump()}

    @tool(read_only=False)
    def push_files(self, owner: Username, repo: RepoName, branch: Branch, files: list[FileIn] = Field(min_length=1),
                   message: str = Field(min_length=1)) -> dict:
        """Write several files to a branch in one commit.

        Args:
            owner: repository owner.
            repo: repository name.
            branch: branch to push to.
            files: the files, each with path and content.
            message: commit message.
        """
        b = self._branch(self._repo(owner, repo), branch)
        return self._commit(b, message, {f.path.strip("/"): f.content for f in files}).model_dump()

    @tool(read_only=False)
    def create_branch(self, owner: Username, repo: RepoName, branch: Branch,
                      from_branch: Optional[Branch] = None) -> dict:
        """Create a branch from another branch (default: the default branch).

        Args:
            owner: repository owner.
            repo: repository name.
            branch: name of the new branch.
            from_branch: source branch.
        """
        r = self._repo(owner, repo)
        src = self._branch(r, from_branch)
        if branch in r.branches:
            raise Conflict(f"branch {branch!r} already exists in {r.full_name}.")
        r.branches[branch] = src.model_copy(deep=True)
        return {"ref": f"refs/heads/{branch}", "sha": src.commits[-1].sha if src.commits else None}

    @tool(read_only=True, returns=list[Commit])
    def list_commits(self, owner: Username, repo: RepoName, sha: Optional[Branch] = None,
                     page: int = Field(default=1, ge=1), perPage: int = PerPage) -> list[dict]:  # noqa: N803
        """List the commits of a branch, newest first.

        Args:
            owner: repository owner.
            repo: repository name.
            sha: branch name (default: the default branch).
            page: page number (1-based).
            perPage: results per page (max 100).
        """
        b = self._branch(self._repo(owner, repo), sha)
        return [c.model_dump() for c in _page(b.commits[::-1], page, perPage)]

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
        return _issue_view(issue)

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
        hits = [i for i in self.state.issues.values() if i.repo == full and state in ("all", i.state)
                and all(lb in i.labels for lb in labels) and (since is None or i.updated_at >= since.replace(tzinfo=None))]
        key = {"created": lambda i: (i.created_at, i.number), "updated": lambda i: (i.updated_at, i.number),
               "comments": lambda i: (len(i.comments), i.number)}[sort]
        hits.sort(key=key, reverse=direction == "desc")
        return [_issue_view(i) for i in _page(hits, page, per_page)]

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
        return _issue_view(i)

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
        n = self.state.counters.get("comment", 1)
        self.state.counters["comment"] = n + 1
        c = IssueComment(id=n, user=self.state.viewer, body=body, created_at=self.now())
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
        quals, words = {}, []
        for tok in q.split():
            k, sep, v = tok.partition(":")
            if sep and k.lower() in ("repo", "is", "label", "assignee", "author", "state"):
                quals.setdefault(k.lower(), []).append(v.lower())
            else:
                words.append(tok.lower())
        items = [(i, False) for i in self.state.issues.values()] + [(p, True) for p in self.state.pull_requests.values()]
        hits = [(x, is_pr) for x, is_pr in items if _search_match(x, is_pr, quals, words)]
        key = {"created": lambda h: h[0].created_at, "updated": lambda h: h[0].updated_at,
               "comments": lambda h: len(getattr(h[0], "comments", []))}[sort]
        hits.sort(key=key, reverse=order == "desc")
        out = [{**(_pr_view(x) if is_pr else _issue_view(x)), "is_pull_request": is_pr} for x, is_pr in hits]
        return {"total_count": len(out), "items": _page(out, page, per_page)}

    @tool(read_only=True, returns=list[GitUser])
    def search_users(self, q: str, page: int = Field(default=1, ge=1), per_page: int = PerPage) -> dict:
        """Search users by login, name or email.

        Args:
            q: text to find.
            page: page number (1-based).
            per_page: results per page (max 100).
        """
        ql = q.lower().strip()
        hits = [u.model_dump() for u in self.state.users.values()
                if ql in u.login.lower() or ql in u.name.lower() or ql in u.email.lower()]
        return {"total_count": len(hits), "items": _page(hits, page, per_page)}

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
        return _pr_view(pr)

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
        return {**_pr_view(p), "changed_files": len(changed), "mergeable": p.state == "open" and not conflicts}

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
        hits = [p for p in self.state.pull_requests.values() if p.repo == full and state in ("all", p.state)
                and head in (None, p.head) and base in (None, p.base)]
        key = {"created": lambda p: p.created_at, "updated": lambda p: p.updated_at,
               "popularity": lambda p: len(p.reviews), "long-running": lambda p: -p.created_at.timestamp()}[sort]
        hits.sort(key=key, reverse=direction == "desc")
        return [_pr_view(p) for p in _page(hits, page, per_page)]

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
        n = self.state.counters.get("review", 1)
        self.state.counters["review"] = n + 1
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
        base = self.state.repositories[p.repo].branches[p.base].files
        out = []
        for f, new in self._changes(p.repo, p.head, p.base)[0].items():
            old = base.get(f)
            diff = list(difflib.ndiff((old or "").splitlines(), new.splitlines()))
            adds, dels = sum(ln.startswith("+ ") for ln in diff), sum(ln.startswith("- ") for ln in diff)
            out.append({"filename": f, "status": "modified" if old is not None else "added", "additions": adds,
                        "deletions": dels, "changes": adds + dels, "sha": blob_sha(new)})
        return out

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


def _search_match(x: Issue | PullRequest, is_pr: bool, quals: dict[str, list[str]], words: list[str]) -> bool:
    checks = {
        "repo": lambda v: x.repo.lower() == v,
        "is": lambda v: {"issue": not is_pr, "pr": is_pr, "open": x.state == "open", "closed": x.state == "closed",
                         "merged": is_pr and x.merged}.get(v, False),
        "state": lambda v: x.state == v,
        "label": lambda v: v in [lb.lower() for lb in getattr(x, "labels", [])],
        "assignee": lambda v: v in getattr(x, "assignees", []),
        "author": lambda v: x.user.lower() == v,
    }
    if not all(checks[k](v) for k, vs in quals.items() for v in vs):
        return False
    text = f"{x.title} {x.body}".lower()
    return all(w in text for w in words)
