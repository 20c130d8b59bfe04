"""Performance reviews (Lattice) in chained tasks: an employee's work email
leads to their manager review in the open cycle, which names their manager
(the reviewer), their employee id and the review id; it also leads to the
employee's goal, which names its due date. Writes: the manager submits the
case's manager review with the house rating, noting a discovered value; or a
check-in marks the employee's goal off track, quoting one."""

from __future__ import annotations

import datetime as dt
from typing import Any, Optional

from compoworld_gym.checks import OnlyChanged, RecordMatches
from compoworld_gym.envs.services._performance_reviews_models import Goal, Review, User
from compoworld_gym.generation.context import Ctx, call
from compoworld_gym.generation.hooks.hr_directory import (
    employee_email, manager_email, name_from_email, person_of,
)
from compoworld_gym.generation.links import (
    Action, Found, Give, Need, Reader, Relay, ServiceLinks, SolveError, Write, next_id, pick,
)

SERVICE = "performance_reviews"
#: The rating a manager review submitted for a case gets (house rule: "Meets expectations").
HOUSE_RATING = 3
_GOALS = ("Reduce first-response time to under 2 hours", "Close the Q3 vendor reconciliation",
          "Roll out the new onboarding checklist", "Cut shipping exceptions by 15%")


def _by_email(state: dict[str, Any], email: str) -> Optional[dict[str, Any]]:
    return next((u for u in state["users"].values() if u["email"].lower() == email.lower()), None)


def _shared_id(ctx: Ctx, email: str) -> Optional[str]:
    """The employee id the task's other HR services give ``email``, when no Lattice user has it yet."""
    for other in ("hr_directory", "leave", "payroll"):
        people = ctx.states.get(other, {}).get("employees", {})
        hit = next((p["id"] for p in people.values() if p["email"].lower() == email.lower()), None)
        if hit is not None and hit not in ctx.state(SERVICE)["users"]:
            return hit
    return None


def plant_user(ctx: Ctx, email: str, boss_email: Optional[str] = None) -> str:
    """The Lattice user at ``email`` (added with a manager who is a user if new); returns the id."""
    state = ctx.state(SERVICE)
    hit = _by_email(state, email)
    if hit is not None:
        return hit["id"]
    known = person_of(ctx, email=email) or {}
    boss = _by_email(state, boss_email or known.get("manager_email") or manager_email(ctx))
    if boss is None:
        boss = next(u for u in state["users"].values() if u["manager_id"] is None)
    uid = _shared_id(ctx, email) or next_id(state, "EMP", start=len(state["users"]) + 1)
    if uid in state["users"]:
        uid = next_id(state, "EMP", start=len(state["users"]) + 1)
    state["users"][uid] = User(id=uid, name=known.get("name") or name_from_email(email), email=email,
                               title="Operations Specialist", department=known.get("department") or boss["department"],
                               manager_id=boss["id"], manager_email=boss["email"]).model_dump(mode="json")
    return uid


def _cycle(state: dict[str, Any], phase: str) -> str:
    return next(c["id"] for c in state["cycles"].values() if c["phase"] == phase)


def plant_manager_review(ctx: Ctx, rid: str, email: str, *, boss_email: Optional[str] = None,
                         stale: bool = False) -> str:
    """A not-started manager review of the employee at ``email`` by their manager in the open cycle
    (or, ``stale``, a submitted one in the closed cycle); returns ``rid``."""
    state = ctx.state(SERVICE)
    user = state["users"][plant_user(ctx, email, boss_email)]
    if user["manager_id"] is None or (boss_email and (user["manager_email"] or "").lower() != boss_email.lower()):
        boss_id = plant_user(ctx, boss_email or manager_email(ctx))  # the case's manager of record
        if boss_id != user["id"]:
            user.update(manager_id=boss_id, manager_email=state["users"][boss_id]["email"])
    boss = state["users"][user["manager_id"]]
    if not stale:  # one manager review per employee in the open cycle
        open_id = _cycle(state, "open")
        for k in [k for k, r in state["reviews"].items() if r["cycle_id"] == open_id
                  and r["reviewee_id"] == user["id"] and r["review_type"] == "manager"]:
            del state["reviews"][k]
    r = Review(id=rid, cycle_id=_cycle(state, "closed" if stale else "open"), reviewee_id=user["id"],
               reviewee_name=user["name"], reviewee_email=user["email"], reviewer_id=boss["id"],
               reviewer_name=boss["name"], reviewer_email=boss["email"], review_type="manager",
               status="not_started")
    if stale:
        r.status, r.rating, r.comments = "submitted", 4, "Strong first half."
        r.submitted_at = dt.datetime.combine(ctx.today - dt.timedelta(days=170), dt.time(15, 0))
    state["reviews"][rid] = r.model_dump(mode="json")
    return rid


def plant_goal(ctx: Ctx, gid: str, email: str, *, due: Optional[str] = None, stale: bool = False) -> str:
    """An on-track goal (or, ``stale``, an achieved one) of the employee at ``email``; returns ``gid``."""
    state = ctx.state(SERVICE)
    user = state["users"][plant_user(ctx, email)]
    if not stale:  # the employee's one open goal
        for k in [k for k, g in state["goals"].items() if g["owner_id"] == user["id"] and g["status"] != "achieved"]:
            del state["goals"][k]
    g = Goal(id=gid, name=ctx.rng.choice(_GOALS), owner_id=user["id"], owner_name=user["name"],
             owner_email=user["email"], cycle_id=_cycle(state, "open"), progress=100 if stale else 40,
             status="achieved" if stale else "on_track",
             due_date=due or (ctx.today + dt.timedelta(days=ctx.rng.randint(10, 60))).isoformat())
    state["goals"][gid] = g.model_dump(mode="json")
    return gid


def _review_of(reader: Reader, email: str) -> dict[str, Any]:
    open_ids = [c["id"] for c in reader.read(SERVICE, "list_review_cycles", phase="open")]
    rows = reader.read(SERVICE, "list_reviews", reviewee_email=email, review_type="manager", limit=200)
    return pick([r for r in rows if r["cycle_id"] in open_ids])


def _goal_of(reader: Reader, email: str) -> dict[str, Any]:
    rows = reader.read(SERVICE, "list_goals", owner_email=email, limit=200)
    return pick([g for g in rows if g["status"] != "achieved"])


def _due(ctx: Ctx) -> str:
    return (ctx.today + dt.timedelta(days=ctx.rng.randint(10, 60))).isoformat()


_REVIEWER = Give("email", "reviewer_email", "the employee's manager's email (the manager review's reviewer)",
                 "the manager", draw=manager_email)
_REVIEWEE = Give("email", "reviewee_email", "the reviewed employee's work email", "the employee", draw=employee_email)
_EMPLOYEE_ID = Give("employee_id", "reviewee_id", "the employee's id", "the employee")

EMPLOYEE_REVIEW = Relay(
    service=SERVICE, name="manager review", key="email",
    gives=(_REVIEWER, _EMPLOYEE_ID, Give("performance_review_id", "id", "the employee's manager review")),
    plant=lambda ctx, key, outs, stale: plant_manager_review(ctx, next_id(ctx.state(SERVICE), "PRV"), key,
                                                             boss_email=outs.get("email"), stale=stale),
    find=lambda reader, key: _review_of(reader, key),
    where="Lattice holds each employee's manager review for the open review cycle under the employee's work "
          "email; it is written by the employee's manager.",
    truth="Only the review in the open cycle counts; last cycle's reviews are closed.", key_role="staff")

REVIEW = Relay(
    service=SERVICE, name="performance review", key="performance_review_id",
    gives=(_REVIEWEE, _EMPLOYEE_ID),
    plant=lambda ctx, key, outs, stale: plant_manager_review(ctx, key, outs.get("email") or employee_email(ctx)),
    find=lambda reader, key: reader.read(SERVICE, "get_review", review_id=key),
    where="Each Lattice review names the employee reviewed (work email and employee id) and the reviewer.",
    alloc=lambda ctx: next_id(ctx.state(SERVICE), "PRV"), entry=lambda key: f"performance review {key}")

EMPLOYEE_GOAL = Relay(
    service=SERVICE, name="employee goal", key="email",
    gives=(Give("goal_id", "id", "the employee's open goal"),
           Give("date", "due_date", "the goal's due date", "the goal's deadline", draw=_due)),
    plant=lambda ctx, key, outs, stale: plant_goal(ctx, next_id(ctx.state(SERVICE), "GOAL"), key,
                                                   due=outs.get("date"), stale=stale),
    find=lambda reader, key: _goal_of(reader, key),
    where="Each employee's goals are in Lattice under the owner's work email; an achieved goal is done.",
    truth="An achieved goal is finished; only the open goal counts.", key_role="staff")


def _submit(reader: Reader, args: dict[str, Found]) -> Write:
    rid, mention = args["review"].value, args["mention"]
    r = reader.read(SERVICE, "get_review", review_id=rid)
    if r["status"] == "submitted" or r["cycle_phase"] != "open" or r["review_type"] != "manager":
        raise SolveError(f"review {rid} is not an open manager review")
    note = f"{args['case'].value}: {mention.noun} is {mention.display}."
    return Write(
        calls=[call("submit_review", review_id=rid, reviewer_email=r["reviewer_email"], rating=HOUSE_RATING,
                    comments=note)],
        checks=[RecordMatches(id="_", service=SERVICE, collection="reviews", record_id=rid,
                              where={"status": "submitted", "rating": HOUSE_RATING,
                                     "comments": {"$contains": mention.display}},
                              description="The manager review is submitted with the house rating, quoting the value.")],
        scope=[OnlyChanged(id="_", service=SERVICE, collection="reviews", allow_ids=[rid],
                           description="No other review was changed or created.")],
        tool="submit_review", where={"review_id": rid}, label="the submitted manager review")


def _off_track(reader: Reader, args: dict[str, Found]) -> Write:
    gid, mention = args["goal"].value, args["mention"]
    g = reader.read(SERVICE, "get_goal", goal_id=gid)
    if g["status"] == "achieved":
        raise SolveError(f"goal {gid} is achieved")
    note = f"{args['case'].value}: {mention.noun} is {mention.display}."
    return Write(
        calls=[call("update_goal", goal_id=gid, author_email=g["owner_email"], status="off_track", comment=note)],
        checks=[RecordMatches(id="_", service=SERVICE, collection="goals", record_id=gid,
                              where={"status": "off_track", "progress": g["progress"],
                                     "last_update_comment": {"$contains": mention.display}},
                              description="The goal is marked off track by a check-in quoting the value.")],
        scope=[OnlyChanged(id="_", service=SERVICE, collection="goals", allow_ids=[gid],
                           description="No other goal was changed or created.")],
        tool="update_goal", where={"goal_id": gid}, label="the goal check-in")


LINKS = ServiceLinks(
    service=SERVICE, label="Lattice",
    relays=(EMPLOYEE_REVIEW, REVIEW, EMPLOYEE_GOAL),
    actions=(
        Action(service=SERVICE, name="submit manager review", needs=(Need("review", "performance_review_id"),),
               build=_submit,
               goal="submit the employee's manager review in Lattice as their manager, rated 3 (Meets "
                    "expectations), noting {mention}"),
        Action(service=SERVICE, name="goal off track", needs=(Need("goal", "goal_id"),), build=_off_track,
               goal="post a check-in on the employee's open goal in Lattice marking it off track, noting {mention}"),
    ),
)

__all__ = ["HOUSE_RATING", "LINKS", "plant_goal", "plant_manager_review", "plant_user"]
