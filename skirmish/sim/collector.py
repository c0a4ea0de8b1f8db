"""The cyclic garbage collector's pace while bots play batches of games.

A bot game allocates hundreds of thousands of small containers (tuples of coordinates, lists of
candidates), nearly all freed by reference counting the moment they are dropped. CPython's
default first-generation threshold (700 allocations) runs the collector some twenty times a
random-bot game, and each run walks whatever young containers are alive at that moment: 19 ms of
a 108 ms random game (18 %) and 2 of 48 ms in a heuristic one, measured with `gc.callbacks` over
40 default games. A threshold of 10,000 collects the same garbage in about a twentieth as many
runs (8 ms a random game), at the price of some 15 MB more resident memory a process. Outcomes
cannot depend on it: no rule or bot reads the collector, weak references or finalisers.
"""

from __future__ import annotations

import gc
from collections.abc import Iterator
from contextlib import contextmanager

BATCH_THRESHOLD = 10_000
"""First-generation threshold while a batch plays (CPython's default is 700)."""


@contextmanager
def fewer_collections(threshold: int = BATCH_THRESHOLD) -> Iterator[None]:
    """Run the body with the collector's first-generation threshold raised, then put back the
    thresholds the process had (a library call must not change its caller's collector)."""
    old = gc.get_threshold()
    gc.set_threshold(max(threshold, old[0]), *old[1:])
    try:
        yield
    finally:
        gc.set_threshold(*old)
