"""Battlefield speed: line of sight, path checks, shortest paths and pushes (`run() -> dict`).

A 48" table with 15 seeded random pieces (rocks, dense woods, ruins, grass, hills) and 20
models, the size of a large skirmish. Targets (issue 3): los_pairs_per_second >= 300,000,
path_checks_per_second >= 50,000, shortest_path_ms <= 2, push_ms <= 1. Also measured: the sight
update after one model moves (what the engine asks after each move) and charge paths (R-C3).
"""

from __future__ import annotations

import time
from collections.abc import Callable

import numpy as np

from skirmish.battlefield.paths import Mover, charge_path, check_straight_moves, shortest_path
from skirmish.battlefield.physics import push
from skirmish.battlefield.sample import random_table, scatter_bases
from skirmish.battlefield.sight import sight_table, sight_table_update


def _best(fn: Callable[[], object], number: int, repeat: int = 5) -> float:
    """Best per-call seconds over `repeat` rounds (the least disturbed by other load)."""
    fn()
    best = float("inf")
    for _ in range(repeat):
        t0 = time.perf_counter()
        for _ in range(number):
            fn()
        best = min(best, (time.perf_counter() - t0) / number)
    return best


def run() -> dict[str, float]:
    rng = np.random.default_rng(2024)
    table = random_table(rng, pieces=15)
    radii = np.full(20, 0.5)
    radii[:3] = 0.8
    xy = scatter_bases(table, rng, radii)
    enemy = np.arange(20) >= 10
    n = len(xy)
    pairs = n * (n - 1) // 2

    los = _best(lambda: sight_table(table, xy, radii), 50)

    ends = xy[0] + rng.uniform(-6, 6, (2000, 2))
    checks = _best(
        lambda: check_straight_moves(Mover(table, 0, xy, radii, enemy), xy[:1], ends, max_length=6.0), 10
    )

    # Shortest paths across the table for several movers, around rocks and bases.
    goals = [(i, scatter_bases(table, np.random.default_rng(i), np.array([radii[i]]))[0]) for i in range(8)]

    def paths() -> None:
        for i, g in goals:
            table.search_memo.clear()  # measure the search, not the memo (see paths._search)
            shortest_path(Mover(table, i, xy, radii), g)

    sp = _best(paths, 3) / len(goals)

    dirs = rng.normal(size=(10, 2))

    def pushes() -> None:
        for k in range(10):
            push(table, k, dirs[k], 3.0, xy, radii)

    ps = _best(pushes, 5) / 10

    vis = sight_table(table, xy, radii)
    moved = np.zeros(n, dtype=bool)
    moved[4] = True
    upd = _best(lambda: sight_table_update(table, vis, xy, radii, moved), 50)

    def charges() -> None:
        for i in range(10):
            table.search_memo.clear()
            table.path_memo.clear()
            charge_path(Mover(table, i, xy, radii, enemy), 10 + i)

    ch = _best(charges, 3) / 10
    return {
        "los_pairs_per_second": pairs / los,
        "los_table_ms": los * 1e3,
        "path_checks_per_second": len(ends) / checks,
        "shortest_path_ms": sp * 1e3,
        "push_ms": ps * 1e3,
        "sight_update_ms": upd * 1e3,
        "charge_path_ms": ch * 1e3,
    }


if __name__ == "__main__":
    import json

    print(json.dumps(run(), indent=1))
