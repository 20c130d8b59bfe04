"""Admissions (Slate) in chained tasks: an application holding a released
admit names the parent (email), the applicant, the enrollment deposit due and
the reply-by date; a parent's email finds the family's open offer (with its
reader) and the family's enrolled application, which names the child's SIS
student record; a SIS student leads back to the admission file that
enrolled them. Writes: record the enrollment deposit on the offer, or comment on
the application quoting a discovered value."""

from __future__ import annotations

import datetime as dt
from typing import Any, Optional

from compoworld_gym.checks import OnlyChanged, RecordMatches
from compoworld_gym.envs.services._admissions_models import AdmissionsState, Applicant, Reader
from compoworld_gym.envs.services._admissions_rules import DEPOSIT_RATE
from compoworld_gym.envs.services._admissions_seed import (
    ASSOCIATE, DIRECTOR, PRIOR_TUITION, TUITION, build_application,
)
from compoworld_gym.envs.services._company import OPS_EMAIL
from compoworld_gym.generation.context import Ctx, call
from compoworld_gym.generation.hooks.hr_directory import name_from_email
from compoworld_gym.generation.hooks.student_records import plant_student
from compoworld_gym.generation.links import (
    Action, Found, Give, Need, Reader as LinkReader, Relay, ServiceLinks, SolveError, Write, next_id, pick,
)

SERVICE = "admissions"
DATE_RX = r"\d{4}-\d{2}-\d{2}"
_DEPOSIT_WHO, _REPLY_WHO = "the enrollment deposit", "the offer's reply-by date"


def next_application_id(state: dict[str, Any]) -> str:
    """Take the next free application id from the admissions counters (as ``new_id("ADM")``)."""
    return next_id(state, "ADM")


def deposit_amount(ctx: Ctx, tuition: float = TUITION) -> float:
    """An enrollment deposit: 10% of tuition less an aid award in steps of $500."""
    return round((tuition - 500 * ctx.rng.randint(0, 20)) * DEPOSIT_RATE, 2)


def reply_day(ctx: Ctx) -> str:
    """A reply-by date 10 to 40 days ahead (ISO)."""
    return ctx.day(ctx.rng.randint(10, 40))


def _reader(ctx: Ctx) -> str:
    return ctx.rng.choice((DIRECTOR, ASSOCIATE))


def plant_application(ctx: Ctx, app_id: str, *, guardian: str, applicant: str, stage: str = "offer",
                      deposit: Optional[float] = None, reply: Optional[str] = None, reader: Optional[str] = None,
                      student_id: Optional[str] = None) -> str:
    """Add an applicant (parent ``guardian``) and an application ``app_id`` to the working state.

    ``stage`` is ``offer`` (this year's early round, admit released ten days
    ago, awaiting the reply by ``reply``, deposit ``deposit`` due), ``enrolled``
    (last year's round, deposit ``deposit`` paid, SIS ``student_id``),
    ``withdrawn`` or ``declined``. Returns the application id.
    """
    raw = ctx.state(SERVICE)
    state = AdmissionsState.model_validate(raw)
    reader = reader or _reader(ctx)
    if reader.lower() not in state.readers:
        state.readers[reader.lower()] = Reader(email=reader.lower(), name=name_from_email(reader),
                                               role="Associate Director")
    prior = stage in ("enrolled", "declined")
    rnd = state.rounds["RND-0001" if prior else "RND-0002"]
    due = deposit if deposit is not None else deposit_amount(ctx, rnd.tuition)
    aid = max(0.0, round(rnd.tuition - due / DEPOSIT_RATE, 2))
    released = (dt.datetime.combine(rnd.release_date, dt.time(17, 0)) if prior
                else dt.datetime.combine(ctx.today - dt.timedelta(days=10), dt.time(17, 0)))
    first, _, last = applicant.partition(" ")
    last = last or name_from_email(guardian).split()[-1]
    person = Applicant(id=next_id(raw, "APC"), first_name=first, last_name=last,
                       birthdate=dt.date(released.year - 14, ctx.rng.randint(1, 12), ctx.rng.randint(1, 28)),
                       current_school="Lincoln Middle School", current_grade=8, guardian_name=name_from_email(guardian),
                       guardian_email=guardian, guardian_phone=ctx.fresh("phone"),
                       created=released - dt.timedelta(days=90))
    state.applicants[person.id] = person
    state.counters.update({k: v for k, v in raw["counters"].items()})
    build_application(state, app_id, person, rnd, 9, {"offer": "released"}.get(stage, stage),
                      start=released - dt.timedelta(days=75), missing=("Student Interview",) if stage == "withdrawn"
                      else (), reviews=((reader.lower(), 4, "admit"),),
                      decision=None if stage == "withdrawn" else ("admit", aid, released), reader=reader.lower(),
                      student_id=student_id, reply=dt.date.fromisoformat(reply) if reply and not prior else None)
    dumped = state.model_dump(mode="json")
    for coll in ("readers", "applicants", "applications", "counters"):
        raw[coll] = dumped[coll]
    return app_id


def student_key(ctx: Ctx) -> str:
    """A SIS student id: student_records' next one when it is mounted, else a local one."""
    if "student_records" in ctx.states:
        return next_id(ctx.state("student_records"), "STU")
    return next_id(ctx.state(SERVICE), "STU", start=500)


def _student_for(ctx: Ctx, guardian: str, name: str, sid: Optional[str] = None) -> str:
    """The SIS student an enrolled application names: planted in the SIS when it is mounted and lacks it."""
    sid = sid or student_key(ctx)
    if "student_records" in ctx.states and sid not in ctx.state("student_records")["students"]:
        plant_student(ctx, sid, guardian=guardian, name=name)
    return sid


def _plant(ctx: Ctx, key: Any, outs: dict[str, Any], stale: bool, by: str) -> str:
    state = ctx.state(SERVICE)
    aid = key if by == "id" else next_application_id(state)
    guardian = str(key) if by == "guardian" or by == "enrolled" else outs.get("email") or ctx.person()[1]
    name = outs.get("person_name") or f"{ctx.first_name()} {name_from_email(guardian).split()[-1]}"
    if by in ("enrolled", "student"):
        sis = ctx.states.get("student_records")
        if by == "student" and sis is not None and key in sis["students"]:
            st = sis["students"][key]
            guardian, name = st["contacts"][0]["email"], f"{st['first_name']} {st['last_name']}"
        student = outs.get("student_id") if by == "enrolled" else None
        student = student or _student_for(ctx, guardian, name, str(key) if by == "student" else None)
        return plant_application(ctx, aid, guardian=guardian, applicant=name, stage="declined" if stale else "enrolled",
                                 deposit=outs.get("money"), reader=outs.get("email") if by == "student" else None,
                                 student_id=None if stale else student)
    return plant_application(ctx, aid, guardian=guardian, applicant=name, stage="withdrawn" if stale else "offer",
                             deposit=outs.get("money"), reply=outs.get("date"),
                             reader=outs.get("email") if by == "guardian" else None)


def _get(reader: LinkReader, app_id: str) -> dict[str, Any]:
    return reader.read(SERVICE, "get_application", application_id=app_id)


def _family_offer(reader: LinkReader, email: Any) -> dict[str, Any]:
    rows = reader.read(SERVICE, "list_applications", guardian_email=email, limit=200)
    return _get(reader, pick([r for r in rows if r["deposit_due"] is not None])["id"])


def _enrolled(reader: LinkReader, **where: Any) -> dict[str, Any]:
    rows = reader.read(SERVICE, "list_applications", status="enrolled", limit=200, **where)
    return _get(reader, pick(rows)["id"])


_PARENT = Give("email", "guardian_email", "the parent's email address", "the customer")
_APPLICANT = Give("person_name", "applicant_name", "the applicant's name", "the student")
_DUE = Give("money", "deposit_due", "the enrollment deposit due on the admission offer", _DEPOSIT_WHO,
            draw=deposit_amount)
_REPLY = Give("date", "reply_by", "the reply-by date of the admission offer", _REPLY_WHO, pattern=DATE_RX,
              draw=reply_day)
_PAID = Give("money", "deposit.amount", "the enrollment deposit the family paid", _DEPOSIT_WHO,
             draw=lambda ctx: deposit_amount(ctx, PRIOR_TUITION))
_APP = Give("admission_application_id", "id", "the admission application")

APPLICATION = Relay(
    service=SERVICE, name="admission application", key="admission_application_id",
    gives=(_PARENT, _APPLICANT, _DUE, _REPLY),
    plant=lambda ctx, key, outs, stale: _plant(ctx, key, outs, stale, "id"),
    find=_get,
    where="Each admission application in Slate names the applicant and the parent's email; an admit shows the "
          "enrollment deposit due and the reply-by date.",
    alloc=lambda ctx: next_application_id(ctx.state(SERVICE)), entry=lambda key: f"admission application {key}")

FAMILY_OFFER = Relay(
    service=SERVICE, name="family's admission offer", key="email",
    gives=(Give("admission_application_id", "id", "the family's application holding the admission offer"),
           Give("email", "reader_email", "the admission officer reading the application", "the admission officer",
                draw=_reader), _DUE, _REPLY),
    plant=lambda ctx, key, outs, stale: _plant(ctx, key, outs, stale, "guardian"), find=_family_offer,
    where="Slate finds applications by the parent's email; an application holding a released admit shows the "
          "deposit due and the reply-by date.",
    truth="A withdrawn application is closed; only the family's application holding a live offer counts.")

FAMILY_ENROLLED = Relay(
    service=SERVICE, name="family's enrolled application", key="email",
    gives=(Give("student_id", "student_id", "the SIS student record of the enrolled child"), _APP, _PAID),
    plant=lambda ctx, key, outs, stale: _plant(ctx, key, outs, stale, "enrolled"),
    find=lambda reader, key: _enrolled(reader, guardian_email=key),
    where="An enrolled application in Slate (found by the parent's email) names the child's student record in the "
          "SIS and the deposit paid.",
    truth="A declined admission never enrolled; only the family's enrolled application counts.")

STUDENT_ADMISSION = Relay(
    service=SERVICE, name="student's admission file", key="student_id",
    gives=(_APP, _PAID, Give("email", "reader_email", "the admission officer who read the application",
                             "the admission officer", draw=_reader)),
    plant=lambda ctx, key, outs, stale: _plant(ctx, key, outs, stale, "student"),
    find=lambda reader, key: _enrolled(reader, student_id=key), alloc=student_key,
    where="Slate keeps the admission file of every enrolled student under the student's SIS record id.")


def _scope(app_id: str) -> list[OnlyChanged]:
    return [OnlyChanged(id="_", service=SERVICE, collection="applications", allow_ids=[app_id],
                        description="No other application was changed or created."),
            OnlyChanged(id="_", service=SERVICE, collection="applicants", description="No person record changed.")]


def _deposit(reader: LinkReader, args: dict[str, Found]) -> Write:
    app_id, case = args["application"].value, args["case"].value
    app = _get(reader, app_id)
    if app["deposit_due"] is None or app["status"] != "decided":
        raise SolveError(f"application {app_id} holds no open admit")
    return Write(
        calls=[call("record_deposit", application_id=app_id, amount=app["deposit_due"], method="ach", reference=case)],
        checks=[RecordMatches(id="_", service=SERVICE, collection="applications", record_id=app_id,
                              where={"status": "enrolled", "deposit.amount": app["deposit_due"],
                                     "deposit.reference": {"$contains": case}},
                              description="The enrollment deposit due is recorded on the offer, referencing the case; "
                                          "the applicant is enrolled.")],
        scope=_scope(app_id), tool="record_deposit", where={"application_id": app_id},
        label="the enrollment deposit", moves_money=True)


def _comment(reader: LinkReader, args: dict[str, Found]) -> Write:
    app_id, mention, case = args["application"].value, args["mention"], args["case"].value
    _get(reader, app_id)
    quoted = {"$all": [{"$contains": case}, {"$contains": mention.display}]}
    return Write(
        calls=[call("add_comment", application_id=app_id, author_email=OPS_EMAIL,
                    body=f"{case}: {mention.noun} is {mention.display}.")],
        checks=[RecordMatches(id="_", service=SERVICE, collection="applications", record_id=app_id,
                              where={"comments": {"$any": {"body": quoted}}},
                              description="A comment on the application quotes the case and the value.")],
        scope=_scope(app_id), tool="add_comment", where={"application_id": app_id},
        label="the comment on the application")


_NEED = (Need("application", "admission_application_id"),)

# No withdraw action: "at the family's request" would be a request no record of the case holds
# (a product review's customer is no parent asking to withdraw); the tool stays for agents.
LINKS = ServiceLinks(
    service=SERVICE, label="the admissions office's Slate database",
    relays=(APPLICATION, FAMILY_OFFER, FAMILY_ENROLLED, STUDENT_ADMISSION),
    actions=(
        Action(service=SERVICE, name="deposit", needs=_NEED, build=_deposit,
               goal="record the family's enrollment deposit (the amount the admit asks, by ACH) on the application, "
                    "naming the case in the reference"),
        Action(service=SERVICE, name="comment", needs=_NEED, build=_comment,
               goal="add a comment to the admission application quoting {mention}"),
    ),
)

__all__ = ["LINKS", "deposit_amount", "next_application_id", "plant_application"]
