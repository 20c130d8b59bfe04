"""Rules of the issue tracker service (Linear): estimates, states, cycles, branch names.

Linear checks an estimate against the team's scale (``issueEstimationType``:
exponential 1-16, fibonacci 1-8, linear 1-5, t-shirt sent as 1/2/3/5/8; a
team with estimates turned off takes none); moving an issue sets
``startedAt``/``completedAt``/``canceledAt`` by the new state's type; a cycle
is completed once its end date has passed (or it was closed) and then takes
no issues; the suggested git branch is ``<user>/<identifier>-<title slug>``.
"""

from __future__ import annotations

import datetime as dt
import re
from typing import Optional

from compoworld_gym.envs.services._issue_tracker_models import ESTIMATE_SCALES, Cycle, Issue, Team, WorkflowState
from compoworld_gym.errors import Unprocessable


def slug(text: str, limit: int = 40) -> str:
    """Lower-case words joined by dashes, cut at a word boundary within ``limit``."""
    words = re.findall(r"[a-z0-9]+", text.lower())
    out = ""
    for w in words:
        nxt = f"{out}-{w}" if out else w
        if len(nxt) > limit:
            break
        out = nxt
    return out or "issue"


def branch_name(display_name: Optional[str], identifier: str, title: str) -> str:
    """Linear's suggested branch: ``kenji/pay-12-fix-refund-rounding`` (no user part when unassigned)."""
    tail = f"{identifier.lower()}-{slug(title)}"
    return f"{display_name}/{tail}" if display_name else tail


def check_estimate(team: Team, estimate: Optional[int]) -> None:
    """Raise 422 unless ``estimate`` is a point of the team's scale (None always passes).

    Raises:
        Unprocessable: estimates are off for the team, or the value is not on its scale.
    """
    if estimate is None:
        return
    scale = ESTIMATE_SCALES[team.issue_estimation_type]
    if not scale:
        raise Unprocessable(f"team {team.key} does not use estimates; leave estimate empty.")
    if estimate not in scale:
        raise Unprocessable(f"estimate {estimate} is not on team {team.key}'s {team.issue_estimation_type} scale "
                            f"({', '.join(map(str, scale))}).")


def cycle_status(c: Cycle, today: dt.date) -> str:
    """``completed`` (closed, or its end date passed), ``active`` (today inside it) or ``upcoming``."""
    if c.completed_at is not None or c.ends_at <= today:
        return "completed"
    return "active" if c.starts_at <= today else "upcoming"


def move(issue: Issue, state: WorkflowState, at: dt.datetime) -> None:
    """Put ``issue`` in ``state``, stamping startedAt / completedAt / canceledAt as Linear does."""
    issue.state_id, issue.state_name, issue.state_type = state.id, state.name, state.type
    if state.type == "started" and issue.started_at is None:
        issue.started_at = at
    issue.completed_at = at if state.type == "completed" else None
    issue.canceled_at = at if state.type == "canceled" else None
    issue.updated_at = at


def would_loop(issues: dict[str, Issue], issue_id: str, parent_id: str) -> bool:
    """Whether making ``parent_id`` the parent of ``issue_id`` closes a parent loop."""
    node: Optional[str] = parent_id
    seen = set()
    while node is not None and node not in seen:
        if node == issue_id:
            return True
        seen.add(node)
        node = issues[node].parent_id if node in issues else None
    return False
