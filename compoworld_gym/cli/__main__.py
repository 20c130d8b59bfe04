"""``python -m compoworld_gym.cli``."""

from compoworld_gym.cli import main

main()
