"""The sight kernel's fan in plain floats (R-B3): `PlainFan.pair_sees` clears a pair exactly when
the numpy kernel's fan does (`sight_pairs(..., exact=False)`), on random tables (bases in the
open, in dense cover, beside sight blockers and at their corners, touching) and on every shipped
table. The engine's questions through games with it are held to sight from scratch by
`tests/test_r4_engine_sight.py`."""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from skirmish.battlefield.sample import random_table, scatter_bases
from skirmish.battlefield.sight import _candidate_vertices, sight_pairs
from skirmish.battlefield.sight_plain import plain_fan, regions_of
from skirmish.battlefield.table import Table


def _agree(table: Table, xy: np.ndarray, radii: np.ndarray) -> int:
    """Asserts the plain fan equals the kernel's fan on every pair; returns how many it cleared."""
    plain = plain_fan(table, False)
    if plain is None:
        return 0
    i, j = np.triu_indices(len(xy), 1)
    want = sight_pairs(table, xy, radii, i, j, False, exact=False).tolist()
    regions = regions_of(table, xy)
    pts, rl = xy.tolist(), radii.tolist()
    for a, b, w in zip(i.tolist(), j.tolist(), want, strict=True):
        inside = [row[a] or row[b] for row in regions]
        got = plain.pair_sees(pts[a][0], pts[a][1], rl[a], pts[b][0], pts[b][1], rl[b], inside)
        assert got == w, (a, b)
    return sum(want)


def _awkward(table: Table, rng: np.random.Generator, xy: np.ndarray, radii: np.ndarray) -> np.ndarray:
    """Some bases moved onto or just off the blockers' and dense regions' corners."""
    verts = _candidate_vertices(table)
    out = xy.copy()
    if len(verts):
        for k in rng.choice(len(out), size=min(4, len(out)), replace=False).tolist():
            v = verts[int(rng.integers(0, len(verts)))]
            d = rng.normal(size=2)
            out[k] = v + d / float(np.hypot(*d)) * float(radii[k]) * float(
                rng.choice([0.0, 0.5, 1.0, 1.001, 2.0])
            )
    return out


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 2**32 - 1))
def test_r_b3_the_plain_fan_clears_what_the_kernel_fan_clears(seed: int) -> None:
    rng = np.random.default_rng(seed)
    table = random_table(rng, pieces=int(rng.integers(2, 12)))
    radii = rng.choice([0.5, 0.8, 1.0], 10)
    xy = scatter_bases(table, rng, radii)
    if rng.random() < 0.5:
        xy = _awkward(table, rng, xy, radii)
    _agree(table, xy, radii)


def test_r_b3_the_plain_fan_on_every_shipped_table() -> None:
    from skirmish.data.catalogue import find_scenario, shipped

    rng = np.random.default_rng(11)
    cleared = blocked = 0
    for path in shipped("scenarios"):
        table = Table.from_scenario(find_scenario(str(path)))
        assert plain_fan(table, False) is not None  # every shipped table is covered
        assert plain_fan(table, True) is None  # bases blocking sight: the kernel's
        radii = rng.choice([0.5, 0.8, 1.0], 12)
        for _ in range(4):
            xy = _awkward(table, rng, scatter_bases(table, rng, radii), radii)
            n = _agree(table, xy, radii)
            cleared += n
            blocked += len(xy) * (len(xy) - 1) // 2 - n
    assert cleared > 100 and blocked > 20  # both answers are exercised
