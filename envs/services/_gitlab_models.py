"""State records of the ``gitlab`` service: users, namespaces, projects with
branches and commits, milestones, issues and merge requests.

Kept apart from the tools so that the seed factory, the hook and the tests
build records without importing the service. Field names follow the GitLab
REST API v4 (``path_with_namespace``, ``iid``, ``source_branch``...).
"""

from __future__ import annotations

from typing import Annotated, Literal, Optional

from pydantic import Field

from compoworld_gym.entities import DateTime, Email, Id, PersonName, Username, entity
from compoworld_gym.service import Record, ServiceState

Visibility = Literal["private", "internal", "public"]
#: A branch name (entity type ``branch``).
BranchName = Annotated[str, entity("branch")]
#: GitLab access levels by name (Developer 30, Maintainer 40, Owner 50).
AccessLevel = Literal["developer", "maintainer", "owner"]
ACCESS_NUMBER: dict[str, int] = {"developer": 30, "maintainer": 40, "owner": 50}


class GitlabUser(Record):
    """A GitLab user account."""

    id: int = Field(ge=1, description="Numeric user id (assignee_ids take these).")
    username: Username = Field(description="Login, e.g. kenji.watanabe.")
    name: PersonName = Field(description="Display name.")
    email: Email = Field(description="Public email.")
    bot: bool = Field(default=False, description="True for the automation account the agent acts as.")


class Namespace(Record):
    """A group or a user's personal namespace, where projects live."""

    id: int = Field(ge=1, description="Numeric namespace id.")
    full_path: str = Field(description="Full path, e.g. acme or ops-bot.")
    name: str = Field(description="Display name.")
    kind: Literal["group", "user"] = Field(description="group or user.")
    member_ids: list[int] = Field(default_factory=list, description="User ids of the members.")
    viewer_access: AccessLevel = Field(description="The agent's access level in this namespace.")


class Commit(Record):
    """One commit on a branch."""

    id: str = Field(pattern=r"^[0-9a-f]{40}$", description="Full SHA-1.")
    title: str = Field(description="First line of the message.")
    message: str = Field(description="Full commit message.")
    author_name: PersonName = Field(description="Author's name.")
    author_email: Email = Field(description="Author's email.")
    created_at: DateTime = Field(description="Commit time.")
    changes: dict[str, Optional[str]] = Field(default_factory=dict,
                                              description="New content by path (None: the file was deleted).")
    parent_id: Optional[str] = Field(default=None, description="Parent commit SHA; None for the first commit.")


class Branch(Record):
    """A branch: its files at the head and its commit history, oldest first."""

    name: str = Field(description="Branch name.")
    files: dict[str, str] = Field(default_factory=dict, description="File contents by path at the head.")
    commits: list[Commit] = Field(default_factory=list, description="Commit history, oldest first.")


class Project(Record):
    """A GitLab project (repository)."""

    id: int = Field(ge=1, description="Numeric project id.")
    name: str = Field(description="Display name.")
    path: str = Field(description="URL path inside the namespace, e.g. checkout-api.")
    namespace: str = Field(description="Full path of the namespace, e.g. acme.")
    description: str = Field(default="", description="Project description.")
    visibility: Visibility = Field(description="private, internal or public.")
    default_branch: Optional[str] = Field(default=None, description="Default branch; None while empty.")
    archived: bool = Field(default=False, description="Archived projects are read-only.")
    created_at: DateTime = Field(description="Creation time.")
    forked_from_id: Optional[int] = Field(default=None, description="Id of the project this one was forked from.")
    branches: dict[str, Branch] = Field(default_factory=dict, description="Branches by name.")
    protected_branches: list[str] = Field(default_factory=list,
                                          description="Branches only maintainers may push to.")
    labels: list[str] = Field(default_factory=list, description="Project labels.")

    @property
    def path_with_namespace(self) -> str:
        """``namespace/path``, e.g. ``acme/checkout-api``."""
        return f"{self.namespace}/{self.path}"


class Milestone(Record):
    """A project milestone."""

    id: int = Field(ge=1, description="Numeric milestone id (milestone_id takes these).")
    project_id: int = Field(ge=1, description="Project id.")
    title: str = Field(description="Title, e.g. v2.4.")
    state: Literal["active", "closed"] = Field(description="active or closed.")


class Issue(Record):
    """A project issue; keyed ``namespace/project#iid`` in the state."""

    id: int = Field(ge=1, description="Global issue id.")
    iid: int = Field(ge=1, description="Issue number inside the project.")
    project_id: int = Field(ge=1, description="Project id.")
    title: str = Field(description="Title.")
    description: str = Field(default="", description="Description (Markdown).")
    state: Literal["opened", "closed"] = Field(description="opened or closed.")
    labels: list[str] = Field(default_factory=list, description="Label names.")
    assignee_ids: list[int] = Field(default_factory=list, description="Assigned user ids.")
    milestone_id: Optional[int] = Field(default=None, description="Milestone id.")
    author_id: int = Field(ge=1, description="Author's user id.")
    created_at: DateTime = Field(description="Creation time.")


class MergeRequest(Record):
    """A merge request; keyed ``namespace/project!iid`` in the state."""

    id: int = Field(ge=1, description="Global merge request id.")
    iid: int = Field(ge=1, description="Merge request number inside the project.")
    reference: Id("merge_request") = Field(description="Full reference, e.g. acme/checkout-api!3.")
    project_id: int = Field(ge=1, description="Project id (source and target).")
    title: str = Field(description="Title (a draft's starts with 'Draft: ').")
    description: str = Field(default="", description="Description (Markdown).")
    state: Literal["opened", "merged", "closed"] = Field(description="opened, merged or closed.")
    draft: bool = Field(default=False, description="Draft merge requests cannot be merged.")
    source_branch: BranchName = Field(description="Branch with the changes.")
    target_branch: BranchName = Field(description="Branch to merge into.")
    allow_collaboration: bool = Field(default=False, description="Upstream members may push to the source.")
    labels: list[str] = Field(default_factory=list, description="Label names, e.g. service::checkout-api.")
    author_id: int = Field(ge=1, description="Author's user id.")
    created_at: DateTime = Field(description="Creation time.")
    merged_at: Optional[DateTime] = Field(default=None, description="When it was merged.")


class GitlabState(ServiceState):
    """Users, namespaces, projects, milestones, issues and merge requests."""

    users: dict[str, GitlabUser] = Field(default_factory=dict, description="Users by numeric id (as text).")
    namespaces: dict[str, Namespace] = Field(default_factory=dict, description="Namespaces by full path.")
    projects: dict[str, Project] = Field(default_factory=dict, description="Projects by numeric id (as text).")
    milestones: dict[str, Milestone] = Field(default_factory=dict, description="Milestones by id (as text).")
    issues: dict[str, Issue] = Field(default_factory=dict, description="Issues by 'namespace/project#iid'.")
    merge_requests: dict[str, MergeRequest] = Field(default_factory=dict,
                                                    description="Merge requests by 'namespace/project!iid'.")
    viewer_id: int = Field(default=1, ge=1, description="User id of the account the agent acts as.")


__all__ = ["ACCESS_NUMBER", "AccessLevel", "Branch", "BranchName", "Commit", "GitlabState", "GitlabUser", "Issue",
           "MergeRequest", "Milestone", "Namespace", "Project", "Visibility"]
