"""Seed data of the opik service: the LLM features of the company's apps.

Projects are named after the applications of the shared engineering catalog
that call LLMs (``web-frontend``'s shopping assistant, ``search-api``'s query
rewriting, ``notifications-worker``'s e-mail copy) plus the support team's
reply copilot and a playground. Prompts have two or three committed versions
by the engineers who own them. Traces of the last three weeks carry spans
with token usage and costs from the models' list prices, the end user's
e-mail in their metadata, online-evaluation and user feedback scores, and a
few errors. :func:`add_trace` and :func:`add_prompt` are also what the
generation hook plants with.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import random
from typing import Optional

from faker import Faker

from compoworld_gym.envs.services._blocks import day_start, fake_person
from compoworld_gym.envs.services._engineering import team_engineers
from compoworld_gym.envs.services._opik_models import (
    ErrorInfo, FeedbackScore, OpikProject, OpikPrompt, OpikState, PromptVersion, Span, Trace, Usage,
    template_variables, uuid7,
)

#: model: (provider, USD per 1M input tokens, USD per 1M output tokens)
PRICES = {"gpt-4o-mini": ("openai", 0.15, 0.60), "gpt-4o": ("openai", 2.50, 10.00),
          "claude-3-5-haiku": ("anthropic", 0.80, 4.00)}
_PROJECTS = (("web-frontend", "Storefront shopping assistant (chat)", "storefront"),
             ("search-api", "LLM query rewriting for product search", "storefront"),
             ("notifications-worker", "Transactional e-mail copy generation", "platform"),
             ("support-copilot", "Reply drafts for helpdesk agents", "platform"),
             ("playground", "Prompt experiments", "data"))
_PROMPTS = {
    "shopping-assistant-system": ("storefront", (
        "You are Acme's shopping assistant. Help {{customer_name}} find products.",
        "You are Acme's shopping assistant. Help {{customer_name}} find products. Only recommend products that "
        "are in stock.",
        "You are Acme's shopping assistant. Help {{customer_name}} find products. Only recommend products that "
        "are in stock. Answer in {{language}}.")),
    "query-rewrite": ("storefront", ("Rewrite the search query '{{query}}' into keywords.",
                                     "Rewrite the search query '{{query}}' into at most {{max_terms}} catalog "
                                     "keywords; keep brand names.")),
    "order-status-email": ("platform", ("Write a short e-mail telling {{customer_name}} that order {{order_id}} "
                                        "ships soon.",
                                        "Write a friendly e-mail telling {{customer_name}} that order {{order_id}} "
                                        "arrives by {{eta}}. No discounts or promises.")),
    "support-reply-draft": ("platform", ("Draft a reply to: {{customer_message}}",
                                         "Draft a polite reply to the ticket '{{ticket_subject}}': "
                                         "{{customer_message}}",
                                         "Draft a {{tone}} reply to the ticket '{{ticket_subject}}': "
                                         "{{customer_message}}. Never promise refunds.")),
    "product-description": ("data", ("Write a 50-word description of {{product_name}} for the catalog.",)),
}


def next_uuid(state: OpikState, at: dt.datetime) -> str:
    """The next id of the workspace (its ``OPIK`` counter) created at ``at``."""
    n = state.counters.get("OPIK", 1)
    state.counters["OPIK"] = n + 1
    return uuid7(at, n)


def commit_of(template: str, n: int) -> str:
    """A version's short commit hash (from its template and number: stable)."""
    return hashlib.sha1(f"{n}:{template}".encode()).hexdigest()[:8]


def add_project(state: OpikState, name: str, description: str, owner: str, at: dt.datetime) -> OpikProject:
    """Add a project; returns it."""
    p = OpikProject(id=next_uuid(state, at), name=name, description=description, created_at=at, created_by=owner,
                    last_updated_at=at)
    state.projects[p.id] = p
    return p


def add_prompt(state: OpikState, name: str, templates: tuple[str, ...], author: str, first: dt.datetime,
               step: dt.timedelta, latest_author: Optional[str] = None) -> OpikPrompt:
    """Add a prompt with one version per template, ``step`` apart from ``first`` (the last by
    ``latest_author`` when given); returns it."""
    prompt = OpikPrompt(id=next_uuid(state, first), name=name, created_at=first, created_by=author,
                        last_updated_at=first + step * (len(templates) - 1))
    for k, tpl in enumerate(templates):
        at = first + step * k
        by = latest_author if latest_author and k == len(templates) - 1 else author
        prompt.versions.append(PromptVersion(
            id=next_uuid(state, at), commit=commit_of(tpl, len(state.prompts) * 10 + k), template=tpl,
            variables=template_variables(tpl), commit_message="Initial version" if k == 0 else f"Revision {k + 1}",
            created_at=at, created_by=by))
    state.prompts[prompt.id] = prompt
    return prompt


def llm_span(state: OpikState, name: str, model: str, start: dt.datetime, tokens_in: int, tokens_out: int,
             cost: Optional[float] = None) -> Span:
    """An LLM span; its cost from the model's list price unless ``cost`` is given (USD)."""
    provider, pin, pout = PRICES[model]
    est = round(tokens_in * pin / 1e6 + tokens_out * pout / 1e6, 6) if cost is None else cost
    end = start + dt.timedelta(milliseconds=300 + tokens_out * 12)
    return Span(id=next_uuid(state, start), name=name, type="llm", model=model, provider=provider, start_time=start,
                end_time=end, usage=Usage(prompt_tokens=tokens_in, completion_tokens=tokens_out,
                                          total_tokens=tokens_in + tokens_out), total_estimated_cost=est)


def add_trace(state: OpikState, project: OpikProject, name: str, start: dt.datetime, spans: list[Span],
              metadata: dict, inp: dict, out: dict, scores: tuple[tuple[str, float, str, str], ...] = (),
              error: Optional[ErrorInfo] = None, tags: tuple[str, ...] = ()) -> Trace:
    """Add a trace of ``project`` made of ``spans``; ``scores`` are ``(name, value, reason, source)``."""
    end = max((s.end_time for s in spans), default=start + dt.timedelta(milliseconds=250))
    t = Trace(id=next_uuid(state, start), project_id=project.id, name=name, start_time=start, end_time=end,
              input=inp, output=out, metadata=metadata, tags=list(tags), spans=spans, error_info=error,
              feedback_scores=[FeedbackScore(name=n, value=v, reason=r, source=src,
                                             created_by="online-eval" if src == "online_scoring" else "web-widget",
                                             last_updated_at=end + dt.timedelta(seconds=5))
                               for n, v, r, src in scores])
    state.traces[t.id] = t
    return t


def _traces(state: OpikState, projects: dict[str, OpikProject], prompts: dict[str, OpikPrompt], fake: Faker,
            rng: random.Random, start: dt.datetime) -> None:
    def when(max_days: int) -> dt.datetime:
        return start - dt.timedelta(days=rng.randint(0, max_days), hours=rng.randint(0, 8), minutes=rng.randint(0, 59))

    chat = prompts["shopping-assistant-system"]
    for k in range(5):
        person, at = fake_person(fake), when(20)
        tool = Span(id=next_uuid(state, at), name="retrieve_products", type="tool", start_time=at,
                    end_time=at + dt.timedelta(milliseconds=180))
        llm = llm_span(state, "chat_completion", "gpt-4o-mini", at + dt.timedelta(milliseconds=200),
                       rng.randint(900, 2400), rng.randint(80, 400))
        error = ErrorInfo(exception_type="RateLimitError", message="Error code: 429 - Rate limit reached for "
                          "gpt-4o-mini") if k == 3 else None
        scores = (("hallucination", round(rng.uniform(0, 0.4), 2), "Recommendations match the catalog.",
                   "online_scoring"), ("user_feedback", float(k % 2 == 0), "", "ui"))
        add_trace(state, projects["web-frontend"], "shopping_assistant.chat", at, [tool, llm],
                  {"environment": "production", "user_email": person.email, "prompt": chat.name,
                   "prompt_commit": chat.versions[-1].commit},
                  {"message": rng.choice(("Do you have the trail shoes in size 44?", "Gift ideas under $50",
                                          "Is the blue kettle back in stock?"))},
                  {} if error else {"reply": "Here are three options that are in stock."}, scores, error,
                  ("chat", "production"))
    for _ in range(3):
        at = when(20)
        add_trace(state, projects["search-api"], "search.rewrite_query", at,
                  [llm_span(state, "rewrite", "gpt-4o-mini", at, rng.randint(60, 160), rng.randint(8, 30))],
                  {"environment": "production", "prompt": "query-rewrite"}, {"query": "waterproof jaket men"},
                  {"keywords": ["waterproof", "jacket", "men"]})
    for _ in range(2):
        at, person = when(20), fake_person(fake)
        add_trace(state, projects["notifications-worker"], "email.order_status", at,
                  [llm_span(state, "compose", "claude-3-5-haiku", at, rng.randint(300, 600), rng.randint(120, 260))],
                  {"environment": "production", "user_email": person.email, "prompt": "order-status-email"},
                  {"order_id": f"ORD-{rng.randint(1000, 9999)}"}, {"subject": "Your order is on its way"})
    for k in range(3):
        at, person = when(20), fake_person(fake)
        add_trace(state, projects["support-copilot"], "support.draft_reply", at,
                  [llm_span(state, "draft", "gpt-4o", at, rng.randint(1200, 3000), rng.randint(200, 500))],
                  {"environment": "production", "user_email": person.email,
                   "ticket_id": f"TCK-{rng.randint(1, 80):04d}",
                   "prompt": "support-reply-draft"},
                  {"ticket_subject": rng.choice(("Refund not received", "Damaged on arrival"))},
                  {"draft": "Sorry to hear that - here is what we will do."},
                  (("answer_relevance", round(rng.uniform(0.55, 0.98), 2), "Addresses the question.",
                    "online_scoring"),))
    at = when(20)
    add_trace(state, projects["playground"], "experiment.product_copy", at,
              [llm_span(state, "generate", "gpt-4o", at, 400, 180)], {"environment": "development"},
              {"product_name": "Alpine thermos"}, {"text": "Keeps drinks hot for 12 hours."}, tags=("experiment",))


def build_state(fake: Faker, rng: random.Random, today: dt.date) -> OpikState:
    """Five projects, five prompts (1-3 versions) and fourteen traces of the last three weeks."""
    state, start = OpikState(), day_start(today)
    projects = {}
    for k, (name, desc, team) in enumerate(_PROJECTS):
        projects[name] = add_project(state, name, desc, team_engineers(team)[0].email,
                                     start - dt.timedelta(days=60 + 15 * k))
    prompts = {}
    for k, (name, (team, templates)) in enumerate(_PROMPTS.items()):
        authors = team_engineers(team)
        prompts[name] = add_prompt(state, name, templates, authors[0].email, start - dt.timedelta(days=50 - 5 * k),
                                   dt.timedelta(days=9), latest_author=authors[-1].email)
    _traces(state, projects, prompts, fake, rng, start)
    state.traces = dict(sorted(state.traces.items()))  # ids sort by time
    return state
