"""A push's slide in plain floats (R-M2, design principle 9): `slides_clear` and the first stop of
`max_free_distance` (`battlefield.slide`) equal the numpy versions they replace, bit for bit, on
random tables and on the awkward set-ups — bases touching the mover behind, beside and ahead, the
mover against a table side, against an impassable edge or a corner, shapes at the margin — and the
whole of `max_free_distance` equals the numpy one it was (`_violations` as its last word)."""

from __future__ import annotations

import math

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from skirmish.battlefield.paths import Mover, _off_table, _violations
from skirmish.battlefield.physics import (
    CLEAR_MARGIN,
    _first_stop_numpy,
    _slides_clear_numpy,
    last_word,
    max_free_distance,
    sides_stop,
    slides_clear,
)
from skirmish.battlefield.sample import random_table, scatter_bases
from skirmish.battlefield.table import Table


def _max_free_numpy(
    table: Table,
    start: np.ndarray,
    unit: np.ndarray,
    length: float,
    xy: np.ndarray,
    radii: np.ndarray,
    ignore: np.ndarray,
) -> float:
    """`max_free_distance` as it was: the numpy first stop and `_violations` as the last word."""
    obs = Mover(table, 0, xy, radii, ignore=ignore).obstacles(start)
    r = obs.radius
    best = sides_stop(
        table, r, start, unit, length, _first_stop_numpy(table, 0, start, unit, length, xy, radii, ignore)
    )

    def ok(d: float) -> bool:
        end = (start + unit * d)[None, :]
        if _off_table(table, end, r)[0]:
            return False
        bad_b, bad_t = _violations(obs, start[None, :], end)
        return not (bad_b.any() or bad_t.any())

    return last_word(ok, best)


def _same(a: float, b: float) -> bool:
    return np.float64(a).tobytes() == np.float64(b).tobytes() or (a == b == 0.0)


def _check(
    table: Table, unit: np.ndarray, distance: float, xy: np.ndarray, radii: np.ndarray, ignore: np.ndarray
) -> None:
    start = xy[0].copy()
    assert slides_clear(table, 0, start, unit, distance, xy, radii, ignore) == _slides_clear_numpy(
        table, 0, start, unit, distance, xy, radii, ignore
    )
    got = max_free_distance(table, 0, start, unit, distance, xy, radii, ignore)
    want = _max_free_numpy(table, start, unit, distance, xy, radii, ignore)
    assert _same(got, want), (got, want)


def _near_edge(table: Table, rng: np.random.Generator, r: float) -> np.ndarray | None:
    """A point about `r` from a random impassable edge (outside, on it, or at a corner)."""
    edges = table.imp_edges
    if len(edges) == 0:
        return None
    a, b = edges[int(rng.integers(0, len(edges)))]
    e = b - a
    n = np.array([-e[1], e[0]]) / max(float(np.hypot(*e)), 1e-12)
    at = a if rng.random() < 0.3 else a + e * float(rng.uniform(0, 1))
    gap = float(rng.choice([0.0, 1e-12, -1e-12, CLEAR_MARGIN / 2, CLEAR_MARGIN * 2, 0.05]))
    return at + n * float(rng.choice([1.0, -1.0])) * (r + gap)


@settings(max_examples=200, deadline=None)
@given(st.integers(0, 2**32 - 1))
def test_r_m2_the_plain_slide_equals_the_numpy_slide(seed: int) -> None:
    rng = np.random.default_rng(seed)
    table = random_table(rng, pieces=int(rng.integers(0, 14)))
    radii = rng.choice([0.5, 0.8, 1.0], 9)
    xy = scatter_bases(table, rng, radii)
    ignore = rng.random(9) < 0.15
    ignore[0] = False
    d = rng.normal(size=2)
    unit = d / float(np.hypot(d[0], d[1]))
    kind = int(rng.integers(0, 5))
    if kind == 1:  # a base touching the mover behind, beside or ahead, at about the margin
        angle = float(
            rng.choice([0.0, math.pi / 2, -math.pi / 2, math.pi, float(rng.uniform(-math.pi, math.pi))])
        )
        gap = float(rng.choice([0.0, 1e-12, -1e-12, CLEAR_MARGIN / 2, CLEAR_MARGIN * 2, 1e-3]))
        c, s = math.cos(angle), math.sin(angle)
        xy[1] = xy[0] + np.array([unit[0] * c - unit[1] * s, unit[0] * s + unit[1] * c]) * (
            radii[0] + radii[1] + gap
        )
        ignore[1] = False
    elif kind == 2:  # against a table side, along, toward or away from it
        side = int(rng.integers(0, 4))
        r = float(radii[0])
        gap = float(rng.choice([0.0, 1e-12, CLEAR_MARGIN * 2, 0.2]))
        x, y = xy[0]
        x = r + gap if side == 0 else table.width - r - gap if side == 1 else x
        y = r + gap if side == 2 else table.height - r - gap if side == 3 else y
        xy[0] = (x, y)
        unit = rng.choice(np.array([[1.0, 0.0], [0.0, 1.0], [-1.0, 0.0], [0.0, -1.0], unit]))
    elif kind in (3, 4):  # against an impassable edge or corner, pushed along, into or off it
        at = _near_edge(table, rng, float(radii[0]))
        if at is not None:
            xy[0] = at
            if kind == 4:
                a, b = table.imp_edges[int(rng.integers(0, len(table.imp_edges)))]
                e = (b - a) * float(rng.choice([1.0, -1.0]))
                unit = e / max(float(np.hypot(*e)), 1e-12)
    _check(table, unit, float(rng.uniform(0.0, 8.0)), xy, radii, ignore)


def test_r_m2_the_plain_slide_on_every_shipped_table() -> None:
    """Every shipped scenario's table, bases scattered, pushed in eight directions and along edges."""
    from skirmish.data.catalogue import find_scenario, shipped

    rng = np.random.default_rng(5)
    for path in shipped("scenarios"):
        table = Table.from_scenario(find_scenario(str(path)))
        radii = rng.choice([0.5, 0.8, 1.0], 8)
        for _ in range(6):
            xy = scatter_bases(table, rng, radii)
            ignore = np.zeros(8, dtype=bool)
            at = _near_edge(table, rng, float(radii[0]))
            if at is not None and rng.random() < 0.6:
                xy[0] = at
            for k in range(8):
                unit = np.array([math.cos(k * math.pi / 4), math.sin(k * math.pi / 4)])
                _check(table, unit, 3.0, xy, radii, ignore)
