"""Forms: surveys with typed questions, their responses and summaries.

No forms or survey server is in ``compoworld_gym/data/mcp_servers.jsonl``; the
interface is designed after Typeform / Google Forms: a form has ordered
questions of a type (``short_text``, ``long_text``, ``multiple_choice``,
``checkboxes``, ``rating``, ``number``, ``email``, ``date``, ``yes_no``),
responses carry the respondent's email and answers keyed by question id,
submissions are validated against the questions (required, choices, scale),
closed forms reject submissions, and summaries tally answers per question.
"""

from __future__ import annotations

import datetime as dt
import random
import re
from typing import Literal, Optional, Union

from faker import Faker
from pydantic import BaseModel, ConfigDict, Field

from compoworld_gym.entities import Date, DateTime, EMAIL_PATTERN, Email, Id
from compoworld_gym.envs.services._company import OPS_EMAIL
from compoworld_gym.errors import Conflict, InvalidArgument, NotFound
from compoworld_gym.service import Record, Service, ServiceState, tool

QType = Literal["short_text", "long_text", "multiple_choice", "checkboxes", "rating", "number", "email", "date",
                "yes_no"]
Answer = Union[bool, int, float, str, list[str]]


class QuestionIn(BaseModel):
    """A question to add."""

    model_config = ConfigDict(extra="forbid")
    title: str = Field(min_length=1, max_length=300, description="The question text.")
    type: QType = Field(description="Answer type.")
    required: bool = Field(default=False, description="An answer is mandatory.")
    choices: list[str] = Field(default_factory=list, description="Options (multiple_choice, checkboxes).")
    scale_max: int = Field(default=5, ge=2, le=10, description="Top of the 1..N scale (rating).")


class Question(QuestionIn):
    """A question of a form."""

    model_config = ConfigDict(extra="forbid", revalidate_instances="always")
    id: str = Field(description="Question id within the form, e.g. q3.")


class Form(Record):
    """A form (survey)."""

    id: Id("survey") = Field(description="Form id, e.g. FRM-0002.")
    title: str = Field(description="Title.")
    description: str = Field(default="", description="Intro text.")
    owner_email: Email = Field(description="Owner.")
    status: Literal["open", "closed"] = Field(description="Closed forms accept no responses.")
    one_response_per_email: bool = Field(default=True, description="Reject a second response from one email.")
    created_on: Date = Field(description="Creation date.")
    questions: list[Question] = Field(default_factory=list, description="Questions in order.")


class FormResponse(Record):
    """One submitted response."""

    id: Id("response") = Field(description="Response id, e.g. RSP-0007.")
    form_id: Id("survey") = Field(description="The form answered.")
    respondent_email: Email = Field(description="Who answered.")
    submitted_at: DateTime = Field(description="Submission time.")
    answers: dict[str, Answer] = Field(description="Question id -> answer.")


class FormsState(ServiceState):
    """Forms and responses."""

    forms: dict[str, Form] = Field(default_factory=dict, description="Forms by id.")
    responses: dict[str, FormResponse] = Field(default_factory=dict, description="Responses by id.")


def _check_answer(q: Question, a: Answer) -> Answer:
    bad = InvalidArgument
    t = q.type
    if t in ("short_text", "long_text", "email", "date", "multiple_choice"):
        if not isinstance(a, str) or not a.strip():
            raise bad(f"question {q.id} ({t}) needs a non-empty string.")
        if t == "email":
            if not re.match(EMAIL_PATTERN, a):
                raise bad(f"question {q.id} needs an email address, got {a!r}.")
        if t == "date":
            try:
                dt.date.fromisoformat(a)
            except ValueError:
                raise bad(f"question {q.id} needs a date YYYY-MM-DD, got {a!r}.") from None
        if t == "multiple_choice" and a not in q.choices:
            raise bad(f"question {q.id}: {a!r} is not a choice; choices: {q.choices}.")
        return a
    if t == "checkboxes":
        if not isinstance(a, list) or not a or any(x not in q.choices for x in a):
            raise bad(f"question {q.id} needs a non-empty list of choices from {q.choices}.")
        return list(dict.fromkeys(a))
    if t == "yes_no":
        if not isinstance(a, bool):
            raise bad(f"question {q.id} needs true or false.")
        return a
    if isinstance(a, bool) or not isinstance(a, (int, float)):
        raise bad(f"question {q.id} ({t}) needs a number.")
    if t == "rating" and (a != int(a) or not 1 <= a <= q.scale_max):
        raise bad(f"question {q.id} needs a whole rating from 1 to {q.scale_max}.")
    return int(a) if t == "rating" else a


def _summarize(q: Question, values: list[Answer]) -> dict:
    out: dict = {"question_id": q.id, "title": q.title, "type": q.type, "answered": len(values)}
    if q.type in ("multiple_choice", "checkboxes"):
        counts = {c: 0 for c in q.choices}
        for v in values:
            for x in (v if isinstance(v, list) else [v]):
                counts[x] = counts.get(x, 0) + 1
        out["counts"] = counts
    elif q.type == "yes_no":
        out["counts"] = {"yes": sum(v is True for v in values), "no": sum(v is False for v in values)}
    elif q.type in ("rating", "number"):
        nums = [float(v) for v in values]
        out.update(average=round(sum(nums) / len(nums), 2) if nums else None, min=min(nums, default=None),
                   max=max(nums, default=None))
    else:
        out["latest"] = [str(v) for v in values[-5:]]
    return out


class Forms(Service):
    """Surveys and forms: questions, validated responses and summaries."""

    name = "forms"
    description = "Forms and surveys (Typeform/Google-Forms-like): questions, respondent answers and summaries."
    domain = "marketing"
    spec_source = None
    State = FormsState

    def _form(self, form_id: str) -> Form:
        return self.lookup(self.state.forms, form_id, "form")

    def _question(self, form: Form, spec: QuestionIn) -> Question:
        if spec.type in ("multiple_choice", "checkboxes") and len(set(spec.choices)) < 2:
            raise InvalidArgument(f"a {spec.type} question needs at least 2 distinct choices.")
        if spec.type not in ("multiple_choice", "checkboxes") and spec.choices:
            raise InvalidArgument(f"choices only apply to multiple_choice and checkboxes, not {spec.type}.")
        n = max((int(q.id[1:]) for q in form.questions), default=0) + 1
        return Question(id=f"q{n}", **spec.model_dump())

    # ------------------------------------------------------------------ reads
    @tool(read_only=True, returns=list[Form])
    def list_forms(self, status: Optional[Literal["open", "closed"]] = None) -> list[dict]:
        """List forms with their status, question count and response count.

        Args:
            status: only open or only closed forms.
        """
        counts: dict[str, int] = {}
        for r in self.state.responses.values():
            counts[r.form_id] = counts.get(r.form_id, 0) + 1
        return [{**f.model_dump(exclude={"questions"}), "questions": len(f.questions), "responses": counts.get(f.id, 0)}
                for f in self.state.forms.values() if status in (None, f.status)]

    @tool(read_only=True, returns=Form)
    def get_form(self, form_id: Id("survey")) -> dict:
        """Get a form with all its questions.

        Args:
            form_id: the form id.
        """
        return self._form(form_id).model_dump()

    @tool(read_only=True, returns=list[FormResponse])
    def list_responses(self, form_id: Id("survey"), respondent_email: Optional[Email] = None,
                       submitted_after: Optional[DateTime] = None, question_id: Optional[str] = None,
                       answer: Optional[Answer] = None, limit: int = Field(default=50, ge=1, le=500)) -> list[dict]:
        """List a form's responses, oldest first, filtered by respondent, time or an answer.

        Args:
            form_id: the form id.
            respondent_email: only this respondent's responses.
            submitted_after: only responses submitted strictly after this time.
            question_id: with answer, only responses that gave that answer to this question.
            answer: the answer to match (a checkboxes answer matches if it includes it).
            limit: maximum number of responses.
        """
        self._form(form_id)
        if (question_id is None) != (answer is None):
            raise InvalidArgument("give question_id and answer together.")
        who = respondent_email.lower() if respondent_email else None
        out = []
        for r in self.state.responses.values():
            if r.form_id != form_id or who not in (None, r.respondent_email.lower()):
                continue
            if submitted_after and r.submitted_at <= submitted_after.replace(tzinfo=None):
                continue
            if question_id is not None:
                got = r.answers.get(question_id)
                if not (got == answer or (isinstance(got, list) and answer in got)):
                    continue
            out.append(r.model_dump())
        return out[:limit]

    @tool(read_only=True, returns=FormResponse)
    def get_response(self, response_id: Id("response")) -> dict:
        """Get one response with its answers labelled by question title.

        Args:
            response_id: the response id.
        """
        r = self.lookup(self.state.responses, response_id, "response")
        titles = {q.id: q.title for q in self.state.forms[r.form_id].questions}
        return {**r.model_dump(), "labelled": {titles.get(k, k): v for k, v in r.answers.items()}}

    @tool(read_only=True)
    def get_form_summary(self, form_id: Id("survey")) -> dict:
        """Summarize a form's responses per question: choice counts, yes/no counts,
        rating/number averages, latest text answers.

        Args:
            form_id: the form id.
        """
        f = self._form(form_id)
        rs = [r for r in self.state.responses.values() if r.form_id == form_id]
        return {"form_id": form_id, "title": f.title, "responses": len(rs),
                "questions": [_summarize(q, [r.answers[q.id] for r in rs if q.id in r.answers]) for q in f.questions]}

    # ----------------------------------------------------------------- writes
    @tool(read_only=False, returns=Form)
    def create_form(self, title: str = Field(min_length=1, max_length=200), description: str = "",
                    questions: list[QuestionIn] = Field(default_factory=list),
                    one_response_per_email: bool = True) -> dict:
        """Create an open form with its questions.

        Args:
            title: the form title.
            description: intro text.
            questions: questions in order.
            one_response_per_email: reject a second response from the same email.
        """
        f = Form(id=self.new_id("FRM"), title=title, description=description, owner_email=OPS_EMAIL, status="open",
                 one_response_per_email=one_response_per_email, created_on=self.today)
        for spec in questions:
            f.questions.append(self._question(f, spec))
        self.state.forms[f.id] = f
        return f.model_dump()

    @tool(read_only=False)
    def add_question(self, form_id: Id("survey"), title: str = Field(min_length=1, max_length=300),
                     type: QType = "short_text", required: bool = False,  # noqa: A002 - API name
                     choices: list[str] = Field(default_factory=list), scale_max: int = Field(default=5, ge=2, le=10)) -> dict:
        """Add a question at the end of a form.

        Args:
            form_id: the form id.
            title: the question text.
            type: answer type.
            required: whether an answer is mandatory.
            choices: options for multiple_choice and checkboxes (at least 2).
            scale_max: top of the 1..N scale for rating questions.
        """
        f = self._form(form_id)
        q = self._question(f, QuestionIn(title=title, type=type, required=required, choices=choices, scale_max=scale_max))
        f.questions.append(q)
        return {"form_id": form_id, **q.model_dump()}

    @tool(read_only=False, destructive=True)
    def delete_question(self, form_id: Id("survey"), question_id: str) -> dict:
        """Delete a question from a form that has no responses yet.

        Args:
            form_id: the form id.
            question_id: the question id, e.g. q2.
        """
        f = self._form(form_id)
        q = next((x for x in f.questions if x.id == question_id), None)
        if q is None:
            raise NotFound(f"form {form_id} has no question {question_id!r}; see get_form.")
        if any(r.form_id == form_id for r in self.state.responses.values()):
            raise Conflict(f"form {form_id} already has responses; its questions can no longer be deleted.")
        f.questions.remove(q)
        return {"form_id": form_id, "deleted": question_id}

    @tool(read_only=False)
    def update_form(self, form_id: Id("survey"), title: Optional[str] = None, description: Optional[str] = None,
                    status: Optional[Literal["open", "closed"]] = None) -> dict:
        """Rename a form, change its description, or open/close it for responses.

        Args:
            form_id: the form id.
            title: new title.
            description: new description.
            status: open or closed.
        """
        f = self._form(form_id)
        if title is None and description is None and status is None:
            raise InvalidArgument("nothing to update: give title, description or status.")
        f.title = title or f.title
        f.description = f.description if description is None else description
        f.status = status or f.status
        return f.model_dump(exclude={"questions"})

    @tool(read_only=False, returns=FormResponse)
    def submit_response(self, form_id: Id("survey"), respondent_email: Email, answers: dict[str, Answer]) -> dict:
        """Submit a response; answers are validated against the questions.

        Args:
            form_id: the form id.
            respondent_email: the respondent's email.
            answers: question id -> answer (text, number, true/false, or a list for checkboxes).
        """
        f = self._form(form_id)
        if f.status != "open":
            raise Conflict(f"form {form_id} is closed and accepts no responses.")
        email = respondent_email.lower()
        if f.one_response_per_email and any(r.form_id == form_id and r.respondent_email == email
                                            for r in self.state.responses.values()):
            raise Conflict(f"{email} already responded to {form_id}.")
        by_id = {q.id: q for q in f.questions}
        unknown = sorted(set(answers) - set(by_id))
        if unknown:
            raise InvalidArgument(f"unknown question id(s) {unknown}; see get_form.")
        missing = [q.id for q in f.questions if q.required and q.id not in answers]
        if missing:
            raise InvalidArgument(f"required question(s) {missing} are unanswered.")
        clean = {qid: _check_answer(by_id[qid], a) for qid, a in answers.items()}
        r = FormResponse(id=self.new_id("RSP"), form_id=form_id, respondent_email=email, submitted_at=self.now(),
                         answers=clean)
        self.state.responses[r.id] = r
        return r.model_dump()

    @tool(read_only=False, destructive=True)
    def delete_response(self, response_id: Id("response")) -> dict:
        """Delete a response (e.g. a test or a data-deletion request).

        Args:
            response_id: the response id.
        """
        r = self.lookup(self.state.responses, response_id, "response")
        del self.state.responses[response_id]
        return {"response_id": response_id, "form_id": r.form_id, "deleted": True}

    # ------------------------------------------------------------------ seeds
    @classmethod
    def build_seed_state(cls, fake: Faker, rng: random.Random, today: dt.date) -> FormsState:
        from compoworld_gym.envs.services._forms_seed import build_state

        return FormsState.model_validate(build_state(rng, today))
