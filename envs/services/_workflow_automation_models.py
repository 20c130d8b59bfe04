"""Records and state of the ``workflow_automation`` service (n8n public REST API v1 shapes).

Users and their projects (every user has a personal project named
``First Last <email>``; team projects have an admin), workflows with nodes,
connections, tags and an active flag, executions (``status`` success, error,
waiting, ...; ``retryOf``/``retrySuccessId``), credentials whose data is
stored but never returned, and tags.
"""

from __future__ import annotations

from typing import Any, Literal, Optional

from pydantic import BaseModel, ConfigDict, Field

from compoworld_gym.entities import DateTime, Email, Id
from compoworld_gym.service import Record, ServiceState

ExecutionStatus = Literal["success", "error", "waiting", "running", "canceled", "crashed"]
ExecutionMode = Literal["trigger", "webhook", "manual", "retry", "integrated"]
Role = Literal["global:owner", "global:admin", "global:member"]


class User(Record):
    """An n8n user."""

    id: str = Field(description="User id, e.g. USR-0001.")
    email: Email = Field(description="Login email (the company work email).")
    first_name: str = Field(description="First name.")
    last_name: str = Field(description="Last name.")
    role: Role = Field(description="Instance role.")
    is_pending: bool = Field(default=False, description="Invited but not signed up yet.")
    created_at: DateTime = Field(description="When the account was created.")


class Project(Record):
    """A project: a user's personal project or a team project; workflows and credentials live in one."""

    id: str = Field(description="Project id, e.g. PRJ-0001.")
    name: str = Field(description="Personal projects are named 'First Last <email>'.")
    type: Literal["personal", "team"] = Field(description="personal or team.")
    owner_email: Email = Field(description="The personal project's user, or the team project's admin.")


class Tag(Record):
    """A workflow tag (names are unique)."""

    id: str = Field(description="Tag id, e.g. TAG-0001.")
    name: str = Field(description="Tag name, e.g. 'billing' or an app's service name.")
    created_at: DateTime = Field(description="When created.")


class CredentialRef(Record):
    """A node's reference to a credential."""

    id: str = Field(description="Credential id.")
    name: str = Field(description="Credential name when it was chosen.")


class Node(Record):
    """One node of a workflow."""

    id: str = Field(description="Node id inside the workflow.")
    name: str = Field(description="Node name, unique in the workflow.")
    type: str = Field(description="Node type, e.g. n8n-nodes-base.scheduleTrigger.")
    type_version: float = Field(default=1, description="Node type version.")
    position: list[int] = Field(default_factory=lambda: [0, 0], description="Canvas position [x, y].")
    parameters: dict[str, Any] = Field(default_factory=dict, description="Node parameters.")
    credentials: dict[str, CredentialRef] = Field(default_factory=dict,
                                                  description="Credential type -> credential used.")
    disabled: bool = Field(default=False, description="A disabled node does not run.")


class Workflow(Record):
    """A workflow: nodes, connections, settings, tags, active flag and home project."""

    id: Id("workflow") = Field(description="Workflow id, e.g. WF-0001.")
    name: str = Field(description="Workflow name.")
    active: bool = Field(description="Whether its triggers are live.")
    nodes: list[Node] = Field(default_factory=list, description="Nodes.")
    connections: dict[str, Any] = Field(default_factory=dict,
                                        description="n8n connections: source node -> {main: [[{node, type, index}]]}.")
    settings: dict[str, str] = Field(default_factory=dict, description="Settings (executionOrder, timezone...).")
    tag_ids: list[str] = Field(default_factory=list, description="Tags on the workflow.")
    project_id: str = Field(description="Home project.")
    created_at: DateTime = Field(description="When created.")
    updated_at: DateTime = Field(description="When last saved.")
    version_id: str = Field(description="Version of the saved workflow, bumped on every save.")


class Execution(Record):
    """One run of a workflow."""

    id: Id("workflow_execution") = Field(description="Execution id, e.g. '1042'.")
    workflow_id: Id("workflow") = Field(description="The workflow run.")
    mode: ExecutionMode = Field(description="What started it.")
    status: ExecutionStatus = Field(description="success, error, waiting, running, canceled or crashed.")
    finished: bool = Field(description="Whether it ran to the end successfully.")
    started_at: DateTime = Field(description="When it started.")
    stopped_at: Optional[DateTime] = Field(default=None, description="When it stopped (None while waiting).")
    wait_till: Optional[DateTime] = Field(default=None, description="When a waiting execution resumes.")
    retry_of: Optional[Id("workflow_execution")] = Field(default=None, description="Execution this one retries.")
    retry_success_id: Optional[Id("workflow_execution")] = Field(
        default=None, description="The retry of this execution that succeeded.")
    last_node_executed: str = Field(default="", description="Last node that ran.")
    error_node: str = Field(default="", description="Node that failed (status error).")
    error_message: str = Field(default="", description="Error message (status error).")
    error_credential_id: Optional[str] = Field(default=None,
                                               description="Credential the failing node used, for credential errors.")
    input: dict[str, str] = Field(default_factory=dict,
                                  description="The trigger item it processed, e.g. order_id and customer_email.")


class Credential(Record):
    """A stored credential; ``data`` (the secret) is never returned by any tool."""

    id: str = Field(description="Credential id, e.g. CRD-0001.")
    name: str = Field(description="Credential name, e.g. 'Stripe live'.")
    type: str = Field(description="Credential type, e.g. stripeApi.")
    project_id: str = Field(description="Project it belongs to.")
    data: dict[str, str] = Field(default_factory=dict, description="Secret fields (never shown).")
    created_at: DateTime = Field(description="When created.")
    updated_at: DateTime = Field(description="When last changed.")


# A credential reference of a node as create/update_workflow take it.
class CredentialRefIn(BaseModel):
    model_config = ConfigDict(extra="forbid")
    id: Optional[str] = Field(default=None, description="Credential id.")
    name: Optional[str] = Field(default=None, description="Credential name (used when no id is given).")


# A node as create/update_workflow take it.
class NodeIn(BaseModel):
    model_config = ConfigDict(extra="forbid")
    name: str = Field(min_length=1, max_length=120, description="Node name, unique in the workflow.")
    type: str = Field(min_length=3, max_length=120, description="Node type, e.g. n8n-nodes-base.slack.")
    type_version: float = Field(default=1, ge=1, le=10, description="Node type version.")
    position: list[int] = Field(default_factory=lambda: [0, 0], min_length=2, max_length=2,
                                description="Canvas position [x, y].")
    parameters: dict[str, Any] = Field(default_factory=dict, description="Node parameters.")
    credentials: dict[str, CredentialRefIn] = Field(default_factory=dict,
                                                    description="Credential type -> {id} or {name}.")
    disabled: bool = Field(default=False, description="Disable the node.")


class WorkflowAutomationState(ServiceState):
    """Users, projects, tags, workflows, executions and credentials."""

    users: dict[str, User] = Field(default_factory=dict, description="Users by id.")
    projects: dict[str, Project] = Field(default_factory=dict, description="Projects by id.")
    tags: dict[str, Tag] = Field(default_factory=dict, description="Tags by id.")
    workflows: dict[str, Workflow] = Field(default_factory=dict, description="Workflows by id.")
    executions: dict[str, Execution] = Field(default_factory=dict, description="Executions by id.")
    credentials: dict[str, Credential] = Field(default_factory=dict, description="Credentials by id.")


__all__ = ["Credential", "CredentialRef", "CredentialRefIn", "Execution", "ExecutionMode", "ExecutionStatus",
           "Node", "NodeIn", "Project", "Role", "Tag", "User", "Workflow", "WorkflowAutomationState"]
