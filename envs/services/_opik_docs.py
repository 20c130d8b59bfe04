"""Static help of the opik service: the texts of get-opik-help,
get-opik-examples and get-opik-tracing-info (the MCP server answers them
from built-in documentation, not from the workspace)."""

from __future__ import annotations

HELP: dict[str, str] = {
    "general": "Opik records LLM applications as traces (one request end to end) made of spans (LLM calls, tool "
               "calls). Traces live in projects, one per application; prompts are versioned templates.",
    "prompts": "A prompt is a named mustache template ({{variable}}). create-prompt makes it, "
               "create-prompt-version commits a new template with a commit message; the latest version is the one "
               "applications load. Rolling back means committing the older template again.",
    "projects": "A project groups the traces of one application, named after the service. list-projects pages "
                "through them; deleting a project deletes its traces.",
    "traces": "list-traces needs a project (projectId or projectName). A trace holds its spans with token usage "
              "and estimated cost, metadata (environment, the end user's email, the prompt and commit used), "
              "feedback scores and any error.",
    "metrics": "get-trace-stats sums a project's traces over a date range (counts, errors, tokens, cost, "
               "durations, average feedback scores); get-metrics gives daily series of trace_count, cost, "
               "token_usage, duration and feedback_scores.",
}
SUBTOPICS: dict[str, dict[str, str]] = {
    "traces": {"spans": "Spans nest inside a trace: type llm (with model, provider, usage, cost), tool, general or "
                        "guardrail.",
               "feedback": "Feedback scores are named values on a trace; one score per name, a new one replaces it."},
    "prompts": {"versions": "Versions are immutable; each has a commit hash, the template, its variables, the "
                            "commit message and its author."},
}
EXAMPLES: dict[str, str] = {
    "create prompt": "create-prompt {name: 'order-status-email'}, then create-prompt-version {name: "
                     "'order-status-email', template: 'Hi {{customer_name}}, order {{order_id}} ships today.', "
                     "commit_message: 'First draft'}.",
    "analyze traces": "list-traces {projectName: 'web-frontend', page: 1, size: 20}, then get-trace-by-id on the "
                      "traces with an error_info or a low feedback score.",
    "monitor costs": "get-trace-stats {projectName: 'web-frontend', startDate: <the 1st of the month>, endDate: "
                     "<today>} gives the month's total estimated cost; get-metrics {metricName: 'cost'} the daily "
                     "series.",
    "score a trace": "add-trace-feedback-score {traceId, name: 'human_review', value: 0, reason: '...'} records a "
                     "person's verdict on a trace.",
}
TRACING: dict[str, str] = {
    "general": "Instrument code with the @track decorator or an integration (OpenAI, Anthropic, LangChain); each "
               "call becomes a trace with spans and is sent to the project named by OPIK_PROJECT_NAME.",
    "spans": "Nested @track functions become child spans; LLM integrations fill in model, usage and cost.",
    "distributed": "Pass opik_headers between services to continue one trace across processes.",
    "multimodal": "Images in LLM inputs are stored as attachments of the span.",
    "annotations": "Feedback scores annotate traces: online evaluation rules score them automatically, people in "
                   "the UI or through the API.",
}
