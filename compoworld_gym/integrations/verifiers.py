"""CompoWorld as a verifiers 0.4 (v1 API) ``Taskset``, for ``vf-eval`` and prime-rl.

- :class:`CompoWorldTaskset`: one :class:`CompoWorldTask` per CompoWorld task (the
  built-in set, a JSONL task file or a task list: :class:`CompoWorldConfig`).
- :class:`CompoWorldToolset`: the four meta-tools as ``@vf.tool`` methods. verifiers
  starts one tool server per rollout; in it runs one fresh episode of the rollout's
  task (a ``CompoWorldEnv`` reset on it) and each tool call is one ``env.step``, so
  the step limit and the call log the rubric reads are the env's own.
- The reward ``rubric``: the episode's rubric score in [0, 1], the final answer being
  the rollout's last assistant text. verifiers stops tool servers before it scores,
  so the server hands its action log over in ``trace.state`` (:class:`CompoWorldState`)
  and the reward replays it on a fresh env (same actions, same bytes: an observation
  digest checks it). Per-item results: ``trace.metrics["rubric/<id>"]``, ``trace.info["compoworld"]``.
- :class:`CompoWorldHarness`: the taskset's default harness, a tool-only chat loop run
  in-process (verifiers' own default, ``bash``, hands the model a shell).

verifiers imports a taskset by a *top-level* module name; docs/integrations/verifiers.md
gives the one-line module for the id ``compoworld-verifiers``. ``import compoworld_gym``
never imports this module.

Example:
    >>> tasks = list(CompoWorldTaskset(CompoWorldConfig()))
    >>> tasks[0].data.id, tasks[0].data.system_prompt.splitlines()[1]
    ('builtin-overdue-billing-escalation', "Today's date is 2026-01-15.")
"""

# No `from __future__ import annotations`: MCP reads the tools' parameter annotations as live
# objects (string annotations would resolve in verifiers' module, where `_param` is unknown).
import asyncio
import hashlib
import json
from collections.abc import Iterator
from contextlib import AsyncExitStack
from pathlib import Path
from typing import Annotated, Any, Optional

import orjson
import verifiers.v1 as vf
from openai import APIStatusError, AsyncOpenAI
from pydantic import BaseModel, ConfigDict, Field, model_validator
from verifiers.v1.dialects.chat import message_to_wire
from verifiers.v1.harnesses.utils.mcp import call_mcp, connect_mcp

from compoworld_gym.checks import CheckResult
from compoworld_gym.envs.compoworld_env import CompoWorldEnv
from compoworld_gym.metatools import meta_tool_definitions
from compoworld_gym.prompts import system_prompt
from compoworld_gym.rewards import rubric_row
from compoworld_gym.tasks import MetaCall, Task

__all__ = ["CompoWorldConfig", "CompoWorldData", "CompoWorldHarness", "CompoWorldState", "CompoWorldTask",
           "CompoWorldTaskConfig", "CompoWorldTaskset", "CompoWorldToolset", "CompoWorldToolsetConfig",
           "EpisodeRecord", "final_answer", "replay"]

#: The four meta-tool definitions by name: the one source of the tools' descriptions.
_DEFINITIONS = {d["function"]["name"]: d["function"] for d in meta_tool_definitions()}


def _param(tool: str, name: str) -> Any:
    """A pydantic ``Field`` carrying the definition's description of ``tool``'s parameter ``name``."""
    return Field(description=_DEFINITIONS[tool]["parameters"]["properties"][name]["description"])


# ------------------------------------------------------------------ configs
class CompoWorldToolsetConfig(vf.ToolsetConfig):
    """Where the per-rollout tool server runs (verifiers' fields) and its episode's step limit.

    Raises:
        pydantic.ValidationError: ``url`` is set (a server verifiers does not launch has
            no rollout, so no episode and no state channel).
    """

    max_steps: int = Field(40, ge=1, description=(
        "The episode's step limit (CompoWorldEnv max_steps). verifiers calls tools one at a time, so each "
        "tool call is one step; the final answer is one more. At the limit the env scores the episode "
        "(no final answer) and the rollout stops."))

    @model_validator(mode="after")
    def _launched_per_rollout(self) -> "CompoWorldToolsetConfig":
        if self.url is not None:
            raise ValueError("tools.url must stay unset: verifiers launches one CompoWorld tool server per "
                             "rollout (choose where with tools.runtime / tools.colocated)")
        return self


class CompoWorldTaskConfig(vf.TaskConfig):
    """Run-time knobs of every task (``--env.taskset.task.*``)."""

    tools: CompoWorldToolsetConfig = CompoWorldToolsetConfig()


class CompoWorldConfig(vf.TasksetConfig):
    """Which CompoWorld tasks load (``--env.taskset.*``): the built-in set by default.

    Raises:
        pydantic.ValidationError: both ``task_file`` and ``tasks`` are given.
    """

    task_file: Optional[Path] = Field(None, description="A JSONL task file (compoworld_gym.tasks.save_tasks).")
    tasks: Optional[list[Task]] = Field(None, description="Tasks given as objects (Python use).")
    task: CompoWorldTaskConfig = CompoWorldTaskConfig()

    @model_validator(mode="after")
    def _one_source(self) -> "CompoWorldConfig":
        if self.task_file is not None and self.tasks is not None:
            raise ValueError("give either task_file or tasks, not both (neither: the built-in tasks)")
        return self


# -------------------------------------------------------------- task records
class CompoWorldData(vf.TaskData):
    """One task's wire data: the prompt verifiers shows plus the whole CompoWorld task.

    The task rides along whole (services, initial state, rubric, reference) so a
    tool server in any runtime, and the reward, rebuild the same episode from it.
    The model sees only ``system_prompt`` and ``prompt``.
    """

    spec: Task = Field(description="The CompoWorld task this row runs.")

    @classmethod
    def of(cls, task: Task) -> "CompoWorldData":
        """The row of ``task``: id/name = task id, the episode's system prompt and instruction."""
        return cls(id=task.id, name=task.id, prompt=task.instruction, system_prompt=system_prompt(task.today),
                   spec=task)


class CompoWorldState(vf.State):
    """What the tool server hands the host after every call (verifiers syncs it per call)."""

    actions: list[str] = Field(default_factory=list, description="Env actions applied, in order (JSON texts).")
    digest: str = Field("", description="sha256 over the observations the actions produced.")
    ended: bool = Field(False, description="The env ended the episode (step limit).")


class EpisodeRecord(BaseModel):
    """One scored episode, as stored in ``trace.info["compoworld"]``.

    Attributes:
        rubric_score: the reward, in [0, 1] (:func:`compoworld_gym.rewards.score`).
        rubric: every rubric item's result, in rubric order.
        final_answer: the answer scored (None: the episode ended without one).
        steps: env steps (tool calls, plus one for a final answer); ``n_tool_calls``:
            meta-tool calls; ``n_real_tool_calls``: service tool calls among them.
        actions: the env actions replayed, in order; ``digest``: their observations' sha256.
    """

    model_config = ConfigDict(extra="forbid")
    task_id: str
    rubric_score: float
    rubric: list[CheckResult]
    final_answer: Optional[str]
    steps: int
    n_tool_calls: int
    n_real_tool_calls: int
    actions: list[str]
    digest: str

    def metrics(self) -> dict[str, float]:
        """Per-item passes ``rubric/<id>`` (1.0/0.0), the work fraction, guards broken and counts."""
        row = rubric_row(self.rubric)
        positives = row.passes[~row.guards]
        out = {f"rubric/{item.id}": float(item.passed) for item in self.rubric}
        out["rubric_work"] = float(positives.mean()) if positives.size else 1.0
        out["rubric_guards_broken"] = float((row.passes[row.guards] < 1.0).sum())
        out.update(steps=float(self.steps), n_tool_calls=float(self.n_tool_calls),
                   n_real_tool_calls=float(self.n_real_tool_calls))
        return out


# ------------------------------------------------------------------ episodes
class _Episode:
    """One CompoWorldEnv episode of one task, logging the actions it applies."""

    def __init__(self, task: Task, max_steps: int) -> None:
        self.env = CompoWorldEnv(tasks=[task], max_steps=max_steps)
        self.env.reset(seed=0, options={"task": task.id})
        self.actions: list[str] = []
        self._hash = hashlib.sha256()
        self.ended = False

    @property
    def digest(self) -> str:
        return self._hash.hexdigest()

    def apply(self, action: str) -> str:
        """Step the env with ``action``; returns the observation (an ended episode's is a 409 error)."""
        obs, _, terminated, truncated, _ = self.env.step(action)
        if not self.ended:  # calls after the end change nothing: not part of the episode
            self.actions.append(action)
            self._hash.update(f"{len(obs)}:{obs}".encode())
            self.ended = terminated or truncated
        return obs

    def finish(self, answer: Optional[str]) -> EpisodeRecord:
        """Give ``answer`` as the final answer (unless the episode has ended) and score the episode."""
        if not self.ended and answer is not None:
            self.env.step(orjson.dumps({"final_answer": answer}).decode())
        _, info = self.env.end_episode()  # scores an unfinished episode as the step limit would
        fields = set(EpisodeRecord.model_fields) - {"actions", "digest"}
        return EpisodeRecord(**{k: info[k] for k in fields}, actions=self.actions, digest=self.digest)


def replay(task: Task, actions: list[str], answer: Optional[str], max_steps: int = 40,
           digest: Optional[str] = None) -> EpisodeRecord:
    """Score ``task`` after ``actions`` (env action texts) and the final ``answer``.

    Args:
        task: the CompoWorld task.
        actions: env actions, in order, as :class:`CompoWorldState` logs them.
        answer: the final answer text; None scores the state without one.
        max_steps: the live episode's step limit (truncation must replay the same).
        digest: the live observations' sha256; when given, the replay must match it.

    Raises:
        RuntimeError: the replay's observations differ from the live episode's.
    """
    episode = _Episode(task, max_steps)
    for action in actions:
        episode.apply(action)
    if digest and episode.digest != digest:
        raise RuntimeError(f"replaying {len(actions)} actions of {task.id} did not reproduce the rollout's "
                           "observations; the episode cannot be scored")
    return episode.finish(answer)


def final_answer(trace: vf.Trace) -> Optional[str]:
    """The rollout's final answer: its last assistant text, if that turn called no tool.

    A rollout cut off after a tool-calling turn has no final answer (None), as in
    CompoWorldEnv, where the episode ends by an answer without a tool call.
    """
    replies = trace.assistant_messages
    if not replies or replies[-1].tool_calls:
        return None
    return replies[-1].content or ""


# -------------------------------------------------------------------- tools
def _meta_tool(fn: Any) -> Any:
    """``@vf.tool`` with the meta-tool definition's description (its docstring is the MCP description)."""
    fn.__doc__ = _DEFINITIONS[fn.__name__]["description"]
    return vf.tool(fn)


class CompoWorldToolset(vf.Toolset[CompoWorldToolsetConfig, CompoWorldState]):
    """The four meta-tools over one rollout's episode (one server process per rollout).

    Tool results are the env's observations (JSON text: ``{"success": ..., ...}``).
    """

    TOOL_PREFIX = None  # bare names (list_services, ...), as in the paper's trajectories

    def __init__(self, config: CompoWorldToolsetConfig) -> None:
        super().__init__(config)
        self._episode: Optional[_Episode] = None

    async def setup_task(self, task: CompoWorldData) -> None:
        """Start this rollout's episode: a fresh env reset on the row's task."""
        self._episode = _Episode(task.spec, self.config.max_steps)

    def _act(self, name: str, arguments: dict[str, Any]) -> str:
        if self._episode is None:
            raise RuntimeError("this tool server has no task: it serves one rollout, started by verifiers")
        obs = self._episode.apply(MetaCall(name=name, arguments=arguments).action())
        # The whole log each time (not an append): verifiers' state sync is last-write-wins.
        self.state.actions, self.state.digest = list(self._episode.actions), self._episode.digest
        self.state.ended = self._episode.ended
        return obs

    @_meta_tool
    def list_services(self) -> str:
        return self._act("list_services", {})

    @_meta_tool
    def list_tools(self, service: Annotated[str, _param("list_tools", "service")]) -> str:
        return self._act("list_tools", {"service": service})

    @_meta_tool
    def describe_tool(self, tool: Annotated[str, _param("describe_tool", "tool")]) -> str:
        return self._act("describe_tool", {"tool": tool})

    @_meta_tool
    def call_tool(self, tool_name: Annotated[str, _param("call_tool", "tool_name")],
                  arguments: Annotated[Optional[dict[str, Any]], _param("call_tool", "arguments")] = None) -> str:
        # An omitted `arguments` stays omitted in the action: the env reads it as none.
        call = {"tool_name": tool_name} if arguments is None else {"tool_name": tool_name, "arguments": arguments}
        return self._act("call_tool", call)


# -------------------------------------------------------------- task, taskset
class CompoWorldTask(vf.Task[CompoWorldData, CompoWorldState, CompoWorldTaskConfig]):
    """One CompoWorld task: its tool server, its step-limit stop and its rubric reward."""

    @classmethod
    def toolsets(cls, config: CompoWorldTaskConfig) -> list[vf.Toolset]:
        """The rollout's tool server (one per rollout: each gets its own episode)."""
        return [CompoWorldToolset(config.tools)]

    @property
    def key(self) -> str:
        """The CompoWorld task id (unique in a pool; stable across runs)."""
        return self.data.spec.id

    @vf.stop
    def step_limit(self, trace: vf.Trace) -> bool:
        """End the rollout once the env has ended the episode (its step limit)."""
        return isinstance(trace.state, CompoWorldState) and trace.state.ended

    @vf.reward(weight=1.0)
    async def rubric(self, trace: vf.Trace) -> float:
        """The episode's rubric score in [0, 1]; per-item results go to metrics and ``info``."""
        # A trace read back from disk (vf-replay) has a bare vf.State: verifiers does not save
        # trace.state, so the action log comes from the record the first scoring saved in info.
        state = trace.state if isinstance(trace.state, CompoWorldState) else CompoWorldState()
        actions, digest = state.actions, state.digest
        saved = trace.info.get("compoworld")
        if not actions and saved:
            actions, digest = saved["actions"], saved["digest"]
        record = await asyncio.to_thread(replay, self.data.spec, actions, final_answer(trace),
                                         self.config.tools.max_steps, digest)
        trace.info["compoworld"] = record.model_dump(mode="json")
        trace.record_metrics(record.metrics())
        return record.rubric_score

    async def validate(self, runtime: vf.Runtime) -> Optional[bool]:
        """``vf-validate``: the task's reference solution scores 1.0 (None without a reference)."""
        spec = self.data.spec
        if not spec.reference:
            return None
        record = await asyncio.to_thread(replay, spec, [step.action() for step in spec.reference],
                                         spec.reference_answer, self.config.tools.max_steps)
        return record.rubric_score == 1.0


class CompoWorldTaskset(vf.Taskset[CompoWorldTask, CompoWorldConfig]):
    """CompoWorld tasks for verifiers: the built-in set, a task file, or a task list.

    Raises (at construction, from the pool checks of ``CompoWorldEnv``):
        ValueError: an empty pool, duplicate task ids, a file without tasks.
        compoworld_gym.tasks.TaskFileError: an unreadable task file line.

    Example:
        >>> from compoworld_gym.builtin_tasks import builtin_tasks
        >>> taskset = CompoWorldTaskset(CompoWorldConfig(tasks=builtin_tasks()[:2]))
        >>> [task.key for task in taskset]
        ['builtin-overdue-billing-escalation', 'builtin-vip-first-response']
    """

    def __init__(self, config: CompoWorldConfig) -> None:
        super().__init__(config)
        path = str(config.task_file) if config.task_file is not None else None
        self.pool: list[Task] = CompoWorldEnv(tasks=config.tasks, task_file=path).tasks

    def load(self) -> Iterator[CompoWorldTask]:
        """One task per pool entry, in pool order."""
        for spec in self.pool:
            yield CompoWorldTask(CompoWorldData.of(spec), self.config.task)


# ------------------------------------------------------------------ harness
class CompoWorldHarness(vf.Harness[vf.HarnessConfig]):
    """A tool-only chat loop, run in-process: the model calls the MCP tools until it answers.

    Every model call goes through verifiers' interception endpoint (which records
    the trace and applies the run's sampling); a turn without tool calls is the
    final answer. Needs no container, no ``uv`` and executes no code.
    """

    APPENDS_SYSTEM_PROMPT = True
    SUPPORTS_MCP = True
    EXECUTES_CODE = False
    NEEDS_CONTAINER = False

    async def launch(self, ctx: vf.ModelContext, trace: vf.Trace, runtime: vf.Runtime, endpoint: str,
                     secret: str, mcp_urls: dict[str, str], data: vf.TaskData) -> vf.ProgramResult:
        """Run the loop to the final answer, or until verifiers refuses a model call (a stop)."""
        system, prompt = self.resolve_prompt(data)
        messages: list[dict[str, Any]] = [{"role": "system", "content": system}] if system else []
        if isinstance(prompt, str):
            messages.append({"role": "user", "content": prompt})
        else:
            messages.extend(message_to_wire(m) for m in prompt or [])
        servers = {name: {"url": url, "timeout": self.config.tool_timeout} for name, url in mcp_urls.items()}
        async with AsyncExitStack() as stack, AsyncOpenAI(base_url=endpoint, api_key=secret) as client:
            tools, dispatch, connections = await connect_mcp({"mcpServers": servers}, stack)
            while True:
                try:
                    completion = await client.chat.completions.create(model=ctx.model, messages=messages,
                                                                      tools=tools or None)
                except APIStatusError:
                    if trace.stop_condition is not None:  # a limit or @stop refused the turn: a clean end
                        break
                    raise
                message = completion.choices[0].message
                messages.append(message.model_dump(exclude_none=True))
                if not message.tool_calls:
                    break
                for call in message.tool_calls:
                    content = await self._run_tool(call, dispatch, connections)
                    messages.append({"role": "tool", "tool_call_id": call.id, "name": call.function.name,
                                     "content": content})
        return vf.ProgramResult(exit_code=0, stdout="", stderr="")

    @staticmethod
    async def _run_tool(call: Any, dispatch: dict, connections: dict) -> Any:
        """One tool call's result content; bad calls come back to the model as error text."""
        name = call.function.name
        try:
            arguments = json.loads(call.function.arguments or "{}")
        except json.JSONDecodeError as exc:
            return f"error: invalid JSON in tool arguments ({exc}); resend the call with valid JSON"
        if not isinstance(arguments, dict):
            return f"error: tool arguments must be a JSON object, got {type(arguments).__name__}"
        if name not in dispatch:
            return f"error: unknown tool {name!r}; the tools are {', '.join(sorted(dispatch))}"
        return await call_mcp(connections, dispatch, name, arguments)


if __name__ == "__main__":  # verifiers launches each rollout's tool server as `python -m <this module>`
    from compoworld_gym.integrations.verifiers import CompoWorldToolset as _Toolset  # one copy of the classes

    _Toolset.run()
