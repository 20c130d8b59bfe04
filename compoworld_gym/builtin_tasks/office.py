"""Built-in tasks that also need the CRM and the calendar."""

from __future__ import annotations
