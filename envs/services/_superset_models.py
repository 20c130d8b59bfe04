"""Records and state of the Superset service (see ``superset.py``), and the update payloads its tools take.

Superset's REST API keys every object by an integer id; the state keys its
collections by ``str(id)``. Owners are shown as :class:`Owner` (a user's
name and email); a ``UserRef`` names a user by id or by email.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal, Optional, Union

from pydantic import BaseModel, ConfigDict, Field

from compoworld_gym.entities import DateTime, Email, Url, entity
from compoworld_gym.service import Record, ServiceState

DashboardId = Annotated[int, entity("dashboard_id")]
ChartId = Annotated[int, entity("chart_id")]
DatasetId = Annotated[int, entity("dataset_id")]
#: Where the instance is served; dashboard URLs are under it.
BASE_URL = "https://superset.company.example"
#: Chart types this instance has plugins for.
VizType = Literal["table", "big_number", "big_number_total", "line", "bar", "pie", "area", "pivot_table"]
TagObjectType = Literal["dashboard", "chart", "saved_query", "dataset"]


class Owner(Record):
    """A user as Superset shows it on an object it owns."""

    id: int = Field(description="Superset user id.")
    first_name: str = Field(description="First name.")
    last_name: str = Field(description="Last name.")
    email: Email = Field(description="The user's work email.")


class SupersetUser(Owner):
    """A Superset account."""

    username: str = Field(description="Login name (the email's local part).")
    roles: list[str] = Field(description="Superset roles, e.g. ['Alpha'].")


class TableRef(Record):
    """A physical table of a database connection."""

    schema_name: str = Field(description="Database schema, e.g. 'public'.")
    table: str = Field(description="Table name.")


class Database(Record):
    """A database connection."""

    id: int = Field(description="Database id.")
    database_name: str = Field(description="Display name.")
    backend: str = Field(description="SQLAlchemy backend, e.g. 'postgresql'.")
    sqlalchemy_uri: str = Field(description="Connection URI with the password masked.")
    expose_in_sqllab: bool = Field(description="Whether SQL Lab may query it.")
    allow_dml: bool = Field(default=False, description="Whether SQL Lab may run INSERT/UPDATE/DELETE.")
    tables: list[TableRef] = Field(description="Tables Superset can see, schema order.")


class Dataset(Record):
    """A dataset (a physical table registered for charting)."""

    id: DatasetId = Field(description="Dataset id.")
    table_name: str = Field(description="Physical table name.")
    schema_name: str = Field(description="Schema of the table.")
    database_id: int = Field(description="Database holding the table.")
    description: str = Field(default="", description="What the dataset holds.")
    owners: list[Owner] = Field(description="Users who may edit it.")
    columns: list[str] = Field(description="Column names.")
    metrics: list[str] = Field(description="Saved metric names charts may use, e.g. 'sum__amount'.")
    changed_on: DateTime = Field(description="Last modification.")


class Chart(Record):
    """A chart (Superset calls it a slice)."""

    id: ChartId = Field(description="Chart id.")
    slice_name: str = Field(description="Chart title.")
    viz_type: VizType = Field(description="Visualization type.")
    datasource_id: DatasetId = Field(description="The dataset it is drawn from.")
    datasource_type: Literal["table"] = Field(default="table", description="Always 'table' (a dataset).")
    params: dict[str, Any] = Field(default_factory=dict, description="Form data: metrics, groupby, time_range, ...")
    description: str = Field(default="", description="Chart description.")
    owners: list[Owner] = Field(description="Users who may edit it.")
    dashboards: list[DashboardId] = Field(default_factory=list, description="Dashboards it is placed on.")
    changed_on: DateTime = Field(description="Last modification.")


class Dashboard(Record):
    """A dashboard."""

    id: DashboardId = Field(description="Dashboard id.")
    dashboard_title: str = Field(description="Title.")
    slug: Optional[str] = Field(default=None, description="Unique readable URL part, e.g. 'revenue'.")
    url: Url = Field(description="Where the dashboard is served.")
    published: bool = Field(description="False for drafts, which only owners see.")
    owners: list[Owner] = Field(description="Users who may edit it; the first is the primary owner.")
    certified_by: Optional[str] = Field(default=None, description="Who certified the dashboard.")
    certification_details: Optional[str] = Field(default=None, description="Why or on what it is certified.")
    json_metadata: dict[str, Any] = Field(default_factory=dict, description="Layout, colours, refresh frequency.")
    changed_on: DateTime = Field(description="Last modification.")


class SavedQuery(Record):
    """A saved SQL Lab query."""

    id: int = Field(description="Saved query id.")
    label: str = Field(description="Display name.")
    db_id: int = Field(description="Database it runs on.")
    schema_name: Optional[str] = Field(default=None, description="Default schema.")
    sql: str = Field(description="SQL text.")
    description: str = Field(default="", description="What the query answers.")
    created_by: Owner = Field(description="Who saved it.")
    changed_on: DateTime = Field(description="Last modification.")


class Tag(Record):
    """A custom tag and the objects it is applied to."""

    id: int = Field(description="Tag id.")
    name: str = Field(description="Tag name, unique.")
    type: Literal["custom"] = Field(default="custom", description="Only custom tags are managed here.")
    objects: list[tuple[TagObjectType, int]] = Field(default_factory=list,
                                                    description="Tagged objects as (object_type, object_id).")


class SupersetState(ServiceState):
    """Users, database connections, datasets, charts, dashboards, saved queries and tags (keyed by str(id))."""

    current_user_id: int = Field(default=1, description="The user the API acts as.")
    users: dict[str, SupersetUser] = Field(default_factory=dict, description="Users by id.")
    databases: dict[str, Database] = Field(default_factory=dict, description="Database connections by id.")
    datasets: dict[str, Dataset] = Field(default_factory=dict, description="Datasets by id.")
    charts: dict[str, Chart] = Field(default_factory=dict, description="Charts by id.")
    dashboards: dict[str, Dashboard] = Field(default_factory=dict, description="Dashboards by id.")
    saved_queries: dict[str, SavedQuery] = Field(default_factory=dict, description="Saved queries by id.")
    tags: dict[str, Tag] = Field(default_factory=dict, description="Tags by id.")


def owner_of(user: SupersetUser) -> Owner:
    """The :class:`Owner` view of a user."""
    return Owner(id=user.id, first_name=user.first_name, last_name=user.last_name, email=user.email)


_SLUG = r"^[a-z0-9][a-z0-9-]{0,63}$"
UserRef = Union[int, Email]


class _Patch(BaseModel):
    model_config = ConfigDict(extra="forbid", allow_inf_nan=False)


class DashboardPatch(_Patch):
    """Fields of a dashboard update (only those given change)."""

    dashboard_title: Optional[str] = Field(default=None, min_length=1, max_length=500, description="New title.")
    slug: Optional[str] = Field(default=None, pattern=_SLUG, description="New unique slug (lowercase, digits, '-').")
    owners: Optional[list[UserRef]] = Field(default=None, description="New owners: user ids or user emails "
                                            "(replaces the list; at least one).")
    published: Optional[bool] = Field(default=None, description="Publish (true) or return to draft (false).")
    certified_by: Optional[str] = Field(default=None, max_length=200,
                                        description="Certifier; '' removes the certification.")
    certification_details: Optional[str] = Field(default=None, max_length=1000, description="Certification note.")
    json_metadata: Optional[dict[str, Any]] = Field(default=None, description="Replaces the JSON metadata.")


class ChartPatch(_Patch):
    """Fields of a chart update (only those given change)."""

    slice_name: Optional[str] = Field(default=None, min_length=1, max_length=250, description="New title.")
    description: Optional[str] = Field(default=None, max_length=2000, description="New description.")
    viz_type: Optional[VizType] = Field(default=None, description="New visualization type.")
    params: Optional[dict[str, Any]] = Field(default=None, description="Replaces the form data.")
    dashboards: Optional[list[DashboardId]] = Field(default=None, description="Dashboards to place it on (replaces).")
    owners: Optional[list[UserRef]] = Field(default=None, description="New owners: user ids or emails.")


class SavedQueryIn(_Patch):
    """A SQL Lab query to save."""

    model_config = ConfigDict(extra="forbid", populate_by_name=True)
    db_id: int = Field(description="Database id.")
    sql: str = Field(min_length=1, max_length=20000, description="SQL text.")
    label: str = Field(min_length=1, max_length=256, description="Display name.")
    schema_name: Optional[str] = Field(default=None, alias="schema", description="Default schema (optional).")
    description: str = Field(default="", max_length=2000, description="What the query answers.")
