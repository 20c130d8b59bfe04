"""``compoworld play``: a task by hand."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Optional

import typer

from compoworld_gym.cli.app import app
from compoworld_gym.cli.common import fail, load_task_pool, console


@app.command()
def play(
    task: Optional[str] = typer.Option(None, "--task", help="Task id (default: the first built-in task)."),
    tasks_file: Optional[Path] = typer.Option(None, "--tasks", help="JSONL task file."),
    max_steps: int = typer.Option(40, "--max-steps", min=1),
) -> None:
    """Play a task by hand: type JSON meta-tool calls, or plain text to answer."""
    from compoworld_gym.envs.compoworld_env import CompoWorldEnv

    pool = load_task_pool(tasks_file)
    env = CompoWorldEnv(tasks=pool, max_steps=max_steps)
    try:
        obs, _ = env.reset(seed=0, options={"task": task if task else 0})
    except ValueError as exc:
        raise fail(f"{exc}") from None
    prompt = json.loads(obs)
    for m in prompt["messages"]:
        console.print(f"[bold]{m['role']}[/bold]: {m['content']}\n")
    console.print('Actions: {"name": "list_services"} | {"name": "call_tool", "arguments": '
                  '{"tool_name": ..., "arguments": {...}}} | plain text = final answer')
    while True:
        try:
            action = input("> ")
        except EOFError:
            action = ""
        obs, reward, terminated, truncated, info = env.step(action)
        console.print(obs, markup=False)
        if terminated or truncated:
            console.print(f"reward {reward:.3f}")
            for r in info["rubric"]:
                console.print(f"  [{'x' if r['passed'] else ' '}] {r['id']}: {r['description']}", markup=False)
            return
