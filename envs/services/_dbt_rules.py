"""How dbt executes: building models, loading seeds and running data tests
in dependency order, with dbt's rules.

* a model whose parent errored or was skipped in the same invocation is
  skipped ("upstream failure"); in ``dbt build`` so is a model whose parent
  failed an error-severity test;
* a model whose parent relation does not exist in the warehouse (a seed never
  loaded, a model never built) fails with a database error;
* a model with a standing SQL error fails every time;
* an incremental model with ``on_schema_change: fail`` whose upstream columns
  changed fails until it is built with ``--full-refresh`` (which rebuilds it
  and clears the drift);
* a test on a missing relation errors; otherwise it fails (severity error) or
  warns (severity warn) when its query returns rows, and passes on none.

:func:`render` turns a model's Jinja SQL into the compiled SQL.
"""

from __future__ import annotations

import datetime as dt
import re
from typing import Optional

from compoworld_gym.envs.services._dbt_models import (
    PROJECT, DbtModel, DbtRun, DbtState, DbtTest, NodeResult, refs_of,
)
from compoworld_gym.envs.services._dbt_select import Graph
from compoworld_gym.errors import Unprocessable

_BAD = ("error", "skipped")


def uid(kind: str, name: str) -> str:
    """dbt's unique id of a node, e.g. ``model.acme_analytics.fct_orders``."""
    return f"{kind}.{PROJECT}.{name}"


def seconds(rows: int) -> float:
    """A deterministic execution time for a node writing ``rows`` rows."""
    return round(0.4 + rows / 250_000, 2)


def relation(state: DbtState, name: str) -> str:
    """The warehouse relation a ref renders to (``analytics.<schema>.<name>``; seeds in ``seeds``)."""
    schema = state.models[name].schema_name if name in state.models else "seeds"
    return f"{state.project.database}.{schema}.{name}"


def require_deps(state: DbtState) -> None:
    """Refuse to parse the project while packages.yml is not installed.

    Raises:
        Unprocessable: 422 telling the agent to run dbt_deps.
    """
    if not state.project.deps_installed:
        n = len(state.project.packages)
        raise Unprocessable(f"Compilation Error: dbt found {n} package(s) specified in packages.yml, but only 0 "
                            "package(s) installed in dbt_packages. Run dbt_deps to install package dependencies.")


def missing_parent(state: DbtState, name: str) -> Optional[str]:
    """A parent of model ``name`` whose relation does not exist in the warehouse (a seed not loaded,
    a model never built), looking through ephemeral models; None when all exist."""
    for p in refs_of(state.models[name].raw_sql):
        if p in state.seeds and not state.seeds[p].loaded:
            return p
        if p in state.models:
            pm = state.models[p]
            if pm.materialized == "ephemeral":
                hit = missing_parent(state, p)
                if hit:
                    return hit
            elif not pm.relation_exists:
                return p
    return None


class Execution:
    """One invocation: runs nodes against the state and records their results in ``run``."""

    def __init__(self, state: DbtState, graph: Graph, run: DbtRun, at: dt.datetime) -> None:
        self.state, self.graph, self.run, self.at = state, graph, run, at
        self.status: dict[str, str] = {}
        self.test_failed: set[str] = set()  # models with a failed error-severity test in this build

    def _record(self, result: NodeResult) -> None:
        self.run.results.append(result)
        self.run.elapsed = round(self.run.elapsed + result.execution_time, 2)

    def _blocker(self, name: str) -> Optional[str]:
        """The parent (through ephemeral models) that failed or was skipped in this invocation."""
        for p in refs_of(self.state.models[name].raw_sql):
            if self.status.get(p) in _BAD or p in self.test_failed:
                return p
            if p in self.state.models and self.state.models[p].materialized == "ephemeral":
                hit = self._blocker(p)
                if hit:
                    return hit
        return None

    def seed(self, name: str) -> None:
        """Load a seed's CSV (always succeeds)."""
        s = self.state.seeds[name]
        s.loaded, s.loaded_at = True, self.at
        self.status[name] = "success"
        self._record(NodeResult(unique_id=uid("seed", name), name=name, resource_type="seed", status="success",
                                message=f"INSERT {s.row_count}", execution_time=seconds(s.row_count),
                                rows_affected=s.row_count))

    def _outcome(self, m: DbtModel) -> tuple[str, str]:
        blocker = self._blocker(m.name)
        if blocker:
            return "skipped", f"SKIP relation {m.schema_name}.{m.name} due to upstream failure of {blocker}"
        missing = missing_parent(self.state, m.name)
        if missing:
            return "error", (f"Database Error in model {m.name} ({m.path})\n  002003 (42S02): SQL compilation "
                             f"error: Object '{relation(self.state, missing).upper()}' does not exist or not "
                             "authorized.")
        if m.sql_error:
            return "error", f"Database Error in model {m.name} ({m.path})\n  {m.sql_error}"
        if (m.materialized == "incremental" and m.relation_exists and m.schema_drift and not self.run.full_refresh
                and m.on_schema_change == "fail"):
            return "error", (f"Compilation Error in model {m.name} ({m.path})\n  The source and target schemas on "
                             "this incremental model are out of sync! They can be reconciled in several ways: set "
                             "the on_schema_change config to append_new_columns or sync_all_columns, or re-run the "
                             "incremental model with full_refresh: True to update the target schema.")
        verb = {"view": "CREATE VIEW", "table": f"SUCCESS {m.row_count}", "incremental": f"MERGE {m.row_count}"}
        return "success", verb[m.materialized]

    def model(self, name: str) -> None:
        """Build one model (ephemeral models are compiled into their children, never run)."""
        m = self.state.models[name]
        if m.materialized == "ephemeral":
            return
        status, message = self._outcome(m)
        self.status[name] = status
        m.last_status, m.last_run_id, m.last_run_at, m.last_message = status, self.run.id, self.at, message
        if status == "success":
            m.relation_exists, m.schema_drift, m.last_success_on = True, False, self.at.date()
        self._record(NodeResult(unique_id=uid("model", name), name=name, resource_type="model", status=status,
                                message=message, execution_time=0.0 if status == "skipped" else seconds(m.row_count),
                                rows_affected=m.row_count if status == "success" else None))

    def _exists(self, name: Optional[str]) -> bool:
        if name is None or name not in self.state.models:
            return name is None or (name in self.state.seeds and self.state.seeds[name].loaded)
        m = self.state.models[name]
        return m.materialized == "ephemeral" or m.relation_exists

    def test(self, name: str) -> None:
        """Run one data test."""
        t: DbtTest = self.state.tests[name]
        parents = [p for p in (t.model, t.to) if p]
        blocked = next((p for p in parents if self.status.get(p) in _BAD), None)
        if blocked:
            status, message, failures = "skipped", f"SKIP test {name} due to upstream failure of {blocked}", None
        elif not all(self._exists(p) for p in parents):
            missing = next(p for p in parents if not self._exists(p))
            status, message, failures = "error", (f"Database Error in test {name}: Object "
                                                  f"'{relation(self.state, missing).upper()}' does not exist."), None
        elif t.failures == 0:
            status, message, failures = "pass", "", 0
        else:
            status = "fail" if t.severity == "error" else "warn"
            message, failures = f"Got {t.failures} results, configured to {status} if != 0", t.failures
        if status in ("fail", "error"):
            self.test_failed.add(t.model)
        t.last_status, t.last_run_id = status, self.run.id
        self._record(NodeResult(unique_id=uid("test", name), name=name, resource_type="test", status=status,
                                message=message, execution_time=0.0 if status == "skipped" else 0.35,
                                failures=failures))

    def finish(self) -> DbtRun:
        """Close the run: error when any node errored or a test failed; store it."""
        bad = any(r.status in ("error", "fail") for r in self.run.results)
        self.run.status = "error" if bad else "success"
        self.state.runs[self.run.id] = self.run
        return self.run


def tests_for(state: DbtState, nodes: set[str]) -> list[str]:
    """The tests a selection picks up: those on a selected model (dbt's eager indirect selection)."""
    return sorted(n for n, t in state.tests.items() if t.model in nodes or (t.to is not None and t.to in nodes))


def execute(state: DbtState, graph: Graph, run: DbtRun, at: dt.datetime, nodes: set[str]) -> DbtRun:
    """Run ``run.command`` on the selected ``nodes`` and store the run.

    ``run`` executes the selected models; ``seed`` the selected seeds; ``test`` the tests on the
    selected nodes; ``build`` seeds and models in DAG order, each model's tests right after their
    last parent, so that a failed test skips what is downstream.
    """
    ex = Execution(state, graph, run, at)
    cmd = run.command
    ordered = graph.order({n for n in nodes if n in state.models or n in state.seeds})
    if cmd == "test":
        for name in tests_for(state, nodes):
            ex.test(name)
        return ex.finish()
    pending = tests_for(state, nodes) if cmd == "build" else []
    for node in ordered:
        if node in state.seeds and cmd in ("seed", "build"):
            ex.seed(node)
        elif node in state.models and cmd in ("run", "build"):
            ex.model(node)
        done = set(ex.status) | {n for n in state.models if state.models[n].materialized == "ephemeral"}
        for name in [t for t in pending if all(p in done or p not in nodes
                                             for p in (state.tests[t].model, state.tests[t].to) if p)]:
            pending.remove(name)
            ex.test(name)
    for name in pending:  # tests whose parents were not run
        ex.test(name)
    return ex.finish()


def log_lines(run: DbtRun, state: DbtState) -> list[str]:
    """The console lines dbt prints for a run, and its summary line."""
    lines, n = [], len(run.results)
    for i, r in enumerate(run.results, start=1):
        if r.resource_type == "model":
            m = state.models[r.name]
            what = f"sql {m.materialized} model {m.schema_name}.{r.name}"
            head = {"success": f"OK created {what}", "error": f"ERROR creating {what}",
                    "skipped": f"SKIP relation {m.schema_name}.{r.name}"}[r.status]
        elif r.resource_type == "seed":
            head = f"OK loaded seed file seeds.{r.name}"
        else:
            head = {"pass": "PASS", "fail": f"FAIL {r.failures}", "warn": f"WARN {r.failures}", "error": "ERROR",
                    "skipped": "SKIP"}[r.status] + f" {r.name}"
        ok = r.status in ("success", "pass") or r.resource_type == "seed"
        tag = r.message.split("\n")[0] if ok else r.status.upper()
        lines.append(f"{i} of {n} {head} ... [{tag} in {r.execution_time:.2f}s]")
    count = {k: sum(r.status in v for r in run.results) for k, v in
             (("PASS", ("success", "pass")), ("WARN", ("warn",)), ("ERROR", ("error", "fail")), ("SKIP", ("skipped",)))}
    lines.append("Done. " + " ".join(f"{k}={v}" for k, v in count.items()) + f" TOTAL={n}")
    return lines


# ------------------------------------------------------------------ compile
_CONFIG = re.compile(r"\{\{\s*config\(.*?\)\s*\}\}\s*", re.S)
_INCREMENTAL = re.compile(r"\{%-?\s*if\s+is_incremental\(\)\s*-?%\}(.*?)\{%-?\s*endif\s*-?%\}", re.S)
_REF = re.compile(r"""\{\{\s*ref\(\s*['"](\w+)['"]\s*\)\s*\}\}""")
_SOURCE = re.compile(r"""\{\{\s*source\(\s*['"](\w+)['"]\s*,\s*['"](\w+)['"]\s*\)\s*\}\}""")
_THIS = re.compile(r"\{\{\s*this\s*\}\}")
_SURROGATE = re.compile(r"\{\{\s*dbt_utils\.generate_surrogate_key\(\[([^\]]*)\]\)\s*\}\}")


def render(state: DbtState, name: str, full_refresh: bool = False) -> str:
    """The compiled SQL of model ``name``: refs and sources resolved to relations, config removed,
    ``is_incremental()`` blocks kept only for an incremental build of an existing relation.

    Raises:
        Unprocessable: a ref to a node the project does not have (422).
    """
    m = state.models[name]
    sql = _CONFIG.sub("", m.raw_sql)
    incremental = m.materialized == "incremental" and m.relation_exists and not full_refresh
    sql = _INCREMENTAL.sub(lambda g: g.group(1) if incremental else "", sql)

    def ref(g: re.Match) -> str:
        target = g.group(1)
        if target not in state.models and target not in state.seeds:
            raise Unprocessable(f"Compilation Error in model {name} ({m.path}): model '{name}' depends on a node "
                                f"named '{target}' which was not found.")
        if target in state.models and state.models[target].materialized == "ephemeral":
            return f"__dbt__cte__{target}"
        return relation(state, target)

    def source(g: re.Match) -> str:
        key = f"{g.group(1)}.{g.group(2)}"
        if key not in state.sources:
            raise Unprocessable(f"Compilation Error in model {name}: source '{key}' was not found.")
        return state.sources[key].relation

    def surrogate(g: re.Match) -> str:
        cols = [c.strip().strip("'\"") for c in g.group(1).split(",") if c.strip()]
        parts = " || '-' || ".join(f"coalesce(cast({c} as varchar), '_dbt_utils_surrogate_key_null_')" for c in cols)
        return f"md5(cast({parts} as varchar))"

    sql = _SOURCE.sub(source, _REF.sub(ref, sql))
    sql = _SURROGATE.sub(surrogate, _THIS.sub(relation(state, name), sql))
    return sql.strip()
