"""World model running a local Hugging Face ``transformers`` causal LM.

``transformers`` and ``torch`` are imported only when this backend is used
(``pip install 'compoworld-gym[train]'``). Decoding is greedy, so a given
prompt always gives the same reply.
"""

from __future__ import annotations

from typing import Any

from compoworld_gym.world_model.base import Simulation, SimulationError, SimulationRequest, build_messages, parse_simulation


class TransformersWorldModel:
    """Simulate tools with a local chat model.

    Args:
        model: a ``transformers`` causal LM (``PreTrainedModel``).
        tokenizer: its tokenizer; it needs a chat template.
        max_new_tokens: longest reply, in tokens.
    """

    def __init__(self, model: Any, tokenizer: Any, *, max_new_tokens: int = 512) -> None:
        self.model = model
        self.tokenizer = tokenizer
        self.max_new_tokens = max_new_tokens
        self.name = f"transformers:{getattr(getattr(model, 'config', None), 'name_or_path', '') or 'local'}"

    @classmethod
    def from_pretrained(cls, path: str, **kwargs: Any) -> "TransformersWorldModel":
        """Load a model and tokenizer from a local directory.

        Raises:
            ImportError: ``transformers`` is not installed.
            OSError: the directory holds no model.
        """
        from transformers import AutoModelForCausalLM, AutoTokenizer

        tokenizer = AutoTokenizer.from_pretrained(path, local_files_only=True)
        model = AutoModelForCausalLM.from_pretrained(path, local_files_only=True)
        model.eval()
        return cls(model, tokenizer, **kwargs)

    def simulate(self, request: SimulationRequest) -> Simulation:
        """Generate a simulation of one call (greedy decoding).

        Raises:
            SimulationError: generation failed or the reply is not a valid
                simulation object.
        """
        import torch

        messages = build_messages(request)
        try:
            prompt = self.tokenizer.apply_chat_template(messages, tokenize=False, add_generation_prompt=True)
            inputs = self.tokenizer(prompt, return_tensors="pt", add_special_tokens=False)
            with torch.no_grad():
                output = self.model.generate(**inputs, max_new_tokens=self.max_new_tokens, do_sample=False,
                                             pad_token_id=self.tokenizer.pad_token_id)
        except Exception as exc:  # noqa: BLE001 - generation errors come in many types
            raise SimulationError(f"local model failed: {type(exc).__name__}: {str(exc)[:200]}") from None
        new_tokens = output[0][inputs["input_ids"].shape[1]:]
        return parse_simulation(self.tokenizer.decode(new_tokens, skip_special_tokens=True))
