"""The library of hand-written, deterministic services.

Each module here holds exactly one service (state model + tools + seed
factory). Modules are discovered in sorted order, so adding a service means
adding one file; :data:`BUILTIN_SERVICES` is the resulting list (sorted by
service name). Modules whose name starts with ``_`` are helpers.
"""

from __future__ import annotations

import importlib
import pkgutil

from compoworld_gym.service import Service


def _discover() -> list[type[Service]]:
    found: dict[str, type[Service]] = {}
    for mod in sorted(pkgutil.iter_modules(__path__), key=lambda m: m.name):
        if mod.name.startswith("_"):
            continue
        module = importlib.import_module(f"{__name__}.{mod.name}")
        for obj in vars(module).values():
            if (isinstance(obj, type) and issubclass(obj, Service) and obj is not Service
                    and obj.__module__ == module.__name__ and "name" in vars(obj)):
                if obj.name in found:
                    raise RuntimeError(f"two built-in services are named {obj.name!r}")
                found[obj.name] = obj
    return [found[n] for n in sorted(found)]


BUILTIN_SERVICES: list[type[Service]] = _discover()

__all__ = ["BUILTIN_SERVICES"]
