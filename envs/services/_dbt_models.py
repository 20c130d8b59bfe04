"""Records of the dbt service: one dbt project (models, seeds, sources,
data tests, exposures) and the history of its invocations.

A model's SQL is the one source of truth for its lineage: ``{{ ref('x') }}``
and ``{{ source('s', 't') }}`` in ``raw_sql`` are its parents
(:func:`refs_of`, :func:`sources_of`). Run outcomes live on the nodes
(``last_status`` and friends) and in the :class:`DbtRun` records.
"""

from __future__ import annotations

import re
from typing import Literal, Optional

from pydantic import Field, JsonValue

from compoworld_gym.entities import Date, DateTime, Email, Id
from compoworld_gym.service import Record, ServiceState

#: The project's directory on the analytics host (``project_dir``).
PROJECT_DIR = "/home/analytics/dbt/acme_analytics"
PROJECT = "acme_analytics"
Materialization = Literal["view", "table", "incremental", "ephemeral"]
NodeStatus = Literal["success", "error", "skipped"]
TestStatus = Literal["pass", "fail", "warn", "error", "skipped"]
ResultStatus = Literal["success", "error", "skipped", "pass", "fail", "warn"]
_REF = re.compile(r"""\{\{\s*ref\(\s*['"]([\w]+)['"]\s*\)\s*\}\}""")
_SOURCE = re.compile(r"""\{\{\s*source\(\s*['"](\w+)['"]\s*,\s*['"](\w+)['"]\s*\)\s*\}\}""")


def refs_of(sql: str) -> list[str]:
    """The names ``ref()``-ed in a model's SQL, in order, without repeats."""
    return list(dict.fromkeys(_REF.findall(sql)))


def sources_of(sql: str) -> list[str]:
    """The ``source_name.table`` names ``source()``-d in a model's SQL."""
    return list(dict.fromkeys(f"{s}.{t}" for s, t in _SOURCE.findall(sql)))


class DbtModel(Record):
    """A model: its SQL, config, owner and the outcome of its latest build."""

    name: Id("dbt_model") = Field(description="Model name, e.g. fct_orders.")
    path: str = Field(description="File path in the project, e.g. models/marts/fct_orders.sql.")
    schema_name: str = Field(description="Warehouse schema it builds into (staging, intermediate, marts).")
    description: str = Field(default="", description="What the model holds.")
    raw_sql: str = Field(description="The model's SQL with Jinja (ref/source/config).")
    materialized: Materialization = Field(description="view, table, incremental or ephemeral.")
    unique_key: Optional[str] = Field(default=None, description="Incremental merge key.")
    on_schema_change: Literal["ignore", "append_new_columns", "sync_all_columns", "fail"] = Field(
        default="ignore", description="What an incremental build does when the upstream columns changed.")
    tags: list[str] = Field(default_factory=list, description="Tags (select with tag:<name>).")
    owner_email: Email = Field(description="meta.owner: who maintains the model.")
    columns: list[str] = Field(default_factory=list, description="Documented columns.")
    schema_drift: bool = Field(default=False, description=(
        "The upstream columns changed since the last build: an on_schema_change=fail incremental build fails "
        "until it is rebuilt with a full refresh."))
    sql_error: Optional[str] = Field(default=None, description=(
        "A database error the SQL hits on every build (a column that no longer exists); None when it compiles."))
    relation_exists: bool = Field(default=True, description="Whether its table/view exists in the warehouse.")
    row_count: int = Field(default=0, ge=0, description="Rows in the built relation.")
    preview: list[dict[str, JsonValue]] = Field(default_factory=list, description="Rows dbt show returns.")
    last_status: Optional[NodeStatus] = Field(default=None, description="Outcome of its latest build.")
    last_run_id: Optional[Id("dbt_run")] = Field(default=None, description="The run that built it last.")
    last_run_at: Optional[DateTime] = Field(default=None, description="When it was last built.")
    last_success_on: Optional[Date] = Field(default=None, description="Day of its last successful build.")
    last_message: str = Field(default="", description="The message of its latest build.")


class DbtSeedFile(Record):
    """A CSV seed."""

    name: str = Field(description="Seed name, e.g. country_codes.")
    path: str = Field(description="File path, e.g. seeds/country_codes.csv.")
    columns: list[str] = Field(description="CSV header.")
    row_count: int = Field(ge=0, description="Data rows in the CSV.")
    loaded: bool = Field(description="Whether the table is loaded in the warehouse.")
    loaded_at: Optional[DateTime] = Field(default=None, description="When it was last loaded.")
    preview: list[dict[str, JsonValue]] = Field(default_factory=list, description="First rows of the CSV.")


class DbtSource(Record):
    """A raw table loaded by the ingestion tool (``source('shop', 'orders')``)."""

    name: str = Field(description="source_name.table_name, e.g. shop.orders.")
    relation: str = Field(description="Warehouse relation, e.g. raw.shop.orders.")
    loader: str = Field(description="What loads it (fivetran, segment, stripe).")
    loaded_at: DateTime = Field(description="Latest load.")


class DbtTest(Record):
    """A generic data test on a model column, with the failing rows its query finds on today's data."""

    name: str = Field(description="Test name, e.g. unique_stg_orders_order_id.")
    test_type: Literal["unique", "not_null", "relationships", "accepted_values"] = Field(description="Generic test.")
    model: Id("dbt_model") = Field(description="The model tested.")
    column: str = Field(description="The column tested.")
    to: Optional[str] = Field(default=None, description="relationships: the referenced model.")
    field: Optional[str] = Field(default=None, description="relationships: the referenced column.")
    values: list[str] = Field(default_factory=list, description="accepted_values: the allowed values.")
    severity: Literal["error", "warn"] = Field(default="error", description="error fails the build; warn does not.")
    failures: int = Field(default=0, ge=0, description="Rows the test query returns on the current data.")
    last_status: Optional[TestStatus] = Field(default=None, description="Outcome of its latest run.")
    last_run_id: Optional[Id("dbt_run")] = Field(default=None, description="The run that ran it last.")


class DbtExposure(Record):
    """A downstream use of the models: a dashboard or an application reading them."""

    name: str = Field(description="Exposure name; for an application, the service's key.")
    type: Literal["dashboard", "application", "notebook", "analysis", "ml"] = Field(description="Kind of use.")
    owner_name: str = Field(description="Owner's name.")
    owner_email: Email = Field(description="Owner's email.")
    url: str = Field(default="", description="Where it lives.")
    depends_on: list[str] = Field(description="Models it reads.")
    description: str = Field(default="", description="What it is.")


class NodeResult(Record):
    """One node's result in a run (a line of run_results.json)."""

    unique_id: str = Field(description="e.g. model.acme_analytics.fct_orders.")
    name: str = Field(description="Node name.")
    resource_type: Literal["model", "seed", "test"] = Field(description="Node kind.")
    status: ResultStatus = Field(description=(
        "success/error/skipped (models, seeds), pass/fail/warn/error/skipped (tests)."))
    message: str = Field(default="", description="dbt's message for the node.")
    execution_time: float = Field(ge=0, description="Seconds.")
    rows_affected: Optional[int] = Field(default=None, description="Rows written (models, seeds).")
    failures: Optional[int] = Field(default=None, description="Failing rows (tests).")


class DbtRun(Record):
    """One dbt invocation (run, test, build or seed) and its results."""

    id: Id("dbt_run") = Field(description="Run id, e.g. RUN-0004.")
    command: Literal["run", "test", "build", "seed"] = Field(description="The dbt command.")
    select: Optional[str] = Field(default=None, description="--select expression.")
    selector: Optional[str] = Field(default=None, description="--selector name.")
    exclude: Optional[str] = Field(default=None, description="--exclude expression.")
    full_refresh: bool = Field(default=False, description="--full-refresh.")
    invoked_by: str = Field(default="mcp", description="Who ran it (mcp, or the scheduler's job name).")
    started_at: DateTime = Field(description="Start (logical clock).")
    status: Literal["success", "error"] = Field(description="error when a node errored or a test failed.")
    results: list[NodeResult] = Field(default_factory=list, description="Node results in execution order.")
    elapsed: float = Field(ge=0, description="Seconds.")


class Package(Record):
    """An entry of packages.yml."""

    package: str = Field(description="e.g. dbt-labs/dbt_utils.")
    version: str = Field(description="Pinned version.")


class DbtProject(Record):
    """The dbt project and its connection profile."""

    name: str = Field(default=PROJECT, description="Project name.")
    project_dir: str = Field(default=PROJECT_DIR, description="Absolute path of the project.")
    dbt_version: str = Field(default="1.8.7", description="dbt-core version.")
    adapter: str = Field(default="snowflake", description="Adapter (dbt-snowflake).")
    profile: str = Field(default="acme_snowflake", description="profiles.yml profile.")
    target: str = Field(default="prod", description="Target of the profile.")
    database: str = Field(default="analytics", description="Target database.")
    packages: list[Package] = Field(default_factory=list, description="packages.yml.")
    deps_installed: bool = Field(default=True, description="Whether dbt_packages/ holds every package.")
    selectors: dict[str, str] = Field(default_factory=dict, description="selectors.yml: name -> selection.")


class DbtState(ServiceState):
    """One dbt project and its invocation history."""

    project: DbtProject = Field(default_factory=DbtProject, description="The project.")
    models: dict[str, DbtModel] = Field(default_factory=dict, description="Models by name.")
    seeds: dict[str, DbtSeedFile] = Field(default_factory=dict, description="Seeds by name.")
    sources: dict[str, DbtSource] = Field(default_factory=dict, description="Sources by source.table.")
    tests: dict[str, DbtTest] = Field(default_factory=dict, description="Data tests by name.")
    exposures: dict[str, DbtExposure] = Field(default_factory=dict, description="Exposures by name.")
    runs: dict[str, DbtRun] = Field(default_factory=dict, description="Invocations by id, oldest first.")
