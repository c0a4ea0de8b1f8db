"""The benchmark's load-immune counts (`bench_speed.searches_per_game`) count what the games run.

Round 8 moved the games from `_search_now` to `_search_now_flat`, and the small straight batches
had gone to the compiled `jit.straight_moves` in round 6: the counters kept patching the old
entries and reported 0.0 searches and checks a game, a figure that reads as "nothing left to
save". A random default game lists moves for every model at every decision, so both counts are
well above zero."""

from __future__ import annotations

import importlib.util
from pathlib import Path

BENCH = Path(__file__).resolve().parents[1] / "benchmarks" / "bench_speed.py"


def test_issue15_bench_counts_searches_and_straight_checks() -> None:
    spec = importlib.util.spec_from_file_location("bench_speed_under_test", BENCH)
    assert spec is not None and spec.loader is not None
    bench = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(bench)
    searches, straights = bench.searches_per_game("open_battle", "random", games=1)
    assert searches > 10
    assert straights > 10
