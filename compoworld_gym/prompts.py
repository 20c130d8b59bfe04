"""The system prompt of every episode.

Today's date is fixed in the prompt, as in the paper's published
trajectories, so "overdue" and "next week" are well defined.
The final answer is free text, as in the paper; the prompt says how it is
graded (:class:`compoworld_gym.checks.AnswerContains`: the value asked for,
no candidate it could be confused with) and that work is done once (the
footprint guards of :mod:`compoworld_gym.footprint`).
"""

from __future__ import annotations

import datetime as dt
import json

_ROLE = """You are an operations assistant working inside a company's software workspace.
Today's date is {today}.

"""

#: How the agent acts, per tool mode: the four meta-tools, or every mounted tool
#: given directly (:class:`compoworld_gym.wrappers.FlatTools`).
_HOW_TO_ACT = {
    "meta": """You act only through four meta-tools:
- list_services(): the services (applications) available in this workspace.
- list_tools(service): the tools of one service, with one-line descriptions.
- describe_tool(tool): a tool's full description and the JSON Schema of its parameters.
- call_tool(tool_name, arguments): call a tool; arguments is a JSON object.
""",
    "flat": """You act by calling the tools you were given; each takes a JSON object of arguments.
""",
}

_NOT_NEEDED = {"meta": "Not every listed service is needed.", "flat": "Not every tool is needed."}

_RULES = """
Tool results are {{"success": true, "data": ...}} or {{"success": false, "error": {{"code": ..., "message": ...}}}}.
{not_needed} Look records up instead of guessing ids or addresses.
Follow the house rules in the request. Do each piece of work once: a repeated message or record
is a mistake. When the work is done, reply with your final answer (without a tool call), in plain
text: report what the request asks for, and only that. An answer that lists other candidate values
besides the one asked for counts as a wrong answer."""

#: Appended where the final answer is a tool call (TRL's tool loop: ``baselines.trl_env``).
ANSWER_TOOL_SENTENCE = (
    "Here the final answer is a tool call instead: when the work is done, call answer(text) with "
    "your final answer (plain text, as above). It ends the task; no tool works after it. A reply "
    "without a tool call also ends the task, with no answer.")

#: The meta-tool system prompt as a template with one field, ``{today}``.
SYSTEM_PROMPT = _ROLE + _HOW_TO_ACT["meta"] + _RULES.replace("{not_needed}", _NOT_NEEDED["meta"])


def system_prompt(today: dt.date, tools: str = "meta", *, answer_tool: bool = False) -> str:
    """The system prompt for an episode whose fixed date is ``today``.

    Args:
        today: the episode's fixed date.
        tools: ``"meta"`` (the four meta-tools) or ``"flat"`` (every mounted
            tool given directly, :class:`compoworld_gym.wrappers.FlatTools`);
            the rules of the work and of grading are the same in both.
        answer_tool: the final answer goes through an ``answer`` tool; adds
            :data:`ANSWER_TOOL_SENTENCE` on a line of its own.

    Raises:
        ValueError: an unknown ``tools`` mode.
    """
    if tools not in _HOW_TO_ACT:
        raise ValueError(f"tools must be one of {', '.join(_HOW_TO_ACT)}, got {tools!r}")
    template = _ROLE + _HOW_TO_ACT[tools] + _RULES.replace("{not_needed}", _NOT_NEEDED[tools])
    text = template.format(today=today.isoformat())
    return text + "\n" + ANSWER_TOOL_SENTENCE if answer_tool else text


def system_prompt_with_tools(today: dt.date, tools: list[dict]) -> str:
    """The system prompt followed by the tool definitions and the call format.

    For trainers whose generator applies the chat template without
    ``tools=`` (SkyRL-Gym), so the model would otherwise never see the
    schemas: :func:`system_prompt` for ``today``, then a ``# Tools`` block
    with one OpenAI function definition per line (compact JSON, in the order
    given) inside ``<tools>``/``</tools>``, then the Hermes/Qwen call format
    ``<tool_call>{"name": ..., "arguments": {...}}</tool_call>`` that
    :func:`compoworld_gym.toolcall_parser.parse_tool_calls` reads.

    Args:
        today: the episode's fixed date.
        tools: OpenAI function definitions, each
            ``{"type": "function", "function": {"name", "description", "parameters"}}``
            (e.g. :func:`compoworld_gym.metatools.meta_tool_definitions`).

    Returns:
        The prompt text; the same arguments give the same bytes.

    Raises:
        ValueError: ``tools`` is empty, or an entry is not a function
            definition with a non-empty string name.

    Example:
        >>> from compoworld_gym.metatools import meta_tool_definitions
        >>> text = system_prompt_with_tools(dt.date(2026, 1, 15), meta_tool_definitions())
        >>> text.startswith(system_prompt(dt.date(2026, 1, 15))), text.count('{"type": "function"')
        (True, 4)
    """
    if not tools:
        raise ValueError("tools must hold at least one function definition")
    for i, tool in enumerate(tools):
        fn = tool.get("function") if isinstance(tool, dict) else None
        if not isinstance(fn, dict) or not isinstance(fn.get("name"), str) or not fn["name"]:
            raise ValueError(f"tools[{i}] must be {{'type': 'function', 'function': {{'name': ..., ...}}}}, "
                             f"got {tool!r:.200}")
    lines = "\n".join(json.dumps(t, ensure_ascii=False) for t in tools)
    return system_prompt(today) + f"""

# Tools

The meta-tools are functions. Their definitions (parameters as JSON Schema), one per line:
<tools>
{lines}
</tools>

To call a function, write its name and arguments as one JSON object between <tool_call> and </tool_call>:
<tool_call>
{{"name": "list_tools", "arguments": {{"service": "<service name>"}}}}
</tool_call>
Use double quotes (valid JSON). You may make several calls in one reply, each in its own
<tool_call> block; they run in order and their results come back in the same order.
A reply without a <tool_call> block is your final answer and ends the task."""
