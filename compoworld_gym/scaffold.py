"""Drafting a new hand-written service from a real MCP server spec.

``compoworld scaffold-service <slug>`` starts the three files a built-in
service is made of (see ``docs/scaffold.md``), laid out as in the repository
under ``out`` (default: the current directory, so running it in the checkout
root puts them in place):

* ``envs/services/<name>.py``: the service. Its state is typed from the
  collections the MCP importer infers (:mod:`compoworld_gym.importer.plan`),
  one ``@tool`` method per spec tool with the spec's parameter names, JSON
  types and required set, docstrings from the spec's descriptions,
  ``spec_source`` set, and a seed-factory stub. Every tool body raises
  ``NotImplementedError`` until written; the interface already passes the
  spec conformance check (``tests/services/test_spec_conformance.py``).
* ``tests/services/test_<name>.py``: one failing test per tool to complete.
* ``compoworld_gym/generation/hooks/<name>.py``: a commented ``LINKS``
  skeleton (hook discovery skips a module without ``LINKS``).

Example:
    >>> from compoworld_gym.scaffold import draft_service, find_server
    >>> draft = draft_service(find_server("@chriscarrollsmith_taskqueue-mcp"), "task_queue")
    >>> draft.class_name, len(draft.tools)
    ('TaskQueue', 14)
"""

from __future__ import annotations

import difflib
import keyword
import re
import sys
import typing
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from compoworld_gym import catalog, entities
from compoworld_gym.importer.codegen import (
    Imports, annotation, default_source, docstring, one_line, py_literal, python_name, string_source)
from compoworld_gym.importer.inference import id_kind
from compoworld_gym.importer.names import identifier, tokens
from compoworld_gym.importer.patterns import READERS, shape_of
from compoworld_gym.importer.plan import ServerPlan, plan_server
from compoworld_gym.importer.validation import schema_problem
from compoworld_gym.jsonl import atomic_writer
from compoworld_gym.scaffold_drafts import hook_draft, tests_draft
from compoworld_gym.service import Record, Service
from compoworld_gym.specs import SPECS_PATH, load_specs

_NAME = re.compile(r"^[a-z][a-z0-9_]*$")
# Words a slug or server name carries that say nothing about the service.
_NOISE = frozenset({"mcp", "server", "servers", "model", "context", "protocol", "modelcontextprotocol"})
# Names a drafted module may import or define: a record class must not take one.
_MODULE_NAMES = frozenset(dir(typing)) | frozenset(dir(entities)) | {
    "Faker", "Field", "Record", "Service", "ServiceState", "dt", "random", "tool"}
# Method names a tool must not take: they would hide Service's own attributes.
_RESERVED = frozenset(dir(Service)) | {"state", "today"}


class UnknownSlug(LookupError):
    """The slug names no server of the bundled spec file; the message lists close slugs."""

    def __str__(self) -> str:
        return str(self.args[0])


class ScaffoldError(ValueError):
    """A draft cannot be written as asked (a bad or taken name, files in the way)."""


@dataclass
class ParamDraft:
    """One tool parameter: its Python name, the spec's name, annotation and default (None: required)."""

    name: str
    spec_name: str
    annotation: str
    default: str | None
    description: str
    schema: dict[str, Any]


@dataclass
class ToolDraft:
    """One drafted ``@tool`` method."""

    name: str
    method: str
    read_only: bool
    destructive: bool
    description: str
    params: list[ParamDraft]
    hint: str


@dataclass
class ServiceDraft:
    """A drafted service module and what a reader must know about it.

    Attributes:
        source: the module's text.
        notes: interface changes the draft had to make (non-Python names), one line each.
    """

    name: str
    class_name: str
    slug: str
    source: str
    tools: list[ToolDraft]
    plan: ServerPlan
    records: dict[str, str]
    notes: list[str] = field(default_factory=list)


@dataclass
class ScaffoldResult:
    """What :func:`scaffold_service` wrote: ``files`` (service, tests, hook) and the draft."""

    draft: ServiceDraft
    files: list[Path]


def close_slugs(slug: str, slugs: list[str], n: int = 5) -> list[str]:
    """Up to ``n`` slugs like ``slug``: those containing it (case-insensitive), then those
    sharing most of its words (``mcp``, ``server``... do not count); failing both, by spelling."""
    low = slug.lower().lstrip("@")
    contained = sorted(s for s in slugs if low and low in s.lower())
    words = {w for w in tokens(slug) if w not in _NOISE}
    shared = sorted(((len(words & set(tokens(s))), s) for s in slugs), key=lambda p: (-p[0], p[1]))
    near = contained + [s for k, s in shared if k]
    if not near:  # misspelt words: slugs holding a word spelt like one of the slug's
        vocabulary = sorted({w for s in slugs for w in tokens(s)})
        fixed = {m for w in words for m in difflib.get_close_matches(w, vocabulary, n=3, cutoff=0.75)}
        near = sorted(s for s in slugs if fixed & set(tokens(s)))
    return list(dict.fromkeys(near))[:n]


def find_server(slug: str) -> dict[str, Any]:
    """The bundled spec of server ``slug`` (``{"server", "slug", "category", "tools", ...}``).

    Raises:
        UnknownSlug: no such slug (the message lists close ones).
    """
    specs = load_specs()
    if slug in specs:
        return specs[slug]
    near = close_slugs(slug, sorted(specs))
    hint = f"; close: {', '.join(near)}" if near else " (and none close to it)"
    raise UnknownSlug(f"no MCP server with slug {slug!r} in {SPECS_PATH.name}{hint}")


def default_name(slug: str) -> str:
    """A service name from a slug: owner and filler words dropped (``@owner_hubspot-mcp`` → ``hubspot``)."""
    rest = slug.split("_", 1)[1] if slug.startswith("@") and "_" in slug else slug
    words = [w for w in tokens(rest) if w not in _NOISE]
    return identifier("_".join(words) or slug, fallback="service")


def _camel(name: str) -> str:
    return "".join(w.capitalize() for w in name.split("_") if w) or "Drafted"


def _props(schema: Any) -> dict[str, Any]:
    props = schema.get("properties") if isinstance(schema, dict) else None
    return props if isinstance(props, dict) else {}


def _params(tool: dict[str, Any], imp: Imports, notes: list[str]) -> list[ParamDraft]:
    schema = tool.get("inputSchema") or {}
    required = set(schema.get("required") or []) if isinstance(schema.get("required"), list) else set()
    context = frozenset(tokens(tool["name"]))
    taken: set[str] = {"self"}
    out = []
    for spec_name, prop in _props(schema).items():
        pname = python_name(spec_name, taken)
        taken.add(pname)
        ann = annotation(prop, imp, name=spec_name, context=context)
        default = None
        if spec_name not in required:
            default = default_source(prop, ann)
            if default is None:
                ann, default = (ann if ann == "Any" else f"{imp.use('typing', 'Optional')}[{ann}]"), "None"
        if pname != spec_name:  # not a Python name: the schema keeps the spec's name as the alias
            ann = (f"{imp.use('typing', 'Annotated')}[{ann}, "
                   f"{imp.use('pydantic', 'Field')}(alias={py_literal(spec_name)})]")
        out.append(ParamDraft(pname, spec_name, ann, default, one_line(prop.get("description"))
                              if isinstance(prop, dict) else "", prop if isinstance(prop, dict) else {}))
    return sorted(out, key=lambda p: p.default is not None)  # required first: Python needs it


def _hint(tool: str, plan: ServerPlan, records: dict[str, str]) -> str:
    op = plan.ops.get(tool)
    if op is None:
        return "no resource pattern the importer knows: decide what it reads and changes"
    coll = plan.collections[op.collection]
    target = f"self.state.{coll.field} ({records[op.collection]} by id)"
    return {"create": f"add a new record to {target}", "send": f"add a new record to {target}",
            "get": f"return one record of {target} (self.lookup gives the 404)",
            "list": f"return the records of {target} that match the filters",
            "search": f"return the records of {target} that match the query",
            "update": f"change one record of {target}", "delete": f"remove one record of {target}",
            }.get(op.verb, f"{op.verb} records of {target}")


def _tool(tool: dict[str, Any], plan: ServerPlan, records: dict[str, str], imp: Imports,
          methods: set[str], notes: list[str]) -> ToolDraft:
    method = python_name(tool["name"], methods | _RESERVED)
    methods.add(method)
    shape = shape_of(tool["name"])
    verb = shape.verb if shape else None
    return ToolDraft(name=tool["name"], method=method, read_only=verb in READERS, destructive=verb == "delete",
                     description=str(tool.get("description") or "").strip() or tool["name"],
                     params=_params(tool, imp, notes), hint=_hint(tool["name"], plan, records))


def _record_lines(plan: ServerPlan, records: dict[str, str], imp: Imports, notes: list[str]) -> list[str]:
    lines: list[str] = []
    for cname, coll in plan.collections.items():
        kind = id_kind(list(coll.noun))
        id_ann = "int" if coll.integer_ids else (f'{imp.use("compoworld_gym.entities", "Id")}("{kind}")'
                                                 if kind else "str")
        lines += ["", "", f"class {records[cname]}({imp.use('compoworld_gym.service', 'Record')}):",
                  f'    """{"An" if coll.noun[0][0] in "aeiou" else "A"} {" ".join(coll.noun)} '
                  f'(fields from the spec\'s {", ".join(coll.creators)} schemas)."""',
                  "", f'    id: {id_ann} = {imp.use("pydantic", "Field")}(description="Record id.")']
        taken = {"id"} | set(dir(Record))  # a field must not hide a model attribute
        for fname, prop in coll.properties.items():
            py = python_name(fname, taken)
            taken.add(py)
            if py != fname:
                notes.append(f"{records[cname]}: field {fname!r} is {py!r} here (not a usable field name)")
            ann = annotation(prop, imp, name=fname, collection_kind=kind)
            desc = one_line(prop.get("description") if isinstance(prop, dict) else "") or "TODO: describe."
            if fname not in coll.required:
                ann = ann if ann == "Any" else f"{imp.use('typing', 'Optional')}[{ann}]"
            default = "" if fname in coll.required else "default=None, "
            line = f"    {py}: {ann} = Field({default}description={py_literal(desc)})"
            lines.append(line if len(line) <= 100 else
                         f"    {py}: {ann} = Field({default}description={string_source(desc, '    ')})")
    return lines


def _method_lines(t: ToolDraft) -> list[str]:
    flags = [f"read_only={t.read_only}"] + (["destructive=True"] if t.destructive else [])
    if t.method != t.name:
        flags.append(f"name={py_literal(t.name)}")
    params = ["self"] + [f"{p.name}: {p.annotation}" + (f" = {p.default}" if p.default else "") for p in t.params]
    returns = "list[dict]" if (shape_of(t.name) and shape_of(t.name).verb in ("list", "search")) else "dict"
    head = f"    def {t.method}({', '.join(params)}) -> {returns}:"
    if len(head) > 110:
        head = "\n".join([f"    def {t.method}(", *[f"        {p}," for p in params], f"    ) -> {returns}:"])
    guess = "" if shape_of(t.name) else "  # TODO: read-only? the tool name does not say"
    return ["", f"    @tool({', '.join(flags)}){guess}", head,
            *docstring(t.description, [(p.name, p.description) for p in t.params], " " * 8),
            f"        # TODO: {t.hint}.",
            f'        raise NotImplementedError("{t.method} is a draft")']


def draft_service(server: dict[str, Any], name: str) -> ServiceDraft:
    """The module text of a service ``name`` implementing ``server``'s spec (nothing is written).

    Args:
        server: one line of the bundled spec file (see :func:`find_server`).
        name: the service name (snake_case).
    """
    imp, notes = Imports(), []
    tools = list({t["name"]: t for t in reversed(server["tools"])}.values())[::-1]  # first of duplicates
    plan = plan_server({t["name"]: t.get("inputSchema") or {} for t in tools
                        if schema_problem(t.get("inputSchema") or {}) is None})
    cls = _camel(name)
    used = {cls, f"{cls}State"} | _MODULE_NAMES
    records = {}
    for cname, coll in plan.collections.items():
        rec = python_name("".join(w.capitalize() for w in coll.noun), used)
        used.add(rec)
        records[cname] = rec
    methods: set[str] = set()
    drafts = [_tool(t, plan, records, imp, methods, notes) for t in tools]
    record_lines = _record_lines(plan, records, imp, notes)
    body = _module_body(server, name, cls, plan, records, drafts, imp)
    header = [f'"""{server["server"]}: a service following the MCP server ``{server["slug"]}``.', "",
              f"Drafted by ``compoworld scaffold-service {server['slug']}`` from its spec in",
              "``compoworld_gym/data/mcp_servers.jsonl``"
              + (f" ({server['repository']}, {server.get('license')})." if server.get("repository") else "."),
              "TODO: say what the service keeps, its business rules and where it departs from the", "server.",
              '"""', "", "from __future__ import annotations", "", *imp.lines()]
    source = "\n".join(_tidy([*header, *record_lines, *body])) + "\n"
    return ServiceDraft(name, cls, server["slug"], source, drafts, plan, records, notes)


def _module_body(server: dict[str, Any], name: str, cls: str, plan: ServerPlan, records: dict[str, str],
                 drafts: list[ToolDraft], imp: Imports) -> list[str]:
    imp.use("compoworld_gym.service", "Service")
    imp.use("compoworld_gym.service", "tool")
    state_base = imp.use("compoworld_gym.service", "ServiceState")
    imp.use("faker", "Faker")
    fields = [f"    {c.field}: dict[str, {records[n]}] = Field(default_factory=dict, "
              f'description="{" ".join(c.noun).capitalize()} records by id.")' for n, c in plan.collections.items()]
    if fields:
        imp.use("pydantic", "Field")
    domain = identifier(server.get("category") or "", fallback="other")
    lines = ["", "", f"class {cls}State({state_base}):",
             f'    """What the {name} service keeps."""', "",
             *(fields or ["    # TODO: the records the tools read and change (no resource pattern was found)."]),
             "", "", f"class {cls}(Service):", f'    """{one_line(server["server"])}: TODO one line."""', "",
             f'    name = "{name}"',
             f"    description = {py_literal(one_line(server['server']) + ': TODO one sentence on what it keeps.')}",
             f'    domain = "{domain}"  # TODO: the kind of work, as the other services name it',
             f"    spec_source = {py_literal(server['slug'])}", f"    State = {cls}State", "",
             "    @classmethod",
             f"    def build_seed_state(cls, fake: Faker, rng: random.Random, today: dt.date) -> {cls}State:",
             '        """The seeded initial state: realistic records drawn with ``fake`` and ``rng`` only."""',
             f"        state = {cls}State()",
             "        # TODO: a handful of records per collection (state.<records>[rid] = <Record>(id=rid, ...))",
             '        # and state.counters["<PREFIX>"] = <next number>, so that self.new_id continues after them.',
             "        return state"]
    for t in drafts:
        lines += _method_lines(t)
    return lines


def _tidy(lines: list[str]) -> list[str]:
    """Drop the empty import groups' extra blank lines (never more than two in a row)."""
    out: list[str] = []
    for line in lines:
        if line == "" and len(out) >= 2 and out[-1] == "" and out[-2] == "":
            continue
        out.append(line)
    return out


def check_name(name: str, module_path: Path) -> None:
    """Refuse a service name that is not snake_case or that another service has.

    Args:
        name: the service name.
        module_path: where the drafted module goes; a service defined in that
            very file is the one a ``--force`` draft replaces, so its name is free.

    Raises:
        ScaffoldError: the name is invalid or taken by another service.
    """
    if not _NAME.match(name) or keyword.iskeyword(name):
        raise ScaffoldError(f"service name {name!r} must be snake_case (a-z, 0-9, _; a letter first)")
    try:
        existing = catalog.get_service(name)
    except catalog.UnknownService:
        return
    defined_in = getattr(sys.modules.get(existing.__module__), "__file__", None)
    if defined_in is None or Path(defined_in).resolve() != module_path.resolve():
        raise ScaffoldError(f"service name {name!r} is taken by {existing.__module__}.{existing.__qualname__}; "
                            "pick another with --name")


def draft_paths(name: str, out: Path) -> list[Path]:
    """Where the drafts go under ``out``: service module, tests file, hook."""
    return [out / "envs" / "services" / f"{name}.py", out / "tests" / "services" / f"test_{name}.py",
            out / "compoworld_gym" / "generation" / "hooks" / f"{name}.py"]


def scaffold_service(slug: str, *, name: str | None = None, out: Path | str = ".",
                     force: bool = False) -> ScaffoldResult:
    """Write the three draft files of a service following server ``slug``.

    Args:
        slug: a ``slug`` of ``compoworld_gym/data/mcp_servers.jsonl``.
        name: the service name; default :func:`default_name` of the slug.
        out: the directory the repository-relative paths are laid out under.
        force: overwrite existing files.

    Raises:
        UnknownSlug: no server has that slug.
        ScaffoldError: a bad or taken name, or (without ``force``) existing files.
        OSError: a file cannot be written (each file is replaced atomically).
    """
    server = find_server(slug)
    name = name or default_name(slug)
    out = Path(out)
    paths = draft_paths(name, out)
    check_name(name, paths[0])
    existing = [str(p) for p in paths if p.exists()]
    if existing and not force:
        raise ScaffoldError(f"refusing to overwrite {', '.join(existing)} (pass --force to overwrite)")
    draft = draft_service(server, name)
    texts = [draft.source, tests_draft(draft), hook_draft(draft)]
    for path, text in zip(paths, texts):
        path.parent.mkdir(parents=True, exist_ok=True)
        with atomic_writer(path) as fh:
            fh.write(text)
    return ScaffoldResult(draft=draft, files=paths)
