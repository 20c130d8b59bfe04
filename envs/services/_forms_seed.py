"""Seed forms and responses of the ``forms`` service.

The satisfaction survey is answered by the shared store customers
(:mod:`._commerce`), the internal forms by company staff (:mod:`._company`),
so respondent emails match the other services' records.
"""

from __future__ import annotations

import datetime as dt
import random

from compoworld_gym.envs.services._commerce import CUSTOMERS
from compoworld_gym.envs.services._company import OPS_EMAIL, STAFF

_CHANNELS = ["Search engine", "Friend", "Social media", "Newsletter"]
_SESSIONS = ["Keynote", "Product demo", "Q&A", "Networking"]
_ITEMS = ["Laptop", "Monitor", "Headset", "Standing desk"]


def _q(n: int, title: str, type_: str, required: bool = False, choices: list[str] | None = None) -> dict:
    return {"id": f"q{n}", "title": title, "type": type_, "required": required, "choices": choices or [],
            "scale_max": 5}


def build_state(rng: random.Random, today: dt.date) -> dict:
    """The seeded state of the forms service as plain data."""
    launch = today + dt.timedelta(days=21)
    forms = {
        "FRM-0001": ("Customer satisfaction survey Q4", "How did we do last quarter?", "open", [
            _q(1, "Overall, how satisfied are you?", "rating", True),
            _q(2, "How did you hear about us?", "multiple_choice", False, _CHANNELS),
            _q(3, "Would you recommend us to a friend?", "yes_no", True),
            _q(4, "Anything we should improve?", "long_text")]),
        "FRM-0002": (f"Product launch RSVP ({launch.isoformat()})", "Join us for the 2026 launch.", "open", [
            _q(1, "Will you attend?", "multiple_choice", True, ["Yes", "No", "Maybe"]),
            _q(2, "Number of guests", "number"),
            _q(3, "Sessions you plan to join", "checkboxes", False, _SESSIONS)]),
        "FRM-0003": ("IT equipment request", "Ask for new equipment.", "open", [
            _q(1, "Item", "multiple_choice", True, _ITEMS),
            _q(2, "Needed by", "date", True),
            _q(3, "Manager's email", "email", True),
            _q(4, "Reason", "long_text")]),
        "FRM-0004": ("Holiday party menu poll 2025", "Closed poll.", "closed", [
            _q(1, "Preferred menu", "multiple_choice", True, ["Vegetarian", "Fish", "Meat"])]),
    }
    state_forms = {fid: {"id": fid, "title": t, "description": d, "owner_email": OPS_EMAIL, "status": st,
                         "created_on": today - dt.timedelta(days=rng.randint(20, 60)), "questions": qs}
                   for fid, (t, d, st, qs) in forms.items()}
    responses: list[tuple[str, str, dict]] = []
    for c in rng.sample(CUSTOMERS, 7):
        score = rng.randint(1, 5)
        ans = {"q1": score, "q2": rng.choice(_CHANNELS), "q3": score >= 3}
        if score <= 3:
            ans["q4"] = rng.choice(("Faster delivery please.", "Refunds took too long.", "Better packaging."))
        responses.append(("FRM-0001", c.email, ans))
    for s in rng.sample(STAFF, 6):
        going = rng.choice(["Yes", "Yes", "No", "Maybe"])
        ans = {"q1": going}
        if going == "Yes":
            ans.update(q2=rng.randint(0, 2), q3=rng.sample(_SESSIONS, rng.randint(1, 3)))
        responses.append(("FRM-0002", s.email, ans))
    for s in rng.sample(STAFF, 3):
        lead = next(x for x in STAFF if x.team == s.team)
        responses.append(("FRM-0003", s.email, {
            "q1": rng.choice(_ITEMS), "q2": (today + dt.timedelta(days=rng.randint(3, 20))).isoformat(),
            "q3": lead.email, "q4": "Current one is failing."}))
    for s in rng.sample(STAFF, 4):
        responses.append(("FRM-0004", s.email, {"q1": rng.choice(["Vegetarian", "Fish", "Meat"])}))
    out = {}
    for i, (fid, email, ans) in enumerate(responses, start=1):
        when = dt.datetime.combine(today - dt.timedelta(days=rng.randint(1, 15)), dt.time(rng.randint(8, 20), rng.randint(0, 59)))
        out[f"RSP-{i:04d}"] = {"id": f"RSP-{i:04d}", "form_id": fid, "respondent_email": email, "submitted_at": when,
                               "answers": ans}
    return {"forms": state_forms, "responses": out, "counters": {"FRM": 5, "RSP": len(out) + 1}}
