"""Rules of the error tracking service (Sentry): short ids, release order, ignore windows.

Sentry's short id is the project slug upper-cased and a base-36 counter
(``CHECKOUT-API-4F``); releases of a project are ordered by semantic
version (``checkout-api@2.14.0`` is newer than ``checkout-api@2.9.3``), and
"resolved in release" must name a release newer than the last one the issue
was seen in; an ignore lasts a number of further events or minutes.
"""

from __future__ import annotations

import re

from compoworld_gym.errors import InvalidArgument

_DIGITS = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ"
_VERSION = re.compile(r"^(?P<project>[a-z0-9-]+)@(?P<semver>\d+\.\d+\.\d+)$")


def base36(n: int) -> str:
    """``n`` in base 36, upper case (Sentry's short id suffix)."""
    out = ""
    while True:
        n, r = divmod(n, 36)
        out = _DIGITS[r] + out
        if n == 0:
            return out


def short_id(project: str, n: int) -> str:
    """The short id of the ``n``-th issue of ``project``."""
    return f"{project.upper()}-{base36(n)}"


def version_key(version: str) -> tuple[int, int, int]:
    """The semantic version of ``project@x.y.z`` as a sortable tuple.

    Raises:
        InvalidArgument: not of the form ``project@x.y.z``.
    """
    m = _VERSION.match(version)
    if m is None:
        raise InvalidArgument(f"release version {version!r} must look like project@1.2.3.")
    a, b, c = (int(x) for x in m.group("semver").split("."))
    return a, b, c


def project_of(version: str) -> str:
    """The project part of a version."""
    version_key(version)
    return version.split("@")[0]


def newer(a: str, b: str | None) -> bool:
    """Whether release ``a`` is newer than ``b`` (anything is newer than no release)."""
    return b is None or version_key(a) > version_key(b)
