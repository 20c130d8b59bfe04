"""dbt: a deterministic dbt Core project (dbt CLI), seeded as the company's analytics project.

Follows the MCP server ``@MammothGrowth_dbt-cli-mcp``: all nine tools with
the spec's names and parameters. Instead of shelling out to dbt, the project
is typed state (``_dbt_models``): models (Jinja SQL whose ``ref``/``source``
calls are the lineage, materialization, tags, owner), seeds, sources, generic
data tests (unique, not_null, relationships, accepted_values) whose queries
find a seeded number of failing rows on today's data, and exposures. Node
selection follows dbt's syntax (``_dbt_select``: names, globs, fqn, ``tag:``,
``path:``, ``config.materialized:``, ``source:``, ``exposure:``, ``+x``,
``x+``, ``@x``, unions and intersections, ``exclude``, named selectors).
``dbt_run``/``dbt_build``/``dbt_test``/``dbt_seed`` execute in dependency
order with dbt's rules (``_dbt_rules``): an upstream failure skips what is
downstream (in a build, so does a failed error-severity test), a missing
parent relation is a database error, a standing SQL error fails every build,
and an ``on_schema_change: fail`` incremental model whose upstream columns
changed fails until it is rebuilt with ``full_refresh``. Every invocation is
kept as a run record (``runs``, run_results.json); the designed tool
``dbt_run_results`` reads them (the spec has no way to). ``dbt_compile``
renders refs, sources, ``this``, ``is_incremental()`` and
``dbt_utils.generate_surrogate_key``; ``dbt_show`` returns a model's seeded
preview rows (a model name, or ``select * from {{ ref('x') }}`` with an
optional ``where col = value`` and ``limit``). Every command but
``dbt_debug``/``dbt_deps`` needs the packages installed (422 until
``dbt_deps``). ``project_dir`` must be the project (or ``.``).

Departures: results are JSON (the CLI prints text) with dbt's console lines
in ``log``; snapshots and source freshness are not modelled.
"""

from __future__ import annotations

import datetime as dt
import random
import re
from typing import Literal, Optional

from faker import Faker
from pydantic import Field

from compoworld_gym.entities import Id
from compoworld_gym.envs.services._dbt_models import PROJECT_DIR, DbtRun, DbtState, refs_of, sources_of
from compoworld_gym.envs.services._dbt_rules import (
    execute, log_lines, missing_parent, render, require_deps, tests_for, uid,
)
from compoworld_gym.envs.services._dbt_seed import build_state
from compoworld_gym.envs.services._dbt_select import Graph, resolve
from compoworld_gym.errors import InvalidArgument, NotFound, Unprocessable
from compoworld_gym.service import Service, tool

_DIRS = (".", "", "./", PROJECT_DIR, PROJECT_DIR + "/")
_PROFILES = (None, "~/.dbt", "~/.dbt/", "/home/analytics/.dbt", PROJECT_DIR)
_INLINE = re.compile(r"""^\s*select\s+\*\s+from\s+\{\{\s*ref\(\s*['"](\w+)['"]\s*\)\s*\}\}"""
                     r"""(?:\s+where\s+(\w+)\s*=\s*('[^']*'|-?\d+(?:\.\d+)?))?(?:\s+limit\s+(\d+))?\s*;?\s*$""", re.I)
Sel = Optional[str]


class Dbt(Service):
    """A dbt Core project: selection, DAG-ordered runs, tests, seeds, compile, show, run history."""

    name = "dbt"
    description = ("dbt analytics project: models with lineage and owners, seeds, data tests and exposures; run, "
                   "test, build, seed, compile and preview models, with the run history.")
    domain = "data"
    spec_source = "@MammothGrowth_dbt-cli-mcp"
    designed_tools = frozenset({"dbt_run_results"})
    State = DbtState

    @classmethod
    def build_seed_state(cls, fake: Faker, rng: random.Random, today: dt.date) -> DbtState:
        return build_state(fake, rng, today)

    # ---------------------------------------------------------------- helpers
    def _open(self, project_dir: str, profiles_dir: Optional[str], deps: bool = True) -> None:
        if project_dir.strip() not in _DIRS:
            raise NotFound(f"No dbt_project.yml found at expected path {project_dir.rstrip('/')}/dbt_project.yml; "
                           f"the project is at {PROJECT_DIR}.")
        if profiles_dir not in _PROFILES:
            raise NotFound(f"profiles.yml not found in {profiles_dir}; it is in ~/.dbt (leave profiles_dir unset).")
        if deps:
            require_deps(self.state)

    def _node(self, name: str, verbose: bool) -> dict:
        st = self.state
        if name in st.models:
            m, kind = st.models[name], "model"
            parents = [uid("model" if p in st.models else "seed", p) for p in refs_of(m.raw_sql)]
            parents += [f"source.acme_analytics.{s}" for s in sources_of(m.raw_sql)]
            full = {"path": m.path, "schema": m.schema_name, "tags": m.tags, "description": m.description,
                    "config": {"materialized": m.materialized, "unique_key": m.unique_key,
                               "on_schema_change": m.on_schema_change},
                    "meta": {"owner": m.owner_email}, "columns": m.columns,
                    "last_run": {"status": m.last_status, "run_id": m.last_run_id, "run_at": m.last_run_at,
                                 "last_success_on": m.last_success_on, "message": m.last_message}}
        elif name in st.seeds:
            s, kind, parents = st.seeds[name], "seed", []
            full = {"path": s.path, "columns": s.columns, "row_count": s.row_count, "loaded": s.loaded,
                    "loaded_at": s.loaded_at}
        elif name in st.tests:
            t, kind = st.tests[name], "test"
            parents = [uid("model", p) for p in (t.model, t.to) if p]
            full = {"test_metadata": {"name": t.test_type, "kwargs": {"column_name": t.column, "to": t.to,
                                                                      "field": t.field, "values": t.values or None}},
                    "config": {"severity": t.severity}, "attached_node": uid("model", t.model),
                    "last_run": {"status": t.last_status, "run_id": t.last_run_id}}
        elif name.startswith("exposure:"):
            e, kind = st.exposures[name.split(":", 1)[1]], "exposure"
            name, parents = e.name, [uid("model", d) for d in e.depends_on]
            full = {"type": e.type, "owner": {"name": e.owner_name, "email": e.owner_email}, "url": e.url,
                    "description": e.description}
        else:
            src, kind, parents = st.sources[name.split(":", 1)[1]], "source", []
            name, full = src.name, {"relation": src.relation, "loader": src.loader, "loaded_at": src.loaded_at}
        base = {"name": name, "resource_type": kind, "depends_on": {"nodes": parents}}
        return {"unique_id": uid(kind, name), **base, **full} if verbose else base

    def _invoke(self, command: Literal["run", "test", "build", "seed"], models: Sel, selector: Sel, exclude: Sel,
                full_refresh: bool) -> dict:
        graph = Graph(self.state)
        nodes = resolve(self.state, models, selector, exclude, graph)
        runnable = {"run": [n for n in nodes if n in self.state.models
                            and self.state.models[n].materialized != "ephemeral"],
                    "seed": [n for n in nodes if n in self.state.seeds], "test": tests_for(self.state, nodes),
                    "build": [n for n in nodes if n in self.state.models or n in self.state.seeds]}[command]
        if not runnable:
            what = {"run": "models", "seed": "seeds", "test": "tests", "build": "models or seeds"}[command]
            raise NotFound(f"Nothing to do: the selection has no {what}; check it with dbt_ls.")
        at = self.now()
        run = DbtRun(id=self.new_id("RUN"), command=command, select=models, selector=selector, exclude=exclude,
                     full_refresh=full_refresh, started_at=at, status="success", elapsed=0.0)
        execute(self.state, graph, run, at, nodes)
        return {"run_id": run.id, "command": f"dbt {command}", "status": run.status, "elapsed": run.elapsed,
                "log": log_lines(run, self.state),
                "errors": [{"node": r.unique_id, "status": r.status, "message": r.message}
                           for r in run.results if r.status in ("error", "fail")]}

    # ------------------------------------------------------------------ tools
    @tool(read_only=False)
    def dbt_run(self, models: Sel = None, selector: Sel = None, exclude: Sel = None, project_dir: str = ".",
                profiles_dir: Optional[str] = None, full_refresh: bool = False) -> dict:
        """Run dbt models: build the selected models in dependency order (ephemeral ones are inlined).

        Args:
            models: Specific models to run, using the dbt selection syntax (e.g., "model_name+")
            selector: Named selector to use (selectors.yml: nightly, finance, marketing)
            exclude: Models to exclude
            project_dir: ABSOLUTE PATH to the directory containing the dbt project
            profiles_dir: Directory containing the profiles.yml file (defaults to ~/.dbt)
            full_refresh: Whether to perform a full refresh (rebuild incremental models from scratch)
        """
        self._open(project_dir, profiles_dir)
        return self._invoke("run", models, selector, exclude, full_refresh)

    @tool(read_only=False)
    def dbt_test(self, models: Sel = None, selector: Sel = None, exclude: Sel = None, project_dir: str = ".",
                 profiles_dir: Optional[str] = None) -> dict:
        """Run dbt tests: the data tests on the selected models (all tests when nothing is selected).

        Args:
            models: Specific models to test, using the dbt selection syntax
            selector: Named selector to use
            exclude: Models to exclude
            project_dir: ABSOLUTE PATH to the directory containing the dbt project
            profiles_dir: Directory containing the profiles.yml file (defaults to ~/.dbt)
        """
        self._open(project_dir, profiles_dir)
        return self._invoke("test", models, selector, exclude, False)

    @tool(read_only=True)
    def dbt_ls(self, models: Sel = None, selector: Sel = None, exclude: Sel = None, resource_type: Sel = None,
               project_dir: str = ".", profiles_dir: Optional[str] = None,
               output_format: Literal["json", "name", "path", "selector"] = "json", verbose: bool = False) -> list:
        """List dbt resources (models, tests, seeds, sources, exposures), with their dependencies.

        With verbose, a model also shows its config, meta.owner, columns and its latest build
        (status, run id, day of its last success, message).

        Args:
            models: Specific models to list, using the dbt selection syntax (e.g. fct_orders+, tag:finance)
            selector: Named selector to use
            exclude: Models to exclude
            resource_type: Type of resource to list (model, test, seed, source, exposure)
            project_dir: ABSOLUTE PATH to the directory containing the dbt project
            profiles_dir: Directory containing the profiles.yml file (defaults to ~/.dbt)
            output_format: json (default), name, path or selector (fqn)
            verbose: Return full JSON output instead of the simplified name, resource_type, depends_on
        """
        self._open(project_dir, profiles_dir)
        kinds = ("model", "test", "seed", "source", "exposure")
        if resource_type is not None and resource_type not in kinds:
            raise InvalidArgument(f"resource_type {resource_type!r} is not one of {', '.join(kinds)}.")
        graph = Graph(self.state)
        picked = models is not None or selector is not None or exclude is not None
        nodes = resolve(self.state, models, selector, exclude, graph) if picked else set(graph.parents)
        names = [n for n in graph.order({n for n in nodes if ":" not in n})]
        names += sorted(n for n in nodes if ":" in n) + tests_for(self.state, nodes)
        rows = [self._node(n, verbose or output_format != "json") for n in names]
        rows = [r for r in rows if resource_type is None or r["resource_type"] == resource_type]
        if output_format == "json":
            return rows
        if output_format == "name":
            return [r["name"] for r in rows]
        if output_format == "path":
            return [r.get("path") or r["unique_id"] for r in rows]
        return [".".join(graph.fqn(r["name"])) if r["resource_type"] in ("model", "seed") else r["unique_id"]
                for r in rows]

    @tool(read_only=True)
    def dbt_compile(self, models: Sel = None, selector: Sel = None, exclude: Sel = None, project_dir: str = ".",
                    profiles_dir: Optional[str] = None) -> list[dict]:
        """Compile dbt models: the SQL each selected model would run, with refs and sources resolved.

        Args:
            models: Specific models to compile, using the dbt selection syntax
            selector: Named selector to use
            exclude: Models to exclude
            project_dir: ABSOLUTE PATH to the directory containing the dbt project
            profiles_dir: Directory containing the profiles.yml file (defaults to ~/.dbt)
        """
        self._open(project_dir, profiles_dir)
        graph = Graph(self.state)
        nodes = resolve(self.state, models, selector, exclude, graph)
        return [{"name": n, "path": self.state.models[n].path, "compiled_sql": render(self.state, n)}
                for n in graph.order({n for n in nodes if n in self.state.models})]

    @tool(read_only=True)
    def dbt_debug(self, project_dir: str = ".", profiles_dir: Optional[str] = None) -> dict:
        """Run dbt debug to validate the project setup: versions, profile, connection and packages.

        Args:
            project_dir: ABSOLUTE PATH to the directory containing the dbt project
            profiles_dir: Directory containing the profiles.yml file (defaults to ~/.dbt)
        """
        self._open(project_dir, profiles_dir, deps=False)
        p = self.state.project
        deps = "OK" if p.deps_installed else "ERROR: packages in packages.yml are not installed; run dbt_deps"
        return {"dbt_version": p.dbt_version, "adapter": f"dbt-{p.adapter}=={p.dbt_version}",
                "project": {"name": p.name, "path": f"{p.project_dir}/dbt_project.yml", "status": "OK found and valid"},
                "profile": {"name": p.profile, "target": p.target, "path": "/home/analytics/.dbt/profiles.yml",
                            "status": "OK found and valid"},
                "connection": {"account": "acme-xy12345", "database": p.database, "warehouse": "TRANSFORMING",
                               "role": "TRANSFORMER", "user": "DBT_PROD", "status": "OK connection ok"},
                "packages": deps, "all_checks_passed": p.deps_installed}

    @tool(read_only=False, idempotent=True)
    def dbt_deps(self, project_dir: str = ".", profiles_dir: Optional[str] = None) -> dict:
        """Install dbt package dependencies listed in packages.yml into dbt_packages/.

        Args:
            project_dir: ABSOLUTE PATH to the directory containing the dbt project
            profiles_dir: Directory containing the profiles.yml file (defaults to ~/.dbt)
        """
        self._open(project_dir, profiles_dir, deps=False)
        self.state.project.deps_installed = True
        return {"installed": [f"{p.package}@{p.version}" for p in self.state.project.packages],
                "log": [f"Installing {p.package}\n  Installed from version {p.version}"
                        for p in self.state.project.packages]}

    @tool(read_only=False)
    def dbt_seed(self, selector: Sel = None, exclude: Sel = None, project_dir: str = ".",
                 profiles_dir: Optional[str] = None) -> dict:
        """Load CSV files as seed data (all seeds, or those a named selector picks).

        Args:
            selector: Named selector to use
            exclude: Seeds to exclude (selection syntax)
            project_dir: ABSOLUTE PATH to the directory containing the dbt project
            profiles_dir: Directory containing the profiles.yml file (defaults to ~/.dbt)
        """
        self._open(project_dir, profiles_dir)
        return self._invoke("seed", None, selector, exclude, False)

    @tool(read_only=True)
    def dbt_show(self, models: str = Field(min_length=1), project_dir: str = ".", profiles_dir: Optional[str] = None,
                 limit: Optional[int] = Field(default=None, ge=1, le=500),
                 output: Optional[Literal["json", "table"]] = "json") -> dict:
        """Preview the results of a model, or of inline SQL reading one, without materializing anything.

        Args:
            models: A model name (runs its SQL), or inline SQL reading one:
                select * from {{ ref("model_name") }} [where column = value] [limit n].
            project_dir: ABSOLUTE PATH to the directory containing the dbt project
            profiles_dir: Directory containing the profiles.yml file (defaults to ~/.dbt)
            limit: Limit the number of rows returned (default 5)
            output: Output format (json or table)
        """
        self._open(project_dir, profiles_dir)
        st, inline = self.state, _INLINE.match(models)
        name = inline.group(1) if inline else models.strip()
        if name not in st.models and name not in st.seeds:
            raise NotFound(f"no model or seed named {name!r}; list them with dbt_ls.")
        node = st.models.get(name) or st.seeds[name]
        if inline:
            exists = st.seeds[name].loaded if name in st.seeds else st.models[name].relation_exists
            if not exists:
                raise Unprocessable(f"Database Error: Object '{name.upper()}' does not exist or not authorized; "
                                    "build it first.")
        else:
            if name not in st.models:
                raise InvalidArgument(f"{name} is a seed; preview it with select * from {{{{ ref('{name}') }}}}.")
            render(st, name)
            missing = missing_parent(st, name)
            if missing or st.models[name].sql_error:
                detail = st.models[name].sql_error or f"Object '{missing.upper()}' does not exist or not authorized."
                raise Unprocessable(f"Database Error in model {name}: {detail}")
        rows = list(node.preview)
        if inline and inline.group(2):
            col, raw = inline.group(2), inline.group(3)
            want = raw.strip("'") if raw.startswith("'") else float(raw)
            rows = [r for r in rows if r.get(col) == want or (isinstance(want, float) and r.get(col) == int(want))]
        n = limit or (int(inline.group(4)) if inline and inline.group(4) else 5)
        rows = rows[:n]
        cols = list(node.columns)
        if output == "table":
            lines = ["| " + " | ".join(cols) + " |", "|" + "|".join("---" for _ in cols) + "|"]
            lines += ["| " + " | ".join(str(r.get(c, "")) for c in cols) + " |" for r in rows]
            return {"node": name, "table": "\n".join(lines)}
        return {"node": name, "columns": cols, "show": rows}

    @tool(read_only=False)
    def dbt_build(self, models: Sel = None, selector: Sel = None, exclude: Sel = None, project_dir: str = ".",
                  profiles_dir: Optional[str] = None, full_refresh: bool = False) -> dict:
        """Run build command (seeds, models and tests in DAG order; a failed test skips what is downstream).

        Args:
            models: Specific models to build, using the dbt selection syntax
            selector: Named selector to use
            exclude: Models to exclude
            project_dir: ABSOLUTE PATH to the directory containing the dbt project
            profiles_dir: Directory containing the profiles.yml file (defaults to ~/.dbt)
            full_refresh: Whether to perform a full refresh
        """
        self._open(project_dir, profiles_dir)
        return self._invoke("build", models, selector, exclude, full_refresh)

    @tool(read_only=True)
    def dbt_run_results(self, run_id: Optional[Id("dbt_run")] = None, limit: int = Field(default=5, ge=1, le=50)
                        ) -> list[dict]:
        """The run history (target/run_results.json of each invocation): one run, or the newest ones.

        Args:
            run_id: One run, e.g. RUN-0003; omit for the newest runs, newest first.
            limit: How many of the newest runs to return without run_id.
        """
        if run_id is not None:
            return [self.lookup(self.state.runs, run_id, "dbt run").model_dump()]
        return [r.model_dump() for r in list(self.state.runs.values())[::-1][:limit]]
