"""A Hypothesis state machine that fuzzes any compoworld-style env.

:func:`env_state_machine` builds a ``RuleBasedStateMachine`` for an env
factory. Each run resets the env with a seed, then takes steps: valid
meta-tool calls drawn from the live state, malformed actions, final answers
and further resets (with and without a seed). After every step it checks:

* no exception escapes ``step`` or ``reset``;
* every observation is in the observation space and parses as JSON (after
  ``reset``: an object with ``messages`` and ``tools``);
* every mounted service's state validates (live object and JSON round trip);
* an action with no successful mutating tool call changes no state (failed
  calls, read-only tools, discovery, errors, final answers);
* rewards are finite and within ``reward_range``;
* nothing survives a reset: ``reset(seed=s)`` after any episode gives
  byte-identical observation, info and states to a fresh env's
  ``reset(seed=s)``; any reset gives the task's initial state and an empty
  call log;
* no rubric check id/description or reference solution text reaches an
  observation;
* replaying the run's resets and actions in a fresh env reproduces every
  observation, reward, flag, info and the final states (checked at teardown);
* every ``reset`` and ``step`` returns within ``MachineConfig.action_timeout``
  seconds (a tool that never returns is a ``hang`` finding, not a hung
  campaign).

Envs that do not expose ``env.unwrapped.world`` (a
:class:`~compoworld_gym.world.World`) get the generic checks only.
"""

from __future__ import annotations

import contextlib
import hashlib
import math
import traceback
from typing import Any, Callable, ClassVar, Iterator, Optional

import gymnasium as gym
import numpy as np
import orjson
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, rule

from compoworld_gym.actions import parse_action
from compoworld_gym.episode import mount
from compoworld_gym.testing.actions import call, dumps, final_answers, live_action_strategies, malformed_actions
from compoworld_gym.testing.findings import FuzzFailure, MachineConfig, _dump, _short  # noqa: F401  (re-exported)
from compoworld_gym.testing.secrets import hidden_texts
from compoworld_gym.testing.strategies import Pools, drawing_from, state_pools
from compoworld_gym.testing.time_limit import ActionTimeout, time_limit
from compoworld_gym.world import World

#: Step kinds, most useful first (Hypothesis shrinks toward the first).
_KINDS = ("call",) * 5 + ("malformed",) * 3 + ("meta", "reset", "final")
_AFTER_END = ("reset", "reset", "reset", "call")
#: World-free strategies, built once (Hypothesis validates each new strategy object).
_FINAL_ANSWERS = final_answers()
_MALFORMED = malformed_actions()
_LIST_SERVICES = st.just(dumps(call("list_services")))
#: Distinct states whose value pools a machine keeps (least recently used dropped first): the
#: initial state every reset returns to, and the current one.
POOL_CACHE_SIZE = 2
#: Distinct worlds (mounted services and tool names) whose action strategies a machine keeps.
WORLD_CACHE_SIZE = 16
#: Once a machine class has seen a hang, later calls (Hypothesis shrinking the trace, replaying
#: it many times) get at most this limit, so shrinking a hang takes seconds, not minutes.
HANG_RECHECK_S = 1.0


class EnvMachine(RuleBasedStateMachine):
    """Base state machine; :func:`env_state_machine` subclasses it per env factory."""

    factory: ClassVar[Callable[[], gym.Env]]
    config: ClassVar[MachineConfig]
    _references: ClassVar[dict[Optional[int], bytes]]
    _secrets: ClassVar[dict[str, list[str]]]
    _pool_cache: ClassVar[dict[bytes, Pools]]
    _world_cache: ClassVar[dict[tuple[Any, ...], dict[str, st.SearchStrategy[str]]]]
    _initials: ClassVar[dict[int, tuple[Any, bytes]]]
    _validated: ClassVar[set[tuple[str, int]]]
    #: Runs finished by this machine class (Hypothesis's shrink runs included).
    runs_done: ClassVar[int] = 0
    #: ``reset`` and ``step`` calls made by this class's runs (references and replays not counted).
    actions_done: ClassVar[int] = 0
    #: Whether a call of this class's runs hit the time limit (later calls get :data:`HANG_RECHECK_S`).
    hung: ClassVar[bool] = False
    #: BLAKE2b of every reset seed and action this class's runs drew, in order (same seed, same digest).
    _digest: ClassVar[Any]

    @classmethod
    def clear_caches(cls) -> None:
        """Drop what the class's runs cached (strategies, references, secrets, states checked);
        the counters stay. Called when a campaign is done with the class."""
        for cache in (cls._references, cls._secrets, cls._pool_cache, cls._world_cache, cls._initials,
                      cls._validated):
            cache.clear()

    def __init__(self) -> None:
        super().__init__()
        self.env = self.factory()
        self.trace: list[tuple[str, Any]] = []
        self.outputs: list[bytes] = []
        self.done = False
        self.failed = False
        self.state_key = b""

    # -------------------------------------------------------------- helpers
    def fail(self, invariant: str, detail: str) -> None:
        """Raise :class:`FuzzFailure` (and skip the teardown replay)."""
        self.failed = True
        raise FuzzFailure(invariant, detail, self.trace)

    def record(self, kind: str, arg: Any) -> None:
        """Add one reset or step to the trace, the class's count and its digest of what was drawn."""
        self.trace.append((kind, arg))
        type(self).actions_done += 1
        # repr, not JSON: a malformed action may hold lone surrogates, which orjson refuses
        self._digest.update(repr((kind, arg)).encode("utf-8", "backslashreplace"))

    def limit(self) -> Optional[float]:
        """Seconds one ``reset``/``step`` may take now (see :data:`HANG_RECHECK_S`)."""
        limit = self.config.action_timeout
        return min(limit, HANG_RECHECK_S) if limit and type(self).hung else limit

    @contextlib.contextmanager
    def guarded(self, call: str, timed: bool = True) -> Iterator[None]:
        """Run one env ``call`` under the time limit (``timed``): an exception or a hang fails the
        run; Ctrl-C marks it failed (so teardown does not replay a trace that may hang) and goes on up."""
        limit = self.limit()
        try:
            with time_limit(limit if timed else None):
                yield
        except ActionTimeout:
            rechecked = type(self).hung and limit != self.config.action_timeout
            type(self).hung = True
            self.fail("hang", f"{call} did not return within {limit:g} s (a loop that never ends?)" + (
                f"; the limit is {self.config.action_timeout:g} s, a hang found once is re-checked at "
                f"{limit:g} s while its trace shrinks" if rechecked else ""))
        except KeyboardInterrupt:
            self.failed = True
            raise
        except (Exception, SystemExit):  # noqa: BLE001 - a tool calling sys.exit is a finding too
            self.fail(f"exception-in-{call}", traceback.format_exc())

    def world(self) -> Optional[World]:
        """The env's mounted world, if it exposes one."""
        world = getattr(self.env.unwrapped, "world", None)
        return world if isinstance(world, World) else None

    def check_states(self, world: World) -> bytes:
        """Validate every service state (live and JSON round trip); the states as bytes.

        A service whose state bytes already validated (in any run) is not
        validated again: a step touches one service, a world mounts up to 15.
        The set keeps a hash of the bytes, not the bytes (a 15-service world's
        states are megabytes); a 64-bit collision would only skip a check.
        """
        states = {}
        for name, svc in world.services.items():
            data = svc.state_dict()
            raw = orjson.dumps(data)
            key = (name, hash(raw))
            if key not in self._validated:
                try:
                    svc.State.model_validate(svc.state)
                    svc.State.model_validate_json(raw)
                except Exception as exc:  # noqa: BLE001 - any failure is the finding
                    self.fail("state-invalid", f"service {name!r} state does not validate: {exc}")
                if len(self._validated) > 4096:
                    self._validated.clear()
                self._validated.add(key)
            states[name] = data
        self.state_key = _dump(states)
        return self.state_key

    def check_obs(self, obs: Any) -> Any:
        """Observation is in the space and (``json_observations``) is JSON; returns the parsed
        value (None for text observations)."""
        if not self.env.observation_space.contains(obs):
            self.fail("obs-out-of-space", f"observation not in {self.env.observation_space}: {_short(obs)}")
        if not self.config.json_observations:
            return None
        try:
            return orjson.loads(obs)
        except (orjson.JSONDecodeError, TypeError) as exc:
            self.fail("obs-not-json", f"observation is not JSON ({exc}): {_short(obs)}")

    def check_leaks(self, obs: Any, action: Any) -> None:
        """No rubric or reference text of the current task appears in ``obs`` (text, or any
        JSON-able value such as a wrapper's message list, searched as its JSON text)."""
        task = getattr(self.env.unwrapped, "task", None)
        if not self.config.check_leaks or task is None or not hasattr(task, "checks"):
            return
        if not isinstance(obs, str):
            obs = _dump(obs).decode()
        for secret in self._secrets_of(task):
            if secret in obs and not (isinstance(action, str) and secret in action):
                self.fail("rubric-leak", f"observation shows hidden task text {secret!r}")

    def _secrets_of(self, task: Any) -> list[str]:
        key = _dump([task.id, task.instruction])
        if key not in self._secrets:
            self._secrets[key] = hidden_texts(task, self.world())
        return self._secrets[key]

    def _initial_of(self, task: Any) -> bytes:
        """The task's initial states as bytes, from a freshly mounted world (cached per task object)."""
        hit = self._initials.get(id(task))
        if hit is None or hit[0] is not task:  # the task is kept, so its id is not reused
            hit = self._initials[id(task)] = (task, _dump(mount(task).states()))
        return hit[1]

    def _reference(self, seed: int) -> bytes:
        if seed not in self._references:
            env = self.factory()
            try:
                obs, info = env.reset(seed=seed)
                world = getattr(env.unwrapped, "world", None)
                states = world.states() if isinstance(world, World) else None
                self._references[seed] = _dump([obs, info, states])
            finally:
                env.close()
        return self._references[seed]

    # --------------------------------------------------------------- resets
    def do_reset(self, seed: Optional[int]) -> None:
        """Reset and check the reset invariants."""
        self.record("reset", seed)
        with self.guarded("reset"):
            obs, info = self.env.reset(seed=seed)
        self.outputs.append(_dump(["reset", obs, info]))
        parsed = self.check_obs(obs)
        task = getattr(self.env.unwrapped, "task", None)
        if self.config.check_leaks and task is not None and hasattr(task, "checks"):
            self._secrets_of(task)  # computed on the initial state, before any tool ran
        keys = self.config.reset_keys if self.config.json_observations else ()
        if keys and not (isinstance(parsed, dict) and all(k in parsed for k in keys)):
            self.fail("reset-obs-shape", f"reset observation lacks {keys}: {_short(obs)}")
        world = self.world()
        states = None
        if world is not None:
            self.check_states(world)
            states = world.states()
            if world.call_log:
                self.fail("reset-leak", f"call log not empty after reset: {world.call_log}")
            if task is not None and hasattr(task, "checks") and self._initial_of(task) != _dump(states):
                self.fail("reset-leak", f"state after reset differs from task {task.id!r}'s initial state")
        if seed is not None and _dump([obs, info, states]) != self._reference(seed):
            self.fail("reset-leak", f"reset(seed={seed}) differs from a fresh env's reset(seed={seed})")
        self.done = False

    # ---------------------------------------------------------------- steps
    def allowed_to_mutate(self, world: World, action: Any) -> list[int]:
        """Indexes of calls in ``action`` that run a mutating tool."""
        if self.done:
            return []
        parsed = parse_action(action)
        out = []
        for i, (name, args) in enumerate(parsed.calls):
            if name == "call_tool" and isinstance(args, dict) and isinstance(args.get("tool_name"), str):
                route = world.resolve(args["tool_name"])
                if route is not None and not route[1].read_only:
                    out.append(i)
        return out

    def do_step(self, action: Any) -> None:
        """Step and check the step invariants."""
        self.record("step", action)
        world = self.world()
        before = self.state_key  # checked after the previous reset or step
        mutators = self.allowed_to_mutate(world, action) if world is not None else []
        with self.guarded("step"):
            obs, reward, terminated, truncated, info = self.env.step(action)
        self.outputs.append(_dump(["step", obs, reward, terminated, truncated, info]))
        parsed = self.check_obs(obs)
        lo, hi = self.config.reward_range
        if not (isinstance(reward, (int, float)) and math.isfinite(reward) and lo <= reward <= hi):
            self.fail("reward-out-of-range", f"reward {reward!r} not a finite number in [{lo}, {hi}]")
        if not all(isinstance(f, (bool, np.bool_)) for f in (terminated, truncated)):
            self.fail("bad-flags", f"terminated={terminated!r}, truncated={truncated!r}")
        if not self.config.allow_internal_errors:
            for result in parsed if isinstance(parsed, list) else [parsed]:
                if isinstance(result, dict) and (result.get("error") or {}).get("code") == 500:
                    self.fail("tool-internal-error", f"a tool failed with 500: {result['error'].get('message')}")
        if world is not None:
            after = self.check_states(world)
            # text observations hide the results: then only an attempted mutating call may change state
            succeeded = bool(mutators) if parsed is None else self._mutation_succeeded(mutators, parsed)
            if after != before and not succeeded:
                self.fail("unexpected-state-change",
                          "state changed although no mutating tool call succeeded; obs: " + _short(obs))
        self.check_leaks(obs, action)
        self.done = self.done or bool(terminated) or bool(truncated)

    @staticmethod
    def _mutation_succeeded(mutators: list[int], parsed: Any) -> bool:
        if not mutators:
            return False
        results = parsed if isinstance(parsed, list) else [parsed]
        if len(results) <= max(mutators):  # an overall error replaced the results
            return False
        return any(isinstance(results[i], dict) and results[i].get("success") is True for i in mutators)

    # ---------------------------------------------------------------- rules
    @initialize(data=st.data())
    def start(self, data: st.DataObject) -> None:
        """Every run starts with a seeded reset (an unseeded one is not reproducible)."""
        self.do_reset(data.draw(st.sampled_from(self.config.seeds), label="seed"))

    @rule(data=st.data())
    def act(self, data: st.DataObject) -> None:
        """One step of a weighted kind: call, malformed, meta, reset or final."""
        kind = data.draw(st.sampled_from(_AFTER_END if self.done else _KINDS), label="kind")
        if kind == "reset":
            self.do_reset(data.draw(st.none() | st.sampled_from(self.config.seeds), label="seed"))
            return
        world = self.world()
        if kind == "final":
            strategy = _FINAL_ANSWERS
        elif world is None:
            strategy = _MALFORMED if kind == "malformed" else _LIST_SERVICES
        else:
            # pools only for draws that take existing values (discovery calls take none)
            with drawing_from(None if kind == "meta" else self._pools(world)):
                action = data.draw(self._world_strategies(world)[kind], label="action")
            self.do_step(action)
            return
        self.do_step(data.draw(strategy, label="action"))

    def _pools(self, world: World) -> Pools:
        """The value pools of the current state (cached for the :data:`POOL_CACHE_SIZE` most recent)."""
        return _lru(self._pool_cache, self.state_key, POOL_CACHE_SIZE,
                    lambda: state_pools(world.services.values()))

    def _world_strategies(self, world: World) -> dict[str, st.SearchStrategy[str]]:
        """The world's action strategies, shared by every state and run of that world.

        They read the state's values from :meth:`_pools` at draw time, so they
        are built once per world: Hypothesis validates each new strategy
        object, and building them per state was ~40% of a campaign's time.
        Keyed by the mounted classes and exposed tool names (the classes in
        the key keep their tool specs alive).
        """
        key = tuple((type(svc), tuple(world.exposed_name(name, t) for t in svc.tools))
                    for name, svc in world.services.items())
        return _lru(self._world_cache, key, WORLD_CACHE_SIZE, lambda: live_action_strategies(world))

    def teardown(self) -> None:
        """Replay the run in a fresh env and compare everything, then close."""
        type(self).runs_done += 1
        try:
            if self.config.check_determinism and not self.failed and self.trace:
                self._replay()
        finally:
            self.env.close()

    def _replay(self) -> None:
        env = self.factory()
        try:
            outputs = []
            with self.guarded("replay", timed=False):
                for kind, arg in self.trace:
                    with time_limit(self.limit()):
                        if kind == "reset":
                            outputs.append(_dump(["reset", *env.reset(seed=arg)]))
                        else:
                            outputs.append(_dump(["step", *env.step(arg)]))
            for i, (mine, theirs) in enumerate(zip(self.outputs, outputs)):
                if mine != theirs:
                    self.trace = self.trace[: i + 1]
                    self.fail("nondeterministic", f"replay differs at event {i}: {_short(mine)} vs {_short(theirs)}")
            world, other = self.world(), getattr(env.unwrapped, "world", None)
            if world is not None and isinstance(other, World) and _dump(world.states()) != _dump(other.states()):
                self.fail("nondeterministic", "replay reached a different final state")
        finally:
            env.close()


def _lru(cache: dict[Any, Any], key: Any, size: int, build: Callable[[], Any]) -> Any:
    """``cache[key]``, built on a miss; the cache keeps the ``size`` most recently used
    (dicts keep insertion order, so re-inserting marks an entry used)."""
    hit = cache.pop(key, None)
    if hit is None:
        while len(cache) >= size:
            del cache[next(iter(cache))]
        hit = build()
    cache[key] = hit
    return hit


def env_state_machine(env_factory: Callable[[], gym.Env], config: MachineConfig = MachineConfig()
                      ) -> type[EnvMachine]:
    """A state machine class fuzzing envs made by ``env_factory``.

    Args:
        env_factory: zero-argument callable returning a fresh env (called
            once per run, plus once per reset seed and once per replay).
        config: what to check and which reset seeds to draw.

    Returns:
        An :class:`EnvMachine` subclass; run it with
        ``hypothesis.stateful.run_state_machine_as_test`` or
        :func:`compoworld_gym.testing.fuzz_env`.
    """
    if not callable(env_factory):
        raise TypeError(f"env_factory must be a zero-argument callable, got {env_factory!r}")
    if not config.seeds:
        raise ValueError("config.seeds must not be empty")
    return type("FuzzEnvMachine", (EnvMachine,), {
        "factory": staticmethod(env_factory), "config": config, "_references": {}, "_secrets": {},
        "_pool_cache": {}, "_world_cache": {}, "_initials": {},
        "_validated": set(), "_digest": hashlib.blake2b(digest_size=16)})
