"""Cover and height of one centre in plain numbers (R-B2): `Table._point_facts_now` answers what
the batch code (`_cover_now`, `_height_now`) answers, on random tables and every shipped one, at
random points, at the pieces' vertices and box corners (where containment is decided on the
boundary) and just off them; and `cover_of`/`height_of` through the per-point memo agree."""

from __future__ import annotations

import numpy as np
import shapely
from hypothesis import given, settings
from hypothesis import strategies as st

from skirmish.battlefield.sample import random_table
from skirmish.battlefield.table import Table


def _points(table: Table, rng: np.random.Generator) -> np.ndarray:
    pts = [rng.uniform(0, [table.width, table.height], size=(30, 2))]
    for poly in table.polygons:
        ring = np.asarray(shapely.get_coordinates(poly))
        x0, y0, x1, y1 = shapely.bounds(poly)
        corners = np.array([[x0, y0], [x1, y1], [x0, y1], [x1, y0]])
        pts += [ring, corners, ring + rng.normal(scale=1e-9, size=ring.shape), (ring + ring.mean(0)) / 2]
    return np.vstack(pts)


def _agree(table: Table, rng: np.random.Generator) -> None:
    xy = _points(table, rng)
    rank, piece = table._cover_now(xy)
    height = table._height_now(xy)
    want = list(zip(rank.tolist(), piece.tolist(), height.tolist(), strict=True))
    got = [table._point_facts_now(x, y) for x, y in xy.tolist()]
    assert got == want
    for k in range(0, len(xy), 3):  # through the memo, a few centres at a time
        sub = xy[k : k + 3]
        r, c = table.cover_of(sub)
        assert r.tolist() == rank[k : k + 3].tolist() and c.tolist() == piece[k : k + 3].tolist()
        assert table.height_of(sub).tobytes() == height[k : k + 3].tobytes()


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 2**32 - 1))
def test_r_b2_one_centre_in_plain_numbers_is_the_batch_answer(seed: int) -> None:
    rng = np.random.default_rng(seed)
    _agree(random_table(rng, pieces=int(rng.integers(0, 16))), rng)


def test_r_b2_one_centre_on_every_shipped_table() -> None:
    from skirmish.data.catalogue import find_scenario, shipped

    rng = np.random.default_rng(2)
    for path in shipped("scenarios"):
        _agree(Table.from_scenario(find_scenario(str(path))), rng)
