"""The environment's share of wall time in a GRPO-style rollout loop with a
tiny local model (no download: a randomly initialised 2-layer Qwen3, hidden
size 64, built by ``compoworld_gym.baselines.tiny_model``).

Run: ``python -m compoworld_gym.benchmarks.rollout [--json] [--quick]``.

One GRPO step here: a group of ``G`` envs is reset on the benchmark task;
every turn the model generates a short completion for each rollout from the
last tokens of its transcript (batched ``model.generate`` with sampling),
then each env is stepped; at the end the group's rewards give advantages
and one policy-gradient update (log-probabilities of the completions,
backward, Adam step) is made. A random model never writes a tool call, so
(as the training tests do) the action sent to the env is scripted: rollout
``g`` replays a different-length prefix of the reference solution, then
answers, so rewards vary within the group. Text is tokenised as raw UTF-8
bytes (ids 0-255), which stands in for a tokenizer and costs little.

Reports ``env_share`` = env time (reset + step, rubric included) / total
wall time. Skipped, with a note, when torch or transformers is missing.
"""

from __future__ import annotations

import time
from typing import Any

from compoworld_gym.benchmarks._common import bench_task, cli, final_answer_action
from compoworld_gym.envs.compoworld_env import CompoWorldEnv

#: Transcript tokens the model sees each turn (a sliding window).
CONTEXT = 256
PAD = 256


def tiny_model() -> Any:
    """A randomly initialised 2-layer Qwen3 (~100k parameters), seeded."""
    import torch
    from transformers import Qwen3Config, Qwen3ForCausalLM

    torch.manual_seed(0)
    config = Qwen3Config(vocab_size=264, hidden_size=64, intermediate_size=128, num_hidden_layers=2,
                         num_attention_heads=4, num_key_value_heads=2, head_dim=16,
                         max_position_embeddings=4096, tie_word_embeddings=True, pad_token_id=PAD,
                         bos_token_id=None, eos_token_id=None)
    return Qwen3ForCausalLM(config).eval()


def _window(text: str) -> list[int]:
    ids = list(text.encode("utf-8"))[-CONTEXT:]
    return [PAD] * (CONTEXT - len(ids)) + ids


def _grpo_step(model: Any, optimizer: Any, envs: list[CompoWorldEnv], task: Any, new_tokens: int,
               clock: dict[str, float]) -> list[float]:
    import torch

    g = len(envs)
    refs = [mc.action() for mc in task.reference]
    # Rollout i replays the first cut_i reference actions: varied rewards.
    cuts = [len(refs) - (i * len(refs)) // g for i in range(g)]
    t0 = time.perf_counter()
    transcripts = [env.reset(options={"task": task})[0] for env in envs]
    clock["env"] += time.perf_counter() - t0
    rewards, done = [0.0] * g, [False] * g
    prompts, completions = [], []
    for turn in range(len(refs) + 1):
        live = [i for i in range(g) if not done[i]]
        if not live:
            break
        batch = torch.tensor([_window(transcripts[i]) for i in live])
        with torch.no_grad():
            out = model.generate(batch, attention_mask=(batch != PAD).long(), max_new_tokens=new_tokens,
                                 min_new_tokens=new_tokens, do_sample=True, pad_token_id=PAD)
        prompts.append(batch)
        completions.append(out[:, batch.shape[1]:])
        t0 = time.perf_counter()
        for i in live:
            action = refs[turn] if turn < cuts[i] else final_answer_action(task)
            obs, reward, terminated, truncated, _ = envs[i].step(action)
            transcripts[i] += action + obs
            if terminated or truncated:
                done[i], rewards[i] = True, reward
        clock["env"] += time.perf_counter() - t0
    r = torch.tensor(rewards)
    adv = (r - r.mean()) / (r.std() + 1e-6)
    # One policy-gradient update on every turn's completions (advantage of the rollout).
    loss = torch.zeros(())
    for batch, comp in zip(prompts, completions):
        ids = torch.cat([batch, comp], dim=1)
        logits = model(ids, attention_mask=(ids != PAD).long()).logits[:, batch.shape[1] - 1:-1]
        logp = torch.log_softmax(logits.float(), -1).gather(-1, comp.unsqueeze(-1)).squeeze(-1)
        loss = loss - (adv[: len(comp)].unsqueeze(1) * logp).mean()
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    return rewards


def run(quick: bool = False) -> dict[str, Any]:
    """Measure the env's share of a GRPO loop; returns ``env_share`` (0..1),
    times and rewards, or ``available: False`` with a note."""
    try:
        import torch
        import transformers  # noqa: F401
    except ImportError as exc:
        return {"available": False, "note": f"skipped: torch/transformers not importable ({exc})",
                "env_share": None}
    torch.set_num_threads(1)  # the benchmark is "one core"
    task, source = bench_task()
    model = tiny_model()
    optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
    group, steps, new_tokens = (4, 1, 4) if quick else (8, 3, 16)
    envs = [CompoWorldEnv(tasks=[task], max_steps=10**6) for _ in range(group)]
    clock = {"env": 0.0}
    _grpo_step(model, optimizer, envs, task, 2, {"env": 0.0})  # warm-up
    t0 = time.perf_counter()
    rewards = [_grpo_step(model, optimizer, envs, task, new_tokens, clock) for _ in range(steps)]
    total = time.perf_counter() - t0
    return {
        "available": True, "task": task.id, "task_source": source, "group_size": group, "grpo_steps": steps,
        "new_tokens_per_turn": new_tokens, "parameters": sum(p.numel() for p in model.parameters()),
        "wall_s": round(total, 3), "env_s": round(clock["env"], 4), "env_share": round(clock["env"] / total, 5),
        "rewards": rewards[-1],
    }


def main(argv: list[str] | None = None) -> dict[str, Any]:
    """Command-line entry point."""
    return cli("env share of a GRPO rollout (tiny local model)", run, argv)


if __name__ == "__main__":
    main()
