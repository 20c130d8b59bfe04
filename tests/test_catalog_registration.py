"""Service registration: services of service packages register themselves when
defined; everything else registers explicitly; the catalog imports nothing upward."""

from __future__ import annotations

import ast
import inspect
import sys
import textwrap

import pytest

from compoworld_gym import catalog
from compoworld_gym.envs.services import BUILTIN_SERVICES
from compoworld_gym.service import Service, ServiceState

#: The built-in services of the library when registration moved into the classes.
KNOWN_BUILTIN = (
    "calendar", "contracts", "crm", "customer_feedback", "database", "deployments", "drive", "expenses",
    "feature_flags", "field_service", "flights", "forms", "github", "gmail", "helpdesk", "hotels",
    "hr_directory", "inventory", "invoicing", "knowledge_base", "leave", "ledger", "maps", "marketing",
    "meeting_rooms", "memory_graph", "messaging", "monitoring", "orders", "payments", "payroll",
    "procurement", "product_catalog", "shipping", "slack", "social", "spreadsheets", "status_page",
    "task_board", "wiki",
)

_PLUGIN_SERVICE = '''
from compoworld_gym.service import Service, ServiceState, tool


class Base(Service):
    """No name of its own: a base, never a service."""

    State = ServiceState


class Hidden(Service, register=False):
    name = "cwplug_hidden"
    description = "Opted out."
    domain = "test"
    State = ServiceState


class Notes(Base):
    name = "cwplug_notes"
    description = "Plugin notes."
    domain = "test"

    @tool(read_only=True)
    def ping(self) -> dict:
        """Answer pong."""
        return {"pong": True}


class NotesVariant(Notes):
    """Inherits the name: not a second service."""
'''


class Probe(Service):
    """Defined in a test module: must never reach the catalog by itself."""

    name = "cw_probe_local"
    description = "A test-only service."
    domain = "test"
    State = ServiceState


@pytest.fixture
def plugin(tmp_path, monkeypatch):
    """An installed distribution ``cwplug`` whose entry point names the package ``cwplug``."""
    pkg = tmp_path / "cwplug"
    pkg.mkdir()
    (pkg / "__init__.py").write_text('"""A third-party service package."""\n')
    (pkg / "notes.py").write_text(textwrap.dedent(_PLUGIN_SERVICE))
    (pkg / "_helpers.py").write_text("raise RuntimeError('helpers are not imported by discovery')\n")
    info = tmp_path / "cwplug-0.1.dist-info"
    info.mkdir()
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: cwplug\nVersion: 0.1\n")
    (info / "entry_points.txt").write_text(f"[{catalog.ENTRY_POINT_GROUP}]\ncwplug = cwplug\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    catalog.plugin_packages.cache_clear()
    monkeypatch.setitem(catalog._state, "loaded", False)  # noqa: SLF001 - as a fresh process
    yield "cwplug"
    for name in ("cwplug_notes", "cwplug_hidden"):
        catalog._DEFINED.pop(name, None)  # noqa: SLF001 - leave the catalog as other tests expect it
    catalog._LOADED.discard("cwplug")  # noqa: SLF001
    for mod in [m for m in sys.modules if m == "cwplug" or m.startswith("cwplug.")]:
        del sys.modules[mod]
    monkeypatch.undo()
    catalog.plugin_packages.cache_clear()


def test_builtin_library_is_unchanged():
    names = [cls.name for cls in BUILTIN_SERVICES]
    assert len(names) >= 40
    assert names == sorted(names)
    assert set(KNOWN_BUILTIN) <= set(names)
    assert all(cls.__module__.startswith(catalog.BUILTIN_PACKAGE + ".") for cls in BUILTIN_SERVICES)
    assert set(names) <= set(catalog.service_names())
    assert catalog.get_service("helpdesk") is next(c for c in BUILTIN_SERVICES if c.name == "helpdesk")


def test_test_defined_classes_stay_out_of_the_catalog():
    assert "cw_probe_local" not in catalog.service_names()
    with pytest.raises(catalog.UnknownService, match="unknown service 'cw_probe_local'"):
        catalog.get_service("cw_probe_local")
    # Every registered-on-definition service comes from a service package: the
    # Service subclasses other test modules define inline (Shop, Lists, Boxes...) are not there.
    assert all(catalog.in_service_package(c.__module__) for c in catalog._DEFINED.values())  # noqa: SLF001


def test_register_service_adds_refuses_duplicates_and_unregisters():
    assert catalog.register_service(Probe) is Probe
    try:
        assert catalog.get_service("cw_probe_local") is Probe
        assert "cw_probe_local" in catalog.service_names()
        assert catalog.register_service(Probe) is Probe  # the same class again is a no-op
        twin = type("Twin", (Service,), {"name": "cw_probe_local", "description": "d", "domain": "test",
                                        "State": ServiceState})
        with pytest.raises(ValueError, match="'cw_probe_local' is already taken by Probe"):
            catalog.register_service(twin)
        assert catalog.register_service(twin, replace=True) is twin
        assert catalog.get_service("cw_probe_local") is twin
    finally:
        catalog.unregister_service("cw_probe_local")
    assert "cw_probe_local" not in catalog.service_names()


def test_replacing_a_builtin_name_and_unregistering_restores_it():
    helpdesk = catalog.get_service("helpdesk")
    other = type("OtherHelpdesk", (Service,), {"name": "helpdesk", "description": "d", "domain": "test",
                                                "State": ServiceState})
    with pytest.raises(ValueError, match="'helpdesk' is already taken"):
        catalog.register_service(other)
    catalog.register_service(other, replace=True)
    try:
        assert catalog.get_service("helpdesk") is other
    finally:
        assert catalog.unregister_service("helpdesk") is other
    assert catalog.get_service("helpdesk") is helpdesk


def test_register_service_needs_a_name():
    with pytest.raises(TypeError, match="has no service name"):
        catalog.register_service(type("Nameless", (Service,), {"State": ServiceState}))


def test_entry_point_package_registers_its_services_on_definition(plugin):
    assert plugin in catalog.plugin_packages()
    names = catalog.service_names()  # loads the built-in library, then the entry-point package
    assert "cwplug_notes" in names and "cwplug_hidden" not in names
    assert set(KNOWN_BUILTIN) <= set(names)
    notes = catalog.get_service("cwplug_notes")
    assert (notes.__module__, notes.__qualname__) == ("cwplug.notes", "Notes")
    assert catalog.services_in(plugin) == [notes]
    assert notes.seeded(0, today=__import__("datetime").date(2026, 1, 15)).call("ping", {}) == {
        "success": True, "data": {"pong": True}}


def test_a_service_defined_in_a_service_package_registers_at_once(plugin):
    module = type(sys)("cwplug.late")  # a module of the package, defined after loading
    exec(compile("from compoworld_gym.service import Service, ServiceState\n"
                 "class Late(Service):\n name = 'cwplug_late'\n description = 'd'\n domain = 'test'\n"
                 " State = ServiceState\n", "cwplug/late.py", "exec"), vars(module))
    try:
        assert catalog._DEFINED["cwplug_late"] is module.Late  # noqa: SLF001
        # A second class of another module with that name is refused when it is defined.
        clash = type(sys)("cwplug.clash")
        with pytest.raises(ValueError, match="'cwplug_late' of cwplug.clash.Late is already taken by cwplug.late.Late"):
            exec(compile("from compoworld_gym.service import Service, ServiceState\n"
                         "class Late(Service):\n name = 'cwplug_late'\n description = 'd'\n domain = 'test'\n"
                         " State = ServiceState\n", "cwplug/clash.py", "exec"), vars(clash))
    finally:
        catalog._DEFINED.pop("cwplug_late", None)  # noqa: SLF001


def test_a_broken_plugin_package_is_named_in_the_error(plugin, tmp_path):
    (tmp_path / "cwplug" / "broken.py").write_text("import not_a_module_anywhere\n")
    with pytest.raises(ImportError) as info:
        catalog.service_names()
    assert "while loading the service package 'cwplug' (entry point compoworld_gym.services)" in info.value.__notes__
    assert catalog._state["loaded"] is False  # noqa: SLF001 - the next call tries again


def test_get_service_is_a_dict_lookup_once_loaded(monkeypatch):
    catalog.service_names()

    def no_loading():
        raise AssertionError("get_service loaded packages for a known name")

    monkeypatch.setattr(catalog, "load_service_packages", no_loading)
    assert catalog.get_service("gmail").name == "gmail"


def test_catalog_has_no_function_local_imports():
    tree = ast.parse(inspect.getsource(catalog))
    local = [node.lineno for fn in ast.walk(tree) if isinstance(fn, (ast.FunctionDef, ast.AsyncFunctionDef))
             for node in ast.walk(fn) if isinstance(node, (ast.Import, ast.ImportFrom))]
    assert local == []
    top = [node for node in tree.body
           if isinstance(node, ast.ImportFrom) and (node.module or "").startswith("compoworld_gym")]
    assert top == []  # only under TYPE_CHECKING: the catalog sits below service.py
