"""A tiny local Qwen3-architecture model and tokenizer (no hub downloads).

Everything that must train on a CPU here (tests, the learning benchmark)
uses :func:`build_tiny_model`: a byte-level BPE tokenizer trained with
``tokenizers`` on text of the environment itself (system prompt, meta-tool
definitions, built-in tasks and their reference runs), wrapped as a
``PreTrainedTokenizerFast`` with TRL's Qwen3 chat template, plus a randomly
initialised ``Qwen3ForCausalLM`` of a few layers (default :class:`TinyConfig`:
2 layers, width 64, ~155k parameters; see "TRL" in ``docs/design-notes.md``).

TRL switches tool-call parsing and its prefix-preserving training template
on only when the tokenizer's template string-matches a known one, so the
template is exactly ``trl.chat_template_utils.qwen3_chat_template``.

Example:
    >>> model, tok = build_tiny_model(seed=0)          # doctest: +SKIP
    >>> sum(p.numel() for p in model.parameters()) < 500_000   # doctest: +SKIP
    True
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from typing import Any, Iterator, Literal, Sequence

import orjson

#: Special tokens: chat delimiters (special: they end turns / pad batches).
SPECIAL_TOKENS = ("<|endoftext|>", "<|im_start|>", "<|im_end|>")
#: Tool-call markers of the Qwen3 template (added, not special: they must
#: survive ``decode(skip_special_tokens=True)`` for the tool-call parser).
ADDED_TOKENS = ("<tool_call>", "</tool_call>", "<tool_response>", "</tool_response>", "<think>", "</think>")


@dataclass(frozen=True)
class TinyConfig:
    """Size of the tiny model.

    Attributes:
        vocab_merges: BPE merges learned by the tokenizer trainer.
        hidden_size: model width.
        num_layers: decoder layers.
        num_heads: attention heads (key/value heads: half of them).
        intermediate_size: MLP width.
        max_positions: longest sequence, in tokens.
        pre_tokenizer: ``"words"``: GPT-2's byte-level split (merges stay
            inside words and punctuation runs); ``"digits"``: only digit runs
            are split off, so merges may span spaces and punctuation and a
            constant prompt trained on compresses to a few long tokens (ids
            stay separate tokens the model can copy).
    """

    vocab_merges: int = 1000
    hidden_size: int = 64
    num_layers: int = 2
    num_heads: int = 4
    intermediate_size: int = 128
    max_positions: int = 32768
    pre_tokenizer: Literal["words", "digits"] = "words"


def _corpus() -> Iterator[str]:
    """Text the tokenizer learns its merges from: what the model will read and write."""
    from compoworld_gym.baselines.agents import ReferenceAgent
    from compoworld_gym.baselines.evaluate import run_episode
    from compoworld_gym.builtin_tasks import builtin_tasks
    from compoworld_gym.envs.compoworld_env import CompoWorldEnv
    from compoworld_gym.metatools import meta_tool_definitions
    from compoworld_gym.prompts import system_prompt

    tasks = builtin_tasks()
    yield system_prompt(tasks[0].today)
    yield orjson.dumps(meta_tool_definitions()).decode()
    env = CompoWorldEnv(tasks=tasks, max_steps=60)
    for task in tasks:
        yield task.instruction
        result = run_episode(env, ReferenceAgent(), task)
        for action, observation in result.transcript:
            yield action
            yield observation[:4000]


@functools.lru_cache(maxsize=4)
def _tokenizer_json(merges: int, pre_tokenizer: str = "words", extra_corpus: tuple[str, ...] = ()) -> str:
    """The trained tokenizer, serialised (cached: training takes ~2 s)."""
    from tokenizers import Tokenizer, decoders, models, pre_tokenizers, trainers

    if pre_tokenizer not in ("words", "digits"):
        raise ValueError(f"pre_tokenizer must be 'words' or 'digits', got {pre_tokenizer!r}")
    tok = Tokenizer(models.BPE())
    if pre_tokenizer == "words":
        tok.pre_tokenizer = pre_tokenizers.ByteLevel(add_prefix_space=False)
    else:
        tok.pre_tokenizer = pre_tokenizers.Sequence([pre_tokenizers.Digits(individual_digits=False),
                                                     pre_tokenizers.ByteLevel(add_prefix_space=False,
                                                                              use_regex=False)])
    tok.decoder = decoders.ByteLevel()
    trainer = trainers.BpeTrainer(
        vocab_size=256 + merges + len(SPECIAL_TOKENS),
        special_tokens=list(SPECIAL_TOKENS),
        initial_alphabet=pre_tokenizers.ByteLevel.alphabet(),
        show_progress=False,
    )
    tok.train_from_iterator([*_corpus(), *extra_corpus], trainer=trainer)
    return tok.to_str()


def build_tokenizer(merges: int = 1000, pre_tokenizer: str = "words", extra_corpus: Sequence[str] = ()) -> Any:
    """A ``PreTrainedTokenizerFast`` with the Qwen3 tool-calling chat template.

    Args:
        merges: BPE merges to learn (vocabulary ≈ 256 + merges + 9 tokens).
        pre_tokenizer: ``"words"`` or ``"digits"`` (see :class:`TinyConfig`).
        extra_corpus: more text to learn merges from (e.g. rendered
            conversations of the tasks a model will be trained on).

    Returns:
        The tokenizer: eos ``<|im_end|>``, pad ``<|endoftext|>``, left padding.

    Raises:
        ImportError: the ``[train]`` extra (transformers, trl) is missing.
        ValueError: an unknown ``pre_tokenizer``.
    """
    from tokenizers import Tokenizer
    from transformers import PreTrainedTokenizerFast
    from trl.chat_template_utils import qwen3_chat_template

    backend = Tokenizer.from_str(_tokenizer_json(merges, pre_tokenizer, tuple(extra_corpus)))
    tok = PreTrainedTokenizerFast(
        tokenizer_object=backend, eos_token="<|im_end|>", pad_token="<|endoftext|>",
        bos_token=None, unk_token=None, padding_side="left",
        additional_special_tokens=["<|im_start|>"],
    )
    tok.add_tokens(list(ADDED_TOKENS))
    tok.chat_template = qwen3_chat_template
    return tok


def build_tiny_model(seed: int = 0, config: TinyConfig | None = None,
                     extra_corpus: Sequence[str] = ()) -> tuple[Any, Any]:
    """A randomly initialised tiny ``Qwen3ForCausalLM`` and its tokenizer.

    Args:
        seed: torch seed of the weight initialisation (same seed, same weights).
        config: sizes (default: 2 layers, width 64, ~140k parameters).
        extra_corpus: more tokenizer training text (see :func:`build_tokenizer`).

    Returns:
        ``(model, tokenizer)``; the model is float32, in train mode.

    Raises:
        ImportError: the ``[train]`` extra is missing.
        ValueError: an unknown ``config.pre_tokenizer``.
    """
    import torch
    from transformers import GenerationConfig, Qwen3Config, Qwen3ForCausalLM

    config = config or TinyConfig()
    tok = build_tokenizer(config.vocab_merges, config.pre_tokenizer, extra_corpus)
    cfg = Qwen3Config(
        vocab_size=len(tok), hidden_size=config.hidden_size, intermediate_size=config.intermediate_size,
        num_hidden_layers=config.num_layers, num_attention_heads=config.num_heads,
        num_key_value_heads=max(1, config.num_heads // 2), head_dim=config.hidden_size // config.num_heads,
        max_position_embeddings=config.max_positions, tie_word_embeddings=True,
        bos_token_id=None, eos_token_id=tok.eos_token_id, pad_token_id=tok.pad_token_id,
    )
    torch.manual_seed(seed)
    model = Qwen3ForCausalLM(cfg)
    model.generation_config = GenerationConfig(
        eos_token_id=tok.eos_token_id, pad_token_id=tok.pad_token_id, do_sample=True, max_new_tokens=64)
    return model, tok


__all__ = ["ADDED_TOKENS", "SPECIAL_TOKENS", "TinyConfig", "build_tiny_model", "build_tokenizer"]
