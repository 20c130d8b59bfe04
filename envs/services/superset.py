"""Superset: an Apache Superset instance (dashboards, charts, datasets, databases, saved queries, tags).

Follows the MCP server ``@aptro_superset-mcp`` (``spec_source``), which wraps
Superset's REST API v1: ids are integers, lists answer ``{"count", "result"}``
and single objects ``{"id", "result"}``, updates take a ``data`` object of the
fields to change. Business rules are Superset's own: a chart is drawn from an
existing dataset and may only use that dataset's metrics (422 otherwise); a
dataset registers a table the database connection really has, once (422 for
a duplicate); a dashboard slug is unique (409) and a dashboard keeps at least
one owner (422); certification details need a certifier (422); a database
with datasets attached cannot be deleted (409); saved queries run on a
database exposed in SQL Lab (422). The agent acts as the Admin
``ops@company.example``.

Implemented: 26 of the server's 60 tools. Left out, because they need a live
server, credentials or a SQL engine rather than records: the three
``superset_auth_*`` tools; database create/update/test_connection/
validate_parameters/get_connection/catalogs/schemas/function names (connection
secrets); the ``superset_sqllab_*`` execution, results, export, format and
estimate tools and ``superset_query_*`` (a query engine; the ``database``
service runs real SQL); explore form data/permalinks, menu, base URL,
advanced data types, recent activity, user roles; ``superset_tag_get_by_id``,
``superset_tag_delete`` and ``superset_tag_object_remove`` (kept the tool
count near the library's norm). ``superset_dataset_create`` omits the
optional ``schema`` parameter: the schema is found from the database's
table list (a parameter named ``schema`` would shadow pydantic internals).
"""

from __future__ import annotations

import datetime as dt
import random
from typing import Annotated, Any, Optional

from faker import Faker
from pydantic import Field

from compoworld_gym.envs.services import _superset_rules as rules
from compoworld_gym.envs.services import _superset_seed as seed
from compoworld_gym.envs.services._superset_models import (
    BASE_URL, Chart, ChartId, ChartPatch, Dashboard, DashboardId, DashboardPatch, Dataset, DatasetId, SavedQuery,
    SavedQueryIn, SupersetState, Tag, TagObjectType, VizType,
)
from compoworld_gym.errors import Conflict, InvalidArgument, Unprocessable
from compoworld_gym.service import Service, tool

class Superset(Service):
    """Apache Superset: dashboards, charts, datasets, database connections, saved queries, tags."""

    name = "superset"
    description = "Apache Superset BI: dashboards with owners and certification, charts on datasets, database " \
                  "connections, saved SQL Lab queries and tags."
    domain = "data"
    spec_source = "@aptro_superset-mcp"
    State = SupersetState

    # --------------------------------------------------------------- helpers
    def _get(self, kind: str, collection: dict[str, Any], oid: int) -> Any:
        return self.lookup(collection, str(oid), kind)

    def _next(self, kind: str, collection: dict[str, Any]) -> int:
        return rules.next_int_id(self.state.counters, kind, collection)

    # ------------------------------------------------------------ dashboards
    @tool(read_only=True, returns=list[Dashboard])
    def superset_dashboard_list(self) -> dict:
        """List all dashboards (id, title, url, owners, published, certification)."""
        return rules.listing(list(self.state.dashboards.values()))

    @tool(read_only=True, returns=Dashboard)
    def superset_dashboard_get_by_id(self, dashboard_id: DashboardId) -> dict:
        """Get one dashboard with its owners, charts and tags.

        Args:
            dashboard_id: ID of the dashboard to retrieve.
        """
        d = self._get("dashboard", self.state.dashboards, dashboard_id)
        return {"id": d.id, "result": rules.dashboard_view(self.state, d)}

    @tool(read_only=False, returns=Dashboard)
    def superset_dashboard_create(self, dashboard_title: str = Field(min_length=1, max_length=500),
                                  json_metadata: Optional[dict[str, Any]] = None) -> dict:
        """Create a draft dashboard owned by the current user.

        Args:
            dashboard_title: Title of the dashboard.
            json_metadata: Optional JSON metadata (layout, colour scheme, filter configuration).
        """
        did = self._next("dashboard", self.state.dashboards)
        d = Dashboard(id=did, dashboard_title=dashboard_title, url=f"{BASE_URL}/superset/dashboard/{did}/",
                      published=False, owners=[rules.current_owner(self.state)], json_metadata=json_metadata or {},
                      changed_on=self.now())
        self.state.dashboards[str(did)] = d
        return {"id": did, "result": d.model_dump(mode="json")}

    @tool(read_only=False, idempotent=True, returns=Dashboard)
    def superset_dashboard_update(self, dashboard_id: DashboardId, data: DashboardPatch) -> dict:
        """Update a dashboard: title, slug, owners, published, certification or JSON metadata.

        Args:
            dashboard_id: ID of the dashboard to update.
            data: the fields to change; owners replace the list (user ids or emails, at least one).
        """
        d = self._get("dashboard", self.state.dashboards, dashboard_id)
        patch = data.model_dump(exclude_unset=True)
        if patch.get("slug") and any(o.slug == patch["slug"] and o.id != d.id for o in self.state.dashboards.values()):
            raise Conflict(f"slug {patch['slug']!r} is already used by another dashboard.")
        if "owners" in patch:
            d.owners = rules.owners_of(self.state, data.owners or [])
        for key in ("dashboard_title", "slug", "published", "json_metadata", "certified_by", "certification_details"):
            if key in patch and (patch[key] is not None or key in ("slug", "certified_by", "certification_details")):
                setattr(d, key, patch[key])
        d.url = f"{BASE_URL}/superset/dashboard/{d.slug or d.id}/"
        if d.certified_by == "":
            d.certified_by = d.certification_details = None
        if d.certification_details and not d.certified_by:
            raise Unprocessable("certification_details need certified_by: name who certifies the dashboard.")
        d.changed_on = self.now()
        return {"id": d.id, "result": rules.dashboard_view(self.state, d)}

    @tool(read_only=False, destructive=True)
    def superset_dashboard_delete(self, dashboard_id: DashboardId) -> dict:
        """Delete a dashboard; its charts stay (they are only taken off it).

        Args:
            dashboard_id: ID of the dashboard to delete.
        """
        d = self._get("dashboard", self.state.dashboards, dashboard_id)
        del self.state.dashboards[str(d.id)]
        for c in self.state.charts.values():
            c.dashboards = [x for x in c.dashboards if x != d.id]
        for t in self.state.tags.values():
            t.objects = [o for o in t.objects if o != ("dashboard", d.id)]
        return {"message": "OK", "id": d.id}

    # ---------------------------------------------------------------- charts
    @tool(read_only=True, returns=list[Chart])
    def superset_chart_list(self) -> dict:
        """List all charts (id, slice_name, viz_type, datasource, dashboards)."""
        return rules.listing(list(self.state.charts.values()))

    @tool(read_only=True, returns=Chart)
    def superset_chart_get_by_id(self, chart_id: ChartId) -> dict:
        """Get one chart with its visualization parameters.

        Args:
            chart_id: ID of the chart to retrieve.
        """
        c = self._get("chart", self.state.charts, chart_id)
        return {"id": c.id, "result": c.model_dump(mode="json")}

    @tool(read_only=False, returns=Chart)
    def superset_chart_create(self, slice_name: Annotated[str, Field(min_length=1, max_length=250)],
                              datasource_id: DatasetId, datasource_type: str, viz_type: VizType,
                              params: dict[str, Any]) -> dict:
        """Create a chart on a dataset; the metrics in params must be the dataset's own (422).

        Args:
            slice_name: Name/title of the chart.
            datasource_id: ID of the dataset it is drawn from.
            datasource_type: must be 'table' (a dataset); SQL-query datasources are not supported here.
            viz_type: table, big_number, big_number_total, line, bar, pie, area or pivot_table.
            params: form data, e.g. {"metrics": ["count"], "groupby": ["status"], "time_range": "Last month"}.
        """
        if datasource_type != "table":
            raise InvalidArgument(f"datasource_type {datasource_type!r} is not supported; use 'table' (a dataset).")
        ds = self._get("dataset", self.state.datasets, datasource_id)
        rules.check_metrics(ds, params)
        cid = self._next("chart", self.state.charts)
        c = Chart(id=cid, slice_name=slice_name, viz_type=viz_type, datasource_id=ds.id, params=params,
                  owners=[rules.current_owner(self.state)], changed_on=self.now())
        self.state.charts[str(cid)] = c
        return {"id": cid, "result": c.model_dump(mode="json")}

    @tool(read_only=False, idempotent=True, returns=Chart)
    def superset_chart_update(self, chart_id: ChartId, data: ChartPatch) -> dict:
        """Update a chart: title, description, viz type, params, dashboards or owners.

        Args:
            chart_id: ID of the chart to update.
            data: the fields to change (params are checked against the dataset's metrics).
        """
        c = self._get("chart", self.state.charts, chart_id)
        patch = data.model_dump(exclude_unset=True)
        if patch.get("params") is not None:
            rules.check_metrics(self._get("dataset", self.state.datasets, c.datasource_id), patch["params"])
        if patch.get("dashboards") is not None:
            c.dashboards = sorted({self._get("dashboard", self.state.dashboards, x).id for x in patch["dashboards"]})
        if "owners" in patch:
            c.owners = rules.owners_of(self.state, data.owners or [])
        for key in ("slice_name", "description", "viz_type", "params"):
            if patch.get(key) is not None:
                setattr(c, key, patch[key])
        c.changed_on = self.now()
        return {"id": c.id, "result": c.model_dump(mode="json")}

    @tool(read_only=False, destructive=True)
    def superset_chart_delete(self, chart_id: ChartId) -> dict:
        """Delete a chart (it leaves every dashboard it was on).

        Args:
            chart_id: ID of the chart to delete.
        """
        c = self._get("chart", self.state.charts, chart_id)
        del self.state.charts[str(c.id)]
        for t in self.state.tags.values():
            t.objects = [o for o in t.objects if o != ("chart", c.id)]
        return {"message": "OK", "id": c.id}

    # ------------------------------------------------------------- databases
    @tool(read_only=True)
    def superset_database_list(self) -> dict:
        """List database connections (id, name, backend, SQL Lab exposure), without their tables."""
        rows = [d.model_dump(mode="json", exclude={"tables"}) for d in self.state.databases.values()]
        return {"count": len(rows), "result": rows}

    @tool(read_only=True)
    def superset_database_get_by_id(self, database_id: int) -> dict:
        """Get one database connection's configuration (password masked).

        Args:
            database_id: ID of the database to retrieve.
        """
        d = self._get("database", self.state.databases, database_id)
        return {"id": d.id, "result": d.model_dump(mode="json", exclude={"tables"})}

    @tool(read_only=True)
    def superset_database_get_tables(self, database_id: int) -> dict:
        """List the tables of a database connection (schema and table name).

        Args:
            database_id: ID of the database.
        """
        d = self._get("database", self.state.databases, database_id)
        rows = [{"schema": t.schema_name, "value": t.table, "type": "table"} for t in d.tables]
        return {"count": len(rows), "result": rows}

    @tool(read_only=True)
    def superset_database_get_related_objects(self, database_id: int) -> dict:
        """Charts and dashboards that depend on a database (through its datasets).

        Args:
            database_id: ID of the database.
        """
        d = self._get("database", self.state.databases, database_id)
        ds = {x.id for x in self.state.datasets.values() if x.database_id == d.id}
        charts = [c for c in self.state.charts.values() if c.datasource_id in ds]
        boards = sorted({b for c in charts for b in c.dashboards})
        return {"charts": {"count": len(charts), "result": [{"id": c.id, "slice_name": c.slice_name} for c in charts]},
                "dashboards": {"count": len(boards), "result": [
                    {"id": b, "title": self.state.dashboards[str(b)].dashboard_title} for b in boards]}}

    @tool(read_only=False, destructive=True)
    def superset_database_delete(self, database_id: int) -> dict:
        """Delete a database connection; refused (409) while datasets are attached to it.

        Args:
            database_id: ID of the database to delete.
        """
        d = self._get("database", self.state.databases, database_id)
        attached = sorted(x.id for x in self.state.datasets.values() if x.database_id == d.id)
        if attached:
            raise Conflict(f"cannot delete database {d.id} ({d.database_name}): datasets "
                           f"{', '.join(map(str, attached))} are attached to it.")
        del self.state.databases[str(d.id)]
        return {"message": "OK", "id": d.id}

    # -------------------------------------------------------------- datasets
    @tool(read_only=True, returns=list[Dataset])
    def superset_dataset_list(self) -> dict:
        """List datasets (id, table, schema, database, owners, metrics)."""
        return rules.listing(list(self.state.datasets.values()))

    @tool(read_only=True, returns=Dataset)
    def superset_dataset_get_by_id(self, dataset_id: DatasetId) -> dict:
        """Get one dataset with its columns, metrics and owners.

        Args:
            dataset_id: ID of the dataset to retrieve.
        """
        d = self._get("dataset", self.state.datasets, dataset_id)
        return {"id": d.id, "result": d.model_dump(mode="json")}

    @tool(read_only=False, returns=Dataset)
    def superset_dataset_create(self, table_name: Annotated[str, Field(min_length=1, max_length=250)],
                                database_id: int, owners: Optional[list[int]] = None) -> dict:
        """Register a table of a database as a dataset (422 if the table is missing or already registered).

        Args:
            table_name: Name of the physical table (as superset_database_get_tables lists it).
            database_id: ID of the database where the table exists.
            owners: Optional list of user IDs who should own this dataset (default: the current user).
        """
        db = self._get("database", self.state.databases, database_id)
        where = [t for t in db.tables if t.table == table_name]
        if not where:
            raise Unprocessable(f"database {db.id} has no table {table_name!r}; see superset_database_get_tables.")
        if any(x.database_id == db.id and x.table_name == table_name for x in self.state.datasets.values()):
            raise Unprocessable(f"dataset for {where[0].schema_name}.{table_name} on database {db.id} already exists.")
        did = self._next("dataset", self.state.datasets)
        who = rules.owners_of(self.state, owners) if owners is not None else [rules.current_owner(self.state)]
        d = Dataset(id=did, table_name=table_name, schema_name=where[0].schema_name, database_id=db.id, owners=who,
                    columns=[], metrics=["count"], changed_on=self.now())
        self.state.datasets[str(did)] = d
        return {"id": did, "result": d.model_dump(mode="json")}

    # ------------------------------------------------------- saved queries
    @tool(read_only=True)
    def superset_sqllab_get_saved_queries(self) -> dict:
        """List saved SQL Lab queries (id, label, database, SQL, author)."""
        return rules.listing(list(self.state.saved_queries.values()))

    @tool(read_only=True)
    def superset_saved_query_get_by_id(self, query_id: int) -> dict:
        """Get one saved query with its SQL text.

        Args:
            query_id: ID of the saved query to retrieve.
        """
        q = self._get("saved query", self.state.saved_queries, query_id)
        return {"id": q.id, "result": q.model_dump(mode="json")}

    @tool(read_only=False)
    def superset_saved_query_create(self, query_data: SavedQueryIn) -> dict:
        """Save a SQL query on a database exposed in SQL Lab.

        Args:
            query_data: db_id, sql, label, optional schema and description.
        """
        db = self._get("database", self.state.databases, query_data.db_id)
        if not db.expose_in_sqllab:
            raise Unprocessable(f"database {db.id} ({db.database_name}) is not exposed in SQL Lab.")
        qid = self._next("saved_query", self.state.saved_queries)
        q = SavedQuery(id=qid, label=query_data.label, db_id=db.id, schema_name=query_data.schema_name,
                       sql=query_data.sql, description=query_data.description,
                       created_by=rules.current_owner(self.state), changed_on=self.now())
        self.state.saved_queries[str(qid)] = q
        return {"id": qid, "result": q.model_dump(mode="json")}

    # ------------------------------------------------------- users and tags
    @tool(read_only=True)
    def superset_user_get_current(self) -> dict:
        """The user the API acts as: id, names, email, roles."""
        return {"result": self.state.users[str(self.state.current_user_id)].model_dump(mode="json")}

    @tool(read_only=True)
    def superset_tag_list(self) -> dict:
        """List tags with the objects each is applied to."""
        return rules.listing(list(self.state.tags.values()))

    @tool(read_only=True)
    def superset_tag_objects(self) -> dict:
        """All tagged objects: type, id, name and their tags."""
        rows = rules.tagged_objects(self.state)
        return {"count": len(rows), "result": rows}

    @tool(read_only=False)
    def superset_tag_create(self, name: str = Field(min_length=1, max_length=250, pattern=r"^[^:,\s][^:,]*$")) -> dict:
        """Create a custom tag (409 if the name exists).

        Args:
            name: Name of the tag (no ':' or ',').
        """
        if any(t.name.lower() == name.lower() for t in self.state.tags.values()):
            raise Conflict(f"tag {name!r} already exists.")
        tid = self._next("tag", self.state.tags)
        self.state.tags[str(tid)] = Tag(id=tid, name=name)
        return {"id": tid, "result": self.state.tags[str(tid)].model_dump(mode="json")}

    @tool(read_only=False, idempotent=True)
    def superset_tag_object_add(self, object_type: TagObjectType, object_id: int,
                                tag_name: str = Field(min_length=1, max_length=250, pattern=r"^[^:,\s][^:,]*$")
                                ) -> dict:
        """Tag an object; the tag is created if it does not exist (tagging twice changes nothing).

        Args:
            object_type: 'dashboard', 'chart', 'saved_query' or 'dataset'.
            object_id: ID of the object to tag.
            tag_name: Name of the tag to apply.
        """
        coll = {"dashboard": self.state.dashboards, "chart": self.state.charts,
                "saved_query": self.state.saved_queries, "dataset": self.state.datasets}[object_type]
        self._get(object_type.replace("_", " "), coll, object_id)
        tag = next((t for t in self.state.tags.values() if t.name.lower() == tag_name.lower()), None)
        if tag is None:
            tid = self._next("tag", self.state.tags)
            tag = self.state.tags[str(tid)] = Tag(id=tid, name=tag_name)
        if (object_type, object_id) not in tag.objects:
            tag.objects.append((object_type, object_id))
        return {"tag": tag.name, "object_type": object_type, "object_id": object_id}

    # ------------------------------------------------------------------ seeds
    @classmethod
    def build_seed_state(cls, fake: Faker, rng: random.Random, today: dt.date) -> SupersetState:
        return seed.build_state(fake, rng, today)
