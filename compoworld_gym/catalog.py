"""The catalog: every service the suite can mount, by name.

Services get in two ways:

* **On definition.** A concrete :class:`~compoworld_gym.service.Service`
  subclass (one that sets its own ``name``) registers itself when its class
  statement runs, if its module lies in a *service package*: the built-in
  library :data:`BUILTIN_PACKAGE` or a package an installed distribution
  names in the :data:`ENTRY_POINT_GROUP` entry-point group. A base class
  in such a package that must never be mounted says
  ``class Base(Service, register=False)``.
* **Explicitly**, with :func:`register_service` (also a class decorator):
  MCP-imported services and classes defined anywhere else (a script, a
  notebook, a test). Classes outside service packages never register by
  themselves, so a test's throw-away service cannot leak into the catalog.

The service packages are loaded in one place, :func:`load_service_packages`:
the first call that needs the full catalog (:func:`service_names`, a name
:func:`get_service` does not know yet, :func:`register_service`) imports the
built-in library, then each entry-point package in name order. A third-party
package declares itself in its ``pyproject.toml``::

    [project.entry-points."compoworld_gym.services"]
    my_services = "my_package.services"

This module sits below :mod:`compoworld_gym.service` (which calls
:func:`register_defined`) and imports nothing of the package at load time.
"""

from __future__ import annotations

import functools
import importlib
import pkgutil
from importlib.metadata import entry_points
from typing import TYPE_CHECKING, Any, Optional

if TYPE_CHECKING:
    from compoworld_gym.service import Service

#: The built-in library of hand-written services (``envs/services`` in the checkout).
BUILTIN_PACKAGE = "compoworld_gym.envs.services"
#: Entry-point group through which installed distributions add service packages.
ENTRY_POINT_GROUP = "compoworld_gym.services"

# Services of service packages, registered on definition (the built-in library
# and entry-point packages); and services registered by register_service, which
# win over the former (the importer may replace a built-in name on purpose).
_DEFINED: dict[str, type[Service]] = {}
_EXTRA: dict[str, type[Service]] = {}
_LOADED: set[str] = set()
_state = {"loaded": False}


class UnknownService(KeyError):
    """Raised when a service name is not in the catalog."""

    def __str__(self) -> str:  # KeyError quotes its message otherwise
        return str(self.args[0])


def _under(module: str, package: str) -> bool:
    return module == package or module.startswith(package + ".")


@functools.lru_cache(maxsize=1)
def plugin_packages() -> tuple[str, ...]:
    """Module names the :data:`ENTRY_POINT_GROUP` entry points name, sorted by entry-point name.

    Read once per process (installed metadata does not change under a running
    program); ``plugin_packages.cache_clear()`` reads it again.
    """
    eps = sorted(entry_points(group=ENTRY_POINT_GROUP), key=lambda ep: ep.name)
    return tuple(dict.fromkeys(ep.module for ep in eps))


def in_service_package(module: str) -> bool:
    """Whether ``module`` (a dotted module name) lies in a service package."""
    # The built-in prefix first: defining the library never reads installed metadata.
    return _under(module, BUILTIN_PACKAGE) or any(_under(module, p) for p in plugin_packages())


def register_defined(cls: type[Service]) -> None:
    """Register ``cls`` if it is a concrete service of a service package (else do nothing).

    Called by ``Service.__init_subclass__`` for every new subclass; a class
    that does not set its own ``name`` (an abstract base, a variant that
    inherits it) is not a service of its own.

    Raises:
        ValueError: another service of a service package already has this name.
    """
    if "name" not in vars(cls) or not in_service_package(cls.__module__):
        return
    existing = _DEFINED.get(cls.name)
    # The same class statement run again (importlib.reload) replaces itself.
    same = existing is not None and (existing.__module__, existing.__qualname__) == (cls.__module__, cls.__qualname__)
    if existing is not None and not same:
        raise ValueError(f"service name {cls.name!r} of {cls.__module__}.{cls.__qualname__} is already "
                         f"taken by {existing.__module__}.{existing.__qualname__}")
    _DEFINED[cls.name] = cls


def load_service_package(package: str) -> list[type[Service]]:
    """Import a service package and its modules; the services defined in it.

    A package's modules are imported in sorted order, except those whose name
    starts with ``_`` (helpers); a plain module is imported alone. Importing
    again is cheap (modules import once).

    Returns:
        The package's services registered on definition, sorted by name.

    Raises:
        ImportError: the package or one of its modules does not import.
        ValueError: two services share a name.
    """
    module = importlib.import_module(package)
    if package not in _LOADED:
        for mod in sorted(pkgutil.iter_modules(getattr(module, "__path__", [])), key=lambda m: m.name):
            if not mod.name.startswith("_"):
                importlib.import_module(f"{package}.{mod.name}")
        _LOADED.add(package)
    return services_in(package)


def services_in(package: str) -> list[type[Service]]:
    """Services registered on definition from ``package`` (or its subpackages), sorted by name."""
    return [c for _, c in sorted(_DEFINED.items()) if _under(c.__module__, package)]


def load_service_packages() -> None:
    """Load the built-in library and every entry-point service package (once per process).

    Raises:
        ImportError: a service package does not import (the error names it).
        ValueError: two services share a name.
    """
    if _state["loaded"]:
        return
    _state["loaded"] = True  # first: loading defines classes, and a plugin may ask the catalog
    try:
        for package in (BUILTIN_PACKAGE, *plugin_packages()):
            try:
                load_service_package(package)
            except (ImportError, ValueError) as exc:
                exc.add_note(f"while loading the service package {package!r} "
                             f"({'built-in' if package == BUILTIN_PACKAGE else 'entry point ' + ENTRY_POINT_GROUP})")
                raise
    except BaseException:
        _state["loaded"] = False
        raise


def register_service(cls: type[Service], *, replace: bool = False) -> type[Service]:
    """Add a service class to the catalog (usable as a class decorator).

    For services outside service packages (see the module docstring); a
    service of a service package is already registered and is left as is.

    Raises:
        TypeError: ``cls`` has no string ``name``.
        ValueError: a different service with the same name exists and
            ``replace`` is False.
    """
    name = getattr(cls, "name", None)
    if not isinstance(name, str):
        raise TypeError(f"{cls!r} has no service name (set the class attribute `name`)")
    load_service_packages()
    existing = _EXTRA.get(name) or _DEFINED.get(name)
    if existing is cls:
        return cls
    if existing is not None and not replace:
        raise ValueError(f"service name {name!r} is already taken by {existing.__qualname__}")
    _EXTRA[name] = cls
    return cls


def unregister_service(name: str) -> Optional[type[Service]]:
    """Undo :func:`register_service` for ``name``; the removed class, or None.

    Services of service packages stay (a name :func:`register_service`
    replaced is theirs again).
    """
    return _EXTRA.pop(name, None)


def service_names() -> list[str]:
    """All service names, sorted."""
    load_service_packages()
    return sorted({**_DEFINED, **_EXTRA})


def get_service(name: str) -> type[Service]:
    """The service class called ``name`` (a dict lookup: it runs on every mount).

    Raises:
        UnknownService: no such service (the message lists close names).
    """
    cls = _EXTRA.get(name) or _DEFINED.get(name)
    if cls is None and not _state["loaded"]:
        load_service_packages()
        cls = _EXTRA.get(name) or _DEFINED.get(name)
    if cls is None:
        raise UnknownService(f"unknown service {name!r}; known: {', '.join(service_names())}")
    return cls


def service_summary(cls: type[Service]) -> dict[str, Any]:
    """One row of ``compoworld services --json``.

    Returns:
        ``{"name", "domain", "description", "tools", "deterministic_tools",
        "simulated_tools", "spec_source"}`` (counts are ints).
    """
    simulated = sum(1 for t in cls.tools.values() if t.simulated)
    return {
        "name": cls.name,
        "domain": cls.domain,
        "description": cls.description,
        "tools": len(cls.tools),
        "deterministic_tools": len(cls.tools) - simulated,
        "simulated_tools": simulated,
        "spec_source": cls.spec_source,
    }
