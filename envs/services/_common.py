"""Small helpers shared by the seed-data factories of the built-in services."""

from __future__ import annotations

import re

_NON_LOCAL = re.compile(r"[^a-z0-9.-]+")


def email_for(name: str, domain: str) -> str:
    """A deterministic email address for a person's name at ``domain``.

    Example:
        >>> email_for("Anne-Marie O'Neil", "acme.example")
        'anne-marie.oneil@acme.example'
    """
    local = _NON_LOCAL.sub("", name.lower().replace(" ", "."))
    return f"{local.strip('.')}@{domain}"
