"""Text spaces for LLM environments.

``gymnasium.spaces.Text`` checks every character against a charset; its
default charset is alphanumeric and rejects JSON, and a full-unicode charset
costs ~2 s to build and ~46 MB pickled (measured; see "Text spaces" in
``docs/design-notes.md``). :class:`Unicode` accepts any ``str`` within the
length bounds (BrowserGym's pattern).
"""

from __future__ import annotations

from typing import Any

from gymnasium.spaces import Text
from gymnasium.vector.utils.shared_memory import create_shared_memory

_SAMPLE_CHARSET = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789 {}[]:,\"'_-.é漢🙂"


class Unicode(Text):
    """A text space whose members are any Python ``str`` of bounded length.

    Args:
        max_length: the longest accepted string, in characters.
        min_length: the shortest accepted string (default 0).

    Example:
        >>> space = Unicode(max_length=100)
        >>> space.contains('{"name": "list_services"} 漢')
        True
        >>> space.contains(b"bytes")
        False
    """

    def __init__(self, max_length: int, *, min_length: int = 0, seed: Any = None) -> None:
        if not isinstance(max_length, int) or max_length < 1:
            raise ValueError(f"max_length must be a positive int, got {max_length!r}")
        super().__init__(max_length=max_length, min_length=min_length, charset=_SAMPLE_CHARSET, seed=seed)

    def contains(self, x: Any) -> bool:
        """True for a ``str`` with ``min_length <= len(x) <= max_length``."""
        return isinstance(x, str) and self.min_length <= len(x) <= self.max_length

    def __eq__(self, other: Any) -> bool:
        return (isinstance(other, Unicode) and other.min_length == self.min_length
                and other.max_length == self.max_length)

    def __hash__(self) -> int:
        return hash((Unicode, self.min_length, self.max_length))

    def __repr__(self) -> str:
        return f"Unicode({self.min_length}, {self.max_length})"


__all__ = ["Unicode"]


class SharedMemoryUnsupported(TypeError):
    """A :class:`Unicode` space was asked for shared memory (AsyncVectorEnv's default)."""


@create_shared_memory.register(Unicode)
def _no_shared_memory(space: Unicode, n: int = 1, ctx: Any = None) -> Any:
    # Text's shared-memory codec stores charset indices: arbitrary unicode has none,
    # and a fixed-size buffer of max_length code points per env would be huge.
    raise SharedMemoryUnsupported(
        "compoworld text observations cannot use shared memory: create the vector env with "
        "AsyncVectorEnv(env_fns, shared_memory=False), or "
        "gym.make_vec(..., vectorization_mode='async', vector_kwargs={'shared_memory': False})")
