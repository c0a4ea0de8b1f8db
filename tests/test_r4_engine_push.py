"""A push that meets nothing skips the simulation (R-M2, design principle 9): `slides_clear` may
only say so when pymunk would have slid the whole distance, so `push` answers what the simulated
push answers, bit for bit, on random tables and on the awkward cases (bases touching behind,
beside or just ahead, a base along a table side, shapes at the margin)."""

from __future__ import annotations

import math

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from skirmish.battlefield.physics import CLEAR_MARGIN, _simulated, max_free_distance, push, slides_clear
from skirmish.battlefield.sample import random_table, scatter_bases
from skirmish.battlefield.table import Table


def _reference(
    table: Table,
    mover: int,
    d: np.ndarray,
    distance: float,
    xy: np.ndarray,
    radii: np.ndarray,
    ignore: np.ndarray,
) -> np.ndarray:
    """The push as it was before the shortcut: always simulated, then judged by the geometry."""
    start = xy[mover].copy()
    unit = d / float(np.hypot(d[0], d[1]))
    along = _simulated(table, mover, start, unit, distance, xy, radii, ignore)
    return start + unit * max_free_distance(table, mover, start, unit, along, xy, radii, ignore)


def _check(
    table: Table, d: np.ndarray, distance: float, xy: np.ndarray, radii: np.ndarray, ignore: np.ndarray
) -> bool:
    """Asserts the shortcut's promise and the push's identity; returns whether it was taken."""
    unit = d / float(np.hypot(d[0], d[1]))
    clear = slides_clear(table, 0, xy[0].copy(), unit, distance, xy, radii, ignore)
    if clear:
        assert _simulated(table, 0, xy[0].copy(), unit, distance, xy, radii, ignore) == distance
    got = push(table, 0, d, distance, xy, radii, ignore=ignore)
    assert got.tobytes() == _reference(table, 0, d, distance, xy, radii, ignore).tobytes()
    return clear


@settings(max_examples=150, deadline=None)
@given(st.integers(0, 2**32 - 1))
def test_r_m2_an_unsimulated_push_lands_where_the_simulated_one_does(seed: int) -> None:
    rng = np.random.default_rng(seed)
    table = random_table(rng, pieces=int(rng.integers(0, 14)))
    radii = rng.choice([0.5, 0.8, 1.0], 9)
    xy = scatter_bases(table, rng, radii)
    ignore = rng.random(9) < 0.15
    ignore[0] = False
    d = rng.normal(size=2)
    unit = d / float(np.hypot(d[0], d[1]))
    kind = int(rng.integers(0, 4))
    if kind == 1:
        # A base touching the mover at some angle to the push (behind, beside or ahead), its gap
        # at or around zero and around the margin.
        angles = [0.0, math.pi / 2, -math.pi / 2, math.pi, float(rng.uniform(-math.pi, math.pi))]
        angle = float(rng.choice(angles))
        gap = float(rng.choice([0.0, 1e-12, -1e-12, CLEAR_MARGIN / 2, CLEAR_MARGIN * 2, 1e-3]))
        c, s = math.cos(angle), math.sin(angle)
        off = np.array([unit[0] * c - unit[1] * s, unit[0] * s + unit[1] * c]) * (radii[0] + radii[1] + gap)
        xy[1] = xy[0] + off
        ignore[1] = False
    elif kind == 2:
        # Along, toward or away from a table side, the base at or near it.
        side = int(rng.integers(0, 4))
        r = float(radii[0])
        gap = float(rng.choice([0.0, 1e-12, CLEAR_MARGIN * 2, 0.2]))
        x, y = xy[0]
        x = r + gap if side == 0 else table.width - r - gap if side == 1 else x
        y = r + gap if side == 2 else table.height - r - gap if side == 3 else y
        xy[0] = (x, y)
        d = rng.choice(np.array([[1.0, 0.0], [0.0, 1.0], [-1.0, 0.0], [0.0, -1.0], d]))
    elif kind == 3:
        # A base just off the push line, ahead: the slide passes it at about the margin.
        distance = 3.0
        t = float(rng.uniform(0.5, 2.5))
        side = np.array([-unit[1], unit[0]])
        gap = float(rng.choice([CLEAR_MARGIN / 2, CLEAR_MARGIN * 2, 1e-4, 0.0]))
        xy[1] = xy[0] + unit * t + side * (radii[0] + radii[1] + gap)
        ignore[1] = False
        _check(table, d, distance, xy, radii, ignore)
        return
    _check(table, d, float(rng.uniform(0.5, 6.0)), xy, radii, ignore)


def test_r_m2_free_and_blocked_pushes_take_the_right_path() -> None:
    """A free push is not simulated; one into a base or a table side is."""
    table = random_table(np.random.default_rng(3), pieces=0)
    radii = np.array([0.5, 0.5])
    xy = np.array([[10.0, 10.0], [10.0, 9.0]])  # touching behind a push up the table
    none = np.zeros(2, dtype=bool)
    assert _check(table, np.array([0.0, 1.0]), 2.0, xy, radii, none)
    assert not _check(table, np.array([0.0, -1.0]), 2.0, xy, radii, none)  # into the base
    edge = np.array([[table.width - 1.0, 10.0], [5.0, 5.0]])
    assert not _check(table, np.array([1.0, 0.0]), 2.0, edge, radii, none)  # off the table
