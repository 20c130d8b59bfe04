"""The verifiers taskset id `compoworld-verifiers`: CompoWorld's Taskset and default harness.

verifiers finds a taskset by importing a top-level module named after its id
(dotted ids fail in its loader), so this module exists only to be found:
``vf-eval compoworld-verifiers ...``. See ``docs/integrations/verifiers.md``.
"""

from compoworld_gym.integrations.verifiers import CompoWorldHarness, CompoWorldTaskset

__all__ = ["CompoWorldTaskset", "CompoWorldHarness"]
