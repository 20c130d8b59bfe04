"""Opik in chained tasks: an LLM trace names the end user (the customer's
email in its metadata) and the service whose project recorded it; a
service's Opik project (named after it) gives the month's LLM spend (the
estimated cost of this month's traces); a prompt names the engineer who
committed its latest version. Writes: the case's trace is flagged for human
review (a feedback score with a reason quoting a found value), or the
prompt is rolled back to its previous template by a new version."""

from __future__ import annotations

import datetime as dt
from typing import Any

from compoworld_gym.checks import OnlyChanged, RecordMatches
from compoworld_gym.envs.services._blocks import day_start
from compoworld_gym.envs.services._engineering import ENGINEERS
from compoworld_gym.envs.services._opik_models import OpikState, Span, uuid7
from compoworld_gym.envs.services._opik_seed import add_project, add_prompt, add_trace, llm_span, next_uuid
from compoworld_gym.generation.context import Ctx, call
from compoworld_gym.generation.hooks.deployments import app_name, engineer_email, new_app_key
from compoworld_gym.generation.links import Action, Found, Give, Need, Reader, Relay, ServiceLinks, SolveError, Write

SERVICE = "opik"
_EPOCH = dt.datetime(1970, 1, 1)
_TOPICS = ("returns-policy-answer", "loyalty-faq", "delivery-eta-reply", "refund-explainer", "size-advisor",
           "gift-card-help", "invoice-summary", "warranty-triage", "product-compare", "address-check")


def _load(ctx: Ctx) -> OpikState:
    return OpikState.model_validate(ctx.state(SERVICE))


def _save(ctx: Ctx, state: OpikState) -> None:
    ctx.states[SERVICE] = state.model_dump(mode="json")


def _at(uid: str) -> dt.datetime:
    """The creation time a UUIDv7-shaped id carries."""
    return _EPOCH + dt.timedelta(milliseconds=int(uid.replace("-", "")[:12], 16))


def _new_id(ctx: Ctx, at: dt.datetime) -> str:
    counters = ctx.state(SERVICE)["counters"]
    n = counters.get("OPIK", 1)
    counters["OPIK"] = n + 1
    return uuid7(at, n)


def _new_app(ctx: Ctx) -> str:
    names = {p["name"] for p in ctx.state(SERVICE)["projects"].values()}
    while True:
        app = new_app_key(ctx)
        if app not in names:
            return app


def ensure_project(state: OpikState, ctx: Ctx, name: str) -> Any:
    """The project named ``name`` (added, created two months ago by an engineer, if missing)."""
    found = next((p for p in state.projects.values() if p.name == name), None)
    return found or add_project(state, name, f"LLM features of {app_name(name)}", engineer_email(ctx),
                                day_start(ctx.today) - dt.timedelta(days=60))


# ------------------------------------------------------------------ traces
def _alloc_trace(ctx: Ctx) -> str:
    ago = dt.timedelta(hours=ctx.rng.randint(1, 30), minutes=ctx.rng.randint(0, 59))
    return _new_id(ctx, day_start(ctx.today) - ago)


def plant_trace(ctx: Ctx, trace_id: str, email: str, project: str) -> str:
    """Add a trace ``trace_id`` (its time from the id) of ``project``: a chat answer to the end user
    ``email`` that the online evaluation scored as a likely hallucination. Returns the id."""
    state, at = _load(ctx), _at(trace_id)
    proj = ensure_project(state, ctx, project)
    tool = Span(id=next_uuid(state, at), name="retrieve_context", type="tool", start_time=at,
                end_time=at + dt.timedelta(milliseconds=140))
    llm = llm_span(state, "chat_completion", "gpt-4o-mini", at + dt.timedelta(milliseconds=160),
                   ctx.rng.randint(900, 2400), ctx.rng.randint(80, 400))
    trace = add_trace(state, proj, "assistant.chat", at, [tool, llm],
                      {"environment": "production", "user_email": email},
                      {"message": "Can I still return the jacket I bought last month?"},
                      {"reply": "Yes, returns are free for 365 days."},
                      (("hallucination", round(ctx.rng.uniform(0.7, 0.95), 2), "The answer contradicts the "
                        "returns policy.", "online_scoring"),), tags=("chat", "production"))
    state.traces.pop(trace.id)
    state.traces[trace_id] = trace.model_copy(update={"id": trace_id})
    _save(ctx, state)
    return trace_id


TRACE = Relay(
    service=SERVICE, name="LLM trace", key="trace_id",
    gives=(Give("email", "metadata.user_email", "the email address of the end user whose request the trace recorded",
                "the customer"),
           Give("project_id", "project_name", "the service whose LLM call the trace recorded")),
    plant=lambda ctx, key, outs, stale: plant_trace(ctx, str(key), outs.get("email") or ctx.fresh("email"),
                                                    outs.get("project_id") or _new_app(ctx)),
    find=lambda reader, key: reader.read(SERVICE, "get-trace-by-id", traceId=key),
    where="Opik records each LLM request of the company's services as a trace in the project named after the "
          "service; a trace's metadata names the end user's email.",
    alloc=_alloc_trace, entry=lambda key: f"Opik trace {key}")


# ------------------------------------------------------------------- spend
def plant_spend(ctx: Ctx, project: str, total: float, stale: bool) -> str:
    """Add batch traces to ``project`` whose estimated costs sum to ``total`` USD: this month's, or
    (``stale``) last month's. Returns the project id."""
    state = _load(ctx)
    proj = ensure_project(state, ctx, project)
    cents, parts = round(total * 100), ctx.rng.randint(2, 4)
    cuts = sorted(ctx.rng.sample(range(1, cents), parts - 1)) if cents > parts else []
    first = ctx.today.replace(day=1)
    for k, (a, b) in enumerate(zip([0, *cuts], [*cuts, cents])):
        day = (first - dt.timedelta(days=ctx.rng.randint(2, 25)) if stale
               else first + dt.timedelta(days=ctx.rng.randint(0, (ctx.today - first).days)))
        at = dt.datetime.combine(day, dt.time(1, 10 + k))
        cost = (b - a) / 100
        span = llm_span(state, "batch_completion", "gpt-4o", at, int(cost * 0.6 / 2.5e-6), int(cost * 0.4 / 1e-5),
                        cost=cost)
        add_trace(state, proj, "batch.catalog_enrichment", at, [span], {"environment": "production", "job": "nightly"},
                  {"items": ctx.rng.randint(2000, 9000)}, {"status": "completed"}, tags=("batch",))
    _save(ctx, state)
    return proj.id


def _spend(reader: Reader, key: Any) -> dict[str, Any]:
    today = dt.date.fromisoformat(reader.read(SERVICE, "get-metrics", metricName="trace_count",
                                              projectName=str(key))["end_date"])
    return reader.read(SERVICE, "get-trace-stats", projectName=str(key), startDate=today.replace(day=1).isoformat(),
                       endDate=today.isoformat())


SPEND = Relay(
    service=SERVICE, name="service's LLM spend this month", key="project_id",
    gives=(Give("money", "total_estimated_cost_usd", "the service's LLM spend this month"),),
    plant=lambda ctx, key, outs, stale: plant_spend(ctx, str(key), outs.get("money") or ctx.fresh("money"), stale),
    find=_spend,
    where="Opik keeps each service's LLM calls as traces in a project named after the service, with their estimated "
          "costs; a service's LLM spend for the month is the estimated cost of its traces since the 1st.",
    truth="Traces from before the 1st belong to earlier months; only this month's traces count.", alloc=_new_app)


# ----------------------------------------------------------------- prompts
def _alloc_prompt(ctx: Ctx) -> str:
    return _new_id(ctx, day_start(ctx.today) - dt.timedelta(days=ctx.rng.randint(20, 90)))


def plant_prompt(ctx: Ctx, prompt_id: str, author: str) -> str:
    """Add a prompt ``prompt_id`` with two versions, the latest committed by ``author`` a few days ago."""
    state, created = _load(ctx), _at(prompt_id)
    taken = {p.name for p in state.prompts.values()}
    name = next((t for t in ctx.rng.sample(_TOPICS, len(_TOPICS)) if t not in taken), f"prompt-{prompt_id[-4:]}")
    subject = name.replace("-", " ")
    first = f"Answer the customer's question about {subject}: {{{{question}}}}"
    second = f"Answer {{{{customer_name}}}}'s question about {subject} in two sentences: {{{{question}}}}"
    other = ctx.rng.choice([e.email for e in ENGINEERS if e.email != author])
    latest = day_start(ctx.today) - dt.timedelta(days=ctx.rng.randint(1, 6))
    prompt = add_prompt(state, name, (first, second), other, created, latest - created, latest_author=author)
    state.prompts.pop(prompt.id)
    state.prompts[prompt_id] = prompt.model_copy(update={"id": prompt_id})
    _save(ctx, state)
    return prompt_id


PROMPT = Relay(
    service=SERVICE, name="Opik prompt", key="prompt_id",
    gives=(Give("email", "latest_version.created_by", "the email address of the engineer who committed the "
                "prompt's latest version", "the prompt's latest author", draw=engineer_email),),
    plant=lambda ctx, key, outs, stale: plant_prompt(ctx, str(key), outs.get("email") or engineer_email(ctx)),
    find=lambda reader, key: reader.read(SERVICE, "get-prompt-by-id", promptId=key),
    where="Opik's prompt library keeps every version of a prompt with the engineer who committed it.",
    alloc=_alloc_prompt, entry=lambda key: f"Opik prompt {key}")


# ----------------------------------------------------------------- actions
def _flag(reader: Reader, args: dict[str, Found]) -> Write:
    tid, mention, case = str(args["trace"].value), args["mention"], args["case"].value
    reader.read(SERVICE, "get-trace-by-id", traceId=tid)
    reason = f"{case}: {mention.noun} is {mention.display}"
    return Write(
        calls=[call("add-trace-feedback-score", traceId=tid, name="human_review", value=0, reason=reason)],
        checks=[RecordMatches(id="_", service=SERVICE, collection="traces", record_id=tid,
                              where={"feedback_scores": {"$any": {"name": "human_review", "value": 0,
                                                                  "reason": {"$contains": mention.display}}}},
                              description="The trace has a human_review score of 0, its reason quoting the value.")],
        scope=[OnlyChanged(id="_", service=SERVICE, collection="traces", allow_ids=[tid],
                           description="No other trace was scored or changed.")],
        tool="add-trace-feedback-score", where={"traceId": tid}, label="the human-review flag on the trace")


def _rollback(reader: Reader, args: dict[str, Found]) -> Write:
    pid, mention, case = str(args["prompt"].value), args["mention"], args["case"].value
    prompt = reader.read(SERVICE, "get-prompt-by-id", promptId=pid)
    if len(prompt["versions"]) < 2:
        raise SolveError(f"prompt {pid} has no previous version")
    prev = prompt["versions"][-2]
    message = f"{case}: roll back to {prev['commit']}; {mention.noun} is {mention.display}"
    return Write(
        calls=[call("create-prompt-version", name=prompt["name"], template=prev["template"], commit_message=message)],
        checks=[RecordMatches(id="_", service=SERVICE, collection="prompts", record_id=pid,
                              where={"versions": {"$any": {"template": prev["template"],
                                                           "commit_message": {"$contains": mention.display}}}},
                              description="A new version restores the previous template, its message quoting the "
                                          "value.")],
        scope=[OnlyChanged(id="_", service=SERVICE, collection="prompts", allow_ids=[pid],
                           description="No other prompt was changed.")],
        tool="create-prompt-version", where={"name": prompt["name"]}, label="the rollback of the prompt")


def _prepare_trace(ctx: Ctx, values: dict[str, Any]) -> None:
    if str(values["trace"]) not in ctx.state(SERVICE)["traces"]:
        plant_trace(ctx, str(values["trace"]), ctx.fresh("email"), _new_app(ctx))


def _prepare_prompt(ctx: Ctx, values: dict[str, Any]) -> None:
    if str(values["prompt"]) not in ctx.state(SERVICE)["prompts"]:
        plant_prompt(ctx, str(values["prompt"]), engineer_email(ctx))


LINKS = ServiceLinks(
    service=SERVICE, label="Opik (LLM observability)",
    relays=(TRACE, SPEND, PROMPT),
    actions=(
        Action(service=SERVICE, name="flag_trace", needs=(Need("trace", "trace_id", noun="trace"),), build=_flag,
               prepare=_prepare_trace,
               goal="flag {trace} for human review in Opik (a human_review feedback score of 0, its reason quoting "
                    "{mention})"),
        Action(service=SERVICE, name="rollback_prompt", needs=(Need("prompt", "prompt_id", noun="prompt"),),
               build=_rollback, prepare=_prepare_prompt,
               goal="roll {prompt} back to its previous template by committing it as a new version, the commit "
                    "message quoting {mention}"),
    ),
)

__all__ = ["LINKS", "ensure_project", "plant_prompt", "plant_spend", "plant_trace"]
