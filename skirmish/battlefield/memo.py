"""Bounded memos: the answers a table or a game keeps on exact keys, oldest forgotten first.

Every memo of the path finder, the listing and the checks keeps answers a fresh call would give
bit for bit, so which entries are forgotten changes only the time a later question takes, never
an answer. A dict's insertion order makes its first key the oldest.
"""

from __future__ import annotations

from typing import TypeVar

K = TypeVar("K")
V = TypeVar("V")


def remember(memo: dict[K, V], key: K, value: V, limit: int) -> V:
    """`memo[key] = value`, first forgetting the oldest entry when a new key would take the memo
    past `limit` entries (a key already kept is replaced in place); returns `value`."""
    if key not in memo and len(memo) >= limit:
        memo.pop(next(iter(memo)))
    memo[key] = value
    return value
