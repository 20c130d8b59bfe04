"""Performance benchmarks (installed as ``compoworld_gym.benchmarks``); not tests."""
