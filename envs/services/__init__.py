"""The library of hand-written, deterministic services.

Each module here holds exactly one service (state model + tools + seed
factory), so adding a service means adding one file. This is the catalog's
built-in service package (:data:`compoworld_gym.catalog.BUILTIN_PACKAGE`):
importing it imports every module whose name does not start with ``_``
(those are helpers), in sorted order, and each service class registers
itself in the catalog as it is defined. :data:`BUILTIN_SERVICES` is the
resulting list, sorted by service name.
"""

from __future__ import annotations

from compoworld_gym.catalog import load_service_package
from compoworld_gym.service import Service

BUILTIN_SERVICES: list[type[Service]] = load_service_package(__name__)

__all__ = ["BUILTIN_SERVICES"]
