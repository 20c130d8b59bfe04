"""The shared part of the opik service: workspace, project and trace
helpers, and the prompt-library tools (projects, traces, statistics and help
are in ``opik.py``, which documents the spec it follows).
"""

from __future__ import annotations

import datetime as dt
from typing import Any, Optional

from pydantic import Field

from compoworld_gym.entities import Id
from compoworld_gym.envs.services._company import OPS_EMAIL
from compoworld_gym.envs.services._opik_models import (
    WORKSPACE, OpikProject, OpikPrompt, OpikState, PromptVersion, Trace, duration_ms, template_variables, trace_cost,
    trace_usage,
)
from compoworld_gym.envs.services._opik_seed import commit_of, next_uuid
from compoworld_gym.errors import Conflict, InvalidArgument, NotFound
from compoworld_gym.service import Service, tool


def page_field() -> Any:
    """A required 1-based page number."""
    return Field(ge=1, le=10_000)


def size_field() -> Any:
    """A required page size (1-100)."""
    return Field(ge=1, le=100)


class OpikBase(Service, register=False):
    """Helpers of the opik service, and its prompt-library tools."""

    State = OpikState

    # ---------------------------------------------------------------- helpers
    @staticmethod
    def _ws(workspace: Optional[str]) -> None:
        if workspace not in (None, WORKSPACE):
            raise NotFound(f"workspace {workspace!r} not found or not accessible with this API key; the workspace "
                           f"is {WORKSPACE!r}.")

    def _project(self, project_id: str) -> OpikProject:
        return self.lookup(self.state.projects, project_id, "project")

    def _named(self, collection: dict, name: str, skip: str = "") -> Optional[str]:
        return next((k for k, r in collection.items() if r.name.lower() == name.lower() and k != skip), None)

    def _scope(self, project_id: Optional[str], project_name: Optional[str]) -> Optional[str]:
        """The project id a filter names (None: every project)."""
        pid = self._project(project_id).id if project_id else None
        if project_name is not None:
            named = self._named(self.state.projects, project_name)
            if named is None:
                raise NotFound(f"no project named {project_name!r}; call list-projects.")
            if pid is not None and pid != named:
                raise InvalidArgument(f"projectId {project_id} is not the project named {project_name!r}.")
            pid = named
        return pid

    def _project_view(self, p: OpikProject) -> dict:
        traces = [t for t in self.state.traces.values() if t.project_id == p.id]
        last = max((t.start_time for t in traces), default=None)
        return {**p.model_dump(), "trace_count": len(traces), "last_updated_trace_at": last}

    @staticmethod
    def _prompt_view(p: OpikPrompt, full: bool) -> dict:
        latest = p.versions[-1].model_dump() if p.versions else None
        view = {**p.model_dump(exclude={"versions"}), "version_count": len(p.versions), "latest_version": latest}
        return {**view, "versions": [v.model_dump() for v in p.versions]} if full else view

    def _trace_view(self, t: Trace, full: bool) -> dict:
        view = {**t.model_dump(exclude={"spans"} if not full else set()),
                "project_name": self.state.projects[t.project_id].name, "duration_ms": duration_ms(t),
                "usage": trace_usage(t), "total_estimated_cost": trace_cost(t), "span_count": len(t.spans)}
        return view

    def _traces(self, pid: Optional[str], start: Optional[dt.date], end: Optional[dt.date]) -> list[Trace]:
        if start and end and start > end:
            raise InvalidArgument(f"startDate {start} is after endDate {end}.")
        return [t for t in self.state.traces.values() if (pid is None or t.project_id == pid)
                and (start is None or t.start_time.date() >= start) and (end is None or t.start_time.date() <= end)]

    # ---------------------------------------------------------------- prompts
    @tool(read_only=True, name="list-prompts")
    def list_prompts(self, page: int = page_field(), size: int = size_field()) -> dict:
        """Get a list of Opik prompts (newest first), each with its latest version.

        Args:
            page: Page number for pagination (1-based)
            size: Number of items per page
        """
        rows = sorted(self.state.prompts.values(), key=lambda p: (p.created_at, p.id), reverse=True)
        return {"page": page, "size": size, "total": len(rows),
                "content": [self._prompt_view(p, False) for p in rows[(page - 1) * size: page * size]]}

    @tool(read_only=False, name="create-prompt")
    def create_prompt(self, name: str = Field(min_length=1, max_length=120)) -> dict:
        """Create a new prompt (commit its first template with create-prompt-version).

        Args:
            name: Name of the prompt (unique in the workspace)
        """
        if self._named(self.state.prompts, name):
            raise Conflict(f"a prompt named {name!r} already exists; add a version to it with create-prompt-version.")
        at = self.now()
        p = OpikPrompt(id=next_uuid(self.state, at), name=name, created_at=at, created_by=OPS_EMAIL,
                       last_updated_at=at)
        self.state.prompts[p.id] = p
        return self._prompt_view(p, True)

    @tool(read_only=False, name="create-prompt-version")
    def create_prompt_version(self, name: str, template: str = Field(min_length=1, max_length=20_000),
                              commit_message: str = Field(min_length=1, max_length=500)) -> dict:
        """Create a new version of a prompt: commit a template ({{variables}}) with a commit message.

        Args:
            name: Name of the original prompt
            template: Template content for the prompt version
            commit_message: Commit message for the prompt version
        """
        pid = self._named(self.state.prompts, name)
        if pid is None:
            raise NotFound(f"no prompt named {name!r}; create it with create-prompt or call list-prompts.")
        prompt = self.state.prompts[pid]
        variables = template_variables(template)
        if prompt.versions and prompt.versions[-1].template == template:
            raise Conflict(f"the template is identical to the latest version ({prompt.versions[-1].commit}) of "
                           f"{prompt.name!r}; nothing to commit.")
        at = self.now()
        version = PromptVersion(id=next_uuid(self.state, at), commit=commit_of(template, len(prompt.versions) + 100),
                                template=template, variables=variables, commit_message=commit_message,
                                created_at=at, created_by=OPS_EMAIL)
        prompt.versions.append(version)
        prompt.last_updated_at = at
        return {**version.model_dump(), "prompt_id": prompt.id, "prompt_name": prompt.name}

    @tool(read_only=True, name="get-prompt-by-id")
    def get_prompt_by_id(self, promptId: Id("prompt")) -> dict:
        """Get a single prompt by ID, with every version (oldest first) and the latest one.

        Args:
            promptId: ID of the prompt to fetch
        """
        return self._prompt_view(self.lookup(self.state.prompts, promptId, "prompt"), True)

    @tool(read_only=False, name="update-prompt")
    def update_prompt(self, promptId: Id("prompt"), name: str = Field(min_length=1, max_length=120)) -> dict:
        """Update a prompt: rename it (names are unique in the workspace).

        Args:
            promptId: ID of the prompt to update
            name: New name for the prompt
        """
        prompt = self.lookup(self.state.prompts, promptId, "prompt")
        if self._named(self.state.prompts, name, skip=prompt.id):
            raise Conflict(f"another prompt is already named {name!r}.")
        prompt.name, prompt.last_updated_at = name, self.now()
        return self._prompt_view(prompt, False)

    @tool(read_only=False, destructive=True, name="delete-prompt")
    def delete_prompt(self, promptId: Id("prompt")) -> dict:
        """Delete a prompt and all of its versions.

        Args:
            promptId: ID of the prompt to delete
        """
        prompt = self.lookup(self.state.prompts, promptId, "prompt")
        del self.state.prompts[prompt.id]
        return {"deleted": prompt.id, "name": prompt.name, "versions_deleted": len(prompt.versions)}
