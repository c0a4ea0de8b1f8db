"""The remembered straight-move check (`battlefield.reach`, issue 15) answers as a fresh one (R-M2)."""

from __future__ import annotations

import math

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from skirmish.battlefield.paths import Mover, check_straight_moves
from skirmish.battlefield.reach import straight_moves
from skirmish.battlefield.sample import random_table, scatter_bases

DIRS = np.array([(math.cos(k * math.pi / 4), math.sin(k * math.pi / 4)) for k in range(8)])


def _graze(rng: np.random.Generator, start: np.ndarray, end: np.ndarray, gap: float) -> np.ndarray:
    """A centre `gap` from a random point of the segment, square to it: on the kernel's boundary
    when `gap` is the clearance (the case a careless reuse would get wrong)."""
    d = end - start
    n = float(np.hypot(*d))
    t = float(rng.uniform(0.0, 1.0))
    side = 1.0 if rng.uniform() < 0.5 else -1.0
    return start + t * d + side * gap * np.array([-d[1], d[0]]) / max(n, 1e-12)


@settings(max_examples=15, deadline=None)
@given(st.integers(0, 2**32 - 1))
def test_r_m2_remembered_straight_moves_answer_as_fresh_checks_after_bases_move(seed: int) -> None:
    rng = np.random.default_rng(seed)
    table = random_table(rng, pieces=10, width=30.0, height=30.0)
    radii = rng.choice([0.5, 0.8], 10)
    xy = scatter_bases(table, rng, radii)
    enemy = np.arange(10) >= 5
    gone = np.zeros(10, dtype=bool)
    budget = 6.0
    for step in range(12):
        ends = np.concatenate([xy[0] + budget * DIRS, xy[0] + 0.5 * budget * DIRS])
        if step:
            k = int(rng.integers(1, 10))  # friends and enemies alike; never the mover
            xy = xy.copy()
            if rng.uniform() < 0.6:
                seg = int(rng.integers(0, len(ends)))
                clearance = float(radii[k] + radii[0])
                gap = clearance + float(rng.choice([-1e-3, -1e-9, 0.0, 1e-9, 1e-7, 1e-3, 0.5]))
                xy[k] = _graze(rng, xy[0], ends[seg], gap)
            else:
                xy[k] = rng.uniform([1.0, 1.0], [29.0, 29.0])
            if rng.uniform() < 0.1:
                gone[int(rng.integers(1, 10))] ^= True
        mover = Mover(table, 0, xy, radii, enemy, ignore=gone.copy())
        remembered = straight_moves(mover, xy[0][None, :], ends, max_length=budget)
        fresh = check_straight_moves(mover, xy[0][None, :], ends, max_length=budget)
        assert remembered.tolist() == np.asarray(fresh).tolist(), f"step {step}"


def test_r_m2_a_friend_moving_across_a_remembered_move_is_noticed() -> None:
    """A reuse is refused when a moved friend ends on one of the remembered segments."""
    table = random_table(np.random.default_rng(3), pieces=0, width=30.0, height=30.0)
    radii = np.array([0.5, 0.5, 0.5])
    xy = np.array([[5.0, 5.0], [20.0, 20.0], [25.0, 5.0]])
    enemy = np.array([False, False, True])
    ends = np.array([[11.0, 5.0], [5.0, 11.0]])
    first = straight_moves(Mover(table, 0, xy, radii, enemy), xy[0][None, :], ends, max_length=6.0)
    assert first.tolist() == [True, True]
    xy = xy.copy()
    xy[1] = [8.0, 5.0]  # the friend steps onto the first move's line
    second = straight_moves(Mover(table, 0, xy, radii, enemy), xy[0][None, :], ends, max_length=6.0)
    assert second.tolist() == [False, True]
