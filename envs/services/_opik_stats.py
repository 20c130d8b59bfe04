"""Statistics of the opik service, computed from stored traces: the totals
of get-trace-stats and the daily series of get-metrics."""

from __future__ import annotations

import datetime as dt
from statistics import mean
from typing import Any, Callable, Optional, Sequence

from compoworld_gym.envs.services._opik_models import Trace, duration_ms, trace_cost, trace_usage

#: The metrics get-metrics knows (Opik's TRACE_COUNT, COST, TOKEN_USAGE, DURATION, FEEDBACK_SCORES).
METRICS = ("trace_count", "cost", "token_usage", "duration", "feedback_scores")
_TOKENS = ("prompt_tokens", "completion_tokens", "total_tokens")


def percentile(values: list[float], q: float) -> Optional[float]:
    """Nearest-rank percentile ``q`` (0-1) of ``values``; None when empty."""
    if not values:
        return None
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, int(q * len(ordered) + 0.999999) - 1))]


def trace_stats(traces: Sequence[Trace]) -> dict[str, Any]:
    """Counts, errors, token totals, estimated cost (USD: 6 decimals, and 2), duration average and
    percentiles (ms) and the average of each feedback score."""
    durations = [duration_ms(t) for t in traces]
    scores: dict[str, list[float]] = {}
    for t in traces:
        for s in t.feedback_scores:
            scores.setdefault(s.name, []).append(s.value)
    cost = round(sum(trace_cost(t) for t in traces), 6)
    return {"trace_count": len(traces), "error_count": sum(t.error_info is not None for t in traces),
            "usage": {k: sum(trace_usage(t)[k] for t in traces) for k in _TOKENS},
            "total_estimated_cost": cost, "total_estimated_cost_usd": round(cost, 2),
            "duration_ms": {"avg": round(mean(durations), 1) if durations else None,
                            "p50": percentile(durations, 0.5), "p90": percentile(durations, 0.9)},
            "feedback_scores": {n: {"avg": round(mean(v), 4), "count": len(v)} for n, v in sorted(scores.items())}}


def daily_metrics(traces: Sequence[Trace], start: dt.date, end: dt.date, wanted: Sequence[str]
                  ) -> dict[str, list[dict[str, Any]]]:
    """``{metric: [series]}`` for each of ``wanted``; a series is ``{"name", "data": [{"time", "value"}]}``
    with one point per day from ``start`` to ``end``."""
    days = [start + dt.timedelta(days=k) for k in range((end - start).days + 1)]
    by_day = {d: [t for t in traces if t.start_time.date() == d] for d in days}

    def series(name: str, fn: Callable[[list[Trace]], Any]) -> dict[str, Any]:
        return {"name": name, "data": [{"time": d, "value": fn(ts)} for d, ts in by_day.items()]}

    def score(name: str) -> dict[str, Any]:
        def avg(ts: list[Trace]) -> Optional[float]:
            values = [s.value for t in ts for s in t.feedback_scores if s.name == name]
            return round(mean(values), 4) if values else None
        return series(name, avg)

    build: dict[str, Callable[[], list[dict[str, Any]]]] = {
        "trace_count": lambda: [series("traces", len)],
        "cost": lambda: [series("cost", lambda ts: round(sum(trace_cost(t) for t in ts), 6))],
        "token_usage": lambda: [series(k, lambda ts, k=k: sum(trace_usage(t)[k] for t in ts)) for k in _TOKENS],
        "duration": lambda: [series(q, lambda ts, f=f: percentile([duration_ms(t) for t in ts], f))
                             for q, f in (("p50", 0.5), ("p90", 0.9))],
        "feedback_scores": lambda: [score(n) for n in sorted({s.name for t in traces for s in t.feedback_scores})],
    }
    return {m: build[m]() for m in wanted}
