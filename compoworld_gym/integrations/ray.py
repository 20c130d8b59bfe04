"""Task generation and evaluation spread over a Ray cluster (``pip install "compoworld-gym[ray]"``).

Both keep the single-process results exactly. :func:`iter_tasks_ray` yields
the tasks of :func:`compoworld_gym.generation.iter_tasks`, byte for byte and
in order: each task index has its own random stream, so a worker makes any
slice of indices on its own. :func:`evaluate_agent_ray` gives the metrics,
episodes and trajectory file of
:func:`compoworld_gym.baselines.evaluate.evaluate_agent`: run ``i`` of a task
has seed ``seed + i`` wherever it runs. Workers are actors asking for half a
CPU each (two whole-CPU actors on two cores leave nothing for anything else);
they import :mod:`compoworld_gym` explicitly, so every node needs it installed.
See ``docs/integrations/ray.md`` for the tested example and a multi-node setup.

Example:
    >>> from compoworld_gym.integrations.ray import RayConfig, iter_tasks_ray
    >>> [t.id for t in iter_tasks_ray(2, seed=0, ray_config=RayConfig(workers=2))]  # doctest: +SKIP
    ['gen-s0-00000', 'gen-s0-00001']
"""

from __future__ import annotations

import contextlib
import io
import logging
import math
import os
import signal
import socket
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Iterable, Iterator, Optional, Sequence

import ray

from compoworld_gym.generation.config import GenerationConfig
from compoworld_gym.generation.pipeline import GenerationError, GenerationStats, gave_up, iter_tasks
from compoworld_gym.jsonl import atomic_writer
from compoworld_gym.tasks import Task

#: Seconds one wait on a worker lasts before the driver looks at signals again (Ctrl-C stays prompt).
POLL_S = 0.25
#: Seconds the TCP probe of a ``host:port`` cluster address waits.
PROBE_TIMEOUT_S = 5.0


class RayClusterError(RuntimeError):
    """No Ray cluster could be started or reached; the message says which address and why."""


@dataclass
class RayConfig:
    """Where and how wide the work runs.

    Attributes:
        address: the cluster to join (``"auto"``, ``"HOST:6379"``,
            ``"ray://HOST:10001"``); None: ``RAY_ADDRESS``, else a local Ray
            for the run (a process already connected keeps its connection).
        workers: number of worker actors; None takes the cluster's CPU count.
        cpus_per_worker: CPUs each worker reserves (> 0; fractions share a core).
        chunk_size: tasks (or episodes) per call to a worker; None picks
            about eight chunks per worker, at most 20 items each.
        queue: calls queued on each worker at once (>= 1), so it never waits
            for the driver.

    Raises:
        ValueError: a field out of range (the message names it).
    """

    address: Optional[str] = None
    workers: Optional[int] = None
    cpus_per_worker: float = 0.5
    chunk_size: Optional[int] = None
    queue: int = 2

    def __post_init__(self) -> None:
        if self.workers is not None and self.workers < 1:
            raise ValueError(f"workers must be >= 1 (or None for the cluster's CPUs), got {self.workers}")
        if not self.cpus_per_worker > 0:
            raise ValueError(f"cpus_per_worker must be > 0, got {self.cpus_per_worker}")
        if self.chunk_size is not None and self.chunk_size < 1:
            raise ValueError(f"chunk_size must be >= 1 (or None to choose), got {self.chunk_size}")
        if self.queue < 1:
            raise ValueError(f"queue must be >= 1, got {self.queue}")


def _probe(address: str) -> None:
    """Fail within :data:`PROBE_TIMEOUT_S` when a ``host:port`` address does not answer
    (``ray.init`` itself retries for minutes before it gives up)."""
    host, colon, port = address.removeprefix("ray://").rpartition(":")
    if not colon or not port.isdigit():
        return  # "auto", "local" and other forms: Ray resolves them
    try:
        socket.create_connection((host, int(port)), timeout=PROBE_TIMEOUT_S).close()
    except OSError as exc:
        raise RayClusterError(f"cannot reach the Ray cluster at {address}: {(exc.strerror or str(exc)).lower()} "
                              "(start one with `ray start --head`, or check the address)") from None


@contextlib.contextmanager
def ray_session(address: Optional[str] = None) -> Iterator[None]:
    """Connected to Ray for the block: an existing connection as it is, else ``ray.init(address)``.

    Without an address (and no ``RAY_ADDRESS`` in the environment) a fresh
    local Ray is started, never a cluster found on this machine: use
    ``"auto"`` for that.

    A connection this opened is shut down at the end (a local Ray it started
    stops with it); one the caller had stays open. Ray's own SIGTERM handler
    is not kept: the caller's one stays in force.

    Raises:
        RayClusterError: the address does not answer, or Ray cannot start or connect.
    """
    if ray.is_initialized():
        yield
        return
    address = address or os.environ.get("RAY_ADDRESS") or None  # Ray's own variable, as ray.init reads it
    if address:
        _probe(address)
    handler = signal.getsignal(signal.SIGTERM)
    try:
        # Workers' prints would land in the driver's stdout (and break --json); errors still come back.
        # "local" always starts a fresh Ray: a bare ray.init() would join whatever cluster
        # /tmp/ray/ray_current_cluster names, and wait for minutes on one that has died.
        ray.init(address=address or "local", include_dashboard=False, log_to_driver=False,
                 logging_level=logging.WARNING)
    except (ConnectionError, RuntimeError, ValueError) as exc:
        where = f"join the Ray cluster at {address}" if address else "start a local Ray"
        reason = " ".join(str(exc).split())[:300]
        if "InvalidAuthToken" in str(exc.__cause__):  # the usual cause: a cluster `ray start` made with a token
            reason += (" (the cluster wants its auth token: set RAY_AUTH_MODE=token here, with the token in "
                       "~/.ray/auth_token or RAY_AUTH_TOKEN)")
        raise RayClusterError(f"cannot {where}: {reason}") from None
    finally:
        with contextlib.suppress(ValueError, TypeError):  # not the main thread / handler set in C
            signal.signal(signal.SIGTERM, handler)
    try:
        yield
    finally:
        ray.shutdown()


def _worker_count(config: RayConfig) -> int:
    if config.workers is not None:
        return config.workers
    return max(1, int(ray.cluster_resources().get("CPU", 1)))


def _chunks(n: int, workers: int, size: Optional[int]) -> list[tuple[int, int]]:
    """``[(start, count), ...]`` covering ``range(n)`` in order."""
    size = size or min(20, max(1, math.ceil(n / (workers * 8))))
    return [(start, min(size, n - start)) for start in range(0, n, size)]


class _Pool:
    """Worker actors of one class; :meth:`ordered` maps calls over them and keeps the input order."""

    def __init__(self, cls: type, config: RayConfig, *args: Any) -> None:
        remote = ray.remote(num_cpus=config.cpus_per_worker)(cls)
        self.actors = [remote.remote(*args) for _ in range(_worker_count(config))]
        self.queue = config.queue

    def ordered(self, method: str, items: Sequence[Any]) -> Iterator[Any]:
        """``getattr(actor, method)(*item)`` for every item, results in item order.

        Each call goes to the worker with the fewest unfinished calls, at most
        ``queue`` per worker; results that finish early wait for their turn.

        Raises:
            Exception: the worker's own exception when a call fails there.
        """
        busy = [0] * len(self.actors)
        refs: dict[int, tuple[Any, int]] = {}  # item index -> (ref, actor index), unfinished
        done: dict[int, Any] = {}
        owner: dict[Any, int] = {}
        window = 2 * self.queue * len(self.actors)  # finished results held back for their turn stay bounded
        nxt = head = 0
        while head < len(items):
            while nxt < len(items) and nxt - head < window and min(busy) < self.queue:
                a = busy.index(min(busy))
                ref = getattr(self.actors[a], method).remote(*items[nxt])
                refs[nxt], owner[ref] = (ref, a), nxt
                busy[a] += 1
                nxt += 1
            if head not in done:
                ready, _ = ray.wait([r for r, _ in refs.values()], num_returns=1, timeout=POLL_S)
                for ref in ready:
                    i = owner.pop(ref)
                    busy[refs.pop(i)[1]] -= 1
                    done[i] = ref
                continue
            yield _get(done.pop(head))
            head += 1

    def close(self) -> None:
        """Stop the workers (their unfinished calls are dropped)."""
        for actor in self.actors:
            ray.kill(actor)


def _get(ref: Any) -> Any:
    """The value of a finished call; a worker's exception is raised as itself, not wrapped."""
    try:
        return ray.get(ref)
    except ray.exceptions.RayTaskError as exc:
        raise exc.cause from None


@contextlib.contextmanager
def _pool(cls: type, config: RayConfig, *args: Any) -> Iterator[_Pool]:
    with ray_session(config.address):
        pool = _Pool(cls, config, *args)
        try:
            yield pool
        finally:
            pool.close()


@dataclass
class GeneratedChunk:
    """What one worker made of indices ``start .. start + len(tasks) - 1``.

    Attributes:
        start: the first task index.
        tasks: the verified tasks, in index order.
        stats: the chunk's counts and stage seconds.
        gave_up: the index after the last task was rejected
            ``max_attempts_per_task`` times (the chunk stops there).
    """

    start: int
    tasks: list[Task]
    stats: GenerationStats
    gave_up: bool = False


class GenerationWorker:
    """A Ray actor's generator: any slice of one run's task indices.

    Args:
        seed: the run's generation seed.
        config: the run's options.
        designer_factory: called once here to build the instruction writer
            (None: the offline templates); it must pickle.
    """

    def __init__(self, seed: int, config: GenerationConfig,
                 designer_factory: Optional[Callable[[], Callable[..., str]]] = None) -> None:
        from compoworld_gym.generation.hooks import available_links

        self.seed, self.config = seed, config
        self.designer = designer_factory() if designer_factory is not None else None
        available_links()  # the library's declarations: built once, while the other workers start too

    def chunk(self, start: int, count: int) -> GeneratedChunk:
        """Tasks ``start .. start + count - 1`` (fewer when an index is given up on)."""
        stats, tasks = GenerationStats(), []
        try:
            for task in iter_tasks(count, self.seed, self.config, stats=stats, designer=self.designer, start=start):
                tasks.append(task)
        except GenerationError:
            return GeneratedChunk(start, tasks, stats, gave_up=True)
        return GeneratedChunk(start, tasks, stats)


def _add_counts(stats: GenerationStats, part: GenerationStats) -> None:
    """Add a chunk's attempts, rejections and seconds (kept tasks are counted as they are yielded)."""
    stats.attempts += part.attempts
    stats.rejected.update(part.rejected)
    stats.reasons.update(part.reasons)
    for stage, seconds in part.seconds.items():
        stats.seconds[stage] = stats.seconds.get(stage, 0.0) + seconds


def iter_tasks_ray(n: int, seed: int = 0, config: Optional[GenerationConfig] = None, *,
                   stats: Optional[GenerationStats] = None,
                   designer_factory: Optional[Callable[[], Callable[..., str]]] = None,
                   ray_config: Optional[RayConfig] = None) -> Iterator[Task]:
    """:func:`~compoworld_gym.generation.iter_tasks` on Ray workers: the same tasks, in order, streamed.

    Args:
        n: number of tasks (>= 0).
        seed: the generation seed.
        config: the options (default :class:`GenerationConfig`).
        stats: filled as tasks are yielded: the same counts as a
            single-process run; ``seconds`` are summed over the workers.
        designer_factory: builds the instruction writer on each worker
            (e.g. ``functools.partial(get_designer, "openai", ...)``); None
            uses the offline templates.
        ray_config: cluster and worker options (default :class:`RayConfig`).

    Raises:
        GenerationError: ``n < 0``, or an index was rejected
            ``config.max_attempts_per_task`` times (the tasks before it are
            yielded first, and the message is the single-process one).
        RayClusterError: no cluster could be started or reached.
    """
    if n < 0:
        raise GenerationError(f"n must be >= 0, got {n}")
    cfg = config or GenerationConfig()
    stats = GenerationStats() if stats is None else stats
    rc = ray_config or RayConfig()
    if n == 0:
        return
    with _pool(GenerationWorker, rc, seed, cfg, designer_factory) as pool:
        for part in pool.ordered("chunk", _chunks(n, len(pool.actors), rc.chunk_size)):
            _add_counts(stats, part.stats)
            for task in part.tasks:
                stats.kept += 1
                stats.compositions.add(task.meta["composition_id"])
                yield task
            if part.gave_up:
                raise gave_up(part.start + len(part.tasks), cfg, stats)


@dataclass
class AgentSpec:
    """A picklable ``seed -> agent`` factory: the CLI's agents, built where the episodes run.

    ``random`` gets a fresh agent per seed; a model-backed agent (``hf``,
    ``openai``) is built once per process and reseeded; any other is built
    fresh each time with ``options``.

    Attributes:
        name: the agent's name (:func:`compoworld_gym.baselines.agents.make_agent`).
        options: its keyword arguments (``model``, ``temperature``, ...).
    """

    name: str
    options: dict[str, Any] = field(default_factory=dict)
    _built: Any = field(default=None, init=False, repr=False, compare=False)

    def __call__(self, seed: int) -> Any:
        """The agent for the episode with this seed."""
        from compoworld_gym.baselines.agents import make_agent

        if self.name == "random":
            return make_agent("random", seed=seed, **self.options)
        if self.name not in ("hf", "openai"):
            return make_agent(self.name, **self.options)
        if self._built is None:
            self._built = make_agent(self.name, **self.options)
        self._built.seed = seed
        return self._built

    def __getstate__(self) -> dict[str, Any]:
        return {"name": self.name, "options": self.options, "_built": None}  # a model is rebuilt, never shipped


class EvaluationWorker:
    """A Ray actor running episodes of one evaluation, each as the single-process run would.

    Args:
        tasks: the evaluation's tasks (indexed by the calls).
        agent_factory: ``seed -> agent``; it must pickle (e.g. :class:`AgentSpec`).
        max_steps: step limit per episode.
        source: the trajectories' ``source`` field; None records nothing.
    """

    def __init__(self, tasks: list[Task], agent_factory: Callable[[int], Any], max_steps: int,
                 source: Optional[str]) -> None:
        from compoworld_gym.envs.compoworld_env import CompoWorldEnv

        self.tasks, self.factory = tasks, agent_factory
        self.env: Any = CompoWorldEnv(tasks=tasks, max_steps=max_steps)
        self.sink: Optional[io.StringIO] = None
        if source is not None:
            from compoworld_gym.wrappers.record_trajectory import RecordTrajectory

            self.sink = io.StringIO()
            self.env = RecordTrajectory(self.env, self.sink, source=source)

    def episodes(self, runs: list[tuple[int, int]], seed: int) -> list[tuple[Any, str]]:
        """``[(EpisodeResult, trajectory line or "")]`` for ``runs`` = ``[(task index, run i)]``."""
        from compoworld_gym.baselines.evaluate import run_episode

        out = []
        for t, i in runs:
            result = run_episode(self.env, self.factory(seed + i), self.tasks[t], seed=seed + i)
            line = ""
            if self.sink is not None:
                line = self.sink.getvalue()
                self.sink.seek(0)
                self.sink.truncate()
            out.append((result, line))
        return out


def evaluate_agent_ray(agent_factory: Callable[[int], Any], tasks: Iterable[Task], k: int = 1,
                       max_steps: int = 40, seed: int = 0, on_episode: Optional[Callable[[Any], None]] = None,
                       record_path: Optional[str | Path] = None, source: str = "compoworld-gym",
                       ray_config: Optional[RayConfig] = None) -> tuple[dict[str, Any], dict[str, list[Any]]]:
    """:func:`~compoworld_gym.baselines.evaluate.evaluate_agent` with episodes spread over Ray workers.

    Same arguments, return value and guarantees (metrics, episode order,
    trajectory bytes, a record file that appears only when complete);
    ``agent_factory`` must pickle (use :class:`AgentSpec` for the CLI's
    agents); ``on_episode`` is called in episode order as results arrive.

    Returns:
        ``(metrics, {task_id: [EpisodeResult, ...]})``.

    Raises:
        ValueError: ``k < 1`` or an empty ``source``.
        OSError: ``record_path``'s directory cannot be written.
        RayClusterError: no cluster could be started or reached.
    """
    from compoworld_gym.baselines.evaluate import aggregate

    if k < 1:
        raise ValueError(f"k must be >= 1, got {k}")
    if not isinstance(source, str) or not source:
        raise ValueError("source must be a non-empty string")  # checked here, not in a worker's constructor
    tasks = list(tasks)
    rc = ray_config or RayConfig()
    runs: dict[str, list[Any]] = {}
    episodes = [(t, i) for t in range(len(tasks)) for i in range(k)]
    with contextlib.ExitStack() as stack:
        sink = stack.enter_context(atomic_writer(record_path)) if record_path is not None else None
        if episodes:
            stack.enter_context(ray_session(rc.address))
            shared = ray.put(tasks)  # stored once, read by every worker
            pool = stack.enter_context(_pool(EvaluationWorker, rc, shared, agent_factory, max_steps,
                                             source if sink is not None else None))
            chunks = [(episodes[s:s + c], seed) for s, c in _chunks(len(episodes), len(pool.actors), rc.chunk_size)]
            for outcomes in pool.ordered("episodes", chunks):
                for result, line in outcomes:
                    runs.setdefault(result.task_id, []).append(result)
                    if sink is not None:
                        sink.write(line)
                    if on_episode:
                        on_episode(result)
    metrics = aggregate(tasks, runs)
    metrics["k"] = k
    return metrics, runs


__all__ = ["AgentSpec", "EvaluationWorker", "GeneratedChunk", "GenerationWorker", "RayClusterError", "RayConfig",
           "evaluate_agent_ray", "iter_tasks_ray", "ray_session"]
