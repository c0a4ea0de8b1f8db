"""R-M2 / R-M3 straight moves: the compiled straight batch judged without building the mover's
obstacle set (`jit.straight_moves`, whose base rows are made in the compiled call from every
centre and radius) answers exactly what it answered on the obstacle set itself
(`jit.straight_moves_reference`: `Mover.obstacles(start, contact=False)` and its rows), and what
the plain-float reference `check_straight_moves` answers."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from skirmish.battlefield.paths import Mover, check_straight_moves, jit
from skirmish.battlefield.paths.check import STRAIGHT_SMALL
from skirmish.battlefield.sample import random_table, scatter_bases

pytest.importorskip("numba")
if jit.compiled() is None:  # numba installed, but SKIRMISH_NO_JIT=1 or the start-up check failed
    pytest.skip("the compiled path finder is off here", allow_module_level=True)

pytestmark = pytest.mark.rule("R-M3")


@pytest.mark.filterwarnings("ignore:invalid value encountered in distance:RuntimeWarning")  # a NaN end
@settings(max_examples=80, deadline=None)
@given(st.integers(0, 2**32 - 1))
def test_r_m2_r_m3_straight_batch_without_the_obstacle_set_is_the_one_on_it(seed: int) -> None:
    """Random tables (with and without impassable pieces), friends, enemies (some touching the
    start), the out-of-play, flyers, any mover index, moves grazing a base at its clearance, at
    the budget's edge, off the table and non-finite: the same booleans all three ways."""
    rng = np.random.default_rng(seed)
    t = random_table(rng, pieces=int(rng.integers(0, 10)))
    n = int(rng.integers(2, 40))
    radii = rng.choice([0.5, 0.8, 1.2, 1.5], n)
    xy = scatter_bases(t, rng, radii)
    me = int(rng.integers(0, n))
    enemy = rng.random(n) < 0.5
    other = (me + 1) % n
    if rng.random() < 0.3:  # an enemy touching the mover at the start
        xy[other] = xy[me] + (radii[me] + radii[other] + 0.005) * np.array([1.0, 0.0])
        enemy[other] = True
    ignore = None if rng.random() < 0.4 else rng.random(n) < 0.15
    for flying in (False, True):
        mover = Mover(t, me, xy, radii, None if rng.random() < 0.2 else enemy, flying=flying, ignore=ignore)
        budget = float(rng.choice([3.0, 6.0, 12.0]))
        k = int(rng.integers(1, STRAIGHT_SMALL + 1))
        ang = rng.uniform(0, 2 * np.pi, k)
        length = budget * rng.choice([0.5, 1.0, 1.0 + 1e-7, 1.5], k)
        ends = xy[me] + length[:, None] * np.stack([np.cos(ang), np.sin(ang)], axis=-1)
        if rng.random() < 0.5:  # a move ending exactly at another base's clearance (either side)
            d = xy[other] - xy[me]
            gap = (radii[me] + radii[other]) * rng.choice([1.0 - 1e-12, 1.0, 1.0 + 1e-12])
            ends[-1] = xy[other] - d / np.hypot(*d) * gap
        if rng.random() < 0.2:
            ends[0] = [np.nan, 1.0]
        many = rng.random() < 0.3
        starts = xy[me] + rng.uniform(-0.5, 0.5, (k, 2)) if many else xy[me][None, :]
        got = jit.straight_moves(mover, starts, ends, budget)
        on_set = jit.straight_moves_reference(mover, starts, ends, budget)
        want = check_straight_moves(mover, starts, ends, max_length=budget)
        assert got is not None and on_set is not None
        assert got.dtype == on_set.dtype == want.dtype
        assert got.tolist() == on_set.tolist() == want.tolist()
