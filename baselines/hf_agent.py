"""A local Hugging Face ``transformers`` model as an agent.

The conversation is rendered with the tokenizer's chat template, the four
meta-tool definitions passed as ``tools``; the model's text is parsed by
the tolerant :func:`compoworld_gym.toolcall_parser.parse_tool_calls`
(Hermes/Qwen ``<tool_call>``, Llama-3 JSON, bare JSON, ...).

Needs the ``[train]`` extra (torch, transformers).

Example:
    >>> from compoworld_gym.baselines.evaluate import evaluate_agent
    >>> agent = HFAgent("tiny", max_new_tokens=16)             # doctest: +SKIP
    >>> metrics, _ = evaluate_agent(lambda s: agent, tasks)    # doctest: +SKIP
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any, Optional

from compoworld_gym.baselines.agents import ChatAgent
from compoworld_gym.models import resolve_model
from compoworld_gym.toolcall_parser import ParsedTurn, parse_tool_calls


# ``owner/name`` as the model hub spells repository ids.
_HUB_ID = re.compile(r"^[A-Za-z0-9][\w.-]*/[\w.-]+$")


def _in_hub_cache(model: str) -> bool:
    """Whether ``model`` is a hub id (``owner/name``) already in the local model cache (no network)."""
    if not _HUB_ID.match(model):
        return False
    try:
        from huggingface_hub import try_to_load_from_cache
    except ImportError:
        return False
    return isinstance(try_to_load_from_cache(model, "config.json"), str)


def check_model_path(model: str) -> str:
    """Check that a model name can load without a download; returns the path (or name) to load.

    The one check of every ``--model`` that names a local model (``compoworld
    eval --agent hf``, the zero-shot, SFT, GRPO and GPU scripts, via
    :func:`load_model`). Passes: ``"tiny"``; a fetched registry name
    (``"smollm2"``, see :mod:`compoworld_gym.models`), returned as its
    directory; a directory holding ``config.json``; a hub id (``owner/name``)
    already in the local hub cache. Everything else fails at once, so nothing
    ever reaches the model hub (:func:`load_model` also loads with
    ``local_files_only=True``).

    Raises:
        FileNotFoundError: a bare name that is neither a registry name nor a
            local directory (the message suggests close registry names); a
            directory that does not exist or holds no model; a registry name
            not fetched yet (:class:`~compoworld_gym.models.ModelNotFetchedError`,
            naming the command).
    """
    model = resolve_model(model)
    path_like = "/" in model or model.startswith((".", "~"))
    if model == "tiny" or _in_hub_cache(model):
        return model
    path = Path(model).expanduser()
    if not path_like and not path.is_dir():
        raise FileNotFoundError(_unknown_name(model))
    if not path.is_dir():
        raise FileNotFoundError(f"model directory {model} does not exist (nothing is downloaded; "
                                "give a local model directory or 'tiny')")
    if not (path / "config.json").is_file():
        raise FileNotFoundError(f"model directory {model} holds no model (no config.json); give the directory "
                                "a model was saved to (save_pretrained), or 'tiny'")
    return model


def _unknown_name(model: str) -> str:
    """The one-line error of a bare ``--model`` name that names nothing loadable (with close matches)."""
    import difflib

    from compoworld_gym.models import MODELS

    known = sorted(MODELS) + ["tiny"]
    close = difflib.get_close_matches(model.lower(), known, n=3, cutoff=0.6)
    hint = f" (did you mean {' or '.join(close)}?)" if close else f" (known: {', '.join(known)})"
    return f"unknown model {model!r}: not a local directory and not a fetchable model{hint}"


def load_model(model: Any, tokenizer: Any = None, seed: int = 0, device: Optional[str] = None
               ) -> tuple[Any, Any]:
    """Resolve ``model`` to ``(model, tokenizer)``.

    Args:
        model: a ``PreTrainedModel``; a local directory, or a hub id
            already in the local hub cache (nothing is ever downloaded:
            :func:`check_model_path`); a registry name of :mod:`compoworld_gym.models`
            (``"smollm2"``, once ``compoworld models fetch smollm2`` ran); or
            ``"tiny"``: the randomly initialised tiny Qwen3 model of
            :mod:`.tiny_model` (for smoke tests, not a baseline anyone should report).
        tokenizer: its tokenizer (default: loaded alongside the model).
        seed: initialisation seed of the ``"tiny"`` model.
        device: ``"cpu"``, ``"cuda"``, ... (default: CUDA when available).

    Raises:
        ValueError: a model object without a tokenizer.
        FileNotFoundError: an unknown bare name, a model path that holds no
            model, or a registry name not fetched yet (:func:`check_model_path`).
    """
    if isinstance(model, str):
        model = check_model_path(model)
    import torch

    if isinstance(model, str) and model == "tiny":
        from compoworld_gym.baselines.tiny_model import build_tiny_model

        model, tokenizer = build_tiny_model(seed=seed)
    elif isinstance(model, str):
        from transformers import AutoModelForCausalLM, AutoTokenizer

        # local_files_only: a name check_model_path let through must never turn into a hub request
        tokenizer = tokenizer or AutoTokenizer.from_pretrained(model, local_files_only=True)
        model = AutoModelForCausalLM.from_pretrained(model, dtype="auto", local_files_only=True)
    elif tokenizer is None:
        raise ValueError("a model object needs its tokenizer: HFAgent(model, tokenizer=...)")
    device = device or ("cuda" if torch.cuda.is_available() else "cpu")
    return model.to(device), tokenizer


class HFAgent(ChatAgent):
    """A ``transformers`` causal LM acting through the meta-tools.

    Args:
        model: see :func:`load_model` (object, path, hub id, ``"smollm2"`` or ``"tiny"``).
        tokenizer: the model's tokenizer (default: loaded with the model).
        max_new_tokens: tokens generated per turn.
        temperature: 0 for greedy decoding (deterministic), else sampling.
        seed: seed of sampling (torch's generator is reseeded per turn, so
            an episode is reproducible) and of the ``"tiny"`` model.
        device: torch device (default: CUDA when available).
        chat_template_kwargs: extra template variables (e.g.
            ``{"enable_thinking": False}`` for Qwen3).

    Raises:
        ValueError: ``max_new_tokens < 1`` or a negative temperature.
    """

    name = "hf"

    def __init__(self, model: Any = "tiny", tokenizer: Any = None, max_new_tokens: int = 512,
                 temperature: float = 0.0, seed: int = 0, device: Optional[str] = None,
                 chat_template_kwargs: Optional[dict[str, Any]] = None) -> None:
        if not isinstance(max_new_tokens, int) or max_new_tokens < 1:
            raise ValueError(f"max_new_tokens must be a positive int, got {max_new_tokens!r}")
        if temperature < 0:
            raise ValueError(f"temperature must be >= 0, got {temperature!r}")
        self.model, self.tokenizer = load_model(model, tokenizer, seed=seed, device=device)
        self.max_new_tokens = max_new_tokens
        self.temperature = temperature
        self.seed = seed
        self.chat_template_kwargs = dict(chat_template_kwargs or {})
        self._turn = 0

    def reset(self, observation: str, task: Any = None) -> None:
        super().reset(observation, task)
        self._turn = 0

    def generate_text(self, messages: list[dict[str, Any]], tools: list[dict[str, Any]]) -> str:
        """The model's raw text for the next assistant turn."""
        import torch

        ids = self.tokenizer.apply_chat_template(
            messages, tools=tools, add_generation_prompt=True, tokenize=True, return_dict=False,
            **self.chat_template_kwargs)
        input_ids = torch.tensor([ids], device=self.model.device)
        kwargs: dict[str, Any] = {"max_new_tokens": self.max_new_tokens,
                                  "pad_token_id": self.tokenizer.pad_token_id,
                                  "eos_token_id": self.tokenizer.eos_token_id}
        if self.temperature > 0:
            torch.manual_seed(self.seed * 100_003 + self._turn)  # reproducible per (seed, turn)
            kwargs.update(do_sample=True, temperature=self.temperature)
        else:
            kwargs.update(do_sample=False, temperature=None, top_p=None, top_k=None)
        self._turn += 1
        with torch.no_grad():
            out = self.model.generate(input_ids=input_ids, attention_mask=torch.ones_like(input_ids), **kwargs)
        return self.tokenizer.decode(out[0, len(ids):], skip_special_tokens=True)

    def complete(self, messages: list[dict[str, Any]], tools: list[dict[str, Any]]) -> ParsedTurn:
        """Generate one turn and parse it."""
        text = self.generate_text(messages, tools)
        turn = parse_tool_calls(text)
        if turn.error is not None:
            turn.content = text
        return turn


__all__ = ["HFAgent", "check_model_path", "load_model"]
