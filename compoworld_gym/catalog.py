"""The catalog: every service the suite can mount, by name.

Built-in services come from :data:`compoworld_gym.envs.services.BUILTIN_SERVICES`;
imported services (MCP importer) are added with :func:`register_service`.
"""

from __future__ import annotations

from typing import Any

from compoworld_gym.service import Service

_EXTRA: dict[str, type[Service]] = {}


class UnknownService(KeyError):
    """Raised when a service name is not in the catalog."""

    def __str__(self) -> str:  # KeyError quotes its message otherwise
        return str(self.args[0])


def register_service(cls: type[Service], *, replace: bool = False) -> type[Service]:
    """Add a service class to the catalog (usable as a class decorator).

    Raises:
        ValueError: a different service with the same name exists and
            ``replace`` is False.
    """
    existing = _all().get(cls.name)
    if existing is not None and existing is not cls and not replace:
        raise ValueError(f"service name {cls.name!r} is already taken by {existing.__qualname__}")
    _EXTRA[cls.name] = cls
    return cls


_BUILTIN: dict[str, type[Service]] = {}


def _builtin() -> dict[str, type[Service]]:
    # Built once: BUILTIN_SERVICES is discovered at import and never changes
    # (get_service runs on every mount, so it must be a dict lookup).
    if not _BUILTIN:
        from compoworld_gym.envs.services import BUILTIN_SERVICES

        _BUILTIN.update({cls.name: cls for cls in BUILTIN_SERVICES})
    return _BUILTIN


def _all() -> dict[str, type[Service]]:
    return {**_builtin(), **_EXTRA}


def service_names() -> list[str]:
    """All service names, sorted."""
    return sorted(_all())


def get_service(name: str) -> type[Service]:
    """The service class called ``name``.

    Raises:
        UnknownService: no such service (the message lists close names).
    """
    cls = _EXTRA.get(name) or _builtin().get(name)
    if cls is not None:
        return cls
    services = _all()
    try:
        return services[name]
    except KeyError:
        raise UnknownService(f"unknown service {name!r}; known: {', '.join(sorted(services))}") from None


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
