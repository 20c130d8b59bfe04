"""Opik: LLM observability (Comet Opik) for the company's apps: projects, versioned prompts, traces.

Follows the MCP server ``@comet-ml_opik-mcp-server``: its 19 tools with the
spec's names and parameters. State (``_opik_models``): projects named after
the applications that call LLMs, prompts whose versions are mustache
templates (``{{variable}}``, parsed and checked), and traces with spans
(model, provider, token usage, estimated cost from list prices), metadata
(the end user's e-mail, the prompt and commit used), feedback scores and
errors. ``get-trace-stats`` and ``get-metrics`` are computed from the stored
traces (counts, errors, tokens, cost, duration percentiles, feedback-score
averages; daily series). Rules of the real product: project and prompt names
are unique in the workspace (409); ``list-traces`` needs a project, as
Opik's API does (400); a version identical to the latest one is refused
(409); deleting a project deletes its traces; the only workspace is the API
key's (404 for another). The help tools (get-opik-help, get-opik-examples,
get-opik-tracing-info) return static documentation (``_opik_docs``).

Designed: ``add-trace-feedback-score`` (Opik's REST ``PUT
/traces/{id}/feedback-scores``: the spec has no write on traces), one score
per name, a new one replacing it.
"""

from __future__ import annotations

import datetime as dt
import random
from typing import Literal, Optional

from faker import Faker
from pydantic import Field

from compoworld_gym.entities import Date, Id
from compoworld_gym.envs.services._company import OPS_EMAIL
from compoworld_gym.envs.services._opik_base import OpikBase, page_field, size_field
from compoworld_gym.envs.services._opik_docs import EXAMPLES, HELP, SUBTOPICS, TRACING
from compoworld_gym.envs.services._opik_models import WORKSPACE, FeedbackScore, OpikProject, OpikState
from compoworld_gym.envs.services._opik_seed import build_state, next_uuid
from compoworld_gym.envs.services._opik_stats import METRICS, daily_metrics, trace_stats
from compoworld_gym.errors import Conflict, InvalidArgument, NotFound
from compoworld_gym.service import tool


class Opik(OpikBase):
    """Comet Opik workspace: projects, prompt library, traces with costs and feedback."""

    name = "opik"
    description = ("Opik LLM observability: projects per application, versioned prompt templates, and traces with "
                   "spans, tokens, costs, errors and feedback scores; trace statistics and metrics.")
    domain = "engineering"
    spec_source = "@comet-ml_opik-mcp-server"
    designed_tools = frozenset({"add-trace-feedback-score"})
    State = OpikState

    @classmethod
    def build_seed_state(cls, fake: Faker, rng: random.Random, today: dt.date) -> OpikState:
        return build_state(fake, rng, today)

    # --------------------------------------------------------------- projects
    @tool(read_only=True, name="list-projects")
    def list_projects(self, page: int = page_field(), size: int = size_field(),
                      sortBy: Optional[Literal["name", "created_at", "last_updated_at",
                                               "last_updated_trace_at"]] = None,
                      sortOrder: Optional[Literal["asc", "desc"]] = None, workspaceName: Optional[str] = None) -> dict:
        """Get a list of projects (default: newest first), with trace counts.

        Args:
            page: Page number for pagination (1-based)
            size: Number of items per page
            sortBy: Sort projects by this field (name, created_at, last_updated_at, last_updated_trace_at)
            sortOrder: Sort order (asc or desc)
            workspaceName: Workspace name to use instead of the default
        """
        self._ws(workspaceName)
        rows = [self._project_view(p) for p in self.state.projects.values()]
        field = sortBy or "created_at"
        rows.sort(key=lambda r: (r[field] is not None, r[field] or "", r["id"]),
                  reverse=(sortOrder or ("asc" if sortBy == "name" else "desc")) == "desc")
        return {"page": page, "size": size, "total": len(rows), "content": rows[(page - 1) * size: page * size]}

    @tool(read_only=True, name="get-project-by-id")
    def get_project_by_id(self, projectId: Id("ml_project"), workspaceName: Optional[str] = None) -> dict:
        """Get a single project by ID.

        Args:
            projectId: ID of the project to fetch
            workspaceName: Workspace name to use instead of the default
        """
        self._ws(workspaceName)
        return self._project_view(self._project(projectId))

    @tool(read_only=False, name="create-project")
    def create_project(self, name: str = Field(min_length=1, max_length=120),
                       description: Optional[str] = Field(default=None, max_length=1000),
                       workspaceName: Optional[str] = None) -> dict:
        """Create a new project (names are unique in the workspace).

        Args:
            name: Name of the project
            description: Description of the project
            workspaceName: Workspace name to use instead of the default
        """
        self._ws(workspaceName)
        if self._named(self.state.projects, name):
            raise Conflict(f"a project named {name!r} already exists.")
        at = self.now()
        p = OpikProject(id=next_uuid(self.state, at), name=name, description=description or "", created_at=at,
                        created_by=OPS_EMAIL, last_updated_at=at)
        self.state.projects[p.id] = p
        return self._project_view(p)

    @tool(read_only=False, name="update-project")
    def update_project(self, projectId: Id("ml_project"), name: Optional[str] = Field(default=None, min_length=1),
                       workspaceName: Optional[str] = None,
                       description: Optional[str] = Field(default=None, max_length=1000)) -> dict:
        """Update a project's name or description.

        Args:
            projectId: ID of the project to update
            name: New project name
            workspaceName: Workspace name to use instead of the default
            description: New project description
        """
        self._ws(workspaceName)
        p = self._project(projectId)
        if name is None and description is None:
            raise InvalidArgument("give a new name or description.")
        if name is not None and self._named(self.state.projects, name, skip=p.id):
            raise Conflict(f"another project is already named {name!r}.")
        p.name = name if name is not None else p.name
        p.description = description if description is not None else p.description
        p.last_updated_at = self.now()
        return self._project_view(p)

    @tool(read_only=False, destructive=True, name="delete-project")
    def delete_project(self, projectId: Id("ml_project"), workspaceName: Optional[str] = None) -> dict:
        """Delete a project and every trace in it.

        Args:
            projectId: ID of the project to delete
            workspaceName: Workspace name to use instead of the default
        """
        self._ws(workspaceName)
        p = self._project(projectId)
        gone = [k for k, t in self.state.traces.items() if t.project_id == p.id]
        for k in gone:
            del self.state.traces[k]
        del self.state.projects[p.id]
        return {"deleted": p.id, "name": p.name, "traces_deleted": len(gone)}

    # ----------------------------------------------------------------- traces
    @tool(read_only=True, name="list-traces")
    def list_traces(self, page: int = page_field(), size: int = size_field(),
                    projectId: Optional[Id("ml_project")] = None,
                    projectName: Optional[str] = None, workspaceName: Optional[str] = None) -> dict:
        """Get a list of a project's traces, newest first (without their spans).

        Args:
            page: Page number for pagination (1-based)
            size: Number of items per page
            projectId: Project ID to filter traces
            projectName: Project name to filter traces
            workspaceName: Workspace name to use instead of the default
        """
        self._ws(workspaceName)
        if projectId is None and projectName is None:
            raise InvalidArgument("give projectId or projectName: traces are listed per project (see list-projects).")
        rows = sorted(self._traces(self._scope(projectId, projectName), None, None),
                      key=lambda t: (t.start_time, t.id), reverse=True)
        return {"page": page, "size": size, "total": len(rows),
                "content": [self._trace_view(t, False) for t in rows[(page - 1) * size: page * size]]}

    @tool(read_only=True, name="get-trace-by-id")
    def get_trace_by_id(self, traceId: Id("trace"), workspaceName: Optional[str] = None) -> dict:
        """Get a single trace by ID, with its spans, usage, cost, feedback scores and error.

        Args:
            traceId: ID of the trace to fetch
            workspaceName: Workspace name to use instead of the default
        """
        self._ws(workspaceName)
        return self._trace_view(self.lookup(self.state.traces, traceId, "trace"), True)

    @tool(read_only=True, name="get-trace-stats")
    def get_trace_stats(self, projectId: Optional[Id("ml_project")] = None, projectName: Optional[str] = None,
                        startDate: Optional[Date] = None, endDate: Optional[Date] = None,
                        workspaceName: Optional[str] = None) -> dict:
        """Get statistics for traces (of a project, or all) started between two days, both included.

        Args:
            projectId: Project ID to filter traces
            projectName: Project name to filter traces
            startDate: Start date in ISO format (YYYY-MM-DD)
            endDate: End date in ISO format (YYYY-MM-DD)
            workspaceName: Workspace name to use instead of the default
        """
        self._ws(workspaceName)
        traces = self._traces(self._scope(projectId, projectName), startDate, endDate)
        return {"start_date": startDate, "end_date": endDate, **trace_stats(traces)}

    @tool(read_only=True, name="get-metrics")
    def get_metrics(self, metricName: Optional[str] = None, projectId: Optional[Id("ml_project")] = None,
                    projectName: Optional[str] = None, startDate: Optional[Date] = None,
                    endDate: Optional[Date] = None) -> dict:
        """Get daily metrics data: trace_count, cost, token_usage, duration (p50/p90 ms) or feedback_scores.

        Args:
            metricName: Optional metric name to filter (trace_count, cost, token_usage, duration, feedback_scores)
            projectId: Optional project ID to filter metrics
            projectName: Optional project name to filter metrics
            startDate: Start date in ISO format (YYYY-MM-DD); default six days before endDate
            endDate: End date in ISO format (YYYY-MM-DD); default today
        """
        wanted = (metricName or "").lower()
        if wanted and wanted not in METRICS:
            raise InvalidArgument(f"unknown metric {metricName!r}; use one of {', '.join(METRICS)}.")
        end = endDate or self.today
        start = startDate or end - dt.timedelta(days=6)
        if (end - start).days > 92:
            raise InvalidArgument("the range may span at most 92 days.")
        traces = self._traces(self._scope(projectId, projectName), start, end)
        return {"interval": "DAILY", "start_date": start, "end_date": end,
                "metrics": daily_metrics(traces, start, end, (wanted,) if wanted else METRICS)}

    @tool(read_only=False, name="add-trace-feedback-score")
    def add_trace_feedback_score(self, traceId: Id("trace"),
                                 name: str = Field(min_length=1, max_length=64, pattern=r"^[A-Za-z][\w.-]*$"),
                                 value: float = Field(ge=-1_000_000, le=1_000_000),
                                 reason: str = Field(default="", max_length=1000)) -> dict:
        """Score a trace (a person's verdict): one score per name; a score of the same name is replaced.

        Args:
            traceId: ID of the trace to score
            name: Score name, e.g. human_review, correctness
            value: The score (e.g. 0 or 1, or 0.0-1.0)
            reason: Why
        """
        t = self.lookup(self.state.traces, traceId, "trace")
        score = FeedbackScore(name=name, value=value, reason=reason, source="ui", created_by=OPS_EMAIL,
                              last_updated_at=self.now())
        t.feedback_scores = [s for s in t.feedback_scores if s.name != name] + [score]
        return {"trace_id": t.id, "feedback_scores": [s.model_dump() for s in t.feedback_scores]}

    # ------------------------------------------------------------ server/help
    @tool(read_only=True, name="get-server-info")
    def get_server_info(self, random_string: Optional[str] = None) -> dict:
        """Get information about the Opik server configuration.

        Args:
            random_string: Dummy parameter for no-parameter tools
        """
        return {"opik_version": "1.7.37", "api_base_url": "https://opik.company.example/api",
                "workspace": WORKSPACE, "deployment": "self-hosted", "projects": len(self.state.projects),
                "prompts": len(self.state.prompts), "traces": len(self.state.traces)}

    @tool(read_only=True, name="get-opik-help")
    def get_opik_help(self, topic: str, subtopic: Optional[str] = None) -> dict:
        """Get contextual help about Opik Comet's capabilities.

        Args:
            topic: The topic to get help about (prompts, projects, traces, metrics, or general)
            subtopic: Optional subtopic for more specific help
        """
        key = topic.strip().lower()
        if key not in HELP:
            raise InvalidArgument(f"no help on {topic!r}; topics: {', '.join(HELP)}.")
        out = {"topic": key, "help": HELP[key]}
        if subtopic:
            sub = SUBTOPICS.get(key, {}).get(subtopic.strip().lower())
            if sub is None:
                raise NotFound(f"no subtopic {subtopic!r} under {key}; subtopics: "
                               f"{', '.join(SUBTOPICS.get(key, {})) or 'none'}.")
            out["subtopic"] = sub
        return out

    @tool(read_only=True, name="get-opik-examples")
    def get_opik_examples(self, task: str) -> dict:
        """Get examples of how to use Opik Comet's API for specific tasks.

        Args:
            task: The task to get examples for (e.g., 'create prompt', 'analyze traces', 'monitor costs')
        """
        words = set(task.lower().replace("-", " ").split())
        hits = {k: v for k, v in EXAMPLES.items() if words & set(k.split())}
        if not hits:
            raise NotFound(f"no example for {task!r}; examples: {', '.join(EXAMPLES)}.")
        return {"task": task, "examples": hits}

    @tool(read_only=True, name="get-opik-tracing-info")
    def get_opik_tracing_info(self, topic: Optional[str] = None) -> dict:
        """Get information about Opik's tracing capabilities and how to use them.

        Args:
            topic: Optional specific tracing topic (spans, distributed, multimodal, annotations)
        """
        key = (topic or "general").strip().lower()
        if key not in TRACING:
            raise InvalidArgument(f"no tracing topic {topic!r}; topics: {', '.join(TRACING)}.")
        return {"topic": key, "info": TRACING[key]}
