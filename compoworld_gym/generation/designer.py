"""Designers: who writes a task's instruction from its :class:`~.wording.Brief`.

The default designer is offline and deterministic
(:func:`~compoworld_gym.generation.wording.render`). :class:`OpenAIDesigner`
asks an OpenAI-compatible chat endpoint (a vLLM server, or any service that
speaks ``/v1/chat/completions``) to write the instruction in its own words.
Whatever writes it, the design stage then checks the text: it must name the
case's starting record and the policy, and must state no discovered value and
no tool name (:func:`~compoworld_gym.generation.wording.leaks`); a failing text
rejects the task (``designer-leak`` / ``designer-incomplete``).

Example:
    >>> import random
    >>> from compoworld_gym.generation.wording import Brief
    >>> b = Brief(case="case AB-1234", entry="ticket TCK-0042", goals=["email the customer"],
    ...           facts=["The ticket names the customer."], report="the order total")
    >>> get_designer("offline")(b, random.Random(0)).count("TCK-0042")
    1
"""

from __future__ import annotations

import json
import random
from typing import Any, Callable, Optional

from compoworld_gym.generation.wording import KEEP_RULE, Brief, render

#: What the model is told; the brief follows as JSON.
SYSTEM_PROMPT = (
    "You write task instructions for an operations assistant. Given a brief, write the user's request: "
    "one or two sentences stating the case, where it starts and the goal, then a 'House rules:' list "
    "(one '- ' line per rule) that keeps the meaning of every fact, truth, policy and ordering rule of "
    "the brief, then one sentence asking for the report. Never add a value (no ids, amounts, emails, "
    "dates or names) that is not in the brief, never name a tool or an API, and never describe the steps "
    "or their order beyond the brief's ordering rules. Reply with the instruction text only.")


class DesignerError(RuntimeError):
    """The designer could not produce an instruction (endpoint down, bad reply)."""


def brief_json(brief: Brief) -> str:
    """The brief as the model sees it (no forbidden values, no tool list)."""
    return json.dumps({"case": brief.case, "starts_from": brief.entry, "goals": brief.goals,
                       "where_facts_live": brief.facts, "which_record_wins": brief.truths,
                       "policy": brief.policy, "ordering": brief.ordering, "always": KEEP_RULE,
                       "report": brief.report}, indent=1)


class OpenAIDesigner:
    """Writes instructions with an OpenAI-compatible chat-completions endpoint.

    Args:
        base_url: the endpoint's base URL, e.g. ``http://localhost:8000/v1``.
        model: the served model name.
        api_key: the key (vLLM accepts any, default ``"EMPTY"``).
        temperature: sampling temperature.
        timeout: seconds per request.
        client: an ``openai.OpenAI``-like client (tests); built from the
            arguments when None.

    Raises:
        DesignerError: on construction, when the ``openai`` package is
            missing (``pip install 'compoworld-gym[openai]'``).
    """

    def __init__(self, base_url: str, model: str, *, api_key: str = "EMPTY", temperature: float = 0.7,
                 timeout: float = 30.0, client: Any = None) -> None:
        if client is None:
            try:
                from openai import OpenAI
            except ImportError:
                raise DesignerError("the openai designer needs the openai package: "
                                    "pip install 'compoworld-gym[openai]'") from None
            client = OpenAI(base_url=base_url, api_key=api_key, timeout=timeout, max_retries=1)
        self.client, self.model, self.temperature = client, model, temperature

    def __call__(self, brief: Brief, rng: random.Random) -> str:
        """The instruction for ``brief``; the seed sent comes from ``rng``.

        Raises:
            DesignerError: the request failed or the reply holds no text.
        """
        try:
            reply = self.client.chat.completions.create(
                model=self.model, temperature=self.temperature, seed=rng.getrandbits(31),
                messages=[{"role": "system", "content": SYSTEM_PROMPT},
                          {"role": "user", "content": brief_json(brief)}])
        except Exception as exc:  # the SDK's connection and status errors share no base we can import lazily
            raise DesignerError(f"the designer endpoint failed: {type(exc).__name__}: {exc}") from None
        text = (reply.choices[0].message.content or "").strip() if reply.choices else ""
        if not text:
            raise DesignerError("the designer endpoint returned no text")
        return text


def looks_like_data(text: str) -> bool:
    """Whether an instruction is a data dump (JSON, or the brief's own keys)
    rather than prose: the design stage rejects it (``designer-format``)."""
    head = text.lstrip()[:1]
    return head in ("{", "[") or any(k in text for k in ('"starts_from"', '"where_facts_live"', '"goals":'))


def get_designer(name: str, *, base_url: Optional[str] = None, model: Optional[str] = None,
                 api_key: str = "EMPTY", timeout: float = 30.0) -> Callable[[Brief, random.Random], str]:
    """The designer called ``name`` (``"offline"`` or ``"openai"``).

    Raises:
        DesignerError: unknown name, or ``openai`` without ``base_url``/``model``.
    """
    if name == "offline":
        return render
    if name == "openai":
        if not base_url or not model:
            raise DesignerError("--designer openai needs --base-url and --model")
        return OpenAIDesigner(base_url, model, api_key=api_key, timeout=timeout)
    raise DesignerError(f"unknown designer {name!r}; choose 'offline' or 'openai'")


__all__ = ["DesignerError", "OpenAIDesigner", "SYSTEM_PROMPT", "brief_json", "get_designer", "looks_like_data"]
