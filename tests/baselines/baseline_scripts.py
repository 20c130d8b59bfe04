"""Helpers of the baseline tests: scripted model turns and scripted generation."""

from __future__ import annotations

import orjson


def call_text(action: str) -> str:
    """A reference action (JSON call) as the Qwen3 turn a model would write."""
    call = orjson.loads(action)
    return ("<think>\n\n</think>\n\n<tool_call>\n"
            + orjson.dumps({"name": call["name"], "arguments": call.get("arguments", {})}).decode()
            + "\n</tool_call>")


def reference_script(task, n_calls: int | None = None, answer: str | None = None) -> list[str]:
    """Turn texts replaying the first ``n_calls`` reference calls, then answering."""
    calls = [c.action() for c in task.reference][:n_calls]
    return [call_text(a) for a in calls] + [answer if answer is not None else (task.reference_answer or "Done.")]


class ScriptedGenerate:
    """A stand-in for ``model.generate`` that plays fixed turn scripts.

    Rollout ``k`` of the first batch plays ``scripts[k % len(scripts)]``;
    on later turns the rows are the rollouts whose script is not finished,
    in order (the rollout function generates for live sub-envs in index
    order; scripts must end before the env's step limit). A batch whose
    rows hold only two ``<|im_end|>`` (system, user) starts a new rollout. Returns prompt + completion ids, right-padded with the pad id,
    as ``generate`` does.
    """

    def __init__(self, tokenizer, scripts: list[list[str]]) -> None:
        self.tok = tokenizer
        self.scripts = scripts
        self.calls = 0
        self.batch_sizes: list[int] = []
        self._turn: list[int] = []

    def __call__(self, input_ids=None, attention_mask=None, **kwargs):
        import torch

        n = input_ids.shape[0]
        eos = self.tok.eos_token_id
        if all(int((row == eos).sum()) == 2 for row in input_ids):  # only system + user ended: a new batch
            self._turn = [0] * n
        live = [k for k, t in enumerate(self._turn) if t < len(self.scripts[k % len(self.scripts)])]
        assert len(live) == n, f"expected {len(live)} live rollouts, got a batch of {n}"
        outs = []
        for k in live:
            text = self.scripts[k % len(self.scripts)][self._turn[k]]
            self._turn[k] += 1
            outs.append(self.tok.encode(text, add_special_tokens=False) + [self.tok.eos_token_id])
        width = max(len(o) for o in outs)
        pad = self.tok.pad_token_id
        new = torch.tensor([o + [pad] * (width - len(o)) for o in outs], device=input_ids.device)
        self.calls += 1
        self.batch_sizes.append(n)
        return torch.cat([input_ids, new], dim=1)
