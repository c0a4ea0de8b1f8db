"""Loading the compiled sight kernel up front (`sight_plain.compiled(now=True)`), as the benchmarks
and the troupe tester's parent do before forking: in a fresh interpreter, with numba the kernel is
loaded without waiting for EXACT_AFTER exact batches, and without numba (`SKIRMISH_NO_JIT=1`) it
stays off and the numpy kernel answers. Either way a forked worker's games are the same games."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

_PROBE = """
from skirmish.battlefield import sight_plain
from skirmish.sim.executors import _share_before_fork
_share_before_fork()
print(sight_plain._EXACT_ASKED[0], sight_plain._COMPILED and sight_plain._COMPILED[0] is not None)
"""


def _probe(**env: str) -> str:
    done = subprocess.run(
        [sys.executable, "-c", _PROBE],
        env=dict(os.environ, **env),
        capture_output=True,
        text=True,
        check=True,
        timeout=300,
    )
    return done.stdout.split()[-2] + " " + done.stdout.split()[-1]


def test_the_fork_parent_loads_the_compiled_sight_kernel_before_any_exact_batch() -> None:
    pytest.importorskip("numba")
    assert _probe() == "0 True"  # no exact batch asked, the kernel loaded and checked


def test_without_numba_the_sight_kernel_stays_the_numpy_reference() -> None:
    assert _probe(SKIRMISH_NO_JIT="1") == "0 False"
