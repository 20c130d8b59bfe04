"""Typed state of the ``github`` service: accounts, repositories (branches
with their file trees and commits), issues and pull requests."""

from __future__ import annotations

import hashlib
from typing import Annotated, Literal, Optional

from pydantic import BaseModel, ConfigDict, Field

from compoworld_gym.entities import DateTime, Email, FilePath, PersonName, RepoName, Username, entity
from compoworld_gym.envs.services._github_seed import VIEWER
from compoworld_gym.service import Record, ServiceState

Branch = Annotated[str, entity("branch")]
IssueNumber = Annotated[int, entity("issue_id")]
PullNumber = Annotated[int, entity("pull_request_id")]


class GitUser(Record):
    """A GitHub account."""

    login: Username = Field(description="Login, e.g. 'priya-raman'.")
    name: PersonName = Field(description="Display name.")
    email: Email = Field(description="Public email.")


class Commit(Record):
    """One commit on a branch."""

    sha: str = Field(description="40-hex commit id (derived from content, deterministic).")
    message: str = Field(description="Commit message.")
    author: Username = Field(description="Login of the author.")
    date: DateTime = Field(description="Commit time.")
    files: list[FilePath] = Field(description="Paths written by the commit.")


class BranchState(Record):
    """A branch: the full file tree at its head and its history (oldest first)."""

    files: dict[str, str] = Field(default_factory=dict, description="File path -> UTF-8 content.")
    commits: list[Commit] = Field(default_factory=list, description="Commits, oldest first.")


class Repository(Record):
    """A repository."""

    full_name: RepoName = Field(description="'owner/name'.")
    owner: Username = Field(description="Owning user or organisation.")
    name: str = Field(description="Repository name.")
    description: str = Field(default="", description="Short description.")
    private: bool = Field(default=False, description="Visibility.")
    default_branch: Branch = Field(default="main", description="Default branch name.")
    branches: dict[str, BranchState] = Field(default_factory=dict, description="Branches by name.")


class IssueComment(Record):
    """A comment on an issue or pull request."""

    id: int = Field(description="Comment id.")
    user: Username = Field(description="Author login.")
    body: str = Field(description="Markdown text.")
    created_at: DateTime = Field(description="When it was posted.")


class Issue(Record):
    """An issue."""

    repo: RepoName = Field(description="'owner/name' of the repository.")
    number: IssueNumber = Field(description="Issue number within the repository.")
    title: str = Field(description="Title.")
    body: str = Field(default="", description="Markdown body.")
    state: Literal["open", "closed"] = Field(description="open or closed.")
    user: Username = Field(description="Author login.")
    labels: list[str] = Field(default_factory=list, description="Label names.")
    assignees: list[Username] = Field(default_factory=list, description="Assignee logins.")
    created_at: DateTime = Field(description="Creation time.")
    updated_at: DateTime = Field(description="Last change.")
    comments: list[IssueComment] = Field(default_factory=list, description="Comments, oldest first.")


class Review(Record):
    """A pull-request review."""

    id: int = Field(description="Review id.")
    user: Username = Field(description="Reviewer login.")
    body: str = Field(description="Review text.")
    state: Literal["APPROVED", "CHANGES_REQUESTED", "COMMENTED"] = Field(description="Verdict.")
    commit_id: str = Field(description="Head commit sha the review applies to.")
    submitted_at: DateTime = Field(description="When it was submitted.")


class PullRequest(Record):
    """A pull request from ``head`` into ``base``."""

    repo: RepoName = Field(description="'owner/name' of the repository.")
    number: PullNumber = Field(description="Number (shared sequence with issues).")
    title: str = Field(description="Title.")
    body: str = Field(default="", description="Description.")
    state: Literal["open", "closed"] = Field(description="open or closed.")
    merged: bool = Field(default=False, description="True once merged.")
    draft: bool = Field(default=False, description="Draft PRs cannot be merged.")
    user: Username = Field(description="Author login.")
    head: Branch = Field(description="Branch with the changes.")
    base: Branch = Field(description="Branch the changes go into.")
    maintainer_can_modify: bool = Field(default=True, description="Maintainers may push to head.")
    merge_commit_sha: Optional[str] = Field(default=None, description="Commit created by the merge.")
    created_at: DateTime = Field(description="Creation time.")
    updated_at: DateTime = Field(description="Last change.")
    reviews: list[Review] = Field(default_factory=list, description="Reviews, oldest first.")


class GitHubState(ServiceState):
    """Accounts, repositories, issues and pull requests."""

    viewer: Username = Field(default=VIEWER, description="Login of the authenticated user.")
    users: dict[str, GitUser] = Field(default_factory=dict, description="Users by login.")
    repositories: dict[str, Repository] = Field(default_factory=dict, description="Repositories by 'owner/name'.")
    issues: dict[str, Issue] = Field(default_factory=dict, description="Issues by 'owner/name#number'.")
    pull_requests: dict[str, PullRequest] = Field(default_factory=dict, description="PRs by 'owner/name#number'.")


class FileIn(BaseModel):
    model_config = ConfigDict(extra="forbid")
    path: str = Field(min_length=1)
    content: str


def blob_sha(content: str) -> str:
    """Git's blob id of ``content`` (sha1 of 'blob <size>\\0<bytes>')."""
    data = content.encode()
    return hashlib.sha1(b"blob %d\0" % len(data) + data).hexdigest()


def issue_view(i: Issue) -> dict:
    """An issue as list and search tools show it: its comments counted, not included."""
    return {**i.model_dump(exclude={"comments"}), "comments": len(i.comments)}


def pr_view(p: PullRequest) -> dict:
    """A pull request as tools show it: without its reviews (get_pull_request_reviews lists them)."""
    return p.model_dump(exclude={"reviews"})
