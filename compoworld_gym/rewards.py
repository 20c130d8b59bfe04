"""Rubric rewards: the one home of the reward rule (paper §2.5).

Every function here is pure. The group rewards take the ``G × K`` *pass
matrix* of a group (``G`` rollouts of the same task, ``K`` rubric items;
entry ``[g, k]`` is 1 when rollout ``g`` passed item ``k``) and return one
reward per rollout. No Gymnasium is needed; the env and the wrappers in
:mod:`compoworld_gym.wrappers` call these.

One episode
-----------
* :func:`score` — the env's default reward of one finished episode (its
  rubric results), by the rule under *Guards* below;
* :func:`rubric_row` — the same results as one pass row ``(K,)`` plus
  their guard mask ``(K,)``, ready to stack into a pass matrix.

Rewards
-------
* :func:`binary_reward` — 1 only if every item passes (all-or-nothing).
* :func:`fraction_reward` — the fraction of positive items passed (equal
  weights) times the guard factor: with the guard mask, each row's :func:`score`.
* :func:`completion_focused_reward` — the paper's *Completion-Focused Rubric
  Reward*: item weights come from the group's per-item pass rates, so the
  items the group does least reliably weigh the most; recomputed per group.

Our completion-focused formula
------------------------------
The paper does not publish its formula; ours is, with ``p_k`` the pass rate
of item ``k`` over the group and ``ε > 0`` (default :data:`DEFAULT_EPS`)::

    u_k = 1 − p_k + ε                 (raw weight: the weighting function)
    w_k = u_k / Σ_j u_j               (normalised: Σ w_k = 1)
    r_g = Σ_k w_k · pass[g, k]        (reward of rollout g, in [0, 1])

Why: ``1 − p_k`` is the fraction of the group that *missed* item ``k``, so an
item every rollout already does carries little signal and little weight,
while the forgotten notification carries most. ``ε`` keeps every weight
positive, so partial completion always earns something and a rollout that
passes a superset of another's items never earns less; since the weights sum
to 1, passing every item earns exactly 1.0, the most any rollout can get.
The weighting function is a parameter (``weight_fn``): any map from the
``K`` pass rates to ``K`` non-negative raw weights, normalised here.

Guards
------
This section is the one statement of the reward rule; everything else in
the package refers here. Rubric items flagged ``guard`` (nothing else
touched, no mail to anyone else, no wrong id in the answer) hold in the
initial state and can only be broken, so they must not *earn* reward:
counting them as earned items would pay an agent for doing nothing. They
scale the reward instead. With ``P`` the positive items (work to do) and
``b`` the number of guards broken, the default reward of an episode
(:func:`score`, the env's reward and ``info["rubric_score"]``) is::

    score = (passed P / |P|) × GUARD_PENALTY ** b        (GUARD_PENALTY = 0.5)

the work done, halved for every guard broken; the work factor is 1 when
``P`` is empty, and an empty rubric scores 0.0. Doing nothing scores 0.0,
the reference solution 1.0. House rules are hard constraints (paper §2.4:
things not to touch), so a broken guard costs much more than a missed item
of work, yet the reward keeps a gradient: an agent that breaks one rule
still beats one that breaks two.

Every group function takes an optional ``guards`` mask of shape ``(K,)``;
when given, rewards are computed over the positive items only and then
multiplied by the rollout's guard factor (:func:`guard_factor`, the same
``GUARD_PENALTY ** b``); guards get weight 0, so :func:`fraction_reward` of
an episode's row is its :func:`score`. :func:`binary_reward` needs every
item, guards included.

Corner cases (default weighting):

* every item passes in every rollout: ``p = 1``, all weights ``1/K``,
  every reward 1.0 (GRPO advantages are then 0: nothing to learn);
* no item ever passes: ``p = 0``, all weights ``1/K``, every reward 0.0;
* ``G = 1``: ``p_k`` is 0 or 1, so failed items weigh ``(1+ε)/ε`` times
  more than passed ones: with ``n`` of ``K`` items passed the reward is
  ``nε / (nε + (K−n)(1+ε))`` — 0 with none, 1 with all, small in between
  (single rollouts carry no group statistics; use groups of ``G ≥ 2``);
* ``K = 1``: the single weight is 1 and the reward equals the binary reward.

Example:
    >>> import numpy as np
    >>> passes = np.array([[1, 0], [1, 0], [1, 1], [0, 0]])  # record, notify
    >>> out = completion_focused_reward(passes)
    >>> [round(float(w), 4) for w in out.weights]
    [0.2917, 0.7083]
    >>> [round(float(r), 4) for r in out.rewards]
    [0.2917, 0.2917, 1.0, 0.0]
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable, Mapping, Sequence

import numpy as np

#: Default ε of :func:`inverse_pass_rate_weights`: a passed-by-all item keeps
#: a small positive weight, so partial completion always earns reward.
DEFAULT_EPS = 0.1

#: A weighting function: the ``(K,)`` per-item pass rates in [0, 1] to
#: ``(K,)`` non-negative raw weights (normalised by the caller, sum > 0).
WeightFn = Callable[[np.ndarray], np.ndarray]

#: Each broken guard halves the reward (the rule: module docstring, *Guards*).
GUARD_PENALTY = 0.5


def guard_multiplier(broken: int) -> float:
    """The factor a reward is scaled by when ``broken`` guards failed:
    ``GUARD_PENALTY ** broken`` (see the module docstring, *Guards*)."""
    return GUARD_PENALTY ** broken


def as_pass_matrix(passes: object) -> np.ndarray:
    """Validate and convert a pass matrix to ``float64`` of shape ``(G, K)``.

    Args:
        passes: array-like of shape ``(G, K)`` with values in [0, 1]
            (booleans, 0/1, or partial credit).

    Returns:
        A new ``float64`` array of shape ``(G, K)``.

    Raises:
        ValueError: not 2-D, ``G == 0`` or ``K == 0``, non-finite values, or
            values outside [0, 1].
    """
    try:
        arr = np.array(passes, dtype=np.float64)
    except (TypeError, ValueError) as exc:
        raise ValueError(f"pass matrix must be numeric, got {type(passes).__name__} ({exc})") from None
    if arr.ndim != 2:
        raise ValueError(f"pass matrix must be 2-D (G rollouts × K items), got shape {arr.shape}")
    if arr.shape[0] == 0 or arr.shape[1] == 0:
        raise ValueError(f"pass matrix needs at least one rollout and one item, got shape {arr.shape}")
    if not np.all(np.isfinite(arr)) or np.any(arr < 0) or np.any(arr > 1):
        raise ValueError("pass matrix values must be finite and in [0, 1]")
    return arr


def pass_rates(passes: object) -> np.ndarray:
    """Per-item pass rates over the group: shape ``(K,)``, values in [0, 1]."""
    return as_pass_matrix(passes).mean(axis=0)


def guard_mask(guards: object, k: int) -> np.ndarray:
    """The ``(K,)`` boolean guard mask (all False when ``guards`` is None).

    Raises:
        ValueError: wrong shape.
    """
    if guards is None:
        return np.zeros(k, dtype=bool)
    mask = np.asarray(guards, dtype=bool).reshape(-1)
    if mask.shape != (k,):
        raise ValueError(f"guard mask must have shape ({k},), got {mask.shape}")
    return mask


def guard_factor(passes: object, guards: object = None) -> np.ndarray:
    """Per rollout, ``GUARD_PENALTY ** (guard items failed)`` (1.0 without guards); ``(G,)``.

    :func:`guard_multiplier` of each row (the rule: module docstring, *Guards*).
    """
    arr = as_pass_matrix(passes)
    mask = guard_mask(guards, arr.shape[1])
    broken = (arr[:, mask] < 1.0).sum(axis=1) if mask.any() else np.zeros(arr.shape[0])
    return GUARD_PENALTY ** broken


@dataclass(frozen=True)
class RubricRow:
    """One episode's rubric results as one row of a pass matrix.

    Attributes:
        ids: ``(K,)`` rubric item ids, in rubric order.
        passes: ``(K,)`` ``float64``, 1.0 where the item passed, else 0.0.
        guards: ``(K,)`` ``bool``, True where the item is a guard.
    """

    ids: tuple[str, ...]
    passes: np.ndarray
    guards: np.ndarray


def _get(result: Any, name: str, default: Any = None) -> Any:
    # A CheckResult (duck-typed: this module imports no checks) or its dict.
    return result.get(name, default) if isinstance(result, Mapping) else getattr(result, name, default)


def rubric_row(results: Sequence[Any]) -> RubricRow:
    """The pass row and guard mask of one episode's rubric results.

    Args:
        results: ``K`` results, each a :class:`compoworld_gym.checks.CheckResult`
            or its dict ``{"id", "kind", "passed", "guard", "description"}``
            (as in ``info["rubric"]``; a missing ``guard`` reads False).

    Returns:
        A :class:`RubricRow` with ``ids`` ``(K,)``, ``passes`` ``(K,)`` and
        ``guards`` ``(K,)``; stack rows of one task into a ``(G, K)`` pass matrix.
    """
    return RubricRow(ids=tuple(_get(r, "id") for r in results),
                     passes=np.array([1.0 if _get(r, "passed") else 0.0 for r in results], dtype=np.float64),
                     guards=np.array([bool(_get(r, "guard", False)) for r in results], dtype=bool))


def score(results: Sequence[Any]) -> float:
    """The default reward of one finished episode, in [0, 1].

    ``(passed positives / #positives) × GUARD_PENALTY ** (guards broken)``:
    the rule stated in the module docstring (*Guards*); work factor 1 when
    there are no positive items, 0.0 for an empty rubric.

    Args:
        results: the episode's ``K`` rubric results (``CheckResult`` objects
            or their dicts, as for :func:`rubric_row`).
    """
    if not results:
        return 0.0
    row = rubric_row(results)
    pos = row.passes[~row.guards]
    work = float(pos.sum()) / pos.size if pos.size else 1.0
    return work * guard_multiplier(int((row.passes[row.guards] < 1.0).sum()))


def _positive(arr: np.ndarray, mask: np.ndarray) -> np.ndarray:
    return arr[:, ~mask] if (~mask).any() else np.ones((arr.shape[0], 1))


def binary_reward(passes: object, guards: object = None) -> np.ndarray:
    """1.0 for a rollout that passes every item (guards included), else 0.0; ``(G,)``."""
    del guards  # all-or-nothing already requires every guard
    return (as_pass_matrix(passes) >= 1.0).all(axis=1).astype(np.float64)


def fraction_reward(passes: object, guards: object = None) -> np.ndarray:
    """The fraction of positive items passed, times the guard factor; ``(G,)``."""
    arr = as_pass_matrix(passes)
    mask = guard_mask(guards, arr.shape[1])
    return _positive(arr, mask).mean(axis=1) * guard_factor(arr, mask)


def weighted_reward(passes: object, weights: object, guards: object = None) -> np.ndarray:
    """``Σ_k w_k · pass[g, k]`` over positive items (weights renormalised to sum
    to 1 over them), times the guard factor.

    Args:
        passes: the ``(G, K)`` pass matrix.
        weights: ``(K,)`` non-negative weights with a positive sum (over the
            positive items when ``guards`` is given).
        guards: optional ``(K,)`` guard mask.

    Returns:
        Rewards of shape ``(G,)`` in [0, 1].

    Raises:
        ValueError: bad pass matrix, or weights of the wrong shape, negative,
            non-finite or summing to 0.
    """
    arr = as_pass_matrix(passes)
    mask = guard_mask(guards, arr.shape[1])
    raw = np.asarray(weights, dtype=np.float64).reshape(-1)
    if raw.shape != (arr.shape[1],):
        raise ValueError(f"weights must have shape ({arr.shape[1]},), got {raw.shape}")
    if mask.all():
        return guard_factor(arr, mask)
    return (arr[:, ~mask] @ normalise_weights(raw[~mask], int((~mask).sum()))) * guard_factor(arr, mask)


def normalise_weights(weights: object, k: int) -> np.ndarray:
    """``weights / weights.sum()`` after checking shape ``(k,)`` and signs.

    Raises:
        ValueError: wrong shape, negative or non-finite entries, or a zero sum.
    """
    try:
        w = np.array(weights, dtype=np.float64)
    except (TypeError, ValueError) as exc:
        raise ValueError(f"weights must be numeric ({exc})") from None
    if w.shape != (k,):
        raise ValueError(f"expected {k} weights (one per rubric item), got shape {w.shape}")
    if not np.all(np.isfinite(w)) or np.any(w < 0):
        raise ValueError(f"weights must be finite and non-negative, got {w.tolist()}")
    total = w.sum()
    if total <= 0:
        raise ValueError("weights sum to 0: at least one item needs a positive weight")
    return w / total


def inverse_pass_rate_weights(rates: np.ndarray, eps: float = DEFAULT_EPS) -> np.ndarray:
    """The default weighting function: raw weights ``1 − p_k + ε``.

    Args:
        rates: ``(K,)`` pass rates in [0, 1].
        eps: a positive floor (see the module docstring for why).

    Raises:
        ValueError: ``eps`` is not a positive finite number.
    """
    if not (isinstance(eps, (int, float)) and np.isfinite(eps) and eps > 0):
        raise ValueError(f"eps must be a positive number, got {eps!r}")
    return 1.0 - np.asarray(rates, dtype=np.float64) + float(eps)


def equal_weights(rates: np.ndarray) -> np.ndarray:
    """A weighting function giving every item the same weight (= fraction reward)."""
    return np.ones_like(np.asarray(rates, dtype=np.float64))


@dataclass(frozen=True)
class GroupReward:
    """The result of :func:`completion_focused_reward`.

    Attributes:
        rewards: ``(G,)`` reward of each rollout, in [0, 1].
        weights: ``(K,)`` normalised item weights (sum 1).
        pass_rates: ``(K,)`` per-item pass rates of the group.
    """

    rewards: np.ndarray
    weights: np.ndarray
    pass_rates: np.ndarray


def completion_focused_reward(passes: object, weight_fn: WeightFn | None = None,
                              guards: object = None) -> GroupReward:
    """The completion-focused rubric reward of one group (formula above).

    Args:
        passes: the ``(G, K)`` pass matrix of one group of rollouts of the
            same task.
        weight_fn: pass rates ``(K,)`` → raw weights ``(K,)``; default
            :func:`inverse_pass_rate_weights` with ``ε = 0.1``.
        guards: optional ``(K,)`` guard mask: guards get weight 0 and
            scale each rollout's reward by its guard factor.

    Returns:
        A :class:`GroupReward` with rewards, normalised weights and pass rates.

    Raises:
        ValueError: a bad pass matrix, or ``weight_fn`` returned weights of
            the wrong shape, negative, non-finite or summing to 0.
    """
    arr = as_pass_matrix(passes)
    mask = guard_mask(guards, arr.shape[1])
    rates = arr.mean(axis=0)
    weights = np.zeros(arr.shape[1])
    if mask.all():
        return GroupReward(rewards=guard_factor(arr, mask), weights=weights, pass_rates=rates)
    pos = ~mask
    raw = (weight_fn or inverse_pass_rate_weights)(rates[pos].copy())
    weights[pos] = normalise_weights(raw, int(pos.sum()))
    rewards = (arr[:, pos] @ weights[pos]) * guard_factor(arr, mask)
    return GroupReward(rewards=rewards, weights=weights, pass_rates=rates)


__all__ = [
    "DEFAULT_EPS", "GUARD_PENALTY", "GroupReward", "RubricRow", "WeightFn", "as_pass_matrix",
    "binary_reward", "completion_focused_reward", "equal_weights", "fraction_reward", "guard_factor",
    "guard_mask", "guard_multiplier", "inverse_pass_rate_weights",
    "normalise_weights", "pass_rates", "rubric_row", "score", "weighted_reward",
]
