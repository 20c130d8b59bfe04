"""Seed data of the admissions service: Riverside High School's Slate database.

Built on student_records' seeded state for the same seed (:func:`seed_for`):
last year's grade 9 round holds the enrolled applications of this year's
ninth graders (each names its SIS student record, the applicant and parent
as the SIS has them); this year's early-decision, regular-decision and
rolling transfer rounds hold applications at every stage: started, missing
materials, ready for review with reader reviews, a staged decision, released
admits awaiting a reply (one past its reply-by date), a deposit paid, a
denial, a waitlist and a withdrawal. Two current families are shared store
customers and one is the parent of an enrolled student (a younger sibling
applying). Readers are the admission office and two SIS teachers.
"""

from __future__ import annotations

import datetime as dt
import random
from typing import Optional, Sequence

from faker import Faker

from compoworld_gym.envs.services._admissions_models import (
    AdmissionsState, Applicant, Application, Comment, Decision, Deposit, Reader, Review, Round,
)
from compoworld_gym.envs.services._admissions_rules import FORM, checklist_for, checklist_size, offer_terms, reply_by
from compoworld_gym.envs.services._blocks import day_start, seed_id
from compoworld_gym.envs.services._commerce import CUSTOMERS_BY_EMAIL
from compoworld_gym.envs.services._common import email_for
from compoworld_gym.envs.services._company import DOMAIN
from compoworld_gym.envs.services._student_records_models import StudentRecordsState
from compoworld_gym.envs.services._student_records_rules import school_calendar
from compoworld_gym.envs.services._student_records_seed import TEACHERS
from compoworld_gym.envs.services.student_records import StudentRecords

#: Readers: (name, role, active). The two faculty readers are SIS teachers.
READERS = (("Rebecca Stone", "Director of Admission", True), ("Carlos Mendez", "Associate Director", True),
           (TEACHERS[0][0], "Faculty Reader", True), (TEACHERS[1][0], "Faculty Reader", True),
           ("Paul Weber", "Faculty Reader", False))
READER_EMAILS = tuple(email_for(n, DOMAIN) for n, _, _ in READERS)
DIRECTOR, ASSOCIATE = READER_EMAILS[0], READER_EMAILS[1]
TUITION, PRIOR_TUITION = 28500.0, 27400.0
_SCHOOLS = ("Lincoln Middle School", "St. Mary's Academy", "Oakwood Middle School", "Westbrook Charter School",
            "Hillcrest Middle School", "Northside Junior High")
#: Current applications: (round, grade, stage, shared guardian or None, missing items, reviews
#: ((reader index, rating, recommendation), ...), decision (code, aid, days ago released or None), reader index).
_CURRENT = (
    ("RND-0002", 9, "released", "liam.patel@gmail.com", (), ((1, 5, "admit"), (2, 4, "admit")), ("admit", 0, 28), 1),
    ("RND-0002", 9, "enrolled", None, (), ((1, 4, "admit"),), ("admit", 3500, 28), 1),
    ("RND-0002", 9, "released", None, (), ((0, 2, "deny"),), ("deny", 0, 28), 0),
    ("RND-0002", 9, "released", "ava.nguyen@hotmail.com", (), ((1, 3, "waitlist"),), ("waitlist", 0, 28), 1),
    ("RND-0003", 9, "materials", "emma.wilson@yahoo.com", ("Math Teacher Recommendation", "SSAT Score Report"), (),
     None, 2),
    ("RND-0003", 9, "materials", None, ("Student Interview",), (), None, 3),
    ("RND-0003", 9, "review", None, (), ((3, 4, "admit"),), None, 1),
    ("RND-0003", 9, "review", None, (), (), None, 0),
    ("RND-0003", 9, "staged", None, (), ((0, 5, "admit"), (2, 4, "admit")), ("admit", 6000, None), 0),
    ("RND-0003", 9, "started", None, ("Application Form",), (), None, None),
    ("RND-0004", 10, "released", "olivia.martinez@gmail.com", (), ((1, 4, "admit"),), ("admit", 4000, 5), 1),
    ("RND-0004", 11, "materials", None, ("Counselor Recommendation",), (), None, 1),
    ("RND-0004", 10, "withdrawn", None, ("Student Interview",), (), None, 1),
    ("RND-0004", 10, "review", None, (), ((2, 3, "admit"),), None, 1),
    ("RND-0004", 11, "released", None, (), ((0, 4, "admit"),), ("admit", 0, 20), 0),
)


def seed_for(seed: int, today: dt.date) -> AdmissionsState:
    """The seeded state for ``seed``, on student_records' seeded state for the same seed."""
    sis = StudentRecords.seed_state(seed, today)
    rng = random.Random(f"admissions:{seed}")
    fake = Faker("en_US")
    fake.seed_instance(rng.getrandbits(32))
    return build_state(fake, rng, today, sis)


def rounds_for(today: dt.date) -> list[Round]:
    """Last year's closed grade 9 round and this year's early, regular and rolling transfer rounds."""
    y = school_calendar(today)[0][0].first_day.year
    d = lambda n: today + dt.timedelta(days=n)  # noqa: E731
    return [
        Round(id="RND-0001", name=f"Fall {y} Grade 9 Regular Decision", entry_term=f"Fall {y}", grades=[9],
              deadline=dt.date(y, 1, 15), release_date=dt.date(y, 3, 10), reply_by=dt.date(y, 4, 10),
              tuition=PRIOR_TUITION, application_fee=75.0, active=False),
        Round(id="RND-0002", name=f"Fall {y + 1} Grade 9 Early Decision", entry_term=f"Fall {y + 1}", grades=[9],
              deadline=d(-70), release_date=d(-28), reply_by=d(18), tuition=TUITION, application_fee=75.0),
        Round(id="RND-0003", name=f"Fall {y + 1} Grade 9 Regular Decision", entry_term=f"Fall {y + 1}", grades=[9],
              deadline=d(-4), release_date=d(46), reply_by=d(76), tuition=TUITION, application_fee=75.0),
        Round(id="RND-0004", name=f"Fall {y + 1} Transfer (Grades 10-11)", entry_term=f"Fall {y + 1}",
              grades=[10, 11], rolling=True, tuition=TUITION, application_fee=50.0)]


def build_application(state: AdmissionsState, app_id: str, applicant: Applicant, rnd: Round, grade: int, stage: str,
                      *, start: dt.datetime, missing: Sequence[str] = (), reviews: Sequence[tuple] = (),
                      decision: Optional[tuple] = None, reader: Optional[str] = None,
                      student_id: Optional[str] = None, reply: Optional[dt.date] = None) -> Application:
    """An application of ``applicant`` in ``rnd`` at ``stage`` (added to ``state``).

    Args:
        state: the state (its CHK/REV/DEC/DEP counters advance).
        app_id: the application id.
        applicant: the applicant.
        rnd: the round.
        grade: grade applied for.
        stage: started, materials, review, staged, released, enrolled, declined or withdrawn.
        start: when the application was started (later steps follow it).
        missing: checklist items still awaited.
        reviews: ``(reader email, rating, recommendation)`` of each review.
        decision: ``(code, aid, released datetime or None)``.
        reader: the assigned reader.
        student_id: the SIS student record of an enrolled applicant.
        reply: override of an admit's reply-by date.
    """
    items = checklist_for(rnd, grade, [seed_id(state, "CHK") for _ in range(checklist_size(grade, rnd))])
    submitted = None if stage == "started" else start + dt.timedelta(days=2)
    for k, item in enumerate(items):
        if item.name in missing or (item.name == FORM and submitted is None):
            continue
        item.status, item.received_on = "received", (submitted or start).date() + dt.timedelta(days=k)
    app = Application(id=app_id, applicant_id=applicant.id, round_id=rnd.id, grade_applying=grade,
                      status="awaiting_submission" if submitted is None else "awaiting_materials", created=start,
                      submitted_at=submitted, reader_email=reader, checklist=items)
    if submitted is not None and not missing:
        app.status = "ready_for_review"
    for k, (email, rating, rec) in enumerate(reviews):
        app.reviews.append(Review(id=seed_id(state, "REV"), reader_email=email, rating=rating, recommendation=rec,
                                  comments=_REVIEW_TEXT[rec], submitted_at=submitted + dt.timedelta(days=10 + k)))
    if decision is not None:
        code, aid, released = decision
        made = (released - dt.timedelta(days=3)) if released else submitted + dt.timedelta(days=14)
        officer = reader if reader in (DIRECTOR, ASSOCIATE) else DIRECTOR
        dec = Decision(id=seed_id(state, "DEC"), code=code, created_by=officer, created_at=made)
        if code == "admit":
            dec.financial_aid = float(aid)
            dec.net_tuition, dec.deposit_due = offer_terms(rnd.tuition, aid)
        if released is not None:
            dec.released, dec.released_at = True, released
            if code == "admit":
                dec.reply_by = reply or reply_by(rnd, released.date())
        app.decisions.append(dec)
        app.status = "decided"
        if stage == "enrolled":
            paid = released + dt.timedelta(days=6)
            dec.response, dec.response_at = "accept", paid
            app.deposit = Deposit(id=seed_id(state, "DEP"), amount=dec.deposit_due, method="ach",
                                  reference=f"ACH {app_id[4:]}{paid:%m%d}", paid_on=paid.date())
            app.status, app.student_id = "enrolled", student_id
    if stage == "declined":
        dec = app.decisions[-1]
        dec.response, dec.response_at, app.status = "decline", dec.released_at + dt.timedelta(days=5), "declined"
    if stage == "withdrawn":
        app.status, app.withdrawn_at = "withdrawn", submitted + dt.timedelta(days=9)
        app.withdraw_reason = "Family is relocating out of state."
    state.applications[app.id] = app
    return app


_REVIEW_TEXT = {"admit": "Strong transcript and recommendations; engaged and curious in the interview.",
                "waitlist": "Solid record but a thinner file than the admitted pool; revisit in spring.",
                "deny": "Academic record below the program's expectations; recommendations lukewarm."}


def _person(state: AdmissionsState, fake: Faker, rng: random.Random, *, first: str, last: str, birthdate: dt.date,
            grade_now: int, guardian: tuple[str, str], created: dt.datetime) -> Applicant:
    a = Applicant(id=seed_id(state, "APC"), first_name=first, last_name=last, birthdate=birthdate,
                  current_school=rng.choice(_SCHOOLS), current_grade=grade_now, guardian_name=guardian[0],
                  guardian_email=guardian[1], created=created,
                  guardian_phone=f"+1-{rng.randint(201, 989)}-555-{rng.randint(1000, 9999)}")
    if rng.random() < 0.5:
        a.email = email_for(f"{first} {last}{rng.randint(10, 99)}", "gmail.com")
    state.applicants[a.id] = a
    return a


def build_state(fake: Faker, rng: random.Random, today: dt.date, sis: StudentRecordsState) -> AdmissionsState:
    """Readers, rounds and applicants with their applications, on the SIS's students.

    Args:
        fake: seeded Faker (names of applicants who are not SIS students).
        rng: seeded random stream (phones, schools, birthdates).
        today: the task's date.
        sis: student_records' seeded state for the same seed.
    """
    state = AdmissionsState(school_name=sis.school_name)
    for (name, role, active), email in zip(READERS, READER_EMAILS):
        state.readers[email] = Reader(email=email, name=name, role=role, active=active)
    state.rounds = {r.id: r for r in rounds_for(today)}
    state.counters["RND"] = len(state.rounds) + 1
    prior = state.rounds["RND-0001"]
    nine = [s for s in sis.students.values() if s.grade_level == 9 and s.enroll_status == "A"]
    for k, st in enumerate(nine):
        g = st.contacts[0]
        start = dt.datetime.combine(prior.deadline - dt.timedelta(days=40 - k), dt.time(19, 10 + k))
        a = _person(state, fake, rng, first=st.first_name, last=st.last_name, birthdate=st.dob, grade_now=8,
                    guardian=(g.full_name, g.email), created=start - dt.timedelta(days=30))
        released = dt.datetime.combine(prior.release_date, dt.time(17, 0))
        build_application(state, seed_id(state, "ADM"), a, prior, 9, "enrolled", start=start,
                          reviews=((ASSOCIATE, 4, "admit"),), decision=("admit", 0, released), reader=ASSOCIATE,
                          student_id=st.id)
    base = day_start(today)
    for k, (rid, grade, stage, shared, missing, reviews, decision, reader) in enumerate(_CURRENT):
        rnd = state.rounds[rid]
        customer = CUSTOMERS_BY_EMAIL.get(shared) if shared else None
        last = customer.name.split()[-1] if customer else fake.last_name()
        g_name = customer.name if customer else f"{fake.first_name()} {last}"
        guardian = (g_name, customer.email if customer else email_for(g_name, fake.free_email_domain()))
        opened = (rnd.deadline or today - dt.timedelta(days=30)) - dt.timedelta(days=20 + k)
        start = dt.datetime.combine(opened, dt.time(18, 5 * k % 60))
        birth = dt.date(today.year - 5 - grade - (today.month >= 7), rng.randint(1, 12), rng.randint(1, 28))
        a = _person(state, fake, rng, first=fake.first_name(), last=last, birthdate=birth, grade_now=grade - 1,
                    guardian=guardian, created=start - dt.timedelta(days=12))
        dec = None
        if decision is not None:
            code, aid, ago = decision
            dec = (code, aid, None if ago is None else base - dt.timedelta(days=ago, hours=1))
        app = build_application(state, seed_id(state, "ADM"), a, rnd, grade, stage, start=start, missing=missing,
                                reviews=[(READER_EMAILS[i], r, rec) for i, r, rec in reviews], decision=dec,
                                reader=None if reader is None else READER_EMAILS[reader])
        if shared == "emma.wilson@yahoo.com":
            app.comments.append(Comment(id=seed_id(state, "CMT"), author_email=DIRECTOR, created_at=start,
                                        body="Sibling of current Riverside students; legacy family."))
    return state


__all__ = ["ASSOCIATE", "DIRECTOR", "READER_EMAILS", "TUITION", "build_application", "build_state", "rounds_for",
           "seed_for"]
