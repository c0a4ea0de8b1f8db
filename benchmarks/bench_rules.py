"""Rules-layer speed: exact odds queries (uncached and cached) and profile validation.

Bots ask for shot odds in their inner loops, so `shot_odds` must answer at least 100,000 queries
a second *without* a cache; the cached figure is reported separately so the two are never
confused. Each figure is the median of 5 timed runs over a fixed, varied list of arguments.
"""

from __future__ import annotations

import itertools
import statistics
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from skirmish.data.catalogue import content_root

ROOT = Path(__file__).resolve().parents[1]
CONTENT = content_root()
RUNS = 5


def _median_rate(work: Callable[[], int]) -> float:
    """Median over RUNS of (items done / seconds)."""
    rates = []
    for _ in range(RUNS):
        start = time.perf_counter()
        n = work()
        rates.append(n / (time.perf_counter() - start))
    return statistics.median(rates)


def _shot_queries() -> list[tuple[Any, ...]]:
    """A deterministic spread of queries: every score pairing, save, cover, breaker, damage and HP mix."""
    saves = (None, 3, 4, 5, 6)
    combos = itertools.product(
        range(-1, 8), range(-1, 7), saves, (None, 5), (False, True), (False, True), (1, 2), (1, 3)
    )
    return list(combos)  # 9 * 8 * 5 * 2 * 2 * 2 * 2 * 2 = 23,040 queries


def _odds_rate(fn: Callable[..., Any], queries: list[tuple[Any, ...]]) -> float:
    def work() -> int:
        for q in queries:
            fn(*q)
        return len(queries)

    return _median_rate(work)


def _profile_rate() -> float:
    import tomllib

    from skirmish.data.troupe import Profile

    data = tomllib.loads((CONTENT / "troupes" / "team_avatar.toml").read_text(encoding="utf-8"))
    profiles = [entry["profile"] for entry in data["models"]]
    batch = profiles * (2000 // len(profiles) + 1)

    def work() -> int:
        for p in batch:
            Profile.model_validate(p)
        return len(batch)

    return _median_rate(work)


def run() -> dict[str, float]:
    from skirmish.rules.odds import cached_shot_odds, melee_odds, shot_odds

    queries = _shot_queries()
    cached_shot_odds.cache_clear()
    for q in queries:  # warm the cache: the cached figure measures hits
        cached_shot_odds(*q)
    melee_queries = [
        (a, d, 4, None, 5, 5, False, True, 1, 2, 2, 1) for a in range(-2, 8) for d in range(-2, 8)
    ]
    return {
        "odds_queries_per_second": round(_odds_rate(shot_odds, queries)),
        "odds_queries_per_second_cached": round(_odds_rate(cached_shot_odds, queries)),
        "melee_odds_queries_per_second": round(_odds_rate(melee_odds, melee_queries * 50)),
        "validate_profiles_per_second": round(_profile_rate()),
    }


if __name__ == "__main__":
    import json

    print(json.dumps(run(), indent=2))
