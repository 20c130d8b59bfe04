"""Text spaces for LLM environments.

``gymnasium.spaces.Text`` checks every character against a charset; its
default charset is alphanumeric and rejects JSON, and a full-unicode charset
costs ~2 s to build and ~46 MB pickled (DESIGN.md §3). :class:`Unicode`
accepts any ``str`` within the length bounds (BrowserGym's pattern).
"""

from __future__ import annotations

from typing import Any

from gymnasium.spaces import Text

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
