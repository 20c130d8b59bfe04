"""``compoworld play``: a task by hand.

Each line typed is one of:

* a JSON action, sent to the env as is and costing one step:
  ``{"name": "list_services"}``, ``{"name": "call_tool", "arguments":
  {"tool_name": ..., "arguments": {...}}}``, a JSON array of calls, or
  ``{"final_answer": "..."}``;
* ``/answer TEXT``: the final answer;
* ``help`` or ``?``: the syntax again; an empty line: nothing;
* ``/quit``: leave without answering (exit 0, nothing is scored).

Only ``/answer TEXT`` and ``{"final_answer": ...}`` end the episode (and the
step limit). Plain text is not sent: a stray line or a question to oneself
would otherwise end the episode with a score of 0, so the reply shows how to
send it with ``/answer``. Malformed JSON is reported and not sent either.
End of input (Ctrl-D) leaves without scoring, as Ctrl-C does: one line,
exit 130.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, Optional

import typer
from rich.json import JSON

from compoworld_gym.cli.app import app
from compoworld_gym.cli.common import console, fail, load_task_pool

HELP = """\
Type one action per line; each JSON action is one step:
  {"name": "list_services"}
  {"name": "list_tools", "arguments": {"service": "<service>"}}
  {"name": "describe_tool", "arguments": {"tool": "<tool>"}}
  {"name": "call_tool", "arguments": {"tool_name": "<tool>", "arguments": {...}}}
  [<call>, <call>, ...]      several calls in one step
  /answer TEXT               the final answer: ends the episode and scores it
  {"final_answer": "TEXT"}   the same, as JSON
  help or ?                  this text
  /quit                      leave without answering (nothing is scored)
Plain text is not sent; an empty line does nothing."""

#: Exit status when input ends before an answer (as for Ctrl-C: the session was cut off).
EXIT_NO_ANSWER = 130


def _text(value: str) -> None:
    """Print data verbatim: no rich markup or highlighting, no line cut inside a word."""
    console.print(value, markup=False, highlight=False, soft_wrap=True)


def _show_observation(obs: str) -> None:
    """A tool result as indented JSON (rich's JSON renderable never reads the data as markup)."""
    try:
        value = json.loads(obs)
    except json.JSONDecodeError:
        _text(obs)
        return
    console.print(JSON.from_data(value, indent=2, ensure_ascii=False), soft_wrap=True)  # no break inside a value


def _show_score(reward: float, info: dict[str, Any], truncated: bool, max_steps: int) -> None:
    """The reward and every rubric item, pass or fail, ids whole."""
    rubric = info["rubric"]
    if truncated:
        _text(f"step limit {max_steps} reached: scored without an answer")
    _text(f"reward {reward:.3f} ({sum(r['passed'] for r in rubric)}/{len(rubric)} rubric items passed)")
    for r in rubric:
        _text(f"  {'PASS' if r['passed'] else 'FAIL'}  {r['id']}: {r['description']}")


def _to_action(line: str) -> Optional[str]:
    """The env action for a typed ``line``, or None when nothing is to be sent (after saying why)."""
    text = line.strip()
    command, _, rest = text.partition(" ")
    if not text:
        return None
    if text.lower() in ("help", "?"):
        _text(HELP)
        return None
    if command == "/answer":
        if not rest.strip():
            _text("give the answer after the command: /answer TEXT")
            return None
        return json.dumps({"final_answer": rest.strip()}, ensure_ascii=False)
    if text.startswith("/"):
        _text(f"unknown command {command}; the commands are /answer TEXT and /quit (help shows all)")
        return None
    if text[0] in "{[":
        try:
            json.loads(text)
        except json.JSONDecodeError as exc:
            _text(f"not valid JSON ({exc.msg}, column {exc.colno}); nothing sent, no step used")
            return None
        return text
    _text(f"not sent: plain text is not an action. To give it as the final answer: /answer {text}")
    return None


@app.command()
def play(
    task: Optional[str] = typer.Option(None, "--task", help="Task id (default: the first built-in task)."),
    tasks_file: Optional[Path] = typer.Option(None, "--tasks", help="JSONL task file."),
    max_steps: int = typer.Option(40, "--max-steps", min=1, help="Step limit of the episode."),
) -> None:
    """Play a task by hand: JSON meta-tool calls, then /answer TEXT (help lists the syntax)."""
    from compoworld_gym.envs.compoworld_env import CompoWorldEnv

    pool = load_task_pool(tasks_file)
    env = CompoWorldEnv(tasks=pool, max_steps=max_steps)
    try:
        obs, _ = env.reset(seed=0, options={"task": task if task else 0})
    except ValueError as exc:
        raise fail(f"{exc}") from None
    for m in json.loads(obs)["messages"]:
        console.print(f"{m['role']}:", style="bold", markup=False, highlight=False)
        _text(f"{m['content']}\n")
    _text(HELP)
    _text(f"\nYou have {max_steps} steps.")
    steps = 0
    while True:
        try:
            line = input(f"step {steps + 1}/{max_steps}> ")
        except EOFError:
            _text("\nend of input: left without an answer (nothing scored)")
            raise typer.Exit(EXIT_NO_ANSWER) from None
        if line.strip() == "/quit":
            _text("left without an answer (nothing scored)")
            return
        action = _to_action(line)
        if action is None:
            continue
        obs, reward, terminated, truncated, info = env.step(action)
        steps += 1
        _show_observation(obs)
        if terminated or truncated:
            _show_score(float(reward), info, truncated, max_steps)
            return
