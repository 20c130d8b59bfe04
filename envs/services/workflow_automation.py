"""Workflow automation: the company's n8n instance (workflows, executions, credentials, tags, users, projects).

No MCP server of ``compoworld_gym/data/mcp_servers.jsonl`` covers n8n's
API (``@kivilaid_n8n-mcp`` only documents nodes), so ``spec_source = None``;
the interface follows n8n's public REST API v1: ``GET/POST /workflows``
(``active``, ``tags``, ``name``, ``projectId`` filters), ``GET/PUT/DELETE
/workflows/{id}``, ``POST /workflows/{id}/activate`` and ``/deactivate``,
``PUT /workflows/{id}/tags``, ``PUT /workflows/{id}/transfer``
(``destinationProjectId``), ``GET /executions`` (``status``,
``workflowId``, ``projectId``), ``GET /executions/{id}`` (``includeData``),
``POST /executions/{id}/retry`` (``loadWorkflow``), ``GET/POST
/credentials`` and ``DELETE /credentials/{id}``, ``GET /tags``, ``GET
/users`` and ``/users/{id or email}``, ``GET /projects``. Fields keep n8n's
names in snake_case (``retry_of``, ``retry_success_id``, ``wait_till``,
``last_node_executed``, ``version_id``).

Rules of the real product: a workflow without an enabled trigger, poller or
webhook node cannot be activated (a Manual Trigger does not count), nor one
whose node lacks its credential; saving an active workflow re-activates it,
so the same checks apply; node names are unique and connections join
existing nodes; only a failed (error or crashed) execution can be retried,
and not once a retry succeeded; a retry runs the workflow as it was, or
with ``load_workflow`` as saved now, and fails again while the failing
node's credential is missing; credential data is write-only; tag names are
unique. Left out: the audit endpoint, variables, source control, execution
deletion, and running workflows on demand (the public API cannot either).
"""

from __future__ import annotations

import datetime as dt
import random
from typing import Any, Optional

from faker import Faker
from pydantic import Field

from compoworld_gym.entities import Id
from compoworld_gym.envs.services._blocks import eq, ieq, next_number, select
from compoworld_gym.envs.services._workflow_automation_models import (
    Credential, Execution, ExecutionStatus, NodeIn, Project, Tag, User, Workflow,
    WorkflowAutomationState,
)
from compoworld_gym.envs.services._workflow_automation_rules import (
    NEEDS_CREDENTIAL, build_nodes, check_activatable, check_graph, retry_failure,
)
from compoworld_gym.envs.services._workflow_automation_seed import build_state, email_of
from compoworld_gym.errors import Conflict, InvalidArgument, NotFound
from compoworld_gym.service import Service, tool

#: Whose API key the tools use (the instance owner): new workflows and credentials go to their project.
API_KEY_OWNER = email_of("Ben Foster")
#: Credential types this instance can store.
CREDENTIAL_TYPES = frozenset(NEEDS_CREDENTIAL.values()) | {"httpHeaderAuth", "httpBasicAuth", "openAiApi"}


class WorkflowAutomation(Service):
    """n8n: workflows, executions, credentials, tags, users and projects."""

    name = "workflow_automation"
    description = ("n8n workflow automation: workflows with triggers and nodes, activation, executions and "
                   "retries of failed runs, credentials by name (secrets never shown), tags and owners.")
    domain = "devops"
    spec_source = None
    State = WorkflowAutomationState

    # ---------------------------------------------------------------- helpers
    def _wf(self, workflow_id: str) -> Workflow:
        return self.lookup(self.state.workflows, workflow_id, "workflow")

    def _project(self, project_id: str) -> Project:
        return self.lookup(self.state.projects, project_id, "project")

    def _home(self) -> Project:
        return next(p for p in self.state.projects.values() if p.type == "personal" and p.owner_email == API_KEY_OWNER)

    def _view(self, wf: Workflow) -> dict:
        p = self.state.projects[wf.project_id]
        tags = [{"id": t, "name": self.state.tags[t].name} for t in wf.tag_ids if t in self.state.tags]
        return {**wf.model_dump(), "tags": tags, "owner_email": p.owner_email, "project_name": p.name}

    def _ex_view(self, ex: Execution, include_data: bool = False) -> dict:
        base = ex.model_dump(exclude={"error_node", "error_message", "error_credential_id", "input",
                                      "last_node_executed"})
        wf = self.state.workflows.get(ex.workflow_id)
        base["workflow_name"] = wf.name if wf else ""
        if include_data:
            err = {"message": ex.error_message, "node": ex.error_node} if ex.error_message else None
            base["data"] = {"last_node_executed": ex.last_node_executed, "error": err, "input": dict(ex.input)}
        return base

    # ------------------------------------------------------------- workflows
    @tool(read_only=True, returns=list[Workflow])
    def list_workflows(self, active: Optional[bool] = None, tags: Optional[str] = Field(default=None, max_length=300),
                       name: Optional[str] = Field(default=None, max_length=200),
                       project_id: Optional[str] = None, limit: int = Field(default=100, ge=1, le=250)) -> list[dict]:
        """List workflows by active flag, tags, name or home project.

        Args:
            active: only active (true) or inactive (false) workflows.
            tags: comma-separated tag names; a workflow must carry all of them, e.g. "alerting,checkout-api".
            name: text the workflow name contains (case-insensitive).
            project_id: only workflows of this project (a user's personal project or a team project).
            limit: maximum number of workflows (1-250).
        """
        wanted = [t.strip().lower() for t in tags.split(",") if t.strip()] if tags else []
        has_tags = (lambda w: set(wanted) <= {self.state.tags[t].name.lower() for t in w.tag_ids}) if wanted else None
        named = (lambda w: name.lower() in w.name.lower()) if name else None
        rows = select(self.state.workflows.values(), eq("active", active), eq("project_id", project_id), has_tags,
                      named, limit=limit)
        return [self._view(w) for w in rows]

    @tool(read_only=True, returns=Workflow)
    def get_workflow(self, workflow_id: Id("workflow")) -> dict:
        """Get one workflow: nodes, connections, settings, tags, active flag and owner.

        Args:
            workflow_id: the workflow id, e.g. WF-0002.
        """
        return self._view(self._wf(workflow_id))

    @tool(read_only=False, returns=Workflow)
    def create_workflow(self, name: str = Field(min_length=1, max_length=128),
                        nodes: list[NodeIn] = Field(min_length=1, max_length=100),
                        connections: Optional[dict[str, Any]] = None, settings: Optional[dict[str, str]] = None,
                        project_id: Optional[str] = None) -> dict:
        """Create a workflow (inactive until activated).

        Args:
            name: workflow name.
            nodes: nodes, each {name, type, parameters, credentials: {credentialType: {id} or {name}}}.
            connections: n8n connections {source node: {"main": [[{"node": target, "type": "main", "index": 0}]]}}.
            settings: settings, e.g. {"executionOrder": "v1"}.
            project_id: home project (default: the API key owner's personal project).
        """
        project = self._project(project_id) if project_id else self._home()
        connections = connections or {}
        check_graph([n.name for n in nodes], connections)
        built = build_nodes(nodes, self.state.credentials)
        now, wid = self.now(), self.new_id("WF")
        wf = Workflow(id=wid, name=name, active=False, nodes=built, connections=connections,
                      settings=settings or {"executionOrder": "v1"}, project_id=project.id, created_at=now,
                      updated_at=now, version_id=f"{wid.lower()}-v1")
        self.state.workflows[wid] = wf
        return self._view(wf)

    @tool(read_only=False, returns=Workflow)
    def update_workflow(self, workflow_id: Id("workflow"), name: Optional[str] = Field(default=None, max_length=128),
                        nodes: Optional[list[NodeIn]] = Field(default=None, min_length=1, max_length=100),
                        connections: Optional[dict[str, Any]] = None,
                        settings: Optional[dict[str, str]] = None) -> dict:
        """Save a new version of a workflow; an active workflow is re-activated, so it must stay activatable.

        Args:
            workflow_id: the workflow.
            name: new name.
            nodes: the full new node list (replaces the old one).
            connections: the full new connections (required with nodes whose names changed).
            settings: new settings.
        """
        wf = self._wf(workflow_id)
        if name is None and nodes is None and connections is None and settings is None:
            raise InvalidArgument("give at least one of name, nodes, connections or settings.")
        new_nodes = build_nodes(nodes, self.state.credentials) if nodes is not None else wf.nodes
        new_conn = connections if connections is not None else wf.connections
        check_graph([n.name for n in new_nodes], new_conn)
        draft = wf.model_copy(update={"nodes": new_nodes, "connections": new_conn})
        if wf.active:
            check_activatable(draft, self.state.credentials)
        wf.nodes, wf.connections = new_nodes, new_conn
        wf.name = name if name is not None else wf.name
        wf.settings = settings if settings is not None else wf.settings
        wf.updated_at = self.now()
        wf.version_id = f"{wf.id.lower()}-v{int(wf.version_id.rsplit('-v', 1)[1]) + 1}"
        return self._view(wf)

    @tool(read_only=False, destructive=True, returns=Workflow)
    def delete_workflow(self, workflow_id: Id("workflow")) -> dict:
        """Delete a workflow (deactivating it first) and its executions.

        Args:
            workflow_id: the workflow.
        """
        wf = self._wf(workflow_id)
        view = {**self._view(wf), "active": False}
        for eid in [e.id for e in self.state.executions.values() if e.workflow_id == wf.id]:
            del self.state.executions[eid]
        del self.state.workflows[wf.id]
        return view

    @tool(read_only=False, returns=Workflow)
    def activate_workflow(self, workflow_id: Id("workflow")) -> dict:
        """Activate a workflow: its triggers go live. It needs a trigger node and every node's credential.

        Args:
            workflow_id: the workflow.
        """
        wf = self._wf(workflow_id)
        if wf.active:
            raise Conflict(f"workflow {wf.id} is already active.")
        check_activatable(wf, self.state.credentials)
        wf.active, wf.updated_at = True, self.now()
        return self._view(wf)

    @tool(read_only=False, returns=Workflow)
    def deactivate_workflow(self, workflow_id: Id("workflow")) -> dict:
        """Deactivate a workflow: its triggers stop; waiting executions still resume.

        Args:
            workflow_id: the workflow.
        """
        wf = self._wf(workflow_id)
        if not wf.active:
            raise Conflict(f"workflow {wf.id} is already inactive.")
        wf.active, wf.updated_at = False, self.now()
        return self._view(wf)

    @tool(read_only=False, returns=list[Tag])
    def update_workflow_tags(self, workflow_id: Id("workflow"),
                             tag_ids: list[str] = Field(max_length=20)) -> list[dict]:
        """Replace a workflow's tags.

        Args:
            workflow_id: the workflow.
            tag_ids: the tag ids it should carry (see list_tags); [] removes all.
        """
        wf = self._wf(workflow_id)
        ids = list(dict.fromkeys(tag_ids))
        for t in ids:
            self.lookup(self.state.tags, t, "tag")
        wf.tag_ids, wf.updated_at = ids, self.now()
        return [self.state.tags[t].model_dump() for t in ids]

    @tool(read_only=False, returns=Workflow)
    def transfer_workflow(self, workflow_id: Id("workflow"), destination_project_id: str) -> dict:
        """Move a workflow to another project (e.g. from a leaver's personal project to a colleague's or a team's).

        Args:
            workflow_id: the workflow.
            destination_project_id: the project it moves to (see list_projects).
        """
        wf = self._wf(workflow_id)
        dest = self._project(destination_project_id)
        if wf.project_id == dest.id:
            raise Conflict(f"workflow {wf.id} is already in project {dest.id}.")
        wf.project_id, wf.updated_at = dest.id, self.now()
        return self._view(wf)

    # ------------------------------------------------------------ executions
    @tool(read_only=True, returns=list[Execution])
    def list_executions(self, status: Optional[ExecutionStatus] = None, workflow_id: Optional[Id("workflow")] = None,
                        project_id: Optional[str] = None, limit: int = Field(default=100, ge=1, le=250)) -> list[dict]:
        """List executions, newest first, by status, workflow or project.

        Args:
            status: success, error, waiting, running, canceled or crashed.
            workflow_id: only runs of this workflow.
            project_id: only runs of workflows of this project.
            limit: maximum number of executions (1-250).
        """
        in_project = ((lambda e: e.workflow_id in self.state.workflows
                       and self.state.workflows[e.workflow_id].project_id == project_id) if project_id else None)
        rows = select(sorted(self.state.executions.values(), key=lambda e: int(e.id), reverse=True),
                      eq("status", status), eq("workflow_id", workflow_id), in_project, limit=limit)
        return [self._ex_view(e) for e in rows]

    @tool(read_only=True, returns=Execution)
    def get_execution(self, execution_id: Id("workflow_execution"), include_data: bool = False) -> dict:
        """Get one execution; with include_data, the error (node and message) and the input item it processed.

        Args:
            execution_id: the execution id, e.g. 1006.
            include_data: also return the run data (error, last node, input item).
        """
        return self._ex_view(self.lookup(self.state.executions, execution_id, "execution"), include_data)

    @tool(read_only=False, returns=Execution)
    def retry_execution(self, execution_id: Id("workflow_execution"), load_workflow: bool = False) -> dict:
        """Retry a failed execution on the same input; returns the new execution (success or error).

        Args:
            execution_id: the failed execution.
            load_workflow: run the workflow as saved now (true) instead of as it was when it failed (false).
        """
        ex = self.lookup(self.state.executions, execution_id, "execution")
        if ex.status not in ("error", "crashed"):
            raise Conflict(f"execution {ex.id} is {ex.status}; only a failed execution can be retried.")
        if ex.retry_success_id:
            raise Conflict(f"execution {ex.id} was already retried successfully (execution {ex.retry_success_id}).")
        wf = self.state.workflows.get(ex.workflow_id)
        if wf is None:
            raise NotFound(f"workflow {ex.workflow_id} of execution {ex.id} no longer exists.")
        failure = retry_failure(wf, ex.error_node, ex.error_credential_id, self.state.credentials, load_workflow)
        started = self.now()
        new = Execution(id=str(next_number(self.state.counters, "execution")), workflow_id=wf.id, mode="retry",
                        status="error" if failure else "success", finished=failure is None, started_at=started,
                        stopped_at=started + dt.timedelta(seconds=3), retry_of=ex.id, input=dict(ex.input),
                        last_node_executed=ex.error_node if failure else wf.nodes[-1].name,
                        error_node=ex.error_node if failure else "", error_message=failure or "",
                        error_credential_id=ex.error_credential_id if failure else None)
        self.state.executions[new.id] = new
        if failure is None:
            ex.retry_success_id = new.id
        return self._ex_view(new, include_data=True)

    # ----------------------------------------------------------- credentials
    @tool(read_only=True, returns=list[Credential])
    def list_credentials(self, name: Optional[str] = Field(default=None, max_length=200),
                         type: Optional[str] = None) -> list[dict]:
        """List credentials by name or type; their secret data is never shown.

        Args:
            name: the credential name (case-insensitive), e.g. "Slack ops bot".
            type: the credential type, e.g. slackApi.
        """
        rows = select(self.state.credentials.values(), ieq("name", name), eq("type", type))
        return [c.model_dump(exclude={"data"}) for c in rows]

    @tool(read_only=False, returns=Credential)
    def create_credential(self, name: str = Field(min_length=1, max_length=128), type: str = Field(min_length=2),
                          data: dict[str, str] = Field(min_length=1), project_id: Optional[str] = None) -> dict:
        """Store a credential (its data is write-only); nodes then use it by id or name.

        Args:
            name: credential name.
            type: credential type, e.g. googleSheetsOAuth2Api or slackApi.
            data: the secret fields, e.g. {"apiKey": "..."}.
            project_id: project it belongs to (default: the API key owner's personal project).
        """
        if type not in CREDENTIAL_TYPES:
            raise InvalidArgument(f"unknown credential type {type!r}; known: {', '.join(sorted(CREDENTIAL_TYPES))}.")
        project = self._project(project_id) if project_id else self._home()
        now = self.now()
        c = Credential(id=self.new_id("CRD"), name=name, type=type, project_id=project.id, data=dict(data),
                       created_at=now, updated_at=now)
        self.state.credentials[c.id] = c
        return c.model_dump(exclude={"data"})

    @tool(read_only=False, destructive=True, returns=Credential)
    def delete_credential(self, credential_id: str) -> dict:
        """Delete a credential; nodes that use it fail until given another.

        Args:
            credential_id: the credential id, e.g. CRD-0004.
        """
        c = self.lookup(self.state.credentials, credential_id, "credential")
        del self.state.credentials[c.id]
        return c.model_dump(exclude={"data"})

    # ------------------------------------------------------ tags, users, projects
    @tool(read_only=True, returns=list[Tag])
    def list_tags(self, limit: int = Field(default=100, ge=1, le=250)) -> list[dict]:
        """List workflow tags.

        Args:
            limit: maximum number of tags (1-250).
        """
        return [t.model_dump() for t in list(self.state.tags.values())[:limit]]

    @tool(read_only=True, returns=list[User])
    def list_users(self, limit: int = Field(default=100, ge=1, le=250)) -> list[dict]:
        """List the instance's users with their roles.

        Args:
            limit: maximum number of users (1-250).
        """
        return [u.model_dump() for u in list(self.state.users.values())[:limit]]

    @tool(read_only=True, returns=User)
    def get_user(self, id_or_email: str = Field(min_length=1, max_length=200)) -> dict:
        """Get one user by id or email.

        Args:
            id_or_email: the user id (USR-0003) or login email.
        """
        u = self.state.users.get(id_or_email) or next(
            (x for x in self.state.users.values() if x.email.lower() == id_or_email.lower()), None)
        if u is None:
            raise NotFound(f"no user {id_or_email!r}; call list_users.")
        return u.model_dump()

    @tool(read_only=True, returns=list[Project])
    def list_projects(self, limit: int = Field(default=100, ge=1, le=250)) -> list[dict]:
        """List projects: each user's personal project (named 'First Last <email>') and team projects.

        Args:
            limit: maximum number of projects (1-250).
        """
        return [p.model_dump() for p in list(self.state.projects.values())[:limit]]

    # ------------------------------------------------------------------ seeds
    @classmethod
    def build_seed_state(cls, fake: Faker, rng: random.Random, today: dt.date) -> WorkflowAutomationState:
        return build_state(rng, today)

