"""Round-8 audit: a Ctrl+C or SIGTERM that lands in a finaliser still stops the command.

CPython runs a signal handler wherever the main thread is; when that is a finaliser (pymunk frees
its spaces in an `ffi.gc` callback, and a troupe test builds thousands), the `KeyboardInterrupt`
is reported as unraisable and dropped, and the command ran on to exit 0 (seen in CI: `Exception
ignored from callback for ffi.gc <cdata 'struct cpSpace *'>`, then exit 0, not 130). While a command
runs, `skirmish.cli.main` sends such a stop to the main thread again."""

from __future__ import annotations

import sys
import time
from typing import Any

import pytest

from skirmish.cli import main as cli_main


class _StopsInFinaliser:
    def __init__(self, exc: type[BaseException]) -> None:
        self.exc = exc

    def __del__(self) -> None:
        raise self.exc()


def _run_bytecodes() -> None:
    """Ordinary code for up to 5 s: where a redelivered stop is raised (sleeping lets the helper
    thread that sends it run)."""
    deadline = time.monotonic() + 5
    while time.monotonic() < deadline:
        time.sleep(0.001)


@pytest.mark.parametrize("stop", [KeyboardInterrupt, cli_main.Terminated])
def test_a_stop_swallowed_by_a_finaliser_is_raised_again(stop: type[BaseException]) -> None:
    with cli_main._sigterm_unwinds(), pytest.raises(stop), cli_main._swallowed_stops_redelivered():
        obj = _StopsInFinaliser(stop)
        del obj  # the finaliser's exception is unraisable: dropped, then redelivered
        _run_bytecodes()


def test_without_the_hook_the_stop_is_lost() -> None:
    """The defect itself: a finaliser's KeyboardInterrupt does not reach the code around it."""
    seen: list[Any] = []
    previous = sys.unraisablehook
    sys.unraisablehook = seen.append
    try:
        obj = _StopsInFinaliser(KeyboardInterrupt)
        del obj
        _run_bytecodes()
    finally:
        sys.unraisablehook = previous
    assert [u.exc_type for u in seen] == [KeyboardInterrupt]


def test_other_unraisable_errors_reach_the_previous_hook() -> None:
    seen: list[Any] = []
    previous = sys.unraisablehook
    sys.unraisablehook = seen.append
    try:
        with cli_main._swallowed_stops_redelivered():
            obj = _StopsInFinaliser(ValueError)
            del obj
            _run_bytecodes()
        assert sys.unraisablehook == seen.append  # put back after the command
    finally:
        sys.unraisablehook = previous
    assert [u.exc_type for u in seen] == [ValueError]
