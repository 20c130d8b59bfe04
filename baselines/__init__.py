"""Baseline agents, evaluation and training scripts (installed as ``compoworld_gym.baselines``)."""
