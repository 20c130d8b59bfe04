"""Gymnasium wrappers of compoworld-gym (installed as ``compoworld_gym.wrappers``)."""
