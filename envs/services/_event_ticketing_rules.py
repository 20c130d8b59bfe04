"""Pricing rule of the event ticketing service: Eventbrite's service fee per paid ticket.

The tool-level rules (sales windows, quantities, capacity, refunds, check-in)
are checked in ``event_ticketing.py`` itself.
"""

from __future__ import annotations

from compoworld_gym.envs.services._commerce import money

#: Eventbrite's service fee per paid ticket: a share of the price plus a fixed part (USD).
FEE_RATE, FEE_FIXED = 0.037, 1.79


def ticket_fee(cost: float) -> float:
    """The service fee of one ticket of ``cost`` USD (free tickets carry none)."""
    return money(cost * FEE_RATE + FEE_FIXED) if cost > 0 else 0.0
