"""A wall-clock limit on one env call, so a tool that never returns becomes a finding.

A fuzzed tool can loop forever (a cycle in a manager chain walked without a
visited set is the one the fuzz found). Without a limit the campaign hangs:
its ``--minutes`` deadline is never reached and ``--resume`` hangs again on
the same batch. :func:`time_limit` arms a one-shot ``SIGALRM`` timer around
the call; when it fires, :class:`ActionTimeout` is raised inside the call.

:class:`ActionTimeout` derives from ``BaseException`` on purpose: the env
turns a tool's ``Exception`` into an error observation (a 500 result), which
would hide the hang and let the run go on.

Where ``SIGALRM`` does not exist (Windows) or off the main thread (signals
are delivered to the main thread only), the call runs without a limit.
"""

from __future__ import annotations

import contextlib
import signal
import threading
import time
from typing import Iterator, Optional


class ActionTimeout(BaseException):
    """A ``reset`` or ``step`` took longer than its limit (``seconds``)."""

    def __init__(self, seconds: float) -> None:
        super().__init__(f"the call did not return within {seconds:g} s")
        self.seconds = seconds


def can_limit() -> bool:
    """Whether :func:`time_limit` can interrupt a call here (SIGALRM, main thread)."""
    return hasattr(signal, "setitimer") and threading.current_thread() is threading.main_thread()


@contextlib.contextmanager
def time_limit(seconds: Optional[float]) -> Iterator[None]:
    """Raise :class:`ActionTimeout` in the block if it runs longer than ``seconds``.

    ``None`` or ``0`` means no limit. A timer armed by the caller (e.g.
    pytest-timeout's) is re-armed with its remaining time afterwards, and
    fires at once if that time passed during the block.

    Raises:
        ActionTimeout: the block ran past ``seconds`` (raised where it was).
        ValueError: ``seconds`` < 0.
    """
    if seconds is not None and seconds < 0:
        raise ValueError(f"a time limit must be >= 0 seconds, got {seconds!r}")
    if not seconds or not can_limit():
        yield
        return

    def expire(signum: int, frame: object) -> None:
        raise ActionTimeout(seconds)

    previous = signal.signal(signal.SIGALRM, expire)
    outer, interval = signal.setitimer(signal.ITIMER_REAL, seconds)
    started = time.monotonic()
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)
        if outer:
            signal.setitimer(signal.ITIMER_REAL, max(outer - (time.monotonic() - started), 1e-6), interval)


__all__ = ["ActionTimeout", "can_limit", "time_limit"]
