"""Gymnasium wrappers of compoworld-gym (installed as ``compoworld_gym.wrappers``).

Single-env wrappers (each passes ``check_env``):

* :class:`RubricReward` — binary / fraction / weighted / custom rubric reward;
* :class:`ChatFormat` — message-list observations, raw model text actions;
* :class:`FlatTools` — the mounted tools as plain function tools;
* :class:`RecordTrajectory` — JSONL episodes in the paper's format;
* :class:`GroupMember` — a sub-env of a grouped vector env;
* :class:`ScoreOnTruncation` — score an episode another wrapper truncated
  (registered ids apply it outermost, so ``max_episode_steps`` is safe).

Vector wrappers: :class:`GroupRollouts` (B tasks × G rollouts of the same
task) and :class:`CompletionFocusedReward` (the paper's group reward), built
together by :func:`make_grouped_vector_env`.
"""

from __future__ import annotations

from compoworld_gym.wrappers.chat_format import ChatFormat, MessageList
from compoworld_gym.wrappers.completion_focused import CompletionFocusedReward
from compoworld_gym.wrappers.flat_tools import FlatTools
from compoworld_gym.wrappers.grouped import GroupMember, GroupRollouts, make_grouped_vector_env
from compoworld_gym.wrappers.record_trajectory import RecordTrajectory
from compoworld_gym.wrappers.rubric_reward import RubricReward
from compoworld_gym.wrappers.score_on_truncation import ScoreOnTruncation, score_if_cut

__all__ = [
    "ChatFormat", "CompletionFocusedReward", "FlatTools", "GroupMember", "GroupRollouts",
    "MessageList", "RecordTrajectory", "RubricReward", "ScoreOnTruncation", "make_grouped_vector_env",
    "score_if_cut",
]
